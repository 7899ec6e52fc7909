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
//! `rust_support/`, copied once into each file that needs it and invoked per item.

use std::ops::Range;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};

use super::rust_struct::{expand_struct, is_shown_array, is_text};
use super::{doc_after_since, jobs, rust_live};
use crate::Schema;
use crate::ir::names::{camel, upper};
use crate::ir::{Abi, ConstType, Constant, Enum, EnumKind, Prim};

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
    plan.assemble(source, &printed)
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
    /// At least `parts` parts (more when they would be heavier than [`MAX_PART_WEIGHT`]),
    /// none lighter than [`MIN_PART_WEIGHT`] unless there is only one.
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

    /// Roughly what each part costs to print, in [`item_weight`] units.
    pub fn weights(&self) -> &[usize] {
        &self.weights
    }

    /// The weight of the whole file.
    pub fn total_weight(&self) -> usize {
        self.weights.iter().sum()
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The text of part `i`.
    pub fn print(&self, i: usize) -> String {
        print_items(self.schema, &self.items[self.ranges[i].clone()])
    }

    /// The whole file: the generated-file line, the support code, then the parts' texts.
    pub fn assemble(&self, source: &str, printed: &[String]) -> String {
        let support = support_for(&self.schema.abi);
        let line = super::generated_line(source);
        let length = printed.iter().map(String::len).sum::<usize>();
        let mut text = String::with_capacity(line.len() + support.len() + length + 8);
        text.push_str("// ");
        text.push_str(&line);
        text.push_str("\n//\n// Needs, in the Cargo.toml of the crate that includes it:\n");
        for (name, requirement) in consumer_dependencies(self.schema) {
            text.push_str(&format!("//   {name} = {requirement}\n"));
        }
        text.push('\n');
        text.push_str(&support);
        for part in printed {
            text.push_str(part);
        }
        text
    }
}

/// The version of `abi-runtime` the generated live layer is written against (a test keeps it
/// equal to runtime/Cargo.toml's).
pub const RUNTIME_REQUIREMENT: &str = "0.1";

/// What the generated Rust needs from the crate that includes it, as `Cargo.toml`
/// dependency lines (name, requirement): zerocopy with `derive` for the value types, and
/// with `alloc` and `abi-runtime` for the live layer when the schema declares shared memory.
pub fn consumer_dependencies(schema: &Schema) -> Vec<(&'static str, String)> {
    if rust_live::has_live_layer(schema) {
        vec![
            (
                "zerocopy",
                r#"{ version = "0.8", features = ["derive", "alloc"] }"#.to_string(),
            ),
            ("abi-runtime", format!("\"{RUNTIME_REQUIREMENT}\"")),
        ]
    } else {
        vec![(
            "zerocopy",
            r#"{ version = "0.8", features = ["derive"] }"#.to_string(),
        )]
    }
}

/// One top-level item of the Rust file, in the order the file has them.
#[derive(Debug, Clone, Copy)]
enum Item {
    /// The `compile_error!` of a big-endian target.
    ByteOrder,
    Version,
    Const(usize),
    Newtype(usize),
    Struct(usize),
    /// `pub mod live`, when the schema declares shared memory.
    Live,
}

fn items_of(schema: &Schema) -> Vec<Item> {
    let abi = &schema.abi;
    [Item::ByteOrder, Item::Version]
        .into_iter()
        .chain((0..abi.consts.len()).map(Item::Const))
        .chain((0..abi.enums.len()).map(Item::Newtype))
        .chain((0..abi.structs.len()).map(Item::Struct))
        .chain(rust_live::has_live_layer(schema).then_some(Item::Live))
        .collect()
}

