//! Every `Region` operation on a `SharedBuf`, single-threaded: results compared with a model of
//! the bytes, errors returned where the API returns them, panics where it panics.

use core::sync::atomic::Ordering::{Relaxed, SeqCst};

use abi_runtime::{MIN_ALIGN, Region, RegionErrorKind, SharedBuf, Word};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Byte `i` of the pattern the copy tests write: distinct, never zero.
fn pattern(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(37).wrapping_add(11) | 1)
        .collect()
}

#[test]
fn region_is_copy_send_sync() {
    fn assert_traits<T: Copy + Send + Sync>() {}
    assert_traits::<Region<'static>>();
    fn assert_shared<T: Send + Sync>() {}
    assert_shared::<SharedBuf>();
}

#[test]
fn from_raw_parts_accepts_a_valid_range() {
    let buf = SharedBuf::new(32);
    // SAFETY: the bytes are the SharedBuf's, alive for this test and only accessed atomically.
    let region = unsafe { Region::from_raw_parts(buf.region().as_ptr(), 32) }.unwrap();
    region.store::<u64>(8, 42, Relaxed);
    assert_eq!(buf.region().load::<u64>(8, Relaxed), 42);
    assert_eq!(region.len(), 32);
    assert!(!region.is_empty());
}

#[test]
fn from_raw_parts_returns_errors() {
    let buf = SharedBuf::new(32);
    let base = buf.region().as_ptr();
    // SAFETY (all four): each call is rejected by a check and touches nothing.
    let null = unsafe { Region::from_raw_parts(core::ptr::null_mut(), 8) }.unwrap_err();
    assert_eq!(null.kind(), RegionErrorKind::Null);

    let odd = unsafe { Region::from_raw_parts(base.wrapping_add(4), 8) }.unwrap_err();
    let address = base.addr() + 4;
    assert_eq!(
        odd.kind(),
        RegionErrorKind::Misaligned {
            address,
            align: MIN_ALIGN
        }
    );

    let huge = unsafe { Region::from_raw_parts(base, isize::MAX as usize + 1) }.unwrap_err();
    assert!(
        matches!(huge.kind(), RegionErrorKind::TooLarge { .. }),
        "{huge}"
    );

    let top = core::ptr::without_provenance_mut::<u8>(usize::MAX - 7);
    let wraps = unsafe { Region::from_raw_parts(top, 16) }.unwrap_err();
    assert_eq!(
        wraps.kind(),
        RegionErrorKind::TooLarge {
            address: usize::MAX - 7,
            len: 16
        }
    );
}

#[test]
fn sub_and_tail_check_bounds_and_alignment() {
    let buf = SharedBuf::new(64);
    let r = buf.region();

    let sub = r.sub(8, 16, 8).unwrap();
    assert_eq!(
        (sub.as_ptr().addr() - r.as_ptr().addr(), sub.len()),
        (8, 16)
    );
    sub.try_store::<u32>(4, 0xdead_beef, Relaxed).unwrap();
    assert_eq!(r.load::<u32>(12, Relaxed), 0xdead_beef);

    let err = r.sub(60, 8, 1).unwrap_err();
    let oob = RegionErrorKind::OutOfBounds {
        offset: 60,
        len: 8,
        region_len: 64,
    };
    assert_eq!(err.kind(), oob);
    assert!(matches!(
        r.sub(usize::MAX, 2, 1).unwrap_err().kind(),
        RegionErrorKind::OutOfBounds { .. }
    ));

    let err = r.sub(4, 8, 8).unwrap_err();
    let address = r.as_ptr().addr() + 4;
    assert_eq!(
        err.kind(),
        RegionErrorKind::Misaligned { address, align: 8 }
    );
    // Alignment is of the absolute address: offset 2 inside a sub-region at offset 2 is 4-aligned.
    let at2 = r.sub(2, 20, 2).unwrap();
    assert!(at2.sub(2, 4, 4).is_ok());
    assert!(at2.sub(0, 4, 4).is_err());

    let tail = r.tail(40, 8).unwrap();
    assert_eq!(tail.len(), 24);
    assert!(r.tail(64, 8).unwrap().is_empty());
    let err = r.tail(65, 1).unwrap_err();
    assert_eq!(
        err.kind(),
        RegionErrorKind::OutOfBounds {
            offset: 65,
            len: 0,
            region_len: 64
        }
    );
}

