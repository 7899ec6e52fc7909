//! The host's service turn in Rust: `impl abi_runtime::service::ServiceHost for
//! <Name>Host`, printed from `plan::service` (its steps, policy and free steps as the
//! runtime's `Plan`, where each region is). Thin glue: the turn itself is
//! `abi_runtime::service::Service`, the same steps, order and policy as C's and Python's.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::SessionTokens;
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::plan::service::{DRAIN_MAX, FREE_STEPS, FreeStep, Region, Step, policy};

/// The impl for session `index`, when it is the schema's service turn.
pub(super) fn service_impl(t: &SessionTokens, index: usize) -> TokenStream {
    let schema = t.schema;
    let Some(plan) =
        crate::plan::service::service_plan(schema).filter(|p| p.session.index() == index)
    else {
        return TokenStream::new();
    };
    let (name, host, active, closing) = (&t.name, &t.host, &t.active, &t.closing);
    let blocks = |r: &Region| rust_ident(&r.blocks);
    let kind = |r: &Region, suffix: &str| {
        format_ident!("{}{suffix}", type_ident(&schema.protocols[r.protocol].name))
    };
    let steps = plan.step_names(true).into_iter().map(|s| {
        let s = format_ident!("{}", heck_camel(s));
        quote!(::abi_runtime::service::Step::#s)
    });
    let free_steps = FREE_STEPS.iter().map(|f| match f {
        FreeStep::Drain => quote!(::abi_runtime::service::FreeStep::Drain),
        FreeStep::Free => quote!(::abi_runtime::service::FreeStep::Free),
        FreeStep::NewReader => quote!(::abi_runtime::service::FreeStep::NewReader),
    });
    let (serve_policy, take_policy) = (policy(Step::Serve), policy(Step::Take));
    let serve = match &plan.mailbox {
        Some(r) => {
            let (b, server) = (blocks(r), format_ident!("{}_server", r.region));
            quote! {
                let Some(block) = self.handle.#b(row)? else { return Ok(None) };
                let Some(server) = block.#server()? else { return Ok(None) };
                Ok(server.serve_or_malformed(answer)?.map(|(_, malformed)| malformed))
            }
        }
        None => quote!(let _ = (row, answer); Ok(None)),
    };
    // A reader side (the queue's, the exchange's): its type, what it gives, how the host's
    // handle makes one for a row, and its one call.
    let side = |r: &Option<Region>, item: &str, arg: &str, method: &str| {
        let (arg, method) = (format_ident!("{arg}"), format_ident!("{method}"));
        match r {
            Some(r) => {
                let (b, make) = (blocks(r), format_ident!("{}_reader", r.region));
                let (reader, item) = (kind(r, "Reader"), kind(r, item));
                (
                    quote!(#reader<'a>),
                    quote!(#item),
                    quote!(match self.handle.#b(row)? { Some(b) => Ok(b.#make()?), None => Ok(None) }),
                    quote!(Ok(#arg.#method()?)),
                )
            }
            None => (
                quote!(()),
                quote!(()),
                quote!(let _ = row; Ok(None)),
                quote!(let _ = #arg; Ok(None)),
            ),
        }
    };
    let (queue_ty, entry_ty, queue, pop) = side(&plan.queue, "Entry", "queue", "pop");
    let (reader_ty, list_ty, reader, take) = side(&plan.exchange, "List", "reader", "take");
    let pid = match plan.pid {
        Some(f) => {
            let f = rust_ident(&schema.abi.structs[t.s.row].fields[f].name);
            quote!(r.#f())
        }
        None => quote!(0),
    };
    let table = &t.table;
    quote! {
        impl<'a> ::abi_runtime::service::ServiceHost for #host<'a> {
            type Queue = #queue_ty;
            type Entry = #entry_ty;
            type Reader = #reader_ty;
            type List = #list_ty;
            const PLAN: ::abi_runtime::service::Plan = ::abi_runtime::service::Plan {
                steps: &[#(#steps),*],
                free_steps: &[#(#free_steps),*],
                serve_policy: &[#(#serve_policy),*],
                take_policy: &[#(#take_policy),*],
                drain_max: #DRAIN_MAX,
            };
            fn rows(&self) -> usize { #name::ROWS }
            fn watch(&self, hung_ms: u64) -> ::abi_runtime::hung::HungWatch { self.watch_hung_ms(hung_ms) }
            fn serve(&self, row: usize, answer: &mut ::abi_runtime::service::Answer<'_>) -> Result<Option<bool>, ::abi_runtime::service::StepError> { #serve }
            fn queue(&self, row: usize) -> Result<Option<Self::Queue>, ::abi_runtime::service::StepError> { #queue }
            fn pop(queue: &mut Self::Queue) -> Result<Option<Self::Entry>, ::abi_runtime::service::StepError> { #pop }
            fn reader(&self, row: usize) -> Result<Option<Self::Reader>, ::abi_runtime::service::StepError> { #reader }
            fn take(reader: &mut Self::Reader) -> Result<Option<Self::List>, ::abi_runtime::service::StepError> { #take }
            fn row(&self, row: usize) -> Option<::abi_runtime::service::RowWords> {
                let r = self.header.#table(row)?;
                let (state, generation) = ::abi_runtime::claim::row_word(r.region(), #name::SPEC);
                Some(::abi_runtime::service::RowWords { closing: state == #closing, active: state == #active, generation, pid: #pid })
            }
            fn is_hung(&self, watch: &mut ::abi_runtime::hung::HungWatch, row: usize, now_ns: u64) -> bool { #host::is_hung(self, watch, row, now_ns) }
            fn free(&self, row: usize) -> Result<(), ::abi_runtime::service::StepError> { #host::free(self, row)?; Ok(()) }
            fn reload(&self) -> Result<(), ::abi_runtime::service::StepError> { #host::reload(self)?; Ok(()) }
        }
    }
}

/// `serve` as `Serve`: a step's name as the runtime's variant.
fn heck_camel(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}