/// Roughly how much an item costs to expand, parse and print: one per value or field.
fn item_weight(schema: &Schema, item: Item) -> usize {
    match item {
        Item::ByteOrder | Item::Version | Item::Const(_) => 1,
        Item::Newtype(i) => 3 + schema.abi.enums[i].values.len(),
        Item::Struct(i) => 3 + schema.abi.structs[i].fields.len(),
        Item::Live => rust_live::live_weight(schema),
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
    match syn::parse2::<syn::File>(expand_items(schema, items)) {
        Ok(file) => prettyplease::unparse(&file),
        // A generator bug, never a schema mistake: show what did not parse (expanded again,
        // so that the usual path does not pay for a copy of every token).
        Err(e) => panic!(
            "generated Rust does not parse: {e}\n--- tokens ---\n{}",
            expand_items(schema, items)
        ),
    }
}

/// The hand-written support the schema needs, verbatim (prettyplease would flatten the
/// macro bodies): text access, and the macros that give enums, flag sets and structs their
/// shared behaviour. Only what is used is emitted, so nothing is dead code. The text is
/// constant, so it is checked once, by the tests below, rather than parsed on every run.
fn support_for(abi: &Abi) -> String {
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
    SUPPORT
        .iter()
        .zip(used)
        .filter(|(_, used)| *used)
        .map(|((_, text), _)| format!("{text}\n"))
        .collect()
}

/// The hand-written support files, in the order they are emitted.
const SUPPORT: [(&str, &str); 5] = [
    ("text", include_str!("rust_support/text.rs")),
    ("enum", include_str!("rust_support/enum.rs")),
    ("flags", include_str!("rust_support/flags.rs")),
    ("array", include_str!("rust_support/array.rs")),
    ("struct", include_str!("rust_support/struct.rs")),
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
            Item::Live => rust_live::expand_live(schema),
        });
    }
    tokens
}

/// Rust keywords that cannot be raw identifiers; a trailing `_` is added instead.
const NOT_RAW: [&str; 5] = ["self", "Self", "super", "crate", "_"];

/// Rust's strict and reserved keywords (2024 edition), which become raw identifiers.
const KEYWORDS: [&str; 51] = [
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try", "union", "raw", "safe",
];

