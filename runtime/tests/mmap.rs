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

    rb.write_bytes(1001, b"through b").unwrap();
    let mut out = [0; 9];
    ra.read_bytes(1001, &mut out);
    assert_eq!(&out, b"through b");
    assert_eq!(ra.try_compare_exchange::<u32>(4092, 0, 7).unwrap(), Ok(0));
    assert_eq!(rb.try_compare_exchange::<u32>(4092, 0, 8).unwrap(), Err(7));
}

#[test]
fn stores_reach_the_file() {
    let path = TempPath::new("file");
    let map = Mapping::create(&path.0, 64).unwrap();
    map.region().unwrap().write_bytes(8, b"persisted").unwrap();
    drop(map);
    let bytes = std::fs::read(&path.0).unwrap();
    assert_eq!((bytes.len(), &bytes[8..17]), (64, &b"persisted"[..]));
}

#[test]
fn create_never_truncates_an_existing_file_and_open_needs_one() {
    let path = TempPath::new("truncate");
    std::fs::write(&path.0, [0xffu8; 100]).unwrap();
    let err = Mapping::create(&path.0, 16).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
    assert!(err.to_string().contains("abi-runtime-truncate"), "{err}");
    assert_eq!(
        std::fs::read(&path.0).unwrap(),
        [0xffu8; 100],
        "the file is untouched"
    );

    let missing = TempPath::new("missing");
    let err = Mapping::open(&missing.0).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    let map = Mapping::create(&missing.0, 16).unwrap();
    assert_eq!(map.len(), 16);
    assert_eq!(map.region().unwrap().load::<u64>(8, Acquire), 0);
}

#[cfg(target_pointer_width = "64")]
#[test]
fn a_read_only_mapping_sees_what_a_writer_stores() {
    use abi_runtime::ReadOnlyMapping;

    let path = TempPath::new("read-only");
    let writer = Mapping::create(&path.0, 4096).unwrap();
    let w = writer.region().unwrap();
    // A file this process may only read: a read-write mapping is refused, a read-only one
    // works (unless running as root, which may open it for writing anyway). Unix only: wine
    // 8 refuses to open a file with the read-only attribute while a writable mapping of it
    // lives (a sharing violation); tests/named_mapping.rs covers read-only named mappings.
    #[cfg(unix)]
    {
        let mut perms = std::fs::metadata(&path.0).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&path.0, perms).unwrap();
    }
    let reader = ReadOnlyMapping::open(&path.0).unwrap();
    let r = reader.region().unwrap();
    assert_eq!(reader.len(), 4096);
    w.try_store::<u32>(12, 0xdead_beef, Release).unwrap();
    w.write_bytes(1001, b"seen by a reader").unwrap();
    assert_eq!(r.load::<u32>(12, Acquire), 0xdead_beef);
    let mut out = [0; 16];
    r.read_bytes(1001, &mut out);
    assert_eq!(&out, b"seen by a reader");
    let lock = abi_runtime::SeqLock::<u32, _>::new(r, 12);
    assert_eq!(lock.load(), 0xdead_beef);
}
