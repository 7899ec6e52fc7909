//! The live layer's `[[exchange]]` types: a list writer and reader over
//! `abi_runtime::list_exchange` (a triple buffer of whole lists), and the taken list as a value.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::protocol_common::{protocol_doc, struct_size, value_type};
use super::tokens::{field, lit, offset};
use crate::ir::protocol::{Exchange, Protocol};
use crate::language_backend::rust::docs::doc_lit;
use crate::language_backend::rust::names::type_ident;
use crate::schema::Schema;

/// Exchange `p` (`e`): the list value, the writer and reader types, the writer's spec and
/// both sides' methods.
pub(super) fn expand_exchange(schema: &Schema, p: &Protocol, e: &Exchange) -> TokenStream {
    let n = ExchangeNames::new(schema, e, &p.name);
    let types = exchange_types(p, &n);
    let spec = exchange_spec(schema, e, &n);
    let writer = writer_impl(&n);
    let reader = reader_impl(&n);
    quote! {
        #types
        #spec
        #writer
        #reader
    }
}

/// The names and types both sides' code interpolates.
struct ExchangeNames {
    writer: Ident,
    reader: Ident,
    list: Ident,
    /// The list header's value type.
    head: TokenStream,
    /// An item's value type.
    item: TokenStream,
    /// An item's size.
    item_size: Literal,
    /// The runtime's error type.
    error: TokenStream,
}

impl ExchangeNames {
    fn new(schema: &Schema, e: &Exchange, name: &str) -> Self {
        let name = type_ident(name);
        ExchangeNames {
            writer: format_ident!("{}Writer", name),
            reader: format_ident!("{}Reader", name),
            list: format_ident!("{}List", name),
            head: value_type(schema, e.list),
            item: value_type(schema, e.item),
            item_size: struct_size(schema, e.item),
            error: quote!(::abi_runtime::triple_buffer::ExchangeError),
        }
    }
}

/// The list value and the writer and reader types, with their docs.
fn exchange_types(p: &Protocol, n: &ExchangeNames) -> TokenStream {
    let ExchangeNames {
        writer,
        reader,
        list,
        head,
        item,
        ..
    } = n;
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
    }
}

/// The writer's `SPEC`: where the exchange's fields are, from the start of its header, and
/// the lists'.
fn exchange_spec(schema: &Schema, e: &Exchange, n: &ExchangeNames) -> TokenStream {
    let ExchangeNames {
        writer, item_size, ..
    } = n;
    let h = e.header;
    let hf = |f| field(schema, h, f);
    let state = offset(schema, h, e.state);
    let initial = lit(u64::from(e.start.state));
    let grace = lit(u64::from(e.stale_grace));
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
    quote! {
        impl #writer<'_> {
            /// Where the exchange's fields are, from the start of its header, and the lists'.
            pub const SPEC: ::abi_runtime::list_exchange::ListSpec = ::abi_runtime::list_exchange::ListSpec {
                state: #state, initial_state: #initial, stale_grace: #grace, buffers: #buffers, buffer_size: #buffer_size,
                max_items: #max_items, max_payload: #max_payload, published: #published, area: #area,
                list: ::abi_runtime::list_exchange::ListFormat {
                    size: #list_size, align: #list_align, count: #count, payload_len: #payload_len,
                    dropped: #dropped, flags: #flags, overflow: #overflow,
                },
                item_size: #item_size,
            };
        }
    }
}

/// The writer's constructor, push, counts and publish.
fn writer_impl(n: &ExchangeNames) -> TokenStream {
    let ExchangeNames {
        writer,
        head,
        item,
        error,
        ..
    } = n;
    quote! {
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
    }
}

/// The reader's constructor, take and published count.
fn reader_impl(n: &ExchangeNames) -> TokenStream {
    let ExchangeNames {
        writer,
        reader,
        list,
        head,
        item,
        item_size,
        error,
    } = n;
    quote! {
        impl<'a> #reader<'a> {
            /// The reader of the exchange whose header starts `region`, at the start: the
            /// header's geometry is read and checked against the region now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Self::with_geometry(region, ::abi_runtime::laid_out::GeometryFrom::Mapping)
            }

            /// [`Self::new`] with the geometry read from `from`: the host's own handle gives
            /// the header as it laid it out, never the bytes a client can write.
            pub fn with_geometry(region: Region<'a>, from: ::abi_runtime::laid_out::GeometryFrom<'_>) -> Result<Self, #error> {
                Ok(Self { list: ::abi_runtime::list_exchange::ListReader::with_geometry(region, #writer::SPEC, from)? })
            }

            /// Stale publications this reader absorbed: lists of the row's last session that
            /// a free overtook (a fresh state naming the reader's own list), never shown.
            pub fn absorbed(&self) -> u32 {
                self.list.absorbed()
            }

            /// The newest list published since the last take, copied out, or `None`. Its
            /// count and payload length are checked against the header's capacities. A
            /// publication of the reader's own list (one a free overtook) is absorbed within
            /// the plan's grace (`SPEC.stale_grace`): `None`, and the writer's next list is
            /// taken; past it, `exchange_state`, a broken writer (free the row, then take a
            /// new reader).
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
