"""Issue 46 through the generated module (tests/python_protocols.rs runs it: sessions.py
MODULE_DIR): item 1, a claim made on the old image never moves the newcomer's row after a
re-layout, with the same and with a new geometry (produce carries the rows' generations past
the mapping's; each move checks the host's generation first, which alone refuses B when the
producer carried nothing); item 4, heartbeat() stores only while the claim stands and returns
the standing; and the reload policy, a reload whose free of row 1 a peer contends (the
module's _cas_hook) tries every row, then raises ContendedError naming the rows it freed and
the row it could not. Prints one line per part, then `ok`; any failed check raises."""

import bridge as B

FIRST = {"mailbox.request_capacity": 256, "mailbox.response_capacity": 256}
SECOND = {"mailbox.request_capacity": 512, "mailbox.response_capacity": 128}


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def produce_without_carrying(buf, img):
    """A producer that carries no row generations (a plain copy, the host generation past the
    old one, the state running), as a hand-written or older one may."""
    old = int.from_bytes(bytes(buf[20:24]), "little")
    buf[: len(img)] = img
    buf[20:24] = ((old + 1) & 0xFFFFFFFF).to_bytes(4, "little")
    buf[24:28] = (1).to_bytes(4, "little")


def row_word(hd, index):
    state, generation = B.Client.row_state(hd, index)
    return int(state), generation


def stale(geometry, carry):
    first, second = B.lay_out(FIRST, 1), B.lay_out(geometry, 1)
    buf = bytearray(max(len(first), len(second)))
    if carry:
        B.produce(buf, first).release()
    else:
        produce_without_carrying(buf, first)
    old = B.attach(buf)
    b = B.Client.claim(old.header(), 0, old.generation)
    check(b is not None, "B claims row 0")
    if carry:
        B.produce(buf, second).release()
    else:
        produce_without_carrying(buf, second)
    new = B.attach(buf)
    check(new.generation != old.generation, "a reload")
    hd = new.header()
    a = B.Client.claim(hd, 0, new.generation)
    check(a is not None, "A claims row 0")
    if carry:
        check(a.generation > b.generation, "past the old image's: A %d, B %d" % (a.generation, b.generation))
    else:
        check(a.generation == b.generation, "the same generation again")
    word = row_word(hd, 0)
    check(not b.activate(), "B's activate refused")
    check(row_word(hd, 0) == word, "B's activate moved A's row: %r -> %r" % (word, row_word(hd, 0)))
    check(a.activate(), "A activates")
    word = row_word(hd, 0)
    check(not b.close(), "B's close refused")
    check(row_word(hd, 0) == word, "B's close moved A's row: %r -> %r" % (word, row_word(hd, 0)))
    check(a.standing() == B.Standing.CONNECTED, "A still connected")
    # Item 4: B's heartbeat stores nothing and says why; A's stores.
    check(a.heartbeat(111) == B.Standing.CONNECTED and a.row.heartbeat_ns() == 111, "A's beat")
    check(b.heartbeat(123456789) == B.Standing.RELOADED, "B's standing")
    check(a.row.heartbeat_ns() == 111, "B's heartbeat overwrote A's")
    old.release()
    new.release()
    return a.generation, b.generation


def contended_reload():
    img = B.lay_out(FIRST, 1)
    buf = bytearray(len(img))
    h = B.produce(buf, img)
    hd = h.header()
    for i in range(3):
        s = B.Client.claim(hd, i, h.generation)
        check(s is not None and s.activate(), "row %d in use" % i)
    target = B.Client._row_base(hd, 1)
    calls = [0]

    def peer(mem, offset):
        # Flips the top bit of row 1's word whenever a loop is about to exchange it.
        if offset == target:
            calls[0] += 1
            word = B._load(mem, offset, 8)
            B._store(mem, offset, 8, word ^ (1 << 63))

    B._cas_hook = peer
    try:
        B.Client.reload(h)
        raise AssertionError("no ContendedError")
    except B.ContendedError as e:
        error = e
    finally:
        B._cas_hook = None
    check(calls[0] == B._cas_tries, "%d tries" % calls[0])
    check(error.generation == h.generation + 1, "the new generation")
    check(error.freed == (0, 2) and error.contended == (1,), "%r %r" % (error.freed, error.contended))
    states = [B.Client.row_state(hd, i)[0] for i in range(4)]
    check(states == [B.ClientState.FREE, B.ClientState.ACTIVE, B.ClientState.FREE, B.ClientState.FREE], repr(states))
    check(B.Client.free(h, 1) == B.ClientState.ACTIVE, "a later free goes on")
    h.release()
    return error.freed, error.contended


def vandal():
    """Issue 46 item 5: a client zeroes the host's words of its blocks (both block tables, the
    queue's capacity, the mailbox's capacities, the draw geometry). The mapping's readers refuse
    them; the host's own handle (produce's) places its blocks and reads its geometry as it laid
    them out; its free puts every one of those bytes back as the image has them."""
    img = B.lay_out(FIRST, 1)
    buf = bytearray(len(img))
    h = B.produce(buf, img)
    c = B.attach(buf)
    claim = B.Client.claim(c.header(), 0, c.generation)
    check(claim is not None, "the vandal claims row 0")
    cb, bb = c.client_blocks(0), c.bot_blocks(0)
    queue_view, mailbox_view = cb.log_queue(), cb.mailbox()
    q_at, m_at, d_at = cb.region("log_queue")[0], cb.region("mailbox")[0], bb.region("draw")[0]
    # client_block_header: 72 bytes (bridge-abi-0.9-reference.txt); the capacity at 16 of the
    # queue's header, both capacities at 24 of the mailbox's, the geometry at 4 of the draw's.
    zeroed = [(cb.offset, 72), (bb.offset, 72), (q_at + 16, 4), (m_at + 24, 8), (d_at + 4, 16)]
    for at, n in zeroed:
        buf[at : at + n] = bytes(n)
    for make, what in ((B.LogQueue, queue_view), (B.Mailbox, mailbox_view)):
        try:
            make(what)
            raise AssertionError("the mapping's zeroed geometry was taken")
        except B.ProtocolError:
            pass
    queue = B.LogQueue(h.client_blocks(0).log_queue())
    check(queue.capacity == int.from_bytes(img[q_at + 16 : q_at + 20], "little"), "the host's capacity")
    check(queue.pop() is None, "the host drains an empty queue")
    check(B.Mailbox(h.client_blocks(0).mailbox()).serve(lambda r: (0, b"")) is None, "nothing to serve")
    check(B.Draw(h.bot_blocks(0).draw()).take() is None, "nothing to take")
    check(B.Client.free(h, 0) == B.ClientState.CLAIMED, "the vandal's row freed")
    restored = sum(buf[at : at + n] == img[at : at + n] for at, n in zeroed)
    check(restored == len(zeroed), "%d of %d restored" % (restored, len(zeroed)))
    check(B.LogQueue(c.client_blocks(0).log_queue()).capacity == queue.capacity, "the next client's")
    c.release()
    h.release()
    return restored


def main():
    for geometry in (FIRST, SECOND):
        for carry in (True, False):
            a, b = stale(geometry, carry)
            print("stale carry=%d a=%d b=%d" % (carry, a, b))
    freed, contended = contended_reload()
    print("contended reload freed=%s contended=%s" % (list(freed), list(contended)))
    print("vandal restored=%d" % vandal())
    print("ok")


if __name__ == "__main__":
    main()