#[test]
fn sub_record_views_what_its_producer_wrote_and_covers_checks_a_field() {
    let buf = SharedBuf::new(64);
    let r = buf.region();
    // An older producer's record: 24 bytes of a 32-byte struct whose base is 16.
    let old = r.sub_record(8, 24, 16, 32, 8).unwrap();
    assert_eq!(
        (old.as_ptr().addr() - r.as_ptr().addr(), old.len()),
        (8, 24)
    );
    // A newer producer's: 48 bytes, of which the 32 this struct knows.
    assert_eq!(r.sub_record(8, 48, 16, 32, 8).unwrap().len(), 32);
    // Shorter than the base: the length found, against the base needed.
    assert_eq!(
        r.sub_record(8, 12, 16, 32, 8).unwrap_err().kind(),
        RegionErrorKind::OutOfBounds {
            offset: 8,
            len: 16,
            region_len: 12
        }
    );
    // Out of bounds or misaligned as `sub`.
    assert!(r.sub_record(48, 32, 16, 32, 8).is_err());
    assert!(r.sub_record(4, 24, 16, 32, 8).is_err());

    assert!(old.covers(16, 24).is_ok());
    assert!(old.covers(24, 24).is_ok());
    assert_eq!(
        old.covers(24, 28).unwrap_err().kind(),
        RegionErrorKind::OutOfBounds {
            offset: 24,
            len: 4,
            region_len: 24
        }
    );
}

#[test]
#[should_panic(expected = "alignment 3 is not a power of two")]
fn sub_with_a_bad_alignment_panics() {
    let buf = SharedBuf::new(8);
    let _ = buf.region().sub(0, 4, 3);
}

#[test]
fn error_messages_say_expected_and_found() {
    let buf = SharedBuf::new(16);
    let r = buf.region();
    let oob = r.sub(10, 8, 1).unwrap_err().to_string();
    assert!(
        oob.contains("offset 10, length 8") && oob.contains("<= 16") && oob.contains("found 18"),
        "{oob}"
    );
    let mis = r.sub(2, 4, 4).unwrap_err().to_string();
    assert!(
        mis.contains("expected a multiple of 4") && mis.contains("% 4 = 2"),
        "{mis}"
    );
    let e: &dyn std::error::Error = &r.sub(17, 0, 1).unwrap_err();
    assert!(e.to_string().contains("out of bounds"));
}

/// Stores, loads and the read-modify-writes of one width at every aligned offset, checked
/// against the bytes the whole buffer holds afterwards.
fn word_ops<W: Word>(a: W, b: W) {
    let buf = SharedBuf::new(32);
    let r = buf.region();
    for offset in (0..32).step_by(W::SIZE) {
        r.zero(0, 32).unwrap();
        r.try_store(offset, a, SeqCst).unwrap();
        assert_eq!(r.load::<W>(offset, Relaxed), a);
        let mut expected = vec![0u8; 32];
        for i in 0..W::SIZE {
            expected[offset + i] = a.byte(i);
        }
        assert_eq!(
            buf.to_vec(),
            expected,
            "{} at {offset}",
            core::any::type_name::<W>()
        );

        assert_eq!(
            r.try_compare_exchange(offset, b, a),
            Ok(Err(a)),
            "fails, returns the actual value"
        );
        assert_eq!(r.try_compare_exchange(offset, a, b), Ok(Ok(a)));
        assert_eq!(r.load::<W>(offset, Relaxed), b);
        assert_eq!(r.try_swap(offset, a, SeqCst), Ok(b));
        assert_eq!(r.load::<W>(offset, Relaxed), a);
    }
}

#[test]
fn load_store_cas_swap_of_each_width() {
    word_ops::<u8>(0xa5, 0x5a);
    word_ops::<i8>(-3, 100);
    word_ops::<u16>(0xa55a, 0x1234);
    word_ops::<i16>(-30000, 7);
    word_ops::<u32>(0xdead_beef, 1);
    word_ops::<i32>(i32::MIN, -1);
    word_ops::<u64>(0x0123_4567_89ab_cdef, u64::MAX);
    word_ops::<i64>(i64::MIN + 5, 0);
}

