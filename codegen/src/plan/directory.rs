//! A `[[directory]]`'s plan as the text backends print it (C, Python): the IR's numbers
//! (`ir/directory.rs`), the magic in hex, and the mapping's name on each platform as a
//! string literal's inside (the name holds no quote or backslash: lowering checks it).

use serde::Serialize;

use crate::ir::directory::Directory;

#[derive(Serialize)]
pub struct PlanCtx {
    windows_name: String,
    linux_path: String,
    /// The bytes a new directory takes.
    size: u64,
    magic_at: u64,
    magic: String,
    entry_count_at: u64,
    entry_size_at: u64,
    entries_at: u64,
    word_at: u64,
    process_time_at: u64,
    abi_major_at: u64,
    abi_minor_at: u64,
    version_at: u64,
    version_len: u64,
    max_entries: u32,
    entry_size: u32,
    free: u32,
    claimed: u32,
    live: u32,
    state_low: u8,
    abi_major: u16,
    abi_minor: u16,
}

impl PlanCtx {
    pub fn new(d: &Directory) -> Self {
        let p = &d.plan;
        PlanCtx {
            windows_name: format!("Local\\\\{}", d.mapping),
            linux_path: format!("/dev/shm/{}", d.mapping),
            size: p.new_len(),
            magic_at: p.magic_at,
            magic: format!("{:#x}", p.magic),
            entry_count_at: p.entry_count_at,
            entry_size_at: p.entry_size_at,
            entries_at: p.entries_at,
            word_at: p.word_at,
            process_time_at: p.process_time_at,
            abi_major_at: p.abi_major_at,
            abi_minor_at: p.abi_minor_at,
            version_at: p.version_at,
            version_len: p.version_len,
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
}
