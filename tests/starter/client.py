"""The starter's Python client (tests/starter_protocols.rs): attaches, copies the state
under its seqlock, reads the events ring, logs an entry, asks the mailbox and waits for the
answer, and claims, activates and closes a session row."""

import mmap
import sys

import starter

with open(sys.argv[1], "r+b") as f:
    buf = mmap.mmap(f.fileno(), 0)
image = starter.attach(buf)
state = image.state().read_state_lock()
print("state", state.mode, state.tick)
events = image.events()
total = events.total()
print("events", total, [events.entries()[i] for i in range(total)])
queue = starter.LogQueue(image.log_queue())
assert queue.push(starter.LogEntry(), "python", "hello") is False
mailbox = starter.Commands(image.mailbox())
mailbox.request("py")
answer = mailbox.wait_response(10)
assert answer is not None
print("answer", answer.status.name, answer.text.decode())
sessions = image.sessions()
session = starter.Client.claim(sessions, 0, sessions.host_generation())
assert session is not None
print("claimed", session.activate(), session.close())
del queue, mailbox, session, events, sessions
image.release()
buf.close()
