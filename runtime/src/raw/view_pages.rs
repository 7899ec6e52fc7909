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
