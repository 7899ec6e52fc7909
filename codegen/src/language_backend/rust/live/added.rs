//! Fields a later minor version added to an extensible record, in its live view: the view
//! covers the bytes its producer wrote (`at_len` of the runtime's `view!`, with
//! `Region::sub_record`), and each
//! accessor of an added field checks that the field is inside them (`Region::covers`) before
//! it touches memory. An older producer's shorter
//! record may be followed by another region, so its absent fields are never read or written.

use proc_macro2::TokenStream;
use quote::quote;

use super::accessors::Methods;
use super::tokens::lit;
use crate::ir::StructId;
use crate::ir::attach::Handshake;
use crate::schema::Schema;

/// The handshake of struct `si` when a minor version added fields to it.
pub(super) fn extensible(schema: &Schema, si: StructId) -> Option<&Handshake> {
    schema
        .attach
        .handshakes
        .iter()
        .find(|h| h.struct_index == si && !h.added.is_empty())
}

/// The accessors of an added field, gated: each getter returns `Option` of what it returned
/// (`None` when the producer's record ends before the field), and each method that writes
/// returns `Result` of it, with the bounds error.
pub(super) fn gate_accessors(methods: Methods, offset: u64, end: u64, since: &str) -> Methods {
    Methods {
        read: gate(&methods.read, false, offset, end, since),
        write: gate(&methods.write, true, offset, end, since),
        // Lines of `view_accessors!` with `, added LO..HI`: the macro gates them.
        read_lines: methods.read_lines,
        write_lines: methods.write_lines,
    }
}

/// The methods `accessors` gated, as getters (`writes` false) or as methods that write.
fn gate(accessors: &TokenStream, writes: bool, offset: u64, end: u64, since: &str) -> TokenStream {
    let parsed: syn::ItemImpl = syn::parse2(quote!(impl View { #accessors }))
        .expect("the live layer's accessors are valid Rust");
    let (offset, end) = (lit(offset), lit(end));
    let doc = super::accessors::added_doc(since);
    let gated = parsed.items.into_iter().map(|item| {
        let syn::ImplItem::Fn(mut f) = item else {
            return quote!(#item);
        };
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
                quote!({ self.region.covers(#offset, #end)?; #(#stmts)* Ok(#value) }),
            )
        } else {
            (
                quote!(-> Option<#ty>),
                quote!({ self.region.covers(#offset, #end).ok()?; #(#stmts)* Some(#value) }),
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
