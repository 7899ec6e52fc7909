//! Who produced an image: the producer's process id, its version string, and a pair of clock
//! readings taken together (the monotonic clock and Unix time), stamped into a laid-out
//! [`Image`] before it is written, where the schema's handshake names fields for them
//! (`pid`, `producer_version`, `clock_mono_ns`, `clock_unix_ns` in its `version` table).
//!
//! The clocks, the same in every language the generator writes: the monotonic clock is
//! `CLOCK_MONOTONIC` on Linux and `QueryPerformanceCounter` (in ns) on Windows; Unix time is
//! nanoseconds since 1970-01-01 UTC. A reader turns a monotonic reading `t` of the same
//! machine into Unix time as `clock_unix_ns + (t - clock_mono_ns)`.

use crate::produce::{Image, ProduceError};
use crate::spec::Field;

/// A character field: where it is in the header and its bytes, its terminating NUL included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextField {
    /// From the start of the header.
    pub offset: usize,
    /// The field's bytes.
    pub len: usize,
}

/// Where a header keeps who produced it (each `None` when the schema names no such field),
/// with the names the errors use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdentitySpec<'a> {
    /// The producer's process id (unsigned, at least 4 bytes).
    pub pid: Option<(&'a str, Field)>,
    /// The producer's version string.
    pub version: Option<(&'a str, TextField)>,
    /// The monotonic clock's reading (u64 ns).
    pub mono_ns: Option<(&'a str, Field)>,
    /// Unix time at that reading (ns, an i64's or u64's bits).
    pub unix_ns: Option<(&'a str, Field)>,
}

/// Who produced an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The producer's process id.
    pub pid: u32,
    /// Its version string (no NUL).
    pub version: String,
    /// The monotonic clock (module docs), in ns.
    pub mono_ns: u64,
    /// Unix time at that reading, in ns (negative before 1970).
    pub unix_ns: i64,
}

impl Identity {
    /// This process now: its id, `version`, and the two clocks read one right after the other.
    #[cfg(feature = "mmap")]
    pub fn now(version: &str) -> Identity {
        let mono_ns = crate::raw::os_clock::monotonic_ns();
        let unix_ns = match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
            Err(e) => i64::try_from(e.duration().as_nanos()).map_or(i64::MIN, |n| -n),
        };
        Identity {
            pid: std::process::id(),
            version: version.to_string(),
            mono_ns,
            unix_ns,
        }
    }
}

/// Writes `identity` into `image`'s header where `spec` says: the version string
/// NUL-padded. `TooLarge` (nothing written) when the version does not fit its field with its
/// NUL, or a field lies outside the image.
pub fn stamp(
    image: &mut Image,
    spec: &IdentitySpec<'_>,
    identity: &Identity,
) -> Result<(), ProduceError> {
    let len = image.bytes.len();
    let outside = |name: &str, end: usize| ProduceError::TooLarge {
        field: name.to_string(),
        value: end as u64,
        width: len,
    };
    let fields = [
        spec.pid.map(|(n, f)| (n, f, u64::from(identity.pid))),
        spec.mono_ns.map(|(n, f)| (n, f, identity.mono_ns)),
        spec.unix_ns.map(|(n, f)| (n, f, identity.unix_ns as u64)),
    ];
    for (name, f, _) in fields.iter().flatten() {
        if f.offset.checked_add(f.width).is_none_or(|end| end > len) {
            return Err(outside(name, f.offset.saturating_add(f.width)));
        }
    }
    if let Some((name, t)) = spec.version {
        let text = identity.version.as_bytes();
        if t.offset.checked_add(t.len).is_none_or(|end| end > len) {
            return Err(outside(name, t.offset.saturating_add(t.len)));
        }
        if text.len() >= t.len || text.contains(&0) {
            return Err(ProduceError::TooLarge {
                field: name.to_string(),
                value: text.len() as u64,
                width: t.len.saturating_sub(1),
            });
        }
        let area = &mut image.bytes[t.offset..t.offset + t.len];
        area.fill(0);
        area[..text.len()].copy_from_slice(text);
    }
    for (_, f, value) in fields.into_iter().flatten() {
        f.put(&mut image.bytes, value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(n: usize) -> Image {
        Image {
            bytes: vec![0xAA; n],
            state: None,
            generation: None,
            sessions: Vec::new(),
        }
    }

    const SPEC: IdentitySpec<'static> = IdentitySpec {
        pid: Some((
            "h.pid",
            Field {
                offset: 0,
                width: 4,
            },
        )),
        version: Some(("h.version", TextField { offset: 4, len: 8 })),
        mono_ns: Some((
            "h.mono",
            Field {
                offset: 16,
                width: 8,
            },
        )),
        unix_ns: Some((
            "h.unix",
            Field {
                offset: 24,
                width: 8,
            },
        )),
    };

    #[test]
    fn stamps_each_field_and_pads_the_version() {
        let mut im = image(32);
        let id = Identity {
            pid: 0x0102_0304,
            version: "1.2.3".into(),
            mono_ns: 7,
            unix_ns: -2,
        };
        stamp(&mut im, &SPEC, &id).unwrap();
        assert_eq!(&im.bytes[0..4], &[4, 3, 2, 1]);
        assert_eq!(&im.bytes[4..12], b"1.2.3\0\0\0");
        assert_eq!(
            &im.bytes[12..16],
            &[0xAA; 4],
            "bytes between fields untouched"
        );
        assert_eq!(u64::from_le_bytes(im.bytes[16..24].try_into().unwrap()), 7);
        assert_eq!(i64::from_le_bytes(im.bytes[24..32].try_into().unwrap()), -2);
    }

    #[test]
    fn a_version_without_room_for_its_nul_or_a_short_image_writes_nothing() {
        let mut im = image(32);
        let id = Identity {
            pid: 1,
            version: "12345678".into(),
            mono_ns: 1,
            unix_ns: 1,
        };
        let e = stamp(&mut im, &SPEC, &id).unwrap_err();
        assert_eq!(
            e,
            ProduceError::TooLarge {
                field: "h.version".into(),
                value: 8,
                width: 7
            }
        );
        assert_eq!(im.bytes, vec![0xAA; 32]);
        let mut short = image(20);
        let ok = Identity {
            version: "v".into(),
            ..id
        };
        assert!(matches!(
            stamp(&mut short, &SPEC, &ok),
            Err(ProduceError::TooLarge { .. })
        ));
        assert_eq!(short.bytes, vec![0xAA; 20]);
    }

    #[cfg(feature = "mmap")]
    #[test]
    fn now_reads_this_process_and_both_clocks() {
        let a = Identity::now("x");
        let b = Identity::now("x");
        assert_eq!(a.pid, std::process::id());
        assert!(a.mono_ns > 0 && b.mono_ns >= a.mono_ns);
        // 2020-01-01 in ns: the clock is Unix time, not a monotonic one.
        assert!(a.unix_ns > 1_577_836_800_000_000_000);
    }
}
