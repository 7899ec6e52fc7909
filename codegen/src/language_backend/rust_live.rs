//! The Rust live layer: `pub mod live`, views of the structs that live in shared memory.
//! A view is a bounds-checked `abi_runtime::Region`, never a reference; every field is
//! read and written through the runtime's atomics at the offsets of the layout, with the
//! orderings the schema's access implies. Seqlocks read into value types and retry; rings
//! find their newest slot or the events since a count.
//!
//! One `expand_*` per kind of thing; the hard parts (raw pointers, atomic copies, the
//! seqlock's orderings) are hand-written once in the `abi-runtime` crate.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::rust::{rust_ident, type_ident};
use crate::Schema;
use crate::ir::access::{AccessKind, Guard, Ring, RingKind, Seqlock, StructAccess};
use crate::ir::{Elem, Field, Prim, Type};
use crate::layout::StructLayout;

/// Whether the schema declares any shared memory, and so whether there is a live layer.
pub fn has_live_layer(schema: &Schema) -> bool {
    schema.access.structs.iter().any(|s| s.shared)
}

/// Roughly how much the live layer costs to expand, parse and print.
pub fn live_weight(schema: &Schema) -> usize {
    (0..schema.abi.structs.len())
        .filter(|&i| has_view(schema, i))
        .map(|i| 3 + schema.abi.structs[i].fields.len())
        .sum::<usize>()
        + 10 * (schema.access.seqlocks.len() + schema.access.rings.len())
}

/// Whether struct `i` needs a live view when another struct holds it: it has an atomic
/// field or a seqlock, or holds a struct that does. Otherwise it is read and written as a
/// value, by copy.
fn needs_view(schema: &Schema, i: usize) -> bool {
    let a = &schema.access.structs[i];
    if !a.shared || a.guarded_whole {
        return false;
    }
    a.fields.iter().any(|f| f.kind.is_atomic())
        || !a.seqlocks.is_empty()
        || schema.abi.structs[i]
            .fields
            .iter()
            .any(|f| match f.ty.elem {
                Elem::Struct(j) => j != i && needs_view(schema, j),
                _ => false,
            })
}

/// Whether struct `i` gets a live view: a shared struct that is not copied whole under a
/// seqlock, and either needs one or is not held by another shared struct (a header).
fn has_view(schema: &Schema, i: usize) -> bool {
    let a = &schema.access.structs[i];
    if !a.shared || a.guarded_whole {
        return false;
    }
    let held = schema.abi.structs.iter().enumerate().any(|(j, s)| {
        schema.access.structs[j].shared && s.fields.iter().any(|f| f.ty.elem == Elem::Struct(i))
    });
    needs_view(schema, i) || !held
}

/// `pub mod live { ... }`.
pub fn expand_live(schema: &Schema) -> TokenStream {
    let abi = &schema.abi;
    let views = (0..abi.structs.len())
        .filter(|&i| has_view(schema, i))
        .map(|i| expand_view(schema, i));
    let locks = schema
        .access
        .seqlocks
        .iter()
        .map(|l| expand_seqlock_value(schema, l));
    let rings = schema.access.rings.iter().map(|r| expand_ring(schema, r));
    let doc = format!(
        " Live views of the {} ABI's shared memory: every access is atomic, at the layout's offsets.\n\n \
         A view wraps an [`abi_runtime::Region`] (a pointer and a length, checked once when the view is \
         built), never a reference: memory another process writes must not be behind a `&T`. Atomic \
         fields load with acquire and store with release; plain fields are copied with relaxed atomic \
         loads; the bytes a seqlock guards are read into value types and re-checked, with a bounded \
         number of tries.",
        abi.name
    );
    quote! {
        #[doc = #doc]
        pub mod live {
            use ::abi_runtime::{Region, RegionError, SeqLock, SeqLockError};
            use ::core::sync::atomic::Ordering;
            use ::zerocopy::{FromZeros, IntoBytes};

            #(#views)*
            #(#locks)*
            #(#rings)*
        }
    }
}

