//! The test of `view_pages` under wine (or Windows): a `SEC_RESERVE` section, made here
//! with the Win32 calls a host would use, refused while its pages are reserved.

use core::ffi::c_void;
use std::io::ErrorKind;

use windows_sys::Win32::Foundation::{CloseHandle, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Memory::{
    CreateFileMappingW, FILE_MAP_READ, FILE_MAP_WRITE, MEM_COMMIT, MEMORY_MAPPED_VIEW_ADDRESS,
    MapViewOfFile, PAGE_READWRITE, SEC_RESERVE, UnmapViewOfFile, VirtualAlloc,
};

use super::named_view::NamedView;
use super::view_pages::committed_len;

const PAGE: usize = 4096;

/// Issue 37: a host whose section is `SEC_RESERVE`, with only its first page committed.
/// `VirtualQuery` of the view's start says one page (wine; the review saw Windows give
/// the whole view): the opener walks every region, and refuses the view with a named
/// error while a page is reserved.
#[test]
fn a_view_with_reserved_pages_is_refused_until_they_are_committed() {
    let name = format!("Local\\abi-runtime-reserved-{}", std::process::id());
    let wide: Vec<u16> = name.encode_utf16().chain(Some(0)).collect();
    let len = 16 * PAGE;
    // SAFETY: a pagefile-backed section (INVALID_HANDLE_VALUE) of `len` reserved bytes;
    // `wide` is NUL-terminated and lives across the call. Checked for null below.
    let handle = unsafe {
        CreateFileMappingW(
            INVALID_HANDLE_VALUE,
            core::ptr::null(),
            PAGE_READWRITE | SEC_RESERVE,
            0,
            len as u32,
            wide.as_ptr(),
        )
    };
    assert!(!handle.is_null(), "{}", std::io::Error::last_os_error());
    // SAFETY: `handle` is the section just made; the whole of it, read-write.
    let view = unsafe { MapViewOfFile(handle, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0) };
    assert!(!view.Value.is_null(), "{}", std::io::Error::last_os_error());
    let commit = |bytes: usize| {
        // SAFETY: commits the first `bytes` of the view just mapped (within its `len`);
        // no reference to them is made here.
        let at = unsafe { VirtualAlloc(view.Value, bytes, MEM_COMMIT, PAGE_READWRITE) };
        assert_eq!(at, view.Value, "{}", std::io::Error::last_os_error());
    };
    commit(PAGE);
    let err = NamedView::open(&name, true).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidData, "{err}");
    let text = err.to_string();
    assert!(text.contains("not committed from byte 4096"), "{text}");
    assert!(text.contains(&name), "{text}");
    assert!(
        committed_len(view.Value.cast::<c_void>(), &name).is_err(),
        "the creator's own view"
    );
    // Every page committed, the walk measures the whole view. (A view mapped after the
    // commit would too on Windows; wine 8 shows another view's later commits as still
    // reserved, so this checks the creator's view.)
    commit(len);
    assert_eq!(
        committed_len(view.Value.cast::<c_void>(), &name).unwrap(),
        len
    );
    // SAFETY: the view and the handle made above, released once, here.
    unsafe {
        UnmapViewOfFile(MEMORY_MAPPED_VIEW_ADDRESS { Value: view.Value });
        CloseHandle(handle);
    }
}
