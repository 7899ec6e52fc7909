//! The synthetic schema generator of the scale benchmarks: a valid schema of any number of
//! structs, shaped like the bridge schema (constants, enums, flag sets, nested arrays of
//! structs, text, declared padding, `count`, `expect`, `since`, extensible records), shared
//! memory included, in about the bridge's proportions, so that the benchmarks time the live
//! layer (views, seqlocks, rings, attach) the targets generate for it.
//! Shared by `benches/scale.rs`, `examples/scale.rs` and `tests/synth.rs` through `#[path]`;
//! each uses part of it.
//!
//! Struct `i` is always `unit_{i}`, and its shape ([`Role`]) depends on `i` alone, never on
//! the number of structs, so that any prefix of the structs is a valid schema (every name is
//! declared before it is used). Structs come in windows of 16 (`i / 16`): four groups of a
//! 48-byte leaf (`i % 4 == 0`) and the records that embed an array of it, except that five
//! structs of each window have a shared-memory shape instead of a record's (by `i % 16`):
//!
//! | `i % 16` | Role | Like the bridge's |
//! |---|---|---|
//! | 1 | [`Role::RegionEntry`]: a layout table's row | `region_entry` |
//! | 2 | [`Role::Hub`]: extensible, a version handshake, the layout table; written by the host | `bridge_header` |
//! | 5 | by window `% 3`: [`Role::SlotHeader`] (its `[[ring]]` of slots), [`Role::EventLog`] (its `[[ring]]` of events) or [`Role::Stats`] (a seqlock over part of it and its trailer) | `ring_slot_header`, `snapshot`'s events, `stats_header` |
//! | 9 | [`Role::Pad`]: a record the client writes under a seqlock | `pad_input` |
//! | 13 | [`Role::Client`]: a row claimed by compare-and-swap, most fields the client's | `client_entry` |
//!
//! and in a window with a ring of slots, the record at `i % 16 == 3` is its payload
//! ([`Role::Payload`], written by the host, like `snapshot`). `[abi] parties` is
//! `["host", "client"]`.
//!
//! The `[[seqlock]]`s and `[[ring]]`s follow their structs. A window's `[[layout]]` (its index
//! enum `unit_{h}_region`, its hub `unit_{h}` as the header, rows for the hub, the struct at
//! 5 or its ring, the pad and four clients) comes once the window is whole, so a schema of N
//! structs has `N / 16` layouts. Only one layout may be where a mapping starts (the first);
//! each other one, `k`, is held as blocks by layout `(k - 1) / 4`: a tree of fan-out 4, at
//! most 8 deep (the C header's limit) up to about 1.4 million structs, and at most 8 rows a
//! table. A layout without children of its own is held twice (`count = 2`), the others once,
//! so that the C attach handle's region array stays linear in N.
//!
//! Per 48 structs (three windows) that is what the bridge's 46 declare: 3 layouts, 5 seqlocks
//! (a pad in each window, a ring slot, the stats), 2 rings (slots and events), 32 atomic
//! fields (bridge: 30), 6 of them `cas` (bridge: 4), 13 structs that declare a `writer`
//! (bridge: 14) and 19 fields that declare their own (bridge: 18). [`seqlocks`], [`rings`],
//! [`layouts`] and [`atomic_fields`] count them for N structs.
#![allow(dead_code)]

use std::fmt::Write;

/// Bytes of every leaf struct (`unit_N` with N a multiple of 4).
pub const LEAF_SIZE: u64 = 48;

/// Structs per window: one layout's worth.
pub const WINDOW: usize = 16;

/// Layouts each layout holds as blocks, at most.
pub const FAN_OUT: usize = 4;

