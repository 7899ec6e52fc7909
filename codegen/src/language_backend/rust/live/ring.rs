//! Rings in the live layer: a ring of seqlocked slots (newest read, publish) as a view,
//! and an event ring as a method on the value type that holds it.

use crate::language_backend::rust::docs::doc_lit;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::seqlock::write_is_checked;
use super::tokens::{lit, value_type, word_type};
use crate::ir::access::{FieldRef, Ring, RingKind};
use crate::ir::{Elem, Prim, Type};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::schema::Schema;

/// A ring's live-layer code: a view for a ring of slots, a method pair for an event ring.
pub(super) fn expand_ring(schema: &Schema, ring: &Ring) -> TokenStream {
    match &ring.kind {
        RingKind::Slots { .. } => slots_ring(schema, ring),
        RingKind::Events {
            total,
            entries,
            capacity,
        } => events_ring(schema, ring, *total, *entries, *capacity),
    }
}

/// The view of a ring of seqlocked slots: its geometry, the newest slot's copy, and publish.
fn slots_ring(schema: &Schema, ring: &Ring) -> TokenStream {
    let t = SlotRingTokens::new(schema, ring);
    let publish = publish_method(schema, ring, &t);
    let struct_type = slot_ring_struct(&t);
    let geometry = slot_ring_geometry(&t);
    let reads = slot_ring_reads(&t);
    let ty = &t.ty;
    quote! {
        #struct_type
        impl<'a> #ty<'a> {
            #geometry
            #reads
            #publish
        }
    }
}

/// Every name, number and type the slot ring's view interpolates, computed once.
struct SlotRingTokens {
    /// The ring's type.
    ty: Ident,
    /// Its doc.
    doc: Literal,
    /// The view type of the struct that holds the head.
    head_view: Ident,
    /// The slot's view type.
    slot_view: Ident,
    /// The schema's slot count.
    count: Literal,
    /// The schema's slot size.
    size: Literal,
    /// The fewest bytes per slot a reader can use.
    least: Literal,
    /// The slot's alignment.
    align: Literal,
    /// log2 of the alignment.
    align_bits: Literal,
    /// Loads the head as a u64.
    head_load: TokenStream,
    /// The type a slot copies into.
    value: TokenStream,
    /// A zeroed value of it.
    new_value: TokenStream,
    /// The seqlock counter's word type.
    word: TokenStream,
    /// The counter's offset in the slot.
    counter: Literal,
    /// The slot's `copy_<seqlock>`.
    copy: Ident,
    /// The slot's `write_<seqlock>`.
    write: Ident,
    /// Whether the head counter is a u64 (else a u32).
    head_wide: bool,
    /// Stores the head plus one.
    head_store: TokenStream,
}

