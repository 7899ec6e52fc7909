//! Rust bindings of the bridge ABI 0.9: shared memory between a game host and its bot
//! clients. Generated from `schema.toml` by this crate's build script; the same text is
//! checked in as `generated/bridge.rs` for review.
//!
//! # Two ways to use the bytes
//!
//! **Value types** (`Snapshot`, `PadInput`, `RecFileHeader`, …) are `#[repr(C)]` structs
//! that derive zerocopy's `FromBytes`, `IntoBytes`, `KnownLayout` and `Immutable`. They are
//! for bytes that nobody else changes while you hold them: a copy, a recording read from a
//! file, a message, a test. There, `Snapshot::ref_from_bytes(&bytes)` views the bytes with
//! no copy and no `unsafe`.
//!
//! **Never point a value type, or any `&[u8]`, at live shared memory.** A `&Snapshot` or
//! `&[u8]` over bytes another process writes is a data race, which is undefined behaviour,
//! and the compiler acts on it: it deletes the second load of a seqlock's counter, so torn
//! copies pass, and turns a poll of `snapshot_seq` into one load and an endless loop.
//!
//! **Live views** ([`live`]) are for the shared memory itself. Each wraps a
//! [`runtime::Region`] (a pointer and a length, like memmap2's `MmapRaw`), checked for size
//! and alignment once, when the view is built. Every field is read and written through
//! atomics at the layout's offsets: the fields the schema marks atomic with acquire loads
//! and release stores, compare-and-swap for claims, the bytes a seqlock guards copied into
//! a value type and re-checked, the snapshot ring read at its newest slot. The only
//! `unsafe` step is making the region from a raw pointer ([`runtime::Region::from_raw_parts`],
//! what `MapViewOfFile` or `mmap` gives), or use [`runtime::Mapping`] (feature `mmap`),
//! which maps a file or a `/dev/shm` object for you. This crate itself has no `unsafe`.
//!
//! A bot attaches (the magic, the major version, the header and total sizes, and every region
//! of every layout table are checked), reads the newest snapshot and claims a client row:
//!
//! ```
//! use bridge_abi::runtime::SharedBuf;
//! use bridge_abi::{ClientState, live, MAX_CLIENTS};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A real bot maps the host's bridge:
//! //   let map = bridge_abi::runtime::Mapping::open("/dev/shm/ibf.bridge")?;   // feature "mmap"
//! //   let bridge = map.region()?;
//! // Here heap memory, laid out as the host would, stands in for it.
//! # let (ring_at, blocks_at, log_at, bots_at) = (4096usize, 4096 + 8 * 32768, 4096 + 8 * 32768 + 8 * 0x10000, 4096 + 8 * 32768 + 8 * 0x10000 + 65600);
//! # let total = bots_at + 8 * 0x49000;
//! # let shared = SharedBuf::new(total);
//! # let bridge = shared.region();
//! # let put = |at: usize, v: u32| bridge.write_bytes(at, &v.to_le_bytes());
//! # put(0, bridge_abi::BRIDGE_MAGIC);
//! # put(4, 9 << 16); // abi_major 0, abi_minor 9
//! # put(8, 1304);
//! # put(12, total as u32);
//! # put(0x1C, 5);
//! # // The geometry as the host built it: ring_slots, ring_slot_size, max_clients,
//! # // client_block_size, client_entry_size; the log ring's capacity.
//! # for (at, v) in [(0x90, 8), (0x94, 32768), (0x98, 8), (0x9C, 0x10000), (0xA0, 128)] {
//! #     put(at, v);
//! # }
//! # put(log_at + 16, 65536);
//! # for (k, (offset, size)) in [(0, 1304), (ring_at, 8 * 32768), (blocks_at, 8 * 0x10000), (log_at, 65600), (bots_at, 8 * 0x49000)].into_iter().enumerate() {
//! #     put(0x40 + 8 * k, offset as u32);
//! #     put(0x44 + 8 * k, size as u32);
//! # }
//! # for i in 0..8 {
//! #     for (block, size, rows) in [(blocks_at + i * 0x10000, 0x10000, [(128, 16448), (16576, 32), (16640, 4096)]), (bots_at + i * 0x49000, 0x49000, [(128, 270592), (270720, 8768), (279488, 4160)])] {
//! #         put(block, size);
//! #         put(block + 4, 3);
//! #         for (k, (offset, len)) in rows.into_iter().enumerate() {
//! #             put(block + 8 + 8 * k, offset);
//! #             put(block + 12 + 8 * k, len);
//! #         }
//! #     }
//! #     let client = blocks_at + i * 0x10000;
//! #     put(client + 128 + 16, 16384); // log queue capacity
//! #     put(client + 16640 + 24, 1024); // mailbox request and response capacities
//! #     put(client + 16640 + 28, 3008);
//! # }
//! # put(0x18, 1); // host_state running, last
//! # {
//! #     let ring = live::SnapshotRing::new(live::BridgeHeader::at(bridge, 0)?, bridge.tail(4096, 8)?)?;
//! #     let mut slot = live::RingSlot::zeroed();
//! #     slot.publish_seq = 1;
//! #     slot.payload.header.tick = 600;
//! #     ring.publish(&mut slot).expect("a slot holds the value");
//! # }
//! let attached = live::Bridge::attach(bridge)?;
//! assert_eq!(attached.producer().major, 0); // the minor may be older or newer than ours
//!
//! // The snapshot ring, where the region table says it is.
//! let ring = attached.snapshot_ring().expect("a 0.9 host has one");
//! if let Some(newest) = ring.read_newest()? {
//!     // An owned copy, consistent: the seqlock re-checked it.
//!     let snapshot = &newest.payload;
//!     assert_eq!(snapshot.header.tick, 600);
//! }
//!
//! // Claim the first free client row by compare-and-swap; the host frees it.
//! let header = attached.header();
//! let (i, row) = (0..MAX_CLIENTS)
//!     .find_map(|i| {
//!         let row = header.clients(i)?;
//!         row.compare_exchange_state(ClientState::FREE, ClientState::CLAIMED).ok()?;
//!         Some((i, row))
//!     })
//!     .expect("a free row");
//! row.fetch_add_generation(1);
//! row.set_pid(std::process::id());
//! row.set_state(ClientState::ACTIVE); // release: publishes the fields written before
//!
//! // The row's client block: its virtual pad, under its seqlock.
//! // Each block is checked when first used: an error names that block alone.
//! // A row claimed by hand has no `live::Client` to bind the write to, so this writes
//! // unscoped; a bot writes `pad.write_pad_input(&client, &value)` (below).
//! let pad = attached.client_blocks(i)?.and_then(|b| b.pad_input()).expect("a pad");
//! pad.write_pad_input_unscoped(&bridge_abi::PadInput { for_tick: 600, ..Default::default() });
//! # Ok(())
//! # }
//! ```
//!
//! The region protocols have a typed side each, reached from the attached bridge: a bot
//! logs through its block's log queue, sends a command through its mailbox and waits for
//! the answer, publishes a draw list, and keeps its client row (the host's sides are there
//! too: `log_queue_reader`, `mailbox_server`, `draw_reader`, `client_host`):
//!
//! ```
//! use std::time::Duration;
//! use bridge_abi::live::{Bridge, ClientStanding};
//! use bridge_abi::runtime::SharedBuf;
//! use bridge_abi::zerocopy::FromZeros;
//! use bridge_abi::{CommandStatus, DrawCmd, DrawListHeader, LogEntry, LogLevel};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The host lays out and writes the image (a bot attaches to the host's mapping instead).
//! let geometry = [("mailbox.request_capacity", 1024), ("mailbox.response_capacity", 3008)];
//! let image = Bridge::lay_out(&geometry, 1)?;
//! let shared = SharedBuf::new(image.bytes.len());
//! Bridge::produce(shared.region(), &image)?;
//! let bridge = Bridge::attach(shared.region())?;
//!
//! // Claim a client row, fill it in, activate it.
//! let client = bridge.claim_first_client()?;
//! client.row().set_pid(std::process::id())?; // Err(Contended) if its word kept changing
//! assert_eq!(client.activate(), ClientStanding::Connected);
//! let i = client.index();
//! let block = bridge.client_blocks(i)?.ok_or("no block")?;
//!
//! // Writers bound to the claim: each write first checks that the row is still the claim's,
//! // and is refused with its standing (nothing stored) once the host freed it or reloaded.
//! // Log: the entry's own fields, then its source and text. `true` means dropped (full).
//! let mut log = block.log_queue_writer(&client)?.ok_or("no log queue")?;
//! let head = LogEntry { level: LogLevel::INFO, tick: 600, ..FromZeros::new_zeroed() };
//! let dropped = log.write(|l| l.push(&head, b"bot", b"hello"))??;
//! assert!(!dropped);
//!
//! // Its virtual pad, under its seqlock, bound the same way: Err(standing) once freed.
//! let pad = block.pad_input().ok_or("no pad")?;
//! pad.write_pad_input(&client, &bridge_abi::PadInput { for_tick: 600, ..FromZeros::new_zeroed() })??;
//!
//! // A command, answered here by the host's side of the same mailbox.
//! let mut mailbox = block.mailbox_client(&client)?.ok_or("no mailbox")?;
//! mailbox.write(|m| m.request(b"status"))??;
//! let host = block.mailbox_server()?.ok_or("no mailbox")?;
//! host.serve(|_| (CommandStatus::OK, b"all good".to_vec()))?;
//! let answer = mailbox.write(|m| m.wait_response(Duration::from_secs(1)))??.ok_or("no answer")?;
//! assert_eq!((answer.status, answer.text.as_slice(), answer.cut), (CommandStatus::OK, &b"all good"[..], false));
//!
//! // A draw list: commands (bounded by the header's capacities), then publish.
//! let mut draw = bridge.bot_blocks(i)?.ok_or("no bot block")?.draw_writer(&client)?.ok_or("no draw lists")?;
//! let text = b"hi";
//! draw.write(|d| {
//!     let cmd = DrawCmd { payload_off: d.payload_len() as u32, payload_len: 2, ..FromZeros::new_zeroed() };
//!     assert!(d.push(&cmd, text));
//! })?;
//! let list = DrawListHeader { for_tick: 600, ..FromZeros::new_zeroed() };
//! draw.write(|d| d.publish(&list))??;
//!
//! // The host's log reader gets the entry whole.
//! let entry = block.log_queue_reader()?.ok_or("no log queue")?.pop()?.ok_or("empty")?;
//! assert_eq!((entry.source.as_slice(), entry.text.as_slice()), (&b"bot"[..], &b"hello"[..]));
//! assert_eq!(client.heartbeat(1)?, ClientStanding::Connected);
//! client.close();
//! # Ok(())
//! # }
//! ```
//!
//! A view over a read-only region (`runtime::ReadOnlyMapping`, or `Region::read_only`) has
//! the loads and seqlock reads, and no setter: a store through it does not compile.
//!
//! ```
//! use bridge_abi::{live, runtime::SharedBuf, ClientState};
//! let buf = SharedBuf::new(live::ClientEntry::SIZE);
//! let row = live::ClientEntry::at(buf.region().read_only(), 0).unwrap();
//! assert_eq!(row.state(), ClientState::FREE);
//! ```
//!
//! ```compile_fail,E0277
//! use bridge_abi::{live, runtime::SharedBuf, ClientState};
//! let buf = SharedBuf::new(live::ClientEntry::SIZE);
//! let row = live::ClientEntry::at(buf.region().read_only(), 0).unwrap();
//! row.set_state(ClientState::ACTIVE); // `A: Writable` is not satisfied by ReadOnly
//! ```
//!
//! Enums and flag sets are `#[repr(transparent)]` newtypes over their representation, so
//! any value the host writes can be read; `Phase::name` tells whether the schema declares it.
#![forbid(unsafe_code)]
// The generated bindings (`include!`d below, nearly all of this crate) stay clean under
// clippy's pedantic lints: CI's `cargo clippy --workspace --all-targets -- -D warnings`
// turns each into an error. The generator fixes what is worth fixing and allows the rest
// in the generated text, item by item, with its reason; an included file cannot carry
// inner attributes at the crate root, so the one lint allowed crate-wide is here.
#![warn(clippy::pedantic)]
#![allow(
    clippy::doc_markdown,
    reason = "the docs quote the schema's prose verbatim (`IM_COL32`, `header.schema_minor`), \
              which the generator cannot tell from code"
)]

pub use abi_runtime as runtime;
pub use zerocopy;

include!(concat!(env!("OUT_DIR"), "/bridge.rs"));
