//! Who may attach (feature `mmap`): [`Share`], the option of every create (owner-only unless
//! it says otherwise), what it becomes on each platform (a Unix file's mode and group, a
//! Windows section's security descriptor), and [`AccessDenied`], the error of an open this
//! process is not allowed.

use std::fmt;
use std::io;

/// Who, besides its creator, may attach to a mapping this process creates: the last
/// argument of [`Mapping::create_with`](crate::Mapping::create_with) and, on Windows,
/// `Mapping::create_named_with`. The default is [`Share::OwnerOnly`].
///
/// | | Unix file (`/dev/shm/NAME`) | Windows named mapping |
/// |---|---|---|
/// | `OwnerOnly` | mode 0600 | DACL: this user and SYSTEM |
/// | `Group { read_only: false }` | mode 0660, the group's | and `GRGW` for the group's SID |
/// | `Group { read_only: true }` | mode 0640, the group's | and `GR` for the group's SID |
/// | `Sddl` | refused (`InvalidInput`) | that security descriptor |
///
/// The mode is set with `fchmod` after the file is made, so the umask never changes it.
/// Every name and string is checked before anything is created: an unknown group or a
/// malformed SDDL string is an `InvalidInput` error that names it, and no file or mapping
/// is left behind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Share {
    /// Only the creating user (and, on Windows, SYSTEM). Root and administrators can attach
    /// anyway: docs/security.md ("Who may attach") says what they can do.
    #[default]
    OwnerOnly,
    /// The creator and the members of one group. Unix: a group name (looked up with
    /// `getgrnam_r`); the creator must belong to it (or be root) to give the file to it.
    /// Windows: a SID string (`S-1-5-32-545`) or an SDDL alias (`BU`) of a user or group.
    Group {
        /// The group's name (Unix) or SID (Windows).
        name: String,
        /// `true`: the group may map it read-only (mode 0640; a `GR` ACE). A read-write
        /// open by a member is refused by the OS.
        read_only: bool,
    },
    /// Windows only: the whole security descriptor, as SDDL (e.g.
    /// `D:P(A;;GA;;;SY)(A;;GA;;;S-1-5-21-...)(A;;GR;;;BU)`), used as it is. Include an ACE
    /// for the users that must attach, the creator's other processes too.
    Sddl(String),
}

impl Share {
    /// Shared with a group, read-write: [`Share::Group`] with `read_only: false`.
    pub fn group(name: impl Into<String>) -> Share {
        Share::Group {
            name: name.into(),
            read_only: false,
        }
    }

    /// Shared with a group of observers, read-only: [`Share::Group`] with `read_only: true`.
    pub fn group_read_only(name: impl Into<String>) -> Share {
        Share::Group {
            name: name.into(),
            read_only: true,
        }
    }

    /// A Windows security descriptor as SDDL: [`Share::Sddl`].
    pub fn sddl(sddl: impl Into<String>) -> Share {
        Share::Sddl(sddl.into())
    }
}

/// A Unix file's owner and mode, as an open that was refused found them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileOwner {
    /// The owner's user id.
    pub uid: u32,
    /// The file's group id.
    pub gid: u32,
    /// The group's name, when the system knows it.
    pub group: Option<String>,
    /// The permission bits (`0o600`, `0o640`, ...).
    pub mode: u32,
}

/// An open refused for lack of permission: the object's name, how it was to be mapped and, on
/// Unix, its owner and mode and this process's user id. The error inside the `io::Error` of
/// kind `PermissionDenied` that `Mapping::open`, `open_named` and `ReadOnlyMapping::open`
/// (and `open_named`) return then; [`AccessDenied::of`] finds it.
#[derive(Clone, Debug)]
pub struct AccessDenied {
    object: String,
    writable: bool,
    owner: Option<FileOwner>,
    uid: Option<u32>,
    os: String,
}

impl AccessDenied {
    /// The `AccessDenied` inside `err`, if it is one.
    pub fn of(err: &io::Error) -> Option<&AccessDenied> {
        err.get_ref()?.downcast_ref()
    }

    /// What was to be opened: a path, or `the mapping named `NAME``.
    pub fn object(&self) -> &str {
        &self.object
    }

