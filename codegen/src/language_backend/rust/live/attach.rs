//! Attach in the live layer: each layout table and version handshake as a static spec for
//! `abi_runtime::attach`, which holds the checks, printed from the attach plan
//! (`plan::attach`); a typed handle per layout (`handle`); and, per extensible record, a
//! reader by the producer's size whose added fields are `Option`s.

use crate::language_backend::rust::docs::doc_lit;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

mod handle;
mod relayout;

use super::tokens::{lit, opt_index, opt_u64, spec_ident, value_type};
use crate::ir::LayoutId;
use crate::ir::attach::{Handshake, LayoutTable};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::plan::attach::{
    AttachPlan, Contents, GeometryPlan, HandshakePlan, RowPlan, Rule, TablePlan, Word,
};
use crate::schema::Schema;

/// Everything attach adds to `pub mod live`; nothing when the schema declares no layout
/// and no handshake. The specs print the attach plan's numbers.
pub(super) fn expand_attach(schema: &Schema) -> TokenStream {
    let attach = &schema.attach;
    let plan = &schema.attach_plan;
    let tables = (attach.layouts.iter().zip(&plan.tables))
        .map(|(l, t)| expand_table_spec(schema, plan, l, t));
    let handshakes = (attach.handshakes.iter().zip(&plan.handshakes))
        .map(|(h, p)| expand_handshake(schema, h, p));
    let handles = attach.layouts.iter().enumerate().map(|(i, l)| {
        handle::expand_handle(schema, l, attach.root.map(LayoutId::index) == Some(i))
    });
    quote! {
        #(#tables)*
        #(#handshakes)*
        #(#handles)*
    }
}

