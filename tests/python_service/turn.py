"""The host's service turn in Python (issue 48), the scenarios of tests/c_service/turn.c:
HostService.turn serves, drains and takes a good client's row, frees it after its goodbye,
and takes a new claim's first list (the turn made the row's reader new at the free); the
broken-client policy frees a row whose request_seq is hostile (the free answers it) and one
whose draw state is broken; a hung row and an active row whose pid is gone are freed, a live
pid's row stays; a malformed request is answered with the host's status. The test's own clock.
Prints one line per scenario."""

import os
import sys

import bridge as B

GEOMETRY = {"mailbox.request_capacity": 256, "mailbox.response_capacity": 256}
KEYS = ("served", "malformed", "drained", "taken", "closing", "hung", "dead", "policy", "errors")


def check(ok, what):
    if not ok:
        print("turn.py: check failed: %s" % what, file=sys.stderr)
        sys.exit(1)


class Host:
    def __init__(self):
        img = B.lay_out(GEOMETRY, 1)
        self.buf = bytearray(len(img))
        self.host = B.produce(self.buf, img)
        self.client = B.attach(self.buf)
        self.logs, self.lists = 0, []
        self.service = B.HostService(
            self.host, answer=self.answer, log=self.log, draw=self.draw, probe=B.process_probe
        )

    def answer(self, row, text):
        if text is None:
            return 7, b"malformed"
        return 1, b"ans " + text

    def log(self, row, entry):
        self.logs += 1

    def draw(self, row, lst):
        self.lists.append(lst.head.seq)

    def join(self, row, pid):
        s = B.Client.claim(self.client.header(), row, self.client.generation)
        check(s is not None, "row %d claimed" % row)
        s.row.set_pid(pid)
        check(s.activate(), "row %d active" % row)
        return s

    def state(self, row):
        return B.Client.row_state(self.host.header(), row)[0]

    def turn(self, now):
        before = dict(self.service.counts)
        self.service.turn(now)
        return before

    def line(self, what, before):
        c = self.service.counts
        print(what + " " + " ".join("%s=%d" % (k, c[k] - before[k]) for k in KEYS))

    def publish(self, s, row, seq):
        d = B.Draw(self.client.bot_blocks(row).draw(), s)
        head = B.DrawListHeader()
        head.seq = seq
        d.begin(head)
        check(d.add(B.DrawCmd()), "a command added")
        d.publish()


def good(h, now):
    before = dict(h.service.counts)
    a = h.join(0, os.getpid())
    box = B.Mailbox(h.client.client_blocks(0).mailbox(), a)
    queue = B.LogQueue(h.client.client_blocks(0).log_queue(), a)
    box.request(b"hi")
    for _ in range(2):
        queue.push(B.LogEntry(), "t", "line")
    h.publish(a, 0, 1)
    h.service.turn(now)
    r = box.poll_response()
    check(r is not None and r.status == 1 and r.text == b"ans hi", repr(r))
    check(h.logs == 2 and h.lists == [1], "%d %r" % (h.logs, h.lists))
    a.close()
    h.service.turn(now)
    check(h.state(0) == B.ClientState.FREE, "row 0 freed after its goodbye")
    b = h.join(0, os.getpid())
    h.publish(b, 0, 9)
    h.service.turn(now)
    check(h.lists == [1, 9], "the new claim's first list: %r" % h.lists)
    h.line("good", before)
    b.close()
    h.service.turn(now)


def hostile_seq(h, now):
    before = dict(h.service.counts)
    h.join(1, os.getpid())
    box = h.client.client_blocks(1).mailbox()
    answered = box.response_seq()
    box.set_request_seq(answered + 5)
    h.service.turn(now)
    check(h.state(1) == B.ClientState.FREE, "row 1 freed by the policy")
    check(box.response_seq() == answered + 5, "the free answered it")
    h.line("hostile_seq", before)


def bad_draw(h, now):
    before = dict(h.service.counts)
    h.join(2, os.getpid())
    h.client.bot_blocks(2).draw().set_state(0xFF)
    h.service.turn(now)
    check(h.state(2) == B.ClientState.FREE, "row 2 freed by the policy")
    h.line("bad_draw", before)


def hung_dead_malformed(h, now):
    before = dict(h.service.counts)
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
    h.join(3, 0)
    h.join(4, child)
    live = h.join(5, os.getpid())
    box = h.client.client_blocks(5).mailbox()
    asked = (box.request_seq() + 1) & 0xFFFFFFFF
    box.set_request_len(100000)
    box.set_request_seq(asked)
    h.service.turn(now)
    check(h.state(4) == B.ClientState.FREE and h.state(3) == B.ClientState.ACTIVE, "the dead row freed")
    check(box.response_seq() == asked and box.status() == 7, "the malformed request answered")
    live.heartbeat(now + 2000000000)
    h.service.turn(now + 2000000000)
    check(h.state(3) == B.ClientState.FREE and h.state(5) == B.ClientState.ACTIVE, "the hung row freed")
    h.line("hung_dead_malformed", before)


def alone(h, now):
    """Each step alone, in the turn's order, on row 6; then the reload frees rows 5 and 6."""
    before = dict(h.service.counts)
    a = h.join(6, os.getpid())
    B.Mailbox(h.client.client_blocks(6).mailbox(), a).request(b"x")
    B.LogQueue(h.client.client_blocks(6).log_queue(), a).push(B.LogEntry(), "t", "line")
    h.publish(a, 6, 1)
    s = h.service
    check(s.serve_row(6) == s.KEEP, "served")
    s.drain_row(6)
    check(s.take_row(6) == s.KEEP, "taken")
    check(s.row_done(6, now) == s.KEEP, "in use")
    a.close()
    check(s.row_done(6, now) == s.FREED_CLOSING, "closing")
    s.free_row(6, s.FREED_CLOSING)
    h.join(6, os.getpid())
    s.reload()
    check(h.state(5) == B.ClientState.FREE and h.state(6) == B.ClientState.FREE, "the reload freed rows 5 and 6")
    h.line("alone", before)


def main():
    h = Host()
    good(h, 1000)
    hostile_seq(h, 2000)
    bad_draw(h, 3000)
    hung_dead_malformed(h, 4000)
    alone(h, 5000)
    h.client.release()
    h.host.release()


main()
