// generated from schema.toml; do not edit
//
// Needs, in the Cargo.toml of the crate that includes it:
//   zerocopy = { version = "0.8", features = ["derive", "alloc"] }
//   abi-runtime = { version = "0.1", features = ["recording"] }

/// Access to `char[N]` fields: NUL-terminated text in a fixed byte array.
pub mod text {
    /// The text of a `char[N]` field: the bytes up to the first NUL (all of them
    /// when there is none).
    ///
    /// # Errors
    ///
    /// The UTF-8 error when those bytes are not UTF-8.
    pub fn to_str(bytes: &[u8]) -> ::core::result::Result<&str, ::core::str::Utf8Error> {
        let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
        ::core::str::from_utf8(&bytes[..end])
    }

    /// Writes `text` into a `char[N]` field: cut at a character boundary so that
    /// a terminating NUL always fits, the rest zeroed.
    pub fn set(bytes: &mut [u8], text: &str) {
        let mut n = text.len().min(bytes.len().saturating_sub(1));
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        bytes[..n].copy_from_slice(&text.as_bytes()[..n]);
        bytes[n..].fill(0);
    }

    /// Shows a `char[N]` field as a string in `Debug` output.
    pub struct Debug<'a>(pub &'a [u8]);

    impl ::core::fmt::Debug for Debug<'_> {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            let end = self.0.iter().position(|b| *b == 0).unwrap_or(self.0.len());
            ::core::fmt::Debug::fmt(&::std::string::String::from_utf8_lossy(&self.0[..end]), f)
        }
    }
}

use ::abi_runtime::{abi_enum, abi_flags, abi_struct};

