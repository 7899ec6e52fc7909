//! The command line's modules: one per command (`generate` and `check`, `layout`, `inspect`
//! with its live and seek reading, `diff`, `render`, `init`) and what they share
//! (`common`). `main` dispatches to them; no command module imports another.

pub(crate) mod common;
pub(crate) mod diff;
pub(crate) mod generate;
pub(crate) mod init;
pub(crate) mod inspect;
pub(crate) mod layout;
pub(crate) mod render;
mod run;

pub use run::main;
