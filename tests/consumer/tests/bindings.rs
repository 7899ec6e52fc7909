//! The generated bindings, used as another crate uses them: value types, and the live layer
//! over shared bytes.

use abi_runtime::SharedBuf;
use telemetry::{Channel, ChannelFlags, Frame, TELEMETRY_MAGIC, Unit, live};
use zerocopy::{FromZeros, IntoBytes};

#[test]
fn value_types_have_the_layout_of_the_schema() {
    // 4 + 4 + 8 + 4 + 4 + 4 * (4 + 2 + 2)
    assert_eq!(size_of::<Channel>(), 8);
    assert_eq!(size_of::<Frame>(), 56);
    assert_eq!(align_of::<Frame>(), 8);
    assert_eq!(core::mem::offset_of!(Frame, channels), 24);
    assert_eq!(TELEMETRY_MAGIC, u32::from_le_bytes(*b"TELM"));
}

#[test]
fn a_frame_written_under_the_seqlock_reads_back() {
    let mut frame = Frame::new_zeroed();
    frame.magic = TELEMETRY_MAGIC;
    frame.tick = 42;
    frame.channel_count = 2;
    frame.channels[1].value = 21.5;
    frame.channels[1].unit = Unit::CELSIUS;
    frame.channels[1].flags = ChannelFlags::VALID;
    let shared = SharedBuf::new(64);
    let view = live::Frame::at(shared.region(), 0).expect("in bounds and aligned");
    view.write_frame(&frame);
    assert_eq!(view.seq(), 2, "one write: odd, then even");
    let copy = view.read_frame().expect("no writer is racing");
    assert_eq!(copy.as_bytes()[4..], frame.as_bytes()[4..]);
    assert_eq!(copy.channels[1].value, 21.5);
    assert_eq!(copy.channels[1].unit, Unit::CELSIUS);
}
