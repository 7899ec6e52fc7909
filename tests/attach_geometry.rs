//! The host's geometry, start-up, reload and lazy blocks in the Rust bindings: every geometry
//! corruption of `tests/common/image.rs` refused by its named check; rings built with another
//! slot count or slot size read at the host's geometry; a host that starts or reloads while a
//! bot attaches, raced on real threads; one uninitialised bot block that refuses only itself.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering, fence};
use std::thread;

use bridge_abi::HostState;
use bridge_abi::live::{Bridge, BridgeHeader, RingSlot};
use bridge_abi::runtime::{SharedBuf, attach};
use common::image::{self, at};
use common::verdict::rust_verdict;

#[test]
fn every_geometry_corruption_is_refused_by_its_named_check() {
    let list = image::geometry_corruptions();
    let mut checks = std::collections::BTreeSet::new();
    for c in &list {
        let buf = SharedBuf::from_bytes(&c.image);
        let err = rust_verdict(buf.region())
            .err()
            .unwrap_or_else(|| panic!("{}: attached", c.name));
        assert_eq!(err.check(), c.check, "{}: {err}", c.name);
        assert!(
            err.to_string()
                .starts_with(&format!("attach: {}: ", c.check))
        );
        assert_eq!(
            err.is_retryable(),
            c.check == "host_not_running",
            "{}: {err}",
            c.name
        );
        checks.insert(c.check);
    }
    let want = [
        "host_not_running",
        "geometry_mismatch",
        "geometry_zero",
        "geometry_misaligned",
        "geometry_too_small",
        "geometry_too_large",
    ];
    assert_eq!(checks, want.into_iter().collect());
}

#[test]
fn geometry_errors_name_the_field_and_both_values() {
    let list = image::geometry_corruptions();
    let message = |name: &str| {
        let c = list.iter().find(|c| c.name == name).unwrap();
        let buf = SharedBuf::from_bytes(&c.image);
        rust_verdict(buf.region()).unwrap_err().to_string()
    };
    assert_eq!(
        message("client_entry_size larger"),
        "attach: geometry_mismatch: bridge_header.client_entry_size is 256, expected 128"
    );
    assert_eq!(
        message("ring_slot_size under a slot header and snapshot"),
        "attach: geometry_too_small: bridge_header.ring_slot_size is 4096, expected at least 12168"
    );
    assert_eq!(
        message("ring_slots past the ring region"),
        "attach: geometry_too_large: snapshot_ring: the host's geometry asks for 294912 bytes, expected at most 262144 (the region's size)"
    );
    assert_eq!(
        message("draw buffers differ"),
        "attach: geometry_mismatch: bot_blocks[3].draw.buffers is 4, expected 3"
    );
}

/// Publishes `n` snapshots (tick = publication number) through a ring of the host's geometry.
fn publish(bridge: &Bridge<'_>, n: u64) {
    let ring = bridge.snapshot_ring().expect("the ring");
    for k in 1..=n {
        let mut slot = RingSlot::zeroed();
        slot.tick = k;
        slot.publish_seq = k;
        assert_eq!(ring.publish(&mut slot), Ok(k));
    }
}

#[test]
fn a_host_with_16_slots_is_followed_and_read_newest_returns_the_newest() {
    let buf = SharedBuf::from_bytes(&image::with_ring(16, 32768));
    let bridge = Bridge::attach(buf.region()).expect("a 16-slot host attaches");
    let ring = bridge.snapshot_ring().unwrap();
    assert_eq!((ring.slot_count(), ring.slot_size()), (16, 32768));
    publish(&bridge, 12);
    let newest = ring.read_newest().unwrap().expect("published");
    assert_eq!(newest.tick, 12, "publication 12, not the constant ring's 4");
    // Slot 11 holds it, at the host's stride; the schema's 8-slot ring would look in slot 3.
    let slot = ring.slot(11).unwrap();
    let at = slot.region().as_ptr() as usize - buf.region().as_ptr() as usize;
    assert_eq!(at, image::SNAPSHOT_RING.0 as usize + 11 * 32768);
    assert!(ring.slot(16).is_none());
}

