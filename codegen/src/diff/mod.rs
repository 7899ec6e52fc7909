//! `abi-codegen diff`: every change between two laid-out schemas, each classified as breaking,
//! source-breaking, compatible or cosmetic, and the version policy checked against them.
//! [`compute_diff`] is a pure function of two [`Schema`](crate::schema::Schema)s; one `render_*` per output
//! format turns the result into text. Reading the old schema (a file, or `git show`) is
//! `write`'s job.

mod change;
mod compute;
mod consts;
mod declared;
mod decls;
mod directories;
mod enums;
mod events;
mod facts;
mod github;
mod group;
mod json;
mod layouts;
mod markdown;
mod model;
mod policy;
mod rules;
mod shared;
mod structs;
mod text;
mod verdict;

pub use compute::{compute_diff, compute_new_abi};
pub use github::{MAX_ANNOTATIONS, render_github};
pub use json::render_json;
pub use markdown::render_markdown;
pub use policy::{compute_verdict, required_bump};
pub use rules::{
    RULES, Rule, render_rules_json, render_rules_markdown, render_rules_text, rule_of,
};
pub use text::render_text;

pub use change::{Change, ChangeKind, ItemKind, Severity, Shape};
pub use model::{Diff, Group, Location, NewAbi, Sources};
pub use verdict::{Bump, Verdict};
