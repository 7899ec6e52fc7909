//! The Rust backend's items other than structs and the live layer: the big-endian guard,
//! the ABI version, the constants, and the enum and flag newtypes with their values.

use crate::language_backend::rust::docs::doc_lit;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::docs::{doc, escaped, since};
use super::names::{const_ident, prim_type, type_ident};
use crate::ir::{Abi, ConstType, Constant, Enum, EnumKind};
use crate::language_backend::output::doc_after_since;

/// A literal as the schema wrote it (keeping `0x10000`), or its decimal value.
fn int_literal(literal: &str, value: i128) -> TokenStream {
    let (neg, digits) = match literal.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, literal),
    };
    // Underscores kept only where clippy takes the grouping for a regular one.
    let regrouped;
    let digits = if digits.contains('_') && !regular_grouping(digits) {
        regrouped = digits.replace('_', "");
        regrouped.as_str()
    } else {
        digits
    };
    let lit = digits
        .parse::<Literal>()
        .ok()
        .filter(|l| {
            !l.to_string().contains(['.', 'e', 'E', '"', '\'']) || l.to_string().starts_with("0x")
        })
        // A decimal with a leading zero (`007`) is a Rust literal clippy takes for a mistaken
        // octal one (`zero_prefixed_literal`): its value instead.
        .filter(|_| {
            !(digits.len() > 1
                && digits.starts_with('0')
                && digits[1..].starts_with(|c: char| c.is_ascii_digit() || c == '_'))
        })
        .unwrap_or_else(|| Literal::u128_unsuffixed(value.unsigned_abs()));
    if neg || (value < 0 && !literal.starts_with('-')) {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// Whether `literal`'s underscores group its digits as clippy's `unusual_byte_groupings` and
/// `inconsistent_digit_grouping` want: no empty group, every group after the first of one
/// size (3 for a decimal), and the first no longer.
fn regular_grouping(literal: &str) -> bool {
    let (radix, body) = match literal.get(..2) {
        Some("0x" | "0b" | "0o") => (false, &literal[2..]),
        _ => (true, literal),
    };
    let groups: Vec<&str> = body.split('_').collect();
    let Some((first, rest)) = groups.split_first() else {
        return true;
    };
    let size = rest.first().map_or(0, |g| g.len());
    !first.is_empty()
        && rest.iter().all(|g| g.len() == size && size > 0)
        && first.len() <= size
        && (!radix || size == 3)
}

/// The ABI is little-endian and the structs hold its fields as plain integers and floats,
/// in the target's byte order: a big-endian target is refused when it compiles the file.
pub(super) fn expand_byte_order(abi: &Abi) -> TokenStream {
    let message = format!(
        "the {} ABI is little-endian: these bindings hold its fields in the target's byte \
         order, so they do not support a big-endian target",
        abi.name
    );
    quote! {
        #[cfg(target_endian = "big")]
        compile_error!(#message);
    }
}

pub(super) fn expand_version(abi: &Abi) -> TokenStream {
    let major = Literal::u32_unsuffixed(abi.version.major);
    let minor = Literal::u32_unsuffixed(abi.version.minor);
    let text = abi.version.to_string();
    let doc_major = doc_lit!(
        " Major version of the {} ABI these bindings were generated for.",
        abi.name
    );
    let doc_minor = doc_lit!(
        " Minor version of the {} ABI these bindings were generated for.",
        abi.name
    );
    quote! {
        #[doc = #doc_major]
        pub const ABI_VERSION_MAJOR: u16 = #major;
        #[doc = #doc_minor]
        pub const ABI_VERSION_MINOR: u16 = #minor;
        /// The ABI version as text, `MAJOR.MINOR`.
        pub const ABI_VERSION: &str = #text;
    }
}

pub(super) fn expand_const(c: &Constant) -> TokenStream {
    let name = const_ident(&c.name);
    let ty = match c.ty {
        ConstType::Usize => format_ident!("usize"),
        ConstType::Prim(p) => prim_type(p),
    };
    let value = int_literal(&c.literal, c.value);
    let expr = c
        .expr
        .as_ref()
        .map(|e| format!("Computed as `{e}`."))
        .unwrap_or_default();
    let docs = doc(&[
        escaped(doc_after_since(&c.doc, c.since)),
        expr,
        since(&c.since),
    ]);
    let unreadable = allow_unreadable(&value);
    quote! {
        #docs
        #unreadable
        pub const #name: #ty = #value;
    }
}

/// clippy's `unreadable_literal` allowed on an item whose `value` it takes for one: the
/// literal is as the schema writes it.
fn allow_unreadable(value: &TokenStream) -> Option<TokenStream> {
    unreadable_literal(&value.to_string()).then(|| {
        quote!(#[allow(clippy::unreadable_literal, reason = "the literal as the schema writes it")])
    })
}

/// Whether clippy's `unreadable_literal` takes `literal` for one: more than five digits
/// (hex digits after `0x` included) and no `_` among them.
fn unreadable_literal(literal: &str) -> bool {
    let digits = literal.trim_start_matches(['-', ' ']);
    let digits = digits.strip_prefix("0x").unwrap_or(digits);
    !digits.contains('_') && digits.len() > 5
}

/// Attributes every newtype over an integer gets; an ordered enum also compares.
fn newtype_attrs(ordered: bool) -> TokenStream {
    let order = ordered.then(|| quote!(PartialOrd, Ord,));
    quote! {
        #[derive(
            Clone, Copy, PartialEq, Eq, #order Hash, Default,
            ::zerocopy::FromBytes, ::zerocopy::IntoBytes, ::zerocopy::KnownLayout, ::zerocopy::Immutable
        )]
        #[repr(transparent)]
    }
}

fn expand_values(e: &Enum) -> (TokenStream, Vec<TokenStream>) {
    let ty = type_ident(&e.name);
    let consts = e.values.iter().map(|v| {
        let name = const_ident(&v.name);
        let value = int_literal(&v.literal, v.value);
        let docs = doc(&[escaped(doc_after_since(&v.doc, v.since)), since(&v.since)]);
        let unreadable = allow_unreadable(&value);
        quote! {
            #docs
            #unreadable
            pub const #name: #ty = #ty(#value);
        }
    });
    let entries = e
        .values
        .iter()
        .map(|v| {
            let name = const_ident(&v.name);
            let text = &v.name;
            quote!(#name = #text)
        })
        .collect();
    (quote!(#(#consts)*), entries)
}

/// An enum or a flag set: a `#[repr(transparent)]` newtype over its representation, its
/// values as associated constants, and the shared behaviour from `abi_enum!`/`abi_flags!`.
pub(super) fn expand_newtype(e: &Enum) -> TokenStream {
    let ty = type_ident(&e.name);
    let repr = prim_type(e.repr);
    let attrs = newtype_attrs(e.ordered);
    let (summary, support) = match e.kind {
        EnumKind::Enum => (
            format!(
                "An enum over `{}`: any value can be read, and [`{ty}::name`] says whether the schema declares it.",
                e.repr
            ),
            format_ident!("abi_enum"),
        ),
        EnumKind::Flags => (
            format!(
                "A set of flags over `{}`: bits the schema does not declare are kept.",
                e.repr
            ),
            format_ident!("abi_flags"),
        ),
    };
    let order = if e.ordered {
        "Ordered: the values rank lowest first, so `<` compares them.".to_string()
    } else {
        String::new()
    };
    let docs = doc(&[
        escaped(doc_after_since(&e.doc, e.since)),
        summary,
        order,
        since(&e.since),
    ]);
    let (consts, entries) = expand_values(e);
    quote! {
        #docs
        #attrs
        pub struct #ty(pub #repr);
        impl #ty {
            #consts
        }
        #support!(#ty: #repr { #(#entries),* });
    }
}
