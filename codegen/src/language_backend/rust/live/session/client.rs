//! A session's client side: the claim, its standing, its heartbeat and its pads.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::SessionTokens;
use crate::language_backend::rust::docs::doc_lit;
use crate::language_backend::rust::live::tokens::{lit, word_type};

/// The client type's constants and methods.
pub(super) fn client_impls(t: &SessionTokens) -> TokenStream {
    let name = &t.name;
    let consts = client_consts(t);
    let claim = claim_methods(t);
    let standing = standing_methods(t);
    let bind = bind_methods(t);
    quote! {
        #consts

        impl<'a> #name<'a> {
            #claim
            #standing
            #bind
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

/// Claiming a row, and what a claim knows: its index, generations and row.
fn claim_methods(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        refused,
        header,
        table,
        row,
        hg,
        hg_ty,
        hst,
        hst_raw,
        exiting,
        ..
    } = t;
    quote! {
        /// Claims row `index` if it is free, for a client that attached at host generation
        /// `attached` (the handle's): one compare-and-swap of the row's state and
        /// generation, from free to claimed with the generation bumped. Then the host's
        /// state and generation are loaded (acquire, after the claim: a row a reload freed
        /// shows the reload's generation); when the host is exiting or its generation is no
        /// longer `attached`, the row is given back and the claim refused, so a claim never
        /// stands on tables its handle did not check. When the host freed the claimed row
        /// before it could be given back, the claim is returned: its standing says
        /// `Reloaded` or `HostExiting`, as for any claim the host took.
        pub fn claim(header: #header<'a>, attached: #hg_ty, index: usize) -> Result<Self, #refused> {
            let row = header.#table(index).ok_or(#refused::NoRow)?;
            let claim = ::abi_runtime::claim::Claim::try_claim(row.region(), Self::SPEC).ok_or(#refused::Taken)?;
            let now = header.#hg();
            let refused = if header.#hst() #hst_raw == #exiting {
                #refused::HostExiting
            } else if now != attached {
                #refused::Reloaded
            } else {
                return Ok(Self { header, index, claim, host_generation: attached });
            };
            // Given back only while the host's generation is still the one loaded after the
            // claim (a re-layout since rewrote the row).
            if header.#hg() == now && claim.release() {
                return Err(refused);
            }
            // The host freed the claimed row first (its reload or exit did): the claim
            // happened, and its standing says what took it.
            Ok(Self { header, index, claim, host_generation: attached })
        }

        /// Claims the first free row this client wins ([`Self::claim`]): `Taken` when
        /// every row is taken.
        pub fn claim_first(header: #header<'a>, attached: #hg_ty) -> Result<Self, #refused> {
            for index in 0..Self::ROWS {
                match Self::claim(header, attached, index) {
                    Err(#refused::Taken | #refused::NoRow) => {}
                    done => return done,
                }
            }
            Err(#refused::Taken)
        }

        /// The row's index.
        pub fn index(&self) -> usize {
            self.index
        }

        /// The generation the claim gave the row.
        pub fn generation(&self) -> u32 {
            self.claim.generation()
        }

        /// The host's generation when the row was claimed.
        pub fn host_generation(&self) -> #hg_ty {
            self.host_generation
        }

        /// The row's live view: fill in its fields before [`Self::activate`].
        pub fn row(&self) -> #row<'a> {
            #row::at(self.claim.row(), 0).expect("a claimed row is a whole row")
        }

    }
}

/// Activating, heartbeating, waiting, the standing and closing.
fn standing_methods(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        standing,
        header,
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
    quote! {
        /// Marks the row in use (release: what was written before is visible to the host
        /// that sees it active), only while it is still this claim's: the host's generation
        /// is still the claim's (checked first: a move of a claim the host reloaded past
        /// never touches the row), then the row's word; the standing after.
        pub fn activate(&self) -> #standing {
            if self.header.#hg() == self.host_generation {
                let _ = self.claim.activate();
            }
            self.standing()
        }

        /// Stores the heartbeat (release) while the row is still this claim's; the
        /// standing. `Contended` when the heartbeat's word kept changing (nothing stored).
        pub fn heartbeat(&self, now_ns: #beat_ty) -> Result<#standing, ::abi_runtime::Contended> {
            let standing = self.standing();
            if standing == #standing::Connected {
                self.row().#beat_set(now_ns)?;
            }
            Ok(standing)
        }

        /// Says whether the client sleeps on its tick event (release), then a SeqCst
        /// fence. After `set_waiting(true)`, load what the host publishes and sleep only
        /// when it is not new: the fence keeps that load after the store, and the host's
        /// `is_waiting` keeps its load after its publication, so one side always sees
        /// the other (Dekker's store-then-load pattern, which release and acquire alone
        /// do not order).
        /// Stores only while the row is still this claim's, as the heartbeat: a client
        /// that lost its row never writes the next client's flag (which would hide that
        /// client's sleep from the host); the standing.
        /// `Contended` when the flag's word kept changing (nothing stored).
        pub fn set_waiting(&self, waiting: bool) -> Result<#standing, ::abi_runtime::Contended> {
            let standing = self.standing();
            if standing == #standing::Connected {
                self.row().#wait_set(#wait_ty::from(waiting))?;
                ::core::sync::atomic::fence(::core::sync::atomic::Ordering::SeqCst);
            }
            Ok(standing)
        }

        /// The row's state and generation (acquire), then the host's generation and
        /// state: `HostExiting`, `Reloaded` (the host's generation changed since the
        /// claim), `Disconnected` (the row was freed or claimed again), or `Connected`.
        pub fn standing(&self) -> #standing {
            Self::standing_after(self.header, self.host_generation, self.claim.standing())
        }

        /// The standing, the row's own (loaded first) given.
        fn standing_after(header: #header<'a>, host_generation: #hg_ty, row: ::abi_runtime::claim::Standing) -> #standing {
            if header.#hst() #hst_raw == #exiting {
                #standing::HostExiting
            } else if header.#hg() != host_generation {
                #standing::Reloaded
            } else if row == ::abi_runtime::claim::Standing::Connected {
                #standing::Connected
            } else {
                #standing::Disconnected
            }
        }

        /// Says goodbye: the row's state becomes closing (release), only while it is this
        /// claim's (the host's generation is still the claim's, checked first, then the
        /// row's word), for the host to free it: `Connected` (the goodbye was stored).
        /// Otherwise nothing is stored, and the standing says what took the row
        /// (`Disconnected`, `Reloaded`, `HostExiting`). After a goodbye, [`Self::standing`]
        /// says `Disconnected` (the row is closing), as in C and Python, and every write
        /// bound to this claim is refused; a second `close` stores nothing.
        pub fn close(&self) -> #standing {
            let (header, host_generation) = (self.header, self.host_generation);
            if header.#hg() != host_generation {
                return Self::standing_after(header, host_generation, self.claim.standing());
            }
            match self.claim.close() {
                ::abi_runtime::claim::Standing::Connected => #standing::Connected,
                row @ ::abi_runtime::claim::Standing::Disconnected { .. } => Self::standing_after(header, host_generation, row),
            }
        }

    }
}

