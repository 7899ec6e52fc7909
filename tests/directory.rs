//! The generated host directory (`[[directory]]` in schema.toml) in Rust: its plan, as
//! `bridge_abi::live::Hosts::SPEC` prints it, has the offsets of the reference's
//! `directory_entry` and `directory_header` (parsed from the reference text, not from the
//! generator), and a host registers, lists and unregisters through it on a real mapping.

#![cfg(not(miri))]

use crate::common;

use bridge_abi::live::Hosts;
use bridge_abi::runtime::directory::ProcessProbe;
use bridge_abi::runtime::{DirectoryMapping, own_host_time, process_probe};
use common::reference::{RefStruct, load_reference};

fn offset(s: &RefStruct, field: &str) -> usize {
    s.fields
        .iter()
        .find(|f| f.name == field)
        .unwrap_or_else(|| panic!("reference {} has no {field}", s.name))
        .offset as usize
}

#[test]
fn the_plan_has_the_reference_offsets() {
    let reference = load_reference();
    let find = |name: &str| reference.structs.iter().find(|s| s.name == name).unwrap();
    let (header, entry) = (find("directory_header"), find("directory_entry"));
    let spec = Hosts::SPEC;
    assert_eq!(spec.magic_at, offset(header, "magic"));
    assert_eq!(spec.entry_count_at, offset(header, "entry_count"));
    assert_eq!(spec.entry_size_at, offset(header, "entry_size"));
    assert_eq!(spec.entries_at, offset(header, "entries"));
    assert_eq!(spec.entry_size as u64, entry.size);
    assert_eq!(spec.word.at, offset(entry, "state"));
    assert_eq!(spec.word.at + 4, offset(entry, "pid"));
    assert!(spec.word.state_low);
    assert_eq!(spec.process_time_at, offset(entry, "process_time"));
    assert_eq!(spec.abi_major_at, offset(entry, "abi_major"));
    assert_eq!(spec.abi_minor_at, offset(entry, "abi_minor"));
    assert_eq!(spec.version_at, offset(entry, "host_version"));
    assert_eq!(spec.version_at + spec.version_len, offset(entry, "_pad56"));
    let constant = |name: &str| {
        let c = reference.constants.iter().find(|c| c.name == name).unwrap();
        let v = c.value.trim_start_matches("0x");
        u64::from_str_radix(v, if c.value.starts_with("0x") { 16 } else { 10 }).unwrap()
    };
    assert_eq!(u64::from(spec.magic), constant("directory_magic"));
    assert_eq!(u64::from(spec.max_entries), constant("max_instances"));
    let states = reference
        .enums
        .iter()
        .find(|e| e.name == "instance_state")
        .unwrap();
    let value = |n: &str| {
        states
            .values
            .iter()
            .find(|v| v.name == n)
            .unwrap()
            .value
            .clone()
    };
    assert_eq!(
        [spec.free, spec.claimed, spec.live].map(|v| v.to_string()),
        [value("free"), value("claimed"), value("live")]
    );
    assert_eq!(Hosts::WINDOWS_NAME, r"Local\ibf.directory");
    let me = Hosts::host(1, 2, "v");
    assert_eq!(
        (me.abi_major, me.abi_minor),
        (0, 9),
        "the schema's ABI version"
    );
}

#[test]
fn a_host_registers_lists_and_unregisters_through_the_generated_plan() {
    let path = common::tools::scratch("directory_rust").join("ibf.directory");
    let _ = std::fs::remove_file(&path);
    let map = DirectoryMapping::open_or_create(&path, Hosts::SPEC).unwrap();
    let dir = map.directory(Hosts::SPEC).unwrap();
    let me = Hosts::host(std::process::id(), own_host_time(), "rust 1.0");
    let reg = dir.register(&me, process_probe).unwrap();
    // Another host that is gone.
    let gone = Hosts::host(u32::MAX - 1, 1, "gone");
    dir.register(&gone, |_| ProcessProbe::Unknown).unwrap();
    let bot = DirectoryMapping::open(&path, Hosts::SPEC).unwrap();
    let listed = bot.directory(Hosts::SPEC).unwrap().list();
    assert_eq!(listed.hosts.len(), 2);
    let next = Hosts::host(std::process::id(), own_host_time(), "rust 1.1");
    let again = dir.register(&next, process_probe).unwrap();
    assert_eq!(again.stale_freed, 1, "the gone host's row");
    assert!(dir.unregister(&reg) && dir.unregister(&again));
    assert_eq!(bot.directory(Hosts::SPEC).unwrap().list().hosts, []);
    std::fs::remove_file(&path).unwrap();
}
