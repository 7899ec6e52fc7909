//! The operating-system calls behind the host directory's stale check (feature `mmap`):
//! whether a process id names a running process, and when that process was created.
//!
//! - Linux: field 22 of `/proc/<pid>/stat` (`starttime`, clock ticks since boot), read as
//!   text (no `unsafe`). It never changes for the life of a process, so a live host always
//!   matches its row; a wall-clock value made from it (`btime` + ticks) would not, since
//!   `btime` moves with clock adjustments. It orders instances within a boot, which is all
//!   the directory needs: it lives in `/dev/shm`, which a reboot empties. A zombie (state
//!   `Z` or `X`: exited, not yet reaped) counts as gone.
//! - Windows: `OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION)`, `GetExitCodeProcess` (a
//!   process that exited while a handle keeps it is gone), and the creation `FILETIME` of
//!   `GetProcessTimes` (100 ns intervals since 1601-01-01 UTC), through windows-sys.
//! - Elsewhere: unknown (never stale).
//!
//! Part of `raw`, the crate's one audited module of `unsafe` code (every block has its
//! `// SAFETY:` comment); it touches no shared memory.

use crate::directory::ProcessProbe;

/// What is known of process `pid`.
pub(crate) fn probe(pid: u32) -> ProcessProbe {
    imp::probe(pid)
}

#[cfg(target_os = "linux")]
mod imp {
    use super::ProcessProbe;

    pub(super) fn probe(pid: u32) -> ProcessProbe {
        if pid == 0 {
            return ProcessProbe::Gone;
        }
        match std::fs::read(format!("/proc/{pid}/stat")) {
            Ok(text) => parse_stat(&text).unwrap_or(ProcessProbe::Unknown),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => ProcessProbe::Gone,
            // ESRCH when it exits while being read.
            Err(e) if e.raw_os_error() == Some(3) => ProcessProbe::Gone,
            Err(_) => ProcessProbe::Unknown,
        }
    }

    /// `pid (comm) state ppid ... starttime ...`: comm may hold spaces and parentheses, so
    /// the fields are counted from after its last `)`; state is field 3, starttime field 22.
    pub(super) fn parse_stat(text: &[u8]) -> Option<ProcessProbe> {
        let close = text.iter().rposition(|&b| b == b')')?;
        let rest = std::str::from_utf8(&text[close + 1..]).ok()?;
        let mut fields = rest.split_ascii_whitespace();
        let state = fields.next()?;
        if matches!(state, "Z" | "X" | "x") {
            return Some(ProcessProbe::Gone);
        }
        let start: u64 = fields.nth(22 - 4)?.parse().ok()?;
        Some(ProcessProbe::Running(start))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn starttime_is_field_22_after_a_tricky_comm() {
            let stat =
                b"42 (a) b (c)) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 100";
            assert_eq!(parse_stat(stat), Some(ProcessProbe::Running(987654)));
            let zombie = b"42 (x) Z 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 0 0";
            assert_eq!(parse_stat(zombie), Some(ProcessProbe::Gone));
            assert_eq!(parse_stat(b"42 (x) S 1 2"), None);
        }

        #[test]
        fn own_process_runs() {
            assert!(matches!(probe(std::process::id()), ProcessProbe::Running(t) if t > 0));
        }
    }
}

#[cfg(windows)]
mod imp {
    #![allow(unsafe_code)]
    use super::ProcessProbe;
    use windows_sys::Win32::Foundation::{
        CloseHandle, ERROR_ACCESS_DENIED, FILETIME, GetLastError, STILL_ACTIVE,
    };
    use windows_sys::Win32::System::Threading::{
        GetExitCodeProcess, GetProcessTimes, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
    };

    pub(super) fn probe(pid: u32) -> ProcessProbe {
        if pid == 0 {
            return ProcessProbe::Gone;
        }
        // SAFETY: OpenProcess takes plain values and returns a handle or null.
        let handle = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
        if handle.is_null() {
            // SAFETY: reads this thread's last-error value; no arguments.
            let error = unsafe { GetLastError() };
            // No such process is ERROR_INVALID_PARAMETER; a refusal means it exists.
            return if error == ERROR_ACCESS_DENIED {
                ProcessProbe::Unknown
            } else {
                ProcessProbe::Gone
            };
        }
        let mut code = 0u32;
        let zero = FILETIME {
            dwLowDateTime: 0,
            dwHighDateTime: 0,
        };
        let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
        // SAFETY: `handle` is the open process handle above; every out-pointer is a local
        // that outlives the calls.
        let (got_code, got_times) = unsafe {
            (
                GetExitCodeProcess(handle, &mut code),
                GetProcessTimes(handle, &mut created, &mut exited, &mut kernel, &mut user),
            )
        };
        // SAFETY: `handle` is ours, closed once.
        unsafe { CloseHandle(handle) };
        if got_code != 0 && code != STILL_ACTIVE as u32 {
            return ProcessProbe::Gone;
        }
        if got_times == 0 {
            return ProcessProbe::Unknown;
        }
        ProcessProbe::Running(
            u64::from(created.dwHighDateTime) << 32 | u64::from(created.dwLowDateTime),
        )
    }
}

#[cfg(not(any(target_os = "linux", windows)))]
mod imp {
    use super::ProcessProbe;

    pub(super) fn probe(_pid: u32) -> ProcessProbe {
        ProcessProbe::Unknown
    }
}
