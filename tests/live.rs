//! The generated live layer on heap memory: every kind of operation it offers, checked
//! against the bytes at the offsets the reference text gives (not the generator's own
//! numbers), and the seqlocks' and rings' protocols step by step.

mod common;

use bridge_abi::live;
use bridge_abi::runtime::{RegionErrorKind, SharedBuf};
use bridge_abi::zerocopy::IntoBytes;
use bridge_abi::*;

/// A bridge laid out as a host would: the header, then the snapshot ring.
const RING_AT: usize = 4096;
const BRIDGE_LEN: usize = RING_AT + RING_SLOTS as usize * RING_SLOT_SIZE as usize;

fn bridge() -> SharedBuf {
    SharedBuf::new(BRIDGE_LEN)
}

/// The little-endian integer of `len` bytes at `offset`.
fn le(bytes: &[u8], offset: usize, len: usize) -> u64 {
    let mut word = [0u8; 8];
    word[..len].copy_from_slice(&bytes[offset..offset + len]);
    u64::from_le_bytes(word)
}

/// A field's offset as the reference text states it.
fn reference_offset(reference: &common::reference::Reference, s: &str, f: &str) -> usize {
    let st = reference
        .structs
        .iter()
        .find(|r| r.name == s)
        .unwrap_or_else(|| panic!("the reference has no struct {s}"));
    st.fields
        .iter()
        .find(|r| r.name == f)
        .unwrap_or_else(|| panic!("the reference has no field {s}.{f}"))
        .offset as usize
}

/// Each accessor reads and writes the bytes at the reference's offset, with the width of
/// the reference's type.
#[test]
#[cfg_attr(miri, ignore = "reads the reference text from disk")]
fn accessors_touch_the_reference_offsets() {
    let reference = common::reference::load_reference();
    let at = |s: &str, f: &str| reference_offset(&reference, s, f);
    let buf = bridge();
    let header = live::BridgeHeader::at(buf.region(), 0).expect("the header fits");

    header.set_snapshot_seq(0x1122_3344_5566_7788).unwrap();
    header.set_magic(BRIDGE_MAGIC).unwrap();
    header.set_host_state(HostState::EXITING).unwrap();
    header
        .set_run_mode(RunMode::LOCKSTEP)
        .expect("a whole header holds run_mode")
        .unwrap();
    let client = header.clients(3).expect("row 3");
    client.set_state(ClientState::ACTIVE).unwrap();
    client.set_heartbeat_ns(0xAABB_CCDD_EEFF_0011).unwrap();
    client
        .set_name(*b"bot-three\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0")
        .unwrap();
    header
        .compare_exchange_pad_owner([0; 4], [NO_PAD, 3, NO_PAD, PAD_NOT_BOT])
        .expect("the pads were zero")
        .unwrap();

    let bytes = buf.to_vec();
    assert_eq!(
        le(&bytes, at("bridge_header", "snapshot_seq"), 8),
        0x1122_3344_5566_7788
    );
    assert_eq!(
        le(&bytes, at("bridge_header", "magic"), 4),
        u64::from(BRIDGE_MAGIC)
    );
    assert_eq!(le(&bytes, at("bridge_header", "host_state"), 4), 2);
    assert_eq!(le(&bytes, at("bridge_header", "run_mode"), 1), 1);
    let row = at("bridge_header", "clients") + 3 * 128;
    assert_eq!(le(&bytes, row + at("client_entry", "state"), 4), 2);
    assert_eq!(
        le(&bytes, row + at("client_entry", "heartbeat_ns"), 8),
        0xAABB_CCDD_EEFF_0011
    );
    let name = row + at("client_entry", "name");
    assert_eq!(&bytes[name..name + 10], b"bot-three\0");
    let owners = at("bridge_header", "pad_owner");
    assert_eq!(
        &bytes[owners..owners + 4],
        &[NO_PAD, 3, NO_PAD, PAD_NOT_BOT]
    );

    // And back: bytes written at the reference offsets read through the accessors.
    let raw = SharedBuf::new(BRIDGE_LEN);
    let mut image = vec![0u8; 2048];
    image[at("bridge_header", "host_generation")..][..4].copy_from_slice(&7u32.to_le_bytes());
    image[at("bridge_header", "abi_minor")..][..2].copy_from_slice(&9u16.to_le_bytes());
    raw.region().write_bytes(0, &image).unwrap();
    let header = live::BridgeHeader::at(raw.region(), 0).expect("the header fits");
    assert_eq!(header.host_generation(), 7);
    assert_eq!(header.abi_minor(), 9);

    // The ring slot's seqlock counter and payload, and the snapshot's event total.
    let slot = live::RingSlotHeader::at(buf.region().sub(RING_AT, 32768, 8).unwrap(), 0).unwrap();
    let mut value = live::RingSlot::zeroed();
    value.payload.event_total = 41;
    value.tick = 5;
    slot.write_ring_slot(&value)
        .expect("the slot holds the value");
    let bytes = buf.to_vec();
    assert_eq!(le(&bytes, RING_AT + at("ring_slot_header", "seq"), 4), 2);
    assert_eq!(le(&bytes, RING_AT + at("ring_slot_header", "tick"), 8), 5);
    assert_eq!(
        le(&bytes, RING_AT + at("ring_slot_header", "size"), 4),
        12104
    );
    assert_eq!(
        le(&bytes, RING_AT + 64 + at("snapshot", "event_total"), 8),
        41
    );
}

