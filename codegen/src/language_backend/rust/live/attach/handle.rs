//! A layout's typed handle in the live layer: one accessor per region (its bytes, its view,
//! ring or blocks, its protocols), and the root's attach, lay out, stamp and produce.

use crate::language_backend::rust::docs::doc_lit;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ir::access::RingKind;
use crate::ir::attach::{Holds, LayoutTable, Row};
use crate::language_backend::rust::live::tokens::{lit, opt_index, spec_ident};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::plan::live::has_view;
use crate::schema::Schema;

/// The handle of one layout: the root's attaches; a nested one is a block of another.
pub(super) fn expand_handle(schema: &Schema, l: &LayoutTable, root: bool) -> TokenStream {
    let abi = &schema.abi;
    let ty = type_ident(&l.name);
    let header_view = has_view(schema, l.header);
    let header = header_accessor(schema, l, header_view);
    let this_table = spec_ident(&l.name, "TABLE");
    let live_check = live_checks(schema, l, root);
    let rows = (l.rows.iter().enumerate())
        .map(|(k, r)| row_accessors(schema, l, k, r, header_view, &live_check, &this_table));
    let sessions = if header_view {
        crate::language_backend::rust::live::session::handle_accessors(schema, l)
    } else {
        quote!()
    };
    let attach_fn = if root {
        root_methods(schema, l)
    } else {
        quote! {
            /// The producer's version, as attach read it from the root header.
            pub fn producer(&self) -> ::abi_runtime::attach::Version {
                self.producer
            }
        }
    };
    let laid_out_field = quote! {
        /// The image the host laid out, kept by its own handle (made by `produce`; `None`
        /// for a handle that attached): the host's side reads its tables and geometry
        /// there, never from the bytes a client can write.
        laid_out: Option<::std::sync::Arc<::abi_runtime::laid_out::LaidOut>>,
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
            #laid_out_field
        }
    } else {
        quote! {
            region: Region<'a>,
            producer: ::abi_runtime::attach::Version,
            table: ::abi_runtime::attach::PlacedTable,
            #laid_out_field
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
            /// The image the host laid out, when this is the host's own handle (or a block
            /// of it): the tables and geometry its side trusts. `None` after an attach.
            pub fn laid_out(&self) -> Option<&::abi_runtime::laid_out::LaidOut> {
                self.laid_out.as_deref()
            }
            #header
            #(#rows)*
            #sessions
        }
    }
}

/// `header()`: the header's live view, when it has one (by the producer's size when the
/// header is extensible).
fn header_accessor(schema: &Schema, l: &LayoutTable, header_view: bool) -> TokenStream {
    let header_ty = type_ident(&schema.abi.structs[l.header].name);
    if header_view
        && crate::language_backend::rust::live::added::extensible(schema, l.header).is_some()
    {
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
    }
}

/// The checks a root handle's block accessor makes before and after it reads the block's
/// tables: the writer still runs the generation attach checked, then, after an acquire
/// fence, still does (the root attach's re-check: tables read while the writer reloaded are
/// never handed out); nothing for a nested layout.
fn live_checks(schema: &Schema, l: &LayoutTable, root: bool) -> (TokenStream, TokenStream) {
    let before = live_check(schema, l, root, quote!(still_running));
    let after = live_check(schema, l, root, quote!(still_running_after_read));
    (before, after)
}

/// One of [`live_checks`]: `check` is the runtime's function.
fn live_check(schema: &Schema, l: &LayoutTable, root: bool, check: TokenStream) -> TokenStream {
    // The root's blocks are handed out only while its writer still runs the generation
    // attach checked (ATTACH.md: a block of a reloaded host's old tables is never given).
    if root {
        let h = schema
            .attach
            .handshakes
            .iter()
            .find(|h| h.struct_index == l.header);
        h.map_or_else(TokenStream::new, |h| {
            let hs = spec_ident(&schema.abi.structs[h.struct_index].name, "HANDSHAKE");
            quote! {
                if !self.host {
                    ::abi_runtime::attach::#check(self.region, &#hs, self.generation)?;
                }
            }
        })
    } else {
        TokenStream::new()
    }
}