#[cfg(target_endian = "big")]
compile_error!(
    "the bridge ABI is little-endian: these bindings hold its fields in the target's byte order, so they do not support a big-endian target"
);
/// Major version of the bridge ABI these bindings were generated for.
pub const ABI_VERSION_MAJOR: u16 = 0;
/// Minor version of the bridge ABI these bindings were generated for.
pub const ABI_VERSION_MINOR: u16 = 9;
/// The ABI version as text, `MAJOR.MINOR`.
pub const ABI_VERSION: &str = "0.9";
/// 'IBFB' read as a little-endian u32
#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")]
pub const BRIDGE_MAGIC: u32 = 0x42464249;
/// 'IBFD' read as a little-endian u32
#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")]
pub const DIRECTORY_MAGIC: u32 = 0x44464249;
/// Client table rows, and client blocks
pub const MAX_CLIENTS: usize = 8;
/// Hosts the directory lists at once
pub const MAX_INSTANCES: usize = 16;
/// Rows in a layout table
pub const MAX_REGIONS: usize = 8;
/// Snapshot ring slots
pub const RING_SLOTS: u32 = 8;
/// Bytes per ring slot, its header included
pub const RING_SLOT_SIZE: u32 = 32768;
/// Bytes per client block
pub const CLIENT_BLOCK_SIZE: u32 = 0x10000;
/// Bytes of entries in the host log ring
pub const LOG_RING_CAPACITY: u32 = 0x10000;
/// Bytes of entries in a client's log queue
pub const LOG_QUEUE_CAPACITY: u32 = 16384;
/// Bytes in a client name, including the terminating NUL
pub const CLIENT_NAME_LEN: usize = 32;
/// Bytes in a host version string, including the terminating NUL
pub const VERSION_LEN: usize = 32;
/// Bytes of a log entry's source
pub const LOG_SOURCE_MAX: u32 = 32;
/// Bytes of a log entry's text; longer messages are split
pub const LOG_TEXT_MAX: u32 = 968;
/// No virtual pad bound; in pad_owner, a bot pad nobody owns
pub const NO_PAD: u8 = 255;
/// In pad_owner: the slot is not a bot pad (input.bot_pads), so no client can bind it
pub const PAD_NOT_BOT: u8 = 254;
/// Bytes of a command line a client may send, its terminating NUL included
pub const COMMAND_LINE_MAX: u32 = 1024;
/// Bytes per bot block: a client's draw lists, parameters and stats (ABI 0.5)
///
/// Since ABI 0.5.
pub const BOT_BLOCK_SIZE: u32 = 0x49000;
/// Draw lists per client: the client's, the shared one and the host's (a triple buffer)
pub const DRAW_BUFFERS: u32 = 3;
/// Commands in one draw list; more are dropped and the list marked overflow
pub const DRAW_MAX_COMMANDS: u32 = 2048;
/// Bytes of one draw list's payload: points, text and heatmap cells
pub const DRAW_PAYLOAD_MAX: u32 = 16384;
/// Parameters a client may declare
pub const MAX_PARAMS: u32 = 32;
/// Bytes in a parameter name, including the terminating NUL
pub const PARAM_NAME_LEN: usize = 32;
/// Bytes in a parameter's help text, including the terminating NUL
pub const PARAM_HELP_LEN: usize = 96;
/// Bytes of an enum parameter's options, separated by '\|', including the terminating NUL
pub const PARAM_OPTIONS_LEN: usize = 88;
/// Stats a client may publish
pub const MAX_STATS: u32 = 64;
/// Bytes in a stat name, including the terminating NUL
pub const STAT_NAME_LEN: usize = 24;
/// Bytes in a text stat, including the terminating NUL
pub const STAT_TEXT_LEN: usize = 24;
/// Player slots, and virtual pads
pub const MAX_PLAYERS: usize = 4;
/// Ship capacity of a snapshot
pub const MAX_SHIPS: usize = 16;
/// Projectile capacity of a snapshot
pub const MAX_PROJECTILES: usize = 128;
/// Pickup capacity of a snapshot
pub const MAX_PICKUPS: usize = 64;
/// Event ring capacity
pub const MAX_EVENTS: usize = 32;
/// Largest supported board width or height, in tiles
pub const BOARD_MAX_DIM: u32 = 64;
/// board_max_dim squared
///
/// Computed as `board_max_dim * board_max_dim`.
pub const BOARD_MAX_TILES: usize = 4096;
/// Custom probe entries per snapshot
pub const MAX_EXTRAS: usize = 64;
/// Bytes of custom probe data per snapshot
pub const EXTRAS_BLOB_MAX: u32 = 16384;
/// Bytes in a probe name, including the terminating NUL
pub const EXTRA_NAME_LEN: usize = 24;
/// 'IBFS' read as a little-endian u32
#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")]
pub const SNAPSHOT_MAGIC: u32 = 0x53464249;
/// Empty player slot, or unknown owner
pub const NO_PLAYER: u8 = 255;
/// Pickup spawn points a snapshot lists (ABI 0.6)
///
/// Since ABI 0.6.
pub const MAX_PICKUP_SPAWNS: usize = 16;
/// Arcade spawn markers a snapshot lists (ABI 0.9)
///
/// Since ABI 0.9.
pub const MAX_SPAWN_MARKERS: usize = 16;
/// 'IBFR' read as a little-endian u32: a recording's first bytes
#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")]
pub const REC_MAGIC: u32 = 0x52464249;
/// 'IBFC': a chunk header
#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")]
pub const REC_CHUNK_MAGIC: u32 = 0x43464249;
/// 'IBFX': the footer
#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")]
pub const REC_FOOTER_MAGIC: u32 = 0x58464249;
/// 'IBFE': the trailer, the file's last 16 bytes
#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")]
pub const REC_TRAILER_MAGIC: u32 = 0x45464249;
/// The .ibfrec layout version
pub const REC_FORMAT: u16 = 1;
/// Tick records per chunk (5 s at 60 Hz)
pub const REC_CHUNK_TICKS: u32 = 300;
/// Rows of the bridge header's layout table
///
/// An enum over `u32`: any value can be read, and [`BridgeRegion::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct BridgeRegion(pub u32);
impl BridgeRegion {
    pub const HEADER: BridgeRegion = BridgeRegion(0);
    pub const SNAPSHOT_RING: BridgeRegion = BridgeRegion(1);
    pub const CLIENT_BLOCKS: BridgeRegion = BridgeRegion(2);
    pub const LOG_RING: BridgeRegion = BridgeRegion(3);
    /// One bot block per client row: its draw lists, parameters and stats (ABI 0.5)
    ///
    /// Since ABI 0.5.
    pub const BOT_BLOCKS: BridgeRegion = BridgeRegion(4);
}
abi_enum!(
    BridgeRegion : u32 { HEADER = "header", SNAPSHOT_RING = "snapshot_ring",
    CLIENT_BLOCKS = "client_blocks", LOG_RING = "log_ring", BOT_BLOCKS = "bot_blocks" }
);
/// Rows of a bot block's layout table
///
/// An enum over `u32`: any value can be read, and [`BotRegion::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct BotRegion(pub u32);
impl BotRegion {
    /// A draw_header, then draw_buffers draw lists (design 8.4)
    pub const DRAW: BotRegion = BotRegion(0);
    /// A params_header, then max_params param_def, then max_params param_value (design 8.6)
    pub const PARAMS: BotRegion = BotRegion(1);
    /// A stats_header, then max_stats stat_entry (design 8.6)
    pub const STATS: BotRegion = BotRegion(2);
}
abi_enum!(BotRegion : u32 { DRAW = "draw", PARAMS = "params", STATS = "stats" });
/// A set of flags over `u32`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct DrawListFlags(pub u32);
impl DrawListFlags {
    /// Commands or payload did not fit and were dropped
    pub const OVERFLOW: DrawListFlags = DrawListFlags(0x1);
}
abi_flags!(DrawListFlags : u32 { OVERFLOW = "overflow" });
/// What a parameter's control is (design 8.6)
///
/// An enum over `u8`: any value can be read, and [`ParamKind::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ParamKind(pub u8);
impl ParamKind {
    /// A checkbox: value 0 or 1
    pub const BOOL: ParamKind = ParamKind(0);
    /// A whole number between min and max
    pub const INT: ParamKind = ParamKind(1);
    /// A number between min and max
    pub const FLOAT: ParamKind = ParamKind(2);
    /// One of the options: value is its index
    pub const ENUM: ParamKind = ParamKind(3);
    /// A button: value counts the presses
    pub const BUTTON: ParamKind = ParamKind(4);
    /// A colour: value is its RGBA as a u32 (R in the low byte)
    pub const COLOR: ParamKind = ParamKind(5);
}
abi_enum!(
    ParamKind : u8 { BOOL = "bool", INT = "int", FLOAT = "float", ENUM = "enum", BUTTON =
    "button", COLOR = "color" }
);
/// An enum over `u8`: any value can be read, and [`StatKind::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct StatKind(pub u8);
impl StatKind {
    pub const NUMBER: StatKind = StatKind(0);
    pub const TEXT: StatKind = StatKind(1);
}
abi_enum!(StatKind : u8 { NUMBER = "number", TEXT = "text" });
/// A set of flags over `u8`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct StatFlags(pub u8);
impl StatFlags {
    /// Keep a sparkline of the last 300 values
    pub const PLOT: StatFlags = StatFlags(0x1);
}
abi_flags!(StatFlags : u8 { PLOT = "plot" });
/// Rows of a client block's layout table
///
/// An enum over `u32`: any value can be read, and [`ClientRegion::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ClientRegion(pub u32);
impl ClientRegion {
    /// The client's log entries, for the host to drain
    pub const LOG_QUEUE: ClientRegion = ClientRegion(0);
    /// The client's virtual pad: one pad_input record, which the host reads on each XInput poll
    pub const PAD_INPUT: ClientRegion = ClientRegion(1);
    /// Command requests from the client and their results from the host
    pub const MAILBOX: ClientRegion = ClientRegion(2);
}
abi_enum!(
    ClientRegion : u32 { LOG_QUEUE = "log_queue", PAD_INPUT = "pad_input", MAILBOX =
    "mailbox" }
);
/// How the host answered a command request
///
/// An enum over `u32`: any value can be read, and [`CommandStatus::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct CommandStatus(pub u32);
impl CommandStatus {
    /// Not answered yet
    pub const NONE: CommandStatus = CommandStatus(0);
    /// The command ran and succeeded
    pub const OK: CommandStatus = CommandStatus(1);
    /// The command ran and failed, or there is no such command
    pub const FAILED: CommandStatus = CommandStatus(2);
    /// The host takes no commands, or the request was malformed
    pub const REFUSED: CommandStatus = CommandStatus(3);
}
abi_enum!(
    CommandStatus : u32 { NONE = "none", OK = "ok", FAILED = "failed", REFUSED =
    "refused" }
);
/// The stick that moves a ship (design 7.7)
///
/// An enum over `u8`: any value can be read, and [`ControlStick::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ControlStick(pub u8);
impl ControlStick {
    pub const LEFT_STICK: ControlStick = ControlStick(0);
    pub const RIGHT_STICK: ControlStick = ControlStick(1);
    pub const DPAD: ControlStick = ControlStick(2);
}
abi_enum!(
    ControlStick : u8 { LEFT_STICK = "left_stick", RIGHT_STICK = "right_stick", DPAD =
    "dpad" }
);
/// Whether the game waits for its bots (design 4.5; ABI 0.7)
///
/// An enum over `u8`: any value can be read, and [`RunMode::name`] says whether the schema declares it.
///
/// Since ABI 0.7.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct RunMode(pub u8);
impl RunMode {
    /// The game never waits: each poll reads the newest input
    pub const REALTIME: RunMode = RunMode(0);
    /// After each tick the host waits until every bot pad answers it, up to lockstep_timeout_ms
    pub const LOCKSTEP: RunMode = RunMode(1);
}
abi_enum!(RunMode : u8 { REALTIME = "realtime", LOCKSTEP = "lockstep" });
/// Whether the game's steps run (design 4.5; ABI 0.7)
///
/// An enum over `u8`: any value can be read, and [`SimState::name`] says whether the schema declares it.
///
/// Since ABI 0.7.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct SimState(pub u8);
impl SimState {
    pub const RUNNING: SimState = SimState(0);
    /// sim.pause: the steps are skipped, the game still draws; sim.step lets some through
    pub const PAUSED: SimState = SimState(1);
}
abi_enum!(SimState : u8 { RUNNING = "running", PAUSED = "paused" });
/// A client table row's state (design 6.5)
///
/// An enum over `u32`: any value can be read, and [`ClientState::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ClientState(pub u32);
impl ClientState {
    pub const FREE: ClientState = ClientState(0);
    /// A client won the row and is filling it in
    pub const CLAIMED: ClientState = ClientState(1);
    pub const ACTIVE: ClientState = ClientState(2);
    /// The client said goodbye; the host frees the row
    pub const CLOSING: ClientState = ClientState(3);
}
abi_enum!(
    ClientState : u32 { FREE = "free", CLAIMED = "claimed", ACTIVE = "active", CLOSING =
    "closing" }
);
/// What a client takes part in
///
/// A set of flags over `u32`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ClientCaps(pub u32);
impl ClientCaps {
    /// Set my tick event after each publish
    pub const TICKS: ClientCaps = ClientCaps(0x1);
    /// A tool (the CLI), not a bot: not counted among the bots
    pub const TOOL: ClientCaps = ClientCaps(0x2);
    /// Set by the host's TCP proxy for a client over TCP (design 6.6): the files its commands write stay in ibf\\remote (ABI 0.8)
    ///
    /// Since ABI 0.8.
    pub const REMOTE: ClientCaps = ClientCaps(0x4);
}
abi_flags!(ClientCaps : u32 { TICKS = "ticks", TOOL = "tool", REMOTE = "remote" });
/// An enum over `u32`: any value can be read, and [`HostState::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct HostState(pub u32);
impl HostState {
    pub const STARTING: HostState = HostState(0);
    pub const RUNNING: HostState = HostState(1);
    /// The game is closing; clients should disconnect
    pub const EXITING: HostState = HostState(2);
}
abi_enum!(
    HostState : u32 { STARTING = "starting", RUNNING = "running", EXITING = "exiting" }
);
/// A directory row's state
///
/// An enum over `u32`: any value can be read, and [`InstanceState::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct InstanceState(pub u32);
impl InstanceState {
    pub const FREE: InstanceState = InstanceState(0);
    /// A host won the row and is filling it in
    pub const CLAIMED: InstanceState = InstanceState(1);
    pub const LIVE: InstanceState = InstanceState(2);
}
abi_enum!(InstanceState : u32 { FREE = "free", CLAIMED = "claimed", LIVE = "live" });
/// An enum over `u8`: any value can be read, and [`LogEntryKind::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct LogEntryKind(pub u8);
impl LogEntryKind {
    pub const RECORD: LogEntryKind = LogEntryKind(0);
    /// Fills the ring to its end; the next entry starts at offset 0
    pub const PADDING: LogEntryKind = LogEntryKind(1);
}
abi_enum!(LogEntryKind : u8 { RECORD = "record", PADDING = "padding" });
/// An enum over `u8`: any value can be read, and [`DrawOp::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct DrawOp(pub u8);
impl DrawOp {
    pub const LINE: DrawOp = DrawOp(0);
    pub const POLYLINE: DrawOp = DrawOp(1);
    pub const RECT: DrawOp = DrawOp(2);
    pub const RECT_FILL: DrawOp = DrawOp(3);
    pub const CIRCLE: DrawOp = DrawOp(4);
    pub const CIRCLE_FILL: DrawOp = DrawOp(5);
    pub const TEXT: DrawOp = DrawOp(6);
    pub const ARROW: DrawOp = DrawOp(7);
    pub const TILE_FILL: DrawOp = DrawOp(8);
    pub const TILE_OUTLINE: DrawOp = DrawOp(9);
    pub const HEATMAP: DrawOp = DrawOp(10);
}
abi_enum!(
    DrawOp : u8 { LINE = "line", POLYLINE = "polyline", RECT = "rect", RECT_FILL =
    "rect_fill", CIRCLE = "circle", CIRCLE_FILL = "circle_fill", TEXT = "text", ARROW =
    "arrow", TILE_FILL = "tile_fill", TILE_OUTLINE = "tile_outline", HEATMAP = "heatmap"
    }
);
/// An enum over `u8`: any value can be read, and [`DrawSpace::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct DrawSpace(pub u8);
impl DrawSpace {
    /// Tiles, origin at the board centre, +Y up
    pub const WORLD: DrawSpace = DrawSpace(0);
    /// Integer tile coordinates
    pub const TILE: DrawSpace = DrawSpace(1);
    /// Back-buffer pixels
    pub const SCREEN: DrawSpace = DrawSpace(2);
    /// \0..1 across the back buffer
    pub const SCREEN_NORM: DrawSpace = DrawSpace(3);
}
abi_enum!(
    DrawSpace : u8 { WORLD = "world", TILE = "tile", SCREEN = "screen", SCREEN_NORM =
    "screen_norm" }
);
/// An enum over `u8`: any value can be read, and [`DrawLayer::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct DrawLayer(pub u8);
impl DrawLayer {
    pub const BELOW_PANELS: DrawLayer = DrawLayer(0);
    pub const ABOVE_PANELS: DrawLayer = DrawLayer(1);
}
abi_enum!(
    DrawLayer : u8 { BELOW_PANELS = "below_panels", ABOVE_PANELS = "above_panels" }
);
/// A set of flags over `u8`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct DrawFlags(pub u8);
impl DrawFlags {
    pub const ANTIALIAS: DrawFlags = DrawFlags(0x1);
    /// Fade out over the list's time to live
    pub const FADE: DrawFlags = DrawFlags(0x2);
    /// polyline: join the last point to the first (ABI 0.5)
    ///
    /// Since ABI 0.5.
    pub const CLOSED: DrawFlags = DrawFlags(0x4);
    /// text: centred on its point instead of hanging from it (ABI 0.5)
    ///
    /// Since ABI 0.5.
    pub const CENTERED: DrawFlags = DrawFlags(0x8);
}
abi_flags!(
    DrawFlags : u8 { ANTIALIAS = "antialias", FADE = "fade", CLOSED = "closed", CENTERED
    = "centered" }
);
/// How a heatmap's values become colours (ABI 0.5)
///
/// An enum over `u8`: any value can be read, and [`HeatmapPalette::name`] says whether the schema declares it.
///
/// Since ABI 0.5.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct HeatmapPalette(pub u8);
impl HeatmapPalette {
    /// The command's colour, its alpha scaled by the value
    pub const TINT: HeatmapPalette = HeatmapPalette(0);
    /// Black through red and orange to yellow
    pub const INFERNO: HeatmapPalette = HeatmapPalette(1);
    /// Purple through teal to yellow
    pub const VIRIDIS: HeatmapPalette = HeatmapPalette(2);
    /// Blue through white to red: 128 is white
    pub const COOLWARM: HeatmapPalette = HeatmapPalette(3);
    /// Black to white
    pub const GREYS: HeatmapPalette = HeatmapPalette(4);
}
abi_enum!(
    HeatmapPalette : u8 { TINT = "tint", INFERNO = "inferno", VIRIDIS = "viridis",
    COOLWARM = "coolwarm", GREYS = "greys" }
);
/// A set of flags over `u8`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct HeatmapFlags(pub u8);
impl HeatmapFlags {
    /// A value of 0 draws nothing
    pub const ZERO_CLEAR: HeatmapFlags = HeatmapFlags(0x1);
}
abi_flags!(HeatmapFlags : u8 { ZERO_CLEAR = "zero_clear" });
/// Log severity, lowest first
///
/// An enum over `u8`: any value can be read, and [`LogLevel::name`] says whether the schema declares it.
///
/// Ordered: the values rank lowest first, so `<` compares them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct LogLevel(pub u8);
impl LogLevel {
    pub const TRACE: LogLevel = LogLevel(0);
    pub const DEBUG: LogLevel = LogLevel(1);
    pub const INFO: LogLevel = LogLevel(2);
    pub const WARN: LogLevel = LogLevel(3);
    pub const ERROR: LogLevel = LogLevel(4);
}
abi_enum!(
    LogLevel : u8 { TRACE = "trace", DEBUG = "debug", INFO = "info", WARN = "warn", ERROR
    = "error" }
);
/// XINPUT_GAMEPAD\_\* button bits
///
/// A set of flags over `u16`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct PadButtons(pub u16);
impl PadButtons {
    pub const DPAD_UP: PadButtons = PadButtons(0x1);
    pub const DPAD_DOWN: PadButtons = PadButtons(0x2);
    pub const DPAD_LEFT: PadButtons = PadButtons(0x4);
    pub const DPAD_RIGHT: PadButtons = PadButtons(0x8);
    pub const START: PadButtons = PadButtons(0x10);
    pub const BACK: PadButtons = PadButtons(0x20);
    pub const LEFT_THUMB: PadButtons = PadButtons(0x40);
    pub const RIGHT_THUMB: PadButtons = PadButtons(0x80);
    pub const LEFT_SHOULDER: PadButtons = PadButtons(0x100);
    pub const RIGHT_SHOULDER: PadButtons = PadButtons(0x200);
    pub const A: PadButtons = PadButtons(0x1000);
    pub const B: PadButtons = PadButtons(0x2000);
    pub const X: PadButtons = PadButtons(0x4000);
    pub const Y: PadButtons = PadButtons(0x8000);
}
abi_flags!(
    PadButtons : u16 { DPAD_UP = "dpad_up", DPAD_DOWN = "dpad_down", DPAD_LEFT =
    "dpad_left", DPAD_RIGHT = "dpad_right", START = "start", BACK = "back", LEFT_THUMB =
    "left_thumb", RIGHT_THUMB = "right_thumb", LEFT_SHOULDER = "left_shoulder",
    RIGHT_SHOULDER = "right_shoulder", A = "a", B = "b", X = "x", Y = "y" }
);
/// A set of flags over `u32`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct PadInputFlags(pub u32);
impl PadInputFlags {
    /// Set on every write; a record without it reads neutral (bot pads stay connected: design 7.8)
    pub const CONNECTED: PadInputFlags = PadInputFlags(0x1);
}
abi_flags!(PadInputFlags : u32 { CONNECTED = "connected" });
/// An enum over `u8`: any value can be read, and [`RecRecordKind::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct RecRecordKind(pub u8);
impl RecRecordKind {
    /// The snapshot as published
    pub const KEYFRAME: RecRecordKind = RecRecordKind(1);
    /// The snapshot XORed with the record before it
    pub const DELTA: RecRecordKind = RecRecordKind(2);
}
abi_enum!(RecRecordKind : u8 { KEYFRAME = "keyframe", DELTA = "delta" });
/// Who answered a pad's last poll
///
/// An enum over `u8`: any value can be read, and [`RecPadSource::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct RecPadSource(pub u8);
impl RecPadSource {
    /// Not polled yet, or not connected
    pub const NONE: RecPadSource = RecPadSource(0);
    /// A bridge client's pad record
    pub const BOT: RecPadSource = RecPadSource(1);
    /// The host: pad.\* commands, or the Navigator
    pub const SCRIPT: RecPadSource = RecPadSource(2);
    /// A real controller passed through
    pub const REAL: RecPadSource = RecPadSource(3);
}
abi_enum!(
    RecPadSource : u8 { NONE = "none", BOT = "bot", SCRIPT = "script", REAL = "real" }
);
/// Game phase, mapped from the menu ID by the profile
///
/// An enum over `u8`: any value can be read, and [`Phase::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct Phase(pub u8);
impl Phase {
    pub const UNKNOWN: Phase = Phase(0);
    /// Splash screens and loading
    pub const BOOT: Phase = Phase(1);
    pub const MENU: Phase = Phase(2);
    pub const LOBBY: Phase = Phase(3);
    pub const GET_READY: Phase = Phase(4);
    pub const GO: Phase = Phase(5);
    pub const PLAYING: Phase = Phase(6);
    /// The local player is dead but the round continues
    pub const DEAD: Phase = Phase(7);
    pub const ROUND_OVER: Phase = Phase(8);
    pub const GAME_OVER: Phase = Phase(9);
}
abi_enum!(
    Phase : u8 { UNKNOWN = "unknown", BOOT = "boot", MENU = "menu", LOBBY = "lobby",
    GET_READY = "get_ready", GO = "go", PLAYING = "playing", DEAD = "dead", ROUND_OVER =
    "round_over", GAME_OVER = "game_over" }
);
/// Ship or tile colour
///
/// An enum over `u8`: any value can be read, and [`Color::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct Color(pub u8);
impl Color {
    pub const WHITE: Color = Color(0);
    pub const BLACK: Color = Color(1);
    pub const UNKNOWN: Color = Color(255);
}
abi_enum!(Color : u8 { WHITE = "white", BLACK = "black", UNKNOWN = "unknown" });
/// Board tile state
///
/// An enum over `u8`: any value can be read, and [`Tile::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct Tile(pub u8);
impl Tile {
    /// Walkable by black ships
    pub const WHITE: Tile = Tile(0);
    /// Walkable by white ships
    pub const BLACK: Tile = Tile(1);
    /// No tile: outside the playfield, or a hole in the map
    pub const NONE: Tile = Tile(255);
}
abi_enum!(Tile : u8 { WHITE = "white", BLACK = "black", NONE = "none" });
/// One of the four shot directions
///
/// An enum over `u8`: any value can be read, and [`Dir::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct Dir(pub u8);
impl Dir {
    pub const NONE: Dir = Dir(0);
    pub const UP: Dir = Dir(1);
    pub const DOWN: Dir = Dir(2);
    pub const LEFT: Dir = Dir(3);
    pub const RIGHT: Dir = Dir(4);
}
abi_enum!(
    Dir : u8 { NONE = "none", UP = "up", DOWN = "down", LEFT = "left", RIGHT = "right" }
);
/// An enum over `u8`: any value can be read, and [`ProjectileKind::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ProjectileKind(pub u8);
impl ProjectileKind {
    pub const NORMAL: ProjectileKind = ProjectileKind(0);
    /// Red shot from a pickup
    pub const FAST: ProjectileKind = ProjectileKind(1);
    pub const UNKNOWN: ProjectileKind = ProjectileKind(255);
}
abi_enum!(ProjectileKind : u8 { NORMAL = "normal", FAST = "fast", UNKNOWN = "unknown" });
/// An enum over `u8`: any value can be read, and [`PickupKind::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct PickupKind(pub u8);
impl PickupKind {
    /// Grants red shots; amount says how many
    pub const FAST_SHOTS: PickupKind = PickupKind(0);
    /// Square power-up: 4 s of breaking the cells the ship runs into, and of x1.5 speed
    pub const BLOCK_EAT: PickupKind = PickupKind(1);
    pub const UNKNOWN: PickupKind = PickupKind(255);
    /// Shield power-up: 10 s in which a hit breaks the shield instead of the ship (ABI 0.6)
    ///
    /// Since ABI 0.6.
    pub const SHIELD: PickupKind = PickupKind(2);
}
abi_enum!(
    PickupKind : u8 { FAST_SHOTS = "fast_shots", BLOCK_EAT = "block_eat", UNKNOWN =
    "unknown", SHIELD = "shield" }
);
/// Which game is running (ABI 0.6)
///
/// An enum over `u8`: any value can be read, and [`GameType::name`] says whether the schema declares it.
///
/// Since ABI 0.6.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct GameType(pub u8);
impl GameType {
    /// No game yet: the menus at start-up (after a game they keep its type, with no map)
    pub const NONE: GameType = GameType(0);
    pub const VERSUS: GameType = GameType(1);
    pub const ARCADE: GameType = GameType(2);
    pub const UNKNOWN: GameType = GameType(255);
}
abi_enum!(
    GameType : u8 { NONE = "none", VERSUS = "versus", ARCADE = "arcade", UNKNOWN =
    "unknown" }
);
/// Where the round is (ABI 0.6)
///
/// An enum over `u8`: any value can be read, and [`RoundState::name`] says whether the schema declares it.
///
/// Since ABI 0.6.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct RoundState(pub u8);
impl RoundState {
    /// Not started: get ready, or no game
    pub const NONE: RoundState = RoundState(0);
    pub const PLAYING: RoundState = RoundState(1);
    /// A team won (or, in arcade, the last life went); the round is ending
    pub const DECIDED: RoundState = RoundState(2);
    pub const UNKNOWN: RoundState = RoundState(255);
}
abi_enum!(
    RoundState : u8 { NONE = "none", PLAYING = "playing", DECIDED = "decided", UNKNOWN =
    "unknown" }
);
/// A pickup spawn point's state (ABI 0.6)
///
/// An enum over `u8`: any value can be read, and [`SpawnState::name`] says whether the schema declares it.
///
/// Since ABI 0.6.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct SpawnState(pub u8);
impl SpawnState {
    /// Spawns on the next step
    pub const DUE: SpawnState = SpawnState(0);
    /// Its pickup is on the board
    pub const OUT: SpawnState = SpawnState(1);
    /// Spawns in time_left seconds
    pub const WAITING: SpawnState = SpawnState(2);
}
abi_enum!(SpawnState : u8 { DUE = "due", OUT = "out", WAITING = "waiting" });
/// What an arcade enemy does (ABI 0.9)
///
/// An enum over `u8`: any value can be read, and [`EnemyKind::name`] says whether the schema declares it.
///
/// Since ABI 0.9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct EnemyKind(pub u8);
impl EnemyKind {
    pub const UNKNOWN: EnemyKind = EnemyKind(0);
    /// Breaks the cells it runs into
    pub const SMASH: EnemyKind = EnemyKind(1);
    /// Fires at the players
    pub const SHOOT: EnemyKind = EnemyKind(2);
    /// Both
    pub const SMASH_SHOOT: EnemyKind = EnemyKind(3);
}
abi_enum!(
    EnemyKind : u8 { UNKNOWN = "unknown", SMASH = "smash", SHOOT = "shoot", SMASH_SHOOT =
    "smash_shoot" }
);
/// Events derived by diffing consecutive ticks (design section 5.5)
///
/// An enum over `u16`: any value can be read, and [`EventKind::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct EventKind(pub u16);
impl EventKind {
    /// Unused ring slot
    pub const NONE: EventKind = EventKind(0);
    /// a = old menu ID, b = new menu ID
    pub const MENU_CHANGED: EventKind = EventKind(1);
    pub const MATCH_STARTED: EventKind = EventKind(2);
    /// a = round number
    pub const ROUND_STARTED: EventKind = EventKind(3);
    /// a = winner player ID or -1
    pub const ROUND_ENDED: EventKind = EventKind(4);
    /// a = winner player ID, or -1 for no winner (a tie, or a match abandoned for a menu)
    pub const MATCH_ENDED: EventKind = EventKind(5);
    pub const SHIP_SPAWNED: EventKind = EventKind(6);
    pub const SHIP_DIED: EventKind = EventKind(7);
    /// a = dir, b = 1 if fast
    pub const SHOT_FIRED: EventKind = EventKind(8);
    /// a = pickup_kind, b = amount
    pub const PICKUP_SPAWNED: EventKind = EventKind(9);
    /// a = pickup_kind, b = amount
    pub const PICKUP_TAKEN: EventKind = EventKind(10);
    /// a = old score, b = new score
    pub const SCORE_CHANGED: EventKind = EventKind(11);
}
abi_enum!(
    EventKind : u16 { NONE = "none", MENU_CHANGED = "menu_changed", MATCH_STARTED =
    "match_started", ROUND_STARTED = "round_started", ROUND_ENDED = "round_ended",
    MATCH_ENDED = "match_ended", SHIP_SPAWNED = "ship_spawned", SHIP_DIED = "ship_died",
    SHOT_FIRED = "shot_fired", PICKUP_SPAWNED = "pickup_spawned", PICKUP_TAKEN =
    "pickup_taken", SCORE_CHANGED = "score_changed" }
);
/// Why the latest tick produced no valid snapshot
///
/// An enum over `u16`: any value can be read, and [`InvalidReason::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct InvalidReason(pub u16);
impl InvalidReason {
    pub const NONE: InvalidReason = InvalidReason(0);
    /// No profile matches the game executable
    pub const NO_PROFILE: InvalidReason = InvalidReason(1);
    pub const ROOT_UNREADABLE: InvalidReason = InvalidReason(2);
    /// A pointer path hit an unreadable or implausible pointer
    pub const PATH_FAULT: InvalidReason = InvalidReason(3);
    /// An entity list header failed its checks
    pub const LIST_INVALID: InvalidReason = InvalidReason(4);
    pub const BOARD_OUT_OF_RANGE: InvalidReason = InvalidReason(5);
    pub const COUNT_OUT_OF_RANGE: InvalidReason = InvalidReason(6);
    pub const NON_FINITE_VALUE: InvalidReason = InvalidReason(7);
    /// An access violation was caught while reading
    pub const READ_FAULT: InvalidReason = InvalidReason(8);
    /// Memory changed under the build; the retry did not help
    pub const TORN_READ: InvalidReason = InvalidReason(9);
    /// A profile loaded but a required path is unresolved
    pub const PROFILE_ERROR: InvalidReason = InvalidReason(10);
    /// The state module is disabled
    pub const STATE_DISABLED: InvalidReason = InvalidReason(11);
}
abi_enum!(
    InvalidReason : u16 { NONE = "none", NO_PROFILE = "no_profile", ROOT_UNREADABLE =
    "root_unreadable", PATH_FAULT = "path_fault", LIST_INVALID = "list_invalid",
    BOARD_OUT_OF_RANGE = "board_out_of_range", COUNT_OUT_OF_RANGE = "count_out_of_range",
    NON_FINITE_VALUE = "non_finite_value", READ_FAULT = "read_fault", TORN_READ =
    "torn_read", PROFILE_ERROR = "profile_error", STATE_DISABLED = "state_disabled" }
);
/// Which hook built the snapshot (design section 4.5)
///
/// An enum over `u8`: any value can be read, and [`TickSource::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct TickSource(pub u8);
impl TickSource {
    /// The Present fallback: one tick per frame
    pub const PRESENT: TickSource = TickSource(0);
    /// The game's simulation step
    pub const SIM_STEP: TickSource = TickSource(1);
}
abi_enum!(TickSource : u8 { PRESENT = "present", SIM_STEP = "sim_step" });
/// A set of flags over `u32`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct SnapshotFlags(pub u32);
impl SnapshotFlags {
    pub const VALID: SnapshotFlags = SnapshotFlags(0x1);
    pub const IN_MATCH: SnapshotFlags = SnapshotFlags(0x2);
    /// A capacity was exceeded; the tail was dropped
    pub const TRUNCATED: SnapshotFlags = SnapshotFlags(0x4);
    pub const LOCKSTEP: SnapshotFlags = SnapshotFlags(0x8);
    pub const SIM_PAUSED: SnapshotFlags = SnapshotFlags(0x10);
    /// The overlay's console is open and takes the user's typing
    pub const OVERLAY_FOCUSED: SnapshotFlags = SnapshotFlags(0x20);
    /// The body is from an earlier tick; only the header is new
    pub const STALE: SnapshotFlags = SnapshotFlags(0x40);
}
abi_flags!(
    SnapshotFlags : u32 { VALID = "valid", IN_MATCH = "in_match", TRUNCATED =
    "truncated", LOCKSTEP = "lockstep", SIM_PAUSED = "sim_paused", OVERLAY_FOCUSED =
    "overlay_focused", STALE = "stale" }
);
/// A set of flags over `u16`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ShipFlags(pub u16);
impl ShipFlags {
    pub const SHIELD: ShipFlags = ShipFlags(0x1);
    pub const BLOCK_EAT: ShipFlags = ShipFlags(0x2);
    pub const CHARGING: ShipFlags = ShipFlags(0x4);
    pub const MOVING: ShipFlags = ShipFlags(0x8);
}
abi_flags!(
    ShipFlags : u16 { SHIELD = "shield", BLOCK_EAT = "block_eat", CHARGING = "charging",
    MOVING = "moving" }
);
/// A set of flags over `u32`: bits the schema does not declare are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ShipValid(pub u32);
impl ShipValid {
    pub const POS: ShipValid = ShipValid(0x1);
    pub const VEL: ShipValid = ShipValid(0x2);
    pub const LAST_SHOT_POS: ShipValid = ShipValid(0x4);
    pub const RELOAD_PROGRESS: ShipValid = ShipValid(0x8);
    pub const RELOAD_TIME: ShipValid = ShipValid(0x10);
    pub const TIME_ALIVE: ShipValid = ShipValid(0x20);
    pub const TIME_SINCE_SHOT: ShipValid = ShipValid(0x40);
    pub const SCORE: ShipValid = ShipValid(0x80);
    pub const MULTIPLIER: ShipValid = ShipValid(0x100);
    pub const FLAGS: ShipValid = ShipValid(0x200);
    pub const PLAYER_ID: ShipValid = ShipValid(0x400);
    pub const COLOR: ShipValid = ShipValid(0x800);
    pub const AMMO: ShipValid = ShipValid(0x1000);
    pub const MAX_AMMO: ShipValid = ShipValid(0x2000);
    pub const FAST_AMMO: ShipValid = ShipValid(0x4000);
    pub const CHARGE_DIR: ShipValid = ShipValid(0x8000);
}
abi_flags!(
    ShipValid : u32 { POS = "pos", VEL = "vel", LAST_SHOT_POS = "last_shot_pos",
    RELOAD_PROGRESS = "reload_progress", RELOAD_TIME = "reload_time", TIME_ALIVE =
    "time_alive", TIME_SINCE_SHOT = "time_since_shot", SCORE = "score", MULTIPLIER =
    "multiplier", FLAGS = "flags", PLAYER_ID = "player_id", COLOR = "color", AMMO =
    "ammo", MAX_AMMO = "max_ammo", FAST_AMMO = "fast_ammo", CHARGE_DIR = "charge_dir" }
);
/// Element type of a custom probe
///
/// An enum over `u16`: any value can be read, and [`ExtraType::name`] says whether the schema declares it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(transparent)]
pub struct ExtraType(pub u16);
impl ExtraType {
    pub const RAW: ExtraType = ExtraType(0);
    pub const U8: ExtraType = ExtraType(1);
    pub const I8: ExtraType = ExtraType(2);
    pub const U16: ExtraType = ExtraType(3);
    pub const I16: ExtraType = ExtraType(4);
    pub const U32: ExtraType = ExtraType(5);
    pub const I32: ExtraType = ExtraType(6);
    pub const U64: ExtraType = ExtraType(7);
    pub const I64: ExtraType = ExtraType(8);
    pub const F32: ExtraType = ExtraType(9);
    pub const F64: ExtraType = ExtraType(10);
}
abi_enum!(
    ExtraType : u16 { RAW = "raw", U8 = "u8", I8 = "i8", U16 = "u16", I16 = "i16", U32 =
    "u32", I32 = "i32", U64 = "u64", I64 = "i64", F32 = "f32", F64 = "f64" }
);
/// One row of a layout table; size 0 means the region is absent
///
/// 8 bytes, align 4.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct RegionEntry {
    /// Offset 0x00, 4 bytes. From the start of the bridge, or of the client block
    pub offset: u32,
    /// Offset 0x04, 4 bytes.
    pub size: u32,
}
abi_struct!(RegionEntry : size 8, align 4 { offset : 0, size : 4 });
/// One row of the client table. The client claims it by compare-and-swap from free; the host frees it.
///
/// 128 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct ClientEntry {
    /// Offset 0x00, 4 bytes.
    pub state: ClientState,
    /// Offset 0x04, 4 bytes. Bumped by each claim: a client that no longer finds its own generation was disconnected
    pub generation: u32,
    /// Offset 0x08, 4 bytes.
    pub pid: u32,
    /// Offset 0x0c, 4 bytes.
    pub caps: ClientCaps,
    /// Offset 0x10, 8 bytes. The client's own clock in ns (a client cannot read the host's): it writes it at least every 100 ms; the host never compares it with its clock, it watches it change, and a row whose state, generation and heartbeat stay unchanged for 1 s is hung
    pub heartbeat_ns: u64,
    /// Offset 0x18, 8 bytes. Host clock at the claim
    pub connected_ns: u64,
    /// Offset 0x20, 1 byte. The virtual pad this client bound, or no_pad; the host goes by pad_owner
    pub pad: u8,
    /// Offset 0x21, 3 bytes. Declared padding: keep it zero.
    pub _pad33: [u8; 3],
    /// Offset 0x24, 4 bytes. 1 while the client sleeps on its tick event: the host sets the event only then
    pub waiting: u32,
    /// Offset 0x28, 32 bytes.
    pub name: [u8; CLIENT_NAME_LEN],
    /// Offset 0x48, 56 bytes. Declared padding: keep it zero.
    pub _reserved: [u8; 56],
}
abi_struct!(
    ClientEntry : size 128, align 8 { state : 0, generation : 4, pid : 8, caps : 12,
    heartbeat_ns : 16, connected_ns : 24, pad : 32, _pad33 : 33 pad, waiting : 36, name :
    40 text, _reserved : 72 pad } text { name : name_str, set_name }
);
/// The pad input for each game action (design 7.7): what the SDKs turn actions into, and what the Navigator presses
///
/// 16 bytes, align 2.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Controls {
    /// Offset 0x00, 1 byte.
    pub r#move: ControlStick,
    /// Offset 0x01, 1 byte. Hold a tap for at least this many ticks (input.min_press_ticks)
    pub min_press_ticks: u8,
    /// Offset 0x02, 2 bytes.
    pub shoot_up: PadButtons,
    /// Offset 0x04, 2 bytes.
    pub shoot_down: PadButtons,
    /// Offset 0x06, 2 bytes.
    pub shoot_left: PadButtons,
    /// Offset 0x08, 2 bytes.
    pub shoot_right: PadButtons,
    /// Offset 0x0a, 2 bytes.
    pub pause: PadButtons,
    /// Offset 0x0c, 2 bytes. Menu confirm
    pub confirm: PadButtons,
    /// Offset 0x0e, 2 bytes. Menu back
    pub back: PadButtons,
}
abi_struct!(
    Controls : size 16, align 2 { r#move : 0, min_press_ticks : 1, shoot_up : 2,
    shoot_down : 4, shoot_left : 6, shoot_right : 8, pause : 10, confirm : 12, back : 14
    }
);
/// The first bytes of the bridge. Written by the host, except the client table rows and the commands' event.
///
/// 1304 bytes, align 8.
///
/// Extensible: it may grow at its end in a later minor version; readers learn its size at run time.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct BridgeHeader {
    /// Offset 0x00, 4 bytes. bridge_magic
    ///
    /// Always [`BRIDGE_MAGIC`].
    pub magic: u32,
    /// Offset 0x04, 2 bytes.
    pub abi_major: u16,
    /// Offset 0x06, 2 bytes.
    pub abi_minor: u16,
    /// Offset 0x08, 4 bytes. sizeof(bridge_header) as the host built it
    pub header_size: u32,
    /// Offset 0x0c, 4 bytes. Bytes in the whole bridge
    pub total_size: u32,
    /// Offset 0x10, 4 bytes.
    pub host_pid: u32,
    /// Offset 0x14, 4 bytes. Changes when the host reloads; the old host's clients find their rows freed and connect again
    pub host_generation: u32,
    /// Offset 0x18, 4 bytes.
    pub host_state: HostState,
    /// Offset 0x1c, 4 bytes.
    pub region_count: u32,
    /// Offset 0x20, 32 bytes.
    pub host_version: [u8; VERSION_LEN],
    /// Offset 0x40, 64 bytes. Indexed by bridge_region
    ///
    /// Entries in use: `region_count`.
    pub regions: [RegionEntry; MAX_REGIONS],
    /// Offset 0x80, 8 bytes. A host clock reading (QueryPerformanceCounter in ns)...
    pub clock_mono_ns: u64,
    /// Offset 0x88, 8 bytes. ...and the Unix time then: unix = clock_unix_ns + (t - clock_mono_ns)
    pub clock_unix_ns: i64,
    /// Offset 0x90, 4 bytes.
    pub ring_slots: u32,
    /// Offset 0x94, 4 bytes.
    pub ring_slot_size: u32,
    /// Offset 0x98, 4 bytes.
    pub max_clients: u32,
    /// Offset 0x9c, 4 bytes.
    pub client_block_size: u32,
    /// Offset 0xa0, 4 bytes.
    pub client_entry_size: u32,
    /// Offset 0xa4, 4 bytes. Per pad: the client row that owns it, no_pad for a free bot pad, or pad_not_bot. Clients bind by compare-and-swap of the four bytes as one u32
    pub pad_owner: [u8; MAX_PLAYERS],
    /// Offset 0xa8, 24 bytes. Declared padding: keep it zero.
    pub _pad168: [u8; 24],
    /// Offset 0xc0, 8 bytes. Snapshots published; the newest is in slot (snapshot_seq - 1) % ring_slots. On its own cache line
    pub snapshot_seq: u64,
    /// Offset 0xc8, 56 bytes. Declared padding: keep it zero.
    pub _pad200: [u8; 56],
    /// Offset 0x100, 1024 bytes.
    pub clients: [ClientEntry; MAX_CLIENTS],
    /// Offset 0x500, 16 bytes. The pad input for each game action, from ibf.toml's \[controls\] (ABI 0.4)
    ///
    /// Since ABI 0.4.
    pub controls: Controls,
    /// Offset 0x510, 1 byte. in lockstep the host waits for each tick's answers, and a client sets the input event after writing its pad
    ///
    /// Since ABI 0.7.
    pub run_mode: RunMode,
    /// Offset 0x511, 1 byte. running, or paused by sim.pause
    ///
    /// Since ABI 0.7.
    pub sim_state: SimState,
    /// Offset 0x512, 2 bytes. Declared padding: keep it zero.
    pub _pad1298: [u8; 2],
    /// Offset 0x514, 4 bytes. how long the host waits for a tick's answers in lockstep
    ///
    /// Since ABI 0.7.
    pub lockstep_timeout_ms: u32,
}
abi_struct!(
    BridgeHeader : size 1304, align 8 { magic : 0, abi_major : 4, abi_minor : 6,
    header_size : 8, total_size : 12, host_pid : 16, host_generation : 20, host_state :
    24, region_count : 28, host_version : 32 text, regions : 64 count(region_count),
    clock_mono_ns : 128, clock_unix_ns : 136, ring_slots : 144, ring_slot_size : 148,
    max_clients : 152, client_block_size : 156, client_entry_size : 160, pad_owner : 164
    array, _pad168 : 168 pad, snapshot_seq : 192, _pad200 : 200 pad, clients : 256 array,
    controls : 1280, run_mode : 1296, sim_state : 1297, _pad1298 : 1298 pad,
    lockstep_timeout_ms : 1300 } text { host_version : host_version_str, set_host_version
    }
);
/// The start of a client's draw region. The lists follow it, buffer_size bytes apart
///
/// 64 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct DrawHeader {
    /// Offset 0x00, 4 bytes. Bits 0-1: the shared list's index; bit 2: it is fresh (a list waits for the host). Swapped whole by both sides
    pub state: u32,
    /// Offset 0x04, 4 bytes. Host: draw_buffers
    pub buffers: u32,
    /// Offset 0x08, 4 bytes. Host: bytes from one list's header to the next's
    pub buffer_size: u32,
    /// Offset 0x0c, 4 bytes. Host: commands a list holds
    pub max_commands: u32,
    /// Offset 0x10, 4 bytes. Host: payload bytes a list holds
    pub max_payload: u32,
    /// Offset 0x14, 4 bytes. Client: lists published
    pub published: u32,
    /// Offset 0x18, 40 bytes. Declared padding: keep it zero.
    pub _pad24: [u8; 40],
}
abi_struct!(
    DrawHeader : size 64, align 4 { state : 0, buffers : 4, buffer_size : 8, max_commands
    : 12, max_payload : 16, published : 20, _pad24 : 24 pad }
);
/// One draw list: this header, max_commands draw_cmd, then max_payload bytes of payload
///
/// 64 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct DrawListHeader {
    /// Offset 0x00, 4 bytes. Client: the list's number
    pub seq: u32,
    /// Offset 0x04, 4 bytes. Commands in the list
    pub count: u32,
    /// Offset 0x08, 4 bytes. Bytes of payload in use
    pub payload_len: u32,
    /// Offset 0x0c, 4 bytes. Shown until replaced or this long after the host takes it; 0 means 500
    pub ttl_ms: u32,
    /// Offset 0x10, 4 bytes.
    pub flags: DrawListFlags,
    /// Offset 0x14, 4 bytes. Commands dropped because the list was full
    pub dropped: u32,
    /// Offset 0x18, 8 bytes. The tick the list was drawn for
    pub for_tick: u64,
    /// Offset 0x20, 32 bytes. Declared padding: keep it zero.
    pub _pad32: [u8; 32],
}
abi_struct!(
    DrawListHeader : size 64, align 8 { seq : 0, count : 4, payload_len : 8, ttl_ms : 12,
    flags : 16, dropped : 20, for_tick : 24, _pad32 : 32 pad }
);
/// The start of a client's parameters: the client's definitions, then the host's values
///
/// 64 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct ParamsHeader {
    /// Offset 0x00, 4 bytes. Client: odd while it writes the definitions
    pub defs_seq: u32,
    /// Offset 0x04, 4 bytes. Client: definitions in use
    pub def_count: u32,
    /// Offset 0x08, 4 bytes. Host: odd while it writes the values
    pub values_seq: u32,
    /// Offset 0x0c, 4 bytes. Host: bumped with every change of a value
    pub changes: u32,
    /// Offset 0x10, 4 bytes. Host: definitions the area holds
    pub max_params: u32,
    /// Offset 0x14, 44 bytes. Declared padding: keep it zero.
    pub _pad20: [u8; 44],
}
abi_struct!(
    ParamsHeader : size 64, align 4 { defs_seq : 0, def_count : 4, values_seq : 8,
    changes : 12, max_params : 16, _pad20 : 20 pad }
);
/// One parameter a client declares (design 8.6). The host shows it as a control in the Bots panel
///
/// 256 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct ParamDef {
    /// Offset 0x00, 32 bytes.
    pub name: [u8; PARAM_NAME_LEN],
    /// Offset 0x20, 1 byte.
    pub kind: ParamKind,
    /// Offset 0x21, 1 byte. enum: options in options
    pub option_count: u8,
    /// Offset 0x22, 6 bytes. Declared padding: keep it zero.
    pub _pad34: [u8; 6],
    /// Offset 0x28, 8 bytes.
    pub default_value: f64,
    /// Offset 0x30, 8 bytes. int and float
    pub min: f64,
    /// Offset 0x38, 8 bytes.
    pub max: f64,
    /// Offset 0x40, 8 bytes. int and float: the control's step; 0 for none
    pub step: f64,
    /// Offset 0x48, 96 bytes.
    pub help: [u8; PARAM_HELP_LEN],
    /// Offset 0xa8, 88 bytes. enum: the options' names, separated by '\|'
    pub options: [u8; PARAM_OPTIONS_LEN],
}
abi_struct!(
    ParamDef : size 256, align 8 { name : 0 text, kind : 32, option_count : 33, _pad34 :
    34 pad, default_value : 40, min : 48, max : 56, step : 64, help : 72 text, options :
    168 text } text { name : name_str, set_name; help : help_str, set_help; options :
    options_str, set_options }
);
/// One parameter's value, written by the host
///
/// 16 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct ParamValue {
    /// Offset 0x00, 8 bytes.
    pub value: f64,
    /// Offset 0x08, 4 bytes. Bumped by every change, so a button's presses and a set to the same value count
    pub changes: u32,
    /// Offset 0x0c, 4 bytes. Declared padding: keep it zero.
    pub _pad12: [u8; 4],
}
abi_struct!(ParamValue : size 16, align 8 { value : 0, changes : 8, _pad12 : 12 pad });
/// The start of a client's stats. The client writes both halves: the stats under seq, and its tick facts, which ibf_client keeps
///
/// 64 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct StatsHeader {
    /// Offset 0x00, 4 bytes. Client: odd while it writes the stats
    pub seq: u32,
    /// Offset 0x04, 4 bytes. Client: stats in use
    pub count: u32,
    /// Offset 0x08, 4 bytes. Host: entries the area holds
    pub max_stats: u32,
    /// Offset 0x0c, 4 bytes. Declared padding: keep it zero.
    pub _pad12: [u8; 4],
    /// Offset 0x10, 8 bytes. Client: snapshots it waited for and got
    pub ticks: u64,
    /// Offset 0x18, 8 bytes. Client: publications it missed (latest wins)
    pub skipped: u64,
    /// Offset 0x20, 4 bytes. Client: publish-to-wake over its last ticks, median
    pub wake_p50_us: f32,
    /// Offset 0x24, 4 bytes.
    pub wake_p99_us: f32,
    /// Offset 0x28, 24 bytes. Declared padding: keep it zero.
    pub _pad40: [u8; 24],
}
abi_struct!(
    StatsHeader : size 64, align 8 { seq : 0, count : 4, max_stats : 8, _pad12 : 12 pad,
    ticks : 16, skipped : 24, wake_p50_us : 32, wake_p99_us : 36, _pad40 : 40 pad }
);
/// One stat: a number or a short text
///
/// 64 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct StatEntry {
    /// Offset 0x00, 24 bytes.
    pub name: [u8; STAT_NAME_LEN],
    /// Offset 0x18, 1 byte.
    pub kind: StatKind,
    /// Offset 0x19, 1 byte.
    pub flags: StatFlags,
    /// Offset 0x1a, 6 bytes. Declared padding: keep it zero.
    pub _pad26: [u8; 6],
    /// Offset 0x20, 8 bytes. number
    pub value: f64,
    /// Offset 0x28, 24 bytes. text
    pub text: [u8; STAT_TEXT_LEN],
}
abi_struct!(
    StatEntry : size 64, align 8 { name : 0 text, kind : 24, flags : 25, _pad26 : 26 pad,
    value : 32, text : 40 text } text { name : name_str, set_name; text : text_str,
    set_text }
);
/// A client's command mailbox: one request at a time. The request text follows the header, then the response text
///
/// 64 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct MailboxHeader {
    /// Offset 0x00, 4 bytes. Client: bumped (release) after each request's text and length are written
    pub request_seq: u32,
    /// Offset 0x04, 4 bytes. Client: bytes of the request, at most request_capacity - 1
    pub request_len: u32,
    /// Offset 0x08, 4 bytes. Host: the request_seq answered, stored (release) after the rest
    pub response_seq: u32,
    /// Offset 0x0c, 4 bytes. Host
    pub status: CommandStatus,
    /// Offset 0x10, 4 bytes. Host: bytes of the result in the response area
    pub response_len: u32,
    /// Offset 0x14, 4 bytes. Host: bytes of the whole result; more than response_len when it was cut
    pub response_total: u32,
    /// Offset 0x18, 4 bytes. Host: bytes of the request area
    pub request_capacity: u32,
    /// Offset 0x1c, 4 bytes. Host: bytes of the response area, which follows the request area
    pub response_capacity: u32,
    /// Offset 0x20, 32 bytes. Declared padding: keep it zero.
    pub _pad32: [u8; 32],
}
abi_struct!(
    MailboxHeader : size 64, align 4 { request_seq : 0, request_len : 4, response_seq :
    8, status : 12, response_len : 16, response_total : 20, request_capacity : 24,
    response_capacity : 28, _pad32 : 32 pad }
);
/// The start of a snapshot ring slot; the snapshot and its extras follow it
///
/// 64 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RingSlotHeader {
    /// Offset 0x00, 4 bytes. Odd while the host writes the slot
    pub seq: u32,
    /// Offset 0x04, 4 bytes. Payload bytes: the snapshot, then its extras
    pub size: u32,
    /// Offset 0x08, 8 bytes. The snapshot_seq this slot was published as
    pub publish_seq: u64,
    /// Offset 0x10, 8 bytes.
    pub tick: u64,
    /// Offset 0x18, 8 bytes. Host clock when the payload was complete
    pub publish_ns: u64,
    /// Offset 0x20, 32 bytes. Declared padding: keep it zero.
    pub _pad32: [u8; 32],
}
abi_struct!(
    RingSlotHeader : size 64, align 8 { seq : 0, size : 4, publish_seq : 8, tick : 16,
    publish_ns : 24, _pad32 : 32 pad }
);
/// One log entry in the host log ring or a client's log queue; the source, then the text, follow it
///
/// 40 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct LogEntry {
    /// Offset 0x00, 2 bytes. Bytes of the entry with its source and text, a multiple of 8
    pub size: u16,
    /// Offset 0x02, 1 byte.
    pub kind: LogEntryKind,
    /// Offset 0x03, 1 byte.
    pub level: LogLevel,
    /// Offset 0x04, 1 byte.
    pub source_len: u8,
    /// Offset 0x05, 1 byte. Declared padding: keep it zero.
    pub _pad5: u8,
    /// Offset 0x06, 2 bytes.
    pub text_len: u16,
    /// Offset 0x08, 4 bytes.
    pub thread: u32,
    /// Offset 0x0c, 4 bytes. Declared padding: keep it zero.
    pub _pad12: [u8; 4],
    /// Offset 0x10, 8 bytes. Entries written before this one
    pub seq: u64,
    /// Offset 0x18, 8 bytes. Host clock
    pub time_ns: u64,
    /// Offset 0x20, 8 bytes.
    pub tick: u64,
}
abi_struct!(
    LogEntry : size 40, align 8 { size : 0, kind : 2, level : 3, source_len : 4, _pad5 :
    5 pad, text_len : 6, thread : 8, _pad12 : 12 pad, seq : 16, time_ns : 24, tick : 32 }
);
/// The host log ring: one writer (the host's log drain), any number of readers, oldest overwritten
///
/// 64 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct LogRingHeader {
    /// Offset 0x00, 8 bytes. Bytes ever written; the next entry starts at write_pos % capacity
    pub write_pos: u64,
    /// Offset 0x08, 8 bytes. The oldest whole entry; a reader behind it was lapped
    pub tail_pos: u64,
    /// Offset 0x10, 4 bytes.
    pub capacity: u32,
    /// Offset 0x14, 4 bytes. Declared padding: keep it zero.
    pub _pad20: [u8; 4],
    /// Offset 0x18, 8 bytes. Entries written
    pub entries: u64,
    /// Offset 0x20, 32 bytes. Declared padding: keep it zero.
    pub _pad32: [u8; 32],
}
abi_struct!(
    LogRingHeader : size 64, align 8 { write_pos : 0, tail_pos : 8, capacity : 16, _pad20
    : 20 pad, entries : 24, _pad32 : 32 pad }
);
/// A client's log queue: the client writes, the host reads. Full means the entry is dropped and counted
///
/// 64 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct LogQueueHeader {
    /// Offset 0x00, 8 bytes. Client: bytes ever written
    pub write_pos: u64,
    /// Offset 0x08, 8 bytes. Client: entries that did not fit
    pub dropped: u64,
    /// Offset 0x10, 4 bytes.
    pub capacity: u32,
    /// Offset 0x14, 12 bytes. Declared padding: keep it zero.
    pub _pad20: [u8; 12],
    /// Offset 0x20, 8 bytes. Host: bytes consumed
    pub read_pos: u64,
    /// Offset 0x28, 24 bytes. Declared padding: keep it zero.
    pub _pad40: [u8; 24],
}
abi_struct!(
    LogQueueHeader : size 64, align 8 { write_pos : 0, dropped : 8, capacity : 16, _pad20
    : 20 pad, read_pos : 32, _pad40 : 40 pad }
);
/// The start of a client block; the host writes it
///
/// 72 bytes, align 4.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct ClientBlockHeader {
    /// Offset 0x00, 4 bytes.
    pub size: u32,
    /// Offset 0x04, 4 bytes.
    pub region_count: u32,
    /// Offset 0x08, 64 bytes. Indexed by client_region
    ///
    /// Entries in use: `region_count`.
    pub regions: [RegionEntry; MAX_REGIONS],
}
abi_struct!(
    ClientBlockHeader : size 72, align 4 { size : 0, region_count : 4, regions : 8
    count(region_count) }
);
/// One running host in the directory
///
/// 64 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct DirectoryEntry {
    /// Offset 0x00, 4 bytes.
    pub state: InstanceState,
    /// Offset 0x04, 4 bytes.
    pub pid: u32,
    /// Offset 0x08, 8 bytes. The host process's creation time (FILETIME): tells a reused PID apart, and orders instances
    pub process_time: u64,
    /// Offset 0x10, 2 bytes.
    pub abi_major: u16,
    /// Offset 0x12, 2 bytes.
    pub abi_minor: u16,
    /// Offset 0x14, 4 bytes. Declared padding: keep it zero.
    pub _pad20: [u8; 4],
    /// Offset 0x18, 32 bytes.
    pub host_version: [u8; VERSION_LEN],
    /// Offset 0x38, 8 bytes. Declared padding: keep it zero.
    pub _pad56: [u8; 8],
}
abi_struct!(
    DirectoryEntry : size 64, align 8 { state : 0, pid : 4, process_time : 8, abi_major :
    16, abi_minor : 18, _pad20 : 20 pad, host_version : 24 text, _pad56 : 56 pad } text {
    host_version : host_version_str, set_host_version }
);
/// Local\\ibf.directory: the hosts running in this logon session
///
/// 1088 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct DirectoryHeader {
    /// Offset 0x00, 4 bytes. directory_magic
    ///
    /// Always [`DIRECTORY_MAGIC`].
    pub magic: u32,
    /// Offset 0x04, 4 bytes.
    pub entry_count: u32,
    /// Offset 0x08, 4 bytes.
    pub entry_size: u32,
    /// Offset 0x0c, 52 bytes. Declared padding: keep it zero.
    pub _pad12: [u8; 52],
    /// Offset 0x40, 1024 bytes.
    ///
    /// Entries in use: `entry_count`.
    pub entries: [DirectoryEntry; MAX_INSTANCES],
}
abi_struct!(
    DirectoryHeader : size 1088, align 8 { magic : 0, entry_count : 4, entry_size : 8,
    _pad12 : 12 pad, entries : 64 count(entry_count) }
);
/// The start of a heatmap's payload; width x height u8 values follow, row by row from the bottom row (ABI 0.5)
///
/// 8 bytes, align 1.
///
/// Since ABI 0.5.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct HeatmapHeader {
    /// Offset 0x00, 1 byte.
    pub palette: HeatmapPalette,
    /// Offset 0x01, 1 byte.
    pub flags: HeatmapFlags,
    /// Offset 0x02, 6 bytes. Declared padding: keep it zero.
    pub _pad2: [u8; 6],
}
abi_struct!(HeatmapHeader : size 8, align 1 { palette : 0, flags : 1, _pad2 : 2 pad });
/// One drawing (design 8.4). By op, in the command's space: line, arrow: from (a, b) to (c, d), thickness pixels wide. polyline: the payload's points (vec2 each); flags.closed joins the ends. rect, rect_fill: the corners (a, b) and (c, d). circle, circle_fill: centre (a, b), radius c (screen_norm: a fraction of the height). text: the payload's UTF-8 hanging from (a, b), or centred on it (flags.centered); c is the size in pixels, 0 for the overlay's. tile_fill, tile_outline: tile (a, b), c x d tiles (0 counts as 1), whatever the space. heatmap: c x d cells from tile (a, b), the lower-left; the payload is a heatmap_header, then the cells. The colour's alpha is the opacity.
///
/// 36 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct DrawCmd {
    /// Offset 0x00, 1 byte.
    pub op: DrawOp,
    /// Offset 0x01, 1 byte.
    pub space: DrawSpace,
    /// Offset 0x02, 1 byte.
    pub layer: DrawLayer,
    /// Offset 0x03, 1 byte.
    pub flags: DrawFlags,
    /// Offset 0x04, 4 bytes. RGBA, byte order R, G, B, A (ImGui IM_COL32)
    pub color: u32,
    /// Offset 0x08, 4 bytes. Pixels
    pub thickness: f32,
    /// Offset 0x0c, 4 bytes.
    pub a: f32,
    /// Offset 0x10, 4 bytes.
    pub b: f32,
    /// Offset 0x14, 4 bytes.
    pub c: f32,
    /// Offset 0x18, 4 bytes.
    pub d: f32,
    /// Offset 0x1c, 4 bytes. Points, UTF-8 text or heatmap cells in the list's payload area
    pub payload_off: u32,
    /// Offset 0x20, 2 bytes.
    pub payload_len: u16,
    /// Offset 0x22, 2 bytes. Declared padding: keep it zero.
    pub _pad34: [u8; 2],
}
abi_struct!(
    DrawCmd : size 36, align 4 { op : 0, space : 1, layer : 2, flags : 3, color : 4,
    thickness : 8, a : 12, b : 16, c : 20, d : 24, payload_off : 28, payload_len : 32,
    _pad34 : 34 pad }
);
/// 2-D vector in world units (tiles): origin at the board centre, +Y up
///
/// 8 bytes, align 4.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Vec2 {
    /// Offset 0x00, 4 bytes.
    pub x: f32,
    /// Offset 0x04, 4 bytes.
    pub y: f32,
}
abi_struct!(Vec2 : size 8, align 4 { x : 0, y : 4 });
/// One virtual pad. Written under a seqlock: seq is odd while the client writes. A record whose seq stays the same for input.timeout_ms reads neutral
///
/// 32 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct PadInput {
    /// Offset 0x00, 4 bytes.
    pub seq: u32,
    /// Offset 0x04, 4 bytes.
    pub flags: PadInputFlags,
    /// Offset 0x08, 8 bytes. The tick of the snapshot this input answers; the host counts the lag, and lockstep (M6) waits for it
    pub for_tick: u64,
    /// Offset 0x10, 2 bytes. \-32768..32767, +Y up
    pub lx: i16,
    /// Offset 0x12, 2 bytes.
    pub ly: i16,
    /// Offset 0x14, 2 bytes.
    pub rx: i16,
    /// Offset 0x16, 2 bytes.
    pub ry: i16,
    /// Offset 0x18, 2 bytes.
    pub buttons: PadButtons,
    /// Offset 0x1a, 1 byte.
    pub lt: u8,
    /// Offset 0x1b, 1 byte.
    pub rt: u8,
    /// Offset 0x1c, 4 bytes. Declared padding: keep it zero.
    pub _pad28: [u8; 4],
}
abi_struct!(
    PadInput : size 32, align 8 { seq : 0, flags : 4, for_tick : 8, lx : 16, ly : 18, rx
    : 20, ry : 22, buttons : 24, lt : 26, rt : 27, _pad28 : 28 pad }
);
/// One pad as the game last polled it before a tick
///
/// 24 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecPad {
    /// Offset 0x00, 8 bytes. The tick a bot's record answered; 0 when no bot answered the poll
    pub for_tick: u64,
    /// Offset 0x08, 2 bytes.
    pub lx: i16,
    /// Offset 0x0a, 2 bytes.
    pub ly: i16,
    /// Offset 0x0c, 2 bytes.
    pub rx: i16,
    /// Offset 0x0e, 2 bytes.
    pub ry: i16,
    /// Offset 0x10, 2 bytes.
    pub buttons: PadButtons,
    /// Offset 0x12, 1 byte.
    pub lt: u8,
    /// Offset 0x13, 1 byte.
    pub rt: u8,
    /// Offset 0x14, 1 byte.
    pub source: RecPadSource,
    /// Offset 0x15, 1 byte. A bot pad's owner (its client row), or no_pad
    pub owner: u8,
    /// Offset 0x16, 2 bytes. Declared padding: keep it zero.
    pub _pad22: [u8; 2],
}
abi_struct!(
    RecPad : size 24, align 8 { for_tick : 0, lx : 8, ly : 10, rx : 12, ry : 14, buttons
    : 16, lt : 18, rt : 19, source : 20, owner : 21, _pad22 : 22 pad }
);
/// One tick record; the snapshot and its extras follow it
///
/// 136 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecTickHeader {
    /// Offset 0x00, 4 bytes. Bytes of the record: this header and data_size
    pub size: u32,
    /// Offset 0x04, 4 bytes. Bytes of the snapshot and its extras
    pub data_size: u32,
    /// Offset 0x08, 1 byte.
    pub kind: RecRecordKind,
    /// Offset 0x09, 7 bytes. Declared padding: keep it zero.
    pub _pad9: [u8; 7],
    /// Offset 0x10, 8 bytes.
    pub tick: u64,
    /// Offset 0x18, 8 bytes.
    pub frame: u64,
    /// Offset 0x20, 8 bytes. The host clock when the tick was published
    pub host_time_ns: u64,
    /// Offset 0x28, 96 bytes. What the game last polled from each pad before this tick
    pub pads: [RecPad; MAX_PLAYERS],
}
abi_struct!(
    RecTickHeader : size 136, align 8 { size : 0, data_size : 4, kind : 8, _pad9 : 9 pad,
    tick : 16, frame : 24, host_time_ns : 32, pads : 40 array }
);
/// The first 512 bytes of a recording
///
/// 512 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecFileHeader {
    /// Offset 0x00, 4 bytes. rec_magic
    ///
    /// Always [`REC_MAGIC`].
    pub magic: u32,
    /// Offset 0x04, 2 bytes. rec_format
    ///
    /// Always [`REC_FORMAT`].
    pub format: u16,
    /// Offset 0x06, 2 bytes. sizeof(rec_file_header)
    pub header_size: u16,
    /// Offset 0x08, 2 bytes. The snapshot's ABI
    pub schema_major: u16,
    /// Offset 0x0a, 2 bytes.
    pub schema_minor: u16,
    /// Offset 0x0c, 4 bytes. sizeof(snapshot) for the host that recorded
    pub snapshot_size: u32,
    /// Offset 0x10, 4 bytes. rec_chunk_ticks
    pub chunk_ticks: u32,
    /// Offset 0x14, 4 bytes.
    pub host_pid: u32,
    /// Offset 0x18, 8 bytes. When recording started
    pub start_unix_ns: i64,
    /// Offset 0x20, 8 bytes. The host clock then
    pub start_mono_ns: u64,
    /// Offset 0x28, 16 bytes. The pad input each game action mapped to
    pub controls: Controls,
    /// Offset 0x38, 1 byte. When recording started
    pub run_mode: RunMode,
    /// Offset 0x39, 1 byte. Bit n: pad n was a bot pad
    pub bot_pads: u8,
    /// Offset 0x3a, 2 bytes. Declared padding: keep it zero.
    pub _pad58: [u8; 2],
    /// Offset 0x3c, 4 bytes.
    pub lockstep_timeout_ms: u32,
    /// Offset 0x40, 32 bytes.
    pub host_version: [u8; VERSION_LEN],
    /// Offset 0x60, 64 bytes.
    pub profile_name: [u8; 64],
    /// Offset 0xa0, 80 bytes. The game executable's SHA-256 in hex
    pub exe_sha256: [u8; 80],
    /// Offset 0xf0, 256 bytes. Free text: what was recorded
    pub note: [u8; 256],
    /// Offset 0x1f0, 16 bytes. Declared padding: keep it zero.
    pub _pad496: [u8; 16],
}
abi_struct!(
    RecFileHeader : size 512, align 8 { magic : 0, format : 4, header_size : 6,
    schema_major : 8, schema_minor : 10, snapshot_size : 12, chunk_ticks : 16, host_pid :
    20, start_unix_ns : 24, start_mono_ns : 32, controls : 40, run_mode : 56, bot_pads :
    57, _pad58 : 58 pad, lockstep_timeout_ms : 60, host_version : 64 text, profile_name :
    96 text, exe_sha256 : 160 text, note : 240 text, _pad496 : 496 pad } text {
    host_version : host_version_str, set_host_version; profile_name : profile_name_str,
    set_profile_name; exe_sha256 : exe_sha256_str, set_exe_sha256; note : note_str,
    set_note }
);
/// One chunk: its zlib stream follows
///
/// 32 bytes, align 8.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecChunkHeader {
    /// Offset 0x00, 4 bytes. rec_chunk_magic
    ///
    /// Always [`REC_CHUNK_MAGIC`].
    pub magic: u32,
    /// Offset 0x04, 4 bytes. Bytes of the zlib stream
    pub stored_size: u32,
    /// Offset 0x08, 4 bytes. Bytes of tick records it inflates to
    pub raw_size: u32,
    /// Offset 0x0c, 4 bytes.
    pub tick_count: u32,
    /// Offset 0x10, 8 bytes.
    pub first_tick: u64,
    /// Offset 0x18, 8 bytes.
    pub last_tick: u64,
}
abi_struct!(
    RecChunkHeader : size 32, align 8 { magic : 0, stored_size : 4, raw_size : 8,
    tick_count : 12, first_tick : 16, last_tick : 24 }
);
/// The footer's index of a chunk
///
/// 24 bytes, align 8.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecChunkEntry {
    /// Offset 0x00, 8 bytes. Of its rec_chunk_header, from the file's start
    pub offset: u64,
    /// Offset 0x08, 8 bytes.
    pub first_tick: u64,
    /// Offset 0x10, 8 bytes.
    pub last_tick: u64,
}
abi_struct!(
    RecChunkEntry : size 24, align 8 { offset : 0, first_tick : 8, last_tick : 16 }
);
/// A match or round boundary, from the snapshots' events
///
/// 16 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecMark {
    /// Offset 0x00, 8 bytes.
    pub tick: u64,
    /// Offset 0x08, 2 bytes. match_started, round_started, round_ended or match_ended
    pub kind: EventKind,
    /// Offset 0x0a, 2 bytes. Declared padding: keep it zero.
    pub _pad10: [u8; 2],
    /// Offset 0x0c, 4 bytes. The event's a: the round number, or the winner
    pub a: i32,
}
abi_struct!(RecMark : size 16, align 8 { tick : 0, kind : 8, _pad10 : 10 pad, a : 12 });
/// The footer: chunk_count rec_chunk_entry and mark_count rec_mark follow it
///
/// 48 bytes, align 8.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecFooter {
    /// Offset 0x00, 4 bytes. rec_footer_magic
    ///
    /// Always [`REC_FOOTER_MAGIC`].
    pub magic: u32,
    /// Offset 0x04, 4 bytes.
    pub chunk_count: u32,
    /// Offset 0x08, 4 bytes.
    pub mark_count: u32,
    /// Offset 0x0c, 4 bytes. Ticks the recorder could not keep up with
    pub dropped: u32,
    /// Offset 0x10, 8 bytes. Tick records in the file
    pub ticks: u64,
    /// Offset 0x18, 8 bytes.
    pub first_tick: u64,
    /// Offset 0x20, 8 bytes.
    pub last_tick: u64,
    /// Offset 0x28, 8 bytes. When recording stopped
    pub end_unix_ns: i64,
}
abi_struct!(
    RecFooter : size 48, align 8 { magic : 0, chunk_count : 4, mark_count : 8, dropped :
    12, ticks : 16, first_tick : 24, last_tick : 32, end_unix_ns : 40 }
);
/// A recording's last 16 bytes
///
/// 16 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct RecTrailer {
    /// Offset 0x00, 8 bytes. Of the rec_footer, from the file's start
    pub footer_offset: u64,
    /// Offset 0x08, 4 bytes. Declared padding: keep it zero.
    pub _pad8: [u8; 4],
    /// Offset 0x0c, 4 bytes. rec_trailer_magic
    ///
    /// Always [`REC_TRAILER_MAGIC`].
    pub magic: u32,
}
abi_struct!(
    RecTrailer : size 16, align 8 { footer_offset : 0, _pad8 : 8 pad, magic : 12 }
);
/// 48 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct SnapshotHeader {
    /// Offset 0x00, 4 bytes. snapshot_magic
    ///
    /// Always [`SNAPSHOT_MAGIC`].
    pub magic: u32,
    /// Offset 0x04, 2 bytes.
    pub schema_major: u16,
    /// Offset 0x06, 2 bytes.
    pub schema_minor: u16,
    /// Offset 0x08, 4 bytes. Bytes in this snapshot, including extras
    pub size: u32,
    /// Offset 0x0c, 4 bytes.
    pub flags: SnapshotFlags,
    /// Offset 0x10, 8 bytes. Present calls since start-up
    pub frame: u64,
    /// Offset 0x18, 8 bytes. Simulation steps since start-up (equals frame in fallback mode)
    pub tick: u64,
    /// Offset 0x20, 8 bytes. Monotonic host clock
    pub host_time_ns: u64,
    /// Offset 0x28, 4 bytes. Round time in seconds: counts during play, from 0 at each round start
    pub game_time: f32,
    /// Offset 0x2c, 2 bytes.
    pub invalid_reason: InvalidReason,
    /// Offset 0x2e, 1 byte. Which hook built the snapshot
    pub tick_source: TickSource,
    /// Offset 0x2f, 1 byte. Declared padding: keep it zero.
    pub _pad47: u8,
}
abi_struct!(
    SnapshotHeader : size 48, align 8 { magic : 0, schema_major : 4, schema_minor : 6,
    size : 8, flags : 12, frame : 16, tick : 24, host_time_ns : 32, game_time : 40,
    invalid_reason : 44, tick_source : 46, _pad47 : 47 pad }
);
/// 24 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Game {
    /// Offset 0x00, 4 bytes. Raw menu ID
    pub menu_id: i32,
    /// Offset 0x04, 4 bytes.
    pub menu_depth: i32,
    /// Offset 0x08, 4 bytes. Highlighted item; top item is 0
    pub menu_item: i32,
    /// Offset 0x0c, 4 bytes. The arcade score (the screen's counts up to it)
    pub arcade_score: i32,
    /// Offset 0x10, 2 bytes. Lives left (arcade), the ship in play included: the squares on screen are lives - players
    pub lives: i16,
    /// Offset 0x12, 1 byte.
    pub phase: Phase,
    /// Offset 0x13, 1 byte.
    pub paused: u8,
    /// Offset 0x14, 1 byte. The game believes its window has focus
    pub focused: u8,
    /// Offset 0x15, 1 byte.
    pub player_count: u8,
    /// Offset 0x16, 2 bytes. Declared padding: keep it zero.
    pub _pad22: [u8; 2],
}
abi_struct!(
    Game : size 24, align 4 { menu_id : 0, menu_depth : 4, menu_item : 8, arcade_score :
    12, lives : 16, phase : 18, paused : 19, focused : 20, player_count : 21, _pad22 : 22
    pad }
);
/// 4100 bytes, align 2.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Board {
    /// Offset 0x00, 2 bytes.
    pub width: u16,
    /// Offset 0x02, 2 bytes.
    pub height: u16,
    /// Offset 0x04, 4096 bytes. Row-major, index y \* width + x, row 0 at the bottom
    pub tiles: [Tile; BOARD_MAX_TILES],
}
abi_struct!(Board : size 4100, align 2 { width : 0, height : 2, tiles : 4 array });
/// 64 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Ship {
    /// Offset 0x00, 8 bytes.
    pub pos: Vec2,
    /// Offset 0x08, 8 bytes. Direction of movement: a unit vector while moving, zero when still (Inversus 1.2.0 keeps no speed)
    pub vel: Vec2,
    /// Offset 0x10, 8 bytes.
    pub last_shot_pos: Vec2,
    /// Offset 0x18, 4 bytes.
    pub reload_progress: f32,
    /// Offset 0x1c, 4 bytes.
    pub reload_time: f32,
    /// Offset 0x20, 4 bytes.
    pub time_alive: f32,
    /// Offset 0x24, 4 bytes. The charge timer: from 0 when a charge starts and when a shot fires, so it counts a held button
    pub time_since_shot: f32,
    /// Offset 0x28, 4 bytes. Versus: round wins of the ship's team
    pub score: i32,
    /// Offset 0x2c, 4 bytes. Already de-obfuscated
    pub multiplier: i32,
    /// Offset 0x30, 4 bytes. One bit per field the profile marks confirmed
    pub valid: ShipValid,
    /// Offset 0x34, 2 bytes.
    pub flags: ShipFlags,
    /// Offset 0x36, 1 byte. Player index 0-3 (Inversus 1.2.0 stores one bit per player), or no_player for an arcade enemy
    pub player_id: u8,
    /// Offset 0x37, 1 byte.
    pub color: Color,
    /// Offset 0x38, 1 byte.
    pub alive: u8,
    /// Offset 0x39, 1 byte.
    pub ammo: u8,
    /// Offset 0x3a, 1 byte.
    pub max_ammo: u8,
    /// Offset 0x3b, 1 byte. Red shots held
    pub fast_ammo: u8,
    /// Offset 0x3c, 1 byte.
    pub charge_dir: Dir,
    /// Offset 0x3d, 3 bytes. Declared padding: keep it zero.
    pub _pad61: [u8; 3],
}
abi_struct!(
    Ship : size 64, align 4 { pos : 0, vel : 8, last_shot_pos : 16, reload_progress : 24,
    reload_time : 28, time_alive : 32, time_since_shot : 36, score : 40, multiplier : 44,
    valid : 48, flags : 52, player_id : 54, color : 55, alive : 56, ammo : 57, max_ammo :
    58, fast_ammo : 59, charge_dir : 60, _pad61 : 61 pad }
);
/// 24 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Projectile {
    /// Offset 0x00, 8 bytes.
    pub pos: Vec2,
    /// Offset 0x08, 4 bytes.
    pub speed: f32,
    /// Offset 0x0c, 4 bytes. Seconds since it spawned
    pub time_alive: f32,
    /// Offset 0x10, 4 bytes. The game's own type value
    pub kind_raw: i32,
    /// Offset 0x14, 1 byte.
    pub dir: Dir,
    /// Offset 0x15, 1 byte.
    pub kind: ProjectileKind,
    /// Offset 0x16, 1 byte. Player ID, or no_player when unknown
    pub owner: u8,
    /// Offset 0x17, 1 byte. Declared padding: keep it zero.
    pub _pad23: u8,
}
abi_struct!(
    Projectile : size 24, align 4 { pos : 0, speed : 8, time_alive : 12, kind_raw : 16,
    dir : 20, kind : 21, owner : 22, _pad23 : 23 pad }
);
/// 16 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Pickup {
    /// Offset 0x00, 8 bytes.
    pub pos: Vec2,
    /// Offset 0x08, 4 bytes.
    pub time_alive: f32,
    /// Offset 0x0c, 1 byte.
    pub kind: PickupKind,
    /// Offset 0x0d, 1 byte.
    pub amount: u8,
    /// Offset 0x0e, 2 bytes. Declared padding: keep it zero.
    pub _pad14: [u8; 2],
}
abi_struct!(
    Pickup : size 16, align 4 { pos : 0, time_alive : 8, kind : 12, amount : 13, _pad14 :
    14 pad }
);
/// 24 bytes, align 8.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct Event {
    /// Offset 0x00, 8 bytes. Tick the event was detected on
    pub tick: u64,
    /// Offset 0x08, 4 bytes.
    pub a: i32,
    /// Offset 0x0c, 4 bytes.
    pub b: i32,
    /// Offset 0x10, 2 bytes.
    pub kind: EventKind,
    /// Offset 0x12, 1 byte. Player ID, or no_player
    pub player: u8,
    /// Offset 0x13, 5 bytes. Declared padding: keep it zero.
    pub _pad19: [u8; 5],
}
abi_struct!(
    Event : size 24, align 8 { tick : 0, a : 8, b : 12, kind : 16, player : 18, _pad19 :
    19 pad }
);
/// The running match and its map (ABI 0.6)
///
/// 20 bytes, align 4.
///
/// Since ABI 0.6.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct Match {
    /// Offset 0x00, 4 bytes. The map's zoom: pixels per tile = ceil(round(available pixels x map_scale) / tiles) on the limiting axis
    pub map_scale: f32,
    /// Offset 0x04, 4 bytes. FNV-1a hash of the focused menu button's name (ResumeButton, RetryButton, ...); 0 when none
    pub focus_hash: u32,
    /// Offset 0x08, 1 byte.
    pub game_type: GameType,
    /// Offset 0x09, 1 byte. 0 tutorial, 1 arcade one player, 2 arcade two players, 3 versus 1v1, 4 versus 2v2; 255 none
    pub map_set: u8,
    /// Offset 0x0a, 1 byte. The map's index in its set (the map select's item); 255 none
    pub map_index: u8,
    /// Offset 0x0b, 1 byte. 1 when ships and shots cross the board's edges to the other side
    pub wrap: u8,
    /// Offset 0x0c, 1 byte. Columns a crossing of the top edge moves left by (of the bottom edge, right)
    pub wrap_shift_x: i8,
    /// Offset 0x0d, 1 byte. Rows a crossing of the right edge moves down by (of the left edge, up)
    pub wrap_shift_y: i8,
    /// Offset 0x0e, 1 byte. Versus: round wins that take the match
    pub rounds_to_win: u8,
    /// Offset 0x0f, 1 byte.
    pub round_state: RoundState,
    /// Offset 0x10, 1 byte. The team that won the round once round_state is decided; no_player otherwise
    pub round_winner: u8,
    /// Offset 0x11, 1 byte. Teams in the game: 2 in versus
    pub teams: u8,
    /// Offset 0x12, 1 byte. Entries used in pickup_spawns
    pub pickup_spawn_count: u8,
    /// Offset 0x13, 1 byte. Declared padding: keep it zero.
    pub _pad19: u8,
}
abi_struct!(
    Match : size 20, align 4 { map_scale : 0, focus_hash : 4, game_type : 8, map_set : 9,
    map_index : 10, wrap : 11, wrap_shift_x : 12, wrap_shift_y : 13, rounds_to_win : 14,
    round_state : 15, round_winner : 16, teams : 17, pickup_spawn_count : 18, _pad19 : 19
    pad }
);
/// One of the map's pickup spawn points and its timer (ABI 0.6)
///
/// 16 bytes, align 4.
///
/// Since ABI 0.6.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct PickupSpawn {
    /// Offset 0x00, 8 bytes. The spawn cell's centre
    pub pos: Vec2,
    /// Offset 0x08, 4 bytes. Seconds until it spawns while waiting; 0 otherwise
    pub time_left: f32,
    /// Offset 0x0c, 1 byte.
    pub state: SpawnState,
    /// Offset 0x0d, 3 bytes. Declared padding: keep it zero.
    pub _pad13: [u8; 3],
}
abi_struct!(
    PickupSpawn : size 16, align 4 { pos : 0, time_left : 8, state : 12, _pad13 : 13 pad
    }
);
/// Arcade: where an enemy is about to appear, marked on the board before it does (ABI 0.9)
///
/// 16 bytes, align 4.
///
/// Since ABI 0.9.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct SpawnMarker {
    /// Offset 0x00, 8 bytes. The marked cell's centre
    pub pos: Vec2,
    /// Offset 0x08, 4 bytes. Seconds until the enemy appears (the marker shows for 1.5 s)
    pub time_left: f32,
    /// Offset 0x0c, 1 byte.
    pub kind: EnemyKind,
    /// Offset 0x0d, 3 bytes. Declared padding: keep it zero.
    pub _pad13: [u8; 3],
}
abi_struct!(
    SpawnMarker : size 16, align 4 { pos : 0, time_left : 8, kind : 12, _pad13 : 13 pad }
);
/// More of each ship, parallel to ships (ABI 0.6)
///
/// 28 bytes, align 4.
///
/// Since ABI 0.6.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct ShipExt {
    /// Offset 0x00, 8 bytes. Tiles per second
    pub velocity: Vec2,
    /// Offset 0x08, 4 bytes. Seconds of block-eat left (arcade enemies keep it for good)
    pub block_eat_time: f32,
    /// Offset 0x0c, 4 bytes. Seconds of x1.5 speed left
    pub speed_boost_time: f32,
    /// Offset 0x10, 4 bytes. Seconds of shield left
    pub shield_time: f32,
    /// Offset 0x14, 2 bytes. Points for killing it (arcade enemies)
    pub points: i16,
    /// Offset 0x16, 1 byte. 0 or 1: the team; a team walks on the cells of its own index (team 0 is black and walks on white)
    pub team: u8,
    /// Offset 0x17, 1 byte. The direction of a charge started within 0.3 s: a shot coming the other way is absorbed
    pub parry_dir: Dir,
    /// Offset 0x18, 1 byte. 1 once hit, while it explodes
    pub dying: u8,
    /// Offset 0x19, 3 bytes. Declared padding: keep it zero.
    pub _pad25: [u8; 3],
}
abi_struct!(
    ShipExt : size 28, align 4 { velocity : 0, block_eat_time : 8, speed_boost_time : 12,
    shield_time : 16, points : 20, team : 22, parry_dir : 23, dying : 24, _pad25 : 25 pad
    }
);
/// More of each projectile, parallel to projectiles (ABI 0.6)
///
/// 8 bytes, align 4.
///
/// Since ABI 0.6.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct ProjectileExt {
    /// Offset 0x00, 4 bytes. Tiles flown since it spawned (a shot dies after 100)
    pub distance: f32,
    /// Offset 0x04, 1 byte. The shooter's team: ships of the other team die in its tile
    pub team: u8,
    /// Offset 0x05, 3 bytes. Declared padding: keep it zero.
    pub _pad5: [u8; 3],
}
abi_struct!(ProjectileExt : size 8, align 4 { distance : 0, team : 4, _pad5 : 5 pad });
/// Fixed part of a snapshot. When extras_size \> 0, an extras_header follows at extras_offset.
///
/// 12104 bytes, align 8.
///
/// Extensible: it may grow at its end in a later minor version; readers learn its size at run time.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C, align(8))]
pub struct Snapshot {
    /// Offset 0x00, 48 bytes.
    pub header: SnapshotHeader,
    /// Offset 0x30, 24 bytes.
    pub game: Game,
    /// Offset 0x48, 8 bytes. Events detected since start-up; event i is at events\[i % max_events\]
    pub event_total: u64,
    /// Offset 0x50, 1 byte.
    pub ship_count: u8,
    /// Offset 0x51, 1 byte.
    pub pickup_count: u8,
    /// Offset 0x52, 2 bytes.
    pub projectile_count: u16,
    /// Offset 0x54, 4 bytes. Index into ships per player slot, or no_player
    pub players: [u8; MAX_PLAYERS],
    /// Offset 0x58, 4 bytes. From the start of the snapshot; 0 when there are no extras
    pub extras_offset: u32,
    /// Offset 0x5c, 4 bytes.
    pub extras_size: u32,
    /// Offset 0x60, 4100 bytes.
    pub board: Board,
    /// Offset 0x1064, 1024 bytes.
    ///
    /// Entries in use: `ship_count`.
    pub ships: [Ship; MAX_SHIPS],
    /// Offset 0x1464, 3072 bytes.
    ///
    /// Entries in use: `projectile_count`.
    pub projectiles: [Projectile; MAX_PROJECTILES],
    /// Offset 0x2064, 1024 bytes.
    ///
    /// Entries in use: `pickup_count`.
    pub pickups: [Pickup; MAX_PICKUPS],
    /// Offset 0x2464, 4 bytes. Declared padding: keep it zero.
    pub _pad9316: [u8; 4],
    /// Offset 0x2468, 768 bytes.
    pub events: [Event; MAX_EVENTS],
    /// Offset 0x2768, 20 bytes. read it when header.schema_minor \>= 6
    ///
    /// Since ABI 0.6.
    pub r#match: Match,
    /// Offset 0x277c, 256 bytes.
    ///
    /// Entries in use: `match.pickup_spawn_count`.
    ///
    /// Since ABI 0.6.
    pub pickup_spawns: [PickupSpawn; MAX_PICKUP_SPAWNS],
    /// Offset 0x287c, 448 bytes. ships_ext\[i\] goes with ships\[i\]
    ///
    /// Entries in use: `ship_count`.
    ///
    /// Since ABI 0.6.
    pub ships_ext: [ShipExt; MAX_SHIPS],
    /// Offset 0x2a3c, 1024 bytes. projectiles_ext\[i\] goes with projectiles\[i\]
    ///
    /// Entries in use: `projectile_count`.
    ///
    /// Since ABI 0.6.
    pub projectiles_ext: [ProjectileExt; MAX_PROJECTILES],
    /// Offset 0x2e3c, 4 bytes. Declared padding: keep it zero.
    pub _pad11836: [u8; 4],
    /// Offset 0x2e40, 256 bytes. read them when header.schema_minor \>= 9
    ///
    /// Entries in use: `spawn_marker_count`.
    ///
    /// Since ABI 0.9.
    pub spawn_markers: [SpawnMarker; MAX_SPAWN_MARKERS],
    /// Offset 0x2f40, 1 byte. entries used in spawn_markers
    ///
    /// Since ABI 0.9.
    pub spawn_marker_count: u8,
    /// Offset 0x2f41, 7 bytes. Declared padding: keep it zero.
    pub _pad12097: [u8; 7],
}
abi_struct!(
    Snapshot : size 12104, align 8 { header : 0, game : 48, event_total : 72, ship_count
    : 80, pickup_count : 81, projectile_count : 82, players : 84 array, extras_offset :
    88, extras_size : 92, board : 96, ships : 4196 count(ship_count), projectiles : 5220
    count(projectile_count), pickups : 8292 count(pickup_count), _pad9316 : 9316 pad,
    events : 9320 array, r#match : 10088, pickup_spawns : 10108 count(r#match
    .pickup_spawn_count), ships_ext : 10364 count(ship_count), projectiles_ext : 10812
    count(projectile_count), _pad11836 : 11836 pad, spawn_markers : 11840
    count(spawn_marker_count), spawn_marker_count : 12096, _pad12097 : 12097 pad }
);
/// One custom probe (design section 5.6)
///
/// 36 bytes, align 4.
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct ExtraEntry {
    /// Offset 0x00, 24 bytes.
    pub name: [u8; EXTRA_NAME_LEN],
    /// Offset 0x18, 4 bytes. From the start of the extras blob
    pub offset: u32,
    /// Offset 0x1c, 4 bytes. Bytes
    pub size: u32,
    /// Offset 0x20, 2 bytes.
    pub r#type: ExtraType,
    /// Offset 0x22, 2 bytes. Elements: 1 per object, or one per entity for per-entity probes
    pub count: u16,
}
abi_struct!(
    ExtraEntry : size 36, align 4 { name : 0 text, offset : 24, size : 28, r#type : 32,
    count : 34 } text { name : name_str, set_name }
);
/// 2312 bytes, align 4.
#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")]
#[derive(Clone, Copy, PartialEq, ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable)]
#[repr(C)]
pub struct ExtrasHeader {
    /// Offset 0x00, 2 bytes.
    pub entry_count: u16,
    /// Offset 0x02, 2 bytes. Declared padding: keep it zero.
    pub _pad2: [u8; 2],
    /// Offset 0x04, 4 bytes.
    pub blob_size: u32,
    /// Offset 0x08, 2304 bytes.
    ///
    /// Entries in use: `entry_count`.
    pub entries: [ExtraEntry; MAX_EXTRAS],
}
abi_struct!(
    ExtrasHeader : size 2312, align 4 { entry_count : 0, _pad2 : 2 pad, blob_size : 4,
    entries : 8 count(entry_count) }
);
/** Live views of the bridge ABI's shared memory: every access is atomic, at the layout's offsets.

 A view wraps an [`abi_runtime::Region`] (a pointer and a length, checked once when the view is built), never a reference: memory another process writes must not be behind a `&T`. Atomic fields load with acquire and store with release; plain fields are copied with relaxed atomic loads; the bytes a seqlock guards are read into value types and re-checked, with a bounded number of tries.*/
