//! `attach` on a small hand-made layout (under Miri too): the checks in order, nested
//! blocks, absent rows, every problem of an image reported (the first is attach's error),
//! and records read by their producer's size.

use abi_runtime::SharedBuf;
use abi_runtime::attach::{
    AddedField, AttachError, Field, HandshakeSpec, RowContents, RowReport, RowSpec, TableSpec,
    Version, attach, block, report,
};

const fn f(offset: usize, width: usize) -> Field {
    Field { offset, width }
}

/// A block: `size` u32, `count` u32, then one row `{ offset, size }`.
static BLOCK: TableSpec = TableSpec {
    name: "block",
    header: "block_header",
    header_size: 16,
    table_offset: 8,
    max_rows: 1,
    row_size: 8,
    row_offset: f(0, 4),
    row_len: f(4, 4),
    row_count: Some(f(4, 4)),
    extent: Some(f(0, 4)),
    rows: &[RowSpec {
        name: "item",
        index: 0,
        since_minor: None,
        optional: false,
        min_size: 8,
        align: 8,
        overlaps: &[],
        contents: RowContents::Plain,
        need: None,
    }],
    geometry: &[],
};

/// The image: magic, major, minor, header size, total size, row count, then 3 rows.
static ROOT: TableSpec = TableSpec {
    name: "image",
    header: "image_header",
    header_size: 48,
    table_offset: 24,
    max_rows: 3,
    row_size: 8,
    row_offset: f(0, 4),
    row_len: f(4, 4),
    row_count: Some(f(16, 4)),
    extent: Some(f(12, 4)),
    rows: &[
        RowSpec {
            name: "header",
            index: 0,
            since_minor: None,
            optional: false,
            min_size: 48,
            align: 8,
            overlaps: &[],
            contents: RowContents::Header,
            need: None,
        },
        RowSpec {
            name: "data",
            index: 1,
            since_minor: None,
            optional: false,
            min_size: 16,
            align: 8,
            overlaps: &[],
            contents: RowContents::Plain,
            need: None,
        },
        RowSpec {
            name: "blocks",
            index: 2,
            since_minor: Some(2),
            optional: false,
            min_size: 128,
            align: 8,
            overlaps: &[],
            contents: RowContents::Blocks {
                table: &BLOCK,
                count: 2,
                stride: 64,
                stride_geometry: None,
            },
            need: None,
        },
    ],
    geometry: &[],
};

static HANDSHAKE: HandshakeSpec = HandshakeSpec {
    record: "image_header",
    ours: Version { major: 1, minor: 3 },
    magic: Some((f(0, 4), 0xABCD_0123)),
    major: f(4, 2),
    minor: f(6, 2),
    size: Some(f(8, 4)),
    base_size: 40,
    full_size: 48,
    added: &[AddedField {
        name: "late",
        since_minor: 2,
        offset: 40,
        end: 48,
    }],
    state: None,
    generation: None,
};

fn put(buf: &SharedBuf, at: usize, v: u32) {
    buf.region().write_bytes(at, &v.to_le_bytes()).unwrap();
}

/// Header at 0, data at 64 (16 bytes), two 64-byte blocks at 128.
fn image() -> SharedBuf {
    let buf = SharedBuf::new(256);
    put(&buf, 0, 0xABCD_0123);
    put(&buf, 4, 1 | (3 << 16));
    put(&buf, 8, 48);
    put(&buf, 12, 256);
    put(&buf, 16, 3);
    for (k, (offset, size)) in [(0, 48), (64, 16), (128, 128)].into_iter().enumerate() {
        put(&buf, 24 + 8 * k, offset);
        put(&buf, 28 + 8 * k, size);
    }
    for block in [128, 192] {
        put(&buf, block, 64);
        put(&buf, block + 4, 1);
        put(&buf, block + 8, 16);
        put(&buf, block + 12, 8);
    }
    buf
}

#[test]
fn a_valid_image_places_every_region_and_block() {
    let buf = image();
    let a = attach(buf.region(), &HANDSHAKE, &ROOT).unwrap();
    assert_eq!(a.producer, Version { major: 1, minor: 3 });
    assert_eq!((a.header_size, a.extent), (48, 256));
    assert_eq!(a.table.row(1).unwrap().offset, 64);
    // Attach leaves the blocks for their first use.
    assert!(a.table.block(2, 1).is_none());
    let b1 = block(buf.region(), a.producer, &ROOT, &a.table, 2, 1)
        .unwrap()
        .unwrap();
    assert_eq!(b1.row(0).unwrap().offset, 192 + 16);
    assert_eq!(b1.path, "blocks[1].");
    assert!(
        block(buf.region(), a.producer, &ROOT, &a.table, 2, 2)
            .unwrap()
            .is_none()
    );
}

/// A corruption of the image: what it breaks, how, and the error it must give.
type Corruption<'a> = (&'a str, &'a dyn Fn(&SharedBuf), &'a str);

