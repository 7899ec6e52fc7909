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


def log_queue(block, millis):
    """Pushes entries k = 0, 1, ... for millis (a dropped one counted, not retried), then `end`."""
    queue = bridge.LogQueue.unscoped(block.log_queue())
    pushed = dropped = 0
    until = time.monotonic() + millis / 1000
    while time.monotonic() < until:
        head = bridge.LogEntry()
        head.level, head.tick = pushed % 5, pushed
        if queue.push(head, "torture", str(pushed)):
            dropped += 1
        pushed += 1
    head = bridge.LogEntry()
    head.tick = pushed
    while queue.push(head, "torture", "end"):
        time.sleep(0.001)
    print("log_queue %d %d" % (pushed, dropped), flush=True)


def log_ring(attached, millis):
    """Reads the ring from its newest entry for millis, slowly (1 ms asleep every 64 entries)."""
    ring = bridge.LogRing(attached.log_ring())
    read = gaps = missed = corrupt = 0
    first = last = None
    lapped = False
    until = time.monotonic() + millis / 1000
    # A lap is followed by the entry that showed it: the loop ends only after that entry
    # (its seq is what the lap's missed entries are counted up to).
    while lapped or time.monotonic() < until:
        found = ring.read_next()
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
    span = 0 if first is None else last - first + 1
    print("log_ring %d %d %d %d %d" % (read, gaps, missed, corrupt, span), flush=True)


def mailbox(block, millis):
    """Sends `req k` for millis, each answer awaited (5 s at most) and checked."""
    box = bridge.Mailbox.unscoped(block.mailbox())
    requests = answered = wrong = waits = 0
    until = time.monotonic() + millis / 1000
    while time.monotonic() < until:
        k = requests
        seq = box.request("req %d" % k)
        requests += 1
        deadline = time.monotonic() + 5
        while True:
            answer = box.poll_response(seq)
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


def draw(bot, millis):
    """Builds and publishes list n = 1, 2, ... for millis: 1 + n % 7 commands of colour n, each
    pointing at 8 payload bytes holding n."""
    lists = bridge.Draw.unscoped(bot.draw())
    n = 0
    until = time.monotonic() + millis / 1000
    while time.monotonic() < until:
        n += 1
        head = bridge.DrawListHeader()
        head.for_tick, head.seq = n, n & 0xFFFFFFFF
        lists.begin(head)
        for _ in range(1 + n % 7):
            cmd = bridge.DrawCmd()
            cmd.color = n & 0xFFFFFFFF
            cmd.payload_off, cmd.payload_len = lists.payload_len, 8
            if not lists.add(cmd, n.to_bytes(8, "little")):
                fail("draw: list %d is full" % n)
        lists.publish()
    print("draw %d %d" % (n, n), flush=True)


# The mapping, for attaching again after a reload.
MAPPING = []


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
    block = attached.client_blocks(row)
    bot = attached.bot_blocks(row)
    if block is None or bot is None:
        fail("row %d has no client block or bot block" % row)
    try:
        log_queue(block, millis)
        log_ring(attached, millis)
        mailbox(block, millis)
        draw(bot, millis)
        lifecycle(attached, row, millis)
    except bridge.ProtocolError as e:
        fail("a named protocol error from the host: %s" % e)
    attached.release()


if __name__ == "__main__":
    main()