/// What struct `i` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// 48 bytes: embedded by the records of its group of 4.
    Leaf,
    /// 16-byte head, 2 to 4 leaves of its group, 16-byte tail.
    Record,
    /// A record the host writes: the payload of its window's ring slots.
    Payload,
    /// `{ offset, size }`: a row of its window's layout table.
    RegionEntry,
    /// The header of its window's layout: a version handshake, the table, atomic words.
    Hub,
    /// The start of a ring slot, the payload record after it, under a seqlock.
    SlotHeader,
    /// An events ring: an atomic total and the last entries.
    EventLog,
    /// A client's stats: a seqlock over a count and a trailer, and atomic counters.
    Stats,
    /// A virtual pad, written by the client under a seqlock.
    Pad,
    /// A client row, claimed by compare-and-swap.
    Client,
}

/// What the struct at 5 of window `w` is, and so which ring or seqlock the window has.
fn kind_of_window(w: usize) -> Role {
    match w % 3 {
        0 => Role::SlotHeader,
        1 => Role::EventLog,
        _ => Role::Stats,
    }
}

/// The role of struct `i`.
pub fn role(i: usize) -> Role {
    match i % WINDOW {
        0 | 4 | 8 | 12 => Role::Leaf,
        1 => Role::RegionEntry,
        2 => Role::Hub,
        3 if kind_of_window(i / WINDOW) == Role::SlotHeader => Role::Payload,
        5 => kind_of_window(i / WINDOW),
        9 => Role::Pad,
        13 => Role::Client,
        _ => Role::Record,
    }
}

impl Role {
    /// Its `[[seqlock]]`s.
    pub fn seqlocks(self) -> usize {
        match self {
            Role::SlotHeader | Role::Stats | Role::Pad => 1,
            _ => 0,
        }
    }

    /// Its `[[ring]]`s.
    pub fn rings(self) -> usize {
        match self {
            Role::SlotHeader | Role::EventLog => 1,
            _ => 0,
        }
    }

    /// Its fields with `access = "atomic"` or `"cas"`.
    pub fn atomic_fields(self) -> usize {
        match self {
            Role::Hub | Role::Client => 4,
            Role::Stats => 3,
            Role::SlotHeader | Role::EventLog | Role::Pad => 1,
            _ => 0,
        }
    }

    /// Its fields with `access = "cas"`.
    pub fn cas_fields(self) -> usize {
        match self {
            Role::Hub | Role::Client => 1,
            _ => 0,
        }
    }

    /// Its `[[const]]`s.
    pub fn consts(self) -> usize {
        match self {
            Role::Leaf | Role::EventLog | Role::Stats => 1,
            Role::Record | Role::Payload | Role::SlotHeader => 2,
            Role::Hub => 3,
            Role::RegionEntry | Role::Pad | Role::Client => 0,
        }
    }
}

/// Whether struct `i` is a leaf: leaves embed nothing, records embed an array of the leaf
/// before them, so sizes stay bounded however many structs there are.
pub fn is_leaf(i: usize) -> bool {
    role(i) == Role::Leaf
}

/// How many elements record `i` holds of its leaf: 2, 3 or 4, computed in the schema as an
/// expression of the leaf's label length (16) so that constant expressions are exercised.
pub fn entries_of(i: usize) -> u64 {
    2 + (i % 3) as u64
}

/// Entries of an event log (`unit_{i}_max_events`) and of the stats' trailer.
const LOG_ENTRIES: u64 = 8;
const STATS_ENTRIES: u64 = 4;

/// The size of struct `i`: the leaf size, a record's 16-byte header, its entries and a
/// 16-byte tail, or the size of its shared-memory shape. Used by the test of the
/// generator to check the schema it writes.
pub fn struct_size(i: usize) -> u64 {
    match role(i) {
        Role::Leaf => LEAF_SIZE,
        Role::Record | Role::Payload => 16 + LEAF_SIZE * entries_of(i) + 16,
        Role::RegionEntry => 8,
        Role::Hub => 112,
        Role::SlotHeader | Role::Stats | Role::Client => 64,
        Role::EventLog => 16 + LEAF_SIZE * LOG_ENTRIES,
        Role::Pad => 32,
    }
}

