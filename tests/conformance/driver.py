#!/usr/bin/env python3
"""The Python driver of the bridge's conformance suite: runs tests/conformance/README.md's step language over the generated bridge.py.

Usage: python3 -B -W error tests/conformance/driver.py INPUT_FILE (PYTHONPATH holding the
generated bridge.py; INPUT_FILE "-" or none reads standard input). For each `scenario NAME`
line it prints `scenario NAME` and starts over (a fresh zeroed 4 MiB anonymous mapping, no
actors), prints one answer line per step line, and `end` at the scenario's `end`.

Only bridge.py's public API is used. Each op is one small function, so that a change of the
API (a heartbeat that returns the standing, writers the claim hands out) changes one place.
Results map to the README's canonical answers: a standing's name in snake case, a refusal as
`error:<name>` (ProtocolError.check, AttachError.check, ProduceError.kind), a step the driver
cannot run as `error:driver:<why>`. A step never stops the driver.
"""

from __future__ import annotations

import mmap
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TextIO

import bridge

MAPPING_SIZE = 4 * 1024 * 1024

# A writer bound to a claim (Client.scoped) refuses with these once the row is no longer the
# claim's: the answer is the standing they name.
SESSION_REFUSALS = {
    "session_disconnected": bridge.Standing.DISCONNECTED,
    "session_reloaded": bridge.Standing.RELOADED,
    "session_host_exiting": bridge.Standing.HOST_EXITING,
}

# A draw list's items are added one by one: a count past this is a malformed step, not a
# scenario (the lists hold at most a few thousand).
MOST_ITEMS = 1 << 20


class DriverError(Exception):
    """A step the driver cannot run (malformed, out of order): answered error:driver:<why>."""


class Lost(Exception):
    """The claim no longer stands: answered with the standing it names."""

    def __init__(self, standing: bridge.Standing) -> None:
        super().__init__(standing_name(standing))
        self.standing = standing


class Absent(Exception):
    """A region or block the handle says is absent: answered error:absent."""


def standing_name(standing: bridge.Standing) -> str:
    """connected, disconnected, reloaded, host_exiting."""
    return standing.name.lower()


def refusal(error: Exception) -> str:
    """The canonical answer of an error the bridge raised."""
    if isinstance(error, bridge.ProtocolError):
        lost = SESSION_REFUSALS.get(error.check)
        return standing_name(lost) if lost is not None else "error:" + error.check
    if isinstance(error, bridge.AttachError):
        return "error:" + error.check
    if isinstance(error, bridge.ProduceError):
        return "error:" + error.kind
    if isinstance(error, (bridge.ContendedError, bridge.SeqlockContendedError)):
        return "error:contended"
    if isinstance(error, Absent):
        return "error:absent"
    if isinstance(error, Lost):
        return standing_name(error.standing)
    if isinstance(error, DriverError):
        return "error:driver:" + str(error)
    return "error:driver:%s: %s" % (type(error).__name__, error)


def text_of(data: bytes) -> str:
    """Bytes the bridge handed back, as answer text."""
    return data.decode("utf-8", "backslashreplace")


def number(word: str, what: str, bits: int | None = None) -> int:
    """A decimal argument (below 2**bits when given)."""
    if not word.isdigit() or not word.isascii():
        raise DriverError("%s %r is not a decimal number" % (what, word))
    value = int(word)
    if bits is not None and value >> bits:
        raise DriverError("%s %d does not fit %d bits" % (what, value, bits))
    return value


# ---- actors -------------------------------------------------------------------------------


@dataclass
class Host:
    """The host: the handle its produce returned and its per-row readers, made at first use."""

    handle: bridge.Bridge | None = None
    draws: dict[int, bridge.Draw] = field(default_factory=dict)
    queues: dict[int, bridge.LogQueue] = field(default_factory=dict)
    servers: dict[int, bridge.Mailbox] = field(default_factory=dict)
    # Lockstep's misses per row, kept across the host's waits.
    misses: list[int] = field(default_factory=lambda: [0] * bridge.Client.ROWS)
    # The service turn's state, made at the first service_turn after a produce.
    service: bridge.HostService | None = None

    def forget(self, row: int | None = None) -> None:
        """Forgets the readers of row, or of every row."""
        for readers in (self.draws, self.queues, self.servers):
            if row is None:
                readers.clear()
            else:
                readers.pop(row, None)

    def own(self) -> bridge.Bridge:
        if self.handle is None:
            raise DriverError("the host has produced no image")
        return self.handle


