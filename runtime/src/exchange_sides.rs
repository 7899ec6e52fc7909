//! `exchange_sides!`: a generated list exchange's writer and reader types and the taken list,
//! one line each, over [`list_exchange`](crate::list_exchange).

/// Expands to a generated exchange's three types, inside the generated bindings' `live`
/// module: `#[doc = ...]* list LIST: head HEAD, item ITEM, size ITEM_SIZE;` (a list copied
/// out: its header `HEAD`, its items `ITEM` of `ITEM_SIZE` bytes, its payload), `#[doc =
/// ...]* writer WRITER;` (`new`, `push`, `len`, `is_empty`, `payload_len`, `dropped`,
/// `capacity`, `publish`) and `#[doc = ...]* reader READER;` (`new`, `with_geometry`,
/// `absorbed`, `take`, `published`). The generator prints the writer's `SPEC` in an `impl`
/// block of its own.
#[macro_export]
macro_rules! exchange_sides {
    (
        $(#[$lm:meta])* list $list:ident: head $head:ty, item $item:ty, size $size:literal;
        $(#[$wm:meta])* writer $writer:ident;
        $(#[$rm:meta])* reader $reader:ident;
    ) => {
        $(#[$lm])*
        #[derive(Clone, PartialEq)]
        pub struct $list {
            /// The list's header, as the writer wrote it.
            pub head: $head,
            /// Its items, `count` of them.
            pub items: ::std::vec::Vec<$item>,
            /// The payload bytes in use.
            pub payload: ::std::vec::Vec<u8>,
        }

        $(#[$wm])*
        #[derive(Debug)]
        pub struct $writer<'a> {
            list: $crate::list_exchange::ListWriter<'a, $crate::ReadWrite>,
        }

        $(#[$rm])*
        #[derive(Debug)]
        pub struct $reader<'a> {
            list: $crate::list_exchange::ListReader<'a, $crate::ReadWrite>,
        }

        impl<'a> $writer<'a> {
            /// The writer of the exchange whose header starts `region` (the header and its
            /// lists), at the start (the state word as the producer left it): the header's
            /// buffers, buffer size and capacities are read and checked against the region now.
            pub fn new(
                region: $crate::Region<'a>,
            ) -> ::core::result::Result<Self, $crate::triple_buffer::ExchangeError> {
                ::core::result::Result::Ok(Self {
                    list: $crate::list_exchange::ListWriter::new(region, Self::SPEC)?,
                })
            }

            /// Adds `item` to the list being built, and appends `payload` at offset
            /// [`Self::payload_len`] as it was before the call (an item that points into the
            /// payload takes its offset from there). When the list is full of items or
            /// payload, neither is added: the item is dropped, counted, and the list flagged
            /// overflowed; `false`.
            pub fn push(&mut self, item: &$item, payload: &[u8]) -> bool {
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
            pub fn publish(
                &mut self,
                head: &$head,
            ) -> ::core::result::Result<$crate::triple_buffer::Published, $crate::triple_buffer::ExchangeError>
            {
                self.list.publish(::zerocopy::IntoBytes::as_bytes(head))
            }
        }

        impl<'a> $reader<'a> {
            /// The reader of the exchange whose header starts `region`, at the start: the
            /// header's geometry is read and checked against the region now.
            pub fn new(
                region: $crate::Region<'a>,
            ) -> ::core::result::Result<Self, $crate::triple_buffer::ExchangeError> {
                Self::with_geometry(region, $crate::laid_out::GeometryFrom::Mapping)
            }

            /// [`Self::new`] with the geometry read from `from`: the host's own handle gives
            /// the header as it laid it out, never the bytes a client can write.
            pub fn with_geometry(
                region: $crate::Region<'a>,
                from: $crate::laid_out::GeometryFrom<'_>,
            ) -> ::core::result::Result<Self, $crate::triple_buffer::ExchangeError> {
                ::core::result::Result::Ok(Self {
                    list: $crate::list_exchange::ListReader::with_geometry(region, $writer::SPEC, from)?,
                })
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
            pub fn take(
                &mut self,
            ) -> ::core::result::Result<::core::option::Option<$list>, $crate::triple_buffer::ExchangeError>
            {
                let ::core::option::Option::Some(taken) = self.list.take()? else {
                    return ::core::result::Result::Ok(::core::option::Option::None);
                };
                let head = <$head as ::zerocopy::FromBytes>::read_from_bytes(&taken.header)
                    .unwrap_or_else(|_| ::zerocopy::FromZeros::new_zeroed());
                let items = taken
                    .items
                    .chunks_exact($size)
                    .map(|bytes| {
                        <$item as ::zerocopy::FromBytes>::read_from_bytes(bytes)
                            .unwrap_or_else(|_| ::zerocopy::FromZeros::new_zeroed())
                    })
                    .collect();
                ::core::result::Result::Ok(::core::option::Option::Some($list {
                    head,
                    items,
                    payload: taken.payload,
                }))
            }

            /// Lists the writer published so far.
            pub fn published(&self) -> u64 {
                self.list.published()
            }
        }
    };
}
