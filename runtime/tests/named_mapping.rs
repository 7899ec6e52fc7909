//! `Mapping::open_named`/`create_named` and `ReadOnlyMapping::open_named` (Windows, feature
//! `mmap`): named, pagefile-backed mappings (`Local\NAME`), as a Windows host's bridge is.
//! Runs under wine here (`tests/windows/run-under-wine.sh` as cargo's runner; `.ci/run`'s
//! "windows" step), and on Windows itself.

#![cfg(all(windows, feature = "mmap"))]

use std::io::ErrorKind;
use std::sync::atomic::Ordering::{Acquire, Release};

use abi_runtime::{AccessDenied, Mapping, ReadOnlyMapping, Share};

/// A `Local\` name unique to this process and test.
fn name(test: &str) -> String {
    format!("Local\\abi-runtime-{test}-{}", std::process::id())
}

#[test]
fn a_created_mapping_and_an_opened_one_share_stores() {
    let name = name("share");
    let host = Mapping::create_named(&name, 100).unwrap();
    let client = Mapping::open_named(&name).unwrap();
    // The creator knows its length; an opener has VirtualQuery's whole pages.
    assert_eq!((host.len(), client.len()), (100, 4096));
    let (h, c) = (host.region().unwrap(), client.region().unwrap());
    assert_ne!(h.as_ptr(), c.as_ptr(), "two distinct views");
    assert_eq!(c.load::<u64>(88, Acquire), 0, "created zeroed");
    h.store::<u64>(88, 0x0123_4567_89ab_cdef, Release);
    assert_eq!(c.load::<u64>(88, Acquire), 0x0123_4567_89ab_cdef);
    c.write_bytes(3, b"through the client").unwrap();
    let mut out = [0; 18];
    h.read_bytes(3, &mut out);
    assert_eq!(&out, b"through the client");
    assert_eq!(h.try_compare_exchange::<u32>(40, 0, 7), Ok(Ok(0)));
    assert_eq!(c.try_compare_exchange::<u32>(40, 0, 8), Ok(Err(7)));
    // Past the creator's 100 bytes, the opener's page is mapped and zero.
    assert_eq!(c.load::<u64>(4088, Acquire), 0);
}

#[test]
fn a_mapping_lives_while_a_view_does_and_is_gone_after() {
    let name = name("lifetime");
    let host = Mapping::create_named(&name, 64).unwrap();
    let client = Mapping::open_named(&name).unwrap();
    host.region().unwrap().store::<u64>(0, 42, Release);
    drop(host);
    assert_eq!(client.region().unwrap().load::<u64>(0, Acquire), 42);
    drop(client);
    let err = Mapping::open_named(&name).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
}

#[test]
fn a_read_only_mapping_sees_what_a_writer_stores() {
    let name = name("read-only");
    let host = Mapping::create_named(&name, 4096).unwrap();
    let reader = ReadOnlyMapping::open_named(&name).unwrap();
    assert_eq!(reader.len(), 4096);
    let (w, r) = (host.region().unwrap(), reader.region().unwrap());
    w.try_store::<u32>(12, 0xdead_beef, Release).unwrap();
    w.write_bytes(1001, b"seen by a reader").unwrap();
    assert_eq!(r.load::<u32>(12, Acquire), 0xdead_beef);
    let mut out = [0; 16];
    r.read_bytes(1001, &mut out);
    assert_eq!(&out, b"seen by a reader");
    let lock = abi_runtime::SeqLock::<u32, _>::new(r, 12);
    assert_eq!(lock.load(), 0xdead_beef);
}

#[test]
fn no_such_mapping_is_not_found_and_names_it() {
    let name = name("missing");
    let err = Mapping::open_named(&name).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    let text = err.to_string();
    assert!(
        text.contains(&format!("no mapping named `{name}`")),
        "{text}"
    );
    let err = ReadOnlyMapping::open_named(&name).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert!(err.to_string().contains(&name), "{err}");
}

#[test]
fn create_refuses_an_existing_name_and_leaves_it_alone() {
    let name = name("twice");
    let first = Mapping::create_named(&name, 64).unwrap();
    first.region().unwrap().store::<u64>(8, 7, Release);
    let err = Mapping::create_named(&name, 64).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
    assert!(
        err.to_string()
            .contains(&format!("the mapping named `{name}`")),
        "{err}"
    );
    assert_eq!(first.region().unwrap().load::<u64>(8, Acquire), 7);
}

