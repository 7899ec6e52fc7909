//! Generates the bridge ABI's Rust bindings from `schema.toml` into `$OUT_DIR/bridge.rs`.
//! Uses only the codegen library's parse, layout and Rust backend (no default features).

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    // The generator itself is a build-dependency: cargo reruns this script when it changes.
    println!("cargo:rerun-if-changed=schema.toml");
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let schema_path = Path::new(&manifest).join("schema.toml");
    let src = match abi_codegen::write::read_schema(&schema_path) {
        Ok(src) => src,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", schema_path.display());
            return ExitCode::FAILURE;
        }
    };
    let schema = match abi_codegen::load_schema(&src) {
        Ok(schema) => schema,
        Err(errors) => {
            // The same diagnostics `abi-codegen generate` prints.
            eprint!("{}", errors.render("schema.toml", &src));
            return ExitCode::FAILURE;
        }
    };
    let rust = abi_codegen::language_backend::rust::expand_rust(&schema, "schema.toml");
    let out = Path::new(&out_dir).join(format!("{}.rs", schema.abi.name));
    if let Err(e) = abi_codegen::write::ensure_file_contents(&out, &rust) {
        eprintln!("error: cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
