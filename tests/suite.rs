//! The bridge package's integration tests, one binary: each `tests/<name>.rs` is a module
//! here (`cargo test --test suite <name>::` runs one file's tests). One binary compiles
//! `tests/common` once and links once, where a binary per file did both for each of 65 files. Apart:
//! `live` and `live_stress`, which Miri runs (`.ci/run`), and `windows`, built for Windows.

#[path = "common/mod.rs"]
mod common;

#[path = "attach.rs"]
mod attach;
#[path = "attach_geometry.rs"]
mod attach_geometry;
#[path = "block_recheck.rs"]
mod block_recheck;
#[path = "build_dependencies.rs"]
mod build_dependencies;
#[path = "c_access_sizes.rs"]
mod c_access_sizes;
#[path = "c_attach.rs"]
mod c_attach;
#[path = "c_cas_bounds.rs"]
mod c_cas_bounds;
#[path = "c_directory.rs"]
mod c_directory;
#[path = "c_header.rs"]
mod c_header;
#[path = "c_live.rs"]
mod c_live;
#[path = "c_msvc.rs"]
mod c_msvc;
#[path = "c_pad_bind.rs"]
mod c_pad_bind;
#[path = "c_positions.rs"]
mod c_positions;
#[path = "c_protocols.rs"]
mod c_protocols;
#[path = "c_protocols_races.rs"]
mod c_protocols_races;
#[path = "c_protocols_torture.rs"]
mod c_protocols_torture;
#[path = "c_sessions_relayout.rs"]
mod c_sessions_relayout;
#[path = "c_tsan.rs"]
mod c_tsan;
#[path = "commands.rs"]
mod commands;
#[path = "conformance.rs"]
mod conformance;
#[path = "conformance/driver.rs"]
mod conformance_driver;
#[path = "consumer_crate.rs"]
mod consumer_crate;
#[path = "diff.rs"]
mod diff;
#[path = "diff_review.rs"]
mod diff_review;
#[path = "diff_rules.rs"]
mod diff_rules;
#[path = "diff_verdicts.rs"]
mod diff_verdicts;
#[path = "differential.rs"]
mod differential;
#[path = "directory.rs"]
mod directory;
#[path = "docs_links.rs"]
mod docs_links;
#[path = "docs_rust.rs"]
mod docs_rust;
#[path = "docs_snippets.rs"]
mod docs_snippets;
#[path = "events.rs"]
mod events;

#[path = "every_backend.rs"]
mod every_backend;
#[path = "five_minutes.rs"]
mod five_minutes;
#[path = "fuzz_front_end.rs"]
mod fuzz_front_end;
#[path = "generated_fresh.rs"]
mod generated_fresh;
#[path = "host_cpp.rs"]
mod host_cpp;
#[path = "host_geometry.rs"]
mod host_geometry;
#[path = "host_service.rs"]
mod host_service;
#[path = "host_tries.rs"]
mod host_tries;
#[path = "hostile_targets.rs"]
mod hostile_targets;
#[path = "hung_time.rs"]
mod hung_time;
#[path = "init.rs"]
mod init;
#[path = "inspect.rs"]
mod inspect;
#[path = "inspect_file.rs"]
mod inspect_file;
#[path = "inspect_image.rs"]
mod inspect_image;
#[path = "inspect_records.rs"]
mod inspect_records;
#[path = "js_template.rs"]
mod js_template;
#[path = "layout_snapshots.rs"]
mod layout_snapshots;
#[path = "live_mmap.rs"]
mod live_mmap;
#[path = "live_protocols.rs"]
mod live_protocols;
#[path = "live_relayout_sessions.rs"]
mod live_relayout_sessions;
#[path = "lockstep.rs"]
mod lockstep;
#[path = "markdown_reference.rs"]
mod markdown_reference;
#[path = "markdown_sections.rs"]
mod markdown_sections;
#[path = "pathological.rs"]
mod pathological;
#[path = "portability.rs"]
mod portability;
#[path = "produce.rs"]
mod produce;
#[path = "produce_matrix.rs"]
mod produce_matrix;
#[path = "python_attach.rs"]
mod python_attach;
#[path = "python_directory.rs"]
mod python_directory;
#[path = "python_ergonomics.rs"]
mod python_ergonomics;
#[path = "python_geometry.rs"]
mod python_geometry;
#[path = "python_live.rs"]
mod python_live;
#[path = "python_module.rs"]
mod python_module;
#[path = "python_platforms.rs"]
mod python_platforms;
#[path = "python_protocols.rs"]
mod python_protocols;
#[path = "python_recording.rs"]
mod python_recording;
#[path = "python_recording_damage.rs"]
mod python_recording_damage;
#[path = "readme_bot.rs"]
mod readme_bot;
#[path = "readme_examples.rs"]
mod readme_examples;
#[path = "readme_recording.rs"]
mod readme_recording;
#[path = "readme_snippets.rs"]
mod readme_snippets;
#[path = "recording_rust.rs"]
mod recording_rust;
#[path = "reference_layout.rs"]
mod reference_layout;
#[path = "reference_text.rs"]
mod reference_text;
#[path = "relayout_keeps.rs"]
mod relayout_keeps;
#[path = "row_fields.rs"]
mod row_fields;
#[path = "rust_bindings.rs"]
mod rust_bindings;
#[path = "rust_fixtures.rs"]
mod rust_fixtures;
#[path = "rust_protocols_demo.rs"]
mod rust_protocols_demo;
#[path = "schema_errors.rs"]
mod schema_errors;
#[path = "slot_chunks.rs"]
mod slot_chunks;
#[path = "starter_protocols.rs"]
mod starter_protocols;
#[path = "support_copies.rs"]
mod support_copies;
#[path = "templates_doc.rs"]
mod templates_doc;
#[path = "waiting_litmus.rs"]
mod waiting_litmus;
#[path = "wake_stats.rs"]
mod wake_stats;
/// The Rust bot's loop of the tick event, shared with the examples.
#[path = "../examples/wake_support/mod.rs"]
mod wake_support;
#[path = "who_may_attach_examples.rs"]
mod who_may_attach_examples;
