//! The Rust live layer: `pub mod live`, views of the structs that live in shared memory.
//! A view is a bounds-checked `abi_runtime::Region`, never a reference; every field is
//! read and written through the runtime's atomics at the offsets of the layout, with the
//! orderings the schema's access implies. Seqlocks read into value types and retry; rings
//! find their newest slot or the events since a count.
//!
//! One `expand_*` per kind of thing; the hard parts (raw pointers, atomic copies, the
//! seqlock's orderings) are hand-written once in the `abi-runtime` crate.

mod accessors;
mod added;
mod attach;
mod directory;
mod exchange;
mod mailbox;
mod protocol_common;
mod protocols;
mod ring;
mod seqlock;
mod session;
mod session_restore;
mod session_scoped;
mod tokens;
mod wake_store;

use crate::language_backend::rust::docs::doc_lit;
use crate::plan::tries::HOST_TRIES;
use proc_macro2::TokenStream;
use quote::quote;

use super::names::type_ident;
use crate::ir::StructId;
use crate::plan::live::has_view;
use crate::schema::Schema;
use accessors::expand_accessors;
use ring::expand_ring;
use seqlock::{expand_seqlock_methods, expand_seqlock_value};
use tokens::lit;

/// One piece of `pub mod live`, expanded, parsed and printed on its own, so that a large
/// schema's live layer is printed in parts like the rest of the file (its tokens and syn
/// tree for 10,000 views at once took most of the run's peak memory: bench/README.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LivePiece {
    View(StructId),
    Lock(usize),
    Ring(usize),
    Protocols,
    Sessions,
    Directories,
    Attach,
}

/// The live module's pieces, in the order the module holds them.
pub fn live_pieces(schema: &Schema) -> Vec<LivePiece> {
    (schema.abi.struct_ids())
        .filter(|&i| has_view(schema, i))
        .map(LivePiece::View)
        .chain((0..schema.access.seqlocks.len()).map(LivePiece::Lock))
        .chain((0..schema.access.rings.len()).map(LivePiece::Ring))
        .chain([
            LivePiece::Protocols,
            LivePiece::Sessions,
            LivePiece::Directories,
            LivePiece::Attach,
        ])
        .collect()
}

/// Roughly how much a piece costs to expand, parse and print: one per field, more for a
/// protocol's or attach's generated types.
pub fn piece_weight(schema: &Schema, piece: LivePiece) -> usize {
    match piece {
        LivePiece::View(i) => 3 + schema.abi.structs[i].fields.len(),
        LivePiece::Lock(_) | LivePiece::Ring(_) => 10,
        LivePiece::Protocols => 20 * schema.protocols.len(),
        LivePiece::Sessions | LivePiece::Directories => 20,
        LivePiece::Attach => {
            10 + 5 * (schema.attach.handshakes.len() + schema.attach.layouts.len())
        }
    }
}

/// The items of one piece.
pub fn expand_piece(schema: &Schema, piece: LivePiece) -> TokenStream {
    match piece {
        LivePiece::View(i) => expand_view(schema, i),
        LivePiece::Lock(i) => expand_seqlock_value(schema, &schema.access.seqlocks[i]),
        LivePiece::Ring(i) => expand_ring(schema, &schema.access.rings[i]),
        LivePiece::Protocols => protocols::expand_protocols(schema),
        LivePiece::Sessions => {
            let mut items = session::expand_sessions(schema);
            items.extend(wake_store::expand_wake_stores(schema));
            items
        }
        LivePiece::Directories => directory::expand_directories(schema),
        LivePiece::Attach => attach::expand_attach(schema),
    }
}

/// `pub mod live { ... }` around `items`: with the module's doc, lint settings and imports
/// when `head` (the pieces printed first), and without them otherwise.
pub fn expand_module(schema: &Schema, head: bool, items: TokenStream) -> TokenStream {
    if !head {
        return quote!(pub mod live { #items });
    }
    let doc = doc_lit!(
        " Live views of the {} ABI's shared memory: every access is atomic, at the layout's offsets.\n\n \
         A view wraps an [`abi_runtime::Region`] (a pointer and a length, checked once when the view is \
         built), never a reference: memory another process writes must not be behind a `&T`. Atomic \
         fields load with acquire and store with release; plain fields are copied with relaxed atomic \
         loads; the bytes a seqlock guards are read into value types and re-checked, with a bounded \
         number of tries.",
        schema.abi.name
    );
    let imports = expand_imports(schema);
    let seqlocks = !schema.access.seqlocks.is_empty();
    let host_tries = seqlocks.then(|| {
        let n = proc_macro2::Literal::u32_unsuffixed(HOST_TRIES);
        quote! {
            /// Tries of a host's read of a record its client writes (a pad, a client's
            /// parameter definitions, its stats) when it names none: a client that died
            /// mid-write leaves the counter odd, and a host that serves every row each tick
            /// must not wait for it (docs/hosts.md, "A host's cost per tick").
            pub const HOST_TRIES: u32 = #n;
        }
    });
    quote! {
        #[doc = #doc]
        pub mod live {
            #![allow(
                clippy::must_use_candidate,
                reason = "a view's getters are loads from shared memory: one discarded is harmless, and a must_use on each of hundreds is noise"
            )]
            #![allow(
                clippy::missing_errors_doc,
                clippy::missing_panics_doc,
                reason = "each view, seqlock and ring documents its errors and panics once, on the type"
            )]
            #![allow(
                clippy::unreadable_literal,
                reason = "offsets and sizes are written as the layout report prints them"
            )]
            #![allow(
                clippy::cast_possible_truncation,
                reason = "each cast narrows a value checked against the layout's bounds first"
            )]
            #imports
            #host_tries
            #items
        }
    }
}

