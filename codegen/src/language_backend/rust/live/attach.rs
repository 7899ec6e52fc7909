//! Attach in the live layer: each layout table and version handshake as a static spec for
//! `abi_runtime::attach`, which holds the checks; a typed handle per layout with one
//! accessor per region; and, per extensible record, a reader by the producer's size whose
//! added fields are `Option`s.

use crate::language_backend::rust::docs::doc_lit;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::{lit, value_type};
use crate::ir::access::RingKind;
use crate::ir::attach::{Handshake, Holds, LayoutTable};
use crate::language_backend::live_plan::has_view;
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::plan::attach::{
    AttachPlan, Contents, GeometryPlan, HandshakePlan, RowPlan, Rule, TablePlan, Word,
};
use crate::schema::Schema;

/// Everything attach adds to `pub mod live`; nothing when the schema declares no layout
/// and no handshake. The specs print the attach plan's numbers.
pub(super) fn expand_attach(schema: &Schema) -> TokenStream {
    let attach = &schema.attach;
    let plan = AttachPlan::new(schema);
    let tables = (attach.layouts.iter().zip(&plan.tables))
        .map(|(l, t)| expand_table_spec(schema, &plan, l, t));
    let handshakes = (attach.handshakes.iter().zip(&plan.handshakes))
        .map(|(h, p)| expand_handshake(schema, h, p));
    let handles = attach
        .layouts
        .iter()
        .enumerate()
        .map(|(i, l)| expand_handle(schema, l, attach.root == Some(i)));
    quote! {
        #(#tables)*
        #(#handshakes)*
        #(#handles)*
    }
}

fn spec_ident(name: &str, what: &str) -> proc_macro2::Ident {
    format_ident!("{}_{}", name.to_uppercase(), what)
}

