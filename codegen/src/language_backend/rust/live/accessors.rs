//! The live view's accessors of one field: by its access, a word-claimed array, an atomic
//! (with fetch-add, compare-and-swap and swap as it allows), a nested view, or a plain copy.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::tokens::{lit, value_type, word_type};
use crate::ir::StructId;
use crate::ir::access::{AccessKind, FieldAccess, StructAccess};
use crate::ir::{Elem, Field, Prim};
use crate::language_backend::rust::docs::doc_lit;
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::layout::{FieldLayout, StructLayout};
use crate::plan::live::needs_view;
use crate::plan::row_loads::is_text;
use crate::schema::Schema;

/// A view's methods of one field (or one seqlock): those that only read, and those that write
/// (each kind in its own `impl` block, the second bounded by `A: Writable`). The simple ones
/// are lines of the runtime's `view_accessors!` (one line per method, expanding to the same
/// method); the rest are methods.
#[derive(Default)]
pub(super) struct Methods {
    /// Methods for any access: getters, nested views, seqlock reads.
    pub(super) read: TokenStream,
    /// Methods for a writable view: setters, read-modify-writes, seqlock writes.
    pub(super) write: TokenStream,
    /// `view_accessors!` lines of getters.
    pub(super) read_lines: TokenStream,
    /// `view_accessors!` lines of setters and read-modify-writes.
    pub(super) write_lines: TokenStream,
}

impl Methods {
    /// A method's `view_accessors!` line, or the method itself when it has none (an added
    /// field's accessor of a kind the macro does not gate, which
    /// [`super::added::gate_accessors`] rewrites).
    fn push(&mut self, writes: bool, line: Option<TokenStream>, method: TokenStream) {
        let (lines, methods) = if writes {
            (&mut self.write_lines, &mut self.write)
        } else {
            (&mut self.read_lines, &mut self.read)
        };
        match line {
            Some(line) => lines.extend(line),
            None => methods.extend(method),
        }
    }
}

/// Where a field a later minor version added is, and since when: its accessors are gated.
pub(super) struct Gate {
    /// The field's offset in its record.
    pub(super) offset: u64,
    /// Its end.
    pub(super) end: u64,
    /// The version that added it.
    pub(super) since: String,
}

/// The paragraph an added field's accessors add to their docs.
pub(super) fn added_doc(since: &str) -> Literal {
    doc_lit!(
        " Added in {since}: absent when the producer's record (its size field) ends before it."
    )
}

/// The kinds of `view_accessors!` line that take `, added LO..HI`.
const GATED_KINDS: [&str; 4] = ["load", "store", "read", "write"];

