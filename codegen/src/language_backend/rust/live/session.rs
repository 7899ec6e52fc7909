//! The `[[session]]` protocol in the live layer: the client's side of a claimed row
//! (`<Name>`: claim, activate, heartbeat, standing, close, bind a pad) over
//! `abi_runtime::claim`, the host's side (`<Name>Host`: free, reload, hung), the standing
//! enum, and the accessors that reach them from the attached handle whose header holds the
//! rows.

use crate::language_backend::rust::docs::{doc_lit, escaped};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::session_restore::{HostParts, host_parts};
use super::session_scoped::scoped_items;
use super::tokens::{lit, offset, value_type};
use crate::ir::Elem;
use crate::ir::attach::LayoutTable;
use crate::ir::protocol::{Protocol, ProtocolKind, Session};
use crate::language_backend::rust::names::{rust_ident, type_ident};
use crate::language_backend::session_plan::owned_blocks;
use crate::schema::Schema;

/// Whether the session's rows, host generation, host state and pad owners are all fields of
/// one struct (the header a handle gives): only then is it generated.
fn one_header(s: &Session) -> bool {
    let h = s.table.struct_index;
    s.host_generation.struct_index == h
        && s.host_state.struct_index == h
        && s.bind.is_none_or(|(b, _)| b.struct_index == h)
}

