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

/// Exchange `p` (`e`): the list value and the writer and reader types with their methods (a
/// line each of `abi_runtime::exchange_sides!`), and the writer's spec.
pub(super) fn expand_exchange(schema: &Schema, p: &Protocol, e: &Exchange) -> TokenStream {
    let n = ExchangeNames::new(schema, e, &p.name);
    let types = exchange_types(p, &n);
    let spec = exchange_spec(schema, e, &n);
    quote! {
        #types
        #spec
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
        }
    }
}

/// The list value and the writer and reader types, with their docs, as lines of
/// `abi_runtime::exchange_sides!`.
fn exchange_types(p: &Protocol, n: &ExchangeNames) -> TokenStream {
    let ExchangeNames {
        writer,
        reader,
        list,
        head,
        item,
        item_size,
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
        ::abi_runtime::exchange_sides! {
            #[doc = #ldoc] list #list: head #head, item #item, size #item_size;
            #[doc = #doc] writer #writer;
            #[doc = #rdoc] reader #reader;
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