#[test]
fn views_check_bounds_and_alignment() {
    let buf = SharedBuf::new(2048);
    let short = buf.region().sub(0, 1000, 8).unwrap();
    let e = live::BridgeHeader::at(short, 0)
        .err()
        .expect("1000 bytes are too few");
    assert!(
        matches!(e.kind(), RegionErrorKind::OutOfBounds { .. }),
        "{e}"
    );
    let e = live::BridgeHeader::at(buf.region(), 4)
        .err()
        .expect("offset 4 is misaligned");
    assert!(
        matches!(e.kind(), RegionErrorKind::Misaligned { .. }),
        "{e}"
    );
    assert!(live::BridgeHeader::at(buf.region(), 8).is_ok());
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    assert!(header.clients(MAX_CLIENTS).is_none());
    assert!(header.clients(MAX_CLIENTS - 1).is_some());
    // A view with a trailer needs its fixed part: params_header and its definitions and values.
    let params = SharedBuf::new(64 + 32 * 256 + 32 * 16);
    assert!(live::ParamsHeader::at(params.region(), 0).is_ok());
    let short = params.region().sub(0, 64 + 32 * 256, 8).unwrap();
    assert!(live::ParamsHeader::at(short, 0).is_err());
    // A ring needs all its slots.
    let ring = buf.region();
    assert!(live::SnapshotRing::new(header, ring).is_err());
}

#[test]
fn atomic_fields_load_store_add_and_compare_exchange() {
    let buf = bridge();
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    assert_eq!(header.snapshot_seq(), 0);
    assert_eq!(header.fetch_add_snapshot_seq(2).unwrap(), 0);
    assert_eq!(header.snapshot_seq(), 2);
    header.set_host_state(HostState::RUNNING).unwrap();
    assert_eq!(header.host_state(), HostState::RUNNING);

    let row = header.clients(0).unwrap();
    assert_eq!(
        row.compare_exchange_state(ClientState::FREE, ClientState::CLAIMED)
            .unwrap(),
        Ok(ClientState::FREE)
    );
    assert_eq!(
        row.compare_exchange_state(ClientState::FREE, ClientState::CLAIMED)
            .unwrap(),
        Err(ClientState::CLAIMED),
        "a claimed row cannot be claimed again"
    );
    assert_eq!(row.fetch_add_generation(1).unwrap(), 0);
    assert_eq!(
        row.swap_state(ClientState::ACTIVE).unwrap(),
        ClientState::CLAIMED
    );
    row.set_pid(4242).unwrap();
    assert_eq!(row.pid(), 4242);

    // pad_owner: one word, CAS'd whole or one byte at a time through the word.
    header
        .compare_exchange_pad_owner([0; 4], [NO_PAD, NO_PAD, PAD_NOT_BOT, PAD_NOT_BOT])
        .unwrap()
        .unwrap();
    assert_eq!(
        header.compare_exchange_pad_owner_at(1, NO_PAD, 5).unwrap(),
        Ok(())
    );
    assert_eq!(
        header.compare_exchange_pad_owner_at(1, NO_PAD, 6).unwrap(),
        Err(5)
    );
    assert_eq!(
        header.compare_exchange_pad_owner_at(2, NO_PAD, 6).unwrap(),
        Err(PAD_NOT_BOT)
    );
    assert_eq!(header.pad_owner(), [NO_PAD, 5, PAD_NOT_BOT, PAD_NOT_BOT]);

    // A directory row is claimed the same way.
    let dir = SharedBuf::new(1088);
    let directory = live::DirectoryHeader::at(dir.region(), 0).unwrap();
    let entry = directory.entries(15).unwrap();
    assert!(
        entry
            .compare_exchange_state(InstanceState::FREE, InstanceState::CLAIMED)
            .unwrap()
            .is_ok()
    );
    assert_eq!(entry.state(), InstanceState::CLAIMED);
}

