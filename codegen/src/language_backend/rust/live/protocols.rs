//! The region protocols in the live layer (`[[queue]]`, `[[broadcast]]`, `[[mailbox]]`,
//! `[[exchange]]`): per protocol, each side as a typed wrapper of its `abi_runtime` primitive
//! (which holds the orderings and checks), with the schema's offsets as a static spec and the
//! entries, answers and lists as value types; and the accessors that reach them from an
//! attached layout's handle.

use crate::language_backend::rust::docs::{doc_lit, escaped};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::{field, lit, offset};
use crate::ir::Elem;
use crate::ir::attach::{Holds, LayoutTable};
use crate::ir::protocol::{Broadcast, Entry, Exchange, Mailbox, Protocol, ProtocolKind, Queue};
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

fn struct_size(schema: &Schema, s: usize) -> proc_macro2::Literal {
    lit(schema.layout.of(s).size)
}

fn value_type(schema: &Schema, s: usize) -> TokenStream {
    let t = type_ident(&schema.abi.structs[s].name);
    quote!(super::#t)
}

/// The protocol's doc line, the schema's text escaped.
fn protocol_doc(p: &Protocol) -> String {
    if p.doc.is_empty() {
        String::new()
    } else {
        format!(" {}.", escaped(p.doc.trim_end_matches('.')))
    }
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

        #[doc = #doc]
        #[derive(Debug, Clone, Copy)]
        pub struct #writer<'a> {
            queue: ::abi_runtime::byte_queue::ByteQueue<'a, ::abi_runtime::ReadWrite>,
        }

        #[doc = #rdoc]
        #[derive(Debug)]
        pub struct #reader<'a> {
            queue: ::abi_runtime::byte_queue::ByteQueue<'a, ::abi_runtime::ReadWrite>,
            buf: Vec<u8>,
        }

        impl #writer<'_> {
            /// Where the queue's fields are, from the start of its header.
            pub const SPEC: ::abi_runtime::byte_queue::QueueSpec = ::abi_runtime::byte_queue::QueueSpec {
                write_pos: #w, read_pos: #r, dropped: #d, capacity: #cap, area: #area, entry: #format,
            };
            /// Each part after an entry's header: its length field and its bound.
            pub const PARTS: &'static [::abi_runtime::entry_parts::PartSpec] = #parts;
        }

        impl<'a> #writer<'a> {
            /// The writer of the queue whose header starts `region` (the header and its
            /// area): its capacity is read and checked now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { queue: ::abi_runtime::byte_queue::ByteQueue::new(region, Self::SPEC)? })
            }

            /// Appends an entry: `head` gives the header's own fields (its size, kind and part
            /// lengths are set here), then each part in order. `Ok(true)` when the queue was
            /// full and the entry was dropped (and counted); an error, with nothing written,
            /// when a part is longer than its bound or the reader's position cannot be right.
            pub fn push(&self, head: &#head, #(#params),*) -> Result<bool, #error> {
                let entry = ::abi_runtime::entry_parts::compose(Self::SPEC.entry.size, Self::SPEC.entry.kind, #record, ::zerocopy::IntoBytes::as_bytes(head), Self::PARTS, #values)?;
                Ok(self.queue.push(&entry)? == ::abi_runtime::byte_queue::Pushed::Dropped)
            }

            /// Entries dropped so far because the queue was full.
            pub fn dropped(&self) -> u64 {
                self.queue.dropped()
            }

            /// The area's bytes.
            pub fn capacity(&self) -> u64 {
                self.queue.capacity()
            }
        }

        impl<'a> #reader<'a> {
            /// The reader of the queue whose header starts `region`: its capacity is read and
            /// checked now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { queue: ::abi_runtime::byte_queue::ByteQueue::new(region, #writer::SPEC)?, buf: Vec::new() })
            }

            /// The next entry, copied out and consumed, or `None` when the queue is empty. A
            /// size, position or part length the writer wrote that cannot be right is a named
            /// error ([`abi_runtime::byte_queue::QueueError::check`]).
            pub fn pop(&mut self) -> Result<Option<#entry>, #error> {
                match self.queue.pop(&mut self.buf)? {
                    ::abi_runtime::byte_queue::Popped::Empty => Ok(None),
                    ::abi_runtime::byte_queue::Popped::Entry(_) => #entry::split(&self.buf, #writer::PARTS).map(Some),
                }
            }

            /// Entries the writer dropped so far.
            pub fn dropped(&self) -> u64 {
                self.queue.dropped()
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

        #[doc = #read_doc]
        #[derive(Clone, PartialEq)]
        pub enum #read {
            /// The next entry, whole.
            Entry(#entry),
            /// Nothing new.
            Empty,
            /// The writer overwrote `missed` entries this reader had not read; the next call
            /// reads the oldest entry still there.
            Lapped {
                /// Entries lost.
                missed: u64,
            },
        }

        #[doc = #doc]
        #[derive(Debug, Clone, Copy)]
        pub struct #writer<'a> {
            ring: ::abi_runtime::broadcast_ring::RingWriter<'a, ::abi_runtime::ReadWrite>,
        }

        #[doc = #rdoc]
        #[derive(Debug, Clone)]
        pub struct #reader<'a> {
            reader: ::abi_runtime::broadcast_ring::RingReader<'a, ::abi_runtime::ReadWrite>,
            buf: Vec<u8>,
        }

        impl #writer<'_> {
            /// Where the ring's fields are, from the start of its header.
            pub const SPEC: ::abi_runtime::broadcast_ring::RingSpec = ::abi_runtime::broadcast_ring::RingSpec {
                write_pos: #w, tail_pos: #t, entries: #n, capacity: #cap, area: #area, entry: #format, seq: #seq,
            };
            /// Each part after an entry's header: its length field and its bound.
            pub const PARTS: &'static [::abi_runtime::entry_parts::PartSpec] = #parts;
        }

        impl<'a> #writer<'a> {
            /// The writer of the ring whose header starts `region` (the header and its area):
            /// its capacity is read and checked now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { ring: ::abi_runtime::broadcast_ring::RingWriter::new(region, Self::SPEC)? })
            }

            /// Appends an entry: `head` gives the header's own fields (its size, kind, seq and
            /// part lengths are set here), then each part in order. Returns the entry's seq.
            /// An error, with nothing written, when a part is longer than its bound.
            pub fn push(&self, head: &#head, #(#params),*) -> Result<u64, #error> {
                let mut entry = ::abi_runtime::entry_parts::compose(Self::SPEC.entry.size, Self::SPEC.entry.kind, #record, ::zerocopy::IntoBytes::as_bytes(head), Self::PARTS, #values)?;
                self.ring.push(&mut entry)
            }
        }

        impl<'a> #reader<'a> {
            /// A reader joining at the newest position: it reads what is written from now on.
            pub fn join_latest(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { reader: ::abi_runtime::broadcast_ring::RingReader::join_latest(region, #writer::SPEC)?, buf: Vec::new() })
            }

            /// A reader joining at the oldest whole entry still in the ring.
            pub fn join_oldest(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { reader: ::abi_runtime::broadcast_ring::RingReader::join_oldest(region, #writer::SPEC)?, buf: Vec::new() })
            }

            /// The next entry (copied, then re-checked against the tail: never torn),
            /// `Empty`, or `Lapped { missed }`. A size, position or part length the writer
            /// wrote that cannot be right is a named error
            /// ([`abi_runtime::broadcast_ring::RingError::check`]).
            pub fn read_next(&mut self) -> Result<#read, #error> {
                Ok(match self.reader.read_next(&mut self.buf)? {
                    ::abi_runtime::broadcast_ring::Read::Entry(_) => #read::Entry(#entry::split(&self.buf, #writer::PARTS)?),
                    ::abi_runtime::broadcast_ring::Read::Empty => #read::Empty,
                    ::abi_runtime::broadcast_ring::Read::Lapped { missed } => #read::Lapped { missed },
                })
            }

            /// Times this reader was lapped.
            pub fn laps(&self) -> u64 {
                self.reader.laps()
            }
        }
    }
}

/// The conversion of a `u32` to field `f`'s value type (an enum newtype or an integer),
/// and back.
fn status_tokens(schema: &Schema, s: usize, f: usize) -> (TokenStream, TokenStream, TokenStream) {
    let fd = &schema.abi.structs[s].fields[f];
    match fd.ty.elem {
        Elem::Enum(i) => {
            let en = &schema.abi.enums[i];
            let t = type_ident(&en.name);
            let repr = format_ident!("{}", en.repr.name());
            let (from, to) = if en.repr.name() == "u32" {
                (quote!(super::#t(status)), quote!(status.0))
            } else {
                (
                    quote!(super::#t(status as #repr)),
                    quote!(u32::from(status.0)),
                )
            };
            (quote!(super::#t), from, to)
        }
        _ => (quote!(u32), quote!(status), quote!(status)),
    }
}

fn expand_mailbox(schema: &Schema, p: &Protocol, m: &Mailbox) -> TokenStream {
    let name = type_ident(&p.name);
    let (client, server, response) = (
        format_ident!("{}Client", name),
        format_ident!("{}Server", name),
        format_ident!("{}Response", name),
    );
    let h = m.header;
    let o = |f| offset(schema, h, f);
    let (rs, rl, ps, st, pl, pt) = (
        o(m.request_seq),
        o(m.request_len),
        o(m.response_seq),
        o(m.status),
        o(m.response_len),
        o(m.response_total),
    );
    let (rc, pc) = (
        field(schema, h, m.request_capacity),
        field(schema, h, m.response_capacity),
    );
    let area = struct_size(schema, h);
    let (status, from_u32, to_u32) = status_tokens(schema, h, m.status);
    let error = quote!(::abi_runtime::mailbox::MailboxError);
    let doc = doc_lit!(
        " The client's side of mailbox `{}`: one request at a time, [`{client}::request`], then [`{client}::poll_response`] or [`{client}::wait_response`].{}",
        p.name,
        protocol_doc(p)
    );
    let sdoc = doc_lit!(
        " The server's side of mailbox `{}`: [`{server}::serve`] answers the request that waits.{}",
        p.name,
        protocol_doc(p)
    );
    let rdoc = doc_lit!(" An answer of mailbox `{}`, copied out.", p.name);
    quote! {
        #[doc = #rdoc]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct #response {
            /// The request it answers.
            pub seq: u32,
            /// The server's status.
            pub status: #status,
            /// The answer's text, as much as the response area held.
            pub text: Vec<u8>,
            /// The answer was cut to the response area.
            pub cut: bool,
            /// The whole answer's bytes.
            pub total: u64,
        }

        #[doc = #doc]
        #[derive(Debug, Clone, Copy)]
        pub struct #client<'a> {
            mailbox: ::abi_runtime::mailbox::Mailbox<'a, ::abi_runtime::ReadWrite>,
            pending: Option<u32>,
        }

        #[doc = #sdoc]
        #[derive(Debug, Clone, Copy)]
        pub struct #server<'a> {
            mailbox: ::abi_runtime::mailbox::Mailbox<'a, ::abi_runtime::ReadWrite>,
        }

        impl #client<'_> {
            /// Where the mailbox's fields are, from the start of its header.
            pub const SPEC: ::abi_runtime::mailbox::MailboxSpec = ::abi_runtime::mailbox::MailboxSpec {
                request_seq: #rs, request_len: #rl, response_seq: #ps, status: #st, response_len: #pl,
                response_total: #pt, request_capacity: #rc, response_capacity: #pc, area: #area,
            };
        }

        impl<'a> #client<'a> {
            /// The client of the mailbox whose header starts `region` (the header and both
            /// areas): its capacities are read and checked now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { mailbox: ::abi_runtime::mailbox::Mailbox::new(region, Self::SPEC)?, pending: None })
            }

            /// Sends `text` (at most the request capacity - 1 bytes) and returns its number.
            /// `Busy` while the last request has no answer.
            pub fn request(&mut self, text: &[u8]) -> Result<u32, #error> {
                let seq = self.mailbox.request(text)?;
                self.pending = Some(seq);
                Ok(seq)
            }

            /// The answer to the last request, once (`None` while it has none, or when no
            /// request waits). Its length is checked against the response capacity.
            pub fn poll_response(&mut self) -> Result<Option<#response>, #error> {
                let Some(seq) = self.pending else {
                    return Ok(None);
                };
                let Some(r) = self.mailbox.poll_response(seq)? else {
                    return Ok(None);
                };
                self.pending = None;
                let status = r.status;
                Ok(Some(#response { seq: r.seq, status: #from_u32, cut: r.cut(), total: r.total, text: r.text }))
            }

            /// [`Self::poll_response`] until the answer comes or `timeout` passes (`None`):
            /// it spins briefly, then sleeps 50 µs between polls.
            pub fn wait_response(&mut self, timeout: ::std::time::Duration) -> Result<Option<#response>, #error> {
                let start = ::std::time::Instant::now();
                let mut polls = 0u32;
                loop {
                    if let Some(r) = self.poll_response()? {
                        return Ok(Some(r));
                    }
                    if self.pending.is_none() || start.elapsed() >= timeout {
                        return Ok(None);
                    }
                    polls += 1;
                    if polls < 64 {
                        ::core::hint::spin_loop();
                    } else {
                        ::std::thread::sleep(::std::time::Duration::from_micros(50));
                    }
                }
            }
        }

        impl<'a> #server<'a> {
            /// The server of the mailbox whose header starts `region`: its capacities are read
            /// and checked now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { mailbox: ::abi_runtime::mailbox::Mailbox::new(region, #client::SPEC)? })
            }

            /// When a request waits, copies it (its length checked), answers it with
            /// `answer(text)` (a status and the whole answer, cut to the response area) and
            /// returns its number; `None` when none waits.
            pub fn serve(&self, answer: impl FnOnce(&[u8]) -> (#status, Vec<u8>)) -> Result<Option<u32>, #error> {
                self.mailbox.serve(|text| {
                    let (status, whole) = answer(text);
                    (#to_u32, whole)
                })
            }
        }
    }
}

fn expand_exchange(schema: &Schema, p: &Protocol, e: &Exchange) -> TokenStream {
    let name = type_ident(&p.name);
    let (writer, reader, list) = (
        format_ident!("{}Writer", name),
        format_ident!("{}Reader", name),
        format_ident!("{}List", name),
    );
    let h = e.header;
    let hf = |f| field(schema, h, f);
    let state = offset(schema, h, e.state);
    let initial = lit(u64::from(e.initial_state));
    let (buffers, buffer_size, max_items, max_payload, published) = (
        hf(e.buffers),
        hf(e.buffer_size),
        hf(e.max_items),
        hf(e.max_payload),
        hf(e.published),
    );
    let area = struct_size(schema, h);
    let l = e.list;
    let lf = |f| field(schema, l, f);
    let (count, payload_len, dropped, flags) = (
        lf(e.count),
        lf(e.payload_len),
        lf(e.dropped),
        lf(e.overflow_field),
    );
    let (list_size, list_align, overflow) = (
        struct_size(schema, l),
        lit(schema.layout.of(l).align),
        lit(e.overflow),
    );
    let item_size = struct_size(schema, e.item);
    let (head, item) = (value_type(schema, l), value_type(schema, e.item));
    let error = quote!(::abi_runtime::triple_buffer::ExchangeError);
    let doc = doc_lit!(
        " The writer's side of exchange `{}` (one writer; keep it, it knows its list): [`{writer}::push`] builds the list in place, bounded by the header's capacities, and [`{writer}::publish`] hands it over.{}",
        p.name,
        protocol_doc(p)
    );
    let rdoc = doc_lit!(
        " The reader's side of exchange `{}` (one reader; keep it, it knows its list): [`{reader}::take`] copies out the newest published list.{}",
        p.name,
        protocol_doc(p)
    );
    let ldoc = doc_lit!(" A list of exchange `{}`, copied out.", p.name);
    quote! {
        #[doc = #ldoc]
        #[derive(Clone, PartialEq)]
        pub struct #list {
            /// The list's header, as the writer wrote it.
            pub head: #head,
            /// Its items, `count` of them.
            pub items: Vec<#item>,
            /// The payload bytes in use.
            pub payload: Vec<u8>,
        }

        #[doc = #doc]
        #[derive(Debug)]
        pub struct #writer<'a> {
            list: ::abi_runtime::list_exchange::ListWriter<'a, ::abi_runtime::ReadWrite>,
        }

        #[doc = #rdoc]
        #[derive(Debug)]
        pub struct #reader<'a> {
            list: ::abi_runtime::list_exchange::ListReader<'a, ::abi_runtime::ReadWrite>,
        }

        impl #writer<'_> {
            /// Where the exchange's fields are, from the start of its header, and the lists'.
            pub const SPEC: ::abi_runtime::list_exchange::ListSpec = ::abi_runtime::list_exchange::ListSpec {
                state: #state, initial_state: #initial, buffers: #buffers, buffer_size: #buffer_size,
                max_items: #max_items, max_payload: #max_payload, published: #published, area: #area,
                list: ::abi_runtime::list_exchange::ListFormat {
                    size: #list_size, align: #list_align, count: #count, payload_len: #payload_len,
                    dropped: #dropped, flags: #flags, overflow: #overflow,
                },
                item_size: #item_size,
            };
        }

        impl<'a> #writer<'a> {
            /// The writer of the exchange whose header starts `region` (the header and its
            /// lists), at the start (the state word as the producer left it): the header's
            /// buffers, buffer size and capacities are read and checked against the region now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { list: ::abi_runtime::list_exchange::ListWriter::new(region, Self::SPEC)? })
            }

            /// Adds `item` to the list being built, and appends `payload` at offset
            /// [`Self::payload_len`] as it was before the call (an item that points into the
            /// payload takes its offset from there). When the list is full of items or
            /// payload, neither is added: the item is dropped, counted, and the list flagged
            /// overflowed; `false`.
            pub fn push(&mut self, item: &#item, payload: &[u8]) -> bool {
                self.list.push(::zerocopy::IntoBytes::as_bytes(item), payload)
            }

            /// Items in the list being built.
            pub fn len(&self) -> u64 {
                self.list.len()
            }

            /// Whether the list being built has no item.
            pub fn is_empty(&self) -> bool {
                self.list.is_empty()
            }

            /// Payload bytes in the list being built: where the next payload goes.
            pub fn payload_len(&self) -> u64 {
                self.list.payload_len()
            }

            /// Items dropped from the list being built.
            pub fn dropped(&self) -> u64 {
                self.list.dropped()
            }

            /// The most items and payload bytes a list holds, as the header says.
            pub fn capacity(&self) -> (u64, u64) {
                self.list.capacity()
            }

            /// Hands the list over: `head` gives the list header's own fields (its count,
            /// payload length, dropped count and overflow flag are set here), then the
            /// shared list is taken in exchange and the published count bumped. Never blocks.
            /// `overwrote` says the reader never took the previous list. The next list starts
            /// empty.
            pub fn publish(&mut self, head: &#head) -> Result<::abi_runtime::triple_buffer::Published, #error> {
                self.list.publish(::zerocopy::IntoBytes::as_bytes(head))
            }
        }

        impl<'a> #reader<'a> {
            /// The reader of the exchange whose header starts `region`, at the start: the
            /// header's geometry is read and checked against the region now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { list: ::abi_runtime::list_exchange::ListReader::new(region, #writer::SPEC)? })
            }

            /// The newest list published since the last take, copied out, or `None`. Its
            /// count and payload length are checked against the header's capacities.
            pub fn take(&mut self) -> Result<Option<#list>, #error> {
                let Some(taken) = self.list.take()? else {
                    return Ok(None);
                };
                let head = <#head as ::zerocopy::FromBytes>::read_from_bytes(&taken.header)
                    .unwrap_or_else(|_| ::zerocopy::FromZeros::new_zeroed());
                let items = taken
                    .items
                    .chunks_exact(#item_size)
                    .map(|bytes| <#item as ::zerocopy::FromBytes>::read_from_bytes(bytes).unwrap_or_else(|_| ::zerocopy::FromZeros::new_zeroed()))
                    .collect();
                Ok(Some(#list { head, items, payload: taken.payload }))
            }

            /// Lists the writer published so far.
            pub fn published(&self) -> u64 {
                self.list.published()
            }
        }
    }
}