pub mod live {
    #![allow(clippy::must_use_candidate, reason = "a view's getters are loads from shared memory: one discarded is harmless, and a must_use on each of hundreds is noise")]
    #![allow(clippy::missing_errors_doc, clippy::missing_panics_doc, reason = "each view, seqlock and ring documents its errors and panics once, on the type")]
    #![allow(clippy::unreadable_literal, reason = "offsets and sizes are written as the layout report prints them")]
    #![allow(clippy::cast_possible_truncation, reason = "each cast narrows a value checked against the layout's bounds first")]
    #[allow(unused_imports, reason = "fixed-size views name the runtime's types through `view!`")]
    use ::abi_runtime::{Region, RegionError, SeqLock, SeqLockError};
    use ::zerocopy::{FromZeros, IntoBytes};
    /// Tries of a host's read of a record its client writes (a pad, a client's
    /// parameter definitions, its stats) when it names none: a client that died
    /// mid-write leaves the counter odd, and a host that serves every row each tick
    /// must not wait for it (docs/hosts.md, "A host's cost per tick").
    pub const HOST_TRIES: u32 = 8;
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::ClientEntry`] in shared memory (128 bytes, align 8), written by the host and client."] ClientEntry: size 128, align 8;
    }
    impl<A: ::abi_runtime::Access> ClientEntry<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `state`, an atomic load (acquire). Written by the host and client."] load state @ 0: super::ClientState as u32;
            #[doc = r" `generation`, an atomic load (acquire). Written by the client."] load generation @ 4: u32;
            #[doc = r" `pid`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read pid @ 8: u32;
            #[doc = r" `caps`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host and client."] read caps @ 12: super::ClientCaps;
            #[doc = r" `heartbeat_ns`, an atomic load (acquire). Written by the client."] load heartbeat_ns @ 16: u64;
            #[doc = r" `connected_ns`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read connected_ns @ 24: u64;
            #[doc = r" `pad`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read pad @ 32: u8;
            #[doc = r" `waiting`, an atomic load (acquire). Written by the client."] load waiting @ 36: u32;
            #[doc = r" `name`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read name @ 40: [u8; 32];
        }
        /// `name` as text: a copy's bytes up to the first NUL (all of them when none), decoded as UTF-8 with each invalid sequence replaced by U+FFFD, as Python's view reads it. Written by the client.
        pub fn name_text(&self) -> ::std::string::String {
            let bytes = self.name();
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            ::std::string::String::from_utf8_lossy(&bytes[..end]).into_owned()
        }
    }
    impl<A: ::abi_runtime::Writable> ClientEntry<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Stores `state` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_state @ 0: super::ClientState as u32;
            #[doc = r" Compare-and-swap of `state` (acquire-release): `Ok(Ok)` with the old value, `Ok(Err)` with the value found, `Err(Contended)` as the setter."] compare_exchange compare_exchange_state @ 0: super::ClientState as u32;
            #[doc = r" Swaps `state` atomically (acquire-release) and returns the old value; `Err(Contended)` as the setter."] swap swap_state @ 0: super::ClientState as u32;
            #[doc = r" Stores `generation` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_generation @ 4: u32;
            #[doc = r" Adds to `generation` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_generation @ 4: u32;
            #[doc = r" Writes `pid` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_pid @ 8: u32;
            #[doc = r" Writes `caps` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_caps @ 12: super::ClientCaps;
            #[doc = r" Stores `heartbeat_ns` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_heartbeat_ns @ 16: u64;
            #[doc = r" Adds to `heartbeat_ns` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_heartbeat_ns @ 16: u64;
            #[doc = r" Writes `connected_ns` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_connected_ns @ 24: u64;
            #[doc = r" Writes `pad` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_pad @ 32: u8;
            #[doc = r" Stores `waiting` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_waiting @ 36: u32;
            #[doc = r" Adds to `waiting` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_waiting @ 36: u32;
            #[doc = r" Writes `name` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_name @ 40: [u8; 32];
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::BridgeHeader`] in shared memory (1304 bytes, align 8), written by the host."] BridgeHeader: size 1304, align 8, base 1280;
    }
    impl<'a, A: ::abi_runtime::Access> BridgeHeader<'a, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `magic`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read magic @ 0: u32;
            #[doc = r" `abi_major`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read abi_major @ 4: u16;
            #[doc = r" `abi_minor`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read abi_minor @ 6: u16;
            #[doc = r" `header_size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read header_size @ 8: u32;
            #[doc = r" `total_size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read total_size @ 12: u32;
            #[doc = r" `host_pid`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read host_pid @ 16: u32;
            #[doc = r" `host_generation`, an atomic load (acquire). Written by the host."] load host_generation @ 20: u32;
            #[doc = r" `host_state`, an atomic load (acquire). Written by the host."] load host_state @ 24: super::HostState as u32;
            #[doc = r" `region_count`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read region_count @ 28: u32;
            #[doc = r" `host_version`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read host_version @ 32: [u8; 32];
            #[doc = r" `regions`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read regions @ 64: [super::RegionEntry; 8];
            #[doc = r" `clock_mono_ns`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read clock_mono_ns @ 128: u64;
            #[doc = r" `clock_unix_ns`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read clock_unix_ns @ 136: i64;
            #[doc = r" `ring_slots`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read ring_slots @ 144: u32;
            #[doc = r" `ring_slot_size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read ring_slot_size @ 148: u32;
            #[doc = r" `max_clients`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read max_clients @ 152: u32;
            #[doc = r" `client_block_size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read client_block_size @ 156: u32;
            #[doc = r" `client_entry_size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read client_entry_size @ 160: u32;
            #[doc = r" `snapshot_seq`, an atomic load (acquire). Written by the host."] load snapshot_seq @ 192: u64;
            #[doc = r" `controls`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] #[doc = ""] #[doc = r" Added in 0.4: absent when the producer's record (its size field) ends before it."] read controls @ 1280: super::Controls, added 1280..1296;
            #[doc = r" `run_mode`, an atomic load (acquire). Written by the host."] #[doc = ""] #[doc = r" Added in 0.7: absent when the producer's record (its size field) ends before it."] load run_mode @ 1296: super::RunMode as u8, added 1296..1297;
            #[doc = r" `sim_state`, an atomic load (acquire). Written by the host."] #[doc = ""] #[doc = r" Added in 0.7: absent when the producer's record (its size field) ends before it."] load sim_state @ 1297: super::SimState as u8, added 1297..1298;
            #[doc = r" `lockstep_timeout_ms`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] #[doc = ""] #[doc = r" Added in 0.7: absent when the producer's record (its size field) ends before it."] read lockstep_timeout_ms @ 1300: u32, added 1300..1304;
        }
        /// `host_version` as text: a copy's bytes up to the first NUL (all of them when none), decoded as UTF-8 with each invalid sequence replaced by U+FFFD, as Python's view reads it. Written by the host.
        pub fn host_version_text(&self) -> ::std::string::String {
            let bytes = self.host_version();
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            ::std::string::String::from_utf8_lossy(&bytes[..end]).into_owned()
        }
        /// `pad_owner`, loaded as one 4-byte word (acquire). Written by the host and client.
        pub fn pad_owner(&self) -> [u8; 4] {
            ::zerocopy::transmute!(
                self.region.load:: < u32 > (164, ::core::sync::atomic::Ordering::Acquire)
            )
        }
        /// The live view of `clients[index]`, or `None` when `index` is 8 or more. Written by the host and client.
        pub fn clients(&self, index: usize) -> Option<ClientEntry<'a, A>> {
            (index < 8)
                .then(|| {
                    ClientEntry::at(self.region, 256 + index * 128)
                        .expect("inside a view checked when it was built")
                })
        }
    }
    impl<A: ::abi_runtime::Writable> BridgeHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Writes `magic` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_magic @ 0: u32;
            #[doc = r" Writes `abi_major` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_abi_major @ 4: u16;
            #[doc = r" Writes `abi_minor` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_abi_minor @ 6: u16;
            #[doc = r" Writes `header_size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_header_size @ 8: u32;
            #[doc = r" Writes `total_size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_total_size @ 12: u32;
            #[doc = r" Writes `host_pid` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_host_pid @ 16: u32;
            #[doc = r" Stores `host_generation` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_host_generation @ 20: u32;
            #[doc = r" Adds to `host_generation` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_host_generation @ 20: u32;
            #[doc = r" Stores `host_state` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_host_state @ 24: super::HostState as u32;
            #[doc = r" Writes `region_count` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_region_count @ 28: u32;
            #[doc = r" Writes `host_version` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_host_version @ 32: [u8; 32];
            #[doc = r" Writes `regions` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_regions @ 64: [super::RegionEntry; 8];
            #[doc = r" Writes `clock_mono_ns` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_clock_mono_ns @ 128: u64;
            #[doc = r" Writes `clock_unix_ns` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_clock_unix_ns @ 136: i64;
            #[doc = r" Writes `ring_slots` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_ring_slots @ 144: u32;
            #[doc = r" Writes `ring_slot_size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_ring_slot_size @ 148: u32;
            #[doc = r" Writes `max_clients` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_max_clients @ 152: u32;
            #[doc = r" Writes `client_block_size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_client_block_size @ 156: u32;
            #[doc = r" Writes `client_entry_size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_client_entry_size @ 160: u32;
            #[doc = r" Stores `snapshot_seq` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_snapshot_seq @ 192: u64;
            #[doc = r" Adds to `snapshot_seq` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_snapshot_seq @ 192: u64;
            #[doc = r" Writes `controls` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] #[doc = ""] #[doc = r" Added in 0.4: absent when the producer's record (its size field) ends before it."] write set_controls @ 1280: super::Controls, added 1280..1296;
            #[doc = r" Stores `run_mode` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] #[doc = ""] #[doc = r" Added in 0.7: absent when the producer's record (its size field) ends before it."] store set_run_mode @ 1296: super::RunMode as u8, added 1296..1297;
            #[doc = r" Stores `sim_state` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] #[doc = ""] #[doc = r" Added in 0.7: absent when the producer's record (its size field) ends before it."] store set_sim_state @ 1297: super::SimState as u8, added 1297..1298;
            #[doc = r" Writes `lockstep_timeout_ms` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] #[doc = ""] #[doc = r" Added in 0.7: absent when the producer's record (its size field) ends before it."] write set_lockstep_timeout_ms @ 1300: u32, added 1300..1304;
        }
        /// Compare-and-swap of `pad_owner` as one 4-byte word (acquire-release): `Ok(Ok)` with the old value, `Ok(Err)` with the value found, or `Err(Contended)` (a word narrower than 8 bytes whose neighbours kept changing).
        pub fn compare_exchange_pad_owner(
            &self,
            current: [u8; 4],
            new: [u8; 4],
        ) -> Result<Result<[u8; 4], [u8; 4]>, ::abi_runtime::Contended> {
            let current: u32 = ::zerocopy::transmute!(current);
            let new: u32 = ::zerocopy::transmute!(new);
            let found = self.region.try_compare_exchange::<u32>(164, current, new)?;
            Ok(
                found
                    .map(|v| ::zerocopy::transmute!(v))
                    .map_err(|v| ::zerocopy::transmute!(v)),
            )
        }
        /// Sets element `index` of `pad_owner` from `current` to `new` by compare-and-swap of the whole word, retrying while only other elements change: `Ok(Err)` with the element found, `Err(Contended)` when other elements changed before each of [`abi_runtime::CAS_TRIES`] tries. Panics if `index >= 4`.
        pub fn compare_exchange_pad_owner_at(
            &self,
            index: usize,
            current: u8,
            new: u8,
        ) -> Result<Result<(), u8>, ::abi_runtime::Contended> {
            assert!(index < 4, "element index out of range");
            self.region.compare_exchange_byte::<u32>(164, index, current, new)
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::DrawHeader`] in shared memory (64 bytes, align 4), written by the host."] DrawHeader: size 64, align 4;
    }
    impl<A: ::abi_runtime::Access> DrawHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `state`, an atomic load (acquire). Written by the host and client."] load state @ 0: u32;
            #[doc = r" `buffers`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read buffers @ 4: u32;
            #[doc = r" `buffer_size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read buffer_size @ 8: u32;
            #[doc = r" `max_commands`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read max_commands @ 12: u32;
            #[doc = r" `max_payload`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read max_payload @ 16: u32;
            #[doc = r" `published`, an atomic load (acquire). Written by the client."] load published @ 20: u32;
        }
    }
    impl<A: ::abi_runtime::Writable> DrawHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Stores `state` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_state @ 0: u32;
            #[doc = r" Adds to `state` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_state @ 0: u32;
            #[doc = r" Compare-and-swap of `state` (acquire-release): `Ok(Ok)` with the old value, `Ok(Err)` with the value found, `Err(Contended)` as the setter."] compare_exchange compare_exchange_state @ 0: u32;
            #[doc = r" Swaps `state` atomically (acquire-release) and returns the old value; `Err(Contended)` as the setter."] swap swap_state @ 0: u32;
            #[doc = r" Writes `buffers` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_buffers @ 4: u32;
            #[doc = r" Writes `buffer_size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_buffer_size @ 8: u32;
            #[doc = r" Writes `max_commands` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_max_commands @ 12: u32;
            #[doc = r" Writes `max_payload` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_max_payload @ 16: u32;
            #[doc = r" Stores `published` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_published @ 20: u32;
            #[doc = r" Adds to `published` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_published @ 20: u32;
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::DrawListHeader`] in shared memory (64 bytes, align 8), written by the client."] DrawListHeader: size 64, align 8;
    }
    impl<A: ::abi_runtime::Access> DrawListHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `seq`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read seq @ 0: u32;
            #[doc = r" `count`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read count @ 4: u32;
            #[doc = r" `payload_len`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read payload_len @ 8: u32;
            #[doc = r" `ttl_ms`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read ttl_ms @ 12: u32;
            #[doc = r" `flags`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read flags @ 16: super::DrawListFlags;
            #[doc = r" `dropped`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read dropped @ 20: u32;
            #[doc = r" `for_tick`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read for_tick @ 24: u64;
        }
    }
    impl<A: ::abi_runtime::Writable> DrawListHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Writes `seq` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_seq @ 0: u32;
            #[doc = r" Writes `count` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_count @ 4: u32;
            #[doc = r" Writes `payload_len` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_payload_len @ 8: u32;
            #[doc = r" Writes `ttl_ms` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_ttl_ms @ 12: u32;
            #[doc = r" Writes `flags` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_flags @ 16: super::DrawListFlags;
            #[doc = r" Writes `dropped` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_dropped @ 20: u32;
            #[doc = r" Writes `for_tick` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_for_tick @ 24: u64;
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::ParamsHeader`] in shared memory (64 bytes, align 4), written by the host."] ParamsHeader: size 64, align 4, trailer 8768;
    }
    impl<A: ::abi_runtime::Access> ParamsHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `defs_seq`, a seqlock counter (acquire): odd while its writer writes. Written by the client."] load defs_seq @ 0: u32;
            #[doc = r" `values_seq`, a seqlock counter (acquire): odd while its writer writes. Written by the host."] load values_seq @ 8: u32;
            #[doc = r" `changes`, an atomic load (acquire). Written by the host."] load changes @ 12: u32;
            #[doc = r" `max_params`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read max_params @ 16: u32;
        }
        ::abi_runtime::seqlock_reads! {
            #[doc = r" Reads what seqlock `param_defs` guards (written by the client, read by the host): copies it with relaxed atomic loads and keeps the copy only if the counter was even and unchanged, retrying up to [`HOST_TRIES`] times (a host does not wait for a client that died mid-write)."] read_param_defs, read_param_defs_counted, read_param_defs_into, copy_param_defs: ParamDefs = ParamDefs::zeroed(), u32 @ 0, HOST_TRIES;
        }
        /// One copy of the guarded bytes, torn or not: the seqlock decides.
        fn copy_param_defs(&self, out: &mut ParamDefs) {
            self.region.read_bytes(4, out.def_count.as_mut_bytes());
            self.region.read_bytes(64, out.defs.as_mut_bytes());
        }
        ::abi_runtime::seqlock_reads! {
            #[doc = r" Reads what seqlock `param_values` guards (written by the host, read by the client): copies it with relaxed atomic loads and keeps the copy only if the counter was even and unchanged, retrying up to [`abi_runtime::DEFAULT_TRIES`] times."] read_param_values, read_param_values_counted, read_param_values_into, copy_param_values: ParamValues = ParamValues::zeroed(), u32 @ 8, ::abi_runtime::DEFAULT_TRIES;
        }
        /// One copy of the guarded bytes, torn or not: the seqlock decides.
        fn copy_param_values(&self, out: &mut ParamValues) {
            self.region.read_bytes(8256, out.values.as_mut_bytes());
        }
    }
    impl<A: ::abi_runtime::Writable> ParamsHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Stores `changes` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_changes @ 12: u32;
            #[doc = r" Adds to `changes` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_changes @ 12: u32;
            #[doc = r" Writes `max_params` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_max_params @ 16: u32;
        }
        /// Writes what seqlock `param_defs` guards, bound to `client`'s claim: first loads the claim's standing and, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting), refuses with it, storing nothing (`Err`); otherwise [`Self::write_param_defs_unscoped`]'s result. The window left is one write (ATTACH.md, "What a client does when its row is freed").
        pub fn write_param_defs(
            &self,
            client: &Client<'_>,
            value: &ParamDefs,
        ) -> Result<Result<(), ::abi_runtime::Contended>, ClientStanding> {
            match client.standing() {
                ClientStanding::Connected => Ok(self.write_param_defs_unscoped(value)),
                lost => Err(lost),
            }
        }
        /// Writes what seqlock `param_defs` guards: makes the counter odd, stores the bytes, makes it even (release). Only one writer at a time: the client. `Contended` when a word it shares in part with another writer kept changing ([`abi_runtime::SeqLock::try_write`]); if that happens after the counter went odd, the counter is left odd (readers get `SeqLockError::Contended`, never half a record) until a later write stores the whole value. Bound to no claim: it keeps writing after the row was freed, into the next client's block. For a host, a test or a tool that writes without a claim; a client writes with [`Self::write_param_defs`].
        pub fn write_param_defs_unscoped(
            &self,
            value: &ParamDefs,
        ) -> Result<(), ::abi_runtime::Contended> {
            let lock = SeqLock::<u32, A>::new(self.region, 0);
            lock.try_write(|| -> Result<(), ::abi_runtime::Contended> {
                self.region.write_bytes(4, value.def_count.as_bytes())?;
                self.region.write_bytes(64, value.defs.as_bytes())?;
                Ok(())
            })
        }
        /// Writes what seqlock `param_values` guards: makes the counter odd, stores the bytes, makes it even (release). Only one writer at a time: the host. `Contended` when a word it shares in part with another writer kept changing ([`abi_runtime::SeqLock::try_write`]); if that happens after the counter went odd, the counter is left odd (readers get `SeqLockError::Contended`, never half a record) until a later write stores the whole value.
        pub fn write_param_values(
            &self,
            value: &ParamValues,
        ) -> Result<(), ::abi_runtime::Contended> {
            let lock = SeqLock::<u32, A>::new(self.region, 8);
            lock.try_write(|| -> Result<(), ::abi_runtime::Contended> {
                self.region.write_bytes(8256, value.values.as_bytes())?;
                Ok(())
            })
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::StatsHeader`] in shared memory (64 bytes, align 8), written by the client."] StatsHeader: size 64, align 8, trailer 4160;
    }
    impl<A: ::abi_runtime::Access> StatsHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `seq`, a seqlock counter (acquire): odd while its writer writes. Written by the client."] load seq @ 0: u32;
            #[doc = r" `max_stats`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read max_stats @ 8: u32;
            #[doc = r" `ticks`, an atomic load (acquire). Written by the client."] load ticks @ 16: u64;
            #[doc = r" `skipped`, an atomic load (acquire). Written by the client."] load skipped @ 24: u64;
            #[doc = r" `wake_p50_us`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read wake_p50_us @ 32: f32;
            #[doc = r" `wake_p99_us`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read wake_p99_us @ 36: f32;
        }
        ::abi_runtime::seqlock_reads! {
            #[doc = r" Reads what seqlock `stats` guards (written by the client, read by the host): copies it with relaxed atomic loads and keeps the copy only if the counter was even and unchanged, retrying up to [`HOST_TRIES`] times (a host does not wait for a client that died mid-write)."] read_stats, read_stats_counted, read_stats_into, copy_stats: Stats = Stats::zeroed(), u32 @ 0, HOST_TRIES;
        }
        /// One copy of the guarded bytes, torn or not: the seqlock decides.
        fn copy_stats(&self, out: &mut Stats) {
            self.region.read_bytes(4, out.count.as_mut_bytes());
            self.region.read_bytes(64, out.entries.as_mut_bytes());
        }
    }
    impl<A: ::abi_runtime::Writable> StatsHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Writes `max_stats` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_max_stats @ 8: u32;
            #[doc = r" Stores `ticks` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_ticks @ 16: u64;
            #[doc = r" Adds to `ticks` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_ticks @ 16: u64;
            #[doc = r" Stores `skipped` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_skipped @ 24: u64;
            #[doc = r" Adds to `skipped` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_skipped @ 24: u64;
            #[doc = r" Writes `wake_p50_us` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_wake_p50_us @ 32: f32;
            #[doc = r" Writes `wake_p99_us` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_wake_p99_us @ 36: f32;
        }
        /// Writes what seqlock `stats` guards, bound to `client`'s claim: first loads the claim's standing and, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting), refuses with it, storing nothing (`Err`); otherwise [`Self::write_stats_unscoped`]'s result. The window left is one write (ATTACH.md, "What a client does when its row is freed").
        pub fn write_stats(
            &self,
            client: &Client<'_>,
            value: &Stats,
        ) -> Result<Result<(), ::abi_runtime::Contended>, ClientStanding> {
            match client.standing() {
                ClientStanding::Connected => Ok(self.write_stats_unscoped(value)),
                lost => Err(lost),
            }
        }
        /// Writes what seqlock `stats` guards: makes the counter odd, stores the bytes, makes it even (release). Only one writer at a time: the client. `Contended` when a word it shares in part with another writer kept changing ([`abi_runtime::SeqLock::try_write`]); if that happens after the counter went odd, the counter is left odd (readers get `SeqLockError::Contended`, never half a record) until a later write stores the whole value. Bound to no claim: it keeps writing after the row was freed, into the next client's block. For a host, a test or a tool that writes without a claim; a client writes with [`Self::write_stats`].
        pub fn write_stats_unscoped(
            &self,
            value: &Stats,
        ) -> Result<(), ::abi_runtime::Contended> {
            let lock = SeqLock::<u32, A>::new(self.region, 0);
            lock.try_write(|| -> Result<(), ::abi_runtime::Contended> {
                self.region.write_bytes(4, value.count.as_bytes())?;
                self.region.write_bytes(64, value.entries.as_bytes())?;
                Ok(())
            })
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::MailboxHeader`] in shared memory (64 bytes, align 4), written by the host."] MailboxHeader: size 64, align 4;
    }
    impl<A: ::abi_runtime::Access> MailboxHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `request_seq`, an atomic load (acquire). Written by the client."] load request_seq @ 0: u32;
            #[doc = r" `request_len`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the client."] read request_len @ 4: u32;
            #[doc = r" `response_seq`, an atomic load (acquire). Written by the host."] load response_seq @ 8: u32;
            #[doc = r" `status`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read status @ 12: super::CommandStatus;
            #[doc = r" `response_len`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read response_len @ 16: u32;
            #[doc = r" `response_total`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read response_total @ 20: u32;
            #[doc = r" `request_capacity`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read request_capacity @ 24: u32;
            #[doc = r" `response_capacity`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read response_capacity @ 28: u32;
        }
    }
    impl<A: ::abi_runtime::Writable> MailboxHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Stores `request_seq` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_request_seq @ 0: u32;
            #[doc = r" Adds to `request_seq` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_request_seq @ 0: u32;
            #[doc = r" Writes `request_len` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_request_len @ 4: u32;
            #[doc = r" Stores `response_seq` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_response_seq @ 8: u32;
            #[doc = r" Adds to `response_seq` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_response_seq @ 8: u32;
            #[doc = r" Writes `status` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_status @ 12: super::CommandStatus;
            #[doc = r" Writes `response_len` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_response_len @ 16: u32;
            #[doc = r" Writes `response_total` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_response_total @ 20: u32;
            #[doc = r" Writes `request_capacity` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_request_capacity @ 24: u32;
            #[doc = r" Writes `response_capacity` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_response_capacity @ 28: u32;
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::RingSlotHeader`] in shared memory (64 bytes, align 8), written by the host."] RingSlotHeader: size 64, align 8, trailer 64;
    }
    impl<A: ::abi_runtime::Access> RingSlotHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `seq`, a seqlock counter (acquire): odd while its writer writes. Written by the host."] load seq @ 0: u32;
        }
        ::abi_runtime::seqlock_reads! {
            #[doc = r" Reads what seqlock `ring_slot` guards (written by the host, read by the client): copies it with relaxed atomic loads and keeps the copy only if the counter was even and unchanged, retrying up to [`abi_runtime::DEFAULT_TRIES`] times."] read_ring_slot, read_ring_slot_counted, read_ring_slot_into, copy_ring_slot: RingSlot = RingSlot::zeroed(), u32 @ 0, ::abi_runtime::DEFAULT_TRIES;
        }
        /// One copy of the guarded bytes, torn or not: the seqlock decides.
        fn copy_ring_slot(&self, out: &mut RingSlot) {
            self.region.read_bytes(4, out.size.as_mut_bytes());
            self.region.read_bytes(8, out.publish_seq.as_mut_bytes());
            self.region.read_bytes(16, out.tick.as_mut_bytes());
            self.region.read_bytes(24, out.publish_ns.as_mut_bytes());
            let room = self.region.len() - 64;
            let size = (out.size as usize).min(room);
            let head = size.min(12104);
            let bytes = out.payload.as_mut_bytes();
            self.region.read_bytes(64, &mut bytes[..head]);
            bytes[head..].fill(0);
            out.payload_extra.resize(size - head, 0);
            if size > head {
                self.region.read_bytes(64 + 12104, &mut out.payload_extra);
            }
        }
    }
    impl<A: ::abi_runtime::Writable> RingSlotHeader<'_, A> {
        /// Writes what seqlock `ring_slot` guards: makes the counter odd, stores the bytes, makes it even (release). Only one writer at a time: the host. `Contended` when a word it shares in part with another writer kept changing ([`abi_runtime::SeqLock::try_write`]); if that happens after the counter went odd, the counter is left odd (readers get `SeqLockError::Contended`, never half a record) until a later write stores the whole value.
        ///
        /// An error, before the counter is touched, if the value's run-time part does not fit the region (or its size field).
        pub fn write_ring_slot(&self, value: &RingSlot) -> Result<(), RegionError> {
            let size = 12104 + value.payload_extra.len();
            let room = self.region.len() - 64;
            if size > room || u32::try_from(size).is_err() {
                return Err(
                    ::abi_runtime::RegionErrorKind::OutOfBounds {
                        offset: 64,
                        len: size,
                        region_len: self.region.len(),
                    }
                        .into(),
                );
            }
            let lock = SeqLock::<u32, A>::new(self.region, 0);
            lock.try_write(|| -> Result<(), ::abi_runtime::Contended> {
                let size = 12104 + value.payload_extra.len();
                self.region
                    .try_store::<
                        u32,
                    >(4, size as u32, ::core::sync::atomic::Ordering::Relaxed)?;
                self.region.write_bytes(8, value.publish_seq.as_bytes())?;
                self.region.write_bytes(16, value.tick.as_bytes())?;
                self.region.write_bytes(24, value.publish_ns.as_bytes())?;
                self.region.write_bytes(64, value.payload.as_bytes())?;
                self.region.write_bytes(64 + 12104, &value.payload_extra)?;
                Ok(())
            })?;
            Ok(())
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::LogRingHeader`] in shared memory (64 bytes, align 8), written by the host."] LogRingHeader: size 64, align 8;
    }
    impl<A: ::abi_runtime::Access> LogRingHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `write_pos`, an atomic load (acquire). Written by the host."] load write_pos @ 0: u64;
            #[doc = r" `tail_pos`, an atomic load (acquire). Written by the host."] load tail_pos @ 8: u64;
            #[doc = r" `capacity`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read capacity @ 16: u32;
            #[doc = r" `entries`, an atomic load (acquire). Written by the host."] load entries @ 24: u64;
        }
    }
    impl<A: ::abi_runtime::Writable> LogRingHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Stores `write_pos` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_write_pos @ 0: u64;
            #[doc = r" Adds to `write_pos` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_write_pos @ 0: u64;
            #[doc = r" Stores `tail_pos` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_tail_pos @ 8: u64;
            #[doc = r" Adds to `tail_pos` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_tail_pos @ 8: u64;
            #[doc = r" Writes `capacity` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_capacity @ 16: u32;
            #[doc = r" Stores `entries` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_entries @ 24: u64;
            #[doc = r" Adds to `entries` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_entries @ 24: u64;
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::LogQueueHeader`] in shared memory (64 bytes, align 8), written by the client."] LogQueueHeader: size 64, align 8;
    }
    impl<A: ::abi_runtime::Access> LogQueueHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `write_pos`, an atomic load (acquire). Written by the client."] load write_pos @ 0: u64;
            #[doc = r" `dropped`, an atomic load (acquire). Written by the client."] load dropped @ 8: u64;
            #[doc = r" `capacity`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read capacity @ 16: u32;
            #[doc = r" `read_pos`, an atomic load (acquire). Written by the host."] load read_pos @ 32: u64;
        }
    }
    impl<A: ::abi_runtime::Writable> LogQueueHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Stores `write_pos` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_write_pos @ 0: u64;
            #[doc = r" Adds to `write_pos` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_write_pos @ 0: u64;
            #[doc = r" Stores `dropped` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_dropped @ 8: u64;
            #[doc = r" Adds to `dropped` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_dropped @ 8: u64;
            #[doc = r" Writes `capacity` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_capacity @ 16: u32;
            #[doc = r" Stores `read_pos` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_read_pos @ 32: u64;
            #[doc = r" Adds to `read_pos` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter."] fetch_add fetch_add_read_pos @ 32: u64;
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::ClientBlockHeader`] in shared memory (72 bytes, align 4), written by the host."] ClientBlockHeader: size 72, align 4;
    }
    impl<A: ::abi_runtime::Access> ClientBlockHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read size @ 0: u32;
            #[doc = r" `region_count`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read region_count @ 4: u32;
            #[doc = r" `regions`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read regions @ 8: [super::RegionEntry; 8];
        }
    }
    impl<A: ::abi_runtime::Writable> ClientBlockHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Writes `size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_size @ 0: u32;
            #[doc = r" Writes `region_count` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_region_count @ 4: u32;
            #[doc = r" Writes `regions` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_regions @ 8: [super::RegionEntry; 8];
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::DirectoryEntry`] in shared memory (64 bytes, align 8), written by the host."] DirectoryEntry: size 64, align 8;
    }
    impl<A: ::abi_runtime::Access> DirectoryEntry<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `state`, an atomic load (acquire). Written by the host."] load state @ 0: super::InstanceState as u32;
            #[doc = r" `pid`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read pid @ 4: u32;
            #[doc = r" `process_time`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read process_time @ 8: u64;
            #[doc = r" `abi_major`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read abi_major @ 16: u16;
            #[doc = r" `abi_minor`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read abi_minor @ 18: u16;
            #[doc = r" `host_version`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read host_version @ 24: [u8; 32];
        }
        /// `host_version` as text: a copy's bytes up to the first NUL (all of them when none), decoded as UTF-8 with each invalid sequence replaced by U+FFFD, as Python's view reads it. Written by the host.
        pub fn host_version_text(&self) -> ::std::string::String {
            let bytes = self.host_version();
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            ::std::string::String::from_utf8_lossy(&bytes[..end]).into_owned()
        }
    }
    impl<A: ::abi_runtime::Writable> DirectoryEntry<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Stores `state` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`])."] store set_state @ 0: super::InstanceState as u32;
            #[doc = r" Compare-and-swap of `state` (acquire-release): `Ok(Ok)` with the old value, `Ok(Err)` with the value found, `Err(Contended)` as the setter."] compare_exchange compare_exchange_state @ 0: super::InstanceState as u32;
            #[doc = r" Swaps `state` atomically (acquire-release) and returns the old value; `Err(Contended)` as the setter."] swap swap_state @ 0: super::InstanceState as u32;
            #[doc = r" Writes `pid` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_pid @ 4: u32;
            #[doc = r" Writes `process_time` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_process_time @ 8: u64;
            #[doc = r" Writes `abi_major` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_abi_major @ 16: u16;
            #[doc = r" Writes `abi_minor` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_abi_minor @ 18: u16;
            #[doc = r" Writes `host_version` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_host_version @ 24: [u8; 32];
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::DirectoryHeader`] in shared memory (1088 bytes, align 8), written by the host."] DirectoryHeader: size 1088, align 8;
    }
    impl<'a, A: ::abi_runtime::Access> DirectoryHeader<'a, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `magic`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read magic @ 0: u32;
            #[doc = r" `entry_count`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read entry_count @ 4: u32;
            #[doc = r" `entry_size`, copied with relaxed atomic loads: a plain field, written before it is published. Written by the host."] read entry_size @ 8: u32;
        }
        /// The live view of `entries[index]`, or `None` when `index` is 16 or more. Written by the host.
        pub fn entries(&self, index: usize) -> Option<DirectoryEntry<'a, A>> {
            (index < 16)
                .then(|| {
                    DirectoryEntry::at(self.region, 64 + index * 64)
                        .expect("inside a view checked when it was built")
                })
        }
    }
    impl<A: ::abi_runtime::Writable> DirectoryHeader<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" Writes `magic` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_magic @ 0: u32;
            #[doc = r" Writes `entry_count` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_entry_count @ 4: u32;
            #[doc = r" Writes `entry_size` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`])."] write set_entry_size @ 8: u32;
        }
    }
    ::abi_runtime::view! {
        #[doc = r" A live view of [`super::PadInput`] in shared memory (32 bytes, align 8), written by the client."] PadInput: size 32, align 8;
    }
    impl<A: ::abi_runtime::Access> PadInput<'_, A> {
        ::abi_runtime::view_accessors! {
            #[doc = r" `seq`, a seqlock counter (acquire): odd while its writer writes. Written by the client."] load seq @ 0: u32;
        }
        ::abi_runtime::seqlock_reads! {
            #[doc = r" Reads what seqlock `pad_input` guards (written by the client, read by the host): copies it with relaxed atomic loads and keeps the copy only if the counter was even and unchanged, retrying up to [`HOST_TRIES`] times (a host does not wait for a client that died mid-write)."] read_pad_input, read_pad_input_counted, read_pad_input_into, copy_pad_input: super::PadInput = < super::PadInput as FromZeros > ::new_zeroed(), u32 @ 0, HOST_TRIES;
        }
        /// One copy of the guarded bytes, torn or not: the seqlock decides.
        fn copy_pad_input(&self, out: &mut super::PadInput) {
            let bytes = out.as_mut_bytes();
            self.region.read_bytes(4, &mut bytes[4..32]);
        }
    }
    impl<A: ::abi_runtime::Writable> PadInput<'_, A> {
        /// Writes what seqlock `pad_input` guards, bound to `client`'s claim: first loads the claim's standing and, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting), refuses with it, storing nothing (`Err`); otherwise [`Self::write_pad_input_unscoped`]'s result. The window left is one write (ATTACH.md, "What a client does when its row is freed").
        pub fn write_pad_input(
            &self,
            client: &Client<'_>,
            value: &super::PadInput,
        ) -> Result<Result<(), ::abi_runtime::Contended>, ClientStanding> {
            match client.standing() {
                ClientStanding::Connected => Ok(self.write_pad_input_unscoped(value)),
                lost => Err(lost),
            }
        }
        /// Writes what seqlock `pad_input` guards: makes the counter odd, stores the bytes, makes it even (release). Only one writer at a time: the client. `Contended` when a word it shares in part with another writer kept changing ([`abi_runtime::SeqLock::try_write`]); if that happens after the counter went odd, the counter is left odd (readers get `SeqLockError::Contended`, never half a record) until a later write stores the whole value. Bound to no claim: it keeps writing after the row was freed, into the next client's block. For a host, a test or a tool that writes without a claim; a client writes with [`Self::write_pad_input`].
        pub fn write_pad_input_unscoped(
            &self,
            value: &super::PadInput,
        ) -> Result<(), ::abi_runtime::Contended> {
            let lock = SeqLock::<u32, A>::new(self.region, 0);
            lock.try_write(|| -> Result<(), ::abi_runtime::Contended> {
                let bytes = value.as_bytes();
                self.region.write_bytes(4, &bytes[4..32])?;
                Ok(())
            })
        }
    }
    /// What seqlock `ring_slot` guards, as one consistent copy. A snapshot ring slot: the host makes seq odd, writes the slot's header and payload, then makes it even; a client copies them and keeps the copy only if seq was even and unchanged
    #[derive(Clone, Debug)]
    pub struct RingSlot {
        /// `ring_slot_header.size`.
        pub size: u32,
        /// `ring_slot_header.publish_seq`.
        pub publish_seq: u64,
        /// `ring_slot_header.tick`.
        pub tick: u64,
        /// `ring_slot_header.publish_ns`.
        pub publish_ns: u64,
        /// The trailer part `payload`: `snapshot`, as much of it as the producer wrote, the rest zero.
        pub payload: ::std::boxed::Box<super::Snapshot>,
        /// The bytes of `payload` past its type's size (a newer producer's tail, or extras).
        pub payload_extra: ::std::vec::Vec<u8>,
    }
    ::abi_runtime::zeroed_value!(
        RingSlot { size : FromZeros::new_zeroed(), publish_seq : FromZeros::new_zeroed(),
        tick : FromZeros::new_zeroed(), publish_ns : FromZeros::new_zeroed(), payload : <
        super::Snapshot as FromZeros > ::new_box_zeroed()
        .expect("memory for the payload"), payload_extra : ::std::vec::Vec::new() }
    );
    /// What seqlock `param_defs` guards, as one consistent copy. A client's parameter definitions: defs_seq is odd while the client writes them
    #[derive(Clone, Debug)]
    pub struct ParamDefs {
        /// `params_header.def_count`.
        pub def_count: u32,
        /// The trailer part `defs`: `param_def[max_params]`.
        pub defs: [super::ParamDef; 32],
    }
    ::abi_runtime::zeroed_value!(
        ParamDefs { def_count : FromZeros::new_zeroed(), defs : FromZeros::new_zeroed() }
    );
    /// What seqlock `param_values` guards, as one consistent copy. The parameters' values: values_seq is odd while the host writes them
    #[derive(Clone, Debug)]
    pub struct ParamValues {
        /// The trailer part `values`: `param_value[max_params]`.
        pub values: [super::ParamValue; 32],
    }
    ::abi_runtime::zeroed_value!(ParamValues { values : FromZeros::new_zeroed() });
    /// What seqlock `stats` guards, as one consistent copy. A client's stats: seq is odd while the client writes them
    #[derive(Clone, Debug)]
    pub struct Stats {
        /// `stats_header.count`.
        pub count: u32,
        /// The trailer part `entries`: `stat_entry[max_stats]`.
        pub entries: [super::StatEntry; 64],
    }
    ::abi_runtime::zeroed_value!(
        Stats { count : FromZeros::new_zeroed(), entries : FromZeros::new_zeroed() }
    );
    ::abi_runtime::slots_ring! {
        #[doc = r" The ring `snapshot_ring`: 8 slots of 32768 bytes, each a [`RingSlotHeader`] and its payload under seqlock `ring_slot`. `snapshot_seq` counts publications: the newest slot is `(head - 1) % 8`. Snapshots published: the newest is in slot (snapshot_seq - 1) % ring_slots, and none is published while snapshot_seq is 0"] SnapshotRing: head BridgeHeader.snapshot_seq as u64, slot RingSlotHeader, count 8, size 32768, least 12168, align 8(log2 3), value RingSlot = RingSlot::zeroed(), lock u32 @ 0, copy copy_ring_slot;
    }
    impl SnapshotRing<'_> {
        /// The writer's side: writes `value` into the next slot under its
        /// seqlock, then publishes it by storing the new head (release), which
        /// it returns. One writer only. An error, with nothing written or
        /// published, if the value does not fit a slot.
        /// It first sets `value.publish_seq` to that head: the slot's publication number.
        pub fn publish(&self, value: &mut RingSlot) -> Result<u64, RegionError> {
            let head = self.head();
            let index = (head % self.count as u64) as usize;
            value.publish_seq = head.wrapping_add(1);
            if let Some(slot) = self.slot(index) {
                slot.write_ring_slot(value)?;
            }
            self.head.set_snapshot_seq(head.wrapping_add(1))?;
            Ok(head.wrapping_add(1))
        }
    }
    impl super::Snapshot {
        /// The ring `events`: `event_total` counts entries ever written, and entry `i` is `events[i % 32]`. Returns the entries from number `count` on, oldest first; those already overwritten are skipped, and [`abi_runtime::EventsSince::lost`] counts them. Events detected since start-up: event i is at events[i % max_events], so only the last max_events are kept
        pub fn events_since(
            &self,
            count: u64,
        ) -> ::abi_runtime::EventsSince<'_, super::Event> {
            ::abi_runtime::EventsSince::new(&self.events, self.event_total, count)
        }
        /// The writer's side of ring `events`: stores `entry` as entry number `event_total` (at `events[n % 32]`, over the oldest once the ring is full) and counts it. Returns its number. `self` is a value the writer then publishes (a ring slot's payload, a seqlocked record).
        pub fn push_events(&mut self, entry: super::Event) -> u64 {
            let n = self.event_total;
            self.events[(n % 32) as usize] = entry;
            self.event_total = self.event_total.wrapping_add(1);
            n
        }
    }
    /// One entry of `log_queue`, copied out: its `log_entry` and each part after it.
    #[derive(Clone, PartialEq)]
    pub struct LogQueueEntry {
        /// The entry's header, as the writer wrote it (size, kind and the part lengths
        /// included).
        pub head: super::LogEntry,
        /// The `source` bytes (at most `log_source_max`).
        pub source: Vec<u8>,
        /// The `text` bytes (at most `log_text_max`).
        pub text: Vec<u8>,
    }
    impl LogQueueEntry {
        /// Splits a whole entry (a copy): the header, then each part, its length checked
        /// against its bound and the entry's size.
        fn split(
            bytes: &[u8],
            specs: &[::abi_runtime::entry_parts::PartSpec],
        ) -> Result<Self, ::abi_runtime::byte_queue::QueueError> {
            let mut parts = ::abi_runtime::entry_parts::split(bytes, 40, specs)?;
            let head = <super::LogEntry as ::zerocopy::FromBytes>::read_from_prefix(
                    bytes,
                )
                .map_or_else(|_| ::zerocopy::FromZeros::new_zeroed(), |(head, _)| head);
            Ok(Self {
                head,
                source: ::core::mem::take(&mut parts[0]),
                text: ::core::mem::take(&mut parts[1]),
            })
        }
    }
    ::abi_runtime::entry_sides! {
        queue;
        #[doc = r" The writer's side of queue `log_queue` (one writer), over the `log_queue_header` at the start of a region and the entries after it: [`LogQueueWriter::push`] returns whether the entry was dropped because the queue was full. A client's log queue: the client writes, the host reads. Full means the entry is dropped and counted."] writer LogQueueWriter;
        #[doc = r" The reader's side of queue `log_queue` (one reader): [`LogQueueReader::pop`] copies out the next entry, every size and length the writer wrote checked first. A client's log queue: the client writes, the host reads. Full means the entry is dropped and counted."] reader LogQueueReader: LogQueueEntry;
    }
    impl LogQueueWriter<'_> {
        /// Where the queue's fields are, from the start of its header.
        pub const SPEC: ::abi_runtime::byte_queue::QueueSpec = ::abi_runtime::byte_queue::QueueSpec {
            write_pos: 0,
            read_pos: 32,
            dropped: 8,
            capacity: ::abi_runtime::attach::Field::new(16, 4),
            area: 64,
            entry: ::abi_runtime::byte_queue::EntryFormat {
                size: ::abi_runtime::attach::Field::new(0, 2),
                kind: ::abi_runtime::attach::Field::new(2, 1),
                padding: 1,
                header: 40,
            },
        };
        /// Each part after an entry's header: its length field and its bound.
        pub const PARTS: &'static [::abi_runtime::entry_parts::PartSpec] = &[
            ::abi_runtime::entry_parts::PartSpec { len: ::abi_runtime::attach::Field::new(4, 1), max: 32 },
            ::abi_runtime::entry_parts::PartSpec { len: ::abi_runtime::attach::Field::new(6, 2), max: 968 },
        ];
        /// Appends an entry: `head` gives the header's own fields (its size, kind and part
        /// lengths are set here), then each part in order. `Ok(true)` when the queue was
        /// full and the entry was dropped (and counted); an error, with nothing written,
        /// when a part is longer than its bound or the reader's position cannot be right.
        pub fn push(
            &self,
            head: &super::LogEntry,
            source: &[u8],
            text: &[u8],
        ) -> Result<bool, ::abi_runtime::byte_queue::QueueError> {
            let entry = ::abi_runtime::entry_parts::compose(
                Self::SPEC.entry.size,
                Self::SPEC.entry.kind,
                0,
                ::zerocopy::IntoBytes::as_bytes(head),
                Self::PARTS,
                &[source, text],
            )?;
            Ok(self.queue.push(&entry)? == ::abi_runtime::byte_queue::Pushed::Dropped)
        }
    }
    /// One entry of `log_ring`, copied out: its `log_entry` and each part after it.
    #[derive(Clone, PartialEq)]
    pub struct LogRingEntry {
        /// The entry's header, as the writer wrote it (size, kind and the part lengths
        /// included).
        pub head: super::LogEntry,
        /// The `source` bytes (at most `log_source_max`).
        pub source: Vec<u8>,
        /// The `text` bytes (at most `log_text_max`).
        pub text: Vec<u8>,
    }
    impl LogRingEntry {
        /// Splits a whole entry (a copy): the header, then each part, its length checked
        /// against its bound and the entry's size.
        fn split(
            bytes: &[u8],
            specs: &[::abi_runtime::entry_parts::PartSpec],
        ) -> Result<Self, ::abi_runtime::broadcast_ring::RingError> {
            let mut parts = ::abi_runtime::entry_parts::split(bytes, 40, specs)?;
            let head = <super::LogEntry as ::zerocopy::FromBytes>::read_from_prefix(
                    bytes,
                )
                .map_or_else(|_| ::zerocopy::FromZeros::new_zeroed(), |(head, _)| head);
            Ok(Self {
                head,
                source: ::core::mem::take(&mut parts[0]),
                text: ::core::mem::take(&mut parts[1]),
            })
        }
    }
    ::abi_runtime::entry_sides! {
        broadcast;
        #[doc = r" What [`LogRingReader::read_next`] found."] read LogRingRead: LogRingEntry;
        #[doc = r" The writer's side of broadcast ring `log_ring` (one writer): [`LogRingWriter::push`] appends an entry, overwriting the oldest. The host log ring: one writer (the host's log drain), any number of readers, oldest overwritten."] writer LogRingWriter;
        #[doc = r" A reader of broadcast ring `log_ring` (any number, each with its own position): [`LogRingReader::read_next`] gives an entry, `Empty`, or `Lapped { missed }`, never a torn entry. The host log ring: one writer (the host's log drain), any number of readers, oldest overwritten."] reader LogRingReader;
    }
    impl LogRingWriter<'_> {
        /// Where the ring's fields are, from the start of its header.
        pub const SPEC: ::abi_runtime::broadcast_ring::RingSpec = ::abi_runtime::broadcast_ring::RingSpec {
            write_pos: 0,
            tail_pos: 8,
            entries: 24,
            capacity: ::abi_runtime::attach::Field::new(16, 4),
            area: 64,
            entry: ::abi_runtime::byte_queue::EntryFormat {
                size: ::abi_runtime::attach::Field::new(0, 2),
                kind: ::abi_runtime::attach::Field::new(2, 1),
                padding: 1,
                header: 40,
            },
            seq: 16,
        };
        /// Each part after an entry's header: its length field and its bound.
        pub const PARTS: &'static [::abi_runtime::entry_parts::PartSpec] = &[
            ::abi_runtime::entry_parts::PartSpec { len: ::abi_runtime::attach::Field::new(4, 1), max: 32 },
            ::abi_runtime::entry_parts::PartSpec { len: ::abi_runtime::attach::Field::new(6, 2), max: 968 },
        ];
        /// Appends an entry: `head` gives the header's own fields (its size, kind, seq and
        /// part lengths are set here), then each part in order. Returns the entry's seq.
        /// An error, with nothing written, when a part is longer than its bound.
        pub fn push(
            &self,
            head: &super::LogEntry,
            source: &[u8],
            text: &[u8],
        ) -> Result<u64, ::abi_runtime::broadcast_ring::RingError> {
            let mut entry = ::abi_runtime::entry_parts::compose(
                Self::SPEC.entry.size,
                Self::SPEC.entry.kind,
                0,
                ::zerocopy::IntoBytes::as_bytes(head),
                Self::PARTS,
                &[source, text],
            )?;
            self.ring.push(&mut entry)
        }
    }
    ::abi_runtime::mailbox_sides! {
        #[doc = r" An answer of mailbox `mailbox`, copied out."] response MailboxResponse: status super::CommandStatus as u32;
        #[doc = r" The client's side of mailbox `mailbox`: one request at a time, [`MailboxClient::request`], then [`MailboxClient::poll_response`] or [`MailboxClient::wait_response`]. A client's command mailbox: one request at a time. The request text follows the header, then the response text."] client MailboxClient;
        #[doc = r" The server's side of mailbox `mailbox`: [`MailboxServer::serve`] answers the request that waits. A client's command mailbox: one request at a time. The request text follows the header, then the response text."] server MailboxServer;
    }
    impl MailboxClient<'_> {
        /// Where the mailbox's fields are, from the start of its header.
        pub const SPEC: ::abi_runtime::mailbox::MailboxSpec = ::abi_runtime::mailbox::MailboxSpec {
            request_seq: 0,
            request_len: 4,
            response_seq: 8,
            status: 12,
            response_len: 16,
            response_total: 20,
            request_capacity: ::abi_runtime::attach::Field::new(24, 4),
            response_capacity: ::abi_runtime::attach::Field::new(28, 4),
            area: 64,
        };
    }
    ::abi_runtime::exchange_sides! {
        #[doc = r" A list of exchange `draw`, copied out."] list DrawList: head super::DrawListHeader, item super::DrawCmd, size 36;
        #[doc = r" The writer's side of exchange `draw` (one writer; keep it, it knows its list): [`DrawWriter::push`] builds the list in place, bounded by the header's capacities, and [`DrawWriter::publish`] hands it over. A client's draw lists, a triple buffer: the client's list, the shared one and the host's. Before the first publication (a new claim of the row, or a host's reload) state is 1: the client starts with list 0 and the host with list 2."] writer DrawWriter;
        #[doc = r" The reader's side of exchange `draw` (one reader; keep it, it knows its list): [`DrawReader::take`] copies out the newest published list. A client's draw lists, a triple buffer: the client's list, the shared one and the host's. Before the first publication (a new claim of the row, or a host's reload) state is 1: the client starts with list 0 and the host with list 2."] reader DrawReader;
    }
    impl DrawWriter<'_> {
        /// Where the exchange's fields are, from the start of its header, and the lists'.
        pub const SPEC: ::abi_runtime::list_exchange::ListSpec = ::abi_runtime::list_exchange::ListSpec {
            state: 0,
            initial_state: 1,
            stale_grace: 1,
            buffers: ::abi_runtime::attach::Field::new(4, 4),
            buffer_size: ::abi_runtime::attach::Field::new(8, 4),
            max_items: ::abi_runtime::attach::Field::new(12, 4),
            max_payload: ::abi_runtime::attach::Field::new(16, 4),
            published: ::abi_runtime::attach::Field::new(20, 4),
            area: 64,
            list: ::abi_runtime::list_exchange::ListFormat {
                size: 64,
                align: 8,
                count: ::abi_runtime::attach::Field::new(4, 4),
                payload_len: ::abi_runtime::attach::Field::new(8, 4),
                dropped: ::abi_runtime::attach::Field::new(20, 4),
                flags: ::abi_runtime::attach::Field::new(16, 4),
                overflow: 1,
            },
            item_size: 36,
        };
    }
    /// Whether a `Client`'s row is still its own, and the host still there.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ClientStanding {
        /// The row holds the claim's generation and a state of its own.
        Connected,
        /// The host freed the row, or another claim took it since: claim again.
        Disconnected,
        /// The host reloaded (its generation changed) and freed every row: attach and
        /// claim again.
        Reloaded,
        /// The host is exiting.
        HostExiting,
    }
    /// Why [`Client::claim`] refused: the row is taken or absent, or the host moved on since the handle attached.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ClientRefused {
        /// Another client holds the row, or won the race for it.
        Taken,
        /// There is no such row.
        NoRow,
        /// The host reloaded since the handle attached (its generation changed): attach
        /// again, then claim.
        Reloaded,
        /// The host is exiting.
        HostExiting,
    }
    /// What a scoped write refused with: the row is no longer the claim's.
    impl ::core::fmt::Display for ClientStanding {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            f.write_str(
                match self {
                    Self::Connected => "the row is the claim's",
                    Self::Disconnected => {
                        "the host freed the row, or another claim took it: claim again"
                    }
                    Self::Reloaded => "the host reloaded: attach again, then claim",
                    Self::HostExiting => "the host is exiting",
                },
            )
        }
    }
    impl ::std::error::Error for ClientStanding {}
    impl ::core::fmt::Display for ClientRefused {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            f.write_str(
                match self {
                    Self::Taken => "the row is taken",
                    Self::NoRow => "there is no such row",
                    Self::Reloaded => "the host reloaded since attach: attach again",
                    Self::HostExiting => "the host is exiting",
                },
            )
        }
    }
    impl ::std::error::Error for ClientRefused {}
    /// The client's side of session `client`: a claimed row of `clients` (claim, fill in through [`Client::row`], [`Client::activate`], [`Client::heartbeat`] at least every 100 ms, [`Client::standing`], [`Client::close`]). A client's row: claimed by compare-and-swap from free with a generation bump, filled in, then active; a heartbeat at least every 100 ms; gone when the row no longer holds its generation, when the host reloads (host_generation changes) or exits; closing to say goodbye.
    pub struct Client<'a> {
        header: BridgeHeader<'a>,
        index: usize,
        claim: ::abi_runtime::claim::Claim<'a, ::abi_runtime::ReadWrite>,
        host_generation: u32,
    }
    /// The host's side of session `client`: free a row, reload (every row freed, a new host generation), find the hung ones (a heartbeat older than 1000 ms).
    #[derive(Clone)]
    pub struct ClientHost<'a> {
        header: BridgeHeader<'a>,
        handle: Bridge<'a>,
    }
    impl<'a> Client<'a> {
        /// What the `wait_` method sleeps on: the event's word in the mapping (a futex
        /// shared between processes on Linux). On Windows, open the host's named event
        /// instead: `Sleeper::open_named(region, offset, &self.<event>_event_name(mapping))`.
        pub fn tick_sleeper(
            &self,
        ) -> Result<::abi_runtime::wake::Sleeper<'a>, ::abi_runtime::RegionError> {
            ::abi_runtime::wake::Sleeper::new(self.header.region(), 192)
        }
        /// The Windows event's name for this row, under `Local\`: the schema's
        /// `windows_name` with the mapping's name.
        pub fn tick_event_name(&self, mapping: &str) -> ::std::string::String {
            ::std::format!(
                "Local\\{}-{}-{}-tick-{}", mapping, u64::from(self.header.region().read::
                < u32 > (16)), self.host_generation, self.index
            )
        }
        /// Sleeps until `bridge_header.snapshot_seq` is no longer `last`, or until `deadline`: the row's waiting flag set, a SeqCst fence, the sequence loaded again, then a sleep on the `tick` event (its word is `bridge_header.snapshot_seq.low`), the flag cleared; a wake only means "look again". A timeout is `seq: None`, not an error. The flag is stored only while the row is this claim's: otherwise the wait ends at once with `claim_lost` and nothing written (ask `standing()`). `Contended` when the flag's word kept changing.
        pub fn wait_tick(
            &self,
            sleeper: &::abi_runtime::wake::Sleeper<'_>,
            last: u64,
            deadline: ::std::time::Instant,
        ) -> Result<::abi_runtime::wake::TickWait, ::abi_runtime::Contended> {
            ::abi_runtime::wake::wait_tick(
                sleeper,
                last,
                deadline,
                |waiting| Ok(self.set_waiting(waiting)? == ClientStanding::Connected),
                || {
                    self
                        .header
                        .region()
                        .load::<u64>(192, ::core::sync::atomic::Ordering::Acquire)
                },
            )
        }
    }
    impl<'a> ClientHost<'a> {
        /// What `set_` wakes: the event's word in the mapping (a futex wake on Linux).
        /// On Windows, create the named events first, before the bridge is marked running:
        /// `Setter::create_named(region, offset, &self.<event>_event_names(mapping))`.
        pub fn tick_setter(
            &self,
        ) -> Result<::abi_runtime::wake::Setter<'a>, ::abi_runtime::RegionError> {
            ::abi_runtime::wake::Setter::new(self.header.region(), 192)
        }
        /// Every row's Windows event name, under `Local\`.
        pub fn tick_event_names(
            &self,
            mapping: &str,
        ) -> ::std::vec::Vec<::std::string::String> {
            (0..Client::ROWS)
                .map(|index| {
                    ::std::format!(
                        "Local\\{}-{}-{}-tick-{}", mapping, u64::from(self.header
                        .region().read:: < u32 > (16)), u64::from(self.header.region()
                        .load:: < u32 > (20, ::core::sync::atomic::Ordering::Acquire)),
                        index
                    )
                })
                .collect()
        }
        /// After a publication: a SeqCst fence, then each row's waiting flag; the event is
        /// set for the rows that wait and those `always` says want every publication (a
        /// `ticks` cap), with no OS call for the others.
        pub fn set_tick(
            &self,
            setter: &::abi_runtime::wake::Setter<'_>,
            always: impl Fn(&ClientEntry<'a>) -> bool,
        ) -> ::abi_runtime::wake::Woke {
            setter
                .after_publish(
                    Client::ROWS,
                    |index| {
                        self.header
                            .clients(index)
                            .is_some_and(|row| row.waiting() == 1 || always(&row))
                    },
                )
        }
    }
    impl<'a> PadInput<'a> {
        /// What `answer_` sets: the input event's word in the record (a futex wake on
        /// Linux; elsewhere the host polls).
        pub fn input_setter(
            &self,
        ) -> Result<::abi_runtime::wake::Setter<'a>, ::abi_runtime::RegionError> {
            ::abi_runtime::wake::Setter::new(self.region, 0)
        }
        /// The bot's answer in lockstep: writes `value` (whose answer tick says which tick it
        /// answers) bound to `client`'s claim, then sets the input event. Once the claim is
        /// gone, refused with its standing: nothing written, nothing set.
        pub fn answer_input(
            &self,
            client: &Client<'_>,
            setter: &::abi_runtime::wake::Setter<'_>,
            value: &super::PadInput,
        ) -> Result<Result<(), ::abi_runtime::Contended>, ClientStanding> {
            let written = self.write_pad_input(client, value)?;
            if written.is_ok() {
                setter.after_publish(1, |_| true);
            }
            Ok(written)
        }
    }
    impl<'a> ClientHost<'a> {
        /// The rows the host waits for in lockstep (`plan/lockstep.rs`), bit `row`: those whose state is active and whose caps lack `tool`.
        pub fn lockstep_bots(&self) -> u64 {
            (0..Client::ROWS.min(64))
                .filter(|&i| {
                    self.header
                        .clients(i)
                        .is_some_and(|row: ClientEntry<'a>| {
                            u64::from(row.state().0) == 2
                                && u64::from(row.caps().0) & 2 == 0
                        })
                })
                .fold(0, |bots, i| bots | 1 << i)
        }
        /// In lockstep, after publishing `tick`: waits until every bot (`lockstep_bots`) answered it, or until `deadline` (the publication plus `lockstep_timeout_ms`). A row's answer is taken into `last[row]` only when a whole copy of its record (at most `HOST_TRIES` tries) says `for_tick == tick`: an older tick's answer never counts. The host sleeps on the `input` event of the lowest pending row while its word holds the counter loaded before the check (a wake only means "look again"); at the deadline, one last check, then `misses[row]` is counted for each bot still pending, whose `last[row]` stays its last answer. `pads(row)` gives the row's record. Never past the deadline, whatever a bot does.
        pub fn wait_input(
            &self,
            tick: u64,
            deadline: ::std::time::Instant,
            pads: impl Fn(usize) -> Option<PadInput<'a>>,
            last: &mut [super::PadInput],
            misses: &mut [u64],
        ) -> ::abi_runtime::lockstep::Tally {
            let tally = ::abi_runtime::lockstep::wait_answers(
                self.lockstep_bots(),
                deadline,
                |row| {
                    pads(row)
                        .map(|p| {
                            p
                                .region
                                .load::<u32>(0, ::core::sync::atomic::Ordering::Acquire)
                        })
                },
                |row| {
                    let Some(p) = pads(row) else { return false };
                    let mut copy = <super::PadInput as FromZeros>::new_zeroed();
                    if p.read_pad_input_into(&mut copy, HOST_TRIES).is_err()
                        || copy.for_tick != tick
                    {
                        return false;
                    }
                    if let Some(keep) = last.get_mut(row) {
                        *keep = copy;
                    }
                    true
                },
                |row, seen, deadline| match pads(row)
                    .and_then(|p| ::abi_runtime::wake::Sleeper::new(p.region, 0).ok())
                {
                    Some(sleeper) => sleeper.wait(seen, deadline),
                    None => ::abi_runtime::wake::Waited::TimedOut,
                },
            );
            for (row, miss) in misses.iter_mut().enumerate().take(64) {
                if tally.missed & (1 << row) != 0 {
                    *miss += 1;
                }
            }
            tally
        }
    }
    impl<'a> MailboxHeader<'a> {
        /// What [`MailboxClient::request_commands`] sets: the `commands` event's word in this mailbox's header, `mailbox_header.request_seq` (a futex wake on Linux; elsewhere the host polls).
        pub fn commands_setter(
            &self,
        ) -> Result<::abi_runtime::wake::Setter<'a>, ::abi_runtime::RegionError> {
            ::abi_runtime::wake::Setter::new(self.region, 0)
        }
    }
    impl MailboxClient<'_> {
        /// The client's request, then the `commands` event set (`plan/commands.rs`): [`Self::request`], then `setter` (this mailbox's [`MailboxHeader::commands_setter`]) woken. Every request makes the call: no flag says whether the host sleeps. Bound to a claim through `ClientScoped::write`: once the claim is gone, nothing is sent and nothing set.
        pub fn request_commands(
            &mut self,
            setter: &::abi_runtime::wake::Setter<'_>,
            text: &[u8],
        ) -> Result<u32, ::abi_runtime::mailbox::MailboxError> {
            let seq = self.request(text)?;
            setter.after_publish(1, |_| true);
            Ok(seq)
        }
    }
    impl<'a> ClientHost<'a> {
        /// One round of the host's wait on the `commands` event (`plan/commands.rs`). `rows` (bit `row`): the rows asked about (the active ones); `mailboxes(row)`: the row's mailbox header, `None` when absent. Returns the asked rows holding a request not yet answered (the request sequence not the one answered, both loaded with acquire), at once when there is one; else, after a sleep until `deadline` at most on every asked row's word at once (none asked: until `deadline`; `abi_runtime::wake::wait_any`: `futex_waitv` on Linux 5.16 or later; an older kernel or another platform, at most 1 ms), the rows pending then: 0 when the deadline passed or a wake found none (look again). Never past the deadline, whatever a client does.
        pub fn wait_commands(
            &self,
            rows: u64,
            deadline: ::std::time::Instant,
            mailboxes: impl Fn(usize) -> Option<MailboxHeader<'a>>,
        ) -> u64 {
            let pending = |words: &mut ::std::vec::Vec<(Region<'a>, usize, u32)>| {
                let mut found = 0u64;
                for row in 0..Client::ROWS.min(64) {
                    if rows & (1 << row) == 0 {
                        continue;
                    }
                    let Some(m) = mailboxes(row) else { continue };
                    let request = m
                        .region
                        .load::<u32>(0, ::core::sync::atomic::Ordering::Acquire);
                    if request
                        != m
                            .region
                            .load::<u32>(8, ::core::sync::atomic::Ordering::Acquire)
                    {
                        found |= 1 << row;
                    }
                    words.push((m.region, 0, request));
                }
                found
            };
            let mut words = ::std::vec::Vec::new();
            let found = pending(&mut words);
            if found != 0 {
                return found;
            }
            let _ = ::abi_runtime::wake::wait_any(&words, deadline);
            words.clear();
            pending(&mut words)
        }
    }
    impl<'a> ::abi_runtime::service::ServiceHost for ClientHost<'a> {
        type Queue = LogQueueReader<'a>;
        type Entry = LogQueueEntry;
        type Reader = DrawReader<'a>;
        type List = DrawList;
        const PLAN: ::abi_runtime::service::Plan = ::abi_runtime::service::Plan {
            steps: &[
                ::abi_runtime::service::Step::Serve,
                ::abi_runtime::service::Step::Drain,
                ::abi_runtime::service::Step::Take,
                ::abi_runtime::service::Step::Closing,
                ::abi_runtime::service::Step::Hung,
                ::abi_runtime::service::Step::Dead,
            ],
            free_steps: &[
                ::abi_runtime::service::FreeStep::Drain,
                ::abi_runtime::service::FreeStep::Free,
                ::abi_runtime::service::FreeStep::Drain,
                ::abi_runtime::service::FreeStep::NewReader,
            ],
            serve_policy: &["mailbox_sequence", "mailbox_capacity"],
            take_policy: &["exchange_state"],
            drain_max: 1024u32,
        };
        fn rows(&self) -> usize {
            Client::ROWS
        }
        fn watch(&self, hung_ms: u64) -> ::abi_runtime::hung::HungWatch {
            self.watch_hung_ms(hung_ms)
        }
        fn serve(
            &self,
            row: usize,
            answer: &mut ::abi_runtime::service::Answer<'_>,
        ) -> Result<Option<bool>, ::abi_runtime::service::StepError> {
            let Some(block) = self.handle.client_blocks(row)? else { return Ok(None) };
            let Some(server) = block.mailbox_server()? else { return Ok(None) };
            Ok(server.serve_or_malformed(answer)?.map(|(_, malformed)| malformed))
        }
        fn queue(
            &self,
            row: usize,
        ) -> Result<Option<Self::Queue>, ::abi_runtime::service::StepError> {
            match self.handle.client_blocks(row)? {
                Some(b) => Ok(b.log_queue_reader()?),
                None => Ok(None),
            }
        }
        fn pop(
            queue: &mut Self::Queue,
        ) -> Result<Option<Self::Entry>, ::abi_runtime::service::StepError> {
            Ok(queue.pop()?)
        }
        fn reader(
            &self,
            row: usize,
        ) -> Result<Option<Self::Reader>, ::abi_runtime::service::StepError> {
            match self.handle.bot_blocks(row)? {
                Some(b) => Ok(b.draw_reader()?),
                None => Ok(None),
            }
        }
        fn take(
            reader: &mut Self::Reader,
        ) -> Result<Option<Self::List>, ::abi_runtime::service::StepError> {
            Ok(reader.take()?)
        }
        fn row(&self, row: usize) -> Option<::abi_runtime::service::RowWords> {
            let r = self.header.clients(row)?;
            let (state, generation) = ::abi_runtime::claim::row_word(
                r.region(),
                Client::SPEC,
            );
            Some(::abi_runtime::service::RowWords {
                closing: state == 3,
                active: state == 2,
                generation,
                pid: r.pid(),
            })
        }
        fn is_hung(
            &self,
            watch: &mut ::abi_runtime::hung::HungWatch,
            row: usize,
            now_ns: u64,
        ) -> bool {
            ClientHost::is_hung(self, watch, row, now_ns)
        }
        fn free(&self, row: usize) -> Result<(), ::abi_runtime::service::StepError> {
            ClientHost::free(self, row)?;
            Ok(())
        }
        fn reload(&self) -> Result<(), ::abi_runtime::service::StepError> {
            ClientHost::reload(self)?;
            Ok(())
        }
    }
    impl Client<'_> {
        /// Where a row keeps its state and generation, and the state's values.
        pub const SPEC: ::abi_runtime::claim::ClaimSpec = ::abi_runtime::claim::ClaimSpec {
            state: 0,
            generation: 4,
            free: 0,
            claimed: 1,
            active: 2,
            closing: 3,
            word: Some(::abi_runtime::claim::SharedWord { at: 0, state_low: true }),
        };
        /// Rows in the table.
        pub const ROWS: usize = 8;
        /// How often a client heartbeats, at least, in milliseconds.
        pub const HEARTBEAT_MS: u64 = 100;
        /// How long a row in use may go without a change before the host counts it as
        /// hung, in milliseconds.
        pub const HUNG_MS: u64 = 1000;
    }
    impl<'a> Client<'a> {
        /// Where the pads' owner bytes are, for `abi_runtime::pads`.
        pub const PADS: ::abi_runtime::pads::PadWord = ::abi_runtime::pads::PadWord {
            at: 164,
            count: 4,
            unbound: 255,
        };
        ::abi_runtime::session_client! {
            refused ClientRefused, standing ClientStanding, header BridgeHeader, rows clients, row ClientEntry, host_generation host_generation: u32, host_state host_state.0 == 2, heartbeat set_heartbeat_ns: u64, waiting set_waiting: u32;
            pads[#[doc = r" Binds pad `pad`, while the claim stands: its byte of `pad_owner` goes from unbound to this row's index (compare-and-swap of the word holding it), then, after a SeqCst fence, the claim is checked again, and the bind is undone when it no longer stands (`abi_runtime::pads::bind`: the host's free fences after its retire, so it lets go of any bind this check does not undo). Refused with the owner when another row holds it, `NoPad` when there is no such pad, and the standing once the row is no longer the claim's (nothing is left bound). `Contended` when the word kept changing: nothing stored, or, when an undo was contended, the pad left bound (unbind it)."]] [#[doc = r" Unbinds pad `pad`, while the claim stands: its byte of `pad_owner` goes from this row's index back to unbound (`abi_runtime::pads::unbind`). Refused with the owner when this row does not hold it, `NoPad` when there is no such pad, and the standing once the row is no longer the claim's (nothing stored)."]] ClientPadRefused, u32;
        }
    }
    impl<'a> ClientHost<'a> {
        /// The host's side of the rows in `handle`'s header, and of the blocks they own.
        pub fn new(handle: Bridge<'a>) -> Self {
            Self {
                header: handle.header(),
                handle,
            }
        }
        ::abi_runtime::session_host! {
            client Client, rows clients, state(free 0, claimed 1, active 2): super::ClientState as newtype, host_generation fetch_add_host_generation, exit set_host_state(super::HostState(2)), heartbeat heartbeat_ns, waiting waiting, pads u32, owned restore;
        }
        /// Puts back what row `index` owned in its blocks, as a new image has it: with the
        /// host's own handle (`produce`), every word the host alone writes there (the
        /// blocks' tables, capacities and geometry: `abi_runtime::restore::host_words`)
        /// from the image it laid out, but a queue's read position and a mailbox's
        /// answered number, which go on; then each mailbox with no request waiting, each
        /// exchange at its initial state (`abi_runtime::restore`); a queue keeps its
        /// entries for the host to drain. A block that is absent or fails its checks is
        /// left alone. `Contended` when a
        /// word the old client shares kept changing (the blocks after it not restored).
        fn restore(&self, index: usize) -> Result<(), ::abi_runtime::Contended> {
            let h = &self.handle;
            let placed = |row: usize| match &h.laid_out {
                Some(_) => h.table.block(row, index).cloned(),
                None => {
                    ::abi_runtime::attach::block(
                            h.region,
                            h.producer,
                            &BRIDGE_TABLE,
                            &h.table,
                            row,
                            index,
                        )
                        .ok()
                        .flatten()
                }
            };
            if let Some(table) = placed(2) {
                if let Some(l) = &h.laid_out {
                    ::abi_runtime::restore::host_words(
                        h.region,
                        l,
                        &table,
                        Self::CLIENT_BLOCKS_HOST_WORDS,
                    )?;
                }
                let block = ClientBlock {
                    region: h.region,
                    producer: h.producer,
                    table,
                    laid_out: None,
                };
                if let Some(r) = block.mailbox_region() {
                    ::abi_runtime::restore::mailbox(r, MailboxClient::SPEC)?;
                }
            }
            if let Some(table) = placed(4) {
                if let Some(l) = &h.laid_out {
                    ::abi_runtime::restore::host_words(
                        h.region,
                        l,
                        &table,
                        Self::BOT_BLOCKS_HOST_WORDS,
                    )?;
                }
                let block = BotBlock {
                    region: h.region,
                    producer: h.producer,
                    table,
                    laid_out: None,
                };
                if let Some(r) = block.draw_region() {
                    ::abi_runtime::restore::exchange(r, DrawWriter::SPEC)?;
                }
            }
            Ok(())
        }
        /// The words the host alone writes in each block of `client_blocks` that a free stores back from the image it laid out (abi-codegen's `plan::host_words`), as runs: the block's header (`None`) or a region's, from its start, the bytes of the one store each word gets, and the words.
        pub const CLIENT_BLOCKS_HOST_WORDS: &'static [::abi_runtime::restore::HostWord] = &[
            ::abi_runtime::restore::HostWord::run(None, 0, 4, 18),
            ::abi_runtime::restore::HostWord::run(Some(0), 16, 4, 1),
            ::abi_runtime::restore::HostWord::run(Some(2), 12, 4, 5),
        ];
        /// The words the host alone writes in each block of `bot_blocks` that a free stores back from the image it laid out (abi-codegen's `plan::host_words`), as runs: the block's header (`None`) or a region's, from its start, the bytes of the one store each word gets, and the words.
        pub const BOT_BLOCKS_HOST_WORDS: &'static [::abi_runtime::restore::HostWord] = &[
            ::abi_runtime::restore::HostWord::run(None, 0, 4, 18),
            ::abi_runtime::restore::HostWord::run(Some(0), 4, 4, 4),
            ::abi_runtime::restore::HostWord::run(Some(1), 8, 4, 3),
            ::abi_runtime::restore::HostWord::run(Some(2), 8, 4, 1),
        ];
    }
    impl<'a> Client<'a> {
        /// Binds `writer` (any writer of this row's blocks, taken unscoped) to this claim: see [`ClientScoped`]. The writers of the blocks the row owns are bound already: their default accessors take the claim. Take a new writer after each new claim.
        pub fn scoped<W>(&self, writer: W) -> ClientScoped<'_, 'a, W> {
            ClientScoped {
                client: self,
                writer,
            }
        }
    }
    /// A writer bound to a [`Client`]'s claim ([`Client::scoped`]): each [`ClientScoped::write`] first loads the claim's standing and writes only while it is [`ClientStanding::Connected`]. Once the row was freed, claimed again or reloaded, the writer's blocks are the next client's: every write is refused with the standing, and nothing is stored. The window left is one write: a writer preempted between the check and its store may still store once after the host's free (ATTACH.md, "What a client does when its row is freed").
    pub struct ClientScoped<'c, 'a, W> {
        client: &'c Client<'a>,
        writer: W,
    }
    impl<W> ClientScoped<'_, '_, W> {
        /// Runs `write` with the writer while the claim stands; otherwise its standing,
        /// and `write` is not run.
        pub fn write<R>(
            &mut self,
            write: impl FnOnce(&mut W) -> R,
        ) -> Result<R, ClientStanding> {
            match self.client.standing() {
                ClientStanding::Connected => Ok(write(&mut self.writer)),
                lost => Err(lost),
            }
        }
        /// The writer, bound to no claim any more: it keeps writing after the row was
        /// freed, into the next client's blocks (for a tool that writes without a claim).
        pub fn into_unscoped(self) -> W {
            self.writer
        }
    }
    /// Why [`Client::bind`] or [`Client::unbind`] refused.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ClientPadRefused {
        /// Another row holds the pad (bind), or this row does not (unbind): its owner.
        Held(u8),
        /// There is no such pad.
        NoPad,
        /// The row is no longer the claim's: nothing was stored.
        Lost(ClientStanding),
        /// The other pads of the word kept changing under each of
        /// [`abi_runtime::CAS_TRIES`] compare-and-swaps: nothing was stored.
        Contended,
    }
    impl<A: ::abi_runtime::Writable> StatsHeader<'_, A> {
        /// Stores the wake statistics `stats` of event `tick`'s waiter, each figure in the field the schema's `stats` names through that field's setter, with its access, in this order: `wake_p50_us`, `wake_p99_us`, `ticks`, `skipped`; the plain fields' relaxed stores come before the atomic fields' release stores, which publish them. Only the waiter writes these fields. `Err(Contended)` when a word a field shares in part kept changing (the figures before it stored).
        pub fn store_tick_wake_stats(
            &self,
            stats: &::abi_runtime::wake_stats::WakeStats,
        ) -> Result<(), ::abi_runtime::Contended> {
            let (p50_us, p99_us) = stats.percentiles_us();
            self.set_wake_p50_us(p50_us)?;
            self.set_wake_p99_us(p99_us)?;
            self.set_ticks(stats.ticks())?;
            self.set_skipped(stats.skipped())?;
            Ok(())
        }
    }
    /// The hosts running in this logon session, in a mapping of its own (Local\\ibf.directory on Windows, /dev/shm/ibf.directory on Linux): the first host creates it, owner-only. A host registers by compare-and-swap of a free row's state and pid to (claimed, its pid), fills the row in, then moves it to live; it frees its row on exit. A starting host first frees stale rows: claimed or live rows whose process is gone, or whose process was created at another time than process_time (a reused pid). process_time is the process's creation time: on Windows the creation FILETIME of GetProcessTimes; on Linux field 22 of /proc/PID/stat (starttime, clock ticks since boot), which never changes for a live process and orders hosts within a boot, all a directory in /dev/shm outlives. A client lists the live rows, newest process_time first, copying each row and checking its state and pid again
    ///
    /// The protocol is `abi_runtime::directory`'s; this type holds its plan. A host opens the mapping with `abi_runtime::DirectoryMapping` (feature `mmap`), registers with [`Hosts::host`] and `abi_runtime::process_probe`, and unregisters on exit.
    #[derive(Debug, Clone, Copy)]
    pub struct Hosts;
    impl Hosts {
        /// Offsets, sizes and values of the directory, from the layout.
        pub const SPEC: ::abi_runtime::directory::DirectorySpec = ::abi_runtime::directory::DirectorySpec {
            magic_at: 0,
            magic: 0x44464249,
            entry_count_at: 4,
            entry_size_at: 8,
            entries_at: 64,
            max_entries: 16,
            entry_size: 64,
            word: ::abi_runtime::claim::SharedWord { at: 0, state_low: true },
            process_time_at: 8,
            abi_major_at: 16,
            abi_minor_at: 18,
            version_at: 24,
            version_len: 32,
            free: 0,
            claimed: 1,
            live: 2,
        };
        /// The mapping's name on Windows.
        pub const WINDOWS_NAME: &'static str = "Local\\ibf.directory";
        /// The mapping's file on Linux.
        pub const LINUX_PATH: &'static str = "/dev/shm/ibf.directory";
        /// What this process registers: its pid and creation time (`abi_runtime::own_host_time`
        /// with `mmap`), this ABI's version, and `host_version`.
        pub fn host(
            pid: u32,
            process_time: u64,
            host_version: &str,
        ) -> ::abi_runtime::directory::HostInfo {
            ::abi_runtime::directory::HostInfo {
                pid,
                process_time,
                abi_major: 0,
                abi_minor: 9,
                host_version: host_version.to_owned(),
            }
        }
        /// The directory in `region`, its header checked (magic, `entry_size`, `entry_count`).
        ///
        /// # Errors
        ///
        /// The `DirectoryError` naming what is wrong.
        pub fn check<A: ::abi_runtime::Access>(
            region: ::abi_runtime::Region<'_, A>,
        ) -> Result<
            ::abi_runtime::directory::Directory<'_, A>,
            ::abi_runtime::directory::DirectoryError,
        > {
            ::abi_runtime::directory::check(region, Self::SPEC)
        }
    }
    /// Layout table `bridge`: `bridge_header.regions`, indexed by `bridge_region`. The whole bridge: the header's table places every other region, from the start of the bridge
    pub static BRIDGE_TABLE: ::abi_runtime::attach::TableSpec = ::abi_runtime::attach::TableSpec {
        name: "bridge",
        header: "bridge_header",
        header_size: 1304,
        table_offset: 64,
        max_rows: 8,
        row_size: 8,
        row_offset: ::abi_runtime::attach::Field::new(0, 4),
        row_len: ::abi_runtime::attach::Field::new(4, 4),
        row_count: Some(::abi_runtime::attach::Field::new(28, 4)),
        extent: Some(::abi_runtime::attach::Field::new(12, 4)),
        rows: &[
            ::abi_runtime::attach::RowSpec { name: "header", index: 0, since_minor: None, optional: false, min_size: 1280, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Header, need: None },
            ::abi_runtime::attach::RowSpec { name: "snapshot_ring", index: 1, since_minor: None, optional: false, min_size: 12168, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: Some(::abi_runtime::attach::NeedSpec { fixed: 0, terms: &[::abi_runtime::attach::NeedTerm { factor: 1, geometry: &[0, 1] }] }) },
            ::abi_runtime::attach::RowSpec { name: "client_blocks", index: 2, since_minor: None, optional: false, min_size: 576, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Blocks { table: &CLIENT_BLOCK_TABLE, count: 8, stride: 65536, stride_geometry: Some(3) }, need: Some(::abi_runtime::attach::NeedSpec { fixed: 0, terms: &[::abi_runtime::attach::NeedTerm { factor: 8, geometry: &[3] }] }) },
            ::abi_runtime::attach::RowSpec { name: "log_ring", index: 3, since_minor: None, optional: false, min_size: 72, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: Some(::abi_runtime::attach::NeedSpec { fixed: 64, terms: &[::abi_runtime::attach::NeedTerm { factor: 1, geometry: &[5] }] }) },
            ::abi_runtime::attach::RowSpec { name: "bot_blocks", index: 4, since_minor: Some(5), optional: false, min_size: 2392064, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Blocks { table: &BOT_BLOCK_TABLE, count: 8, stride: 299008, stride_geometry: None }, need: None },
        ],
        geometry: &[
            ::abi_runtime::attach::GeometrySpec { name: "ring_slots", row: None, field: ::abi_runtime::attach::Field::new(144, 4), rule: ::abi_runtime::attach::GeometryRule::Follow { least: 1, align: 1 }, default: Some(8) },
            ::abi_runtime::attach::GeometrySpec { name: "ring_slot_size", row: None, field: ::abi_runtime::attach::Field::new(148, 4), rule: ::abi_runtime::attach::GeometryRule::Follow { least: 12168, align: 8 }, default: Some(32768) },
            ::abi_runtime::attach::GeometrySpec { name: "max_clients", row: None, field: ::abi_runtime::attach::Field::new(152, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(8), default: Some(8) },
            ::abi_runtime::attach::GeometrySpec { name: "client_block_size", row: None, field: ::abi_runtime::attach::Field::new(156, 4), rule: ::abi_runtime::attach::GeometryRule::Follow { least: 72, align: 8 }, default: Some(65536) },
            ::abi_runtime::attach::GeometrySpec { name: "client_entry_size", row: None, field: ::abi_runtime::attach::Field::new(160, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(128), default: Some(128) },
            ::abi_runtime::attach::GeometrySpec { name: "capacity", row: Some(3), field: ::abi_runtime::attach::Field::new(16, 4), rule: ::abi_runtime::attach::GeometryRule::Follow { least: 8, align: 8 }, default: Some(65536) },
        ],
    };
    /// Layout table `client_block`: `client_block_header.regions`, indexed by `client_region`. A client block: its table places its regions, from the start of the block
    pub static CLIENT_BLOCK_TABLE: ::abi_runtime::attach::TableSpec = ::abi_runtime::attach::TableSpec {
        name: "client_block",
        header: "client_block_header",
        header_size: 72,
        table_offset: 8,
        max_rows: 8,
        row_size: 8,
        row_offset: ::abi_runtime::attach::Field::new(0, 4),
        row_len: ::abi_runtime::attach::Field::new(4, 4),
        row_count: Some(::abi_runtime::attach::Field::new(4, 4)),
        extent: Some(::abi_runtime::attach::Field::new(0, 4)),
        rows: &[
            ::abi_runtime::attach::RowSpec { name: "log_queue", index: 0, since_minor: None, optional: false, min_size: 72, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: Some(::abi_runtime::attach::NeedSpec { fixed: 64, terms: &[::abi_runtime::attach::NeedTerm { factor: 1, geometry: &[0] }] }) },
            ::abi_runtime::attach::RowSpec { name: "pad_input", index: 1, since_minor: None, optional: false, min_size: 32, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: None },
            ::abi_runtime::attach::RowSpec { name: "mailbox", index: 2, since_minor: None, optional: false, min_size: 66, align: 4, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: Some(::abi_runtime::attach::NeedSpec { fixed: 64, terms: &[::abi_runtime::attach::NeedTerm { factor: 1, geometry: &[1] }, ::abi_runtime::attach::NeedTerm { factor: 1, geometry: &[2] }] }) },
        ],
        geometry: &[
            ::abi_runtime::attach::GeometrySpec { name: "capacity", row: Some(0), field: ::abi_runtime::attach::Field::new(16, 4), rule: ::abi_runtime::attach::GeometryRule::Follow { least: 8, align: 8 }, default: Some(16384) },
            ::abi_runtime::attach::GeometrySpec { name: "request_capacity", row: Some(2), field: ::abi_runtime::attach::Field::new(24, 4), rule: ::abi_runtime::attach::GeometryRule::Follow { least: 1, align: 1 }, default: None },
            ::abi_runtime::attach::GeometrySpec { name: "response_capacity", row: Some(2), field: ::abi_runtime::attach::Field::new(28, 4), rule: ::abi_runtime::attach::GeometryRule::Follow { least: 1, align: 1 }, default: None },
        ],
    };
    /// Layout table `bot_block`: `client_block_header.regions`, indexed by `bot_region`. A bot block starts with a client_block_header too, whose table is indexed by bot_region, from the start of the block
    pub static BOT_BLOCK_TABLE: ::abi_runtime::attach::TableSpec = ::abi_runtime::attach::TableSpec {
        name: "bot_block",
        header: "client_block_header",
        header_size: 72,
        table_offset: 8,
        max_rows: 8,
        row_size: 8,
        row_offset: ::abi_runtime::attach::Field::new(0, 4),
        row_len: ::abi_runtime::attach::Field::new(4, 4),
        row_count: Some(::abi_runtime::attach::Field::new(4, 4)),
        extent: Some(::abi_runtime::attach::Field::new(0, 4)),
        rows: &[
            ::abi_runtime::attach::RowSpec { name: "draw", index: 0, since_minor: None, optional: false, min_size: 270592, align: 4, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: None },
            ::abi_runtime::attach::RowSpec { name: "params", index: 1, since_minor: None, optional: false, min_size: 8768, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: None },
            ::abi_runtime::attach::RowSpec { name: "stats", index: 2, since_minor: None, optional: false, min_size: 4160, align: 8, overlaps: &[], contents: ::abi_runtime::attach::RowContents::Plain, need: None },
        ],
        geometry: &[
            ::abi_runtime::attach::GeometrySpec { name: "buffers", row: Some(0), field: ::abi_runtime::attach::Field::new(4, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(3), default: Some(3) },
            ::abi_runtime::attach::GeometrySpec { name: "buffer_size", row: Some(0), field: ::abi_runtime::attach::Field::new(8, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(90176), default: Some(90176) },
            ::abi_runtime::attach::GeometrySpec { name: "max_commands", row: Some(0), field: ::abi_runtime::attach::Field::new(12, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(2048), default: Some(2048) },
            ::abi_runtime::attach::GeometrySpec { name: "max_payload", row: Some(0), field: ::abi_runtime::attach::Field::new(16, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(16384), default: Some(16384) },
            ::abi_runtime::attach::GeometrySpec { name: "max_params", row: Some(1), field: ::abi_runtime::attach::Field::new(16, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(32), default: Some(32) },
            ::abi_runtime::attach::GeometrySpec { name: "max_stats", row: Some(2), field: ::abi_runtime::attach::Field::new(8, 4), rule: ::abi_runtime::attach::GeometryRule::Equal(64), default: Some(64) },
        ],
    };
    /// The version handshake of `bridge_header`: magic, major and minor version, producer's size, and the fields each later minor version added.
    pub static BRIDGE_HEADER_HANDSHAKE: ::abi_runtime::attach::HandshakeSpec = ::abi_runtime::attach::HandshakeSpec {
        record: "bridge_header",
        ours: ::abi_runtime::attach::Version { major: 0, minor: 9 },
        magic: Some((::abi_runtime::attach::Field::new(0, 4), 1111900745)),
        major: ::abi_runtime::attach::Field::new(4, 2),
        minor: ::abi_runtime::attach::Field::new(6, 2),
        size: Some(::abi_runtime::attach::Field::new(8, 4)),
        base_size: 1280,
        full_size: 1304,
        added: &[
            ::abi_runtime::attach::AddedField { name: "controls", since_minor: 4, offset: 1280, end: 1296 },
            ::abi_runtime::attach::AddedField { name: "run_mode", since_minor: 7, offset: 1296, end: 1297 },
            ::abi_runtime::attach::AddedField { name: "sim_state", since_minor: 7, offset: 1297, end: 1298 },
            ::abi_runtime::attach::AddedField { name: "lockstep_timeout_ms", since_minor: 7, offset: 1300, end: 1304 },
        ],
        state: Some((::abi_runtime::attach::Field::new(24, 4), 1)),
        generation: Some(::abi_runtime::attach::Field::new(20, 4)),
    };
    ::abi_runtime::versioned! {
        #[doc = r" A `bridge_header` read by its producer's size: a shorter record zero-extended, with the fields it lacks absent; a longer one cut to ours, its extra bytes kept."] VersionedBridgeHeader: super::BridgeHeader, BRIDGE_HEADER_HANDSHAKE;
        #[doc = r" `controls`, added in 0.4: `None` when the producer's version or record lacks it."] controls @ 0: super::Controls;
        #[doc = r" `run_mode`, added in 0.7: `None` when the producer's version or record lacks it."] run_mode @ 1: super::RunMode;
        #[doc = r" `sim_state`, added in 0.7: `None` when the producer's version or record lacks it."] sim_state @ 2: super::SimState;
        #[doc = r" `lockstep_timeout_ms`, added in 0.7: `None` when the producer's version or record lacks it."] lockstep_timeout_ms @ 3: u32;
    }
    /// The version handshake of `snapshot`: magic, major and minor version, and the fields each later minor version added.
    pub static SNAPSHOT_HANDSHAKE: ::abi_runtime::attach::HandshakeSpec = ::abi_runtime::attach::HandshakeSpec {
        record: "snapshot",
        ours: ::abi_runtime::attach::Version { major: 0, minor: 9 },
        magic: Some((::abi_runtime::attach::Field::new(0, 4), 1397113417)),
        major: ::abi_runtime::attach::Field::new(4, 2),
        minor: ::abi_runtime::attach::Field::new(6, 2),
        size: None,
        base_size: 10088,
        full_size: 12104,
        added: &[
            ::abi_runtime::attach::AddedField { name: "match", since_minor: 6, offset: 10088, end: 10108 },
            ::abi_runtime::attach::AddedField { name: "pickup_spawns", since_minor: 6, offset: 10108, end: 10364 },
            ::abi_runtime::attach::AddedField { name: "ships_ext", since_minor: 6, offset: 10364, end: 10812 },
            ::abi_runtime::attach::AddedField { name: "projectiles_ext", since_minor: 6, offset: 10812, end: 11836 },
            ::abi_runtime::attach::AddedField { name: "spawn_markers", since_minor: 9, offset: 11840, end: 12096 },
            ::abi_runtime::attach::AddedField { name: "spawn_marker_count", since_minor: 9, offset: 12096, end: 12097 },
        ],
        state: None,
        generation: None,
    };
    ::abi_runtime::versioned! {
        #[doc = r" A `snapshot` read by its producer's size: a shorter record zero-extended, with the fields it lacks absent; a longer one cut to ours, its extra bytes kept."] VersionedSnapshot: super::Snapshot, SNAPSHOT_HANDSHAKE;
        #[doc = r" `match`, added in 0.6: `None` when the producer's version or record lacks it."] r#match @ 0: super::Match;
        #[doc = r" `pickup_spawns`, added in 0.6: `None` when the producer's version or record lacks it."] pickup_spawns @ 1: [super::PickupSpawn; 16];
        #[doc = r" `ships_ext`, added in 0.6: `None` when the producer's version or record lacks it."] ships_ext @ 2: [super::ShipExt; 16];
        #[doc = r" `projectiles_ext`, added in 0.6: `None` when the producer's version or record lacks it."] projectiles_ext @ 3: [super::ProjectileExt; 128];
        #[doc = r" `spawn_markers`, added in 0.9: `None` when the producer's version or record lacks it."] spawn_markers @ 4: [super::SpawnMarker; 16];
        #[doc = r" `spawn_marker_count`, added in 0.9: `None` when the producer's version or record lacks it."] spawn_marker_count @ 5: u8;
    }
    ::abi_runtime::layout_handle! {
        #[doc = r" An attached `bridge` image: every check passed; one accessor per region of table `bridge`. The whole bridge: the header's table places every other region, from the start of the bridge"] root Bridge: handshake BRIDGE_HEADER_HANDSHAKE, table BRIDGE_TABLE;
    }
    impl<'a> Bridge<'a> {
        /// The producer's side: lays out a new image of this layout (abi-codegen's `ATTACH.md`,
        /// "Producing an image"): every row placed after the last at its alignment,
        /// sized for the geometry, each block laid out by its table, the geometry fields
        /// written. `geometry` names the values that differ from the schema's
        /// (`("struct.field", value)`, one pair per geometry field).
        /// The image is checked by attach, every block included, before it is returned;
        /// its length is the mapping size the producer needs.
        pub fn lay_out(
            geometry: &[(&str, u64)],
            generation: u64,
        ) -> Result<
            ::abi_runtime::produce::Image,
            ::abi_runtime::produce::ProduceError,
        > {
            #[allow(unused_mut, reason = "a schema without protocol start words sets nothing in the image")]
            let mut image = ::abi_runtime::produce::lay_out(
                &BRIDGE_HEADER_HANDSHAKE,
                &BRIDGE_TABLE,
                geometry,
                generation,
            )?;
            ::abi_runtime::produce::set_words(
                &mut image,
                &BRIDGE_HEADER_HANDSHAKE,
                &BRIDGE_TABLE,
                &[
                    ::abi_runtime::produce::RowWord {
                        table: "bot_block",
                        row: "draw",
                        field: ::abi_runtime::attach::Field::new(0, 4),
                        value: 1,
                    },
                    ::abi_runtime::produce::RowWord {
                        table: "bridge",
                        row: "header",
                        field: ::abi_runtime::attach::Field::new(164, 4),
                        value: 4294967295,
                    },
                ],
            )?;
            image
                .sessions
                .push(::abi_runtime::produce::SessionRows {
                    at: 256,
                    rows: 8,
                    stride: 128,
                    spec: Client::SPEC,
                });
            Ok(image)
        }
        /// Stamps a laid-out image with who produced it, before [`Self::produce`]: the
        /// process id, the version string and the clock pair the handshake names
        /// (`abi_runtime::identity`: `Identity::now(version)` reads this process and its
        /// clocks). `TooLarge` when the version does not fit its field with its NUL.
        pub fn stamp_identity(
            image: &mut ::abi_runtime::produce::Image,
            identity: &::abi_runtime::identity::Identity,
        ) -> Result<(), ::abi_runtime::produce::ProduceError> {
            const SPEC: ::abi_runtime::identity::IdentitySpec<'static> = ::abi_runtime::identity::IdentitySpec {
                pid: Some(("host_pid", ::abi_runtime::attach::Field::new(16usize, 4usize))),
                version: Some((
                    "host_version",
                    ::abi_runtime::identity::TextField { offset: 32usize, len: 32usize },
                )),
                mono_ns: Some((
                    "clock_mono_ns",
                    ::abi_runtime::attach::Field::new(128usize, 8usize),
                )),
                unix_ns: Some((
                    "clock_unix_ns",
                    ::abi_runtime::attach::Field::new(136usize, 8usize),
                )),
            };
            ::abi_runtime::identity::stamp(image, &SPEC, identity)
        }
        /// A re-layout in one call: copies the host's own fields from the live header of `region` into `image` (from [`Self::lay_out`], with the new geometry), each word with one acquire load of its own size, when the mapping holds an image, then [`Self::produce`]s it over the same mapping (its generation past the mapping's, every session row freed). Kept (`codegen/src/plan/relayout.rs`): `controls`, `run_mode`, `sim_state`, `lockstep_timeout_ms`, and each mark of `pad_owner` that is neither a row (below 8: a claim, which the re-layout frees) nor unbound (255). Nothing else: geometry, the handshake and identity, the region table, the sessions' rows and words and the rings' heads are the new image's.
        pub fn relayout(
            region: Region<'a>,
            image: &mut ::abi_runtime::produce::Image,
        ) -> Result<Self, ::abi_runtime::produce::ProduceError> {
            const KEEP: ::abi_runtime::relayout::Keep<'static> = ::abi_runtime::relayout::Keep {
                held: ::abi_runtime::attach::Field::new(20, 4),
                runs: &[
                    ::abi_runtime::relayout::KeptRun { at: 1280, width: 1, count: 2 },
                    ::abi_runtime::relayout::KeptRun { at: 1282, width: 2, count: 7 },
                    ::abi_runtime::relayout::KeptRun { at: 1296, width: 1, count: 2 },
                    ::abi_runtime::relayout::KeptRun { at: 1300, width: 4, count: 1 },
                ],
                bind: Some(::abi_runtime::relayout::KeptBind {
                    at: 164,
                    size: 4,
                    word: 4,
                    elem: 1,
                    unbound: 255,
                    rows: 8,
                }),
            };
            ::abi_runtime::relayout::keep(region, image, &KEEP)?;
            Self::produce(region, image)
        }
        ::abi_runtime::handle_accessors! {
            #[doc = " The header's live view, as long as its producer built it (`header_size`):"] #[doc = " the fields a later minor version added are absent from an older producer's."] header_len header: BridgeHeader;
            #[doc = r" The bytes of region `header`, or `None` when it is absent."] region header_region @ 0;
            #[doc = r" The bytes of region `snapshot_ring`, or `None` when it is absent."] region snapshot_ring_region @ 1;
            #[doc = r" The ring in region `snapshot_ring`, with the slot count and size its writer built it with (as attach checked them), or `None` when it is absent."] ring snapshot_ring @ 1: SnapshotRing, Some(0), Some(1);
            #[doc = r" The bytes of region `client_blocks`, or `None` when it is absent. Client block i belongs to client row i"] region client_blocks_region @ 2;
            #[doc = r" Block `i` (of 8) of region `client_blocks`, checked now (on its first use, and on each): `Ok(None)` when the region is absent or `i` out of range, an error naming the block when it fails a check. Other blocks are not looked at."] blocks client_blocks @ 2: ClientBlock, CLIENT_BLOCKS_COUNT = 8, BRIDGE_TABLE, live BRIDGE_HEADER_HANDSHAKE;
            #[doc = r" The bytes of region `log_ring`, or `None` when it is absent."] region log_ring_region @ 3;
            #[doc = r" The live view of region `log_ring`, or `None` when it is absent."] view log_ring @ 3: LogRingHeader;
            #[doc = r" The writer of broadcast `log_ring` in region `log_ring`: `Ok(None)` when the region is absent, an error when its header does not fit it."] open log_ring_writer @ 3: LogRingWriter::new, ::abi_runtime::broadcast_ring::RingError;
            #[doc = r" The reader joining at the newest entry of broadcast `log_ring` in region `log_ring`: `Ok(None)` when the region is absent, an error when its header does not fit it."] open log_ring_join_latest @ 3: LogRingReader::join_latest, ::abi_runtime::broadcast_ring::RingError;
            #[doc = r" The reader joining at the oldest entry kept of broadcast `log_ring` in region `log_ring`: `Ok(None)` when the region is absent, an error when its header does not fit it."] open log_ring_join_oldest @ 3: LogRingReader::join_oldest, ::abi_runtime::broadcast_ring::RingError;
            #[doc = r" The bytes of region `bot_blocks`, or `None` when it is absent. Bot block i belongs to client row i (ABI 0.5)"] region bot_blocks_region @ 4;
            #[doc = r" Block `i` (of 8) of region `bot_blocks`, checked now (on its first use, and on each): `Ok(None)` when the region is absent or `i` out of range, an error naming the block when it fails a check. Other blocks are not looked at."] blocks bot_blocks @ 4: BotBlock, BOT_BLOCKS_COUNT = 8, BRIDGE_TABLE, live BRIDGE_HEADER_HANDSHAKE;
        }
        /// Claims row `index` for session `client` ([`Client::claim`]) at the host generation this handle checked: refused when the row is taken or the host moved on since.
        pub fn claim_client(&self, index: usize) -> Result<Client<'a>, ClientRefused> {
            Client::claim(
                self.header(),
                self
                    .generation
                    .and_then(|g| u32::try_from(g).ok())
                    .unwrap_or_else(|| self.header().host_generation()),
                index,
            )
        }
        /// Claims the first free row for session `client` ([`Client::claim_first`]).
        pub fn claim_first_client(&self) -> Result<Client<'a>, ClientRefused> {
            Client::claim_first(
                self.header(),
                self
                    .generation
                    .and_then(|g| u32::try_from(g).ok())
                    .unwrap_or_else(|| self.header().host_generation()),
            )
        }
        /// The host's side of session `client`.
        pub fn client_host(&self) -> ClientHost<'a> {
            ClientHost::new(self.clone())
        }
    }
    ::abi_runtime::layout_handle! {
        #[doc = r" A block laid out by table `client_block`: one accessor per region. A client block: its table places its regions, from the start of the block"] block ClientBlock;
    }
    impl<'a> ClientBlock<'a> {
        ::abi_runtime::handle_accessors! {
            #[doc = " The header's live view."] header header: ClientBlockHeader;
            #[doc = r" The bytes of region `log_queue`, or `None` when it is absent."] region log_queue_region @ 0;
            #[doc = r" The live view of region `log_queue`, or `None` when it is absent."] view log_queue @ 0: LogQueueHeader;
            #[doc = r" The writer of queue `log_queue` in region `log_queue`, bound to `client`'s claim ([`ClientScoped`]): each write first checks the claim's standing and is refused with it, nothing stored, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting). `Ok(None)` when the region is absent, an error when its header does not fit it. [`Self::log_queue_writer_unscoped`] is the writer without a claim, for a host, a test or a tool."] scoped log_queue_writer = log_queue_writer_unscoped: LogQueueWriter, ::abi_runtime::byte_queue::QueueError, Client, ClientScoped;
            #[doc = r" The writer of queue `log_queue` in region `log_queue`, bound to no claim: it keeps writing after the row was freed, into the next client's blocks. For a host, a test or a tool that writes without a claim; a client takes [`Self::log_queue_writer`]. `Ok(None)` when the region is absent, an error when its header does not fit it."] open log_queue_writer_unscoped @ 0: LogQueueWriter::new, ::abi_runtime::byte_queue::QueueError;
            #[doc = r" The reader of queue `log_queue` in region `log_queue`: `Ok(None)` when the region is absent, an error when its header does not fit it."] host log_queue_reader @ 0: LogQueueReader, ::abi_runtime::byte_queue::QueueError;
            #[doc = r" The bytes of region `pad_input`, or `None` when it is absent."] region pad_input_region @ 1;
            #[doc = r" The live view of region `pad_input`, or `None` when it is absent."] view pad_input @ 1: PadInput;
            #[doc = r" The bytes of region `mailbox`, or `None` when it is absent. The request and response areas follow the header; their capacities are in it"] region mailbox_region @ 2;
            #[doc = r" The live view of region `mailbox`, or `None` when it is absent."] view mailbox @ 2: MailboxHeader;
            #[doc = r" The client of mailbox `mailbox` in region `mailbox`, bound to `client`'s claim ([`ClientScoped`]): each write first checks the claim's standing and is refused with it, nothing stored, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting). `Ok(None)` when the region is absent, an error when its header does not fit it. [`Self::mailbox_client_unscoped`] is the writer without a claim, for a host, a test or a tool."] scoped mailbox_client = mailbox_client_unscoped: MailboxClient, ::abi_runtime::mailbox::MailboxError, Client, ClientScoped;
            #[doc = r" The client of mailbox `mailbox` in region `mailbox`, bound to no claim: it keeps writing after the row was freed, into the next client's blocks. For a host, a test or a tool that writes without a claim; a client takes [`Self::mailbox_client`]. `Ok(None)` when the region is absent, an error when its header does not fit it."] open mailbox_client_unscoped @ 2: MailboxClient::new, ::abi_runtime::mailbox::MailboxError;
            #[doc = r" The server of mailbox `mailbox` in region `mailbox`: `Ok(None)` when the region is absent, an error when its header does not fit it."] host mailbox_server @ 2: MailboxServer, ::abi_runtime::mailbox::MailboxError;
        }
    }
    ::abi_runtime::layout_handle! {
        #[doc = r" A block laid out by table `bot_block`: one accessor per region. A bot block starts with a client_block_header too, whose table is indexed by bot_region, from the start of the block"] block BotBlock;
    }
    impl<'a> BotBlock<'a> {
        ::abi_runtime::handle_accessors! {
            #[doc = " The header's live view."] header header: ClientBlockHeader;
            #[doc = r" The bytes of region `draw`, or `None` when it is absent."] region draw_region @ 0;
            #[doc = r" The live view of region `draw`, or `None` when it is absent."] view draw @ 0: DrawHeader;
            #[doc = r" The writer of exchange `draw` in region `draw`, bound to `client`'s claim ([`ClientScoped`]): each write first checks the claim's standing and is refused with it, nothing stored, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting). `Ok(None)` when the region is absent, an error when its header does not fit it. [`Self::draw_writer_unscoped`] is the writer without a claim, for a host, a test or a tool."] scoped draw_writer = draw_writer_unscoped: DrawWriter, ::abi_runtime::triple_buffer::ExchangeError, Client, ClientScoped;
            #[doc = r" The writer of exchange `draw` in region `draw`, bound to no claim: it keeps writing after the row was freed, into the next client's blocks. For a host, a test or a tool that writes without a claim; a client takes [`Self::draw_writer`]. `Ok(None)` when the region is absent, an error when its header does not fit it."] open draw_writer_unscoped @ 0: DrawWriter::new, ::abi_runtime::triple_buffer::ExchangeError;
            #[doc = r" The reader of exchange `draw` in region `draw`: `Ok(None)` when the region is absent, an error when its header does not fit it."] host draw_reader @ 0: DrawReader, ::abi_runtime::triple_buffer::ExchangeError;
            #[doc = r" The bytes of region `params`, or `None` when it is absent."] region params_region @ 1;
            #[doc = r" The live view of region `params`, or `None` when it is absent."] view params @ 1: ParamsHeader;
            #[doc = r" The bytes of region `stats`, or `None` when it is absent."] region stats_region @ 2;
            #[doc = r" The live view of region `stats`, or `None` when it is absent."] view stats @ 2: StatsHeader;
        }
    }
}
/// Reading and writing the bridge ABI's recordings: chunks of zlib streams of records, each record's data as is or XORed with the record before it, with a footer, a chunk index and a trailer (`abi_runtime::recording`, feature `recording`).
pub mod recording {
    ::abi_runtime::require_recording!();
    use ::abi_runtime::recording as rec;
    pub use rec::{Issue, IssueKind, WriterOptions};
    /// The `ibfrec` format, as the recording core reads and writes it.
    pub static IBFREC_SPEC: rec::RecordingSpec = rec::RecordingSpec {
        name: "ibfrec",
        header: rec::Part {
            name: "header",
            size: 512,
            expects: &[(rec::Field::new(0, 4), 0x5246_4249_u64), (rec::Field::new(4, 2), 0x1_u64)],
        },
        trailer: rec::TrailerSpec {
            part: rec::Part {
                name: "trailer",
                size: 16,
                expects: &[(rec::Field::new(12, 4), 0x4546_4249_u64)],
            },
            footer_offset: rec::Field::new(0, 8),
        },
        footer: rec::Part {
            name: "footer",
            size: 48,
            expects: &[(rec::Field::new(0, 4), 0x5846_4249_u64)],
        },
        tables: &[
            rec::TableSpec { name: "chunk_index", size: 24, count: rec::Field::new(4, 4) },
            rec::TableSpec { name: "marks", size: 16, count: rec::Field::new(8, 4) },
        ],
        index: rec::IndexSpec {
            table: 0,
            offset: rec::Field::new(0, 8),
            copies: &[
                (rec::Field::new(8, 8), rec::Field::new(16, 8)),
                (rec::Field::new(16, 8), rec::Field::new(24, 8)),
            ],
        },
        chunk: rec::ChunkSpec {
            part: rec::Part {
                name: "chunks",
                size: 32,
                expects: &[(rec::Field::new(0, 4), 0x4346_4249_u64)],
            },
            stored: rec::Field::new(4, 4),
            raw: rec::Field::new(8, 4),
            count: Some(rec::Field::new(12, 4)),
            bounds: Some((rec::Field::new(16, 8), rec::Field::new(24, 8))),
        },
        record: rec::RecordSpec {
            name: "ticks",
            size: 136,
            total_size: Some(rec::Field::new(0, 4)),
            data_size: rec::Field::new(4, 4),
            kind: rec::Field::new(8, 1),
            steps: &[(1u64, rec::Step::Plain), (2u64, rec::Step::Xor)],
            key: rec::Field::new(16, 8),
            decoded_size: 12104,
            same: &[
                (rec::Field::new(24, 8), rec::Field::new(16, 8)),
                (rec::Field::new(16, 8), rec::Field::new(24, 8)),
                (rec::Field::new(8, 4), rec::Field::new(4, 4)),
            ],
        },
        totals: &[
            rec::Total::Sum { total: rec::Field::new(16, 8), of: rec::Field::new(12, 4) },
            rec::Total::Count { total: rec::Field::new(4, 4) },
            rec::Total::First { total: rec::Field::new(24, 8), of: rec::Field::new(16, 8) },
            rec::Total::Last { total: rec::Field::new(32, 8), of: rec::Field::new(16, 8) },
        ],
    };
    ::abi_runtime::recording_format! {
        spec IBFREC_SPEC;
        #[doc = r" One record of a file of the `ibfrec` format: its `rec_tick_header`, the decoded `snapshot`, and the extras that follow it in the decoded data."] record IbfrecRecord: super::RecTickHeader, snapshot super::Snapshot, size 12104;
        #[doc = r" Reads a file of the `ibfrec` format over any `Read + Seek`: one chunk inflated at a time, records decoded, damage collected in [`issues`](Self::issues) (a file whose trailer or footer is missing or bad is read by walking its chunks from the header)."] reader IbfrecReader: header super::RecFileHeader, footer super::RecFooter, chunk super::RecChunkHeader, seek seek_tick, read[#[doc = r"The record whose `tick` is `key`, if the file holds it."]] read_tick;
        tables { #[doc = r" The `chunk_index` rows (none when the footer is missing or bad)."] chunk_index @ 0: super::RecChunkEntry; #[doc = r" The `marks` rows (none when the footer is missing or bad)."] marks @ 1: super::RecMark; }
        #[doc = r" Writes a file of the `ibfrec` format: records into chunks (each starts with a plain record), [`flush`](Self::flush) closes the open chunk, [`finish`](Self::finish) writes the footer, its tables and the trailer. Dropped without `finish`, the file ends with its last chunk, and a reader walks it."] writer IbfrecWriter;
        adders { #[doc = r"Adds a row to `marks`, written by [`finish`](Self::finish)."] push_marks @ 1: super::RecMark; }
    }
}