/// The alignment of struct `i`: 8, but 4 for a table row.
pub fn struct_align(i: usize) -> u64 {
    if role(i) == Role::RegionEntry { 4 } else { 8 }
}

/// `[[seqlock]]`s in the schema of `structs` structs.
pub fn seqlocks(structs: usize) -> usize {
    (0..structs).map(|i| role(i).seqlocks()).sum()
}

/// `[[ring]]`s in the schema of `structs` structs.
pub fn rings(structs: usize) -> usize {
    (0..structs).map(|i| role(i).rings()).sum()
}

/// `[[layout]]`s in the schema of `structs` structs: one per whole window.
pub fn layouts(structs: usize) -> usize {
    structs / WINDOW
}

/// Fields declared `access = "atomic"` or `"cas"` in the schema of `structs` structs.
pub fn atomic_fields(structs: usize) -> usize {
    (0..structs).map(|i| role(i).atomic_fields()).sum()
}

/// Of those, the fields declared `access = "cas"`.
pub fn cas_fields(structs: usize) -> usize {
    (0..structs).map(|i| role(i).cas_fields()).sum()
}

/// A valid schema of `structs` structs, about 1.4 constants, 0.56 enums and 0.25 flag sets
/// per struct, declared in groups so that every name is declared before it is used, with the
/// shared memory of the module docs.
pub fn synth_schema(structs: usize) -> String {
    let mut out = String::with_capacity(structs * 1600 + 512);
    out.push_str(
        "# A synthetic schema for the scale benchmarks (codegen/benches/synth).\n\n\
         [abi]\n\
         name = \"synth\"\n\
         version = \"1.2\"\n\
         c_prefix = \"syn\"\n\
         title = \"Synthetic scale schema\"\n\
         doc = \"Generated for benchmarks: shaped like a real ABI, meaning nothing.\"\n\
         byte_order = \"little\"\n\
         parties = [\"host\", \"client\"]\n",
    );
    let windows = layouts(structs);
    for i in 0..structs {
        if i % 2 == 0 {
            write_enum(&mut out, i);
        }
        match role(i) {
            Role::Leaf => {
                write_flags(&mut out, i);
                write_leaf(&mut out, i);
            }
            Role::Record => write_record(&mut out, i, ""),
            Role::Payload => write_record(&mut out, i, "writer = \"host\"\n"),
            Role::RegionEntry => write_region_entry(&mut out, i),
            Role::Hub => write_hub(&mut out, i),
            Role::SlotHeader => write_slot_header(&mut out, i),
            Role::EventLog => write_event_log(&mut out, i),
            Role::Stats => write_stats(&mut out, i),
            Role::Pad => write_pad(&mut out, i),
            Role::Client => write_client(&mut out, i),
        }
        if i % WINDOW == WINDOW - 1 {
            write_layout(&mut out, i / WINDOW, windows);
        }
    }
    out
}

fn write_enum(out: &mut String, i: usize) {
    let _ = write!(
        out,
        "\n[[enum]]\n\
         name = \"kind_{i}\"\n\
         repr = \"u8\"\n\
         doc = \"What unit_{i} is doing; other values are <reserved>.\"\n\
         values = [\n  \
           {{ name = \"idle\", value = 0, doc = \"Not moving\" }},\n  \
           {{ name = \"moving\", value = 1 }},\n  \
           {{ name = \"firing\", value = 2, doc = \"Shooting *now*\" }},\n  \
           {{ name = \"docked\", value = 3 }},\n  \
           {{ name = \"destroyed\", value = \"0x4\", since = \"1.1\" }},\n  \
           {{ name = \"unknown\", value = 255 }},\n\
         ]\n"
    );
}

