"""The bot tests/host_cpp.rs races against the C++ host (examples/host_cpp/host.cpp):
bot.py PATH ROW.

With the generated module only, it first sends its row's mailbox a malformed request (a
request_len past the request area, written as a broken client would) and prints
`malformed STATUS` once the host answered it; then it claims the row, binds pad 0, activates
and prints `active`, and heartbeats until it is killed (SIGKILL, by the test): the host must
find the row hung, free it and let the pad go. Exit 1 with a message on stderr otherwise.
"""

import mmap
import os
import sys
import time

import bridge


def fail(message):
    print("bot.py: %s" % message, file=sys.stderr, flush=True)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        fail("usage: bot.py PATH ROW")
    path, row = sys.argv[1], int(sys.argv[2])
    fd = os.open(path, os.O_RDWR)
    try:
        buf = mmap.mmap(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
    attached = bridge.attach(buf)
    box = attached.client_blocks(row).mailbox()
    seq = (box.request_seq() + 1) & 0xFFFFFFFF
    box.set_request_len(0xFFFFFFFF)
    box.set_request_seq(seq)
    deadline = time.monotonic() + 5
    while box.response_seq() != seq:
        if time.monotonic() > deadline:
            fail("the malformed request was not answered in 5 s")
        time.sleep(0.001)
    print("malformed %d" % box.status(), flush=True)
    announced = False
    while True:
        session = None
        deadline = time.monotonic() + 5
        while session is None:
            if time.monotonic() > deadline:
                fail("row %d not claimed in 5 s" % row)
            try:
                session = bridge.Client.claim(attached.header(), row, attached.generation)
            except bridge.ProtocolError as e:
                if e.check != "session_reloaded":
                    raise
                attached = bridge.attach(buf)
            if session is None:
                time.sleep(0.001)
        session.row.set_pid(os.getpid())
        session.row.set_name("host-cpp-bot-%d" % row)
        session.heartbeat()
        if not session.bind_pad(0):
            fail("pad 0 not bound")
        session.activate()
        if not announced:
            print("active", flush=True)
            announced = True
        while session.standing() == bridge.Standing.CONNECTED:
            session.heartbeat()
            time.sleep(0.01)


if __name__ == "__main__":
    main()