/// A Rust identifier for a schema name: raw (`r#type`) for keywords, `self_` for the few
/// that cannot be raw.
pub fn rust_ident(name: &str) -> Ident {
    if NOT_RAW.contains(&name) {
        format_ident!("{}_", name)
    } else if KEYWORDS.contains(&name) && !matches!(name, "union" | "raw" | "safe") {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

pub(super) fn type_ident(name: &str) -> Ident {
    rust_ident(&camel(name))
}

pub(super) fn const_ident(name: &str) -> Ident {
    rust_ident(&upper(name))
}

/// Doc comments as markdown: one `#[doc]` attribute per line.
pub(super) struct Doc(String);

impl ToTokens for Doc {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        for line in self.0.lines() {
            let line = doc_line(line);
            tokens.extend(quote!(#[doc = #line]));
        }
    }
}

/// A doc line as a raw string literal (`r" line"`, with as many `#` as its quotes need):
/// proc-macro2 takes it without escaping each character, and syn and prettyplease read
/// its value back as a slice instead of unescaping it, which made a sixth of the Rust
/// target's time. The value, and so the printed `///` comment, is the same as that of
/// an escaped string literal, which a line a raw string cannot hold (a CR) still gets.
fn doc_line(line: &str) -> Literal {
    let mut hashes = usize::from(line.contains('"'));
    for (i, _) in line.match_indices('"') {
        let run = line[i + 1..].bytes().take_while(|&b| b == b'#').count();
        hashes = hashes.max(run + 1);
    }
    let hashes = "#".repeat(hashes);
    format!("r{hashes}\" {line}\"{hashes}")
        .parse()
        .unwrap_or_else(|_| Literal::string(&format!(" {line}")))
}

/// Paragraphs of markdown joined with a blank doc line, empty ones left out. Schema text
/// goes through [`escaped`] first; the generator's own sentences are markdown already.
pub(super) fn doc(paragraphs: &[String]) -> Doc {
    let kept: Vec<&str> = paragraphs
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    Doc(kept.join("\n\n"))
}

/// Schema text as markdown that renders to exactly that text. A CR is a line break, as in
/// C; other control characters and bidirectional controls, which rustc rejects in a doc
/// comment (a bare CR) or denies by default (text direction), show as `<U+XXXX>`.
pub(super) fn escaped(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    text.lines()
        .map(|line| escape_rustdoc(&super::show_invisible_chars(line)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Escapes the characters that markdown would read as markup (links, emphasis, code, HTML)
/// and the ones that would start a block at the beginning of a line.
fn escape_rustdoc(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // An underscore inside a word (`no_pad`) is never emphasis; only one at a word's edge is.
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let edge_underscore = c == '_' && !(word(i.checked_sub(1)) && word(Some(i + 1)));
        if matches!(c, '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '|' | '~') || edge_underscore {
            out.push('\\');
        }
        out.push(c);
    }
    let trimmed = out.trim_start();
    let starts_block = trimmed.starts_with(['#', '-', '+', '=', '\t'])
        || trimmed
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if starts_block {
        let indent = out.len() - trimmed.len();
        out.insert(indent, '\\');
    }
    out
}

pub(super) fn since(v: &Option<crate::ir::Version>) -> String {
    v.map(|v| format!("Since ABI {v}.")).unwrap_or_default()
}

/// A literal as the schema wrote it (keeping `0x10000`), or its decimal value.
fn int_literal(literal: &str, value: i128) -> TokenStream {
    let (neg, digits) = match literal.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, literal),
    };
    let lit = digits
        .parse::<Literal>()
        .ok()
        .filter(|l| {
            !l.to_string().contains(['.', 'e', 'E', '"', '\'']) || l.to_string().starts_with("0x")
        })
        .unwrap_or_else(|| Literal::u128_unsuffixed(value.unsigned_abs()));
    if neg || (value < 0 && !literal.starts_with('-')) {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

pub(super) fn prim_type(p: Prim) -> Ident {
    format_ident!("{}", p.name())
}

/// The ABI is little-endian and the structs hold its fields as plain integers and floats,
/// in the target's byte order: a big-endian target is refused when it compiles the file.
fn expand_byte_order(abi: &Abi) -> TokenStream {
    let message = format!(
        "the {} ABI is little-endian: these bindings hold its fields in the target's byte \
         order, so they do not support a big-endian target",
        abi.name
    );
    quote! {
        #[cfg(target_endian = "big")]
        compile_error!(#message);
    }
}

fn expand_version(abi: &Abi) -> TokenStream {
    let major = Literal::u32_unsuffixed(abi.version.major);
    let minor = Literal::u32_unsuffixed(abi.version.minor);
    let text = abi.version.to_string();
    let doc_major = format!(
        " Major version of the {} ABI these bindings were generated for.",
        abi.name
    );
    let doc_minor = format!(
        " Minor version of the {} ABI these bindings were generated for.",
        abi.name
    );
    quote! {
        #[doc = #doc_major]
        pub const ABI_VERSION_MAJOR: u16 = #major;
        #[doc = #doc_minor]
        pub const ABI_VERSION_MINOR: u16 = #minor;
        /// The ABI version as text, `MAJOR.MINOR`.
        pub const ABI_VERSION: &str = #text;
    }
}

fn expand_const(c: &Constant) -> TokenStream {
    let name = const_ident(&c.name);
    let ty = match c.ty {
        ConstType::Usize => format_ident!("usize"),
        ConstType::Prim(p) => prim_type(p),
    };
    let value = int_literal(&c.literal, c.value);
    let expr = c
        .expr
        .as_ref()
        .map(|e| format!("Computed as `{e}`."))
        .unwrap_or_default();
    let docs = doc(&[
        escaped(doc_after_since(&c.doc, c.since)),
        expr,
        since(&c.since),
    ]);
    let unreadable = unreadable_literal(&value.to_string()).then(|| {
        quote!(#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")])
    });
    quote! {
        #docs
        #unreadable
        pub const #name: #ty = #value;
    }
}

/// Whether clippy's `unreadable_literal` takes `literal` for one: more than five digits
/// (hex digits after `0x` included) and no `_` among them.
fn unreadable_literal(literal: &str) -> bool {
    let digits = literal.trim_start_matches(['-', ' ']);
    let digits = digits.strip_prefix("0x").unwrap_or(digits);
    !digits.contains('_') && digits.len() > 5
}

/// Attributes every newtype over an integer gets; an ordered enum also compares.
fn newtype_attrs(ordered: bool) -> TokenStream {
    let order = ordered.then(|| quote!(PartialOrd, Ord,));
    quote! {
        #[derive(
            Clone, Copy, PartialEq, Eq, #order Hash, Default,
            ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable
        )]
        #[repr(transparent)]
    }
}

fn expand_values(e: &Enum) -> (TokenStream, Vec<TokenStream>) {
    let ty = type_ident(&e.name);
    let consts = e.values.iter().map(|v| {
        let name = const_ident(&v.name);
        let value = int_literal(&v.literal, v.value);
        let docs = doc(&[escaped(doc_after_since(&v.doc, v.since)), since(&v.since)]);
        quote! {
            #docs
            pub const #name: #ty = #ty(#value);
        }
    });
    let entries = e
        .values
        .iter()
        .map(|v| {
            let name = const_ident(&v.name);
            let text = &v.name;
            quote!(#name = #text)
        })
        .collect();
    (quote!(#(#consts)*), entries)
}

/// An enum or a flag set: a `#[repr(transparent)]` newtype over its representation, its
/// values as associated constants, and the shared behaviour from `abi_enum!`/`abi_flags!`.
fn expand_newtype(e: &Enum) -> TokenStream {
    let ty = type_ident(&e.name);
    let repr = prim_type(e.repr);
    let attrs = newtype_attrs(e.ordered);
    let (summary, support) = match e.kind {
        EnumKind::Enum => (
            format!(
                "An enum over `{}`: any value can be read, and [`{ty}::name`] says whether the schema declares it.",
                e.repr
            ),
            format_ident!("abi_enum"),
        ),
        EnumKind::Flags => (
            format!(
                "A set of flags over `{}`: bits the schema does not declare are kept.",
                e.repr
            ),
            format_ident!("abi_flags"),
        ),
    };
    let order = if e.ordered {
        "Ordered: the values rank lowest first, so `<` compares them.".to_string()
    } else {
        String::new()
    };
    let docs = doc(&[
        escaped(doc_after_since(&e.doc, e.since)),
        summary,
        order,
        since(&e.since),
    ]);
    let (consts, entries) = expand_values(e);
    quote! {
        #docs
        #attrs
        pub struct #ty(pub #repr);
        impl #ty {
            #consts
        }
        #support!(#ty: #repr { #(#entries),* });
    }
}

#[cfg(test)]
mod tests {
    use super::{MIN_PART_WEIGHT, SUPPORT, doc_line, expand_rust_in_parts, split_by_weight};

    /// A doc line's literal, raw or not, holds the line after one space, whatever quotes,
    /// hashes, backslashes or characters a raw string cannot hold it has.
    #[test]
    fn doc_lines_keep_their_text() {
        let lines = [
            "plain",
            "",
            r#"a "quoted" word"#,
            r##"ends in "#"##,
            r###"x"##y and "# too"###,
            r"back\slash \n",
            "emoji 🦀 and é",
            "a bare \r CR",
        ];
        let many_hashes = format!("a \"{} b", "#".repeat(300));
        for line in lines.iter().copied().chain([many_hashes.as_str()]) {
            let literal = doc_line(line);
            let parsed: syn::LitStr =
                syn::parse2(quote::quote!(#literal)).expect("a string literal");
            assert_eq!(parsed.value(), format!(" {line}"), "doc line {line:?}");
        }
        assert!(doc_line("plain").to_string().starts_with("r\""));
    }

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
        let src = include_str!("../../../schema.toml");
        let schema = crate::load_schema(src).expect("the bridge schema loads");
        let whole = expand_rust_in_parts(&schema, "schema.toml", 1, 1);
        for (parts, threads) in [(2, 1), (2, 2), (3, 3), (4, 2), (4, 3), (4, 8)] {
            assert!(
                expand_rust_in_parts(&schema, "schema.toml", parts, threads) == whole,
                "{parts} parts on {threads} threads print another text than one"
            );
        }
    }

    /// Each piece of hand-written support parses as Rust on its own, so any selection of
    /// them followed by the expanded items parses too (the items are printed from a syn
    /// tree). The fixture tests compile every combination with rustc.
    #[test]
    fn support_code_parses() {
        for (name, text) in SUPPORT {
            if let Err(e) = syn::parse_file(text) {
                panic!("rust_support/{name}.rs does not parse: {e}");
            }
        }
    }
}