#[test]
fn a_host_with_64_kib_slots_is_followed_at_its_stride() {
    let buf = SharedBuf::from_bytes(&image::with_ring(8, 65536));
    let bridge = Bridge::attach(buf.region()).expect("a 64 KiB-slot host attaches");
    let ring = bridge.snapshot_ring().unwrap();
    assert_eq!((ring.slot_count(), ring.slot_size()), (8, 65536));
    publish(&bridge, 3);
    assert_eq!(ring.read_newest().unwrap().unwrap().tick, 3);
    let slot = ring.slot(2).unwrap();
    let at = slot.region().as_ptr() as usize - buf.region().as_ptr() as usize;
    assert_eq!(at, image::SNAPSHOT_RING.0 as usize + 2 * 65536);
    // Where a reader with the schema's 32 KiB slots looks for the newest (slot 2) is the
    // host's slot 1: publication 2, stale.
    let mut word = [0u8; 8];
    buf.region()
        .read_bytes(image::SNAPSHOT_RING.0 as usize + 2 * 32768 + 16, &mut word);
    assert_eq!(u64::from_le_bytes(word), 2);
    // The blocks after the larger ring moved, and are still found.
    assert!(bridge.client_blocks(7).unwrap().is_some());
}

#[test]
fn an_uninitialised_bot_block_refuses_only_itself() {
    let mut bytes = image::valid();
    let bot7 = (image::BOT_BLOCKS.0 + 7 * 0x49000) as usize;
    image::put32(&mut bytes, bot7 + at::BLOCK_REGION_COUNT, 0);
    let buf = SharedBuf::from_bytes(&bytes);
    let bridge = Bridge::attach(buf.region()).expect("one bad bot block does not stop attach");
    for i in 0..7 {
        let block = bridge.bot_blocks(i).unwrap().expect("present");
        assert!(block.stats().is_some() && block.draw().is_some());
    }
    let err = bridge.bot_blocks(7).unwrap_err();
    assert_eq!(
        (err.check(), err.region()),
        ("region_missing", "bot_blocks[7].draw")
    );
    assert!(bridge.client_blocks(7).unwrap().is_some());

    // A block whose header is all zero: its extent is 0.
    let mut zero = image::valid();
    zero[bot7..bot7 + 72].fill(0);
    let buf = SharedBuf::from_bytes(&zero);
    let bridge = Bridge::attach(buf.region()).unwrap();
    let err = bridge.bot_blocks(7).unwrap_err();
    assert_eq!(
        (err.check(), err.region()),
        ("extent_too_small", "bot_blocks[7]")
    );
    assert!(bridge.bot_blocks(6).unwrap().is_some());

    // The report that `inspect` shows still lists the block's problem.
    let report = attach::report(
        &buf.region(),
        Some(&bridge_abi::live::BRIDGE_HEADER_HANDSHAKE),
        &bridge_abi::live::BRIDGE_TABLE,
    );
    let root = report.table.as_ref().expect("the root table");
    let attach::RowReport::Placed { blocks, .. } = &root.rows[4] else {
        panic!("bot_blocks placed: {:?}", root.rows[4]);
    };
    assert_eq!(blocks[7].problems[0].region(), "bot_blocks[7]");
    assert_eq!(report.first_error().unwrap().region(), "bot_blocks[7]");
}

