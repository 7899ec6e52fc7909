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

/// The handle of one layout: the root's attaches; a nested one is a block of another. The
/// type and what attach found are one line of `abi_runtime::layout_handle!`, each region's
/// accessors one line of `abi_runtime::handle_accessors!`.
pub(super) fn expand_handle(schema: &Schema, l: &LayoutTable, root: bool) -> TokenStream {
    let abi = &schema.abi;
    let ty = type_ident(&l.name);
    let header_view = has_view(schema, l.header);
    let header = header_entry(schema, l, header_view);
    let this_table = spec_ident(&l.name, "TABLE");
    let live = if root { handshake_of(schema, l) } else { None };
    let rows = (l.rows.iter().enumerate())
        .map(|(k, r)| row_entries(schema, l, k, r, header_view, live.as_ref(), &this_table));
    let sessions = if header_view {
        crate::language_backend::rust::live::session::handle_accessors(schema, l)
    } else {
        quote!()
    };
    let (kind, root_fns) = if root {
        let hs = live.clone().expect("the root's header has a handshake");
        (
            quote!(root #ty: handshake #hs, table #this_table;),
            root_methods(schema, l),
        )
    } else {
        (quote!(block #ty;), quote!())
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
    let doc = doc_lit!("{}", doc.trim_end());
    quote! {
        ::abi_runtime::layout_handle! {
            #[doc = #doc] #kind
        }
        impl<'a> #ty<'a> {
            #root_fns
            ::abi_runtime::handle_accessors! {
                #header
                #(#rows)*
            }
            #sessions
        }
    }
}

/// The `static` handshake spec of a layout's header, when the schema declares one.
fn handshake_of(schema: &Schema, l: &LayoutTable) -> Option<proc_macro2::Ident> {
    let h = (schema.attach.handshakes.iter()).find(|h| h.struct_index == l.header)?;
    Some(spec_ident(
        &schema.abi.structs[h.struct_index].name,
        "HANDSHAKE",
    ))
}

/// `header()`: the header's live view, when it has one (by the producer's size when the
/// header is extensible).
fn header_entry(schema: &Schema, l: &LayoutTable, header_view: bool) -> TokenStream {
    let header_ty = type_ident(&schema.abi.structs[l.header].name);
    if header_view
        && crate::language_backend::rust::live::added::extensible(schema, l.header).is_some()
    {
        let doc = [
            " The header's live view, as long as its producer built it (`header_size`):",
            " the fields a later minor version added are absent from an older producer's.",
        ];
        quote!(#(#[doc = #doc])* header_len header: #header_ty;)
    } else if header_view {
        quote!(#[doc = " The header's live view."] header header: #header_ty;)
    } else {
        quote!()
    }
}

/// Row `k`'s entries: its bytes, its typed view, ring or blocks, and its protocols. A root's
/// blocks (`live`: its handshake) are handed to a client only while the writer still runs the
/// generation attach checked (ATTACH.md: a block of a reloaded host's old tables is never
/// given).
fn row_entries(
    schema: &Schema,
    l: &LayoutTable,
    k: usize,
    r: &Row,
    header_view: bool,
    live: Option<&proc_macro2::Ident>,
    this_table: &proc_macro2::Ident,
) -> TokenStream {
    let abi = &schema.abi;
    let at = lit(k as u64);
    let region_fn = format_ident!("{}_region", r.name);
    let region_doc = format!(
        " The bytes of region `{}`, or `None` when it is absent. {}",
        r.name, r.doc
    );
    let region_doc = doc_lit!("{}", region_doc.trim_end());
    let region = quote!(#[doc = #region_doc] region #region_fn @ #at;);
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
            quote!(#[doc = #doc] view #get @ #at: #v;)
        }
        Holds::Ring { ring } => match &schema.access.rings[*ring].kind {
            RingKind::Slots { head, .. } if head.struct_index == l.header && header_view => {
                let rt = type_ident(&schema.access.rings[*ring].name);
                let (count, size) = (opt_index(r.follows.count), opt_index(r.follows.size));
                let doc = doc_lit!(
                    " The ring in region `{}`, with the slot count and size its writer built it with (as attach checked them), or `None` when it is absent.",
                    r.name
                );
                quote!(#[doc = #doc] ring #get @ #at: #rt, #count, #size;)
            }
            _ => quote!(),
        },
        Holds::Blocks { layout, count, .. } => {
            let bt = type_ident(&schema.attach.layouts[*layout].name);
            let n = lit(*count);
            let count_ident = format_ident!("{}_COUNT", r.name.to_uppercase());
            let doc = doc_lit!(
                " Block `i` (of {count}) of region `{}`, checked now (on its first use, and on each): `Ok(None)` when the region is absent or `i` out of range, an error naming the block when it fails a check. Other blocks are not looked at.",
                r.name
            );
            let live = live.map(|hs| quote!(, live #hs));
            quote!(#[doc = #doc] blocks #get @ #at: #bt, #count_ident = #n, #this_table #live;)
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
