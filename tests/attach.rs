//! `live::Bridge::attach` on images built at the reference's offsets: a valid one, older
//! and newer producers, every corrupted image of `tests/common/image.rs` refused by its
//! named check, random mutations that never panic nor place a region outside the mapping,
//! and extensible records read by their producer's size.

use crate::common;

use bridge_abi::live::{self, Bridge};
use bridge_abi::runtime::attach::PlacedTable;
use bridge_abi::runtime::{Region, SharedBuf};
use common::image::{self, at};
use common::rng::Rng;
use common::verdict::rust_verdict as verdict;

fn offset_in(base: Region<'_>, view: Region<'_>) -> usize {
    view.as_ptr() as usize - base.as_ptr() as usize
}

fn put32(buf: &SharedBuf, offset: usize, v: u32) {
    buf.region().write_bytes(offset, &v.to_le_bytes()).unwrap();
}

fn put16(buf: &SharedBuf, offset: usize, v: u16) {
    buf.region().write_bytes(offset, &v.to_le_bytes()).unwrap();
}

#[test]
fn a_valid_image_attaches_with_typed_access_to_every_region() {
    let buf = SharedBuf::from_bytes(&image::valid());
    let base = buf.region();
    let bridge = Bridge::attach(base).expect("the valid image attaches");
    assert_eq!((bridge.producer().major, bridge.producer().minor), (0, 9));
    assert_eq!(bridge.header_size(), image::HEADER_SIZE as usize);
    assert_eq!(bridge.extent(), image::TOTAL as usize);
    assert_eq!(bridge.header().magic(), image::BRIDGE_MAGIC);

    let ring = bridge.snapshot_ring().expect("the ring is present");
    assert_eq!(ring.head(), 0);
    let slot = ring.slot(0).expect("slot 0");
    assert_eq!(
        offset_in(base, slot.region()),
        image::SNAPSHOT_RING.0 as usize
    );

    let block = bridge
        .client_blocks(3)
        .expect("client block 3 passes")
        .expect("client block 3");
    let pad = block.pad_input().expect("its pad_input");
    let block3 = image::CLIENT_BLOCKS.0 as usize + 3 * 0x10000;
    assert_eq!(
        offset_in(base, pad.region()),
        block3 + image::CLIENT_ROWS[1].0 as usize
    );
    assert_eq!(offset_in(base, block.header().region()), block3);
    assert_eq!(block.header().size(), 0x10000);
    let mailbox = block.mailbox_region().expect("its mailbox");
    assert_eq!(mailbox.len(), image::CLIENT_ROWS[2].1 as usize);

    let bot = bridge
        .bot_blocks(7)
        .expect("bot block 7 passes")
        .expect("bot block 7");
    let stats = bot.stats().expect("its stats");
    let bot7 = image::BOT_BLOCKS.0 as usize + 7 * 0x49000;
    assert_eq!(
        offset_in(base, stats.region()),
        bot7 + image::BOT_ROWS[2].0 as usize
    );
    assert_eq!(Bridge::CLIENT_BLOCKS_COUNT, 8);
    assert!(
        bridge.client_blocks(8).unwrap().is_none(),
        "block 8 is out of range"
    );
    let log = bridge.log_ring().expect("the log ring");
    assert_eq!(offset_in(base, log.region()), image::LOG_RING.0 as usize);

    // A writer through the handle is seen at the reference's offset.
    pad.write_pad_input_unscoped(&bridge_abi::PadInput::default())
        .unwrap();
    let mut word = [0u8; 4];
    base.read_bytes(block3 + image::CLIENT_ROWS[1].0 as usize, &mut word);
    assert_eq!(
        u32::from_le_bytes(word),
        2,
        "one write leaves the seqlock at 2"
    );
}