#[test]
fn a_bot_retrying_while_the_host_starts_never_accepts_a_half_written_table() {
    let mut valid = image::valid();
    // The tables as the host writes them first: its state stays `starting` until the end.
    valid[at::HOST_GENERATION..at::HOST_STATE + 4].fill(0);
    // The host has mapped the bridge and written the handshake, but nothing else yet.
    let mut start = vec![0u8; valid.len()];
    start[..at::HOST_GENERATION].copy_from_slice(&valid[..at::HOST_GENERATION]);
    let buf = SharedBuf::from_bytes(&start);
    let region = buf.region();
    let retries = AtomicU32::new(0);
    thread::scope(|s| {
        s.spawn(|| {
            // The host: waits until the bot has tried, writes every table, then stores
            // running with release.
            while retries.load(Ordering::Relaxed) == 0 {
                thread::yield_now();
            }
            image::write_slowly(region, &valid, at::HOST_GENERATION);
            let header = BridgeHeader::at(region, 0).unwrap();
            header.set_host_generation(image::GENERATION).unwrap();
            header.set_host_state(HostState::RUNNING).unwrap();
        });
        let bridge = loop {
            match Bridge::attach(region) {
                Ok(b) => break b,
                Err(e) => {
                    assert!(e.is_retryable(), "a half-written table was judged: {e}");
                    retries.fetch_add(1, Ordering::Relaxed);
                }
            }
        };
        // What it accepted is the whole table.
        for i in 0..8 {
            assert!(bridge.bot_blocks(i).unwrap().is_some());
            assert!(bridge.client_blocks(i).unwrap().is_some());
        }
        assert_eq!(bridge.generation(), Some(u64::from(image::GENERATION)));
        assert!(!bridge.reloaded());
    });
    let retries = retries.into_inner();
    eprintln!("start-up: the bot retried {retries} times");
    assert!(retries > 0, "the bot must have raced the host");
}

#[test]
fn a_reload_is_noticed_and_reattach_sees_the_new_geometry() {
    // A ring region big enough for 16 slots; generation g has 16 slots when odd, 8 when even.
    let bytes = image::with_ring(16, 32768);
    let buf = SharedBuf::from_bytes(&bytes);
    let region = buf.region();
    let slots_of = |g: u64| if g % 2 == 1 { 16 } else { 8 };
    let rounds: u32 = if cfg!(miri) { 3 } else { 200 };
    let done = AtomicBool::new(false);
    let noticed = AtomicU32::new(0);
    let seen = AtomicU64::new(0);
    thread::scope(|s| {
        s.spawn(|| {
            let header = BridgeHeader::at(region, 0).unwrap();
            for g in 2..2 + rounds {
                // A reload: starting, the tables rewritten, a new generation, running.
                header.set_host_state(HostState::STARTING).unwrap();
                fence(Ordering::Release);
                image::write_slowly(region, &bytes[..4096], at::REGIONS);
                let slots = slots_of(u64::from(g)) as u32;
                region
                    .write_bytes(at::RING_SLOTS, &slots.to_le_bytes())
                    .unwrap();
                header.set_host_generation(g).unwrap();
                header.set_host_state(HostState::RUNNING).unwrap();
                // Now and then, let the bot attach to this generation before the next reload.
                while g % 4 == 0 && seen.load(Ordering::Relaxed) != u64::from(g) {
                    thread::yield_now();
                }
            }
            done.store(true, Ordering::Release);
        });
        let (mut attaches, mut refused) = (0u32, 0u32);
        while !done.load(Ordering::Acquire) {
            let bridge = match Bridge::attach(region) {
                Ok(b) => b,
                Err(e) => {
                    assert!(e.is_retryable(), "{e}");
                    refused += 1;
                    continue;
                }
            };
            attaches += 1;
            let g = bridge.generation().unwrap();
            seen.store(g, Ordering::Relaxed);
            let ring = bridge.snapshot_ring().unwrap();
            assert_eq!(
                ring.slot_count(),
                slots_of(g),
                "generation {g}'s handle has another generation's geometry"
            );
            while !bridge.reloaded() && !done.load(Ordering::Acquire) {
                thread::yield_now();
            }
            if bridge.reloaded() {
                noticed.fetch_add(1, Ordering::Relaxed);
            }
        }
        eprintln!(
            "reload: {attaches} attaches, {refused} refused while reloading, {} reloads noticed",
            noticed.load(Ordering::Relaxed)
        );
        assert!(
            noticed.load(Ordering::Relaxed) > 0,
            "the bot must notice a reload"
        );
        assert!(attaches > 1, "the bot must attach again after a reload");
    });
}
