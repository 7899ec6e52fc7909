//! abi-codegen's integration tests, one binary: each `tests/<name>.rs` is a module here
//! (`cargo test -p abi-codegen --test suite <name>::` runs one file's tests), compiled and
//! linked once.

#[path = "action_workflow.rs"]
mod action_workflow;
#[path = "atomic_output.rs"]
mod atomic_output;
#[path = "attach_owners.rs"]
mod attach_owners;
#[path = "attach_plan.rs"]
mod attach_plan;
#[path = "builder.rs"]
mod builder;
#[path = "cli.rs"]
mod cli;
#[path = "diff_cli.rs"]
mod diff_cli;
#[path = "diff_workflow.rs"]
mod diff_workflow;
#[path = "init_cli.rs"]
mod init_cli;
#[path = "inspect_cli.rs"]
mod inspect_cli;
#[path = "inspect_live.rs"]
mod inspect_live;
#[path = "schema_json.rs"]
mod schema_json;
#[path = "synth.rs"]
mod synth;