    /// `true` if it was to be mapped read-write, `false` read-only.
    pub fn writable(&self) -> bool {
        self.writable
    }

    /// Unix: the file's owner, group and mode (`None` on Windows, or when the file could not
    /// be examined either).
    pub fn owner(&self) -> Option<&FileOwner> {
        self.owner.as_ref()
    }

    /// Unix: this process's effective user id, the one the mode was checked against.
    pub fn uid(&self) -> Option<u32> {
        self.uid
    }

    /// Wraps the OS's refusal `os` to open the file `path` into an `io::Error` of kind
    /// `PermissionDenied` holding an `AccessDenied`; any other error is returned as it is.
    #[cfg(unix)]
    pub(crate) fn file(path: &std::path::Path, writable: bool, os: io::Error) -> io::Error {
        use std::os::unix::fs::MetadataExt;
        if os.kind() != io::ErrorKind::PermissionDenied {
            return os;
        }
        // A file that may not be opened can usually still be examined (it takes only the
        // search right on its folder, which /dev/shm gives everyone).
        let owner = std::fs::metadata(path).ok().map(|m| FileOwner {
            uid: m.uid(),
            gid: m.gid(),
            group: crate::raw::os_access::group_by_id(m.gid())
                .ok()
                .flatten()
                .map(|(_, name)| name),
            mode: m.mode() & 0o7777,
        });
        AccessDenied {
            object: path.display().to_string(),
            writable,
            owner,
            uid: Some(crate::raw::os_access::effective_uid()),
            os: os.to_string(),
        }
        .into()
    }

    /// Wraps the OS's refusal `os` to open the named mapping `name` (Windows), as
    /// [`AccessDenied::file`] does for a file.
    #[cfg(windows)]
    pub(crate) fn named(name: &str, writable: bool, os: io::Error) -> io::Error {
        if os.kind() != io::ErrorKind::PermissionDenied {
            return os;
        }
        AccessDenied {
            object: format!("the mapping named `{name}`"),
            writable,
            owner: None,
            uid: None,
            os: os.to_string(),
        }
        .into()
    }
}

impl From<AccessDenied> for io::Error {
    fn from(denied: AccessDenied) -> io::Error {
        io::Error::new(io::ErrorKind::PermissionDenied, denied)
    }
}

/// `0o640` as `rw-r-----`.
fn symbolic(mode: u32) -> String {
    (0..9)
        .map(|bit| {
            if mode & (0o400 >> bit) == 0 {
                '-'
            } else {
                ['r', 'w', 'x'][bit % 3]
            }
        })
        .collect()
}

impl fmt::Display for AccessDenied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.writable {
            "read-write"
        } else {
            "read-only"
        };
        write!(f, "access denied to {} ({how})", self.object)?;
        if let Some(uid) = self.uid {
            write!(f, " for uid {uid}")?;
        }
        match &self.owner {
            Some(o) => {
                write!(f, ": it is owned by uid {}, group {}", o.uid, o.gid)?;
                if let Some(name) = &o.group {
                    write!(f, " ({name})")?;
                }
                write!(f, ", mode {:04o} ({})", o.mode, symbolic(o.mode))?;
            }
            None => write!(f, ": {}", self.os)?,
        }
        f.write_str(
            "; its creator decides who may attach (abi_runtime::Share; docs/security.md: \"Who may attach\")",
        )?;
        if self.writable {
            f.write_str(", and a read-only share is mapped with ReadOnlyMapping")?;
        }
        Ok(())
    }
}

impl std::error::Error for AccessDenied {}

/// A Unix file's mode and group, as a [`Share`] asks for them.
#[cfg(unix)]
#[derive(Debug)]
pub(crate) struct FileShare {
    /// The permission bits, set with `fchmod` once the group is given.
    pub(crate) mode: u32,
    /// The group to give the file to (`fchown`): its id and name.
    pub(crate) group: Option<(u32, String)>,
}