/// The view of struct `si`: its type, constants and methods, the methods that write in an
/// `impl` block of their own (none when it has none).
fn expand_view(schema: &Schema, si: StructId) -> TokenStream {
    let s = &schema.abi.structs[si];
    let l = schema.layout.of(si);
    let a = &schema.access.structs[si];
    let ty = type_ident(&s.name);
    let size = lit(l.size);
    let align = lit(l.align);
    let trailer_min: u64 = a
        .trailer
        .iter()
        .map(|t| if t.size_field.is_some() { 0 } else { t.size })
        .sum();
    let min_len = lit(l.size + trailer_min);
    let writers = a.writers.describe(&schema.access.parties);
    let doc = doc_lit!(
        " A live view of [`super::{ty}`] in shared memory ({} bytes, align {}){}.",
        l.size,
        l.align,
        if writers.is_empty() {
            String::new()
        } else {
            format!(", written by the {writers}")
        }
    );
    let handshake = added::extensible(schema, si);
    // A view with a trailer gives `view!` its `MIN_LEN`, that of an extensible record its
    // `BASE_SIZE` (`at` from the end of the region, and `at_len`).
    let trailer = (!a.trailer.is_empty()).then(|| quote!(, trailer #min_len));
    let base = handshake.map(|h| {
        let base = lit(h.base_size);
        quote!(, base #base)
    });
    let accessors = s.fields.iter().enumerate().map(|(fi, f)| {
        match handshake.and_then(|h| h.added.iter().find(|a| a.field == fi)) {
            Some(a) => {
                let since = a.since.to_string();
                let gate = accessors::Gate {
                    offset: a.offset,
                    end: a.end,
                    since: since.clone(),
                };
                let methods = expand_accessors(schema, si, fi, f, l, Some(gate));
                added::gate_accessors(methods, a.offset, a.end, &since)
            }
            None => expand_accessors(schema, si, fi, f, l, None),
        }
    });
    let locks = a
        .seqlocks
        .iter()
        .map(|&k| expand_seqlock_methods(schema, &schema.access.seqlocks[k]));
    let (mut reads, mut writes) = (TokenStream::new(), TokenStream::new());
    let (mut read_lines, mut write_lines) = (TokenStream::new(), TokenStream::new());
    for m in accessors.chain(locks) {
        reads.extend(m.read);
        writes.extend(m.write);
        read_lines.extend(m.read_lines);
        write_lines.extend(m.write_lines);
    }
    // The simple accessors, one line each (`reflow.rs` prints them so).
    let read_lines =
        (!read_lines.is_empty()).then(|| quote!(::abi_runtime::view_accessors! { #read_lines }));
    let write_lines =
        (!write_lines.is_empty()).then(|| quote!(::abi_runtime::view_accessors! { #write_lines }));
    // The methods that write, in their own block: one bound for all of them.
    let writes = (!writes.is_empty() || write_lines.is_some()).then(|| {
        quote! {
            impl<A: ::abi_runtime::Writable> #ty<'_, A> {
                #write_lines
                #writes
            }
        }
    });
    // One line of the runtime's `view!` (`reflow.rs` prints it so), the getters in a block
    // of their own. `'a` only where a getter returns something that borrows the region (a
    // nested view): elsewhere clippy asks for `'_`.
    let borrows = reads.to_string().contains("'a");
    let reads = (read_lines.is_some() || !reads.is_empty()).then(|| {
        if borrows {
            quote! {
                impl<'a, A: ::abi_runtime::Access> #ty<'a, A> {
                    #read_lines
                    #reads
                }
            }
        } else {
            quote! {
                impl<A: ::abi_runtime::Access> #ty<'_, A> {
                    #read_lines
                    #reads
                }
            }
        }
    });
    quote! {
        ::abi_runtime::view! { #[doc = #doc] #ty: size #size, align #align #trailer #base; }
        #reads
        #writes
    }
}

/// The live module's imports: only what its items use, so that no schema's bindings warn
/// of an unused import (a schema with atomics and no seqlock uses no `SeqLock`). Orderings
/// are spelled out (`::core::sync::atomic::Ordering::Acquire`): the few left outside
/// `abi_runtime::view_accessors!` do not follow one rule a `use` could.
fn expand_imports(schema: &Schema) -> TokenStream {
    let seqlocks = !schema.access.seqlocks.is_empty();
    let mut runtime = vec![quote!(Region), quote!(RegionError)];
    if seqlocks {
        runtime.extend([quote!(SeqLock), quote!(SeqLockError)]);
    }
    let zerocopy = seqlocks.then(|| {
        quote!(
            use ::zerocopy::{FromZeros, IntoBytes};
        )
    });
    // A schema whose views are all of fixed-size structs (each one line of `view!`, which
    // names `$crate::Region`) and has no seqlock, trailer, extensible record or protocol
    // uses neither import.
    quote! {
        #[allow(unused_imports, reason = "fixed-size views name the runtime's types through `view!`")]
        use ::abi_runtime::{#(#runtime),*};
        #zerocopy
    }
}

#[cfg(test)]
mod tests {
    use super::{LivePiece, expand_imports, expand_piece};
    use crate::ir::names::{RUST_LIVE_IMPORTS, camel};

    /// The keywords that name a type in a line of the runtime's sides macros.
    const SIDE_KEYWORDS: [&str; 7] = [
        "response", "client", "server", "writer", "reader", "read", "list",
    ];

    /// The types the protocol and session pieces define are exactly the ones each
    /// protocol's `rust_type_suffixes` names, which lowering keeps apart from every other
    /// type of the live module: the bridge has one protocol of each kind, and a session that
    /// binds a pad.
    #[test]
    fn each_protocol_defines_the_types_lowering_reserves_for_it() {
        let src = include_str!("../../../../../schema.toml");
        let schema = crate::schema::load_schema(src).expect("the bridge schema loads");
        let mut printed = Vec::new();
        for piece in [LivePiece::Protocols, LivePiece::Sessions] {
            let file: syn::File = syn::parse2(expand_piece(&schema, piece)).expect("parses");
            for item in &file.items {
                match item {
                    syn::Item::Struct(s) => printed.push(s.ident.to_string()),
                    syn::Item::Enum(e) => printed.push(e.ident.to_string()),
                    syn::Item::Type(t) => printed.push(t.ident.to_string()),
                    // The sides of a protocol are lines of the runtime's macros: the type
                    // follows its keyword (`client MailboxClient;`).
                    syn::Item::Macro(m)
                        if m.mac.path.segments.last().is_some_and(|s| {
                            ["mailbox_sides", "entry_sides", "exchange_sides"]
                                .contains(&s.ident.to_string().as_str())
                        }) =>
                    {
                        let tokens: Vec<proc_macro2::TokenTree> =
                            m.mac.tokens.clone().into_iter().collect();
                        for pair in tokens.windows(2) {
                            if let [
                                proc_macro2::TokenTree::Ident(k),
                                proc_macro2::TokenTree::Ident(t),
                            ] = pair
                                && SIDE_KEYWORDS.contains(&k.to_string().as_str())
                            {
                                printed.push(t.to_string());
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        printed.sort();
        let mut expected: Vec<String> = (schema.protocols.iter())
            .flat_map(|p| {
                let base = camel(&p.name);
                (p.rust_type_suffixes().iter()).map(move |suffix| format!("{base}{suffix}"))
            })
            .collect();
        expected.sort();
        assert_eq!(printed, expected);
    }

    /// Every name the live module can import is one lowering keeps views, seqlocks, rings
    /// and layout handles off (`ir::names::RUST_LIVE_IMPORTS`): the bridge uses all of them.
    #[test]
    fn the_imports_are_the_names_lowering_reserves() {
        fn leaves(prefix: String, tree: &syn::UseTree, out: &mut Vec<(String, String)>) {
            match tree {
                syn::UseTree::Path(p) => leaves(format!("{prefix}::{}", p.ident), &p.tree, out),
                syn::UseTree::Name(n) => {
                    out.push((n.ident.to_string(), format!("{prefix}::{}", n.ident)))
                }
                syn::UseTree::Group(g) => {
                    for t in &g.items {
                        leaves(prefix.clone(), t, out);
                    }
                }
                _ => panic!("a glob or renamed import"),
            }
        }
        let src = include_str!("../../../../../schema.toml");
        let schema = crate::schema::load_schema(src).expect("the bridge schema loads");
        let file: syn::File = syn::parse2(expand_imports(&schema)).expect("imports parse");
        let mut imported = Vec::new();
        for item in &file.items {
            let syn::Item::Use(u) = item else {
                panic!("not an import")
            };
            leaves(String::new(), &u.tree, &mut imported);
        }
        imported.sort();
        let mut reserved: Vec<(String, String)> = (RUST_LIVE_IMPORTS.iter())
            .map(|(name, path)| (name.to_string(), path.to_string()))
            .collect();
        reserved.sort();
        assert_eq!(imported, reserved);
    }
}