#[test]
fn a_mapping_smaller_than_needed_is_an_error_naming_it_and_both_sizes() {
    let name = name("small");
    let host = Mapping::create_named(&name, 64).unwrap();
    let client = Mapping::open_named(&name).unwrap();
    assert!(client.require_len(4096).is_ok());
    let err = client.require_len(4097).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(
        err.to_string(),
        format!("the mapping named `{name}` is 4096 bytes, smaller than the 4097 bytes needed")
    );
    let err = host.require_len(65).unwrap_err();
    assert!(err.to_string().contains("is 64 bytes"), "{err}");
    // Reads past the end are errors too, never touches of unmapped memory.
    assert!(client.region().unwrap().sub(4096, 8, 8).is_err());
}

#[test]
fn bad_names_and_lengths_are_refused_naming_them() {
    for bad in ["", "Local\\nul\0inside"] {
        let err = Mapping::open_named(bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{bad:?}: {err}");
        assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
    }
    let name = name("empty");
    let err = Mapping::create_named(&name, 0).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert!(err.to_string().contains(&name), "{err}");
}

/// Access denied: a section whose security descriptor grants everyone read access only (as a
/// host that shares its bridge read-only with a group this process is in) cannot be opened
/// read-write, and the error names it; it can be read-only. Its creator maps it read-write.
#[test]
fn a_read_only_grant_denies_a_writer_and_names_it() {
    let name = name("denied");
    let host = Mapping::create_named_with(&name, 4096, &Share::sddl("D:P(A;;GA;;;SY)(A;;GR;;;WD)"))
        .unwrap();
    host.region().unwrap().store::<u64>(0, 9, Release);
    let err = Mapping::open_named(&name).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PermissionDenied, "{err}");
    assert!(
        err.to_string().starts_with(&format!(
            "access denied to the mapping named `{name}` (read-write): "
        )),
        "{err}"
    );
    let denied = AccessDenied::of(&err).expect("an AccessDenied inside");
    assert_eq!(
        (denied.object(), denied.writable()),
        (format!("the mapping named `{name}`").as_str(), true)
    );
    assert!(err.to_string().contains("ReadOnlyMapping"), "{err}");
    let reader = ReadOnlyMapping::open_named(&name).unwrap();
    assert_eq!(reader.region().unwrap().load::<u64>(0, Acquire), 9);
}

/// The DACL of a descriptor read back as SDDL: its flags (`P`: protected) and each ACE's
/// type, rights and trustee. Windows stores the generic rights asked for (`GA`, `GR`) as the
/// section's own rights, wine as they were written, so tests compare trustees and types.
fn dacl(sddl: &str) -> (String, Vec<(String, String, String)>) {
    let start = sddl
        .find("D:")
        .unwrap_or_else(|| panic!("no DACL in {sddl}"))
        + 2;
    let dacl = &sddl[start..];
    let flags_end = dacl.find('(').unwrap_or(dacl.len());
    let aces = dacl[flags_end..]
        .split(')')
        .filter(|ace| !ace.is_empty())
        .map(|ace| {
            let f: Vec<&str> = ace.trim_start_matches('(').split(';').collect();
            assert_eq!(f.len(), 6, "an ACE of 6 fields: {sddl}");
            (f[0].to_string(), f[2].to_string(), f[5].to_string())
        })
        .collect();
    (dacl[..flags_end].to_string(), aces)
}

