# generated from schema.toml; do not edit
"""Type stub of `bridge.py`, the Python bindings of the `bridge` ABI 0.9."""

import array
import ctypes
import enum
import mmap
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Final, Generic, Literal, NoReturn, TypeAlias, TypeVar, overload

import os
from typing import IO

from collections.abc import Callable

__all__ = ["BRIDGE_MAGIC", "DIRECTORY_MAGIC", "MAX_CLIENTS", "MAX_INSTANCES", "MAX_REGIONS", "RING_SLOTS", "RING_SLOT_SIZE", "CLIENT_BLOCK_SIZE", "LOG_RING_CAPACITY", "LOG_QUEUE_CAPACITY", "CLIENT_NAME_LEN", "VERSION_LEN", "LOG_SOURCE_MAX", "LOG_TEXT_MAX", "NO_PAD", "PAD_NOT_BOT", "COMMAND_LINE_MAX", "BOT_BLOCK_SIZE", "DRAW_BUFFERS", "DRAW_MAX_COMMANDS", "DRAW_PAYLOAD_MAX", "MAX_PARAMS", "PARAM_NAME_LEN", "PARAM_HELP_LEN", "PARAM_OPTIONS_LEN", "MAX_STATS", "STAT_NAME_LEN", "STAT_TEXT_LEN", "MAX_PLAYERS", "MAX_SHIPS", "MAX_PROJECTILES", "MAX_PICKUPS", "MAX_EVENTS", "BOARD_MAX_DIM", "BOARD_MAX_TILES", "MAX_EXTRAS", "EXTRAS_BLOB_MAX", "EXTRA_NAME_LEN", "SNAPSHOT_MAGIC", "NO_PLAYER", "MAX_PICKUP_SPAWNS", "MAX_SPAWN_MARKERS", "REC_MAGIC", "REC_CHUNK_MAGIC", "REC_FOOTER_MAGIC", "REC_TRAILER_MAGIC", "REC_FORMAT", "REC_CHUNK_TICKS", "ABI_VERSION_MAJOR", "ABI_VERSION_MINOR", "ABI_VERSION", "text", "set_text", "BridgeRegion", "BotRegion", "DrawListFlags", "ParamKind", "StatKind", "StatFlags", "ClientRegion", "CommandStatus", "ControlStick", "RunMode", "SimState", "ClientState", "ClientCaps", "HostState", "InstanceState", "LogEntryKind", "DrawOp", "DrawSpace", "DrawLayer", "DrawFlags", "HeatmapPalette", "HeatmapFlags", "LogLevel", "PadButtons", "PadInputFlags", "RecRecordKind", "RecPadSource", "Phase", "Color", "Tile", "Dir", "ProjectileKind", "PickupKind", "GameType", "RoundState", "SpawnState", "EnemyKind", "EventKind", "InvalidReason", "TickSource", "SnapshotFlags", "ShipFlags", "ShipValid", "ExtraType", "RegionEntry", "ClientEntry", "Controls", "BridgeHeader", "DrawHeader", "DrawListHeader", "ParamsHeader", "ParamDef", "ParamValue", "StatsHeader", "StatEntry", "MailboxHeader", "RingSlotHeader", "LogEntry", "LogRingHeader", "LogQueueHeader", "ClientBlockHeader", "DirectoryEntry", "DirectoryHeader", "HeatmapHeader", "DrawCmd", "Vec2", "PadInput", "RecPad", "RecTickHeader", "RecFileHeader", "RecChunkHeader", "RecChunkEntry", "RecMark", "RecFooter", "RecTrailer", "SnapshotHeader", "Game", "Board", "Ship", "Projectile", "Pickup", "Event", "Match", "PickupSpawn", "SpawnMarker", "ShipExt", "ProjectileExt", "Snapshot", "ExtraEntry", "ExtrasHeader", "AtomicsUnavailableError", "SeqlockContendedError", "ContendedError", "HOST_TRIES", "atomic_load", "atomic_store", "atomic_compare_exchange", "atomic_exchange", "atomic_fetch_add", "atomics_backend", "set_atomics_backend", "LiveClientEntry", "LiveBridgeHeader", "LiveDrawHeader", "LiveDrawListHeader", "LiveParamsHeader", "LiveStatsHeader", "LiveMailboxHeader", "LiveRingSlotHeader", "LiveLogRingHeader", "LiveLogQueueHeader", "LiveClientBlockHeader", "LiveDirectoryEntry", "LiveDirectoryHeader", "LivePadInput", "RingSlot", "ParamDefs", "ParamValues", "Stats", "SnapshotRing", "events_since", "push_events", "ProtocolError", "Empty", "EMPTY", "Lapped", "Standing", "HungWatch", "LogQueueEntry", "LogQueue", "LogRingEntry", "LogRing", "MailboxResponse", "Mailbox", "DrawList", "Draw", "Client", "WakeStats", "store_tick_wake_stats", "DirectoryError", "DirectoryHost", "process_probe", "PROCESS_GONE", "PROCESS_RUNNING", "PROCESS_UNKNOWN", "Hosts", "HostService", "relayout", "relayout_keep", "AttachError", "attach", "Bridge", "ClientBlock", "BotBlock", "lay_out", "produce", "ProduceError", "stamp_identity", "read_versioned", "VersionedRecord", "FileFormatError", "FileIssue", "IbfrecReader", "IbfrecWriter"]
BRIDGE_MAGIC: Final = 0x42464249
DIRECTORY_MAGIC: Final = 0x44464249
MAX_CLIENTS: Final = 8
MAX_INSTANCES: Final = 16
MAX_REGIONS: Final = 8
RING_SLOTS: Final = 8
RING_SLOT_SIZE: Final = 32768
CLIENT_BLOCK_SIZE: Final = 0x10000
LOG_RING_CAPACITY: Final = 0x10000
LOG_QUEUE_CAPACITY: Final = 16384
CLIENT_NAME_LEN: Final = 32
VERSION_LEN: Final = 32
LOG_SOURCE_MAX: Final = 32
LOG_TEXT_MAX: Final = 968
NO_PAD: Final = 255
PAD_NOT_BOT: Final = 254
COMMAND_LINE_MAX: Final = 1024
BOT_BLOCK_SIZE: Final = 0x49000
DRAW_BUFFERS: Final = 3
DRAW_MAX_COMMANDS: Final = 2048
DRAW_PAYLOAD_MAX: Final = 16384
MAX_PARAMS: Final = 32
PARAM_NAME_LEN: Final = 32
PARAM_HELP_LEN: Final = 96
PARAM_OPTIONS_LEN: Final = 88
MAX_STATS: Final = 64
STAT_NAME_LEN: Final = 24
STAT_TEXT_LEN: Final = 24
MAX_PLAYERS: Final = 4
MAX_SHIPS: Final = 16
MAX_PROJECTILES: Final = 128
MAX_PICKUPS: Final = 64
MAX_EVENTS: Final = 32
BOARD_MAX_DIM: Final = 64
BOARD_MAX_TILES: Final = 4096
MAX_EXTRAS: Final = 64
EXTRAS_BLOB_MAX: Final = 16384
EXTRA_NAME_LEN: Final = 24
SNAPSHOT_MAGIC: Final = 0x53464249
NO_PLAYER: Final = 255
MAX_PICKUP_SPAWNS: Final = 16
MAX_SPAWN_MARKERS: Final = 16
REC_MAGIC: Final = 0x52464249
REC_CHUNK_MAGIC: Final = 0x43464249
REC_FOOTER_MAGIC: Final = 0x58464249
REC_TRAILER_MAGIC: Final = 0x45464249
REC_FORMAT: Final = 1
REC_CHUNK_TICKS: Final = 300
ABI_VERSION_MAJOR: Final = 0
ABI_VERSION_MINOR: Final = 9
ABI_VERSION: Final = "0.9"

_T = TypeVar("_T")