/// Row `k`'s accessors: its bytes, its typed view, ring or blocks, and its protocols.
fn row_accessors(
    schema: &Schema,
    l: &LayoutTable,
    k: usize,
    r: &Row,
    header_view: bool,
    (live_check, live_recheck): &(TokenStream, TokenStream),
    this_table: &proc_macro2::Ident,
) -> TokenStream {
    let abi = &schema.abi;
    let at = lit(k as u64);
    let region_fn = format_ident!("{}_region", r.name);
    let region_doc = doc_lit!(
        " The bytes of region `{}`, or `None` when it is absent. {}",
        r.name,
        r.doc
    );
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
            let doc = doc_lit!(
                " The live view of region `{}`, or `None` when it is absent.",
                r.name
            );
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
                let doc = doc_lit!(
                    " The ring in region `{}`, with the slot count and size its writer built it with (as attach checked them), or `None` when it is absent.",
                    r.name
                );
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
            let doc = doc_lit!(
                " Block `i` (of {count}) of region `{}`, checked now (on its first use, and on each): `Ok(None)` when the region is absent or `i` out of range, an error naming the block when it fails a check. Other blocks are not looked at.",
                r.name
            );
            quote! {
                #[doc = #count_doc]
                pub const #count_ident: usize = #n;
                #[doc = #doc]
                pub fn #get(&self, i: usize) -> Result<Option<#bt<'a>>, ::abi_runtime::AttachError> {
                    // The host's own handle: the block as it laid it out.
                    if self.laid_out.is_some() {
                        return Ok(self.table.block(#at, i).cloned().map(|table| #bt { region: self.region, producer: self.producer, table, laid_out: self.laid_out.clone() }));
                    }
                    #live_check
                    let found = ::abi_runtime::attach::block(self.region, self.producer, &#this_table, &self.table, #at, i)?;
                    #live_recheck
                    Ok(found.map(|table| #bt { region: self.region, producer: self.producer, table, laid_out: None }))
                }
            }
        }
        _ => quote!(),
    };
    let protocols = crate::language_backend::rust::live::protocols::row_accessors(schema, l, k);
    quote!(#region #typed #protocols)
}

/// The root handle's own methods: attach, lay out, stamp and produce an image, and what
/// attach read (generation, producer, header size, extent).
fn root_methods(schema: &Schema, l: &LayoutTable) -> TokenStream {
    let abi = &schema.abi;
    let h = schema
        .attach
        .handshakes
        .iter()
        .find(|h| h.struct_index == l.header)
        .expect("the root's header has a handshake");
    let hs = spec_ident(&abi.structs[h.struct_index].name, "HANDSHAKE");
    let table = spec_ident(&l.name, "TABLE");
    let initial_states = initial_states(schema, &hs, &table);
    let carried = carried_rows(schema);
    let stamp = stamp_identity(&h.identity);
    let relayout = super::relayout::relayout_method(schema);
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
                laid_out: None,
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
            #carried
            Ok(image)
        }
        #stamp
        #relayout
        /// Writes an image from [`Self::lay_out`] into `region` (the state not running,
        /// a release fence, the bytes, then the state running, with release) and
        /// attaches to it. The handle is the host's own: its blocks are handed out
        /// whatever the host's state and generation (the host's reload and exit move no
        /// table); a re-layout produces a new one. It keeps the image: its tables, and the
        /// geometry its side of each protocol reads, are the image's, never read back from
        /// the mapping, whose blocks a client can write.
        pub fn produce(
            region: Region<'a>,
            image: &::abi_runtime::produce::Image,
        ) -> Result<Self, ::abi_runtime::produce::ProduceError> {
            let laid_out = ::abi_runtime::laid_out::LaidOut::new(image, &#hs, &#table)?;
            ::abi_runtime::produce::write(region, image)?;
            let mut handle = Self::attach(region).map_err(::abi_runtime::produce::ProduceError::Refused)?;
            handle.host = true;
            // Every table as the host laid it out (each block placed), never as the mapping
            // says now: a client can write its blocks' tables.
            handle.table = laid_out.table().clone();
            handle.laid_out = Some(::std::sync::Arc::new(laid_out));
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
}

/// The producer's stores of the protocol words that must not start at zero
/// (`plan::live::initial_words`), in every row that holds their struct, in every table: one
/// `abi_runtime::produce::set_words` call over the list, or nothing when it is empty.
fn initial_states(
    schema: &Schema,
    hs: &proc_macro2::Ident,
    root: &proc_macro2::Ident,
) -> TokenStream {
    let mut words = Vec::new();
    for w in crate::plan::live::initial_words(schema) {
        let (offset, width, value) = (lit(w.offset), lit(w.width), lit(w.value));
        for t in &schema.attach.layouts {
            for r in &t.rows {
                if matches!(r.holds, Holds::Struct { struct_index, .. } if struct_index == w.struct_index)
                {
                    let (table, row) = (&t.name, &r.name);
                    words.push(quote! {
                        ::abi_runtime::produce::RowWord { table: #table, row: #row, field: ::abi_runtime::attach::Field::new(#offset, #width), value: #value }
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

/// The session tables whose row generations `produce` carries past the mapping's
/// (`plan::session::carried_rows`), named in the image.
fn carried_rows(schema: &Schema) -> TokenStream {
    let rows = crate::plan::session::carried_rows(schema).into_iter().map(|c| {
        let name = type_ident(&schema.protocols[c.session].name);
        let (at, rows, stride) = (lit(c.at), lit(c.rows), lit(c.stride));
        quote! {
            image.sessions.push(::abi_runtime::produce::SessionRows { at: #at, rows: #rows, stride: #stride, spec: #name::SPEC });
        }
    });
    quote!(#(#rows)*)
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
            quote!(Some((#path, ::abi_runtime::attach::Field::new(#at, #width))))
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
