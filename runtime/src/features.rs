//! The checks generated code makes for the optional features it needs: one macro per
//! such feature (today `recording`), which expands to nothing when this crate was built with it and to a
//! `compile_error!` naming the feature and the dependency line when it was not. A crate
//! cannot test another crate's features with `cfg`; these macros are expanded here, where
//! the feature is known, so the message is the first error the user sees (before the
//! unresolved imports it causes).

/// Expands to nothing: this build of abi-runtime has the `recording` feature, which the
/// generated `recording` module (a schema's `[[file]]` with encoded, seekable records) needs.
#[cfg(feature = "recording")]
#[macro_export]
macro_rules! require_recording {
    () => {};
}

/// Stops the build with a message that names the missing feature: this build of abi-runtime
/// lacks `recording`, which the generated `recording` module needs.
#[cfg(not(feature = "recording"))]
#[macro_export]
macro_rules! require_recording {
    () => {
        ::core::compile_error!(
            "the generated bindings read and write recordings (a [[file]] with encoded records): \
             enable abi-runtime's `recording` feature in Cargo.toml: \
             abi-runtime = { version = \"0.1\", features = [\"recording\"] }"
        );
    };
}
