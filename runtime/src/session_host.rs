//! `session_host!`: a generated session's host side (free, reload, exit, the waiting flag and
//! the hung rows), one line, over [`claim`](crate::claim), [`pads`](crate::pads) and
//! [`hung`](crate::hung).

/// Expands to a generated session host's methods, inside its `impl<'a> HOST<'a>` block (a
/// type with a field `header`, the view holding the rows). The line is
///
/// `client CLIENT, rows ROWS_GET, state (free FREE, claimed CLAIMED, active ACTIVE): STATE
/// (as newtype)?, host_generation HG_ADD, exit HST_SET(EXITING), heartbeat BEAT_GET, waiting
/// WAIT_GET (, pads WORD)? (, owned RESTORE)?;`
///
/// naming the client type (its `SPEC`, `ROWS`, `HUNG_MS`, and `PADS` with `pads`), the
/// header's row getter, the row state's values and its type (`as newtype` for an enum newtype over the integer), the
/// host generation's `fetch_add`, the host state's setter and its exiting value, and the row's
/// heartbeat and waiting getters. `pads WORD` makes a free let go of the pads the row bound;
/// `owned RESTORE` makes it call the generator's `self.RESTORE(index)` (the blocks the row owns). It
/// gives `free`, `reload`, `exit`, `is_waiting`, `watch`, `watch_hung_ms` and `is_hung`.
#[macro_export]
macro_rules! session_host {
    (
        client $client:ident, rows $table:ident,
        state (free $free:literal, claimed $claimed:literal, active $active:literal): $state:path $(as $newtype:ident)?,
        host_generation $hg_add:ident, exit $hst_set:ident($exiting:expr), heartbeat $beat:ident,
        waiting $wait_get:ident $(, pads $word:ident)? $(, owned $restore:ident)?;
    ) => {
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
        pub fn free(
            &self,
            index: usize,
        ) -> ::core::result::Result<::core::option::Option<$state>, $crate::Contended> {
            let ::core::option::Option::Some(row) = self.header.$table(index) else {
                return ::core::result::Result::Ok(::core::option::Option::None);
            };
            let old = $crate::claim::retire(row.region(), $client::SPEC)?;
            $(
            if let ::core::option::Option::Some(own) = u8::try_from(index).ok().filter(|_| old != $free) {
                // A SeqCst fence after the retire, then each pad the row holds goes back
                // to unbound (a pad held by another row stays as it is): a bind whose
                // client does not see the retire, this sweep sees (abi_runtime::pads).
                // A contended word stops the free (the row stays retired).
                $crate::pads::sweep::<$word, _>(self.header.region(), $client::PADS, own)?;
            }
            )?
            $(
            if old != $free {
                self.$restore(index)?;
            }
            )?
            $crate::claim::free(row.region(), $client::SPEC)?;
            ::core::result::Result::Ok(::core::option::Option::Some($crate::session_host!(@wrap $state, old $(, $newtype)?)))
        }

        /// A reload: adds 1 to the host's generation first, then frees every row as
        /// [`Self::free`] does (after it, so a client that claims a row a free made sees
        /// the new generation). Every row is tried, also after a free that gave up.
        /// Returns the rows that were claimed or active; when a free gave up, an error
        /// (after every row was tried) with those rows and the rows whose free gave up
        /// (each left as it was, or retired). When the generation's word kept changing,
        /// nothing was freed, and every row is reported.
        pub fn reload(
            &self,
        ) -> ::core::result::Result<::std::vec::Vec<usize>, $crate::claim::ReloadContended> {
            if self.header.$hg_add(1).is_err() {
                return ::core::result::Result::Err($crate::claim::ReloadContended {
                    freed: ::std::vec::Vec::new(),
                    contended: (0..$client::ROWS).collect(),
                });
            }
            let mut contended = ::std::vec::Vec::new();
            let mut rows = ::std::vec::Vec::new();
            for i in 0..$client::ROWS {
                match self.free(i) {
                    ::core::result::Result::Ok(::core::option::Option::Some(old))
                        if $crate::session_host!(@raw old $(, $newtype)?) == $claimed
                            || $crate::session_host!(@raw old $(, $newtype)?) == $active =>
                    {
                        rows.push(i)
                    }
                    ::core::result::Result::Ok(_) => {}
                    ::core::result::Result::Err(_) => contended.push(i),
                }
            }
            if contended.is_empty() {
                ::core::result::Result::Ok(rows)
            } else {
                ::core::result::Result::Err($crate::claim::ReloadContended { freed: rows, contended })
            }
        }

        /// Tells every client the host is exiting (release); `Contended` when its word
        /// kept changing (nothing stored).
        pub fn exit(&self) -> ::core::result::Result<(), $crate::Contended> {
            self.header.$hst_set($exiting)
        }

        /// The host's side of the waiting handshake: after it published (stored what
        /// the client loads), a SeqCst fence, then row `index`'s waiting flag (acquire):
        /// true when its client sleeps and must be woken. False for no such row.
        pub fn is_waiting(&self, index: usize) -> bool {
            ::core::sync::atomic::fence(::core::sync::atomic::Ordering::SeqCst);
            self.header.$table(index).is_some_and(|row| row.$wait_get() == 1)
        }

        /// A watch of every row, for [`Self::is_hung`]: the host's own memory, kept
        /// between checks, with the session's hung time (the session type's `HUNG_MS`).
        pub fn watch(&self) -> $crate::hung::HungWatch {
            self.watch_hung_ms(0)
        }

        /// [`Self::watch`] with the host's own hung time: `hung_ms`, or 0 for the
        /// session's `HUNG_MS`. A host that serves slow clients (a debugger's
        /// breakpoint, a loaded CI machine) takes more; one that must free a dead
        /// bot's pad sooner, less.
        pub fn watch_hung_ms(&self, hung_ms: u64) -> $crate::hung::HungWatch {
            let hung_ms = if hung_ms == 0 { $client::HUNG_MS } else { hung_ms };
            $crate::hung::HungWatch::new($client::ROWS, hung_ms.saturating_mul(1_000_000))
        }

        /// Whether row `index` is hung: claimed or active with the same state,
        /// generation and heartbeat as `watch` first saw more than the session's hung
        /// time ago, at `now_ns` of the host's own monotonic clock (the same one each
        /// call; the heartbeat's value only has to change). A row the watch sees in
        /// use for the first time gets the whole hung time; a free or closing row is
        /// never hung. False for no such row.
        pub fn is_hung(
            &self,
            watch: &mut $crate::hung::HungWatch,
            index: usize,
            now_ns: u64,
        ) -> bool {
            let ::core::option::Option::Some(row) = self.header.$table(index) else {
                return false;
            };
            let (state, generation) = $crate::claim::row_word(row.region(), $client::SPEC);
            let seen = $crate::hung::RowSeen {
                state,
                generation,
                beat: row.$beat(),
                in_use: state == $claimed || state == $active,
            };
            watch.is_hung(index, seen, now_ns)
        }
    };
    // The row's old state word as the state's type.
    (@wrap $state:path, $old:ident) => { $old };
    (@wrap $state:path, $old:ident, newtype) => { $state($old) };
    // The state's integer.
    (@raw $old:ident) => { $old };
    (@raw $old:ident, newtype) => { $old.0 };
}
