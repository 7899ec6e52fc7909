//! The producer's side on a small hand-written layout, small enough for Miri (`.ci/run`'s
//! `miri runtime` step runs it): a header with a handshake, a state, a generation and a
//! followed slot count, a region sized by it, and two blocks laid out by their own table.
//! The image is laid out, written, attached with every block, rewritten (a reload the first
//! handle notices), and bad values are refused before anything is written.

use abi_runtime::SharedBuf;
use abi_runtime::attach::spec::{
    Field, GeometryRule, GeometrySpec, HandshakeSpec, NeedSpec, NeedTerm, RowContents, RowSpec,
    TableSpec, Version,
};
use abi_runtime::attach::{self, AttachError};
use abi_runtime::produce::{self, ProduceError};

const fn field(offset: usize, width: usize) -> Field {
    Field { offset, width }
}

/// A block: `extent` u32 at 0, `count` u32 at 4, one row `{offset u32, size u32}` at 8.
static BLOCK: TableSpec<'static> = TableSpec {
    name: "block",
    header: "block_header",
    header_size: 16,
    table_offset: 8,
    max_rows: 1,
    row_size: 8,
    row_offset: field(0, 4),
    row_len: field(4, 4),
    row_count: Some(field(4, 4)),
    extent: Some(field(0, 4)),
    rows: &[RowSpec {
        name: "data",
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

/// The root: magic, major, minor, header size, total size, generation, state, row count,
/// slot count (followed), then four rows `{offset u32, size u32}` at 32.
static ROOT: TableSpec<'static> = TableSpec {
    name: "root",
    header: "root_header",
    header_size: 64,
    table_offset: 32,
    max_rows: 4,
    row_size: 8,
    row_offset: field(0, 4),
    row_len: field(4, 4),
    row_count: Some(field(24, 4)),
    extent: Some(field(12, 4)),
    rows: &[
        RowSpec {
            name: "header",
            index: 0,
            since_minor: None,
            optional: false,
            min_size: 64,
            align: 8,
            overlaps: &[],
            contents: RowContents::Header,
            need: None,
        },
        RowSpec {
            name: "slots",
            index: 1,
            since_minor: None,
            optional: false,
            min_size: 16,
            align: 8,
            overlaps: &[],
            contents: RowContents::Plain,
            need: Some(NeedSpec {
                fixed: 0,
                terms: &[NeedTerm {
                    factor: 16,
                    geometry: &[0],
                }],
            }),
        },
        RowSpec {
            name: "blocks",
            index: 2,
            since_minor: None,
            optional: false,
            min_size: 64,
            align: 8,
            overlaps: &[],
            contents: RowContents::Blocks {
                table: &BLOCK,
                count: 2,
                stride: 32,
                stride_geometry: None,
            },
            need: None,
        },
    ],
    geometry: &[GeometrySpec {
        name: "slot_count",
        row: None,
        field: field(28, 4),
        rule: GeometryRule::Follow { least: 1, align: 1 },
        default: Some(4),
    }],
};

static HANDSHAKE: HandshakeSpec<'static> = HandshakeSpec {
    record: "root_header",
    ours: Version { major: 1, minor: 2 },
    magic: Some((field(0, 4), 0xABCD_0123)),
    major: field(4, 2),
    minor: field(6, 2),
    size: Some(field(8, 4)),
    base_size: 64,
    full_size: 64,
    added: &[],
    state: Some((field(20, 4), 1)),
    generation: Some(field(16, 4)),
};

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

#[test]
fn an_image_is_laid_out_written_attached_and_rewritten() {
    let image = produce::lay_out(&HANDSHAKE, &ROOT, &[("root_header.slot_count", 6)], 2)
        .expect("a valid layout");
    // header 64, then 6 slots of 16 bytes, then 2 blocks of 32.
    assert_eq!(image.bytes.len(), 64 + 96 + 64);
    let b = &image.bytes;
    assert_eq!(u32_at(b, 0), 0xABCD_0123);
    assert_eq!((u32_at(b, 8), u32_at(b, 12)), (64, 224));
    assert_eq!(
        (u32_at(b, 16), u32_at(b, 20)),
        (2, 0),
        "generation 2, not running yet"
    );
    assert_eq!((u32_at(b, 24), u32_at(b, 28)), (3, 6));
    assert_eq!((u32_at(b, 40), u32_at(b, 44)), (64, 96), "the slots row");
    assert_eq!((u32_at(b, 48), u32_at(b, 52)), (160, 64), "the blocks row");
    assert_eq!(
        (u32_at(b, 160), u32_at(b, 168), u32_at(b, 172)),
        (32, 16, 8),
        "block 0"
    );

    let buf = SharedBuf::new(image.bytes.len());
    produce::write(buf.region(), &image).unwrap();
    let attached = attach::attach(buf.region(), &HANDSHAKE, &ROOT).expect("it attaches");
    assert_eq!(attached.generation, Some(2));
    assert_eq!(attached.table.geometry, vec![Some(6)]);
    for k in 0..2 {
        let block = attach::block(
            buf.region(),
            attached.producer,
            &ROOT,
            &attached.table,
            2,
            k,
        )
        .expect("the block passes")
        .expect("the block is there");
        assert_eq!(block.row(0).unwrap().offset, 160 + 32 * k + 16);
    }
    assert!(!attach::reloaded(
        buf.region(),
        &HANDSHAKE,
        attached.generation
    ));

    // A reload: the same layout, generation 3.
    let again = produce::lay_out(&HANDSHAKE, &ROOT, &[("root_header.slot_count", 6)], 3).unwrap();
    produce::write(buf.region(), &again).unwrap();
    assert!(attach::reloaded(
        buf.region(),
        &HANDSHAKE,
        attached.generation
    ));
    assert_eq!(
        attach::attach(buf.region(), &HANDSHAKE, &ROOT)
            .unwrap()
            .generation,
        Some(3)
    );
}

#[test]
fn bad_values_are_refused_before_anything_is_written() {
    let err = produce::lay_out(&HANDSHAKE, &ROOT, &[("root_header.slot_count", 0)], 1).unwrap_err();
    assert_eq!(
        err,
        ProduceError::Refused(AttachError::GeometryZero {
            region: "root_header.slot_count".into()
        })
    );
    let err = produce::lay_out(&HANDSHAKE, &ROOT, &[("root_header.slots", 3)], 1).unwrap_err();
    assert!(
        matches!(&err, ProduceError::UnknownGeometry { name, known } if name == "root_header.slots" && known == &["root_header.slot_count"]),
        "{err}"
    );
    let err =
        produce::lay_out(&HANDSHAKE, &ROOT, &[("root_header.slot_count", 1 << 30)], 1).unwrap_err();
    assert!(
        matches!(&err, ProduceError::TooLarge { field, .. } if field == "slots"),
        "{err}"
    );
    let image = produce::lay_out(&HANDSHAKE, &ROOT, &[], 1).unwrap();
    let short = SharedBuf::new(image.bytes.len() - 8);
    assert_eq!(
        produce::write(short.region(), &image),
        Err(ProduceError::MappingTooShort {
            expected: 224 - 32,
            found: 224 - 32 - 8
        })
    );
    assert!(short.to_vec().iter().all(|&b| b == 0), "nothing written");
}
