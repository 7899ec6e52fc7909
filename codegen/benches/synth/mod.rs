//! The synthetic schema generator of the scale benchmarks: a valid schema of any number of
//! structs, shaped like the bridge schema (constants, enums, flag sets, nested arrays of
//! structs, text, declared padding, `count`, `expect`, `since`, extensible records).
//! Shared by `benches/scale.rs`, `examples/scale.rs` and `tests/synth.rs` through `#[path]`;
//! each uses part of it.
#![allow(dead_code)]

use std::fmt::Write;

/// Bytes of every leaf struct (`unit_N` with N a multiple of 4).
pub const LEAF_SIZE: u64 = 48;

/// Whether struct `i` is a leaf: leaves embed nothing, records embed an array of the leaf
/// before them, so sizes stay bounded however many structs there are.
pub fn is_leaf(i: usize) -> bool {
    i % 4 == 0
}

/// How many elements record `i` holds of its leaf: 2, 3 or 4, computed in the schema as an
/// expression of the leaf's label length (16) so that constant expressions are exercised.
pub fn entries_of(i: usize) -> u64 {
    2 + (i % 3) as u64
}

/// The size of struct `i`: the leaf size, or a record's 16-byte header, its entries and a
/// 16-byte tail. Used by the test of the generator to check the schema it writes.
pub fn struct_size(i: usize) -> u64 {
    if is_leaf(i) {
        LEAF_SIZE
    } else {
        16 + LEAF_SIZE * entries_of(i) + 16
    }
}

/// A valid schema of `structs` structs, about 1.75 constants, 0.5 enums and 0.25 flag sets
/// per struct, declared in groups so that every name is declared before it is used.
pub fn synth_schema(structs: usize) -> String {
    let mut out = String::with_capacity(structs * 1500 + 512);
    out.push_str(
        "# A synthetic schema for the scale benchmarks (codegen/benches/synth).\n\n\
         [abi]\n\
         name = \"synth\"\n\
         version = \"1.2\"\n\
         c_prefix = \"syn\"\n\
         title = \"Synthetic scale schema\"\n\
         doc = \"Generated for benchmarks: shaped like a real ABI, meaning nothing.\"\n\
         byte_order = \"little\"\n",
    );
    for i in 0..structs {
        if i % 2 == 0 {
            write_enum(&mut out, i);
        }
        if is_leaf(i) {
            write_flags(&mut out, i);
            write_leaf(&mut out, i);
        } else {
            write_record(&mut out, i);
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

/// 16 + 48 * entries + 16 bytes, align 8; every 16th is an extensible top-level record.
fn write_record(out: &mut String, i: usize) {
    let leaf = i - i % 4;
    let e = i - i % 2;
    let extensible = if i % 16 == 1 {
        "extensible = true\n"
    } else {
        ""
    };
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
         {extensible}\
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
