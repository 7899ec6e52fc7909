"""A Python client of the torture test (examples/torture.rs): client.py PATH ID SECONDS ROUNDS.

It maps the bridge file and uses only the generated module's helpers for the bridge's
protocols: the snapshot ring's newest-slot read and the claims of client rows and pads.
The round and ack words past the bridge are the harness's own (atomic_load and
atomic_fetch_add of the module's atomics layer).
"""

import mmap
import os
import struct
import sys
import time

import bridge

TRIES = 100000
MASK = (1 << 64) - 1


def word_of(n, k):
    """The word at index k of publication n, as the host fills it (the first word is n)."""
    if k == 0:
        return n
    return ((n * 0x9E3779B97F4A7C15) & MASK) ^ ((k * 0xD6E8FEB86659FD93) & MASK)


def main():
    path, ident, seconds, rounds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    fd = os.open(path, os.O_RDWR)
    buf = mmap.mmap(fd, os.fstat(fd).st_size)
    header = bridge.LiveBridgeHeader(buf, 0)
    entry = header.regions()[int(bridge.BridgeRegion.SNAPSHOT_RING)]
    ring = bridge.SnapshotRing(header, buf, entry.offset)

    words = bridge.ctypes.sizeof(bridge.Snapshot) // 8
    reads = torn = retries = 0
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            found = ring.read_newest_counted(TRIES)
        except bridge.SeqlockContendedError:
            retries += TRIES
            continue
        if found is None:
            time.sleep(0)
            continue
        slot, tried = found
        retries += tried
        reads += 1
        n = slot.publish_seq
        got = struct.unpack_from("<%dQ" % words, bytes(slot.payload))
        whole = (
            slot.tick == n
            and slot.payload_extra == n.to_bytes(8, "little")
            and all(w == word_of(n, k) for k, w in enumerate(got))
        )
        if not whole:
            torn += 1
    print("reads %d %d %d" % (reads, torn, retries), flush=True)

    round_at = header.total_size()
    acks_at = round_at + 8
    last = done = 0
    changed = time.monotonic()
    while last < rounds:
        r = bridge.atomic_load(buf, round_at, 8)
        if r == last:
            # The host says it is done, or is gone: a round unchanged for a minute.
            if header.host_state() == bridge.HostState.EXITING or time.monotonic() - changed > 60:
                break
            time.sleep(0)
            continue
        changed = time.monotonic()
        for i in range(bridge.MAX_CLIENTS):
            # The session's claim: one compare-and-swap of the row's (state, generation) word.
            session = bridge.Client.claim(header, i, header.host_generation())
            if session is not None:
                session.row.set_pid(ident)
                session.activate()
                print("won %d row %d" % (r, i))
        for p in range(bridge.MAX_PLAYERS):
            ok, _ = header.compare_exchange_pad_owner_at(p, bridge.NO_PAD, ident)
            if ok:
                print("won %d pad %d" % (r, p))
        bridge.atomic_fetch_add(buf, acks_at, 8, 1)
        last = r
        done += 1
    print("rounds %d" % done, flush=True)
    ring.release()
    header.release()
    buf.close()
    os.close(fd)


if __name__ == "__main__":
    main()