@dataclass
class Actor:
    """A client: its attached handle, its claim and the writers it took after the claim."""

    handle: bridge.Bridge | None = None
    claim: bridge.Client | None = None
    queue: bridge.LogQueue | None = None
    draw: bridge.Draw | None = None
    mailbox: bridge.Mailbox | None = None
    pad: bridge.LivePadInput | None = None

    def drop_writers(self) -> None:
        self.queue = self.draw = self.mailbox = None
        self.pad = None

    def attached(self) -> bridge.Bridge:
        if self.handle is None:
            raise DriverError("not attached")
        return self.handle

    def claimed(self) -> bridge.Client:
        if self.claim is None:
            raise DriverError("no claim")
        return self.claim


@dataclass
class Scenario:
    """One scenario's mapping (4 MiB, zeroed, page-aligned) and actors."""

    mapping: mmap.mmap = field(default_factory=lambda: mmap.mmap(-1, MAPPING_SIZE))
    host: Host = field(default_factory=Host)
    clients: dict[str, Actor] = field(default_factory=dict)
    # Each actor locates a place once, at its first raw op there, and keeps it: a vandal
    # computes its pointers once, and its own damage does not move them.
    places: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)

    def client(self, name: str) -> Actor:
        return self.clients.setdefault(name, Actor())


# ---- blocks and their protocols -----------------------------------------------------------


def client_block(handle: bridge.Bridge, row: int) -> bridge.ClientBlock:
    """Block row of client_blocks, checked now (AttachError), or Absent."""
    block = handle.client_blocks(row)
    if block is None:
        raise Absent()
    return block


def bot_block(handle: bridge.Bridge, row: int) -> bridge.BotBlock:
    """Block row of bot_blocks, checked now (AttachError), or Absent."""
    block = handle.bot_blocks(row)
    if block is None:
        raise Absent()
    return block


def log_queue(handle: bridge.Bridge, row: int, claim: bridge.Client | None = None) -> bridge.LogQueue:
    """The host's reader (no claim), or the default writer, bound to the claim by the
    generated code (issue 46 item 3)."""
    view = client_block(handle, row).log_queue()
    if view is None:
        raise Absent()
    return bridge.LogQueue(view, claim)


def mailbox(handle: bridge.Bridge, row: int, claim: bridge.Client | None = None) -> bridge.Mailbox:
    """The host's reader (no claim), or the default writer, bound to the claim by the
    generated code (issue 46 item 3)."""
    view = client_block(handle, row).mailbox()
    if view is None:
        raise Absent()
    return bridge.Mailbox(view, claim)


def draw(handle: bridge.Bridge, row: int, claim: bridge.Client | None = None) -> bridge.Draw:
    """The host's reader (no claim), or the default writer, bound to the claim by the
    generated code (issue 46 item 3)."""
    view = bot_block(handle, row).draw()
    if view is None:
        raise Absent()
    return bridge.Draw(view, claim)


# ---- host ops -----------------------------------------------------------------------------


def host_produce(scn: Scenario, args: list[str]) -> str:
    geometry: dict[str, int] = {}
    for arg in args:
        name, eq, value = arg.partition("=")
        if not eq or not name:
            raise DriverError("geometry %r is not NAME=VALUE" % arg)
        geometry[name] = number(value, name)
    image = bridge.lay_out(geometry, generation=1)
    scn.host.handle = bridge.produce(scn.mapping, image)
    scn.host.forget()
    scn.host.service = None
    return "ok"


SERVICE_COUNTS = ("served", "malformed", "drained", "taken", "closing", "hung", "dead", "policy", "errors")


def service_answer(row: int, text: bytes | None) -> tuple[int, bytes]:
    """A request T answered 1 with re:T, a malformed one 7 with malformed."""
    return (7, b"malformed") if text is None else (1, b"re:" + bytes(text))


def service_probe(pid: int) -> tuple[int, int]:
    """The stub: pid 4000000000 is gone, every other runs, created at time 1."""
    return (bridge.PROCESS_GONE, 0) if pid == 4000000000 else (bridge.PROCESS_RUNNING, 1)


