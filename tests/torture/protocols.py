"""The Python client of the protocol torture (examples/torture_protocols.rs, issue 26):
protocols.py PATH ROW MILLIS.

It attaches the bridge file with the generated attach and races the five region protocols
against the host, as tests/torture/PROTOCOLS.md says, using only the generated
module's helpers: its log queue (as the writer), the log ring (as a reader), its mailbox
(as the client), its bot block's draw lists (as the writer) and its row of the client table
(as a client session). One line per phase on stdout; exit 1 with a message on stderr for
anything that is not one of the protocols' normal outcomes.
"""

import mmap
import os
import sys
import time

import bridge

LANG = "python"


def fail(message):
    print("protocols.py: %s" % message, file=sys.stderr, flush=True)
    sys.exit(1)


# The mapping, for attaching again after a reload or a re-layout.
MAPPING = []


def attach_again():
    """A new attach handle of the mapping, retried (5 s at most) while the host reloads."""
    deadline = time.monotonic() + 5
    while True:
        try:
            return bridge.attach(MAPPING[0])
        except bridge.AttachError as e:
            if not e.retryable or time.monotonic() > deadline:
                raise
        time.sleep(0.001)


def stale(live, e):
    """Returns when the named error e was read while the producer's generation changed (the
    region was being replaced: the caller's next moved() takes the new one); raises e else."""
    if not live.attached.reloaded():
        raise e


class Follow:
    """The attach handle, followed: a re-layout moves the row's blocks (a reload does not), so
    each phase asks moved() before it touches its region, and starts over on a new one."""

    def __init__(self, attached, row):
        self.attached, self.row = attached, row

    def region(self, name):
        """(where, a view) of the region name: the log ring, or the row's block's."""
        owner = self.attached
        if name == "draw":
            owner = owner.bot_blocks(self.row)
        elif name != "log_ring":
            owner = owner.client_blocks(self.row)
        if owner is None:
            fail("follow: row %d has no %s" % (self.row, name))
        return owner.region(name), getattr(owner, name)()

    def moved(self, name, where):
        """None while the producer's generation is the handle's, or the region is still at
        where; else the new (where, view) from a handle attached again."""
        if not self.attached.reloaded():
            return None
        deadline = time.monotonic() + 5
        while True:
            self.attached = attach_again()
            try:
                found = self.region(name)
                break
            except bridge.AttachError as e:
                if not e.retryable or time.monotonic() > deadline:
                    raise
        return None if found[0] == where else found


def log_queue(live, millis):
    """Pushes entries k = 0, 1, ... for millis (a dropped one counted, not retried; those in a
    queue a re-layout replaced lost), then `end`."""
    where, view = live.region("log_queue")
    queue = bridge.LogQueue.unscoped(view)
    pushed = dropped = 0
    until = time.monotonic() + millis / 1000
    while time.monotonic() < until:
        moved = live.moved("log_queue", where)
        if moved is not None:
            where, queue = moved[0], bridge.LogQueue.unscoped(moved[1])
        head = bridge.LogEntry()
        head.level, head.tick = pushed % 5, pushed
        try:
            if queue.push(head, "torture", str(pushed)):
                dropped += 1
        except bridge.ProtocolError as e:
            stale(live, e)
            continue
        pushed += 1
    head = bridge.LogEntry()
    head.tick = pushed
    deadline = time.monotonic() + 30
    while True:
        moved = live.moved("log_queue", where)
        if moved is not None:
            where, queue = moved[0], bridge.LogQueue.unscoped(moved[1])
        try:
            if not queue.push(head, "torture", "end"):
                break
        except bridge.ProtocolError as e:
            stale(live, e)
        if time.monotonic() > deadline:
            fail("log_queue: `end` dropped for 30 s")
        time.sleep(0.001)
    print("log_queue %d %d" % (pushed, dropped), flush=True)


def log_ring(live, millis):
    """Reads the ring from its newest entry for millis, slowly (1 ms asleep every 64 entries);
    after a re-layout, the new ring from its newest entry (the spans summed)."""
    where, view = live.region("log_ring")
    ring = bridge.LogRing(view)
    read = gaps = missed = corrupt = spans = 0
    first = last = None
    lapped = False
    until = time.monotonic() + millis / 1000
    # A lap is followed by the entry that showed it: the loop ends only after that entry
    # (its seq is what the lap's missed entries are counted up to).
    while lapped or time.monotonic() < until:
        moved = live.moved("log_ring", where)
        if moved is not None:
            spans += 0 if first is None else last - first + 1
            first, lapped = None, False
            where, ring = moved[0], bridge.LogRing(moved[1])
        try:
            found = ring.read_next()
        except bridge.ProtocolError as e:
            stale(live, e)
            continue
        lapped = isinstance(found, bridge.Lapped)
        if found is bridge.EMPTY:
            continue
        if lapped:
            # A lap before the first entry read (this process was not running for a whole
            # ring's worth of entries after it joined) missed entries before the first seq,
            # outside S: counting them would break read + missed = S.
            if first is not None:
                gaps += 1
                missed += found.missed
            continue
        seq = found.head.seq
        if found.text != str(seq).encode():
            corrupt += 1
        first = seq if first is None else first
        last = seq
        read += 1
        if read % 64 == 0:
            time.sleep(0.001)
    span = spans + (0 if first is None else last - first + 1)
    print("log_ring %d %d %d %d %d" % (read, gaps, missed, corrupt, span), flush=True)


