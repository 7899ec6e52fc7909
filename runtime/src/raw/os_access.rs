//! The operating-system calls behind who may attach (feature `mmap`): on Unix, group lookups
//! (`getgrnam_r`, `getgrgid_r`) and this process's user id, through libc; on Windows, the
//! token's user SID, security descriptors made from SDDL strings and an object's descriptor
//! read back as SDDL, through windows-sys.
//!
//! Part of `raw`, the crate's one audited module of `unsafe` code (every block has its
//! `// SAFETY:` comment), though it touches no shared memory. Each function hands back owned
//! Rust values, never a pointer the OS owns; the one owned OS allocation,
//! [`SecurityDescriptor`], frees itself on drop.

#[cfg(unix)]
pub(crate) use unix::{effective_uid, group_by_id, group_by_name};
#[cfg(windows)]
pub(crate) use windows::{SecurityDescriptor, descriptor_of, user_sid};

#[cfg(unix)]
mod unix {
    use std::ffi::{CStr, CString};
    use std::io;

    /// What a group lookup looks for.
    enum Key<'a> {
        Name(&'a CStr),
        Id(u32),
    }

    /// A group's id and name from the system's group database (NSS: /etc/group, LDAP, ...);
    /// `None` when it has no such group.
    fn lookup(key: Key<'_>) -> io::Result<Option<(u32, String)>> {
        // getgr*_r report a buffer too small with ERANGE; 1 MiB is past any real group.
        let mut buf = vec![0 as libc::c_char; 4096];
        loop {
            let mut group = core::mem::MaybeUninit::<libc::group>::uninit();
            let mut found: *mut libc::group = core::ptr::null_mut();
            let rc = match key {
                // SAFETY: `name` is NUL-terminated; `group` and `found` are out-pointers to
                // locals, and `buf` is writable for `buf.len()` bytes; all outlive the call.
                Key::Name(name) => unsafe {
                    libc::getgrnam_r(
                        name.as_ptr(),
                        group.as_mut_ptr(),
                        buf.as_mut_ptr(),
                        buf.len(),
                        &mut found,
                    )
                },
                // SAFETY: as above, with a plain group id.
                Key::Id(gid) => unsafe {
                    libc::getgrgid_r(
                        gid,
                        group.as_mut_ptr(),
                        buf.as_mut_ptr(),
                        buf.len(),
                        &mut found,
                    )
                },
            };
            if rc == libc::ERANGE && buf.len() < 1 << 20 {
                buf.resize(buf.len() * 4, 0);
                continue;
            }
            // Some systems report "no such group" as one of these instead of 0 and null.
            if found.is_null() && matches!(rc, 0 | libc::ENOENT | libc::ESRCH) {
                return Ok(None);
            }
            if rc != 0 {
                return Err(io::Error::from_raw_os_error(rc));
            }
            // SAFETY: a zero return with a non-null `found` means `found` points at `group`,
            // now initialised, whose `gr_name` is a NUL-terminated string inside `buf`; both
            // live until the end of this block, and the name is copied out.
            let (gid, name) = unsafe {
                let group = &*found;
                (
                    group.gr_gid,
                    CStr::from_ptr(group.gr_name).to_string_lossy().into_owned(),
                )
            };
            return Ok(Some((gid, name)));
        }
    }

    /// The group named `name`: its id and name, or `None` when there is none. A name holding
    /// a NUL is no group's.
    pub(crate) fn group_by_name(name: &str) -> io::Result<Option<(u32, String)>> {
        match CString::new(name) {
            Ok(name) => lookup(Key::Name(&name)),
            Err(_) => Ok(None),
        }
    }

    /// The group whose id is `gid`: its id and name, or `None` when there is none.
    pub(crate) fn group_by_id(gid: u32) -> io::Result<Option<(u32, String)>> {
        lookup(Key::Id(gid))
    }

    /// This process's effective user id: the one the kernel checks a file's mode against.
    pub(crate) fn effective_uid() -> u32 {
        // SAFETY: geteuid takes nothing, cannot fail and touches no memory of ours.
        unsafe { libc::geteuid() }
    }
}