/// The accessors a layout's handle gets for row `k` when it holds a protocol's header:
/// `<row>_writer()` and `<row>_reader()` for a queue and an exchange, `<row>_writer()`,
/// `<row>_join_latest()` and `<row>_join_oldest()` for a broadcast ring, `<row>_client()`
/// and `<row>_server()` for a mailbox.
pub(super) fn row_accessors(schema: &Schema, l: &LayoutTable, k: usize) -> TokenStream {
    let r = &l.rows[k];
    let Holds::Struct { struct_index, .. } = &r.holds else {
        return TokenStream::new();
    };
    let at = lit(k as u64);
    let row = &r.name;
    let mut out = TokenStream::new();
    for p in &schema.protocols {
        let (header, sides): (usize, Vec<(&str, &str, TokenStream, &str)>) = match &p.kind {
            ProtocolKind::Queue(q) => (
                q.header,
                vec![
                    ("writer", "Writer", quote!(new), "writer"),
                    ("reader", "Reader", quote!(new), "reader"),
                ],
            ),
            ProtocolKind::Broadcast(b) => (
                b.header,
                vec![
                    ("writer", "Writer", quote!(new), "writer"),
                    (
                        "join_latest",
                        "Reader",
                        quote!(join_latest),
                        "reader joining at the newest entry",
                    ),
                    (
                        "join_oldest",
                        "Reader",
                        quote!(join_oldest),
                        "reader joining at the oldest entry kept",
                    ),
                ],
            ),
            ProtocolKind::Mailbox(m) => (
                m.header,
                vec![
                    ("client", "Client", quote!(new), "client"),
                    ("server", "Server", quote!(new), "server"),
                ],
            ),
            ProtocolKind::Exchange(e) => (
                e.header,
                vec![
                    ("writer", "Writer", quote!(new), "writer"),
                    ("reader", "Reader", quote!(new), "reader"),
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
        for (suffix, ty_suffix, ctor, what) in sides {
            let get = format_ident!("{}_{}", row, suffix);
            let ty = format_ident!("{}{}", type_ident(&p.name), ty_suffix);
            let doc = doc_lit!(
                " The {what} of {} `{}` in region `{row}`: `Ok(None)` when the region is absent, an error when its header does not fit it.",
                p.kind.table(),
                p.name
            );
            out.extend(quote! {
                #[doc = #doc]
                pub fn #get(&self) -> Result<Option<#ty<'a>>, #error> {
                    let Some(p) = self.table.row(#at) else {
                        return Ok(None);
                    };
                    let Ok(region) = self.region.sub(p.offset, p.size, 8) else {
                        return Ok(None);
                    };
                    #ty::#ctor(region).map(Some)
                }
            });
        }
    }
    out
}
