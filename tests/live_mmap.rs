//! The live layer over a real shared file mapping (the `mmap` feature, memmap2): two
//! mappings of one file, as a host and a client would have, see each other's writes.
#![cfg(not(miri))] // Miri cannot map files.

use bridge_abi::live;
use bridge_abi::runtime::{Mapping, RegionErrorKind};
use bridge_abi::*;

const RING_AT: usize = 4096;
const LEN: usize = RING_AT + RING_SLOTS as usize * RING_SLOT_SIZE as usize;

fn scratch_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bridge-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir.join(name)
}

#[test]
fn a_host_and_a_client_share_a_mapped_file() {
    let path = scratch_file("bridge.shm");
    let host_map = Mapping::create(&path, LEN).expect("create and map the file");
    let client_map = Mapping::open(&path).expect("map it again");
    assert_eq!(client_map.len(), LEN);

    // The host fills in its header and publishes two snapshots.
    let host_region = host_map.region().expect("a page-aligned mapping");
    let host = live::BridgeHeader::at(host_region, 0).unwrap();
    host.set_magic(BRIDGE_MAGIC).unwrap();
    host.set_host_state(HostState::RUNNING).unwrap();
    let host_ring = live::SnapshotRing::new(host, host_region.tail(RING_AT, 8).unwrap()).unwrap();
    for tick in [10, 11] {
        let mut slot = live::RingSlot::zeroed();
        slot.payload.header.magic = SNAPSHOT_MAGIC;
        slot.payload.header.tick = tick;
        host_ring
            .publish(&mut slot)
            .expect("a slot holds the value");
    }

    // The client, through its own mapping, sees them, and claims a row the host then sees.
    let client_region = client_map.region().unwrap();
    let client = live::BridgeHeader::at(client_region, 0).unwrap();
    assert_eq!(client.magic(), BRIDGE_MAGIC);
    assert_eq!(client.host_state(), HostState::RUNNING);
    let ring = live::SnapshotRing::new(client, client_region.tail(RING_AT, 8).unwrap()).unwrap();
    let newest = ring.read_newest().unwrap().expect("two publications");
    assert_eq!(newest.publish_seq, 2);
    assert_eq!(newest.payload.header.tick, 11);
    assert_eq!(newest.payload.header.magic, SNAPSHOT_MAGIC);
    let row = client.clients(2).unwrap();
    row.compare_exchange_state(ClientState::FREE, ClientState::CLAIMED)
        .expect("a free row")
        .unwrap();
    assert_eq!(host.clients(2).unwrap().state(), ClientState::CLAIMED);

    // And the bytes are in the file.
    drop((host_map, client_map));
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..4], &BRIDGE_MAGIC.to_le_bytes());
    assert_eq!(&bytes[0xC0..0xC8], &2u64.to_le_bytes());
    std::fs::remove_file(&path).ok();
}

#[test]
fn a_file_too_short_for_the_header_is_an_error() {
    let path = scratch_file("short.shm");
    let map = Mapping::create(&path, 512).unwrap();
    let e = live::BridgeHeader::at(map.region().unwrap(), 0)
        .err()
        .expect("512 bytes cannot hold the 1304-byte header");
    assert!(
        matches!(e.kind(), RegionErrorKind::OutOfBounds { .. }),
        "{e}"
    );
    assert!(Mapping::open(scratch_file("missing.shm")).is_err());
    std::fs::remove_file(&path).ok();
}
