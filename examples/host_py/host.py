"""The game host of examples/host_cpp/host.cpp in Python, on the generated bridge.py alone
(issue 48): it lays out the bridge, stamps its identity, produces it into a new owner-only
file, registers in the host directory (DIRECTORY, by default bridge.Hosts.LINUX_PATH: opened,
or created owner-only, by Hosts.open_or_create), then once a millisecond until told to stop publishes a tick, writes the log ring and runs
one service turn (HostService.turn: every mailbox served through its answer callback, a
malformed request answered `failed`; every log queue drained; every bot row's draw list taken;
rows whose client said goodbye, is hung or whose process is gone freed; hostile rows freed by
the broken-client policy), reloads once, re-lays out once (8 -> 16 ring slots, over the same
mapping, which is sized for 16 from the start), and at the end says it is exiting and
unregisters.

    python3 -W error host.py MAPPING STOP_FILE MAX_MS [DIRECTORY]

It prints `host py: ready` once the bridge is produced and, when STOP_FILE exists (or MAX_MS
passed: a failure) and every row is free again (or 3 s more passed), the same lines as the C++
host:

    host py: T ticks, A answered, Q drained, D lists taken, H hung or dead freed,
    R reloads, L re-layouts, 0 wrong, 0 stuck rows, 0 leaked pads
    host py: G goodbyes, H hung, D dead, P freed by the policy, M malformed requests answered

and exits 1 unless every count of activity is above 0 and the last three are 0. Its clients
are the torture's (tests/torture/PROTOCOLS.md) and tests/host_cpp/bot.py.
"""

import mmap
import os
import sys
import time

import bridge

DRAIN_AFTER_STOP_NS = 3_000_000_000
GEOMETRY = {
    "mailbox.request_capacity": 2048,
    "mailbox.response_capacity": 8192,
}


def lay_out(slots):
    """A stamped image of `slots` ring slots."""
    image = bridge.lay_out(dict(GEOMETRY, **{"bridge_header.ring_slots": slots}), generation=1)
    bridge.stamp_identity(image, "host-py 1.0")
    return image


