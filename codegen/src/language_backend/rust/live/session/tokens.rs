//! The names, numbers and docs a session's generated code interpolates, computed once from
//! the schema, for the session's types, client and host.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::ir::Elem;
use crate::ir::StructId;
use crate::ir::protocol::{Protocol, Session};
use crate::language_backend::rust::docs::{doc_lit, escaped};
use crate::language_backend::rust::live::session_restore::{HostParts, host_parts};
use crate::language_backend::rust::live::tokens::{lit, offset, value_type};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::schema::Schema;

/// `value` as field `f`'s value type: an enum newtype around the literal, or the literal.
fn typed(schema: &Schema, s: StructId, f: usize, value: u64) -> TokenStream {
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
fn raw(schema: &Schema, s: StructId, f: usize) -> TokenStream {
    match schema.abi.structs[s].fields[f].ty.elem {
        Elem::Enum(_) => quote!(.0),
        _ => TokenStream::new(),
    }
}

/// Every name, number and doc the session's generated code interpolates, computed once
/// from the schema.
pub(super) struct SessionTokens<'a> {
    pub(super) schema: &'a Schema,
    pub(super) s: &'a Session,
    /// The client's type, named after the session.
    pub(super) name: Ident,
    /// The host's type: `<Name>Host`.
    pub(super) host: Ident,
    /// The standing enum: `<Name>Standing`.
    pub(super) standing: Ident,
    /// Why a claim refused: `<Name>Refused`.
    pub(super) refused: Ident,
    /// Why a bind refused: `<Name>PadRefused`.
    pub(super) pad_refused: Ident,
    /// The view type of the struct that holds the rows.
    pub(super) header: Ident,
    /// The header's accessor of row `i`.
    pub(super) table: Ident,
    /// Rows in the table.
    pub(super) rows: Literal,
    /// The row's view type.
    pub(super) row: Ident,
    /// The row state's offset in the row.
    pub(super) state_off: Literal,
    /// The row generation's offset in the row.
    pub(super) gen_off: Literal,
    /// The row state's free value.
    pub(super) free: Literal,
    /// The row state's claimed value.
    pub(super) claimed: Literal,
    /// The row state's active value.
    pub(super) active: Literal,
    /// The row state's closing value.
    pub(super) closing: Literal,
    /// The header's host generation getter.
    pub(super) hg: Ident,
    /// The host generation's `fetch_add_` method.
    pub(super) hg_add: Ident,
    /// The host generation's value type.
    pub(super) hg_ty: TokenStream,
    /// The header's host state getter.
    pub(super) hst: Ident,
    /// The host state's setter.
    pub(super) hst_set: Ident,
    /// `.0` when the host state is an enum newtype.
    pub(super) hst_raw: TokenStream,
    /// The host state's exiting value.
    pub(super) exiting: Literal,
    /// The exiting value as the host state's type.
    pub(super) exiting_value: TokenStream,
    /// `.0` when the row state is an enum newtype.
    pub(super) state_raw: TokenStream,
    /// The row state's value type.
    pub(super) state_ty: TokenStream,
    /// The row's heartbeat getter.
    pub(super) beat: Ident,
    /// The row's heartbeat setter.
    pub(super) beat_set: Ident,
    /// The heartbeat's value type.
    pub(super) beat_ty: TokenStream,
    /// The row's waiting flag setter.
    pub(super) wait_set: Ident,
    /// The row's waiting flag getter.
    pub(super) wait_get: Ident,
    /// The waiting flag's value type.
    pub(super) wait_ty: TokenStream,
    /// How often a client heartbeats, in ms.
    pub(super) heartbeat_ms: Literal,
    /// When a row counts as hung, in ms.
    pub(super) hung_ms: Literal,
    /// The `SharedWord` of a row whose state and generation share one 64-bit word, or `None`.
    pub(super) word: TokenStream,
    /// The host struct's fields.
    pub(super) host_fields: TokenStream,
    /// The host struct's derives.
    pub(super) host_derive: TokenStream,
    /// The host's constructor.
    pub(super) host_new: TokenStream,
    /// What a free calls to restore what the row owned.
    pub(super) restore_call: TokenStream,
    /// The restore method itself.
    pub(super) restore_fn: TokenStream,
    /// The client type's doc.
    pub(super) doc: Literal,
    /// The host type's doc.
    pub(super) hdoc: Literal,
    /// The standing enum's doc.
    pub(super) sdoc: Literal,
    /// The refused enum's doc.
    pub(super) rdoc: Literal,
}

impl<'a> SessionTokens<'a> {
    /// The tokens of session `p` (`s`), protocol `index`.
    pub(super) fn new(schema: &'a Schema, index: usize, p: &Protocol, s: &'a Session) -> Self {
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