def host_service_turn(scn: Scenario, now_ns: int) -> str:
    """One HostService turn at now_ns: that turn's counts."""
    if scn.host.service is None:
        scn.host.service = bridge.HostService(scn.host.own(), answer=service_answer, probe=service_probe)
    service = scn.host.service
    for name in service.counts:
        service.counts[name] = 0
    counts = service.turn(now_ns)
    return " ".join("%s=%d" % (name, counts[name]) for name in SERVICE_COUNTS)


def host_free(scn: Scenario, row: int) -> str:
    try:
        old = bridge.Client.free(scn.host.own(), row)
    except IndexError:
        return "no_row"
    scn.host.forget(row)
    return state_name(old)


def host_reload(scn: Scenario) -> str:
    bridge.Client.reload(scn.host.own())
    scn.host.forget()
    return "ok"


def host_exit(scn: Scenario) -> str:
    bridge.Client.exit(scn.host.own())
    return "ok"


def state_name(state: int) -> str:
    """free, claimed, active, closing; a value the schema does not name as its number."""
    name = bridge.ClientState(state).name
    return name.lower() if name else str(state)


def host_row(scn: Scenario, row: int) -> str:
    header = scn.host.own().header()
    try:
        state, generation = bridge.Client.row_state(header, row)
    except IndexError:
        return "no_row"
    beat = header.clients(row).heartbeat_ns()
    return "state=%s gen=%d beat=%d" % (state_name(state), generation, beat)


def host_pad(scn: Scenario, pad: int) -> str:
    try:
        owner = bridge.Client.pad_owner(scn.host.own().header(), pad)
    except IndexError:
        return "no_pad"
    return "none" if owner is None else str(owner)


def host_take(scn: Scenario, row: int) -> str:
    host = scn.host
    reader = host.draws.get(row)
    if reader is None:
        reader = host.draws[row] = draw(host.own(), row)
    taken = reader.take()
    return "none" if taken is None else "list:%d" % len(taken.items)