#[test]
fn fetch_add_wraps() {
    let buf = SharedBuf::new(32);
    let r = buf.region();
    r.try_store::<u8>(1, 255, Relaxed).unwrap();
    assert_eq!(r.try_fetch_add::<u8>(1, 2, SeqCst).unwrap(), 255);
    assert_eq!(r.load::<u8>(1, Relaxed), 1);
    r.try_store::<i32>(4, i32::MAX, Relaxed).unwrap();
    assert_eq!(r.try_fetch_add::<i32>(4, 1, SeqCst).unwrap(), i32::MAX);
    assert_eq!(r.load::<i32>(4, Relaxed), i32::MIN);
    assert_eq!(r.fetch_add::<u64>(8, u64::MAX, SeqCst), 0);
    assert_eq!(r.fetch_add::<u64>(8, 3, SeqCst), u64::MAX);
    assert_eq!(r.load::<u64>(8, Relaxed), 2);
    assert_eq!(r.try_fetch_add::<i16>(16, -4, SeqCst).unwrap(), 0);
    assert_eq!(r.load::<i16>(16, Relaxed), -4);
    assert_eq!(buf.to_vec()[0], 0, "neighbours untouched");
}

#[test]
fn compare_exchange_byte_claims_one_byte_of_the_word() {
    let buf = SharedBuf::from_bytes(&[10, 11, 12, 13, 0, 0, 0, 0]);
    let r = buf.region();
    assert_eq!(
        r.compare_exchange_byte::<u32>(0, 2, 12, 99).unwrap(),
        Ok(())
    );
    assert_eq!(
        buf.to_vec(),
        [10, 11, 99, 13, 0, 0, 0, 0],
        "index 2 is the third byte in memory"
    );
    assert_eq!(
        r.compare_exchange_byte::<u32>(0, 2, 12, 50).unwrap(),
        Err(99),
        "returns the actual byte"
    );
    assert_eq!(r.compare_exchange_byte::<u32>(0, 0, 10, 0).unwrap(), Ok(()));
    assert_eq!(r.compare_exchange_byte::<u64>(0, 7, 0, 1).unwrap(), Ok(()));
    assert_eq!(r.compare_exchange_byte::<u16>(4, 1, 0, 2).unwrap(), Ok(()));
    assert_eq!(r.compare_exchange_byte::<u8>(5, 0, 2, 3).unwrap(), Ok(()));
    assert_eq!(buf.to_vec(), [0, 11, 99, 13, 0, 3, 0, 1]);
    assert_eq!(r.load::<u32>(0, Relaxed).to_ne_bytes(), [0, 11, 99, 13]);
}

#[test]
#[should_panic(expected = "byte index 4 is outside a 4-byte word")]
fn compare_exchange_byte_index_past_the_word_panics() {
    let buf = SharedBuf::new(8);
    let _ = buf
        .region()
        .compare_exchange_byte::<u32>(0, 4, 0, 1)
        .unwrap();
}

#[test]
fn read_and_write_bytes_at_every_offset_and_length() {
    const LEN: usize = 48;
    let src = pattern(LEN);
    let buf = SharedBuf::new(LEN);
    // Regions and offsets at every address residue and lengths past head + word + tail, so
    // that every chunking path runs (under Miri: every residue once, lengths up to 17).
    let (bases, max_len) = if cfg!(miri) {
        (vec![0, 3], 17)
    } else {
        ((0..8).collect(), 24)
    };
    for base in bases {
        let r = buf.region().tail(base, 1).unwrap();
        let offsets = if cfg!(miri) { 0..8 } else { 0..r.len() };
        for offset in offsets {
            for len in 0..=(r.len() - offset).min(max_len) {
                buf.region().zero(0, LEN).unwrap();
                r.write_bytes(offset, &src[..len]).unwrap();
                let mut expected = vec![0u8; LEN];
                expected[base + offset..base + offset + len].copy_from_slice(&src[..len]);
                assert_eq!(
                    buf.to_vec(),
                    expected,
                    "write base {base} offset {offset} len {len}"
                );
                let mut out = vec![0u8; len];
                r.read_bytes(offset, &mut out);
                assert_eq!(
                    out,
                    src[..len],
                    "read base {base} offset {offset} len {len}"
                );
            }
        }
    }
}

