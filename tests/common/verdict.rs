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
