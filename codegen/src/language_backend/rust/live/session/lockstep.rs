//! Lockstep in the Rust live layer (issue 47, `plan/lockstep.rs`): the bot's answer (the
//! record's write bound to its claim, then the input event set) on the answer record's view,
//! and the host's `lockstep_bots` and `wait_<event>` over `abi_runtime::lockstep`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::SessionTokens;
use crate::ir::protocol::ProtocolKind;
use crate::language_backend::rust::live::tokens::lit;
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::plan::lockstep::{ANSWER_FIELD, lockstep};

/// The lockstep items of session `t`, or nothing when the schema's input event is another
/// session's or absent.
pub(super) fn lockstep_items(t: &SessionTokens) -> TokenStream {
    let Some(l) = lockstep(t.schema) else {
        return TokenStream::new();
    };
    match &t.schema.protocols[l.session].kind {
        ProtocolKind::Session(s) if std::ptr::eq(s, t.s) => {}
        _ => return TokenStream::new(),
    }
    let schema = t.schema;
    let lock = &schema.access.seqlocks[l.seqlock];
    let view = type_ident(&schema.abi.structs[lock.struct_index].name);
    let write = format_ident!("write_{}", lock.name);
    let read_into = format_ident!("read_{}_into", lock.name);
    let ev = &l.event.name;
    let setter = format_ident!("{ev}_setter");
    let answer = format_ident!("answer_{ev}");
    let wait = format_ident!("wait_{ev}");
    let word = lit(l.word_offset);
    let for_tick = rust_ident(ANSWER_FIELD);
    let SessionTokens {
        name,
        host,
        standing,
        table,
        row,
        state_raw,
        active,
        ..
    } = t;
    let state = rust_ident(&schema.abi.structs[t.s.row].fields[t.s.state].name);
    let not_tool = match l.tool {
        Some(tool) => {
            let caps = rust_ident(&schema.abi.structs[t.s.row].fields[tool.field].name);
            let bits = lit(tool.bits);
            quote!(&& u64::from(row.#caps().0) & #bits == 0)
        }
        None => TokenStream::new(),
    };
    let bots_doc = format!(
        " The rows the host waits for in lockstep (`plan/lockstep.rs`), bit `row`: those whose state is active and whose caps lack `{}`.",
        crate::plan::lockstep::TOOL_CAP
    );
    let wait_doc = format!(
        " In lockstep, after publishing `tick`: waits until every bot (`lockstep_bots`) answered it, or until `deadline` (the publication plus `lockstep_timeout_ms`). A row's answer is taken into `last[row]` only when a whole copy of its record (at most `HOST_TRIES` tries) says `{ANSWER_FIELD} == tick`: an older tick's answer never counts. The host sleeps on the `{ev}` event of the lowest pending row while its word holds the counter loaded before the check (a wake only means \"look again\"); at the deadline, one last check, then `misses[row]` is counted for each bot still pending, whose `last[row]` stays its last answer. `pads(row)` gives the row's record. Never past the deadline, whatever a bot does."
    );
    quote! {
        impl<'a> #view<'a> {
            /// What `answer_` sets: the input event's word in the record (a futex wake on
            /// Linux; elsewhere the host polls).
            pub fn #setter(&self) -> Result<::abi_runtime::wake::Setter<'a>, ::abi_runtime::RegionError> {
                ::abi_runtime::wake::Setter::new(self.region, #word)
            }
            /// The bot's answer in lockstep: writes `value` (whose answer tick says which tick it
            /// answers) bound to `client`'s claim, then sets the input event. Once the claim is
            /// gone, refused with its standing: nothing written, nothing set.
            pub fn #answer(
                &self,
                client: &#name<'_>,
                setter: &::abi_runtime::wake::Setter<'_>,
                value: &super::#view,
            ) -> Result<Result<(), ::abi_runtime::Contended>, #standing> {
                let written = self.#write(client, value)?;
                if written.is_ok() {
                    setter.after_publish(1, |_| true);
                }
                Ok(written)
            }
        }
        impl<'a> #host<'a> {
            #[doc = #bots_doc]
            pub fn lockstep_bots(&self) -> u64 {
                (0..#name::ROWS.min(64))
                    .filter(|&i| {
                        self.header.#table(i).is_some_and(|row: #row<'a>| {
                            u64::from(row.#state()#state_raw) == #active #not_tool
                        })
                    })
                    .fold(0, |bots, i| bots | 1 << i)
            }
            #[doc = #wait_doc]
            pub fn #wait(
                &self,
                tick: u64,
                deadline: ::std::time::Instant,
                pads: impl Fn(usize) -> Option<#view<'a>>,
                last: &mut [super::#view],
                misses: &mut [u64],
            ) -> ::abi_runtime::lockstep::Tally {
                let tally = ::abi_runtime::lockstep::wait_answers(
                    self.lockstep_bots(),
                    deadline,
                    |row| pads(row).map(|p| p.region.load::<u32>(#word, ::core::sync::atomic::Ordering::Acquire)),
                    |row| {
                        let Some(p) = pads(row) else { return false };
                        let mut copy = <super::#view as FromZeros>::new_zeroed();
                        if p.#read_into(&mut copy, HOST_TRIES).is_err() || copy.#for_tick != tick {
                            return false;
                        }
                        if let Some(keep) = last.get_mut(row) {
                            *keep = copy;
                        }
                        true
                    },
                    |row, seen, deadline| match pads(row).and_then(|p| ::abi_runtime::wake::Sleeper::new(p.region, #word).ok()) {
                        Some(sleeper) => sleeper.wait(seen, deadline),
                        None => ::abi_runtime::wake::Waited::TimedOut,
                    },
                );
                for (row, miss) in misses.iter_mut().enumerate().take(64) {
                    if tally.missed & (1 << row) != 0 {
                        *miss += 1;
                    }
                }
                tally
            }
        }
    }
}
