//! A named Windows event (`Local\NAME`): the Win32 calls that create it (the host: an
//! auto-reset event, initially unset), open it (a client: `SYNCHRONIZE |
//! EVENT_MODIFY_STATE`, the least rights that wait on it and set it), set it, wait on it with
//! a timeout, and close it. Audited with the rest of `raw`: its `unsafe` blocks are FFI calls
//! on a handle this type owns; it touches no shared memory.
//!
//! Never `PulseEvent` (it loses a set that finds no waiter), and no manual-reset event (its
//! `ResetEvent` races a set): an auto-reset event keeps one set for the next wait, and merges
//! several into one, so a waiter always looks again at what it waits for.

use std::io::{Error, ErrorKind};
use std::time::Duration;

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, WAIT_OBJECT_0, WAIT_TIMEOUT};
use windows_sys::Win32::System::Threading::{
    CreateEventW, EVENT_MODIFY_STATE, OpenEventW, SetEvent, WaitForSingleObject,
};

/// The standard right to wait on an object (winnt.h's `SYNCHRONIZE`); windows-sys has it only
/// in `Win32_Storage_FileSystem`, a feature this crate does not otherwise need.
const SYNCHRONIZE: u32 = 0x0010_0000;

/// An owned handle of a named auto-reset event; closed on drop.
#[derive(Debug)]
pub(crate) struct NamedEvent {
    handle: HANDLE,
}

// SAFETY: an event handle may be waited on, set and closed from any thread (Win32 handles are
// process-wide); this type only does those.
unsafe impl Send for NamedEvent {}
// SAFETY: `&NamedEvent` only sets and waits, which Win32 allows from several threads at once.
unsafe impl Sync for NamedEvent {}

fn wide(name: &str) -> std::io::Result<Vec<u16>> {
    if name.is_empty() || name.contains('\0') {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("{name:?} is not an event name (empty, or it holds a NUL)"),
        ));
    }
    Ok(name.encode_utf16().chain(Some(0)).collect())
}

impl NamedEvent {
    /// Creates the auto-reset event `name` (the whole name, `Local\...`), initially unset.
    /// Fails with `AlreadyExists` when an event of that name exists: a host never adopts
    /// another's (a stale one would be set by nobody, or by the wrong host).
    pub(crate) fn create(name: &str) -> std::io::Result<NamedEvent> {
        let wide = wide(name)?;
        // SAFETY: `wide` is a NUL-terminated UTF-16 string that lives across the call; no
        // security attributes (the creator's default DACL), auto-reset (0), unset (0). A null
        // return is an error, read at once from the thread's last error.
        let handle = unsafe { CreateEventW(core::ptr::null(), 0, 0, wide.as_ptr()) };
        if handle.is_null() {
            return Err(Error::last_os_error());
        }
        let existed = Error::last_os_error().raw_os_error()
            == Some(windows_sys::Win32::Foundation::ERROR_ALREADY_EXISTS as i32);
        let event = NamedEvent { handle };
        if existed {
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                format!("event {name:?} already exists"),
            ));
        }
        Ok(event)
    }

    /// Opens the event `name` with `SYNCHRONIZE | EVENT_MODIFY_STATE`.
    pub(crate) fn open(name: &str) -> std::io::Result<NamedEvent> {
        let wide = wide(name)?;
        // SAFETY: as in `create`; the handle is not inherited (0).
        let handle = unsafe { OpenEventW(SYNCHRONIZE | EVENT_MODIFY_STATE, 0, wide.as_ptr()) };
        if handle.is_null() {
            return Err(Error::last_os_error());
        }
        Ok(NamedEvent { handle })
    }

    /// Sets the event: the next wait (or the one under way) returns.
    pub(crate) fn set(&self) -> bool {
        // SAFETY: `self.handle` is an open event handle this value owns.
        unsafe { SetEvent(self.handle) != 0 }
    }

    /// Waits until the event is set (true) or `timeout` passed (false). A wait shorter than
    /// a millisecond rounds up to one; Windows quantizes it to its timer tick (~15.6 ms).
    pub(crate) fn wait(&self, timeout: Duration) -> bool {
        let ms = timeout.as_nanos().div_ceil(1_000_000);
        let ms = u32::try_from(ms).unwrap_or(u32::MAX - 1).min(u32::MAX - 1);
        // SAFETY: `self.handle` is an open event handle this value owns; the timeout is
        // finite (below INFINITE).
        let r = unsafe { WaitForSingleObject(self.handle, ms) };
        match r {
            WAIT_OBJECT_0 => true,
            WAIT_TIMEOUT => false,
            // WAIT_FAILED or WAIT_ABANDONED (not an event's): look again.
            _ => true,
        }
    }
}

impl Drop for NamedEvent {
    fn drop(&mut self) {
        // SAFETY: the handle is open and owned by this value, closed once here.
        unsafe { CloseHandle(self.handle) };
    }
}
