//! The C header's directories (`templates/c_directory.h.j2`): the directory protocol once,
//! table-driven over a plan struct, and per `[[directory]]` its plan, printed from the IR's
//! (`ir/directory.rs`), with thin wrappers. Printed after the live helpers it uses.

use std::sync::LazyLock;

use serde::Serialize;

use super::comments::render_comment_lines;
use crate::ir::directory::Directory;
use crate::language_backend::common::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_directory.h.j2",
    source: include_str!("../../../templates/c_directory.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context {
    p: String,
    pu: String,
    /// The largest row and version string of any directory: the helpers' local buffers.
    entry_cap: u64,
    version_cap: u64,
    head_cap: u64,
    directories: Vec<DirectoryCtx>,
}

#[derive(Serialize)]
struct DirectoryCtx {
    name: String,
    doc: String,
    windows_name: String,
    linux_path: String,
    size: u64,
    magic_at: u64,
    entry_count_at: u64,
    entry_size_at: u64,
    entries_at: u64,
    word_at: u64,
    process_time_at: u64,
    abi_major_at: u64,
    abi_minor_at: u64,
    version_at: u64,
    version_len: u64,
    magic: String,
    max_entries: u32,
    entry_size: u32,
    free: u32,
    claimed: u32,
    live: u32,
    state_low: u8,
    abi_major: u16,
    abi_minor: u16,
}

/// The directories' section, or `None` when the schema declares none.
pub(super) fn render_c_directories(schema: &Schema) -> Result<Option<String>, RenderError> {
    if schema.directories.is_empty() {
        return Ok(None);
    }
    let p = schema.abi.c_prefix.clone();
    let ds = &schema.directories;
    let max = |f: fn(&Directory) -> u64| ds.iter().map(f).max().unwrap_or(8);
    let context = Context {
        pu: p.to_ascii_uppercase(),
        p,
        entry_cap: max(|d| u64::from(d.plan.entry_size)),
        version_cap: max(|d| d.plan.version_len),
        head_cap: max(|d| d.plan.entries_at).max(8),
        directories: ds
            .iter()
            .map(|d| directory_ctx(d, &schema.abi.c_prefix))
            .collect(),
    };
    COMPILED.render(context).map(Some)
}

fn directory_ctx(d: &Directory, prefix: &str) -> DirectoryCtx {
    let p = &d.plan;
    let mut doc = String::from("/**\n");
    for line in render_comment_lines(&d.doc, 90) {
        doc.push_str(&format!(" * {line}\n").replace(" * \n", " *\n"));
    }
    doc.push_str(&format!(
        " *\n * Directory `{}`: its plan for the {}_directory_* helpers.\n */",
        d.name, prefix
    ));
    DirectoryCtx {
        name: d.name.clone(),
        doc,
        windows_name: format!("Local\\\\{}", d.mapping),
        linux_path: format!("/dev/shm/{}", d.mapping),
        size: p.new_len(),
        magic_at: p.magic_at,
        entry_count_at: p.entry_count_at,
        entry_size_at: p.entry_size_at,
        entries_at: p.entries_at,
        word_at: p.word_at,
        process_time_at: p.process_time_at,
        abi_major_at: p.abi_major_at,
        abi_minor_at: p.abi_minor_at,
        version_at: p.version_at,
        version_len: p.version_len,
        magic: format!("{:#x}", p.magic),
        max_entries: p.max_entries,
        entry_size: p.entry_size,
        free: p.free,
        claimed: p.claimed,
        live: p.live,
        state_low: u8::from(p.state_low),
        abi_major: p.abi_major,
        abi_minor: p.abi_minor,
    }
}
