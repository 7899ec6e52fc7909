//! A named Windows file mapping's view (`Local\NAME`): the Win32 calls that open, create,
//! map, measure and release it. Audited with the rest of `raw`: its `unsafe` blocks are FFI
//! calls, and the view it makes is turned into a [`Region`](super::Region) only by
//! [`Mapped`](super::Mapped), which knows whether it was mapped read-write.

use core::ptr::NonNull;

use super::{MIN_ALIGN, check_root, view_pages};

/// A view of a named Windows file mapping (`Local\NAME`): the handle, the view's address and
/// its length. Owned by a [`Mapped`](super::Mapped), which hands it out only as a
/// [`Region`](super::Region); the view is unmapped and the handle closed on drop.
#[derive(Debug)]
pub(super) struct NamedView {
    handle: windows_sys::Win32::Foundation::HANDLE,
    pub(super) base: NonNull<u8>,
    pub(super) len: usize,
}

// SAFETY: a section handle and a view address may be used and closed from any thread (Win32
// handles are process-wide), and the bytes are only ever reached through Regions, whose
// accesses are atomic (see `Send for Region`).
unsafe impl Send for NamedView {}
// SAFETY: `&NamedView` gives only the address, the length and Regions: see `Send` above.
unsafe impl Sync for NamedView {}

impl NamedView {
    /// Opens the named mapping `name` (`OpenFileMappingW`) and maps a view of all of it
    /// (`MapViewOfFile` with length 0), read-write or read-only. Its length is the view's size
    /// as `VirtualQuery` reports it: the section's size rounded up to whole pages (Windows
    /// keeps no byte length for a pagefile section), every page committed.
    pub(super) fn open(name: &str, writable: bool) -> std::io::Result<NamedView> {
        use windows_sys::Win32::System::Memory::{FILE_MAP_READ, FILE_MAP_WRITE, OpenFileMappingW};
        let wide = named_view_wide(name)?;
        let access = if writable {
            FILE_MAP_READ | FILE_MAP_WRITE
        } else {
            FILE_MAP_READ
        };
        // SAFETY: `wide` is a NUL-terminated UTF-16 string that lives across the call; the
        // other arguments are plain values (no inheritance). A null return is an error, read
        // at once from the thread's last error.
        let handle = unsafe { OpenFileMappingW(access, 0, wide.as_ptr()) };
        if handle.is_null() {
            return Err(named_view_error(name, "open", writable));
        }
        NamedView::map(handle, name, access, None, writable)
    }