/// The Rust value type of a field, from the live module.
fn value_type(schema: &Schema, ty: &Type) -> TokenStream {
    let abi = &schema.abi;
    let elem = match ty.elem {
        Elem::Prim(p) => {
            let p = format_ident!("{}", p.name());
            quote!(#p)
        }
        Elem::Char => quote!(u8),
        Elem::Enum(i) => {
            let t = type_ident(&abi.enums[i].name);
            quote!(super::#t)
        }
        Elem::Struct(i) => {
            let t = type_ident(&abi.structs[i].name);
            quote!(super::#t)
        }
    };
    match ty.len {
        None => elem,
        Some(len) => {
            let n = Literal::u64_unsuffixed(len.count);
            quote!([#elem; #n])
        }
    }
}

fn lit(n: u64) -> Literal {
    Literal::usize_unsuffixed(n as usize)
}

/// The integer primitive an atomic word of `width` bytes is accessed as.
fn word_type(width: u64) -> TokenStream {
    match width {
        1 => quote!(u8),
        2 => quote!(u16),
        4 => quote!(u32),
        _ => quote!(u64),
    }
}

/// The representation of an atomic scalar field, and whether it is an enum newtype.
fn atomic_repr(schema: &Schema, f: &Field) -> (TokenStream, bool) {
    match f.ty.elem {
        Elem::Prim(p) => {
            let p = format_ident!("{}", p.name());
            (quote!(#p), false)
        }
        Elem::Enum(i) => {
            let p = format_ident!("{}", schema.abi.enums[i].repr.name());
            (quote!(#p), true)
        }
        _ => unreachable!("lowering admits only integers and enums as atomic"),
    }
}

fn writers_doc(schema: &Schema, a: &StructAccess, fi: usize) -> String {
    let w = a.fields[fi].writers.describe(&schema.access.parties);
    if w.is_empty() {
        String::new()
    } else {
        format!(" Written by the {w}.")
    }
}

fn expand_view(schema: &Schema, si: usize) -> TokenStream {
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
    let doc = format!(
        " A live view of [`super::{ty}`] in shared memory ({} bytes, align {}){}.",
        l.size,
        l.align,
        if writers.is_empty() {
            String::new()
        } else {
            format!(", written by the {writers}")
        }
    );
    let at = if a.trailer.is_empty() {
        quote! {
            /// Views the `SIZE` bytes at `offset` of `region`; an error if they are out of
            /// bounds or not aligned to `ALIGN`.
            pub fn at(region: Region<'a>, offset: usize) -> Result<Self, RegionError> {
                region.sub(offset, Self::SIZE, Self::ALIGN).map(|region| Self { region })
            }
        }
    } else {
        quote! {
            /// Views the bytes from `offset` to the end of `region`: the struct, then its
            /// trailer. An error if they are fewer than `MIN_LEN` or not aligned to `ALIGN`.
            pub fn at(region: Region<'a>, offset: usize) -> Result<Self, RegionError> {
                let region = region.tail(offset, Self::ALIGN)?;
                region.sub(0, Self::MIN_LEN, Self::ALIGN)?;
                Ok(Self { region })
            }
        }
    };
    let accessors = s
        .fields
        .iter()
        .enumerate()
        .map(|(fi, f)| expand_accessors(schema, si, fi, f, l));
    let locks = a
        .seqlocks
        .iter()
        .map(|&k| expand_seqlock_methods(schema, &schema.access.seqlocks[k]));
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy)]
        pub struct #ty<'a> {
            region: Region<'a>,
        }

        impl<'a> #ty<'a> {
            /// Bytes of the struct.
            pub const SIZE: usize = #size;
            /// The alignment its bytes need.
            pub const ALIGN: usize = #align;
            /// Bytes of the struct and the fixed part of its trailer.
            pub const MIN_LEN: usize = #min_len;

            #at

            /// The bytes this view covers.
            pub fn region(&self) -> Region<'a> {
                self.region
            }

            #(#accessors)*
            #(#locks)*
        }
    }
}

fn expand_accessors(
    schema: &Schema,
    si: usize,
    fi: usize,
    f: &Field,
    l: &StructLayout,
) -> TokenStream {
    let a = &schema.access.structs[si];
    let fa = &a.fields[fi];
    if f.is_padding() || fa.guarded_by.is_some() {
        return TokenStream::new();
    }
    let fl = &l.fields[fi];
    let off = lit(fl.offset);
    let name = rust_ident(&f.name);
    let set = format_ident!("set_{}", f.name);
    let who = writers_doc(schema, a, fi);
    match fa.kind {
        AccessKind::Atomic { width } | AccessKind::Cas { width } if f.ty.len.is_some() => {
            // An array claimed as one word: read and swapped whole, its elements taken
            // from the loaded word.
            let word = word_type(width);
            let vt = value_type(schema, &f.ty);
            let cx = format_ident!("compare_exchange_{}", f.name);
            let get_doc = format!(
                " `{}`, loaded as one {width}-byte word (acquire).{who}",
                f.name
            );
            let cx_doc = format!(
                " Compare-and-swap of `{}` as one {width}-byte word (acquire-release): `Ok` with the old value, or `Err` with the value found.",
                f.name
            );
            let byte_cas = if f.ty.elem == Elem::Prim(Prim::U8) {
                let cxa = format_ident!("compare_exchange_{}_at", f.name);
                let n = lit(f.ty.count());
                let doc = format!(
                    " Sets element `index` of `{}` from `current` to `new` by compare-and-swap of the whole word, retrying while only other elements change: `Err` with the element found. Panics if `index >= {}`.",
                    f.name,
                    f.ty.count()
                );
                quote! {
                    #[doc = #doc]
                    pub fn #cxa(&self, index: usize, current: u8, new: u8) -> Result<(), u8> {
                        assert!(index < #n, "element index out of range");
                        self.region.compare_exchange_byte::<#word>(#off, index, current, new)
                    }
                }
            } else {
                TokenStream::new()
            };
            quote! {
                #[doc = #get_doc]
                pub fn #name(&self) -> #vt {
                    ::zerocopy::transmute!(self.region.load::<#word>(#off, Ordering::Acquire))
                }
                #[doc = #cx_doc]
                pub fn #cx(&self, current: #vt, new: #vt) -> Result<#vt, #vt> {
                    let current: #word = ::zerocopy::transmute!(current);
                    let new: #word = ::zerocopy::transmute!(new);
                    self.region
                        .compare_exchange::<#word>(#off, current, new)
                        .map(|v| ::zerocopy::transmute!(v))
                        .map_err(|v| ::zerocopy::transmute!(v))
                }
                #byte_cas
            }
        }
        AccessKind::Atomic { .. } | AccessKind::Cas { .. } => {
            let (repr, is_enum) = atomic_repr(schema, f);
            let vt = value_type(schema, &f.ty);
            // An enum or flag set is a newtype over its representation.
            let wrap = |e: TokenStream| if is_enum { quote!(#vt(#e)) } else { e };
            let unwrap = if is_enum {
                quote!(.0)
            } else {
                TokenStream::new()
            };
            let map = if is_enum {
                quote!(.map(#vt).map_err(#vt))
            } else {
                TokenStream::new()
            };
            let load = wrap(quote!(self.region.load::<#repr>(#off, Ordering::Acquire)));
            let swapped =
                wrap(quote!(self.region.swap::<#repr>(#off, value #unwrap, Ordering::AcqRel)));
            let is_counter = a
                .seqlocks
                .iter()
                .any(|&k| schema.access.seqlocks[k].counter == fi);
            let get_doc = format!(" `{}`, an atomic load (acquire).{who}", f.name);
            let set_doc = format!(
                " Stores `{}` atomically (release), publishing what was written before.",
                f.name
            );
            if is_counter {
                // A seqlock's counter changes only through its `write_` method.
                let get_doc = format!(
                    " `{}`, a seqlock counter (acquire): odd while its writer writes.{who}",
                    f.name
                );
                return quote! {
                    #[doc = #get_doc]
                    pub fn #name(&self) -> #vt {
                        #load
                    }
                };
            }
            let mut methods = quote! {
                #[doc = #get_doc]
                pub fn #name(&self) -> #vt {
                    #load
                }
                #[doc = #set_doc]
                pub fn #set(&self, value: #vt) {
                    self.region.store::<#repr>(#off, value #unwrap, Ordering::Release)
                }
            };
            if !is_enum {
                let add = format_ident!("fetch_add_{}", f.name);
                let doc = format!(
                    " Adds to `{}` atomically (acquire-release, wrapping) and returns the old value.",
                    f.name
                );
                methods.extend(quote! {
                    #[doc = #doc]
                    pub fn #add(&self, value: #vt) -> #vt {
                        self.region.fetch_add::<#repr>(#off, value, Ordering::AcqRel)
                    }
                });
            }
            if matches!(fa.kind, AccessKind::Cas { .. }) {
                let cx = format_ident!("compare_exchange_{}", f.name);
                let swap = format_ident!("swap_{}", f.name);
                let cx_doc = format!(
                    " Compare-and-swap of `{}` (acquire-release): `Ok` with the old value, or `Err` with the value found.",
                    f.name
                );
                let swap_doc = format!(
                    " Swaps `{}` atomically (acquire-release) and returns the old value.",
                    f.name
                );
                methods.extend(quote! {
                    #[doc = #cx_doc]
                    pub fn #cx(&self, current: #vt, new: #vt) -> Result<#vt, #vt> {
                        self.region
                            .compare_exchange::<#repr>(#off, current #unwrap, new #unwrap)
                            #map
                    }
                    #[doc = #swap_doc]
                    pub fn #swap(&self, value: #vt) -> #vt {
                        #swapped
                    }
                });
            }
            methods
        }
        AccessKind::Plain => match f.ty.elem {
            Elem::Struct(j) if needs_view(schema, j) => {
                let view = type_ident(&schema.abi.structs[j].name);
                match f.ty.len {
                    None => {
                        let doc = format!(" The live view of `{}`.{who}", f.name);
                        quote! {
                            #[doc = #doc]
                            pub fn #name(&self) -> #view<'a> {
                                #view::at(self.region, #off).expect("inside a view checked when it was built")
                            }
                        }
                    }
                    Some(len) => {
                        let n = lit(len.count);
                        let elem = lit(fl.elem_size);
                        let doc = format!(
                            " The live view of `{}[index]`, or `None` when `index` is {} or more.{who}",
                            f.name, len.count
                        );
                        quote! {
                            #[doc = #doc]
                            pub fn #name(&self, index: usize) -> Option<#view<'a>> {
                                (index < #n).then(|| {
                                    #view::at(self.region, #off + index * #elem)
                                        .expect("inside a view checked when it was built")
                                })
                            }
                        }
                    }
                }
            }
            _ => {
                let vt = value_type(schema, &f.ty);
                let get_doc = format!(
                    " `{}`, copied with relaxed atomic loads: a plain field, written before it is published.{who}",
                    f.name
                );
                let set_doc = format!(
                    " Writes `{}` with relaxed atomic stores; publish it with a release store of the field readers poll.",
                    f.name
                );
                quote! {
                    #[doc = #get_doc]
                    pub fn #name(&self) -> #vt {
                        self.region.read::<#vt>(#off)
                    }
                    #[doc = #set_doc]
                    pub fn #set(&self, value: #vt) {
                        self.region.write::<#vt>(#off, &value)
                    }
                }
            }
        },
    }
}

