//! The live layer's small token helpers, which every part of it uses: a field's value type
//! as the live module names it, an unsuffixed literal, an atomic word's integer type, and a
//! field's offset and width as a literal and as an `abi_runtime::attach::Field`, an optional
//! literal, and the name of an attach `static` spec.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::ir::StructId;
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

/// `abi_runtime::attach::Field` of field `f` of struct `s`: its offset and width.
pub(super) fn field(schema: &Schema, s: StructId, f: usize) -> TokenStream {
    let l = &schema.layout.of(s).fields[f];
    let (offset, width) = (lit(l.offset), lit(l.size));
    quote!(::abi_runtime::attach::Field::new(#offset, #width))
}

/// The offset of field `f` of struct `s`.
pub(super) fn offset(schema: &Schema, s: StructId, f: usize) -> Literal {
    lit(schema.layout.of(s).fields[f].offset)
}

/// `<NAME>_<WHAT>`: the `static` spec of a layout (`TABLE`) or handshake (`HANDSHAKE`).
pub(super) fn spec_ident(name: &str, what: &str) -> proc_macro2::Ident {
    format_ident!("{}_{}", name.to_uppercase(), what)
}

/// `Some(i)` or `None`.
pub(super) fn opt_index(i: Option<usize>) -> TokenStream {
    opt_u64(i.map(|i| i as u64))
}

/// `Some(v)` or `None`.
pub(super) fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => {
            let v = lit(v);
            quote!(Some(#v))
        }
        None => quote!(None),
    }
}