/// The default is owner-only: a protected DACL of two ACEs, full access for this process's
/// user (an `S-1-5-21-` SID) and for SYSTEM, nothing else; this user opens it.
#[test]
fn a_created_mapping_grants_its_user_and_system_only() {
    let name = name("owner-only");
    let host = Mapping::create_named(&name, 64).unwrap();
    let sddl = host.security_descriptor().unwrap();
    let (flags, aces) = dacl(&sddl);
    assert!(flags.contains('P'), "not protected: {sddl}");
    assert_eq!(aces.len(), 2, "{sddl}");
    assert!(
        aces[0].0 == "A" && aces[0].2.starts_with("S-1-5-21-"),
        "{sddl}"
    );
    assert_eq!(
        (aces[1].0.as_str(), aces[1].2.as_str()),
        ("A", "SY"),
        "{sddl}"
    );
    assert_eq!(aces[0].1, aces[1].1, "the same rights: {sddl}");
    // This user (the owner) attaches, both ways.
    Mapping::open_named(&name).unwrap();
    ReadOnlyMapping::open_named(&name).unwrap();
    // An opener's handle has no right to read the descriptor.
    let err = Mapping::open_named(&name)
        .unwrap()
        .security_descriptor()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PermissionDenied, "{err}");
}

/// A descriptor that grants this user nothing refuses it, both ways, with the named error:
/// how a bridge owned by another user looks (wine has one user; see docs/security.md).
#[test]
fn a_mapping_that_grants_this_user_nothing_refuses_it() {
    let name = name("system-only");
    let _host = Mapping::create_named_with(&name, 64, &Share::sddl("D:P(A;;GA;;;SY)")).unwrap();
    for (err, writable) in [
        (Mapping::open_named(&name).unwrap_err(), true),
        (ReadOnlyMapping::open_named(&name).unwrap_err(), false),
    ] {
        assert_eq!(err.kind(), ErrorKind::PermissionDenied, "{err}");
        assert_eq!(AccessDenied::of(&err).unwrap().writable(), writable);
        assert!(err.to_string().contains(&name), "{err}");
    }
}

/// A group share adds one ACE for the group's SID to the owner-only DACL, with rights that
/// differ for read-only (no write) and read-write.
#[test]
fn a_group_share_adds_one_ace_for_the_group() {
    let mut rights = Vec::new();
    for (share, sid) in [
        (Share::group_read_only("BU"), "BU"),
        (Share::group("S-1-5-32-545"), "BU"),
    ] {
        let name = name(&format!("group-{}", rights.len()));
        let host = Mapping::create_named_with(&name, 64, &share).unwrap();
        let sddl = host.security_descriptor().unwrap();
        let (_, aces) = dacl(&sddl);
        let trustees: Vec<&str> = aces.iter().map(|a| a.2.as_str()).collect();
        assert_eq!(trustees.len(), 3, "{share:?}: {sddl}");
        assert!(trustees[0].starts_with("S-1-5-21-"), "{share:?}: {sddl}");
        assert_eq!(&trustees[1..], ["SY", sid], "{share:?}: {sddl}");
        assert_eq!(aces[2].0, "A", "{share:?}: {sddl}");
        rights.push(aces[2].1.clone());
    }
    assert!(
        !rights[0].contains('W'),
        "read-only has no write: {rights:?}"
    );
    assert_ne!(rights[0], rights[1], "{rights:?}");
}

/// A group that is not a SID, or a malformed SDDL string, is refused before anything is
/// created, naming the mapping and what was given.
#[test]
fn bad_shares_are_refused_before_anything_is_created() {
    let name = name("bad-share");
    for (share, says) in [
        (Share::group("Users"), "`Users` is not a SID"),
        (Share::group("BU)(A;;GA;;;WD"), "is not a SID"),
        (Share::group(""), "`` is not a SID"),
        (
            Share::sddl("D:P(A;;GA;;;NOTASID)"),
            "`D:P(A;;GA;;;NOTASID)` is not a valid SDDL",
        ),
        (Share::sddl("garbage("), "`garbage(` is not a valid SDDL"),
    ] {
        let err = Mapping::create_named_with(&name, 64, &share).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{share:?}: {err}");
        let text = err.to_string();
        assert!(
            text.contains(&format!("cannot create the mapping named `{name}`"))
                && text.contains(says),
            "{share:?}: {text}"
        );
        let gone = Mapping::open_named(&name).unwrap_err();
        assert_eq!(
            gone.kind(),
            ErrorKind::NotFound,
            "{share:?} created it: {gone}"
        );
    }
    // A file on Windows takes its folder's permissions: only the default is accepted.
    let path = std::env::temp_dir().join(format!("abi-runtime-share-{}", std::process::id()));
    let err = Mapping::create_with(&path, 64, &Share::group("BU")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
    assert!(!path.exists());
}
