//! The Rust side of the bridge's region protocols for the tests that race a C program over
//! one file: the runtime primitives' specs at the bridge's offsets (from the reference, not
//! from the generator), a bridge image in a file with small areas, and log entries.

use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;

use bridge_abi::live::Bridge;
use bridge_abi::runtime::{Mapping, Region};

#[path = "../../runtime/tests/common/bridge_specs.rs"]
mod bridge_specs;
#[allow(unused_imports)] // each test binary uses some of them
pub use bridge_specs::{LOG_ENTRY, MAILBOX, QUEUE, RING, ROW};

/// `bridge_header`: host_generation u32 at 20, clients at 256, 128 bytes each.
pub const HOST_GENERATION: usize = 20;
pub const CLIENTS: usize = 256;
pub const CLIENT_ENTRY: usize = 128;

/// `draw_header` (64 bytes): state u32 at 0, buffer_size u32 at 8, max_commands at 12; each
/// list: `draw_list_header` (64 bytes: seq u32 at 0, count at 4, payload_len at 8), then
/// max_commands `draw_cmd` of 36 bytes (color u32 at 4, payload_off u32 at 28, payload_len
/// u16 at 32), then the payload.
pub const DRAW_STATE: usize = 0;
pub const DRAW_LISTS: usize = 64;
pub const DRAW_CMD: usize = 36;

/// The geometry of the images here: the mailbox's areas (which no constant sizes), and a
/// small log queue and log ring so that a fast writer fills the one and laps the other.
pub const GEOMETRY: [(&str, u64); 4] = [
    ("mailbox.request_capacity", 256),
    ("mailbox.response_capacity", 256),
    ("log_queue.capacity", 2048),
    ("log_ring.capacity", 4096),
];

/// A bridge image made by the Rust producer in a new file at `path`, running, each bot
/// block's draw state at the schema's initial state 1.
pub fn produce_file(path: &Path) -> Mapping {
    let _ = std::fs::remove_file(path);
    let image = Bridge::lay_out(&GEOMETRY, 1).expect("lay out");
    let map = Mapping::create(path, image.bytes.len()).expect("create the file");
    let region = map.region().expect("region");
    let bridge = Bridge::produce(region, &image).expect("produce");
    for i in 0..Bridge::BOT_BLOCKS_COUNT {
        let block = bridge.bot_blocks(i).expect("bot block").expect("present");
        let draw = block.draw_region().expect("draw lists");
        draw.try_store::<u32>(DRAW_STATE, 1, Relaxed).unwrap();
    }
    map
}

/// A whole log entry: the header (size, kind record, level, source and text lengths, tick),
/// the source, the text, zero-padded to a multiple of 8.
pub fn log_entry(level: u8, tick: u64, source: &[u8], text: &[u8]) -> Vec<u8> {
    let size = (40 + source.len() + text.len()).div_ceil(8) * 8;
    let mut e = vec![0u8; size];
    e[0..2].copy_from_slice(&(size as u16).to_le_bytes());
    e[3] = level;
    e[4] = source.len() as u8;
    e[6..8].copy_from_slice(&(text.len() as u16).to_le_bytes());
    e[32..40].copy_from_slice(&tick.to_le_bytes());
    e[40..40 + source.len()].copy_from_slice(source);
    e[40 + source.len()..40 + source.len() + text.len()].copy_from_slice(text);
    e
}

/// The source and the text of a whole log entry, checked against its size.
pub fn log_parts(e: &[u8]) -> Option<(&[u8], &[u8])> {
    let source = usize::from(*e.get(4)?);
    let text = usize::from(u16::from_le_bytes(e.get(6..8)?.try_into().ok()?));
    let source_end = 40 + source;
    Some((
        e.get(40..source_end)?,
        e.get(source_end..source_end + text)?,
    ))
}

/// `req k` answered as the hosts of the tests answer it: `ans k` and k % 50 `x`.
pub fn answer(request: &[u8]) -> Option<Vec<u8>> {
    let k: u64 = std::str::from_utf8(request.strip_prefix(b"req ")?)
        .ok()?
        .parse()
        .ok()?;
    let mut out = format!("ans {k}").into_bytes();
    out.extend(std::iter::repeat_n(b'x', (k % 50) as usize));
    Some(out)
}

/// The regions of client row `row` and the bridge's log ring and header, as attach placed
/// them.
#[derive(Clone, Copy)]
pub struct Regions<'a> {
    pub queue: Region<'a>,
    pub ring: Region<'a>,
    pub mailbox: Region<'a>,
    pub draw: Region<'a>,
    pub header: Region<'a>,
}

pub fn regions<'a>(bridge: &Bridge<'a>, row: usize) -> Regions<'a> {
    let block = bridge.client_blocks(row).unwrap().expect("a client block");
    let bot = bridge.bot_blocks(row).unwrap().expect("a bot block");
    Regions {
        queue: block.log_queue_region().expect("a log queue"),
        ring: bridge.log_ring_region().expect("a log ring"),
        mailbox: block.mailbox_region().expect("a mailbox"),
        draw: bot.draw_region().expect("draw lists"),
        header: bridge.region(),
    }
}
