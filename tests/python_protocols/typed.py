"""A bot on the protocol API, typed: tests/python_protocols.rs checks it with mypy --strict
against the stub (generated/bridge.pyi), so each signature the stub gives is one a bot can
use as documented. It is not run."""

import mmap

import bridge


def bot(buf: mmap.mmap, row: int) -> tuple[int, bool, bytes, int]:
    b = bridge.attach(buf)
    block = b.client_blocks(row)
    bot_block = b.bot_blocks(row)
    ring_view = b.log_ring()
    assert block is not None and bot_block is not None and ring_view is not None
    queue_view, mailbox_view, draw_view = block.log_queue(), block.mailbox(), bot_block.draw()
    assert queue_view is not None and mailbox_view is not None and draw_view is not None
    session = bridge.Client.claim(b.header(), row, b.generation)
    if session is None:
        raise RuntimeError("row taken")
    session.row.set_name("typed")
    connected: bool = session.activate()
    session.heartbeat()
    standing: bridge.Standing = session.standing()
    head = bridge.LogEntry()
    head.level = bridge.LogLevel.INFO
    dropped: bool = bridge.LogQueue.unscoped(queue_view).push(head, "bot", "hello")
    found = bridge.LogRing(ring_view).read_next()
    if isinstance(found, bridge.Lapped):
        missed: int = found.missed
    elif isinstance(found, bridge.LogRingEntry):
        text: bytes = found.text
    mailbox = bridge.Mailbox.unscoped(mailbox_view)
    mailbox.request("sim.pause")
    answer = mailbox.wait_response(1.0)
    status = bridge.CommandStatus(0) if answer is None else answer.status
    lists = bridge.Draw.unscoped(draw_view)
    lists.begin()
    cmd = bridge.DrawCmd()
    cmd.payload_off = lists.payload_len
    added: bool = lists.add(cmd, b"payload!")
    overwrote: bool = lists.publish()
    taken = lists.take()
    items = [] if taken is None else taken.items
    served = mailbox.serve(lambda request: (0, request))
    closed = session.close() and connected and standing == bridge.Standing.CONNECTED
    try:
        bridge.LogQueue.unscoped(queue_view).pop()
    except bridge.ProtocolError as e:
        check: str = e.check
    return (len(items) + int(status), closed and added and not overwrote and not dropped, answer.text if answer else b"", served or 0)
