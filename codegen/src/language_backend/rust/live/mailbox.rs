//! The live layer's `[[mailbox]]` types: the client's and the server's sides over
//! `abi_runtime::mailbox`, and the answer as a value type.

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

/// The conversion of a `u32` to field `f`'s value type (an enum newtype or an integer),
/// and back.
fn status_tokens(
    schema: &Schema,
    s: StructId,
    f: usize,
) -> (TokenStream, TokenStream, TokenStream) {
    let fd = &schema.abi.structs[s].fields[f];
    match fd.ty.elem {
        Elem::Enum(i) => {
            let en = &schema.abi.enums[i];
            let t = type_ident(&en.name);
            let repr = format_ident!("{}", en.repr.name());
            let (from, to) = if en.repr.name() == "u32" {
                (quote!(super::#t(status)), quote!(status.0))
            } else {
                (
                    quote!(super::#t(status as #repr)),
                    quote!(u32::from(status.0)),
                )
            };
            (quote!(super::#t), from, to)
        }
        _ => (quote!(u32), quote!(status), quote!(status)),
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
    let (status, from_u32, to_u32) = status_tokens(schema, h, m.status);
    let error = quote!(::abi_runtime::mailbox::MailboxError);
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
        #[doc = #rdoc]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct #response {
            /// The request it answers.
            pub seq: u32,
            /// The server's status.
            pub status: #status,
            /// The answer's text, as much as the response area held.
            pub text: Vec<u8>,
            /// The answer was cut to the response area.
            pub cut: bool,
            /// The whole answer's bytes.
            pub total: u64,
        }

        #[doc = #doc]
        #[derive(Debug, Clone, Copy)]
        pub struct #client<'a> {
            mailbox: ::abi_runtime::mailbox::Mailbox<'a, ::abi_runtime::ReadWrite>,
            pending: Option<u32>,
        }

        #[doc = #sdoc]
        #[derive(Debug, Clone, Copy)]
        pub struct #server<'a> {
            mailbox: ::abi_runtime::mailbox::Mailbox<'a, ::abi_runtime::ReadWrite>,
        }

        impl #client<'_> {
            /// Where the mailbox's fields are, from the start of its header.
            pub const SPEC: ::abi_runtime::mailbox::MailboxSpec = ::abi_runtime::mailbox::MailboxSpec {
                request_seq: #rs, request_len: #rl, response_seq: #ps, status: #st, response_len: #pl,
                response_total: #pt, request_capacity: #rc, response_capacity: #pc, area: #area,
            };
        }

        impl<'a> #client<'a> {
            /// The client of the mailbox whose header starts `region` (the header and both
            /// areas): its capacities are read and checked now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Ok(Self { mailbox: ::abi_runtime::mailbox::Mailbox::new(region, Self::SPEC)?, pending: None })
            }

            /// Sends `text` (at most the request capacity - 1 bytes) and returns its number.
            /// `Busy` while the last request has no answer.
            pub fn request(&mut self, text: &[u8]) -> Result<u32, #error> {
                let seq = self.mailbox.request(text)?;
                self.pending = Some(seq);
                Ok(seq)
            }

            /// The answer to the last request, once (`None` while it has none, or when no
            /// request waits). Its length is checked against the response capacity.
            pub fn poll_response(&mut self) -> Result<Option<#response>, #error> {
                let Some(seq) = self.pending else {
                    return Ok(None);
                };
                let Some(r) = self.mailbox.poll_response(seq)? else {
                    return Ok(None);
                };
                self.pending = None;
                let status = r.status;
                Ok(Some(#response { seq: r.seq, status: #from_u32, cut: r.cut(), total: r.total, text: r.text }))
            }

            /// [`Self::poll_response`] until the answer comes or `timeout` passes (`None`):
            /// it spins briefly, then sleeps 50 µs between polls.
            pub fn wait_response(&mut self, timeout: ::std::time::Duration) -> Result<Option<#response>, #error> {
                let start = ::std::time::Instant::now();
                let mut polls = 0u32;
                loop {
                    if let Some(r) = self.poll_response()? {
                        return Ok(Some(r));
                    }
                    if self.pending.is_none() || start.elapsed() >= timeout {
                        return Ok(None);
                    }
                    polls += 1;
                    if polls < 64 {
                        ::core::hint::spin_loop();
                    } else {
                        ::std::thread::sleep(::std::time::Duration::from_micros(50));
                    }
                }
            }
        }

        impl<'a> #server<'a> {
            /// The server of the mailbox whose header starts `region`: its capacities are read
            /// and checked now.
            pub fn new(region: Region<'a>) -> Result<Self, #error> {
                Self::with_geometry(region, ::abi_runtime::laid_out::GeometryFrom::Mapping)
            }

            /// [`Self::new`] with the capacities read from `from`: the host's own handle
            /// gives the header as it laid it out, never the bytes a client can write.
            pub fn with_geometry(region: Region<'a>, from: ::abi_runtime::laid_out::GeometryFrom<'_>) -> Result<Self, #error> {
                Ok(Self { mailbox: ::abi_runtime::mailbox::Mailbox::with_geometry(region, #client::SPEC, from)? })
            }

            /// When a request waits, copies it (its length checked), answers it with
            /// `answer(text)` (a status and the whole answer, cut to the response area) and
            /// returns its number; `None` when none waits.
            pub fn serve(&self, answer: impl FnOnce(&[u8]) -> (#status, Vec<u8>)) -> Result<Option<u32>, #error> {
                self.mailbox.serve(|text| {
                    let (status, whole) = answer(text);
                    (#to_u32, whole)
                })
            }

            /// [`Self::serve`] that answers a malformed request too (its length past its
            /// area): `answer(None)` gives its raw status and text. The number answered and
            /// whether it was malformed (the host's service turn, `abi_runtime::service`).
            pub fn serve_or_malformed(&self, answer: impl FnOnce(Option<&[u8]>) -> (u32, Vec<u8>)) -> Result<Option<(u32, bool)>, #error> {
                self.mailbox.serve_or_malformed(answer)
            }
        }
    }
}
