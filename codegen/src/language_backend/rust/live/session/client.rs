//! A session's client side: the claim, its standing, its heartbeat and its pads, one line of
//! `abi_runtime::session_client!` after the claim's spec and the pads' word.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::SessionTokens;
use crate::language_backend::rust::docs::doc_lit;
use crate::language_backend::rust::live::tokens::{lit, word_type};

/// The client type's constants and methods.
pub(super) fn client_impls(t: &SessionTokens) -> TokenStream {
    let name = &t.name;
    let consts = client_consts(t);
    let SessionTokens {
        refused,
        standing,
        header,
        table,
        row,
        hg,
        hg_ty,
        hst,
        hst_raw,
        exiting,
        beat_set,
        beat_ty,
        wait_set,
        wait_ty,
        ..
    } = t;
    let (pads_const, pads_line) = pads(t);
    quote! {
        #consts

        impl<'a> #name<'a> {
            #pads_const
            ::abi_runtime::session_client! {
                refused #refused, standing #standing, header #header, rows #table, row #row, host_generation #hg: #hg_ty, host_state #hst #hst_raw == #exiting, heartbeat #beat_set: #beat_ty, waiting #wait_set: #wait_ty;
                #pads_line
            }
        }
    }
}

/// The claim's spec, the number of rows and the session's times.
fn client_consts(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        name,
        rows,
        state_off,
        gen_off,
        free,
        claimed,
        active,
        closing,
        heartbeat_ms,
        hung_ms,
        word,
        ..
    } = t;
    quote! {
        impl #name<'_> {
            /// Where a row keeps its state and generation, and the state's values.
            pub const SPEC: ::abi_runtime::claim::ClaimSpec = ::abi_runtime::claim::ClaimSpec {
                state: #state_off, generation: #gen_off, free: #free, claimed: #claimed, active: #active, closing: #closing,
                word: #word,
            };
            /// Rows in the table.
            pub const ROWS: usize = #rows;
            /// How often a client heartbeats, at least, in milliseconds.
            pub const HEARTBEAT_MS: u64 = #heartbeat_ms;
            /// How long a row in use may go without a change before the host counts it as
            /// hung, in milliseconds.
            pub const HUNG_MS: u64 = #hung_ms;
        }
    }
}

/// The pads' `PADS` and the `pads` line of `abi_runtime::session_client!` (`bind` and
/// `unbind`), when the session binds pads.
fn pads(t: &SessionTokens) -> (TokenStream, TokenStream) {
    let pad_refused = &t.pad_refused;
    let (schema, s) = (t.schema, t.s);
    let hs = s.table.struct_index;
    let Some((b, unbound)) = s.bind else {
        return (TokenStream::new(), TokenStream::new());
    };
    let f = &schema.abi.structs[hs].fields[b.field];
    let l = &schema.layout.of(hs).fields[b.field];
    let (at, word) = (lit(l.offset), word_type(l.size));
    let (pads, unbound) = (lit(f.ty.count()), lit(unbound));
    let doc = doc_lit!(
        " Binds pad `pad`, while the claim stands: its byte of `{}` goes from unbound to this row's index (compare-and-swap of the word holding it), then, after a SeqCst fence, the claim is checked again, and the bind is undone when it no longer stands (`abi_runtime::pads::bind`: the host's free fences after its retire, so it lets go of any bind this check does not undo). Refused with the owner when another row holds it, `NoPad` when there is no such pad, and the standing once the row is no longer the claim's (nothing is left bound). `Contended` when the word kept changing: nothing stored, or, when an undo was contended, the pad left bound (unbind it).",
        f.name
    );
    let udoc = doc_lit!(
        " Unbinds pad `pad`, while the claim stands: its byte of `{}` goes from this row's index back to unbound (`abi_runtime::pads::unbind`). Refused with the owner when this row does not hold it, `NoPad` when there is no such pad, and the standing once the row is no longer the claim's (nothing stored).",
        f.name
    );
    let pads_const = quote! {
        /// Where the pads' owner bytes are, for `abi_runtime::pads`.
        pub const PADS: ::abi_runtime::pads::PadWord = ::abi_runtime::pads::PadWord {
            at: #at,
            count: #pads,
            unbound: #unbound,
        };
    };
    (
        pads_const,
        quote!(pads [#[doc = #doc]] [#[doc = #udoc]] #pad_refused, #word;),
    )
}
