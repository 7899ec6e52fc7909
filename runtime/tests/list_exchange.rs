//! Whole lists through a triple buffer, and an entry's parts: a list built, published and
//! taken, a full list dropping, counting and flagging, a geometry or a list length the other
//! side broke as a named error, and an entry composed and split with its part lengths
//! checked against their bounds and the entry.

use core::sync::atomic::Ordering::Relaxed;

use abi_runtime::SharedBuf;
use abi_runtime::attach::Field;
use abi_runtime::byte_queue::EntryFormat;
use abi_runtime::entry_parts::{PartError, PartSpec, compose, split};
use abi_runtime::list_exchange::{ListFormat, ListReader, ListSpec, ListWriter};

const fn f(offset: usize, width: usize) -> Field {
    Field { offset, width }
}

/// A 24-byte header (state, buffers, buffer_size, max_items, max_payload, published), then
/// three lists of a 16-byte header (count, payload_len, flags, dropped), 2 items of 8 bytes
/// and 8 payload bytes.
const SPEC: ListSpec = ListSpec {
    state: 0,
    initial_state: 1,
    stale_grace: 1,
    buffers: f(4, 4),
    buffer_size: f(8, 4),
    max_items: f(12, 4),
    max_payload: f(16, 4),
    published: f(20, 4),
    area: 24,
    list: ListFormat {
        size: 16,
        align: 8,
        count: f(0, 4),
        payload_len: f(4, 4),
        dropped: f(12, 4),
        flags: f(8, 4),
        overflow: 1,
    },
    item_size: 8,
};

fn exchange() -> SharedBuf {
    let buf = SharedBuf::new(24 + 3 * 40);
    for (at, v) in [(0, 1u32), (4, 3), (8, 40), (12, 2), (16, 8)] {
        buf.region().try_store::<u32>(at, v, Relaxed).unwrap();
    }
    buf
}

#[test]
fn a_list_is_built_published_and_taken_whole() {
    let buf = exchange();
    let mut w = ListWriter::new(buf.region(), SPEC).unwrap();
    let mut r = ListReader::new(buf.region(), SPEC).unwrap();
    assert_eq!(r.take(), Ok(None));
    assert!(w.push(&[1; 8], b"abc"));
    assert!(w.push(&[2; 5], b"de"));
    assert_eq!((w.len(), w.payload_len(), w.dropped()), (2, 5, 0));
    let p = w.publish(&[0xee; 16]).unwrap();
    assert!(!p.overwrote);
    let list = r.take().unwrap().unwrap();
    assert_eq!(
        list.items,
        [[1u8; 8].as_slice(), &[2, 2, 2, 2, 2, 0, 0, 0]].concat()
    );
    assert_eq!(list.payload, b"abcde");
    assert_eq!(
        &list.header[0..8],
        &[2, 0, 0, 0, 5, 0, 0, 0],
        "count, payload_len"
    );
    assert_eq!(
        &list.header[8..16],
        &[0xee, 0xee, 0xee, 0xee, 0, 0, 0, 0],
        "flags kept"
    );
    assert_eq!(r.published(), 1);
    assert!(w.is_empty(), "the next list starts empty");
}

#[test]
fn a_full_list_drops_counts_and_flags_overflow() {
    let buf = exchange();
    let mut w = ListWriter::new(buf.region(), SPEC).unwrap();
    let mut r = ListReader::new(buf.region(), SPEC).unwrap();
    assert!(w.push(&[1; 8], b"12345678"));
    assert!(!w.push(&[2; 8], b"9"), "the payload is full");
    assert!(w.push(&[3; 8], b""));
    assert!(!w.push(&[4; 8], b""), "the items are full");
    assert!(!w.push(&[5; 9], b""), "an item larger than an item");
    w.publish(&[0; 16]).unwrap();
    let list = r.take().unwrap().unwrap();
    assert_eq!(
        &list.header[8..16],
        &[1, 0, 0, 0, 3, 0, 0, 0],
        "overflow, 3 dropped"
    );
}

#[test]
fn a_broken_geometry_or_list_length_is_a_named_error() {
    for (at, bad) in [(4, 4u32), (8, 41), (8, 32), (8, 1 << 30), (12, 3), (16, 9)] {
        let buf = exchange();
        buf.region().try_store::<u32>(at, bad, Relaxed).unwrap();
        let err = ListWriter::new(buf.region(), SPEC).unwrap_err();
        assert_eq!(err.check(), "exchange_geometry", "{at} = {bad}");
        assert_eq!(
            ListReader::new(buf.region(), SPEC).unwrap_err().check(),
            "exchange_geometry"
        );
    }
    let buf = exchange();
    let mut w = ListWriter::new(buf.region(), SPEC).unwrap();
    let mut r = ListReader::new(buf.region(), SPEC).unwrap();
    w.publish(&[0; 16]).unwrap();
    // The writer's list is 0 at the start: its count is past the capacity.
    buf.region().try_store::<u32>(24, 3, Relaxed).unwrap();
    assert_eq!(r.take().unwrap_err().check(), "exchange_list_length");
    // The writer took list 1 in exchange for list 0 and hands it over: then its payload
    // length is broken, past the capacity.
    w.publish(&[0; 16]).unwrap();
    buf.region()
        .try_store::<u32>(24 + 40 + 4, 9, Relaxed)
        .unwrap();
    let err = r.take().unwrap_err();
    assert_eq!(err.check(), "exchange_list_length", "{err}");
}

const FORMAT: EntryFormat = EntryFormat {
    size: f(0, 2),
    kind: f(2, 1),
    padding: 1,
    header: 8,
};
const PARTS: [PartSpec; 2] = [
    PartSpec {
        len: f(3, 1),
        max: 4,
    },
    PartSpec {
        len: f(4, 2),
        max: 20,
    },
];

#[test]
fn an_entry_is_composed_and_split_with_its_part_lengths_checked() {
    let entry = compose(
        FORMAT.size,
        FORMAT.kind,
        0,
        &[0, 0, 9, 9, 9, 9, 7, 7],
        &PARTS,
        &[b"ab", b"hello"],
    )
    .unwrap();
    assert_eq!(entry.len(), 16, "8 + 2 + 5, padded to 8");
    assert_eq!(&entry[..8], &[16, 0, 0, 2, 5, 0, 7, 7]);
    assert_eq!(
        split(&entry, 8, &PARTS).unwrap(),
        [b"ab".to_vec(), b"hello".to_vec()]
    );
    let err = compose(
        FORMAT.size,
        FORMAT.kind,
        0,
        &[0; 8],
        &PARTS,
        &[b"abcde", b""],
    )
    .unwrap_err();
    assert_eq!(
        err,
        PartError::TooLong {
            part: 0,
            len: 5,
            max: 4
        }
    );
    assert_eq!(err.check(), "entry_part_too_long");
    let mut past = entry.clone();
    past[4] = 12; // text_len within its bound, past the entry
    let err = split(&past, 8, &PARTS).unwrap_err();
    assert_eq!(
        err,
        PartError::PastEntry {
            part: 1,
            end: 22,
            size: 16
        }
    );
    assert_eq!(err.check(), "entry_part_past_entry");
    past[4] = 21;
    assert_eq!(
        split(&past, 8, &PARTS).unwrap_err().check(),
        "entry_part_too_long"
    );
}
