"""The Python client of the churn torture (examples/torture_churn/, the contract in
tests/torture/PROTOCOLS.md, "Churn"): churn.py churn PATH ROW ACTION HARNESS.

It attaches the bridge file, claims row ROW, activates and reports
`connected TAG T_BEFORE T_AFTER`, then runs ACTION through the default writers, bound to
its claim (bridge.LogQueue(view, session) and the like), heartbeating and reporting `still T_BEFORE` at most every 10 ms while it
stands CONNECTED. Once ready it stores its tag at HARNESS + 8 * ROW. On losing the row it
reports `lost STANDING` and exits 0; anything else that is not a normal outcome exits 1 with a
message on stderr. Actions: push, draw, hold, stall (see the Rust client,
examples/torture_churn/client.rs). TORTURE_CHURN_BREAK=unscoped: the stalled client writes
through the unscoped writers (bridge.LogQueue.unscoped), without its standing checked; =standing: its standing looks
at the host's generation only.
"""

import mmap
import os
import sys
import time

import bridge

STILL_EVERY = 10_000_000


class Lost(Exception):
    """The row is no longer this client's: its standing."""


def fail(message):
    print("churn.py: %s" % message, file=sys.stderr, flush=True)
    sys.exit(1)


def claim(buf, row):
    """Attaches (again while the host starts or reloads) and claims the row: 10 s at most."""
    until = time.monotonic() + 10
    while True:
        try:
            attached = bridge.attach(buf)
            session = bridge.Client.claim(attached.header(), row, attached.generation)
            if session is not None:
                return attached, session
        except bridge.AttachError as e:
            if not e.retryable:
                raise
        except bridge.ProtocolError as e:
            if e.check != "session_reloaded":
                raise
        if time.monotonic() > until:
            fail("row %d not claimed in 10 s" % row)
        time.sleep(0.0002)


class Churn:
    def __init__(self, buf, row, harness, attached, session):
        self.buf, self.row, self.harness = buf, row, harness
        self.attached, self.session = attached, session
        self.me = (attached.generation << 32) | session.generation
        self.still = 0

    def beat(self):
        """A heartbeat; Lost once the row is no longer the claim's."""
        t = time.monotonic_ns()
        self.session.heartbeat(t)
        standing = self.session.standing()
        if standing != bridge.Standing.CONNECTED:
            raise Lost(standing)
        if t - self.still >= STILL_EVERY:
            print("still %d" % t, flush=True)
            self.still = t

    def ready(self):
        bridge.atomic_store(self.buf, self.harness + 8 * self.row, 8, self.me)

    def entry(self, k):
        head = bridge.LogEntry()
        head.tick = k
        return head, "churn", "%d %d" % (self.me, k)

    def publish(self, lists, k):
        head = bridge.DrawListHeader()
        head.seq, head.for_tick = k & 0xFFFFFFFF, self.me
        lists.begin(head)
        cmd = bridge.DrawCmd()
        cmd.color = k & 0xFFFFFFFF
        cmd.payload_off, cmd.payload_len = lists.payload_len, 8
        lists.add(cmd, k.to_bytes(8, "little"))
        lists.publish()

    def push(self):
        queue = bridge.LogQueue(self.attached.client_blocks(self.row).log_queue(), self.session)
        k = 0
        while True:
            self.beat()
            queue.push(*self.entry(k))
            if k == 0:
                self.ready()
            k += 1

    def draw(self):
        lists = bridge.Draw(self.attached.bot_blocks(self.row).draw(), self.session)
        k = 1
        while True:
            self.beat()
            self.publish(lists, k)
            if k == 1:
                self.ready()
            k += 1

    def hold(self):
        lists = bridge.Draw(self.attached.bot_blocks(self.row).draw(), self.session)
        for k in (1, 2):
            self.publish(lists, k)
        box = bridge.Mailbox(self.attached.client_blocks(self.row).mailbox(), self.session)
        box.request("req %d" % self.me)
        for pad in range(bridge.MAX_PLAYERS):
            if self.session.bind_pad(pad):
                break
            standing = self.session.standing()
            if standing != bridge.Standing.CONNECTED:
                raise Lost(standing)
        self.ready()
        while True:
            self.beat()
            time.sleep(0.001)

    def stall(self):
        queue_view = self.attached.client_blocks(self.row).log_queue()
        draw_view = self.attached.bot_blocks(self.row).draw()
        if os.environ.get("TORTURE_CHURN_BREAK") != "unscoped":
            queue, lists = bridge.LogQueue(queue_view, self.session), bridge.Draw(draw_view, self.session)
        else:
            queue, lists = bridge.LogQueue.unscoped(queue_view), bridge.Draw.unscoped(draw_view)
        self.ready()
        # Hung: no heartbeat until the row is no longer this session's (10 s at most), each
        # CONNECTED standing reported as any other. TORTURE_CHURN_BREAK=standing: the standing
        # looks at the host's generation only, not the row's.
        host_only = os.environ.get("TORTURE_CHURN_BREAK") == "standing"
        until = time.monotonic() + 10
        while True:
            t = time.monotonic_ns()
            if host_only:
                connected = self.attached.header().host_generation() == self.attached.generation
            else:
                connected = self.session.standing() == bridge.Standing.CONNECTED
            if not connected:
                break
            if t - self.still >= STILL_EVERY:
                print("still %d" % t, flush=True)
                self.still = t
            if time.monotonic() > until:
                fail("stall: the row was not freed in 10 s")
            time.sleep(0.001)
        words = []
        for write in (lambda: queue.push(*self.entry(0)), lambda: self.publish(lists, 1)):
            try:
                write()
                words.append("written")
            except bridge.ProtocolError:
                words.append("refused")
        print("stall push=%s draw=%s" % tuple(words), flush=True)
        raise Lost(self.session.standing())


def main():
    if len(sys.argv) != 6 or sys.argv[1] != "churn":
        fail("usage: churn.py churn PATH ROW ACTION HARNESS")
    path, row, action, harness = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
    fd = os.open(path, os.O_RDWR)
    try:
        buf = mmap.mmap(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
    attached, session = claim(buf, row)
    c = Churn(buf, row, harness, attached, session)
    session.row.set_pid(os.getpid())
    session.row.set_name("churn-python-%d" % row)
    session.heartbeat()
    before = time.monotonic_ns()
    activated = session.activate()
    after = time.monotonic_ns()
    if not activated:
        print("lost %s" % session.standing().name, flush=True)
        return
    print("connected %d %d %d" % (c.me, before, after), flush=True)
    c.still = after
    try:
        if action == "push":
            c.push()
        elif action == "draw":
            c.draw()
        elif action == "hold":
            c.hold()
        elif action == "stall":
            c.stall()
        else:
            fail("no action %s: push, draw, hold, stall" % action)
    except Lost as lost:
        print("lost %s" % lost.args[0].name, flush=True)
    except bridge.ProtocolError as e:
        if not e.check.startswith("session_"):
            fail("a named protocol error: %s" % e)
        print("lost %s" % e.check, flush=True)


if __name__ == "__main__":
    main()
