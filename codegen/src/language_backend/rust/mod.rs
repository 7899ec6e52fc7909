//! The Rust backend: `#[repr(C)]` structs with zerocopy derives, enum and flag newtypes,
//! constants and compile-time layout asserts, expanded with quote, checked by parsing with
//! syn and printed with prettyplease.
//!
//! Portability: a struct whose ABI alignment a 32-bit target would lower (`i686` aligns
//! `u64` to 4) is `#[repr(C, align(N))]` (see `layout::TARGET_SCALAR_ALIGN`), and a
//! big-endian target meets a `compile_error!`: the fields are plain integers and floats in
//! the target's byte order, and the ABI's is little-endian.
//!
//! One `expand_*` function per item kind. What every enum, flag set or struct needs alike
//! (names, `Debug`, bit operations, layout asserts) lives in hand-written Rust under
//! `support/`, copied once into each file that needs it and invoked per item.
//!
//! This module cuts the file into parts and puts it together; names.rs has the identifiers,
//! docs.rs the doc comments and their escaping, items.rs the byte-order guard, the
//! version, the constants and the enum and flag newtypes, structs.rs the structs, split.rs
//! the cutting of the live module's items into groups printed one at a time, and live/ the
//! live layer (`pub mod live`).

use std::ops::Range;

use proc_macro2::TokenStream;

use super::output::generated_line;
use crate::ir::EnumKind;
use crate::jobs;
use crate::plan::live::has_live_layer;
use crate::schema::Schema;

mod docs;
mod items;
mod live;
mod names;
mod recording;
mod reflow;
mod split;
mod structs;

use crate::ir::StructId;
use items::{expand_byte_order, expand_const, expand_newtype, expand_version};
pub use names::rust_ident;
use structs::{expand_struct, is_shown_array, is_text};

/// Renders the Rust bindings of `schema`. The first line says the file is generated from
/// `source`. Large schemas are expanded, parsed and printed in parts on several threads;
/// the text is the same for any number of parts and threads.
pub fn expand_rust(schema: &Schema, source: &str) -> String {
    let threads = jobs::default_threads();
    expand_rust_in_parts(schema, source, threads, threads)
}

/// Prints the file in at least `parts` parts on `threads` threads.
fn expand_rust_in_parts(schema: &Schema, source: &str, parts: usize, threads: usize) -> String {
    let plan = RustParts::new(schema, parts);
    let printed = jobs::run_jobs(plan.weights(), threads, |i| plan.print(i));
    plan.assemble(source, printed)
}

/// A part smaller than this (in [`item_weight`] units) costs less to print than a thread
/// costs to start. The bridge schema weighs about 900.
const MIN_PART_WEIGHT: usize = 250;

/// A part heavier than this is split further, so that the tokens and syn tree alive at
/// once stay small however large the schema is, and stay in cache. At 10,000 synthetic
/// structs, parts of at most 500 cut the Rust target's CPU time from 1.78 s (8 parts) to
/// about 1.0 s and its share of the peak memory to almost nothing (bench/README.md).
const MAX_PART_WEIGHT: usize = 500;

/// The Rust file cut into consecutive parts that are expanded, parsed and printed on their
/// own, possibly on different threads ([`jobs::run_jobs`]), then put together.
pub struct RustParts<'a> {
    schema: &'a Schema,
    items: Vec<Item>,
    ranges: Vec<Range<usize>>,
    weights: Vec<usize>,
}

impl<'a> RustParts<'a> {
    /// At least `parts` parts (more when they would be heavier than `MAX_PART_WEIGHT`),
    /// none lighter than `MIN_PART_WEIGHT` unless there is only one.
    pub fn new(schema: &'a Schema, parts: usize) -> Self {
        let items = items_of(schema);
        let weights: Vec<usize> = items.iter().map(|&i| item_weight(schema, i)).collect();
        let total: usize = weights.iter().sum();
        let ranges = split_by_weight(&weights, parts.max(total.div_ceil(MAX_PART_WEIGHT)));
        let weights = ranges
            .iter()
            .map(|r| weights[r.clone()].iter().sum())
            .collect();
        RustParts {
            schema,
            items,
            ranges,
            weights,
        }
    }