fn write_flags(out: &mut String, i: usize) {
    let _ = write!(
        out,
        "\n[[flags]]\n\
         name = \"state_flags_{i}\"\n\
         repr = \"u8\"\n\
         values = [\n  \
           {{ name = \"visible\", value = 0x1 }},\n  \
           {{ name = \"selected\", value = 0x2, doc = \"Chosen by a player\" }},\n  \
           {{ name = \"locked\", value = 0x4 }},\n  \
           {{ name = \"dirty\", value = \"1 << 3\" }},\n\
         ]\n"
    );
}

/// 48 bytes, align 8.
fn write_leaf(out: &mut String, i: usize) {
    let e = i - i % 2;
    let _ = write!(
        out,
        "\n[[const]]\n\
         name = \"unit_{i}_label_len\"\n\
         value = 16\n\
         doc = \"Bytes in a unit_{i} label, the NUL included\"\n\
         \n[[struct]]\n\
         name = \"unit_{i}\"\n\
         doc = \"One unit of group {i}: where it is and what it does.\"\n\
         size = {LEAF_SIZE}\n\
         align = 8\n\
         fields = [\n  \
           {{ name = \"id\", type = \"u32\", doc = \"Stable id; 0 means the slot is free\" }},\n  \
           {{ name = \"kind\", type = \"kind_{e}\" }},\n  \
           {{ name = \"state\", type = \"state_flags_{i}\" }},\n  \
           {{ name = \"_pad6\", type = \"u8[2]\" }},\n  \
           {{ name = \"pos\", type = \"f32[3]\", doc = \"World position: x, y, z in metres\" }},\n  \
           {{ name = \"heading\", type = \"f32\", doc = \"Radians, 0 = +x, counter-clockwise\" }},\n  \
           {{ name = \"stamp\", type = \"u64\", since = \"1.1\" }},\n  \
           {{ name = \"label\", type = \"char[unit_{i}_label_len]\" }},\n\
         ]\n"
    );
}

/// 16 + 48 * entries + 16 bytes, align 8. `writer` makes it a shared record (a payload).
fn write_record(out: &mut String, i: usize, writer: &str) {
    let leaf = i - i % 4;
    let e = i - i % 2;
    let _ = write!(
        out,
        "\n[[const]]\n\
         name = \"unit_{i}_magic\"\n\
         value = 0x{magic:08X}\n\
         doc = \"'U{i}' as a little-endian u32\"\n\
         \n[[const]]\n\
         name = \"unit_{i}_max_entries\"\n\
         value = \"unit_{leaf}_label_len / 8 + {extra}\"\n\
         doc = \"Entries of unit_{i}\"\n\
         \n[[struct]]\n\
         name = \"unit_{i}\"\n\
         doc = \"A record of group {leaf}, with up to unit_{i}_max_entries entries.\"\n\
         {writer}\
         since = \"1.{since}\"\n\
         fields = [\n  \
           {{ name = \"magic\", type = \"u32\", expect = \"unit_{i}_magic\" }},\n  \
           {{ name = \"version\", type = \"u16\" }},\n  \
           {{ name = \"entry_count\", type = \"u16\", doc = \"Entries in use\" }},\n  \
           {{ name = \"mode\", type = \"kind_{e}\" }},\n  \
           {{ name = \"options\", type = \"state_flags_{leaf}\" }},\n  \
           {{ name = \"_pad10\", type = \"u8[6]\" }},\n  \
           {{ name = \"entries\", type = \"unit_{leaf}[unit_{i}_max_entries]\", count = \"entry_count\" }},\n  \
           {{ name = \"origin\", type = \"f64\", doc = \"Seconds since the match started\" }},\n  \
           {{ name = \"scale\", type = \"f32\" }},\n  \
           {{ name = \"priority\", type = \"i16\", doc = \"Higher goes first; negative is <background>\" }},\n  \
           {{ name = \"_reserved\", type = \"u8[2]\" }},\n\
         ]\n",
        magic = 0x5500_0000u32 + i as u32,
        extra = entries_of(i) - 2,
        since = i % 3,
    );
}