#[cfg(unix)]
impl FileShare {
    /// What `share` asks of a new file `path`, or an `InvalidInput` error naming the
    /// unknown group or the option that does not apply: before anything is created.
    pub(crate) fn of(share: &Share, path: &std::path::Path) -> io::Result<FileShare> {
        let refuse = |why: String| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("cannot create {}: {why}", path.display()),
            )
        };
        match share {
            Share::OwnerOnly => Ok(FileShare {
                mode: 0o600,
                group: None,
            }),
            Share::Group { name, read_only } => {
                let group = crate::raw::os_access::group_by_name(name)
                    .map_err(|e| refuse(format!("cannot look up the group `{name}`: {e}")))?
                    .ok_or_else(|| {
                        refuse(format!(
                            "no group named `{name}` to share it with (getent group {name})"
                        ))
                    })?;
                Ok(FileShare {
                    mode: if *read_only { 0o640 } else { 0o660 },
                    group: Some(group),
                })
            }
            Share::Sddl(_) => Err(refuse(
                "an SDDL string (Share::Sddl) is a Windows named mapping's security \
                 descriptor; share a Unix file with Share::group or Share::group_read_only"
                    .to_string(),
            )),
        }
    }
}

/// The security descriptor of a Windows section made with `share`: owner-only is this user
/// and SYSTEM (a protected DACL: nothing inherited); a group adds one ACE for its SID; an
/// SDDL string is used as it is. An `InvalidInput` error naming the mapping and what is
/// wrong (a group that is no SID, a malformed SDDL string) before anything is created.
#[cfg(windows)]
pub(crate) fn section_descriptor(
    share: &Share,
    name: &str,
) -> io::Result<crate::raw::os_access::SecurityDescriptor> {
    use crate::raw::os_access::SecurityDescriptor;
    let refuse = |why: String| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("cannot create the mapping named `{name}`: {why}"),
        )
    };
    let owner = || -> io::Result<String> {
        let user = crate::raw::os_access::user_sid()?;
        Ok(format!("D:P(A;;GA;;;{user})(A;;GA;;;SY)"))
    };
    match share {
        Share::OwnerOnly => SecurityDescriptor::from_sddl(&owner()?)
            .map_err(|e| refuse(format!("the owner-only descriptor: {e}"))),
        Share::Group {
            name: sid,
            read_only,
        } => {
            let not_a_sid = |why: &str| {
                refuse(format!(
                    "`{sid}` is not a SID (S-1-5-32-545) or an SDDL alias (BU) to share it with{why}"
                ))
            };
            // A SID string or an alias, and nothing that could close the ACE and open another.
            if sid.is_empty() || !sid.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(not_a_sid(""));
            }
            let rights = if *read_only { "GR" } else { "GRGW" };
            SecurityDescriptor::from_sddl(&format!("{}(A;;{rights};;;{sid})", owner()?))
                .map_err(|e| not_a_sid(&format!(": {e}")))
        }
        Share::Sddl(sddl) => SecurityDescriptor::from_sddl(sddl).map_err(|e| {
            refuse(format!(
                "`{sddl}` is not a valid SDDL security descriptor: {e}"
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_as_ls_shows_them() {
        assert_eq!(symbolic(0o600), "rw-------");
        assert_eq!(symbolic(0o640), "rw-r-----");
        assert_eq!(symbolic(0o751), "rwxr-x--x");
    }

    #[test]
    fn a_refusal_names_the_object_its_owner_and_mode() {
        let denied = AccessDenied {
            object: "/dev/shm/ibf.bridge".into(),
            writable: true,
            owner: Some(FileOwner {
                uid: 1000,
                gid: 1001,
                group: Some("games".into()),
                mode: 0o640,
            }),
            uid: Some(1002),
            os: "Permission denied (os error 13)".into(),
        };
        let err = io::Error::from(denied);
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(AccessDenied::of(&err).unwrap().owner().unwrap().mode, 0o640);
        assert_eq!(
            err.to_string(),
            "access denied to /dev/shm/ibf.bridge (read-write) for uid 1002: it is owned by \
             uid 1000, group 1001 (games), mode 0640 (rw-r-----); its creator decides who may \
             attach (abi_runtime::Share; docs/security.md: \"Who may attach\"), and a read-only share is \
             mapped with ReadOnlyMapping"
        );
    }
}