#[cfg(windows)]
mod windows {
    use std::io;

    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, LocalFree};
    use windows_sys::Win32::Security::Authorization::{
        ConvertSecurityDescriptorToStringSecurityDescriptorW, ConvertSidToStringSidW,
        ConvertStringSecurityDescriptorToSecurityDescriptorW, GetSecurityInfo, SDDL_REVISION_1,
        SE_KERNEL_OBJECT,
    };
    use windows_sys::Win32::Security::{
        DACL_SECURITY_INFORMATION, GetTokenInformation, OWNER_SECURITY_INFORMATION,
        PSECURITY_DESCRIPTOR, TOKEN_QUERY, TOKEN_USER, TokenUser,
    };
    use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};
    use windows_sys::core::PWSTR;

    /// `s` as a NUL-terminated UTF-16 string; `None` if it holds a NUL.
    fn wide(s: &str) -> Option<Vec<u16>> {
        (!s.contains('\0')).then(|| s.encode_utf16().chain(Some(0)).collect())
    }

    /// Copies the NUL-terminated UTF-16 string `text`, which the OS allocated with
    /// `LocalAlloc`, into a `String`, and frees it.
    ///
    /// # Safety
    ///
    /// `text` is a non-null, NUL-terminated UTF-16 string from `LocalAlloc`, used by no one
    /// after this call.
    unsafe fn take_local_wide(text: PWSTR) -> String {
        // SAFETY (the caller's contract): `text` is readable up to and including its NUL.
        let len = (0..).take_while(|&i| unsafe { *text.add(i) } != 0).count();
        // SAFETY: the `len` units before the NUL are initialised and readable.
        let s = String::from_utf16_lossy(unsafe { core::slice::from_raw_parts(text, len) });
        // SAFETY: `text` came from LocalAlloc and is freed once, here.
        unsafe { LocalFree(text.cast()) };
        s
    }

    /// The SID of the user this process runs as (its token's user), as a string
    /// (`S-1-5-21-...`): the owner-only descriptor grants it.
    pub(crate) fn user_sid() -> io::Result<String> {
        let fail = |what: &str| {
            let os = io::Error::last_os_error();
            io::Error::new(
                os.kind(),
                format!("cannot read this process's user SID ({what}): {os}"),
            )
        };
        let mut token: HANDLE = core::ptr::null_mut();
        // SAFETY: GetCurrentProcess returns a pseudo-handle that needs no closing; `token` is
        // an out-pointer to a local.
        if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) } == 0 {
            return Err(fail("OpenProcessToken"));
        }
        // A TOKEN_USER and the SID it points to; a SID is at most 68 bytes. u64s: aligned.
        let mut buf = [0u64; 64];
        let mut written = 0u32;
        // SAFETY: `token` is the valid token just opened; `buf` is writable for the size
        // passed and 8-aligned, as TOKEN_USER needs; `written` is an out-pointer to a local.
        let ok = unsafe {
            GetTokenInformation(
                token,
                TokenUser,
                buf.as_mut_ptr().cast(),
                core::mem::size_of_val(&buf) as u32,
                &mut written,
            )
        };
        let err = (ok == 0).then(|| fail("GetTokenInformation"));
        // SAFETY: `token` was opened above and is closed once, here.
        unsafe { CloseHandle(token) };
        if let Some(err) = err {
            return Err(err);
        }
        // SAFETY: GetTokenInformation succeeded, so `buf` starts with a TOKEN_USER whose SID
        // pointer points into `buf`, which is still alive.
        let sid = unsafe { (*buf.as_ptr().cast::<TOKEN_USER>()).User.Sid };
        let mut text: PWSTR = core::ptr::null_mut();
        // SAFETY: `sid` is a valid SID (in `buf`); `text` is an out-pointer to a local.
        if unsafe { ConvertSidToStringSidW(sid, &mut text) } == 0 {
            return Err(fail("ConvertSidToStringSidW"));
        }
        // SAFETY: the conversion succeeded: `text` is a LocalAlloc'd NUL-terminated string.
        Ok(unsafe { take_local_wide(text) })
    }

    /// A self-relative security descriptor made from an SDDL string, freed on drop.
    pub(crate) struct SecurityDescriptor(PSECURITY_DESCRIPTOR);

    impl SecurityDescriptor {
        /// `ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl)`; an error of kind
        /// `InvalidInput` with the OS's reason when `sddl` is malformed.
        pub(crate) fn from_sddl(sddl: &str) -> io::Result<SecurityDescriptor> {
            let Some(text) = wide(sddl) else {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "it holds a NUL".to_string(),
                ));
            };
            let mut descriptor: PSECURITY_DESCRIPTOR = core::ptr::null_mut();
            // SAFETY: `text` is NUL-terminated and lives across the call; `descriptor` is an
            // out-pointer to a local; the size out-pointer may be null.
            let ok = unsafe {
                ConvertStringSecurityDescriptorToSecurityDescriptorW(
                    text.as_ptr(),
                    SDDL_REVISION_1,
                    &mut descriptor,
                    core::ptr::null_mut(),
                )
            };
            if ok == 0 || descriptor.is_null() {
                let os = io::Error::last_os_error();
                return Err(io::Error::new(io::ErrorKind::InvalidInput, os.to_string()));
            }
            Ok(SecurityDescriptor(descriptor))
        }

        /// The descriptor, for a `SECURITY_ATTRIBUTES` that lives no longer than `self`.
        pub(crate) fn as_ptr(&self) -> PSECURITY_DESCRIPTOR {
            self.0
        }
    }

    impl Drop for SecurityDescriptor {
        fn drop(&mut self) {
            // SAFETY: the descriptor came from LocalAlloc (the SDDL conversion or
            // GetSecurityInfo) and is freed once, here.
            unsafe { LocalFree(self.0) };
        }
    }

    /// The owner and DACL of the kernel object `handle` as SDDL (`O:...D:...`). The handle
    /// needs the right to read them (`READ_CONTROL`), which its creator's handle has.
    pub(crate) fn descriptor_of(handle: HANDLE) -> io::Result<String> {
        let info = OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION;
        let mut descriptor: PSECURITY_DESCRIPTOR = core::ptr::null_mut();
        // SAFETY: `handle` is a valid handle of this process; the owner, group, DACL and SACL
        // out-pointers may be null; `descriptor` is an out-pointer to a local.
        let rc = unsafe {
            GetSecurityInfo(
                handle,
                SE_KERNEL_OBJECT,
                info,
                core::ptr::null_mut(),
                core::ptr::null_mut(),
                core::ptr::null_mut(),
                core::ptr::null_mut(),
                &mut descriptor,
            )
        };
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc as i32));
        }
        let descriptor = SecurityDescriptor(descriptor);
        let mut text: PWSTR = core::ptr::null_mut();
        // SAFETY: `descriptor` is the valid descriptor just read; `text` is an out-pointer to a
        // local; the length out-pointer may be null.
        let ok = unsafe {
            ConvertSecurityDescriptorToStringSecurityDescriptorW(
                descriptor.as_ptr(),
                SDDL_REVISION_1,
                info,
                &mut text,
                core::ptr::null_mut(),
            )
        };
        if ok == 0 || text.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the conversion succeeded: `text` is a LocalAlloc'd NUL-terminated string.
        Ok(unsafe { take_local_wide(text) })
    }
}
