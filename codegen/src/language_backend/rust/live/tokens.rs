//! The live layer's small token helpers, which every part of it uses: a field's value type
//! as the live module names it, an unsuffixed literal, and an atomic word's integer type.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::ir::{Elem, Type};
use crate::language_backend::rust::names::type_ident;
use crate::schema::Schema;

/// The Rust value type of a field, from the live module.
pub(super) fn value_type(schema: &Schema, ty: &Type) -> TokenStream {
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

pub(super) fn lit(n: u64) -> Literal {
    Literal::usize_unsuffixed(n as usize)
}

/// The integer primitive an atomic word of `width` bytes is accessed as.
pub(super) fn word_type(width: u64) -> TokenStream {
    match width {
        1 => quote!(u8),
        2 => quote!(u16),
        4 => quote!(u32),
        _ => quote!(u64),
    }
}
