//! The whole build script of a crate that uses the generator: one call.

fn main() {
    abi_codegen::Builder::new("schema.toml").generate_or_exit();
}
