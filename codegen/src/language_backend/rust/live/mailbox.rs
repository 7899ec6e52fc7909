//! The live layer's `[[mailbox]]` types: the client's and the server's sides over
//! `abi_runtime::mailbox`, and the answer as a value type, one line each of
//! `abi_runtime::mailbox_sides!`, and the mailbox's `SPEC`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::protocol_common::{protocol_doc, struct_size};
use super::tokens::{field, offset};
use crate::ir::Elem;
use crate::ir::StructId;
use crate::ir::protocol::{Mailbox, Protocol};
use crate::language_backend::rust::docs::doc_lit;
use crate::language_backend::rust::names::type_ident;
use crate::schema::Schema;

/// Field `f`'s value type as `abi_runtime::mailbox_sides!` takes its status: `u32`, or an
/// enum newtype `super::T as REPR`.
fn status_tokens(schema: &Schema, s: StructId, f: usize) -> TokenStream {
    let fd = &schema.abi.structs[s].fields[f];
    match fd.ty.elem {
        Elem::Enum(i) => {
            let en = &schema.abi.enums[i];
            let t = type_ident(&en.name);
            let repr = format_ident!("{}", en.repr.name());
            quote!(super::#t as #repr)
        }
        _ => quote!(u32),
    }
}

pub(super) fn expand_mailbox(schema: &Schema, p: &Protocol, m: &Mailbox) -> TokenStream {
    let name = type_ident(&p.name);
    let (client, server, response) = (
        format_ident!("{}Client", name),
        format_ident!("{}Server", name),
        format_ident!("{}Response", name),
    );
    let h = m.header;
    let o = |f| offset(schema, h, f);
    let (rs, rl, ps, st, pl, pt) = (
        o(m.request_seq),
        o(m.request_len),
        o(m.response_seq),
        o(m.status),
        o(m.response_len),
        o(m.response_total),
    );
    let (rc, pc) = (
        field(schema, h, m.request_capacity),
        field(schema, h, m.response_capacity),
    );
    let area = struct_size(schema, h);
    let status = status_tokens(schema, h, m.status);
    let doc = doc_lit!(
        " The client's side of mailbox `{}`: one request at a time, [`{client}::request`], then [`{client}::poll_response`] or [`{client}::wait_response`].{}",
        p.name,
        protocol_doc(p)
    );
    let sdoc = doc_lit!(
        " The server's side of mailbox `{}`: [`{server}::serve`] answers the request that waits.{}",
        p.name,
        protocol_doc(p)
    );
    let rdoc = doc_lit!(" An answer of mailbox `{}`, copied out.", p.name);
    quote! {
        ::abi_runtime::mailbox_sides! {
            #[doc = #rdoc] response #response: status #status;
            #[doc = #doc] client #client;
            #[doc = #sdoc] server #server;
        }

        impl #client<'_> {
            /// Where the mailbox's fields are, from the start of its header.
            pub const SPEC: ::abi_runtime::mailbox::MailboxSpec = ::abi_runtime::mailbox::MailboxSpec {
                request_seq: #rs, request_len: #rl, response_seq: #ps, status: #st, response_len: #pl,
                response_total: #pt, request_capacity: #rc, response_capacity: #pc, area: #area,
            };
        }
    }
}
