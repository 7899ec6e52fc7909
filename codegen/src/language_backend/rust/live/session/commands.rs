//! The commands' event in the Rust live layer (issue 47, `plan/commands.rs`): the setter on
//! the mailbox header's view, the client's request that sets it on the mailbox's client, and
//! the host's `wait_<event>` over `abi_runtime::wake::wait_any`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::SessionTokens;
use crate::ir::protocol::ProtocolKind;
use crate::language_backend::rust::live::tokens::lit;
use crate::language_backend::rust::names::type_ident;
use crate::plan::commands::commands;

/// The commands' event items of session `t`, or nothing when the schema's commands' event is
/// another session's or absent.
pub(super) fn commands_items(t: &SessionTokens) -> TokenStream {
    let Some(c) = commands(t.schema) else {
        return TokenStream::new();
    };
    match &t.schema.protocols[c.session].kind {
        ProtocolKind::Session(s) if std::ptr::eq(s, t.s) => {}
        _ => return TokenStream::new(),
    }
    let ProtocolKind::Mailbox(m) = &t.schema.protocols[c.mailbox].kind else {
        return TokenStream::new();
    };
    let schema = t.schema;
    let view = type_ident(&schema.abi.structs[m.header].name);
    let client = format_ident!("{}Client", type_ident(&schema.protocols[c.mailbox].name));
    let ev = &c.event.name;
    let setter = format_ident!("{ev}_setter");
    let request = format_ident!("request_{ev}");
    let wait = format_ident!("wait_{ev}");
    let (word, request_seq, response_seq) =
        (lit(c.word_offset), lit(c.request_seq), lit(c.response_seq));
    // The word the futex compares: the sequence itself, or its low half.
    let (ty, low) = if c.width == 8 {
        (
            quote!(u64),
            quote!({
                #[allow(clippy::cast_possible_truncation)]
                let low = request as u32;
                low
            }),
        )
    } else {
        (quote!(u32), quote!(request))
    };
    let (host, name) = (&t.host, &t.name);
    let setter_doc = format!(
        " What [`{client}::{request}`] sets: the `{ev}` event's word in this mailbox's header, `{}` (a futex wake on Linux; elsewhere the host polls).",
        c.event.word_path
    );
    let request_doc = format!(
        " The client's request, then the `{ev}` event set (`plan/commands.rs`): [`Self::request`], then `setter` (this mailbox's [`{view}::{setter}`]) woken. Every request makes the call: no flag says whether the host sleeps. Bound to a claim through `ClientScoped::write`: once the claim is gone, nothing is sent and nothing set."
    );
    let wait_doc = format!(
        " One round of the host's wait on the `{ev}` event (`plan/commands.rs`). `rows` (bit `row`): the rows asked about (the active ones); `mailboxes(row)`: the row's mailbox header, `None` when absent. Returns the asked rows holding a request not yet answered (the request sequence not the one answered, both loaded with acquire), at once when there is one; else, after a sleep until `deadline` at most on every asked row's word at once (none asked: until `deadline`; `abi_runtime::wake::wait_any`: `futex_waitv` on Linux 5.16 or later; an older kernel or another platform, at most 1 ms), the rows pending then: 0 when the deadline passed or a wake found none (look again). Never past the deadline, whatever a client does."
    );
    quote! {
        impl<'a> #view<'a> {
            #[doc = #setter_doc]
            pub fn #setter(&self) -> Result<::abi_runtime::wake::Setter<'a>, ::abi_runtime::RegionError> {
                ::abi_runtime::wake::Setter::new(self.region, #word)
            }
        }
        impl #client<'_> {
            #[doc = #request_doc]
            pub fn #request(
                &mut self,
                setter: &::abi_runtime::wake::Setter<'_>,
                text: &[u8],
            ) -> Result<u32, ::abi_runtime::mailbox::MailboxError> {
                let seq = self.request(text)?;
                setter.after_publish(1, |_| true);
                Ok(seq)
            }
        }
        impl<'a> #host<'a> {
            #[doc = #wait_doc]
            pub fn #wait(
                &self,
                rows: u64,
                deadline: ::std::time::Instant,
                mailboxes: impl Fn(usize) -> Option<#view<'a>>,
            ) -> u64 {
                let pending = |words: &mut ::std::vec::Vec<(Region<'a>, usize, u32)>| {
                    let mut found = 0u64;
                    for row in 0..#name::ROWS.min(64) {
                        if rows & (1 << row) == 0 {
                            continue;
                        }
                        let Some(m) = mailboxes(row) else { continue };
                        let request = m.region.load::<#ty>(#request_seq, ::core::sync::atomic::Ordering::Acquire);
                        if request != m.region.load::<#ty>(#response_seq, ::core::sync::atomic::Ordering::Acquire) {
                            found |= 1 << row;
                        }
                        words.push((m.region, #word, #low));
                    }
                    found
                };
                let mut words = ::std::vec::Vec::new();
                let found = pending(&mut words);
                if found != 0 {
                    return found;
                }
                let _ = ::abi_runtime::wake::wait_any(&words, deadline);
                words.clear();
                pending(&mut words)
            }
        }
    }
}