#[test]
fn long_unaligned_copies_round_trip() {
    let src = pattern(1000);
    let buf = SharedBuf::new(1024);
    let r = buf.region();
    r.write_bytes(13, &src).unwrap();
    let mut out = vec![0; 1000];
    r.read_bytes(13, &mut out);
    assert_eq!(out, src);
    let all = buf.to_vec();
    assert_eq!(&all[13..1013], &src[..]);
    assert!(all[..13].iter().chain(&all[1013..]).all(|&b| b == 0));
}

#[test]
fn zero_clears_exactly_the_range() {
    for (offset, len) in [(0, 0), (3, 1), (1, 30), (5, 19), (8, 16), (0, 40)] {
        let buf = SharedBuf::from_bytes(&[0xff; 40]);
        buf.region().zero(offset, len).unwrap();
        let expected: Vec<u8> = (0..40)
            .map(|i| {
                if (offset..offset + len).contains(&i) {
                    0
                } else {
                    0xff
                }
            })
            .collect();
        assert_eq!(buf.to_vec(), expected, "zero({offset}, {len}).unwrap()");
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
struct Header {
    magic: u32,
    version: u16,
    flags: u8,
    kind: u8,
    seq: u64,
    name: [u8; 8],
}

#[test]
fn read_and_write_a_struct_at_any_offset() {
    let h = Header {
        magic: 0xfeed_f00d,
        version: 3,
        flags: 0x80,
        kind: 2,
        seq: u64::MAX - 1,
        name: *b"bridge\0\0",
    };
    for offset in [0, 3, 8, 13] {
        let buf = SharedBuf::new(48);
        let r = buf.region();
        r.write(offset, &h).unwrap();
        assert_eq!(&buf.to_vec()[offset..offset + 24], h.as_bytes());
        assert_eq!(r.read::<Header>(offset), h);
        if offset % 4 == 0 {
            assert_eq!(r.load::<u32>(offset, Relaxed), 0xfeed_f00d);
        }
    }
    let buf = SharedBuf::new(24);
    buf.region().write(8, &[1u32, 2, 3, 4][..]).unwrap();
    assert_eq!(buf.region().read::<[u32; 4]>(8), [1, 2, 3, 4]);
}

#[test]
fn shared_buf_round_trips_and_keeps_its_length() {
    let bytes = pattern(13);
    let buf = SharedBuf::from_bytes(&bytes);
    assert_eq!((buf.len(), buf.region().len()), (13, 13));
    assert_eq!(buf.to_vec(), bytes);
    assert!(SharedBuf::new(0).region().is_empty());
    assert_eq!(format!("{buf:?}"), "SharedBuf { len: 13, .. }");
}

#[test]
#[should_panic(expected = "out of bounds")]
fn load_past_the_end_panics() {
    let buf = SharedBuf::new(16);
    buf.region().load::<u64>(16, Relaxed);
}

#[test]
#[should_panic(expected = "out of bounds")]
fn load_past_a_short_buffer_panics_although_the_backing_word_exists() {
    // 13 bytes are backed by two u64 words; the region still ends at 13.
    let buf = SharedBuf::new(13);
    buf.region().load::<u64>(8, Relaxed);
}

#[test]
#[should_panic(expected = "u32 access failed: address")]
fn misaligned_load_panics() {
    let buf = SharedBuf::new(16);
    buf.region().load::<u32>(2, Relaxed);
}

#[test]
#[should_panic(expected = "out of bounds")]
fn store_at_an_overflowing_offset_panics() {
    let buf = SharedBuf::new(16);
    buf.region()
        .try_store::<u8>(usize::MAX, 1, Relaxed)
        .unwrap();
}

#[test]
#[should_panic(expected = "byte copy access failed")]
fn read_bytes_past_the_end_panics() {
    let buf = SharedBuf::new(16);
    buf.region().read_bytes(9, &mut [0; 8]);
}

#[test]
#[should_panic(expected = "out of bounds")]
fn write_past_the_end_panics() {
    let buf = SharedBuf::new(16);
    buf.region().write(1, &[0u64; 2]).unwrap();
}
