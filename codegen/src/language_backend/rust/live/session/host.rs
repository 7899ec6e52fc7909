//! A session's host side: free a row (restoring what it owned), reload, exit, and find
//! the waiting and the hung rows, one line of `abi_runtime::session_host!`.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::SessionTokens;
use crate::language_backend::rust::live::tokens::word_type;

/// The host type's methods: its constructor and restore (the blocks a row owns) printed, the
/// rest one line of `abi_runtime::session_host!`.
pub(super) fn host_impl(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        name,
        host,
        table,
        free,
        claimed,
        active,
        hg_add,
        hst_set,
        exiting_value,
        state_raw,
        state_ty,
        beat,
        wait_get,
        host_new,
        restore_call,
        restore_fn,
        ..
    } = t;
    let (schema, s) = (t.schema, t.s);
    let pads = s.bind.map(|(b, _)| {
        let word = word_type(schema.layout.of(s.table.struct_index).fields[b.field].size);
        quote!(, pads #word)
    });
    let restore = (!restore_call.is_empty()).then(|| quote!(, owned restore));
    let newtype = (!state_raw.is_empty()).then(|| quote!(as newtype));
    quote! {
        impl<'a> #host<'a> {
            #host_new
            ::abi_runtime::session_host! {
                client #name, rows #table, state (free #free, claimed #claimed, active #active): #state_ty #newtype, host_generation #hg_add, exit #hst_set(#exiting_value), heartbeat #beat, waiting #wait_get #pads #restore;
            }
            #restore_fn
        }
    }
}
