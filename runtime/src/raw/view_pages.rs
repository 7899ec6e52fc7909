//! The length of a named mapping's view (Windows): its regions walked with `VirtualQuery`,
//! each of which must be committed. A section made with `SEC_RESERVE` maps reserved pages
//! that fault on the first access until its creator commits them, and `VirtualQuery`'s first
//! region alone says nothing of the pages after it; a view with a reserved page is refused
//! with an error naming the mapping, the first reserved byte and the committed length.

use core::ffi::c_void;
use std::io::{Error, ErrorKind};

use windows_sys::Win32::System::Memory::{MEM_COMMIT, MEMORY_BASIC_INFORMATION, VirtualQuery};

/// The bytes of the view mapped at `base`: every region from `base` on whose allocation is
/// the view (`AllocationBase == base`), each committed (`MEM_COMMIT`). An error naming
/// mapping `name` for a region that is reserved (or the view's first query failing).
pub(super) fn committed_len(base: *mut c_void, name: &str) -> std::io::Result<usize> {
    let mut len = 0usize;
    loop {
        let at = (base as usize).checked_add(len);
        let Some(at) = at else { break };
        let mut info = MEMORY_BASIC_INFORMATION::default();
        // SAFETY: `info` is a writable MEMORY_BASIC_INFORMATION of the size passed; the
        // address is queried, never accessed (any address may be; 0 bytes written means it
        // is past the process's address space).
        let written = unsafe {
            VirtualQuery(
                at as *const c_void,
                &mut info,
                core::mem::size_of::<MEMORY_BASIC_INFORMATION>(),
            )
        };
        if written == 0 && len == 0 {
            let os = Error::last_os_error();
            return Err(Error::new(
                os.kind(),
                format!("cannot measure the view of the mapping named `{name}`: {os}"),
            ));
        }
        if written == 0 || info.AllocationBase != base || info.RegionSize == 0 {
            break;
        }
        if info.State != MEM_COMMIT {
            return Err(Error::new(
                ErrorKind::InvalidData,
                format!(
                    "the mapping named `{name}` has reserved pages that are not committed from \
                     byte {len} ({} bytes; {len} committed before them): its creator made it \
                     with SEC_RESERVE and has not committed them, and reading them would fault",
                    info.RegionSize
                ),
            ));
        }
        len = len.saturating_add(info.RegionSize);
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use core::ffi::c_void;
    use std::io::ErrorKind;

    use windows_sys::Win32::Foundation::{CloseHandle, INVALID_HANDLE_VALUE};
    use windows_sys::Win32::System::Memory::{
        CreateFileMappingW, FILE_MAP_READ, FILE_MAP_WRITE, MEM_COMMIT, MEMORY_MAPPED_VIEW_ADDRESS,
        MapViewOfFile, PAGE_READWRITE, SEC_RESERVE, UnmapViewOfFile, VirtualAlloc,
    };

    use crate::mmap::Mapping;

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
        let err = Mapping::open_named(&name).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidData, "{err}");
        let text = err.to_string();
        assert!(text.contains("not committed from byte 4096"), "{text}");
        assert!(text.contains(&name), "{text}");
        assert!(
            super::committed_len(view.Value.cast::<c_void>(), &name).is_err(),
            "the creator's own view"
        );
        // Every page committed, the walk measures the whole view. (A view mapped after the
        // commit would too on Windows; wine 8 shows another view's later commits as still
        // reserved, so this checks the creator's view.)
        commit(len);
        assert_eq!(
            super::committed_len(view.Value.cast::<c_void>(), &name).unwrap(),
            len
        );
        // SAFETY: the view and the handle made above, released once, here.
        unsafe {
            UnmapViewOfFile(MEMORY_MAPPED_VIEW_ADDRESS { Value: view.Value });
            CloseHandle(handle);
        }
    }
}