/// `value` as field `f`'s value type: an enum newtype around the literal, or the literal.
fn typed(schema: &Schema, s: usize, f: usize, value: u64) -> TokenStream {
    let v = lit(value);
    match schema.abi.structs[s].fields[f].ty.elem {
        Elem::Enum(i) => {
            let t = type_ident(&schema.abi.enums[i].name);
            quote!(super::#t(#v))
        }
        _ => quote!(#v),
    }
}

/// `.0` when field `f` is an enum newtype.
fn raw(schema: &Schema, s: usize, f: usize) -> TokenStream {
    match schema.abi.structs[s].fields[f].ty.elem {
        Elem::Enum(_) => quote!(.0),
        _ => TokenStream::new(),
    }
}

/// Every session's types.
pub(super) fn expand_sessions(schema: &Schema) -> TokenStream {
    let items = schema
        .protocols
        .iter()
        .enumerate()
        .map(|(i, p)| match &p.kind {
            ProtocolKind::Session(s) => expand_session(schema, i, p, s),
            _ => TokenStream::new(),
        });
    quote!(#(#items)*)
}

fn expand_session(schema: &Schema, index: usize, p: &Protocol, s: &Session) -> TokenStream {
    if !one_header(s) {
        return TokenStream::new();
    }
    let header_ty = type_ident(&schema.abi.structs[s.table.struct_index].name);
    let HostParts {
        fields: host_fields,
        derive: host_derive,
        new: host_new,
        call: restore_call,
        restore: restore_fn,
    } = host_parts(schema, index, &quote!(#header_ty), &{
        let free = lit(s.free);
        quote!(#free)
    });
    let name = type_ident(&p.name);
    let (host, standing, refused) = (
        format_ident!("{}Host", name),
        format_ident!("{}Standing", name),
        format_ident!("{}Refused", name),
    );
    let scoped = scoped_items(&name, &standing);
    let hs = s.table.struct_index;
    let header = type_ident(&schema.abi.structs[hs].name);
    let table_field = &schema.abi.structs[hs].fields[s.table.field];
    let table = rust_ident(&table_field.name);
    let rows = lit(table_field.ty.count());
    let row = type_ident(&schema.abi.structs[s.row].name);
    let r = s.row;
    let (state_off, gen_off) = (offset(schema, r, s.state), offset(schema, r, s.generation));
    let (free, claimed, active, closing) =
        (lit(s.free), lit(s.claimed), lit(s.active), lit(s.closing));
    let hg_field = &schema.abi.structs[hs].fields[s.host_generation.field];
    let hg = rust_ident(&hg_field.name);
    let hg_add = format_ident!("fetch_add_{}", hg_field.name);
    let hg_ty = value_type(schema, &hg_field.ty);
    let hst = rust_ident(&schema.abi.structs[hs].fields[s.host_state.field].name);
    let hst_set = format_ident!(
        "set_{}",
        schema.abi.structs[hs].fields[s.host_state.field].name
    );
    let hst_raw = raw(schema, hs, s.host_state.field);
    let exiting = lit(s.exiting);
    let exiting_value = typed(schema, hs, s.host_state.field, s.exiting);
    let row_fields = &schema.abi.structs[r].fields;
    let state_raw = raw(schema, r, s.state);
    let state_ty = value_type(schema, &row_fields[s.state].ty);
    let beat = rust_ident(&row_fields[s.heartbeat].name);
    let beat_set = format_ident!("set_{}", row_fields[s.heartbeat].name);
    let beat_ty = value_type(schema, &row_fields[s.heartbeat].ty);
    let wait_set = format_ident!("set_{}", row_fields[s.waiting].name);
    let wait_get = rust_ident(&row_fields[s.waiting].name);
    let wait_ty = value_type(schema, &row_fields[s.waiting].ty);
    let (heartbeat_ms, hung_ms) = (lit(s.heartbeat_ms), lit(s.hung_ms));
    let word = match s.shared_word {
        Some(w) => {
            let (at, low) = (lit(w.at), w.state_low);
            quote!(Some(::abi_runtime::claim::SharedWord { at: #at, state_low: #low }))
        }
        None => quote!(None),
    };
    let pad_refused = format_ident!("{}PadRefused", name);
    let pad_refused_type = if s.bind.is_some() {
        let doc = doc_lit!(" Why [`{name}::bind`] or [`{name}::unbind`] refused.");
        quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub enum #pad_refused {
                /// Another row holds the pad (bind), or this row does not (unbind): its owner.
                Held(u8),
                /// There is no such pad.
                NoPad,
                /// The row is no longer the claim's: nothing was stored.
                Lost(#standing),
                /// The other pads of the word kept changing under each of
                /// [`abi_runtime::CAS_TRIES`] compare-and-swaps: nothing was stored.
                Contended,
            }
        }
    } else {
        TokenStream::new()
    };
    let wrap_old = match row_fields[s.state].ty.elem {
        Elem::Enum(i) => {
            let t = type_ident(&schema.abi.enums[i].name);
            quote!(super::#t(old))
        }
        _ => quote!(old),
    };
    let release_pads = match s.bind {
        Some((b, unbound)) => {
            let f = &schema.abi.structs[hs].fields[b.field];
            let cx = format_ident!("compare_exchange_{}_at", f.name);
            let (pads, unbound) = (lit(f.ty.count()), lit(unbound));
            quote! {
                if let Some(own) = u8::try_from(index).ok().filter(|_| old != #free) {
                    for pad in 0..#pads {
                        // A pad held by another row stays as it is; a contended word stops
                        // the free (the row stays retired).
                        let _ = self.header.#cx(pad, own, #unbound)?;
                    }
                }
            }
        }
        None => TokenStream::new(),
    };
    let bind = match s.bind {
        Some((b, unbound)) => {
            let f = &schema.abi.structs[hs].fields[b.field];
            let cx = format_ident!("compare_exchange_{}_at", f.name);
            let (pads, unbound) = (lit(f.ty.count()), lit(unbound));
            let doc = doc_lit!(
                " Binds pad `pad`, while the claim stands: its byte of `{}` goes from unbound to this row's index (compare-and-swap of the word holding it). Refused with the owner when another row holds it, `NoPad` when there is no such pad, and the standing once the row is no longer the claim's (nothing is stored).",
                f.name
            );
            let udoc = doc_lit!(
                " Unbinds pad `pad`, while the claim stands: its byte of `{}` goes from this row's index back to unbound. Refused with the owner when this row does not hold it, `NoPad` when there is no such pad, and the standing once the row is no longer the claim's.",
                f.name
            );
            quote! {
                #[doc = #doc]
                pub fn bind(&self, pad: usize) -> Result<(), #pad_refused> {
                    self.swap_pad(pad, true)
                }
                #[doc = #udoc]
                pub fn unbind(&self, pad: usize) -> Result<(), #pad_refused> {
                    self.swap_pad(pad, false)
                }
                fn swap_pad(&self, pad: usize, bind: bool) -> Result<(), #pad_refused> {
                    let own = u8::try_from(self.index).map_err(|_| #pad_refused::NoPad)?;
                    if pad >= #pads {
                        return Err(#pad_refused::NoPad);
                    }
                    match self.standing() {
                        #standing::Connected => {}
                        lost => return Err(#pad_refused::Lost(lost)),
                    }
                    let (from, to) = if bind { (#unbound, own) } else { (own, #unbound) };
                    self.header
                        .#cx(pad, from, to)
                        .map_err(|_| #pad_refused::Contended)?
                        .map_err(#pad_refused::Held)
                }
            }
        }
        None => TokenStream::new(),
    };
    let doc_extra = if p.doc.is_empty() {
        String::new()
    } else {
        format!(" {}.", escaped(p.doc.trim_end_matches('.')))
    };
    let doc = doc_lit!(
        " The client's side of session `{}`: a claimed row of `{}` (claim, fill in through [`{name}::row`], [`{name}::activate`], [`{name}::heartbeat`] at least every {} ms, [`{name}::standing`], [`{name}::close`]).{doc_extra}",
        p.name,
        table_field.name,
        s.heartbeat_ms
    );
    let hdoc = doc_lit!(
        " The host's side of session `{}`: free a row, reload (every row freed, a new host generation), find the hung ones (a heartbeat older than {} ms).",
        p.name,
        s.hung_ms
    );
    let sdoc = doc_lit!(" Whether a `{name}`'s row is still its own, and the host still there.");
    let rdoc = doc_lit!(
        " Why [`{name}::claim`] refused: the row is taken or absent, or the host moved on since the handle attached."
    );
    quote! {
        #[doc = #sdoc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum #standing {
            /// The row holds the claim's generation and a state of its own.
            Connected,
            /// The host freed the row, or another claim took it since: claim again.
            Disconnected,
            /// The host reloaded (its generation changed) and freed every row: attach and
            /// claim again.
            Reloaded,
            /// The host is exiting.
            HostExiting,
        }

        #[doc = #rdoc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum #refused {
            /// Another client holds the row, or won the race for it.
            Taken,
            /// There is no such row.
            NoRow,
            /// The host reloaded since the handle attached (its generation changed): attach
            /// again, then claim.
            Reloaded,
            /// The host is exiting.
            HostExiting,
        }

        /// What a scoped write refused with: the row is no longer the claim's.
        impl ::core::fmt::Display for #standing {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(match self {
                    Self::Connected => "the row is the claim's",
                    Self::Disconnected => "the host freed the row, or another claim took it: claim again",
                    Self::Reloaded => "the host reloaded: attach again, then claim",
                    Self::HostExiting => "the host is exiting",
                })
            }
        }

        impl ::std::error::Error for #standing {}

        impl ::core::fmt::Display for #refused {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(match self {
                    Self::Taken => "the row is taken",
                    Self::NoRow => "there is no such row",
                    Self::Reloaded => "the host reloaded since attach: attach again",
                    Self::HostExiting => "the host is exiting",
                })
            }
        }

        impl ::std::error::Error for #refused {}

        #[doc = #doc]
        pub struct #name<'a> {
            header: #header<'a>,
            index: usize,
            claim: ::abi_runtime::claim::Claim<'a, ::abi_runtime::ReadWrite>,
            host_generation: #hg_ty,
        }

        #[doc = #hdoc]
        #host_derive
        pub struct #host<'a> {
            #host_fields
        }

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

        impl<'a> #name<'a> {
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
                let refused = if header.#hst() #hst_raw == #exiting {
                    #refused::HostExiting
                } else if header.#hg() != attached {
                    #refused::Reloaded
                } else {
                    return Ok(Self { header, index, claim, host_generation: attached });
                };
                if claim.release() {
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

            /// Marks the row in use (release: what was written before is visible to the host
            /// that sees it active), only while it is still this claim's; the standing after.
            pub fn activate(&self) -> #standing {
                let _ = self.claim.activate();
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
            /// `Contended` when the flag's word kept changing (nothing stored).
            pub fn set_waiting(&self, waiting: bool) -> Result<(), ::abi_runtime::Contended> {
                self.row().#wait_set(#wait_ty::from(waiting))?;
                ::core::sync::atomic::fence(::core::sync::atomic::Ordering::SeqCst);
                Ok(())
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
            /// claim's, for the host to free it: `Connected`. Otherwise nothing is stored,
            /// and the standing says what took the row (`Disconnected`, `Reloaded`,
            /// `HostExiting`).
            pub fn close(self) -> #standing {
                let (header, host_generation) = (self.header, self.host_generation);
                match self.claim.close() {
                    ::abi_runtime::claim::Standing::Connected => #standing::Connected,
                    row @ ::abi_runtime::claim::Standing::Disconnected { .. } => Self::standing_after(header, host_generation, row),
                }
            }

            #bind
        }

        impl<'a> #host<'a> {
            #host_new

            /// Frees row `index` and restores what it owned, whatever its client does: the row
            /// is retired first (its state becomes closing, a swap: its client sees it gone and
            /// no client can claim it meanwhile), the pads it bound are let go (when the
            /// session binds pads), then its state becomes free (release), so the next claim
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
            /// the new generation). Returns the rows that were claimed or active; `Contended`
            /// (after every row was tried) when a free gave up, or the generation's word
            /// kept changing (then nothing was freed).
            pub fn reload(&self) -> Result<Vec<usize>, ::abi_runtime::Contended> {
                self.header.#hg_add(1)?;
                let mut contended = None;
                let mut rows = Vec::new();
                for i in 0..#name::ROWS {
                    match self.free(i) {
                        Ok(Some(old)) if old #state_raw == #claimed || old #state_raw == #active => rows.push(i),
                        Ok(_) => {}
                        Err(e) => contended = Some(e),
                    }
                }
                contended.map_or(Ok(rows), Err)
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
            /// between checks.
            pub fn watch(&self) -> ::abi_runtime::hung::HungWatch {
                ::abi_runtime::hung::HungWatch::new(#name::ROWS, #name::HUNG_MS * 1_000_000)
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

        #scoped

        #pad_refused_type
    }
}

/// The accessors the handle whose header holds a session's rows gets: `claim_<name>(i)`,
/// `claim_first_<name>()` and `<name>_host()`.
pub(super) fn handle_accessors(schema: &Schema, l: &LayoutTable) -> TokenStream {
    let mut out = TokenStream::new();
    for (index, p) in schema.protocols.iter().enumerate() {
        let ProtocolKind::Session(s) = &p.kind else {
            continue;
        };
        if s.table.struct_index != l.header || !one_header(s) {
            continue;
        }
        // A host that restores owned blocks is made from the handle of the layout that
        // holds them.
        let owner = owned_blocks(schema, index)
            .first()
            .map(|o| schema.attach.layouts[o.layout].name == l.name);
        let make_host = match owner {
            None => quote!(new(self.header())),
            Some(true) => quote!(new(self.clone())),
            Some(false) => continue,
        };
        let name = type_ident(&p.name);
        let host = format_ident!("{}Host", name);
        let refused = format_ident!("{}Refused", name);
        let hs = s.table.struct_index;
        let hg_field = &schema.abi.structs[hs].fields[s.host_generation.field];
        let hg = rust_ident(&hg_field.name);
        let hg_offset = schema.layout.of(hs).fields[s.host_generation.field].offset;
        // The generation attach checked, when the handshake's generation is the session's
        // host generation; else the header's now.
        let checked = schema.attach.handshakes.iter().any(|h| {
            h.struct_index == hs
                && h.liveness
                    .as_ref()
                    .and_then(|l| l.generation.as_ref())
                    .is_some_and(|g| g.offset == hg_offset && g.width == 4)
        });
        let attached = if checked {
            quote!(self.generation.and_then(|g| u32::try_from(g).ok()).unwrap_or_else(|| self.header().#hg()))
        } else {
            quote!(self.header().#hg())
        };
        let (claim, first, host_fn) = (
            format_ident!("claim_{}", p.name),
            format_ident!("claim_first_{}", p.name),
            format_ident!("{}_host", p.name),
        );
        let doc = doc_lit!(
            " Claims row `index` for session `{}` ([`{name}::claim`]) at the host generation this handle checked: refused when the row is taken or the host moved on since.",
            p.name
        );
        let fdoc = doc_lit!(
            " Claims the first free row for session `{}` ([`{name}::claim_first`]).",
            p.name
        );
        let hdoc = doc_lit!(" The host's side of session `{}`.", p.name);
        out.extend(quote! {
            #[doc = #doc]
            pub fn #claim(&self, index: usize) -> Result<#name<'a>, #refused> {
                #name::claim(self.header(), #attached, index)
            }
            #[doc = #fdoc]
            pub fn #first(&self) -> Result<#name<'a>, #refused> {
                #name::claim_first(self.header(), #attached)
            }
            #[doc = #hdoc]
            pub fn #host_fn(&self) -> #host<'a> {
                #host::#make_host
            }
        });
    }
    out
}