/// Whether seqlock `lock` guards its whole struct but the counter (and the struct's other
/// atomic fields), and nothing else: it then reads into the struct's own value type.
fn guards_whole_struct(schema: &Schema, lock: &Seqlock) -> bool {
    let a = &schema.access.structs[lock.struct_index];
    let fields = lock
        .guards
        .iter()
        .filter(|g| matches!(g, Guard::Field(_)))
        .count();
    let guardable = a
        .fields
        .iter()
        .enumerate()
        .filter(|(i, f)| *i != lock.counter && !f.kind.is_atomic())
        .count();
    fields == lock.guards.len() && fields == guardable
}

/// The guards of a value-type seqlock in copy order: fields (a size field comes before the
/// part it sizes), then trailer parts; declared padding is left out.
fn value_guards(schema: &Schema, lock: &Seqlock) -> Vec<Guard> {
    let s = &schema.abi.structs[lock.struct_index];
    let fields = lock
        .guards
        .iter()
        .filter(|g| matches!(g, Guard::Field(f) if !s.fields[*f].is_padding()));
    let parts = lock
        .guards
        .iter()
        .filter(|g| matches!(g, Guard::Trailer(_)));
    fields.chain(parts).copied().collect()
}

/// The value type a seqlock reads into: the struct itself, or one made of the guarded
/// fields and trailer parts (`ParamDefs { def_count, defs }`).
fn expand_seqlock_value(schema: &Schema, lock: &Seqlock) -> TokenStream {
    if guards_whole_struct(schema, lock) {
        return TokenStream::new();
    }
    let s = &schema.abi.structs[lock.struct_index];
    let a = &schema.access.structs[lock.struct_index];
    let ty = type_ident(&lock.name);
    let doc = format!(
        " What seqlock `{}` guards, as one consistent copy.{}",
        lock.name,
        if lock.doc.is_empty() {
            String::new()
        } else {
            format!(" {}", lock.doc)
        }
    );
    let mut fields = Vec::new();
    let mut inits = Vec::new();
    for g in &value_guards(schema, lock) {
        match *g {
            Guard::Field(fi) => {
                let f = &s.fields[fi];
                let name = rust_ident(&f.name);
                let vt = value_type(schema, &f.ty);
                let d = format!(" `{}.{}`.", s.name, f.name);
                fields.push(quote!(#[doc = #d] pub #name: #vt));
                inits.push(quote!(#name: FromZeros::new_zeroed()));
            }
            Guard::Trailer(ti) => {
                let t = &a.trailer[ti];
                let name = rust_ident(&t.name);
                let vt = value_type(schema, &t.ty);
                if t.size_field.is_some() {
                    // A slot's payload is large: boxed, so that the value moves cheaply.
                    let d = format!(
                        " The trailer part `{}`: `{}`, as much of it as the producer wrote, the rest zero.",
                        t.name, t.ty.text
                    );
                    fields.push(quote!(#[doc = #d] pub #name: ::std::boxed::Box<#vt>));
                    inits.push(quote!(#name: <#vt as FromZeros>::new_box_zeroed().expect("memory for the payload")));
                } else {
                    let d = format!(" The trailer part `{}`: `{}`.", t.name, t.ty.text);
                    fields.push(quote!(#[doc = #d] pub #name: #vt));
                    inits.push(quote!(#name: FromZeros::new_zeroed()));
                }
                if t.size_field.is_some() {
                    let extra = format_ident!("{}_extra", t.name);
                    let d = format!(
                        " The bytes of `{}` past its type's size (a newer producer's tail, or extras).",
                        t.name
                    );
                    fields.push(quote!(#[doc = #d] pub #extra: ::std::vec::Vec<u8>));
                    inits.push(quote!(#extra: ::std::vec::Vec::new()));
                }
            }
        }
    }
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug)]
        pub struct #ty {
            #(#fields,)*
        }

        impl #ty {
            /// All zero.
            pub fn zeroed() -> Self {
                Self { #(#inits,)* }
            }
        }

        impl ::core::default::Default for #ty {
            fn default() -> Self {
                Self::zeroed()
            }
        }
    }
}

/// Contiguous runs of the fields a seqlock guards, as byte ranges of the struct.
fn guarded_runs(lock: &Seqlock, l: &StructLayout) -> Vec<(u64, u64)> {
    let mut fields: Vec<usize> = lock
        .guards
        .iter()
        .filter_map(|g| match g {
            Guard::Field(f) => Some(*f),
            Guard::Trailer(_) => None,
        })
        .collect();
    fields.sort_unstable();
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for f in fields {
        let (start, end) = (l.fields[f].offset, l.fields[f].offset + l.fields[f].size);
        match runs.last_mut() {
            Some(last) if last.1 == start => last.1 = end,
            _ => runs.push((start, end)),
        }
    }
    runs
}

/// `read_<lock>()` and `write_<lock>()` on the view of the struct holding the counter.
fn expand_seqlock_methods(schema: &Schema, lock: &Seqlock) -> TokenStream {
    let si = lock.struct_index;
    let s = &schema.abi.structs[si];
    let l = schema.layout.of(si);
    let a = &schema.access.structs[si];
    let counter = lit(l.fields[lock.counter].offset);
    let word = word_type(lock.counter_width);
    let read = format_ident!("read_{}", lock.name);
    let write = format_ident!("write_{}", lock.name);
    let writers = lock.writers.describe(&schema.access.parties);
    let readers = lock.readers.describe(&schema.access.parties);
    let whole = guards_whole_struct(schema, lock);
    let value_ty = if whole {
        let t = type_ident(&s.name);
        quote!(super::#t)
    } else {
        let t = type_ident(&lock.name);
        quote!(#t)
    };
    let mut copy_in = Vec::new();
    let mut copy_out = Vec::new();
    let mut sizes = Vec::new();
    if whole {
        copy_in.push(quote!(let bytes = out.as_mut_bytes();));
        copy_out.push(quote!(let bytes = value.as_bytes();));
        for (start, end) in guarded_runs(lock, l) {
            let (s0, e0) = (lit(start), lit(end));
            copy_in.push(quote!(self.region.read_bytes(#s0, &mut bytes[#s0..#e0]);));
            copy_out.push(quote!(self.region.write_bytes(#s0, &bytes[#s0..#e0]);));
        }
    } else {
        // A size field is written from the payload's length, never from the value.
        let size_fields: Vec<usize> = lock
            .guards
            .iter()
            .filter_map(|g| match g {
                Guard::Trailer(t) => a.trailer[*t].size_field,
                Guard::Field(_) => None,
            })
            .collect();
        for g in &value_guards(schema, lock) {
            match *g {
                Guard::Field(fi) => {
                    let name = rust_ident(&s.fields[fi].name);
                    let off = lit(l.fields[fi].offset);
                    copy_in.push(quote!(self.region.read_bytes(#off, out.#name.as_mut_bytes());));
                    if !size_fields.contains(&fi) {
                        copy_out
                            .push(quote!(self.region.write_bytes(#off, value.#name.as_bytes());));
                    }
                }
                Guard::Trailer(ti) => {
                    let t = &a.trailer[ti];
                    let name = rust_ident(&t.name);
                    let off = lit(t.offset);
                    match t.size_field {
                        None => {
                            copy_in.push(
                                quote!(self.region.read_bytes(#off, out.#name.as_mut_bytes());),
                            );
                            copy_out.push(
                                quote!(self.region.write_bytes(#off, value.#name.as_bytes());),
                            );
                        }
                        Some(sf) => {
                            // A part whose length the producer says: copy what the type
                            // holds, zero the rest of it, keep what lies past it.
                            let extra = format_ident!("{}_extra", t.name);
                            let sf_off = lit(l.fields[sf].offset);
                            let sf_ty = value_type(schema, &s.fields[sf].ty);
                            let sf_name = rust_ident(&s.fields[sf].name);
                            let fixed = lit(t.size);
                            let size_now = if lock.guards.contains(&Guard::Field(sf)) {
                                quote!(out.#sf_name as usize)
                            } else {
                                quote!(self.region.read::<#sf_ty>(#sf_off) as usize)
                            };
                            copy_in.push(quote! {
                                let room = self.region.len() - #off;
                                let size = (#size_now).min(room);
                                let head = size.min(#fixed);
                                let bytes = out.#name.as_mut_bytes();
                                self.region.read_bytes(#off, &mut bytes[..head]);
                                bytes[head..].fill(0);
                                out.#extra.resize(size - head, 0);
                                self.region.read_bytes(#off + #fixed, &mut out.#extra);
                            });
                            copy_out.push(quote! {
                                self.region.write_bytes(#off, value.#name.as_bytes());
                                self.region.write_bytes(#off + #fixed, &value.#extra);
                            });
                            sizes.push(quote! {
                                let room = self.region.len() - #off;
                                let size = #fixed + value.#extra.len();
                                assert!(size <= room, "the payload does not fit the region");
                                self.region.store::<#sf_ty>(#sf_off, size as #sf_ty, Ordering::Relaxed);
                            });
                        }
                    }
                }
            }
        }
    }
    let read_doc = format!(
        " Reads what seqlock `{}` guards (written by the {writers}, read by the {readers}): copies it with relaxed atomic loads and keeps the copy only if the counter was even and unchanged, retrying up to [`abi_runtime::DEFAULT_TRIES`] times.",
        lock.name
    );
    let write_doc = format!(
        " Writes what seqlock `{}` guards: makes the counter odd, stores the bytes, makes it even (release). Only one writer at a time: the {writers}.",
        lock.name
    );
    let new_out = if whole {
        quote!(<#value_ty as FromZeros>::new_zeroed())
    } else {
        quote!(#value_ty::zeroed())
    };
    let read_counted = format_ident!("read_{}_counted", lock.name);
    let copy = format_ident!("copy_{}", lock.name);
    let read_into = format_ident!("read_{}_into", lock.name);
    let into_doc = format!(
        " [`Self::{read}_counted`] into a value the caller keeps (no new value, no move of it): returns the retries. Every guarded byte of `out` is overwritten."
    );
    let counted_doc = format!(
        " [`Self::{read}`] with at most `max_tries` tries, also returning how many retries the copy took (0: the first copy held)."
    );
    quote! {
        #[doc = #read_doc]
        pub fn #read(&self) -> Result<#value_ty, SeqLockError> {
            self.#read_counted(::abi_runtime::DEFAULT_TRIES).map(|(value, _)| value)
        }

        #[doc = #counted_doc]
        pub fn #read_counted(&self, max_tries: u32) -> Result<(#value_ty, u32), SeqLockError> {
            let mut out = #new_out;
            let retries = self.#read_into(&mut out, max_tries)?;
            Ok((out, retries))
        }

        #[doc = #into_doc]
        pub fn #read_into(&self, out: &mut #value_ty, max_tries: u32) -> Result<u32, SeqLockError> {
            let lock = SeqLock::<#word>::new(self.region, #counter);
            let ((), retries) = lock.read_counted(max_tries, || self.#copy(out))?;
            Ok(retries)
        }

        /// One copy of the guarded bytes, torn or not: the seqlock decides.
        fn #copy(&self, out: &mut #value_ty) {
            #(#copy_in)*
        }

        #[doc = #write_doc]
        pub fn #write(&self, value: &#value_ty) {
            let lock = SeqLock::<#word>::new(self.region, #counter);
            lock.write(|| {
                #(#sizes)*
                #(#copy_out)*
            });
        }
    }
}

fn expand_ring(schema: &Schema, ring: &Ring) -> TokenStream {
    match &ring.kind {
        RingKind::Slots {
            head,
            slot_count,
            slot_size,
            seqlock,
            ..
        } => {
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
                    quote!(self.head.#head_set(head + 1)),
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
            let (value, new_value) = if guards_whole_struct(schema, lock) {
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
            let align = lit(schema.layout.of(lock.struct_index).align);
            let doc = format!(
                " The ring `{}`: {slot_count} slots of {slot_size} bytes, each a [`{slot_view}`] and its payload under seqlock `{}`. `{}` counts publications: the newest slot is `(head - 1) % {slot_count}`. {}",
                ring.name, lock.name, head_field.name, ring.doc
            );
            quote! {
                #[doc = #doc]
                #[derive(Clone, Copy)]
                pub struct #ty<'a> {
                    head: #head_view<'a>,
                    slots: Region<'a>,
                }

                impl<'a> #ty<'a> {
                    /// Slots in the ring.
                    pub const SLOT_COUNT: usize = #count;
                    /// Bytes per slot, its header included.
                    pub const SLOT_SIZE: usize = #size;

                    /// The ring whose head counter is in `head` and whose slots start at
                    /// `slots`; an error if `slots` is shorter than the slots or misaligned.
                    pub fn new(head: #head_view<'a>, slots: Region<'a>) -> Result<Self, RegionError> {
                        let slots = slots.sub(0, Self::SLOT_COUNT * Self::SLOT_SIZE, #align)?;
                        Ok(Self { head, slots })
                    }

                    /// Publications so far (acquire).
                    pub fn head(&self) -> u64 {
                        #head_load
                    }

                    /// The live view of slot `index`, or `None` when there is no such slot.
                    pub fn slot(&self, index: usize) -> Option<#slot_view<'a>> {
                        if index >= Self::SLOT_COUNT {
                            return None;
                        }
                        let region = self.slots.sub(index * Self::SLOT_SIZE, Self::SLOT_SIZE, #align).ok()?;
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
                            let index = ((head - 1) % Self::SLOT_COUNT as u64) as usize;
                            let slot = self.slot(index)?;
                            SeqLock::<#word>::new(slot.region(), #counter)
                                .try_read(|| slot.#copy(out))
                                .map(|()| true)
                        })?;
                        Ok(published.then_some(retries))
                    }

                    /// The writer's side: writes `value` into the next slot under its
                    /// seqlock, then publishes it by storing the new head (release), which
                    /// it returns. One writer only.
                    pub fn publish(&self, value: &#value) -> u64 {
                        let head = self.head();
                        let index = (head % Self::SLOT_COUNT as u64) as usize;
                        if let Some(slot) = self.slot(index) {
                            slot.#write(value);
                        }
                        #head_store;
                        head + 1
                    }
                }
            }
        }
        RingKind::Events {
            total,
            entries,
            capacity,
        } => {
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
            let doc = format!(
                " The ring `{}`: `{}` counts entries ever written, and entry `i` is `{}[i % {capacity}]`. Returns the entries from number `count` on, oldest first; those already overwritten are skipped, and [`abi_runtime::EventsSince::lost`] counts them. {}",
                ring.name, total_doc_name, s.fields[entries.field].name, ring.doc
            );
            quote! {
                impl super::#holder {
                    #[doc = #doc]
                    pub fn #since(&self, count: u64) -> ::abi_runtime::EventsSince<'_, #elem> {
                        ::abi_runtime::EventsSince::new(&self.#entries_name, #total, count)
                    }
                }
            }
        }
    }
}
