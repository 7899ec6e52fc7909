#!/usr/bin/env python3
"""Zero-copy reads in Python: a 12,104-byte snapshot in a bytearray (as a mapping of shared
memory would be), the ships' positions summed through the generated module's
Snapshot.from_buffer, against struct.unpack_from per field on the same bytes, with the
offsets taken from the module's ctypes fields. Prints the time per snapshot read and the
ratios. Usage: python3 bench/python_zero_copy.py [--quick]   (uses generated/bridge.py)
"""

import ctypes
import os
import platform
import struct
import sys
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "generated"))
import bridge  # noqa: E402

Snapshot, Ship, Vec2 = bridge.Snapshot, bridge.Ship, bridge.Vec2
SHIP_COUNT = Snapshot.ship_count.offset
SHIPS = Snapshot.ships.offset
SHIP_SIZE = ctypes.sizeof(Ship)
POS_X = Ship.pos.offset + Vec2.x.offset
POS_Y = Ship.pos.offset + Vec2.y.offset


def sample_buffer():
    """A snapshot with every ship slot in use, written through the module."""
    buf = bytearray(ctypes.sizeof(Snapshot))
    s = Snapshot.from_buffer(buf)
    s.header.magic = bridge.SNAPSHOT_MAGIC
    s.header.size = ctypes.sizeof(Snapshot)
    s.ship_count = bridge.MAX_SHIPS
    for i in range(bridge.MAX_SHIPS):
        s.ships[i].pos.x = i * 1.5
        s.ships[i].pos.y = 100.0 - i
    del s  # release the export, so the bytearray could be resized again
    return buf


def sum_from_buffer(buf):
    """Zero-copy: ctypes reads the fields in place."""
    s = Snapshot.from_buffer(buf)
    n = min(s.ship_count, bridge.MAX_SHIPS)
    ships = s.ships
    total = 0.0
    for i in range(n):
        pos = ships[i].pos
        total += pos.x + pos.y
    return total


def sum_unpack_from(buf):
    """struct.unpack_from for each field: the count, then each ship's x and y."""
    (n,) = struct.unpack_from("<B", buf, SHIP_COUNT)
    n = min(n, bridge.MAX_SHIPS)
    total = 0.0
    for i in range(n):
        base = SHIPS + i * SHIP_SIZE
        (x,) = struct.unpack_from("<f", buf, base + POS_X)
        (y,) = struct.unpack_from("<f", buf, base + POS_Y)
        total += x + y
    return total


_B = struct.Struct("<B")
_F = struct.Struct("<f")


def sum_unpack_from_compiled(buf):
    """The same with precompiled struct.Struct objects, the fastest plain-Python parse."""
    (n,) = _B.unpack_from(buf, SHIP_COUNT)
    n = min(n, bridge.MAX_SHIPS)
    total = 0.0
    unpack = _F.unpack_from
    for i in range(n):
        base = SHIPS + i * SHIP_SIZE
        total += unpack(buf, base + POS_X)[0] + unpack(buf, base + POS_Y)[0]
    return total


def best_ns(fn, buf, number, repeat):
    times = timeit.repeat(lambda: fn(buf), number=number, repeat=repeat)
    return min(times) / number * 1e9


def main():
    quick = "--quick" in sys.argv
    buf = sample_buffer()
    assert len(buf) == 12104, len(buf)
    want = sum_from_buffer(buf)
    assert sum_unpack_from(buf) == want and sum_unpack_from_compiled(buf) == want
    number, repeat = (2000, 3) if quick else (20000, 7)
    results = [
        ("Snapshot.from_buffer, ctypes fields", best_ns(sum_from_buffer, buf, number, repeat)),
        ("struct.unpack_from per field", best_ns(sum_unpack_from, buf, number, repeat)),
        ("struct.Struct.unpack_from per field", best_ns(sum_unpack_from_compiled, buf, number, repeat)),
    ]
    print(f"python {platform.python_version()}, {os.cpu_count()} cores; "
          f"{bridge.MAX_SHIPS} ships summed per read; best of {repeat} x {number}")
    base = results[0][1]
    for name, ns in results:
        print(f"{name:40s} {ns / 1000:8.2f} us/read   {ns / base:5.2f}x from_buffer")


if __name__ == "__main__":
    main()