def host_drain(scn: Scenario, row: int) -> str:
    host = scn.host
    reader = host.queues.get(row)
    if reader is None:
        reader = host.queues[row] = log_queue(host.own(), row)
    texts: list[str] = []
    try:
        # Each pop consumes an entry of at least 8 bytes: bounded by the capacity.
        for _ in range(reader.capacity // 8 + 1):
            entry = reader.pop()
            if entry is None:
                break
            texts.append(text_of(entry.text))
    except bridge.ProtocolError as error:
        if not texts:
            raise
        return "entries:%s;%s" % (",".join(texts), refusal(error))
    return "entries:" + ",".join(texts) if texts else "empty"


def host_serve(scn: Scenario, row: int, answer: str) -> str:
    host = scn.host
    server = host.servers.get(row)
    if server is None:
        server = host.servers[row] = mailbox(host.own(), row)
    requests: list[bytes] = []

    def reply(request: bytes) -> tuple[int, bytes | str]:
        requests.append(request)
        return int(bridge.CommandStatus.OK), answer

    if server.serve(reply) is None:
        return "none"
    return "served:" + text_of(requests[0])


# ---- client ops ---------------------------------------------------------------------------


def client_attach(actor: Actor, scn: Scenario) -> str:
    actor.claim = None
    actor.drop_writers()
    actor.handle = bridge.attach(scn.mapping)
    return "ok"


def client_claim(actor: Actor, row: int) -> str:
    handle = actor.attached()
    actor.drop_writers()
    try:
        claim = bridge.Client.claim(handle.header(), row, handle.generation)
    except IndexError:
        return "no_row"
    except bridge.ProtocolError as error:
        lost = SESSION_REFUSALS.get(error.check)
        if lost is None:
            raise
        return standing_name(lost)
    if claim is None:
        return "taken"
    actor.claim = claim
    return "ok"


def client_activate(actor: Actor) -> str:
    claim = actor.claimed()
    if claim.activate():
        return "connected"
    return standing_name(claim.standing())


def client_pid(actor: Actor, pid: int) -> str:
    """Stores the row's pid, as the client's fill does."""
    if pid >> 32:
        raise DriverError("pid %d does not fit 32 bits" % pid)
    actor.claimed().row.set_pid(pid)
    return "ok"


def client_standing(actor: Actor) -> str:
    return standing_name(actor.claimed().standing())


def client_heartbeat(actor: Actor, now_ns: int) -> str:
    claim = actor.claimed()
    # Today's heartbeat returns None: the answer is the standing after it. A heartbeat that
    # returns the standing is answered with what it returns.
    beat: Callable[[int], object] = claim.heartbeat
    returned = beat(now_ns)
    if isinstance(returned, bridge.Standing):
        return standing_name(returned)
    return standing_name(claim.standing())


def client_close(actor: Actor) -> str:
    claim = actor.claimed()
    # The claim stays after a goodbye, as in every language: its standing is then disconnected.
    if claim.close():
        return "closed"
    return standing_name(claim.standing())


def client_pad(actor: Actor, pad: int, bind: bool) -> str:
    claim = actor.claimed()
    try:
        done = claim.bind_pad(pad) if bind else claim.unbind_pad(pad)
    except IndexError:
        return "no_pad"
    except bridge.ContendedError:
        return "contended"
    if done:
        return "ok"
    # False: the claim is lost, or another row holds the pad (bind) / this row does not
    # (unbind): the row that holds it.
    standing = claim.standing()
    if standing != bridge.Standing.CONNECTED:
        return standing_name(standing)
    owner = bridge.Client.pad_owner(actor.attached().header(), pad)
    return "held:" + ("none" if owner is None else str(owner))


def standing_claim(actor: Actor) -> bridge.Client:
    """The claim, while it stands (a writer is bound to its claim: the standing is checked
    before the writer is taken, as each bound write checks it)."""
    claim = actor.claimed()
    standing = claim.standing()
    if standing != bridge.Standing.CONNECTED:
        raise Lost(standing)
    return claim


def queue_writer(actor: Actor) -> bridge.LogQueue:
    """The log queue writer of the claimed row, taken at its first use and kept."""
    if actor.queue is None:
        claim = standing_claim(actor)
        actor.queue = log_queue(actor.attached(), claim.index, claim)
    return actor.queue


def draw_writer(actor: Actor) -> bridge.Draw:
    """The draw writer of the claimed row, taken at its first use and kept."""
    if actor.draw is None:
        claim = standing_claim(actor)
        actor.draw = draw(actor.attached(), claim.index, claim)
    return actor.draw


def mailbox_client(actor: Actor) -> bridge.Mailbox:
    """The mailbox client of the claimed row, taken at its first use and kept."""
    if actor.mailbox is None:
        claim = standing_claim(actor)
        actor.mailbox = mailbox(actor.attached(), claim.index, claim)
    return actor.mailbox


def client_pad_input(actor: Actor, tick: int, answer: bool = False) -> str:
    """Writes the row's pad input with for_tick = tick by the default write, bound to the
    claim (the view taken at its first use and kept, like the writers); with answer,
    lockstep's answer: the same write, then the input event set (Client.answer_input)."""
    if actor.pad is None:
        claim = standing_claim(actor)
        view = client_block(actor.attached(), claim.index).pad_input()
        if view is None:
            raise Absent()
        actor.pad = view
    if answer:
        actor.claimed().answer_input(actor.pad, bridge.PadInput(for_tick=tick))
    else:
        actor.pad.write_pad_input(actor.claimed(), bridge.PadInput(for_tick=tick))
    return "ok"


def client_push(actor: Actor, text: str) -> str:
    dropped = queue_writer(actor).push(bridge.LogEntry(), b"", text)
    return "dropped" if dropped else "ok"


def client_publish(actor: Actor, count: int) -> str:
    if count > MOST_ITEMS:
        raise DriverError("a list of %d items" % count)
    writer = draw_writer(actor)
    writer.begin()
    for _ in range(count):
        writer.add(bridge.DrawCmd())
    writer.publish()
    return "ok"


def client_request(actor: Actor, text: str) -> str:
    mailbox_client(actor).request(text)
    return "ok"


def client_command(actor: Actor, text: str) -> str:
    """The commands' event: the request, then the event set (Client.request_commands)."""
    actor.claimed().request_commands(mailbox_client(actor), text)
    return "ok"


def client_poll(actor: Actor) -> str:
    # A poll stores nothing: the bound mailbox does not check it; the driver answers the
    # standing of a lost claim, as every driver does.
    box = mailbox_client(actor)
    standing_claim(actor)
    response = box.poll_response()
    if response is None:
        return "none"
    return "answer:%d:%s" % (int(response.status), text_of(response.text))


# ---- raw ops ------------------------------------------------------------------------------


def own_handle(scn: Scenario, name: str) -> bridge.Bridge:
    return scn.host.own() if name == "host" else scn.client(name).attached()


def place_span(scn: Scenario, name: str, place: str) -> tuple[int, int]:
    """(offset from the mapping's start, size) of place, located at the actor's first raw op
    there and kept."""
    key = (name, place)
    if key not in scn.places:
        scn.places[key] = locate_place(scn, name, place)
    return scn.places[key]


def locate_place(scn: Scenario, name: str, place: str) -> tuple[int, int]:
    """(offset from the mapping's start, size) of place: header, SET/ROW (a block),
    SET/ROW/REGION (a region of a block, through the actor's own handle) or REGION (a region
    of the image's table)."""
    if place == "header":
        return 0, MAPPING_SIZE
    handle = own_handle(scn, name)
    parts = place.split("/")
    if len(parts) == 1:
        if place not in handle.rows:
            raise DriverError("no region %r" % place)
        span = handle.region(place)
    elif len(parts) in (2, 3):
        blocks: dict[str, Callable[[int], bridge.ClientBlock | bridge.BotBlock | None]] = {
            "client_blocks": handle.client_blocks,
            "bot_blocks": handle.bot_blocks,
        }
        if parts[0] not in blocks:
            raise DriverError("no block set %r" % parts[0])
        block = blocks[parts[0]](number(parts[1], "block"))
        if block is None:
            raise Absent()
        if len(parts) == 2:
            return block.offset, block.extent
        if parts[2] not in block.rows:
            raise DriverError("no region %r in %s" % (parts[2], parts[0]))
        span = block.region(parts[2])
    else:
        raise DriverError("place %r is not header, SET/ROW, SET/ROW/REGION or REGION" % place)
    if span is None:
        raise Absent()
    return span


def word_at(scn: Scenario, name: str, place: str, offset: int, width: int) -> int:
    """The mapping offset of a width-byte word at offset of place, inside it."""
    if width not in (1, 2, 4, 8):
        raise DriverError("width %d" % width)
    start, size = place_span(scn, name, place)
    if offset + width > size:
        raise DriverError("%d bytes at %d are past %s's %d bytes" % (width, offset, place, size))
    return start + offset


def raw_poke(scn: Scenario, name: str, place: str, offset: int, width: int, value: int) -> str:
    at = word_at(scn, name, place, offset, width)
    if value >> (8 * width):
        raise DriverError("%d does not fit %d bytes" % (value, width))
    bridge.atomic_store(scn.mapping, at, width, value)
    return "ok"


def raw_peek(scn: Scenario, name: str, place: str, offset: int, width: int) -> str:
    return str(bridge.atomic_load(scn.mapping, word_at(scn, name, place, offset, width), width))


# ---- steps --------------------------------------------------------------------------------


def host_step(scn: Scenario, op: str, args: list[str]) -> str:
    if op == "produce":
        return host_produce(scn, args)
    simple: dict[str, Callable[[], str]] = {
        "reload": lambda: host_reload(scn),
        "exit": lambda: host_exit(scn),
    }
    by_row: dict[str, Callable[[int], str]] = {
        "free": lambda row: host_free(scn, row),
        "row": lambda row: host_row(scn, row),
        "pad": lambda pad: host_pad(scn, pad),
        "take": lambda row: host_take(scn, row),
        "drain": lambda row: host_drain(scn, row),
    }
    if op in simple:
        arity(op, args, 0)
        return simple[op]()
    if op in by_row:
        arity(op, args, 1)
        return by_row[op](number(args[0], op))
    if op == "serve":
        arity(op, args, 2)
        return host_serve(scn, number(args[0], "row"), args[1])
    if op == "contend":
        arity(op, args, 1)
        return host_contend(scn, number(args[0], "row"))
    if op == "free_inside":
        arity(op, args, 1)
        return host_free_inside(scn, number(args[0], "row"))
    if op == "uncontend":
        arity(op, args, 0)
        bridge._cas_hook = None
        return "ok"
    if op == "lockstep":
        arity(op, args, 2)
        return host_lockstep(scn, number(args[0], "tick", 64), number(args[1], "timeout_ms"))
    if op == "wait_commands":
        arity(op, args, 1)
        return host_wait_commands(scn, number(args[0], "timeout_ms"))
    if op == "tick":
        arity(op, args, 1)
        header = scn.host.own().header()
        header.set_snapshot_seq(number(args[0], "tick", 64))
        return "set=%d" % bridge.Client.host_set_tick(header)
    if op == "service_turn":
        arity(op, args, 1)
        return host_service_turn(scn, number(args[0], "now_ns", 64))
    if op == "misses":
        arity(op, args, 1)
        row = number(args[0], "row")
        if not 0 <= row < bridge.Client.ROWS:
            raise DriverError("no such row")
        return str(scn.host.misses[row])
    raise DriverError("no host op %r" % op)


def rows_text(mask: int) -> str:
    """The rows of mask ("0,2"), or "-" for none."""
    rows = [str(r) for r in range(bridge.Client.ROWS) if mask >> r & 1]
    return ",".join(rows) if rows else "-"


def host_wait_commands(scn: Scenario, timeout_ms: int) -> str:
    """The commands' event: one round of the host's wait over its active rows' mailboxes, at
    most timeout_ms (Client.host_wait_commands)."""
    handle = scn.host.own()
    header = handle.header()
    views: list[bridge.LiveMailboxHeader | None] = []
    for row in range(bridge.Client.ROWS):
        block = handle.client_blocks(row)
        views.append(None if block is None else block.mailbox())
    rows = 0
    for row in range(bridge.Client.ROWS):
        if bridge.Client.row_state(header, row)[0] == bridge.ClientState.ACTIVE:
            rows |= 1 << row
    start = time.monotonic()
    found = bridge.Client.host_wait_commands(views, rows, timeout_ms / 1000)
    elapsed = (time.monotonic() - start) * 1000
    if elapsed > timeout_ms + 1000:
        waited = "late"
    elif found == 0 and elapsed + 1 < timeout_ms:
        waited = "early"
    else:
        waited = "ok"
    return "rows=%s waited=%s" % (rows_text(found), waited)


def host_lockstep(scn: Scenario, tick: int, timeout_ms: int) -> str:
    """Lockstep: the host's wait for tick's answers, at most timeout_ms (Client.host_wait_input)."""
    handle = scn.host.own()
    pads: list[bridge.LivePadInput | None] = []
    for row in range(bridge.Client.ROWS):
        block = handle.client_blocks(row)
        pads.append(None if block is None else block.pad_input())
    last: list[bridge.PadInput | None] = [None] * bridge.Client.ROWS
    bots = bridge.Client.host_lockstep_bots(handle.header())
    start = time.monotonic()
    answered, missed, _ = bridge.Client.host_wait_input(
        handle.header(), pads, tick, timeout_ms / 1000, last, scn.host.misses
    )
    elapsed = (time.monotonic() - start) * 1000
    if elapsed > timeout_ms + 1000:
        waited = "late"
    elif missed and elapsed + 1 < timeout_ms:
        waited = "early"
    else:
        waited = "ok"
    assert answered == bots & ~missed
    return "answered=%s missed=%s waited=%s" % (rows_text(answered), rows_text(missed), waited)


def host_free_inside(scn: Scenario, row: int) -> str:
    """The host frees row inside the next compare-and-swap of the pad owners' word (once,
    through the module's compare-and-swap hook, _cas_hook): a free landing inside a client's
    bind."""
    host = scn.host.own()
    word = host.header()._base + bridge.Client._BIND[0]
    scn.host.forget(row)

    def free_once(mem: object, offset: int) -> None:
        if offset == word:
            bridge._cas_hook = None
            bridge.Client.free(host, row)

    bridge._cas_hook = free_once
    return "ok"


def host_contend(scn: Scenario, row: int) -> str:
    """Row's state and generation word, contended until uncontend: a stand-in for a client
    that writes the word's other bytes between each of the host's loads and swaps (the
    module's compare-and-swap hook, _cas_hook: a test hook, the one private name used here).
    It flips bit 63 of the word."""
    header = scn.host.own().header()
    if not 0 <= row < bridge.Client.ROWS:
        return "no_row"
    word = bridge.Client._row_base(header, row)

    def flip(mem: object, offset: int) -> None:
        if offset == word:
            at = scn.mapping
            bridge.atomic_store(at, offset, 8, bridge.atomic_load(at, offset, 8) ^ (1 << 63))

    bridge._cas_hook = flip
    return "ok"


def client_step(scn: Scenario, name: str, op: str, args: list[str]) -> str:
    actor = scn.client(name)
    simple: dict[str, Callable[[], str]] = {
        "attach": lambda: client_attach(actor, scn),
        "activate": lambda: client_activate(actor),
        "standing": lambda: client_standing(actor),
        "close": lambda: client_close(actor),
        "poll": lambda: client_poll(actor),
    }
    by_number: dict[str, Callable[[int], str]] = {
        "claim": lambda row: client_claim(actor, row),
        "heartbeat": lambda ns: client_heartbeat(actor, ns),
        "set_waiting": lambda w: standing_name(actor.claimed().set_waiting(bool(w))),
        "bind": lambda pad: client_pad(actor, pad, True),
        "unbind": lambda pad: client_pad(actor, pad, False),
        "publish": lambda count: client_publish(actor, count),
        "pad": lambda tick: client_pad_input(actor, tick),
        "answer": lambda tick: client_pad_input(actor, tick, answer=True),
        "pid": lambda pid: client_pid(actor, pid),
    }
    if op == "wait_tick":
        arity(op, args, 2)
        last = number(args[0], "last", 64)
        seq, _, _ = actor.claimed().wait_tick(last, number(args[1], "ms") / 1000)
        return "timeout" if seq is None or seq == last else "seq=%d" % seq
    by_text: dict[str, Callable[[str], str]] = {
        "push": lambda text: client_push(actor, text),
        "request": lambda text: client_request(actor, text),
        "command": lambda text: client_command(actor, text),
    }
    if op in simple:
        arity(op, args, 0)
        return simple[op]()
    if op in by_number:
        arity(op, args, 1)
        return by_number[op](number(args[0], op, 64 if op in ("heartbeat", "pad", "answer") else None))
    if op in by_text:
        arity(op, args, 1)
        return by_text[op](args[0])
    raise DriverError("no client op %r" % op)


def arity(op: str, args: list[str], count: int) -> None:
    if len(args) != count:
        raise DriverError("%s takes %d arguments, not %d" % (op, count, len(args)))


def step(scn: Scenario | None, words: list[str]) -> str:
    """One step's answer: whatever it raises is answered, never passed on."""
    try:
        if scn is None:
            raise DriverError("a step outside a scenario")
        if len(words) < 2 or not words[0] or not words[1]:
            raise DriverError("a step is ACTOR OP ARGS...")
        name, op, args = words[0], words[1], words[2:]
        if op == "poke":
            arity(op, args, 4)
            return raw_poke(
                scn, name, args[0], number(args[1], "offset"), number(args[2], "width"), number(args[3], "value")
            )
        if op == "locate":
            arity(op, args, 1)
            place_span(scn, name, args[0])
            return "ok"
        if op == "peek":
            arity(op, args, 3)
            return raw_peek(scn, name, args[0], number(args[1], "offset"), number(args[2], "width"))
        if name == "host":
            return host_step(scn, op, args)
        return client_step(scn, name, op, args)
    except Exception as error:  # noqa: BLE001 - every failure of a step is its answer
        return refusal(error)


def run(lines: Iterable[str], out: TextIO) -> None:
    """Answers every line of the input on out, a line each, flushed as it goes."""
    scn: Scenario | None = None

    def say(answer: str) -> None:
        out.write(" ".join(answer.splitlines()) + "\n")
        out.flush()

    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        words = line.split(" ")
        if words[0] == "scenario" and len(words) == 2:
            scn = Scenario()
            bridge._cas_hook = None
            say(line)
        elif words == ["end"]:
            scn = None
            say("end")
        else:
            say(step(scn, words))


def main(argv: list[str]) -> int:
    if len(argv) > 2:
        sys.stderr.write("usage: driver.py [INPUT_FILE]\n")
        return 2
    if len(argv) < 2 or argv[1] == "-":
        run(sys.stdin, sys.stdout)
    else:
        with open(argv[1], encoding="utf-8") as lines:
            run(lines, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
