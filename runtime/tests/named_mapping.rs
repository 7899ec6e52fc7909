//! `Mapping::open_named`/`create_named` and `ReadOnlyMapping::open_named` (Windows, feature
//! `mmap`): named, pagefile-backed mappings (`Local\NAME`), as a Windows host's bridge is.
//! Runs under wine here (`tests/windows/run-under-wine.sh` as cargo's runner; `.ci/run`'s
//! "windows" step), and on Windows itself.

#![cfg(all(windows, feature = "mmap"))]

use std::io::ErrorKind;
use std::sync::atomic::Ordering::{Acquire, Release};

use abi_runtime::{Mapping, ReadOnlyMapping};

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
    c.write_bytes(3, b"through the client");
    let mut out = [0; 18];
    h.read_bytes(3, &mut out);
    assert_eq!(&out, b"through the client");
    assert_eq!(h.compare_exchange::<u32>(40, 0, 7), Ok(0));
    assert_eq!(c.compare_exchange::<u32>(40, 0, 8), Err(7));
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
    w.store::<u32>(12, 0xdead_beef, Release);
    w.write_bytes(1001, b"seen by a reader");
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
/// host that shares its bridge read-only would make it) cannot be opened read-write; it can
/// be read-only.
#[test]
fn a_read_only_section_denies_a_writer_and_names_it() {
    #[repr(C)]
    struct SecurityAttributes {
        length: u32,
        descriptor: *mut core::ffi::c_void,
        inherit: i32,
    }
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn CreateFileMappingW(
            file: isize,
            attributes: *const SecurityAttributes,
            protect: u32,
            size_high: u32,
            size_low: u32,
            name: *const u16,
        ) -> *mut core::ffi::c_void;
        fn CloseHandle(handle: *mut core::ffi::c_void) -> i32;
    }
    #[link(name = "advapi32")]
    unsafe extern "system" {
        fn ConvertStringSecurityDescriptorToSecurityDescriptorW(
            sddl: *const u16,
            revision: u32,
            descriptor: *mut *mut core::ffi::c_void,
            size: *mut u32,
        ) -> i32;
    }
    const PAGE_READWRITE: u32 = 4;
    let name = name("denied");
    let wide = |s: &str| -> Vec<u16> { s.encode_utf16().chain(Some(0)).collect() };
    // Everyone (WD): generic read (GR) only; no owner rights beyond the implicit ones.
    let sddl = wide("D:P(A;;GR;;;WD)");
    let mut descriptor = core::ptr::null_mut();
    // SAFETY: a NUL-terminated SDDL string, revision 1, out-pointers to locals; the
    // descriptor is leaked (a test process).
    let ok = unsafe {
        ConvertStringSecurityDescriptorToSecurityDescriptorW(
            sddl.as_ptr(),
            1,
            &mut descriptor,
            core::ptr::null_mut(),
        )
    };
    assert!(ok != 0, "SDDL: {}", std::io::Error::last_os_error());
    let attributes = SecurityAttributes {
        length: size_of::<SecurityAttributes>() as u32,
        descriptor,
        inherit: 0,
    };
    let name_w = wide(&name);
    // SAFETY: a pagefile section (INVALID_HANDLE_VALUE = -1) of one page, the attributes
    // above, a NUL-terminated name; all outlive the call.
    let handle =
        unsafe { CreateFileMappingW(-1, &attributes, PAGE_READWRITE, 0, 4096, name_w.as_ptr()) };
    assert!(
        !handle.is_null(),
        "CreateFileMappingW: {}",
        std::io::Error::last_os_error()
    );

    let err = Mapping::open_named(&name).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PermissionDenied, "{err}");
    assert!(
        err.to_string()
            .contains(&format!("access denied to the mapping named `{name}`")),
        "{err}"
    );
    let reader = ReadOnlyMapping::open_named(&name).unwrap();
    assert_eq!(reader.region().unwrap().load::<u64>(0, Acquire), 0);
    // SAFETY: the handle made above, closed once.
    unsafe { CloseHandle(handle) };
}