/// 8 bytes, align 4: a row of the layout table of the hub after it.
fn write_region_entry(out: &mut String, i: usize) {
    let _ = write!(
        out,
        "\n[[struct]]\n\
         name = \"unit_{i}\"\n\
         doc = \"One row of the layout table of unit_{h}; size 0 means the region is absent.\"\n\
         size = 8\n\
         align = 4\n\
         fields = [\n  \
           {{ name = \"offset\", type = \"u32\", doc = \"From the start of the area\" }},\n  \
           {{ name = \"size\", type = \"u32\" }},\n\
         ]\n",
        h = i + 1,
    );
}

/// 112 bytes, align 8: the header of its window's layout, an extensible record with a
/// version handshake, the table of regions and the atomic words of the bridge's header.
fn write_hub(out: &mut String, i: usize) {
    let row = i - 1;
    let _ = write!(
        out,
        "\n[[const]]\n\
         name = \"unit_{i}_magic\"\n\
         value = 0x{magic:08X}\n\
         doc = \"'H{i}' as a little-endian u32\"\n\
         \n[[const]]\n\
         name = \"unit_{i}_max_regions\"\n\
         value = 8\n\
         doc = \"Rows of the layout table of unit_{i}\"\n\
         \n[[const]]\n\
         name = \"unit_{i}_block_size\"\n\
         value = \"1 << 16\"\n\
         doc = \"Bytes from one block of an area to the next\"\n\
         \n[[struct]]\n\
         name = \"unit_{i}\"\n\
         writer = \"host\"\n\
         doc = \"The start of area {i}: who made it, and where each of its regions is.\"\n\
         size = 112\n\
         align = 8\n\
         extensible = true\n\
         version = {{ magic = \"magic\", major = \"major\", minor = \"minor\", size = \"header_size\" }}\n\
         fields = [\n  \
           {{ name = \"magic\", type = \"u32\", expect = \"unit_{i}_magic\" }},\n  \
           {{ name = \"major\", type = \"u16\" }},\n  \
           {{ name = \"minor\", type = \"u16\" }},\n  \
           {{ name = \"header_size\", type = \"u32\", doc = \"sizeof(unit_{i}) as the host built it\" }},\n  \
           {{ name = \"total_size\", type = \"u32\", doc = \"Bytes in the whole area\" }},\n  \
           {{ name = \"region_count\", type = \"u32\" }},\n  \
           {{ name = \"generation\", type = \"u32\", access = \"atomic\", doc = \"Changes when the host reloads\" }},\n  \
           {{ name = \"regions\", type = \"unit_{row}[unit_{i}_max_regions]\", count = \"region_count\", doc = \"Indexed by unit_{i}_region\" }},\n  \
           {{ name = \"seq\", type = \"u64\", access = \"atomic\", doc = \"Publications; the newest is in slot (seq - 1) % slots\" }},\n  \
           {{ name = \"state\", type = \"u32\", access = \"atomic\", doc = \"Running, paused or stopping\" }},\n  \
           {{ name = \"owners\", type = \"u8[4]\", access = \"cas\", writer = [\"host\", \"client\"], doc = \"Per pad: the client that owns it; claimed as one u32\" }},\n  \
           {{ name = \"clock\", type = \"u64\", since = \"1.1\", doc = \"Host clock at the last publication (ABI 1.1)\" }},\n\
         ]\n",
        magic = 0x4800_0000u32 + i as u32,
    );
}

