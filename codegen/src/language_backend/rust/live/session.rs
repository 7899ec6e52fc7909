//! The `[[session]]` protocol in the live layer: the client's side of a claimed row
//! (`<Name>`: claim, activate, heartbeat, standing, close, bind a pad) over
//! `abi_runtime::claim`, the host's side (`<Name>Host`: free, reload, hung), the standing
//! enum, and the accessors that reach them from the attached handle whose header holds the
//! rows.

use crate::language_backend::rust::docs::doc_lit;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

mod client;
mod commands;
mod events;
mod host;
mod lockstep;
mod service;
mod tokens;

use super::session_scoped::scoped_items;
use crate::ir::attach::LayoutTable;
use crate::ir::protocol::{Protocol, ProtocolKind, Session};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::plan::session::owned_blocks;
use crate::schema::Schema;
use tokens::SessionTokens;

/// Whether the session's rows, host generation, host state and pad owners are all fields of
/// one struct (the header a handle gives): only then is it generated.
fn one_header(s: &Session) -> bool {
    let h = s.table.struct_index;
    s.host_generation.struct_index == h
        && s.host_state.struct_index == h
        && s.bind.is_none_or(|(b, _)| b.struct_index == h)
}

/// Every session's types.
pub(super) fn expand_sessions(schema: &Schema) -> TokenStream {
    let items = schema
        .protocols
        .iter()
        .enumerate()
        .map(|(i, p)| match &p.kind {
            ProtocolKind::Session(s) => expand_session(schema, i, p, s),
            _ => TokenStream::new(),
        });
    quote!(#(#items)*)
}

/// Session `p` (`s`, protocol `index`): the standing and refused enums, the client's type
/// and the host's, their methods, the scoped writes and the pad refusal.
fn expand_session(schema: &Schema, index: usize, p: &Protocol, s: &Session) -> TokenStream {
    if !one_header(s) {
        return TokenStream::new();
    }
    let t = SessionTokens::new(schema, index, p, s);
    let types = session_types(&t);
    let client = client::client_impls(&t);
    let host = host::host_impl(&t);
    let scoped = scoped_items(&t.name, &t.standing);
    let pad_refused_type = pad_refused_type(&t);
    let client_events = events::client_event_methods(&t);
    let host_events = events::host_event_methods(&t);
    let events = if client_events.is_empty() {
        TokenStream::new()
    } else {
        let (name, host) = (&t.name, &t.host);
        quote! {
            impl<'a> #name<'a> { #client_events }
            impl<'a> #host<'a> { #host_events }
        }
    };
    let lockstep = lockstep::lockstep_items(&t);
    let commands = commands::commands_items(&t);
    let service = service::service_impl(&t, index);
    quote! {
        #types

        #events

        #lockstep

        #commands

        #service

        #client

        #host

        #scoped

        #pad_refused_type
    }
}

/// The standing and refused enums and their `Display`, and the client's and host's types.
fn session_types(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        name,
        host,
        standing,
        refused,
        header,
        hg_ty,
        host_derive,
        host_fields,
        doc,
        hdoc,
        sdoc,
        rdoc,
        ..
    } = t;
    quote! {
        #[doc = #sdoc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum #standing {
            /// The row holds the claim's generation and a state of its own.
            Connected,
            /// The host freed the row, or another claim took it since: claim again.
            Disconnected,
            /// The host reloaded (its generation changed) and freed every row: attach and
            /// claim again.
            Reloaded,
            /// The host is exiting.
            HostExiting,
        }

        #[doc = #rdoc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum #refused {
            /// Another client holds the row, or won the race for it.
            Taken,
            /// There is no such row.
            NoRow,
            /// The host reloaded since the handle attached (its generation changed): attach
            /// again, then claim.
            Reloaded,
            /// The host is exiting.
            HostExiting,
        }

        /// What a scoped write refused with: the row is no longer the claim's.
        impl ::core::fmt::Display for #standing {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(match self {
                    Self::Connected => "the row is the claim's",
                    Self::Disconnected => "the host freed the row, or another claim took it: claim again",
                    Self::Reloaded => "the host reloaded: attach again, then claim",
                    Self::HostExiting => "the host is exiting",
                })
            }
        }

        impl ::std::error::Error for #standing {}

        impl ::core::fmt::Display for #refused {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(match self {
                    Self::Taken => "the row is taken",
                    Self::NoRow => "there is no such row",
                    Self::Reloaded => "the host reloaded since attach: attach again",
                    Self::HostExiting => "the host is exiting",
                })
            }
        }

        impl ::std::error::Error for #refused {}

        #[doc = #doc]
        pub struct #name<'a> {
            header: #header<'a>,
            index: usize,
            claim: ::abi_runtime::claim::Claim<'a, ::abi_runtime::ReadWrite>,
            host_generation: #hg_ty,
        }

        #[doc = #hdoc]
        #host_derive
        pub struct #host<'a> {
            #host_fields
        }
    }
}

