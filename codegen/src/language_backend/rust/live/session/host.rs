//! A session's host side: free a row (restoring what it owned), reload, exit, and find
//! the waiting and the hung rows.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::SessionTokens;
use crate::language_backend::rust::live::tokens::word_type;

/// The host type's methods.
pub(super) fn host_impl(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        name,
        host,
        table,
        claimed,
        active,
        hg_add,
        hst_set,
        exiting_value,
        state_raw,
        state_ty,
        beat,
        wait_get,
        wrap_old,
        host_new,
        restore_call,
        restore_fn,
        ..
    } = t;
    let release_pads = release_pads(t);
    quote! {
        impl<'a> #host<'a> {
            #host_new

            /// Frees row `index` and restores what it owned, whatever its client does: the row
            /// is retired first (its state becomes closing, a swap: its client sees it gone and
            /// no client can claim it meanwhile), the pads it bound are let go (when the
            /// session binds pads: a SeqCst fence after the retire, then the sweep, so that
            /// a bind racing the free is seen by the sweep or undone by its client,
            /// `abi_runtime::pads`), then its state becomes free (release), so the next claim
            /// finds everything restored. One free of a row at a time: the host's. Returns the
            /// state it had
            /// (free: nothing was done), or `None` when there is no such row. `Contended`
            /// when a word the client shares with the host (the row's state, a pad, a
            /// restored field) kept changing under each of [`abi_runtime::CAS_TRIES`]
            /// compare-and-swaps: the free stops there (a retired row stays retired, and
            /// no client can claim it until a later free succeeds).
            pub fn free(&self, index: usize) -> Result<Option<#state_ty>, ::abi_runtime::Contended> {
                let Some(row) = self.header.#table(index) else {
                    return Ok(None);
                };
                let old = ::abi_runtime::claim::retire(row.region(), #name::SPEC)?;
                #release_pads
                #restore_call
                ::abi_runtime::claim::free(row.region(), #name::SPEC)?;
                Ok(Some(#wrap_old))
            }

            /// A reload: adds 1 to the host's generation first, then frees every row as
            /// [`Self::free`] does (after it, so a client that claims a row a free made sees
            /// the new generation). Every row is tried, also after a free that gave up.
            /// Returns the rows that were claimed or active; when a free gave up, an error
            /// (after every row was tried) with those rows and the rows whose free gave up
            /// (each left as it was, or retired). When the generation's word kept changing,
            /// nothing was freed, and every row is reported.
            pub fn reload(&self) -> Result<Vec<usize>, ::abi_runtime::claim::ReloadContended> {
                if self.header.#hg_add(1).is_err() {
                    return Err(::abi_runtime::claim::ReloadContended {
                        freed: Vec::new(),
                        contended: (0..#name::ROWS).collect(),
                    });
                }
                let mut contended = Vec::new();
                let mut rows = Vec::new();
                for i in 0..#name::ROWS {
                    match self.free(i) {
                        Ok(Some(old)) if old #state_raw == #claimed || old #state_raw == #active => rows.push(i),
                        Ok(_) => {}
                        Err(_) => contended.push(i),
                    }
                }
                if contended.is_empty() {
                    Ok(rows)
                } else {
                    Err(::abi_runtime::claim::ReloadContended { freed: rows, contended })
                }
            }

            /// Tells every client the host is exiting (release); `Contended` when its word
            /// kept changing (nothing stored).
            pub fn exit(&self) -> Result<(), ::abi_runtime::Contended> {
                self.header.#hst_set(#exiting_value)
            }

            /// The host's side of the waiting handshake: after it published (stored what
            /// the client loads), a SeqCst fence, then row `index`'s waiting flag (acquire):
            /// true when its client sleeps and must be woken. False for no such row.
            pub fn is_waiting(&self, index: usize) -> bool {
                ::core::sync::atomic::fence(::core::sync::atomic::Ordering::SeqCst);
                self.header.#table(index).is_some_and(|row| row.#wait_get() == 1)
            }

            /// A watch of every row, for [`Self::is_hung`]: the host's own memory, kept
            /// between checks, with the session's hung time (the session type's `HUNG_MS`).
            pub fn watch(&self) -> ::abi_runtime::hung::HungWatch {
                self.watch_hung_ms(0)
            }

            /// [`Self::watch`] with the host's own hung time: `hung_ms`, or 0 for the
            /// session's `HUNG_MS`. A host that serves slow clients (a debugger's
            /// breakpoint, a loaded CI machine) takes more; one that must free a dead
            /// bot's pad sooner, less.
            pub fn watch_hung_ms(&self, hung_ms: u64) -> ::abi_runtime::hung::HungWatch {
                let hung_ms = if hung_ms == 0 { #name::HUNG_MS } else { hung_ms };
                ::abi_runtime::hung::HungWatch::new(#name::ROWS, hung_ms.saturating_mul(1_000_000))
            }

            /// Whether row `index` is hung: claimed or active with the same state,
            /// generation and heartbeat as `watch` first saw more than the session's hung
            /// time ago, at `now_ns` of the host's own monotonic clock (the same one each
            /// call; the heartbeat's value only has to change). A row the watch sees in
            /// use for the first time gets the whole hung time; a free or closing row is
            /// never hung. False for no such row.
            pub fn is_hung(&self, watch: &mut ::abi_runtime::hung::HungWatch, index: usize, now_ns: u64) -> bool {
                let Some(row) = self.header.#table(index) else {
                    return false;
                };
                let (state, generation) = ::abi_runtime::claim::row_word(row.region(), #name::SPEC);
                let seen = ::abi_runtime::hung::RowSeen {
                    state,
                    generation,
                    beat: row.#beat(),
                    in_use: state == #claimed || state == #active,
                };
                watch.is_hung(index, seen, now_ns)
            }

            #restore_fn
        }
    }
}

/// What a free does to the pads the row bound, when the session binds pads: each goes back
/// to unbound.
fn release_pads(t: &SessionTokens) -> TokenStream {
    let (schema, s, free) = (t.schema, t.s, &t.free);
    let hs = s.table.struct_index;
    match s.bind {
        Some((b, _)) => {
            let word = word_type(schema.layout.of(hs).fields[b.field].size);
            let name = &t.name;
            quote! {
                if let Some(own) = u8::try_from(index).ok().filter(|_| old != #free) {
                    // A SeqCst fence after the retire, then each pad the row holds goes back
                    // to unbound (a pad held by another row stays as it is): a bind whose
                    // client does not see the retire, this sweep sees (abi_runtime::pads).
                    // A contended word stops the free (the row stays retired).
                    ::abi_runtime::pads::sweep::<#word, _>(self.header.region(), #name::PADS, own)?;
                }
            }
        }
        None => TokenStream::new(),
    }
}