/// 64 bytes, align 8: a ring slot's header, the window's payload record after it, both
/// under the seqlock `unit_{i}_slot`; the ring `unit_{i}_slots` counts on the hub's `seq`.
fn write_slot_header(out: &mut String, i: usize) {
    let (hub, payload) = (i - 3, i - 2);
    let _ = write!(
        out,
        "\n[[const]]\n\
         name = \"unit_{i}_slots\"\n\
         value = 4\n\
         doc = \"Slots in ring unit_{i}_slots\"\n\
         \n[[const]]\n\
         name = \"unit_{i}_slot_size\"\n\
         value = 512\n\
         doc = \"Bytes per slot of ring unit_{i}_slots, its header included\"\n\
         \n[[struct]]\n\
         name = \"unit_{i}\"\n\
         writer = \"host\"\n\
         doc = \"The start of a slot of ring unit_{i}_slots; a unit_{payload} follows it.\"\n\
         size = 64\n\
         align = 8\n\
         fields = [\n  \
           {{ name = \"seq\", type = \"u32\", access = \"atomic\", doc = \"Odd while the host writes the slot\" }},\n  \
           {{ name = \"size\", type = \"u32\", doc = \"Payload bytes\" }},\n  \
           {{ name = \"publish_seq\", type = \"u64\", doc = \"The unit_{hub}.seq this slot was published as\" }},\n  \
           {{ name = \"tick\", type = \"u64\" }},\n  \
           {{ name = \"publish_ns\", type = \"u64\", doc = \"Host clock when the payload was complete\" }},\n  \
           {{ name = \"_pad32\", type = \"u8[32]\" }},\n\
         ]\n\
         trailer = [\n  \
           {{ name = \"payload\", type = \"unit_{payload}\", size = \"size\", doc = \"size bytes in all\" }},\n\
         ]\n\
         \n[[seqlock]]\n\
         name = \"unit_{i}_slot\"\n\
         counter = \"unit_{i}.seq\"\n\
         guards = [\"rest\", \"payload\"]\n\
         writer = \"host\"\n\
         reader = \"client\"\n\
         doc = \"A slot of ring unit_{i}_slots: seq is odd while the host writes it\"\n\
         \n[[ring]]\n\
         name = \"unit_{i}_slots\"\n\
         kind = \"slots\"\n\
         head = \"unit_{hub}.seq\"\n\
         slot_count = \"unit_{i}_slots\"\n\
         slot_size = \"unit_{i}_slot_size\"\n\
         seqlock = \"unit_{i}_slot\"\n\
         doc = \"Payloads published: the newest is in slot (seq - 1) % unit_{i}_slots\"\n"
    );
}

/// 16 + 48 * 8 bytes, align 8: the last entries of a log, and the ring `unit_{i}_events`.
fn write_event_log(out: &mut String, i: usize) {
    let leaf = i - i % 4;
    let _ = write!(
        out,
        "\n[[const]]\n\
         name = \"unit_{i}_max_events\"\n\
         value = {LOG_ENTRIES}\n\
         doc = \"Events unit_{i} keeps\"\n\
         \n[[struct]]\n\
         name = \"unit_{i}\"\n\
         writer = \"host\"\n\
         doc = \"The last events of group {leaf}.\"\n\
         size = {size}\n\
         align = 8\n\
         fields = [\n  \
           {{ name = \"total\", type = \"u64\", access = \"atomic\", doc = \"Events ever written; event i is at events[i % unit_{i}_max_events]\" }},\n  \
           {{ name = \"tick\", type = \"u64\" }},\n  \
           {{ name = \"events\", type = \"unit_{leaf}[unit_{i}_max_events]\" }},\n\
         ]\n\
         \n[[ring]]\n\
         name = \"unit_{i}_events\"\n\
         kind = \"events\"\n\
         total = \"unit_{i}.total\"\n\
         entries = \"unit_{i}.events\"\n\
         doc = \"Only the last unit_{i}_max_events events are kept\"\n",
        size = struct_size(i),
    );
}

