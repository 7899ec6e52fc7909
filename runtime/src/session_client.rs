//! `session_client!`: a generated session's client side (claim, standing, heartbeat, waiting,
//! close, and binding pads), one line, over [`claim`](crate::claim) and [`pads`](crate::pads).

/// Expands to a generated session client's methods, inside its `impl<'a> NAME<'a>` block (a
/// type with fields `header: HEADER<'a>`, `index`, `claim` and `host_generation`, whose `SPEC`
/// and `ROWS` the generator prints). The first line is
///
/// `refused REFUSED, standing STANDING, header HEADER, rows ROWS_GET, row ROW,
/// host_generation HG_GET: HG, host_state HST_GET(.0)? == EXITING, heartbeat BEAT_SET: BEAT,
/// waiting WAIT_SET: WAIT;`
///
/// naming the refusal and standing enums, the header view holding the rows (`ROWS_GET(i)` is
/// row `i`'s view `ROW`), the host's generation and state getters (`.0` for an enum newtype;
/// `EXITING` is the state's exiting value) and the row's heartbeat and waiting setters. It
/// gives `claim`, `claim_first`, `index`, `generation`, `host_generation`, `row`,
/// `activate`, `heartbeat`, `set_waiting`, `standing` and `close`. A second line,
/// `pads [#[doc = ...]*] [#[doc = ...]*] PAD_REFUSED, WORD;`, gives `bind` and `unbind` (over
/// the generator's `PADS` and the `WORD` that holds them), each with its docs.
#[macro_export]
macro_rules! session_client {
    (
        refused $refused:ident, standing $standing:ident, header $header:ident, rows $table:ident,
        row $row:ident, host_generation $hg:ident: $hg_ty:ty,
        host_state $hst:ident $(. $raw:tt)? == $exiting:literal,
        heartbeat $beat_set:ident: $beat_ty:ty, waiting $wait_set:ident: $wait_ty:ty;
        $(pads [$(#[$bm:meta])*] [$(#[$um:meta])*] $pad_refused:ident, $word:ident;)?
    ) => {
        /// Claims row `index` if it is free, for a client that attached at host generation
        /// `attached` (the handle's): one compare-and-swap of the row's state and
        /// generation, from free to claimed with the generation bumped. Then the host's
        /// state and generation are loaded (acquire, after the claim: a row a reload freed
        /// shows the reload's generation); when the host is exiting or its generation is no
        /// longer `attached`, the row is given back and the claim refused, so a claim never
        /// stands on tables its handle did not check. When the host freed the claimed row
        /// before it could be given back, the claim is returned: its standing says
        /// `Reloaded` or `HostExiting`, as for any claim the host took.
        pub fn claim(
            header: $header<'a>,
            attached: $hg_ty,
            index: usize,
        ) -> ::core::result::Result<Self, $refused> {
            let row = header.$table(index).ok_or($refused::NoRow)?;
            let claim = $crate::claim::Claim::try_claim(row.region(), Self::SPEC).ok_or($refused::Taken)?;
            let now = header.$hg();
            let refused = if header.$hst() $(. $raw)? == $exiting {
                $refused::HostExiting
            } else if now != attached {
                $refused::Reloaded
            } else {
                return ::core::result::Result::Ok(Self { header, index, claim, host_generation: attached });
            };
            // Given back only while the host's generation is still the one loaded after the
            // claim (a re-layout since rewrote the row).
            if header.$hg() == now && claim.release() {
                return ::core::result::Result::Err(refused);
            }
            // The host freed the claimed row first (its reload or exit did): the claim
            // happened, and its standing says what took it.
            ::core::result::Result::Ok(Self { header, index, claim, host_generation: attached })
        }

        /// Claims the first free row this client wins ([`Self::claim`]): `Taken` when
        /// every row is taken.
        pub fn claim_first(
            header: $header<'a>,
            attached: $hg_ty,
        ) -> ::core::result::Result<Self, $refused> {
            for index in 0..Self::ROWS {
                match Self::claim(header, attached, index) {
                    ::core::result::Result::Err($refused::Taken | $refused::NoRow) => {}
                    done => return done,
                }
            }
            ::core::result::Result::Err($refused::Taken)
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
        pub fn host_generation(&self) -> $hg_ty {
            self.host_generation
        }

        /// The row's live view: fill in its fields before [`Self::activate`].
        pub fn row(&self) -> $row<'a> {
            $row::at(self.claim.row(), 0).expect("a claimed row is a whole row")
        }

        /// Marks the row in use (release: what was written before is visible to the host
        /// that sees it active), only while it is still this claim's: the host's generation
        /// is still the claim's (checked first: a move of a claim the host reloaded past
        /// never touches the row), then the row's word; the standing after.
        pub fn activate(&self) -> $standing {
            if self.header.$hg() == self.host_generation {
                let _ = self.claim.activate();
            }
            self.standing()
        }

        /// Stores the heartbeat (release) while the row is still this claim's; the
        /// standing. `Contended` when the heartbeat's word kept changing (nothing stored).
        pub fn heartbeat(
            &self,
            now_ns: $beat_ty,
        ) -> ::core::result::Result<$standing, $crate::Contended> {
            let standing = self.standing();
            if standing == $standing::Connected {
                self.row().$beat_set(now_ns)?;
            }
            ::core::result::Result::Ok(standing)
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
        pub fn set_waiting(
            &self,
            waiting: bool,
        ) -> ::core::result::Result<$standing, $crate::Contended> {
            let standing = self.standing();
            if standing == $standing::Connected {
                self.row().$wait_set(<$wait_ty>::from(waiting))?;
                ::core::sync::atomic::fence(::core::sync::atomic::Ordering::SeqCst);
            }
            ::core::result::Result::Ok(standing)
        }

        /// The row's state and generation (acquire), then the host's generation and
        /// state: `HostExiting`, `Reloaded` (the host's generation changed since the
        /// claim), `Disconnected` (the row was freed or claimed again), or `Connected`.
        pub fn standing(&self) -> $standing {
            Self::standing_after(self.header, self.host_generation, self.claim.standing())
        }

        /// The standing, the row's own (loaded first) given.
        fn standing_after(
            header: $header<'a>,
            host_generation: $hg_ty,
            row: $crate::claim::Standing,
        ) -> $standing {
            if header.$hst() $(. $raw)? == $exiting {
                $standing::HostExiting
            } else if header.$hg() != host_generation {
                $standing::Reloaded
            } else if row == $crate::claim::Standing::Connected {
                $standing::Connected
            } else {
                $standing::Disconnected
            }
        }

        /// Says goodbye: the row's state becomes closing (release), only while it is this
        /// claim's (the host's generation is still the claim's, checked first, then the
        /// row's word), for the host to free it: `Connected` (the goodbye was stored).
        /// Otherwise nothing is stored, and the standing says what took the row
        /// (`Disconnected`, `Reloaded`, `HostExiting`). After a goodbye, [`Self::standing`]
        /// says `Disconnected` (the row is closing), as in C and Python, and every write
        /// bound to this claim is refused; a second `close` stores nothing.
        pub fn close(&self) -> $standing {
            let (header, host_generation) = (self.header, self.host_generation);
            if header.$hg() != host_generation {
                return Self::standing_after(header, host_generation, self.claim.standing());
            }
            match self.claim.close() {
                $crate::claim::Standing::Connected => $standing::Connected,
                row @ $crate::claim::Standing::Disconnected { .. } => {
                    Self::standing_after(header, host_generation, row)
                }
            }
        }

        $(
        $(#[$bm])*
        pub fn bind(&self, pad: usize) -> ::core::result::Result<(), $pad_refused> {
            let own = u8::try_from(self.index).map_err(|_| $pad_refused::NoPad)?;
            let mut lost = $standing::Connected;
            let done = $crate::pads::bind::<$word, _>(self.header.region(), Self::PADS, pad, own, || {
                lost = self.standing();
                lost == $standing::Connected
            })
            .map_err(|_| $pad_refused::Contended)?;
            match done {
                $crate::pads::Bind::Bound => ::core::result::Result::Ok(()),
                $crate::pads::Bind::Held(owner) => ::core::result::Result::Err($pad_refused::Held(owner)),
                $crate::pads::Bind::Lost { .. } => ::core::result::Result::Err($pad_refused::Lost(lost)),
                $crate::pads::Bind::NoPad => ::core::result::Result::Err($pad_refused::NoPad),
            }
        }

        $(#[$um])*
        pub fn unbind(&self, pad: usize) -> ::core::result::Result<(), $pad_refused> {
            let own = u8::try_from(self.index).map_err(|_| $pad_refused::NoPad)?;
            let mut lost = $standing::Connected;
            let done = $crate::pads::unbind::<$word, _>(self.header.region(), Self::PADS, pad, own, || {
                lost = self.standing();
                lost == $standing::Connected
            })
            .map_err(|_| $pad_refused::Contended)?;
            match done {
                $crate::pads::Unbind::Unbound => ::core::result::Result::Ok(()),
                $crate::pads::Unbind::Held(owner) => ::core::result::Result::Err($pad_refused::Held(owner)),
                $crate::pads::Unbind::Lost => ::core::result::Result::Err($pad_refused::Lost(lost)),
                $crate::pads::Unbind::NoPad => ::core::result::Result::Err($pad_refused::NoPad),
            }
        }
        )?
    };
}
