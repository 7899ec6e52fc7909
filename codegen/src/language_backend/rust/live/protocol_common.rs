//! What the region protocols' generated types share: a struct's size and value type, and
//! a protocol's doc line.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::lit;
use crate::ir::StructId;
use crate::ir::protocol::Protocol;
use crate::language_backend::rust::docs::escaped;
use crate::language_backend::rust::names::type_ident;
use crate::schema::Schema;

pub(super) fn struct_size(schema: &Schema, s: StructId) -> proc_macro2::Literal {
    lit(schema.layout.of(s).size)
}

pub(super) fn value_type(schema: &Schema, s: StructId) -> TokenStream {
    let t = type_ident(&schema.abi.structs[s].name);
    quote!(super::#t)
}

/// The protocol's doc line, the schema's text escaped.
pub(super) fn protocol_doc(p: &Protocol) -> String {
    if p.doc.is_empty() {
        String::new()
    } else {
        format!(" {}.", escaped(p.doc.trim_end_matches('.')))
    }
}