/// 64 bytes, align 8, and its trailer of leaves: the stats a client writes under the
/// seqlock `unit_{i}_stats`, which guards part of it.
fn write_stats(out: &mut String, i: usize) {
    let leaf = i - i % 4;
    let _ = write!(
        out,
        "\n[[const]]\n\
         name = \"unit_{i}_max_stats\"\n\
         value = {STATS_ENTRIES}\n\
         doc = \"Entries after unit_{i}\"\n\
         \n[[struct]]\n\
         name = \"unit_{i}\"\n\
         writer = \"client\"\n\
         doc = \"A client's stats: the count and entries under seq, and its tick counters.\"\n\
         size = 64\n\
         align = 8\n\
         fields = [\n  \
           {{ name = \"seq\", type = \"u32\", access = \"atomic\", doc = \"Odd while the client writes the stats\" }},\n  \
           {{ name = \"count\", type = \"u32\", doc = \"Stats in use\" }},\n  \
           {{ name = \"max_stats\", type = \"u32\", writer = \"host\", doc = \"Entries the area holds\" }},\n  \
           {{ name = \"_pad12\", type = \"u8[4]\" }},\n  \
           {{ name = \"ticks\", type = \"u64\", access = \"atomic\" }},\n  \
           {{ name = \"skipped\", type = \"u64\", access = \"atomic\", doc = \"Publications missed (latest wins)\" }},\n  \
           {{ name = \"wake_p50_us\", type = \"f32\" }},\n  \
           {{ name = \"wake_p99_us\", type = \"f32\" }},\n  \
           {{ name = \"_pad40\", type = \"u8[24]\" }},\n\
         ]\n\
         trailer = [\n  \
           {{ name = \"entries\", type = \"unit_{leaf}[unit_{i}_max_stats]\", doc = \"count of them in use\" }},\n\
         ]\n\
         \n[[seqlock]]\n\
         name = \"unit_{i}_stats\"\n\
         counter = \"unit_{i}.seq\"\n\
         guards = [\"count\", \"entries\"]\n\
         writer = \"client\"\n\
         reader = \"host\"\n\
         doc = \"seq is odd while the client writes the stats\"\n"
    );
}

/// 32 bytes, align 8: a virtual pad, all of it under the seqlock `unit_{i}_input`.
fn write_pad(out: &mut String, i: usize) {
    let leaf = i - i % 4;
    let _ = write!(
        out,
        "\n[[struct]]\n\
         name = \"unit_{i}\"\n\
         writer = \"client\"\n\
         doc = \"A virtual pad of group {leaf}, written under a seqlock.\"\n\
         size = 32\n\
         align = 8\n\
         fields = [\n  \
           {{ name = \"seq\", type = \"u32\", access = \"atomic\" }},\n  \
           {{ name = \"flags\", type = \"state_flags_{leaf}\" }},\n  \
           {{ name = \"_pad5\", type = \"u8[3]\" }},\n  \
           {{ name = \"for_tick\", type = \"u64\", doc = \"The tick this input answers\" }},\n  \
           {{ name = \"lx\", type = \"i16\", doc = \"-32768..32767, +Y up\" }},\n  \
           {{ name = \"ly\", type = \"i16\" }},\n  \
           {{ name = \"rx\", type = \"i16\" }},\n  \
           {{ name = \"ry\", type = \"i16\" }},\n  \
           {{ name = \"mode\", type = \"kind_{leaf}\" }},\n  \
           {{ name = \"lt\", type = \"u8\" }},\n  \
           {{ name = \"rt\", type = \"u8\" }},\n  \
           {{ name = \"_pad27\", type = \"u8[5]\" }},\n\
         ]\n\
         \n[[seqlock]]\n\
         name = \"unit_{i}_input\"\n\
         counter = \"unit_{i}.seq\"\n\
         guards = [\"rest\"]\n\
         writer = \"client\"\n\
         reader = \"host\"\n\
         doc = \"A virtual pad: seq is odd while the client writes the record\"\n"
    );
}

