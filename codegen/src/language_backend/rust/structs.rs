//! The Rust backend's structs: a `#[repr(C)]` struct per schema struct, its fields' types
//! and docs, its text accessors, and the `abi_struct!` line that gives it `Default`, `Debug`
//! and the compile-time layout asserts.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, format_ident, quote};

use super::docs::{doc, escaped, since};
use super::names::{const_ident, prim_type, rust_ident, type_ident};
use crate::ir::names::upper;
use crate::ir::{Abi, Elem, Field, Struct, Type};
use crate::language_backend::output::doc_after_since;
use crate::layout::{FieldLayout, StructLayout};

/// The Rust type of a field: primitives, `[u8; N]` for text, named types, and arrays whose
/// length is the constant the schema named.
fn field_type(abi: &Abi, ty: &Type) -> TokenStream {
    let elem = match ty.elem {
        Elem::Prim(p) => prim_type(p).into_token_stream(),
        Elem::Char => quote!(u8),
        Elem::Enum(i) => type_ident(&abi.enums[i].name).into_token_stream(),
        Elem::Struct(i) => type_ident(&abi.structs[i].name).into_token_stream(),
    };
    match ty.len {
        None => elem,
        Some(len) => {
            let n = match len.constant {
                Some(c) => const_ident(&abi.consts[c].name).into_token_stream(),
                None => Literal::u64_unsuffixed(len.count).into_token_stream(),
            };
            quote!([#elem; #n])
        }
    }
}

fn offset_doc(l: &FieldLayout) -> String {
    let bytes = if l.size == 1 {
        "1 byte".to_string()
    } else {
        format!("{} bytes", l.size)
    };
    format!("Offset 0x{:02x}, {bytes}.", l.offset)
}

fn expand_field(abi: &Abi, f: &Field, l: &FieldLayout) -> TokenStream {
    let name = rust_ident(&f.name);
    let ty = field_type(abi, &f.ty);
    let mut first = offset_doc(l);
    if f.is_padding() {
        first.push_str(" Declared padding: keep it zero.");
    }
    let f_doc = doc_after_since(&f.doc, f.since);
    if !f_doc.is_empty() {
        first = format!("{first} {}", escaped(f_doc));
    }
    let count = f
        .count
        .as_ref()
        .map(|c| format!("Entries in use: `{}`.", c.text))
        .unwrap_or_default();
    let expect = f
        .expect
        .map(|i| format!("Always [`{}`].", upper(&abi.consts[i].name)))
        .unwrap_or_default();
    let docs = doc(&[first, count, expect, since(&f.since)]);
    quote! {
        #docs
        pub #name: #ty
    }
}

pub(super) fn expand_struct(abi: &Abi, s: &Struct, l: &StructLayout) -> TokenStream {
    let ty = type_ident(&s.name);
    let extensible = if s.extensible {
        "Extensible: it may grow at its end in a later minor version; readers learn its size at run time.".to_string()
    } else {
        String::new()
    };
    let docs = doc(&[
        escaped(doc_after_since(&s.doc, s.since)),
        format!("{} bytes, align {}.", l.size, l.align),
        extensible,
        since(&s.since),
    ]);
    let fields = s
        .fields
        .iter()
        .zip(&l.fields)
        .map(|(f, fl)| expand_field(abi, f, fl));
    let text = text_accessors(s);
    let size = Literal::u64_unsuffixed(l.size);
    let align = Literal::u64_unsuffixed(l.align);
    // `align(N)` where a 32-bit target would give the struct less (i686 aligns `u64` to 4).
    let repr = match l.stated_align() {
        Some(n) => {
            let n = Literal::u64_unsuffixed(n);
            quote!(#[repr(C, align(#n))])
        }
        None => quote!(#[repr(C)]),
    };
    let offsets = s.fields.iter().zip(&l.fields).map(|(f, fl)| {
        let name = rust_ident(&f.name);
        let offset = Literal::u64_unsuffixed(fl.offset);
        let kind = if f.is_padding() {
            quote!(pad)
        } else if is_text(f) {
            quote!(text)
        } else if let Some(c) = &f.count {
            let path = c.field_names(abi, s).into_iter().map(rust_ident);
            quote!(count(#(#path).*))
        } else if is_shown_array(f) {
            quote!(array)
        } else {
            TokenStream::new()
        };
        quote!(#name: #offset #kind)
    });
    let padding = s.fields.iter().any(Field::is_padding).then(|| {
        quote!(#[allow(clippy::pub_underscore_fields, reason = "declared padding is public, so that a struct literal can name every field")])
    });
    let field_names = repeats_struct_name(s).then(|| {
        quote!(#[allow(clippy::struct_field_names, reason = "the field names are the schema's")])
    });
    quote! {
        #docs
        #padding
        #field_names
        #[derive(
            Clone, Copy, PartialEq,
            ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable
        )]
        #repr
        pub struct #ty {
            #(#fields,)*
        }
        abi_struct!(#ty: size #size, align #align { #(#offsets),* } #text);
    }
}

/// Whether clippy's pedantic `struct_field_names` may fire on `s`: a field whose name starts
/// or ends with the struct's name (`header.header_size`), or three fields or more that share
/// their first or last word. The names are the schema's, so the generated struct allows it.
fn repeats_struct_name(s: &Struct) -> bool {
    let name = &s.name;
    let names: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
    let repeats = names.iter().any(|f| {
        f.strip_prefix(name.as_str())
            .is_some_and(|r| r.starts_with('_'))
            || f.strip_suffix(name.as_str())
                .is_some_and(|r| r.ends_with('_'))
    });
    let shared = |word: fn(&str) -> &str| {
        names.len() >= 3
            && names
                .iter()
                .all(|f| f.contains('_') && word(f) == word(names[0]))
    };
    repeats
        || shared(|f| f.split('_').next().unwrap_or(f))
        || shared(|f| f.rsplit('_').next().unwrap_or(f))
}

/// Whether `Debug` shows a field through `array::Debug`: an array that is neither text
/// nor declared padding.
pub(super) fn is_shown_array(f: &Field) -> bool {
    f.ty.len.is_some() && !is_text(f) && !f.is_padding()
}

/// Whether a field is text (`plan::row_loads::is_text`).
pub(super) use crate::plan::row_loads::is_text;

/// `text { name: name_str, set_name; ... }` in `abi_struct!`: `name_str()` and `set_name()`
/// for every text field, or nothing when the struct has none.
fn text_accessors(s: &Struct) -> TokenStream {
    let fields: Vec<TokenStream> = (s.fields.iter().filter(|f| is_text(f)))
        .map(|f| {
            let name = rust_ident(&f.name);
            let get = format_ident!("{}_str", f.name);
            let set = format_ident!("set_{}", f.name);
            quote!(#name: #get, #set)
        })
        .collect();
    if fields.is_empty() {
        return TokenStream::new();
    }
    quote!(text { #(#fields);* })
}
