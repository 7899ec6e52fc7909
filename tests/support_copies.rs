//! The two copies of the generated Rust's support macros agree (issue 49): abi-codegen's
//! `rust/support/` (printed into a schema without shared memory, which needs only zerocopy)
//! and abi-runtime's `support` module (which a live schema's Rust invokes). abi-codegen cannot
//! take the runtime's (a build script's build would compile abi-runtime twice:
//! build_dependencies.rs), so this test holds them together: every line of the codegen's
//! `abi_enum!`, `abi_flags!`, `abi_struct!` and `array` Debug comes, in order, in the
//! runtime's, once the runtime's `$crate::` paths are read as the codegen's local ones (and
//! its public `array` module as the codegen's private one). The
//! codegen's `text` module is its own (the runtime keeps only its `Debug`, `TextDebug`).

use std::path::Path;

/// The runtime's text with its paths as the codegen's copy spells them.
fn runtime_as_codegen() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join("runtime/src/support.rs"))
        .unwrap()
        .replace("$crate::support::FromZeros", "::zerocopy::FromZeros")
        .replace("$crate::support::array::", "array::")
        .replace("$crate::support::TextDebug", "text::Debug")
        .replace("$crate::abi_", "abi_")
        // The runtime's module is public, for the live Rust's expansions to reach.
        .replace("pub mod array {", "mod array {")
}

#[test]
fn the_codegen_support_macros_are_the_runtimes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtime = runtime_as_codegen();
    let runtime: Vec<&str> = runtime.lines().map(str::trim_end).collect();
    for file in ["enum", "flags", "array", "struct"] {
        let path = root.join(format!(
            "codegen/src/language_backend/rust/support/{file}.rs"
        ));
        let copy = std::fs::read_to_string(&path).unwrap();
        let mut at = 0;
        let mut checked = 0;
        for line in copy
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
        {
            // Indentation differs where the runtime nests the code in a module.
            let found = runtime[at..]
                .iter()
                .position(|r| r.trim_start() == line.trim_start());
            let Some(found) = found else {
                panic!(
                    "{}: `{}` is not in runtime/src/support.rs after line {at}: edit both copies",
                    path.display(),
                    line.trim()
                );
            };
            at += found + 1;
            checked += 1;
        }
        assert!(checked > 20, "{file}: {checked} lines");
    }
}

#[test]
fn a_changed_line_is_caught() {
    // The check itself: a line the runtime does not hold fails it.
    let runtime = runtime_as_codegen();
    assert!(runtime.contains("pub const fn values() -> &'static [$ty] {"));
    assert!(!runtime.contains("pub const fn values() -> &'static [$ty; 2] {"));
}