#[test]
fn each_check_refuses_its_corruption() {
    let cases: [Corruption; 10] = [
        ("magic", &|b| put(b, 0, 1), "bad_magic"),
        ("major", &|b| put(b, 4, 2 | (3 << 16)), "major_mismatch"),
        ("header size", &|b| put(b, 8, 39), "header_too_small"),
        ("header past", &|b| put(b, 8, 300), "header_beyond_mapping"),
        ("total past", &|b| put(b, 12, 257), "extent_beyond_mapping"),
        ("rows", &|b| put(b, 16, 4), "too_many_rows"),
        ("misaligned", &|b| put(b, 32, 68), "region_misaligned"),
        ("small", &|b| put(b, 36, 8), "region_too_small"),
        ("block extent", &|b| put(b, 192, 65), "extent_beyond_block"),
        ("block row", &|b| put(b, 200, 60), "region_out_of_bounds"),
    ];
    for (name, corrupt, check) in cases {
        let buf = image();
        corrupt(&buf);
        let err = attach(buf.region(), &HANDSHAKE, &ROOT)
            .and_then(|a| {
                (0..2).try_for_each(|k| {
                    block(buf.region(), a.producer, &ROOT, &a.table, 2, k).map(|_| ())
                })
            })
            .unwrap_err();
        assert_eq!(err.check(), check, "{name}: {err}");
    }
}

#[test]
fn a_row_newer_than_the_producer_may_be_absent() {
    let buf = image();
    put(&buf, 4, 1 | (1 << 16)); // minor 1: blocks are 2
    put(&buf, 16, 2);
    let a = attach(buf.region(), &HANDSHAKE, &ROOT).unwrap();
    assert!(a.table.row(2).is_none() && a.table.block(2, 0).is_none());
    assert!(
        block(buf.region(), a.producer, &ROOT, &a.table, 2, 0)
            .unwrap()
            .is_none()
    );
    put(&buf, 4, 1 | (2 << 16));
    let err = attach(buf.region(), &HANDSHAKE, &ROOT).unwrap_err();
    assert_eq!((err.check(), err.region()), ("region_missing", "blocks"));
}

#[test]
fn a_report_lists_every_problem_and_its_first_is_attachs_error() {
    let buf = image();
    put(&buf, 32, 68); // data misaligned
    put(&buf, 136, 60); // block 0's item past its block
    put(&buf, 192, 65); // block 1's size past its stride
    let region = buf.region();
    let r = report(&region, Some(&HANDSHAKE), &ROOT);
    let err = attach(region, &HANDSHAKE, &ROOT).unwrap_err();
    assert_eq!(err.check(), "region_misaligned");
    assert_eq!(r.first_error(), Some(&err));
    assert!(r.problems.is_empty());
    let t = r.table.as_ref().unwrap();
    assert!(matches!(&t.rows[0], RowReport::Placed { offset: 0, .. }));
    assert!(matches!(
        &t.rows[1],
        RowReport::Refused { offset: 68, size: 16, error } if *error == err
    ));
    let RowReport::Placed { blocks, .. } = &t.rows[2] else {
        panic!("the blocks row passed: {:?}", t.rows[2]);
    };
    let RowReport::Refused { error, .. } = &blocks[0].rows[0] else {
        panic!("block 0's item is out of bounds: {:?}", blocks[0]);
    };
    assert_eq!(
        (error.check(), error.region()),
        ("region_out_of_bounds", "blocks[0].item")
    );
    // Block 1 is cut to its stride, and its item checked within it.
    assert_eq!(
        blocks[1].problems,
        [AttachError::ExtentBeyondBlock {
            region: "blocks[1]".into(),
            expected: 64,
            found: 65,
        }]
    );
    assert!(matches!(
        blocks[1].rows[0],
        RowReport::Placed { offset: 16, .. }
    ));
    // The same checks on a copy of the bytes.
    let mut bytes = vec![0u8; region.len()];
    region.read_bytes(0, &mut bytes);
    assert_eq!(report(&bytes[..], Some(&HANDSHAKE), &ROOT), r);
}

#[test]
fn without_a_handshake_the_header_is_its_struct() {
    let buf = image();
    let mut block = vec![0u8; 64];
    buf.region().read_bytes(128, &mut block);
    let r = report(&block[..], None, &BLOCK);
    assert_eq!((r.first_error(), r.producer), (None, None));
    assert_eq!((r.header_size, r.extent), (16, 64));
    let t = r.table.unwrap();
    assert!(matches!(
        t.rows[0],
        RowReport::Placed {
            offset: 16,
            size: 8,
            ..
        }
    ));
    let r = report(&block[..12], None, &BLOCK);
    assert_eq!(
        r.first_error(),
        Some(&AttachError::MappingTooShort {
            expected: 16,
            found: 12
        })
    );
    assert!(r.table.is_none());
}

#[test]
fn records_read_by_their_producers_size() {
    let mut bytes = vec![0u8; 40];
    bytes[0..4].copy_from_slice(&0xABCD_0123u32.to_le_bytes());
    bytes[4..8].copy_from_slice(&(1u32 | (1 << 16)).to_le_bytes());
    bytes[8..12].copy_from_slice(&40u32.to_le_bytes());
    let r = HANDSHAKE.read_bytes(&bytes).unwrap();
    assert_eq!((r.bytes.len(), r.size), (48, 40));
    assert!(!HANDSHAKE.present(&HANDSHAKE.added[0], r.producer, r.size));
    bytes.extend_from_slice(&[9; 16]);
    bytes[4..8].copy_from_slice(&(1u32 | (4 << 16)).to_le_bytes());
    bytes[8..12].copy_from_slice(&56u32.to_le_bytes());
    let r = HANDSHAKE.read_bytes(&bytes).unwrap();
    assert!(HANDSHAKE.present(&HANDSHAKE.added[0], r.producer, r.size));
    assert_eq!(r.extra, [9; 8]);
    assert_eq!(
        HANDSHAKE.read_bytes(&bytes[..39]).unwrap_err().check(),
        "mapping_too_short"
    );
}
