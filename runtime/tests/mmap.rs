//! `Mapping` on a real file: two mappings of one file in one process see each other's stores,
//! as two processes would. Miri cannot mmap, so these tests do not run under it.

#![cfg(all(feature = "mmap", not(miri)))]

use std::path::PathBuf;
use std::sync::atomic::Ordering::{Acquire, Release};

use abi_runtime::Mapping;

/// A file path in the temp directory, unique to this process and test, removed on drop.
struct TempPath(PathBuf);

impl TempPath {
    fn new(test: &str) -> Self {
        let name = format!("abi-runtime-{test}-{}", std::process::id());
        TempPath(std::env::temp_dir().join(name))
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn two_mappings_of_one_file_share_stores() {
    let path = TempPath::new("share");
    let a = Mapping::create(&path.0, 4096).unwrap();
    let b = Mapping::open(&path.0).unwrap();
    assert_eq!((a.len(), b.len()), (4096, 4096));
    let (ra, rb) = (a.region().unwrap(), b.region().unwrap());
    assert_ne!(ra.as_ptr(), rb.as_ptr(), "two distinct mappings");

    assert_eq!(rb.load::<u64>(128, Acquire), 0, "created zeroed");
    ra.store::<u64>(128, 0x0123_4567_89ab_cdef, Release);
    assert_eq!(rb.load::<u64>(128, Acquire), 0x0123_4567_89ab_cdef);

    rb.write_bytes(1001, b"through b");
    let mut out = [0; 9];
    ra.read_bytes(1001, &mut out);
    assert_eq!(&out, b"through b");
    assert_eq!(ra.compare_exchange::<u32>(4092, 0, 7), Ok(0));
    assert_eq!(rb.compare_exchange::<u32>(4092, 0, 8), Err(7));
}

#[test]
fn stores_reach_the_file() {
    let path = TempPath::new("file");
    let map = Mapping::create(&path.0, 64).unwrap();
    map.region().unwrap().write_bytes(8, b"persisted");
    drop(map);
    let bytes = std::fs::read(&path.0).unwrap();
    assert_eq!((bytes.len(), &bytes[8..17]), (64, &b"persisted"[..]));
}

#[test]
fn create_truncates_and_open_needs_an_existing_file() {
    let path = TempPath::new("truncate");
    std::fs::write(&path.0, [0xffu8; 100]).unwrap();
    let map = Mapping::create(&path.0, 16).unwrap();
    assert_eq!(map.len(), 16);
    assert_eq!(map.region().unwrap().load::<u64>(8, Acquire), 0);

    let missing = TempPath::new("missing");
    let err = Mapping::open(&missing.0).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
}