class _Array(Generic[_T]):
    """A ctypes array field, whose entries read as _T (the stub's name; at run time it is
    a ctypes.Array)."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...
    def __setitem__(self, index: int, value: _T) -> None: ...
    def __iter__(self) -> Iterator[_T]: ...

class _Struct(ctypes.LittleEndianStructure):
    # ctypes' own stubs let any attribute through; a struct has only its fields.
    __getattr__: None  # type: ignore[assignment, misc]
    __setattr__: None  # type: ignore[assignment, misc]
    _Counts: ClassVar[dict[str, tuple[str, ...]]]
    _Enums: ClassVar[dict[str, type[enum.IntEnum] | type[enum.IntFlag]]]

def text(value: bytes) -> str: ...
def set_text(record: ctypes.Structure, field: str, value: str) -> None: ...

class _OpenIntEnum(enum.IntEnum): ...  # type: ignore[misc]

class BridgeRegion(_OpenIntEnum):
    HEADER = 0
    SNAPSHOT_RING = 1
    CLIENT_BLOCKS = 2
    LOG_RING = 3
    BOT_BLOCKS = 4

class BotRegion(_OpenIntEnum):
    DRAW = 0
    PARAMS = 1
    STATS = 2

class DrawListFlags(enum.IntFlag):
    OVERFLOW = 0x1

class ParamKind(_OpenIntEnum):
    BOOL = 0
    INT = 1
    FLOAT = 2
    ENUM = 3
    BUTTON = 4
    COLOR = 5

class StatKind(_OpenIntEnum):
    NUMBER = 0
    TEXT = 1

class StatFlags(enum.IntFlag):
    PLOT = 0x1

class ClientRegion(_OpenIntEnum):
    LOG_QUEUE = 0
    PAD_INPUT = 1
    MAILBOX = 2

class CommandStatus(_OpenIntEnum):
    NONE = 0
    OK = 1
    FAILED = 2
    REFUSED = 3

class ControlStick(_OpenIntEnum):
    LEFT_STICK = 0
    RIGHT_STICK = 1
    DPAD = 2

class RunMode(_OpenIntEnum):
    REALTIME = 0
    LOCKSTEP = 1

class SimState(_OpenIntEnum):
    RUNNING = 0
    PAUSED = 1

class ClientState(_OpenIntEnum):
    FREE = 0
    CLAIMED = 1
    ACTIVE = 2
    CLOSING = 3

class ClientCaps(enum.IntFlag):
    TICKS = 0x1
    TOOL = 0x2
    REMOTE = 0x4

class HostState(_OpenIntEnum):
    STARTING = 0
    RUNNING = 1
    EXITING = 2

class InstanceState(_OpenIntEnum):
    FREE = 0
    CLAIMED = 1
    LIVE = 2

class LogEntryKind(_OpenIntEnum):
    RECORD = 0
    PADDING = 1

class DrawOp(_OpenIntEnum):
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
    WORLD = 0
    TILE = 1
    SCREEN = 2
    SCREEN_NORM = 3

class DrawLayer(_OpenIntEnum):
    BELOW_PANELS = 0
    ABOVE_PANELS = 1

class DrawFlags(enum.IntFlag):
    ANTIALIAS = 0x1
    FADE = 0x2
    CLOSED = 0x4
    CENTERED = 0x8

class HeatmapPalette(_OpenIntEnum):
    TINT = 0
    INFERNO = 1
    VIRIDIS = 2
    COOLWARM = 3
    GREYS = 4

class HeatmapFlags(enum.IntFlag):
    ZERO_CLEAR = 0x1

class LogLevel(_OpenIntEnum):
    TRACE = 0
    DEBUG = 1
    INFO = 2
    WARN = 3
    ERROR = 4

class PadButtons(enum.IntFlag):
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
    CONNECTED = 0x1

class RecRecordKind(_OpenIntEnum):
    KEYFRAME = 1
    DELTA = 2

class RecPadSource(_OpenIntEnum):
    NONE = 0
    BOT = 1
    SCRIPT = 2
    REAL = 3

class Phase(_OpenIntEnum):
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
    WHITE = 0
    BLACK = 1
    UNKNOWN = 255

class Tile(_OpenIntEnum):
    WHITE = 0
    BLACK = 1
    NONE = 255

class Dir(_OpenIntEnum):
    NONE = 0
    UP = 1
    DOWN = 2
    LEFT = 3
    RIGHT = 4

class ProjectileKind(_OpenIntEnum):
    NORMAL = 0
    FAST = 1
    UNKNOWN = 255

class PickupKind(_OpenIntEnum):
    FAST_SHOTS = 0
    BLOCK_EAT = 1
    UNKNOWN = 255
    SHIELD = 2

class GameType(_OpenIntEnum):
    NONE = 0
    VERSUS = 1
    ARCADE = 2
    UNKNOWN = 255

class RoundState(_OpenIntEnum):
    NONE = 0
    PLAYING = 1
    DECIDED = 2
    UNKNOWN = 255

class SpawnState(_OpenIntEnum):
    DUE = 0
    OUT = 1
    WAITING = 2

class EnemyKind(_OpenIntEnum):
    UNKNOWN = 0
    SMASH = 1
    SHOOT = 2
    SMASH_SHOOT = 3

class EventKind(_OpenIntEnum):
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
    PRESENT = 0
    SIM_STEP = 1

class SnapshotFlags(enum.IntFlag):
    VALID = 0x1
    IN_MATCH = 0x2
    TRUNCATED = 0x4
    LOCKSTEP = 0x8
    SIM_PAUSED = 0x10
    OVERLAY_FOCUSED = 0x20
    STALE = 0x40

class ShipFlags(enum.IntFlag):
    SHIELD = 0x1
    BLOCK_EAT = 0x2
    CHARGING = 0x4
    MOVING = 0x8

class ShipValid(enum.IntFlag):
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

class RegionEntry(_Struct):
    offset: int
    size: int

class ClientEntry(_Struct):
    state: int
    generation: int
    pid: int
    caps: int
    heartbeat_ns: int
    connected_ns: int
    pad: int
    _pad33: _Array[int]
    waiting: int
    name: bytes
    _reserved: _Array[int]
    @property
    def state_enum(self) -> ClientState: ...
    @state_enum.setter
    def state_enum(self, value: ClientState | int) -> None: ...
    @property
    def caps_enum(self) -> ClientCaps: ...
    @caps_enum.setter
    def caps_enum(self, value: ClientCaps | int) -> None: ...

class Controls(_Struct):
    move: int
    min_press_ticks: int
    shoot_up: int
    shoot_down: int
    shoot_left: int
    shoot_right: int
    pause: int
    confirm: int
    back: int
    @property
    def move_enum(self) -> ControlStick: ...
    @move_enum.setter
    def move_enum(self, value: ControlStick | int) -> None: ...
    @property
    def shoot_up_enum(self) -> PadButtons: ...
    @shoot_up_enum.setter
    def shoot_up_enum(self, value: PadButtons | int) -> None: ...
    @property
    def shoot_down_enum(self) -> PadButtons: ...
    @shoot_down_enum.setter
    def shoot_down_enum(self, value: PadButtons | int) -> None: ...
    @property
    def shoot_left_enum(self) -> PadButtons: ...
    @shoot_left_enum.setter
    def shoot_left_enum(self, value: PadButtons | int) -> None: ...
    @property
    def shoot_right_enum(self) -> PadButtons: ...
    @shoot_right_enum.setter
    def shoot_right_enum(self, value: PadButtons | int) -> None: ...
    @property
    def pause_enum(self) -> PadButtons: ...
    @pause_enum.setter
    def pause_enum(self, value: PadButtons | int) -> None: ...
    @property
    def confirm_enum(self) -> PadButtons: ...
    @confirm_enum.setter
    def confirm_enum(self, value: PadButtons | int) -> None: ...
    @property
    def back_enum(self) -> PadButtons: ...
    @back_enum.setter
    def back_enum(self, value: PadButtons | int) -> None: ...

class BridgeHeader(_Struct):
    magic: int
    abi_major: int
    abi_minor: int
    header_size: int
    total_size: int
    host_pid: int
    host_generation: int
    host_state: int
    region_count: int
    host_version: bytes
    regions: _Array[RegionEntry]
    clock_mono_ns: int
    clock_unix_ns: int
    ring_slots: int
    ring_slot_size: int
    max_clients: int
    client_block_size: int
    client_entry_size: int
    pad_owner: _Array[int]
    _pad168: _Array[int]
    snapshot_seq: int
    _pad200: _Array[int]
    clients: _Array[ClientEntry]
    controls: Controls
    run_mode: int
    sim_state: int
    _pad1298: _Array[int]
    lockstep_timeout_ms: int
    @property
    def host_state_enum(self) -> HostState: ...
    @host_state_enum.setter
    def host_state_enum(self, value: HostState | int) -> None: ...
    @property
    def run_mode_enum(self) -> RunMode: ...
    @run_mode_enum.setter
    def run_mode_enum(self, value: RunMode | int) -> None: ...
    @property
    def sim_state_enum(self) -> SimState: ...
    @sim_state_enum.setter
    def sim_state_enum(self, value: SimState | int) -> None: ...
    @classmethod
    def read_versioned(cls, buffer: _Buffer) -> VersionedRecord[BridgeHeader]: ...

class DrawHeader(_Struct):
    state: int
    buffers: int
    buffer_size: int
    max_commands: int
    max_payload: int
    published: int
    _pad24: _Array[int]

class DrawListHeader(_Struct):
    seq: int
    count: int
    payload_len: int
    ttl_ms: int
    flags: int
    dropped: int
    for_tick: int
    _pad32: _Array[int]
    @property
    def flags_enum(self) -> DrawListFlags: ...
    @flags_enum.setter
    def flags_enum(self, value: DrawListFlags | int) -> None: ...

class ParamsHeader(_Struct):
    defs_seq: int
    def_count: int
    values_seq: int
    changes: int
    max_params: int
    _pad20: _Array[int]

class ParamDef(_Struct):
    name: bytes
    kind: int
    option_count: int
    _pad34: _Array[int]
    default_value: float
    min: float
    max: float
    step: float
    help: bytes
    options: bytes
    @property
    def kind_enum(self) -> ParamKind: ...
    @kind_enum.setter
    def kind_enum(self, value: ParamKind | int) -> None: ...

class ParamValue(_Struct):
    value: float
    changes: int
    _pad12: _Array[int]

class StatsHeader(_Struct):
    seq: int
    count: int
    max_stats: int
    _pad12: _Array[int]
    ticks: int
    skipped: int
    wake_p50_us: float
    wake_p99_us: float
    _pad40: _Array[int]

class StatEntry(_Struct):
    name: bytes
    kind: int
    flags: int
    _pad26: _Array[int]
    value: float
    text: bytes
    @property
    def kind_enum(self) -> StatKind: ...
    @kind_enum.setter
    def kind_enum(self, value: StatKind | int) -> None: ...
    @property
    def flags_enum(self) -> StatFlags: ...
    @flags_enum.setter
    def flags_enum(self, value: StatFlags | int) -> None: ...

class MailboxHeader(_Struct):
    request_seq: int
    request_len: int
    response_seq: int
    status: int
    response_len: int
    response_total: int
    request_capacity: int
    response_capacity: int
    _pad32: _Array[int]
    @property
    def status_enum(self) -> CommandStatus: ...
    @status_enum.setter
    def status_enum(self, value: CommandStatus | int) -> None: ...

class RingSlotHeader(_Struct):
    seq: int
    size: int
    publish_seq: int
    tick: int
    publish_ns: int
    _pad32: _Array[int]

class LogEntry(_Struct):
    size: int
    kind: int
    level: int
    source_len: int
    _pad5: int
    text_len: int
    thread: int
    _pad12: _Array[int]
    seq: int
    time_ns: int
    tick: int
    @property
    def kind_enum(self) -> LogEntryKind: ...
    @kind_enum.setter
    def kind_enum(self, value: LogEntryKind | int) -> None: ...
    @property
    def level_enum(self) -> LogLevel: ...
    @level_enum.setter
    def level_enum(self, value: LogLevel | int) -> None: ...

class LogRingHeader(_Struct):
    write_pos: int
    tail_pos: int
    capacity: int
    _pad20: _Array[int]
    entries: int
    _pad32: _Array[int]

class LogQueueHeader(_Struct):
    write_pos: int
    dropped: int
    capacity: int
    _pad20: _Array[int]
    read_pos: int
    _pad40: _Array[int]

class ClientBlockHeader(_Struct):
    size: int
    region_count: int
    regions: _Array[RegionEntry]

class DirectoryEntry(_Struct):
    state: int
    pid: int
    process_time: int
    abi_major: int
    abi_minor: int
    _pad20: _Array[int]
    host_version: bytes
    _pad56: _Array[int]
    @property
    def state_enum(self) -> InstanceState: ...
    @state_enum.setter
    def state_enum(self, value: InstanceState | int) -> None: ...

class DirectoryHeader(_Struct):
    magic: int
    entry_count: int
    entry_size: int
    _pad12: _Array[int]
    entries: _Array[DirectoryEntry]

class HeatmapHeader(_Struct):
    palette: int
    flags: int
    _pad2: _Array[int]
    @property
    def palette_enum(self) -> HeatmapPalette: ...
    @palette_enum.setter
    def palette_enum(self, value: HeatmapPalette | int) -> None: ...
    @property
    def flags_enum(self) -> HeatmapFlags: ...
    @flags_enum.setter
    def flags_enum(self, value: HeatmapFlags | int) -> None: ...

class DrawCmd(_Struct):
    op: int
    space: int
    layer: int
    flags: int
    color: int
    thickness: float
    a: float
    b: float
    c: float
    d: float
    payload_off: int
    payload_len: int
    _pad34: _Array[int]
    @property
    def op_enum(self) -> DrawOp: ...
    @op_enum.setter
    def op_enum(self, value: DrawOp | int) -> None: ...
    @property
    def space_enum(self) -> DrawSpace: ...
    @space_enum.setter
    def space_enum(self, value: DrawSpace | int) -> None: ...
    @property
    def layer_enum(self) -> DrawLayer: ...
    @layer_enum.setter
    def layer_enum(self, value: DrawLayer | int) -> None: ...
    @property
    def flags_enum(self) -> DrawFlags: ...
    @flags_enum.setter
    def flags_enum(self, value: DrawFlags | int) -> None: ...

class Vec2(_Struct):
    x: float
    y: float

class PadInput(_Struct):
    seq: int
    flags: int
    for_tick: int
    lx: int
    ly: int
    rx: int
    ry: int
    buttons: int
    lt: int
    rt: int
    _pad28: _Array[int]
    @property
    def flags_enum(self) -> PadInputFlags: ...
    @flags_enum.setter
    def flags_enum(self, value: PadInputFlags | int) -> None: ...
    @property
    def buttons_enum(self) -> PadButtons: ...
    @buttons_enum.setter
    def buttons_enum(self, value: PadButtons | int) -> None: ...

class RecPad(_Struct):
    for_tick: int
    lx: int
    ly: int
    rx: int
    ry: int
    buttons: int
    lt: int
    rt: int
    source: int
    owner: int
    _pad22: _Array[int]
    @property
    def buttons_enum(self) -> PadButtons: ...
    @buttons_enum.setter
    def buttons_enum(self, value: PadButtons | int) -> None: ...
    @property
    def source_enum(self) -> RecPadSource: ...
    @source_enum.setter
    def source_enum(self, value: RecPadSource | int) -> None: ...

class RecTickHeader(_Struct):
    size: int
    data_size: int
    kind: int
    _pad9: _Array[int]
    tick: int
    frame: int
    host_time_ns: int
    pads: _Array[RecPad]
    @property
    def kind_enum(self) -> RecRecordKind: ...
    @kind_enum.setter
    def kind_enum(self, value: RecRecordKind | int) -> None: ...

class RecFileHeader(_Struct):
    magic: int
    format: int
    header_size: int
    schema_major: int
    schema_minor: int
    snapshot_size: int
    chunk_ticks: int
    host_pid: int
    start_unix_ns: int
    start_mono_ns: int
    controls: Controls
    run_mode: int
    bot_pads: int
    _pad58: _Array[int]
    lockstep_timeout_ms: int
    host_version: bytes
    profile_name: bytes
    exe_sha256: bytes
    note: bytes
    _pad496: _Array[int]
    @property
    def run_mode_enum(self) -> RunMode: ...
    @run_mode_enum.setter
    def run_mode_enum(self, value: RunMode | int) -> None: ...

class RecChunkHeader(_Struct):
    magic: int
    stored_size: int
    raw_size: int
    tick_count: int
    first_tick: int
    last_tick: int

class RecChunkEntry(_Struct):
    offset: int
    first_tick: int
    last_tick: int

class RecMark(_Struct):
    tick: int
    kind: int
    _pad10: _Array[int]
    a: int
    @property
    def kind_enum(self) -> EventKind: ...
    @kind_enum.setter
    def kind_enum(self, value: EventKind | int) -> None: ...

class RecFooter(_Struct):
    magic: int
    chunk_count: int
    mark_count: int
    dropped: int
    ticks: int
    first_tick: int
    last_tick: int
    end_unix_ns: int

class RecTrailer(_Struct):
    footer_offset: int
    _pad8: _Array[int]
    magic: int

class SnapshotHeader(_Struct):
    magic: int
    schema_major: int
    schema_minor: int
    size: int
    flags: int
    frame: int
    tick: int
    host_time_ns: int
    game_time: float
    invalid_reason: int
    tick_source: int
    _pad47: int
    @property
    def flags_enum(self) -> SnapshotFlags: ...
    @flags_enum.setter
    def flags_enum(self, value: SnapshotFlags | int) -> None: ...
    @property
    def invalid_reason_enum(self) -> InvalidReason: ...
    @invalid_reason_enum.setter
    def invalid_reason_enum(self, value: InvalidReason | int) -> None: ...
    @property
    def tick_source_enum(self) -> TickSource: ...
    @tick_source_enum.setter
    def tick_source_enum(self, value: TickSource | int) -> None: ...

class Game(_Struct):
    menu_id: int
    menu_depth: int
    menu_item: int
    arcade_score: int
    lives: int
    phase: int
    paused: int
    focused: int
    player_count: int
    _pad22: _Array[int]
    @property
    def phase_enum(self) -> Phase: ...
    @phase_enum.setter
    def phase_enum(self, value: Phase | int) -> None: ...

class Board(_Struct):
    width: int
    height: int
    tiles: _Array[int]
    @property
    def tiles_enum(self) -> list[Tile]: ...

class Ship(_Struct):
    pos: Vec2
    vel: Vec2
    last_shot_pos: Vec2
    reload_progress: float
    reload_time: float
    time_alive: float
    time_since_shot: float
    score: int
    multiplier: int
    valid: int
    flags: int
    player_id: int
    color: int
    alive: int
    ammo: int
    max_ammo: int
    fast_ammo: int
    charge_dir: int
    _pad61: _Array[int]
    @property
    def valid_enum(self) -> ShipValid: ...
    @valid_enum.setter
    def valid_enum(self, value: ShipValid | int) -> None: ...
    @property
    def flags_enum(self) -> ShipFlags: ...
    @flags_enum.setter
    def flags_enum(self, value: ShipFlags | int) -> None: ...
    @property
    def color_enum(self) -> Color: ...
    @color_enum.setter
    def color_enum(self, value: Color | int) -> None: ...
    @property
    def charge_dir_enum(self) -> Dir: ...
    @charge_dir_enum.setter
    def charge_dir_enum(self, value: Dir | int) -> None: ...

class Projectile(_Struct):
    pos: Vec2
    speed: float
    time_alive: float
    kind_raw: int
    dir: int
    kind: int
    owner: int
    _pad23: int
    @property
    def dir_enum(self) -> Dir: ...
    @dir_enum.setter
    def dir_enum(self, value: Dir | int) -> None: ...
    @property
    def kind_enum(self) -> ProjectileKind: ...
    @kind_enum.setter
    def kind_enum(self, value: ProjectileKind | int) -> None: ...

class Pickup(_Struct):
    pos: Vec2
    time_alive: float
    kind: int
    amount: int
    _pad14: _Array[int]
    @property
    def kind_enum(self) -> PickupKind: ...
    @kind_enum.setter
    def kind_enum(self, value: PickupKind | int) -> None: ...

class Event(_Struct):
    tick: int
    a: int
    b: int
    kind: int
    player: int
    _pad19: _Array[int]
    @property
    def kind_enum(self) -> EventKind: ...
    @kind_enum.setter
    def kind_enum(self, value: EventKind | int) -> None: ...

class Match(_Struct):
    map_scale: float
    focus_hash: int
    game_type: int
    map_set: int
    map_index: int
    wrap: int
    wrap_shift_x: int
    wrap_shift_y: int
    rounds_to_win: int
    round_state: int
    round_winner: int
    teams: int
    pickup_spawn_count: int
    _pad19: int
    @property
    def game_type_enum(self) -> GameType: ...
    @game_type_enum.setter
    def game_type_enum(self, value: GameType | int) -> None: ...
    @property
    def round_state_enum(self) -> RoundState: ...
    @round_state_enum.setter
    def round_state_enum(self, value: RoundState | int) -> None: ...

class PickupSpawn(_Struct):
    pos: Vec2
    time_left: float
    state: int
    _pad13: _Array[int]
    @property
    def state_enum(self) -> SpawnState: ...
    @state_enum.setter
    def state_enum(self, value: SpawnState | int) -> None: ...

class SpawnMarker(_Struct):
    pos: Vec2
    time_left: float
    kind: int
    _pad13: _Array[int]
    @property
    def kind_enum(self) -> EnemyKind: ...
    @kind_enum.setter
    def kind_enum(self, value: EnemyKind | int) -> None: ...

class ShipExt(_Struct):
    velocity: Vec2
    block_eat_time: float
    speed_boost_time: float
    shield_time: float
    points: int
    team: int
    parry_dir: int
    dying: int
    _pad25: _Array[int]
    @property
    def parry_dir_enum(self) -> Dir: ...
    @parry_dir_enum.setter
    def parry_dir_enum(self, value: Dir | int) -> None: ...

class ProjectileExt(_Struct):
    distance: float
    team: int
    _pad5: _Array[int]

class Snapshot(_Struct):
    header: SnapshotHeader
    game: Game
    event_total: int
    ship_count: int
    pickup_count: int
    projectile_count: int
    players: _Array[int]
    extras_offset: int
    extras_size: int
    board: Board
    ships: _Array[Ship]
    projectiles: _Array[Projectile]
    pickups: _Array[Pickup]
    _pad9316: _Array[int]
    events: _Array[Event]
    match: Match
    pickup_spawns: _Array[PickupSpawn]
    ships_ext: _Array[ShipExt]
    projectiles_ext: _Array[ProjectileExt]
    _pad11836: _Array[int]
    spawn_markers: _Array[SpawnMarker]
    spawn_marker_count: int
    _pad12097: _Array[int]
    def events_since(record, count: int) -> tuple[list[tuple[int, Event]], int]: ...
    def push_events(record, entry: Event) -> int: ...
    @classmethod
    def read_versioned(cls, buffer: _Buffer) -> VersionedRecord[Snapshot]: ...

class ExtraEntry(_Struct):
    name: bytes
    offset: int
    size: int
    type: int
    count: int
    @property
    def type_enum(self) -> ExtraType: ...
    @type_enum.setter
    def type_enum(self, value: ExtraType | int) -> None: ...

class ExtrasHeader(_Struct):
    entry_count: int
    _pad2: _Array[int]
    blob_size: int
    entries: _Array[ExtraEntry]

# A buffer the live views and attach take: any contiguous one (bytes and an mmap opened
# with ACCESS_READ for reads only).
_Buffer: TypeAlias = bytes | bytearray | memoryview | mmap.mmap | array.array[Any]
_Self = TypeVar("_Self")
HOST_TRIES: Final = 8

class AtomicsUnavailableError(RuntimeError): ...
class SeqlockContendedError(RuntimeError): ...
class ContendedError(RuntimeError):
    generation: int | None
    freed: tuple[int, ...]
    contended: tuple[int, ...]

_AtomicsBackend: TypeAlias = Literal["atomics", "libatomic"]

def atomic_load(buf: _Buffer, offset: int, width: int) -> int: ...
def atomic_store(buf: _Buffer, offset: int, width: int, value: int) -> None: ...
def atomic_compare_exchange(
    buf: _Buffer, offset: int, width: int, current: int, new: int
) -> tuple[bool, int]: ...
def atomic_exchange(buf: _Buffer, offset: int, width: int, value: int) -> int: ...
def atomic_fetch_add(buf: _Buffer, offset: int, width: int, value: int) -> int: ...
def atomics_backend() -> _AtomicsBackend | None: ...
def set_atomics_backend(
    name: Literal["auto", "atomics", "libatomic"] | None = "auto",
) -> _AtomicsBackend | None: ...

class _LiveView:
    SIZE: ClassVar[int]
    ALIGN: ClassVar[int]
    MIN_LEN: ClassVar[int]
    def __init__(self, buf: _Buffer, offset: int = 0, length: int | None = None) -> None: ...
    def release(self) -> None: ...
    def __enter__(self: _Self) -> _Self: ...
    def __exit__(self, *exc_info: object) -> None: ...

class _LiveValue: ...

class RingSlot(_LiveValue):
    size: int
    publish_seq: int
    tick: int
    publish_ns: int
    payload: Snapshot
    payload_extra: bytes
    def __init__(self, size: int = ..., publish_seq: int = ..., tick: int = ..., publish_ns: int = ..., payload: Snapshot | None = ..., payload_extra: bytes = ...) -> None: ...

class ParamDefs(_LiveValue):
    def_count: int
    defs: _Array[ParamDef]
    def __init__(self, def_count: int = ..., defs: _Array[ParamDef] | None = ...) -> None: ...

class ParamValues(_LiveValue):
    values: _Array[ParamValue]
    def __init__(self, values: _Array[ParamValue] | None = ...) -> None: ...

class Stats(_LiveValue):
    count: int
    entries: _Array[StatEntry]
    def __init__(self, count: int = ..., entries: _Array[StatEntry] | None = ...) -> None: ...

class LiveClientEntry(_LiveView):
    def state(self) -> ClientState: ...
    def generation(self) -> int: ...
    def pid(self) -> int: ...
    def set_pid(self, value: int) -> None: ...
    def caps(self) -> ClientCaps: ...
    def set_caps(self, value: ClientCaps | int) -> None: ...
    def heartbeat_ns(self) -> int: ...
    def set_heartbeat_ns(self, value: int) -> None: ...
    def fetch_add_heartbeat_ns(self, value: int) -> int: ...
    def connected_ns(self) -> int: ...
    def set_connected_ns(self, value: int) -> None: ...
    def pad(self) -> int: ...
    def set_pad(self, value: int) -> None: ...
    def waiting(self) -> int: ...
    def set_waiting(self, value: int) -> None: ...
    def fetch_add_waiting(self, value: int) -> int: ...
    def name(self) -> str: ...
    def set_name(self, value: bytes | bytearray | str | ctypes.Array[ctypes.c_char]) -> None: ...

class LiveBridgeHeader(_LiveView):
    def magic(self) -> int: ...
    def set_magic(self, value: int) -> None: ...
    def abi_major(self) -> int: ...
    def set_abi_major(self, value: int) -> None: ...
    def abi_minor(self) -> int: ...
    def set_abi_minor(self, value: int) -> None: ...
    def header_size(self) -> int: ...
    def set_header_size(self, value: int) -> None: ...
    def total_size(self) -> int: ...
    def set_total_size(self, value: int) -> None: ...
    def host_pid(self) -> int: ...
    def set_host_pid(self, value: int) -> None: ...
    def host_generation(self) -> int: ...
    def set_host_generation(self, value: int) -> None: ...
    def fetch_add_host_generation(self, value: int) -> int: ...
    def host_state(self) -> HostState: ...
    def set_host_state(self, value: HostState | int) -> None: ...
    def region_count(self) -> int: ...
    def set_region_count(self, value: int) -> None: ...
    def host_version(self) -> str: ...
    def set_host_version(self, value: bytes | bytearray | str | ctypes.Array[ctypes.c_char]) -> None: ...
    def regions(self) -> _Array[RegionEntry]: ...
    def set_regions(self, value: Iterable[RegionEntry]) -> None: ...
    def clock_mono_ns(self) -> int: ...
    def set_clock_mono_ns(self, value: int) -> None: ...
    def clock_unix_ns(self) -> int: ...
    def set_clock_unix_ns(self, value: int) -> None: ...
    def ring_slots(self) -> int: ...
    def set_ring_slots(self, value: int) -> None: ...
    def ring_slot_size(self) -> int: ...
    def set_ring_slot_size(self, value: int) -> None: ...
    def max_clients(self) -> int: ...
    def set_max_clients(self, value: int) -> None: ...
    def client_block_size(self) -> int: ...
    def set_client_block_size(self, value: int) -> None: ...
    def client_entry_size(self) -> int: ...
    def set_client_entry_size(self, value: int) -> None: ...
    def pad_owner(self) -> tuple[int, int, int, int]: ...
    def compare_exchange_pad_owner(self, current: Iterable[int], new: Iterable[int]) -> tuple[bool, tuple[int, int, int, int]]: ...
    def compare_exchange_pad_owner_at(self, index: int, current: int, new: int) -> tuple[bool, int]: ...
    def snapshot_seq(self) -> int: ...
    def set_snapshot_seq(self, value: int) -> None: ...
    def fetch_add_snapshot_seq(self, value: int) -> int: ...
    def clients(self, index: int) -> LiveClientEntry: ...
    def controls(self) -> Controls | None: ...
    def set_controls(self, value: Controls) -> None: ...
    def run_mode(self) -> RunMode | None: ...
    def set_run_mode(self, value: RunMode | int) -> None: ...
    def sim_state(self) -> SimState | None: ...
    def set_sim_state(self, value: SimState | int) -> None: ...
    def lockstep_timeout_ms(self) -> int | None: ...
    def set_lockstep_timeout_ms(self, value: int) -> None: ...

class LiveDrawHeader(_LiveView):
    def state(self) -> int: ...
    def set_state(self, value: int) -> None: ...
    def fetch_add_state(self, value: int) -> int: ...
    def compare_exchange_state(self, current: int, new: int) -> tuple[bool, int]: ...
    def swap_state(self, value: int) -> int: ...
    def buffers(self) -> int: ...
    def set_buffers(self, value: int) -> None: ...
    def buffer_size(self) -> int: ...
    def set_buffer_size(self, value: int) -> None: ...
    def max_commands(self) -> int: ...
    def set_max_commands(self, value: int) -> None: ...
    def max_payload(self) -> int: ...
    def set_max_payload(self, value: int) -> None: ...
    def published(self) -> int: ...
    def set_published(self, value: int) -> None: ...
    def fetch_add_published(self, value: int) -> int: ...

class LiveDrawListHeader(_LiveView):
    def seq(self) -> int: ...
    def set_seq(self, value: int) -> None: ...
    def count(self) -> int: ...
    def set_count(self, value: int) -> None: ...
    def payload_len(self) -> int: ...
    def set_payload_len(self, value: int) -> None: ...
    def ttl_ms(self) -> int: ...
    def set_ttl_ms(self, value: int) -> None: ...
    def flags(self) -> DrawListFlags: ...
    def set_flags(self, value: DrawListFlags | int) -> None: ...
    def dropped(self) -> int: ...
    def set_dropped(self, value: int) -> None: ...
    def for_tick(self) -> int: ...
    def set_for_tick(self, value: int) -> None: ...

class LiveParamsHeader(_LiveView):
    def defs_seq(self) -> int: ...
    def values_seq(self) -> int: ...
    def changes(self) -> int: ...
    def set_changes(self, value: int) -> None: ...
    def fetch_add_changes(self, value: int) -> int: ...
    def max_params(self) -> int: ...
    def set_max_params(self, value: int) -> None: ...
    def read_param_defs(self) -> ParamDefs: ...
    def read_param_defs_counted(self, max_tries: int) -> tuple[ParamDefs, int]: ...
    def write_param_defs_unscoped(self, value: ParamDefs) -> None: ...
    def write_param_defs(self, session: object, value: ParamDefs) -> None: ...
    def read_param_values(self) -> ParamValues: ...
    def read_param_values_counted(self, max_tries: int) -> tuple[ParamValues, int]: ...
    def write_param_values(self, value: ParamValues) -> None: ...

class LiveStatsHeader(_LiveView):
    def seq(self) -> int: ...
    def max_stats(self) -> int: ...
    def set_max_stats(self, value: int) -> None: ...
    def ticks(self) -> int: ...
    def set_ticks(self, value: int) -> None: ...
    def fetch_add_ticks(self, value: int) -> int: ...
    def skipped(self) -> int: ...
    def set_skipped(self, value: int) -> None: ...
    def fetch_add_skipped(self, value: int) -> int: ...
    def wake_p50_us(self) -> float: ...
    def set_wake_p50_us(self, value: float) -> None: ...
    def wake_p99_us(self) -> float: ...
    def set_wake_p99_us(self, value: float) -> None: ...
    def read_stats(self) -> Stats: ...
    def read_stats_counted(self, max_tries: int) -> tuple[Stats, int]: ...
    def write_stats_unscoped(self, value: Stats) -> None: ...
    def write_stats(self, session: object, value: Stats) -> None: ...

class LiveMailboxHeader(_LiveView):
    def request_seq(self) -> int: ...
    def set_request_seq(self, value: int) -> None: ...
    def fetch_add_request_seq(self, value: int) -> int: ...
    def request_len(self) -> int: ...
    def set_request_len(self, value: int) -> None: ...
    def response_seq(self) -> int: ...
    def set_response_seq(self, value: int) -> None: ...
    def fetch_add_response_seq(self, value: int) -> int: ...
    def status(self) -> CommandStatus: ...
    def set_status(self, value: CommandStatus | int) -> None: ...
    def response_len(self) -> int: ...
    def set_response_len(self, value: int) -> None: ...
    def response_total(self) -> int: ...
    def set_response_total(self, value: int) -> None: ...
    def request_capacity(self) -> int: ...
    def set_request_capacity(self, value: int) -> None: ...
    def response_capacity(self) -> int: ...
    def set_response_capacity(self, value: int) -> None: ...

class LiveRingSlotHeader(_LiveView):
    def seq(self) -> int: ...
    def read_ring_slot(self) -> RingSlot: ...
    def read_ring_slot_counted(self, max_tries: int) -> tuple[RingSlot, int]: ...
    def write_ring_slot(self, value: RingSlot) -> None: ...

class LiveLogRingHeader(_LiveView):
    def write_pos(self) -> int: ...
    def set_write_pos(self, value: int) -> None: ...
    def fetch_add_write_pos(self, value: int) -> int: ...
    def tail_pos(self) -> int: ...
    def set_tail_pos(self, value: int) -> None: ...
    def fetch_add_tail_pos(self, value: int) -> int: ...
    def capacity(self) -> int: ...
    def set_capacity(self, value: int) -> None: ...
    def entries(self) -> int: ...
    def set_entries(self, value: int) -> None: ...
    def fetch_add_entries(self, value: int) -> int: ...

class LiveLogQueueHeader(_LiveView):
    def write_pos(self) -> int: ...
    def set_write_pos(self, value: int) -> None: ...
    def fetch_add_write_pos(self, value: int) -> int: ...
    def dropped(self) -> int: ...
    def set_dropped(self, value: int) -> None: ...
    def fetch_add_dropped(self, value: int) -> int: ...
    def capacity(self) -> int: ...
    def set_capacity(self, value: int) -> None: ...
    def read_pos(self) -> int: ...
    def set_read_pos(self, value: int) -> None: ...
    def fetch_add_read_pos(self, value: int) -> int: ...

class LiveClientBlockHeader(_LiveView):
    def size(self) -> int: ...
    def set_size(self, value: int) -> None: ...
    def region_count(self) -> int: ...
    def set_region_count(self, value: int) -> None: ...
    def regions(self) -> _Array[RegionEntry]: ...
    def set_regions(self, value: Iterable[RegionEntry]) -> None: ...

class LiveDirectoryEntry(_LiveView):
    def state(self) -> InstanceState: ...
    def pid(self) -> int: ...
    def set_pid(self, value: int) -> None: ...
    def process_time(self) -> int: ...
    def set_process_time(self, value: int) -> None: ...
    def abi_major(self) -> int: ...
    def set_abi_major(self, value: int) -> None: ...
    def abi_minor(self) -> int: ...
    def set_abi_minor(self, value: int) -> None: ...
    def host_version(self) -> str: ...
    def set_host_version(self, value: bytes | bytearray | str | ctypes.Array[ctypes.c_char]) -> None: ...

class LiveDirectoryHeader(_LiveView):
    def magic(self) -> int: ...
    def set_magic(self, value: int) -> None: ...
    def entry_count(self) -> int: ...
    def set_entry_count(self, value: int) -> None: ...
    def entry_size(self) -> int: ...
    def set_entry_size(self, value: int) -> None: ...
    def entries(self, index: int) -> LiveDirectoryEntry: ...

class LivePadInput(_LiveView):
    def seq(self) -> int: ...
    def read_pad_input(self) -> PadInput: ...
    def read_pad_input_counted(self, max_tries: int) -> tuple[PadInput, int]: ...
    def write_pad_input_unscoped(self, value: PadInput) -> None: ...
    def write_pad_input(self, session: object, value: PadInput) -> None: ...

class SnapshotRing:
    SLOT_COUNT: ClassVar[int]
    SLOT_SIZE: ClassVar[int]
    def __init__(self, header: LiveBridgeHeader, buf: _Buffer, offset: int = 0, slot_count: int = ..., slot_size: int = ...) -> None: ...
    @property
    def slot_count(self) -> int: ...
    @property
    def slot_size(self) -> int: ...
    def release(self) -> None: ...
    def head(self) -> int: ...
    def slot(self, index: int) -> LiveRingSlotHeader: ...
    def read_newest(self) -> RingSlot | None: ...
    def read_newest_counted(self, max_tries: int) -> tuple[RingSlot, int] | None: ...
    def publish(self, value: RingSlot) -> int: ...

def events_since(record: Snapshot, count: int) -> tuple[list[tuple[int, Event]], int]: ...
def push_events(record: Snapshot, entry: Event) -> int: ...

class ProtocolError(ValueError):
    check: str
    def __init__(self, check: str, message: str) -> None: ...

class Empty: ...

EMPTY: Empty

class Lapped:
    missed: int
    def __init__(self, missed: int) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Standing(enum.IntEnum):
    CONNECTED = 0
    DISCONNECTED = 1
    RELOADED = 2
    HOST_EXITING = 3

class HungWatch:
    def __init__(self, rows: int, hung_ns: int) -> None: ...
    def is_hung(self, index: int, row: tuple[int, int, int] | None, now_ns: int) -> bool: ...

class LogQueueEntry:
    head: LogEntry
    source: bytes
    text: bytes
    def __init__(self, head: LogEntry, source: bytes, text: bytes) -> None: ...

class LogQueue:
    def __init__(self, view: LiveLogQueueHeader, session: object | None = None) -> None: ...
    @property
    def view(self) -> LiveLogQueueHeader: ...
    @property
    def capacity(self) -> int: ...
    @classmethod
    def unscoped(cls, view: LiveLogQueueHeader) -> LogQueue: ...
    def dropped(self) -> int: ...
    def push(self, head: LogEntry, source: bytes | str, text: bytes | str) -> bool: ...
    def pop(self) -> LogQueueEntry | None: ...

class LogRingEntry:
    head: LogEntry
    source: bytes
    text: bytes
    def __init__(self, head: LogEntry, source: bytes, text: bytes) -> None: ...

class LogRing:
    def __init__(self, view: LiveLogRingHeader) -> None: ...
    @property
    def view(self) -> LiveLogRingHeader: ...
    @property
    def capacity(self) -> int: ...
    @property
    def laps(self) -> int: ...
    def join_latest(self) -> None: ...
    def join_oldest(self) -> None: ...
    def push(self, head: LogEntry, source: bytes | str, text: bytes | str) -> int: ...
    def read_next(self) -> LogRingEntry | Empty | Lapped: ...

class MailboxResponse:
    status: CommandStatus
    text: bytes
    cut: bool
    total: int
    seq: int
    def __init__(self, status: CommandStatus, text: bytes, cut: bool, total: int, seq: int) -> None: ...

class Mailbox:
    waits: int
    def __init__(self, view: LiveMailboxHeader, session: object | None = None) -> None: ...
    @classmethod
    def unscoped(cls, view: LiveMailboxHeader) -> Mailbox: ...
    @property
    def view(self) -> LiveMailboxHeader: ...
    @property
    def request_capacity(self) -> int: ...
    @property
    def response_capacity(self) -> int: ...
    def request(self, text: bytes | str) -> int: ...
    def poll_response(self, seq: int | None = None) -> MailboxResponse | None: ...
    def wait_response(self, timeout: float, seq: int | None = None) -> MailboxResponse | None: ...
    @overload
    def serve(self, answer: Callable[[bytes], tuple[int, bytes | str]], malformed: Literal[False] = False) -> int | None: ...
    @overload
    def serve(self, answer: Callable[[bytes | None], tuple[int, bytes | str]], malformed: Literal[True]) -> int | None: ...

class DrawList:
    head: DrawListHeader
    items: list[DrawCmd]
    payload: bytes
    def __init__(self, head: DrawListHeader, items: list[DrawCmd], payload: bytes) -> None: ...

class Draw:
    INITIAL_STATE: ClassVar[int]
    STALE_GRACE: ClassVar[int]
    def __init__(self, view: LiveDrawHeader, session: object | None = None) -> None: ...
    @classmethod
    def unscoped(cls, view: LiveDrawHeader) -> Draw: ...
    @property
    def view(self) -> LiveDrawHeader: ...
    @property
    def max_items(self) -> int: ...
    @property
    def max_payload(self) -> int: ...
    @property
    def count(self) -> int: ...
    @property
    def payload_len(self) -> int: ...
    @property
    def dropped(self) -> int: ...
    @property
    def absorbed(self) -> int: ...
    def reset(self) -> None: ...
    def reset_state(self) -> None: ...
    def begin(self, head: DrawListHeader | None = None) -> None: ...
    def add(self, item: DrawCmd, payload: bytes = b"") -> bool: ...
    def publish(self) -> bool: ...
    def take(self) -> DrawList | None: ...

class WakeStats:
    SAMPLES: ClassVar[int]
    ticks: int
    skipped: int
    def __init__(self) -> None: ...
    def record(self, last: int, seq: int, publish_ns: int, wake_ns: int | None = None) -> None: ...
    def percentiles_us(self) -> tuple[float, float]: ...

def store_tick_wake_stats(view: LiveStatsHeader, stats: WakeStats) -> None: ...

class Client:
    ROWS: ClassVar[int]
    HEARTBEAT_MS: ClassVar[int]
    HUNG_MS: ClassVar[int]
    def __init__(self, header: LiveBridgeHeader, index: int) -> None: ...
    @classmethod
    def claim(cls, header: LiveBridgeHeader, index: int, attached: int) -> Client | None: ...
    @property
    def row(self) -> LiveClientEntry: ...
    @property
    def index(self) -> int: ...
    @property
    def generation(self) -> int: ...
    @property
    def host_generation(self) -> int: ...
    def activate(self) -> bool: ...
    def heartbeat(self, now_ns: int | None = None) -> Standing: ...
    def set_waiting(self, waiting: bool) -> Standing: ...
    def standing(self) -> Standing: ...
    def scoped(self, writer: _T) -> _T: ...
    def close(self) -> bool: ...
    def bind_pad(self, pad: int) -> bool: ...
    def unbind_pad(self, pad: int) -> bool: ...
    @classmethod
    def pad_owner(cls, header: LiveBridgeHeader, pad: int) -> int | None: ...
    @classmethod
    def row_state(cls, header: LiveBridgeHeader, index: int) -> tuple[ClientState, int]: ...
    @classmethod
    def free(cls, host: _AttachHandle, index: int) -> int: ...
    @classmethod
    def reload(cls, host: _AttachHandle) -> int: ...
    @classmethod
    def exit(cls, host: _AttachHandle) -> None: ...
    @classmethod
    def host_waiting(cls, header: LiveBridgeHeader, index: int) -> bool: ...
    @classmethod
    def watch(cls, hung_ms: int | None = None) -> HungWatch: ...
    @classmethod
    def hung(cls, header: LiveBridgeHeader, index: int, watch: HungWatch, now_ns: int | None = None) -> bool: ...
    def wait_tick(self, last: int, timeout: float) -> tuple[int | None, int, bool]: ...
    @classmethod
    def host_set_tick(cls, header: LiveBridgeHeader, always: Iterable[int] = ()) -> int: ...
    def answer_input(self, pad: LivePadInput, value: PadInput) -> None: ...
    @classmethod
    def host_lockstep_bots(cls, header: LiveBridgeHeader) -> int: ...
    @classmethod
    def host_wait_input(cls, header: LiveBridgeHeader, pads: list[LivePadInput | None], tick: int, timeout: float, last: list[PadInput | None], misses: list[int]) -> tuple[int, int, int]: ...
    def request_commands(self, box: Mailbox, text: str | bytes) -> int: ...
    @classmethod
    def host_wait_commands(cls, boxes: list[LiveMailboxHeader | None], rows: int, timeout: float) -> int: ...

PROCESS_GONE: Final[int]
PROCESS_RUNNING: Final[int]
PROCESS_UNKNOWN: Final[int]

class DirectoryError(ValueError):
    name: str
    def __init__(self, name: str, message: str) -> None: ...

class DirectoryHost:
    row: int
    pid: int
    process_time: int
    abi_major: int
    abi_minor: int
    host_version: str
    def __init__(self, row: int, pid: int, process_time: int, abi_major: int, abi_minor: int, host_version: str) -> None: ...

def process_probe(pid: int) -> tuple[int, int]: ...

class _Directory:
    count: int
    size: int
    def __init__(self, buffer: Any) -> None: ...
    @classmethod
    def lay_out(cls: type[_D], buffer: Any) -> _D: ...
    @classmethod
    def open_or_create(cls: type[_D], path: str | None = None) -> tuple[_D, mmap.mmap, bool]: ...
    def release(self) -> None: ...
    def state(self, i: int) -> tuple[int, int]: ...
    def remove_stale(self, me: int, probe: Callable[[int], tuple[int, int]] = ...) -> int: ...
    def register(self, pid: int, process_time: int, host_version: str, probe: Callable[[int], tuple[int, int]] = ...) -> tuple[int, int]: ...
    def unregister(self, row_index: int, pid: int, process_time: int) -> bool: ...
    def list(self) -> tuple[list[DirectoryHost], int]: ...

_D = TypeVar("_D", bound=_Directory)

class Hosts(_Directory):
    WINDOWS_NAME: ClassVar[str]
    LINUX_PATH: ClassVar[str]
    SIZE: ClassVar[int]
    ABI_MAJOR: ClassVar[int]
    ABI_MINOR: ClassVar[int]

class HostService:
    KEEP: ClassVar[int]
    FREED_CLOSING: ClassVar[int]
    FREED_HUNG: ClassVar[int]
    FREED_DEAD: ClassVar[int]
    FREED_POLICY: ClassVar[int]
    DRAIN_MAX: ClassVar[int]
    host: Any
    watch: Any
    answer: Any
    log: Any
    draw: Any
    probe: Any
    readers: list[Any]
    counts: dict[str, int]
    last_error: Any
    def __init__(self, host: Any, hung_ms: int | None = None, answer: Any = None, log: Any = None, draw: Any = None, probe: Any = None) -> None: ...
    def serve_row(self, row: int) -> int: ...
    def drain_row(self, row: int) -> None: ...
    def take_row(self, row: int) -> int: ...
    def row_done(self, row: int, now_ns: int | None = None) -> int: ...
    def free_row(self, row: int, reason: int) -> None: ...
    def turn(self, now_ns: int | None = None) -> dict[str, int]: ...
    def reload(self) -> int: ...

_AttachCheck: TypeAlias = Literal["mapping_too_short", "bad_magic", "major_mismatch", "header_too_small", "header_beyond_mapping", "extent_beyond_mapping", "extent_too_small", "extent_beyond_block", "too_many_rows", "region_missing", "region_out_of_bounds", "region_misaligned", "region_too_small", "regions_overlap", "host_not_running", "host_reloaded", "geometry_mismatch", "geometry_zero", "geometry_misaligned", "geometry_too_small", "geometry_too_large"]

class AttachError(ValueError):
    check: _AttachCheck
    region: str
    expected: int | None
    found: int | None
    offset: int | None
    size: int | None
    limit: int | None
    align: int | None
    other: str | None
    def __init__(
        self,
        check: _AttachCheck,
        region: str = "",
        expected: int | None = None,
        found: int | None = None,
        offset: int | None = None,
        size: int | None = None,
        limit: int | None = None,
        align: int | None = None,
        other: str | None = None,
    ) -> None: ...
    @property
    def retryable(self) -> bool: ...

class _AttachHandle:
    def __init__(
        self,
        source: object,
        offset: int,
        extent: int,
        spans: tuple[tuple[int, int] | None, ...],
        values: tuple[int | None, ...],
        path: str,
        minor: int,
    ) -> None: ...
    @property
    def offset(self) -> int: ...
    @property
    def extent(self) -> int: ...
    @property
    def rows(self) -> tuple[str, ...]: ...
    def region(self, name: str) -> tuple[int, int] | None: ...
    def release(self) -> None: ...
    def __enter__(self: _Self) -> _Self: ...
    def __exit__(self, *exc_info: object) -> None: ...

_Record = TypeVar("_Record", bound=_Struct)

class VersionedRecord(Generic[_Record]):
    value: _Record
    producer: tuple[int, int]
    size: int
    extra: bytes
    absent: frozenset[str]
    def __init__(
        self,
        value: _Record,
        producer: tuple[int, int],
        size: int,
        extra: bytes,
        absent: frozenset[str],
    ) -> None: ...
    def __class_getitem__(cls, record: object) -> type[VersionedRecord[Any]]: ...
    # record.field is value.field, or None when the producer lacks it: a type per field
    # is more than a stub can say, so record.value.field is the typed read.
    def __getattr__(self, name: str) -> Any: ...

class Bridge(_AttachHandle):
    @property
    def producer(self) -> tuple[int, int]: ...
    @property
    def header_size(self) -> int: ...
    @property
    def generation(self) -> int: ...
    def reloaded(self) -> bool: ...
    def header(self) -> LiveBridgeHeader: ...
    def snapshot_ring(self) -> SnapshotRing: ...
    def client_blocks(self, index: int) -> ClientBlock | None: ...
    def log_ring(self) -> LiveLogRingHeader: ...
    def bot_blocks(self, index: int) -> BotBlock | None: ...

class ClientBlock(_AttachHandle):
    def log_queue(self) -> LiveLogQueueHeader: ...
    def pad_input(self) -> LivePadInput: ...
    def mailbox(self) -> LiveMailboxHeader: ...

class BotBlock(_AttachHandle):
    def draw(self) -> LiveDrawHeader: ...
    def params(self) -> LiveParamsHeader: ...
    def stats(self) -> LiveStatsHeader: ...

def attach(buffer: _Buffer) -> Bridge: ...

class ProduceError(ValueError):
    kind: str
    region: str
    expected: int | None
    found: int | None
    def __init__(
        self,
        kind: str,
        region: str = "",
        expected: int | None = None,
        found: int | None = None,
    ) -> None: ...

def lay_out(geometry: dict[str, int] | None = None, generation: int = 1) -> bytearray: ...
def produce(buffer: _Buffer, image: bytes | bytearray) -> Bridge: ...
def stamp_identity(
    image: bytearray,
    version: str | bytes = "",
    pid: int | None = None,
    mono_ns: int | None = None,
    unix_ns: int | None = None,
) -> None: ...
@overload
def read_versioned(cls: type[BridgeHeader], buffer: _Buffer) -> VersionedRecord[BridgeHeader]: ...
@overload
def read_versioned(cls: type[Snapshot], buffer: _Buffer) -> VersionedRecord[Snapshot]: ...

def relayout_keep(buffer: _Buffer, image: bytearray) -> None: ...
def relayout(buffer: _Buffer, image: bytearray) -> Bridge: ...

class FileFormatError(ValueError): ...

class FileIssue(tuple[int, str, str]):
    def __new__(cls, offset: int, path: str, message: str) -> FileIssue: ...
    @property
    def offset(self) -> int: ...
    @property
    def path(self) -> str: ...
    @property
    def message(self) -> str: ...

class IbfrecReader:
    issues: list[FileIssue]
    walked: bool
    def __init__(self, source: str | os.PathLike[str] | IO[bytes] | bytes | bytearray | memoryview) -> None: ...
    @property
    def header(self) -> RecFileHeader | None: ...
    @property
    def trailer(self) -> RecTrailer | None: ...
    @property
    def footer(self) -> RecFooter | None: ...
    @property
    def chunk_index(self) -> list[RecChunkEntry]: ...
    @property
    def marks(self) -> list[RecMark]: ...
    @property
    def chunks(self) -> list[RecChunkHeader]: ...
    def __iter__(self) -> Iterator[tuple[RecTickHeader, Snapshot, bytes]]: ...
    def seek_tick(self, key: int) -> tuple[RecTickHeader, Snapshot, bytes] | None: ...
    def check(self) -> list[FileIssue]: ...
    def close(self) -> None: ...
    def __enter__(self) -> IbfrecReader: ...
    def __exit__(self, *exc: object) -> bool: ...

class IbfrecWriter:
    def __init__(
        self,
        target: str | os.PathLike[str] | IO[bytes],
        header: RecFileHeader,
        chunk_ticks: int | None = None,
        keyframe_every: int | None = None,
    ) -> None: ...
    def push(self, record: RecTickHeader, decoded: Snapshot, extras: bytes = ...) -> None: ...
    def flush(self) -> None: ...
    def add_marks(self, record: RecMark) -> None: ...
    def finish(self, footer: RecFooter | None = None, trailer: RecTrailer | None = None) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> IbfrecWriter: ...
    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> bool: ...
