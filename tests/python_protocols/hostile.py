"""The Python protocol readers against a hostile peer (tests/python_protocols.rs stores random
words into the regions meanwhile): hostile.py PATH MILLIS.

Each reader (the queue's pop, the ring's read_next, the mailbox's poll_response and serve,
the draw lists' take and publish) runs over client row 0's regions for MILLIS / 6 ms, once
PATH.ready says it attached (the writers start then). Every
call must return one of the reader's valid outcomes or raise ProtocolError; anything else
(another exception, a result of the wrong kind, an entry bigger than its area) fails the
run with exit 1. One line per reader: `reader NAME calls=N errors=E <outcome>=n ... <check>=n`.
"""

import mmap
import os
import sys
import time
import traceback

import bridge as B


def fail(message):
    print("hostile.py: %s" % message, file=sys.stderr, flush=True)
    sys.exit(1)


def run(name, make, call, valid, millis):
    counts = {"calls": 0, "errors": 0}
    until = time.monotonic() + millis / 1000
    target = None
    while time.monotonic() < until:
        counts["calls"] += 1
        try:
            if target is None:
                target = make()
            outcome = valid(call(target))
        except B.ProtocolError as e:
            counts["errors"] += 1
            if e.check not in counts:
                print("first %s: %s" % (name, e), flush=True)
            counts[e.check] = counts.get(e.check, 0) + 1
            if e.check.endswith("_capacity"):
                target = None
            continue
        except Exception:
            fail("%s: not a named error:\n%s" % (name, traceback.format_exc()))
        counts[outcome] = counts.get(outcome, 0) + 1
    words = " ".join("%s=%d" % kv for kv in counts.items())
    print("reader %s %s" % (name, words), flush=True)


def main():
    path, millis = sys.argv[1], int(sys.argv[2]) // 6
    fd = os.open(path, os.O_RDWR)
    try:
        buf = mmap.mmap(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
    h = B.attach(buf)
    block, bot = h.client_blocks(0), h.bot_blocks(0)
    queue_view, ring_view, mailbox_view, draw_view = block.log_queue(), h.log_ring(), block.mailbox(), bot.draw()
    queue_area, ring_area = queue_view._length - 64, ring_view._length - 64
    # Attached: the hostile writers may start (they wait for this file).
    with open(path + ".ready", "w"):
        pass

    def entry(found, area, cls):
        if found is None or found is B.EMPTY:
            return "empty"
        if isinstance(found, B.Lapped):
            if not isinstance(found.missed, int) or found.missed < 0:
                fail("a lap of %r" % found.missed)
            return "lapped"
        if not isinstance(found, cls):
            fail("not an entry: %r" % (found,))
        if 40 + len(found.source) + len(found.text) > min(found.head.size, area):
            fail("an entry past its size: %r" % found)
        return "entry"

    run("queue_pop", lambda: B.LogQueue.unscoped(queue_view), lambda q: q.pop(),
        lambda f: entry(f, queue_area, B.LogQueueEntry), millis)
    run("ring_read_next", lambda: B.LogRing(ring_view), lambda r: r.read_next(),
        lambda f: entry(f, ring_area, B.LogRingEntry), millis)

    def answer(found):
        if found is None:
            return "none"
        if not isinstance(found, B.MailboxResponse) or len(found.text) > 4096:
            fail("not an answer: %r" % (found,))
        return "answer"

    # The answer to whatever response_seq says: its lengths are read and checked.
    run("mailbox_poll_response", lambda: B.Mailbox.unscoped(mailbox_view), lambda m: m.poll_response(m.view.response_seq()),
        answer, millis)
    run("mailbox_serve", lambda: B.Mailbox.unscoped(mailbox_view), lambda m: m.serve(lambda t: (0, t)),
        lambda n: "none" if n is None else "served", millis)

    def taken(found):
        if found is None:
            return "none"
        if not isinstance(found, B.DrawList) or len(found.items) > B.DRAW_MAX_COMMANDS:
            fail("not a list: %r" % (found,))
        return "taken"

    run("draw_take", lambda: B.Draw.unscoped(draw_view), lambda d: d.take(), taken, millis)

    def publish(d):
        d.begin()
        d.add(B.DrawCmd(), b"12345678")
        return d.publish()

    run("draw_publish", lambda: B.Draw.unscoped(draw_view), publish,
        lambda overwrote: "overwrote" if overwrote else "published", millis)
    h.release()


if __name__ == "__main__":
    main()