#[test]
fn every_corrupted_image_is_refused_by_its_named_check() {
    let corruptions = image::corruptions();
    assert!(corruptions.len() >= 15);
    let mut checks = std::collections::BTreeSet::new();
    for c in &corruptions {
        let buf = SharedBuf::from_bytes(&c.image);
        let err = verdict(buf.region())
            .err()
            .unwrap_or_else(|| panic!("{}: attached", c.name));
        assert_eq!(err.check(), c.check, "{}: {err}", c.name);
        let message = err.to_string();
        assert!(
            message.starts_with(&format!("attach: {}: ", c.check)),
            "{message}"
        );
        checks.insert(c.check);
    }
    assert!(checks.len() >= 13, "{checks:?}");
}

#[test]
fn errors_say_what_was_expected_and_what_was_found() {
    let corruptions = image::corruptions();
    let message = |name: &str| {
        let c = corruptions.iter().find(|c| c.name == name).unwrap();
        let buf = SharedBuf::from_bytes(&c.image);
        verdict(buf.region()).unwrap_err().to_string()
    };
    assert_eq!(
        message("wrong magic"),
        "attach: bad_magic: expected 0x42464249, found 0x44464249"
    );
    assert_eq!(
        message("major mismatch"),
        "attach: major_mismatch: major version: expected 0, found 1"
    );
    assert_eq!(
        message("client block's pad_input too small"),
        "attach: region_too_small: client_blocks[0].pad_input is 16 bytes, expected at least 32"
    );
    assert_eq!(
        message("region over the header"),
        "attach: regions_overlap: snapshot_ring overlaps bridge_header, expected apart"
    );
    assert_eq!(
        message("bot block size past its stride"),
        "attach: extent_beyond_block: bot_blocks[3]: size 299016, expected at most 299008 (the stride between blocks)"
    );
}

#[test]
fn an_older_producer_without_the_newer_regions_attaches() {
    // An 0.4 host: no bot blocks (bridge_region bot_blocks is 0.5) and the 0.1 header.
    let buf = SharedBuf::from_bytes(&image::valid());
    put16(&buf, at::ABI_MINOR, 4);
    put32(&buf, at::REGION_COUNT, 4);
    put32(&buf, at::HEADER_SIZE, 1280);
    let bridge = Bridge::attach(buf.region()).expect("an 0.4 host attaches");
    assert_eq!(bridge.producer().minor, 4);
    assert!(bridge.bot_blocks(0).unwrap().is_none());
    assert!(bridge.bot_blocks_region().is_none());
    assert!(bridge.client_blocks(0).unwrap().is_some());
    // An 0.9 host must provide them.
    put16(&buf, at::ABI_MINOR, 9);
    let err = Bridge::attach(buf.region()).unwrap_err();
    assert_eq!(err.check(), "region_missing");
    assert_eq!(err.region(), "bot_blocks");
}

#[test]
fn a_newer_producer_with_a_longer_header_attaches() {
    let buf = SharedBuf::from_bytes(&image::valid());
    put16(&buf, at::ABI_MINOR, 12);
    put32(&buf, at::HEADER_SIZE, 1400);
    let bridge = Bridge::attach(buf.region()).expect("an 0.12 host attaches");
    assert_eq!(bridge.producer().minor, 12);
    assert_eq!(bridge.header_size(), 1400);
}

/// Every placed region of `t` and its blocks lies inside `len`.
fn inside(t: &PlacedTable, len: usize) -> bool {
    t.rows
        .iter()
        .flatten()
        .all(|p| p.offset.checked_add(p.size).is_some_and(|end| end <= len))
        && t.blocks.iter().flatten().all(|b| inside(b, len))
}

