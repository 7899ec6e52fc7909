//! `store_<event>_wake_stats` on the view of the struct an event's `stats` names
//! (`plan::events::wake_stores`): a waiter's `abi_runtime::wake_stats::WakeStats` stored
//! through the view's setter of each field, which uses the field's declared access, in the
//! plan's order (the plain fields first, then the atomic ones, whose release publishes them).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::language_backend::rust::names::type_ident;
use crate::plan::events::wake_stores;
use crate::schema::Schema;

/// The `impl` blocks of every event's store helper; none without an event's `stats`.
pub(super) fn expand_wake_stores(schema: &Schema) -> TokenStream {
    let blocks = wake_stores(schema).into_iter().map(|w| {
        let view = type_ident(&schema.abi.structs[w.struct_index].name);
        let name = format_ident!("store_{}_wake_stats", w.event.name);
        let fields: Vec<String> = w.stores.iter().map(|s| format!("`{}`", s.field)).collect();
        let doc = format!(
            " Stores the wake statistics `stats` of event `{}`'s waiter, each figure in the field the schema's `stats` names through that field's setter, with its access, in this order: {}; the plain fields' relaxed stores come before the atomic fields' release stores, which publish them. Only the waiter writes these fields. `Err(Contended)` when a word a field shares in part kept changing (the figures before it stored).",
            w.event.name,
            fields.join(", ")
        );
        let stores = w.stores.iter().map(|s| {
            let setter = format_ident!("set_{}", s.field);
            let value = match s.key {
                "ticks" => quote!(stats.ticks()),
                "skipped" => quote!(stats.skipped()),
                "p50_us" => quote!(p50_us),
                _ => quote!(p99_us),
            };
            quote!(self.#setter(#value)?;)
        });
        quote! {
            impl<A: ::abi_runtime::Writable> #view<'_, A> {
                #[doc = #doc]
                pub fn #name(
                    &self,
                    stats: &::abi_runtime::wake_stats::WakeStats,
                ) -> Result<(), ::abi_runtime::Contended> {
                    let (p50_us, p99_us) = stats.percentiles_us();
                    #(#stores)*
                    Ok(())
                }
            }
        }
    });
    quote!(#(#blocks)*)
}