    /// One part per item: the finest cut, which the tests print to show that the text does
    /// not depend on where the parts start and end.
    #[cfg(test)]
    fn one_per_item(schema: &'a Schema) -> Self {
        let items = items_of(schema);
        let ranges: Vec<Range<usize>> = (0..items.len()).map(|i| i..i + 1).collect();
        let weights = vec![1; items.len()];
        RustParts {
            schema,
            items,
            ranges,
            weights,
        }
    }

    /// Roughly what each part costs to print, in `item_weight` units.
    pub fn weights(&self) -> &[usize] {
        &self.weights
    }

    /// The weight of the whole file.
    pub fn total_weight(&self) -> usize {
        self.weights.iter().sum()
    }

    /// The text of part `i`.
    pub fn print(&self, i: usize) -> String {
        print_items(self.schema, &self.items[self.ranges[i].clone()])
    }

    /// The whole file: the generated-file line, the support code, then the parts' texts,
    /// each freed once copied (a large schema's parts and file would be twice the text).
    pub fn assemble(&self, source: &str, printed: Vec<String>) -> String {
        let mut head = format!(
            "// {}\n//\n// Needs, in the Cargo.toml of the crate that includes it:\n",
            generated_line(source)
        );
        for (name, requirement) in consumer_dependencies(self.schema) {
            head.push_str(&format!("//   {name} = {requirement}\n"));
        }
        head.push('\n');
        head.push_str(&support_for(self.schema));
        // The exact length: a string that outgrew its capacity would be copied into one
        // twice as large.
        let length = head.len() + printed.iter().map(String::len).sum::<usize>();
        let mut text = String::with_capacity(length);
        text.push_str(&head);
        for part in printed {
            text.push_str(&part);
        }
        text
    }
}

/// The version of `abi-runtime` the generated live layer is written against (a test keeps it
/// equal to runtime/Cargo.toml's).
pub const RUNTIME_REQUIREMENT: &str = "0.1";