def mailbox(live, millis):
    """Sends `req k` for millis, each answer awaited (5 s at most) and checked; a request lost
    with a mailbox a re-layout replaced is sent again."""
    where, view = live.region("mailbox")
    box = bridge.Mailbox.unscoped(view)
    requests = answered = wrong = waits = 0
    until = time.monotonic() + millis / 1000
    while time.monotonic() < until:
        k = requests
        seq = box.request("req %d" % k)
        requests += 1
        deadline = time.monotonic() + 5
        while True:
            try:
                answer = box.poll_response(seq)
            except bridge.ProtocolError as e:
                stale(live, e)
                answer = None
            # An answer read after the mailbox moved is no answer: the request again.
            moved = live.moved("mailbox", where)
            if moved is not None:
                where, box = moved[0], bridge.Mailbox.unscoped(moved[1])
                seq = box.request("req %d" % k)
                continue
            if answer is not None:
                break
            waits += 1
            if time.monotonic() > deadline:
                fail("mailbox: no answer to request %d in 5 s" % k)
        answered += 1
        want = ("ans %d" % k).encode() + b"x" * (k % 50)
        if answer.status != bridge.CommandStatus.OK or answer.text != want or answer.cut:
            wrong += 1
    print("mailbox %d %d %d %d" % (requests, answered, wrong, waits), flush=True)


def draw(live, millis):
    """Builds and publishes list n = 1, 2, ... for millis: 1 + n % 7 commands of colour n, each
    pointing at 8 payload bytes holding n (in the new block after a re-layout)."""
    where, view = live.region("draw")
    lists = bridge.Draw.unscoped(view)
    n = 0
    until = time.monotonic() + millis / 1000
    while time.monotonic() < until:
        n += 1
        moved = live.moved("draw", where)
        if moved is not None:
            where, lists = moved[0], bridge.Draw.unscoped(moved[1])
        head = bridge.DrawListHeader()
        head.for_tick, head.seq = n, n & 0xFFFFFFFF
        lists.begin(head)
        for _ in range(1 + n % 7):
            cmd = bridge.DrawCmd()
            cmd.color = n & 0xFFFFFFFF
            cmd.payload_off, cmd.payload_len = lists.payload_len, 8
            if not lists.add(cmd, n.to_bytes(8, "little")):
                fail("draw: list %d is full" % n)
        moved = live.moved("draw", where)
        if moved is not None:
            # List n was built in the old block: not published.
            where, lists = moved[0], bridge.Draw.unscoped(moved[1])
            continue
        try:
            lists.publish()
        except bridge.ProtocolError as e:
            stale(live, e)
    print("draw %d %d" % (n, n), flush=True)


def claim(attached, row):
    """Claims the row (waiting while the host has not freed it; attaching again when the
    host reloaded since the handle attached), fills it in, activates it. The session and the
    handle it was claimed through."""
    deadline = time.monotonic() + 5
    while True:
        if time.monotonic() > deadline:
            fail("lifecycle: row %d not claimed for 5 s" % row)
        try:
            session = bridge.Client.claim(attached.header(), row, attached.generation)
        except bridge.ProtocolError as e:
            if e.check != "session_reloaded":
                raise
            try:
                attached = bridge.attach(MAPPING[0])
            except bridge.AttachError as again:
                if not again.retryable:
                    raise
            continue
        if session is not None:
            break
        if time.monotonic() > deadline:
            fail("lifecycle: row %d not free for 5 s" % row)
        time.sleep(0.0001)
    session.row.set_pid(os.getpid())
    session.row.set_connected_ns(time.monotonic_ns())
    session.row.set_name("torture-%s-%d" % (LANG, row))
    session.heartbeat()
    return session, attached


def lifecycle(attached, row, millis):
    """A session on the row for millis: heartbeats, and a new claim after each disconnect or
    reload noticed; then goodbye."""
    claims = disconnects = reloads = 0
    session, attached = claim(attached, row)
    claims += 1
    session.activate()
    until = time.monotonic() + millis / 1000
    while time.monotonic() < until:
        session.heartbeat()
        standing = session.standing()
        if standing == bridge.Standing.HOST_EXITING:
            fail("lifecycle: the host is exiting")
        if standing != bridge.Standing.CONNECTED:
            if standing == bridge.Standing.RELOADED:
                reloads += 1
            else:
                disconnects += 1
            session, attached = claim(attached, row)
            claims += 1
            session.activate()
        time.sleep(0.0001)
    if not session.close():
        # The host acted on the row after the last look: noticed now, at goodbye.
        if session.standing() == bridge.Standing.RELOADED:
            reloads += 1
        else:
            disconnects += 1
    print("lifecycle %d %d %d" % (claims, disconnects, reloads), flush=True)


def main():
    if len(sys.argv) != 4:
        fail("usage: protocols.py PATH ROW MILLIS")
    path, row, millis = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    fd = os.open(path, os.O_RDWR)
    try:
        buf = mmap.mmap(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
    MAPPING.append(buf)
    attached = bridge.attach(buf)
    if attached.client_blocks(row) is None or attached.bot_blocks(row) is None:
        fail("row %d has no client block or bot block" % row)
    live = Follow(attached, row)
    try:
        log_queue(live, millis)
        log_ring(live, millis)
        mailbox(live, millis)
        draw(live, millis)
        lifecycle(live.attached, row, millis)
    except bridge.ProtocolError as e:
        fail("a named protocol error from the host: %s" % e)
    attached.release()


if __name__ == "__main__":
    main()