/// Why a bind or unbind refused, when the session binds pads.
fn pad_refused_type(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        name,
        standing,
        pad_refused,
        ..
    } = t;
    if t.s.bind.is_none() {
        return TokenStream::new();
    }
    let doc = doc_lit!(" Why [`{name}::bind`] or [`{name}::unbind`] refused.");
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum #pad_refused {
            /// Another row holds the pad (bind), or this row does not (unbind): its owner.
            Held(u8),
            /// There is no such pad.
            NoPad,
            /// The row is no longer the claim's: nothing was stored.
            Lost(#standing),
            /// The other pads of the word kept changing under each of
            /// [`abi_runtime::CAS_TRIES`] compare-and-swaps: nothing was stored.
            Contended,
        }
    }
}

/// The accessors the handle whose header holds a session's rows gets: `claim_<name>(i)`,
/// `claim_first_<name>()` and `<name>_host()`.
pub(super) fn handle_accessors(schema: &Schema, l: &LayoutTable) -> TokenStream {
    let mut out = TokenStream::new();
    for (index, p) in schema.protocols.iter().enumerate() {
        let ProtocolKind::Session(s) = &p.kind else {
            continue;
        };
        if s.table.struct_index != l.header || !one_header(s) {
            continue;
        }
        // A host that restores owned blocks is made from the handle of the layout that
        // holds them.
        let owner = owned_blocks(schema, crate::ir::ProtocolId::new(index))
            .first()
            .map(|o| schema.attach.layouts[o.layout].name == l.name);
        let make_host = match owner {
            None => quote!(new(self.header())),
            Some(true) => quote!(new(self.clone())),
            Some(false) => continue,
        };
        let name = type_ident(&p.name);
        let host = format_ident!("{}Host", name);
        let refused = format_ident!("{}Refused", name);
        let hs = s.table.struct_index;
        let hg_field = &schema.abi.structs[hs].fields[s.host_generation.field];
        let hg = rust_ident(&hg_field.name);
        let hg_offset = schema.layout.of(hs).fields[s.host_generation.field].offset;
        // The generation attach checked, when the handshake's generation is the session's
        // host generation; else the header's now.
        let checked = schema.attach.handshakes.iter().any(|h| {
            h.struct_index == hs
                && h.liveness
                    .as_ref()
                    .and_then(|l| l.generation.as_ref())
                    .is_some_and(|g| g.offset == hg_offset && g.width == 4)
        });
        let attached = if checked {
            quote!(self.generation.and_then(|g| u32::try_from(g).ok()).unwrap_or_else(|| self.header().#hg()))
        } else {
            quote!(self.header().#hg())
        };
        let (claim, first, host_fn) = (
            format_ident!("claim_{}", p.name),
            format_ident!("claim_first_{}", p.name),
            format_ident!("{}_host", p.name),
        );
        let doc = doc_lit!(
            " Claims row `index` for session `{}` ([`{name}::claim`]) at the host generation this handle checked: refused when the row is taken or the host moved on since.",
            p.name
        );
        let fdoc = doc_lit!(
            " Claims the first free row for session `{}` ([`{name}::claim_first`]).",
            p.name
        );
        let hdoc = doc_lit!(" The host's side of session `{}`.", p.name);
        out.extend(quote! {
            #[doc = #doc]
            pub fn #claim(&self, index: usize) -> Result<#name<'a>, #refused> {
                #name::claim(self.header(), #attached, index)
            }
            #[doc = #fdoc]
            pub fn #first(&self) -> Result<#name<'a>, #refused> {
                #name::claim_first(self.header(), #attached)
            }
            #[doc = #hdoc]
            pub fn #host_fn(&self) -> #host<'a> {
                #host::#make_host
            }
        });
    }
    out
}
