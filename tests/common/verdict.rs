//! The Rust bindings' verdict on an image: attach, then every block (each is checked when
//! first used), the first error; what the C and Python verdicts are compared with.

use bridge_abi::live::Bridge;
use bridge_abi::runtime::{AttachError, Region};

/// Attaches to `region`, then asks for every client and bot block: the first error.
pub fn rust_verdict(region: Region<'_>) -> Result<(), AttachError> {
    let bridge = Bridge::attach(region)?;
    for i in 0..Bridge::CLIENT_BLOCKS_COUNT {
        bridge.client_blocks(i)?;
    }
    for i in 0..Bridge::BOT_BLOCKS_COUNT {
        bridge.bot_blocks(i)?;
    }
    Ok(())
}

/// An error's `expected` and `found`, `(0, 0)` for a check that has neither: what the C
/// error struct and the Python exception carry besides the check and the region.
pub fn numbers(e: &AttachError) -> (u64, u64) {
    use AttachError as E;
    match e {
        E::MappingTooShort { expected, found }
        | E::BadMagic { expected, found }
        | E::MajorMismatch { expected, found }
        | E::HeaderTooSmall { expected, found }
        | E::HeaderBeyondMapping { expected, found }
        | E::ExtentBeyondMapping { expected, found }
        | E::ExtentTooSmall {
            expected, found, ..
        }
        | E::ExtentBeyondBlock {
            expected, found, ..
        }
        | E::TooManyRows {
            expected, found, ..
        }
        | E::RegionTooSmall {
            expected, found, ..
        }
        | E::HostNotRunning { expected, found }
        | E::HostReloaded { expected, found }
        | E::GeometryMismatch {
            expected, found, ..
        }
        | E::GeometryMisaligned {
            expected, found, ..
        }
        | E::GeometryTooSmall {
            expected, found, ..
        }
        | E::GeometryTooLarge {
            expected, found, ..
        } => (*expected, *found),
        _ => (0, 0),
    }
}