/// One `view_accessors!` line: `#[doc] KIND NAME @ OFFSET: TYPE` (`as REPR` for an enum), and
/// `, added LO..HI` with a paragraph of doc for an added field; `None` for an added field's
/// accessor of a kind the macro does not gate.
fn line(
    c: &FieldTokens,
    doc: &Literal,
    kind: &str,
    name: &Ident,
    off: &Literal,
    vt: &TokenStream,
    repr: Option<&TokenStream>,
) -> Option<TokenStream> {
    let ident = format_ident!("{kind}");
    let repr = repr.map(|r| quote!(as #r));
    match &c.gate {
        None => Some(quote!(#[doc = #doc] #ident #name @ #off: #vt #repr;)),
        Some(g) if GATED_KINDS.contains(&kind) => {
            let (lo, hi) = (lit(g.offset), lit(g.end));
            let added = added_doc(&g.since);
            Some(
                quote!(#[doc = #doc] #[doc = ""] #[doc = #added] #ident #name @ #off: #vt #repr, added #lo..#hi;),
            )
        }
        Some(_) => None,
    }
}

/// The accessors of field `fi` (`f`) of struct `si`, laid out by `l`: none for padding or a
/// field a seqlock guards (its value type has it).
pub(super) fn expand_accessors(
    schema: &Schema,
    si: StructId,
    fi: usize,
    f: &Field,
    l: &StructLayout,
    gate: Option<Gate>,
) -> Methods {
    let a = &schema.access.structs[si];
    let fa = &a.fields[fi];
    if f.is_padding() || fa.guarded_by.is_some() {
        return Methods::default();
    }
    let fl = &l.fields[fi];
    let c = FieldTokens {
        schema,
        f,
        off: lit(fl.offset),
        name: rust_ident(&f.name),
        set: format_ident!("set_{}", f.name),
        who: writers_doc(schema, a, fi),
        gate,
    };
    match fa.kind {
        AccessKind::Atomic { width } | AccessKind::Cas { width } if f.ty.len.is_some() => {
            word_array_accessors(&c, width)
        }
        AccessKind::Atomic { .. } | AccessKind::Cas { .. } => atomic_accessors(&c, a, fa, fi),
        AccessKind::Plain => match f.ty.elem {
            Elem::Struct(j) if needs_view(schema, j) => view_accessor(&c, j, fl),
            _ => plain_accessors(&c),
        },
    }
}

/// What every accessor of one field interpolates.
struct FieldTokens<'a> {
    schema: &'a Schema,
    f: &'a Field,
    /// The field's offset in its struct.
    off: Literal,
    /// The getter's name: the field's.
    name: Ident,
    /// The setter's name.
    set: Ident,
    /// Who writes the field, as a doc sentence.
    who: String,
    /// Where the field is when a later minor version added it: its accessors are gated.
    gate: Option<Gate>,
}

/// An array claimed as one word: read and swapped whole, its elements taken from the
/// loaded word; a byte array also gets a compare-and-swap of one element.
fn word_array_accessors(c: &FieldTokens, width: u64) -> Methods {
    let FieldTokens {
        schema,
        f,
        off,
        name,
        who,
        ..
    } = c;
    let word = word_type(width);
    let vt = value_type(schema, &f.ty);
    let cx = format_ident!("compare_exchange_{}", f.name);
    let get_doc = doc_lit!(
        " `{}`, loaded as one {width}-byte word (acquire).{who}",
        f.name
    );
    let cx_doc = doc_lit!(
        " Compare-and-swap of `{}` as one {width}-byte word (acquire-release): `Ok(Ok)` with the old value, `Ok(Err)` with the value found, or `Err(Contended)` (a word narrower than 8 bytes whose neighbours kept changing).",
        f.name
    );
    let byte_cas = if f.ty.elem == Elem::Prim(Prim::U8) {
        let cxa = format_ident!("compare_exchange_{}_at", f.name);
        let n = lit(f.ty.count());
        let doc = doc_lit!(
            " Sets element `index` of `{}` from `current` to `new` by compare-and-swap of the whole word, retrying while only other elements change: `Ok(Err)` with the element found, `Err(Contended)` when other elements changed before each of [`abi_runtime::CAS_TRIES`] tries. Panics if `index >= {}`.",
            f.name,
            f.ty.count()
        );
        quote! {
            #[doc = #doc]
            pub fn #cxa(&self, index: usize, current: u8, new: u8) -> Result<Result<(), u8>, ::abi_runtime::Contended> {
                assert!(index < #n, "element index out of range");
                self.region.compare_exchange_byte::<#word>(#off, index, current, new)
            }
        }
    } else {
        TokenStream::new()
    };
    let read = quote! {
        #[doc = #get_doc]
        pub fn #name(&self) -> #vt {
            ::zerocopy::transmute!(self.region.load::<#word>(#off, ::core::sync::atomic::Ordering::Acquire))
        }
    };
    let write = quote! {
        #[doc = #cx_doc]
        pub fn #cx(&self, current: #vt, new: #vt) -> Result<Result<#vt, #vt>, ::abi_runtime::Contended> {
            let current: #word = ::zerocopy::transmute!(current);
            let new: #word = ::zerocopy::transmute!(new);
            let found = self.region.try_compare_exchange::<#word>(#off, current, new)?;
            Ok(found
                .map(|v| ::zerocopy::transmute!(v))
                .map_err(|v| ::zerocopy::transmute!(v)))
        }
        #byte_cas
    };
    Methods {
        read,
        write,
        ..Methods::default()
    }
}

/// An atomic field: its load, and unless it is a seqlock counter, its store, fetch-add
/// (not for an enum) and, for a `cas` field, compare-and-swap and swap.
fn atomic_accessors(c: &FieldTokens, a: &StructAccess, fa: &FieldAccess, fi: usize) -> Methods {
    let FieldTokens {
        schema,
        f,
        off,
        name,
        set,
        who,
        ..
    } = c;
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
    let load =
        wrap(quote!(self.region.load::<#repr>(#off, ::core::sync::atomic::Ordering::Acquire)));
    let swapped = wrap(quote!(old));
    let is_counter = a
        .seqlocks
        .iter()
        .any(|&k| schema.access.seqlocks[k].counter == fi);
    // An enum's line names its integer: `TYPE as REPR`.
    let as_repr = is_enum.then_some(&repr);
    let mut m = Methods::default();
    let get_doc = if is_counter {
        // A seqlock's counter changes only through its `write_` method.
        doc_lit!(
            " `{}`, a seqlock counter (acquire): odd while its writer writes.{who}",
            f.name
        )
    } else {
        doc_lit!(" `{}`, an atomic load (acquire).{who}", f.name)
    };
    m.push(
        false,
        line(c, &get_doc, "load", name, off, &vt, as_repr),
        quote! {
            #[doc = #get_doc]
            pub fn #name(&self) -> #vt {
                #load
            }
        },
    );
    if is_counter {
        return m;
    }
    let set_doc = doc_lit!(
        " Stores `{}` atomically (release), publishing what was written before. `Err(Contended)` (nothing stored) when the other bytes of its 8-byte word kept changing ([`abi_runtime::Region::try_store`]).",
        f.name
    );
    m.push(
        true,
        line(c, &set_doc, "store", set, off, &vt, as_repr),
        quote! {
            #[doc = #set_doc]
            pub fn #set(&self, value: #vt) -> Result<(), ::abi_runtime::Contended> {
                self.region.try_store::<#repr>(#off, value #unwrap, ::core::sync::atomic::Ordering::Release)
            }
        },
    );
    if !is_enum {
        let add = format_ident!("fetch_add_{}", f.name);
        let doc = doc_lit!(
            " Adds to `{}` atomically (acquire-release, wrapping) and returns the old value; `Err(Contended)` as the setter.",
            f.name
        );
        m.push(
            true,
            line(c, &doc, "fetch_add", &add, off, &vt, None),
            quote! {
                #[doc = #doc]
                pub fn #add(&self, value: #vt) -> Result<#vt, ::abi_runtime::Contended> {
                    self.region.try_fetch_add::<#repr>(#off, value, ::core::sync::atomic::Ordering::AcqRel)
                }
            },
        );
    }
    if matches!(fa.kind, AccessKind::Cas { .. }) {
        let cx = format_ident!("compare_exchange_{}", f.name);
        let swap = format_ident!("swap_{}", f.name);
        let cx_doc = doc_lit!(
            " Compare-and-swap of `{}` (acquire-release): `Ok(Ok)` with the old value, `Ok(Err)` with the value found, `Err(Contended)` as the setter.",
            f.name
        );
        let swap_doc = doc_lit!(
            " Swaps `{}` atomically (acquire-release) and returns the old value; `Err(Contended)` as the setter.",
            f.name
        );
        m.push(
            true,
            line(c, &cx_doc, "compare_exchange", &cx, off, &vt, as_repr),
            quote! {
                #[doc = #cx_doc]
                pub fn #cx(&self, current: #vt, new: #vt) -> Result<Result<#vt, #vt>, ::abi_runtime::Contended> {
                    let found = self.region
                        .try_compare_exchange::<#repr>(#off, current #unwrap, new #unwrap)?;
                    Ok(found #map)
                }
            },
        );
        m.push(
            true,
            line(c, &swap_doc, "swap", &swap, off, &vt, as_repr),
            quote! {
                #[doc = #swap_doc]
                pub fn #swap(&self, value: #vt) -> Result<#vt, ::abi_runtime::Contended> {
                    let old = self.region.try_swap::<#repr>(#off, value #unwrap, ::core::sync::atomic::Ordering::AcqRel)?;
                    Ok(#swapped)
                }
            },
        );
    }
    m
}

/// The live view of a nested struct `j` (or of element `index` of an array of them).
fn view_accessor(c: &FieldTokens, j: StructId, fl: &FieldLayout) -> Methods {
    let FieldTokens {
        schema,
        f,
        off,
        name,
        who,
        ..
    } = c;
    let view = type_ident(&schema.abi.structs[j].name);
    let read = match f.ty.len {
        None => {
            let doc = doc_lit!(" The live view of `{}`.{who}", f.name);
            quote! {
                #[doc = #doc]
                pub fn #name(&self) -> #view<'a, A> {
                    #view::at(self.region, #off).expect("inside a view checked when it was built")
                }
            }
        }
        Some(len) => {
            let n = lit(len.count);
            let elem = lit(fl.elem_size);
            let doc = doc_lit!(
                " The live view of `{}[index]`, or `None` when `index` is {} or more.{who}",
                f.name,
                len.count
            );
            quote! {
                #[doc = #doc]
                pub fn #name(&self, index: usize) -> Option<#view<'a, A>> {
                    (index < #n).then(|| {
                        #view::at(self.region, #off + index * #elem)
                            .expect("inside a view checked when it was built")
                    })
                }
            }
        }
    };
    Methods {
        read,
        ..Methods::default()
    }
}