#[test]
#[should_panic(expected = "element index out of range")]
fn a_pad_index_past_the_word_panics() {
    let buf = bridge();
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    let _ = header.compare_exchange_pad_owner_at(4, 0, 1).unwrap();
}

#[test]
fn seqlocked_records_round_trip() {
    // pad_input: the whole record but its counter.
    let buf = SharedBuf::new(32);
    let pad = live::PadInput::at(buf.region(), 0).unwrap();
    let input = PadInput {
        flags: PadInputFlags::CONNECTED,
        for_tick: 99,
        lx: -32768,
        buttons: PadButtons::A | PadButtons::START,
        rt: 255,
        ..PadInput::default()
    };
    pad.write_pad_input_unscoped(&input).unwrap();
    assert_eq!(
        pad.seq(),
        2,
        "one write makes the counter odd, then even again"
    );
    let (read, retries) = pad.read_pad_input_counted(10).unwrap();
    assert_eq!(retries, 0);
    assert_eq!(read.for_tick, 99);
    assert_eq!(read.lx, -32768);
    assert_eq!(read.buttons, PadButtons::A | PadButtons::START);
    assert_eq!(read.flags, PadInputFlags::CONNECTED);
    assert_eq!(read.rt, 255);

    // params: the definitions under defs_seq, the values under values_seq.
    let params = SharedBuf::new(64 + 32 * 256 + 32 * 16);
    let header = live::ParamsHeader::at(params.region(), 0).unwrap();
    let mut defs = live::ParamDefs::zeroed();
    defs.def_count = 2;
    defs.defs[1].set_name("speed");
    defs.defs[1].max = 2.5;
    header.write_param_defs_unscoped(&defs).unwrap();
    let mut values = live::ParamValues::zeroed();
    values.values[1].value = 1.25;
    values.values[1].changes = 3;
    header.write_param_values(&values).unwrap();
    header.fetch_add_changes(1).unwrap();
    let defs = header.read_param_defs().unwrap();
    assert_eq!(defs.def_count, 2);
    assert_eq!(defs.defs[1].name_str(), Ok("speed"));
    assert_eq!(defs.defs[1].max, 2.5);
    let values = header.read_param_values().unwrap();
    assert_eq!(values.values[1].value, 1.25);
    assert_eq!(values.values[1].changes, 3);
    assert_eq!(
        (header.defs_seq(), header.values_seq(), header.changes()),
        (2, 2, 1)
    );
    // The values follow the definitions: 64 + 32 * 256 bytes in.
    let bytes = params.to_vec();
    assert_eq!(&bytes[64 + 256..64 + 261], b"speed");
    assert_eq!(
        f64::from_le_bytes(bytes[64 + 8192 + 16..][..8].try_into().unwrap()),
        1.25
    );

    // stats: count and entries under seq; ticks outside it.
    let stats = SharedBuf::new(64 + 64 * 64);
    let header = live::StatsHeader::at(stats.region(), 0).unwrap();
    let mut value = live::Stats::zeroed();
    value.count = 1;
    value.entries[0].set_name("kills");
    value.entries[0].value = 12.0;
    header.write_stats_unscoped(&value).unwrap();
    header.fetch_add_ticks(1).unwrap();
    let read = header.read_stats().unwrap();
    assert_eq!(read.count, 1);
    assert_eq!(read.entries[0].name_str(), Ok("kills"));
    assert_eq!(read.entries[0].value, 12.0);
    assert_eq!(header.ticks(), 1);
}

