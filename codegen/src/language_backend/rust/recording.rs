//! `pub mod recording`: for each `[[file]]` with an encoded, seekable record
//! ([`plan_recordings`]), a static `abi_runtime::recording::RecordingSpec` and typed
//! handles over the runtime's reader and writer: `<File>Reader` (over any `Read + Seek`, or
//! bytes) yielding `<File>Record`s (the record's struct, the decoded struct, the extras),
//! seeking by the key, with the header, footer, tables and issues; and `<File>Writer`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::docs::doc_lit;
use super::names::{rust_ident, type_ident};
use crate::ir::StructId;
use crate::ir::file::Step;
use crate::ir::names::camel;
use crate::plan::recording::{FieldPlan, PartPlan, RecordingPlan, TotalPlan, plan_recordings};
use crate::schema::Schema;

/// Whether the schema has a format the recording API is generated for.
pub fn has_recordings(schema: &Schema) -> bool {
    !plan_recordings(schema).is_empty()
}

/// `v` in hex, its digits in groups of four (clippy's `unreadable_literal`), as a `u64`.
fn hex_lit(v: u64) -> Literal {
    let digits = format!("{v:x}");
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 4 == 0 {
            grouped.push('_');
        }
        grouped.push(c);
    }
    format!("0x{grouped}_u64")
        .parse()
        .expect("a hex literal parses")
}

fn usize_lit(v: u64) -> Literal {
    Literal::usize_unsuffixed(v as usize)
}