impl SlotRingTokens {
    /// The tokens of slot ring `ring`.
    fn new(schema: &Schema, ring: &Ring) -> Self {
        let RingKind::Slots {
            head,
            slot_count,
            slot_size,
            seqlock,
            ..
        } = &ring.kind
        else {
            unreachable!("a ring of slots")
        };
        let lock = &schema.access.seqlocks[*seqlock];
        let ty = type_ident(&ring.name);
        let head_view = type_ident(&schema.abi.structs[head.struct_index].name);
        let head_field = &schema.abi.structs[head.struct_index].fields[head.field];
        let head_get = rust_ident(&head_field.name);
        let head_set = format_ident!("set_{}", head_field.name);
        // The head counter is a u32 or a u64; the ring counts in u64.
        let head_wide = matches!(head_field.ty.elem, Elem::Prim(Prim::U64));
        let (head_load, head_store) = if head_wide {
            (
                quote!(self.head.#head_get()),
                quote!(self.head.#head_set(head.wrapping_add(1))),
            )
        } else {
            (
                quote!(u64::from(self.head.#head_get())),
                quote!(self.head.#head_set((head + 1) as u32)),
            )
        };
        let slot_view = type_ident(&schema.abi.structs[lock.struct_index].name);
        let copy = format_ident!("copy_{}", lock.name);
        let write = format_ident!("write_{}", lock.name);
        let word = word_type(lock.counter_width);
        let counter = lit(schema.layout.of(lock.struct_index).fields[lock.counter].offset);
        let (value, new_value) = if lock.guards_whole_struct(&schema.access.structs) {
            let t = type_ident(&schema.abi.structs[lock.struct_index].name);
            (
                quote!(super::#t),
                quote!(<super::#t as FromZeros>::new_zeroed()),
            )
        } else {
            let t = type_ident(&lock.name);
            (quote!(#t), quote!(#t::zeroed()))
        };
        let (count, size) = (lit(*slot_count), lit(*slot_size));
        let slot_align = schema.layout.of(lock.struct_index).align;
        let align = lit(slot_align);
        // Alignments are powers of two: `size.trailing_zeros() >= log2(align)` is
        // `size % align == 0`, which clippy would have be `is_multiple_of` in a crate whose
        // minimum Rust is 1.87 or later, and a mask `trailing_zeros` again.
        let align_bits = lit(u64::from(slot_align.trailing_zeros()));
        // The least slot a reader can copy: the header and its trailer's fixed parts,
        // rounded to the alignment (attach's least for the slot size).
        let trailer = &schema.access.structs[lock.struct_index].trailer;
        let least = trailer
            .iter()
            .map(|t| t.offset + t.size)
            .fold(schema.layout.of(lock.struct_index).size, u64::max);
        let least_align = trailer.iter().map(|t| t.align).fold(slot_align, u64::max);
        let least = lit(least.next_multiple_of(least_align));
        let doc = doc_lit!(
            " The ring `{}`: {slot_count} slots of {slot_size} bytes, each a [`{slot_view}`] and its payload under seqlock `{}`. `{}` counts publications: the newest slot is `(head - 1) % {slot_count}`. {}",
            ring.name,
            lock.name,
            head_field.name,
            ring.doc
        );
        SlotRingTokens {
            ty,
            doc,
            head_view,
            slot_view,
            count,
            size,
            least,
            align,
            align_bits,
            head_load,
            value,
            new_value,
            word,
            counter,
            copy,
            write,
            head_wide,
            head_store,
        }
    }
}

/// The ring's struct: the head's view, the slots' region and the writer's geometry.
fn slot_ring_struct(t: &SlotRingTokens) -> TokenStream {
    let SlotRingTokens {
        ty, doc, head_view, ..
    } = t;
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy)]
        pub struct #ty<'a> {
            head: #head_view<'a>,
            slots: Region<'a>,
            count: usize,
            size: usize,
        }

    }
}

/// The schema's geometry, and the constructors that check the writer's.
fn slot_ring_geometry(t: &SlotRingTokens) -> TokenStream {
    let SlotRingTokens {
        head_view,
        count,
        size,
        least,
        align,
        align_bits,
        ..
    } = t;
    quote! {
            /// Slots in the ring, as the schema builds it.
            pub const SLOT_COUNT: usize = #count;
            /// Bytes per slot, its header included, as the schema builds it.
            pub const SLOT_SIZE: usize = #size;
            /// The fewest bytes per slot a reader can use: the slot's header and the
            /// fixed part of what follows it (what attach requires of the writer).
            pub const MIN_SLOT_SIZE: usize = #least;

            /// The ring whose head counter is in `head` and whose slots start at
            /// `slots`, with the schema's slot count and size; an error if `slots`
            /// is shorter than the slots or misaligned.
            pub fn new(head: #head_view<'a>, slots: Region<'a>) -> Result<Self, RegionError> {
                Self::with_geometry(head, slots, Self::SLOT_COUNT, Self::SLOT_SIZE)
            }

            /// The ring with the writer's slot count and slot size (what attach read
            /// and checked). An error if there are no slots, a slot is smaller than
            /// [`Self::MIN_SLOT_SIZE`] or not a multiple of its alignment
            /// ([`SlotGeometry`](::abi_runtime::RegionErrorKind::SlotGeometry)), or
            /// the slots do not fit `slots` or are misaligned.
            pub fn with_geometry(head: #head_view<'a>, slots: Region<'a>, count: usize, size: usize) -> Result<Self, RegionError> {
                if count == 0 || size < Self::MIN_SLOT_SIZE || size.trailing_zeros() < #align_bits {
                    return Err(::abi_runtime::RegionErrorKind::SlotGeometry { count, size, least: Self::MIN_SLOT_SIZE, align: #align }.into());
                }
                let Some(total) = count.checked_mul(size) else {
                    return Err(::abi_runtime::RegionErrorKind::OutOfBounds { offset: 0, len: usize::MAX, region_len: slots.len() }.into());
                };
                let slots = slots.sub(0, total, #align)?;
                Ok(Self { head, slots, count, size })
            }

    }
}

/// The geometry's getters, the head, a slot's view, and the newest slot's copy.
fn slot_ring_reads(t: &SlotRingTokens) -> TokenStream {
    let SlotRingTokens {
        slot_view,
        align,
        head_load,
        value,
        new_value,
        word,
        counter,
        copy,
        ..
    } = t;
    quote! {
            /// Slots in the ring, as its writer built it.
            pub fn slot_count(&self) -> usize {
                self.count
            }

            /// Bytes per slot, as its writer built it.
            pub fn slot_size(&self) -> usize {
                self.size
            }

            /// Publications so far (acquire).
            pub fn head(&self) -> u64 {
                #head_load
            }

            /// The live view of slot `index`, or `None` when there is no such slot.
            pub fn slot(&self, index: usize) -> Option<#slot_view<'a>> {
                if index >= self.count {
                    return None;
                }
                let region = self.slots.sub(index * self.size, self.size, #align).ok()?;
                #slot_view::at(region, 0).ok()
            }

            /// The newest slot, copied under its seqlock: `Ok(None)` before the first
            /// publication. A writer that laps the reader during the copy makes it
            /// retry, so the copy is always one whole publication.
            pub fn read_newest(&self) -> Result<Option<#value>, SeqLockError> {
                Ok(self.read_newest_counted(::abi_runtime::DEFAULT_TRIES)?.map(|(value, _)| value))
            }

            /// [`Self::read_newest`] with at most `max_tries` tries, also returning
            /// how many retries the copy took. Each try picks the newest slot again,
            /// so a reader the writer laps moves on to the newer publication.
            pub fn read_newest_counted(&self, max_tries: u32) -> Result<Option<(#value, u32)>, SeqLockError> {
                let mut out = #new_value;
                Ok(self.read_newest_into(&mut out, max_tries)?.map(|retries| (out, retries)))
            }

            /// [`Self::read_newest_counted`] into a value the caller keeps: `Ok(None)`
            /// before the first publication (and `out` untouched), else the retries.
            pub fn read_newest_into(&self, out: &mut #value, max_tries: u32) -> Result<Option<u32>, SeqLockError> {
                let (published, retries) = ::abi_runtime::retry(max_tries, || {
                    let head = self.head();
                    if head == 0 {
                        return Some(false);
                    }
                    let index = ((head - 1) % self.count as u64) as usize;
                    let slot = self.slot(index)?;
                    SeqLock::<#word>::new(slot.region(), #counter)
                        .try_read(|| slot.#copy(out))
                        .map(|()| true)
                })?;
                Ok(published.then_some(retries))
            }

    }
}

/// `publish`: the writer writes the next slot under its seqlock, then stores the new head;
/// with a `publish_seq`, it first stamps the value with that head.
fn publish_method(schema: &Schema, ring: &Ring, t: &SlotRingTokens) -> TokenStream {
    let RingKind::Slots {
        seqlock,
        publish_seq,
        ..
    } = &ring.kind
    else {
        unreachable!("a ring of slots")
    };
    let lock = &schema.access.seqlocks[*seqlock];
    let SlotRingTokens {
        value,
        write,
        head_wide,
        head_store,
        ..
    } = t;
    // With a publish_seq, publish stamps the value with the head's new value first.
    let (value_ref, stamp, stamp_doc) = match publish_seq {
        Some(f) => {
            let field = &schema.abi.structs[lock.struct_index].fields[*f].name;
            let ident = rust_ident(field);
            let next = if *head_wide {
                quote!(head.wrapping_add(1))
            } else {
                quote!((head + 1) as u32)
            };
            (quote!(&mut #value), quote!(value.#ident = #next;), {
                let doc = format!(
                    " It first sets `value.{field}` to that head: the slot's publication number."
                );
                quote!(#[doc = #doc])
            })
        }
        None => (quote!(&#value), quote!(), quote!()),
    };
    if write_is_checked(schema, lock) {
        quote! {
            /// The writer's side: writes `value` into the next slot under its
            /// seqlock, then publishes it by storing the new head (release), which
            /// it returns. One writer only. An error, with nothing written or
            /// published, if the value does not fit a slot.
            #stamp_doc
            pub fn publish(&self, value: #value_ref) -> Result<u64, RegionError> {
                let head = self.head();
                let index = (head % self.count as u64) as usize;
                #stamp
                if let Some(slot) = self.slot(index) {
                    slot.#write(value)?;
                }
                #head_store?;
                Ok(head.wrapping_add(1))
            }
        }
    } else {
        quote! {
            /// The writer's side: writes `value` into the next slot under its
            /// seqlock, then publishes it by storing the new head (release), which
            /// it returns. One writer only. `Contended` when a word the slot or the
            /// head shares in part kept changing.
            #stamp_doc
            pub fn publish(&self, value: #value_ref) -> Result<u64, ::abi_runtime::Contended> {
                let head = self.head();
                let index = (head % self.count as u64) as usize;
                #stamp
                if let Some(slot) = self.slot(index) {
                    slot.#write(value)?;
                }
                #head_store?;
                Ok(head.wrapping_add(1))
            }
        }
    }
}

/// An event ring: `<ring>_since` and `push_<ring>` on the value type that holds it.
fn events_ring(
    schema: &Schema,
    ring: &Ring,
    total: FieldRef,
    entries: FieldRef,
    capacity: u64,
) -> TokenStream {
    let s = &schema.abi.structs[total.struct_index];
    let holder = type_ident(&s.name);
    let total_name = rust_ident(&s.fields[total.field].name);
    let total_doc_name = &s.fields[total.field].name;
    let total = if matches!(s.fields[total.field].ty.elem, Elem::Prim(Prim::U64)) {
        quote!(self.#total_name)
    } else {
        quote!(u64::from(self.#total_name))
    };
    let entries_name = rust_ident(&s.fields[entries.field].name);
    let elem = match s.fields[entries.field].ty.elem {
        Elem::Struct(j) => {
            let t = type_ident(&schema.abi.structs[j].name);
            quote!(super::#t)
        }
        _ => value_type(
            schema,
            &Type {
                len: None,
                ..s.fields[entries.field].ty.clone()
            },
        ),
    };
    let since = format_ident!("{}_since", ring.name);
    let push = format_ident!("push_{}", ring.name);
    let cap = lit(capacity);
    let push_doc = doc_lit!(
        " The writer's side of ring `{}`: stores `entry` as entry number `{}` (at `{}[n % {capacity}]`, over the oldest once the ring is full) and counts it. Returns its number. `self` is a value the writer then publishes (a ring slot's payload, a seqlocked record).",
        ring.name,
        total_doc_name,
        s.fields[entries.field].name,
    );
    let doc = doc_lit!(
        " The ring `{}`: `{}` counts entries ever written, and entry `i` is `{}[i % {capacity}]`. Returns the entries from number `count` on, oldest first; those already overwritten are skipped, and [`abi_runtime::EventsSince::lost`] counts them. {}",
        ring.name,
        total_doc_name,
        s.fields[entries.field].name,
        ring.doc
    );
    quote! {
        impl super::#holder {
            #[doc = #doc]
            pub fn #since(&self, count: u64) -> ::abi_runtime::EventsSince<'_, #elem> {
                ::abi_runtime::EventsSince::new(&self.#entries_name, #total, count)
            }
            #[doc = #push_doc]
            pub fn #push(&mut self, entry: #elem) -> u64 {
                let n = #total;
                self.#entries_name[(n % #cap) as usize] = entry;
                self.#total_name = self.#total_name.wrapping_add(1);
                n
            }
        }
    }
}