fn field(w: Word) -> TokenStream {
    let (offset, width) = (lit(w.offset), lit(w.width));
    quote!(::abi_runtime::attach::Field { offset: #offset, width: #width })
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

fn opt_index(i: Option<usize>) -> TokenStream {
    opt_u64(i.map(|i| i as u64))
}

fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => {
            let v = lit(v);
            quote!(Some(#v))
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
        quote! {
            #[doc = #doc]
            pub fn #get(&self) -> Option<&#t> {
                self.has(#k).then_some(&self.value.#get)
            }
        }
    });
    // Only the accessors of added fields ask: with none, an unused `has` would warn.
    let has = if h.added.is_empty() {
        quote!()
    } else {
        quote! {
            fn has(&self, k: usize) -> bool {
                #ident.present(&#ident.added[k], self.producer, self.size)
            }
        }
    };
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

        #[doc = #ver_doc]
        #[derive(Debug, Clone)]
        pub struct #versioned {
            /// Our record: the producer's bytes, zero-extended or cut to our size.
            pub value: super::#ty,
            /// The producer's version.
            pub producer: ::abi_runtime::attach::Version,
            /// The producer's record size, as far as the bytes given hold it.
            pub size: usize,
            /// The bytes past our record size, which a newer producer wrote.
            pub extra: Vec<u8>,
        }

        impl #versioned {
            /// Reads the record at the start of `bytes` (a copy, not live memory): an error if
            /// its magic or major version is wrong, or it is shorter than every producer writes.
            pub fn read(bytes: &[u8]) -> Result<Self, ::abi_runtime::AttachError> {
                let r = #ident.read_bytes(bytes)?;
                let value = <super::#ty as ::zerocopy::FromBytes>::read_from_bytes(&r.bytes)
                    .expect("read_bytes gives exactly the record's size");
                Ok(Self { value, producer: r.producer, size: r.size, extra: r.extra })
            }

            #has

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

/// The handle of one layout: the root's attaches; a nested one is a block of another.
fn expand_handle(schema: &Schema, l: &LayoutTable, root: bool) -> TokenStream {
    let abi = &schema.abi;
    let ty = type_ident(&l.name);
    let header_name = &abi.structs[l.header].name;
    let header_ty = type_ident(header_name);
    let header_view = has_view(schema, l.header);
    let header = if header_view && super::added::extensible(schema, l.header).is_some() {
        quote! {
            /// The header's live view, as long as its producer built it (`header_size`):
            /// the fields a later minor version added are absent from an older producer's.
            pub fn header(&self) -> #header_ty<'a> {
                #header_ty::at_len(self.region, self.table.base, self.header_size).expect("attach checked the header")
            }
        }
    } else if header_view {
        quote! {
            /// The header's live view.
            pub fn header(&self) -> #header_ty<'a> {
                #header_ty::at(self.region, self.table.base).expect("attach checked the header")
            }
        }
    } else {
        quote!()
    };
    let this_table = spec_ident(&l.name, "TABLE");
    // The root's blocks are handed out only while its writer still runs the generation
    // attach checked (ATTACH.md: a block of a reloaded host's old tables is never given).
    let live_check = if root {
        let h = schema
            .attach
            .handshakes
            .iter()
            .find(|h| h.struct_index == l.header);
        h.map_or_else(TokenStream::new, |h| {
            let hs = spec_ident(&abi.structs[h.struct_index].name, "HANDSHAKE");
            quote! {
                if !self.host {
                    ::abi_runtime::attach::still_running(self.region, &#hs, self.generation)?;
                }
            }
        })
    } else {
        TokenStream::new()
    };
    let rows = l.rows.iter().enumerate().map(|(k, r)| {
        let at = lit(k as u64);
        let region_fn = format_ident!("{}_region", r.name);
        let region_doc = doc_lit!(" The bytes of region `{}`, or `None` when it is absent. {}", r.name, r.doc);
        let region = quote! {
            #[doc = #region_doc]
            pub fn #region_fn(&self) -> Option<Region<'a>> {
                let p = self.table.row(#at)?;
                self.region.sub(p.offset, p.size, 1).ok()
            }
        };
        let get = rust_ident(&r.name);
        let typed = match &r.holds {
            // The header's own row: `header()` gives it.
            Holds::Struct { struct_index, .. } if *struct_index == l.header => quote!(),
            Holds::Struct { struct_index, .. } if has_view(schema, *struct_index) => {
                let v = type_ident(&abi.structs[*struct_index].name);
                let doc = doc_lit!(" The live view of region `{}`, or `None` when it is absent.", r.name);
                quote! {
                    #[doc = #doc]
                    pub fn #get(&self) -> Option<#v<'a>> {
                        let p = self.table.row(#at)?;
                        #v::at(self.region, p.offset).ok()
                    }
                }
            }
            Holds::Ring { ring } => match &schema.access.rings[*ring].kind {
                RingKind::Slots { head, .. } if head.struct_index == l.header && header_view => {
                    let rt = type_ident(&schema.access.rings[*ring].name);
                    let (count, size) = (opt_index(r.follows.count), opt_index(r.follows.size));
                    let doc = doc_lit!(" The ring in region `{}`, with the slot count and size its writer built it with (as attach checked them), or `None` when it is absent.", r.name);
                    quote! {
                        #[doc = #doc]
                        pub fn #get(&self) -> Option<#rt<'a>> {
                            let p = self.table.row(#at)?;
                            let count = self.table.geometry_or(#count, #rt::SLOT_COUNT);
                            let size = self.table.geometry_or(#size, #rt::SLOT_SIZE);
                            #rt::with_geometry(self.header(), self.region.sub(p.offset, p.size, 1).ok()?, count, size).ok()
                        }
                    }
                }
                _ => quote!(),
            },
            Holds::Blocks { layout, count, .. } => {
                let bt = type_ident(&schema.attach.layouts[*layout].name);
                let n = lit(*count);
                let count_ident = format_ident!("{}_COUNT", r.name.to_uppercase());
                let count_doc = doc_lit!(" Blocks in region `{}`.", r.name);
                let doc = doc_lit!(" Block `i` (of {count}) of region `{}`, checked now (on its first use, and on each): `Ok(None)` when the region is absent or `i` out of range, an error naming the block when it fails a check. Other blocks are not looked at.", r.name);
                quote! {
                    #[doc = #count_doc]
                    pub const #count_ident: usize = #n;
                    #[doc = #doc]
                    pub fn #get(&self, i: usize) -> Result<Option<#bt<'a>>, ::abi_runtime::AttachError> {
                        #live_check
                        let found = ::abi_runtime::attach::block(self.region, self.producer, &#this_table, &self.table, #at, i)?;
                        Ok(found.map(|table| #bt { region: self.region, producer: self.producer, table }))
                    }
                }
            }
            _ => quote!(),
        };
        let protocols = super::protocols::row_accessors(schema, l, k);
        quote!(#region #typed #protocols)
    });
    let sessions = if header_view {
        super::session::handle_accessors(schema, l)
    } else {
        quote!()
    };
    let attach_fn = if root {
        let h = schema
            .attach
            .handshakes
            .iter()
            .find(|h| h.struct_index == l.header)
            .expect("the root's header has a handshake");
        let hs = spec_ident(&abi.structs[h.struct_index].name, "HANDSHAKE");
        let table = spec_ident(&l.name, "TABLE");
        let initial_states = initial_states(schema, &hs, &table);
        let stamp = stamp_identity(&h.identity);
        quote! {
            /// Checks `region` as abi-codegen's `ATTACH.md` says (magic, major version, the writer's
            /// state, header size, total size, then every region and geometry field of the root
            /// table; each block is checked when first used) and gives typed access to it. An
            /// error whose `is_retryable()` is true (the writer is starting or reloaded) may
            /// pass later.
            pub fn attach(region: Region<'a>) -> Result<Self, ::abi_runtime::AttachError> {
                let attached = ::abi_runtime::attach::attach(region, &#hs, &#table)?;
                Ok(Self {
                    region,
                    producer: attached.producer,
                    header_size: attached.header_size,
                    extent: attached.extent,
                    table: attached.table,
                    generation: attached.generation,
                    host: false,
                })
            }
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
            ) -> Result<::abi_runtime::produce::Image, ::abi_runtime::produce::ProduceError> {
                #[allow(unused_mut, reason = "a schema without protocol start words sets nothing in the image")]
                let mut image = ::abi_runtime::produce::lay_out(&#hs, &#table, geometry, generation)?;
                #initial_states
                Ok(image)
            }
            #stamp
            /// Writes an image from [`Self::lay_out`] into `region` (the state not running,
            /// a release fence, the bytes, then the state running, with release) and
            /// attaches to it. The handle is the host's own: its blocks are handed out
            /// whatever the host's state and generation (the host's reload and exit move no
            /// table); a re-layout produces a new one.
            pub fn produce(
                region: Region<'a>,
                image: &::abi_runtime::produce::Image,
            ) -> Result<Self, ::abi_runtime::produce::ProduceError> {
                ::abi_runtime::produce::write(region, image)?;
                let mut handle = Self::attach(region).map_err(::abi_runtime::produce::ProduceError::Refused)?;
                handle.host = true;
                Ok(handle)
            }
            /// The writer's generation when attach checked the tables (when the schema names one).
            pub fn generation(&self) -> Option<u64> {
                self.generation
            }
            /// Whether the writer has reloaded (a new generation) or left running since attach:
            /// then the tables this handle checked may be gone, and the bot must attach again.
            /// One or two acquire loads.
            pub fn reloaded(&self) -> bool {
                ::abi_runtime::attach::reloaded(self.region, &#hs, self.generation)
            }
            /// The producer's version: its major is ours; its minor may be older or newer.
            pub fn producer(&self) -> ::abi_runtime::attach::Version {
                self.producer
            }
            /// The header's size as the producer built it.
            pub fn header_size(&self) -> usize {
                self.header_size
            }
            /// The bytes the image spans.
            pub fn extent(&self) -> usize {
                self.extent
            }
        }
    } else {
        quote! {
            /// The producer's version, as attach read it from the root header.
            pub fn producer(&self) -> ::abi_runtime::attach::Version {
                self.producer
            }
        }
    };
    let fields = if root {
        quote! {
            region: Region<'a>,
            producer: ::abi_runtime::attach::Version,
            header_size: usize,
            extent: usize,
            table: ::abi_runtime::attach::PlacedTable,
            generation: Option<u64>,
            /// Made by `produce`: the host's own handle, whose blocks its own reload and exit
            /// do not take away.
            host: bool,
        }
    } else {
        quote! {
            region: Region<'a>,
            producer: ::abi_runtime::attach::Version,
            table: ::abi_runtime::attach::PlacedTable,
        }
    };
    let doc = if root {
        format!(
            " An attached `{}` image: every check passed; one accessor per region of table `{}`. {}",
            abi.name, l.name, l.doc
        )
    } else {
        format!(
            " A block laid out by table `{}`: one accessor per region. {}",
            l.name, l.doc
        )
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone)]
        pub struct #ty<'a> { #fields }

        impl<'a> #ty<'a> {
            #attach_fn
            /// The whole mapping.
            pub fn region(&self) -> Region<'a> {
                self.region
            }
            /// Where each region is, as attach checked it.
            pub fn table(&self) -> &::abi_runtime::attach::PlacedTable {
                &self.table
            }
            #header
            #(#rows)*
            #sessions
        }
    }
}

/// The producer's stores of the protocol words that must not start at zero
/// (`live_plan::initial_words`), in every row that holds their struct, in every table: one
/// `abi_runtime::produce::set_words` call over the list, or nothing when it is empty.
fn initial_states(
    schema: &Schema,
    hs: &proc_macro2::Ident,
    root: &proc_macro2::Ident,
) -> TokenStream {
    let mut words = Vec::new();
    for w in crate::language_backend::live_plan::initial_words(schema) {
        let (offset, width, value) = (lit(w.offset), lit(w.width), lit(w.value));
        for t in &schema.attach.layouts {
            for r in &t.rows {
                if matches!(r.holds, Holds::Struct { struct_index, .. } if struct_index == w.struct_index)
                {
                    let (table, row) = (&t.name, &r.name);
                    words.push(quote! {
                        ::abi_runtime::produce::RowWord { table: #table, row: #row, field: ::abi_runtime::attach::Field { offset: #offset, width: #width }, value: #value }
                    });
                }
            }
        }
    }
    if words.is_empty() {
        return TokenStream::new();
    }
    quote! {
        ::abi_runtime::produce::set_words(&mut image, &#hs, &#root, &[#(#words),*])?;
    }
}

/// `stamp_identity(image, identity)` when the handshake names who produced the record: each
/// field the schema names, as `abi_runtime::identity::IdentitySpec` takes it.
fn stamp_identity(identity: &crate::ir::attach::Identity) -> TokenStream {
    if identity.is_empty() {
        return quote!();
    }
    let field = |s: &Option<crate::ir::scalar::Scalar>| match s {
        Some(s) => {
            let (path, at, width) = (&s.path, s.offset as usize, s.width as usize);
            quote!(Some((#path, ::abi_runtime::attach::Field { offset: #at, width: #width })))
        }
        None => quote!(None),
    };
    let (pid, mono, unix) = (
        field(&identity.pid),
        field(&identity.mono_ns),
        field(&identity.unix_ns),
    );
    let version = match &identity.version {
        Some(s) => {
            let (path, at, len) = (&s.path, s.offset as usize, s.width as usize);
            quote!(Some((#path, ::abi_runtime::identity::TextField { offset: #at, len: #len })))
        }
        None => quote!(None),
    };
    quote! {
        /// Stamps a laid-out image with who produced it, before [`Self::produce`]: the
        /// process id, the version string and the clock pair the handshake names
        /// (`abi_runtime::identity`: `Identity::now(version)` reads this process and its
        /// clocks). `TooLarge` when the version does not fit its field with its NUL.
        pub fn stamp_identity(
            image: &mut ::abi_runtime::produce::Image,
            identity: &::abi_runtime::identity::Identity,
        ) -> Result<(), ::abi_runtime::produce::ProduceError> {
            const SPEC: ::abi_runtime::identity::IdentitySpec<'static> = ::abi_runtime::identity::IdentitySpec {
                pid: #pid,
                version: #version,
                mono_ns: #mono,
                unix_ns: #unix,
            };
            ::abi_runtime::identity::stamp(image, &SPEC, identity)
        }
    }
}
