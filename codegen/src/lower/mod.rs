//! Lowering: raw schema to the validated IR. Resolves names and references, evaluates
//! values, and checks every rule that does not need the layout. Errors pile up. This file
//! owns the order of the passes; the state they share is in `context.rs`, and each pass
//! lives in its own file. Two parts serve the passes after the layout: `after_layout.rs`,
//! the state and helpers the access, protocol and directory passes share, and
//! `reserved_macros.rs`, the check that no constant or enum value becomes one of the C
//! header's own macros (run by the access pass, which knows whether the header has live
//! helpers). `[[file]]` formats lower after the attach declarations, in the attach pass's
//! context: `file.rs` (records and placement), `file_encoding.rs` (`encoding` and `seek`)
//! and `file_indexed.rs` (`indexed` and `same` pairs).

pub(crate) mod after_layout;
mod context;
mod file;
mod file_encoding;
mod file_indexed;
mod header;
mod names;
pub(crate) mod reserved_macros;
mod structs;
mod types;
mod values;

use std::collections::HashSet;

use toml::Spanned;

use crate::diagnostics::{Errors, SchemaErrors};
use crate::ir::{Abi, Enum, EnumKind, ItemRef, PerStruct, Struct, StructId};
use crate::parse::{RawEnum, RawSchema};
use context::{ConstTable, Lower};

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
    let structs: PerStruct<Struct> = raw
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
    order.extend(StructId::enumerate(&structs).map(|(i, s)| (s.span.start, ItemRef::Struct(i))));
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
