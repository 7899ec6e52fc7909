//! The `[[session]]` protocol in the live layer: the client's side of a claimed row
//! (`<Name>`: claim, activate, heartbeat, standing, close, bind a pad) over
//! `abi_runtime::claim`, the host's side (`<Name>Host`: free, reload, hung), the standing
//! enum, and the accessors that reach them from the attached handle whose header holds the
//! rows.

use crate::language_backend::rust::docs::{doc_lit, escaped};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

mod client;
mod host;

use proc_macro2::{Ident, Literal};

use super::session_restore::{HostParts, host_parts};
use super::session_scoped::scoped_items;
use super::tokens::{lit, offset, value_type};
use crate::ir::Elem;
use crate::ir::attach::LayoutTable;
use crate::ir::protocol::{Protocol, ProtocolKind, Session};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::language_backend::session_plan::owned_blocks;
use crate::schema::Schema;

/// Whether the session's rows, host generation, host state and pad owners are all fields of
/// one struct (the header a handle gives): only then is it generated.
fn one_header(s: &Session) -> bool {
    let h = s.table.struct_index;
    s.host_generation.struct_index == h
        && s.host_state.struct_index == h
        && s.bind.is_none_or(|(b, _)| b.struct_index == h)
}

/// `value` as field `f`'s value type: an enum newtype around the literal, or the literal.
fn typed(schema: &Schema, s: usize, f: usize, value: u64) -> TokenStream {
    let v = lit(value);
    match schema.abi.structs[s].fields[f].ty.elem {
        Elem::Enum(i) => {
            let t = type_ident(&schema.abi.enums[i].name);
            quote!(super::#t(#v))
        }
        _ => quote!(#v),
    }
}

/// `.0` when field `f` is an enum newtype.
fn raw(schema: &Schema, s: usize, f: usize) -> TokenStream {
    match schema.abi.structs[s].fields[f].ty.elem {
        Elem::Enum(_) => quote!(.0),
        _ => TokenStream::new(),
    }
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
    quote! {
        #types

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

/// Every name, number and doc the session's generated code interpolates, computed once
/// from the schema.
struct SessionTokens<'a> {
    schema: &'a Schema,
    s: &'a Session,
    /// The client's type, named after the session.
    name: Ident,
    /// The host's type: `<Name>Host`.
    host: Ident,
    /// The standing enum: `<Name>Standing`.
    standing: Ident,
    /// Why a claim refused: `<Name>Refused`.
    refused: Ident,
    /// Why a bind refused: `<Name>PadRefused`.
    pad_refused: Ident,
    /// The view type of the struct that holds the rows.
    header: Ident,
    /// The header's accessor of row `i`.
    table: Ident,
    /// Rows in the table.
    rows: Literal,
    /// The row's view type.
    row: Ident,
    /// The row state's offset in the row.
    state_off: Literal,
    /// The row generation's offset in the row.
    gen_off: Literal,
    /// The row state's free value.
    free: Literal,
    /// The row state's claimed value.
    claimed: Literal,
    /// The row state's active value.
    active: Literal,
    /// The row state's closing value.
    closing: Literal,
    /// The header's host generation getter.
    hg: Ident,
    /// The host generation's `fetch_add_` method.
    hg_add: Ident,
    /// The host generation's value type.
    hg_ty: TokenStream,
    /// The header's host state getter.
    hst: Ident,
    /// The host state's setter.
    hst_set: Ident,
    /// `.0` when the host state is an enum newtype.
    hst_raw: TokenStream,
    /// The host state's exiting value.
    exiting: Literal,
    /// The exiting value as the host state's type.
    exiting_value: TokenStream,
    /// `.0` when the row state is an enum newtype.
    state_raw: TokenStream,
    /// The row state's value type.
    state_ty: TokenStream,
    /// The row's heartbeat getter.
    beat: Ident,
    /// The row's heartbeat setter.
    beat_set: Ident,
    /// The heartbeat's value type.
    beat_ty: TokenStream,
    /// The row's waiting flag setter.
    wait_set: Ident,
    /// The row's waiting flag getter.
    wait_get: Ident,
    /// The waiting flag's value type.
    wait_ty: TokenStream,
    /// How often a client heartbeats, in ms.
    heartbeat_ms: Literal,
    /// When a row counts as hung, in ms.
    hung_ms: Literal,
    /// The `SharedWord` of a row whose state and generation share one 64-bit word, or `None`.
    word: TokenStream,
    /// The row's old state as its value type.
    wrap_old: TokenStream,
    /// The host struct's fields.
    host_fields: TokenStream,
    /// The host struct's derives.
    host_derive: TokenStream,
    /// The host's constructor.
    host_new: TokenStream,
    /// What a free calls to restore what the row owned.
    restore_call: TokenStream,
    /// The restore method itself.
    restore_fn: TokenStream,
    /// The client type's doc.
    doc: Literal,
    /// The host type's doc.
    hdoc: Literal,
    /// The standing enum's doc.
    sdoc: Literal,
    /// The refused enum's doc.
    rdoc: Literal,
}

impl<'a> SessionTokens<'a> {
    /// The tokens of session `p` (`s`), protocol `index`.
    fn new(schema: &'a Schema, index: usize, p: &Protocol, s: &'a Session) -> Self {
        let header_ty = type_ident(&schema.abi.structs[s.table.struct_index].name);
        let HostParts {
            fields: host_fields,
            derive: host_derive,
            new: host_new,
            call: restore_call,
            restore: restore_fn,
        } = host_parts(schema, index, &quote!(#header_ty), &{
            let free = lit(s.free);
            quote!(#free)
        });
        let name = type_ident(&p.name);
        let (host, standing, refused) = (
            format_ident!("{}Host", name),
            format_ident!("{}Standing", name),
            format_ident!("{}Refused", name),
        );
        let hs = s.table.struct_index;
        let header = type_ident(&schema.abi.structs[hs].name);
        let table_field = &schema.abi.structs[hs].fields[s.table.field];
        let table = rust_ident(&table_field.name);
        let rows = lit(table_field.ty.count());
        let row = type_ident(&schema.abi.structs[s.row].name);
        let r = s.row;
        let (state_off, gen_off) = (offset(schema, r, s.state), offset(schema, r, s.generation));
        let (free, claimed, active, closing) =
            (lit(s.free), lit(s.claimed), lit(s.active), lit(s.closing));
        let hg_field = &schema.abi.structs[hs].fields[s.host_generation.field];
        let hg = rust_ident(&hg_field.name);
        let hg_add = format_ident!("fetch_add_{}", hg_field.name);
        let hg_ty = value_type(schema, &hg_field.ty);
        let hst = rust_ident(&schema.abi.structs[hs].fields[s.host_state.field].name);
        let hst_set = format_ident!(
            "set_{}",
            schema.abi.structs[hs].fields[s.host_state.field].name
        );
        let hst_raw = raw(schema, hs, s.host_state.field);
        let exiting = lit(s.exiting);
        let exiting_value = typed(schema, hs, s.host_state.field, s.exiting);
        let row_fields = &schema.abi.structs[r].fields;
        let state_raw = raw(schema, r, s.state);
        let state_ty = value_type(schema, &row_fields[s.state].ty);
        let beat = rust_ident(&row_fields[s.heartbeat].name);
        let beat_set = format_ident!("set_{}", row_fields[s.heartbeat].name);
        let beat_ty = value_type(schema, &row_fields[s.heartbeat].ty);
        let wait_set = format_ident!("set_{}", row_fields[s.waiting].name);
        let wait_get = rust_ident(&row_fields[s.waiting].name);
        let wait_ty = value_type(schema, &row_fields[s.waiting].ty);
        let (heartbeat_ms, hung_ms) = (lit(s.heartbeat_ms), lit(s.hung_ms));
        let word = match s.shared_word {
            Some(w) => {
                let (at, low) = (lit(w.at), w.state_low);
                quote!(Some(::abi_runtime::claim::SharedWord { at: #at, state_low: #low }))
            }
            None => quote!(None),
        };
        let pad_refused = format_ident!("{}PadRefused", name);
        let wrap_old = match row_fields[s.state].ty.elem {
            Elem::Enum(i) => {
                let t = type_ident(&schema.abi.enums[i].name);
                quote!(super::#t(old))
            }
            _ => quote!(old),
        };
        let doc_extra = if p.doc.is_empty() {
            String::new()
        } else {
            format!(" {}.", escaped(p.doc.trim_end_matches('.')))
        };
        let doc = doc_lit!(
            " The client's side of session `{}`: a claimed row of `{}` (claim, fill in through [`{name}::row`], [`{name}::activate`], [`{name}::heartbeat`] at least every {} ms, [`{name}::standing`], [`{name}::close`]).{doc_extra}",
            p.name,
            table_field.name,
            s.heartbeat_ms
        );
        let hdoc = doc_lit!(
            " The host's side of session `{}`: free a row, reload (every row freed, a new host generation), find the hung ones (a heartbeat older than {} ms).",
            p.name,
            s.hung_ms
        );
        let sdoc =
            doc_lit!(" Whether a `{name}`'s row is still its own, and the host still there.");
        let rdoc = doc_lit!(
            " Why [`{name}::claim`] refused: the row is taken or absent, or the host moved on since the handle attached."
        );
        SessionTokens {
            schema,
            s,
            name,
            host,
            standing,
            refused,
            pad_refused,
            header,
            table,
            rows,
            row,
            state_off,
            gen_off,
            free,
            claimed,
            active,
            closing,
            hg,
            hg_add,
            hg_ty,
            hst,
            hst_set,
            hst_raw,
            exiting,
            exiting_value,
            state_raw,
            state_ty,
            beat,
            beat_set,
            beat_ty,
            wait_set,
            wait_get,
            wait_ty,
            heartbeat_ms,
            hung_ms,
            word,
            wrap_old,
            host_fields,
            host_derive,
            host_new,
            restore_call,
            restore_fn,
            doc,
            hdoc,
            sdoc,
            rdoc,
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
        let owner = owned_blocks(schema, index)
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
