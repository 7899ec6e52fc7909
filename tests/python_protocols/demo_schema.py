"""The protocol classes of the module generated from tests/fixtures/protocols/demo.toml (a
schema with every protocol kind and nothing of the bridge): demo.py, with the module on
PYTHONPATH. Each class is made over a view of a bytearray laid out here by hand (the demo
has no layout table), and each side's operations run once; prints `ok`.
"""

import demo as D


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def queue():
    buf = bytearray(32 + 128)
    view = D.LiveQueueHeader(buf, 0, len(buf))
    view.set_capacity(128)
    q = D.Log(view)
    e = D.Entry()
    check(not q.push(e, "src", "hello"), "pushed")
    got = q.pop()
    check(got.source == b"src" and got.text == b"hello" and got.head.size == 24, "popped %r" % got)
    drops = sum(q.push(D.Entry(), "s", "x" * 40) for _ in range(4))
    # 64 bytes fit at 24..88; the next needs 40 bytes of padding first: 104 > the 64 free.
    check(drops == 3 and q.dropped() == 3, "one of 64 bytes fits after the first")


def ring():
    buf = bytearray(32 + 128)
    view = D.LiveRingHeader(buf, 0, len(buf))
    view.set_capacity(128)
    writer = D.News(view)
    for k in range(5):
        check(writer.push(D.Entry(), str(k)) == k, "seq %d" % k)
    reader = D.News(view)
    first = reader.read_next()
    check(first is D.EMPTY, "joined at the newest")
    reader.join_oldest()
    got = reader.read_next()
    check(isinstance(got, D.NewsEntry) and got.text == str(got.head.seq).encode(), "%r" % got)
    for k in range(20):
        writer.push(D.Entry(), str(k))
    check(isinstance(reader.read_next(), D.Lapped), "lapped")


def mailbox():
    buf = bytearray(32 + 16 + 8)
    view = D.LiveMailboxHeader(buf, 0, len(buf))
    view.set_request_capacity(16)
    view.set_response_capacity(8)
    box = D.Commands(view)
    seq = box.request("hi")
    box.serve(lambda text: (D.Status.FAILED, text * 5))
    got = box.poll_response(seq)
    check(got.status == D.Status.FAILED and got.text == b"hihihihi" and got.cut and got.total == 10, "%r" % got)


def draw():
    size = 16 + 4 * 8 + 16
    buf = bytearray(24 + 3 * size)
    view = D.LiveDrawHeader(buf, 0, len(buf))
    view.set_buffers(3)
    view.set_buffer_size(size)
    view.set_max_items(4)
    view.set_max_payload(16)
    view.set_state(D.Draw.INITIAL_STATE)
    lists = D.Draw(view)
    item = D.Item()
    item.x = 1.5
    check(all(lists.add(item, b"ab") for _ in range(4)) and not lists.add(item), "four fit")
    lists.publish()
    got = lists.take()
    check(len(got.items) == 4 and got.items[3].x == 1.5 and got.payload == b"ab" * 4, "taken")
    check(got.head.flags & D.ListFlags.OVERFLOW and got.head.dropped == 1, "overflow")


def session():
    buf = bytearray(D.LiveHeader.SIZE)
    header = D.LiveHeader(buf)
    header.compare_exchange_owners((0, 0, 0, 0), (D.UNBOUND,) * 4)
    c = D.Client.claim(header, 2, header.host_generation())
    check(c is not None and c.activate() and c.standing() == D.Standing.CONNECTED, "claimed")
    check(c.bind_pad(1) and D.Client.pad_owner(header, 1) == 2, "bound")
    D.Client.reload(header)
    check(c.standing() == D.Standing.RELOADED, "reloaded")
    c = D.Client.claim(header, 2, header.host_generation())
    c.activate()
    check(c.close() and D.Client.row_state(header, 2)[0] == D.RowState.CLOSING, "closed")


queue()
ring()
mailbox()
draw()
session()
print("ok")