#[test]
fn random_mutations_of_the_header_and_tables_never_panic_nor_escape_the_mapping() {
    let valid = image::valid();
    let buf = SharedBuf::from_bytes(&valid);
    let region = buf.region();
    // The bytes attach reads: the bridge header, and each block's header.
    let mut targets: Vec<(usize, usize)> = vec![(0, 0x100)];
    for i in 0..8 {
        targets.push((image::CLIENT_BLOCKS.0 as usize + i * 0x10000, 72));
        targets.push((image::BOT_BLOCKS.0 as usize + i * 0x49000, 72));
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let iterations = if cfg!(miri) { 20 } else { 20_000 };
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..iterations {
        let mut touched = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let (start, len) = targets[rng.below(targets.len() as u64) as usize];
            let at = start + rng.below(len as u64) as usize;
            // Small values are likelier to pass some checks and reach the later ones.
            let byte = match rng.below(3) {
                0 => rng.next() as u8,
                1 => valid[at] ^ (1 << rng.below(8)),
                _ => rng.below(16) as u8,
            };
            region.write_bytes(at, &[byte]).unwrap();
            touched.push(at);
        }
        let len = match rng.below(8) {
            0 => rng.below(valid.len() as u64 + 1) as usize,
            _ => valid.len(),
        };
        let mapping = region.sub(0, len, 8).unwrap();
        match Bridge::attach(mapping) {
            Ok(bridge) => {
                accepted += 1;
                assert!(bridge.extent() <= len);
                assert!(inside(bridge.table(), len), "a region escapes the mapping");
                for i in 0..Bridge::CLIENT_BLOCKS_COUNT {
                    if let Ok(Some(b)) = bridge.client_blocks(i) {
                        assert!(inside(b.table(), len), "a block's region escapes");
                    }
                }
                for i in 0..Bridge::BOT_BLOCKS_COUNT {
                    if let Ok(Some(b)) = bridge.bot_blocks(i) {
                        assert!(inside(b.table(), len), "a block's region escapes");
                    }
                }
            }
            Err(e) => {
                refused += 1;
                assert!(!e.check().is_empty());
            }
        }
        for at in touched {
            region.write_bytes(at, &valid[at..=at]).unwrap();
        }
    }
    eprintln!("random mutations: {accepted} accepted, {refused} refused");
    if !cfg!(miri) {
        assert!(
            accepted > 0 && refused > 0,
            "the mutations must reach both verdicts"
        );
    }
}

fn snapshot_bytes(minor: u16, len: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; len];
    bytes[0..4].copy_from_slice(&0x5346_4249u32.to_le_bytes());
    bytes[6..8].copy_from_slice(&minor.to_le_bytes());
    // Fill every byte after the snapshot header, so zeroed fields show.
    for b in &mut bytes[48..] {
        *b = 0xA5;
    }
    bytes
}

