//! The `abi-codegen` command line: the library's `cli` module parses the arguments and
//! dispatches to one module per command, which imports no other command's.

use std::process::ExitCode;

/// See codegen/Cargo.toml: the command line allocates in many small pieces.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    abi_codegen::cli::main()
}