fn field(w: Word) -> TokenStream {
    let (offset, width) = (lit(w.offset), lit(w.width));
    quote!(::abi_runtime::attach::Field::new(#offset, #width))
}

fn opt_field(w: Option<Word>) -> TokenStream {
    match w {
        Some(w) => {
            let f = field(w);
            quote!(Some(#f))
        }
        None => quote!(None),
    }
}

/// A geometry field as a `GeometrySpec`.
fn geometry_spec(g: &GeometryPlan) -> TokenStream {
    let name = &g.name;
    let row = opt_index(g.row);
    let f = field(g.field);
    let rule = match g.rule {
        Rule::Equal(v) => {
            let v = lit(v);
            quote!(::abi_runtime::attach::GeometryRule::Equal(#v))
        }
        Rule::Follow { least, align } => {
            let (least, align) = (lit(least), lit(align));
            quote!(::abi_runtime::attach::GeometryRule::Follow { least: #least, align: #align })
        }
    };
    let default = opt_u64(g.default);
    quote!(::abi_runtime::attach::GeometrySpec { name: #name, row: #row, field: #f, rule: #rule, default: #default })
}

/// A row as a `RowSpec`.
fn row_spec(plan: &AttachPlan, r: &RowPlan) -> TokenStream {
    let name = &r.name;
    let index = lit(r.index);
    let since = opt_u64(r.since_minor.map(u64::from));
    let optional = r.optional;
    let (min_size, align) = (lit(r.min_size), lit(r.align));
    let overlaps = r.overlaps.iter().map(|&o| lit(o as u64));
    let contents = match r.contents {
        Contents::Header => quote!(::abi_runtime::attach::RowContents::Header),
        Contents::Blocks {
            table,
            count,
            stride,
            stride_geometry,
        } => {
            let table = spec_ident(&plan.tables[table].name, "TABLE");
            let (count, stride) = (lit(count), lit(stride));
            let sg = opt_index(stride_geometry);
            quote!(::abi_runtime::attach::RowContents::Blocks { table: &#table, count: #count, stride: #stride, stride_geometry: #sg })
        }
        Contents::Plain => quote!(::abi_runtime::attach::RowContents::Plain),
    };
    let need = match &r.need {
        Some(n) => {
            let fixed = lit(n.fixed);
            let terms = n.terms.iter().map(|(factor, geometry)| {
                let factor = lit(*factor);
                let gs = geometry.iter().map(|&g| lit(g as u64));
                quote!(::abi_runtime::attach::NeedTerm { factor: #factor, geometry: &[#(#gs),*] })
            });
            quote!(Some(::abi_runtime::attach::NeedSpec { fixed: #fixed, terms: &[#(#terms),*] }))
        }
        None => quote!(None),
    };
    quote! {
        ::abi_runtime::attach::RowSpec {
            name: #name, index: #index, since_minor: #since, optional: #optional,
            min_size: #min_size, align: #align, overlaps: &[#(#overlaps),*], contents: #contents,
            need: #need,
        }
    }
}

/// `pub static <LAYOUT>_TABLE: TableSpec`.
fn expand_table_spec(
    schema: &Schema,
    plan: &AttachPlan,
    l: &LayoutTable,
    t: &TablePlan,
) -> TokenStream {
    let ident = spec_ident(&t.name, "TABLE");
    let rows = t.rows.iter().map(|r| row_spec(plan, r));
    let header = &t.header;
    let header_size = lit(t.header_size);
    let (table_offset, max_rows, row_size) =
        (lit(t.table_offset), lit(t.max_rows), lit(t.row_size));
    let (row_offset, row_len) = (field(t.row_offset), field(t.row_len));
    let (row_count, extent) = (opt_field(t.row_count), opt_field(t.extent));
    let geometry = t.geometry.iter().map(geometry_spec);
    let name = &t.name;
    let doc = doc_lit!(
        " Layout table `{name}`: `{header}.{}`, indexed by `{}`. {}",
        schema.abi.structs[l.header].fields[l.table_field].name,
        schema.abi.enums[l.index_enum].name,
        l.doc
    );
    quote! {
        #[doc = #doc]
        pub static #ident: ::abi_runtime::attach::TableSpec = ::abi_runtime::attach::TableSpec {
            name: #name, header: #header, header_size: #header_size, table_offset: #table_offset,
            max_rows: #max_rows, row_size: #row_size, row_offset: #row_offset, row_len: #row_len,
            row_count: #row_count, extent: #extent, rows: &[#(#rows),*],
            geometry: &[#(#geometry),*],
        };
    }
}

/// `pub static <STRUCT>_HANDSHAKE`, and `Versioned<Struct>`: the record read by its
/// producer's size, with an `Option` accessor per field a later minor version added.
fn expand_handshake(schema: &Schema, h: &Handshake, p: &HandshakePlan) -> TokenStream {
    let s = &schema.abi.structs[h.struct_index];
    let ident = spec_ident(&p.record, "HANDSHAKE");
    let spec = handshake_spec(p);
    let record = &p.record;
    let ty = type_ident(&s.name);
    let versioned = format_ident!("Versioned{}", ty);
    let accessors = h.added.iter().enumerate().map(|(k, a)| {
        let f = &s.fields[a.field];
        let get = rust_ident(&f.name);
        let t = value_type(schema, &f.ty);
        let k = lit(k as u64);
        let doc = doc_lit!(
            " `{}`, added in {}: `None` when the producer's version or record lacks it.",
            f.name,
            a.since
        );
        quote!(#[doc = #doc] #get @ #k: #t;)
    });
    let spec_doc = doc_lit!(
        " The version handshake of `{record}`: magic, major and minor version{}, and the fields each later minor version added.",
        if p.size.is_some() {
            ", producer's size"
        } else {
            ""
        }
    );
    let ver_doc = doc_lit!(
        " A `{record}` read by its producer's size: a shorter record zero-extended, with the fields it lacks absent; a longer one cut to ours, its extra bytes kept."
    );
    quote! {
        #[doc = #spec_doc]
        pub static #ident: ::abi_runtime::attach::HandshakeSpec = #spec;

        ::abi_runtime::versioned! {
            #[doc = #ver_doc] #versioned: super::#ty, #ident;
            #(#accessors)*
        }
    }
}

/// A handshake as a `HandshakeSpec` value.
fn handshake_spec(p: &HandshakePlan) -> TokenStream {
    let (major, minor) = (lit(u64::from(p.ours.major)), lit(u64::from(p.ours.minor)));
    let magic = match p.magic {
        Some(m) => {
            let (f, v) = (field(m.field), lit(m.value));
            quote!(Some((#f, #v)))
        }
        None => quote!(None),
    };
    let (major_f, minor_f, size_f) = (field(p.major), field(p.minor), opt_field(p.size));
    let base_size = lit(p.base_size);
    let state = match p.state {
        Some((f, running)) => {
            let (f, running) = (field(f), lit(running));
            quote!(Some((#f, #running)))
        }
        None => quote!(None),
    };
    let generation = opt_field(p.generation);
    let full = lit(p.full_size);
    let added = p.added.iter().map(|a| {
        let name = &a.name;
        let (since, offset, end) = (lit(u64::from(a.since_minor)), lit(a.offset), lit(a.end));
        quote!(::abi_runtime::attach::AddedField { name: #name, since_minor: #since, offset: #offset, end: #end })
    });
    let record = &p.record;
    quote! {
        ::abi_runtime::attach::HandshakeSpec {
            record: #record,
            ours: ::abi_runtime::attach::Version { major: #major, minor: #minor },
            magic: #magic, major: #major_f, minor: #minor_f, size: #size_f,
            base_size: #base_size, full_size: #full, added: &[#(#added),*],
            state: #state, generation: #generation,
        }
    }
}
