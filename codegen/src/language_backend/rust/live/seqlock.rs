//! Seqlocks in the live layer: the value a seqlock reads into, and the read, counted read,
//! read-into and write methods on the view of the struct that holds the counter.

use crate::language_backend::rust::docs::doc_lit;
use crate::plan::tries::host_reads_client;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::accessors::Methods;
use super::tokens::{lit, value_type, word_type};
use crate::ir::access::{Guard, Seqlock, TrailerPart};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::plan::bound;
use crate::plan::live::{self as live_plan, guarded_runs, value_guards};
use crate::schema::Schema;

/// The value type a seqlock reads into: the struct itself, or one made of the guarded
/// fields and trailer parts (`ParamDefs { def_count, defs }`).
pub(super) fn expand_seqlock_value(schema: &Schema, lock: &Seqlock) -> TokenStream {
    if lock.guards_whole_struct(&schema.access.structs) {
        return TokenStream::new();
    }
    let s = &schema.abi.structs[lock.struct_index];
    let a = &schema.access.structs[lock.struct_index];
    let ty = type_ident(&lock.name);
    let doc = doc_lit!(
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
                let d = doc_lit!(" `{}.{}`.", s.name, f.name);
                fields.push(quote!(#[doc = #d] pub #name: #vt));
                inits.push(quote!(#name: FromZeros::new_zeroed()));
            }
            Guard::Trailer(ti) => {
                let t = &a.trailer[ti];
                let name = rust_ident(&t.name);
                let vt = value_type(schema, &t.ty);
                if t.size_field.is_some() {
                    // A slot's payload is large: boxed, so that the value moves cheaply.
                    let d = doc_lit!(
                        " The trailer part `{}`: `{}`, as much of it as the producer wrote, the rest zero.",
                        t.name,
                        t.ty.text
                    );
                    fields.push(quote!(#[doc = #d] pub #name: ::std::boxed::Box<#vt>));
                    inits.push(quote!(#name: <#vt as FromZeros>::new_box_zeroed().expect("memory for the payload")));
                } else {
                    let d = doc_lit!(" The trailer part `{}`: `{}`.", t.name, t.ty.text);
                    fields.push(quote!(#[doc = #d] pub #name: #vt));
                    inits.push(quote!(#name: FromZeros::new_zeroed()));
                }
                if t.size_field.is_some() {
                    let extra = format_ident!("{}_extra", t.name);
                    let d = doc_lit!(
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

        ::abi_runtime::zeroed_value!(#ty { #(#inits),* });
    }
}

/// `read_<lock>()` and `write_<lock>()` on the view of the struct holding the counter.
pub(super) fn expand_seqlock_methods(schema: &Schema, lock: &Seqlock) -> Methods {
    let si = lock.struct_index;
    let s = &schema.abi.structs[si];
    let l = schema.layout.of(si);
    let counter = lit(l.fields[lock.counter].offset);
    let word = word_type(lock.counter_width);
    let read = format_ident!("read_{}", lock.name);
    // A client's write into its session's block is bound to its claim under the default
    // name (plan::bound); the write without a claim is `write_<lock>_unscoped`.
    let session = schema
        .access
        .seqlocks
        .iter()
        .position(|l| l.name == lock.name)
        .and_then(|k| bound::seqlock_binding(schema, k));
    let bound = session.is_some();
    let default_write = format_ident!("write_{}", lock.name);
    let write = if bound {
        format_ident!("write_{}_{}", lock.name, bound::UNSCOPED)
    } else {
        default_write.clone()
    };
    let writers = lock.writers.describe(&schema.access.parties);
    let readers = lock.readers.describe(&schema.access.parties);
    let whole = lock.guards_whole_struct(&schema.access.structs);
    let value_ty = if whole {
        let t = type_ident(&s.name);
        quote!(super::#t)
    } else {
        let t = type_ident(&lock.name);
        quote!(#t)
    };
    let copies = if whole {
        whole_struct_copies(schema, lock)
    } else {
        guarded_part_copies(schema, lock)
    };
    let SeqlockCopies {
        copy_in,
        copy_out,
        sizes,
        checks,
    } = &copies;
    let host_read = host_reads_client(schema, lock);
    let (tries, tries_doc) = if host_read {
        (
            quote!(HOST_TRIES),
            "[`HOST_TRIES`] times (a host does not wait for a client that died mid-write)",
        )
    } else {
        (
            quote!(::abi_runtime::DEFAULT_TRIES),
            "[`abi_runtime::DEFAULT_TRIES`] times",
        )
    };
    let read_doc = doc_lit!(
        " Reads what seqlock `{}` guards (written by the {writers}, read by the {readers}): copies it with relaxed atomic loads and keeps the copy only if the counter was even and unchanged, retrying up to {tries_doc}.",
        lock.name
    );
    let write_text = format!(
        " Writes what seqlock `{}` guards: makes the counter odd, stores the bytes, makes it even (release). Only one writer at a time: the {writers}. `Contended` when a word it shares in part with another writer kept changing ([`abi_runtime::SeqLock::try_write`]); if that happens after the counter went odd, the counter is left odd (readers get `SeqLockError::Contended`, never half a record) until a later write stores the whole value.",
        lock.name
    );
    let ret = if checks.is_empty() {
        quote!(::abi_runtime::Contended)
    } else {
        quote!(RegionError)
    };
    let write_doc = if bound {
        doc_lit!(
            "{write_text} Bound to no claim: it keeps writing after the row was freed, into the next client's block. For a host, a test or a tool that writes without a claim; a client writes with [`Self::{default_write}`]."
        )
    } else {
        doc_lit!("{write_text}")
    };
    let bound_fn = if let Some(session) = session {
        let session_ty = type_ident(&schema.protocols[session].name);
        let standing = format_ident!("{}Standing", session_ty);
        let d = doc_lit!(
            " Writes what seqlock `{}` guards, bound to `client`'s claim: first loads the claim's standing and, once the row is no longer the claim's (freed, claimed again, reloaded, the host exiting), refuses with it, storing nothing (`Err`); otherwise [`Self::{write}`]'s result. The window left is one write (ATTACH.md, \"What a client does when its row is freed\").",
            lock.name
        );
        quote! {
            #[doc = #d]
            pub fn #default_write(
                &self,
                client: &#session_ty<'_>,
                value: &#value_ty,
            ) -> Result<Result<(), #ret>, #standing> {
                match client.standing() {
                    #standing::Connected => Ok(self.#write(value)),
                    lost => Err(lost),
                }
            }
        }
    } else {
        TokenStream::new()
    };
    let write_fn = if checks.is_empty() {
        quote! {
            #[doc = #write_doc]
            pub fn #write(&self, value: &#value_ty) -> Result<(), ::abi_runtime::Contended> {
                let lock = SeqLock::<#word, A>::new(self.region, #counter);
                lock.try_write(|| -> Result<(), ::abi_runtime::Contended> {
                    #(#copy_out)*
                    Ok(())
                })
            }
        }
    } else {
        let checked_doc = doc_lit!(
            " An error, before the counter is touched, if the value's run-time part does not fit the region (or its size field)."
        );
        quote! {
            #[doc = #write_doc]
            #[doc = ""]
            #[doc = #checked_doc]
            pub fn #write(&self, value: &#value_ty) -> Result<(), RegionError> {
                #(#checks)*
                let lock = SeqLock::<#word, A>::new(self.region, #counter);
                lock.try_write(|| -> Result<(), ::abi_runtime::Contended> {
                    #(#sizes)*
                    #(#copy_out)*
                    Ok(())
                })?;
                Ok(())
            }
        }
    };
    let write_fn = quote!(#bound_fn #write_fn);
    let new_out = if whole {
        quote!(<#value_ty as FromZeros>::new_zeroed())
    } else {
        quote!(#value_ty::zeroed())
    };
    let read_counted = format_ident!("read_{}_counted", lock.name);
    let copy = format_ident!("copy_{}", lock.name);
    let read_into = format_ident!("read_{}_into", lock.name);
    let read = quote! {
        ::abi_runtime::seqlock_reads! {
            #[doc = #read_doc] #read, #read_counted, #read_into, #copy: #value_ty = #new_out, #word @ #counter, #tries;
        }

        /// One copy of the guarded bytes, torn or not: the seqlock decides.
        fn #copy(&self, out: &mut #value_ty) {
            #(#copy_in)*
        }
    };
    Methods {
        read,
        write: write_fn,
        ..Methods::default()
    }
}

/// The statements a seqlock's copy and write are made of, guarded part by guarded part.
#[derive(Default)]
struct SeqlockCopies {
    /// Into `out`, in the copy under the read.
    copy_in: Vec<TokenStream>,
    /// From `value`, under the write.
    copy_out: Vec<TokenStream>,
    /// The size fields of run-time sized parts, stored under the write.
    sizes: Vec<TokenStream>,
    /// What the write checks before it touches the counter.
    checks: Vec<TokenStream>,
}

/// A lock that guards its whole struct: the guarded runs of bytes, copied whole.
fn whole_struct_copies(schema: &Schema, lock: &Seqlock) -> SeqlockCopies {
    let mut copies = SeqlockCopies::default();
    copies.copy_in.push(quote!(let bytes = out.as_mut_bytes();));
    copies.copy_out.push(quote!(let bytes = value.as_bytes();));
    for (start, end) in guarded_runs(schema, lock) {
        let (s0, e0) = (lit(start), lit(end));
        copies
            .copy_in
            .push(quote!(self.region.read_bytes(#s0, &mut bytes[#s0..#e0]);));
        copies
            .copy_out
            .push(quote!(self.region.write_bytes(#s0, &bytes[#s0..#e0])?;));
    }
    copies
}

/// A lock that guards some fields and trailer parts: each copied into its field of the
/// value type.
fn guarded_part_copies(schema: &Schema, lock: &Seqlock) -> SeqlockCopies {
    let si = lock.struct_index;
    let (s, l, a) = (
        &schema.abi.structs[si],
        schema.layout.of(si),
        &schema.access.structs[si],
    );
    let mut copies = SeqlockCopies::default();
    // A size field is written from the payload's length, never from the value.
    let size_fields = live_plan::size_fields(schema, lock);
    for g in &value_guards(schema, lock) {
        match *g {
            Guard::Field(fi) => {
                let name = rust_ident(&s.fields[fi].name);
                let off = lit(l.fields[fi].offset);
                copies
                    .copy_in
                    .push(quote!(self.region.read_bytes(#off, out.#name.as_mut_bytes());));
                if !size_fields.contains(&fi) {
                    copies
                        .copy_out
                        .push(quote!(self.region.write_bytes(#off, value.#name.as_bytes())?;));
                }
            }
            Guard::Trailer(ti) => {
                let t = &a.trailer[ti];
                let name = rust_ident(&t.name);
                let off = lit(t.offset);
                match t.size_field {
                    None => {
                        copies
                            .copy_in
                            .push(quote!(self.region.read_bytes(#off, out.#name.as_mut_bytes());));
                        copies
                            .copy_out
                            .push(quote!(self.region.write_bytes(#off, value.#name.as_bytes())?;));
                    }
                    Some(sf) => {
                        sized_trailer_copies(schema, lock, t, sf, &mut copies);
                    }
                }
            }
        }
    }
    copies
}

/// Trailer part `t`, whose length its producer says in size field `sf`: the copy takes what
/// the type holds, zeroes the rest of it and keeps what lies past it; the write checks the
/// length fits, then stores it.
fn sized_trailer_copies(
    schema: &Schema,
    lock: &Seqlock,
    t: &TrailerPart,
    sf: usize,
    copies: &mut SeqlockCopies,
) {
    let si = lock.struct_index;
    let (s, l) = (&schema.abi.structs[si], schema.layout.of(si));
    let name = rust_ident(&t.name);
    let off = lit(t.offset);
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
    copies.copy_in.push(quote! {
        let room = self.region.len() - #off;
        let size = (#size_now).min(room);
        let head = size.min(#fixed);
        let bytes = out.#name.as_mut_bytes();
        self.region.read_bytes(#off, &mut bytes[..head]);
        bytes[head..].fill(0);
        out.#extra.resize(size - head, 0);
        // Nothing past the fixed part: a region that ends before it
        // (a slot smaller than the value) has no offset to read at.
        if size > head {
            self.region.read_bytes(#off + #fixed, &mut out.#extra);
        }
    });
    copies.copy_out.push(quote! {
        self.region.write_bytes(#off, value.#name.as_bytes())?;
        self.region.write_bytes(#off + #fixed, &value.#extra)?;
    });
    copies.checks.push(quote! {
        let size = #fixed + value.#extra.len();
        let room = self.region.len() - #off;
        if size > room || #sf_ty::try_from(size).is_err() {
            return Err(::abi_runtime::RegionErrorKind::OutOfBounds {
                offset: #off,
                len: size,
                region_len: self.region.len(),
            }
            .into());
        }
    });
    copies.sizes.push(quote! {
        let size = #fixed + value.#extra.len();
        self.region.try_store::<#sf_ty>(#sf_off, size as #sf_ty, ::core::sync::atomic::Ordering::Relaxed)?;
    });
}

/// `true` when the lock's `write_` method checks the value before it writes and returns a
/// `Result`: a guarded trailer part has a run-time size (a ring slot's payload).
pub(super) fn write_is_checked(schema: &Schema, lock: &Seqlock) -> bool {
    let a = &schema.access.structs[lock.struct_index];
    lock.guards.iter().any(|g| match *g {
        Guard::Trailer(ti) => a.trailer[ti].size_field.is_some(),
        _ => false,
    })
}
