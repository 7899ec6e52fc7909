//! Generates the bridge ABI's Rust bindings from `schema.toml` into `$OUT_DIR/bridge.rs`,
//! with the generator's `Builder` (the library without its default features: no templates,
//! no command line).

fn main() {
    abi_codegen::Builder::new("schema.toml").generate_or_exit();
}
