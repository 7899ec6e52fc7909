//! The producer's side (`codegen/ATTACH.md`, "Producing an image"): an image laid out from
//! the schema attaches, with every block; its geometry can be the host's own; a value that
//! breaks a geometry rule, an unknown name or a mapping too short is an error, and nothing
//! is written; a reader attached before a rewrite sees `reloaded()`.

use crate::common;

use bridge_abi::live::Bridge;
use bridge_abi::runtime::SharedBuf;
use bridge_abi::runtime::produce::ProduceError;
use common::verdict::rust_verdict;

/// The mailbox's areas: no constant of the schema sizes them (`geometry = "*"`).
const MAILBOX: [(&str, u64); 2] = [
    ("mailbox.request_capacity", 2048),
    ("mailbox.response_capacity", 1984),
];

#[test]
fn the_schemas_image_attaches_with_every_block() {
    let err = Bridge::lay_out(&[], 1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "produce: no constant of the schema sizes `mailbox.request_capacity`: give its value"
    );
    let image = Bridge::lay_out(&MAILBOX, 1).expect("the schema's geometry lays out");
    let buf = SharedBuf::new(image.bytes.len());
    let bridge = Bridge::produce(buf.region(), &image).expect("written and attached");
    rust_verdict(buf.region()).expect("every block passes");
    assert_eq!(bridge.generation(), Some(1));
    let ring = bridge.snapshot_ring().unwrap();
    assert_eq!((ring.slot_count(), ring.slot_size()), (8, 32768));
    eprintln!("the schema's image: {} bytes", image.bytes.len());
}

#[test]
fn the_hosts_own_geometry_is_laid_out_and_followed() {
    let geometry = [
        ("bridge_header.ring_slots", 16),
        ("bridge_header.ring_slot_size", 65536),
        ("mailbox.request_capacity", 2048),
        ("mailbox.response_capacity", 8192),
        ("log_ring.capacity", 1 << 20),
    ];
    let image = Bridge::lay_out(&geometry, 7).unwrap();
    let buf = SharedBuf::new(image.bytes.len());
    let bridge = Bridge::produce(buf.region(), &image).unwrap();
    rust_verdict(buf.region()).unwrap();
    let ring = bridge.snapshot_ring().unwrap();
    assert_eq!((ring.slot_count(), ring.slot_size()), (16, 65536));
    let block = bridge.client_blocks(3).unwrap().expect("block 3");
    let mailbox = block.mailbox().expect("the mailbox");
    assert_eq!(mailbox.request_capacity(), 2048);
    assert_eq!(mailbox.response_capacity(), 8192);
    assert!(bridge.log_ring_region().unwrap().len() >= 64 + (1 << 20));
}

/// The mailbox's values and one more.
fn with(value: (&'static str, u64)) -> Vec<(&'static str, u64)> {
    let mut all = MAILBOX.to_vec();
    all.push(value);
    all
}

#[test]
fn bad_geometry_is_an_error_and_nothing_is_written() {
    let err = Bridge::lay_out(&with(("bridge_header.ring_slot_size", 4100)), 1).unwrap_err();
    let ProduceError::Refused(e) = &err else {
        panic!("{err}")
    };
    assert_eq!(
        (e.check(), e.region()),
        ("geometry_misaligned", "bridge_header.ring_slot_size")
    );
    let err = Bridge::lay_out(&with(("bridge_header.max_clients", 16)), 1).unwrap_err();
    assert!(
        matches!(&err, ProduceError::Refused(e) if e.check() == "geometry_mismatch"),
        "{err}"
    );
    let err = Bridge::lay_out(&with(("bridge_header.ring_slotz", 16)), 1).unwrap_err();
    assert!(
        err.to_string().contains("bridge_header.ring_slots"),
        "{err}"
    );
    let err = Bridge::lay_out(&with(("client_blocks_stride", 1)), 1).unwrap_err();
    assert!(matches!(err, ProduceError::UnknownGeometry { .. }), "{err}");
    // A block whose rows do not fit its stride.
    let err = Bridge::lay_out(&with(("bridge_header.client_block_size", 4096)), 1).unwrap_err();
    assert!(
        matches!(&err, ProduceError::BlockTooSmall { block, .. } if block == "client_blocks[0]"),
        "{err}"
    );
    // Sizes past the 32-bit fields, refused before anything is allocated for them.
    let err = Bridge::lay_out(&with(("log_ring.capacity", 1 << 40)), 1).unwrap_err();
    assert!(
        matches!(&err, ProduceError::TooLarge { field, .. } if field == "log_ring"),
        "{err}"
    );
    // A mapping too short is refused before a byte is written.
    let image = Bridge::lay_out(&MAILBOX, 1).unwrap();
    let buf = SharedBuf::new(image.bytes.len() - 8);
    assert!(matches!(
        Bridge::produce(buf.region(), &image),
        Err(ProduceError::MappingTooShort { .. })
    ));
    assert!(buf.to_vec().iter().all(|&b| b == 0));
}

#[test]
fn a_rewrite_is_a_reload_for_the_readers_attached_before() {
    let first = Bridge::lay_out(&MAILBOX, 1).unwrap();
    let buf = SharedBuf::new(first.bytes.len());
    Bridge::produce(buf.region(), &first).unwrap();
    let reader = Bridge::attach(buf.region()).unwrap();
    assert!(!reader.reloaded());
    let second = Bridge::lay_out(&with(("bridge_header.ring_slots", 4)), 2).unwrap();
    let again = Bridge::produce(buf.region(), &second).unwrap();
    assert!(reader.reloaded());
    assert_eq!(again.snapshot_ring().unwrap().slot_count(), 4);
}

/// The image is the host's (issue 40, item 1): `stamp_identity` writes the process id, the
/// version string and the clock pair the handshake names; before, every one was left 0.
#[test]
fn the_producer_stamps_who_it_is_and_its_clock_pair() {
    use bridge_abi::runtime::identity::Identity;
    let mut image = Bridge::lay_out(&MAILBOX, 1).unwrap();
    let before = Identity::now("host 1.2.3");
    Bridge::stamp_identity(&mut image, &before).expect("the version fits");
    let buf = SharedBuf::new(image.bytes.len());
    let bridge = Bridge::produce(buf.region(), &image).unwrap();
    let header = bridge.header();
    assert_eq!(header.host_pid(), std::process::id());
    assert_eq!(&header.host_version()[..10], b"host 1.2.3");
    assert!(header.host_version()[10..].iter().all(|&b| b == 0));
    assert_eq!(header.clock_mono_ns(), before.mono_ns);
    assert_eq!(header.clock_unix_ns(), before.unix_ns);
    let after = Identity::now("x");
    assert!(before.mono_ns > 0 && after.mono_ns >= before.mono_ns);
    assert!(after.unix_ns >= before.unix_ns);
    // A version with no room for its NUL is refused, and the image keeps what it had.
    let long = Identity {
        version: "v".repeat(bridge_abi::VERSION_LEN),
        ..before
    };
    let kept = image.bytes.clone();
    let err = Bridge::stamp_identity(&mut image, &long).unwrap_err();
    assert!(
        matches!(&err, ProduceError::TooLarge { field, .. } if field == "host_version"),
        "{err}"
    );
    assert_eq!(image.bytes, kept);
}
