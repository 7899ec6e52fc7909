"""A seqlock's run-time sized bytes (the snapshot ring slot's payload and its extras) are
copied over the same ranges by every Python reader and writer, whatever `size` says: the
writer publishes with each extras length, and a reader then reads the slot under every size
another publication could have left in it (a lapped reader's view). Every copy of shared
bytes (_bytes, _put) is noted; past the payload's type, each copy must begin and end at an
8-aligned place of the buffer or at the slot's end, so that no copy cuts a word another copy
covers whole. A control notes the copies the module made before (exactly the bytes each size
says): it must cut words, which shows that the check sees cuts when there are some.

Prints: the copies checked, the cuts found, the control's cuts, the failed checks."""

import ctypes
import mmap

import bridge

copies = []
real_bytes, real_put = bridge._LiveView._bytes, bridge._LiveView._put


def noting_bytes(self, offset, size):
    copies.append((self._base + offset, size))
    return real_bytes(self, offset, size)


def noting_put(self, offset, data):
    copies.append((self._base + offset, len(data)))
    return real_put(self, offset, data)


bridge._LiveView._bytes, bridge._LiveView._put = noting_bytes, noting_put

HEAD = ctypes.sizeof(bridge.RingSlotHeader)
FIXED = ctypes.sizeof(bridge.Snapshot)
AT = 4096  # the slot's offset in the buffer: 8-aligned, as a ring puts it
buf = mmap.mmap(-1, 65536)
src = bytes(range(1, 41))
checked = cuts = control = failures = 0


def cut_words(start, end, limit):
    """The copies (begin, length) that begin or end inside a word between start and limit,
    other than at limit."""
    found = 0
    for at, n in copies:
        for edge in (at, at + n):
            if start < edge < limit and edge % 8 and n:
                found += 1
    return found


for tail in (0, 1, 3, 5, 7):
    room = 32 + tail  # bytes past the payload's type
    length = HEAD + FIXED + room
    view = bridge.LiveRingSlotHeader(buf, AT, length)
    extras_at = AT + HEAD + FIXED
    for wrote in range(room + 1):
        buf[AT : AT + length] = bytes(length)
        del copies[:]
        value = bridge.RingSlot()
        value.payload = bridge.Snapshot()
        value.payload_extra = src[:wrote]
        view.write_ring_slot(value)
        writes = [c for c in copies if c[0] + c[1] > extras_at]
        for size in range(FIXED - 9, FIXED + room + 3):
            buf[AT + 4 : AT + 8] = size.to_bytes(4, "little")
            del copies[:]
            got = view.read_ring_slot()
            reads = [c for c in copies if c[0] + c[1] > AT + HEAD + FIXED - 16]
            copies[:] = writes + reads
            checked += len(copies)
            cuts += cut_words(AT + HEAD, AT + length, AT + length)
            cut = min(size, FIXED + room)
            if bytes(got.payload_extra) != (src[:wrote] + bytes(room))[: max(0, cut - FIXED)]:
                failures += 1
            if cut < FIXED and bytes(got.payload)[cut:] != bytes(FIXED - cut):
                failures += 1
        # The control: the ranges each size says, as the module copied them before.
        for size in range(room + 1):
            copies[:] = [(extras_at, wrote), (extras_at, size)]
            control += cut_words(extras_at, AT + length, AT + length) > 0
    view.release()

print("checked %d cuts %d control %d failures %d" % (checked, cuts, control, failures))