class Host:
    def __init__(self, path, directory):
        # The mapping is sized for the largest geometry (16 slots), the bridge laid out at 8.
        size = len(lay_out(16))
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.ftruncate(fd, size)
            self.mapping = mmap.mmap(fd, size)
        finally:
            os.close(fd)
        self.host = bridge.produce(self.mapping, lay_out(8))
        self.service = self.serve(self.host)
        # Listed in the host directory once the bridge runs (stale hosts' rows freed first).
        self.directory, self.directory_map, _ = bridge.Hosts.open_or_create(directory)
        state, self.created = bridge.process_probe(os.getpid())
        assert state == bridge.PROCESS_RUNNING, "this process's own probe"
        self.directory_row, _ = self.directory.register(os.getpid(), self.created, "host-py 1.0")
        self.ticks = self.reloads = self.relayouts = self.relayout_at = self.wrong = self.stuck = self.leaked = 0
        self.errors_seen = 0
        self.ring_written = 0
        self.last_k = [None] * bridge.Client.ROWS
        self.last_list = [0] * bridge.Client.ROWS
        self.list_generation = [0] * bridge.Client.ROWS
        self.slot = bridge.RingSlot()
        self.ring = self.host.snapshot_ring()
        self.log_ring = bridge.LogRing(self.host.log_ring())

    def serve(self, host):
        return bridge.HostService(host, answer=self.answer, log=self.log, draw=self.draw, probe=bridge.process_probe)

    # ---- the game's side: what each callback checks ----

    def answer(self, row, text):
        if text is None:
            return bridge.CommandStatus.FAILED, b"malformed request: its length is past the request area"
        text = bytes(text)
        if not text.startswith(b"req ") or not text[4:].isdigit():
            self.wrong += 1
            return bridge.CommandStatus.REFUSED, b"not a request"
        k = int(text[4:])
        return bridge.CommandStatus.OK, b"ans %d" % k + b"x" * (k % 50)

    def log(self, row, entry):
        text = bytes(entry.text)
        if text == b"end":
            self.last_k[row] = None
            return
        good = text.isdigit() and bytes(entry.source) == b"torture"
        k = int(text) if good else 0
        last = self.last_k[row]
        if not good or entry.head.tick != k or (last is not None and k <= last):
            self.wrong += 1
        self.last_k[row] = k

    def draw(self, row, taken):
        generation = bridge.Client.row_state(self.host.header(), row)[1]
        if generation != self.list_generation[row]:
            self.last_list[row] = 0
        self.list_generation[row] = generation
        head = taken.head
        seq = head.seq
        good = head.count == 1 + seq % 7 and head.payload_len == 8 * head.count and seq > self.last_list[row]
        for item in taken.items[: head.count] if good else ():
            at = item.payload_off
            good = good and item.color == seq and taken.payload[at : at + 8] == seq.to_bytes(8, "little")
        self.wrong += 0 if good else 1
        self.last_list[row] = seq

    # ---- each tick ----

    def turn(self, now):
        self.slot.tick = self.ticks
        self.slot.publish_ns = now
        self.ring.publish(self.slot)
        self.ticks += 1
        head = bridge.LogEntry()
        head.tick = self.ticks
        seq = self.log_ring.push(head, b"host", str(self.ring_written).encode())
        self.wrong += 1 if seq != self.ring_written else 0
        self.ring_written += 1
        counts = self.service.turn(now)
        if counts["errors"] != self.errors_seen:
            print("host py: %r" % self.service.last_error, file=sys.stderr)
            self.wrong += counts["errors"] - self.errors_seen
            self.errors_seen = counts["errors"]
        if self.reloads == 0 and self.hung_or_dead() > 0 and self.any(bridge.ClientState.ACTIVE):
            self.service.reload()
            self.reloads += 1
            self.relayout_at = self.ticks + 50
        # One re-layout (8 -> 16 slots) a few ticks after, while a client holds a row: a new
        # stamped image over the same mapping, the host's own fields kept (bridge.relayout).
        if self.relayouts == 0 and 0 < self.relayout_at <= self.ticks and self.any(bridge.ClientState.ACTIVE):
            old = self.host
            self.host = bridge.relayout(self.mapping, lay_out(16))
            old.release()
            counts = self.service.counts
            self.service = self.serve(self.host)  # the new image's rows and queues
            self.service.counts.update(counts)  # the counts are kept
            self.ring = self.host.snapshot_ring()
            self.log_ring = bridge.LogRing(self.host.log_ring())
            self.ring_written = 0  # its log ring starts empty
            self.relayouts += 1

    def hung_or_dead(self):
        return self.service.counts["hung"] + self.service.counts["dead"]

    def states(self):
        header = self.host.header()
        return [bridge.Client.row_state(header, row)[0] for row in range(bridge.Client.ROWS)]

    def any(self, state):
        return state in self.states()

    def all_free(self):
        return all(s == bridge.ClientState.FREE for s in self.states())

    def finish(self):
        self.stuck = sum(1 for s in self.states() if s != bridge.ClientState.FREE)
        header = self.host.header()
        for pad in range(bridge.MAX_PLAYERS):
            owner = bridge.Client.pad_owner(header, pad)
            self.leaked += 0 if owner in (None, bridge.PAD_NOT_BOT) else 1
        bridge.Client.exit(self.host)
        self.wrong += 0 if self.directory.unregister(self.directory_row, os.getpid(), self.created) else 1
        self.directory.release()
        self.directory_map.close()
        c = self.service.counts
        print(
            "host py: %d ticks, %d answered, %d drained, %d lists taken, %d hung or dead freed, "
            "%d reloads, %d re-layouts, %d wrong, %d stuck rows, %d leaked pads"
            % (self.ticks, c["served"] + c["malformed"], c["drained"], c["taken"], self.hung_or_dead(),
               self.reloads, self.relayouts, self.wrong, self.stuck, self.leaked)
        )
        print(
            "host py: %d goodbyes, %d hung, %d dead, %d freed by the policy, %d malformed requests answered"
            % (c["closing"], c["hung"], c["dead"], c["policy"], c["malformed"])
        )

    def ok(self):
        c = self.service.counts
        active = all((self.ticks, c["served"], c["malformed"], c["drained"], c["taken"], self.hung_or_dead(), self.reloads, self.relayouts))
        return active and self.wrong == 0 and self.stuck == 0 and self.leaked == 0


def main():
    if len(sys.argv) not in (4, 5):
        print("usage: host.py MAPPING STOP_FILE MAX_MS [DIRECTORY]", file=sys.stderr)
        return 2
    path, stop_file, max_ns = sys.argv[1], sys.argv[2], int(sys.argv[3]) * 1_000_000
    host = Host(path, sys.argv[4] if len(sys.argv) == 5 else None)
    print("host py: ready", flush=True)
    started = time.monotonic_ns()
    stopped = 0
    timed_out = False
    turn = 0
    while True:
        now = time.monotonic_ns()
        host.turn(now)
        if stopped == 0 and turn % 16 == 0 and os.path.exists(stop_file):
            stopped = now
        if stopped == 0 and now - started > max_ns:
            print("host py: no stop file after %s ms" % sys.argv[3], file=sys.stderr)
            timed_out = True
            stopped = now
        if stopped != 0 and (host.all_free() or now - stopped > DRAIN_AFTER_STOP_NS):
            break
        turn += 1
        time.sleep(0.0005)
    host.finish()
    sys.stdout.flush()
    host.host.release()
    host.mapping.close()
    return 0 if not timed_out and host.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
