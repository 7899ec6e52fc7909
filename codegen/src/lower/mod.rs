//! Lowering: raw schema to the validated IR. Resolves names and references, evaluates
//! values, and checks every rule that does not need the layout. Errors pile up. This file
//! owns the order of the passes and the state they share; each pass lives in its own file.

mod header;
mod names;
mod structs;
mod types;
mod values;

use std::collections::{HashMap, HashSet};
use std::fmt::Display;

use toml::Spanned;

use crate::diagnostics::{Errors, SchemaErrors, Span};
use crate::ir::{Abi, Constant, Enum, EnumKind, ItemRef, Struct};
use crate::parse::{RawEnum, RawSchema};

pub fn lower_schema(raw: &RawSchema, src: &str) -> Result<Abi, SchemaErrors> {
    let mut cx = Lower {
        src,
        errors: Errors::new(),
        failed_consts: HashSet::new(),
    };
    let abi = cx.lower_abi_header(raw);
    let item_types = cx.collect_type_names(raw);
    let array_consts = types::collect_array_len_names(raw);
    let consts = cx.lower_consts(&raw.consts, &array_consts, abi.version);
    let const_table = ConstTable::new(&consts);
    let mut enums_raw: Vec<(EnumKind, &Spanned<RawEnum>)> = raw
        .enums
        .iter()
        .map(|e| (EnumKind::Enum, e))
        .chain(raw.flags.iter().map(|e| (EnumKind::Flags, e)))
        .collect();
    enums_raw.sort_by_key(|(_, e)| e.span().start);
    let enums: Vec<Enum> = enums_raw
        .iter()
        .map(|(kind, e)| cx.lower_enum(*kind, e, &const_table, abi.version))
        .collect();
    let structs: Vec<Struct> = raw
        .structs
        .iter()
        .map(|s| cx.lower_struct(s, &item_types, &const_table, abi.version))
        .collect();
    drop(const_table);
    let mut structs = structs;
    cx.resolve_counts(raw, &mut structs);
    cx.check_extensible(raw, &structs);
    cx.check_converted_names(raw, &abi.c_prefix);
    cx.check_python_names(&consts, &enums, &structs);
    cx.check_c_names(&enums, &structs, &abi.c_prefix);

    let mut order: Vec<(usize, ItemRef)> = Vec::new();
    order.extend(
        consts
            .iter()
            .enumerate()
            .map(|(i, c)| (c.span.start, ItemRef::Const(i))),
    );
    order.extend(
        enums
            .iter()
            .enumerate()
            .map(|(i, e)| (e.span.start, ItemRef::Enum(i))),
    );
    order.extend(
        structs
            .iter()
            .enumerate()
            .map(|(i, s)| (s.span.start, ItemRef::Struct(i))),
    );
    order.sort_by_key(|(start, _)| *start);
    cx.errors.propagate()?;
    Ok(Abi {
        consts,
        enums,
        structs,
        order: order.into_iter().map(|(_, r)| r).collect(),
        ..abi
    })
}

struct Lower<'a> {
    src: &'a str,
    errors: Errors,
    /// Constants whose value failed, reported where they are declared: a use of one
    /// (an array length, `expect`, another constant's expression) reports nothing more.
    failed_consts: HashSet<String>,
}

impl Lower<'_> {
    /// Whether `text` (an expression, an array length) names a constant whose value failed.
    fn names_failed_const(&self, text: &str) -> bool {
        !self.failed_consts.is_empty()
            && text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|word| self.failed_consts.contains(word))
    }
}

/// What a type name refers to, before structs are lowered.
#[derive(Clone, Copy)]
enum TypeName {
    Enum(usize),
    Struct(usize),
}

/// The lowered constants with an index by name, built once: a name declared twice finds
/// its first declaration (the duplicate is reported on its own).
struct ConstTable<'c> {
    list: &'c [Constant],
    by_name: HashMap<&'c str, usize>,
}

impl<'c> ConstTable<'c> {
    fn new(list: &'c [Constant]) -> Self {
        let mut by_name = HashMap::with_capacity(list.len());
        for (i, c) in list.iter().enumerate() {
            by_name.entry(c.name.as_str()).or_insert(i);
        }
        ConstTable { list, by_name }
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    fn names(&self) -> impl Iterator<Item = &'c str> {
        self.list.iter().map(|c| c.name.as_str())
    }
}

fn text(s: &Option<Spanned<String>>) -> String {
    s.as_ref().map(|s| s.get_ref().clone()).unwrap_or_default()
}

impl Lower<'_> {
    fn line_of(&self, span: &Span) -> usize {
        crate::diagnostics::line_col(self.src, span.start).0
    }

    /// The span of a string value's text, inside its quotes.
    fn inner(&self, s: &Spanned<String>) -> Span {
        crate::diagnostics::string_span(self.src, s)
    }
}

/// How a message names a member of an item, such as "field `ship.pos`" or "enum value
/// `phase.playing`": formatted only when a message is, not for every member lowered.
struct MemberName<'a> {
    kind: &'static str,
    item: &'a str,
    member: &'a str,
}

impl Display for MemberName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}.{}`", self.kind, self.item, self.member)
    }
}

/// An item's name followed by a word: "struct `ship`: field".
struct Labeled<'a>(&'a str, &'static str);

impl Display for Labeled<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.0, self.1)
    }
}
