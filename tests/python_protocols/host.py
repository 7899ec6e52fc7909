"""The host's side of every protocol in Python, against clients played by Rust threads over
the same mapped file (tests/python_protocols.rs): host.py PATH MILLIS.

For MILLIS ms, and after that until client row 0's log queue gave `end`: pops the queue
(every 4th turn, so that the writer fills it: text decimal k strictly increasing, source
`rust`), writes a log-ring entry per turn (text = its seq), serves the mailbox (`req k` ->
status ok, `ans k` and k % 50 `x`), takes the fresh draw list (seq past the last, 1 + seq % 7
items of colour seq, each with 8 payload bytes holding seq), and every 20 ms frees row 0 or
reloads, alternately, when the row is active with a generation it has not acted on. Prints
`host received corrupt ring served taken stale last frees reloads`.
"""

import mmap
import os
import sys
import time

import bridge as B


def main():
    path, millis = sys.argv[1], int(sys.argv[2])
    fd = os.open(path, os.O_RDWR)
    try:
        buf = mmap.mmap(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
    h = B.attach(buf)
    block, bot, header = h.client_blocks(0), h.bot_blocks(0), h.header()
    queue, ring = B.LogQueue.unscoped(block.log_queue()), B.LogRing(h.log_ring())
    box, lists = B.Mailbox.unscoped(block.mailbox()), B.Draw.unscoped(bot.draw())
    with open(path + ".ready", "w"):
        pass
    received = corrupt = written = served = taken = stale = frees = reloads = 0
    last_k = last_seq = -1
    got_end = False
    acted, next_reload, last_action = None, False, time.monotonic()

    def answer(text):
        k = int(text.decode().removeprefix("req "))
        return B.CommandStatus.OK, ("ans %d" % k).encode() + b"x" * (k % 50)

    until = time.monotonic() + millis / 1000
    turn = 0
    while time.monotonic() < until or not got_end:
        turn += 1
        if turn % 4 == 0 and not got_end:
            e = queue.pop()
            if e is not None:
                if e.text == b"end":
                    got_end = True
                elif e.source == b"rust" and e.text.isdigit() and int(e.text) > last_k:
                    last_k = int(e.text)
                    received += 1
                else:
                    corrupt += 1
        ring.push(B.LogEntry(), b"", str(ring.view.entries()))
        written += 1
        if box.serve(answer) is not None:
            served += 1
        got = lists.take()
        if got is not None:
            taken += 1
            seq = got.head.for_tick
            whole = seq > last_seq and len(got.items) == 1 + seq % 7
            for item in got.items if whole else ():
                at = item.payload_off
                whole = whole and item.color == seq & 0xFFFFFFFF and got.payload[at : at + 8] == seq.to_bytes(8, "little")
            if whole:
                last_seq = seq
            else:
                stale += 1
        if time.monotonic() < until and time.monotonic() - last_action > 0.02:
            last_action = time.monotonic()
            state, generation = B.Client.row_state(header, 0)
            if state == B.ClientState.ACTIVE and generation != acted:
                if next_reload:
                    # A reload frees every active row: here, the one row.
                    header.set_host_generation(header.host_generation() + 1)
                # One compare-and-swap of the row's (state, generation) word, its one access
                # size: active to free, the generation kept.
                at = header.clients(0)._base
                ok, _ = B.atomic_compare_exchange(
                    buf, at, 8, int(B.ClientState.ACTIVE) | generation << 32, int(B.ClientState.FREE) | generation << 32
                )
                if ok:
                    acted = generation
                    reloads += next_reload
                    frees += not next_reload
                    next_reload = not next_reload
    print("host %d %d %d %d %d %d %d %d %d" % (received, corrupt, written, served, taken, stale, last_seq, frees, reloads))
    h.release()


if __name__ == "__main__":
    main()
