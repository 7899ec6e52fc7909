# generated from schema.toml; do not edit
"""Bridge schema reference: Python bindings of the `bridge` ABI 0.9.

All structs are little-endian and naturally aligned, with every padding byte declared.

Standard library only: ctypes structures (little-endian on every host), enum classes and
constants. The stub beside it (bridge.pyi) gives editors and mypy every field's type.

Reading memory: a struct maps any buffer of at least its size.

    record = Snapshot.from_buffer(buf)        # no copy: mmap, bytearray, ...
    record = Snapshot.from_buffer_copy(data)  # a copy of any bytes-like object

from_buffer needs a writable buffer and reads and writes it in place; both take an
optional offset (from_buffer(buf, offset)). On a read-only buffer (bytes, an mmap opened
with ACCESS_READ) from_buffer raises TypeError: read it with from_buffer_copy, or,
for shared memory, with the live views and attach, which read a read-only mapping.
A struct made by from_buffer holds its buffer: mmap.close() raises BufferError while
one exists (del it first).

repr() of a struct reads like Rust's Debug: every field but padding, enum and flag
fields by name, and an array that a count field bounds up to its count, then how many
it holds (items=[Item(...), ..; 2 of 16]); four or more equal entries in a row show once
with their number (cells=[0 ×4096]).

Enums and flag sets: a field of enum type holds the plain integer of its representation,
and the class converts it:

    ClientState(client_entry.state)

A value the schema does not declare still converts: an enum gives a pseudo-member that
equals the number (its name is None), and a flag set keeps the unknown bits. Each such
field has a property that reads it as its class (a list of them for an array) and
stores a member: client_entry.state_enum.

Text: a char[N] field reads as bytes up to its first NUL. text() decodes them as UTF-8
(invalid bytes become U+FFFD); set_text() stores a str, cut to N - 1 bytes at a character
boundary so that a NUL always ends it:

    text(client_entry.name)
    set_text(client_entry, "name", "...")

Names: types are CamelCase (client_entry -> ClientEntry), constants and enum members
UPPER_CASE. A type name that is a Python keyword or builtin gets a trailing underscore
(none -> None_, exception -> Exception_). A field named after a Python keyword keeps its
name in _fields_, so getattr(record, "class") works, and has a property alias with a
trailing underscore (record.class_).

At import, the module checks every struct's ctypes.sizeof, ctypes.alignment and field
offsets against the schema's layout, and raises ImportError on a mismatch.

A struct the ABI aligns to 8 sets _align_ = 8, which ctypes honours from Python 3.13 on:
32-bit x86 aligns 8-byte fields to 4 inside a structure, so there an older Python fails
the alignment check (the offsets and sizes still match, every padding byte being a field).

Shared memory: never read memory another process writes through from_buffer. The live
views at the end of this module (section "Live access", with a bot's example) load and
store its atomic fields as atomic words, claim rows by compare-and-swap, and copy what a
seqlock guards, keeping a copy only when its counter says it is whole.

Attaching (section "Attaching"): attach(buffer) checks a mapping (the version
handshake, then every region table) and hands out its regions, raising AttachError, a
ValueError, when a check fails; read_versioned(cls, data) reads an extensible record
that another version wrote, by its producer's size.

Encoded files (section "Encoded files"): a reader and a writer per file format whose
records are encoded (IbfrecReader, IbfrecWriter), over zlib from the standard
library; a reader raises only FileFormatError and lists what it finds wrong as FileIssues.
"""

import ctypes
import ctypes.util
import enum
import platform
import struct
import sys
import time

__all__ = [
    "BRIDGE_MAGIC", "DIRECTORY_MAGIC", "MAX_CLIENTS", "MAX_INSTANCES", "MAX_REGIONS", "RING_SLOTS",
    "RING_SLOT_SIZE", "CLIENT_BLOCK_SIZE", "LOG_RING_CAPACITY", "LOG_QUEUE_CAPACITY",
    "CLIENT_NAME_LEN", "VERSION_LEN", "LOG_SOURCE_MAX", "LOG_TEXT_MAX", "NO_PAD", "PAD_NOT_BOT",
    "COMMAND_LINE_MAX", "BOT_BLOCK_SIZE", "DRAW_BUFFERS", "DRAW_MAX_COMMANDS", "DRAW_PAYLOAD_MAX",
    "MAX_PARAMS", "PARAM_NAME_LEN", "PARAM_HELP_LEN", "PARAM_OPTIONS_LEN", "MAX_STATS",
    "STAT_NAME_LEN", "STAT_TEXT_LEN", "MAX_PLAYERS", "MAX_SHIPS", "MAX_PROJECTILES", "MAX_PICKUPS",
    "MAX_EVENTS", "BOARD_MAX_DIM", "BOARD_MAX_TILES", "MAX_EXTRAS", "EXTRAS_BLOB_MAX",
    "EXTRA_NAME_LEN", "SNAPSHOT_MAGIC", "NO_PLAYER", "MAX_PICKUP_SPAWNS", "MAX_SPAWN_MARKERS",
    "REC_MAGIC", "REC_CHUNK_MAGIC", "REC_FOOTER_MAGIC", "REC_TRAILER_MAGIC", "REC_FORMAT",
    "REC_CHUNK_TICKS", "ABI_VERSION_MAJOR", "ABI_VERSION_MINOR", "ABI_VERSION", "text", "set_text",
    "BridgeRegion", "BotRegion", "DrawListFlags", "ParamKind", "StatKind", "StatFlags",
    "ClientRegion", "CommandStatus", "ControlStick", "RunMode", "SimState", "ClientState",
    "ClientCaps", "HostState", "InstanceState", "LogEntryKind", "DrawOp", "DrawSpace", "DrawLayer",
    "DrawFlags", "HeatmapPalette", "HeatmapFlags", "LogLevel", "PadButtons", "PadInputFlags",
    "RecRecordKind", "RecPadSource", "Phase", "Color", "Tile", "Dir", "ProjectileKind",
    "PickupKind", "GameType", "RoundState", "SpawnState", "EnemyKind", "EventKind", "InvalidReason",
    "TickSource", "SnapshotFlags", "ShipFlags", "ShipValid", "ExtraType", "RegionEntry",
    "ClientEntry", "Controls", "BridgeHeader", "DrawHeader", "DrawListHeader", "ParamsHeader",
    "ParamDef", "ParamValue", "StatsHeader", "StatEntry", "MailboxHeader", "RingSlotHeader",
    "LogEntry", "LogRingHeader", "LogQueueHeader", "ClientBlockHeader", "DirectoryEntry",
    "DirectoryHeader", "HeatmapHeader", "DrawCmd", "Vec2", "PadInput", "RecPad", "RecTickHeader",
    "RecFileHeader", "RecChunkHeader", "RecChunkEntry", "RecMark", "RecFooter", "RecTrailer",
    "SnapshotHeader", "Game", "Board", "Ship", "Projectile", "Pickup", "Event", "Match",
    "PickupSpawn", "SpawnMarker", "ShipExt", "ProjectileExt", "Snapshot", "ExtraEntry",
    "ExtrasHeader", "AtomicsUnavailableError", "SeqlockContendedError", "ContendedError",
    "HOST_TRIES", "atomic_load", "atomic_store", "atomic_compare_exchange", "atomic_exchange",
    "atomic_fetch_add", "atomics_backend", "set_atomics_backend", "LiveClientEntry",
    "LiveBridgeHeader", "LiveDrawHeader", "LiveDrawListHeader", "LiveParamsHeader",
    "LiveStatsHeader", "LiveMailboxHeader", "LiveRingSlotHeader", "LiveLogRingHeader",
    "LiveLogQueueHeader", "LiveClientBlockHeader", "LiveDirectoryEntry", "LiveDirectoryHeader",
    "LivePadInput", "RingSlot", "ParamDefs", "ParamValues", "Stats", "SnapshotRing", "events_since",
    "push_events", "ProtocolError", "Empty", "EMPTY", "Lapped", "Standing", "HungWatch",
    "LogQueueEntry", "LogQueue", "LogRingEntry", "LogRing", "MailboxResponse", "Mailbox",
    "DrawList", "Draw", "Client", "WakeStats", "store_tick_wake_stats", "DirectoryError",
    "DirectoryHost", "process_probe", "PROCESS_GONE", "PROCESS_RUNNING", "PROCESS_UNKNOWN", "Hosts",
    "HostService", "relayout", "relayout_keep", "AttachError", "attach", "Bridge", "ClientBlock",
    "BotBlock", "lay_out", "produce", "ProduceError", "stamp_identity", "read_versioned",
    "VersionedRecord", "FileFormatError", "FileIssue", "IbfrecReader", "IbfrecWriter",
]

#: 'IBFB' read as a little-endian u32
BRIDGE_MAGIC = 0x42464249
#: 'IBFD' read as a little-endian u32
DIRECTORY_MAGIC = 0x44464249
#: Client table rows, and client blocks
MAX_CLIENTS = 8
#: Hosts the directory lists at once
MAX_INSTANCES = 16
#: Rows in a layout table
MAX_REGIONS = 8
#: Snapshot ring slots
RING_SLOTS = 8
#: Bytes per ring slot, its header included
RING_SLOT_SIZE = 32768
#: Bytes per client block
CLIENT_BLOCK_SIZE = 0x10000
#: Bytes of entries in the host log ring
LOG_RING_CAPACITY = 0x10000
#: Bytes of entries in a client's log queue
LOG_QUEUE_CAPACITY = 16384
#: Bytes in a client name, including the terminating NUL
CLIENT_NAME_LEN = 32
#: Bytes in a host version string, including the terminating NUL
VERSION_LEN = 32
#: Bytes of a log entry's source
LOG_SOURCE_MAX = 32
#: Bytes of a log entry's text; longer messages are split
LOG_TEXT_MAX = 968
#: No virtual pad bound; in pad_owner, a bot pad nobody owns
NO_PAD = 255
#: In pad_owner: the slot is not a bot pad (input.bot_pads), so no client can bind it
PAD_NOT_BOT = 254
#: Bytes of a command line a client may send, its terminating NUL included
COMMAND_LINE_MAX = 1024
#: Bytes per bot block: a client's draw lists, parameters and stats (ABI 0.5)
BOT_BLOCK_SIZE = 0x49000
#: Draw lists per client: the client's, the shared one and the host's (a triple buffer)
DRAW_BUFFERS = 3
#: Commands in one draw list; more are dropped and the list marked overflow
DRAW_MAX_COMMANDS = 2048
#: Bytes of one draw list's payload: points, text and heatmap cells
DRAW_PAYLOAD_MAX = 16384
#: Parameters a client may declare
MAX_PARAMS = 32
#: Bytes in a parameter name, including the terminating NUL
PARAM_NAME_LEN = 32
#: Bytes in a parameter's help text, including the terminating NUL
PARAM_HELP_LEN = 96
#: Bytes of an enum parameter's options, separated by '|', including the terminating NUL
PARAM_OPTIONS_LEN = 88
#: Stats a client may publish
MAX_STATS = 64
#: Bytes in a stat name, including the terminating NUL
STAT_NAME_LEN = 24
#: Bytes in a text stat, including the terminating NUL
STAT_TEXT_LEN = 24
#: Player slots, and virtual pads
MAX_PLAYERS = 4
#: Ship capacity of a snapshot
MAX_SHIPS = 16
#: Projectile capacity of a snapshot
MAX_PROJECTILES = 128
#: Pickup capacity of a snapshot
MAX_PICKUPS = 64
#: Event ring capacity
MAX_EVENTS = 32
#: Largest supported board width or height, in tiles
BOARD_MAX_DIM = 64
#: board_max_dim squared
#: = board_max_dim * board_max_dim
BOARD_MAX_TILES = 4096
#: Custom probe entries per snapshot
MAX_EXTRAS = 64
#: Bytes of custom probe data per snapshot
EXTRAS_BLOB_MAX = 16384
#: Bytes in a probe name, including the terminating NUL
EXTRA_NAME_LEN = 24
#: 'IBFS' read as a little-endian u32
SNAPSHOT_MAGIC = 0x53464249
#: Empty player slot, or unknown owner
NO_PLAYER = 255
#: Pickup spawn points a snapshot lists (ABI 0.6)
MAX_PICKUP_SPAWNS = 16
#: Arcade spawn markers a snapshot lists (ABI 0.9)
MAX_SPAWN_MARKERS = 16
#: 'IBFR' read as a little-endian u32: a recording's first bytes
REC_MAGIC = 0x52464249
#: 'IBFC': a chunk header
REC_CHUNK_MAGIC = 0x43464249
#: 'IBFX': the footer
REC_FOOTER_MAGIC = 0x58464249
#: 'IBFE': the trailer, the file's last 16 bytes
REC_TRAILER_MAGIC = 0x45464249
#: The .ibfrec layout version
REC_FORMAT = 1
#: Tick records per chunk (5 s at 60 Hz)
REC_CHUNK_TICKS = 300

ABI_VERSION_MAJOR = 0
ABI_VERSION_MINOR = 9
#: The ABI version as text, "MAJOR.MINOR".
ABI_VERSION = "0.9"


def text(value):
    """Decodes a char[N] field as UTF-8, up to its first NUL; invalid bytes become U+FFFD."""
    return bytes(value).split(b"\0", 1)[0].decode("utf-8", errors="replace")


def set_text(record, field, value):
    """Stores the str value in the char[N] field named field of record, as UTF-8.

    The text is cut to N - 1 bytes, at a character boundary, and the rest of the field is
    filled with NULs, so a NUL always ends it.
    """
    place = getattr(type(record), field)
    data = value.encode("utf-8")
    if len(data) > place.size - 1:
        data = data[: max(place.size - 1, 0)].decode("utf-8", errors="ignore").encode("utf-8")
    # Not setattr: ctypes copies bytes into a char array only up to their first NUL.
    at = ctypes.addressof(record) + place.offset
    ctypes.memmove(at, data.ljust(place.size, b"\0"), place.size)


class _OpenIntEnum(enum.IntEnum):
    """An IntEnum that converts any int: an undeclared value gives a pseudo-member."""

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            return None
        member = int.__new__(cls, value)
        member._name_ = None
        member._value_ = value
        return member

    def __repr__(self):
        if self._name_ is None:
            return "<%s: %d>" % (type(self).__name__, self._value_)
        return super().__repr__()


class BridgeRegion(_OpenIntEnum):
    """Rows of the bridge header's layout table

    Schema enum `bridge_region`, stored as u32. Other values convert to pseudo-members (name None).

    Values:
        HEADER = 0
        SNAPSHOT_RING = 1
        CLIENT_BLOCKS = 2
        LOG_RING = 3
        BOT_BLOCKS = 4, since ABI 0.5
            One bot block per client row: its draw lists, parameters and stats (ABI 0.5)
    """

    HEADER = 0
    SNAPSHOT_RING = 1
    CLIENT_BLOCKS = 2
    LOG_RING = 3
    BOT_BLOCKS = 4


class BotRegion(_OpenIntEnum):
    """Rows of a bot block's layout table

    Schema enum `bot_region`, stored as u32. Other values convert to pseudo-members (name None).

    Values:
        DRAW = 0
            A draw_header, then draw_buffers draw lists (design 8.4)
        PARAMS = 1
            A params_header, then max_params param_def, then max_params param_value (design 8.6)
        STATS = 2
            A stats_header, then max_stats stat_entry (design 8.6)
    """

    DRAW = 0
    PARAMS = 1
    STATS = 2


class DrawListFlags(enum.IntFlag):
    """Schema flag set `draw_list_flags`, stored as u32. Undeclared bits are kept.

    Values:
        OVERFLOW = 0x1
            Commands or payload did not fit and were dropped
    """

    OVERFLOW = 0x1


class ParamKind(_OpenIntEnum):
    """What a parameter's control is (design 8.6)

    Schema enum `param_kind`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        BOOL = 0
            A checkbox: value 0 or 1
        INT = 1
            A whole number between min and max
        FLOAT = 2
            A number between min and max
        ENUM = 3
            One of the options: value is its index
        BUTTON = 4
            A button: value counts the presses
        COLOR = 5
            A colour: value is its RGBA as a u32 (R in the low byte)
    """

    BOOL = 0
    INT = 1
    FLOAT = 2
    ENUM = 3
    BUTTON = 4
    COLOR = 5


class StatKind(_OpenIntEnum):
    """Schema enum `stat_kind`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        NUMBER = 0
        TEXT = 1
    """

    NUMBER = 0
    TEXT = 1


class StatFlags(enum.IntFlag):
    """Schema flag set `stat_flags`, stored as u8. Undeclared bits are kept.

    Values:
        PLOT = 0x1
            Keep a sparkline of the last 300 values
    """

    PLOT = 0x1


class ClientRegion(_OpenIntEnum):
    """Rows of a client block's layout table

    Schema enum `client_region`, stored as u32. Other values convert to pseudo-members (name None).

    Values:
        LOG_QUEUE = 0
            The client's log entries, for the host to drain
        PAD_INPUT = 1
            The client's virtual pad: one pad_input record, which the host reads on each XInput poll
        MAILBOX = 2
            Command requests from the client and their results from the host
    """

    LOG_QUEUE = 0
    PAD_INPUT = 1
    MAILBOX = 2


class CommandStatus(_OpenIntEnum):
    """How the host answered a command request

    Schema enum `command_status`, stored as u32. Other values convert to pseudo-members (name None).

    Values:
        NONE = 0
            Not answered yet
        OK = 1
            The command ran and succeeded
        FAILED = 2
            The command ran and failed, or there is no such command
        REFUSED = 3
            The host takes no commands, or the request was malformed
    """

    NONE = 0
    OK = 1
    FAILED = 2
    REFUSED = 3


class ControlStick(_OpenIntEnum):
    """The stick that moves a ship (design 7.7)

    Schema enum `control_stick`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        LEFT_STICK = 0
        RIGHT_STICK = 1
        DPAD = 2
    """

    LEFT_STICK = 0
    RIGHT_STICK = 1
    DPAD = 2


class RunMode(_OpenIntEnum):
    """Whether the game waits for its bots (design 4.5; ABI 0.7)

    Schema enum `run_mode`, stored as u8, since ABI 0.7. Other values convert to pseudo-members (name None).

    Values:
        REALTIME = 0
            The game never waits: each poll reads the newest input
        LOCKSTEP = 1
            After each tick the host waits until every bot pad answers it, up to lockstep_timeout_ms
    """

    REALTIME = 0
    LOCKSTEP = 1


class SimState(_OpenIntEnum):
    """Whether the game's steps run (design 4.5; ABI 0.7)

    Schema enum `sim_state`, stored as u8, since ABI 0.7. Other values convert to pseudo-members (name None).

    Values:
        RUNNING = 0
        PAUSED = 1
            sim.pause: the steps are skipped, the game still draws; sim.step lets some through
    """

    RUNNING = 0
    PAUSED = 1


class ClientState(_OpenIntEnum):
    """A client table row's state (design 6.5)

    Schema enum `client_state`, stored as u32. Other values convert to pseudo-members (name None).

    Values:
        FREE = 0
        CLAIMED = 1
            A client won the row and is filling it in
        ACTIVE = 2
        CLOSING = 3
            The client said goodbye; the host frees the row
    """

    FREE = 0
    CLAIMED = 1
    ACTIVE = 2
    CLOSING = 3


class ClientCaps(enum.IntFlag):
    """What a client takes part in

    Schema flag set `client_caps`, stored as u32. Undeclared bits are kept.

    Values:
        TICKS = 0x1
            Set my tick event after each publish
        TOOL = 0x2
            A tool (the CLI), not a bot: not counted among the bots
        REMOTE = 0x4, since ABI 0.8
            Set by the host's TCP proxy for a client over TCP (design 6.6): the files its commands write stay in ibf\\remote (ABI 0.8)
    """

    TICKS = 0x1
    TOOL = 0x2
    REMOTE = 0x4


class HostState(_OpenIntEnum):
    """Schema enum `host_state`, stored as u32. Other values convert to pseudo-members (name None).

    Values:
        STARTING = 0
        RUNNING = 1
        EXITING = 2
            The game is closing; clients should disconnect
    """

    STARTING = 0
    RUNNING = 1
    EXITING = 2


class InstanceState(_OpenIntEnum):
    """A directory row's state

    Schema enum `instance_state`, stored as u32. Other values convert to pseudo-members (name None).

    Values:
        FREE = 0
        CLAIMED = 1
            A host won the row and is filling it in
        LIVE = 2
    """

    FREE = 0
    CLAIMED = 1
    LIVE = 2


class LogEntryKind(_OpenIntEnum):
    """Schema enum `log_entry_kind`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        RECORD = 0
        PADDING = 1
            Fills the ring to its end; the next entry starts at offset 0
    """

    RECORD = 0
    PADDING = 1


class DrawOp(_OpenIntEnum):
    """Schema enum `draw_op`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        LINE = 0
        POLYLINE = 1
        RECT = 2
        RECT_FILL = 3
        CIRCLE = 4
        CIRCLE_FILL = 5
        TEXT = 6
        ARROW = 7
        TILE_FILL = 8
        TILE_OUTLINE = 9
        HEATMAP = 10
    """

    LINE = 0
    POLYLINE = 1
    RECT = 2
    RECT_FILL = 3
    CIRCLE = 4
    CIRCLE_FILL = 5
    TEXT = 6
    ARROW = 7
    TILE_FILL = 8
    TILE_OUTLINE = 9
    HEATMAP = 10


class DrawSpace(_OpenIntEnum):
    """Schema enum `draw_space`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        WORLD = 0
            Tiles, origin at the board centre, +Y up
        TILE = 1
            Integer tile coordinates
        SCREEN = 2
            Back-buffer pixels
        SCREEN_NORM = 3
            0..1 across the back buffer
    """

    WORLD = 0
    TILE = 1
    SCREEN = 2
    SCREEN_NORM = 3


class DrawLayer(_OpenIntEnum):
    """Schema enum `draw_layer`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        BELOW_PANELS = 0
        ABOVE_PANELS = 1
    """

    BELOW_PANELS = 0
    ABOVE_PANELS = 1


class DrawFlags(enum.IntFlag):
    """Schema flag set `draw_flags`, stored as u8. Undeclared bits are kept.

    Values:
        ANTIALIAS = 0x1
        FADE = 0x2
            Fade out over the list's time to live
        CLOSED = 0x4, since ABI 0.5
            polyline: join the last point to the first (ABI 0.5)
        CENTERED = 0x8, since ABI 0.5
            text: centred on its point instead of hanging from it (ABI 0.5)
    """

    ANTIALIAS = 0x1
    FADE = 0x2
    CLOSED = 0x4
    CENTERED = 0x8


class HeatmapPalette(_OpenIntEnum):
    """How a heatmap's values become colours (ABI 0.5)

    Schema enum `heatmap_palette`, stored as u8, since ABI 0.5. Other values convert to pseudo-members (name None).

    Values:
        TINT = 0
            The command's colour, its alpha scaled by the value
        INFERNO = 1
            Black through red and orange to yellow
        VIRIDIS = 2
            Purple through teal to yellow
        COOLWARM = 3
            Blue through white to red: 128 is white
        GREYS = 4
            Black to white
    """

    TINT = 0
    INFERNO = 1
    VIRIDIS = 2
    COOLWARM = 3
    GREYS = 4


class HeatmapFlags(enum.IntFlag):
    """Schema flag set `heatmap_flags`, stored as u8. Undeclared bits are kept.

    Values:
        ZERO_CLEAR = 0x1
            A value of 0 draws nothing
    """

    ZERO_CLEAR = 0x1


class LogLevel(_OpenIntEnum):
    """Log severity, lowest first

    Schema enum `log_level`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        TRACE = 0
        DEBUG = 1
        INFO = 2
        WARN = 3
        ERROR = 4
    """

    TRACE = 0
    DEBUG = 1
    INFO = 2
    WARN = 3
    ERROR = 4


class PadButtons(enum.IntFlag):
    """XINPUT_GAMEPAD_* button bits

    Schema flag set `pad_buttons`, stored as u16. Undeclared bits are kept.

    Values:
        DPAD_UP = 0x1
        DPAD_DOWN = 0x2
        DPAD_LEFT = 0x4
        DPAD_RIGHT = 0x8
        START = 0x10
        BACK = 0x20
        LEFT_THUMB = 0x40
        RIGHT_THUMB = 0x80
        LEFT_SHOULDER = 0x100
        RIGHT_SHOULDER = 0x200
        A = 0x1000
        B = 0x2000
        X = 0x4000
        Y = 0x8000
    """

    DPAD_UP = 0x1
    DPAD_DOWN = 0x2
    DPAD_LEFT = 0x4
    DPAD_RIGHT = 0x8
    START = 0x10
    BACK = 0x20
    LEFT_THUMB = 0x40
    RIGHT_THUMB = 0x80
    LEFT_SHOULDER = 0x100
    RIGHT_SHOULDER = 0x200
    A = 0x1000
    B = 0x2000
    X = 0x4000
    Y = 0x8000


class PadInputFlags(enum.IntFlag):
    """Schema flag set `pad_input_flags`, stored as u32. Undeclared bits are kept.

    Values:
        CONNECTED = 0x1
            Set on every write; a record without it reads neutral (bot pads stay connected: design 7.8)
    """

    CONNECTED = 0x1


class RecRecordKind(_OpenIntEnum):
    """Schema enum `rec_record_kind`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        KEYFRAME = 1
            The snapshot as published
        DELTA = 2
            The snapshot XORed with the record before it
    """

    KEYFRAME = 1
    DELTA = 2


class RecPadSource(_OpenIntEnum):
    """Who answered a pad's last poll

    Schema enum `rec_pad_source`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        NONE = 0
            Not polled yet, or not connected
        BOT = 1
            A bridge client's pad record
        SCRIPT = 2
            The host: pad.* commands, or the Navigator
        REAL = 3
            A real controller passed through
    """

    NONE = 0
    BOT = 1
    SCRIPT = 2
    REAL = 3


class Phase(_OpenIntEnum):
    """Game phase, mapped from the menu ID by the profile

    Schema enum `phase`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        UNKNOWN = 0
        BOOT = 1
            Splash screens and loading
        MENU = 2
        LOBBY = 3
        GET_READY = 4
        GO = 5
        PLAYING = 6
        DEAD = 7
            The local player is dead but the round continues
        ROUND_OVER = 8
        GAME_OVER = 9
    """

    UNKNOWN = 0
    BOOT = 1
    MENU = 2
    LOBBY = 3
    GET_READY = 4
    GO = 5
    PLAYING = 6
    DEAD = 7
    ROUND_OVER = 8
    GAME_OVER = 9


class Color(_OpenIntEnum):
    """Ship or tile colour

    Schema enum `color`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        WHITE = 0
        BLACK = 1
        UNKNOWN = 255
    """

    WHITE = 0
    BLACK = 1
    UNKNOWN = 255


class Tile(_OpenIntEnum):
    """Board tile state

    Schema enum `tile`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        WHITE = 0
            Walkable by black ships
        BLACK = 1
            Walkable by white ships
        NONE = 255
            No tile: outside the playfield, or a hole in the map
    """

    WHITE = 0
    BLACK = 1
    NONE = 255


class Dir(_OpenIntEnum):
    """One of the four shot directions

    Schema enum `dir`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        NONE = 0
        UP = 1
        DOWN = 2
        LEFT = 3
        RIGHT = 4
    """

    NONE = 0
    UP = 1
    DOWN = 2
    LEFT = 3
    RIGHT = 4


class ProjectileKind(_OpenIntEnum):
    """Schema enum `projectile_kind`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        NORMAL = 0
        FAST = 1
            Red shot from a pickup
        UNKNOWN = 255
    """

    NORMAL = 0
    FAST = 1
    UNKNOWN = 255


class PickupKind(_OpenIntEnum):
    """Schema enum `pickup_kind`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        FAST_SHOTS = 0
            Grants red shots; amount says how many
        BLOCK_EAT = 1
            Square power-up: 4 s of breaking the cells the ship runs into, and of x1.5 speed
        UNKNOWN = 255
        SHIELD = 2, since ABI 0.6
            Shield power-up: 10 s in which a hit breaks the shield instead of the ship (ABI 0.6)
    """

    FAST_SHOTS = 0
    BLOCK_EAT = 1
    UNKNOWN = 255
    SHIELD = 2


class GameType(_OpenIntEnum):
    """Which game is running (ABI 0.6)

    Schema enum `game_type`, stored as u8, since ABI 0.6. Other values convert to pseudo-members (name None).

    Values:
        NONE = 0
            No game yet: the menus at start-up (after a game they keep its type, with no map)
        VERSUS = 1
        ARCADE = 2
        UNKNOWN = 255
    """

    NONE = 0
    VERSUS = 1
    ARCADE = 2
    UNKNOWN = 255


class RoundState(_OpenIntEnum):
    """Where the round is (ABI 0.6)

    Schema enum `round_state`, stored as u8, since ABI 0.6. Other values convert to pseudo-members (name None).

    Values:
        NONE = 0
            Not started: get ready, or no game
        PLAYING = 1
        DECIDED = 2
            A team won (or, in arcade, the last life went); the round is ending
        UNKNOWN = 255
    """

    NONE = 0
    PLAYING = 1
    DECIDED = 2
    UNKNOWN = 255


class SpawnState(_OpenIntEnum):
    """A pickup spawn point's state (ABI 0.6)

    Schema enum `spawn_state`, stored as u8, since ABI 0.6. Other values convert to pseudo-members (name None).

    Values:
        DUE = 0
            Spawns on the next step
        OUT = 1
            Its pickup is on the board
        WAITING = 2
            Spawns in time_left seconds
    """

    DUE = 0
    OUT = 1
    WAITING = 2


class EnemyKind(_OpenIntEnum):
    """What an arcade enemy does (ABI 0.9)

    Schema enum `enemy_kind`, stored as u8, since ABI 0.9. Other values convert to pseudo-members (name None).

    Values:
        UNKNOWN = 0
        SMASH = 1
            Breaks the cells it runs into
        SHOOT = 2
            Fires at the players
        SMASH_SHOOT = 3
            Both
    """

    UNKNOWN = 0
    SMASH = 1
    SHOOT = 2
    SMASH_SHOOT = 3


class EventKind(_OpenIntEnum):
    """Events derived by diffing consecutive ticks (design section 5.5)

    Schema enum `event_kind`, stored as u16. Other values convert to pseudo-members (name None).

    Values:
        NONE = 0
            Unused ring slot
        MENU_CHANGED = 1
            a = old menu ID, b = new menu ID
        MATCH_STARTED = 2
        ROUND_STARTED = 3
            a = round number
        ROUND_ENDED = 4
            a = winner player ID or -1
        MATCH_ENDED = 5
            a = winner player ID, or -1 for no winner (a tie, or a match abandoned for a menu)
        SHIP_SPAWNED = 6
        SHIP_DIED = 7
        SHOT_FIRED = 8
            a = dir, b = 1 if fast
        PICKUP_SPAWNED = 9
            a = pickup_kind, b = amount
        PICKUP_TAKEN = 10
            a = pickup_kind, b = amount
        SCORE_CHANGED = 11
            a = old score, b = new score
    """

    NONE = 0
    MENU_CHANGED = 1
    MATCH_STARTED = 2
    ROUND_STARTED = 3
    ROUND_ENDED = 4
    MATCH_ENDED = 5
    SHIP_SPAWNED = 6
    SHIP_DIED = 7
    SHOT_FIRED = 8
    PICKUP_SPAWNED = 9
    PICKUP_TAKEN = 10
    SCORE_CHANGED = 11


class InvalidReason(_OpenIntEnum):
    """Why the latest tick produced no valid snapshot

    Schema enum `invalid_reason`, stored as u16. Other values convert to pseudo-members (name None).

    Values:
        NONE = 0
        NO_PROFILE = 1
            No profile matches the game executable
        ROOT_UNREADABLE = 2
        PATH_FAULT = 3
            A pointer path hit an unreadable or implausible pointer
        LIST_INVALID = 4
            An entity list header failed its checks
        BOARD_OUT_OF_RANGE = 5
        COUNT_OUT_OF_RANGE = 6
        NON_FINITE_VALUE = 7
        READ_FAULT = 8
            An access violation was caught while reading
        TORN_READ = 9
            Memory changed under the build; the retry did not help
        PROFILE_ERROR = 10
            A profile loaded but a required path is unresolved
        STATE_DISABLED = 11
            The state module is disabled
    """

    NONE = 0
    NO_PROFILE = 1
    ROOT_UNREADABLE = 2
    PATH_FAULT = 3
    LIST_INVALID = 4
    BOARD_OUT_OF_RANGE = 5
    COUNT_OUT_OF_RANGE = 6
    NON_FINITE_VALUE = 7
    READ_FAULT = 8
    TORN_READ = 9
    PROFILE_ERROR = 10
    STATE_DISABLED = 11


class TickSource(_OpenIntEnum):
    """Which hook built the snapshot (design section 4.5)

    Schema enum `tick_source`, stored as u8. Other values convert to pseudo-members (name None).

    Values:
        PRESENT = 0
            The Present fallback: one tick per frame
        SIM_STEP = 1
            The game's simulation step
    """

    PRESENT = 0
    SIM_STEP = 1


class SnapshotFlags(enum.IntFlag):
    """Schema flag set `snapshot_flags`, stored as u32. Undeclared bits are kept.

    Values:
        VALID = 0x1
        IN_MATCH = 0x2
        TRUNCATED = 0x4
            A capacity was exceeded; the tail was dropped
        LOCKSTEP = 0x8
        SIM_PAUSED = 0x10
        OVERLAY_FOCUSED = 0x20
            The overlay's console is open and takes the user's typing
        STALE = 0x40
            The body is from an earlier tick; only the header is new
    """

    VALID = 0x1
    IN_MATCH = 0x2
    TRUNCATED = 0x4
    LOCKSTEP = 0x8
    SIM_PAUSED = 0x10
    OVERLAY_FOCUSED = 0x20
    STALE = 0x40


class ShipFlags(enum.IntFlag):
    """Schema flag set `ship_flags`, stored as u16. Undeclared bits are kept.

    Values:
        SHIELD = 0x1
        BLOCK_EAT = 0x2
        CHARGING = 0x4
        MOVING = 0x8
    """

    SHIELD = 0x1
    BLOCK_EAT = 0x2
    CHARGING = 0x4
    MOVING = 0x8


class ShipValid(enum.IntFlag):
    """Schema flag set `ship_valid`, stored as u32. Undeclared bits are kept.

    Values:
        POS = 0x1
        VEL = 0x2
        LAST_SHOT_POS = 0x4
        RELOAD_PROGRESS = 0x8
        RELOAD_TIME = 0x10
        TIME_ALIVE = 0x20
        TIME_SINCE_SHOT = 0x40
        SCORE = 0x80
        MULTIPLIER = 0x100
        FLAGS = 0x200
        PLAYER_ID = 0x400
        COLOR = 0x800
        AMMO = 0x1000
        MAX_AMMO = 0x2000
        FAST_AMMO = 0x4000
        CHARGE_DIR = 0x8000
    """

    POS = 0x1
    VEL = 0x2
    LAST_SHOT_POS = 0x4
    RELOAD_PROGRESS = 0x8
    RELOAD_TIME = 0x10
    TIME_ALIVE = 0x20
    TIME_SINCE_SHOT = 0x40
    SCORE = 0x80
    MULTIPLIER = 0x100
    FLAGS = 0x200
    PLAYER_ID = 0x400
    COLOR = 0x800
    AMMO = 0x1000
    MAX_AMMO = 0x2000
    FAST_AMMO = 0x4000
    CHARGE_DIR = 0x8000


class ExtraType(_OpenIntEnum):
    """Element type of a custom probe

    Schema enum `extra_type`, stored as u16. Other values convert to pseudo-members (name None).

    Values:
        RAW = 0
        U8 = 1
        I8 = 2
        U16 = 3
        I16 = 4
        U32 = 5
        I32 = 6
        U64 = 7
        I64 = 8
        F32 = 9
        F64 = 10
    """

    RAW = 0
    U8 = 1
    I8 = 2
    U16 = 3
    I16 = 4
    U32 = 5
    I32 = 6
    U64 = 7
    I64 = 8
    F32 = 9
    F64 = 10


class _Struct(ctypes.LittleEndianStructure):
    """The base of every struct class: a __repr__ that reads like Rust's Debug.

    It shows every field but declared padding, an enum or flag field by its member names,
    and an array that a count field bounds up to that count, then how many it holds:
    items=[Item(...), Item(...), ..; 2 of 16]. Four or more equal entries in a row show
    once with their number: cells=[0 ×4096].

    _Counts maps a counted array to the path of its count field, and _Enums an enum or flag
    field to its class (their names hold an uppercase letter, so no field can take them).
    """

    _Counts = {}
    _Enums = {}

    def __repr__(self):
        cls = type(self)
        parts = []
        for field in cls._fields_:
            name = field[0]
            if name.startswith("_"):
                continue
            value = getattr(self, name)
            enum_class = cls._Enums.get(name)
            path = cls._Counts.get(name)
            if isinstance(value, ctypes.Array):
                count = None
                if path is not None:
                    count = self
                    for step in path:
                        count = getattr(count, step)
                shown = _repr_array(value, enum_class, count)
            elif enum_class is not None:
                shown = _repr_enum(enum_class, value)
            else:
                shown = repr(value)
            parts.append("%s=%s" % (name, shown))
        return "%s(%s)" % (cls.__name__, ", ".join(parts))


def _repr_enum(cls, value):
    """An enum value as Phase.PLAYING or Phase(200); a flag set as
    Flags.A | Flags.B | Flags(0x100), or Flags(0x0) when empty."""
    if issubclass(cls, enum.Flag):
        names = ["%s.%s" % (cls.__name__, name) for name, member in cls.__members__.items()
                 if member.value and value & member.value == member.value]
        known = 0
        for member in cls.__members__.values():
            known |= member.value
        if value & ~known or not names:
            names.append("%s(%#x)" % (cls.__name__, value & ~known))
        return " | ".join(names)
    name = cls(value).name
    return "%s.%s" % (cls.__name__, name) if name is not None else "%s(%d)" % (cls.__name__, value)


def _repr_array(array, enum_class, count):
    """A ctypes array's entries (up to count when a count field bounds it), four or more
    equal ones in a row shown once as `entry ×N`."""
    size = len(array)
    used = size if count is None else max(0, min(count, size))
    items = [array[i] for i in range(used)]
    keys = [bytes(x) if isinstance(x, ctypes.Structure) else x for x in items]
    parts = []
    i = 0
    while i < used:
        j = i + 1
        while j < used and keys[j] == keys[i]:
            j += 1
        item = items[i]
        shown = _repr_enum(enum_class, item) if enum_class is not None else repr(item)
        if j - i >= 4:
            parts.append("%s ×%d" % (shown, j - i))
        else:
            parts.extend([shown] * (j - i))
        i = j
    if count is not None and count != size:
        parts.append("..; %d of %d" % (count, size))
    return "[%s]" % ", ".join(parts)


def _enum_field(field, cls, doc):
    """A property that reads the enum or flag field named field as its class cls, and
    stores a member (or any int) into it."""
    return property(
        lambda self: cls(getattr(self, field)),
        lambda self, value: setattr(self, field, int(value)),
        doc=doc,
    )


def _enum_array(field, cls, doc):
    """A property that reads the array of enums or flags named field as a list of cls."""
    return property(lambda self: [cls(v) for v in getattr(self, field)], doc=doc)


class RegionEntry(_Struct):
    """One row of a layout table; size 0 means the region is absent

    Schema struct `region_entry`: 8 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 offset: u32
            From the start of the bridge, or of the client block
            Access: plain (host).
        0x0004 size: u32
            Access: plain (host).
    """

    _fields_ = [
        ("offset", ctypes.c_uint32),
        ("size", ctypes.c_uint32),
    ]


class ClientEntry(_Struct):
    """One row of the client table. The client claims it by compare-and-swap from free; the host frees it.

    Schema struct `client_entry`: 128 bytes, alignment 8.
    Shared memory, written by the host and client.

    Fields (offset, name, type):
        0x0000 state: ClientState (u32)
            Access: cas (host and client).
            As ClientState: state_enum.
        0x0004 generation: u32
            Bumped by each claim: a client that no longer finds its own generation was disconnected
            Access: atomic (client).
        0x0008 pid: u32
            Access: plain (client).
        0x000c caps: ClientCaps (u32)
            Access: plain (host and client).
            As ClientCaps: caps_enum.
        0x0010 heartbeat_ns: u64
            The client's own clock in ns (a client cannot read the host's): it writes it at least every 100 ms; the host never compares it with its clock, it watches it change, and a row whose state, generation and heartbeat stay unchanged for 1 s is hung
            Access: atomic (client).
        0x0018 connected_ns: u64
            Host clock at the claim
            Access: plain (client).
        0x0020 pad: u8
            The virtual pad this client bound, or no_pad; the host goes by pad_owner
            Access: plain (client).
        0x0021 _pad33: u8[3]
        0x0024 waiting: u32
            1 while the client sleeps on its tick event: the host sets the event only then
            Access: atomic (client).
        0x0028 name: char[CLIENT_NAME_LEN] (text)
            Access: plain (client).
        0x0048 _reserved: u8[56]
    """

    _align_ = 8
    _fields_ = [
        ("state", ctypes.c_uint32),  # ClientState
        ("generation", ctypes.c_uint32),
        ("pid", ctypes.c_uint32),
        ("caps", ctypes.c_uint32),  # ClientCaps
        ("heartbeat_ns", ctypes.c_uint64),
        ("connected_ns", ctypes.c_uint64),
        ("pad", ctypes.c_uint8),
        ("_pad33", ctypes.c_uint8 * 3),
        ("waiting", ctypes.c_uint32),
        ("name", ctypes.c_char * CLIENT_NAME_LEN),
        ("_reserved", ctypes.c_uint8 * 56),
    ]
    _Enums = {
        "state": ClientState, "caps": ClientCaps,
    }
    state_enum = _enum_field("state", ClientState, "The field state as ClientState.")
    caps_enum = _enum_field("caps", ClientCaps, "The field caps as ClientCaps.")


class Controls(_Struct):
    """The pad input for each game action (design 7.7): what the SDKs turn actions into, and what the Navigator presses

    Schema struct `controls`: 16 bytes, alignment 2.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 move: ControlStick (u8)
            Access: plain (host).
            As ControlStick: move_enum.
        0x0001 min_press_ticks: u8
            Hold a tap for at least this many ticks (input.min_press_ticks)
            Access: plain (host).
        0x0002 shoot_up: PadButtons (u16)
            Access: plain (host).
            As PadButtons: shoot_up_enum.
        0x0004 shoot_down: PadButtons (u16)
            Access: plain (host).
            As PadButtons: shoot_down_enum.
        0x0006 shoot_left: PadButtons (u16)
            Access: plain (host).
            As PadButtons: shoot_left_enum.
        0x0008 shoot_right: PadButtons (u16)
            Access: plain (host).
            As PadButtons: shoot_right_enum.
        0x000a pause: PadButtons (u16)
            Access: plain (host).
            As PadButtons: pause_enum.
        0x000c confirm: PadButtons (u16)
            Menu confirm
            Access: plain (host).
            As PadButtons: confirm_enum.
        0x000e back: PadButtons (u16)
            Menu back
            Access: plain (host).
            As PadButtons: back_enum.
    """

    _fields_ = [
        ("move", ctypes.c_uint8),  # ControlStick
        ("min_press_ticks", ctypes.c_uint8),
        ("shoot_up", ctypes.c_uint16),  # PadButtons
        ("shoot_down", ctypes.c_uint16),  # PadButtons
        ("shoot_left", ctypes.c_uint16),  # PadButtons
        ("shoot_right", ctypes.c_uint16),  # PadButtons
        ("pause", ctypes.c_uint16),  # PadButtons
        ("confirm", ctypes.c_uint16),  # PadButtons
        ("back", ctypes.c_uint16),  # PadButtons
    ]
    _Enums = {
        "move": ControlStick, "shoot_up": PadButtons, "shoot_down": PadButtons,
        "shoot_left": PadButtons, "shoot_right": PadButtons, "pause": PadButtons,
        "confirm": PadButtons, "back": PadButtons,
    }
    move_enum = _enum_field("move", ControlStick, "The field move as ControlStick.")
    shoot_up_enum = _enum_field("shoot_up", PadButtons, "The field shoot_up as PadButtons.")
    shoot_down_enum = _enum_field("shoot_down", PadButtons, "The field shoot_down as PadButtons.")
    shoot_left_enum = _enum_field("shoot_left", PadButtons, "The field shoot_left as PadButtons.")
    shoot_right_enum = _enum_field("shoot_right", PadButtons, "The field shoot_right as PadButtons.")
    pause_enum = _enum_field("pause", PadButtons, "The field pause as PadButtons.")
    confirm_enum = _enum_field("confirm", PadButtons, "The field confirm as PadButtons.")
    back_enum = _enum_field("back", PadButtons, "The field back as PadButtons.")


class BridgeHeader(_Struct):
    """The first bytes of the bridge. Written by the host, except the client table rows and the commands' event.

    Schema struct `bridge_header`: 1304 bytes, alignment 8.
    Extensible: a reader learns its size at run time, and it may grow at its end.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 magic: u32
            bridge_magic
            Always BRIDGE_MAGIC.
            Access: plain (host).
        0x0004 abi_major: u16
            Access: plain (host).
        0x0006 abi_minor: u16
            Access: plain (host).
        0x0008 header_size: u32
            sizeof(bridge_header) as the host built it
            Access: plain (host).
        0x000c total_size: u32
            Bytes in the whole bridge
            Access: plain (host).
        0x0010 host_pid: u32
            Access: plain (host).
        0x0014 host_generation: u32
            Changes when the host reloads; the old host's clients find their rows freed and connect again
            Access: atomic (host).
        0x0018 host_state: HostState (u32)
            Access: atomic (host).
            As HostState: host_state_enum.
        0x001c region_count: u32
            Access: plain (host).
        0x0020 host_version: char[VERSION_LEN] (text)
            Access: plain (host).
        0x0040 regions: RegionEntry[MAX_REGIONS]
            Indexed by bridge_region
            Entries in use: region_count.
            Access: plain (host).
        0x0080 clock_mono_ns: u64
            A host clock reading (QueryPerformanceCounter in ns)...
            Access: plain (host).
        0x0088 clock_unix_ns: i64
            ...and the Unix time then: unix = clock_unix_ns + (t - clock_mono_ns)
            Access: plain (host).
        0x0090 ring_slots: u32
            Access: plain (host).
        0x0094 ring_slot_size: u32
            Access: plain (host).
        0x0098 max_clients: u32
            Access: plain (host).
        0x009c client_block_size: u32
            Access: plain (host).
        0x00a0 client_entry_size: u32
            Access: plain (host).
        0x00a4 pad_owner: u8[MAX_PLAYERS]
            Per pad: the client row that owns it, no_pad for a free bot pad, or pad_not_bot. Clients bind by compare-and-swap of the four bytes as one u32
            Access: cas, one u32 word (host and client).
        0x00a8 _pad168: u8[24]
        0x00c0 snapshot_seq: u64
            Snapshots published; the newest is in slot (snapshot_seq - 1) % ring_slots. On its own cache line
            Access: atomic (host).
        0x00c8 _pad200: u8[56]
        0x0100 clients: ClientEntry[MAX_CLIENTS]
            Access: plain (host and client).
        0x0500 controls: Controls, since ABI 0.4
            The pad input for each game action, from ibf.toml's [controls] (ABI 0.4)
            Access: plain (host).
        0x0510 run_mode: RunMode (u8), since ABI 0.7
            in lockstep the host waits for each tick's answers, and a client sets the input event after writing its pad
            Access: atomic (host).
            As RunMode: run_mode_enum.
        0x0511 sim_state: SimState (u8), since ABI 0.7
            running, or paused by sim.pause
            Access: atomic (host).
            As SimState: sim_state_enum.
        0x0512 _pad1298: u8[2]
        0x0514 lockstep_timeout_ms: u32, since ABI 0.7
            how long the host waits for a tick's answers in lockstep
            Access: plain (host).
    """

    _align_ = 8
    _fields_ = [
        ("magic", ctypes.c_uint32),
        ("abi_major", ctypes.c_uint16),
        ("abi_minor", ctypes.c_uint16),
        ("header_size", ctypes.c_uint32),
        ("total_size", ctypes.c_uint32),
        ("host_pid", ctypes.c_uint32),
        ("host_generation", ctypes.c_uint32),
        ("host_state", ctypes.c_uint32),  # HostState
        ("region_count", ctypes.c_uint32),
        ("host_version", ctypes.c_char * VERSION_LEN),
        ("regions", RegionEntry * MAX_REGIONS),
        ("clock_mono_ns", ctypes.c_uint64),
        ("clock_unix_ns", ctypes.c_int64),
        ("ring_slots", ctypes.c_uint32),
        ("ring_slot_size", ctypes.c_uint32),
        ("max_clients", ctypes.c_uint32),
        ("client_block_size", ctypes.c_uint32),
        ("client_entry_size", ctypes.c_uint32),
        ("pad_owner", ctypes.c_uint8 * MAX_PLAYERS),
        ("_pad168", ctypes.c_uint8 * 24),
        ("snapshot_seq", ctypes.c_uint64),
        ("_pad200", ctypes.c_uint8 * 56),
        ("clients", ClientEntry * MAX_CLIENTS),
        ("controls", Controls),
        ("run_mode", ctypes.c_uint8),  # RunMode
        ("sim_state", ctypes.c_uint8),  # SimState
        ("_pad1298", ctypes.c_uint8 * 2),
        ("lockstep_timeout_ms", ctypes.c_uint32),
    ]
    _Counts = {
        "regions": ("region_count",),
    }
    _Enums = {
        "host_state": HostState, "run_mode": RunMode, "sim_state": SimState,
    }
    host_state_enum = _enum_field("host_state", HostState, "The field host_state as HostState.")
    run_mode_enum = _enum_field("run_mode", RunMode, "The field run_mode as RunMode.")
    sim_state_enum = _enum_field("sim_state", SimState, "The field sim_state as SimState.")


class DrawHeader(_Struct):
    """The start of a client's draw region. The lists follow it, buffer_size bytes apart

    Schema struct `draw_header`: 64 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 state: u32
            Bits 0-1: the shared list's index; bit 2: it is fresh (a list waits for the host). Swapped whole by both sides
            Access: cas (host and client).
        0x0004 buffers: u32
            Host: draw_buffers
            Access: plain (host).
        0x0008 buffer_size: u32
            Host: bytes from one list's header to the next's
            Access: plain (host).
        0x000c max_commands: u32
            Host: commands a list holds
            Access: plain (host).
        0x0010 max_payload: u32
            Host: payload bytes a list holds
            Access: plain (host).
        0x0014 published: u32
            Client: lists published
            Access: atomic (client).
        0x0018 _pad24: u8[40]
    """

    _fields_ = [
        ("state", ctypes.c_uint32),
        ("buffers", ctypes.c_uint32),
        ("buffer_size", ctypes.c_uint32),
        ("max_commands", ctypes.c_uint32),
        ("max_payload", ctypes.c_uint32),
        ("published", ctypes.c_uint32),
        ("_pad24", ctypes.c_uint8 * 40),
    ]


class DrawListHeader(_Struct):
    """One draw list: this header, max_commands draw_cmd, then max_payload bytes of payload

    Schema struct `draw_list_header`: 64 bytes, alignment 8.
    Shared memory, written by the client.

    Fields (offset, name, type):
        0x0000 seq: u32
            Client: the list's number
            Access: plain (client).
        0x0004 count: u32
            Commands in the list
            Access: plain (client).
        0x0008 payload_len: u32
            Bytes of payload in use
            Access: plain (client).
        0x000c ttl_ms: u32
            Shown until replaced or this long after the host takes it; 0 means 500
            Access: plain (client).
        0x0010 flags: DrawListFlags (u32)
            Access: plain (client).
            As DrawListFlags: flags_enum.
        0x0014 dropped: u32
            Commands dropped because the list was full
            Access: plain (client).
        0x0018 for_tick: u64
            The tick the list was drawn for
            Access: plain (client).
        0x0020 _pad32: u8[32]
    """

    _align_ = 8
    _fields_ = [
        ("seq", ctypes.c_uint32),
        ("count", ctypes.c_uint32),
        ("payload_len", ctypes.c_uint32),
        ("ttl_ms", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),  # DrawListFlags
        ("dropped", ctypes.c_uint32),
        ("for_tick", ctypes.c_uint64),
        ("_pad32", ctypes.c_uint8 * 32),
    ]
    _Enums = {
        "flags": DrawListFlags,
    }
    flags_enum = _enum_field("flags", DrawListFlags, "The field flags as DrawListFlags.")


class ParamsHeader(_Struct):
    """The start of a client's parameters: the client's definitions, then the host's values

    Schema struct `params_header`: 64 bytes, alignment 4.
    Shared memory, written by the host. Followed by `defs` (param_def[max_params]) at offset 64. Followed by `values` (param_value[max_params]) at offset 8256.

    Fields (offset, name, type):
        0x0000 defs_seq: u32
            Client: odd while it writes the definitions
            Access: atomic (client).
        0x0004 def_count: u32
            Client: definitions in use
            Access: seqlock param_defs (client).
        0x0008 values_seq: u32
            Host: odd while it writes the values
            Access: atomic (host).
        0x000c changes: u32
            Host: bumped with every change of a value
            Access: atomic (host).
        0x0010 max_params: u32
            Host: definitions the area holds
            Access: plain (host).
        0x0014 _pad20: u8[44]
    """

    _fields_ = [
        ("defs_seq", ctypes.c_uint32),
        ("def_count", ctypes.c_uint32),
        ("values_seq", ctypes.c_uint32),
        ("changes", ctypes.c_uint32),
        ("max_params", ctypes.c_uint32),
        ("_pad20", ctypes.c_uint8 * 44),
    ]


class ParamDef(_Struct):
    """One parameter a client declares (design 8.6). The host shows it as a control in the Bots panel

    Schema struct `param_def`: 256 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 name: char[PARAM_NAME_LEN] (text)
        0x0020 kind: ParamKind (u8)
            As ParamKind: kind_enum.
        0x0021 option_count: u8
            enum: options in options
        0x0022 _pad34: u8[6]
        0x0028 default_value: f64
        0x0030 min: f64
            int and float
        0x0038 max: f64
        0x0040 step: f64
            int and float: the control's step; 0 for none
        0x0048 help: char[PARAM_HELP_LEN] (text)
        0x00a8 options: char[PARAM_OPTIONS_LEN] (text)
            enum: the options' names, separated by '|'
    """

    _align_ = 8
    _fields_ = [
        ("name", ctypes.c_char * PARAM_NAME_LEN),
        ("kind", ctypes.c_uint8),  # ParamKind
        ("option_count", ctypes.c_uint8),
        ("_pad34", ctypes.c_uint8 * 6),
        ("default_value", ctypes.c_double),
        ("min", ctypes.c_double),
        ("max", ctypes.c_double),
        ("step", ctypes.c_double),
        ("help", ctypes.c_char * PARAM_HELP_LEN),
        ("options", ctypes.c_char * PARAM_OPTIONS_LEN),
    ]
    _Enums = {
        "kind": ParamKind,
    }
    kind_enum = _enum_field("kind", ParamKind, "The field kind as ParamKind.")


class ParamValue(_Struct):
    """One parameter's value, written by the host

    Schema struct `param_value`: 16 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 value: f64
        0x0008 changes: u32
            Bumped by every change, so a button's presses and a set to the same value count
        0x000c _pad12: u8[4]
    """

    _align_ = 8
    _fields_ = [
        ("value", ctypes.c_double),
        ("changes", ctypes.c_uint32),
        ("_pad12", ctypes.c_uint8 * 4),
    ]


class StatsHeader(_Struct):
    """The start of a client's stats. The client writes both halves: the stats under seq, and its tick facts, which ibf_client keeps

    Schema struct `stats_header`: 64 bytes, alignment 8.
    Shared memory, written by the client. Followed by `entries` (stat_entry[max_stats]) at offset 64.

    Fields (offset, name, type):
        0x0000 seq: u32
            Client: odd while it writes the stats
            Access: atomic (client).
        0x0004 count: u32
            Client: stats in use
            Access: seqlock stats (client).
        0x0008 max_stats: u32
            Host: entries the area holds
            Access: plain (host).
        0x000c _pad12: u8[4]
        0x0010 ticks: u64
            Client: snapshots it waited for and got
            Access: atomic (client).
        0x0018 skipped: u64
            Client: publications it missed (latest wins)
            Access: atomic (client).
        0x0020 wake_p50_us: f32
            Client: publish-to-wake over its last ticks, median
            Access: plain (client).
        0x0024 wake_p99_us: f32
            Access: plain (client).
        0x0028 _pad40: u8[24]
    """

    _align_ = 8
    _fields_ = [
        ("seq", ctypes.c_uint32),
        ("count", ctypes.c_uint32),
        ("max_stats", ctypes.c_uint32),
        ("_pad12", ctypes.c_uint8 * 4),
        ("ticks", ctypes.c_uint64),
        ("skipped", ctypes.c_uint64),
        ("wake_p50_us", ctypes.c_float),
        ("wake_p99_us", ctypes.c_float),
        ("_pad40", ctypes.c_uint8 * 24),
    ]


class StatEntry(_Struct):
    """One stat: a number or a short text

    Schema struct `stat_entry`: 64 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 name: char[STAT_NAME_LEN] (text)
        0x0018 kind: StatKind (u8)
            As StatKind: kind_enum.
        0x0019 flags: StatFlags (u8)
            As StatFlags: flags_enum.
        0x001a _pad26: u8[6]
        0x0020 value: f64
            number
        0x0028 text: char[STAT_TEXT_LEN] (text)
            text
    """

    _align_ = 8
    _fields_ = [
        ("name", ctypes.c_char * STAT_NAME_LEN),
        ("kind", ctypes.c_uint8),  # StatKind
        ("flags", ctypes.c_uint8),  # StatFlags
        ("_pad26", ctypes.c_uint8 * 6),
        ("value", ctypes.c_double),
        ("text", ctypes.c_char * STAT_TEXT_LEN),
    ]
    _Enums = {
        "kind": StatKind, "flags": StatFlags,
    }
    kind_enum = _enum_field("kind", StatKind, "The field kind as StatKind.")
    flags_enum = _enum_field("flags", StatFlags, "The field flags as StatFlags.")


class MailboxHeader(_Struct):
    """A client's command mailbox: one request at a time. The request text follows the header, then the response text

    Schema struct `mailbox_header`: 64 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 request_seq: u32
            Client: bumped (release) after each request's text and length are written
            Access: atomic (client).
        0x0004 request_len: u32
            Client: bytes of the request, at most request_capacity - 1
            Access: plain (client).
        0x0008 response_seq: u32
            Host: the request_seq answered, stored (release) after the rest
            Access: atomic (host).
        0x000c status: CommandStatus (u32)
            Host
            Access: plain (host).
            As CommandStatus: status_enum.
        0x0010 response_len: u32
            Host: bytes of the result in the response area
            Access: plain (host).
        0x0014 response_total: u32
            Host: bytes of the whole result; more than response_len when it was cut
            Access: plain (host).
        0x0018 request_capacity: u32
            Host: bytes of the request area
            Access: plain (host).
        0x001c response_capacity: u32
            Host: bytes of the response area, which follows the request area
            Access: plain (host).
        0x0020 _pad32: u8[32]
    """

    _fields_ = [
        ("request_seq", ctypes.c_uint32),
        ("request_len", ctypes.c_uint32),
        ("response_seq", ctypes.c_uint32),
        ("status", ctypes.c_uint32),  # CommandStatus
        ("response_len", ctypes.c_uint32),
        ("response_total", ctypes.c_uint32),
        ("request_capacity", ctypes.c_uint32),
        ("response_capacity", ctypes.c_uint32),
        ("_pad32", ctypes.c_uint8 * 32),
    ]
    _Enums = {
        "status": CommandStatus,
    }
    status_enum = _enum_field("status", CommandStatus, "The field status as CommandStatus.")


class RingSlotHeader(_Struct):
    """The start of a snapshot ring slot; the snapshot and its extras follow it

    Schema struct `ring_slot_header`: 64 bytes, alignment 8.
    Shared memory, written by the host. Followed by `payload` (snapshot) at offset 64.

    Fields (offset, name, type):
        0x0000 seq: u32
            Odd while the host writes the slot
            Access: atomic (host).
        0x0004 size: u32
            Payload bytes: the snapshot, then its extras
            Access: seqlock ring_slot (host).
        0x0008 publish_seq: u64
            The snapshot_seq this slot was published as
            Access: seqlock ring_slot (host).
        0x0010 tick: u64
            Access: seqlock ring_slot (host).
        0x0018 publish_ns: u64
            Host clock when the payload was complete
            Access: seqlock ring_slot (host).
        0x0020 _pad32: u8[32]
    """

    _align_ = 8
    _fields_ = [
        ("seq", ctypes.c_uint32),
        ("size", ctypes.c_uint32),
        ("publish_seq", ctypes.c_uint64),
        ("tick", ctypes.c_uint64),
        ("publish_ns", ctypes.c_uint64),
        ("_pad32", ctypes.c_uint8 * 32),
    ]


class LogEntry(_Struct):
    """One log entry in the host log ring or a client's log queue; the source, then the text, follow it

    Schema struct `log_entry`: 40 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 size: u16
            Bytes of the entry with its source and text, a multiple of 8
        0x0002 kind: LogEntryKind (u8)
            As LogEntryKind: kind_enum.
        0x0003 level: LogLevel (u8)
            As LogLevel: level_enum.
        0x0004 source_len: u8
        0x0005 _pad5: u8
        0x0006 text_len: u16
        0x0008 thread: u32
        0x000c _pad12: u8[4]
        0x0010 seq: u64
            Entries written before this one
        0x0018 time_ns: u64
            Host clock
        0x0020 tick: u64
    """

    _align_ = 8
    _fields_ = [
        ("size", ctypes.c_uint16),
        ("kind", ctypes.c_uint8),  # LogEntryKind
        ("level", ctypes.c_uint8),  # LogLevel
        ("source_len", ctypes.c_uint8),
        ("_pad5", ctypes.c_uint8),
        ("text_len", ctypes.c_uint16),
        ("thread", ctypes.c_uint32),
        ("_pad12", ctypes.c_uint8 * 4),
        ("seq", ctypes.c_uint64),
        ("time_ns", ctypes.c_uint64),
        ("tick", ctypes.c_uint64),
    ]
    _Enums = {
        "kind": LogEntryKind, "level": LogLevel,
    }
    kind_enum = _enum_field("kind", LogEntryKind, "The field kind as LogEntryKind.")
    level_enum = _enum_field("level", LogLevel, "The field level as LogLevel.")


class LogRingHeader(_Struct):
    """The host log ring: one writer (the host's log drain), any number of readers, oldest overwritten

    Schema struct `log_ring_header`: 64 bytes, alignment 8.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 write_pos: u64
            Bytes ever written; the next entry starts at write_pos % capacity
            Access: atomic (host).
        0x0008 tail_pos: u64
            The oldest whole entry; a reader behind it was lapped
            Access: atomic (host).
        0x0010 capacity: u32
            Access: plain (host).
        0x0014 _pad20: u8[4]
        0x0018 entries: u64
            Entries written
            Access: atomic (host).
        0x0020 _pad32: u8[32]
    """

    _align_ = 8
    _fields_ = [
        ("write_pos", ctypes.c_uint64),
        ("tail_pos", ctypes.c_uint64),
        ("capacity", ctypes.c_uint32),
        ("_pad20", ctypes.c_uint8 * 4),
        ("entries", ctypes.c_uint64),
        ("_pad32", ctypes.c_uint8 * 32),
    ]


class LogQueueHeader(_Struct):
    """A client's log queue: the client writes, the host reads. Full means the entry is dropped and counted

    Schema struct `log_queue_header`: 64 bytes, alignment 8.
    Shared memory, written by the client.

    Fields (offset, name, type):
        0x0000 write_pos: u64
            Client: bytes ever written
            Access: atomic (client).
        0x0008 dropped: u64
            Client: entries that did not fit
            Access: atomic (client).
        0x0010 capacity: u32
            Access: plain (host).
        0x0014 _pad20: u8[12]
        0x0020 read_pos: u64
            Host: bytes consumed
            Access: atomic (host).
        0x0028 _pad40: u8[24]
    """

    _align_ = 8
    _fields_ = [
        ("write_pos", ctypes.c_uint64),
        ("dropped", ctypes.c_uint64),
        ("capacity", ctypes.c_uint32),
        ("_pad20", ctypes.c_uint8 * 12),
        ("read_pos", ctypes.c_uint64),
        ("_pad40", ctypes.c_uint8 * 24),
    ]


class ClientBlockHeader(_Struct):
    """The start of a client block; the host writes it

    Schema struct `client_block_header`: 72 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 size: u32
            Access: plain (host).
        0x0004 region_count: u32
            Access: plain (host).
        0x0008 regions: RegionEntry[MAX_REGIONS]
            Indexed by client_region
            Entries in use: region_count.
            Access: plain (host).
    """

    _fields_ = [
        ("size", ctypes.c_uint32),
        ("region_count", ctypes.c_uint32),
        ("regions", RegionEntry * MAX_REGIONS),
    ]
    _Counts = {
        "regions": ("region_count",),
    }


class DirectoryEntry(_Struct):
    """One running host in the directory

    Schema struct `directory_entry`: 64 bytes, alignment 8.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 state: InstanceState (u32)
            Access: cas (host).
            As InstanceState: state_enum.
        0x0004 pid: u32
            Access: plain (host).
        0x0008 process_time: u64
            The host process's creation time (FILETIME): tells a reused PID apart, and orders instances
            Access: plain (host).
        0x0010 abi_major: u16
            Access: plain (host).
        0x0012 abi_minor: u16
            Access: plain (host).
        0x0014 _pad20: u8[4]
        0x0018 host_version: char[VERSION_LEN] (text)
            Access: plain (host).
        0x0038 _pad56: u8[8]
    """

    _align_ = 8
    _fields_ = [
        ("state", ctypes.c_uint32),  # InstanceState
        ("pid", ctypes.c_uint32),
        ("process_time", ctypes.c_uint64),
        ("abi_major", ctypes.c_uint16),
        ("abi_minor", ctypes.c_uint16),
        ("_pad20", ctypes.c_uint8 * 4),
        ("host_version", ctypes.c_char * VERSION_LEN),
        ("_pad56", ctypes.c_uint8 * 8),
    ]
    _Enums = {
        "state": InstanceState,
    }
    state_enum = _enum_field("state", InstanceState, "The field state as InstanceState.")


class DirectoryHeader(_Struct):
    """Local\\ibf.directory: the hosts running in this logon session

    Schema struct `directory_header`: 1088 bytes, alignment 8.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 magic: u32
            directory_magic
            Always DIRECTORY_MAGIC.
            Access: plain (host).
        0x0004 entry_count: u32
            Access: plain (host).
        0x0008 entry_size: u32
            Access: plain (host).
        0x000c _pad12: u8[52]
        0x0040 entries: DirectoryEntry[MAX_INSTANCES]
            Entries in use: entry_count.
            Access: plain (host).
    """

    _align_ = 8
    _fields_ = [
        ("magic", ctypes.c_uint32),
        ("entry_count", ctypes.c_uint32),
        ("entry_size", ctypes.c_uint32),
        ("_pad12", ctypes.c_uint8 * 52),
        ("entries", DirectoryEntry * MAX_INSTANCES),
    ]
    _Counts = {
        "entries": ("entry_count",),
    }


class HeatmapHeader(_Struct):
    """The start of a heatmap's payload; width x height u8 values follow, row by row from the bottom row (ABI 0.5)

    Schema struct `heatmap_header`: 8 bytes, alignment 1, since ABI 0.5.

    Fields (offset, name, type):
        0x0000 palette: HeatmapPalette (u8)
            As HeatmapPalette: palette_enum.
        0x0001 flags: HeatmapFlags (u8)
            As HeatmapFlags: flags_enum.
        0x0002 _pad2: u8[6]
    """

    _fields_ = [
        ("palette", ctypes.c_uint8),  # HeatmapPalette
        ("flags", ctypes.c_uint8),  # HeatmapFlags
        ("_pad2", ctypes.c_uint8 * 6),
    ]
    _Enums = {
        "palette": HeatmapPalette, "flags": HeatmapFlags,
    }
    palette_enum = _enum_field("palette", HeatmapPalette, "The field palette as HeatmapPalette.")
    flags_enum = _enum_field("flags", HeatmapFlags, "The field flags as HeatmapFlags.")


class DrawCmd(_Struct):
    """One drawing (design 8.4). By op, in the command's space: line, arrow: from (a, b) to (c, d), thickness pixels wide. polyline: the payload's points (vec2 each); flags.closed joins the ends. rect, rect_fill: the corners (a, b) and (c, d). circle, circle_fill: centre (a, b), radius c (screen_norm: a fraction of the height). text: the payload's UTF-8 hanging from (a, b), or centred on it (flags.centered); c is the size in pixels, 0 for the overlay's. tile_fill, tile_outline: tile (a, b), c x d tiles (0 counts as 1), whatever the space. heatmap: c x d cells from tile (a, b), the lower-left; the payload is a heatmap_header, then the cells. The colour's alpha is the opacity.

    Schema struct `draw_cmd`: 36 bytes, alignment 4.

    Fields (offset, name, type):
        0x0000 op: DrawOp (u8)
            As DrawOp: op_enum.
        0x0001 space: DrawSpace (u8)
            As DrawSpace: space_enum.
        0x0002 layer: DrawLayer (u8)
            As DrawLayer: layer_enum.
        0x0003 flags: DrawFlags (u8)
            As DrawFlags: flags_enum.
        0x0004 color: u32
            RGBA, byte order R, G, B, A (ImGui IM_COL32)
        0x0008 thickness: f32
            Pixels
        0x000c a: f32
        0x0010 b: f32
        0x0014 c: f32
        0x0018 d: f32
        0x001c payload_off: u32
            Points, UTF-8 text or heatmap cells in the list's payload area
        0x0020 payload_len: u16
        0x0022 _pad34: u8[2]
    """

    _fields_ = [
        ("op", ctypes.c_uint8),  # DrawOp
        ("space", ctypes.c_uint8),  # DrawSpace
        ("layer", ctypes.c_uint8),  # DrawLayer
        ("flags", ctypes.c_uint8),  # DrawFlags
        ("color", ctypes.c_uint32),
        ("thickness", ctypes.c_float),
        ("a", ctypes.c_float),
        ("b", ctypes.c_float),
        ("c", ctypes.c_float),
        ("d", ctypes.c_float),
        ("payload_off", ctypes.c_uint32),
        ("payload_len", ctypes.c_uint16),
        ("_pad34", ctypes.c_uint8 * 2),
    ]
    _Enums = {
        "op": DrawOp, "space": DrawSpace, "layer": DrawLayer, "flags": DrawFlags,
    }
    op_enum = _enum_field("op", DrawOp, "The field op as DrawOp.")
    space_enum = _enum_field("space", DrawSpace, "The field space as DrawSpace.")
    layer_enum = _enum_field("layer", DrawLayer, "The field layer as DrawLayer.")
    flags_enum = _enum_field("flags", DrawFlags, "The field flags as DrawFlags.")


class Vec2(_Struct):
    """2-D vector in world units (tiles): origin at the board centre, +Y up

    Schema struct `vec2`: 8 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 x: f32
            Access: plain (host).
        0x0004 y: f32
            Access: plain (host).
    """

    _fields_ = [
        ("x", ctypes.c_float),
        ("y", ctypes.c_float),
    ]


class PadInput(_Struct):
    """One virtual pad. Written under a seqlock: seq is odd while the client writes. A record whose seq stays the same for input.timeout_ms reads neutral

    Schema struct `pad_input`: 32 bytes, alignment 8.
    Shared memory, written by the client.

    Fields (offset, name, type):
        0x0000 seq: u32
            Access: atomic (client).
        0x0004 flags: PadInputFlags (u32)
            Access: seqlock pad_input (client).
            As PadInputFlags: flags_enum.
        0x0008 for_tick: u64
            The tick of the snapshot this input answers; the host counts the lag, and lockstep (M6) waits for it
            Access: seqlock pad_input (client).
        0x0010 lx: i16
            -32768..32767, +Y up
            Access: seqlock pad_input (client).
        0x0012 ly: i16
            Access: seqlock pad_input (client).
        0x0014 rx: i16
            Access: seqlock pad_input (client).
        0x0016 ry: i16
            Access: seqlock pad_input (client).
        0x0018 buttons: PadButtons (u16)
            Access: seqlock pad_input (client).
            As PadButtons: buttons_enum.
        0x001a lt: u8
            Access: seqlock pad_input (client).
        0x001b rt: u8
            Access: seqlock pad_input (client).
        0x001c _pad28: u8[4]
    """

    _align_ = 8
    _fields_ = [
        ("seq", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),  # PadInputFlags
        ("for_tick", ctypes.c_uint64),
        ("lx", ctypes.c_int16),
        ("ly", ctypes.c_int16),
        ("rx", ctypes.c_int16),
        ("ry", ctypes.c_int16),
        ("buttons", ctypes.c_uint16),  # PadButtons
        ("lt", ctypes.c_uint8),
        ("rt", ctypes.c_uint8),
        ("_pad28", ctypes.c_uint8 * 4),
    ]
    _Enums = {
        "flags": PadInputFlags, "buttons": PadButtons,
    }
    flags_enum = _enum_field("flags", PadInputFlags, "The field flags as PadInputFlags.")
    buttons_enum = _enum_field("buttons", PadButtons, "The field buttons as PadButtons.")


class RecPad(_Struct):
    """One pad as the game last polled it before a tick

    Schema struct `rec_pad`: 24 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 for_tick: u64
            The tick a bot's record answered; 0 when no bot answered the poll
        0x0008 lx: i16
        0x000a ly: i16
        0x000c rx: i16
        0x000e ry: i16
        0x0010 buttons: PadButtons (u16)
            As PadButtons: buttons_enum.
        0x0012 lt: u8
        0x0013 rt: u8
        0x0014 source: RecPadSource (u8)
            As RecPadSource: source_enum.
        0x0015 owner: u8
            A bot pad's owner (its client row), or no_pad
        0x0016 _pad22: u8[2]
    """

    _align_ = 8
    _fields_ = [
        ("for_tick", ctypes.c_uint64),
        ("lx", ctypes.c_int16),
        ("ly", ctypes.c_int16),
        ("rx", ctypes.c_int16),
        ("ry", ctypes.c_int16),
        ("buttons", ctypes.c_uint16),  # PadButtons
        ("lt", ctypes.c_uint8),
        ("rt", ctypes.c_uint8),
        ("source", ctypes.c_uint8),  # RecPadSource
        ("owner", ctypes.c_uint8),
        ("_pad22", ctypes.c_uint8 * 2),
    ]
    _Enums = {
        "buttons": PadButtons, "source": RecPadSource,
    }
    buttons_enum = _enum_field("buttons", PadButtons, "The field buttons as PadButtons.")
    source_enum = _enum_field("source", RecPadSource, "The field source as RecPadSource.")


class RecTickHeader(_Struct):
    """One tick record; the snapshot and its extras follow it

    Schema struct `rec_tick_header`: 136 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 size: u32
            Bytes of the record: this header and data_size
        0x0004 data_size: u32
            Bytes of the snapshot and its extras
        0x0008 kind: RecRecordKind (u8)
            As RecRecordKind: kind_enum.
        0x0009 _pad9: u8[7]
        0x0010 tick: u64
        0x0018 frame: u64
        0x0020 host_time_ns: u64
            The host clock when the tick was published
        0x0028 pads: RecPad[MAX_PLAYERS]
            What the game last polled from each pad before this tick
    """

    _align_ = 8
    _fields_ = [
        ("size", ctypes.c_uint32),
        ("data_size", ctypes.c_uint32),
        ("kind", ctypes.c_uint8),  # RecRecordKind
        ("_pad9", ctypes.c_uint8 * 7),
        ("tick", ctypes.c_uint64),
        ("frame", ctypes.c_uint64),
        ("host_time_ns", ctypes.c_uint64),
        ("pads", RecPad * MAX_PLAYERS),
    ]
    _Enums = {
        "kind": RecRecordKind,
    }
    kind_enum = _enum_field("kind", RecRecordKind, "The field kind as RecRecordKind.")


class RecFileHeader(_Struct):
    """The first 512 bytes of a recording

    Schema struct `rec_file_header`: 512 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 magic: u32
            rec_magic
            Always REC_MAGIC.
        0x0004 format: u16
            rec_format
            Always REC_FORMAT.
        0x0006 header_size: u16
            sizeof(rec_file_header)
        0x0008 schema_major: u16
            The snapshot's ABI
        0x000a schema_minor: u16
        0x000c snapshot_size: u32
            sizeof(snapshot) for the host that recorded
        0x0010 chunk_ticks: u32
            rec_chunk_ticks
        0x0014 host_pid: u32
        0x0018 start_unix_ns: i64
            When recording started
        0x0020 start_mono_ns: u64
            The host clock then
        0x0028 controls: Controls
            The pad input each game action mapped to
        0x0038 run_mode: RunMode (u8)
            When recording started
            As RunMode: run_mode_enum.
        0x0039 bot_pads: u8
            Bit n: pad n was a bot pad
        0x003a _pad58: u8[2]
        0x003c lockstep_timeout_ms: u32
        0x0040 host_version: char[VERSION_LEN] (text)
        0x0060 profile_name: char[64] (text)
        0x00a0 exe_sha256: char[80] (text)
            The game executable's SHA-256 in hex
        0x00f0 note: char[256] (text)
            Free text: what was recorded
        0x01f0 _pad496: u8[16]
    """

    _align_ = 8
    _fields_ = [
        ("magic", ctypes.c_uint32),
        ("format", ctypes.c_uint16),
        ("header_size", ctypes.c_uint16),
        ("schema_major", ctypes.c_uint16),
        ("schema_minor", ctypes.c_uint16),
        ("snapshot_size", ctypes.c_uint32),
        ("chunk_ticks", ctypes.c_uint32),
        ("host_pid", ctypes.c_uint32),
        ("start_unix_ns", ctypes.c_int64),
        ("start_mono_ns", ctypes.c_uint64),
        ("controls", Controls),
        ("run_mode", ctypes.c_uint8),  # RunMode
        ("bot_pads", ctypes.c_uint8),
        ("_pad58", ctypes.c_uint8 * 2),
        ("lockstep_timeout_ms", ctypes.c_uint32),
        ("host_version", ctypes.c_char * VERSION_LEN),
        ("profile_name", ctypes.c_char * 64),
        ("exe_sha256", ctypes.c_char * 80),
        ("note", ctypes.c_char * 256),
        ("_pad496", ctypes.c_uint8 * 16),
    ]
    _Enums = {
        "run_mode": RunMode,
    }
    run_mode_enum = _enum_field("run_mode", RunMode, "The field run_mode as RunMode.")


class RecChunkHeader(_Struct):
    """One chunk: its zlib stream follows

    Schema struct `rec_chunk_header`: 32 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 magic: u32
            rec_chunk_magic
            Always REC_CHUNK_MAGIC.
        0x0004 stored_size: u32
            Bytes of the zlib stream
        0x0008 raw_size: u32
            Bytes of tick records it inflates to
        0x000c tick_count: u32
        0x0010 first_tick: u64
        0x0018 last_tick: u64
    """

    _align_ = 8
    _fields_ = [
        ("magic", ctypes.c_uint32),
        ("stored_size", ctypes.c_uint32),
        ("raw_size", ctypes.c_uint32),
        ("tick_count", ctypes.c_uint32),
        ("first_tick", ctypes.c_uint64),
        ("last_tick", ctypes.c_uint64),
    ]


class RecChunkEntry(_Struct):
    """The footer's index of a chunk

    Schema struct `rec_chunk_entry`: 24 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 offset: u64
            Of its rec_chunk_header, from the file's start
        0x0008 first_tick: u64
        0x0010 last_tick: u64
    """

    _align_ = 8
    _fields_ = [
        ("offset", ctypes.c_uint64),
        ("first_tick", ctypes.c_uint64),
        ("last_tick", ctypes.c_uint64),
    ]


class RecMark(_Struct):
    """A match or round boundary, from the snapshots' events

    Schema struct `rec_mark`: 16 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 tick: u64
        0x0008 kind: EventKind (u16)
            match_started, round_started, round_ended or match_ended
            As EventKind: kind_enum.
        0x000a _pad10: u8[2]
        0x000c a: i32
            The event's a: the round number, or the winner
    """

    _align_ = 8
    _fields_ = [
        ("tick", ctypes.c_uint64),
        ("kind", ctypes.c_uint16),  # EventKind
        ("_pad10", ctypes.c_uint8 * 2),
        ("a", ctypes.c_int32),
    ]
    _Enums = {
        "kind": EventKind,
    }
    kind_enum = _enum_field("kind", EventKind, "The field kind as EventKind.")


class RecFooter(_Struct):
    """The footer: chunk_count rec_chunk_entry and mark_count rec_mark follow it

    Schema struct `rec_footer`: 48 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 magic: u32
            rec_footer_magic
            Always REC_FOOTER_MAGIC.
        0x0004 chunk_count: u32
        0x0008 mark_count: u32
        0x000c dropped: u32
            Ticks the recorder could not keep up with
        0x0010 ticks: u64
            Tick records in the file
        0x0018 first_tick: u64
        0x0020 last_tick: u64
        0x0028 end_unix_ns: i64
            When recording stopped
    """

    _align_ = 8
    _fields_ = [
        ("magic", ctypes.c_uint32),
        ("chunk_count", ctypes.c_uint32),
        ("mark_count", ctypes.c_uint32),
        ("dropped", ctypes.c_uint32),
        ("ticks", ctypes.c_uint64),
        ("first_tick", ctypes.c_uint64),
        ("last_tick", ctypes.c_uint64),
        ("end_unix_ns", ctypes.c_int64),
    ]


class RecTrailer(_Struct):
    """A recording's last 16 bytes

    Schema struct `rec_trailer`: 16 bytes, alignment 8.

    Fields (offset, name, type):
        0x0000 footer_offset: u64
            Of the rec_footer, from the file's start
        0x0008 _pad8: u8[4]
        0x000c magic: u32
            rec_trailer_magic
            Always REC_TRAILER_MAGIC.
    """

    _align_ = 8
    _fields_ = [
        ("footer_offset", ctypes.c_uint64),
        ("_pad8", ctypes.c_uint8 * 4),
        ("magic", ctypes.c_uint32),
    ]


class SnapshotHeader(_Struct):
    """Schema struct `snapshot_header`: 48 bytes, alignment 8.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 magic: u32
            snapshot_magic
            Always SNAPSHOT_MAGIC.
            Access: plain (host).
        0x0004 schema_major: u16
            Access: plain (host).
        0x0006 schema_minor: u16
            Access: plain (host).
        0x0008 size: u32
            Bytes in this snapshot, including extras
            Access: plain (host).
        0x000c flags: SnapshotFlags (u32)
            Access: plain (host).
            As SnapshotFlags: flags_enum.
        0x0010 frame: u64
            Present calls since start-up
            Access: plain (host).
        0x0018 tick: u64
            Simulation steps since start-up (equals frame in fallback mode)
            Access: plain (host).
        0x0020 host_time_ns: u64
            Monotonic host clock
            Access: plain (host).
        0x0028 game_time: f32
            Round time in seconds: counts during play, from 0 at each round start
            Access: plain (host).
        0x002c invalid_reason: InvalidReason (u16)
            Access: plain (host).
            As InvalidReason: invalid_reason_enum.
        0x002e tick_source: TickSource (u8)
            Which hook built the snapshot
            Access: plain (host).
            As TickSource: tick_source_enum.
        0x002f _pad47: u8
    """

    _align_ = 8
    _fields_ = [
        ("magic", ctypes.c_uint32),
        ("schema_major", ctypes.c_uint16),
        ("schema_minor", ctypes.c_uint16),
        ("size", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),  # SnapshotFlags
        ("frame", ctypes.c_uint64),
        ("tick", ctypes.c_uint64),
        ("host_time_ns", ctypes.c_uint64),
        ("game_time", ctypes.c_float),
        ("invalid_reason", ctypes.c_uint16),  # InvalidReason
        ("tick_source", ctypes.c_uint8),  # TickSource
        ("_pad47", ctypes.c_uint8),
    ]
    _Enums = {
        "flags": SnapshotFlags, "invalid_reason": InvalidReason, "tick_source": TickSource,
    }
    flags_enum = _enum_field("flags", SnapshotFlags, "The field flags as SnapshotFlags.")
    invalid_reason_enum = _enum_field("invalid_reason", InvalidReason, "The field invalid_reason as InvalidReason.")
    tick_source_enum = _enum_field("tick_source", TickSource, "The field tick_source as TickSource.")


class Game(_Struct):
    """Schema struct `game`: 24 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 menu_id: i32
            Raw menu ID
            Access: plain (host).
        0x0004 menu_depth: i32
            Access: plain (host).
        0x0008 menu_item: i32
            Highlighted item; top item is 0
            Access: plain (host).
        0x000c arcade_score: i32
            The arcade score (the screen's counts up to it)
            Access: plain (host).
        0x0010 lives: i16
            Lives left (arcade), the ship in play included: the squares on screen are lives - players
            Access: plain (host).
        0x0012 phase: Phase (u8)
            Access: plain (host).
            As Phase: phase_enum.
        0x0013 paused: u8
            Access: plain (host).
        0x0014 focused: u8
            The game believes its window has focus
            Access: plain (host).
        0x0015 player_count: u8
            Access: plain (host).
        0x0016 _pad22: u8[2]
    """

    _fields_ = [
        ("menu_id", ctypes.c_int32),
        ("menu_depth", ctypes.c_int32),
        ("menu_item", ctypes.c_int32),
        ("arcade_score", ctypes.c_int32),
        ("lives", ctypes.c_int16),
        ("phase", ctypes.c_uint8),  # Phase
        ("paused", ctypes.c_uint8),
        ("focused", ctypes.c_uint8),
        ("player_count", ctypes.c_uint8),
        ("_pad22", ctypes.c_uint8 * 2),
    ]
    _Enums = {
        "phase": Phase,
    }
    phase_enum = _enum_field("phase", Phase, "The field phase as Phase.")


class Board(_Struct):
    """Schema struct `board`: 4100 bytes, alignment 2.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 width: u16
            Access: plain (host).
        0x0002 height: u16
            Access: plain (host).
        0x0004 tiles: Tile[BOARD_MAX_TILES] (u8)
            Row-major, index y * width + x, row 0 at the bottom
            Access: plain (host).
            As a list of Tile: tiles_enum.
    """

    _fields_ = [
        ("width", ctypes.c_uint16),
        ("height", ctypes.c_uint16),
        ("tiles", ctypes.c_uint8 * BOARD_MAX_TILES),  # Tile
    ]
    _Enums = {
        "tiles": Tile,
    }
    tiles_enum = _enum_array("tiles", Tile, "The field tiles as a list of Tile.")


class Ship(_Struct):
    """Schema struct `ship`: 64 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 pos: Vec2
            Access: plain (host).
        0x0008 vel: Vec2
            Direction of movement: a unit vector while moving, zero when still (Inversus 1.2.0 keeps no speed)
            Access: plain (host).
        0x0010 last_shot_pos: Vec2
            Access: plain (host).
        0x0018 reload_progress: f32
            Access: plain (host).
        0x001c reload_time: f32
            Access: plain (host).
        0x0020 time_alive: f32
            Access: plain (host).
        0x0024 time_since_shot: f32
            The charge timer: from 0 when a charge starts and when a shot fires, so it counts a held button
            Access: plain (host).
        0x0028 score: i32
            Versus: round wins of the ship's team
            Access: plain (host).
        0x002c multiplier: i32
            Already de-obfuscated
            Access: plain (host).
        0x0030 valid: ShipValid (u32)
            One bit per field the profile marks confirmed
            Access: plain (host).
            As ShipValid: valid_enum.
        0x0034 flags: ShipFlags (u16)
            Access: plain (host).
            As ShipFlags: flags_enum.
        0x0036 player_id: u8
            Player index 0-3 (Inversus 1.2.0 stores one bit per player), or no_player for an arcade enemy
            Access: plain (host).
        0x0037 color: Color (u8)
            Access: plain (host).
            As Color: color_enum.
        0x0038 alive: u8
            Access: plain (host).
        0x0039 ammo: u8
            Access: plain (host).
        0x003a max_ammo: u8
            Access: plain (host).
        0x003b fast_ammo: u8
            Red shots held
            Access: plain (host).
        0x003c charge_dir: Dir (u8)
            Access: plain (host).
            As Dir: charge_dir_enum.
        0x003d _pad61: u8[3]
    """

    _fields_ = [
        ("pos", Vec2),
        ("vel", Vec2),
        ("last_shot_pos", Vec2),
        ("reload_progress", ctypes.c_float),
        ("reload_time", ctypes.c_float),
        ("time_alive", ctypes.c_float),
        ("time_since_shot", ctypes.c_float),
        ("score", ctypes.c_int32),
        ("multiplier", ctypes.c_int32),
        ("valid", ctypes.c_uint32),  # ShipValid
        ("flags", ctypes.c_uint16),  # ShipFlags
        ("player_id", ctypes.c_uint8),
        ("color", ctypes.c_uint8),  # Color
        ("alive", ctypes.c_uint8),
        ("ammo", ctypes.c_uint8),
        ("max_ammo", ctypes.c_uint8),
        ("fast_ammo", ctypes.c_uint8),
        ("charge_dir", ctypes.c_uint8),  # Dir
        ("_pad61", ctypes.c_uint8 * 3),
    ]
    _Enums = {
        "valid": ShipValid, "flags": ShipFlags, "color": Color, "charge_dir": Dir,
    }
    valid_enum = _enum_field("valid", ShipValid, "The field valid as ShipValid.")
    flags_enum = _enum_field("flags", ShipFlags, "The field flags as ShipFlags.")
    color_enum = _enum_field("color", Color, "The field color as Color.")
    charge_dir_enum = _enum_field("charge_dir", Dir, "The field charge_dir as Dir.")


class Projectile(_Struct):
    """Schema struct `projectile`: 24 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 pos: Vec2
            Access: plain (host).
        0x0008 speed: f32
            Access: plain (host).
        0x000c time_alive: f32
            Seconds since it spawned
            Access: plain (host).
        0x0010 kind_raw: i32
            The game's own type value
            Access: plain (host).
        0x0014 dir: Dir (u8)
            Access: plain (host).
            As Dir: dir_enum.
        0x0015 kind: ProjectileKind (u8)
            Access: plain (host).
            As ProjectileKind: kind_enum.
        0x0016 owner: u8
            Player ID, or no_player when unknown
            Access: plain (host).
        0x0017 _pad23: u8
    """

    _fields_ = [
        ("pos", Vec2),
        ("speed", ctypes.c_float),
        ("time_alive", ctypes.c_float),
        ("kind_raw", ctypes.c_int32),
        ("dir", ctypes.c_uint8),  # Dir
        ("kind", ctypes.c_uint8),  # ProjectileKind
        ("owner", ctypes.c_uint8),
        ("_pad23", ctypes.c_uint8),
    ]
    _Enums = {
        "dir": Dir, "kind": ProjectileKind,
    }
    dir_enum = _enum_field("dir", Dir, "The field dir as Dir.")
    kind_enum = _enum_field("kind", ProjectileKind, "The field kind as ProjectileKind.")


class Pickup(_Struct):
    """Schema struct `pickup`: 16 bytes, alignment 4.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 pos: Vec2
            Access: plain (host).
        0x0008 time_alive: f32
            Access: plain (host).
        0x000c kind: PickupKind (u8)
            Access: plain (host).
            As PickupKind: kind_enum.
        0x000d amount: u8
            Access: plain (host).
        0x000e _pad14: u8[2]
    """

    _fields_ = [
        ("pos", Vec2),
        ("time_alive", ctypes.c_float),
        ("kind", ctypes.c_uint8),  # PickupKind
        ("amount", ctypes.c_uint8),
        ("_pad14", ctypes.c_uint8 * 2),
    ]
    _Enums = {
        "kind": PickupKind,
    }
    kind_enum = _enum_field("kind", PickupKind, "The field kind as PickupKind.")


class Event(_Struct):
    """Schema struct `event`: 24 bytes, alignment 8.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 tick: u64
            Tick the event was detected on
            Access: plain (host).
        0x0008 a: i32
            Access: plain (host).
        0x000c b: i32
            Access: plain (host).
        0x0010 kind: EventKind (u16)
            Access: plain (host).
            As EventKind: kind_enum.
        0x0012 player: u8
            Player ID, or no_player
            Access: plain (host).
        0x0013 _pad19: u8[5]
    """

    _align_ = 8
    _fields_ = [
        ("tick", ctypes.c_uint64),
        ("a", ctypes.c_int32),
        ("b", ctypes.c_int32),
        ("kind", ctypes.c_uint16),  # EventKind
        ("player", ctypes.c_uint8),
        ("_pad19", ctypes.c_uint8 * 5),
    ]
    _Enums = {
        "kind": EventKind,
    }
    kind_enum = _enum_field("kind", EventKind, "The field kind as EventKind.")


class Match(_Struct):
    """The running match and its map (ABI 0.6)

    Schema struct `match`: 20 bytes, alignment 4, since ABI 0.6.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 map_scale: f32
            The map's zoom: pixels per tile = ceil(round(available pixels x map_scale) / tiles) on the limiting axis
            Access: plain (host).
        0x0004 focus_hash: u32
            FNV-1a hash of the focused menu button's name (ResumeButton, RetryButton, ...); 0 when none
            Access: plain (host).
        0x0008 game_type: GameType (u8)
            Access: plain (host).
            As GameType: game_type_enum.
        0x0009 map_set: u8
            0 tutorial, 1 arcade one player, 2 arcade two players, 3 versus 1v1, 4 versus 2v2; 255 none
            Access: plain (host).
        0x000a map_index: u8
            The map's index in its set (the map select's item); 255 none
            Access: plain (host).
        0x000b wrap: u8
            1 when ships and shots cross the board's edges to the other side
            Access: plain (host).
        0x000c wrap_shift_x: i8
            Columns a crossing of the top edge moves left by (of the bottom edge, right)
            Access: plain (host).
        0x000d wrap_shift_y: i8
            Rows a crossing of the right edge moves down by (of the left edge, up)
            Access: plain (host).
        0x000e rounds_to_win: u8
            Versus: round wins that take the match
            Access: plain (host).
        0x000f round_state: RoundState (u8)
            Access: plain (host).
            As RoundState: round_state_enum.
        0x0010 round_winner: u8
            The team that won the round once round_state is decided; no_player otherwise
            Access: plain (host).
        0x0011 teams: u8
            Teams in the game: 2 in versus
            Access: plain (host).
        0x0012 pickup_spawn_count: u8
            Entries used in pickup_spawns
            Access: plain (host).
        0x0013 _pad19: u8
    """

    _fields_ = [
        ("map_scale", ctypes.c_float),
        ("focus_hash", ctypes.c_uint32),
        ("game_type", ctypes.c_uint8),  # GameType
        ("map_set", ctypes.c_uint8),
        ("map_index", ctypes.c_uint8),
        ("wrap", ctypes.c_uint8),
        ("wrap_shift_x", ctypes.c_int8),
        ("wrap_shift_y", ctypes.c_int8),
        ("rounds_to_win", ctypes.c_uint8),
        ("round_state", ctypes.c_uint8),  # RoundState
        ("round_winner", ctypes.c_uint8),
        ("teams", ctypes.c_uint8),
        ("pickup_spawn_count", ctypes.c_uint8),
        ("_pad19", ctypes.c_uint8),
    ]
    _Enums = {
        "game_type": GameType, "round_state": RoundState,
    }
    game_type_enum = _enum_field("game_type", GameType, "The field game_type as GameType.")
    round_state_enum = _enum_field("round_state", RoundState, "The field round_state as RoundState.")


class PickupSpawn(_Struct):
    """One of the map's pickup spawn points and its timer (ABI 0.6)

    Schema struct `pickup_spawn`: 16 bytes, alignment 4, since ABI 0.6.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 pos: Vec2
            The spawn cell's centre
            Access: plain (host).
        0x0008 time_left: f32
            Seconds until it spawns while waiting; 0 otherwise
            Access: plain (host).
        0x000c state: SpawnState (u8)
            Access: plain (host).
            As SpawnState: state_enum.
        0x000d _pad13: u8[3]
    """

    _fields_ = [
        ("pos", Vec2),
        ("time_left", ctypes.c_float),
        ("state", ctypes.c_uint8),  # SpawnState
        ("_pad13", ctypes.c_uint8 * 3),
    ]
    _Enums = {
        "state": SpawnState,
    }
    state_enum = _enum_field("state", SpawnState, "The field state as SpawnState.")


class SpawnMarker(_Struct):
    """Arcade: where an enemy is about to appear, marked on the board before it does (ABI 0.9)

    Schema struct `spawn_marker`: 16 bytes, alignment 4, since ABI 0.9.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 pos: Vec2
            The marked cell's centre
            Access: plain (host).
        0x0008 time_left: f32
            Seconds until the enemy appears (the marker shows for 1.5 s)
            Access: plain (host).
        0x000c kind: EnemyKind (u8)
            Access: plain (host).
            As EnemyKind: kind_enum.
        0x000d _pad13: u8[3]
    """

    _fields_ = [
        ("pos", Vec2),
        ("time_left", ctypes.c_float),
        ("kind", ctypes.c_uint8),  # EnemyKind
        ("_pad13", ctypes.c_uint8 * 3),
    ]
    _Enums = {
        "kind": EnemyKind,
    }
    kind_enum = _enum_field("kind", EnemyKind, "The field kind as EnemyKind.")


class ShipExt(_Struct):
    """More of each ship, parallel to ships (ABI 0.6)

    Schema struct `ship_ext`: 28 bytes, alignment 4, since ABI 0.6.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 velocity: Vec2
            Tiles per second
            Access: plain (host).
        0x0008 block_eat_time: f32
            Seconds of block-eat left (arcade enemies keep it for good)
            Access: plain (host).
        0x000c speed_boost_time: f32
            Seconds of x1.5 speed left
            Access: plain (host).
        0x0010 shield_time: f32
            Seconds of shield left
            Access: plain (host).
        0x0014 points: i16
            Points for killing it (arcade enemies)
            Access: plain (host).
        0x0016 team: u8
            0 or 1: the team; a team walks on the cells of its own index (team 0 is black and walks on white)
            Access: plain (host).
        0x0017 parry_dir: Dir (u8)
            The direction of a charge started within 0.3 s: a shot coming the other way is absorbed
            Access: plain (host).
            As Dir: parry_dir_enum.
        0x0018 dying: u8
            1 once hit, while it explodes
            Access: plain (host).
        0x0019 _pad25: u8[3]
    """

    _fields_ = [
        ("velocity", Vec2),
        ("block_eat_time", ctypes.c_float),
        ("speed_boost_time", ctypes.c_float),
        ("shield_time", ctypes.c_float),
        ("points", ctypes.c_int16),
        ("team", ctypes.c_uint8),
        ("parry_dir", ctypes.c_uint8),  # Dir
        ("dying", ctypes.c_uint8),
        ("_pad25", ctypes.c_uint8 * 3),
    ]
    _Enums = {
        "parry_dir": Dir,
    }
    parry_dir_enum = _enum_field("parry_dir", Dir, "The field parry_dir as Dir.")


class ProjectileExt(_Struct):
    """More of each projectile, parallel to projectiles (ABI 0.6)

    Schema struct `projectile_ext`: 8 bytes, alignment 4, since ABI 0.6.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 distance: f32
            Tiles flown since it spawned (a shot dies after 100)
            Access: plain (host).
        0x0004 team: u8
            The shooter's team: ships of the other team die in its tile
            Access: plain (host).
        0x0005 _pad5: u8[3]
    """

    _fields_ = [
        ("distance", ctypes.c_float),
        ("team", ctypes.c_uint8),
        ("_pad5", ctypes.c_uint8 * 3),
    ]


class Snapshot(_Struct):
    """Fixed part of a snapshot. When extras_size > 0, an extras_header follows at extras_offset.

    Schema struct `snapshot`: 12104 bytes, alignment 8.
    Extensible: a reader learns its size at run time, and it may grow at its end.
    Shared memory, written by the host.

    Fields (offset, name, type):
        0x0000 header: SnapshotHeader
            Access: under its seqlock (host).
        0x0030 game: Game
            Access: under its seqlock (host).
        0x0048 event_total: u64
            Events detected since start-up; event i is at events[i % max_events]
            Access: atomic (host).
        0x0050 ship_count: u8
            Access: under its seqlock (host).
        0x0051 pickup_count: u8
            Access: under its seqlock (host).
        0x0052 projectile_count: u16
            Access: under its seqlock (host).
        0x0054 players: u8[MAX_PLAYERS]
            Index into ships per player slot, or no_player
            Access: under its seqlock (host).
        0x0058 extras_offset: u32
            From the start of the snapshot; 0 when there are no extras
            Access: under its seqlock (host).
        0x005c extras_size: u32
            Access: under its seqlock (host).
        0x0060 board: Board
            Access: under its seqlock (host).
        0x1064 ships: Ship[MAX_SHIPS]
            Entries in use: ship_count.
            Access: under its seqlock (host).
        0x1464 projectiles: Projectile[MAX_PROJECTILES]
            Entries in use: projectile_count.
            Access: under its seqlock (host).
        0x2064 pickups: Pickup[MAX_PICKUPS]
            Entries in use: pickup_count.
            Access: under its seqlock (host).
        0x2464 _pad9316: u8[4]
        0x2468 events: Event[MAX_EVENTS]
            Access: under its seqlock (host).
        0x2768 match: Match, since ABI 0.6
            read it when header.schema_minor >= 6
            Access: under its seqlock (host).
        0x277c pickup_spawns: PickupSpawn[MAX_PICKUP_SPAWNS], since ABI 0.6
            Entries in use: match.pickup_spawn_count.
            Access: under its seqlock (host).
        0x287c ships_ext: ShipExt[MAX_SHIPS], since ABI 0.6
            ships_ext[i] goes with ships[i]
            Entries in use: ship_count.
            Access: under its seqlock (host).
        0x2a3c projectiles_ext: ProjectileExt[MAX_PROJECTILES], since ABI 0.6
            projectiles_ext[i] goes with projectiles[i]
            Entries in use: projectile_count.
            Access: under its seqlock (host).
        0x2e3c _pad11836: u8[4]
        0x2e40 spawn_markers: SpawnMarker[MAX_SPAWN_MARKERS], since ABI 0.9
            read them when header.schema_minor >= 9
            Entries in use: spawn_marker_count.
            Access: under its seqlock (host).
        0x2f40 spawn_marker_count: u8, since ABI 0.9
            entries used in spawn_markers
            Access: under its seqlock (host).
        0x2f41 _pad12097: u8[7]
    """

    _align_ = 8
    _fields_ = [
        ("header", SnapshotHeader),
        ("game", Game),
        ("event_total", ctypes.c_uint64),
        ("ship_count", ctypes.c_uint8),
        ("pickup_count", ctypes.c_uint8),
        ("projectile_count", ctypes.c_uint16),
        ("players", ctypes.c_uint8 * MAX_PLAYERS),
        ("extras_offset", ctypes.c_uint32),
        ("extras_size", ctypes.c_uint32),
        ("board", Board),
        ("ships", Ship * MAX_SHIPS),
        ("projectiles", Projectile * MAX_PROJECTILES),
        ("pickups", Pickup * MAX_PICKUPS),
        ("_pad9316", ctypes.c_uint8 * 4),
        ("events", Event * MAX_EVENTS),
        ("match", Match),
        ("pickup_spawns", PickupSpawn * MAX_PICKUP_SPAWNS),
        ("ships_ext", ShipExt * MAX_SHIPS),
        ("projectiles_ext", ProjectileExt * MAX_PROJECTILES),
        ("_pad11836", ctypes.c_uint8 * 4),
        ("spawn_markers", SpawnMarker * MAX_SPAWN_MARKERS),
        ("spawn_marker_count", ctypes.c_uint8),
        ("_pad12097", ctypes.c_uint8 * 7),
    ]
    _Counts = {
        "ships": ("ship_count",), "projectiles": ("projectile_count",),
        "pickups": ("pickup_count",), "pickup_spawns": ("match", "pickup_spawn_count"),
        "ships_ext": ("ship_count",), "projectiles_ext": ("projectile_count",),
        "spawn_markers": ("spawn_marker_count",),
    }


class ExtraEntry(_Struct):
    """One custom probe (design section 5.6)

    Schema struct `extra_entry`: 36 bytes, alignment 4.

    Fields (offset, name, type):
        0x0000 name: char[EXTRA_NAME_LEN] (text)
        0x0018 offset: u32
            From the start of the extras blob
        0x001c size: u32
            Bytes
        0x0020 type: ExtraType (u16)
            As ExtraType: type_enum.
        0x0022 count: u16
            Elements: 1 per object, or one per entity for per-entity probes
    """

    _fields_ = [
        ("name", ctypes.c_char * EXTRA_NAME_LEN),
        ("offset", ctypes.c_uint32),
        ("size", ctypes.c_uint32),
        ("type", ctypes.c_uint16),  # ExtraType
        ("count", ctypes.c_uint16),
    ]
    _Enums = {
        "type": ExtraType,
    }
    type_enum = _enum_field("type", ExtraType, "The field type as ExtraType.")


class ExtrasHeader(_Struct):
    """Schema struct `extras_header`: 2312 bytes, alignment 4.

    Fields (offset, name, type):
        0x0000 entry_count: u16
        0x0002 _pad2: u8[2]
        0x0004 blob_size: u32
        0x0008 entries: ExtraEntry[MAX_EXTRAS]
            Entries in use: entry_count.
    """

    _fields_ = [
        ("entry_count", ctypes.c_uint16),
        ("_pad2", ctypes.c_uint8 * 2),
        ("blob_size", ctypes.c_uint32),
        ("entries", ExtraEntry * MAX_EXTRAS),
    ]
    _Counts = {
        "entries": ("entry_count",),
    }


# The schema's layout: (class, size, alignment, ((field, offset), ...)) for every struct.
_layout_table = (
    (RegionEntry, 8, 4, (
        ("offset", 0x0000), ("size", 0x0004),
    )),
    (ClientEntry, 128, 8, (
        ("state", 0x0000), ("generation", 0x0004), ("pid", 0x0008), ("caps", 0x000c),
        ("heartbeat_ns", 0x0010), ("connected_ns", 0x0018), ("pad", 0x0020), ("_pad33", 0x0021),
        ("waiting", 0x0024), ("name", 0x0028), ("_reserved", 0x0048),
    )),
    (Controls, 16, 2, (
        ("move", 0x0000), ("min_press_ticks", 0x0001), ("shoot_up", 0x0002), ("shoot_down", 0x0004),
        ("shoot_left", 0x0006), ("shoot_right", 0x0008), ("pause", 0x000a), ("confirm", 0x000c),
        ("back", 0x000e),
    )),
    (BridgeHeader, 1304, 8, (
        ("magic", 0x0000), ("abi_major", 0x0004), ("abi_minor", 0x0006), ("header_size", 0x0008),
        ("total_size", 0x000c), ("host_pid", 0x0010), ("host_generation", 0x0014),
        ("host_state", 0x0018), ("region_count", 0x001c), ("host_version", 0x0020),
        ("regions", 0x0040), ("clock_mono_ns", 0x0080), ("clock_unix_ns", 0x0088),
        ("ring_slots", 0x0090), ("ring_slot_size", 0x0094), ("max_clients", 0x0098),
        ("client_block_size", 0x009c), ("client_entry_size", 0x00a0), ("pad_owner", 0x00a4),
        ("_pad168", 0x00a8), ("snapshot_seq", 0x00c0), ("_pad200", 0x00c8), ("clients", 0x0100),
        ("controls", 0x0500), ("run_mode", 0x0510), ("sim_state", 0x0511), ("_pad1298", 0x0512),
        ("lockstep_timeout_ms", 0x0514),
    )),
    (DrawHeader, 64, 4, (
        ("state", 0x0000), ("buffers", 0x0004), ("buffer_size", 0x0008), ("max_commands", 0x000c),
        ("max_payload", 0x0010), ("published", 0x0014), ("_pad24", 0x0018),
    )),
    (DrawListHeader, 64, 8, (
        ("seq", 0x0000), ("count", 0x0004), ("payload_len", 0x0008), ("ttl_ms", 0x000c),
        ("flags", 0x0010), ("dropped", 0x0014), ("for_tick", 0x0018), ("_pad32", 0x0020),
    )),
    (ParamsHeader, 64, 4, (
        ("defs_seq", 0x0000), ("def_count", 0x0004), ("values_seq", 0x0008), ("changes", 0x000c),
        ("max_params", 0x0010), ("_pad20", 0x0014),
    )),
    (ParamDef, 256, 8, (
        ("name", 0x0000), ("kind", 0x0020), ("option_count", 0x0021), ("_pad34", 0x0022),
        ("default_value", 0x0028), ("min", 0x0030), ("max", 0x0038), ("step", 0x0040),
        ("help", 0x0048), ("options", 0x00a8),
    )),
    (ParamValue, 16, 8, (
        ("value", 0x0000), ("changes", 0x0008), ("_pad12", 0x000c),
    )),
    (StatsHeader, 64, 8, (
        ("seq", 0x0000), ("count", 0x0004), ("max_stats", 0x0008), ("_pad12", 0x000c),
        ("ticks", 0x0010), ("skipped", 0x0018), ("wake_p50_us", 0x0020), ("wake_p99_us", 0x0024),
        ("_pad40", 0x0028),
    )),
    (StatEntry, 64, 8, (
        ("name", 0x0000), ("kind", 0x0018), ("flags", 0x0019), ("_pad26", 0x001a),
        ("value", 0x0020), ("text", 0x0028),
    )),
    (MailboxHeader, 64, 4, (
        ("request_seq", 0x0000), ("request_len", 0x0004), ("response_seq", 0x0008),
        ("status", 0x000c), ("response_len", 0x0010), ("response_total", 0x0014),
        ("request_capacity", 0x0018), ("response_capacity", 0x001c), ("_pad32", 0x0020),
    )),
    (RingSlotHeader, 64, 8, (
        ("seq", 0x0000), ("size", 0x0004), ("publish_seq", 0x0008), ("tick", 0x0010),
        ("publish_ns", 0x0018), ("_pad32", 0x0020),
    )),
    (LogEntry, 40, 8, (
        ("size", 0x0000), ("kind", 0x0002), ("level", 0x0003), ("source_len", 0x0004),
        ("_pad5", 0x0005), ("text_len", 0x0006), ("thread", 0x0008), ("_pad12", 0x000c),
        ("seq", 0x0010), ("time_ns", 0x0018), ("tick", 0x0020),
    )),
    (LogRingHeader, 64, 8, (
        ("write_pos", 0x0000), ("tail_pos", 0x0008), ("capacity", 0x0010), ("_pad20", 0x0014),
        ("entries", 0x0018), ("_pad32", 0x0020),
    )),
    (LogQueueHeader, 64, 8, (
        ("write_pos", 0x0000), ("dropped", 0x0008), ("capacity", 0x0010), ("_pad20", 0x0014),
        ("read_pos", 0x0020), ("_pad40", 0x0028),
    )),
    (ClientBlockHeader, 72, 4, (
        ("size", 0x0000), ("region_count", 0x0004), ("regions", 0x0008),
    )),
    (DirectoryEntry, 64, 8, (
        ("state", 0x0000), ("pid", 0x0004), ("process_time", 0x0008), ("abi_major", 0x0010),
        ("abi_minor", 0x0012), ("_pad20", 0x0014), ("host_version", 0x0018), ("_pad56", 0x0038),
    )),
    (DirectoryHeader, 1088, 8, (
        ("magic", 0x0000), ("entry_count", 0x0004), ("entry_size", 0x0008), ("_pad12", 0x000c),
        ("entries", 0x0040),
    )),
    (HeatmapHeader, 8, 1, (
        ("palette", 0x0000), ("flags", 0x0001), ("_pad2", 0x0002),
    )),
    (DrawCmd, 36, 4, (
        ("op", 0x0000), ("space", 0x0001), ("layer", 0x0002), ("flags", 0x0003), ("color", 0x0004),
        ("thickness", 0x0008), ("a", 0x000c), ("b", 0x0010), ("c", 0x0014), ("d", 0x0018),
        ("payload_off", 0x001c), ("payload_len", 0x0020), ("_pad34", 0x0022),
    )),
    (Vec2, 8, 4, (
        ("x", 0x0000), ("y", 0x0004),
    )),
    (PadInput, 32, 8, (
        ("seq", 0x0000), ("flags", 0x0004), ("for_tick", 0x0008), ("lx", 0x0010), ("ly", 0x0012),
        ("rx", 0x0014), ("ry", 0x0016), ("buttons", 0x0018), ("lt", 0x001a), ("rt", 0x001b),
        ("_pad28", 0x001c),
    )),
    (RecPad, 24, 8, (
        ("for_tick", 0x0000), ("lx", 0x0008), ("ly", 0x000a), ("rx", 0x000c), ("ry", 0x000e),
        ("buttons", 0x0010), ("lt", 0x0012), ("rt", 0x0013), ("source", 0x0014), ("owner", 0x0015),
        ("_pad22", 0x0016),
    )),
    (RecTickHeader, 136, 8, (
        ("size", 0x0000), ("data_size", 0x0004), ("kind", 0x0008), ("_pad9", 0x0009),
        ("tick", 0x0010), ("frame", 0x0018), ("host_time_ns", 0x0020), ("pads", 0x0028),
    )),
    (RecFileHeader, 512, 8, (
        ("magic", 0x0000), ("format", 0x0004), ("header_size", 0x0006), ("schema_major", 0x0008),
        ("schema_minor", 0x000a), ("snapshot_size", 0x000c), ("chunk_ticks", 0x0010),
        ("host_pid", 0x0014), ("start_unix_ns", 0x0018), ("start_mono_ns", 0x0020),
        ("controls", 0x0028), ("run_mode", 0x0038), ("bot_pads", 0x0039), ("_pad58", 0x003a),
        ("lockstep_timeout_ms", 0x003c), ("host_version", 0x0040), ("profile_name", 0x0060),
        ("exe_sha256", 0x00a0), ("note", 0x00f0), ("_pad496", 0x01f0),
    )),
    (RecChunkHeader, 32, 8, (
        ("magic", 0x0000), ("stored_size", 0x0004), ("raw_size", 0x0008), ("tick_count", 0x000c),
        ("first_tick", 0x0010), ("last_tick", 0x0018),
    )),
    (RecChunkEntry, 24, 8, (
        ("offset", 0x0000), ("first_tick", 0x0008), ("last_tick", 0x0010),
    )),
    (RecMark, 16, 8, (
        ("tick", 0x0000), ("kind", 0x0008), ("_pad10", 0x000a), ("a", 0x000c),
    )),
    (RecFooter, 48, 8, (
        ("magic", 0x0000), ("chunk_count", 0x0004), ("mark_count", 0x0008), ("dropped", 0x000c),
        ("ticks", 0x0010), ("first_tick", 0x0018), ("last_tick", 0x0020), ("end_unix_ns", 0x0028),
    )),
    (RecTrailer, 16, 8, (
        ("footer_offset", 0x0000), ("_pad8", 0x0008), ("magic", 0x000c),
    )),
    (SnapshotHeader, 48, 8, (
        ("magic", 0x0000), ("schema_major", 0x0004), ("schema_minor", 0x0006), ("size", 0x0008),
        ("flags", 0x000c), ("frame", 0x0010), ("tick", 0x0018), ("host_time_ns", 0x0020),
        ("game_time", 0x0028), ("invalid_reason", 0x002c), ("tick_source", 0x002e),
        ("_pad47", 0x002f),
    )),
    (Game, 24, 4, (
        ("menu_id", 0x0000), ("menu_depth", 0x0004), ("menu_item", 0x0008),
        ("arcade_score", 0x000c), ("lives", 0x0010), ("phase", 0x0012), ("paused", 0x0013),
        ("focused", 0x0014), ("player_count", 0x0015), ("_pad22", 0x0016),
    )),
    (Board, 4100, 2, (
        ("width", 0x0000), ("height", 0x0002), ("tiles", 0x0004),
    )),
    (Ship, 64, 4, (
        ("pos", 0x0000), ("vel", 0x0008), ("last_shot_pos", 0x0010), ("reload_progress", 0x0018),
        ("reload_time", 0x001c), ("time_alive", 0x0020), ("time_since_shot", 0x0024),
        ("score", 0x0028), ("multiplier", 0x002c), ("valid", 0x0030), ("flags", 0x0034),
        ("player_id", 0x0036), ("color", 0x0037), ("alive", 0x0038), ("ammo", 0x0039),
        ("max_ammo", 0x003a), ("fast_ammo", 0x003b), ("charge_dir", 0x003c), ("_pad61", 0x003d),
    )),
    (Projectile, 24, 4, (
        ("pos", 0x0000), ("speed", 0x0008), ("time_alive", 0x000c), ("kind_raw", 0x0010),
        ("dir", 0x0014), ("kind", 0x0015), ("owner", 0x0016), ("_pad23", 0x0017),
    )),
    (Pickup, 16, 4, (
        ("pos", 0x0000), ("time_alive", 0x0008), ("kind", 0x000c), ("amount", 0x000d),
        ("_pad14", 0x000e),
    )),
    (Event, 24, 8, (
        ("tick", 0x0000), ("a", 0x0008), ("b", 0x000c), ("kind", 0x0010), ("player", 0x0012),
        ("_pad19", 0x0013),
    )),
    (Match, 20, 4, (
        ("map_scale", 0x0000), ("focus_hash", 0x0004), ("game_type", 0x0008), ("map_set", 0x0009),
        ("map_index", 0x000a), ("wrap", 0x000b), ("wrap_shift_x", 0x000c), ("wrap_shift_y", 0x000d),
        ("rounds_to_win", 0x000e), ("round_state", 0x000f), ("round_winner", 0x0010),
        ("teams", 0x0011), ("pickup_spawn_count", 0x0012), ("_pad19", 0x0013),
    )),
    (PickupSpawn, 16, 4, (
        ("pos", 0x0000), ("time_left", 0x0008), ("state", 0x000c), ("_pad13", 0x000d),
    )),
    (SpawnMarker, 16, 4, (
        ("pos", 0x0000), ("time_left", 0x0008), ("kind", 0x000c), ("_pad13", 0x000d),
    )),
    (ShipExt, 28, 4, (
        ("velocity", 0x0000), ("block_eat_time", 0x0008), ("speed_boost_time", 0x000c),
        ("shield_time", 0x0010), ("points", 0x0014), ("team", 0x0016), ("parry_dir", 0x0017),
        ("dying", 0x0018), ("_pad25", 0x0019),
    )),
    (ProjectileExt, 8, 4, (
        ("distance", 0x0000), ("team", 0x0004), ("_pad5", 0x0005),
    )),
    (Snapshot, 12104, 8, (
        ("header", 0x0000), ("game", 0x0030), ("event_total", 0x0048), ("ship_count", 0x0050),
        ("pickup_count", 0x0051), ("projectile_count", 0x0052), ("players", 0x0054),
        ("extras_offset", 0x0058), ("extras_size", 0x005c), ("board", 0x0060), ("ships", 0x1064),
        ("projectiles", 0x1464), ("pickups", 0x2064), ("_pad9316", 0x2464), ("events", 0x2468),
        ("match", 0x2768), ("pickup_spawns", 0x277c), ("ships_ext", 0x287c),
        ("projectiles_ext", 0x2a3c), ("_pad11836", 0x2e3c), ("spawn_markers", 0x2e40),
        ("spawn_marker_count", 0x2f40), ("_pad12097", 0x2f41),
    )),
    (ExtraEntry, 36, 4, (
        ("name", 0x0000), ("offset", 0x0018), ("size", 0x001c), ("type", 0x0020), ("count", 0x0022),
    )),
    (ExtrasHeader, 2312, 4, (
        ("entry_count", 0x0000), ("_pad2", 0x0002), ("blob_size", 0x0004), ("entries", 0x0008),
    )),
)


def _check_layout():
    for cls, size, align, fields in _layout_table:
        for field, offset in fields:
            actual = getattr(cls, field).offset
            if actual != offset:
                raise ImportError(
                    "%s: field %s.%s is at offset %d (%#x) under ctypes, but the schema's "
                    "layout puts it at %d (%#x)"
                    % (__name__, cls.__name__, field, actual, actual, offset, offset)
                )
        if ctypes.sizeof(cls) != size:
            raise ImportError(
                "%s: struct %s is %d bytes under ctypes, but the schema's layout makes it %d"
                % (__name__, cls.__name__, ctypes.sizeof(cls), size)
            )
        actual = ctypes.alignment(cls)
        if actual != align:
            hint = ""
            if getattr(cls, "_align_", None) == align:
                hint = (
                    " (its _align_ = %d is honoured by ctypes only from Python 3.13 on: on a host "
                    "that aligns 8-byte fields to 4, such as 32-bit x86, use Python 3.13 or later)"
                    % align
                )
            raise ImportError(
                "%s: struct %s has alignment %d under ctypes, but the schema's layout gives it %d%s"
                % (__name__, cls.__name__, actual, align, hint)
            )


_check_layout()


# Live access ----------------------------------------------------------------------------
#
# The structs the schema puts in shared memory are read and written here while other
# processes use them. A ctypes structure made with from_buffer over such memory reads each
# field whenever Python touches it, so two fields may come from two different writes, and
# nothing orders its loads and stores. The views below instead:
#   - load and store the atomic fields as single aligned words (acquire loads, release
#     stores), and claim the compare-and-swap fields atomically; an array claimed as one
#     word (u8[4]) is loaded and swapped as that word, and its elements taken out of it;
#   - copy what a seqlock guards (from_buffer_copy and struct.unpack_from of the bytes),
#     then load the counter again, and keep the copy only if the counter was even and
#     unchanged; after a bounded number of tries (the first 16 at once, then each after a
#     time.sleep(0)) they raise SeqlockContendedError;
#   - read the newest slot of a ring, picking the newest slot again on every try.
#
# Atomics. ctypes has none, so:
#   - compare-and-swap, exchange and fetch-add use the `atomics` package (PyPI) when it
#     imports, else libatomic (libatomic.so.1, GCC's runtime library) through ctypes. With
#     neither they raise AtomicsUnavailableError, naming what to install; they never fall
#     back to a read-modify-write that is not atomic. They need a writable buffer, and raise
#     TypeError on a read-only one (an mmap with ACCESS_READ, bytes).
#   - loads and stores use libatomic's __atomic_load_N and __atomic_store_N (acquire,
#     release) when libatomic loads and the buffer is writable. Otherwise a load is one
#     struct.unpack_from of the aligned word and a store one struct.pack_into. What that
#     guarantees: on a little-endian host CPython's struct module handles "<H", "<I" and
#     "<Q" with its native-order functions, which copy the word with one memcpy of its size;
#     GCC, Clang and MSVC compile that to one load or store instruction, and an aligned
#     load or store of up to 8 bytes is single-copy atomic on x86-64 and on ARM64, so no
#     word is torn. This rests on how CPython is written and built, not on a documented
#     promise. It orders nothing. On x86 (x86-64 and i386)
#     that is enough: the CPU is TSO, so loads are not reordered with older loads, nor
#     stores with older stores, and each load acts as an acquire and each store as a
#     release; no compiler moves accesses across the separate, opaque C calls that the
#     steps are. On every other CPU (aarch64, arm, ppc64le, riscv64, s390x, ...) the
#     hardware reorders them, and the module needs a real fence: libatomic's
#     atomic_thread_fence (exported by libatomic1 from GCC 7 on). The fallback then puts an
#     acquire fence after each load and a release fence before each store, and a seqlock
#     read an acquire fence before it loads the counter again. A read-modify-write of a
#     private word (all the `atomics` package offers) is no fence in C11 terms: it orders
#     nothing but that word. So on a CPU other than x86 with no atomic_thread_fence (an old
#     libatomic, only the `atomics` package, or none), the first live access raises
#     AtomicsUnavailableError naming what is missing, rather than accept torn copies.
#   - 32-bit CPython: struct copies a u64 as two 32-bit halves, which a writer can tear
#     apart. A u64 load or store there goes through libatomic's __atomic_load_8 and
#     __atomic_store_8 (one 64-bit atomic, on i386 too), and raises
#     AtomicsUnavailableError when it cannot (no libatomic, or a read-only buffer, whose
#     address ctypes cannot take); it never reads a u64 in halves.
#   - atomics_backend() names the read-modify-write backend in use; set_atomics_backend()
#     chooses one ("atomics", "libatomic", None for none, "auto" to look again).
#
# Buffers: any contiguous buffer (mmap, bytearray, memoryview; bytes or an mmap opened with
# ACCESS_READ for reading only). A view holds the buffer, through a memoryview and, when it
# is writable, a ctypes object whose address libatomic needs, until release() or until it
# is garbage; mmap.close() raises BufferError while a view holds the map. Views made from a
# view (rows, slots) share its hold. The ABI is little-endian, and so must the host be.


class AtomicsUnavailableError(RuntimeError):
    """No atomic read-modify-write here: neither the atomics package nor libatomic loads.

    Install one: pip install atomics, or libatomic (Debian and Ubuntu: apt-get install
    libatomic1; it comes with gcc). Compare-and-swap, exchange and fetch-add never fall
    back to a read-modify-write that is not atomic.
    """


class SeqlockContendedError(RuntimeError):
    """A seqlock read found no whole copy in its tries: the writer kept writing, or died in
    the middle of a write and left the counter odd."""


class ContendedError(RuntimeError):
    """A compare-and-swap loop that keeps the other bytes of its word (a pad's owner byte, a
    row's state beside its client's generation) found them changed before each of its 1024
    tries: a peer writing that word nonstop. Nothing was stored.

    Raised by a session's reload() after every row was tried, when a row's free gave up:
    generation is then the reload's new host generation, freed the rows that were claimed
    or active and were freed, contended the rows whose free gave up (each left as it was, or
    retired: a later free goes on). Otherwise generation is None and both are empty."""

    generation = None
    freed = ()
    contended = ()


# Tries of a compare-and-swap loop that keeps the other bytes of its word before it raises
# ContendedError: an honest peer changes its bytes a few times per message.
_cas_tries = 1024
# A test's stand-in for a peer: when set, called with (mem, offset) between each load and
# compare-and-swap of such a loop.
_cas_hook = None


def _cas_gave_up(what):
    raise ContendedError(
        "%s: the word's other bytes changed before each of %d compare-and-swaps" % (what, _cas_tries)
    )


_RELAXED, _ACQUIRE, _RELEASE, _ACQ_REL, _SEQ_CST = 0, 2, 3, 4, 5
_word_formats = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}
_default_tries = 10000
_spins = 16
_install_hint = "pip install atomics, or install libatomic (apt-get install libatomic1)"
# The CPUs whose memory order is TSO (platform.machine()): every other is weakly ordered.
_tso_machines = ("x86_64", "amd64", "i386", "i486", "i586", "i686", "x86")


def _machine():
    """The CPU, as platform.machine() names it (lower case)."""
    return platform.machine().lower()


def _pointer_size():
    """Bytes of a pointer: 4 on a 32-bit CPython."""
    return ctypes.sizeof(ctypes.c_void_p)


def _c_function(lib, name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = argtypes
    return function


class _Libatomic:
    """libatomic's __atomic_*_N functions and atomic_thread_fence, through ctypes."""

    def __init__(self, lib):
        self.load, self.store, self.exchange, self.fetch_add, self.cas = {}, {}, {}, {}, {}
        addr, order = ctypes.c_void_p, ctypes.c_int
        for width, word in (
            (1, ctypes.c_uint8),
            (2, ctypes.c_uint16),
            (4, ctypes.c_uint32),
            (8, ctypes.c_uint64),
        ):
            n = "_%d" % width
            self.load[width] = _c_function(lib, "__atomic_load" + n, word, addr, order)
            self.store[width] = _c_function(lib, "__atomic_store" + n, None, addr, word, order)
            self.exchange[width] = _c_function(lib, "__atomic_exchange" + n, word, addr, word, order)
            self.fetch_add[width] = _c_function(lib, "__atomic_fetch_add" + n, word, addr, word, order)
            cas = _c_function(
                lib, "__atomic_compare_exchange" + n, ctypes.c_bool, addr, addr, word, order, order
            )
            self.cas[width] = (word, cas)
        self.fence = None
        if hasattr(lib, "atomic_thread_fence"):
            self.fence = _c_function(lib, "atomic_thread_fence", None, order)


def _open_libatomic():
    """libatomic through ctypes, or None."""
    for name in ("libatomic.so.1", None):
        name = name or ctypes.util.find_library("atomic")
        if name:
            try:
                return _Libatomic(ctypes.CDLL(name))
            except (OSError, AttributeError):
                pass
    return None


class _Backend:
    """The atomics in use, chosen by set_atomics_backend on first need."""

    chosen = False
    name = None  # "atomics", "libatomic" or None: the read-modify-write backend
    package = None  # the atomics module
    lib = None  # a _Libatomic: loads, stores and fences on writable buffers
    fence = None  # a function of a memory order
    missing = None  # why live access must refuse here (no real fence on a weak CPU)
    halves = False  # struct copies a u64 in two halves (32-bit CPython)


def set_atomics_backend(name="auto"):
    """Chooses the atomics, and returns the read-modify-write backend's name.

    "auto" (what the first atomic operation does): the atomics package if it imports, else
    libatomic. "atomics" or "libatomic" insist on one (AtomicsUnavailableError if it does
    not load). None uses no atomics at all: compare-and-swap, exchange and fetch-add then
    raise AtomicsUnavailableError, and loads and stores are struct copies of the word with no
    fence. libatomic serves loads, stores and fences whenever it loads, except under None.
    On a CPU other than x86 with no libatomic atomic_thread_fence, the first live access
    then raises AtomicsUnavailableError (see "Atomics" above).
    """
    if name not in ("auto", "atomics", "libatomic", None):
        raise ValueError("atomics backend %r: expected 'auto', 'atomics', 'libatomic' or None" % (name,))
    package = lib = None
    if name in ("auto", "atomics"):
        try:
            import atomics as package
        except ImportError:
            if name == "atomics":
                raise AtomicsUnavailableError("the atomics package does not import: pip install atomics") from None
    if name is not None:
        lib = _open_libatomic()
        if lib is None and name == "libatomic":
            raise AtomicsUnavailableError("libatomic does not load: apt-get install libatomic1")
    fence = missing = None
    machine = _machine()
    if lib is not None and lib.fence is not None:
        fence = lib.fence
    elif machine not in _tso_machines:
        if lib is not None:
            have = "libatomic loads but exports no atomic_thread_fence (older than GCC 7)"
        elif package is not None:
            have = "only the atomics package, whose read-modify-write of a word is no fence"
        else:
            have = "neither libatomic nor the atomics package" if name is not None else "set_atomics_backend(None)"
        missing = (
            "live access on %s, a weakly ordered CPU, needs a memory fence, and there is none: %s. "
            "Install libatomic1 from GCC 7 or later (its atomic_thread_fence); without a fence a "
            "seqlock read could accept a torn copy" % (machine or "this CPU", have)
        )
    _Backend.name = "atomics" if package is not None else ("libatomic" if lib is not None else None)
    _Backend.package, _Backend.lib, _Backend.fence = package, lib, fence
    _Backend.missing, _Backend.halves = missing, _pointer_size() < 8
    _Backend.chosen = True
    return _Backend.name


def atomics_backend():
    """The read-modify-write backend: "atomics", "libatomic", or None when there is none."""
    if not _Backend.chosen:
        set_atomics_backend()
    return _Backend.name


def _backend():
    if not _Backend.chosen:
        set_atomics_backend()
    if _Backend.missing is not None:
        raise AtomicsUnavailableError(_Backend.missing)
    return _Backend


def _no_halves(backend, width, what):
    """Refuses a u64 that struct would copy in two halves (32-bit CPython)."""
    if width == 8 and backend.halves:
        raise AtomicsUnavailableError(
            "a u64 %s on 32-bit CPython needs libatomic's __atomic_%s_8 and a writable buffer "
            "(struct would copy it in two 32-bit halves, which a writer can tear apart): "
            "install libatomic (apt-get install libatomic1) and map the buffer read-write" % (what, what)
        )


def _fence(order):
    fence = _backend().fence
    if fence is not None:
        fence(order)


class _Mem:
    """A buffer held for the views over it: a flat memoryview of its bytes and, when it is
    writable, a ctypes object at its first byte, whose address libatomic takes."""

    __slots__ = ("source", "view", "size", "writable", "anchor", "address")

    def __init__(self, source):
        if sys.byteorder != "little":
            raise RuntimeError("%s: live access needs a little-endian host, as the ABI is" % __name__)
        view = memoryview(source)
        if not view.c_contiguous:
            view.release()
            raise ValueError("live access needs a contiguous buffer")
        flat = view if (view.ndim, view.format) == (1, "B") else view.cast("B")
        if flat is not view:
            view.release()
        self.source, self.view, self.size = source, flat, flat.nbytes
        self.writable = not flat.readonly
        self.anchor = self.address = None
        if self.writable and self.size:
            self.anchor = ctypes.c_char.from_buffer(flat)
            self.address = ctypes.addressof(self.anchor)

    def release(self):
        self.anchor = self.address = None
        self.view.release()


# A private 8-aligned word whose locked read-modify-write is the fence _fence_seq_cst makes
# when libatomic has no atomic_thread_fence: made on first use (a _Mem refuses a big-endian
# host, which the module's structures still serve).
_fence_word = []


def _signed(value, width):
    bits = 8 * width
    return value - (1 << bits) if value >> (bits - 1) else value


def _load(mem, offset, width, order=_ACQUIRE):
    backend = _backend()
    if backend.lib is not None and mem.address is not None:
        return backend.lib.load[width](mem.address + offset, order)
    _no_halves(backend, width, "load")
    value = struct.unpack_from(_word_formats[width], mem.view, offset)[0]
    if order != _RELAXED and backend.fence is not None:
        backend.fence(_ACQUIRE)
    return value


def _store(mem, offset, width, value, order=_RELEASE):
    if not mem.writable:
        raise TypeError("a store needs a writable buffer, and this one is read-only")
    backend = _backend()
    value &= (1 << (8 * width)) - 1
    if backend.lib is not None and mem.address is not None:
        backend.lib.store[width](mem.address + offset, value, order)
        return
    _no_halves(backend, width, "store")
    if order != _RELAXED and backend.fence is not None:
        backend.fence(_RELEASE)
    struct.pack_into(_word_formats[width], mem.view, offset, value)


def _rmw(mem, what):
    """The backend for a read-modify-write, once the buffer is known to be writable."""
    if not mem.writable:
        raise TypeError(
            "%s needs a writable buffer, and this one is read-only: map the file read-write "
            "(open it 'r+b', and mmap it with the default access or ACCESS_WRITE)" % what
        )
    backend = _backend()
    if backend.name is None:
        raise AtomicsUnavailableError(
            "%s needs an atomic read-modify-write, and neither the atomics package nor "
            "libatomic loads: %s. It never falls back to one that is not atomic." % (what, _install_hint)
        )
    return backend


def _word_view(backend, mem, offset, width):
    return backend.package.atomicview(buffer=mem.view[offset : offset + width], atype=backend.package.UINT)


def _compare_exchange(mem, offset, width, current, new):
    backend = _rmw(mem, "compare-and-swap")
    mask = (1 << (8 * width)) - 1
    if backend.package is not None:
        with _word_view(backend, mem, offset, width) as word:
            ok, found = word.cmpxchg_strong(current & mask, new & mask)
        return bool(ok), found
    word_type, cas = backend.lib.cas[width]
    found = word_type(current & mask)
    ok = cas(mem.address + offset, ctypes.byref(found), new & mask, _ACQ_REL, _ACQUIRE)
    return bool(ok), found.value


def _exchange(mem, offset, width, value):
    backend = _rmw(mem, "an atomic exchange")
    value &= (1 << (8 * width)) - 1
    if backend.package is not None:
        with _word_view(backend, mem, offset, width) as word:
            return word.exchange(value)
    return backend.lib.exchange[width](mem.address + offset, value, _ACQ_REL)


def _fetch_add(mem, offset, width, value):
    backend = _rmw(mem, "an atomic fetch-add")
    value &= (1 << (8 * width)) - 1
    if backend.package is not None:
        with _word_view(backend, mem, offset, width) as word:
            return word.fetch_add(value)
    return backend.lib.fetch_add[width](mem.address + offset, value, _ACQ_REL)


def _fence_seq_cst():
    """A full fence between a store and a later load (Dekker's pattern, which x86 reorders
    too): libatomic's atomic_thread_fence(seq_cst), else a locked read-modify-write of a
    private word (the atomics package), which x86 makes a full barrier. With neither (a weak
    CPU refuses live access then; set_atomics_backend(None) on x86) nothing orders them, and
    a waiter's sleep must be bounded."""
    backend = _backend()
    if backend.fence is not None:
        backend.fence(_SEQ_CST)
    elif backend.package is not None or backend.lib is not None:
        if not _fence_word:
            _fence_word.append(_Mem((ctypes.c_uint64 * 1)()))
        _fetch_add(_fence_word[0], 0, 8, 1)


def _on_word(buf, offset, width, operation, *args):
    mem = _Mem(buf)
    try:
        if width not in _word_formats:
            raise ValueError("an atomic word is 1, 2, 4 or 8 bytes, not %r" % (width,))
        if offset < 0 or offset + width > mem.size:
            raise ValueError("a %d-byte word at offset %d does not fit in %d bytes" % (width, offset, mem.size))
        if offset % width or (mem.address is not None and (mem.address + offset) % width):
            raise ValueError("a %d-byte word at offset %d is not aligned to %d" % (width, offset, width))
        return operation(mem, offset, width, *args)
    finally:
        mem.release()


def atomic_load(buf, offset, width):
    """The unsigned little-endian word of width bytes (1, 2, 4, 8) at offset of buf, aligned,
    loaded atomically with acquire ordering."""
    return _on_word(buf, offset, width, _load)


def atomic_store(buf, offset, width, value):
    """Stores value as the aligned word of width bytes at offset of buf, atomically, with
    release ordering."""
    _on_word(buf, offset, width, _store, value)


def atomic_compare_exchange(buf, offset, width, current, new):
    """Compare-and-swap of the aligned word at offset of buf (acquire-release): (ok, found),
    found being the value the word held (current when ok)."""
    return _on_word(buf, offset, width, _compare_exchange, current, new)


def atomic_exchange(buf, offset, width, value):
    """Swaps value into the aligned word at offset of buf (acquire-release); returns the
    old value."""
    return _on_word(buf, offset, width, _exchange, value)


def atomic_fetch_add(buf, offset, width, value):
    """Adds value to the aligned word at offset of buf (acquire-release, wrapping); returns
    the old value."""
    return _on_word(buf, offset, width, _fetch_add, value)

# Live views -----------------------------------------------------------------------------
#
# A bot attaches to the host's mapping, reads the newest record and claims a row:
#
#     import mmap
#
#     import bridge
#
#     path = "/dev/shm/bridge"  # the file the host maps (or any file)
#     slots_offset = 4096  # where the host put the ring's slots: see the ABI's docs
#     with open(path, "r+b") as f:
#         buf = mmap.mmap(f.fileno(), 0)  # all of it, shared, read-write
#     header = bridge.LiveBridgeHeader(buf)
#     ring = bridge.SnapshotRing(header, buf, slots_offset)
#     newest = ring.read_newest()  # None until the first publication
#     if newest is not None:
#         print("publication", newest.publish_seq, type(newest.payload).__name__)
#     mine = None
#     for i in range(8):  # a row of the session's table, claimed by its helper
#         mine = bridge.Client.claim(header, i, header.host_generation())
#         if mine is not None:
#             print("claimed row", i)
#             mine.activate()  # after filling in mine.row; release
#             break
#     header.release()  # the views' hold on the map (shared by the ring and the rows)
#     buf.close()


# Tries of a host's read of a record its client writes (a pad, a client's parameter
# definitions, its stats) when it names none: a client that died mid-write leaves the counter
# odd, and a host that serves every row each tick must not wait for it (docs/hosts.md).
HOST_TRIES = 8


def _value_bytes(ctype, value):
    """The bytes of value as ctype: an instance of it, or a sequence of its elements (an
    array), or bytes or a str (text, padded with NULs)."""
    if not isinstance(value, ctype):
        if getattr(ctype, "_type_", None) is ctypes.c_char:
            data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
            if len(data) > ctypes.sizeof(ctype):
                raise ValueError("%d bytes do not fit in a char[%d]" % (len(data), ctypes.sizeof(ctype)))
            return data.ljust(ctypes.sizeof(ctype), b"\0")
        value = ctype(*value)
    return bytes(value)


def _back_off(tries):
    if tries > _spins:
        time.sleep(0)


def _retry(max_tries, attempt, what):
    """Runs attempt until it returns (True, value), at most max_tries times, backing off
    between tries; returns (value, the tries that failed first)."""
    seen = None
    for tries in range(max_tries):
        if tries:
            _back_off(tries)
        ok, value = attempt()
        if ok:
            return value, tries
        seen = value
    odd = ", odd: a write in progress, or a writer that died in the middle of one"
    raise SeqlockContendedError(
        "%s: no whole copy in %d tries (the counter was %s%s)"
        % (what, max_tries, seen, odd if seen is not None and seen & 1 else "")
    )


def _seqlock_try(view, counter, width, copy):
    """One seqlock read: (True, the copy) when the counter was even and the same after it,
    else (False, the counter)."""
    before = view._load(counter, width)
    if before & 1:
        return False, before
    value = copy()
    _fence(_ACQUIRE)
    after = view._load(counter, width, _RELAXED)
    if after != before:
        return False, after
    return True, value


def _seqlock_write(view, counter, width, writes):
    """Makes the counter odd, stores writes ((offset, bytes) pairs, every one already checked
    and packed: nothing is validated past this point), makes the counter even (release).

    A counter found odd (a write of this writer that stopped half way, or a writer that
    died: there is one writer) stays odd for the write, and is even after it. If a store
    raises anyway (a KeyboardInterrupt, a buffer gone), the counter is left odd: what was
    stored is half a record, and making the counter even would publish it as whole. Readers
    then see a write in progress and give up with SeqlockContendedError after their tries,
    never keeping the half record; the next write stores it whole and makes it even."""
    now = view._load(counter, width, _RELAXED)
    begin = now if now & 1 else now + 1
    view._store(counter, width, begin, _RELAXED)
    _fence(_RELEASE)
    for offset, data in writes:
        view._put(offset, data)
    view._store(counter, width, (begin + 1) & ((1 << (8 * width)) - 1), _RELEASE)


def _events_since(entries, total, since):
    capacity = len(entries)
    oldest = max(total - capacity, 0)
    first = min(max(since, oldest), total)
    lost = max(oldest - since, 0)
    if not capacity:
        return [], lost
    return [(number, entries[number % capacity]) for number in range(first, total)], lost


class _LiveView:
    """What every live view does: hold the buffer, check where it is, reach its words."""

    __slots__ = ("_mem", "_base", "_length", "_laid_out")
    SIZE = ALIGN = MIN_LEN = 1
    _trailer = False

    def __init__(self, buf, offset=0, length=None):
        mem = buf if isinstance(buf, _Mem) else _Mem(buf)
        cls = type(self)
        if length is None:
            length = mem.size - offset if cls._trailer else cls.SIZE
        if offset < 0 or offset % cls.ALIGN:
            raise ValueError("%s at offset %d: the offset must be a multiple of %d" % (cls.__name__, offset, cls.ALIGN))
        if length < cls.MIN_LEN or offset + length > mem.size:
            raise ValueError(
                "%s needs %d bytes at offset %d, but the buffer holds %d bytes"
                % (cls.__name__, max(length, cls.MIN_LEN), offset, mem.size)
            )
        if mem.address is not None and (mem.address + offset) % cls.ALIGN:
            raise ValueError(
                "%s at offset %d: the buffer's address %#x is not aligned to %d"
                % (cls.__name__, offset, mem.address, cls.ALIGN)
            )
        self._mem, self._base, self._length = mem, offset, length
        # The host's own handle gives its views the header as it laid it out (_geometry).
        self._laid_out = None

    def release(self):
        """Lets go of the buffer, for this view and every view made from it or with it."""
        self._mem.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.release()

    def _load(self, offset, width, order=_ACQUIRE):
        return _load(self._mem, self._base + offset, width, order)

    def _geometry(self, offset, width):
        """A geometry field of the header (a capacity, a size): from the host's own copy of the
        header as it laid it out, when its own handle gave the view one, never from the bytes a
        client can write; else loaded from the mapping (acquire)."""
        laid_out = getattr(self, "_laid_out", None)
        if laid_out is not None and offset + width <= len(laid_out):
            return int.from_bytes(laid_out[offset : offset + width], "little")
        return self._load(offset, width)

    def _store(self, offset, width, value, order=_RELEASE):
        _store(self._mem, self._base + offset, width, value, order)

    def _get(self, offset, fmt):
        return struct.unpack_from(fmt, self._mem.view, self._base + offset)[0]

    def _set(self, offset, fmt, value):
        struct.pack_into(fmt, self._mem.view, self._base + offset, value)

    def _copy(self, offset, ctype):
        return ctype.from_buffer_copy(self._mem.view, self._base + offset)

    def _bytes(self, offset, size):
        start = self._base + offset
        return bytes(self._mem.view[start : start + size])

    def _put(self, offset, data):
        start = self._base + offset
        self._mem.view[start : start + len(data)] = data

    def _cover(self, offset, n, room):
        """The bytes a copy of n run-time sized bytes at offset covers, of the room there: up to
        the next 8-aligned place, never past room. Every reader and writer of a seqlock's
        run-time sized bytes copies what this covers, so that a reader lapped by a publication
        of another size copies the same whole words the writer stored, never a range cut by
        a size another publication wrote (the C helpers cover the same way)."""
        if n <= 0:
            return 0
        return min(n + (-(self._base + offset + n) % 8), room)

    def __init_subclass__(cls, **kwargs):
        """Installs the field methods a view class lists in _methods, one row each:
        (method, kind, field, offset, arg, extra, writers, ends), where ends is where a field
        a later minor version added ends (its reads give None and its writes raise on a
        shorter record), 0 for every other field. By kind, arg and extra are:
            load, counter, store, fetch_add, cas, swap: the width, and the class that reads
                the value (an enum), _signed, or None;
            lane_load: offset is the word's, not the field's: the word's width, and (the
                class that reads the value or None, the field's byte in the word, its width);
            word_load, word_cas, word_cas_at: the word's width, and (its elements' struct
                format, their count);
            get, set: the struct format, and the enum class or None;
            copy, put: the ctypes type;
            view, views: the view class's name, and for views (count, the entries' stride).
        """
        super().__init_subclass__(**kwargs)
        for name, kind, field, offset, arg, extra, writers, ends in cls.__dict__.get("_methods", ()):
            method = _VIEW_METHODS[kind](field, offset, arg, extra, ends)
            method.__name__ = name
            method.__qualname__ = "%s.%s" % (cls.__qualname__, name)
            who = " Written by the %s." % writers if writers else ""
            method.__doc__ = _VIEW_DOCS[kind].format(field=field, arg=arg, extra=extra, who=who)
            setattr(cls, name, method)


# What each kind of view method says; {who} names the field's writers.
_VIEW_DOCS = {
    "load": "`{field}`, an atomic load (acquire).{who}",
    "counter": "`{field}`, a seqlock counter (acquire): odd while its writer writes.{who}",
    "store": "Stores `{field}` atomically (release), publishing what was written before.",
    "fetch_add": "Adds to `{field}` atomically (acquire-release, wrapping); returns the old value.",
    "cas": "Compare-and-swap of `{field}` (acquire-release): (ok, the value found, current when ok).",
    "swap": "Swaps `{field}` atomically (acquire-release); returns the old value.",
    "lane_load": "`{field}`, an atomic load (acquire) of the {arg}-byte word the protocol's helpers\n"
    "        swap it in (its only access size); change it through the helpers.{who}",
    "word_load": "`{field}`, loaded as one {arg}-byte word (acquire): a tuple of its elements.{who}",
    "word_cas": "Compare-and-swap of `{field}` as one {arg}-byte word (acquire-release): (ok, the elements found).",
    "word_cas_at": "Sets element index of `{field}` from current to new by compare-and-swap of the\n"
    "        whole word, retrying while only other elements change: (ok, the element found).",
    "get": "`{field}`, copied: a plain field, written before it is published.{who}",
    "copy": "`{field}`, copied: a plain field, written before it is published.{who}",
    "text": "`{field}`, copied: text, its bytes up to the first NUL decoded as UTF-8\n"
    "        (an invalid sequence becomes U+FFFD); written before it is published.{who}",
    "set": "Writes `{field}` (plain stores); publish it with a release store of a field readers poll.",
    "put": "Writes `{field}` (plain stores); publish it with a release store of a field readers poll.",
    "view": "The live view of `{field}`.{who}",
    "views": "The live view of `{field}[index]`; IndexError unless 0 <= index < {extra[0]}.{who}",
}


def _converter(convert, width):
    """What a row's conversion says to apply to a loaded number: nothing (None), _signed at
    its width, or a class (an enum)."""
    if convert is _signed:
        return lambda value: _signed(value, width)
    return convert


def _guard(method, field, ends, reads):
    """method itself, or for a field a later minor version added (ends > 0) method behind a
    check: on a record shorter than ends a read gives None and a write raises ValueError."""
    if not ends:
        return method

    def guarded(self, *args):
        if self._length < ends:
            if reads:
                return None
            raise ValueError("%s is absent: the producer's record is %d bytes, it ends at %d" % (field, self._length, ends))
        return method(self, *args)

    guarded.__wrapped__ = method
    return guarded


def _view_load(field, offset, width, convert, ends):
    convert = _converter(convert, width)
    if convert is None:
        def method(self):
            return self._load(offset, width)
    else:
        def method(self):
            return convert(self._load(offset, width))
    return _guard(method, field, ends, True)


def _view_store(field, offset, width, convert, ends):
    def method(self, value):
        self._store(offset, width, int(value))
    return _guard(method, field, ends, False)


def _view_fetch_add(field, offset, width, convert, ends):
    convert = _converter(convert, width)

    def method(self, value):
        old = _fetch_add(self._mem, self._base + offset, width, value)
        return old if convert is None else convert(old)
    return _guard(method, field, ends, False)


def _view_cas(field, offset, width, convert, ends):
    convert = _converter(convert, width)

    def method(self, current, new):
        ok, found = _compare_exchange(self._mem, self._base + offset, width, int(current), int(new))
        return ok, found if convert is None else convert(found)
    return _guard(method, field, ends, False)


def _view_swap(field, offset, width, convert, ends):
    convert = _converter(convert, width)

    def method(self, value):
        old = _exchange(self._mem, self._base + offset, width, int(value))
        return old if convert is None else convert(old)
    return _guard(method, field, ends, False)


def _view_lane_load(field, offset, width, lane, ends):
    convert, at, size = lane
    convert = _converter(convert, size)
    shift, mask = 8 * at, (1 << (8 * size)) - 1

    def method(self):
        value = self._load(offset, width) >> shift & mask
        return value if convert is None else convert(value)
    return _guard(method, field, ends, True)


def _view_word_load(field, offset, width, shape, ends):
    fmt = shape[0]

    def method(self):
        return struct.unpack(fmt, self._load(offset, width).to_bytes(width, "little"))
    return _guard(method, field, ends, True)


def _view_word_cas(field, offset, width, shape, ends):
    fmt = shape[0]

    def method(self, current, new):
        current = int.from_bytes(struct.pack(fmt, *current), "little")
        new = int.from_bytes(struct.pack(fmt, *new), "little")
        ok, found = _compare_exchange(self._mem, self._base + offset, width, current, new)
        return ok, struct.unpack(fmt, found.to_bytes(width, "little"))
    return _guard(method, field, ends, False)


def _view_word_cas_at(field, offset, width, shape, ends):
    count = shape[1]

    def method(self, index, current, new):
        if not 0 <= index < count:
            raise IndexError("%s has %d elements; index %d" % (field, count, index))
        shift = 8 * index
        word = self._load(offset, width)
        for _ in range(_cas_tries):
            found = (word >> shift) & 0xff
            if found != current:
                return False, found
            wanted = (word & ~(0xff << shift)) | ((new & 0xff) << shift)
            if _cas_hook is not None:
                _cas_hook(self._mem, self._base + offset)
            ok, word = _compare_exchange(self._mem, self._base + offset, width, word, wanted)
            if ok:
                return True, current
        _cas_gave_up("%s[%d]" % (field, index))
    return _guard(method, field, ends, False)


def _view_get(field, offset, fmt, convert, ends):
    if convert is None:
        def method(self):
            return self._get(offset, fmt)
    else:
        def method(self):
            return convert(self._get(offset, fmt))
    return _guard(method, field, ends, True)


def _view_set(field, offset, fmt, convert, ends):
    def method(self, value):
        self._set(offset, fmt, value)
    return _guard(method, field, ends, False)


def _view_copy(field, offset, ctype, _, ends):
    def method(self):
        return self._copy(offset, ctype)
    return _guard(method, field, ends, True)


def _view_text(field, offset, ctype, _, ends):
    def method(self):
        return text(self._copy(offset, ctype))
    return _guard(method, field, ends, True)


def _view_put(field, offset, ctype, _, ends):
    def method(self, value):
        self._put(offset, _value_bytes(ctype, value))
    return _guard(method, field, ends, False)


def _view_view(field, offset, view, _, ends):
    scope = globals()  # the view class is defined later in the module, perhaps

    def method(self):
        return scope[view](self._mem, self._base + offset)
    return _guard(method, field, ends, True)


def _view_views(field, offset, view, shape, ends):
    scope, (count, stride) = globals(), shape

    def method(self, index):
        if not 0 <= index < count:
            raise IndexError("%s has %d entries; index %d" % (field, count, index))
        return scope[view](self._mem, self._base + offset + index * stride)
    return _guard(method, field, ends, True)


# The maker of each kind of view method.
_VIEW_METHODS = {
    "load": _view_load,
    "counter": _view_load,
    "store": _view_store,
    "fetch_add": _view_fetch_add,
    "cas": _view_cas,
    "swap": _view_swap,
    "lane_load": _view_lane_load,
    "word_load": _view_word_load,
    "word_cas": _view_word_cas,
    "word_cas_at": _view_word_cas_at,
    "get": _view_get,
    "set": _view_set,
    "copy": _view_copy,
    "text": _view_text,
    "put": _view_put,
    "view": _view_view,
    "views": _view_views,
}


class _LiveValue:
    """What a seqlock guards, as one copy: its fields and trailer parts as attributes."""

    __slots__ = ()

    def __repr__(self):
        parts = []
        for name in self.__slots__:
            value = getattr(self, name)
            if isinstance(value, bytes):
                value = "<%d bytes>" % len(value)
            elif not isinstance(value, (int, float)):
                value = "<%s>" % type(value).__name__
            parts.append("%s=%s" % (name, value))
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))


class RingSlot(_LiveValue):
    """What seqlock `ring_slot` guards, as one consistent copy.

    A snapshot ring slot: the host makes seq odd, writes the slot's header and payload, then makes it even; a client copies them and keeps the copy only if seq was even and unchanged

    Attributes:
        size: the field `size` (u32)
        publish_seq: the field `publish_seq` (u64)
        tick: the field `tick` (u64)
        publish_ns: the field `publish_ns` (u64)
        payload: the trailer part `payload` (snapshot): as much as the writer wrote, the rest zero
        payload_extra: the bytes of `payload` past its type (a newer writer's tail, or extras)
    """

    __slots__ = ("size", "publish_seq", "tick", "publish_ns", "payload", "payload_extra")
    _type_payload = Snapshot

    def __init__(self, size=0, publish_seq=0, tick=0, publish_ns=0, payload=None, payload_extra=b""):
        self.size = size
        self.publish_seq = publish_seq
        self.tick = tick
        self.publish_ns = publish_ns
        self.payload = self._type_payload() if payload is None else payload
        self.payload_extra = payload_extra


class ParamDefs(_LiveValue):
    """What seqlock `param_defs` guards, as one consistent copy.

    A client's parameter definitions: defs_seq is odd while the client writes them

    Attributes:
        def_count: the field `def_count` (u32)
        defs: the trailer part `defs` (param_def[max_params])
    """

    __slots__ = ("def_count", "defs")
    _type_defs = ParamDef * MAX_PARAMS

    def __init__(self, def_count=0, defs=None):
        self.def_count = def_count
        self.defs = self._type_defs() if defs is None else defs


class ParamValues(_LiveValue):
    """What seqlock `param_values` guards, as one consistent copy.

    The parameters' values: values_seq is odd while the host writes them

    Attributes:
        values: the trailer part `values` (param_value[max_params])
    """

    __slots__ = ("values",)
    _type_values = ParamValue * MAX_PARAMS

    def __init__(self, values=None):
        self.values = self._type_values() if values is None else values


class Stats(_LiveValue):
    """What seqlock `stats` guards, as one consistent copy.

    A client's stats: seq is odd while the client writes them

    Attributes:
        count: the field `count` (u32)
        entries: the trailer part `entries` (stat_entry[max_stats])
    """

    __slots__ = ("count", "entries")
    _type_entries = StatEntry * MAX_STATS

    def __init__(self, count=0, entries=None):
        self.count = count
        self.entries = self._type_entries() if entries is None else entries


class LiveClientEntry(_LiveView):
    """A live view of ClientEntry in shared memory (128 bytes, align 8), written by the host and client.

    LiveClientEntry(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 128
    ALIGN = 8
    MIN_LEN = 128
    _type_name = ctypes.c_char * CLIENT_NAME_LEN
    _methods = (
        ("state", "lane_load", "state", 0, 8, (ClientState, 0, 4), "host and client", 0),
        ("generation", "lane_load", "generation", 0, 8, (None, 4, 4), "client", 0),
        ("pid", "get", "pid", 8, "<I", None, "client", 0),
        ("set_pid", "set", "pid", 8, "<I", None, "client", 0),
        ("caps", "get", "caps", 12, "<I", ClientCaps, "host and client", 0),
        ("set_caps", "set", "caps", 12, "<I", ClientCaps, "host and client", 0),
        ("heartbeat_ns", "load", "heartbeat_ns", 16, 8, None, "client", 0),
        ("set_heartbeat_ns", "store", "heartbeat_ns", 16, 8, None, "client", 0),
        ("fetch_add_heartbeat_ns", "fetch_add", "heartbeat_ns", 16, 8, None, "client", 0),
        ("connected_ns", "get", "connected_ns", 24, "<Q", None, "client", 0),
        ("set_connected_ns", "set", "connected_ns", 24, "<Q", None, "client", 0),
        ("pad", "get", "pad", 32, "<B", None, "client", 0),
        ("set_pad", "set", "pad", 32, "<B", None, "client", 0),
        ("waiting", "load", "waiting", 36, 4, None, "client", 0),
        ("set_waiting", "store", "waiting", 36, 4, None, "client", 0),
        ("fetch_add_waiting", "fetch_add", "waiting", 36, 4, None, "client", 0),
        ("name", "text", "name", 40, _type_name, None, "client", 0),
        ("set_name", "put", "name", 40, _type_name, None, "client", 0),
    )


class LiveBridgeHeader(_LiveView):
    """A live view of BridgeHeader in shared memory (1304 bytes, align 8), written by the host.

    LiveBridgeHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 1304
    ALIGN = 8
    MIN_LEN = 1280
    _type_host_version = ctypes.c_char * VERSION_LEN
    _type_regions = RegionEntry * MAX_REGIONS
    _type_controls = Controls
    _methods = (
        ("magic", "get", "magic", 0, "<I", None, "host", 0),
        ("set_magic", "set", "magic", 0, "<I", None, "host", 0),
        ("abi_major", "get", "abi_major", 4, "<H", None, "host", 0),
        ("set_abi_major", "set", "abi_major", 4, "<H", None, "host", 0),
        ("abi_minor", "get", "abi_minor", 6, "<H", None, "host", 0),
        ("set_abi_minor", "set", "abi_minor", 6, "<H", None, "host", 0),
        ("header_size", "get", "header_size", 8, "<I", None, "host", 0),
        ("set_header_size", "set", "header_size", 8, "<I", None, "host", 0),
        ("total_size", "get", "total_size", 12, "<I", None, "host", 0),
        ("set_total_size", "set", "total_size", 12, "<I", None, "host", 0),
        ("host_pid", "get", "host_pid", 16, "<I", None, "host", 0),
        ("set_host_pid", "set", "host_pid", 16, "<I", None, "host", 0),
        ("host_generation", "load", "host_generation", 20, 4, None, "host", 0),
        ("set_host_generation", "store", "host_generation", 20, 4, None, "host", 0),
        ("fetch_add_host_generation", "fetch_add", "host_generation", 20, 4, None, "host", 0),
        ("host_state", "load", "host_state", 24, 4, HostState, "host", 0),
        ("set_host_state", "store", "host_state", 24, 4, HostState, "host", 0),
        ("region_count", "get", "region_count", 28, "<I", None, "host", 0),
        ("set_region_count", "set", "region_count", 28, "<I", None, "host", 0),
        ("host_version", "text", "host_version", 32, _type_host_version, None, "host", 0),
        ("set_host_version", "put", "host_version", 32, _type_host_version, None, "host", 0),
        ("regions", "copy", "regions", 64, _type_regions, None, "host", 0),
        ("set_regions", "put", "regions", 64, _type_regions, None, "host", 0),
        ("clock_mono_ns", "get", "clock_mono_ns", 128, "<Q", None, "host", 0),
        ("set_clock_mono_ns", "set", "clock_mono_ns", 128, "<Q", None, "host", 0),
        ("clock_unix_ns", "get", "clock_unix_ns", 136, "<q", None, "host", 0),
        ("set_clock_unix_ns", "set", "clock_unix_ns", 136, "<q", None, "host", 0),
        ("ring_slots", "get", "ring_slots", 144, "<I", None, "host", 0),
        ("set_ring_slots", "set", "ring_slots", 144, "<I", None, "host", 0),
        ("ring_slot_size", "get", "ring_slot_size", 148, "<I", None, "host", 0),
        ("set_ring_slot_size", "set", "ring_slot_size", 148, "<I", None, "host", 0),
        ("max_clients", "get", "max_clients", 152, "<I", None, "host", 0),
        ("set_max_clients", "set", "max_clients", 152, "<I", None, "host", 0),
        ("client_block_size", "get", "client_block_size", 156, "<I", None, "host", 0),
        ("set_client_block_size", "set", "client_block_size", 156, "<I", None, "host", 0),
        ("client_entry_size", "get", "client_entry_size", 160, "<I", None, "host", 0),
        ("set_client_entry_size", "set", "client_entry_size", 160, "<I", None, "host", 0),
        ("pad_owner", "word_load", "pad_owner", 164, 4, ("<4B", 4), "host and client", 0),
        ("compare_exchange_pad_owner", "word_cas", "pad_owner", 164, 4, ("<4B", 4), "host and client", 0),
        ("compare_exchange_pad_owner_at", "word_cas_at", "pad_owner", 164, 4, ("<4B", 4), "host and client", 0),
        ("snapshot_seq", "load", "snapshot_seq", 192, 8, None, "host", 0),
        ("set_snapshot_seq", "store", "snapshot_seq", 192, 8, None, "host", 0),
        ("fetch_add_snapshot_seq", "fetch_add", "snapshot_seq", 192, 8, None, "host", 0),
        ("clients", "views", "clients", 256, "LiveClientEntry", (8, 128), "host and client", 0),
        ("controls", "copy", "controls", 1280, _type_controls, None, "host", 1296),
        ("set_controls", "put", "controls", 1280, _type_controls, None, "host", 1296),
        ("run_mode", "load", "run_mode", 1296, 1, RunMode, "host", 1297),
        ("set_run_mode", "store", "run_mode", 1296, 1, RunMode, "host", 1297),
        ("sim_state", "load", "sim_state", 1297, 1, SimState, "host", 1298),
        ("set_sim_state", "store", "sim_state", 1297, 1, SimState, "host", 1298),
        ("lockstep_timeout_ms", "get", "lockstep_timeout_ms", 1300, "<I", None, "host", 1304),
        ("set_lockstep_timeout_ms", "set", "lockstep_timeout_ms", 1300, "<I", None, "host", 1304),
    )


class LiveDrawHeader(_LiveView):
    """A live view of DrawHeader in shared memory (64 bytes, align 4), written by the host.

    LiveDrawHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 4
    MIN_LEN = 64
    _methods = (
        ("state", "load", "state", 0, 4, None, "host and client", 0),
        ("set_state", "store", "state", 0, 4, None, "host and client", 0),
        ("fetch_add_state", "fetch_add", "state", 0, 4, None, "host and client", 0),
        ("compare_exchange_state", "cas", "state", 0, 4, None, "host and client", 0),
        ("swap_state", "swap", "state", 0, 4, None, "host and client", 0),
        ("buffers", "get", "buffers", 4, "<I", None, "host", 0),
        ("set_buffers", "set", "buffers", 4, "<I", None, "host", 0),
        ("buffer_size", "get", "buffer_size", 8, "<I", None, "host", 0),
        ("set_buffer_size", "set", "buffer_size", 8, "<I", None, "host", 0),
        ("max_commands", "get", "max_commands", 12, "<I", None, "host", 0),
        ("set_max_commands", "set", "max_commands", 12, "<I", None, "host", 0),
        ("max_payload", "get", "max_payload", 16, "<I", None, "host", 0),
        ("set_max_payload", "set", "max_payload", 16, "<I", None, "host", 0),
        ("published", "load", "published", 20, 4, None, "client", 0),
        ("set_published", "store", "published", 20, 4, None, "client", 0),
        ("fetch_add_published", "fetch_add", "published", 20, 4, None, "client", 0),
    )


class LiveDrawListHeader(_LiveView):
    """A live view of DrawListHeader in shared memory (64 bytes, align 8), written by the client.

    LiveDrawListHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 8
    MIN_LEN = 64
    _methods = (
        ("seq", "get", "seq", 0, "<I", None, "client", 0),
        ("set_seq", "set", "seq", 0, "<I", None, "client", 0),
        ("count", "get", "count", 4, "<I", None, "client", 0),
        ("set_count", "set", "count", 4, "<I", None, "client", 0),
        ("payload_len", "get", "payload_len", 8, "<I", None, "client", 0),
        ("set_payload_len", "set", "payload_len", 8, "<I", None, "client", 0),
        ("ttl_ms", "get", "ttl_ms", 12, "<I", None, "client", 0),
        ("set_ttl_ms", "set", "ttl_ms", 12, "<I", None, "client", 0),
        ("flags", "get", "flags", 16, "<I", DrawListFlags, "client", 0),
        ("set_flags", "set", "flags", 16, "<I", DrawListFlags, "client", 0),
        ("dropped", "get", "dropped", 20, "<I", None, "client", 0),
        ("set_dropped", "set", "dropped", 20, "<I", None, "client", 0),
        ("for_tick", "get", "for_tick", 24, "<Q", None, "client", 0),
        ("set_for_tick", "set", "for_tick", 24, "<Q", None, "client", 0),
    )


class LiveParamsHeader(_LiveView):
    """A live view of ParamsHeader in shared memory (64 bytes, align 4), written by the host.

    LiveParamsHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    the struct and its trailer, to the end of buf unless length says less.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 4
    MIN_LEN = 8768
    _trailer = True
    _methods = (
        ("defs_seq", "counter", "defs_seq", 0, 4, None, "client", 0),
        ("values_seq", "counter", "values_seq", 8, 4, None, "host", 0),
        ("changes", "load", "changes", 12, 4, None, "host", 0),
        ("set_changes", "store", "changes", 12, 4, None, "host", 0),
        ("fetch_add_changes", "fetch_add", "changes", 12, 4, None, "host", 0),
        ("max_params", "get", "max_params", 16, "<I", None, "host", 0),
        ("set_max_params", "set", "max_params", 16, "<I", None, "host", 0),
    )

    def read_param_defs(self):
        """Reads what seqlock `param_defs` guards (written by the client, read by the host):
        copies it and keeps the copy only if the counter was even and unchanged, in up to
        8 tries (HOST_TRIES: a host does not wait for a client that died
        mid-write); SeqlockContendedError after them.

        A client's parameter definitions: defs_seq is odd while the client writes them
        """
        return self.read_param_defs_counted(HOST_TRIES)[0]

    def read_param_defs_counted(self, max_tries):
        """read_param_defs in at most max_tries tries: (the value, the retries it took)."""
        return _retry(max_tries, self._try_param_defs, "seqlock param_defs")

    def _try_param_defs(self):
        return _seqlock_try(self, 0, 4, self._copy_param_defs)

    def _copy_param_defs(self):
        value = ParamDefs.__new__(ParamDefs)
        value.def_count = self._get(4, "<I")
        value.defs = self._copy(64, ParamDefs._type_defs)
        return value

    def write_param_defs(self, session, value):
        """write_param_defs_unscoped(value), bound to session's claim: refused, nothing stored, once lost."""
        _session_stands(session, "write_param_defs")
        self.write_param_defs_unscoped(value)

    def write_param_defs_unscoped(self, value):
        """Writes what seqlock `param_defs` guards: checks and packs every byte first (a value
        that does not fit raises, with the counter untouched), then makes the counter odd,
        stores the bytes, makes it even (release). One writer at a time: the client.
        Bound to no claim: it keeps writing after the row was freed, into the next client's
        block. For a host, a test or a tool; a client writes with write_param_defs(session, value)."""
        _seqlock_write(self, 0, 4, self._pack_param_defs(value))

    def _pack_param_defs(self, value):
        """The (offset, bytes) stores of a write of value, all checked: nothing is stored."""
        writes = []
        writes.append((4, struct.pack("<I", value.def_count)))
        writes.append((64, _value_bytes(ParamDefs._type_defs, value.defs)))
        return writes

    def read_param_values(self):
        """Reads what seqlock `param_values` guards (written by the host, read by the client):
        copies it and keeps the copy only if the counter was even and unchanged, in up to
        10000 tries; SeqlockContendedError after them.

        The parameters' values: values_seq is odd while the host writes them
        """
        return self.read_param_values_counted(_default_tries)[0]

    def read_param_values_counted(self, max_tries):
        """read_param_values in at most max_tries tries: (the value, the retries it took)."""
        return _retry(max_tries, self._try_param_values, "seqlock param_values")

    def _try_param_values(self):
        return _seqlock_try(self, 8, 4, self._copy_param_values)

    def _copy_param_values(self):
        value = ParamValues.__new__(ParamValues)
        value.values = self._copy(8256, ParamValues._type_values)
        return value

    def write_param_values(self, value):
        """Writes what seqlock `param_values` guards: checks and packs every byte first (a value
        that does not fit raises, with the counter untouched), then makes the counter odd,
        stores the bytes, makes it even (release). One writer at a time: the host."""
        _seqlock_write(self, 8, 4, self._pack_param_values(value))

    def _pack_param_values(self, value):
        """The (offset, bytes) stores of a write of value, all checked: nothing is stored."""
        writes = []
        writes.append((8256, _value_bytes(ParamValues._type_values, value.values)))
        return writes


class LiveStatsHeader(_LiveView):
    """A live view of StatsHeader in shared memory (64 bytes, align 8), written by the client.

    LiveStatsHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    the struct and its trailer, to the end of buf unless length says less.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 8
    MIN_LEN = 4160
    _trailer = True
    _methods = (
        ("seq", "counter", "seq", 0, 4, None, "client", 0),
        ("max_stats", "get", "max_stats", 8, "<I", None, "host", 0),
        ("set_max_stats", "set", "max_stats", 8, "<I", None, "host", 0),
        ("ticks", "load", "ticks", 16, 8, None, "client", 0),
        ("set_ticks", "store", "ticks", 16, 8, None, "client", 0),
        ("fetch_add_ticks", "fetch_add", "ticks", 16, 8, None, "client", 0),
        ("skipped", "load", "skipped", 24, 8, None, "client", 0),
        ("set_skipped", "store", "skipped", 24, 8, None, "client", 0),
        ("fetch_add_skipped", "fetch_add", "skipped", 24, 8, None, "client", 0),
        ("wake_p50_us", "get", "wake_p50_us", 32, "<f", None, "client", 0),
        ("set_wake_p50_us", "set", "wake_p50_us", 32, "<f", None, "client", 0),
        ("wake_p99_us", "get", "wake_p99_us", 36, "<f", None, "client", 0),
        ("set_wake_p99_us", "set", "wake_p99_us", 36, "<f", None, "client", 0),
    )

    def read_stats(self):
        """Reads what seqlock `stats` guards (written by the client, read by the host):
        copies it and keeps the copy only if the counter was even and unchanged, in up to
        8 tries (HOST_TRIES: a host does not wait for a client that died
        mid-write); SeqlockContendedError after them.

        A client's stats: seq is odd while the client writes them
        """
        return self.read_stats_counted(HOST_TRIES)[0]

    def read_stats_counted(self, max_tries):
        """read_stats in at most max_tries tries: (the value, the retries it took)."""
        return _retry(max_tries, self._try_stats, "seqlock stats")

    def _try_stats(self):
        return _seqlock_try(self, 0, 4, self._copy_stats)

    def _copy_stats(self):
        value = Stats.__new__(Stats)
        value.count = self._get(4, "<I")
        value.entries = self._copy(64, Stats._type_entries)
        return value

    def write_stats(self, session, value):
        """write_stats_unscoped(value), bound to session's claim: refused, nothing stored, once lost."""
        _session_stands(session, "write_stats")
        self.write_stats_unscoped(value)

    def write_stats_unscoped(self, value):
        """Writes what seqlock `stats` guards: checks and packs every byte first (a value
        that does not fit raises, with the counter untouched), then makes the counter odd,
        stores the bytes, makes it even (release). One writer at a time: the client.
        Bound to no claim: it keeps writing after the row was freed, into the next client's
        block. For a host, a test or a tool; a client writes with write_stats(session, value)."""
        _seqlock_write(self, 0, 4, self._pack_stats(value))

    def _pack_stats(self, value):
        """The (offset, bytes) stores of a write of value, all checked: nothing is stored."""
        writes = []
        writes.append((4, struct.pack("<I", value.count)))
        writes.append((64, _value_bytes(Stats._type_entries, value.entries)))
        return writes


class LiveMailboxHeader(_LiveView):
    """A live view of MailboxHeader in shared memory (64 bytes, align 4), written by the host.

    LiveMailboxHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 4
    MIN_LEN = 64
    _methods = (
        ("request_seq", "load", "request_seq", 0, 4, None, "client", 0),
        ("set_request_seq", "store", "request_seq", 0, 4, None, "client", 0),
        ("fetch_add_request_seq", "fetch_add", "request_seq", 0, 4, None, "client", 0),
        ("request_len", "get", "request_len", 4, "<I", None, "client", 0),
        ("set_request_len", "set", "request_len", 4, "<I", None, "client", 0),
        ("response_seq", "load", "response_seq", 8, 4, None, "host", 0),
        ("set_response_seq", "store", "response_seq", 8, 4, None, "host", 0),
        ("fetch_add_response_seq", "fetch_add", "response_seq", 8, 4, None, "host", 0),
        ("status", "get", "status", 12, "<I", CommandStatus, "host", 0),
        ("set_status", "set", "status", 12, "<I", CommandStatus, "host", 0),
        ("response_len", "get", "response_len", 16, "<I", None, "host", 0),
        ("set_response_len", "set", "response_len", 16, "<I", None, "host", 0),
        ("response_total", "get", "response_total", 20, "<I", None, "host", 0),
        ("set_response_total", "set", "response_total", 20, "<I", None, "host", 0),
        ("request_capacity", "get", "request_capacity", 24, "<I", None, "host", 0),
        ("set_request_capacity", "set", "request_capacity", 24, "<I", None, "host", 0),
        ("response_capacity", "get", "response_capacity", 28, "<I", None, "host", 0),
        ("set_response_capacity", "set", "response_capacity", 28, "<I", None, "host", 0),
    )


class LiveRingSlotHeader(_LiveView):
    """A live view of RingSlotHeader in shared memory (64 bytes, align 8), written by the host.

    LiveRingSlotHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    the struct and its trailer, to the end of buf unless length says less.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 8
    MIN_LEN = 64
    _trailer = True
    _methods = (
        ("seq", "counter", "seq", 0, 4, None, "host", 0),
    )

    def read_ring_slot(self):
        """Reads what seqlock `ring_slot` guards (written by the host, read by the client):
        copies it and keeps the copy only if the counter was even and unchanged, in up to
        10000 tries; SeqlockContendedError after them.

        A snapshot ring slot: the host makes seq odd, writes the slot's header and payload, then makes it even; a client copies them and keeps the copy only if seq was even and unchanged
        """
        return self.read_ring_slot_counted(_default_tries)[0]

    def read_ring_slot_counted(self, max_tries):
        """read_ring_slot in at most max_tries tries: (the value, the retries it took)."""
        return _retry(max_tries, self._try_ring_slot, "seqlock ring_slot")

    def _try_ring_slot(self):
        return _seqlock_try(self, 0, 4, self._copy_ring_slot)

    def _copy_ring_slot(self):
        value = RingSlot.__new__(RingSlot)
        value.size = self._get(4, "<I")
        value.publish_seq = self._get(8, "<Q")
        value.tick = self._get(16, "<Q")
        value.publish_ns = self._get(24, "<Q")
        size = value.size
        room = self._length - 64
        size = max(0, min(size, room))
        # The payload's type is copied whole whatever size says, the extras by their cover,
        # then both are cut to size.
        raw = self._bytes(64, min(12104, room))
        value.payload = RingSlot._type_payload.from_buffer_copy(raw[:size].ljust(12104, b"\0"))
        extra = max(0, size - 12104)
        value.payload_extra = self._bytes(12168, self._cover(12168, extra, room - 12104))[:extra]
        return value

    def write_ring_slot(self, value):
        """Writes what seqlock `ring_slot` guards: checks and packs every byte first (a value
        that does not fit raises, with the counter untouched), then makes the counter odd,
        stores the bytes, makes it even (release). One writer at a time: the host."""
        _seqlock_write(self, 0, 4, self._pack_ring_slot(value))

    def _pack_ring_slot(self, value):
        """The (offset, bytes) stores of a write of value, all checked: nothing is stored."""
        writes = []
        size = 12104 + len(value.payload_extra)
        if size > self._length - 64:
            raise ValueError("payload: %d bytes do not fit in the %d after the header" % (size, self._length - 64))
        writes.append((4, struct.pack("<I", size)))
        writes.append((8, struct.pack("<Q", value.publish_seq)))
        writes.append((16, struct.pack("<Q", value.tick)))
        writes.append((24, struct.pack("<Q", value.publish_ns)))
        writes.append((64, _value_bytes(RingSlot._type_payload, value.payload)))
        extra = bytes(value.payload_extra)
        writes.append((12168, extra.ljust(self._cover(12168, len(extra), self._length - 12168), b"\0")))
        return writes


class LiveLogRingHeader(_LiveView):
    """A live view of LogRingHeader in shared memory (64 bytes, align 8), written by the host.

    LiveLogRingHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 8
    MIN_LEN = 64
    _methods = (
        ("write_pos", "load", "write_pos", 0, 8, None, "host", 0),
        ("set_write_pos", "store", "write_pos", 0, 8, None, "host", 0),
        ("fetch_add_write_pos", "fetch_add", "write_pos", 0, 8, None, "host", 0),
        ("tail_pos", "load", "tail_pos", 8, 8, None, "host", 0),
        ("set_tail_pos", "store", "tail_pos", 8, 8, None, "host", 0),
        ("fetch_add_tail_pos", "fetch_add", "tail_pos", 8, 8, None, "host", 0),
        ("capacity", "get", "capacity", 16, "<I", None, "host", 0),
        ("set_capacity", "set", "capacity", 16, "<I", None, "host", 0),
        ("entries", "load", "entries", 24, 8, None, "host", 0),
        ("set_entries", "store", "entries", 24, 8, None, "host", 0),
        ("fetch_add_entries", "fetch_add", "entries", 24, 8, None, "host", 0),
    )


class LiveLogQueueHeader(_LiveView):
    """A live view of LogQueueHeader in shared memory (64 bytes, align 8), written by the client.

    LiveLogQueueHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 8
    MIN_LEN = 64
    _methods = (
        ("write_pos", "load", "write_pos", 0, 8, None, "client", 0),
        ("set_write_pos", "store", "write_pos", 0, 8, None, "client", 0),
        ("fetch_add_write_pos", "fetch_add", "write_pos", 0, 8, None, "client", 0),
        ("dropped", "load", "dropped", 8, 8, None, "client", 0),
        ("set_dropped", "store", "dropped", 8, 8, None, "client", 0),
        ("fetch_add_dropped", "fetch_add", "dropped", 8, 8, None, "client", 0),
        ("capacity", "get", "capacity", 16, "<I", None, "host", 0),
        ("set_capacity", "set", "capacity", 16, "<I", None, "host", 0),
        ("read_pos", "load", "read_pos", 32, 8, None, "host", 0),
        ("set_read_pos", "store", "read_pos", 32, 8, None, "host", 0),
        ("fetch_add_read_pos", "fetch_add", "read_pos", 32, 8, None, "host", 0),
    )


class LiveClientBlockHeader(_LiveView):
    """A live view of ClientBlockHeader in shared memory (72 bytes, align 4), written by the host.

    LiveClientBlockHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 72
    ALIGN = 4
    MIN_LEN = 72
    _type_regions = RegionEntry * MAX_REGIONS
    _methods = (
        ("size", "get", "size", 0, "<I", None, "host", 0),
        ("set_size", "set", "size", 0, "<I", None, "host", 0),
        ("region_count", "get", "region_count", 4, "<I", None, "host", 0),
        ("set_region_count", "set", "region_count", 4, "<I", None, "host", 0),
        ("regions", "copy", "regions", 8, _type_regions, None, "host", 0),
        ("set_regions", "put", "regions", 8, _type_regions, None, "host", 0),
    )


class LiveDirectoryEntry(_LiveView):
    """A live view of DirectoryEntry in shared memory (64 bytes, align 8), written by the host.

    LiveDirectoryEntry(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 64
    ALIGN = 8
    MIN_LEN = 64
    _type_host_version = ctypes.c_char * VERSION_LEN
    _methods = (
        ("state", "lane_load", "state", 0, 8, (InstanceState, 0, 4), "host", 0),
        ("pid", "get", "pid", 4, "<I", None, "host", 0),
        ("set_pid", "set", "pid", 4, "<I", None, "host", 0),
        ("process_time", "get", "process_time", 8, "<Q", None, "host", 0),
        ("set_process_time", "set", "process_time", 8, "<Q", None, "host", 0),
        ("abi_major", "get", "abi_major", 16, "<H", None, "host", 0),
        ("set_abi_major", "set", "abi_major", 16, "<H", None, "host", 0),
        ("abi_minor", "get", "abi_minor", 18, "<H", None, "host", 0),
        ("set_abi_minor", "set", "abi_minor", 18, "<H", None, "host", 0),
        ("host_version", "text", "host_version", 24, _type_host_version, None, "host", 0),
        ("set_host_version", "put", "host_version", 24, _type_host_version, None, "host", 0),
    )


class LiveDirectoryHeader(_LiveView):
    """A live view of DirectoryHeader in shared memory (1088 bytes, align 8), written by the host.

    LiveDirectoryHeader(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 1088
    ALIGN = 8
    MIN_LEN = 1088
    _methods = (
        ("magic", "get", "magic", 0, "<I", None, "host", 0),
        ("set_magic", "set", "magic", 0, "<I", None, "host", 0),
        ("entry_count", "get", "entry_count", 4, "<I", None, "host", 0),
        ("set_entry_count", "set", "entry_count", 4, "<I", None, "host", 0),
        ("entry_size", "get", "entry_size", 8, "<I", None, "host", 0),
        ("set_entry_size", "set", "entry_size", 8, "<I", None, "host", 0),
        ("entries", "views", "entries", 64, "LiveDirectoryEntry", (16, 64), "host", 0),
    )


class LivePadInput(_LiveView):
    """A live view of PadInput in shared memory (32 bytes, align 8), written by the client.

    LivePadInput(buf, offset=0, length=None) views the bytes at offset of buf:
    SIZE bytes unless length says more.
    ValueError when they do not fit, or when offset is not a multiple of ALIGN.
    """

    __slots__ = ()
    SIZE = 32
    ALIGN = 8
    MIN_LEN = 32
    _methods = (
        ("seq", "counter", "seq", 0, 4, None, "client", 0),
    )

    def read_pad_input(self):
        """Reads what seqlock `pad_input` guards (written by the client, read by the host):
        copies it and keeps the copy only if the counter was even and unchanged, in up to
        8 tries (HOST_TRIES: a host does not wait for a client that died
        mid-write); SeqlockContendedError after them.

        A virtual pad: seq is odd while the client writes the record
        """
        return self.read_pad_input_counted(HOST_TRIES)[0]

    def read_pad_input_counted(self, max_tries):
        """read_pad_input in at most max_tries tries: (the value, the retries it took)."""
        return _retry(max_tries, self._try_pad_input, "seqlock pad_input")

    def _try_pad_input(self):
        return _seqlock_try(self, 0, 4, self._copy_pad_input)

    def _copy_pad_input(self):
        raw = bytearray(32)
        raw[4:32] = self._bytes(4, 28)
        return PadInput.from_buffer_copy(raw)

    def write_pad_input(self, session, value):
        """write_pad_input_unscoped(value), bound to session's claim: refused, nothing stored, once lost."""
        _session_stands(session, "write_pad_input")
        self.write_pad_input_unscoped(value)

    def write_pad_input_unscoped(self, value):
        """Writes what seqlock `pad_input` guards: checks and packs every byte first (a value
        that does not fit raises, with the counter untouched), then makes the counter odd,
        stores the bytes, makes it even (release). One writer at a time: the client.
        Bound to no claim: it keeps writing after the row was freed, into the next client's
        block. For a host, a test or a tool; a client writes with write_pad_input(session, value)."""
        _seqlock_write(self, 0, 4, self._pack_pad_input(value))

    def _pack_pad_input(self, value):
        """The (offset, bytes) stores of a write of value, all checked: nothing is stored."""
        data = _value_bytes(PadInput, value)
        return [
            (4, data[4:32]),
        ]


class SnapshotRing:
    """The ring `snapshot_ring`: 8 slots of 32768 bytes, each a LiveRingSlotHeader and what
    follows it, under seqlock `ring_slot`. `snapshot_seq` counts publications: the newest is in
    slot (head - 1) % slot_count (8 unless the writer says otherwise), and a head of 0
    means none yet.

    Snapshots published: the newest is in slot (snapshot_seq - 1) % ring_slots, and none is published while snapshot_seq is 0

    SnapshotRing(header, buf, offset=0, slot_count=SLOT_COUNT, slot_size=SLOT_SIZE): header is
    the LiveBridgeHeader that counts the publications, and the slots start at offset of buf (often the
    buffer header views); slot_count and slot_size are the writer's when it built the ring
    with others (attach passes them), SLOT_COUNT and SLOT_SIZE the schema's.
    """

    __slots__ = ("_header", "_mem", "_base", "_count", "_size")
    SLOT_COUNT = 8
    SLOT_SIZE = 32768

    def __init__(self, header, buf, offset=0, slot_count=SLOT_COUNT, slot_size=SLOT_SIZE):
        mem = header._mem if buf is header._mem.source else (buf if isinstance(buf, _Mem) else _Mem(buf))
        if slot_count < 1 or slot_size < 1 or slot_size % 8:
            raise ValueError("SnapshotRing of %d slots of %d bytes: expected at least 1 slot of a multiple of 8 bytes" % (slot_count, slot_size))
        size = slot_count * slot_size
        if offset < 0 or offset % 8:
            raise ValueError("SnapshotRing at offset %d: the offset must be a multiple of 8" % offset)
        if offset + size > mem.size:
            raise ValueError("SnapshotRing needs %d bytes at offset %d, but the buffer holds %d bytes" % (size, offset, mem.size))
        self._header, self._mem, self._base = header, mem, offset
        self._count, self._size = slot_count, slot_size

    @property
    def slot_count(self):
        """Its slots: the writer's count."""
        return self._count

    @property
    def slot_size(self):
        """The bytes from one slot to the next: the writer's size."""
        return self._size

    def release(self):
        """Lets go of the buffers, the header's included."""
        self._header.release()
        self._mem.release()

    def head(self):
        """Publications so far (acquire)."""
        return self._header.snapshot_seq()

    def slot(self, index):
        """The live view of slot index; IndexError unless 0 <= index < slot_count."""
        if not 0 <= index < self._count:
            raise IndexError("SnapshotRing has %d slots; index %d" % (self._count, index))
        return LiveRingSlotHeader(self._mem, self._base + index * self._size, self._size)

    def read_newest(self):
        """The newest slot, copied under its seqlock: a RingSlot, or None before the first
        publication. A writer that laps the reader during the copy makes it try again, so the
        copy is always one whole publication; SeqlockContendedError after 10000 tries."""
        found = self.read_newest_counted(_default_tries)
        return None if found is None else found[0]

    def read_newest_counted(self, max_tries):
        """read_newest in at most max_tries tries: None, or (the value, the retries it took).
        Each try picks the newest slot again."""
        value, retries = _retry(max_tries, self._try_newest, "ring SnapshotRing")
        return None if value is None else (value, retries)

    def _try_newest(self):
        head = self.head()
        if head == 0:
            return True, None
        return self.slot((head - 1) % self._count)._try_ring_slot()

    def publish(self, value):
        """The writer's side: writes value into the next slot under its seqlock, then
        publishes it by storing the new head (release), which it returns. One writer only.        It first sets value.publish_seq to that head: the slot's publication number."""
        head = self.head()
        setattr(value, "publish_seq", (head + 1) & 0xffffffffffffffff)
        self.slot(head % self._count).write_ring_slot(value)
        head = (head + 1) & 0xffffffffffffffff
        self._header.set_snapshot_seq(head)
        return head


def events_since(record, count):
    """The ring `events`: `event_total` counts entries ever written, and entry i is `events[i % 32]`.

    Events detected since start-up: event i is at events[i % max_events], so only the last max_events are kept

    The entries of record (a Snapshot, a copy) from number count on, oldest first, as
    ([(number, entry), ...], lost): lost counts those the ring overwrote before they were
    read. Pass the record's event_total as count next time.
    """
    return _events_since(getattr(record, "events"), getattr(record, "event_total"), count)



def push_events(record, entry):
    """The writer's side of ring `events`: stores entry as entry number record.event_total (at
    events[n % 32], over the oldest once the ring is full) and counts it; returns its
    number. record is the writer's copy, which it then publishes."""
    n = getattr(record, "event_total")
    getattr(record, "events")[n % 32] = entry
    setattr(record, "event_total", (n + 1) & 0xffffffffffffffff)
    return n


Snapshot.events_since = events_since


Snapshot.push_events = push_events


# Protocols ------------------------------------------------------------------------------
#
# Each declared protocol is a class with both of its sides, made from the live view of its
# header as attach hands it out (the view's bytes are the whole region: the header and the
# area after it). Everything the other side wrote (capacities, positions, sizes, lengths,
# the exchange's state) is checked before it is used: a broken or hostile peer gives a
# ProtocolError naming the check (the abi-runtime's names), never another exception, a hang,
# a read outside the region or an allocation larger than the region. The orderings are the
# runtime's: the atomic words with the live layer's acquire loads and release stores, the
# bytes copied in between (a copy, then a re-check where the other side may overwrite them).


class ProtocolError(ValueError):
    """What the other side of a protocol wrote that cannot be right, or a call out of turn.

    check names it, as the abi-runtime does: queue_capacity, queue_positions,
    queue_entry_size, queue_bad_entry; ring_capacity, ring_positions, ring_entry_size,
    ring_bad_entry; entry_part_too_long, entry_part_past_entry (an entry's source or text);
    mailbox_capacity, mailbox_length, mailbox_busy, mailbox_too_long, mailbox_sequence;
    exchange_geometry, exchange_state, exchange_contended, exchange_list_length;
    session_reloaded, session_host_exiting (a claim refused: attach again, or stop).
    """

    def __init__(self, check, message):
        self.check = check
        super().__init__("%s: %s" % (check, message))


class Empty:
    """What read_next returns when there is nothing new: the one value EMPTY."""

    __slots__ = ()

    def __repr__(self):
        return "EMPTY"


EMPTY = Empty()


class Lapped:
    """What read_next returns when the writer overtook the reader: missed entries were
    overwritten before they were read. The next call returns the oldest entry still there."""

    __slots__ = ("missed",)

    def __init__(self, missed):
        self.missed = missed

    def __eq__(self, other):
        return isinstance(other, Lapped) and other.missed == self.missed

    def __hash__(self):
        return hash(self.missed)

    def __repr__(self):
        return "Lapped(missed=%d)" % self.missed


class Standing(enum.IntEnum):
    """A client session's standing: its row is still its own (CONNECTED); the host freed it
    or another claim took it (DISCONNECTED); the host reloaded (host_generation changed) and
    freed it (RELOADED); the host is exiting (HOST_EXITING)."""

    CONNECTED = 0
    DISCONNECTED = 1
    RELOADED = 2
    HOST_EXITING = 3


class HungWatch:
    """The host's memory of a session's rows (the session class's watch()): for each row in use, its
    (state, generation, heartbeat) and when the host first saw them so. A row is hung when
    they have not changed for longer than the hung time of the host's own clock; only the
    host's clock is compared with itself."""

    __slots__ = ("_hung_ns", "_seen")

    def __init__(self, rows, hung_ns):
        self._hung_ns = hung_ns
        self._seen = [None] * rows

    def is_hung(self, index, row, now_ns):
        """Whether row index, seen as row ((state, generation, beat), or None when not in
        use: forgotten), is hung at now_ns. False for a row past the watch's rows."""
        if not 0 <= index < len(self._seen):
            return False
        seen = self._seen[index]
        if row is None:
            self._seen[index] = None
            return False
        if seen is None or seen[0] != row:
            self._seen[index] = (row, now_ns)
            return False
        return now_ns - seen[1] > self._hung_ns


def _region_bytes(mem, start, size):
    return bytes(mem.view[start : start + size])


def _region_put(mem, start, data):
    mem.view[start : start + len(data)] = data


def _area_capacity(view, word, area, check):
    """The capacity field word = (offset, width) of an area of entries at area of view,
    checked: a multiple of 8 from 8 to the bytes the region has after area."""
    offset, width = word
    found = view._geometry(offset, width)
    room = max(view._length - area, 0)
    if found == 0 or found % 8 or found > room or area % 8:
        raise ProtocolError(
            check, "capacity %d, expected a multiple of 8 from 8 to %d" % (found, room)
        )
    return found


def _protocol_view(cls, view):
    if not isinstance(view, cls._VIEW):
        raise TypeError("%s takes a %s, not %s" % (cls.__name__, cls._VIEW.__name__, type(view).__name__))


# A protocol's writer that writes the blocks a session's row owns is bound to a claim: made
# with the claim (Protocol(view, session)), each write first checks the claim's standing and
# raises ProtocolError session_disconnected, session_reloaded or session_host_exiting instead of
# storing anything once the row is no longer the claim's. The writer without a claim, for a
# host, a test or a tool, is Protocol.unscoped(view); made without either, it only reads.
_UNSCOPED = object()


def _refused(standing, name):
    """The error a bound write raises when the claim no longer stands."""
    check = {
        Standing.DISCONNECTED: "session_disconnected",
        Standing.RELOADED: "session_reloaded",
        Standing.HOST_EXITING: "session_host_exiting",
    }[standing]
    return ProtocolError(check, "the row is no longer this client's (%s): %s refused" % (standing.name, name))


def _claimed(writer, name):
    """Before each write of a bound writer: its claim's standing, raised unless CONNECTED."""
    session = writer._session
    if not writer._BOUND or session is _UNSCOPED:
        return
    if session is None:
        cls = type(writer).__name__
        raise TypeError(
            "%s.%s writes a block a claim owns: make it with %s(view, session), or "
            "%s.unscoped(view) to write without a claim" % (cls, name, cls, cls)
        )
    standing = session.standing()
    if standing != Standing.CONNECTED:
        raise _refused(standing, name)


def _session_stands(session, name):
    """Before a bound seqlock write (view.write_<lock>(session, value), a client's write of a
    record in its session's blocks): session's standing, raised unless CONNECTED (the row was
    freed, claimed again or reloaded, or the host exits: ProtocolError session_disconnected,
    session_reloaded or session_host_exiting), so a stale client stores nothing."""
    if not hasattr(session, "standing"):
        raise TypeError("%s takes the session whose claim it writes for, not %s" % (name, type(session).__name__))
    standing = session.standing()
    if standing != Standing.CONNECTED:
        raise _refused(standing, name)


class _Entries:
    """What the queue and the ring share: their entries' format (class attributes of each
    protocol's class) and how an entry is made and read back."""

    __slots__ = ()
    _what = ""

    @classmethod
    def _entry_bytes(cls, head, parts):
        """The whole entry: head (the entry struct), its size, kind and part lengths set here,
        then each part, padded to a multiple of 8. ProtocolError entry_part_too_long when a part
        is longer than its bound, or the entry than its size field holds."""
        if not isinstance(head, cls._HEAD):
            raise TypeError("the entry's head is a %s, not %s" % (cls._HEAD.__name__, type(head).__name__))
        raw = bytearray(bytes(head))
        for k, ((_name, offset, fmt, most), data) in enumerate(zip(cls._PARTS, parts)):
            data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
            if len(data) > most or len(data) >> (8 * struct.calcsize(fmt)):
                raise ProtocolError("entry_part_too_long", "entry: part %d is %d bytes, expected at most %d" % (k, len(data), most))
            struct.pack_into(fmt, raw, offset, len(data))
            raw += data
        raw += bytes(-len(raw) % 8)
        size_offset, size_fmt = cls._SIZE
        if len(raw) >> (8 * struct.calcsize(size_fmt)):
            most = (1 << (8 * struct.calcsize(size_fmt))) - 1
            raise ProtocolError(
                "entry_part_too_long",
                "entry: part %d is %d bytes, expected at most %d" % (len(cls._PARTS), len(raw), most),
            )
        struct.pack_into(size_fmt, raw, size_offset, len(raw))
        struct.pack_into(cls._KIND[1], raw, cls._KIND[0], cls._RECORD)
        return raw

    @classmethod
    def _head_word(cls, word):
        """(size, whether padding) of the entry whose first 8 bytes are word."""
        size = struct.unpack_from(cls._SIZE[1], word, cls._SIZE[0])[0]
        kind = struct.unpack_from(cls._KIND[1], word, cls._KIND[0])[0]
        return size, kind == cls._PADDING

    @classmethod
    def _entry(cls, raw, at):
        """The entry class of raw (a whole entry's bytes, its size checked): its head and its
        parts. ProtocolError entry_part_too_long when a part's length is past its bound,
        entry_part_past_entry when the parts run past the entry."""
        head = cls._HEAD.from_buffer_copy(raw[: cls._HEADER_SIZE])
        start, parts = cls._HEADER_SIZE, []
        for k, (_name, offset, fmt, most) in enumerate(cls._PARTS):
            n = struct.unpack_from(fmt, raw, offset)[0]
            if n > most:
                raise ProtocolError(
                    "entry_part_too_long",
                    "%s: entry: part %d is %d bytes, expected at most %d" % (cls._what, k, n, most),
                )
            if start + n > len(raw):
                raise ProtocolError(
                    "entry_part_past_entry",
                    "%s: entry: part %d ends at byte %d, past the entry's %d bytes (the entry at %d)"
                    % (cls._what, k, start + n, len(raw), at),
                )
            parts.append(bytes(raw[start : start + n]))
            start += n
        return cls._ENTRY(head, *parts)


class _ByteQueue(_Entries):
    """A single-writer, single-reader queue of entries (abi-runtime byte_queue): push never
    overwrites what pop has not consumed; an entry that does not fit is dropped and counted."""

    __slots__ = ("_view", "_mem", "_base", "_capacity", "_session")
    _what = "queue"

    def __init__(self, view, session=None):
        _protocol_view(type(self), view)
        self._session = session
        self._view, self._mem, self._base = view, view._mem, view._base
        self._capacity = _area_capacity(view, self._CAPACITY, self._AREA, "queue_capacity")

    @property
    def view(self):
        """The header's live view."""
        return self._view

    @classmethod
    def unscoped(cls, view):
        """A writer bound to no claim: it keeps writing after the row was freed, into the next
        client's blocks. For a host, a test or a tool that writes without a claim."""
        return cls(view, _UNSCOPED)

    @property
    def capacity(self):
        """The area's bytes, as the header said when this was made."""
        return self._capacity

    def dropped(self):
        """Entries the writer dropped so far."""
        return self._view._load(self._DROPPED, 8, _RELAXED)

    def _positions(self, read, write):
        if read % 8 or write % 8 or write < read or write - read > self._capacity:
            raise ProtocolError(
                "queue_positions",
                "write_pos %d and read_pos %d are not in order within the capacity" % (write, read),
            )

    def _push(self, head, parts):
        entry = self._entry_bytes(head, parts)
        v, cap, n = self._view, self._capacity, len(entry)
        write = v._load(self._WRITE_POS, 8, _RELAXED)
        read = v._load(self._READ_POS, 8, _ACQUIRE)
        self._positions(read, write)
        at = write % cap
        pad = cap - at if n > cap - at else 0
        if write + pad + n > 0xFFFFFFFFFFFFFFFF:
            # The entry's end must be a u64 (a store would mask it): no honest writer gets
            # this close to 2^64.
            raise ProtocolError(
                "queue_positions", "write_pos %d: an entry of %d bytes would end past 2^64 - 1" % (write, pad + n)
            )
        if pad + n > cap - (write - read):
            _fetch_add(self._mem, self._base + self._DROPPED, 8, 1)
            return True
        area = self._base + self._AREA
        if pad:
            word = bytearray(8)
            struct.pack_into(self._SIZE[1], word, self._SIZE[0], pad)
            struct.pack_into(self._KIND[1], word, self._KIND[0], self._PADDING)
            _region_put(self._mem, area + at, word)
        _region_put(self._mem, area + (write + pad) % cap, entry)
        v._store(self._WRITE_POS, 8, write + pad + n, _RELEASE)
        return False

    def pop(self):
        """The reader's side: the next entry (padding skipped), or None when there is none;
        its bytes go back to the writer (release). A size or position the writer wrote that
        cannot be right raises ProtocolError and consumes nothing. One reader only."""
        v, cap = self._view, self._capacity
        area = self._base + self._AREA
        for _ in range(cap // 8 + 1):
            read = v._load(self._READ_POS, 8, _RELAXED)
            write = v._load(self._WRITE_POS, 8, _ACQUIRE)
            self._positions(read, write)
            if write == read:
                return None
            at = read % cap
            size, padding = self._head_word(_region_bytes(self._mem, area + at, 8))
            least = 8 if padding else self._HEADER_SIZE
            if size % 8 or size < least or size > write - read or size > cap - at:
                raise ProtocolError("queue_entry_size", "the entry at %d has size %d" % (read, size))
            if padding:
                v._store(self._READ_POS, 8, read + size, _RELEASE)
                continue
            raw = _region_bytes(self._mem, area + at, size)
            try:
                return self._entry(raw, read)
            finally:
                v._store(self._READ_POS, 8, read + size, _RELEASE)
        return None


class _BroadcastRing(_Entries):
    """A single-writer, many-reader ring of entries, the oldest overwritten (abi-runtime
    broadcast_ring): a reader gets an entry, EMPTY, or Lapped(missed), never a torn
    entry (it copies, then loads tail_pos again, and throws away a copy the writer passed)."""

    __slots__ = ("_view", "_mem", "_base", "_capacity", "_cursor", "_next_seq", "_pending", "_laps", "_late_lap")
    _what = "ring"

    def __init__(self, view):
        _protocol_view(type(self), view)
        self._view, self._mem, self._base = view, view._mem, view._base
        self._capacity = _area_capacity(view, self._CAPACITY, self._AREA, "ring_capacity")
        self._pending, self._laps, self._late_lap = None, 0, False
        self.join_latest()

    @property
    def view(self):
        """The header's live view."""
        return self._view

    @property
    def capacity(self):
        """The area's bytes, as the header said when this was made."""
        return self._capacity

    @property
    def laps(self):
        """Times this reader was lapped."""
        return self._laps

    def _aligned(self, tail, write):
        if tail % 8 or write % 8:
            raise ProtocolError("ring_positions", "tail_pos %d and write_pos %d are not in order" % (tail, write))

    def join_latest(self):
        """The reader joins at the newest position: it reads what is written from now on."""
        v = self._view
        cursor = v._load(self._WRITE_POS, 8)
        self._next_seq = v._load(self._ENTRIES, 8)
        self._aligned(v._load(self._TAIL_POS, 8, _RELAXED), cursor)
        self._cursor, self._pending, self._late_lap = cursor, None, False

    def join_oldest(self):
        """The reader joins at the oldest whole entry still in the ring."""
        v = self._view
        entries = v._load(self._ENTRIES, 8)
        write = v._load(self._WRITE_POS, 8)
        cursor = v._load(self._TAIL_POS, 8)
        self._aligned(cursor, write)
        self._cursor, self._pending, self._late_lap = cursor, None, False
        self._next_seq = entries if cursor == write else None

    def _head(self, pos):
        return self._head_word(_region_bytes(self._mem, self._base + self._AREA + pos % self._capacity, 8))

    def _fits(self, pos, size, padding, limit):
        least = 8 if padding else max(self._HEADER_SIZE, self._SEQ + 8)
        return size % 8 == 0 and least <= size <= limit and size <= self._capacity - pos % self._capacity

    def _push(self, head, parts):
        entry = self._entry_bytes(head, parts)
        v, cap, n = self._view, self._capacity, len(entry)
        if n < self._SEQ + 8 or n > cap:
            raise ProtocolError("ring_bad_entry", "a %d-byte entry is not a whole entry" % n)
        write = v._load(self._WRITE_POS, 8, _RELAXED)
        tail = moved = v._load(self._TAIL_POS, 8, _RELAXED)
        if write % 8:
            raise ProtocolError("ring_positions", "tail_pos %d and write_pos %d are not in order" % (tail, write))
        if tail > write or write - tail > cap or tail % 8:
            # Not what this writer left: start the ring over from here (stored below).
            tail = write
        pad = cap - write % cap if n > cap - write % cap else 0
        end = write + pad + n
        if end > 0xFFFFFFFFFFFFFFFF:
            # The entry's end must be a u64 (a store would mask it).
            raise ProtocolError("ring_positions", "write_pos %d: an entry of %d bytes would end past 2^64 - 1" % (write, pad + n))
        while tail < write and end - tail > cap:
            size, padding = self._head(tail)
            if not self._fits(tail, size, padding, write - tail):
                tail = write
                break
            tail += size
        if end - tail > cap:
            tail = write + pad
        if tail != moved:
            v._store(self._TAIL_POS, 8, tail, _RELEASE)
        _fence(_RELEASE)
        area = self._base + self._AREA
        if pad:
            word = bytearray(8)
            struct.pack_into(self._SIZE[1], word, self._SIZE[0], pad)
            struct.pack_into(self._KIND[1], word, self._KIND[0], self._PADDING)
            _region_put(self._mem, area + write % cap, word)
        seq = v._load(self._ENTRIES, 8, _RELAXED)
        struct.pack_into("<Q", entry, self._SEQ, seq)
        _region_put(self._mem, area + (write + pad) % cap, entry)
        v._store(self._ENTRIES, 8, seq + 1, _RELAXED)
        v._store(self._WRITE_POS, 8, end, _RELEASE)
        return seq

    def read_next(self):
        """The next entry, EMPTY when there is nothing new, or Lapped(missed) when the
        writer overwrote entries this reader had not read (the next call returns the oldest
        entry still there). Never a torn entry. A lap is reported with the first entry read
        after it (missed = its seq - the seq expected), so the entries read and missed add
        up to the entries written. ProtocolError for what no honest writer writes."""
        if self._pending is not None:
            entry, self._pending = self._pending, None
            return entry
        v, cap = self._view, self._capacity
        lapped, unsettled = False, 0
        for _ in range(2 * cap // 8 + 3):
            # write_pos first: the tail loaded after it is no older, so an honest writer never
            # shows write - tail > capacity, and tail > write only when it wrote a whole
            # capacity between the two loads.
            write = v._load(self._WRITE_POS, 8)
            tail = v._load(self._TAIL_POS, 8)
            self._aligned(tail, write)
            if tail > write or write - tail > cap or self._cursor > write:
                # A writer that lapped the ring between the two loads looks like this for a
                # moment; only one that keeps showing it is broken.
                unsettled += 1
                if unsettled < 8:
                    continue
                raise ProtocolError("ring_positions", "tail_pos %d and write_pos %d are not in order" % (tail, write))
            unsettled = 0
            if self._cursor < tail:
                self._cursor, lapped = tail, True
                continue
            if self._cursor == write:
                # Lapped, and nothing written since: the next entry read tells how many
                # were missed (its seq), which the entries counter cannot (it is loaded
                # apart from write_pos, and a writer may have moved on between the loads).
                self._late_lap = self._late_lap or lapped
                return EMPTY
            size, padding = self._head(self._cursor)
            if not self._fits(self._cursor, size, padding, write - self._cursor):
                _fence(_ACQUIRE)
                if v._load(self._TAIL_POS, 8, _RELAXED) > self._cursor:
                    continue
                raise ProtocolError("ring_entry_size", "the entry at %d has size %d" % (self._cursor, size))
            raw = None
            if not padding:
                start = self._base + self._AREA + self._cursor % cap
                raw = _region_bytes(self._mem, start, size)
            # The copy is whole only if the writer did not move the tail past it meanwhile.
            _fence(_ACQUIRE)
            if v._load(self._TAIL_POS, 8, _RELAXED) > self._cursor:
                continue
            at = self._cursor
            self._cursor += size
            if padding:
                continue
            seq = struct.unpack_from("<Q", raw, self._SEQ)[0]
            expected = seq if self._next_seq is None else self._next_seq
            self._next_seq = (seq + 1) & 0xFFFFFFFFFFFFFFFF
            entry = self._entry(raw, at)
            if lapped or self._late_lap or seq > expected:
                self._pending, self._late_lap = entry, False
                self._laps += 1
                return Lapped(max(seq - expected, 0))
            return entry
        self._late_lap = self._late_lap or lapped
        return EMPTY


class LogQueueEntry:
    """An entry of `log_queue`: head (a LogEntry) and its parts, source, text (bytes)."""

    __slots__ = ("head", "source", "text",)

    def __init__(self, head, source, text):
        self.head = head
        self.source = source
        self.text = text

    def __repr__(self):
        return "LogQueueEntry(%r, %r, %r)" % (self.head, self.source, self.text,)


class LogQueue(_ByteQueue):
    """The queue `log_queue`: the client writes, the host reads.

    A client's log queue: the client writes, the host reads. Full means the entry is dropped and counted

    LogQueue(view, session): view is the LiveLogQueueHeader attach hands out for its region (the header,
    then the area of entries). The writer is bound to session's claim: push
    raises ProtocolError session_disconnected, session_reloaded or session_host_exiting, storing
    nothing, once the row is no longer the claim's; LogQueue.unscoped(view) writes without
    a claim (a host, a test, a tool); LogQueue(view) only reads. Each entry is a LogEntry, then source, text, padded to a
    multiple of 8.
    """

    __slots__ = ()
    _BOUND = True
    _VIEW = LiveLogQueueHeader
    _HEAD = LogEntry
    _ENTRY = LogQueueEntry
    _HEADER_SIZE = 40
    _SIZE = (0, "<H")
    _KIND = (2, "<B")
    _RECORD = 0
    _PADDING = 1
    _PARTS = (("source", 4, "<B", 32), ("text", 6, "<H", 968),)
    _CAPACITY = (16, 4)
    _AREA = 64
    _WRITE_POS = 0
    _READ_POS = 32
    _DROPPED = 8

    def push(self, head, source, text):
        """The writer's side: head (its size, kind and part lengths are set here) and its
        parts (bytes or str) as one entry, after a padding entry when it does not fit before
        the area's end. True when it did not fit: dropped, and counted in dropped(). One
        writer only."""
        _claimed(self, "push")
        return self._push(head, (source, text,))


class LogRingEntry:
    """An entry of `log_ring`: head (a LogEntry) and its parts, source, text (bytes)."""

    __slots__ = ("head", "source", "text",)

    def __init__(self, head, source, text):
        self.head = head
        self.source = source
        self.text = text

    def __repr__(self):
        return "LogRingEntry(%r, %r, %r)" % (self.head, self.source, self.text,)


class LogRing(_BroadcastRing):
    """The broadcast ring `log_ring`: the host writes, the client reads (any number).

    The host log ring: one writer (the host's log drain), any number of readers, oldest overwritten

    LogRing(view): view is the LiveLogRingHeader attach hands out for its region (the header,
    then the area of entries). Each entry is a LogEntry, then source, text, padded to a
    multiple of 8.
    """

    __slots__ = ()
    _BOUND = False
    _VIEW = LiveLogRingHeader
    _HEAD = LogEntry
    _ENTRY = LogRingEntry
    _HEADER_SIZE = 40
    _SIZE = (0, "<H")
    _KIND = (2, "<B")
    _RECORD = 0
    _PADDING = 1
    _PARTS = (("source", 4, "<B", 32), ("text", 6, "<H", 968),)
    _CAPACITY = (16, 4)
    _AREA = 64
    _WRITE_POS = 0
    _TAIL_POS = 8
    _ENTRIES = 24
    _SEQ = 16

    def push(self, head, source, text):
        """The writer's side: head (its size, kind, part lengths and seq are set here) and its
        parts (bytes or str) as one entry, after a padding entry when it does not fit before
        the area's end, moving tail_pos past the oldest entries it overwrites first. Returns
        the entry's seq. One writer only."""
        return self._push(head, (source, text,))


class _Mailbox:
    """One request at a time between a client and a server (abi-runtime mailbox): the
    request, then request_seq bumped (release); the answer, then response_seq = the request
    answered (release). Every length the other side wrote is checked against the capacities."""

    __slots__ = ("_view", "_mem", "_base", "_request_capacity", "_response_capacity", "_seq", "_pending", "waits", "_session")

    def __init__(self, view, session=None):
        _protocol_view(type(self), view)
        self._session = session
        self._view, self._mem, self._base = view, view._mem, view._base
        request = view._geometry(*self._REQUEST_CAPACITY)
        response = view._geometry(*self._RESPONSE_CAPACITY)
        room = max(view._length - self._AREA, 0)
        if request == 0 or response == 0 or request + response > room:
            raise ProtocolError(
                "mailbox_capacity",
                "capacities %d and %d, expected both above 0 within %d bytes" % (request, response, room),
            )
        self._request_capacity, self._response_capacity = request, response
        self._seq = view._load(self._REQUEST_SEQ, 4, _RELAXED)
        # The request this client made and has not had the answer to: the default of
        # poll_response, which forgets it once answered (Rust's MailboxClient does the same).
        self._pending = None
        self.waits = 0

    @property
    def view(self):
        """The header's live view."""
        return self._view

    @classmethod
    def unscoped(cls, view):
        """A client bound to no claim: it keeps requesting after the row was freed, into the
        next client's mailbox. For a host, a test or a tool that writes without a claim."""
        return cls(view, _UNSCOPED)

    @property
    def request_capacity(self):
        """The request area's bytes: a request holds at most one less."""
        return self._request_capacity

    @property
    def response_capacity(self):
        """The response area's bytes."""
        return self._response_capacity

    def request(self, text):
        """The client's side: writes text (bytes or str), its terminating NUL (request_capacity
        counts it) and its length, then bumps request_seq (release); returns the request's number, which its answer carries.
        ProtocolError mailbox_busy while the previous request has no answer, mailbox_too_long
        past request_capacity - 1 bytes."""
        _claimed(self, "request")
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        v = self._view
        seq = v._load(self._REQUEST_SEQ, 4, _RELAXED)
        if v._load(self._RESPONSE_SEQ, 4) != seq:
            raise ProtocolError("mailbox_busy", "a request is waiting for its answer")
        limit = self._request_capacity - 1
        if len(data) > limit:
            raise ProtocolError("mailbox_too_long", "a %d-byte request, expected at most %d" % (len(data), limit))
        _region_put(self._mem, self._base + self._AREA, data + b"\0")
        v._store(self._REQUEST_LEN, 4, len(data), _RELAXED)
        self._seq = (seq + 1) & 0xFFFFFFFF
        v._store(self._REQUEST_SEQ, 4, self._seq, _RELEASE)
        self._pending = self._seq
        return self._seq

    def poll_response(self, seq=None):
        """The client's side: the answer to request seq, or None while it has none. By default
        seq is the last request this client made, answered once: None when it made none, or
        after that answer was returned. ProtocolError mailbox_length when response_len is past
        the response area."""
        pending = seq is None
        seq = self._pending if pending else seq
        if seq is None:
            return None
        v = self._view
        if v._load(self._RESPONSE_SEQ, 4) != seq:
            return None
        n = v._load(self._RESPONSE_LEN, 4)
        if n > self._response_capacity:
            raise ProtocolError("mailbox_length", "response_len is %d, expected at most %d" % (n, self._response_capacity))
        text = _region_bytes(self._mem, self._base + self._AREA + self._request_capacity, n)
        total = max(v._load(self._RESPONSE_TOTAL, 4), n)
        if pending:
            self._pending = None
        return self._RESPONSE(self._STATUS_CLASS(v._load(self._STATUS, 4)), text, total > n, total, seq)

    def wait_response(self, timeout, seq=None):
        """poll_response until it has the answer or timeout seconds passed (None then); the
        polls that found none are counted in waits."""
        deadline = time.monotonic() + timeout
        tries = 0
        while True:
            found = self.poll_response(seq)
            if found is not None:
                return found
            self.waits += 1
            if time.monotonic() >= deadline:
                return None
            tries += 1
            time.sleep(0 if tries < _spins else 0.0001)

    def serve(self, answer, malformed=False):
        """The server's side: when a request waits, answers it with answer(text) -> (status,
        the whole answer's bytes or str), cut to the response area, and stores response_seq
        = its number (release). Returns the number answered, or None. ProtocolError
        mailbox_sequence or mailbox_length for counters or a length no client writes; with
        malformed=True a length past the area is answered too, answer(None) giving its
        status (as C's serve_begin gives such a request's seq)."""
        v = self._view
        request = v._load(self._REQUEST_SEQ, 4)
        response = v._load(self._RESPONSE_SEQ, 4, _RELAXED)
        if request == response:
            return None
        if request != (response + 1) & 0xFFFFFFFF:
            raise ProtocolError(
                "mailbox_sequence", "response_seq %d answers no request (request_seq %d)" % (response, request)
            )
        n = v._load(self._REQUEST_LEN, 4, _RELAXED)
        if n >= self._request_capacity and not malformed:
            raise ProtocolError("mailbox_length", "request_len is %d, expected at most %d" % (n, self._request_capacity - 1))
        status, whole = answer(_region_bytes(self._mem, self._base + self._AREA, n) if n < self._request_capacity else None)
        whole = whole.encode("utf-8") if isinstance(whole, str) else bytes(whole)
        kept = whole[: self._response_capacity]
        _region_put(self._mem, self._base + self._AREA + self._request_capacity, kept)
        v._store(self._STATUS, 4, int(status), _RELAXED)
        v._store(self._RESPONSE_LEN, 4, len(kept), _RELAXED)
        v._store(self._RESPONSE_TOTAL, 4, min(len(whole), 0xFFFFFFFF), _RELAXED)
        v._store(self._RESPONSE_SEQ, 4, request, _RELEASE)
        return request

    def restore(self):
        """The server's side of a free of the row that owns the mailbox: a request that waits is
        answered with status 0 and no text (the status and lengths, then response_seq = the
        request, release), so that the next client's first request is not refused as busy and
        a client still polling learns its request was never served."""
        v = self._view
        request = v._load(self._REQUEST_SEQ, 4)
        if v._load(self._RESPONSE_SEQ, 4) == request:
            return
        for at in (self._STATUS, self._RESPONSE_LEN, self._RESPONSE_TOTAL):
            v._store(at, 4, 0, _RELAXED)
        v._store(self._RESPONSE_SEQ, 4, request, _RELEASE)


class MailboxResponse:
    """An answer of `mailbox`: status (a CommandStatus), text (bytes, as much as the
    response area held), cut (the whole answer was longer: total bytes), and seq, the
    request it answers."""

    __slots__ = ("status", "text", "cut", "total", "seq")

    def __init__(self, status, text, cut, total, seq):
        self.status, self.text, self.cut, self.total, self.seq = status, text, cut, total, seq

    def __repr__(self):
        return "MailboxResponse(status=%r, text=%r, cut=%r, total=%d, seq=%d)" % (
            self.status, self.text, self.cut, self.total, self.seq)


class Mailbox(_Mailbox):
    """The mailbox `mailbox`: the client asks, the host answers, one request at a time.

    A client's command mailbox: one request at a time. The request text follows the header, then the response text

    Mailbox(view, session): view is the LiveMailboxHeader attach hands out for its region (the header, the
    request area, then the response area; their capacities are in the header). The
    client is bound to session's claim: request raises ProtocolError session_disconnected,
    session_reloaded or session_host_exiting, storing nothing, once the row is no longer the
    claim's; Mailbox.unscoped(view) requests without a claim (a host, a test, a tool);
    Mailbox(view) serves and polls only.    """

    __slots__ = ()
    _BOUND = True
    _VIEW = LiveMailboxHeader
    _RESPONSE = MailboxResponse
    _STATUS_CLASS = CommandStatus
    _AREA = 64
    _REQUEST_SEQ = 0
    _REQUEST_LEN = 4
    _RESPONSE_SEQ = 8
    _STATUS = 12
    _RESPONSE_LEN = 16
    _RESPONSE_TOTAL = 20
    _REQUEST_CAPACITY = (24, 4)
    _RESPONSE_CAPACITY = (28, 4)


_FRESH = 0b100
# Compare-exchanges of the state word one call makes at most: an honest peer changes it at
# most once per publication, so one that keeps changing it is given up on.
_EXCHANGE_TRIES = 10000


def _exchange_state(state, own):
    """(shared index, fresh) of a triple buffer's state word; ProtocolError exchange_state for
    a word no honest side leaves (or one naming the caller's own buffer as shared)."""
    index = state & 0b11
    if index > 2 or state & ~(0b11 | _FRESH) or index == own:
        raise _exchange_refused(state)
    return index, bool(state & _FRESH)


def _exchange_refused(state):
    return ProtocolError(
        "exchange_state",
        "triple buffer: state %#x, expected a buffer index 0 to 2 (not the caller's own) and the "
        "fresh bit" % state,
    )


def _exchange_contended():
    return ProtocolError(
        "exchange_contended",
        "triple buffer: the state word changed under each of %d compare-exchanges" % _EXCHANGE_TRIES,
    )


class _Exchange:
    """A triple buffer of whole lists (abi-runtime triple_buffer): the writer builds its list
    (add, bounded by the header's capacities) and publishes it by swapping it with the shared
    one (fresh); the reader takes the shared one when it is fresh. The state word changes
    only by compare-and-swap, so neither side ever sees a list the other is using."""

    __slots__ = (
        "_view", "_mem", "_base", "_buffer_size", "_max_items", "_max_payload",
        "_writer", "_reader", "_head", "_count", "_payload_len", "_dropped", "_overflow",
        "_stale", "_absorbed", "_last", "_session",
    )

    def __init__(self, view, session=None):
        _protocol_view(type(self), view)
        self._session = session
        self._view, self._mem, self._base = view, view._mem, view._base
        buffers = view._geometry(*self._BUFFERS)
        size = view._geometry(*self._BUFFER_SIZE)
        items = view._geometry(*self._MAX_ITEMS)
        payload = view._geometry(*self._MAX_PAYLOAD)
        room = max(view._length - self._AREA, 0)
        need = self._LIST_SIZE + items * self._ITEM_SIZE + payload
        if buffers != 3 or size < need or size % self._LIST_ALIGN or self._AREA % self._LIST_ALIGN or 3 * size > room:
            raise ProtocolError(
                "exchange_geometry",
                "triple buffer: %d lists of %d bytes, expected 3 that hold their header, items and "
                "payload within %d bytes" % (buffers, size, room),
            )
        self._buffer_size, self._max_items, self._max_payload = size, items, payload
        self.reset()

    @property
    def view(self):
        """The header's live view."""
        return self._view

    @classmethod
    def unscoped(cls, view):
        """A writer bound to no claim: it keeps publishing after the row was freed, into the
        next client's exchange. For a host, a test or a tool that writes without a claim."""
        return cls(view, _UNSCOPED)

    @property
    def max_items(self):
        """Items a list holds."""
        return self._max_items

    @property
    def max_payload(self):
        """Payload bytes a list holds."""
        return self._max_payload

    @property
    def count(self):
        """Items in the list being built."""
        return self._count

    @property
    def payload_len(self):
        """Payload bytes in the list being built: where the next add's payload starts."""
        return self._payload_len

    @property
    def absorbed(self):
        """Stale publications the reader absorbed since its reset (take): lists of the row's
        last session that a free overtook, never shown."""
        return self._absorbed

    @property
    def dropped(self):
        """Items the list being built dropped (it was full)."""
        return self._dropped

    def reset(self):
        """Both sides back to the lists they start with (a new claim of the row, or a host's
        reload, after which the state word holds the initial state again): the reader may
        absorb STALE_GRACE stale publications again (take)."""
        self._writer, self._reader = self._WRITER_START, self._READER_START
        self._stale, self._absorbed, self._last = None, 0, None
        self.begin()

    def reset_state(self):
        """The host's side of a new claim or a reload: stores the initial state (release)."""
        self._view._store(self._STATE, 4, self._INITIAL_STATE, _RELEASE)
        self.reset()

    def _list(self, index):
        return self._base + self._AREA + index * self._buffer_size

    def begin(self, head=None):
        """Starts a new list in the writer's buffer: head (the list struct; its count, payload
        length, flags and dropped are the builder's), or zeros."""
        if head is not None and not isinstance(head, self._LIST):
            raise TypeError("a list's head is a %s, not %s" % (self._LIST.__name__, type(head).__name__))
        self._head = self._LIST() if head is None else self._LIST.from_buffer_copy(bytes(head))
        self._count = self._payload_len = self._dropped = 0
        self._overflow = False

    def add(self, item, payload=b""):
        """Adds item (the item struct) and its payload bytes to the list being built: True, or
        False when either does not fit (then nothing is added, the list's overflow flag is set
        and dropped counts it)."""
        if not isinstance(item, self._ITEM):
            raise TypeError("an item is a %s, not %s" % (self._ITEM.__name__, type(item).__name__))
        _claimed(self, "add")
        payload = bytes(payload)
        if self._count >= self._max_items or self._payload_len + len(payload) > self._max_payload:
            self._dropped += 1
            self._overflow = True
            return False
        start = self._list(self._writer) + self._LIST_SIZE
        _region_put(self._mem, start + self._count * self._ITEM_SIZE, bytes(item))
        _region_put(self._mem, start + self._max_items * self._ITEM_SIZE + self._payload_len, payload)
        self._count += 1
        self._payload_len += len(payload)
        return True

    def publish(self):
        """Hands the list built over (shared, fresh), takes the shared buffer in exchange,
        counts it in published and begins a new list. True when the reader had not taken the
        previous list (it is overwritten, never shown). ProtocolError exchange_state for a state
        the reader cannot have left, exchange_contended when it changed under every try:
        nothing changes then. A state naming the writer's list, not fresh, after a publication
        of its own is the reader giving back the list it fills (a publication a free overtook
        made both hold it): the reader holds the list published last, so the list is published
        in place and the writer takes the third. While a stale publication names the list it
        fills (fresh), exchange_state: publish again after the host's take."""
        _claimed(self, "publish")
        raw = bytearray(bytes(self._head))
        flags = struct.unpack_from(self._FLAGS[1], raw, self._FLAGS[0])[0]
        struct.pack_into(self._COUNT[1], raw, self._COUNT[0], self._count)
        struct.pack_into(self._PAYLOAD_LEN[1], raw, self._PAYLOAD_LEN[0], self._payload_len)
        struct.pack_into(self._DROPPED[1], raw, self._DROPPED[0], min(self._dropped, (1 << (8 * struct.calcsize(self._DROPPED[1]))) - 1))
        struct.pack_into(self._FLAGS[1], raw, self._FLAGS[0], flags | self._OVERFLOW if self._overflow else flags & ~self._OVERFLOW)
        _region_put(self._mem, self._list(self._writer), raw)
        current = self._view._load(self._STATE, 4)
        for _ in range(_EXCHANGE_TRIES):
            index, fresh = _exchange_state(current, -1)
            if index != self._writer:
                after = index
            elif not fresh and self._last is not None and self._last != self._writer:
                # The reader gave back the list this writer fills (a stale publication made
                # both hold it) and holds the one published last: publish in place, take the
                # third.
                after = 3 - self._writer - self._last
            else:
                raise _exchange_refused(current)
            ok, current = _compare_exchange(self._mem, self._base + self._STATE, 4, current, self._writer | _FRESH)
            if ok:
                break
        else:
            raise _exchange_contended()
        self._last, self._writer = self._writer, after
        published = self._view._load(self._PUBLISHED, 4, _RELAXED)
        self._view._store(self._PUBLISHED, 4, published + 1, _RELEASE)
        self.begin()
        return fresh

    def take(self):
        """The reader's side: the newest list when one was published since the last take (its
        head, items and payload, copied), else None. ProtocolError exchange_state for a state the
        writer cannot have left, exchange_contended when it changed under every try,
        exchange_list_length for a count or payload length past the header's capacities.

        A fresh state naming the reader's own list is a publication a free overtook (a writer
        of the row's last session): the first STALE_GRACE of them are absorbed (None, nothing
        shown, counted in absorbed) and the reader waits; the writer's next publication is
        taken giving back the list nobody owns. Past the grace, or its own list shared and not
        fresh while it waits, is exchange_state: a broken writer (the host frees the row, then
        resets). Another list shared and not fresh meanwhile is the stale publication taken
        back."""
        current = self._view._load(self._STATE, 4)
        for _ in range(_EXCHANGE_TRIES):
            index, fresh = _exchange_state(current, -1)
            if self._stale is not None:
                # Waiting after a stale publication: the writer owns the list it named.
                if not fresh:
                    # Taken back by the stale writer (the lists one each again), or broken.
                    if index == self._stale:
                        raise _exchange_refused(current)
                    self._stale = None
                    return None
                if index == self._stale:
                    return None
                give = 3 - self._stale - index
            elif not fresh:
                return None
            elif index == self._reader:
                if self._absorbed < self.STALE_GRACE:
                    self._absorbed += 1
                    self._stale = index
                    return None
                raise _exchange_refused(current)
            else:
                give = self._reader
            ok, current = _compare_exchange(self._mem, self._base + self._STATE, 4, current, give)
            if ok:
                break
        else:
            raise _exchange_contended()
        self._stale = None
        self._reader = index
        start = self._list(index)
        head = self._LIST.from_buffer_copy(_region_bytes(self._mem, start, self._LIST_SIZE))
        count = getattr(head, self._COUNT_NAME)
        payload_len = getattr(head, self._PAYLOAD_LEN_NAME)
        for field, found, limit in ((self._COUNT_NAME, count, self._max_items), (self._PAYLOAD_LEN_NAME, payload_len, self._max_payload)):
            if found > limit:
                raise ProtocolError(
                    "exchange_list_length", "triple buffer: list %s is %d, expected at most %d" % (field, found, limit)
                )
        items_at = start + self._LIST_SIZE
        raw = _region_bytes(self._mem, items_at, count * self._ITEM_SIZE)
        items = [self._ITEM.from_buffer_copy(raw, k * self._ITEM_SIZE) for k in range(count)]
        payload = _region_bytes(self._mem, items_at + self._max_items * self._ITEM_SIZE, payload_len)
        return self._TAKEN(head, items, payload)


class DrawList:
    """A list of `draw` as the reader took it: head (a DrawListHeader), items (each a
    DrawCmd) and payload (bytes), copied."""

    __slots__ = ("head", "items", "payload")

    def __init__(self, head, items, payload):
        self.head, self.items, self.payload = head, items, payload

    def __repr__(self):
        return "DrawList(%r, <%d items>, <%d payload bytes>)" % (self.head, len(self.items), len(self.payload))


class Draw(_Exchange):
    """The exchange `draw`, a triple buffer of lists: the client builds and publishes, the host takes.

    A client's draw lists, a triple buffer: the client's list, the shared one and the host's. Before the first publication (a new claim of the row, or a host's reload) state is 1: the client starts with list 0 and the host with list 2

    Draw(view): view is the LiveDrawHeader attach hands out for its region (the header, then
    the lists, buffer_size apart: each a DrawListHeader, max_items DrawCmd and max_payload
    bytes). The state starts at INITIAL_STATE: the writer owns list 0, the reader list 2.    Draw(view, session): the writer is bound to session's claim: add and publish raise
    ProtocolError session_disconnected, session_reloaded or session_host_exiting, storing
    nothing, once the row is no longer the claim's; Draw.unscoped(view) writes without a
    claim (a host, a test, a tool); Draw(view) takes only.    """

    __slots__ = ()
    _BOUND = True
    INITIAL_STATE = 1
    _INITIAL_STATE = 1
    #: Stale publications (of the reader's own list) one reader absorbs before it refuses the
    #: state (take); reset() renews it.
    STALE_GRACE = 1
    _WRITER_START = 0
    _READER_START = 2
    _VIEW = LiveDrawHeader
    _LIST = DrawListHeader
    _ITEM = DrawCmd
    _TAKEN = DrawList
    _AREA = 64
    _LIST_SIZE = 64
    _LIST_ALIGN = 8
    _ITEM_SIZE = 36
    _STATE = 0
    _PUBLISHED = 20
    _BUFFERS = (4, 4)
    _BUFFER_SIZE = (8, 4)
    _MAX_ITEMS = (12, 4)
    _MAX_PAYLOAD = (16, 4)
    _COUNT = (4, "<I")
    _COUNT_NAME = "count"
    _PAYLOAD_LEN = (8, "<I")
    _PAYLOAD_LEN_NAME = "payload_len"
    _DROPPED = (20, "<I")
    _FLAGS = (16, "<I")
    _OVERFLOW = 1


_CLAIM_TRIES = 16


class _Scoped:
    """A writer bound to a claim (_Session.scoped): its methods check the claim's standing first."""

    __slots__ = ("_session", "_writer")

    def __init__(self, session, writer):
        self._session, self._writer = session, writer

    def __getattr__(self, name):
        attr = getattr(self._writer, name)
        if not callable(attr):
            return attr

        def checked(*args, **kwargs):
            standing = self._session.standing()
            if standing != Standing.CONNECTED:
                raise _refused(standing, name)
            return attr(*args, **kwargs)

        return checked


# Events: a futex shared between processes on Linux, through ctypes' syscall (never
# FUTEX_PRIVATE_FLAG, which never wakes another process); elsewhere a poll. Waits are at most
# 100 ms each, so that Ctrl-C is seen; a wake only means "look again".
_SYS_FUTEX = {"x86_64": 202, "amd64": 202, "aarch64": 98, "arm64": 98, "i386": 240, "i686": 240}.get(
    platform.machine().lower()) if sys.platform.startswith("linux") else None
_FUTEX_WAIT, _FUTEX_WAKE, _ETIMEDOUT = 0, 1, 110
_futex_call = []


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def _futex_syscall():
    """libc's syscall, declared with no argument types: every caller passes ctypes objects it
    built once (c_long numbers, c_void_p addresses: a pointer's and a register's width), so a
    call converts nothing."""
    if not _futex_call:
        call = ctypes.CDLL(None, use_errno=True)["syscall"]
        call.restype = ctypes.c_long
        _futex_call.append(call)
    return _futex_call[0]


def _word_address(mem, at):
    """The address of the 4-byte word at `at` of a writable buffer (a _Mem: its address, which
    the atomics use too), or None."""
    address = getattr(mem, "address", None)
    if address is not None:
        return address + at if 0 <= at and at + 4 <= mem.size else None
    try:
        return ctypes.addressof(ctypes.c_uint32.from_buffer(mem, at))
    except (TypeError, ValueError, BufferError):
        return None


def _futex_waiter(mem, at):
    """A futex wait on the word at `at`, its arguments built once: wait(expected, timeout)
    sleeps while the word holds `expected`, at most `timeout` seconds (and 100 ms), and is True
    when woken or the word had moved (look again), False when the timeout passed. Without a
    futex or the word's address, a sleep of at most 1 ms (True)."""
    address = _word_address(mem, at) if _SYS_FUTEX is not None else None
    if address is None:
        return lambda expected, timeout: time.sleep(max(0.0, min(timeout, 0.001))) or True
    call, errno = _futex_syscall(), ctypes.get_errno
    ts = _Timespec()
    number, word, op, seen = ctypes.c_long(_SYS_FUTEX), ctypes.c_void_p(address), ctypes.c_long(_FUTEX_WAIT), ctypes.c_long()
    times, none = ctypes.c_void_p(ctypes.addressof(ts)), ctypes.c_long(0)

    def wait(expected, timeout):
        timeout = 0.0 if timeout < 0.0 else 0.1 if timeout > 0.1 else timeout
        ts.tv_sec = seconds = int(timeout)
        ts.tv_nsec = int((timeout - seconds) * 1e9)
        seen.value = expected & 0xFFFFFFFF
        return call(number, word, op, seen, times, none, none) != -1 or errno() != _ETIMEDOUT

    return wait


def _futex_wait(mem, at, expected, timeout):
    """Sleeps while the word at `at` holds `expected`, at most `timeout` seconds (and 100 ms):
    True when woken (look again), False when the timeout passed."""
    return _futex_waiter(mem, at)(expected, timeout)


_SYS_FUTEX_WAITV, _FUTEX_32, _ENOSYS = 449, 2, 38


class _KernelTimespec(ctypes.Structure):
    """The kernel's __kernel_timespec, which futex_waitv takes: 64-bit fields everywhere."""
    _fields_ = [("tv_sec", ctypes.c_int64), ("tv_nsec", ctypes.c_int64)]


class _FutexWaitv(ctypes.Structure):
    _fields_ = [("val", ctypes.c_uint64), ("uaddr", ctypes.c_uint64), ("flags", ctypes.c_uint32),
                ("reserved", ctypes.c_uint32)]


def _futex_waitv(words, timeout):
    """futex_waitv (Linux 5.16; shared: FUTEX_32 without FUTEX_PRIVATE_FLAG) on every word of
    `words`, (mem, at, expected) each, at once while each holds its expected, at most `timeout`
    seconds (and 100 ms): True when woken or a word had moved (look again), False when the
    timeout passed, None when there is no futex_waitv here (an older kernel, another platform,
    a word without an address, more than 64 words)."""
    if _SYS_FUTEX is None or not words or len(words) > 64:
        return None
    waiters = (_FutexWaitv * len(words))()
    for w, (mem, at, expected) in zip(waiters, words):
        address = _word_address(mem, at)
        if address is None:
            return None
        w.val, w.uaddr, w.flags = expected & 0xFFFFFFFF, address, _FUTEX_32
    timeout = 0.0 if timeout < 0.0 else 0.1 if timeout > 0.1 else timeout
    # An absolute CLOCK_MONOTONIC deadline, as the system call takes it.
    deadline = time.clock_gettime_ns(time.CLOCK_MONOTONIC) + int(timeout * 1e9)
    ts = _KernelTimespec(deadline // 1_000_000_000, deadline % 1_000_000_000)
    if _futex_syscall()(ctypes.c_long(_SYS_FUTEX_WAITV), ctypes.c_void_p(ctypes.addressof(waiters)),
                        ctypes.c_long(len(words)), ctypes.c_long(0), ctypes.c_void_p(ctypes.addressof(ts)),
                        ctypes.c_long(1)) != -1:
        return True
    e = ctypes.get_errno()
    return None if e == _ENOSYS else e != _ETIMEDOUT


def _futex_wake(mem, at):
    address = _word_address(mem, at) if _SYS_FUTEX is not None else None
    if address is not None:
        _futex_syscall()(ctypes.c_long(_SYS_FUTEX), ctypes.c_void_p(address), ctypes.c_long(_FUTEX_WAKE),
                         ctypes.c_long(0x7FFFFFFF), None, None, ctypes.c_long(0))


class WakeStats:
    """A waiter's wake statistics: publish-to-wake over its last waits on the host's clock
    (time.perf_counter_ns(): CLOCK_MONOTONIC on Linux, QueryPerformanceCounter on Windows; a
    publication's time is the one its host stamped), and two counts (ticks: publications
    waited for and got; skipped: publications missed, the latest winning). A fixed ring of
    the last SAMPLES samples."""

    SAMPLES = 128
    __slots__ = ("_samples", "_recorded", "ticks", "skipped")

    def __init__(self):
        self._samples = [0] * self.SAMPLES
        self._recorded = 0
        self.ticks = 0
        self.skipped = 0

    def record(self, last, seq, publish_ns, wake_ns=None):
        """A tick got: the sequence went from `last` to `seq`, published at publish_ns and seen
        at wake_ns (now by default). Counts the tick and the publications between (none when
        the sequence went back, as after a reload) and records wake_ns - publish_ns (0 when the
        wake reads earlier). A seq equal to last is no tick and changes nothing."""
        if seq == last:
            return
        wake_ns = time.perf_counter_ns() if wake_ns is None else wake_ns
        self.ticks += 1
        if seq > last:
            self.skipped += seq - last - 1
        self._samples[self._recorded % self.SAMPLES] = max(0, wake_ns - publish_ns)
        self._recorded += 1

    def percentiles_us(self):
        """(p50, p99) of publish-to-wake over the last ticks, in microseconds: the sample of
        rank (n - 1) * q // 100 in ascending order; (0.0, 0.0) before the first tick."""
        n = min(self._recorded, self.SAMPLES)
        if n == 0:
            return (0.0, 0.0)
        s = sorted(self._samples[:n])
        return (s[(n - 1) * 50 // 100] / 1000.0, s[(n - 1) * 99 // 100] / 1000.0)


class _Session:
    """A claimed row of a table (abi-runtime claim): claimed by compare-and-swap from free
    with a generation bump, filled in, then active; still the client's while it holds the
    claim's generation; the host frees it. The class's static methods are the host's side."""

    __slots__ = ("_header", "_mem", "_index", "_row", "_generation", "_host_generation", "_waiters")

    def __init__(self, header, index):
        raise TypeError("a session is made by %s.claim(header, index)" % type(self).__name__)

    @classmethod
    def _row_base(cls, header, index):
        _protocol_view(cls, header)
        if not 0 <= index < cls.ROWS:
            raise IndexError("%s has %d rows; index %d" % (cls.__name__, cls.ROWS, index))
        return header._base + cls._TABLE + index * cls._ROW_SIZE

    @classmethod
    def claim(cls, header, index, attached):
        """Claims row index if it is free, for a client that attached at host generation
        attached (its handle's generation): one compare-and-swap of the row's state and
        generation, from free to claimed with the generation bumped (the claim keeps the value
        it got). Then the host's state and generation are loaded (acquire, after the claim);
        when the host is exiting or its generation is no longer attached, the row is given
        back and ProtocolError session_host_exiting or session_reloaded is raised (attach again);
        when the host freed the claimed row before it could be given back, the claim happened
        and is returned, its standing() saying what took it.
        The session, or None when another client holds the row or won the race. Fill the row
        in (session.row), then activate()."""
        base = cls._row_base(header, index)
        mem = header._mem
        generation = cls._take_row(mem, base)
        if generation is None:
            return None
        session = object.__new__(cls)
        session._header, session._mem, session._index = header, mem, index
        session._row = cls._ROW_VIEW(mem, base)
        session._generation = generation
        session._host_generation = attached
        session._waiters = {}
        host = header._base
        now = _load(mem, host + cls._HOST_GENERATION, 4)
        if _load(mem, host + cls._HOST_STATE[0], cls._HOST_STATE[1]) == cls._EXITING:
            refused = ("session_host_exiting", "the host is exiting: the claim of row %d was given back" % index)
        elif now != attached:
            refused = ("session_reloaded", "the host's generation is %d, not %d as attached: attach again" % (now, attached))
        else:
            return session
        # Given back unused; when the host freed the claimed row first (its reload or exit
        # did), the claim happened, and its standing says what took it.
        if session._try_move(cls._CLAIMED, cls._FREE, now):
            raise ProtocolError(*refused)
        return session

    @classmethod
    def _take_row(cls, mem, base):
        """The claim's compare-and-swap: from (free, g) to (claimed, g + 1), one swap of the
        word they share (retried at most _CLAIM_TRIES times while the row stays free), else
        the state's then the generation's. The generation it got, or None."""
        if cls._WORD is not None:
            word_at = base + cls._WORD[1]
            found = _load(mem, word_at, 8)
            for _ in range(_CLAIM_TRIES):
                state, generation = cls._split(found)
                if state != cls._FREE:
                    return None
                generation = (generation + 1) & 0xFFFFFFFF
                ok, found = _compare_exchange(mem, word_at, 8, found, cls._join(cls._CLAIMED, generation))
                if ok:
                    return generation
            return None
        ok, _found = _compare_exchange(mem, base + cls._STATE, 4, cls._FREE, cls._CLAIMED)
        if not ok:
            return None
        return (_fetch_add(mem, base + cls._GENERATION, 4, 1) + 1) & 0xFFFFFFFF

    @classmethod
    def _row_word(cls, mem, base):
        """(state, generation) of the row at base (acquire): one load of their shared word."""
        if cls._WORD is not None:
            return cls._split(_load(mem, base + cls._WORD[1], 8))
        return _load(mem, base + cls._STATE, 4), _load(mem, base + cls._GENERATION, 4)

    @classmethod
    def _join(cls, state, generation):
        """The word the state and the generation share (_WORD: the state's half, its offset)."""
        return state | generation << 32 if cls._WORD[0] else generation | state << 32

    @classmethod
    def _split(cls, word):
        """(state, generation) of their shared word."""
        low, high = word & 0xFFFFFFFF, word >> 32
        return (low, high) if cls._WORD[0] else (high, low)

    @classmethod
    def _retire(cls, mem, base):
        """The host's first step of a free: the state becomes closing (compare-and-swap of the
        shared word, or a swap of the state); the state it had."""
        if cls._WORD is None:
            return _exchange(mem, base + cls._STATE, 4, cls._CLOSING)
        word_at = base + cls._WORD[1]
        found = _load(mem, word_at, 8)
        for _ in range(_cas_tries):
            state, generation = cls._split(found)
            if _cas_hook is not None:
                _cas_hook(mem, word_at)
            ok, found = _compare_exchange(mem, word_at, 8, found, cls._join(cls._CLOSING, generation))
            if ok:
                return state
        _cas_gave_up("%s: retiring a row" % cls.__name__)

    @classmethod
    def _release_row(cls, mem, base):
        """The host's last step of a free: a retired row becomes free (release). Only the host
        moves a closing row."""
        if cls._WORD is None:
            _store(mem, base + cls._STATE, 4, cls._FREE)
            return
        word_at = base + cls._WORD[1]
        _store(mem, word_at, 8, cls._join(cls._FREE, cls._split(_load(mem, word_at, 8))[1]))

    @property
    def row(self):
        """The row's live view, to fill in before activate()."""
        return self._row

    @property
    def index(self):
        """The row's index."""
        return self._index

    @property
    def generation(self):
        """The generation this claim gave the row."""
        return self._generation

    @property
    def host_generation(self):
        """The host's generation when the row was claimed."""
        return self._host_generation

    def _try_move(self, start, end, host_generation=None):
        """From state start to end, only while host_generation stays the host's (the claim's
        when None), checked first, and the row holds the claim's generation; whether it moved.
        The re-layout's row generations close the window between the check and the swap."""
        if host_generation is None:
            host_generation = self._host_generation
        if _load(self._mem, self._header._base + self._HOST_GENERATION, 4) != host_generation:
            return False
        base = self._row._base
        if self._WORD is not None:
            join = self._join
            return _compare_exchange(self._mem, base + self._WORD[1], 8, join(start, self._generation), join(end, self._generation))[0]
        return (
            _load(self._mem, base + self._GENERATION, 4) == self._generation
            and _compare_exchange(self._mem, base + self._STATE, 4, start, end)[0]
            and _load(self._mem, base + self._GENERATION, 4) == self._generation
        )

    def activate(self):
        """Marks the row filled in and in use (release). False when the row is no longer this
        client's (then nothing is stored)."""
        return self._try_move(self._CLAIMED, self._ACTIVE)

    def heartbeat(self, now_ns=None):
        """Stores the heartbeat (release): now_ns, or time.monotonic_ns(), only while the row
        is still this claim's (standing() CONNECTED; otherwise nothing is stored, so a client
        that lost its row never writes the next client's); returns the standing, as Rust's and
        C's heartbeat do. At least every HEARTBEAT_MS milliseconds; the host counts one older
        than HUNG_MS as hung."""
        standing = self.standing()
        if standing == Standing.CONNECTED:
            _store(self._mem, self._row._base + self._HEARTBEAT, 8, time.monotonic_ns() if now_ns is None else now_ns)
        return standing

    def set_waiting(self, waiting):
        """Stores whether the client sleeps on its tick event (release), then a full fence.
        After set_waiting(True), load what the host publishes and sleep only when it is not
        new: the fence keeps that load after the store, and the host's host_waiting() keeps
        its load after its publication, so one side always sees the other (Dekker's
        store-then-load pattern, which release and acquire alone do not order). Bound the
        sleep all the same: without libatomic's fence or the atomics package there is no fence.
        Stores only while the row is still this claim's, as heartbeat(): a client that lost its
        row never writes the next client's flag (which would hide that client's sleep from the
        host). Returns the standing (CONNECTED: stored)."""
        standing = self.standing()
        if standing == Standing.CONNECTED:
            _store(self._mem, self._row._base + self._WAITING, 4, 1 if waiting else 0)
            _fence_seq_cst()
        return standing

    def _waiting(self, waiting, name):
        """set_waiting for a wait: raises when the claim no longer stands (nothing stored)."""
        standing = self.set_waiting(waiting)
        if standing != Standing.CONNECTED:
            raise _refused(standing, name)

    def _waiter(self, word, seq, width):
        """The steps of wait_<event>, made ready once per claim and event: (stands, flag, fence,
        load, sleep). stands(): whether the claim stands (standing()'s loads, in its order);
        flag(v): stores waiting (release), with no fence; load(): the sequence (acquire);
        sleep(seen, left): the futex wait on the event's word. With libatomic (and its fence),
        each is one ctypes call on arguments built here; else the module's general atomics."""
        backend = _backend()
        waiter = self._waiters.get((word, seq, width))
        if waiter is not None and waiter[0] is backend.lib:
            return waiter[1]
        mem, head, row = self._mem, self._header._base, self._row._base
        sleep = _futex_waiter(mem, head + word)
        lib = backend.lib
        if lib is None or mem.address is None or backend.fence is None or self._WORD is None:
            steps = (
                lambda: self.standing() == Standing.CONNECTED,
                lambda v: _store(mem, row + self._WAITING, 4, v),
                _fence_seq_cst,
                lambda: _load(mem, head + seq, width),
                sleep,
            )
        else:
            at = mem.address
            load_row, load_state, load_host, load_seq = lib.load[8], lib.load[self._HOST_STATE[1]], lib.load[4], lib.load[width]
            store, fence = lib.store[4], backend.fence
            row_at, state_at = ctypes.c_void_p(at + row + self._WORD[1]), ctypes.c_void_p(at + head + self._HOST_STATE[0])
            host_at, seq_at = ctypes.c_void_p(at + head + self._HOST_GENERATION), ctypes.c_void_p(at + head + seq)
            waiting_at = ctypes.c_void_p(at + row + self._WAITING)
            shift = 0 if self._WORD[0] else 32
            mine = {self._CLAIMED << shift | self._generation << (32 - shift), self._ACTIVE << shift | self._generation << (32 - shift)}
            exiting, host_generation = self._EXITING, self._host_generation

            def stands():
                return (
                    load_row(row_at, _ACQUIRE) in mine
                    and load_state(state_at, _ACQUIRE) != exiting
                    and load_host(host_at, _ACQUIRE) == host_generation
                )

            steps = (stands, lambda v: store(waiting_at, v, _RELEASE), lambda: fence(_SEQ_CST), lambda: load_seq(seq_at, _ACQUIRE), sleep)
        self._waiters[(word, seq, width)] = (lib, steps)
        return steps

    def _wait_event(self, word, seq, width, last, timeout, name):
        """The client's waiting handshake (wait_<event>): returns (seq or None, sleeps, timed_out).
        The claim's standing first (raises when it no longer stands, nothing written); a
        sequence that moved already is taken at once, nothing written. Each round: waiting = 1,
        a full fence, the sequence; when it has not moved, a sleep on the event's word while it
        holds `last`, and the sequence again; the standing again, then waiting = 0 (release, no
        fence: clearing it orders nothing). Rounds after the first check the standing first."""
        stands, flag, fence, load, sleep = self._waiter(word, seq, width)
        if not stands():
            raise _refused(self.standing(), name)
        now = load()
        if now != last:
            return now, 0, False
        deadline = time.monotonic() + timeout
        sleeps = 0
        while True:
            flag(1)
            fence()
            now = load()
            woken = True
            if now == last:
                left = deadline - time.monotonic()
                woken = left > 0 and sleep(last, left)
                sleeps += 1
                now = load()
            if not stands():
                raise _refused(self.standing(), name)
            flag(0)
            if now != last:
                return now, sleeps, not woken and time.monotonic() >= deadline
            if not woken and time.monotonic() >= deadline:
                return None, sleeps, True
            if not stands():
                raise _refused(self.standing(), name)

    @classmethod
    def _host_set_event(cls, header, word, always):
        """The host's side after a publication (host_set_<event>): the rows set."""
        rows = sum(1 for i in range(cls.ROWS) if cls.host_waiting(header, i) or i in always)
        if rows:
            _futex_wake(header._mem, header._base + word)
        return rows

    def standing(self):
        """Whether the row is still this client's. The row's state and generation are loaded
        first (acquire: a row a reload freed then shows the reload's host_generation), then
        the host's: HOST_EXITING when the host says it exits; RELOADED when host_generation
        is no longer the one the claim was made at; CONNECTED while the row holds the claim's
        generation and a state of its own; else DISCONNECTED. The order of Rust and C."""
        state, generation = self._row_word(self._mem, self._row._base)
        host = self._header._base
        if _load(self._mem, host + self._HOST_STATE[0], self._HOST_STATE[1]) == self._EXITING:
            return Standing.HOST_EXITING
        if _load(self._mem, host + self._HOST_GENERATION, 4) != self._host_generation:
            return Standing.RELOADED
        if state in (self._CLAIMED, self._ACTIVE) and generation == self._generation:
            return Standing.CONNECTED
        return Standing.DISCONNECTED

    def scoped(self, writer):
        """Binds writer (any writer of this row's blocks, made unscoped; the writers of the
        blocks the row owns are bound already when made with the claim) to this claim: every method called through what this returns first checks the standing,
        and raises ProtocolError session_disconnected, session_reloaded or session_host_exiting
        instead of running once the row is no longer this client's, so nothing is stored into
        the next client's blocks. The window left is one write (a writer preempted between the
        check and its store). Take a new writer after each new claim."""
        return _Scoped(self, writer)

    def close(self):
        """Says goodbye: the row's state becomes closing (release), for the host to free it.
        False when the row was no longer this client's (then nothing is stored)."""
        return self._try_move(self._ACTIVE, self._CLOSING) or self._try_move(self._CLAIMED, self._CLOSING)

    @classmethod
    def _bind(cls, header, pad, current, new):
        offset, count, width = cls._BIND
        if not 0 <= pad < count:
            raise IndexError("%s binds %d pads; pad %d" % (cls.__name__, count, pad))
        word_at = header._base + offset + pad - pad % width
        shift = 8 * (pad % width)
        word = _load(header._mem, word_at, width)
        for _ in range(_cas_tries):
            if (word >> shift) & 0xFF != current:
                return False
            wanted = (word & ~(0xFF << shift)) | (new << shift)
            if _cas_hook is not None:
                _cas_hook(header._mem, word_at)
            ok, word = _compare_exchange(header._mem, word_at, width, word, wanted)
            if ok:
                return True
        _cas_gave_up("%s: pad %d" % (cls.__name__, pad))

    @classmethod
    def row_state(cls, header, index):
        """(state, generation) of row index (acquire): the host's view of it."""
        state, generation = cls._row_word(header._mem, cls._row_base(header, index))
        return cls._STATE_CLASS(state), generation

    @classmethod
    def _host(cls, host):
        """(the header view, the attached handle or None) of what free() and reload() take: the
        header view, or, for a session whose rows own blocks, the attached handle (the host's
        own), whose blocks they restore."""
        if not cls._OWNED:
            return host, None
        if not isinstance(host, _AttachHandle):
            raise TypeError(
                "%s's rows own blocks: free() and reload() take the attached handle (attach() or "
                "produce()), not %s" % (cls.__name__, type(host).__name__)
            )
        return host.header(), host

    @classmethod
    def free(cls, host, index):
        """The host's side: frees row index and restores what it owned, whatever its client
        does: the row is retired first (its state becomes closing: its client sees it gone and
        no client can claim it meanwhile), then, after a full fence, the pads it bound are let go
        (a bind racing the free is seen by this sweep or undone by its client), each protocol of the
        blocks the row owns that would refuse the next client is put back as a new image has it
        (a mailbox's waiting request answered with status 0 and no text, an exchange at its
        initial state; queues keep their entries for the host to drain), then its state becomes
        free (release). host is the header view, or the attached handle when the rows own blocks.
        Returns the state it had, an int (free: nothing was done). The client notices at its
        next standing(); the host takes a new reader of each exchange for the row."""
        header, handle = cls._host(host)
        base = cls._row_base(header, index)
        mem = header._mem
        old = cls._retire(mem, base)
        if old != cls._FREE and cls._BIND is not None:
            # The fence between the retire and the sweep: a bind whose client's re-check (after
            # its own fence) does not see the retire, this sweep sees (abi-runtime pads).
            _fence_seq_cst()
            for pad in range(cls._BIND[1]):
                cls._bind(header, pad, index, cls._UNBOUND)
        if handle is not None and old != cls._FREE:
            cls._restore(handle, index)
        cls._release_row(mem, base)
        return old

    @classmethod
    def reload(cls, host):
        """The host's side of a reload: adds 1 to host_generation first (acquire-release), then
        frees every row as free() does (after it, so a client that claims a row a free made
        sees the new generation). Every row is tried, also after a free that gave up; then,
        when one did, ContendedError is raised, its generation the new host_generation, freed
        the rows that were claimed or active and were freed, contended the rows whose free gave
        up (left as they were, or retired). Returns the new host_generation."""
        header, _handle = cls._host(host)
        _protocol_view(cls, header)
        generation = (_fetch_add(header._mem, header._base + cls._HOST_GENERATION, 4, 1) + 1) & 0xFFFFFFFF
        freed, contended = [], []
        for index in range(cls.ROWS):
            try:
                old = cls.free(host, index)
            except ContendedError:
                contended.append(index)
                continue
            if old in (cls._CLAIMED, cls._ACTIVE):
                freed.append(index)
        if contended:
            error = ContendedError(
                "%s: reload: the free of rows %s gave up (rows %s were freed)" % (cls.__name__, contended, freed)
            )
            error.generation, error.freed, error.contended = generation, tuple(freed), tuple(contended)
            raise error
        return generation

    @classmethod
    def exit(cls, host):
        """The host's side: tells every client the host is exiting (the host state, release):
        each standing says HOST_EXITING from then on."""
        header, _handle = cls._host(host)
        _protocol_view(cls, header)
        (offset, width) = cls._HOST_STATE
        _store(header._mem, header._base + offset, width, cls._EXITING, _RELEASE)

    @classmethod
    def _restore(cls, handle, index):
        """Puts back what row index owned in the blocks it owns (_OWNED: each blocks row's
        position in the handle's table, and for each region its position in the block's, its
        view class, its protocol's class and the method that restores it): each mailbox's
        waiting request answered, each exchange at its initial state. A block or region that
        is absent or fails its checks is left alone."""
        laid_out = handle._laid_out
        for pos, regions, words in cls._OWNED:
            block = _attach_owned_block(handle, pos, index)
            if block is None:
                continue
            if laid_out is not None:
                # Every word the host alone writes here, as the image it laid out has it: each
                # stored whole, with the one size all its accesses have.
                mem = block._source.hold()
                for row, at, width, count in words:
                    span = (0, 0) if row is None else block._spans[row]
                    if span is None:
                        continue
                    for start in range(block._offset + span[0] + at, block._offset + span[0] + at + width * count, width):
                        if start + width <= min(len(laid_out), mem.size):
                            value = int.from_bytes(laid_out[start : start + width], "little")
                            _store(mem, start, width, value, _RELAXED)
            for row, view_class, protocol, method in regions:
                view = block._view(row, view_class)
                if view is not None:
                    try:
                        getattr(protocol(view), method)()
                    except ProtocolError:
                        pass

    @classmethod
    def host_waiting(cls, header, index):
        """The host's side of the waiting handshake: after it published (stored what the
        client loads), a full fence, then row index's waiting flag (acquire): True when its
        client sleeps and must be woken."""
        base = cls._row_base(header, index)
        _fence_seq_cst()
        return _load(header._mem, base + cls._WAITING, 4) == 1

    @classmethod
    def watch(cls, hung_ms=None):
        """The host's memory of every row, for hung(): host-local, kept between checks. Its
        hung time is hung_ms, or the session's HUNG_MS when None or 0: a host that serves slow
        clients (a debugger's breakpoint, a loaded CI machine) takes more; one that must free
        a dead bot's pad sooner, less."""
        if hung_ms is not None and (not isinstance(hung_ms, int) or hung_ms < 0):
            raise ValueError("hung_ms must be a whole number of ms, not %r" % (hung_ms,))
        return HungWatch(cls.ROWS, (hung_ms or cls.HUNG_MS) * 1000000)

    @classmethod
    def hung(cls, header, index, watch, now_ns=None):
        """The host's side: whether row index is hung: claimed or active with the same state,
        generation and heartbeat as watch (from watch()) first saw more than HUNG_MS before
        now_ns, the host's own monotonic clock (time.monotonic_ns() when None; the same clock
        each call). The heartbeat's value only has to change. A row the watch sees in use for
        the first time gets the whole HUNG_MS; a free or closing row is never hung."""
        base = cls._row_base(header, index)
        state, generation = cls._row_word(header._mem, base)
        in_use = state in (cls._CLAIMED, cls._ACTIVE)
        beat = _load(header._mem, base + cls._HEARTBEAT, 8) if in_use else 0
        now = time.monotonic_ns() if now_ns is None else now_ns
        return watch.is_hung(index, (state, generation, beat) if in_use else None, now)


class Client(_Session):
    """The session `client`: a row of `bridge_header.clients` that the client claims and the host frees.

    A client's row: claimed by compare-and-swap from free with a generation bump, filled in, then active; a heartbeat at least every 100 ms; gone when the row no longer holds its generation, when the host reloads (host_generation changes) or exits; closing to say goodbye

    Client.claim(header, index): header is the LiveBridgeHeader attach hands out; the row's view
    is a LiveClientEntry. The static methods are the host's side.
    """

    __slots__ = ()
    ROWS = 8
    HEARTBEAT_MS = 100
    HUNG_MS = 1000
    _VIEW = LiveBridgeHeader
    _ROW_VIEW = LiveClientEntry
    _STATE_CLASS = ClientState
    _TABLE = 256
    _ROW_SIZE = 128
    _STATE = 0
    _GENERATION = 4
    _HEARTBEAT = 16
    _WAITING = 36
    _WORD = (True, 0)
    _FREE, _CLAIMED, _ACTIVE, _CLOSING = 0, 1, 2, 3
    _HOST_GENERATION = 20
    _HOST_STATE = (24, 4)
    _EXITING = 2
    _BIND = (164, 4, 4)
    _UNBOUND = 255

    def wait_tick(self, last, timeout):
        """Sleeps on the `tick` event until the sequence is no longer `last`, at most `timeout`
        seconds: (seq or None, sleeps, timed_out). waiting = 1, a full fence, the sequence loaded,
        then a futex wait (Linux) on its word; a wake only means look again. Raises
        ProtocolError once the row is no longer this claim's (nothing written)."""
        return self._wait_event(192, 192, 8, last, timeout, "wait_tick")

    @classmethod
    def host_set_tick(cls, header, always=()):
        """After a publication: the `tick` event set for the rows that wait and the rows in
        `always` (a ticks cap); one futex wake, none when no row wants it. The rows set."""
        return cls._host_set_event(header, 192, always)

    def answer_input(self, pad, value):
        """The bot's answer in lockstep: pad.write_pad_input(self, value), bound to
        this claim (raises, with nothing written or set, once the row is no longer this
        client's), then the `input` event set: a futex wake on the record's word (Linux).
        value.for_tick says which tick it answers."""
        pad.write_pad_input(self, value)
        _futex_wake(pad._mem, pad._base + 0)

    @classmethod
    def host_lockstep_bots(cls, header):
        """The rows the host waits for in lockstep, bit row: state active and caps without
        `tool` (plan/lockstep.rs)."""
        bots = 0
        for i in range(min(cls.ROWS, 64)):
            base = cls._row_base(header, i)
            state = cls._row_word(header._mem, base)[0]
            if state == cls._ACTIVE and not _load(header._mem, base + 12, 4) & 2:
                bots |= 1 << i
        return bots

    @classmethod
    def host_wait_input(cls, header, pads, tick, timeout, last, misses):
        """In lockstep, after publishing tick: waits until every bot (host_lockstep_bots)
        answered it, or `timeout` seconds (lockstep_timeout_ms). pads[row]: the row's record
        view (None: a miss at once). A row's answer is taken into last[row] only when a whole
        copy (HOST_TRIES tries) says for_tick == tick: an older tick's answer never counts. The
        word is loaded before the copy; the host sleeps on the lowest pending row's word while
        it holds that value (a wake only means look again). At the deadline, one last check,
        then misses[row] += 1 for each bot still pending (last[row] stays its last answer).
        Returns (answered, missed, sleeps), the first two as masks of rows."""
        deadline = time.monotonic() + timeout
        pending = cls.host_lockstep_bots(header)
        answered = missed = sleeps = 0
        final = False
        while True:
            first = None
            for row in range(min(cls.ROWS, 64)):
                if not pending >> row & 1:
                    continue
                pad = pads[row] if row < len(pads) else None
                if pad is None:
                    pending &= ~(1 << row)
                    missed |= 1 << row
                    continue
                seen = _load(pad._mem, pad._base + 0, 4)
                try:
                    copy = pad.read_pad_input_counted(HOST_TRIES)[0]
                except SeqlockContendedError:
                    copy = None
                if copy is not None and copy.for_tick == tick:
                    last[row] = copy
                    pending &= ~(1 << row)
                    answered |= 1 << row
                elif first is None:
                    first = (pad, seen)
            if not pending or final:
                break
            left = deadline - time.monotonic()
            sleeps += 1
            if left <= 0 or not _futex_wait(first[0]._mem, first[0]._base + 0, first[1], left):
                final = time.monotonic() >= deadline
        missed |= pending
        for row in range(min(cls.ROWS, 64)):
            if missed >> row & 1:
                misses[row] += 1
        return answered, missed, sleeps

    def request_commands(self, box, text):
        """The client's request, then the `commands` event set: box.request(text) (box: the
        row's Mailbox bound to this claim: raises, with nothing sent or set, once the row
        is no longer this client's, or while its last request has no answer), then a futex wake
        on its request_seq (Linux); every request makes the call. The request's number."""
        seq = box.request(text)
        _futex_wake(box._mem, box._base + 0)
        return seq

    @classmethod
    def host_wait_commands(cls, boxes, rows, timeout):
        """One round of the host's wait on the `commands` event (plan/commands.rs). boxes[row]:
        the row's mailbox header view (LiveMailboxHeader), None when absent; rows: the rows asked
        about, bit row (the active ones). Returns the asked rows holding a request not yet
        answered (request_seq != response_seq, acquire loads), at once when there is one; else,
        after a sleep of at most `timeout` seconds (and 100 ms) on every asked row's word at once
        (none asked: the whole sleep; futex_waitv, Linux 5.16 or later; an older kernel, the lowest row's word for at most
        1 ms), the rows pending then: 0 when the timeout passed or a wake found none (look
        again)."""

        def pending():
            found, words = 0, []
            for row in range(min(cls.ROWS, 64, len(boxes))):
                box = boxes[row]
                if not rows >> row & 1 or box is None:
                    continue
                request = _load(box._mem, box._base + 0, 4)
                if request != _load(box._mem, box._base + 8, 4):
                    found |= 1 << row
                words.append((box._mem, box._base + 0, request))
            return found, words

        found, words = pending()
        if found or timeout <= 0:
            return found
        if not words:
            time.sleep(min(timeout, 0.1))
            return 0
        if _futex_waitv(words, timeout) is None:
            mem, at, expected = words[0]
            _futex_wait(mem, at, expected, min(timeout, 0.001))
        return pending()[0]
    _OWNED = ((2, ((2, LiveMailboxHeader, Mailbox, "restore"),), ((None, 0, 4, 18),(0, 16, 4, 1),(2, 12, 4, 5),)), (4, ((0, LiveDrawHeader, Draw, "reset_state"),), ((None, 0, 4, 18),(0, 4, 4, 4),(1, 8, 4, 3),(2, 8, 4, 1),)),)

    def bind_pad(self, pad):
        """Binds pad to this row, while the claim stands: its owner byte goes from unbound to
        the row's index by compare-and-swap of the word holding it; then a full fence and the
        standing again: when the claim no longer stands, the bind is undone (the byte back to
        unbound). The host's free makes a full fence between its retire and its sweep of the
        row's pads, so one side always sees the other (Dekker's pattern): no pad outlives the
        session it was bound in (abi-runtime pads, whose steps these are). False when another
        row holds it, or when the row is no longer this client's (nothing is left bound).
        ContendedError when the word kept changing (when the undo was the one
        contended, the pad stays bound: unbind it). Without libatomic's fence or the atomics
        package there is no fence (x86 only: its locked compare-and-swap is one)."""
        if self.standing() != Standing.CONNECTED or not self._bind(self._header, pad, self._UNBOUND, self._index):
            return False
        _fence_seq_cst()
        if self.standing() == Standing.CONNECTED:
            return True
        self._bind(self._header, pad, self._index, self._UNBOUND)
        return False

    def unbind_pad(self, pad):
        """Lets pad go, if this row holds it and the claim stands (compare-and-swap back to
        unbound). False otherwise (nothing stored)."""
        return self.standing() == Standing.CONNECTED and self._bind(self._header, pad, self._index, self._UNBOUND)

    @classmethod
    def pad_owner(cls, header, pad):
        """The row that owns pad, or None when it is unbound (the host's or anyone's view): one
        load of the whole word that holds it (acquire), the size every access to it has."""
        offset, count, width = cls._BIND
        if not 0 <= pad < count:
            raise IndexError("%s binds %d pads; pad %d" % (cls.__name__, count, pad))
        word = _load(header._mem, header._base + offset + pad - pad % width, width)
        owner = (word >> 8 * (pad % width)) & 0xFF
        return None if owner == cls._UNBOUND else owner


def store_tick_wake_stats(view, stats):
    """Stores the wake statistics `stats` (a WakeStats) of event `tick`'s waiter into
    `view` (a LiveStatsHeader), each figure in the field the schema's `stats` names through that
    field's setter, with its access: the plain fields by relaxed stores first, then the atomic
    ones by release stores, which publish them. Only the waiter writes these fields."""
    p50_us, p99_us = stats.percentiles_us()
    view.set_wake_p50_us(p50_us)
    view.set_wake_p99_us(p99_us)
    view.set_ticks(stats.ticks)
    view.set_skipped(stats.skipped)


# ------------------------------------------------------------------------------------------
# Directories of running instances
# ------------------------------------------------------------------------------------------

PROCESS_GONE = 201
PROCESS_RUNNING = 202
PROCESS_UNKNOWN = 203
_DIRECTORY_LIST_TRIES = 8
_DIRECTORY_REGISTER_TRIES = 4
# How many times an opener looks again, 10 ms apart, at a directory its creator has not
# finished laying out (its length or magic still 0): abi_runtime's OPEN_TRIES.
_DIRECTORY_OPEN_TRIES = 50


class DirectoryError(ValueError):
    """A directory that cannot be used, or a row that cannot be had: .name is one of
    directory_too_small, directory_not_ready, directory_bad_magic, directory_bad_entry_size,
    directory_bad_entry_count, directory_full, directory_version_too_long."""

    def __init__(self, name, message):
        super().__init__("%s: %s" % (name, message))
        self.name = name


class DirectoryHost:
    """A live row as a list copied it."""

    __slots__ = ("row", "pid", "process_time", "abi_major", "abi_minor", "host_version")

    def __init__(self, row, pid, process_time, abi_major, abi_minor, host_version):
        self.row, self.pid, self.process_time = row, pid, process_time
        self.abi_major, self.abi_minor, self.host_version = abi_major, abi_minor, host_version

    def __repr__(self):
        return "DirectoryHost(row=%d, pid=%d, process_time=%d, abi=%d.%d, host_version=%r)" % (
            self.row, self.pid, self.process_time, self.abi_major, self.abi_minor, self.host_version)


def process_probe(pid):
    """What this platform tells of process pid: (PROCESS_GONE, 0), (PROCESS_RUNNING, its
    creation time) or (PROCESS_UNKNOWN, 0). Linux: field 22 of /proc/PID/stat (starttime,
    clock ticks since boot; a zombie is gone). Windows: OpenProcess, GetExitCodeProcess and
    the creation FILETIME of GetProcessTimes."""
    if pid == 0:
        return PROCESS_GONE, 0
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/%d/stat" % pid, "rb") as f:
                text = f.read()
        except FileNotFoundError:
            return PROCESS_GONE, 0
        except OSError:
            return PROCESS_UNKNOWN, 0
        fields = text[text.rfind(b")") + 1 :].split()
        if len(fields) < 20:
            return PROCESS_UNKNOWN, 0
        if fields[0] in (b"Z", b"X", b"x"):
            return PROCESS_GONE, 0
        return PROCESS_RUNNING, int(fields[19])
    if sys.platform == "win32":
        from ctypes import wintypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        kernel32.OpenProcess.restype = wintypes.HANDLE
        kernel32.OpenProcess.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
        handle = kernel32.OpenProcess(0x1000, False, pid)
        if not handle:
            return (PROCESS_UNKNOWN, 0) if ctypes.get_last_error() == 5 else (PROCESS_GONE, 0)
        try:
            code = wintypes.DWORD()
            times = [wintypes.FILETIME() for _ in range(4)]
            got_code = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
            got_times = kernel32.GetProcessTimes(handle, *[ctypes.byref(t) for t in times])
        finally:
            kernel32.CloseHandle(handle)
        if got_code and code.value != 259:
            return PROCESS_GONE, 0
        if not got_times:
            return PROCESS_UNKNOWN, 0
        return PROCESS_RUNNING, times[0].dwHighDateTime << 32 | times[0].dwLowDateTime
    return PROCESS_UNKNOWN, 0


class _Directory:
    """A directory whose header was checked (magic, entry_size, entry_count against the
    buffer): register, unregister, list and remove_stale, as abi-runtime's directory module
    has them. Every access to a row is a whole u64 word; a row is copied, then its (state,
    pid) word checked again (acquire fence between)."""

    __slots__ = ("_mem", "count", "size")

    def __init__(self, buffer):
        self._mem = _Mem(buffer)
        n = self._mem.size
        if n < self._ENTRIES_AT:
            raise DirectoryError("directory_too_small", "%d bytes, its header needs %d" % (n, self._ENTRIES_AT))
        magic = self._field(self._MAGIC_AT, _ACQUIRE)
        if magic == 0:
            raise DirectoryError("directory_not_ready", "its magic is still 0")
        if magic != self._MAGIC:
            raise DirectoryError("directory_bad_magic", "%#010x" % magic)
        size = self._field(self._ENTRY_SIZE_AT, _RELAXED)
        if size < self._ENTRY_SIZE or size % 8:
            raise DirectoryError("directory_bad_entry_size", "%d (at least %d, a multiple of 8)" % (size, self._ENTRY_SIZE))
        count = self._field(self._ENTRY_COUNT_AT, _RELAXED)
        fits = (n - self._ENTRIES_AT) // size
        if count == 0 or count > fits:
            raise DirectoryError("directory_bad_entry_count", "%d (1 to %d rows fit)" % (count, fits))
        self.count, self.size = count, size

    def release(self):
        """Lets go of the buffer, so that an mmap under it can be closed; the directory is not
        used after."""
        self._mem.release()

    def _field(self, at, order):
        word = _load(self._mem, at // 8 * 8, 8, order)
        return (word >> (8 * (at % 8))) & 0xFFFFFFFF

    @classmethod
    def lay_out(cls, buffer):
        """Lays out a new, zeroed directory its creator has not shared: count and size, then
        the magic (release). Returns the directory."""
        mem = _Mem(buffer)
        need = cls._ENTRIES_AT + cls._MAX_ENTRIES * cls._ENTRY_SIZE
        if mem.size < need:
            raise DirectoryError("directory_too_small", "%d bytes, a new directory needs %d" % (mem.size, need))
        head = bytearray(cls._ENTRIES_AT)
        struct.pack_into("<I", head, cls._ENTRY_COUNT_AT, cls._MAX_ENTRIES)
        struct.pack_into("<I", head, cls._ENTRY_SIZE_AT, cls._ENTRY_SIZE)
        for at in range(cls._ENTRIES_AT, need, 8):
            _store(mem, at, 8, 0, _RELAXED)
        magic_word = cls._MAGIC_AT // 8 * 8
        for at in range(0, cls._ENTRIES_AT, 8):
            if at != magic_word:
                _store(mem, at, 8, struct.unpack_from("<Q", head, at)[0], _RELAXED)
        struct.pack_into("<I", head, cls._MAGIC_AT, cls._MAGIC)
        _store(mem, magic_word, 8, struct.unpack_from("<Q", head, magic_word)[0], _RELEASE)
        mem.release()
        return cls(buffer)

    @classmethod
    def open_or_create(cls, path=None):
        """A host's open of the directory file at path (LINUX_PATH when None), as
        abi_runtime's DirectoryMapping::open_or_create: creates it owner-only (0600, whatever
        the umask) and lays it out, or opens the one another host made, looking again 10 ms
        apart, at most _DIRECTORY_OPEN_TRIES times, while its creator has not finished laying
        it out (a DirectoryError directory_too_small or directory_not_ready after them; any
        other check's at once). A file removed between the create and the open is created
        again. Returns (directory, mapping, created): release() the directory, then close the
        mapping, when done. A file (POSIX, or a file on Windows); a Windows host's named
        mapping (WINDOWS_NAME) is not made here."""
        import mmap
        import os
        path = cls.LINUX_PATH if path is None else path
        need = cls._ENTRIES_AT + cls._MAX_ENTRIES * cls._ENTRY_SIZE
        for _ in range(2):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                pass
            else:
                try:
                    if hasattr(os, "fchmod"):
                        os.fchmod(fd, 0o600)
                    os.ftruncate(fd, need)
                    mapping = mmap.mmap(fd, need)
                finally:
                    os.close(fd)
                return cls.lay_out(mapping), mapping, True
            try:
                directory, mapping = cls._opened(path)
                return directory, mapping, False
            except FileNotFoundError:
                continue
        directory, mapping = cls._opened(path)
        return directory, mapping, False

    @classmethod
    def _opened(cls, path):
        """Opens and checks the directory file at path, looking again while its creator lays
        it out: (directory, mapping)."""
        import mmap
        import os
        for tries in range(_DIRECTORY_OPEN_TRIES + 1):
            fd = os.open(path, os.O_RDWR)
            try:
                size = os.fstat(fd).st_size
                mapping = mmap.mmap(fd, size) if size else None
            finally:
                os.close(fd)
            failed = None
            if mapping is None:
                failed = DirectoryError("directory_too_small", "0 bytes: its creator has not sized it")
            else:
                try:
                    return cls(mapping), mapping
                except DirectoryError as e:
                    # Without its traceback, which holds the half-made view of the mapping.
                    failed = e.with_traceback(None)
                # That view is gone with the traceback: unmap.
                mapping.close()
            if failed.name not in ("directory_too_small", "directory_not_ready") or tries == _DIRECTORY_OPEN_TRIES:
                raise failed
            time.sleep(0.01)
        raise AssertionError("unreachable")

    @classmethod
    def _join(cls, state, pid):
        return pid << 32 | state if cls._STATE_LOW else state << 32 | pid

    @classmethod
    def _split(cls, word):
        low, high = word & 0xFFFFFFFF, word >> 32
        return (low, high) if cls._STATE_LOW else (high, low)

    def _row(self, i):
        return self._ENTRIES_AT + i * self.size

    def state(self, i):
        """Row i's (state, pid), acquire."""
        return self._split(_load(self._mem, self._row(i) + self._WORD_AT, 8, _ACQUIRE))

    def _free_taken(self, row):
        _fence(_RELEASE)  # the take before the zeroing, for a reader's re-check
        for at in range(0, self._ENTRY_SIZE, 8):
            if at != self._WORD_AT:
                _store(self._mem, row + at, 8, 0, _RELAXED)
        _store(self._mem, row + self._WORD_AT, 8, self._join(self._FREE, 0), _RELEASE)

    def remove_stale(self, me, probe=process_probe):
        """Frees every claimed or live row whose process is gone, or was created at another
        time than its process_time (a reused pid), taking each as me first and putting it
        back if its process_time changed meanwhile; how many."""
        freed = 0
        for i in range(self.count):
            row = self._row(i)
            word = _load(self._mem, row + self._WORD_AT, 8, _ACQUIRE)
            time = _load(self._mem, row + self._PROCESS_TIME_AT, 8, _ACQUIRE)
            state, pid = self._split(word)
            if state not in (self._CLAIMED, self._LIVE):
                continue
            if pid == 0:
                stale = True
            else:
                found, created = probe(pid)
                stale = found == PROCESS_GONE or (
                    found == PROCESS_RUNNING and (state == self._LIVE or time != 0) and created != time
                )
            if not stale:
                continue
            mine = self._join(self._CLAIMED, me)
            ok, _ = _compare_exchange(self._mem, row + self._WORD_AT, 8, word, mine)
            if not ok:
                continue
            if _load(self._mem, row + self._PROCESS_TIME_AT, 8, _ACQUIRE) != time:
                _compare_exchange(self._mem, row + self._WORD_AT, 8, mine, word)
                continue
            self._free_taken(row)
            freed += 1
        return freed

    def register(self, pid, process_time, host_version, probe=process_probe):
        """Frees stale rows, claims the first free row as pid, fills it in, marks it live:
        (row, stale rows freed). DirectoryError directory_full or directory_version_too_long."""
        version = host_version.encode("utf-8")
        if len(version) >= self._VERSION_LEN:
            raise DirectoryError("directory_version_too_long", "%d bytes, at most %d" % (len(version), self._VERSION_LEN - 1))
        image = bytearray(self._ENTRY_SIZE)
        struct.pack_into("<Q", image, self._PROCESS_TIME_AT, process_time)
        struct.pack_into("<H", image, self._ABI_MAJOR_AT, self.ABI_MAJOR)
        struct.pack_into("<H", image, self._ABI_MINOR_AT, self.ABI_MINOR)
        image[self._VERSION_AT : self._VERSION_AT + len(version)] = version
        freed = self.remove_stale(pid, probe)
        claimed = self._join(self._CLAIMED, pid)
        for i in range(self.count):
            row = self._row(i)
            word = _load(self._mem, row + self._WORD_AT, 8, _ACQUIRE)
            for _ in range(_DIRECTORY_REGISTER_TRIES):
                if self._split(word)[0] != self._FREE:
                    break
                ok, word = _compare_exchange(self._mem, row + self._WORD_AT, 8, word, claimed)
                if not ok:
                    continue
                _fence(_RELEASE)  # the claim before the fill, for a reader's re-check
                for at in range(0, self._ENTRY_SIZE, 8):
                    if at != self._WORD_AT:
                        _store(self._mem, row + at, 8, struct.unpack_from("<Q", image, at)[0], _RELAXED)
                live = self._join(self._LIVE, pid)
                if _compare_exchange(self._mem, row + self._WORD_AT, 8, claimed, live)[0]:
                    return i, freed
                break  # another host judged the claim stale and took it: try further on
        raise DirectoryError("directory_full", "all %d rows are taken" % self.count)

    def unregister(self, row_index, pid, process_time):
        """Frees row row_index (live back to free), only while it is still (pid,
        process_time)'s: whether it was."""
        if not 0 <= row_index < self.count:
            return False
        row = self._row(row_index)
        live, mine = self._join(self._LIVE, pid), self._join(self._CLAIMED, pid)
        if not _compare_exchange(self._mem, row + self._WORD_AT, 8, live, mine)[0]:
            return False
        if _load(self._mem, row + self._PROCESS_TIME_AT, 8, _ACQUIRE) != process_time:
            _compare_exchange(self._mem, row + self._WORD_AT, 8, mine, live)
            return False
        self._free_taken(row)
        return True

    def list(self):
        """The live rows, newest process_time first (then by row), and how many rows were
        skipped: a state none of free, claimed and live, or a row that changed under the
        reader _DIRECTORY_LIST_TRIES times."""
        hosts, problems = [], 0
        for i in range(self.count):
            row = self._row(i)
            done = False
            for _ in range(_DIRECTORY_LIST_TRIES):
                word = _load(self._mem, row + self._WORD_AT, 8, _ACQUIRE)
                state, pid = self._split(word)
                if state in (self._FREE, self._CLAIMED):
                    done = True
                    break
                if state != self._LIVE:
                    problems += 1
                    done = True
                    break
                copy = bytearray(self._ENTRY_SIZE)
                for at in range(0, self._ENTRY_SIZE, 8):
                    struct.pack_into("<Q", copy, at, _load(self._mem, row + at, 8, _RELAXED))
                _fence(_ACQUIRE)
                # The word and the time again: a row that went through other owners back to
                # the same pid has another time, unless it is the same process's.
                if _load(self._mem, row + self._WORD_AT, 8, _RELAXED) != word or _load(
                    self._mem, row + self._PROCESS_TIME_AT, 8, _RELAXED
                ) != struct.unpack_from("<Q", copy, self._PROCESS_TIME_AT)[0]:
                    continue
                text = bytes(copy[self._VERSION_AT : self._VERSION_AT + self._VERSION_LEN]).split(b"\0", 1)[0]
                hosts.append(DirectoryHost(
                    i, pid,
                    struct.unpack_from("<Q", copy, self._PROCESS_TIME_AT)[0],
                    struct.unpack_from("<H", copy, self._ABI_MAJOR_AT)[0],
                    struct.unpack_from("<H", copy, self._ABI_MINOR_AT)[0],
                    text.decode("utf-8", "replace"),
                ))
                done = True
                break
            if not done:
                problems += 1
        hosts.sort(key=lambda h: (-h.process_time, h.row))
        return hosts, problems


class Hosts(_Directory):
    """The hosts running in this logon session, in a mapping of its own (Local\\ibf.directory on Windows, /dev/shm/ibf.directory on Linux): the first host creates it, owner-only. A host registers by compare-and-swap of a free row's state and pid to (claimed, its pid), fills the row in, then moves it to live; it frees its row on exit. A starting host first frees stale rows: claimed or live rows whose process is gone, or whose process was created at another time than process_time (a reused pid). process_time is the process's creation time: on Windows the creation FILETIME of GetProcessTimes; on Linux field 22 of /proc/PID/stat (starttime, clock ticks since boot), which never changes for a live process and orders hosts within a boot, all a directory in /dev/shm outlives. A client lists the live rows, newest process_time first, copying each row and checking its state and pid again"""

    __slots__ = ()
    WINDOWS_NAME = "Local\\ibf.directory"
    LINUX_PATH = "/dev/shm/ibf.directory"
    SIZE = 1088
    ABI_MAJOR, ABI_MINOR = 0, 9
    _MAGIC_AT, _MAGIC, _ENTRY_COUNT_AT, _ENTRY_SIZE_AT, _ENTRIES_AT = 0, 0x44464249, 4, 8, 64
    _MAX_ENTRIES, _ENTRY_SIZE, _WORD_AT, _STATE_LOW = 16, 64, 0, 1
    _PROCESS_TIME_AT, _ABI_MAJOR_AT, _ABI_MINOR_AT, _VERSION_AT, _VERSION_LEN = 8, 16, 18, 24, 32
    _FREE, _CLAIMED, _LIVE = 0, 1, 2


class HostService:
    """The host's service turn (codegen/src/plan/service.rs decides it), over the
    host's own handle (from produce()). turn() serves every row of session `client`, per
    row in this order:
    1. serve the mailbox through answer(row, text) -> (status, answer), text
       None for a malformed request (its length past its area);
    2. drain the log queue into log(row, entry), at most DRAIN_MAX entries;
    3. take the draw list through draw(row, list);
    4. free a row whose client said goodbye;
    5. free a row unchanged for the hung time;
    6. free an active row whose pid probe(pid) says gone (or names another process);
    and frees a row by the broken-client policy when its mailbox raises
    mailbox_sequence, mailbox_capacity or its draw exchange exchange_state. A free is
    always: drain, free, drain, new_reader
    (a reader kept past a free refuses the next claim's writer). Each step is callable alone,
    in this order; a host that frees a row itself calls free_row, and reloads with reload().
    counts: served, malformed, drained, taken, freed by reason (closing, hung, dead, policy), errors."""

    KEEP = 0
    FREED_CLOSING = 1
    FREED_HUNG = 2
    FREED_DEAD = 3
    FREED_POLICY = 4
    DRAIN_MAX = 1024
    _REASONS = ("closing", "hung", "dead", "policy", )
    _SERVE_POLICY = ("mailbox_sequence", "mailbox_capacity", )
    _TAKE_POLICY = ("exchange_state", )

    def __init__(self, host, hung_ms=None, answer=None, log=None, draw=None, probe=None):
        self.host = host
        self.watch = Client.watch(hung_ms)
        self.answer, self.log, self.draw, self.probe = answer, log, draw, probe
        self.readers = [None] * Client.ROWS
        self._probed = [None] * Client.ROWS
        self.counts = dict.fromkeys(("served", "malformed", "drained", "taken") + self._REASONS + ("errors",), 0)
        self.last_error = None
        self._malformed = False

    def _error(self, e):
        self.counts["errors"] += 1
        self.last_error = e

    def _refused(self, e, policy):
        """FREED_POLICY when e is a result the policy frees on, else KEEP (an error counted)."""
        if isinstance(e, ProtocolError) and e.check in policy:
            return self.FREED_POLICY
        self._error(e)
        return self.KEEP

    def serve_row(self, row):
        """Serves row's mailbox: FREED_POLICY (free the row) or KEEP."""
        try:
            view = self.host.client_blocks(row).mailbox()
            box = Mailbox(view) if view is not None else None
            if box is None:
                return self.KEEP
            self._malformed = False
            answered = box.serve(lambda text: self._answer(row, text), malformed=True)
        except (ProtocolError, AttachError) as e:
            return self._refused(e, self._SERVE_POLICY)
        if answered is not None:
            self.counts["malformed" if self._malformed else "served"] += 1
        return self.KEEP

    def _answer(self, row, text):
        self._malformed = text is None
        if self.answer is None:
            return 0, b""
        return self.answer(row, text)

    def drain_row(self, row):
        """Drains row's log queue into log(row, entry), at most DRAIN_MAX entries."""
        try:
            view = self.host.client_blocks(row).log_queue()
            if view is None:
                return
            queue = LogQueue(view)
            for _ in range(self.DRAIN_MAX):
                entry = queue.pop()
                if entry is None:
                    return
                self.counts["drained"] += 1
                if self.log is not None:
                    self.log(row, entry)
        except (ProtocolError, AttachError) as e:
            self._error(e)

    def take_row(self, row):
        """Takes row's draw list through draw(row, list): FREED_POLICY (free the row) or KEEP."""
        try:
            if self.readers[row] is None:
                view = self.host.bot_blocks(row).draw()
                if view is None:
                    return self.KEEP
                self.readers[row] = Draw(view)
            taken = self.readers[row].take()
        except (ProtocolError, AttachError) as e:
            return self._refused(e, self._TAKE_POLICY)
        if taken is not None:
            self.counts["taken"] += 1
            if self.draw is not None:
                self.draw(row, taken)
        return self.KEEP

    def row_done(self, row, now_ns=None):
        """Whether row is done, in the plan's order: FREED_CLOSING, FREED_HUNG, FREED_DEAD (active, and
        probe(pid) says gone, or running but created at another time than the first probe of
        this claim saw), else KEEP."""
        header = self.host.header()
        state, generation = Client.row_state(header, row)
        if state == 3:
            return self.FREED_CLOSING
        if Client.hung(header, row, self.watch, now_ns):
            return self.FREED_HUNG
        if state == 2 and self.probe is not None:
            pid = header.clients(row).pid()
            if pid != 0:
                answer, created = self.probe(pid)
                if answer == PROCESS_GONE:
                    return self.FREED_DEAD
                if answer == PROCESS_RUNNING:
                    seen = self._probed[row]
                    if seen is not None and seen[:2] == (generation, pid) and seen[2] != created:
                        return self.FREED_DEAD
                    self._probed[row] = (generation, pid, created)
        return self.KEEP

    def free_row(self, row, reason):
        """Frees row for reason (FREED_*): drain, free, drain, new_reader. ContendedError when the free gave up
        (a later free goes on)."""
        self.drain_row(row)
        Client.free(self.host, row)
        self.drain_row(row)
        self.readers[row] = None
        self._probed[row] = None
        if 1 <= reason <= len(self._REASONS):
            self.counts[self._REASONS[reason - 1]] += 1

    def turn(self, now_ns=None):
        """One service turn over every row: per row serve, drain, take, closing, hung, dead; each
        row freed by the first step that says so. Returns counts (added to)."""
        now = time.monotonic_ns() if now_ns is None else now_ns
        for row in range(Client.ROWS):
            reason = self.KEEP
            reason = self.serve_row(row)
            if reason == self.KEEP:
                self.drain_row(row)
            if reason == self.KEEP:
                reason = self.take_row(row)
            if reason == self.KEEP:
                reason = self.row_done(row, now)
            if reason != self.KEEP:
                try:
                    self.free_row(row, reason)
                except ContendedError as e:
                    self._error(e)
        return self.counts

    def reload(self):
        """Client.reload over the host's handle, then a new reader for every row: the new
        host_generation."""
        try:
            return Client.reload(self.host)
        finally:
            self.readers = [None] * Client.ROWS
            self._probed = [None] * Client.ROWS


# What a re-layout keeps (codegen/src/plan/relayout.rs decides it): runs of the header's words
# (offset, bytes, count)...
_relayout_runs = (
    (1280, 1, 2),  # controls
    (1282, 2, 7),  # controls
    (1296, 1, 2),  # run_mode, sim_state
    (1300, 4, 1),  # lockstep_timeout_ms
)
# ...and the bind field's marks: (offset, bytes, word bytes, mark bytes, unbound, rows).
_relayout_bind = (164, 4, 4, 1, 255, 8)  # pad_owner


def relayout_keep(buffer, image):
    """Copies the host's own fields of the live mapping (buffer) into a new image from
    lay_out, before it is produced, when the mapping holds an image (its generation is not
    0; a new mapping keeps the image's values). Kept, each word read with one atomic load of
    its own size: controls, run_mode, sim_state, lockstep_timeout_ms, and each mark of pad_owner that is neither a row (below
    8: a claim, which the re-layout frees) nor unbound (255). Nothing
    else: geometry, the handshake and identity, the region table, the sessions' rows and
    words and the rings' heads are the new image's. ProduceError buffer_too_short (nothing
    written) when either is under 1304 bytes."""
    mem = _Mem(buffer)
    try:
        for size in (mem.size, len(image)):
            if size < 1304:
                raise ProduceError("buffer_too_short", "", 1304, size)
        if _load(mem, 20, 4) == 0:
            return
        for at, width, count in _relayout_runs:
            for i in range(count):
                where = at + i * width
                image[where : where + width] = _load(mem, where, width).to_bytes(width, "little")
        if _relayout_bind is not None:
            at, size, word, elem, unbound, rows = _relayout_bind
            for w in range(at, at + size, word):
                value = _load(mem, w, word)
                for k in range(word // elem):
                    mark = (value >> (8 * elem * k)) & ((1 << (8 * elem)) - 1)
                    if mark >= rows and mark != unbound:
                        where = w + k * elem
                        image[where : where + elem] = mark.to_bytes(elem, "little")
    finally:
        mem.release()


def relayout(buffer, image):
    """A re-layout in one call: relayout_keep from the live mapping into the new image, then
    produce of it over the same mapping (its generation past the mapping's, every session
    row freed). The host's own fields survive; the rest is the new image's. Returns the
    host's new handle."""
    relayout_keep(buffer, image)
    return produce(buffer, image)



# Attaching ------------------------------------------------------------------------------
#
# attach(buffer) checks a mapping the way every target does (abi-codegen's ATTACH.md, the
# same steps and the same 21 named checks in Rust, C and Python), and raises AttachError
# (a ValueError) naming the first check that failed. It reads every number it checks as a
# copy (int.from_bytes of a slice), never through a ctypes structure over the mapping, and
# never reads past its end; the writer's state and generation, when the handshake names
# them, with acquire loads (the live layer's), first and again after the tables. It checks
# the root table and its geometry; a block is checked when it is asked for (and each time).
# The handle it returns hands out each region: a live view, a ring (at the writer's slot
# count and size), a nested block's handle, or the bytes; None for a region the producer
# left out.
#
#     import mmap
#
#     import bridge
#
#     with open(path, "r+b") as f:
#         buf = mmap.mmap(f.fileno(), 0)  # or mmap.ACCESS_READ, for reads only
#     b = bridge.attach(buf)  # AttachError: not an image we can read
#     print("producer ABI %d.%d" % b.producer)
#     newest = b.snapshot_ring().read_newest()
#     mine = b.client_blocks(3).log_queue()
#     b.release()  # the handle's hold on the map, and its views'
#
# read_versioned(cls, buffer) reads an extensible record by its producer's size: a
# shorter one zero-extended, its missing fields None; a longer one's extra bytes kept.

# What each check's message says after "attach: <check>: ", in the words of the Rust runtime's
# AttachError, so that one image gets the same message in every language.
_attach_checks = {
    "mapping_too_short": "{found} bytes given, expected at least {expected} (the bytes every producer writes)",
    "bad_magic": "expected {expected:#x}, found {found:#x}",
    "major_mismatch": "major version: expected {expected}, found {found}",
    "header_too_small": "header size {found}, expected at least {expected}",
    "header_beyond_mapping": "header size {found}, expected at most {expected} (the mapping's length)",
    "extent_beyond_mapping": "total size {found}, expected at most {expected} (the mapping's length)",
    "extent_too_small": "{where}size {found}, expected at least {expected} (its header)",
    "extent_beyond_block": "{region}: size {found}, expected at most {expected} (the stride between blocks)",
    "too_many_rows": "{where}row count {found}, expected at most {expected}",
    "region_missing": "{region} is absent (size 0), expected present",
    "region_out_of_bounds": "{region} at offset {offset} with {size} bytes ends past {limit}, expected inside",
    "region_misaligned": "{region} at offset {offset}, expected a multiple of {align}",
    "region_too_small": "{region} is {found} bytes, expected at least {expected}",
    "regions_overlap": "{region} overlaps {other}, expected apart",
    "host_not_running": "host state {found}, expected {expected} (running); the host is starting or leaving: attach again",
    "host_reloaded": "host generation (or state) changed from {expected} to {found} during attach: attach again",
    "geometry_mismatch": "{region} is {found}, expected {expected}",
    "geometry_zero": "{region} is 0, expected at least 1",
    "geometry_misaligned": "{region} is {found}, expected a multiple of {expected}",
    "geometry_too_small": "{region} is {found}, expected at least {expected}",
    "geometry_too_large": "{region}: the host's geometry asks for {found} bytes, expected at most {expected} (the region's size)",
}


class AttachError(ValueError):
    """attach or read_versioned refused a buffer.

    Attributes: check (the failed check's name: mapping_too_short, bad_magic,
    major_mismatch, header_too_small, header_beyond_mapping, extent_beyond_mapping,
    extent_too_small, extent_beyond_block, too_many_rows, region_missing,
    region_out_of_bounds, region_misaligned, region_too_small, regions_overlap,
    host_not_running, host_reloaded, geometry_mismatch, geometry_zero, geometry_misaligned,
    geometry_too_small, geometry_too_large), region (where: "table[3].row",
    "struct.field", "" for the mapping), expected and found, and where they
    apply offset, size and limit (region_out_of_bounds), offset and align
    (region_misaligned), other (regions_overlap: the region it overlaps); None elsewhere.
    retryable is True for host_not_running and host_reloaded: the host is starting,
    reloading or leaving, and attaching again later may pass.
    """

    def __init__(self, check, region="", expected=None, found=None, offset=None, size=None, limit=None, align=None, other=None):
        self.check, self.region, self.expected, self.found = check, region, expected, found
        self.offset, self.size, self.limit, self.align, self.other = offset, size, limit, align, other
        where = region + ": " if region else ""
        detail = _attach_checks[check].format(
            where=where, region=region, expected=expected, found=found, offset=offset, size=size,
            limit=limit, align=align, other=other,
        )
        super().__init__("attach: %s: %s" % (check, detail))

    @property
    def retryable(self):
        """Whether attaching again later may pass: the host was starting, reloading or leaving."""
        return self.check in ("host_not_running", "host_reloaded")


class _AttachHandshake:
    """A record's version handshake: where its magic, major, minor and size are, the bytes
    every producer writes (base_size), its size here (full_size), and the fields later minor
    versions added: ((field name, alias...), (major, minor), offset, end); liveness is
    (state word, its running value, generation word or None), or None."""

    __slots__ = ("cls", "name", "magic", "major", "minor", "size", "base_size", "full_size", "added", "liveness")

    def __init__(self, cls, name, magic, major, minor, size, base_size, full_size, added, liveness):
        self.cls, self.name, self.magic, self.major, self.minor = cls, name, magic, major, minor
        self.size, self.base_size, self.full_size, self.added = size, base_size, full_size, added
        self.liveness = liveness

    def size_at(self, major, minor):
        """The bytes a producer of major.minor writes: up to the first field added after it."""
        for _names, since, offset, _end in self.added:
            if since[0] == major and since[1] > minor:
                return offset
        return self.full_size


class _AttachTable:
    """A layout table: where the header keeps its rows, count and extent, the rows, and its
    geometry fields: (name, row position or None for the header, word, equal, a, b,
    default), where an equal field must hold a and a followed one is not 0, a multiple of b
    and at least a; default is what a producer writes unless told another (None: it must be
    told)."""

    __slots__ = (
        "name", "cls", "header", "header_size", "table_offset", "max_rows", "row_size",
        "row_offset", "row_size_field", "row_count", "extent", "rows", "geometry", "initial",
    )

    def __init__(self, **fields):
        for name, value in fields.items():
            setattr(self, name, value)


class _AttachRow:
    """A row: its name, index, the minor version of ours that added it (or None), optional, least size, alignment, the rows (positions)
    it may overlap, whether it holds the layout's header, (table, count, stride) of the
    blocks it holds, what it needs of the writer's geometry ((fixed, ((factor, (geometry
    position, ...)), ...)) or None), and the geometry positions that give a ring's slot
    count and slot size or the blocks' stride ((count, size), None where the schema's)."""

    __slots__ = ("name", "index", "since_minor", "optional", "min_size", "align", "overlaps", "holds_header", "blocks", "need", "follows")

    def __init__(self, name, index, since_minor, optional, min_size, align, overlaps, holds_header, blocks, need, follows):
        self.name, self.index, self.since_minor, self.optional = name, index, since_minor, optional
        self.min_size, self.align, self.overlaps = min_size, align, overlaps
        self.holds_header, self.blocks, self.need, self.follows = holds_header, blocks, need, follows


def _attach_read(mv, base, word):
    """The unsigned little-endian integer of word = (offset, width) at base + offset: a copy."""
    start = base + word[0]
    return int.from_bytes(mv[start : start + word[1]], "little")


def _attach_check_table(mv, t, base, limit, header_len, path, minor, source):
    """check_table of ATTACH.md: the rows of table t at base, inside limit, then its
    geometry and what each row needs of it. Its blocks are checked when asked for
    (_attach_check_block). Returns the handle of the table."""
    table = _attach_tables[t]
    count = _attach_read(mv, base, table.row_count) if table.row_count is not None else table.max_rows
    if count > table.max_rows:
        raise AttachError("too_many_rows", path[:-1], table.max_rows, count)
    spans = []
    for row in table.rows:
        name = path + row.name
        off = size = 0
        if row.index < count:
            at = base + table.table_offset + row.index * table.row_size
            off, size = _attach_read(mv, at, table.row_offset), _attach_read(mv, at, table.row_size_field)
        if size == 0:
            newer = row.since_minor is not None and row.since_minor > minor
            if not row.optional and not newer:
                raise AttachError("region_missing", name)
            spans.append(None)
            continue
        if off + size > limit:
            raise AttachError("region_out_of_bounds", name, offset=off, size=size, limit=limit)
        if (base + off) % row.align:
            raise AttachError("region_misaligned", name, offset=off, align=row.align)
        if size < row.min_size:
            raise AttachError("region_too_small", name, row.min_size, size)
        spans.append((off, size))
    header_name = path + table.header
    for row, span in zip(table.rows, spans):
        if span is not None and span[0] < header_len and not row.holds_header:
            raise AttachError("regions_overlap", path + row.name, other=header_name)
    for j, later in enumerate(spans):
        for i in range(j):
            span = spans[i]
            if span is None or later is None or j in table.rows[i].overlaps or i in table.rows[j].overlaps:
                continue
            if span[0] < later[0] + later[1] and later[0] < span[0] + span[1]:
                raise AttachError("regions_overlap", path + table.rows[j].name, other=path + table.rows[i].name)
    values = []
    for name, pos, word, equal, a, b, _default in table.geometry:
        if pos is None:
            at, region = base, "%s%s.%s" % (path, table.header, name)
        elif spans[pos] is None:
            values.append(None)
            continue
        else:
            at, region = base + spans[pos][0], "%s%s.%s" % (path, table.rows[pos].name, name)
        found = _attach_read(mv, at, word)
        if equal:
            if found != a:
                raise AttachError("geometry_mismatch", region, a, found)
        elif found == 0:
            raise AttachError("geometry_zero", region)
        elif found % b:
            raise AttachError("geometry_misaligned", region, b, found)
        elif found < a:
            raise AttachError("geometry_too_small", region, a, found)
        values.append(found)
    for row, span in zip(table.rows, spans):
        total = None if row.need is None or span is None else _attach_need(row.need, values)
        if total is not None and total > span[1]:
            raise AttachError("geometry_too_large", path + row.name, span[1], total)
    return table.cls(source, base, limit, tuple(spans), tuple(values), path, minor)


def _attach_need(need, values):
    """The bytes a row's need = (fixed, ((factor, (geometry position, ...)), ...)) asks for
    with the writer's values (capped at 2^64 - 1, as the other targets saturate), or None
    when a value it names is unknown (its row is absent)."""
    fixed, terms = need
    total = fixed
    for factor, geometry in terms:
        for g in geometry:
            if values[g] is None:
                return None
            factor *= values[g]
        total += factor
    return min(total, 0xFFFFFFFFFFFFFFFF)


def _attach_followed(value, pos, values):
    """The schema's value, or the writer's (checked) when the table follows geometry pos."""
    if pos is None or values[pos] is None:
        return value
    return values[pos]


def _attach_owned_block(handle, pos, index):
    """Block index of row pos for the host's own free and reload (the session's restores):
    not looked at for liveness (the host's reload moves no table), None when absent, out of
    range or failing a check (a broken block is left alone)."""
    try:
        return _attach_check_block(handle, pos, index, live=False)
    except AttachError:
        return None


def _attach_check_block(handle, pos, index, live=True):
    """Block index of row pos of handle's table, checked now (ATTACH.md's blocks step, at
    the writer's stride when followed): its handle, None when the row is absent or index
    out of range, AttachError naming the block when it fails a check. live=False skips the
    check that the host still runs at the handle's generation: the host's own free and reload
    reach the blocks of its own image, which its reload does not move."""
    still_running = getattr(handle, "_still_running", None) if live else None
    if still_running is not None:
        still_running()
    table = _attach_tables[type(handle)._table]
    row, span = table.rows[pos], handle._spans[pos]
    if span is None or row.blocks is None:
        return None
    inner, n, stride = row.blocks
    if not 0 <= index < n:
        return None
    stride = _attach_followed(stride, row.follows[1], handle._values)
    sub = _attach_tables[inner]
    # The host's own handle places its blocks as it laid them out, never by the tables in the
    # mapping, which the blocks' clients can write.
    laid_out = handle._laid_out
    mv = handle._source.hold().view if laid_out is None else memoryview(laid_out)
    bbase, bname = handle._offset + span[0] + index * stride, "%s%s[%d]" % (handle._path, row.name, index)
    extent = _attach_read(mv, bbase, sub.extent) if sub.extent is not None else stride
    if extent > stride:
        raise AttachError("extent_beyond_block", bname, stride, extent)
    if extent < sub.header_size:
        raise AttachError("extent_too_small", bname, sub.header_size, extent)
    block = _attach_check_table(mv, inner, bbase, extent, sub.header_size, bname + ".", handle._minor, handle._source)
    block._laid_out = laid_out
    if still_running is not None:
        # Nothing reloaded while the block's tables were read (the root attach's re-check):
        # tables a re-layout wrote meanwhile are refused, retryably, never handed out torn.
        still_running()
    return block


def _attach_flat(buffer):
    """A memoryview of buffer and a flat one of its bytes (release the flat one first)."""
    raw = memoryview(buffer)
    try:
        return raw, raw.cast("B")
    except BaseException:
        raw.release()
        raise


class _AttachSource:
    """The buffer a handle came from, and (from the first region handed out) its hold on it."""

    __slots__ = ("buffer", "held")

    def __init__(self, buffer):
        self.buffer, self.held = buffer, None

    def hold(self):
        if self.held is None:
            self.held = _Mem(self.buffer)
        return self.held

    def release(self):
        if self.held is not None:
            self.held.release()
            self.held = None


class _AttachHandle:
    """What every handle of attach has: where its image or block starts (offset, from
    the buffer's start), its extent, each row's (offset, size) or None when absent, the
    writer's value of each geometry field of its table (None where its row is absent), its
    name prefix in errors ("" or "bot_blocks[7].") and the producer's minor version."""

    __slots__ = ("_source", "_offset", "_extent", "_spans", "_values", "_path", "_minor", "_laid_out")
    _rows = ()
    _table = 0

    def __init__(self, source, offset, extent, spans, values, path, minor):
        self._source, self._offset, self._extent = source, offset, extent
        self._spans, self._values, self._path, self._minor = spans, values, path, minor
        # The host's own handle (produce's): the image it laid out, which its blocks are
        # placed by and its views read their geometry from, never the bytes a client can write.
        self._laid_out = None

    @property
    def offset(self):
        """Where it starts, in bytes from the buffer's start."""
        return self._offset

    @property
    def extent(self):
        """The bytes it spans, as its header says."""
        return self._extent

    @property
    def rows(self):
        """The names of its rows, in table order."""
        return self._rows

    def region(self, name):
        """(offset from the buffer's start, size) of the region name, or None when absent;
        KeyError for a name that is not a row."""
        if name not in self._rows:
            raise KeyError(name)
        span = self._spans[self._rows.index(name)]
        return None if span is None else (self._offset + span[0], span[1])

    def release(self):
        """Lets go of the buffer, for this handle, its blocks and every region handed out."""
        self._source.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.release()

    def _bytes(self, pos):
        span = self._spans[pos]
        if span is None:
            return None
        start = self._offset + span[0]
        return self._source.hold().view[start : start + span[1]]

    def _view(self, pos, cls, cap=None):
        span = self._spans[pos]
        if span is None:
            return None
        length = span[1] if cap is None else min(span[1], cap)
        view = cls(self._source.hold(), self._offset + span[0], length)
        if self._laid_out is not None:
            start = self._offset + span[0]
            view._laid_out = self._laid_out[start : start + min(length, cls.SIZE)]
        return view

    def _ring(self, pos, cls, head_view, head_pos):
        span = self._spans[pos]
        head = (0, None) if head_pos is None else self._spans[head_pos]
        if span is None or head is None:
            return None
        count, size = _attach_tables[self._table].rows[pos].follows
        count = _attach_followed(cls.SLOT_COUNT, count, self._values)
        size = _attach_followed(cls.SLOT_SIZE, size, self._values)
        mem = self._source.hold()
        return cls(head_view(mem, self._offset + head[0]), mem, self._offset + span[0], count, size)

    def _block(self, pos, index):
        return _attach_check_block(self, pos, index)


class Bridge(_AttachHandle):
    """What attach returns: the layout `bridge`, a `bridge_header` and the regions its table places.

    The whole bridge: the header's table places every other region, from the start of the bridge

    producer is the producer's (major, minor); header_size and extent are what its header
    says. Release it (or use it in a with block) to let go of the buffer.
    """

    __slots__ = ("_producer", "_header_size", "_generation", "_host")
    _rows = ("header", "snapshot_ring", "client_blocks", "log_ring", "bot_blocks",)
    _table = 0

    @property
    def producer(self):
        """The producer's ABI version, (major, minor): any minor of our major."""
        return self._producer

    @property
    def header_size(self):
        """The header's bytes, as the producer wrote them."""
        return self._header_size

    @property
    def generation(self):
        """The writer's generation when attach checked the tables."""
        return self._generation

    def reloaded(self):
        """Whether the writer has reloaded (a new generation) or left running since attach:
        then the tables this handle checked may be gone, and the bot must attach again. One
        or two acquire loads; like a region, it holds the buffer until release()."""
        return _attach_reloaded(self._source.hold(), _attach_handshakes[BridgeHeader].liveness, self._generation)

    def _still_running(self):
        """reloaded() as an error (host_not_running, host_reloaded; retryable), before a block
        is handed out: a block of a reloaded host's old tables is never given. Not for the
        host's own handle (produce's): its reload and exit move no table."""
        if self._host:
            return
        _attach_unchanged(self._source.hold(), _attach_handshakes[BridgeHeader].liveness, self._generation)

    def header(self):
        """The region `header` (a `bridge_header`):
        a LiveBridgeHeader over its bytes, or None when absent.
        """
        return self._view(0, LiveBridgeHeader, self._header_size)

    def snapshot_ring(self):
        """The region `snapshot_ring` (the slots of ring `snapshot_ring`):
        a SnapshotRing over its slots, or None when absent.
        """
        return self._ring(1, SnapshotRing, LiveBridgeHeader, None)

    def client_blocks(self, index):
        """Block index of the region `client_blocks`
        (8 blocks of layout `client_block`, 65536 bytes apart, or as far apart as the host says):
        a ClientBlock, or None when the region is absent or index is not in range(8).
        The block is checked now (and on each call): AttachError naming it when it fails a
        check; other blocks are not looked at.

        Client block i belongs to client row i
        """
        return self._block(2, index)

    def log_ring(self):
        """The region `log_ring` (a `log_ring_header` and 65536 more bytes):
        a LiveLogRingHeader over its bytes, or None when absent.
        """
        return self._view(3, LiveLogRingHeader)

    def bot_blocks(self, index):
        """Block index of the region `bot_blocks`
        (8 blocks of layout `bot_block`, 299008 bytes apart):
        a BotBlock, or None when the region is absent or index is not in range(8).
        The block is checked now (and on each call): AttachError naming it when it fails a
        check; other blocks are not looked at.

        Bot block i belongs to client row i (ABI 0.5)
        """
        return self._block(4, index)


class ClientBlock(_AttachHandle):
    """A layout `client_block`, a `client_block_header` and the regions its table places.

    A client block: its table places its regions, from the start of the block
    """

    __slots__ = ()
    _rows = ("log_queue", "pad_input", "mailbox",)
    _table = 1

    def log_queue(self):
        """The region `log_queue` (a `log_queue_header` and 16384 more bytes):
        a LiveLogQueueHeader over its bytes, or None when absent.
        """
        return self._view(0, LiveLogQueueHeader)

    def pad_input(self):
        """The region `pad_input` (a `pad_input`):
        a LivePadInput over its bytes, or None when absent.
        """
        return self._view(1, LivePadInput)

    def mailbox(self):
        """The region `mailbox` (a `mailbox_header`):
        a LiveMailboxHeader over its bytes, or None when absent.

        The request and response areas follow the header; their capacities are in it
        """
        return self._view(2, LiveMailboxHeader)


class BotBlock(_AttachHandle):
    """A layout `bot_block`, a `client_block_header` and the regions its table places.

    A bot block starts with a client_block_header too, whose table is indexed by bot_region, from the start of the block
    """

    __slots__ = ()
    _rows = ("draw", "params", "stats",)
    _table = 2

    def draw(self):
        """The region `draw` (a `draw_header` and 270528 more bytes):
        a LiveDrawHeader over its bytes, or None when absent.
        """
        return self._view(0, LiveDrawHeader)

    def params(self):
        """The region `params` (a `params_header`):
        a LiveParamsHeader over its bytes, or None when absent.
        """
        return self._view(1, LiveParamsHeader)

    def stats(self):
        """The region `stats` (a `stats_header`):
        a LiveStatsHeader over its bytes, or None when absent.
        """
        return self._view(2, LiveStatsHeader)


# The layout tables, as the schema's [[layout]]s declare them (in that order).
_attach_tables = (
    _AttachTable(
        name="bridge",
        cls=Bridge,
        header="bridge_header",
        header_size=1304,
        table_offset=64,
        max_rows=8,
        row_size=8,
        row_offset=(0, 4),
        row_size_field=(4, 4),
        row_count=(28, 4),
        extent=(12, 4),
        rows=(
            _AttachRow("header", 0, None, False, 1280, 8, (), True, None, None, (None, None)),
            _AttachRow("snapshot_ring", 1, None, False, 12168, 8, (), False, None, (0, ((1, (0, 1,)),)), (0, 1)),
            _AttachRow("client_blocks", 2, None, False, 576, 8, (), False, (1, 8, 65536), (0, ((8, (3,)),)), (None, 3)),
            _AttachRow("log_ring", 3, None, False, 72, 8, (), False, None, (64, ((1, (5,)),)), (None, None)),
            _AttachRow("bot_blocks", 4, 5, False, 2392064, 8, (), False, (2, 8, 299008), None, (None, None)),
        ),
        initial=((0, 164, 4, 4294967295),),
        geometry=(
            ("ring_slots", None, (144, 4), False, 1, 1, 8),
            ("ring_slot_size", None, (148, 4), False, 12168, 8, 32768),
            ("max_clients", None, (152, 4), True, 8, 0, 8),
            ("client_block_size", None, (156, 4), False, 72, 8, 65536),
            ("client_entry_size", None, (160, 4), True, 128, 0, 128),
            ("capacity", 3, (16, 4), False, 8, 8, 65536),
        ),
    ),
    _AttachTable(
        name="client_block",
        cls=ClientBlock,
        header="client_block_header",
        header_size=72,
        table_offset=8,
        max_rows=8,
        row_size=8,
        row_offset=(0, 4),
        row_size_field=(4, 4),
        row_count=(4, 4),
        extent=(0, 4),
        rows=(
            _AttachRow("log_queue", 0, None, False, 72, 8, (), False, None, (64, ((1, (0,)),)), (None, None)),
            _AttachRow("pad_input", 1, None, False, 32, 8, (), False, None, None, (None, None)),
            _AttachRow("mailbox", 2, None, False, 66, 4, (), False, None, (64, ((1, (1,)), (1, (2,)),)), (None, None)),
        ),
        initial=(),
        geometry=(
            ("capacity", 0, (16, 4), False, 8, 8, 16384),
            ("request_capacity", 2, (24, 4), False, 1, 1, None),
            ("response_capacity", 2, (28, 4), False, 1, 1, None),
        ),
    ),
    _AttachTable(
        name="bot_block",
        cls=BotBlock,
        header="client_block_header",
        header_size=72,
        table_offset=8,
        max_rows=8,
        row_size=8,
        row_offset=(0, 4),
        row_size_field=(4, 4),
        row_count=(4, 4),
        extent=(0, 4),
        rows=(
            _AttachRow("draw", 0, None, False, 270592, 4, (), False, None, None, (None, None)),
            _AttachRow("params", 1, None, False, 8768, 8, (), False, None, None, (None, None)),
            _AttachRow("stats", 2, None, False, 4160, 8, (), False, None, None, (None, None)),
        ),
        initial=((0, 0, 4, 1),),
        geometry=(
            ("buffers", 0, (4, 4), True, 3, 0, 3),
            ("buffer_size", 0, (8, 4), True, 90176, 0, 90176),
            ("max_commands", 0, (12, 4), True, 2048, 0, 2048),
            ("max_payload", 0, (16, 4), True, 16384, 0, 16384),
            ("max_params", 1, (16, 4), True, 32, 0, 32),
            ("max_stats", 2, (8, 4), True, 64, 0, 64),
        ),
    ),
)


# The version handshakes of the extensible records, by class.
_attach_handshakes = {
    BridgeHeader: _AttachHandshake(
        BridgeHeader,
        "bridge_header",
        (0, 4, BRIDGE_MAGIC),
        (4, 2),
        (6, 2),
        (8, 4),
        1280,
        1304,
        (
            (("controls",), (0, 4), 1280, 1296),
            (("run_mode",), (0, 7), 1296, 1297),
            (("sim_state",), (0, 7), 1297, 1298),
            (("lockstep_timeout_ms",), (0, 7), 1300, 1304),
        ),
((24, 4), 1, (20, 4)),
    ),
    Snapshot: _AttachHandshake(
        Snapshot,
        "snapshot",
        (0, 4, SNAPSHOT_MAGIC),
        (4, 2),
        (6, 2),
        None,
        10088,
        12104,
        (
            (("match",), (0, 6), 10088, 10108),
            (("pickup_spawns",), (0, 6), 10108, 10364),
            (("ships_ext",), (0, 6), 10364, 10812),
            (("projectiles_ext",), (0, 6), 10812, 11836),
            (("spawn_markers",), (0, 9), 11840, 12096),
            (("spawn_marker_count",), (0, 9), 12096, 12097),
        ),
None,
    ),
}


def _attach_producer(mv, h):
    """The handshake's first checks, in ATTACH.md's order for attach: the magic (when the
    bytes hold it), the bytes every producer writes, the major version. Returns (major, minor)."""
    n = len(mv)
    if h.magic is not None:
        offset, width, value = h.magic
        if n < offset + width:
            raise AttachError("mapping_too_short", "", h.base_size, n)
        found = _attach_read(mv, 0, (offset, width))
        if found != value:
            raise AttachError("bad_magic", "", value, found)
    if n < h.base_size:
        raise AttachError("mapping_too_short", "", h.base_size, n)
    major = _attach_read(mv, 0, h.major)
    if major != ABI_VERSION_MAJOR:
        raise AttachError("major_mismatch", "", ABI_VERSION_MAJOR, major)
    return major, _attach_read(mv, 0, h.minor)


def _attach_acquire(mem, word):
    """The unsigned field word = (offset, width) of the root header, with an acquire load of
    the live layer (what the writer stored before its release store of it is then visible)."""
    return _load(mem, word[0], word[1], _ACQUIRE)


def _attach_state_first(mem, liveness, n):
    """The writer's state, loaded first of all (acquire), so that the magic, the version and
    the tables read after it are what the writer stored before running; None when there is
    none, or the buffer does not hold it (then the version checks fail first)."""
    if liveness is None or n < liveness[0][0] + liveness[0][1]:
        return None
    return _attach_acquire(mem, liveness[0])


def _attach_live(mem, liveness, found):
    """ATTACH.md's state check: the writer's state found (loaded first) must be running;
    returns its generation (acquire), or None when the handshake names none."""
    if liveness is None:
        return None
    _state, running, generation = liveness
    if found != running:
        raise AttachError("host_not_running", "", running, found)
    return None if generation is None else _attach_acquire(mem, generation)


def _attach_unchanged(mem, liveness, before):
    """After every table was read: the state still running and the generation the same, so
    no reload began while attach read (the acquire fence orders the table reads before
    these loads, as a seqlock reader's)."""
    if liveness is None:
        return
    state, running, generation = liveness
    _fence(_ACQUIRE)
    found = _attach_acquire(mem, state)
    if found != running:
        raise AttachError("host_not_running", "", running, found)
    if generation is not None:
        now = _attach_acquire(mem, generation)
        if now != before:
            raise AttachError("host_reloaded", "", before, now)


def _attach_reloaded(mem, liveness, before):
    """Whether the writer's state (acquire) is no longer running, or its generation differs."""
    if liveness is None:
        return False
    state, running, generation = liveness
    if _attach_acquire(mem, state) != running:
        return True
    return generation is not None and _attach_acquire(mem, generation) != before


def attach(buffer):
    """Checks that buffer (an mmap, a read-only one included, a bytearray, bytes, a
    memoryview) holds a `bridge` we can read, as abi-codegen's ATTACH.md says, and returns
    its Bridge. AttachError (a ValueError) names the first check that fails.

    The handle holds the buffer from the first region or block it hands out (or reloaded())
    until release().
    """
    h, table = _attach_handshakes[BridgeHeader], _attach_tables[0]
    raw, mv = _attach_flat(buffer)
    mem = None
    try:
        n = len(mv)
        if h.liveness is not None:
            mem = _Mem(buffer)
        loads = mem
        state = _attach_state_first(loads, h.liveness, n)
        major, minor = _attach_producer(mv, h)
        generation = _attach_live(loads, h.liveness, state)
        header_size = _attach_read(mv, 0, h.size) if h.size is not None else h.base_size
        if header_size < h.base_size:
            raise AttachError("header_too_small", "", h.base_size, header_size)
        if header_size > n:
            raise AttachError("header_beyond_mapping", "", n, header_size)
        extent = _attach_read(mv, 0, table.extent) if table.extent is not None else n
        if extent > n:
            raise AttachError("extent_beyond_mapping", "", n, extent)
        if extent < header_size:
            raise AttachError("extent_too_small", "", header_size, extent)
        handle = _attach_check_table(mv, 0, 0, extent, header_size, "", minor, _AttachSource(buffer))
        _attach_unchanged(loads, h.liveness, generation)
        handle._producer, handle._header_size, handle._generation = (major, minor), header_size, generation
        handle._host = False
        return handle
    finally:
        mv.release()
        raw.release()
        if mem is not None:
            mem.release()


# Producing an image ----------------------------------------------------------------------
#
# lay_out(geometry, generation) lays out a new image of the root layout from the same
# tables attach checks (abi-codegen's ATTACH.md, "Producing an image"): every row placed after the
# last at its alignment and sized for the geometry, each block laid out by its table, the
# row counts, extents, handshake, generation and geometry fields, the state not running. It
# returns a bytearray, checked as attach (and every block) will check it; a value that
# breaks a geometry rule raises AttachError naming the check. geometry maps
# "<header or row>.<field>" to a value; any other field takes the schema's. The Rust and C
# producers write the same bytes. produce(buffer, image) writes it into the live
# mapping: the state not running (release), a release fence, the bytes, then running
# (release); it returns the attached handle.


class ProduceError(ValueError):
    """Why an image could not be laid out or written: kind is unknown_geometry (region: the
    name given), geometry_needed (no constant sizes the field and no value was given),
    too_large (a number does not fit its field: expected is the width, found the number),
    block_too_small (a block's rows need found bytes, its stride is expected) or
    buffer_too_short (the image is expected bytes, the buffer found)."""

    def __init__(self, kind, region="", expected=None, found=None):
        self.kind, self.region, self.expected, self.found = kind, region, expected, found
        numbers = "" if expected is None else " (expected %d, found %d)" % (expected, found)
        super().__init__("produce: %s: %s%s" % (kind, region, numbers))


def _produce_put(image, base, word, value, what):
    """Writes value into the field word = (offset, width) of the record at base."""
    offset, width = word
    if value >> (8 * width):
        raise ProduceError("too_large", what, width, value)
    at = base + offset
    if len(image) < at + width:
        image.extend(bytes(at + width - len(image)))
    image[at : at + width] = value.to_bytes(width, "little")


def _produce_table(image, t, base, stride, path, given):
    """Lays out table t at base: a block stride bytes long, or the root (stride None)."""
    table = _attach_tables[t]
    values = []
    for name, pos, _word, _equal, _a, _b, default in table.geometry:
        key = "%s.%s" % (table.header if pos is None else table.rows[pos].name, name)
        value = given.get(key, default)
        if value is None:
            raise ProduceError("geometry_needed", key)
        values.append(value)
    end, places = table.header_size, []
    for row in table.rows:
        if row.holds_header:
            places.append((0, table.header_size))
            continue
        size = row.min_size if row.need is None else max(row.min_size, _attach_need(row.need, values))
        at = base + end
        at += -at % max(row.align, 1)
        at -= base
        if at >> (8 * table.row_offset[1]) or size >> (8 * table.row_size_field[1]):
            raise ProduceError("too_large", path + row.name, table.row_size_field[1], size)
        places.append((at, size))
        end = at + size
    if stride is not None and end > stride:
        raise ProduceError("block_too_small", path.rstrip("."), stride, end)
    extent = end if stride is None else stride
    if table.extent is not None:
        _produce_put(image, base, table.extent, extent, "%s%s.extent" % (path, table.header))
    if len(image) < base + extent:
        image.extend(bytes(base + extent - len(image)))
    if table.row_count is not None:
        _produce_put(image, base, table.row_count, max((r.index + 1 for r in table.rows), default=0), path + table.header)
    for row, (at, size) in zip(table.rows, places):
        entry = base + table.table_offset + row.index * table.row_size
        _produce_put(image, entry, table.row_offset, at, path + row.name)
        _produce_put(image, entry, table.row_size_field, size, path + row.name)
    for (name, pos, word, _equal, _a, _b, _default), value in zip(table.geometry, values):
        owner, at = (table.header, base) if pos is None else (table.rows[pos].name, base + places[pos][0])
        _produce_put(image, at, word, value, "%s%s.%s" % (path, owner, name))
    for pos, offset, width, value in table.initial:
        # A protocol word that starts at a value of its own: an exchange's state, an unbound pad.
        _produce_put(image, base + places[pos][0], (offset, width), value, path + table.rows[pos].name)
    for pos, row in enumerate(table.rows):
        if row.blocks is None:
            continue
        inner, n, step = row.blocks
        step = _attach_followed(step, row.follows[1], values)
        for k in range(n):
            _produce_table(image, inner, base + places[pos][0] + k * step, step, "%s%s[%d]." % (path, row.name, k), given)


def _produce_every_block(handle):
    """Checks every block of handle's table, and theirs (AttachError for the first that fails)."""
    table = _attach_tables[type(handle)._table]
    for pos, row in enumerate(table.rows):
        if row.blocks is None or handle._spans[pos] is None:
            continue
        for k in range(row.blocks[1]):
            block = _attach_check_block(handle, pos, k)
            if block is not None:
                _produce_every_block(block)


def lay_out(geometry=None, generation=1):
    """A new image of `bridge` (see "Producing an image" above), as a bytearray the
    size of the mapping it needs. geometry: {"<header or row>.<field>": value, ...}."""
    given = dict(geometry or {})
    known = set()
    for table in _attach_tables:
        for name, pos, *_rest in table.geometry:
            known.add("%s.%s" % (table.header if pos is None else table.rows[pos].name, name))
    for key in given:
        if key not in known:
            raise ProduceError("unknown_geometry", key)
    h, table = _attach_handshakes[BridgeHeader], _attach_tables[0]
    image = bytearray(table.header_size)
    _produce_table(image, 0, 0, None, "", given)
    if h.magic is not None:
        _produce_put(image, 0, h.magic[:2], h.magic[2], h.name)
    _produce_put(image, 0, h.major, ABI_VERSION_MAJOR, h.name)
    _produce_put(image, 0, h.minor, ABI_VERSION_MINOR, h.name)
    if h.size is not None:
        _produce_put(image, 0, h.size, table.header_size, h.name)
    if h.liveness is not None and h.liveness[2] is not None:
        _produce_put(image, 0, h.liveness[2], generation, h.name)
    # Checked as a reader will see it: running, every block.
    if h.liveness is not None:
        _produce_put(image, 0, h.liveness[0], h.liveness[1], h.name)
    with attach(image) as handle:
        _produce_every_block(handle)
    if h.liveness is not None:
        _produce_put(image, 0, h.liveness[0], 0 if h.liveness[1] else 1, h.name)
    return image


def stamp_identity(image, version="", pid=None, mono_ns=None, unix_ns=None):
    """Stamps an image from lay_out with who produced it, before produce: the process id
    (os.getpid() by default), the version string (NUL-padded), and the clock pair read one
    right after the other (time.perf_counter_ns(): CLOCK_MONOTONIC on Linux,
    QueryPerformanceCounter on Windows; time.time_ns(): Unix time), where the handshake
    names them. ProduceError too_large (nothing written) when the version has no room for
    its NUL."""
    fields = ((16, 4), (32, 32), (128, 8), (136, 8))
    text = version.encode() if isinstance(version, str) else bytes(version)
    (v_at, v_len) = fields[1]
    if v_len and (len(text) >= v_len or b"\0" in text):
        raise ProduceError("too_large", "producer_version", v_len - 1, len(text))
    if len(image) < max(at + width for at, width in fields):
        raise ProduceError("buffer_too_short", "", max(at + width for at, width in fields), len(image))
    import os

    mono = time.perf_counter_ns() if mono_ns is None else mono_ns
    unix = time.time_ns() if unix_ns is None else unix_ns
    values = (os.getpid() if pid is None else pid, None, mono, unix & 0xFFFFFFFFFFFFFFFF)
    if v_len:
        image[v_at : v_at + v_len] = text + bytes(v_len - len(text))
    for (at, width), value in zip(fields, values):
        if width and value is not None:
            image[at : at + width] = (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")


# Each session row's word that holds its generation: (offset, bytes, the generation's first
# byte in it), ascending; produce carries each past the mapping's.
_produce_carried = (
    (256, 8, 4),
    (384, 8, 4),
    (512, 8, 4),
    (640, 8, 4),
    (768, 8, 4),
    (896, 8, 4),
    (1024, 8, 4),
    (1152, 8, 4),
)


def produce(buffer, image):
    """Writes an image from lay_out into buffer (a writable mmap of the new shared memory),
    as start-up and reload ask (see above), and attaches to it. One producer at a time. The
    handle is the host's own: its blocks are handed out whatever the host's state and
    generation (its reload and exit move no table); a re-layout produces a new one."""
    h = _attach_handshakes[BridgeHeader]
    mem = _Mem(buffer)
    try:
        if mem.size < len(image):
            raise ProduceError("buffer_too_short", "", len(image), mem.size)
        generation = None
        held = True
        if h.liveness is not None and h.liveness[2] is not None:
            # A re-layout of a mapping that already holds an image is a reload: the
            # generation goes past the mapping's (the image's when greater, else the
            # mapping's + 1, wrapping).
            g_at, g_width = h.liveness[2]
            old = _load(mem, g_at, g_width)
            held = old != 0
            generation = int.from_bytes(bytes(image[g_at : g_at + g_width]), "little")
            if generation <= old:
                generation = (old + 1) & ((1 << (8 * g_width)) - 1)
        if h.liveness is not None:
            (offset, width), running = h.liveness[0], h.liveness[1]
            _store(mem, offset, width, 0 if running else 1, _RELEASE)
            _fence(_RELEASE)
        # When the mapping holds an image (its generation is not 0), every session row's
        # generation goes past the mapping's too (the image's when greater, else the
        # mapping's + 1), so no claim made on the old image matches a row of the new one.
        # Each word that holds one (offset, bytes, the generation's first byte) is written
        # whole, with one atomic store of its own size, between the bytes around it.
        done = 0
        for at, size, lane in _produce_carried:
            if at + size > len(image):
                break
            word = int.from_bytes(bytes(image[at : at + size]), "little")
            wanted = (word >> (8 * lane)) & 0xFFFFFFFF
            old = (_load(mem, at, size) >> (8 * lane)) & 0xFFFFFFFF
            if held and wanted <= old:
                wanted = (old + 1) & 0xFFFFFFFF
            word = (word & ~(0xFFFFFFFF << (8 * lane))) | (wanted << (8 * lane))
            mem.view[done:at] = image[done:at]
            _store(mem, at, size, word, _RELAXED)
            done = at + size
        mem.view[done : len(image)] = image[done:]
        if generation is not None:
            _store(mem, g_at, g_width, generation, _RELEASE)
        if h.liveness is not None:
            _store(mem, offset, width, running, _RELEASE)
    finally:
        mem.release()
    handle = attach(buffer)
    # The host's own handle: its blocks stay its own through its reloads and exit, and it keeps
    # the image: its tables and its side's geometry are the image's, never the mapping's.
    handle._host = True
    handle._laid_out = bytes(image)
    return handle


class VersionedRecord:
    """An extensible record read by its producer's size (read_versioned).

    value: the record as its class (a ctypes copy), zero-extended, the fields the producer
    did not write zero; producer: its (major, minor); size: the bytes it holds; extra: the
    bytes past our record (a newer producer's fields), b"" when none; absent: the names of
    the fields it lacks. record.field reads value.field, and None for an absent field; a
    field named like one of these attributes reads from value.
    """

    __slots__ = ("value", "producer", "size", "extra", "absent")

    def __init__(self, value, producer, size, extra, absent):
        self.value, self.producer, self.size, self.extra, self.absent = value, producer, size, extra, absent

    def __class_getitem__(cls, record):
        """VersionedRecord[cls], the type the stub gives read_versioned(cls, buffer), in an
        annotation Python evaluates: the class itself."""
        return cls

    def __getattr__(self, name):
        if name in VersionedRecord.__slots__ or name.startswith("__"):
            raise AttributeError(name)
        if name in self.absent:
            return None
        return getattr(self.value, name)

    def __repr__(self):
        return "%s(%s, producer=%d.%d, size=%d, extra=%d bytes, absent=%s)" % (
            type(self).__name__, type(self.value).__name__, self.producer[0], self.producer[1],
            self.size, len(self.extra), sorted(self.absent),
        )


def read_versioned(cls, buffer):
    """Reads the extensible record cls (BridgeHeader, Snapshot) from the start of buffer by
    its producer's size, as a VersionedRecord: a shorter record (an older producer's)
    zero-extended, the fields it lacks None; a longer one (a newer producer's) read as the
    part we know, its extra bytes kept. AttachError when buffer is shorter than every
    producer writes (mapping_too_short), or the magic (bad_magic) or the major version
    (major_mismatch) is wrong; TypeError when cls has no version handshake.
    """
    h = _attach_handshakes.get(cls)
    if h is None:
        raise TypeError("%r has no version handshake; %s reads %s" % (
            cls, "read_versioned", ", ".join(sorted(c.__name__ for c in _attach_handshakes))))
    raw, mv = _attach_flat(buffer)
    try:
        n = len(mv)
        major, minor = _attach_producer(mv, h)
        if h.size is not None:
            size = min(_attach_read(mv, 0, h.size), n)
        elif minor > ABI_VERSION_MINOR:
            size = n
        else:
            size = min(h.size_at(major, minor), n)
        data = bytearray(mv[: min(size, h.full_size)]).ljust(h.full_size, b"\0")
        extra = bytes(mv[h.full_size : size])
    finally:
        mv.release()
        raw.release()
    absent = set()
    for names, since, offset, end in h.added:
        if not (since[0] == major and since[1] <= minor and end <= size):
            data[offset:end] = bytes(end - offset)
            absent.update(names)
    return VersionedRecord(cls.from_buffer_copy(data), (major, minor), size, extra, frozenset(absent))


BridgeHeader.read_versioned = classmethod(read_versioned)


Snapshot.read_versioned = classmethod(read_versioned)



# Encoded files ---------------------------------------------------------------------------
#
# A reader and a writer per file format of the schema whose records are encoded:
# IbfrecReader and IbfrecWriter (ibfrec).
#
# The reader opens a path, a binary file object (read and seek) or bytes. It finds every
# record where the format says, checks each length against the file's size before reading
# it, and lists what it finds wrong in .issues (FileIssues) rather than raising: a record
# that does not hold its expected values is not followed, and when the records that place
# the zlib streams are missing (a file cut short), the streams are found by walking
# from the end of the first record. Iterating it inflates one stream at a time with zlib
# (never past the raw size its header declares) and yields each record's header, its
# decoded struct and the extras after it, all copies; seek_<key>(n) inflates only the
# stream whose bounds hold n. It raises only FileFormatError (a ValueError), when the input
# cannot be read at all (not a file, or its first record missing or wrong).
#
# The writer writes the first record, then one zlib stream per chunk of pushed records:
# the first of each stream as is, then XORed with the record before it (a record as is
# again every keyframe_every records, and whenever its length changes); flush() closes
# the current stream, so that a reader recovers everything flushed by walking; finish()
# (or leaving a with block) writes the records after the streams and the last one. It
# fills every field the format ties: expected constants, offsets, sizes, counts, totals,
# the streams' key bounds, a record's fields tied to its decoded struct's (`same`); an
# index entry's other fields come from the fields of the record it places that the format
# names (`indexed`).
#
#     import bridge
#
#     with bridge.IbfrecReader(path) as rec:
#         for head, snapshot, extras in rec:
#             ...
#         one = rec.seek_tick(1000)  # None when no record has that key
#         print(rec.issues)
#
#     with bridge.IbfrecWriter(path, bridge.RecFileHeader()) as w:
#         w.push(bridge.RecTickHeader(), bridge.Snapshot(), b"extras")

import os as _os
import zlib as _zlib


class FileFormatError(ValueError):
    """A file that cannot be read at all, or a value a writer cannot store."""


class FileIssue(tuple):
    """One problem a reader found: (offset, path, message). offset is from the file's start,
    or, with a path inside a stream, from the start of the inflated stream."""

    __slots__ = ()

    def __new__(cls, offset, path, message):
        return tuple.__new__(cls, (offset, path, message))

    @property
    def offset(self):
        return self[0]

    @property
    def path(self):
        return self[1]

    @property
    def message(self):
        return self[2]

    def __repr__(self):
        return "FileIssue(%d, %r, %r)" % self

    def __str__(self):
        return "%s @%#x: %s" % (self[1], self[0], self[2])


# The largest stream a reader inflates and a writer writes, whatever a header says.
_FILE_MAX_INFLATED = 268435456
# The most copies of one record a reader reads from a count.
_FILE_MAX_COPIES = 1048576


def _file_get(buf, at, width, offset=0):
    return int.from_bytes(buf[offset + at:offset + at + width], "little")


def _file_put(buf, word, value, what):
    at, width = word
    if not 0 <= value < 1 << (8 * width):
        raise FileFormatError("%s: %d does not fit in %d bytes" % (what, value, width))
    buf[at:at + width] = value.to_bytes(width, "little")


def _file_holds(bytes_, expects):
    return all(_file_get(bytes_, at, width) == value for at, width, value in expects)


class _FileSource:
    """Random access to the input: a file read at ranges, or bytes."""

    def __init__(self, source):
        self.owned = None
        self.mem = None
        try:
            if isinstance(source, (str, _os.PathLike)):
                self.f = self.owned = open(source, "rb")
            elif hasattr(source, "read") and hasattr(source, "seek"):
                self.f = source
            else:
                # Bytes, or any buffer: read in place, none copied whole.
                try:
                    self.mem = memoryview(source).cast("B")
                except TypeError:
                    raise FileFormatError(
                        "a path, a binary file object or bytes, not %s" % type(source).__name__
                    ) from None
                self.size = len(self.mem)
                return
            self.f.seek(0, 2)
            self.size = self.f.tell()
            if not isinstance(self.size, int):
                raise FileFormatError("cannot tell the input's size")
        except (OSError, ValueError, TypeError) as e:
            if isinstance(e, FileFormatError):
                raise
            raise FileFormatError("cannot read the input: %s" % e) from e

    def read_at(self, offset, n):
        """The n bytes at offset, or None when they are not all there."""
        if offset < 0 or n < 0 or offset + n > self.size:
            return None
        if self.mem is not None:
            return bytes(self.mem[offset:offset + n])
        try:
            self.f.seek(offset)
            out = self.f.read(n)
        except (OSError, ValueError) as e:
            raise FileFormatError("cannot read the input: %s" % e) from e
        return out if isinstance(out, bytes) and len(out) == n else None

    def close(self):
        if self.owned is not None:
            self.owned.close()
            self.owned = None
        if self.mem is not None:
            self.mem.release()
            self.mem = None
            self.size = 0


class _FileReader:
    """The reader over one format (_FORMAT, set by each reader class)."""

    _FORMAT = None

    def __init__(self, source):
        self._src = _FileSource(source)
        self.issues = []
        self._seen = set()
        self.walked = False
        fmt = self._FORMAT
        self._copies = []
        self._ends = {}
        try:
            for i, rec in enumerate(fmt["records"]):
                self._copies.append(self._place(i, rec))
            first = self._copies[0]
            if not first or not first[0][2]:
                raise FileFormatError(
                    "not a `%s` file: %s" % (fmt["name"], "; ".join(str(i) for i in self.issues))
                )
            self._check_totals()
            self._check_ordered()
            self._check_overlaps()
        except BaseException:
            self._src.close()
            raise

    # -- placing the records, as the format says ----------------------------------------

    def _issue(self, offset, path, message):
        key = (offset, path, message)
        if key not in self._seen:
            self._seen.add(key)
            self.issues.append(FileIssue(offset, path, message))

    def _field(self, ref):
        """(value, None) of a field of the first copy of an earlier record, or (None, why)."""
        ri, at, width = ref
        name = self._FORMAT["records"][ri]["name"]
        copies = self._copies[ri]
        if not copies:
            return None, "`%s` is missing" % name
        if not copies[0][2]:
            return None, "`%s` does not hold its expected values" % name
        return _file_get(copies[0][1], at, width), None

    def _missing(self, rec, why):
        self._issue(0, rec["name"], "not found: " + why)
        return None

    def _copy_at(self, rec, offset, path):
        data = self._src.read_at(offset, rec["size"])
        if data is None:
            self._issue(
                offset,
                path,
                "%d bytes at %#x lie past the end of the file (%d bytes)"
                % (rec["size"], offset, self._src.size),
            )
            return None
        valid = _file_holds(data, rec["expect"])
        if not valid:
            self._issue(offset, path, "does not hold its expected values")
        return (offset, data, valid)

    def _place(self, ri, rec):
        """A record's copies [(offset, bytes, valid)], or None when it cannot be found."""
        kind = rec["place"][0]
        if kind == "zlib":
            return []
        if kind == "each":
            return self._place_each(rec)
        if kind == "at":
            start = rec["place"][1]
        elif kind == "end":
            start = self._src.size - rec["place"][1]
            if start < 0:
                return self._missing(
                    rec, "the file (%d bytes) is shorter than %d bytes" % (self._src.size, rec["place"][1])
                )
        elif kind == "field":
            start, why = self._field(rec["place"][1])
            if why:
                return self._missing(rec, why)
        else:
            start = self._ends.get(rec["place"][1])
            if start is None:
                return self._missing(rec, "`%s` is missing" % self._FORMAT["records"][rec["place"][1]]["name"])
        count = 1
        if rec["count"] is not None:
            count, why = self._field(rec["count"])
            if why:
                return self._missing(rec, why)
            room = max(self._src.size - start, 0) // rec["size"]
            if count > room:
                self._issue(
                    start,
                    rec["name"],
                    "%d records of %d bytes from %#x do not fit in the file (%d whole ones do)"
                    % (count, rec["size"], start, room),
                )
                count = room
            count = min(count, _FILE_MAX_COPIES)
        copies = []
        for i in range(count):
            path = rec["name"] if rec["count"] is None else "%s[%d]" % (rec["name"], i)
            c = self._copy_at(rec, start + i * rec["size"], path)
            if c is not None:
                copies.append(c)
        if rec["count"] is None and not copies:
            return None
        self._ends[ri] = start + count * rec["size"]
        return copies

    def _place_each(self, rec):
        ri, at, width = rec["place"][1]
        index = self._copies[ri]
        if index is None or (not index and rec["walk"] is not None):
            why = "`%s` is missing" % self._FORMAT["records"][ri]["name"]
            if rec["walk"] is None:
                return self._missing(rec, why)
            return self._walk(rec, why)
        copies = []
        for i, (_, data, valid) in enumerate(index):
            path = "%s[%d]" % (rec["name"], i)
            if not valid:
                self._issue(0, path, "not found: its index entry does not hold its expected values")
                continue
            c = self._copy_at(rec, _file_get(data, at, width), path)
            if c is not None:
                copies.append(c)
        return copies

    def _walk(self, rec, why):
        fmt = self._FORMAT
        origin = self._copies[rec["walk"]]
        if not origin or not origin[0][2]:
            return self._missing(rec, why + ", and the record to walk from too")
        pos = origin[-1][0] + fmt["records"][rec["walk"]]["size"]
        self.walked = True
        self._issue(pos, rec["name"], why + ": found by walking from the end of `%s`" % fmt["records"][rec["walk"]]["name"])
        stored = fmt["zlib"]["stored"]
        copies = []
        while pos < self._src.size:
            path = "%s[%d]" % (rec["name"], len(copies))
            if self._src.size - pos < rec["size"]:
                self._issue(pos, path, "the walk stops: the file ends %d bytes into a record" % (self._src.size - pos))
                break
            c = self._copy_at(rec, pos, path)
            if c is None or not c[2]:
                self._issue(pos, path, "the walk stops: the bytes at %#x are not a record" % pos)
                break
            copies.append(c)
            pos += rec["size"] + _file_get(c[1], *stored)
        return copies

    def _check_totals(self):
        for total, kind, ref, text in self._FORMAT["totals"]:
            want, why = self._field(total)
            if why:
                continue
            if kind in ("first", "last") and ref[0] == self._FORMAT["zlib"]["record"]:
                # A streamed record's key: the first stream's first bound, or the last
                # stream's last (the records themselves are decoded only when read).
                got = self._stream_bound(kind, ref)
                if got is None:
                    continue
                if got != want:
                    holder = self._copies[total[0]][0]
                    self._issue(holder[0] + total[1], text[0], "holds %d, but %s %s %d" % (want, text[1], "starts at" if kind == "first" else "ends at", got))
                continue
            copies = self._copies[ref if kind == "count" else ref[0]]
            if copies is None:
                continue
            if kind == "sum":
                got = sum(_file_get(c[1], ref[1], ref[2]) for c in copies)
            elif kind == "count":
                got = len(copies)
            else:
                pick = (copies[0] if kind == "first" else copies[-1]) if copies else None
                got = _file_get(pick[1], ref[1], ref[2]) if pick else 0
            if got != want:
                holder = self._copies[total[0]][0]
                verb = {"sum": "sums to", "count": "counts", "first": "starts at", "last": "ends at"}[kind]
                self._issue(holder[0] + total[1], text[0], "holds %d, but %s %s %d" % (want, text[1], verb, got))

    def _stream_bound(self, kind, ref):
        """The first or last key of the streamed records from the streams' bounds (0 when
        there is no stream), or None when the field is not the key the bounds hold."""
        fmt = self._FORMAT
        z = fmt["zlib"]
        seek = fmt["seek"]
        if not z["bounds"] or not seek or tuple(seek["key"]) != (ref[1], ref[2]):
            return None
        heads = [c for c in self._copies[z["source"]] or () if c[2]]
        if not heads:
            return 0
        if kind == "first":
            return _file_get(heads[0][1], *z["bounds"][0])
        return _file_get(heads[-1][1], *z["bounds"][1])

    def _check_ordered(self):
        for ri, at, width, text in self._FORMAT["ordered"]:
            prev = None
            for offset, data, valid in self._copies[ri] or ():
                value = _file_get(data, at, width)
                if prev is not None and value <= prev:
                    self._issue(offset + at, text, "%d follows %d: out of order" % (value, prev))
                prev = value

    def _check_overlaps(self):
        """Every two records (a stream with the record it follows) that share bytes."""
        fmt = self._FORMAT
        z = fmt["zlib"]
        spans = []
        for ri, copies in enumerate(self._copies):
            rec = fmt["records"][ri]
            for i, (offset, data, valid) in enumerate(copies or ()):
                if valid:
                    end = offset + rec["size"]
                    if ri == z["source"]:
                        end += _file_get(data, *z["stored"])
                    path = rec["name"] if rec["count"] is None and ri != z["source"] else "%s[%d]" % (rec["name"], i)
                    spans.append((offset, end, path))
        spans.sort()
        reach = None
        for start, end, path in spans:
            if reach is not None and start < reach[1]:
                self._issue(start, path, "%#x..%#x overlaps %s (%#x..%#x)" % (start, end, reach[2], reach[0], reach[1]))
            if reach is None or end > reach[1]:
                reach = (start, end, path)

    # -- the records of the streams --------------------------------------------------------

    def _single(self, ri):
        copies = self._copies[ri]
        if not copies or not copies[0][2]:
            return None
        return self._FORMAT["records"][ri]["cls"].from_buffer_copy(copies[0][1])

    def _many(self, ri):
        rec = self._FORMAT["records"][ri]
        return [rec["cls"].from_buffer_copy(c[1]) for c in self._copies[ri] or () if c[2]]

    def _streams(self):
        """(index, offset, header bytes) of every stream header that holds its expected
        values, each offset once (an index that names one stream many times gets it read
        once, and the overlap reported)."""
        z = self._FORMAT["zlib"]
        seen = set()
        out = []
        for i, (offset, data, valid) in enumerate(self._copies[z["source"]] or ()):
            if valid and offset not in seen:
                seen.add(offset)
                out.append((i, offset, data))
        return out

    def _inflate(self, n, offset, head):
        """The inflated bytes of stream n and whether the stream is whole; a stream cut short
        gives the bytes it inflates to (a prefix of the records, exact); None (with an
        issue) when they cannot be had or cannot be trusted (a corrupt stream, one that
        inflates past its raw size)."""
        z = self._FORMAT["zlib"]
        path = "%s[%d]" % (self._FORMAT["records"][z["source"]]["name"], n)
        size = self._FORMAT["records"][z["source"]]["size"]
        start = offset + size
        stored = _file_get(head, *z["stored"])
        raw = _file_get(head, *z["raw"])
        if raw > _FILE_MAX_INFLATED:
            self._issue(offset, path, "raw size %d is past the largest this reader inflates (%d)" % (raw, _FILE_MAX_INFLATED))
            return None
        present = min(stored, max(self._src.size - start, 0))
        if present < stored:
            self._issue(start, path, "its stream of %d bytes runs past the end of the file (%d bytes): %d bytes are there" % (stored, self._src.size, present))
        # Deflate adds at most 5 bytes per 16 KiB stored block, zlib 6: a longer stream for
        # its raw size is not read further.
        bound = raw + raw // 1024 + 64
        if present > bound:
            self._issue(start, path, "its stream of %d bytes is longer than one of %d raw bytes can be: the first %d are read" % (stored, raw, bound))
            present = bound
        data = self._src.read_at(start, present)
        if data is None:
            return None
        d = _zlib.decompressobj()
        try:
            out = d.decompress(data, raw + 1)
        except _zlib.error as e:
            self._issue(start, path, "its stream does not inflate: %s" % e)
            return None
        if len(out) > raw:
            self._issue(start, path, "its stream inflates past its raw size %d" % raw)
            return None
        if not d.eof:
            self._issue(start, path, "its stream ends early (%d of %d bytes inflated): the whole records in those are read" % (len(out), raw))
            return out, False
        if d.unused_data:
            self._issue(start, path, "%d bytes follow the end of its stream" % len(d.unused_data))
        if len(out) != raw:
            self._issue(start, path, "its stream inflates to %d bytes, its raw size says %d" % (len(out), raw))
        return out, True

    def _records(self, n, offset, head):
        """Yields (key, header bytes, decoded bytes, record) of each record of stream n."""
        fmt = self._FORMAT
        z = fmt["zlib"]
        enc = z["encoding"]
        rec = fmt["records"][z["record"]]
        rsize = rec["size"]
        path0 = "%s[%d]" % (rec["name"], n)
        spath = "%s[%d]" % (fmt["records"][z["source"]]["name"], n)
        inflated = self._inflate(n, offset, head)
        if inflated is None:
            return
        raw, whole_stream = inflated
        count = _file_get(head, *z["count"]) if z["count"] else None
        pos = 0
        prev = prev_int = None
        i = 0
        first = last = None
        while pos < len(raw) and (count is None or i < count):
            path = "%s[%d]" % (path0, i)
            if len(raw) - pos < rsize:
                self._issue(pos, path, "the stream ends %d bytes into a record" % (len(raw) - pos))
                pos = len(raw)
                break
            h = raw[pos:pos + rsize]
            data_size = _file_get(h, *z["data"]) if z["data"] else 0
            whole = _file_get(h, *z["size"]) if z["size"] else rsize + data_size
            if whole != rsize + data_size:
                self._issue(pos, path, "size %d, but the record and its data are %d bytes" % (whole, rsize + data_size))
                pos = len(raw)
                break
            if pos + whole > len(raw):
                self._issue(pos, path, "its %d bytes run past the end of the stream" % whole)
                pos = len(raw)
                break
            data = raw[pos + rsize:pos + whole]
            key = _file_get(h, *fmt["seek"]["key"]) if fmt["seek"] else i
            first = key if first is None else first
            last = key
            step = enc["steps"].get(_file_get(h, *enc["kind"]))
            decoded = None
            if step is None:
                self._issue(pos, path, "kind %d is not one the format lists" % _file_get(h, *enc["kind"]))
            elif step == "plain":
                decoded = data
            elif prev is None:
                self._issue(pos, path, "encoded against the record before it, and none decoded before it in its stream")
            elif len(prev) != len(data):
                self._issue(pos, path, "data of %d bytes encoded against %d bytes before it" % (len(data), len(prev)))
            else:
                # XOR as one integer; the previous record's is kept from its own decoding.
                if prev_int is None:
                    prev_int = int.from_bytes(prev, "little")
                prev_int ^= int.from_bytes(data, "little")
                decoded = prev_int.to_bytes(len(data), "little")
            if step != "xor" or decoded is None:
                prev_int = None
            prev = decoded
            pos += whole
            i += 1
            if decoded is None:
                continue
            if len(decoded) < enc["decoded_size"]:
                self._issue(pos - whole, path, "%d bytes of data, shorter than the decoded struct (%d)" % (len(decoded), enc["decoded_size"]))
                continue
            if not _file_holds(decoded, enc["expect"]):
                self._issue(pos - whole, path, "the decoded struct does not hold its expected values")
            for d_at, d_width, r_at, r_width, text in enc["same"]:
                if _file_get(decoded, d_at, d_width) != _file_get(h, r_at, r_width):
                    self._issue(pos - whole, path, "%s does not hold: %s is %d, %s is %d" % (
                        text, text.split(" = ")[0], _file_get(decoded, d_at, d_width),
                        text.split(" = ")[-1], _file_get(h, r_at, r_width)))
            yield key, h, decoded, rec
        if pos < len(raw):
            self._issue(pos, path0, "%d bytes after the last record of the stream" % (len(raw) - pos))
        if count is not None and i != count and whole_stream:
            self._issue(offset, spath, "its stream holds %d records, its header says %d" % (i, count))
        bounds = z["bounds"]
        if bounds and first is not None:
            for word, want, which in ((bounds[0], first, "first"), (bounds[1], last, "last")):
                if _file_get(head, *word) != want:
                    self._issue(offset + word[0], spath, "its %s key says %d, its records %s with %d" % (which, _file_get(head, *word), "start" if which == "first" else "end", want))

    def _yield(self, h, decoded, rec):
        cls = self._FORMAT["zlib"]["encoding"]["cls"]
        size = self._FORMAT["zlib"]["encoding"]["decoded_size"]
        return (rec["cls"].from_buffer_copy(h), cls.from_buffer_copy(decoded[:size]), decoded[size:])

    def __iter__(self):
        ordered = self._FORMAT["zlib"]["ordered"]
        source = self._FORMAT["records"][self._FORMAT["zlib"]["source"]]["name"]
        prev = [None] * len(ordered)
        for n, offset, head in self._streams():
            for key, h, decoded, rec in self._records(n, offset, head):
                for i, (at, width, text) in enumerate(ordered):
                    value = _file_get(h, at, width)
                    if prev[i] is not None and value <= prev[i]:
                        self._issue(offset, "%s[%d]" % (source, n), "%s %d follows %d: out of order" % (text, value, prev[i]))
                    prev[i] = value
                yield self._yield(h, decoded, rec)

    def _seek(self, key):
        bounds = self._FORMAT["zlib"]["bounds"]
        for n, offset, head in self._streams():
            if bounds and not _file_get(head, *bounds[0]) <= key <= _file_get(head, *bounds[1]):
                continue
            for k, h, decoded, rec in self._records(n, offset, head):
                if k == key:
                    return self._yield(h, decoded, rec)
            if bounds:
                return None
        return None

    def check(self):
        """Replays every record (one stream in memory at a time) and returns .issues."""
        for _ in self:
            pass
        return self.issues

    def close(self):
        self._src.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _FileWriter:
    """The writer of one format (_FORMAT, set by each writer class)."""

    _FORMAT = None

    def __init__(self, target, first, chunk_records, keyframe_every):
        fmt = self._FORMAT
        if chunk_records is not None and chunk_records < 1:
            raise FileFormatError("chunk_%s must be at least 1" % fmt["records"][fmt["zlib"]["record"]]["name"])
        if keyframe_every is not None and keyframe_every < 1:
            raise FileFormatError("keyframe_every must be at least 1")
        self._chunk = chunk_records or fmt["chunk_default"]
        self._every = keyframe_every
        self._owned = None
        try:
            if isinstance(target, (str, _os.PathLike)):
                self._f = self._owned = open(target, "wb")
            else:
                self._f = target
        except OSError as e:
            raise FileFormatError("cannot open the output: %s" % e) from e
        self._pos = 0
        self._raw = bytearray()
        self._count = 0
        self._bounds = None
        self._prev = None
        self._pushed = 0
        self._last = None
        self._first = None
        self._streams = []
        self._extra = {i: [] for i in fmt["added"]}
        self._done = False
        try:
            self._write(self._fill(0, bytearray(bytes(first))))
        except BaseException:
            self.close()
            raise

    def _fill(self, ri, buf):
        rec = self._FORMAT["records"][ri]
        if len(buf) != rec["size"]:
            raise FileFormatError("%s: %d bytes, expected %d" % (rec["name"], len(buf), rec["size"]))
        for at, width, value in rec["expect"]:
            _file_put(buf, (at, width), value, rec["name"])
        return buf

    def _write(self, data):
        try:
            self._f.write(data)
        except OSError as e:
            raise FileFormatError("cannot write: %s" % e) from e
        self._pos += len(data)

    def push(self, record, decoded, extras=b""):
        """Appends one record with its decoded struct and extras."""
        if self._done:
            raise FileFormatError("finished")
        fmt = self._FORMAT
        z = fmt["zlib"]
        enc = z["encoding"]
        rec = fmt["records"][z["record"]]
        data = bytes(decoded) + bytes(extras)
        if len(bytes(decoded)) != enc["decoded_size"]:
            raise FileFormatError("the decoded struct is %d bytes, expected %d" % (len(bytes(decoded)), enc["decoded_size"]))
        h = self._fill(z["record"], bytearray(bytes(record)))
        # The record's fields the format ties to the decoded struct's (`same`) come from it,
        # unless the writer fills them itself (the data's size).
        tied = (z["data"], z["size"], enc["kind"])
        for d_at, d_width, r_at, r_width, text in enc["same"]:
            if (r_at, r_width) not in tied:
                _file_put(h, (r_at, r_width), _file_get(data, d_at, d_width), text)
        key = _file_get(h, *fmt["seek"]["key"]) if fmt["seek"] else self._pushed
        for at, width, text in z["ordered"]:
            if self._last is not None and _file_get(h, at, width) <= _file_get(self._last, at, width):
                raise FileFormatError("%s %d after %d: it must increase" % (text, _file_get(h, at, width), _file_get(self._last, at, width)))
        plain = (
            self._prev is None
            or len(self._prev) != len(data)
            or (self._every is not None and self._pushed % self._every == 0)
        )
        if z["data"]:
            _file_put(h, z["data"], len(data), "data size")
        if z["size"]:
            _file_put(h, z["size"], rec["size"] + len(data), "record size")
        _file_put(h, enc["kind"], enc["plain"] if plain else enc["xor"], "kind")
        if plain:
            stored = data
        else:
            stored = (int.from_bytes(data, "little") ^ int.from_bytes(self._prev, "little")).to_bytes(len(data), "little")
        if len(self._raw) + len(h) + len(stored) > _FILE_MAX_INFLATED and self._count:
            self._close_chunk()
            return self.push(record, decoded, extras)
        self._raw += h
        self._raw += stored
        self._prev = data
        self._count += 1
        self._pushed += 1
        self._last = bytes(h)
        if self._first is None:
            self._first = self._last
        self._bounds = (key if self._bounds is None else self._bounds[0], key)
        if self._count >= self._chunk:
            self._close_chunk()

    def _close_chunk(self):
        if not self._count:
            return
        fmt = self._FORMAT
        z = fmt["zlib"]
        head = self._fill(z["source"], bytearray(fmt["records"][z["source"]]["size"]))
        stream = _zlib.compress(bytes(self._raw))
        _file_put(head, z["stored"], len(stream), "stored size")
        _file_put(head, z["raw"], len(self._raw), "raw size")
        if z["count"]:
            _file_put(head, z["count"], self._count, "record count")
        if z["bounds"]:
            _file_put(head, z["bounds"][0], self._bounds[0], "first key")
            _file_put(head, z["bounds"][1], self._bounds[1], "last key")
        self._streams.append((self._pos, bytes(head)))
        self._write(bytes(head) + stream)
        self._raw = bytearray()
        self._count = 0
        self._bounds = None
        self._prev = None

    def flush(self):
        """Closes the current stream and flushes the file: a reader finds every record
        pushed so far, by walking if the writer never finishes."""
        self._close_chunk()
        try:
            self._f.flush()
        except OSError as e:
            raise FileFormatError("cannot flush: %s" % e) from e

    def _add(self, ri, record):
        if self._done:
            raise FileFormatError("finished")
        self._extra[ri].append(self._fill(ri, bytearray(bytes(record))))

    def _finish(self, given):
        if self._done:
            return
        fmt = self._FORMAT
        self._close_chunk()
        records = fmt["records"]
        copies = {}
        for ri, buf in given.items():
            copies[ri] = [self._fill(ri, bytearray(bytes(buf)) if buf is not None else bytearray(records[ri]["size"]))]
        index = fmt["index"]
        copies[index["record"]] = []
        for offset, head in self._streams:
            entry = self._fill(index["record"], bytearray(records[index["record"]]["size"]))
            _file_put(entry, index["offset"], offset, "offset")
            for e_word, s_word in index["same"]:
                _file_put(entry, e_word, _file_get(head, *s_word), "index entry")
            copies[index["record"]].append(entry)
        for ri, bufs in self._extra.items():
            copies[ri] = bufs
        copies[fmt["zlib"]["source"]] = [h for _, h in self._streams]
        # Where each record after the streams goes, then every field that says so.
        at = self._pos
        where = {}
        for ri in fmt["tail"]:
            where[ri] = at
            at += records[ri]["size"] * len(copies[ri])
        for ri, counter in fmt["counts"]:
            _file_put(copies[counter[0]][0], counter[1:], len(copies[ri]), records[ri]["name"] + " count")
        for ri, holder in fmt["offsets"]:
            _file_put(copies[holder[0]][0], holder[1:], where[ri], records[ri]["name"] + " offset")
        for total, kind, ref, text in fmt["totals"]:
            if kind == "sum":
                value = sum(_file_get(c, ref[1], ref[2]) for c in copies[ref[0]])
            elif kind == "count":
                value = len(copies[ref])
            else:
                # A field of the first or last copy: a streamed record's from the records
                # pushed, another's from its copies (0 when there is none).
                if ref[0] == fmt["zlib"]["record"]:
                    pick = self._first if kind == "first" else self._last
                else:
                    held = copies[ref[0]]
                    pick = (held[0] if kind == "first" else held[-1]) if held else None
                value = _file_get(pick, ref[1], ref[2]) if pick is not None else 0
            _file_put(copies[total[0]][0], total[1:], value, text[0])
        self._write(b"".join(bytes(c) for ri in fmt["tail"] for c in copies[ri]))
        self._done = True
        try:
            self._f.flush()
        except OSError as e:
            raise FileFormatError("cannot flush: %s" % e) from e
        self.close()

    def close(self):
        """Closes the file the writer opened (a file object given stays open); without
        finish(), what was flushed stays readable by walking."""
        if self._owned is not None:
            self._owned.close()
            self._owned = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            self.finish()
        else:
            self.close()
        return False


_IBFREC_FORMAT = {
    "name": "ibfrec",
    "records": [
        {"name": "header", "cls": RecFileHeader, "size": 512, "place": ("at", 0), "count": None, "walk": None, "expect": ((0, 4, 1380336201), (4, 2, 1))},  # 0
        {"name": "trailer", "cls": RecTrailer, "size": 16, "place": ("end", 16), "count": None, "walk": None, "expect": ((12, 4, 1162232393),)},  # 1
        {"name": "footer", "cls": RecFooter, "size": 48, "place": ("field", (1, 0, 8)), "count": None, "walk": None, "expect": ((0, 4, 1480999497),)},  # 2
        {"name": "chunk_index", "cls": RecChunkEntry, "size": 24, "place": ("after", 2), "count": (2, 4, 4), "walk": None, "expect": ()},  # 3
        {"name": "marks", "cls": RecMark, "size": 16, "place": ("after", 3), "count": (2, 8, 4), "walk": None, "expect": ()},  # 4
        {"name": "chunks", "cls": RecChunkHeader, "size": 32, "place": ("each", (3, 0, 8)), "count": None, "walk": 0, "expect": ((0, 4, 1128677961),)},  # 5
        {"name": "ticks", "cls": RecTickHeader, "size": 136, "place": ("zlib",), "count": None, "walk": None, "expect": ()},  # 6
    ],
    "zlib": {"source": 5, "record": 6, "stored": (4, 4), "raw": (8, 4), "count": (12, 4), "size": (0, 4), "data": (4, 4), "bounds": ((16, 8), (24, 8)), "ordered": [(16, 8, "tick")],
        "encoding": {"kind": (8, 1), "steps": {1: "plain", 2: "xor"}, "plain": 1, "xor": 2, "cls": Snapshot, "decoded_size": 12104, "expect": [(0, 4, 1397113417)], "same": [(24, 8, 16, 8, "header.tick = tick"), (16, 8, 24, 8, "header.frame = frame"), (8, 4, 4, 4, "header.size = data_size")]}},
    "seek": {"key": (16, 8)},
    "ordered": [],
    "totals": [((2, 16, 8), "sum", (5, 12, 4), ("footer.ticks", "chunks.tick_count")), ((2, 4, 4), "count", 5, ("footer.chunk_count", "chunks")), ((2, 24, 8), "first", (6, 16, 8), ("footer.first_tick", "ticks.tick")), ((2, 32, 8), "last", (6, 16, 8), ("footer.last_tick", "ticks.tick"))],
    "chunk_default": 256,
    "index": {"record": 3, "offset": (0, 8), "same": [((8, 8), (16, 8)), ((16, 8), (24, 8))]},
    "added": [4],
    "tail": [2, 3, 4, 1],
    "counts": [(3, (2, 4, 4)), (4, (2, 8, 4))],
    "offsets": [(2, (1, 0, 8))],
}


class IbfrecReader(_FileReader):
    """Reads a `ibfrec` file: A .ibfrec recording: the header, zlib chunks of tick records, then the footer's index and marks, and the trailer that points at the footer.

    Opened from a path, a binary file object or bytes; iterating it yields
    (RecTickHeader, Snapshot, bytes) per record (copies), seek_tick(key) one
    (or None); .issues lists what is wrong. Raises FileFormatError only."""

    _FORMAT = _IBFREC_FORMAT

    @property
    def header(self):
        """The `header` record (RecFileHeader, None when missing or wrong)."""
        return self._single(0)

    @property
    def trailer(self):
        """The `trailer` record (RecTrailer, None when missing or wrong)."""
        return self._single(1)

    @property
    def footer(self):
        """The `footer` record (RecFooter, None when missing or wrong)."""
        return self._single(2)

    @property
    def chunk_index(self):
        """The `chunk_index` records (RecChunkEntry, a list)."""
        return self._many(3)

    @property
    def marks(self):
        """The `marks` records (RecMark, a list)."""
        return self._many(4)

    @property
    def chunks(self):
        """The `chunks` records (RecChunkHeader, a list)."""
        return self._many(5)

    def seek_tick(self, key):
        """The record whose tick is key, decoded, or None; inflates only the stream
        whose bounds hold it."""
        return self._seek(key)


class IbfrecWriter(_FileWriter):
    """Writes a `ibfrec` file: IbfrecWriter(target, header, chunk_ticks=None,
    keyframe_every=None), then push() each record, finish() (or leave the with block)."""

    _FORMAT = _IBFREC_FORMAT

    def __init__(self, target, header, chunk_ticks=None, keyframe_every=None):
        _FileWriter.__init__(self, target, header, chunk_ticks, keyframe_every)

    def add_marks(self, record):
        """Adds one RecMark record, written by finish()."""
        self._add(4, record)

    def finish(self, footer=None, trailer=None):
        """Closes the last stream and writes footer, trailer and the records after the
        streams, filling every field the format ties; the fields it does not tie come from
        the records given (zeros when none)."""
        self._finish({ 2: footer, 1: trailer })

