//! The region protocols in the live layer (`[[queue]]`, `[[broadcast]]`, `[[mailbox]]`,
//! `[[exchange]]`): per protocol, each side as a typed wrapper of its `abi_runtime` primitive
//! (which holds the orderings and checks), with the schema's offsets as a static spec and the
//! entries, answers and lists as value types; and the accessors that reach them from an
//! attached layout's handle.

use crate::language_backend::rust::docs::doc_lit;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::exchange::expand_exchange;
use super::mailbox::expand_mailbox;
use super::protocol_common::{protocol_doc, struct_size, value_type};
use super::tokens::{field, lit, offset};
use crate::ir::StructId;
use crate::ir::attach::{Holds, LayoutTable};
use crate::ir::protocol::{Broadcast, Entry, Protocol, ProtocolKind, Queue};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::schema::Schema;

/// Every region protocol's types (the sessions are `super::session`'s).
pub(super) fn expand_protocols(schema: &Schema) -> TokenStream {
    let items = schema.protocols.iter().map(|p| match &p.kind {
        ProtocolKind::Queue(q) => expand_queue(schema, p, q),
        ProtocolKind::Broadcast(b) => expand_broadcast(schema, p, b),
        ProtocolKind::Mailbox(m) => expand_mailbox(schema, p, m),
        ProtocolKind::Exchange(e) => expand_exchange(schema, p, e),
        ProtocolKind::Session(_) => TokenStream::new(),
    });
    quote!(#(#items)*)
}

/// The entry format's spec and its parts.
fn entry_spec(schema: &Schema, e: &Entry) -> (TokenStream, TokenStream) {
    let s = e.struct_index;
    let (size, kind) = (field(schema, s, e.size), field(schema, s, e.kind));
    let (padding, header) = (lit(e.padding), struct_size(schema, s));
    let parts = e.parts.iter().map(|p| {
        let (len, max) = (field(schema, s, p.len), lit(p.max));
        quote!(::abi_runtime::entry_parts::PartSpec { len: #len, max: #max })
    });
    (
        quote!(::abi_runtime::byte_queue::EntryFormat { size: #size, kind: #kind, padding: #padding, header: #header }),
        quote!(&[#(#parts),*]),
    )
}

/// The entry value type `<Name>Entry` (the header's value and one `Vec` per part), its
/// decoding from a whole entry, and the `push` arguments and composition.
struct EntryTokens {
    ty: proc_macro2::Ident,
    item: TokenStream,
    /// `source: &[u8], text: &[u8]`
    params: Vec<TokenStream>,
    /// `&[source, text]`
    values: TokenStream,
}

fn entry_tokens(schema: &Schema, name: &str, e: &Entry, error: &TokenStream) -> EntryTokens {
    let ty = format_ident!("{}Entry", type_ident(name));
    let head = value_type(schema, e.struct_index);
    let head_name = &schema.abi.structs[e.struct_index].name;
    let head_size = struct_size(schema, e.struct_index);
    let names: Vec<_> = e.parts.iter().map(|p| rust_ident(&p.name)).collect();
    let part_docs = e.parts.iter().map(|p| {
        doc_lit!(
            " The `{}` bytes (at most `{}`).",
            p.name,
            schema.abi.consts[p.max_const].name
        )
    });
    let doc =
        doc_lit!(" One entry of `{name}`, copied out: its `{head_name}` and each part after it.");
    let k = (0..names.len()).map(|k| lit(k as u64));
    let item = quote! {
        #[doc = #doc]
        #[derive(Clone, PartialEq)]
        pub struct #ty {
            /// The entry's header, as the writer wrote it (size, kind and the part lengths
            /// included).
            pub head: #head,
            #(#[doc = #part_docs] pub #names: Vec<u8>,)*
        }

        impl #ty {
            /// Splits a whole entry (a copy): the header, then each part, its length checked
            /// against its bound and the entry's size.
            fn split(bytes: &[u8], specs: &[::abi_runtime::entry_parts::PartSpec]) -> Result<Self, #error> {
                let mut parts = ::abi_runtime::entry_parts::split(bytes, #head_size, specs)?;
                let head = <#head as ::zerocopy::FromBytes>::read_from_prefix(bytes)
                    .map_or_else(|_| ::zerocopy::FromZeros::new_zeroed(), |(head, _)| head);
                Ok(Self { head, #(#names: ::core::mem::take(&mut parts[#k]),)* })
            }
        }
    };
    let params = names.iter().map(|n| quote!(#n: &[u8])).collect();
    let values = quote!(&[#(#names),*]);
    EntryTokens {
        ty,
        item,
        params,
        values,
    }
}

fn expand_queue(schema: &Schema, p: &Protocol, q: &Queue) -> TokenStream {
    let name = type_ident(&p.name);
    let (writer, reader) = (
        format_ident!("{}Writer", name),
        format_ident!("{}Reader", name),
    );
    let h = q.header;
    let (w, r, d, cap) = (
        offset(schema, h, q.write_pos),
        offset(schema, h, q.read_pos),
        offset(schema, h, q.dropped),
        field(schema, h, q.capacity),
    );
    let area = struct_size(schema, h);
    let (format, parts) = entry_spec(schema, &q.entry);
    let error = quote!(::abi_runtime::byte_queue::QueueError);
    let et = entry_tokens(schema, &p.name, &q.entry, &error);
    let (entry, item, params, values) = (&et.ty, &et.item, &et.params, &et.values);
    let head = value_type(schema, q.entry.struct_index);
    let record = lit(q.entry.record);
    let header = &schema.abi.structs[h].name;
    let doc = doc_lit!(
        " The writer's side of queue `{}` (one writer), over the `{header}` at the start of a region and the entries after it: [`{writer}::push`] returns whether the entry was dropped because the queue was full.{}",
        p.name,
        protocol_doc(p)
    );
    let rdoc = doc_lit!(
        " The reader's side of queue `{}` (one reader): [`{reader}::pop`] copies out the next entry, every size and length the writer wrote checked first.{}",
        p.name,
        protocol_doc(p)
    );
    quote! {
        #item

        ::abi_runtime::entry_sides! {
            queue;
            #[doc = #doc] writer #writer;
            #[doc = #rdoc] reader #reader: #entry;
        }

        impl #writer<'_> {
            /// Where the queue's fields are, from the start of its header.
            pub const SPEC: ::abi_runtime::byte_queue::QueueSpec = ::abi_runtime::byte_queue::QueueSpec {
                write_pos: #w, read_pos: #r, dropped: #d, capacity: #cap, area: #area, entry: #format,
            };
            /// Each part after an entry's header: its length field and its bound.
            pub const PARTS: &'static [::abi_runtime::entry_parts::PartSpec] = #parts;

            /// Appends an entry: `head` gives the header's own fields (its size, kind and part
            /// lengths are set here), then each part in order. `Ok(true)` when the queue was
            /// full and the entry was dropped (and counted); an error, with nothing written,
            /// when a part is longer than its bound or the reader's position cannot be right.
            pub fn push(&self, head: &#head, #(#params),*) -> Result<bool, #error> {
                let entry = ::abi_runtime::entry_parts::compose(Self::SPEC.entry.size, Self::SPEC.entry.kind, #record, ::zerocopy::IntoBytes::as_bytes(head), Self::PARTS, #values)?;
                Ok(self.queue.push(&entry)? == ::abi_runtime::byte_queue::Pushed::Dropped)
            }

        }
    }
}

fn expand_broadcast(schema: &Schema, p: &Protocol, b: &Broadcast) -> TokenStream {
    let name = type_ident(&p.name);
    let (writer, reader, read) = (
        format_ident!("{}Writer", name),
        format_ident!("{}Reader", name),
        format_ident!("{}Read", name),
    );
    let h = b.header;
    let (w, t, n, cap) = (
        offset(schema, h, b.write_pos),
        offset(schema, h, b.tail_pos),
        offset(schema, h, b.entries),
        field(schema, h, b.capacity),
    );
    let seq = offset(
        schema,
        b.entry.struct_index,
        b.entry.seq.expect("a broadcast entry has its seq"),
    );
    let area = struct_size(schema, h);
    let (format, parts) = entry_spec(schema, &b.entry);
    let error = quote!(::abi_runtime::broadcast_ring::RingError);
    let et = entry_tokens(schema, &p.name, &b.entry, &error);
    let (entry, item, params, values) = (&et.ty, &et.item, &et.params, &et.values);
    let head = value_type(schema, b.entry.struct_index);
    let record = lit(b.entry.record);
    let doc = doc_lit!(
        " The writer's side of broadcast ring `{}` (one writer): [`{writer}::push`] appends an entry, overwriting the oldest.{}",
        p.name,
        protocol_doc(p)
    );
    let rdoc = doc_lit!(
        " A reader of broadcast ring `{}` (any number, each with its own position): [`{reader}::read_next`] gives an entry, `Empty`, or `Lapped {{ missed }}`, never a torn entry.{}",
        p.name,
        protocol_doc(p)
    );
    let read_doc = doc_lit!(" What [`{reader}::read_next`] found.");
    quote! {
        #item

        ::abi_runtime::entry_sides! {
            broadcast;
            #[doc = #read_doc] read #read: #entry;
            #[doc = #doc] writer #writer;
            #[doc = #rdoc] reader #reader;
        }

        impl #writer<'_> {
            /// Where the ring's fields are, from the start of its header.
            pub const SPEC: ::abi_runtime::broadcast_ring::RingSpec = ::abi_runtime::broadcast_ring::RingSpec {
                write_pos: #w, tail_pos: #t, entries: #n, capacity: #cap, area: #area, entry: #format, seq: #seq,
            };
            /// Each part after an entry's header: its length field and its bound.
            pub const PARTS: &'static [::abi_runtime::entry_parts::PartSpec] = #parts;

            /// Appends an entry: `head` gives the header's own fields (its size, kind, seq and
            /// part lengths are set here), then each part in order. Returns the entry's seq.
            /// An error, with nothing written, when a part is longer than its bound.
            pub fn push(&self, head: &#head, #(#params),*) -> Result<u64, #error> {
                let mut entry = ::abi_runtime::entry_parts::compose(Self::SPEC.entry.size, Self::SPEC.entry.kind, #record, ::zerocopy::IntoBytes::as_bytes(head), Self::PARTS, #values)?;
                self.ring.push(&mut entry)
            }
        }

    }
}

/// The accessors a layout's handle gets for row `k` when it holds a protocol's header, as
/// lines of `abi_runtime::handle_accessors!`: `<row>_writer()` and `<row>_reader()` for a
/// queue and an exchange, `<row>_writer()`, `<row>_join_latest()` and `<row>_join_oldest()`
/// for a broadcast ring, `<row>_client()` and `<row>_server()` for a mailbox. The host's side
/// (a queue's reader, a mailbox's server, an exchange's reader) is a `host` line: its geometry
/// comes from the image the host laid out when the handle is the host's own.
pub(super) fn row_accessors(schema: &Schema, l: &LayoutTable, k: usize) -> TokenStream {
    /// A side: its accessor's suffix, its type's suffix, its constructor over the row's
    /// bytes (`None`: the host's side, `with_geometry`) and what the doc calls it.
    type Side = (
        &'static str,
        &'static str,
        Option<&'static str>,
        &'static str,
    );
    let r = &l.rows[k];
    let Holds::Struct { struct_index, .. } = &r.holds else {
        return TokenStream::new();
    };
    let at = lit(k as u64);
    let row = &r.name;
    let mut out = TokenStream::new();
    let layout =
        (schema.attach.layouts.iter().position(|x| x.name == l.name)).map(crate::ir::LayoutId::new);
    for (pi, p) in schema.protocols.iter().enumerate() {
        let new = Some("new");
        let (header, sides): (StructId, Vec<Side>) = match &p.kind {
            ProtocolKind::Queue(q) => (
                q.header,
                vec![
                    ("writer", "Writer", new, "writer"),
                    ("reader", "Reader", None, "reader"),
                ],
            ),
            ProtocolKind::Broadcast(b) => (
                b.header,
                vec![
                    ("writer", "Writer", new, "writer"),
                    (
                        "join_latest",
                        "Reader",
                        Some("join_latest"),
                        "reader joining at the newest entry",
                    ),
                    (
                        "join_oldest",
                        "Reader",
                        Some("join_oldest"),
                        "reader joining at the oldest entry kept",
                    ),
                ],
            ),
            ProtocolKind::Mailbox(m) => (
                m.header,
                vec![
                    ("client", "Client", new, "client"),
                    ("server", "Server", None, "server"),
                ],
            ),
            ProtocolKind::Exchange(e) => (
                e.header,
                vec![
                    ("writer", "Writer", new, "writer"),
                    ("reader", "Reader", None, "reader"),
                ],
            ),
            ProtocolKind::Session(_) => continue,
        };
        if header != *struct_index {
            continue;
        }
        let error = match &p.kind {
            ProtocolKind::Queue(_) => quote!(::abi_runtime::byte_queue::QueueError),
            ProtocolKind::Broadcast(_) => quote!(::abi_runtime::broadcast_ring::RingError),
            ProtocolKind::Mailbox(_) => quote!(::abi_runtime::mailbox::MailboxError),
            _ => quote!(::abi_runtime::triple_buffer::ExchangeError),
        };
        let bound = layout
            .and_then(|li| crate::plan::bound::binding(schema, li, crate::ir::ProtocolId::new(pi)));
        for (suffix, ty_suffix, ctor, what) in sides {
            let ty = format_ident!("{}{}", type_ident(&p.name), ty_suffix);
            let writes = matches!(suffix, "writer" | "client")
                && !matches!(p.kind, ProtocolKind::Broadcast(_));
            let (get, doc) = match bound.filter(|_| writes) {
                Some(session) => {
                    let name = &schema.protocols[session].name;
                    let session_ty = type_ident(name);
                    let scoped = format_ident!("{}Scoped", session_ty);
                    let bound_get = format_ident!("{}_{}", row, suffix);
                    let get = format_ident!("{}_{}_{}", row, suffix, crate::plan::bound::UNSCOPED);
                    let bound_doc = doc_lit!(
                        " The {what} of {} `{}` in region `{row}`, bound to `client`'s claim ([`{scoped}`]): each write first checks the claim's standing and is refused with it, nothing stored, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting). `Ok(None)` when the region is absent, an error when its header does not fit it. [`Self::{get}`] is the writer without a claim, for a host, a test or a tool.",
                        p.kind.table(),
                        p.name
                    );
                    out.extend(quote! {
                        #[doc = #bound_doc] scoped #bound_get = #get: #ty, #error, #session_ty, #scoped;
                    });
                    let doc = doc_lit!(
                        " The {what} of {} `{}` in region `{row}`, bound to no claim: it keeps writing after the row was freed, into the next client's blocks. For a host, a test or a tool that writes without a claim; a client takes [`Self::{bound_get}`]. `Ok(None)` when the region is absent, an error when its header does not fit it.",
                        p.kind.table(),
                        p.name
                    );
                    (get, doc)
                }
                None => {
                    let doc = doc_lit!(
                        " The {what} of {} `{}` in region `{row}`: `Ok(None)` when the region is absent, an error when its header does not fit it.",
                        p.kind.table(),
                        p.name
                    );
                    (format_ident!("{}_{}", row, suffix), doc)
                }
            };
            out.extend(match ctor {
                Some(ctor) => {
                    let ctor = format_ident!("{ctor}");
                    quote!(#[doc = #doc] open #get @ #at: #ty::#ctor, #error;)
                }
                None => quote!(#[doc = #doc] host #get @ #at: #ty, #error;),
            });
        }
    }
    out
}