/// 64 bytes, align 8: a client row, claimed by compare-and-swap of `state`.
fn write_client(out: &mut String, i: usize) {
    let leaf = i - i % 4;
    let _ = write!(
        out,
        "\n[[struct]]\n\
         name = \"unit_{i}\"\n\
         writer = [\"host\", \"client\"]\n\
         doc = \"One client of group {leaf}; the client claims it by compare-and-swap, the host frees it.\"\n\
         size = 64\n\
         align = 8\n\
         fields = [\n  \
           {{ name = \"state\", type = \"u32\", access = \"cas\" }},\n  \
           {{ name = \"generation\", type = \"u32\", access = \"atomic\", writer = \"client\", doc = \"Bumped by each claim\" }},\n  \
           {{ name = \"pid\", type = \"u32\", writer = \"client\" }},\n  \
           {{ name = \"mode\", type = \"kind_{leaf}\" }},\n  \
           {{ name = \"caps\", type = \"state_flags_{leaf}\" }},\n  \
           {{ name = \"_pad14\", type = \"u8[2]\" }},\n  \
           {{ name = \"heartbeat_ns\", type = \"u64\", access = \"atomic\", writer = \"client\", doc = \"Host clock, at least every 100 ms\" }},\n  \
           {{ name = \"connected_ns\", type = \"u64\" }},\n  \
           {{ name = \"waiting\", type = \"u32\", access = \"atomic\", writer = \"client\" }},\n  \
           {{ name = \"_pad36\", type = \"u8[4]\" }},\n  \
           {{ name = \"name\", type = \"char[unit_{leaf}_label_len]\", writer = \"client\" }},\n  \
           {{ name = \"_reserved\", type = \"u8[8]\" }},\n\
         ]\n"
    );
}

/// The index enum and the `[[layout]]` of window `w` (of `windows` whole ones): the hub's
/// table places the hub, the struct at 5 (its ring for a slot header), the pad, four
/// clients, and the blocks of up to four child layouts.
fn write_layout(out: &mut String, w: usize, windows: usize) {
    let base = w * WINDOW;
    let hub = base + 2;
    let fifth = match role(base + 5) {
        Role::SlotHeader => ("slots", format!("ring = \"unit_{}_slots\"", base + 5)),
        Role::EventLog => ("events", format!("struct = \"unit_{}\"", base + 5)),
        _ => ("stats", format!("struct = \"unit_{}\"", base + 5)),
    };
    let mut rows = vec![
        ("header".to_string(), format!("struct = \"unit_{hub}\"")),
        (fifth.0.to_string(), fifth.1),
        (
            "input".to_string(),
            format!("struct = \"unit_{}\"", base + 9),
        ),
        (
            "clients".to_string(),
            format!("struct = \"unit_{}\", count = 4", base + 13),
        ),
    ];
    for c in (w * FAN_OUT + 1..=w * FAN_OUT + FAN_OUT).filter(|&c| c < windows) {
        let leaf_layout = c * FAN_OUT + 1 >= windows;
        rows.push((
            format!("area_{c}"),
            format!(
                "blocks = \"unit_{}_area\", count = {}, stride = \"unit_{hub}_block_size\"",
                c * WINDOW + 2,
                if leaf_layout { 2 } else { 1 },
            ),
        ));
    }
    let _ = write!(
        out,
        "\n[[enum]]\n\
         name = \"unit_{hub}_region\"\n\
         repr = \"u32\"\n\
         doc = \"The rows of the layout table of unit_{hub}\"\n\
         values = [\n"
    );
    for (k, (name, _)) in rows.iter().enumerate() {
        let _ = writeln!(out, "  {{ name = \"{name}\", value = {k} }},");
    }
    let (doc, what) = if w == 0 {
        ("where a mapping starts", "the root")
    } else {
        ("a block of its parent", "a block")
    };
    let _ = write!(
        out,
        "]\n\
         \n[[layout]]\n\
         name = \"unit_{hub}_area\"\n\
         header = \"unit_{hub}\"\n\
         table = \"regions\"\n\
         index = \"unit_{hub}_region\"\n\
         extent = \"total_size\"\n\
         doc = \"Area {w}, {doc}: {what} whose table places its regions\"\n\
         rows = [\n"
    );
    for (name, holds) in &rows {
        let _ = writeln!(out, "  {{ name = \"{name}\", {holds} }},");
    }
    out.push_str("]\n");
}