#[test]
fn an_older_snapshot_reads_with_its_absent_fields_absent() {
    // The newcomer's case: an 0.8 host's 11840-byte snapshot.
    let bytes = snapshot_bytes(8, 11840);
    let rec = live::VersionedSnapshot::read(&bytes).expect("an 0.8 snapshot reads");
    assert_eq!((rec.producer.minor, rec.size), (8, 11840));
    assert!(rec.r#match().is_some(), "match is 0.6");
    assert!(rec.spawn_markers().is_none(), "spawn_markers is 0.9");
    assert!(rec.spawn_marker_count().is_none());
    assert_eq!(
        rec.value.spawn_marker_count, 0,
        "absent fields read as zero"
    );
    assert!(rec.extra.is_empty());
    // An 0.5 snapshot lacks the 0.6 fields, even with bytes after its end.
    let rec = live::VersionedSnapshot::read(&snapshot_bytes(5, 12104)).unwrap();
    assert_eq!(rec.size, 10088);
    assert!(rec.r#match().is_none());
    assert_eq!(rec.value.ship_count, 0xA5);
    assert_eq!(
        bridge_abi::zerocopy::IntoBytes::as_bytes(&rec.value.r#match),
        [0u8; 20]
    );
}

#[test]
fn a_newer_snapshot_reads_as_our_prefix_with_its_extra_bytes_kept() {
    let mut bytes = snapshot_bytes(10, 12104 + 64);
    bytes[12104..].copy_from_slice(&[7u8; 64]);
    let rec = live::VersionedSnapshot::read(&bytes).expect("an 0.10 snapshot reads");
    assert_eq!(rec.producer.minor, 10);
    assert!(rec.spawn_markers().is_some());
    assert_eq!(rec.extra, vec![7u8; 64]);
}

/// An older producer's shorter header, live: the fields it lacks are absent through the
/// handle, and neither read nor written, even where other bytes follow its header.
#[test]
fn a_live_header_lacks_the_fields_past_its_producers_header_size() {
    for (minor, size, present) in [
        (6u16, 1296u32, [true, false, false, false]),
        (3, 1280, [false; 4]),
    ] {
        let bytes = image::older_header(minor, size);
        let buf = SharedBuf::from_bytes(&bytes);
        let bridge = Bridge::attach(buf.region()).expect("an older producer's header attaches");
        let header = bridge.header();
        assert_eq!(header.region().len(), size as usize);
        let found = [
            header.controls().is_some(),
            header.run_mode().is_some(),
            header.sim_state().is_some(),
            header.lockstep_timeout_ms().is_some(),
        ];
        assert_eq!(found, present, "0.{minor}, header_size {size}");
        let err = header
            .set_run_mode(bridge_abi::RunMode::LOCKSTEP)
            .unwrap_err();
        assert!(err.to_string().contains("1296"), "{err}");
        assert!(header.set_lockstep_timeout_ms(5).is_err());
        assert_eq!(header.set_controls(Default::default()).is_ok(), present[0]);
        assert_eq!(
            buf.to_vec()[1296..1304],
            [0xEE; 8],
            "nothing past the header was written"
        );
        // The header's own fields still work.
        assert_eq!(header.abi_minor(), minor);
        // A length below what every producer writes is refused.
        assert!(live::BridgeHeader::at_len(buf.region(), 0, 1279).is_err());
    }
    // A 0.9 producer: every field present.
    let buf = SharedBuf::from_bytes(&image::valid());
    let bridge = Bridge::attach(buf.region()).unwrap();
    assert_eq!(bridge.header().run_mode(), Some(bridge_abi::RunMode(0)));
    bridge
        .header()
        .set_run_mode(bridge_abi::RunMode::LOCKSTEP)
        .unwrap()
        .unwrap();
    assert_eq!(
        bridge.header().run_mode(),
        Some(bridge_abi::RunMode::LOCKSTEP)
    );
}

#[test]
fn a_bridge_header_reads_by_its_header_size() {
    let valid = image::valid();
    let mut bytes = valid[..1304].to_vec();
    bytes[at::ABI_MINOR..at::ABI_MINOR + 2].copy_from_slice(&6u16.to_le_bytes());
    bytes[at::HEADER_SIZE..at::HEADER_SIZE + 4].copy_from_slice(&1296u32.to_le_bytes());
    bytes[1296..].fill(0xEE);
    let rec = live::VersionedBridgeHeader::read(&bytes).unwrap();
    assert!(rec.controls().is_some(), "controls is 0.4");
    assert!(rec.run_mode().is_none() && rec.sim_state().is_none());
    assert!(rec.lockstep_timeout_ms().is_none());
    assert_eq!(rec.value.lockstep_timeout_ms, 0);
    // Longer: the extra bytes past ours are kept.
    let mut longer = valid[..1304].to_vec();
    longer.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    longer[at::HEADER_SIZE..at::HEADER_SIZE + 4].copy_from_slice(&1312u32.to_le_bytes());
    let rec = live::VersionedBridgeHeader::read(&longer).unwrap();
    assert_eq!(rec.extra, [1, 2, 3, 4, 5, 6, 7, 8]);
    // Too short, or not a bridge header.
    let err = live::VersionedBridgeHeader::read(&valid[..100]).unwrap_err();
    assert_eq!(err.check(), "mapping_too_short");
    let err = live::VersionedSnapshot::read(&valid[..12104]).unwrap_err();
    assert_eq!(err.check(), "bad_magic");
}