/// `bind` and `unbind`, when the session binds pads.
fn bind_methods(t: &SessionTokens) -> TokenStream {
    let SessionTokens {
        standing,
        pad_refused,
        ..
    } = t;
    let (schema, s) = (t.schema, t.s);
    let hs = s.table.struct_index;
    match s.bind {
        Some((b, unbound)) => {
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
            quote! {
                /// Where the pads' owner bytes are, for `abi_runtime::pads`.
                pub const PADS: ::abi_runtime::pads::PadWord = ::abi_runtime::pads::PadWord {
                    at: #at,
                    count: #pads,
                    unbound: #unbound,
                };
                #[doc = #doc]
                pub fn bind(&self, pad: usize) -> Result<(), #pad_refused> {
                    let own = u8::try_from(self.index).map_err(|_| #pad_refused::NoPad)?;
                    let mut lost = #standing::Connected;
                    let done = ::abi_runtime::pads::bind::<#word, _>(
                        self.header.region(),
                        Self::PADS,
                        pad,
                        own,
                        || {
                            lost = self.standing();
                            lost == #standing::Connected
                        },
                    )
                    .map_err(|_| #pad_refused::Contended)?;
                    match done {
                        ::abi_runtime::pads::Bind::Bound => Ok(()),
                        ::abi_runtime::pads::Bind::Held(owner) => Err(#pad_refused::Held(owner)),
                        ::abi_runtime::pads::Bind::Lost { .. } => Err(#pad_refused::Lost(lost)),
                        ::abi_runtime::pads::Bind::NoPad => Err(#pad_refused::NoPad),
                    }
                }
                #[doc = #udoc]
                pub fn unbind(&self, pad: usize) -> Result<(), #pad_refused> {
                    let own = u8::try_from(self.index).map_err(|_| #pad_refused::NoPad)?;
                    let mut lost = #standing::Connected;
                    let done = ::abi_runtime::pads::unbind::<#word, _>(
                        self.header.region(),
                        Self::PADS,
                        pad,
                        own,
                        || {
                            lost = self.standing();
                            lost == #standing::Connected
                        },
                    )
                    .map_err(|_| #pad_refused::Contended)?;
                    match done {
                        ::abi_runtime::pads::Unbind::Unbound => Ok(()),
                        ::abi_runtime::pads::Unbind::Held(owner) => Err(#pad_refused::Held(owner)),
                        ::abi_runtime::pads::Unbind::Lost => Err(#pad_refused::Lost(lost)),
                        ::abi_runtime::pads::Unbind::NoPad => Err(#pad_refused::NoPad),
                    }
                }
            }
        }
        None => TokenStream::new(),
    }
}
