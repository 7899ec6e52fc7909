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
    let SlotRingTokens {
        ty,
        doc,
        head_view,
        head_get,
        slot_view,
        count,
        size,
        least,
        align,
        align_bits,
        value,
        new_value,
        word,
        counter,
        copy,
        head_wide,
        ..
    } = &t;
    let width = if *head_wide { quote!(u64) } else { quote!(u32) };
    quote! {
        ::abi_runtime::slots_ring! {
            #[doc = #doc] #ty: head #head_view.#head_get as #width, slot #slot_view, count #count, size #size, least #least, align #align (log2 #align_bits), value #value = #new_value, lock #word @ #counter, copy #copy;
        }
        impl #ty<'_> {
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
    /// The head counter's getter on its view.
    head_get: Ident,
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
        let head_store = if head_wide {
            quote!(self.head.#head_set(head.wrapping_add(1)))
        } else {
            quote!(self.head.#head_set((head + 1) as u32))
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
            head_get,
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