/// What the generated Rust needs from the crate that includes it, as `Cargo.toml`
/// dependency lines (name, requirement): zerocopy with `derive` for the value types, with
/// `alloc` and `abi-runtime` for the live layer when the schema declares shared memory, and
/// `abi-runtime`'s `recording` feature for the recording readers and writers.
pub fn consumer_dependencies(schema: &Schema) -> Vec<(&'static str, String)> {
    let live = has_live_layer(schema);
    let recording = recording::has_recordings(schema);
    let zerocopy = if live {
        r#"{ version = "0.8", features = ["derive", "alloc"] }"#
    } else {
        r#"{ version = "0.8", features = ["derive"] }"#
    };
    let mut deps = vec![("zerocopy", zerocopy.to_string())];
    if recording {
        deps.push((
            "abi-runtime",
            format!(r#"{{ version = "{RUNTIME_REQUIREMENT}", features = ["recording"] }}"#),
        ));
    } else if live {
        deps.push(("abi-runtime", format!("\"{RUNTIME_REQUIREMENT}\"")));
    }
    deps
}

/// One top-level item of the Rust file, in the order the file has them.
#[derive(Debug, Clone, Copy)]
enum Item {
    /// The `compile_error!` of a big-endian target.
    ByteOrder,
    Version,
    Const(usize),
    Newtype(usize),
    Struct(StructId),
    /// A piece of `pub mod live`, when the schema declares shared memory: its pieces are
    /// consecutive, and a part prints the ones it holds inside the module's braces.
    Live(live::LivePiece),
    /// `pub mod recording`, when a `[[file]]` has an encoded, seekable record.
    Recording,
}

fn items_of(schema: &Schema) -> Vec<Item> {
    let abi = &schema.abi;
    [Item::ByteOrder, Item::Version]
        .into_iter()
        .chain((0..abi.consts.len()).map(Item::Const))
        .chain((0..abi.enums.len()).map(Item::Newtype))
        .chain(abi.struct_ids().map(Item::Struct))
        .chain(
            has_live_layer(schema)
                .then(|| live::live_pieces(schema).into_iter().map(Item::Live))
                .into_iter()
                .flatten(),
        )
        .chain(recording::has_recordings(schema).then_some(Item::Recording))
        .collect()
}

/// Roughly how much an item costs to expand, parse and print: one per value or field.
fn item_weight(schema: &Schema, item: Item) -> usize {
    match item {
        Item::ByteOrder | Item::Version | Item::Const(_) => 1,
        Item::Newtype(i) => 3 + schema.abi.enums[i].values.len(),
        Item::Struct(i) => 3 + schema.abi.structs[i].fields.len(),
        Item::Live(piece) => live::piece_weight(schema, piece),
        Item::Recording => 40,
    }
}

/// Splits items of these weights into at most `parts` consecutive, non-empty ranges of
/// about equal weight, none lighter than [`MIN_PART_WEIGHT`] unless there is only one.
fn split_by_weight(weights: &[usize], parts: usize) -> Vec<Range<usize>> {
    let total: usize = weights.iter().sum();
    let parts = parts.min(total / MIN_PART_WEIGHT).max(1);
    let mut ranges = Vec::with_capacity(parts);
    let (mut start, mut sum) = (0, 0);
    for (i, weight) in weights.iter().enumerate() {
        sum += weight;
        if ranges.len() + 1 < parts && sum * parts >= total * (ranges.len() + 1) {
            ranges.push(start..i + 1);
            start = i + 1;
        }
    }
    ranges.push(start..weights.len());
    ranges.retain(|r| !r.is_empty());
    ranges
}

/// Expands `items` to tokens, checks them by parsing with syn, and prints them with
/// prettyplease.
fn print_items(schema: &Schema, items: &[Item]) -> String {
    let first_live = items.iter().position(|i| matches!(i, Item::Live(_)));
    let Some(first_live) = first_live else {
        return print_tokens(|| expand_items(schema, items));
    };
    // The pieces of the live module are consecutive: the items before them, the pieces
    // inside the module's braces, then the items after them.
    let after_live = (items.iter().rposition(|i| matches!(i, Item::Live(_)))).map_or(0, |i| i + 1);
    let mut text = print_tokens(|| expand_items(schema, &items[..first_live]));
    text.push_str(&print_live(schema, &items[first_live..after_live]));
    text.push_str(&print_tokens(|| expand_items(schema, &items[after_live..])));
    text
}

/// The live module's items are parsed and printed this many at a time: a piece may hold
/// thousands (the attach code of a large schema), and a group's syn tree is alive only while
/// it prints. The text is the same for any number.
const LIVE_ITEMS_PER_PRINT: usize = 32;

/// Prints consecutive pieces of `pub mod live` as the module prints them: inside the
/// module's braces, which only the part holding the first piece opens and only the part
/// holding the last closes (the indentation and line breaks are those of the whole module,
/// since each group of items is printed as the module holding it).
fn print_live(schema: &Schema, items: &[Item]) -> String {
    let pieces = live::live_pieces(schema);
    let piece = |item: Option<&Item>| match item {
        Some(Item::Live(piece)) => Some(*piece),
        _ => None,
    };
    let opens = piece(items.first()) == pieces.first().copied();
    let closes = piece(items.last()) == pieces.last().copied();
    let mut inner = TokenStream::new();
    for item in items {
        if let Item::Live(piece) = item {
            inner.extend(live::expand_piece(schema, *piece));
        }
    }
    let mut groups = split::item_groups(inner, LIVE_ITEMS_PER_PRINT);
    if groups.is_empty() {
        // `pub mod live {}` when its pieces expand to nothing.
        groups.push(TokenStream::new());
    }
    let last = groups.len() - 1;
    let mut text = String::new();
    for (i, group) in groups.into_iter().enumerate() {
        text.push_str(&print_live_group(
            schema,
            group,
            opens && i == 0,
            closes && i == last,
        ));
    }
    text
}

/// Prints `items` of the live module as the module prints them, after its opening when
/// `opens` and before its closing brace when `closes`.
fn print_live_group(schema: &Schema, items: TokenStream, opens: bool, closes: bool) -> String {
    let mut text = print_tokens(|| live::expand_module(schema, opens, items.clone()));
    const MISPRINTED: &str = "a part of the live module prints as the module";
    if !opens {
        let rest = text.strip_prefix("pub mod live {").expect(MISPRINTED);
        text = rest.strip_prefix('\n').unwrap_or(rest).to_string();
    }
    if !closes {
        text.truncate(text.strip_suffix("}\n").expect(MISPRINTED).len());
    }
    text
}

/// Checks the tokens by parsing them with syn and prints them with prettyplease.
fn print_tokens(expand: impl Fn() -> TokenStream) -> String {
    match syn::parse2::<syn::File>(expand()) {
        Ok(file) => {
            let text = prettyplease::unparse(&file);
            reflow::reflow_accessor_lines(&reflow::one_line_specs(&reflow::one_line_attributes(
                &text,
            )))
        }
        // A generator bug, never a schema mistake: show what did not parse (expanded again,
        // so that the usual path does not pay for a copy of every token).
        Err(e) => panic!(
            "generated Rust does not parse: {e}\n--- tokens ---\n{}",
            expand()
        ),
    }
}

/// The hand-written support the schema needs, verbatim (prettyplease would flatten the
/// macro bodies): text access, and the macros that give enums, flag sets and structs their
/// shared behaviour. Only what is used is emitted, so nothing is dead code. The text is
/// constant, so it is checked once, by the tests below, rather than parsed on every run.
///
/// A schema whose Rust depends on abi-runtime (shared memory or recordings) imports the
/// macros from it instead (`abi_runtime::support`, the same text): `text` stays, since its
/// functions are the schema's own API.
fn support_for(schema: &Schema) -> String {
    let abi = &schema.abi;
    let has_enum = abi.enums.iter().any(|e| e.kind == EnumKind::Enum);
    let has_flags = abi.enums.iter().any(|e| e.kind == EnumKind::Flags);
    let has_text = abi.structs.iter().flat_map(|s| &s.fields).any(is_text);
    let has_array = abi
        .structs
        .iter()
        .flat_map(|s| &s.fields)
        .any(is_shown_array);
    let used = [
        has_text,
        has_enum,
        has_flags,
        has_array,
        !abi.structs.is_empty(),
    ];
    if has_live_layer(schema) || recording::has_recordings(schema) {
        let macros: Vec<&str> = RUNTIME_MACROS
            .iter()
            .zip(used)
            .filter(|(name, used)| *used && !name.is_empty())
            .map(|(name, _)| *name)
            .collect();
        let mut text = if has_text {
            format!("{}\n", SUPPORT[0].1)
        } else {
            String::new()
        };
        if !macros.is_empty() {
            text.push_str(&format!(
                "use ::abi_runtime::{{{}}};\n\n",
                macros.join(", ")
            ));
        }
        return text;
    }
    SUPPORT
        .iter()
        .zip(used)
        .filter(|(_, used)| *used)
        .map(|((_, text), _)| format!("{text}\n"))
        .collect()
}

/// The runtime's name of each [`SUPPORT`] file's macro (`text` and `array` have none).
const RUNTIME_MACROS: [&str; 5] = ["", "abi_enum", "abi_flags", "", "abi_struct"];

/// The hand-written support files, in the order they are emitted.
const SUPPORT: [(&str, &str); 5] = [
    ("text", include_str!("support/text.rs")),
    ("enum", include_str!("support/enum.rs")),
    ("flags", include_str!("support/flags.rs")),
    ("array", include_str!("support/array.rs")),
    ("struct", include_str!("support/struct.rs")),
];

fn expand_items(schema: &Schema, items: &[Item]) -> TokenStream {
    let abi = &schema.abi;
    let mut tokens = TokenStream::new();
    for &item in items {
        tokens.extend(match item {
            Item::ByteOrder => expand_byte_order(abi),
            Item::Version => expand_version(abi),
            Item::Const(i) => expand_const(&abi.consts[i]),
            Item::Newtype(i) => expand_newtype(&abi.enums[i]),
            Item::Struct(i) => expand_struct(abi, &abi.structs[i], &schema.layout.structs[i]),
            Item::Live(_) => unreachable!("printed by print_live"),
            Item::Recording => recording::expand_recordings(schema),
        });
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::{MIN_PART_WEIGHT, RustParts, SUPPORT, expand_rust_in_parts, split_by_weight};

    #[test]
    fn parts_are_consecutive_balanced_and_never_empty() {
        let weights = [5usize; 200]; // 1,000 in all
        let ranges = split_by_weight(&weights, 4);
        assert_eq!(ranges, [0..50, 50..100, 100..150, 150..200]);
        // Never lighter than MIN_PART_WEIGHT: 1,000 makes 4 parts at most.
        assert_eq!(split_by_weight(&weights, 8).len(), 1000 / MIN_PART_WEIGHT);
        assert_eq!(split_by_weight(&weights[..10], 8), vec![0..10]);
        // One heavy item at the end: no empty range after it.
        let ranges = split_by_weight(&[1, 1, 2 * MIN_PART_WEIGHT], 2);
        assert_eq!(ranges, vec![0..3]);
        let ranges = split_by_weight(&[2 * MIN_PART_WEIGHT, 1, 2 * MIN_PART_WEIGHT], 3);
        assert_eq!(ranges, [0..1, 1..3]);
        assert!(split_by_weight(&[], 4).is_empty());
    }

    /// Printing in parts on several threads gives the text of printing in one part.
    #[test]
    fn the_text_does_not_depend_on_the_number_of_parts() {
        let src = include_str!("../../../../schema.toml");
        let schema = crate::schema::load_schema(src).expect("the bridge schema loads");
        let whole = expand_rust_in_parts(&schema, "schema.toml", 1, 1);
        for (parts, threads) in [(2, 1), (2, 2), (3, 3), (4, 2), (4, 3), (4, 8)] {
            assert!(
                expand_rust_in_parts(&schema, "schema.toml", parts, threads) == whole,
                "{parts} parts on {threads} threads print another text than one"
            );
        }
        // Every item in a part of its own, the live module's pieces included: the module
        // opens in the part of its first piece and closes in that of its last.
        let finest = RustParts::one_per_item(&schema);
        assert!(
            finest.weights().len() > 100,
            "{} parts",
            finest.weights().len()
        );
        let printed: Vec<String> = (0..finest.weights().len())
            .map(|i| finest.print(i))
            .collect();
        assert!(
            finest.assemble("schema.toml", printed) == whole,
            "one part per item prints another text than one part"
        );
    }

    /// Each piece of hand-written support parses as Rust on its own, so any selection of
    /// them followed by the expanded items parses too (the items are printed from a syn
    /// tree). The fixture tests compile every combination with rustc.
    #[test]
    fn support_code_parses() {
        for (name, text) in SUPPORT {
            if let Err(e) = syn::parse_file(text) {
                panic!("support/{name}.rs does not parse: {e}");
            }
        }
    }
}
