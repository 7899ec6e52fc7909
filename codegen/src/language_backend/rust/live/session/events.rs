//! A session's events (issue 47, `plan/events.rs`): the client's sleeper, its Windows name and
//! `wait_<event>` through the session's `waiting` handshake (`abi_runtime::wake::wait_tick`),
//! and the host's setter, the names it creates and `set_<event>` after a publication.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::SessionTokens;
use crate::ir::event::NamePart;
use crate::language_backend::rust::live::tokens::lit;
use crate::plan::events::{SessionEvent, name_format, session_events};

/// A load of the scalar at `offset` of `width` bytes from `region` as a `u64`.
fn load(region: &TokenStream, offset: u64, width: u64, atomic: bool) -> TokenStream {
    let off = lit(offset);
    let ty = if width == 8 { quote!(u64) } else { quote!(u32) };
    let value = if atomic {
        quote!(#region.load::<#ty>(#off, ::core::sync::atomic::Ordering::Acquire))
    } else {
        quote!(#region.read::<#ty>(#off))
    };
    if width == 8 {
        value
    } else {
        quote!(u64::from(#value))
    }
}

/// `format!` of the event's Windows name, `row` and `generation` given.
fn name_expr(e: &SessionEvent, row: TokenStream, generation: TokenStream) -> TokenStream {
    let (text, parts) = name_format(e.event);
    let region = quote!(self.header.region());
    let args = parts.iter().map(|p| match p {
        NamePart::Mapping => quote!(mapping),
        NamePart::Row => row.clone(),
        NamePart::Pid => {
            let pid = e
                .pid
                .as_ref()
                .expect("lowering checked the handshake names a pid");
            load(&region, pid.offset, pid.width, false)
        }
        NamePart::Generation => generation.clone(),
        NamePart::Text(_) => unreachable!("text is in the format string"),
    });
    quote!(::std::format!(#text, #(#args),*))
}

/// The client's methods for each of its events.
pub(super) fn client_event_methods(t: &SessionTokens) -> TokenStream {
    let standing = &t.standing;
    let methods = session_events(t.schema, t.s).into_iter().map(|e| {
        let name = &e.event.name;
        let sleeper = format_ident!("{name}_sleeper");
        let event_name = format_ident!("{name}_event_name");
        let wait = format_ident!("wait_{name}");
        let word = lit(e.word_offset);
        let seq = load(&quote!(self.header.region()), e.seq_offset, e.seq_width, true);
        let doc = format!(
            " Sleeps until `{}` is no longer `last`, or until `deadline`: the row's waiting flag set, a SeqCst fence, the sequence loaded again, then a sleep on the `{name}` event (its word is `{}`), the flag cleared; a wake only means \"look again\". A timeout is `seq: None`, not an error. The flag is stored only while the row is this claim's: otherwise the wait ends at once with `claim_lost` and nothing written (ask `standing()`). `Contended` when the flag's word kept changing.",
            e.event.word_path.trim_end_matches(".low"),
            e.event.word_path
        );
        let generation = quote!(self.host_generation);
        let name_value = name_expr(&e, quote!(self.index), generation);
        quote! {
            /// What the `wait_` method sleeps on: the event's word in the mapping (a futex
            /// shared between processes on Linux). On Windows, open the host's named event
            /// instead: `Sleeper::open_named(region, offset, &self.<event>_event_name(mapping))`.
            pub fn #sleeper(&self) -> Result<::abi_runtime::wake::Sleeper<'a>, ::abi_runtime::RegionError> {
                ::abi_runtime::wake::Sleeper::new(self.header.region(), #word)
            }
            /// The Windows event's name for this row, under `Local\`: the schema's
            /// `windows_name` with the mapping's name.
            pub fn #event_name(&self, mapping: &str) -> ::std::string::String {
                #name_value
            }
            #[doc = #doc]
            pub fn #wait(
                &self,
                sleeper: &::abi_runtime::wake::Sleeper<'_>,
                last: u64,
                deadline: ::std::time::Instant,
            ) -> Result<::abi_runtime::wake::TickWait, ::abi_runtime::Contended> {
                ::abi_runtime::wake::wait_tick(
                    sleeper,
                    last,
                    deadline,
                    |waiting| Ok(self.set_waiting(waiting)? == #standing::Connected),
                    || #seq,
                )
            }
        }
    });
    quote!(#(#methods)*)
}

/// The host's methods for each event its clients wait on.
pub(super) fn host_event_methods(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        name,
        table,
        wait_get,
        row,
        ..
    } = t;
    let methods = session_events(t.schema, t.s).into_iter().map(|e| {
        let ev = &e.event.name;
        let setter = format_ident!("{ev}_setter");
        let names = format_ident!("{ev}_event_names");
        let set = format_ident!("set_{ev}");
        let word = lit(e.word_offset);
        let generation = match &e.generation {
            Some(g) => load(&quote!(self.header.region()), g.offset, g.width, true),
            None => quote!(0u64),
        };
        let name_value = name_expr(&e, quote!(index), generation);
        quote! {
            /// What `set_` wakes: the event's word in the mapping (a futex wake on Linux).
            /// On Windows, create the named events first, before the bridge is marked running:
            /// `Setter::create_named(region, offset, &self.<event>_event_names(mapping))`.
            pub fn #setter(&self) -> Result<::abi_runtime::wake::Setter<'a>, ::abi_runtime::RegionError> {
                ::abi_runtime::wake::Setter::new(self.header.region(), #word)
            }
            /// Every row's Windows event name, under `Local\`.
            pub fn #names(&self, mapping: &str) -> ::std::vec::Vec<::std::string::String> {
                (0..#name::ROWS).map(|index| #name_value).collect()
            }
            /// After a publication: a SeqCst fence, then each row's waiting flag; the event is
            /// set for the rows that wait and those `always` says want every publication (a
            /// `ticks` cap), with no OS call for the others.
            pub fn #set(
                &self,
                setter: &::abi_runtime::wake::Setter<'_>,
                always: impl Fn(&#row<'a>) -> bool,
            ) -> ::abi_runtime::wake::Woke {
                setter.after_publish(#name::ROWS, |index| {
                    self.header.#table(index).is_some_and(|row| row.#wait_get() == 1 || always(&row))
                })
            }
        }
    });
    quote!(#(#methods)*)
}