    /// Creates the named mapping `name` of `len` zero bytes on the pagefile
    /// (`CreateFileMappingW(INVALID_HANDLE_VALUE, …)`), with the security descriptor
    /// `descriptor`, and maps a view of it, read-write. Fails with `AlreadyExists` (naming it)
    /// when a mapping of that name exists: `create` never adopts another producer's live
    /// mapping.
    pub(super) fn create(
        name: &str,
        len: usize,
        descriptor: &super::os_access::SecurityDescriptor,
    ) -> std::io::Result<NamedView> {
        use std::io::{Error, ErrorKind};
        use windows_sys::Win32::Foundation::{
            CloseHandle, ERROR_ALREADY_EXISTS, INVALID_HANDLE_VALUE, SetLastError,
        };
        use windows_sys::Win32::Security::SECURITY_ATTRIBUTES;
        use windows_sys::Win32::System::Memory::{
            CreateFileMappingW, FILE_MAP_READ, FILE_MAP_WRITE, PAGE_READWRITE,
        };
        let wide = named_view_wide(name)?;
        if len == 0 || len > isize::MAX as usize - MIN_ALIGN {
            return Err(Error::new(
                ErrorKind::InvalidInput,
                format!(
                    "cannot create the mapping named `{name}` of {len} bytes: the length must be from 1 to isize::MAX - 8"
                ),
            ));
        }
        let size = len as u64;
        let attributes = SECURITY_ATTRIBUTES {
            nLength: core::mem::size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: descriptor.as_ptr(),
            bInheritHandle: 0,
        };
        // SAFETY: SetLastError only sets this thread's last-error value (cleared so that the
        // ERROR_ALREADY_EXISTS check below reads CreateFileMappingW's own report).
        unsafe { SetLastError(0) };
        // SAFETY: INVALID_HANDLE_VALUE asks for a pagefile-backed section; `attributes` and
        // the descriptor it points to (borrowed from the caller) and `wide`, a NUL-terminated
        // UTF-16 string, live across the call. A null return is an error, read at once.
        let handle = unsafe {
            CreateFileMappingW(
                INVALID_HANDLE_VALUE,
                &attributes,
                PAGE_READWRITE,
                (size >> 32) as u32,
                size as u32,
                wide.as_ptr(),
            )
        };
        if handle.is_null() {
            return Err(named_view_error(name, "create", true));
        }
        if Error::last_os_error().raw_os_error() == Some(ERROR_ALREADY_EXISTS as i32) {
            // SAFETY: `handle` is the valid handle just returned, closed once, here.
            unsafe { CloseHandle(handle) };
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                format!(
                    "cannot create the mapping named `{name}`: a mapping of that name exists already (another producer's?)"
                ),
            ));
        }
        NamedView::map(
            handle,
            name,
            FILE_MAP_READ | FILE_MAP_WRITE,
            Some(len),
            true,
        )
    }

    /// Maps a view of all of the section `handle` (owned: closed here on error), and measures
    /// it with `VirtualQuery`, region by region, every page committed
    /// ([`view_pages::committed_len`]); `len` is the length asked for at creation, if known.
    fn map(
        handle: windows_sys::Win32::Foundation::HANDLE,
        name: &str,
        access: u32,
        len: Option<usize>,
        writable: bool,
    ) -> std::io::Result<NamedView> {
        use std::io::{Error, ErrorKind};
        use windows_sys::Win32::Foundation::CloseHandle;
        use windows_sys::Win32::System::Memory::{
            MEMORY_MAPPED_VIEW_ADDRESS, MapViewOfFile, UnmapViewOfFile,
        };
        let close = |err: Error| {
            // SAFETY: `handle` is a valid section handle owned by this function, closed once.
            unsafe { CloseHandle(handle) };
            err
        };
        // SAFETY: `handle` is a valid section handle; offset 0 and length 0 map the whole
        // section, with an access the handle was opened with. A null address is an error.
        let view = unsafe { MapViewOfFile(handle, access, 0, 0, 0) };
        let Some(base) = NonNull::new(view.Value.cast::<u8>()) else {
            return Err(close(named_view_error(name, "map a view of", writable)));
        };
        let unmap = |err: Error| {
            // SAFETY: `view` is the view just mapped, unmapped once, here.
            unsafe { UnmapViewOfFile(MEMORY_MAPPED_VIEW_ADDRESS { Value: view.Value }) };
            close(err)
        };
        // Every page of the view committed: a SEC_RESERVE section's reserved pages would fault.
        let mapped = match view_pages::committed_len(view.Value, name) {
            Ok(mapped) => mapped,
            Err(err) => return Err(unmap(err)),
        };
        let len = match len {
            Some(asked) if asked <= mapped => asked,
            Some(asked) => {
                return Err(unmap(Error::other(format!(
                    "the mapping named `{name}` has {mapped} bytes mapped, fewer than the {asked} asked for (a mapping of that name existed?)"
                ))));
            }
            None => mapped,
        };
        if let Err(err) = check_root(base.as_ptr(), len) {
            return Err(unmap(Error::new(
                ErrorKind::InvalidData,
                format!("the view of the mapping named `{name}`: {err}"),
            )));
        }
        Ok(NamedView { handle, base, len })
    }

    /// The length of the view in bytes.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The section's handle, for reading its security descriptor.
    pub(super) fn handle(&self) -> windows_sys::Win32::Foundation::HANDLE {
        self.handle
    }
}

impl Drop for NamedView {
    fn drop(&mut self) {
        use windows_sys::Win32::Foundation::CloseHandle;
        use windows_sys::Win32::System::Memory::{MEMORY_MAPPED_VIEW_ADDRESS, UnmapViewOfFile};
        // SAFETY: the view and the handle were mapped and opened by `NamedView::map`, and are
        // released once, here; no Region outlives the borrow of this NamedView.
        unsafe {
            UnmapViewOfFile(MEMORY_MAPPED_VIEW_ADDRESS {
                Value: self.base.as_ptr().cast(),
            });
            CloseHandle(self.handle);
        }
    }
}

/// `name` as a NUL-terminated UTF-16 string; an interior NUL is an error naming it.
fn named_view_wide(name: &str) -> std::io::Result<Vec<u16>> {
    if name.is_empty() || name.contains('\0') {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{name:?} is not a mapping name (empty, or it holds a NUL)"),
        ));
    }
    Ok(name.encode_utf16().chain(Some(0)).collect())
}

/// The thread's last error, as an error naming the mapping and saying what failed.
fn named_view_error(name: &str, what: &str, writable: bool) -> std::io::Error {
    use std::io::{Error, ErrorKind};
    let os = Error::last_os_error();
    let access = if writable { "read-write" } else { "read-only" };
    let message = match os.kind() {
        ErrorKind::NotFound => format!(
            "no mapping named `{name}` ({os}): is the host running, in this session (`Local\\` names are per session)?"
        ),
        // Named by the caller (`AccessDenied`), which knows whether it opened or created.
        ErrorKind::PermissionDenied => return os,
        _ => format!("cannot {what} the mapping named `{name}` ({access}): {os}"),
    };
    Error::new(os.kind(), message)
}