#[test]
fn a_reader_gives_up_on_a_counter_that_stays_odd() {
    let buf = SharedBuf::new(32);
    // A writer that died mid-write leaves the counter odd.
    buf.region()
        .try_store::<u32>(0, 7, std::sync::atomic::Ordering::Release)
        .unwrap();
    let pad = live::PadInput::at(buf.region(), 0).unwrap();
    let e = pad.read_pad_input_counted(50).unwrap_err();
    assert!(e.to_string().contains("50"), "{e}");
    // The next write starts from the odd counter and leaves it even.
    pad.write_pad_input_unscoped(&PadInput::default()).unwrap();
    assert_eq!(pad.seq() % 2, 0);
    assert!(pad.read_pad_input().is_ok());
}

fn ring(buf: &SharedBuf) -> live::SnapshotRing<'_> {
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    let slots = buf.region().tail(RING_AT, 8).unwrap();
    live::SnapshotRing::new(header, slots).unwrap()
}

#[test]
fn the_newest_snapshot_is_in_slot_head_minus_one() {
    let buf = bridge();
    let ring = ring(&buf);
    assert!(
        ring.read_newest().unwrap().is_none(),
        "nothing published yet"
    );
    for n in 1..=11u64 {
        // publish stamps publish_seq with the head it publishes (issue 40, item 4).
        let mut slot = live::RingSlot::zeroed();
        slot.payload.header.tick = n * 10;
        slot.payload_extra = vec![n as u8; 3];
        assert_eq!(ring.publish(&mut slot), Ok(n));
        assert_eq!(slot.publish_seq, n);
        let newest = ring.read_newest().unwrap().expect("published");
        assert_eq!(newest.publish_seq, n);
        assert_eq!(newest.payload.header.tick, n * 10);
        assert_eq!(newest.payload_extra, vec![n as u8; 3]);
        assert_eq!(newest.size as usize, 12104 + 3);
    }
    // 11 publications in 8 slots: the newest is in slot (11 - 1) % 8 = 2, and slot 1 holds 10.
    let bytes = buf.to_vec();
    let slot = |i: usize| RING_AT + i * RING_SLOT_SIZE as usize;
    assert_eq!(le(&bytes, slot(2) + 8, 8), 11);
    assert_eq!(le(&bytes, slot(1) + 8, 8), 10);
    assert_eq!(le(&bytes, slot(3) + 8, 8), 4);
    assert_eq!(le(&bytes, 0xC0, 8), 11);
}

/// Issue 37: a ring built with slots a reader cannot use is refused when it is built (it
/// panicked in `read_newest`, reading past a 64-byte slot); a slot view over fewer bytes
/// than the value reads what is there.
#[test]
fn a_ring_refuses_slots_a_reader_cannot_use() {
    let buf = bridge();
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    let slots = buf.region().tail(RING_AT, 8).unwrap();
    let least = live::SnapshotRing::MIN_SLOT_SIZE;
    assert_eq!(least, 64 + 12104, "the slot's header and its snapshot");
    for (count, size) in [
        (0, RING_SLOT_SIZE as usize),
        (8, 64),
        (8, least - 8),
        (1, least + 4),
        (usize::MAX, 0),
        (1, usize::MAX),
    ] {
        let e = live::SnapshotRing::with_geometry(header, slots, count, size)
            .err()
            .unwrap_or_else(|| panic!("{count} slots of {size} bytes"));
        assert_eq!(
            e.kind(),
            RegionErrorKind::SlotGeometry {
                count,
                size,
                least,
                align: 8
            }
        );
        assert!(e.to_string().contains("cannot be read"), "{e}");
    }
    let e = live::SnapshotRing::with_geometry(header, slots, usize::MAX, least).err();
    assert!(matches!(
        e.map(|e| e.kind()),
        Some(RegionErrorKind::OutOfBounds { .. })
    ));
    let ring = live::SnapshotRing::with_geometry(header, slots, 2, least).expect("the least");
    let mut value = live::RingSlot::zeroed();
    value.publish_seq = 5;
    assert_eq!(ring.publish(&mut value), Ok(1));
    assert_eq!(ring.read_newest().unwrap().unwrap().publish_seq, 1);
    // A slot's view over its header alone: a copy reads the header, and nothing after it.
    let small = live::RingSlotHeader::at(buf.region().sub(RING_AT, 64, 8).unwrap(), 0).unwrap();
    let copy = small.read_ring_slot().expect("a copy");
    assert_eq!((copy.publish_seq, copy.payload_extra.len()), (1, 0));
    // The head at u64::MAX: the next publication wraps it (a count, never a panic).
    header.set_snapshot_seq(u64::MAX).unwrap();
    assert_eq!(ring.publish(&mut value), Ok(0));
    assert_eq!(value.publish_seq, 0);
}