/// A plain field: copied with relaxed loads, written with relaxed stores.
fn plain_accessors(c: &FieldTokens) -> Methods {
    let FieldTokens {
        schema,
        f,
        off,
        name,
        set,
        who,
        ..
    } = c;
    let vt = value_type(schema, &f.ty);
    let get_doc = doc_lit!(
        " `{}`, copied with relaxed atomic loads: a plain field, written before it is published.{who}",
        f.name
    );
    let set_doc = doc_lit!(
        " Writes `{}` with relaxed atomic stores; publish it with a release store of the field readers poll. `Err(Contended)` when a word it shares in part kept changing ([`abi_runtime::Region::write_bytes`]).",
        f.name
    );
    let text = if is_text(f) {
        let get = format_ident!("{}_text", f.name);
        let doc = doc_lit!(
            " `{}` as text: a copy's bytes up to the first NUL (all of them when none), decoded as UTF-8 with each invalid sequence replaced by U+FFFD, as Python's view reads it.{who}",
            f.name
        );
        quote! {
            #[doc = #doc]
            pub fn #get(&self) -> ::std::string::String {
                let bytes = self.#name();
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                ::std::string::String::from_utf8_lossy(&bytes[..end]).into_owned()
            }
        }
    } else {
        TokenStream::new()
    };
    let mut m = Methods::default();
    m.push(
        false,
        line(c, &get_doc, "read", name, off, &vt, None),
        quote! {
            #[doc = #get_doc]
            pub fn #name(&self) -> #vt {
                self.region.read::<#vt>(#off)
            }
        },
    );
    m.read.extend(text);
    m.push(
        true,
        line(c, &set_doc, "write", set, off, &vt, None),
        quote! {
            #[doc = #set_doc]
            pub fn #set(&self, value: #vt) -> Result<(), ::abi_runtime::Contended> {
                self.region.write::<#vt>(#off, &value)
            }
        },
    );
    m
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

/// Who writes field `fi`, as a doc sentence (empty when the schema does not say).
fn writers_doc(schema: &Schema, a: &StructAccess, fi: usize) -> String {
    let w = a.fields[fi].writers.describe(&schema.access.parties);
    if w.is_empty() {
        String::new()
    } else {
        format!(" Written by the {w}.")
    }
}
