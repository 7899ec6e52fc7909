//! Fields a later minor version added to an extensible record, in its live view: the view
//! covers the bytes its producer wrote (`at_len`), and each accessor of an added field checks
//! that the field is inside them before it touches memory. An older producer's shorter
//! record may be followed by another region, so its absent fields are never read or written.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::lit;
use crate::ir::StructId;
use crate::ir::attach::Handshake;
use crate::language_backend::rust::docs::doc_lit;
use crate::schema::Schema;

/// The handshake of struct `si` when a minor version added fields to it.
pub(super) fn extensible(schema: &Schema, si: StructId) -> Option<&Handshake> {
    schema
        .attach
        .handshakes
        .iter()
        .find(|h| h.struct_index == si && !h.added.is_empty())
}

/// `BASE_SIZE`, `at_len` and the `present` check of an extensible record's view.
pub(super) fn expand_at_len(h: &Handshake, size: u64, align: u64) -> (TokenStream, TokenStream) {
    let base = lit(h.base_size);
    let (size, align) = (lit(size), lit(align));
    let consts = quote! {
        /// Bytes every producer of this major version writes: the fields a later minor
        /// version added start here.
        pub const BASE_SIZE: usize = #base;
    };
    let methods = quote! {
        /// Views the record at `offset` of `region` as its producer built it, `len` bytes
        /// long (its size field, as attach checked it): a field a later minor version added
        /// past `len` is absent, its getter gives `None` and its setter an error. `len` past
        /// `SIZE` (a newer producer) views `SIZE` bytes. An error if `len` is less than
        /// `BASE_SIZE`, or the bytes are out of bounds or misaligned.
        pub fn at_len(region: Region<'a, A>, offset: usize, len: usize) -> Result<Self, RegionError> {
            if len < #base {
                return Err(::abi_runtime::RegionErrorKind::OutOfBounds { offset, len: #base, region_len: len }.into());
            }
            region.sub(offset, len.min(#size), #align).map(|region| Self { region })
        }

        /// `Ok` when the bytes `offset..end` are inside the record its producer wrote.
        fn present(&self, offset: usize, end: usize) -> Result<(), RegionError> {
            if end <= self.region.len() {
                Ok(())
            } else {
                Err(::abi_runtime::RegionErrorKind::OutOfBounds { offset, len: end - offset, region_len: self.region.len() }.into())
            }
        }
    };
    (consts, methods)
}

/// The accessors of an added field, gated: each getter returns `Option` of what it returned
/// (`None` when the producer's record ends before the field), and each method that writes
/// (bounded by `A: Writable`) returns `Result` of it, with the bounds error.
pub(super) fn gate_accessors(
    accessors: TokenStream,
    offset: u64,
    end: u64,
    since: &str,
) -> TokenStream {
    let parsed: syn::ItemImpl = syn::parse2(quote!(impl View { #accessors }))
        .expect("the live layer's accessors are valid Rust");
    let (offset, end) = (lit(offset), lit(end));
    let doc = doc_lit!(
        " Added in {since}: absent when the producer's record (its size field) ends before it."
    );
    let gated = parsed.items.into_iter().map(|item| {
        let syn::ImplItem::Fn(mut f) = item else {
            return quote!(#item);
        };
        let writes = f.sig.generics.where_clause.is_some();
        let ty = match &f.sig.output {
            syn::ReturnType::Default => quote!(()),
            syn::ReturnType::Type(_, ty) => quote!(#ty),
        };
        // The body's statements, then its value wrapped (`()` when it ends in a statement).
        let mut stmts = std::mem::take(&mut f.block.stmts);
        let value = match stmts.pop() {
            Some(syn::Stmt::Expr(e, None)) => quote!(#e),
            Some(last) => {
                stmts.push(last);
                quote!(())
            }
            None => quote!(()),
        };
        let (output, block) = if writes {
            (
                quote!(-> Result<#ty, RegionError>),
                quote!({ self.present(#offset, #end)?; #(#stmts)* Ok(#value) }),
            )
        } else {
            (
                quote!(-> Option<#ty>),
                quote!({ self.present(#offset, #end).ok()?; #(#stmts)* Some(#value) }),
            )
        };
        f.sig.output = syn::parse2(output).expect("a return type");
        f.block = syn::parse2(block).expect("a block");
        f.attrs.push(syn::parse_quote!(#[doc = ""]));
        f.attrs.push(syn::parse_quote!(#[doc = #doc]));
        quote!(#f)
    });
    quote!(#(#gated)*)
}