fn expand_field(f: FieldPlan) -> TokenStream {
    let (o, w) = (usize_lit(f.0), usize_lit(f.1));
    quote!(rec::Field::new(#o, #w))
}

fn expand_part(p: &PartPlan) -> TokenStream {
    let name = &p.name;
    let size = usize_lit(p.size);
    let expects = p.expects.iter().map(|(f, v)| {
        let f = expand_field(*f);
        let v = hex_lit(*v);
        quote!((#f, #v))
    });
    quote!(rec::Part { name: #name, size: #size, expects: &[#(#expects),*] })
}

fn expand_option(f: Option<FieldPlan>) -> TokenStream {
    match f {
        Some(f) => {
            let f = expand_field(f);
            quote!(Some(#f))
        }
        None => quote!(None),
    }
}

fn expand_spec(p: &RecordingPlan, spec: &proc_macro2::Ident) -> TokenStream {
    let name = &p.name;
    let header = expand_part(&p.header);
    let trailer = expand_part(&p.trailer);
    let footer_offset = expand_field(p.footer_offset);
    let footer = expand_part(&p.footer);
    let tables = p.tables.iter().map(|t| {
        let name = &t.part.name;
        let size = usize_lit(t.part.size);
        let count = expand_field(t.count);
        quote!(rec::TableSpec { name: #name, size: #size, count: #count })
    });
    let index = usize_lit(p.index as u64);
    let index_offset = expand_field(p.index_offset);
    let index_copies = p.index_copies.iter().map(|(e, c)| {
        let (e, c) = (expand_field(*e), expand_field(*c));
        quote!((#e, #c))
    });
    let chunk = expand_part(&p.chunk);
    let stored = expand_field(p.stored);
    let raw = expand_field(p.raw);
    let count = expand_option(p.count);
    let bounds = match p.bounds {
        Some((a, b)) => {
            let (a, b) = (expand_field(a), expand_field(b));
            quote!(Some((#a, #b)))
        }
        None => quote!(None),
    };
    let r = &p.record;
    let rname = &r.part.name;
    let rsize = usize_lit(r.part.size);
    let total_size = expand_option(r.total_size);
    let data_size = expand_field(r.data_size);
    let kind = expand_field(r.kind);
    let steps = r.steps.iter().map(|(v, s)| {
        let v = Literal::u64_suffixed(*v);
        let s = match s {
            Step::Plain => quote!(rec::Step::Plain),
            Step::Xor => quote!(rec::Step::Xor),
        };
        quote!((#v, #s))
    });
    let key = expand_field(r.key);
    let decoded_size = usize_lit(r.decoded_size);
    let same = r.same.iter().map(|(d, f)| {
        let (d, f) = (expand_field(*d), expand_field(*f));
        quote!((#d, #f))
    });
    let totals = p.totals.iter().map(|t| match t {
        TotalPlan::Sum { total, of } => {
            let (t, o) = (expand_field(*total), expand_field(*of));
            quote!(rec::Total::Sum { total: #t, of: #o })
        }
        TotalPlan::Count { total } => {
            let t = expand_field(*total);
            quote!(rec::Total::Count { total: #t })
        }
        TotalPlan::First { total, of } => {
            let (t, o) = (expand_field(*total), expand_field(*of));
            quote!(rec::Total::First { total: #t, of: #o })
        }
        TotalPlan::Last { total, of } => {
            let (t, o) = (expand_field(*total), expand_field(*of));
            quote!(rec::Total::Last { total: #t, of: #o })
        }
    });
    let doc = doc_lit!(" The `{name}` format, as the recording core reads and writes it.");
    quote! {
        #[doc = #doc]
        pub static #spec: rec::RecordingSpec = rec::RecordingSpec {
            name: #name,
            header: #header,
            trailer: rec::TrailerSpec { part: #trailer, footer_offset: #footer_offset },
            footer: #footer,
            tables: &[#(#tables),*],
            index: rec::IndexSpec { table: #index, offset: #index_offset, copies: &[#(#index_copies),*] },
            chunk: rec::ChunkSpec { part: #chunk, stored: #stored, raw: #raw, count: #count, bounds: #bounds },
            record: rec::RecordSpec {
                name: #rname,
                size: #rsize,
                total_size: #total_size,
                data_size: #data_size,
                kind: #kind,
                steps: &[#(#steps),*],
                key: #key,
                decoded_size: #decoded_size,
                same: &[#(#same),*],
            },
            totals: &[#(#totals),*],
        };
    }
}

/// Format `p`: its spec, then its record item, reader and writer as one invocation of
/// `abi_runtime::recording_format!`.
fn expand_format(schema: &Schema, p: &RecordingPlan) -> TokenStream {
    let abi = &schema.abi;
    let ty = |i: StructId| {
        let t = type_ident(&abi.structs[i].name);
        quote!(super::#t)
    };
    let camel_name = camel(&p.name);
    let spec = format_ident!("{}_SPEC", p.name.to_uppercase());
    let reader = format_ident!("{camel_name}Reader");
    let writer = format_ident!("{camel_name}Writer");
    let item = format_ident!("{camel_name}Record");
    let header_ty = ty(p.header.struct_index);
    let footer_ty = ty(p.footer.struct_index);
    let chunk_ty = ty(p.chunk.struct_index);
    let record_ty = ty(p.record.part.struct_index);
    let decoded_ty = ty(p.record.decoded);
    let decoded_name = &abi.structs[p.record.decoded].name;
    let decoded_field = if matches!(decoded_name.as_str(), "record" | "extras") {
        format_ident!("decoded")
    } else {
        rust_ident(decoded_name)
    };
    let key = &p.record.key_name.replace('.', "_");
    let seek = format_ident!("seek_{key}");
    let read_at = format_ident!("read_{key}");
    let key_name = &p.record.key_name;
    let decoded_size = usize_lit(p.record.decoded_size);
    // No leading space: the macro's `///` lines follow (see `adder_lines`).
    let read_doc = doc_lit!("The record whose `{key_name}` is `key`, if the file holds it.");
    let name = &p.name;
    let doc_item = doc_lit!(
        " One record of a file of the `{name}` format: its `{}`, the decoded `{decoded_name}`, and the extras that follow it in the decoded data.",
        abi.structs[p.record.part.struct_index].name
    );
    let doc_reader = doc_lit!(
        " Reads a file of the `{name}` format over any `Read + Seek`: one chunk inflated at a time, records decoded, damage collected in [`issues`](Self::issues) (a file whose trailer or footer is missing or bad is read by walking its chunks from the header)."
    );
    let doc_writer = doc_lit!(
        " Writes a file of the `{name}` format: records into chunks (each starts with a plain record), [`flush`](Self::flush) closes the open chunk, [`finish`](Self::finish) writes the footer, its tables and the trailer. Dropped without `finish`, the file ends with its last chunk, and a reader walks it."
    );
    let spec_tokens = expand_spec(p, &spec);
    let tables = table_lines(schema, p);
    let adders = adder_lines(schema, p);
    quote! {
        #spec_tokens

        ::abi_runtime::recording_format! {
            spec #spec;
            #[doc = #doc_item] record #item: #record_ty, #decoded_field #decoded_ty, size #decoded_size;
            #[doc = #doc_reader] reader #reader: header #header_ty, footer #footer_ty, chunk #chunk_ty, seek #seek, read [#[doc = #read_doc]] #read_at;
            tables { #tables }
            #[doc = #doc_writer] writer #writer;
            adders { #adders }
        }
    }
}

/// The struct's type in the parent module.
fn struct_ty(schema: &Schema, i: StructId) -> TokenStream {
    let t = type_ident(&schema.abi.structs[i].name);
    quote!(super::#t)
}

/// The reader's getter of each table's rows, as `tables` lines of
/// `abi_runtime::recording_format!`.
fn table_lines(schema: &Schema, p: &RecordingPlan) -> TokenStream {
    let tables = p.tables.iter().enumerate().map(|(i, t)| {
        let name = rust_ident(&t.part.name);
        let row = struct_ty(schema, t.part.struct_index);
        let doc = doc_lit!(
            " The `{}` rows (none when the footer is missing or bad).",
            t.part.name
        );
        let i = usize_lit(i as u64);
        quote!(#[doc = #doc] #name @ #i: #row;)
    });
    quote!(#(#tables)*)
}

/// The writer's `push_<table>` of each table but the chunk index, as `adders` lines of
/// `abi_runtime::recording_format!`.
fn adder_lines(schema: &Schema, p: &RecordingPlan) -> TokenStream {
    let adders = (p.tables.iter().enumerate())
        .filter(|(i, _)| *i != p.index)
        .map(|(i, t)| {
            let name = format_ident!("push_{}", t.part.name);
            let row = struct_ty(schema, t.part.struct_index);
            // No leading space: the macro's `///` lines follow, and rustdoc unindents a
            // `#[doc]` attribute and `///` lines apart.
            let doc = doc_lit!(
                "Adds a row to `{}`, written by [`finish`](Self::finish).",
                t.part.name
            );
            let i = usize_lit(i as u64);
            quote!(#[doc = #doc] #name @ #i: #row;)
        });
    quote!(#(#adders)*)
}

/// `pub mod recording`, or nothing when no format has the shape.
pub fn expand_recordings(schema: &Schema) -> TokenStream {
    let plans = plan_recordings(schema);
    if plans.is_empty() {
        return TokenStream::new();
    }
    let formats = plans.iter().map(|p| expand_format(schema, p));
    let doc = doc_lit!(
        " Reading and writing the {} ABI's recordings: chunks of zlib streams of records, each record's data as is or XORed with the record before it, with a footer, a chunk index and a trailer (`abi_runtime::recording`, feature `recording`).",
        schema.abi.name
    );
    quote! {
        #[doc = #doc]
        pub mod recording {
            // Without abi-runtime's `recording` feature: a compile_error! that names it.
            ::abi_runtime::require_recording!();

            use ::abi_runtime::recording as rec;

            pub use rec::{Issue, IssueKind, WriterOptions};

            #(#formats)*
        }
    }
}