/// An 0.8 host's snapshot is 11840 bytes: the copy keeps them and zeroes the fields it
/// lacks; a longer payload's tail is kept as extra bytes.
#[test]
fn a_shorter_or_longer_payload_reads_by_its_size() {
    let buf = bridge();
    let ring = ring(&buf);
    let mut slot = live::RingSlot::zeroed();
    slot.payload.spawn_marker_count = 9;
    slot.payload.event_total = 77;
    ring.publish(&mut slot).expect("a slot holds the value");
    // The host wrote only 11840 bytes of payload: make the slot say so, under its seqlock.
    let slot_region = buf
        .region()
        .sub(RING_AT, RING_SLOT_SIZE as usize, 8)
        .unwrap();
    let lock = bridge_abi::runtime::SeqLock::<u32>::new(slot_region, 0);
    lock.try_write(|| slot_region.try_store::<u32>(4, 11840, std::sync::atomic::Ordering::Relaxed))
        .unwrap();
    let newest = ring.read_newest().unwrap().unwrap();
    assert_eq!(newest.size, 11840);
    assert_eq!(newest.payload.event_total, 77, "0.8 fields are kept");
    assert_eq!(
        newest.payload.spawn_marker_count, 0,
        "0.9 fields past 11840 read as zero"
    );
    assert!(newest.payload_extra.is_empty());
    // A size past the slot is cut at the slot's end.
    lock.try_write(|| {
        slot_region.try_store::<u32>(4, u32::MAX, std::sync::atomic::Ordering::Relaxed)
    })
    .unwrap();
    let newest = ring.read_newest().unwrap().unwrap();
    assert_eq!(newest.payload_extra.len(), 32768 - 64 - 12104);
}

#[test]
fn events_since_a_count_skip_what_the_ring_overwrote() {
    // Written through the ring's writer (issue 40, item 8): numbered from event_total.
    let mut snapshot = Snapshot::default();
    for i in 0..40u64 {
        let event = bridge_abi::Event {
            tick: i,
            ..Default::default()
        };
        assert_eq!(snapshot.push_events(event), i);
    }
    assert_eq!(snapshot.event_total, 40);
    assert_eq!(snapshot.events[39 % MAX_EVENTS].tick, 39);
    let since = snapshot.events_since(30);
    assert_eq!(since.lost(), 0);
    let ticks: Vec<u64> = since.map(|(_, e)| e.tick).collect();
    assert_eq!(ticks, (30..40).collect::<Vec<_>>());
    let since = snapshot.events_since(0);
    assert_eq!(
        since.lost(),
        8,
        "40 events in 32 slots: the first 8 are gone"
    );
    assert_eq!(since.map(|(n, e)| (n, e.tick)).next(), Some((8, 8)));
    assert_eq!(snapshot.events_since(40).count(), 0);
}

#[test]
fn value_bytes_are_the_shared_bytes() {
    // A value read through a seqlock is the same bytes zerocopy sees in a file.
    let buf = SharedBuf::new(32);
    let pad = live::PadInput::at(buf.region(), 0).unwrap();
    let input = PadInput {
        ly: 1234,
        ..PadInput::default()
    };
    pad.write_pad_input_unscoped(&input).unwrap();
    let read = pad.read_pad_input().unwrap();
    assert_eq!(&read.as_bytes()[4..], &buf.to_vec()[4..]);
}
