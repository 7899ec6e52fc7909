//! Rings: a ring of seqlocked slots with a head counter, or an event array indexed by a
//! total modulo its length, and the checks that its parts exist and fit.

use toml::Spanned;

use crate::diagnostics::Span;
use crate::diagnostics::closest;
use crate::ir::Elem;
use crate::ir::PerStruct;
use crate::ir::access::{FieldRef, Guard, Ring, RingKind, Seqlock, StructAccess, TrailerPart};
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawRing;

impl AfterLayout<'_> {
    /// A required key of one ring kind, or a stray key of the other.
    fn ring_key<'r>(
        &mut self,
        key: &'r Option<Spanned<String>>,
        name: &str,
        wanted: bool,
        what: &str,
        kind: &str,
        span: &Span,
    ) -> Option<&'r Spanned<String>> {
        match (key, wanted) {
            (Some(k), true) => Some(k),
            (None, true) => {
                self.errors.error_help(
                    span,
                    format!("{what}: a ring of kind `{kind}` needs `{name}`"),
                    format!("add `{name} = \"...\"`"),
                );
                None
            }
            (Some(k), false) => {
                let keys = if kind == "slots" {
                    "`head`, `slot_count`, `slot_size`, `seqlock` and optionally `publish_seq`"
                } else {
                    "`total` and `entries`"
                };
                self.errors.error_help(
                    &self.inner(k),
                    format!("{what}: `{name}` does not belong to a ring of kind `{kind}`"),
                    format!(
                        "a ring of kind `{kind}` takes {keys}: remove `{name}`, or change the kind"
                    ),
                );
                None
            }
            (None, false) => None,
        }
    }

    /// A slots ring's `publish_seq`: a field of the slot's struct that the seqlock guards, of
    /// the head's type (publish stores the head's new value in it).
    fn publish_seq(
        &mut self,
        stamp: &Spanned<String>,
        lock: &Seqlock,
        head: FieldRef,
        what: &str,
    ) -> Option<usize> {
        let slot = &self.abi.structs[lock.struct_index];
        let name = stamp.get_ref();
        let Some(field) = slot.fields.iter().position(|f| f.name == *name) else {
            let help = closest(name, slot.fields.iter().map(|f| f.name.as_str()))
                .map_or(format!("name a field of `{}`", slot.name), |n| {
                    format!("did you mean `{n}`?")
                });
            self.errors.error_help(
                &self.inner(stamp),
                format!(
                    "{what}: `publish_seq`: `{}` has no field `{name}`",
                    slot.name
                ),
                help,
            );
            return None;
        };
        let head_field = head.of(self.abi);
        let f = &slot.fields[field];
        if f.ty.elem != head_field.ty.elem || f.ty.len.is_some() {
            self.errors.error_help(
                &self.inner(stamp),
                format!(
                    "{what}: `publish_seq` `{}.{name}` is `{}`, but the head `{}` is `{}`: publish stores the head's new value in it",
                    slot.name, f.ty.text, head_field.name, head_field.ty.text
                ),
                format!("declare `{name}` as `{}`", head_field.ty.text),
            );
            return None;
        }
        if !lock.guards.contains(&Guard::Field(field)) {
            self.errors.error_help(
                &self.inner(stamp),
                format!(
                    "{what}: `publish_seq` `{}.{name}` is not guarded by seqlock `{}`: a reader would copy it apart from the slot it numbers",
                    slot.name, lock.name
                ),
                format!("add `{name}` to seqlock `{}`'s `guards`", lock.name),
            );
            return None;
        }
        Some(field)
    }

    /// Ring `raw`: its kind's keys, each present or absent as the kind wants, then the
    /// kind itself ([`Self::lower_slots`], [`Self::lower_events`]).
    pub(super) fn lower_ring(
        &mut self,
        raw: &Spanned<RawRing>,
        structs: &PerStruct<StructAccess>,
        seqlocks: &[Seqlock],
    ) -> Option<Ring> {
        let r = raw.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("ring `{name}`");
        let kind = r.kind.get_ref().as_str();
        let slots = kind == "slots";
        if !slots && kind != "events" {
            self.errors.error_help(
                &self.inner(&r.kind),
                format!("{what}: unknown kind `{kind}`"),
                "write `slots` (seqlocked slots and a head counter) or `events` (an array indexed by a total modulo its length)",
            );
            return None;
        }
        let span = self.inner(&r.kind);
        let head = self.ring_key(&r.head, "head", slots, &what, kind, &span);
        let slot_count = self.ring_key(&r.slot_count, "slot_count", slots, &what, kind, &span);
        let slot_size = self.ring_key(&r.slot_size, "slot_size", slots, &what, kind, &span);
        let seqlock = self.ring_key(&r.seqlock, "seqlock", slots, &what, kind, &span);
        if !slots && let Some(stamp) = &r.publish_seq {
            self.ring_key(
                &Some(stamp.clone()),
                "publish_seq",
                false,
                &what,
                kind,
                &span,
            );
            return None;
        }
        let total = self.ring_key(&r.total, "total", !slots, &what, kind, &span);
        let entries = self.ring_key(&r.entries, "entries", !slots, &what, kind, &span);
        let doc = r
            .doc
            .as_ref()
            .map(|d| d.get_ref().clone())
            .unwrap_or_default();
        let kind = if slots {
            let keys = SlotKeys {
                head: head?,
                slot_count: slot_count?,
                slot_size: slot_size?,
                seqlock: seqlock?,
            };
            self.lower_slots(&keys, r.publish_seq.as_ref(), structs, seqlocks, &what)?
        } else {
            self.lower_events(total?, entries?, structs, &what)?
        };
        Some(Ring {
            name,
            doc,
            kind,
            span: raw.span(),
        })
    }

    /// A ring of slots: its head counter, slot count and size, and the seqlock whose struct
    /// starts each slot and guards its payload; `publish_seq` when publish stamps a field.
    fn lower_slots(
        &mut self,
        keys: &SlotKeys,
        publish_seq: Option<&Spanned<String>>,
        structs: &PerStruct<StructAccess>,
        seqlocks: &[Seqlock],
        what: &str,
    ) -> Option<RingKind> {
        let SlotKeys {
            head,
            slot_count,
            slot_size,
            seqlock,
        } = *keys;
        let head_ref = self.resolve_field(head, what)?;
        self.check_counter(head, head_ref, structs, what)?;
        let (count_const, count) = self.constant(slot_count, what)?;
        let (size_const, size) = self.constant(slot_size, what)?;
        let lock = self.slot_seqlock(seqlock, seqlocks, what)?;
        let lk = &seqlocks[lock];
        let payload = self.slot_payload(seqlock, lk, structs, what)?;
        let part = &structs[lk.struct_index].trailer[payload];
        self.check_slot_geometry(keys, size, head_ref, lk, part, what)?;
        let publish_seq = match publish_seq {
            Some(stamp) => Some(self.publish_seq(stamp, lk, head_ref, what)?),
            None => None,
        };
        Some(RingKind::Slots {
            head: head_ref,
            slot_count: count,
            slot_count_const: count_const,
            slot_size: size,
            slot_size_const: size_const,
            seqlock: lock,
            payload,
            publish_seq,
        })
    }

    /// The seqlock a ring of slots names.
    fn slot_seqlock(
        &mut self,
        seqlock: &Spanned<String>,
        seqlocks: &[Seqlock],
        what: &str,
    ) -> Option<usize> {
        let Some(lock) = seqlocks.iter().position(|s| s.name == *seqlock.get_ref()) else {
            let help = closest(seqlock.get_ref(), seqlocks.iter().map(|s| s.name.as_str()))
                .map_or("name a [[seqlock]]".into(), |n| {
                    format!("did you mean `{n}`?")
                });
            self.errors.error_help(
                &self.inner(seqlock),
                format!("{what}: unknown seqlock `{}`", seqlock.get_ref()),
                help,
            );
            return None;
        };
        Some(lock)
    }

    /// The slot's payload: the one trailer part its seqlock guards, which should say its
    /// size.
    fn slot_payload(
        &mut self,
        seqlock: &Spanned<String>,
        lk: &Seqlock,
        structs: &PerStruct<StructAccess>,
        what: &str,
    ) -> Option<usize> {
        let slot = &self.abi.structs[lk.struct_index];
        let trailers: Vec<usize> = lk
            .guards
            .iter()
            .filter_map(|g| match g {
                Guard::Trailer(t) => Some(*t),
                Guard::Field(_) => None,
            })
            .collect();
        let [payload] = trailers[..] else {
            self.errors.error_help(
                &self.inner(seqlock),
                format!("{what}: seqlock `{}` must guard exactly one trailer part of `{}`, the slot's payload; it guards {}", lk.name, slot.name, trailers.len()),
                "declare the payload in the slot struct's `trailer`, and list it in the seqlock's `guards`",
            );
            return None;
        };
        let part = &structs[lk.struct_index].trailer[payload];
        if part.size_field.is_none() {
            self.errors.error_help(
                &part.span,
                format!(
                    "{what}: its payload, trailer part `{}.{}`, has no `size`: a slot's payload varies, and readers copy only the bytes in use",
                    slot.name, part.name
                ),
                format!(
                    "add `size = \"...\"` to trailer part `{}`, naming the field of `{}` that holds the payload's length in bytes",
                    part.name, slot.name
                ),
            );
        }
        Some(payload)
    }

    /// A slot holds its struct and payload, is a multiple of its alignment, and the head is
    /// outside the slots.
    fn check_slot_geometry(
        &mut self,
        keys: &SlotKeys,
        size: u64,
        head_ref: FieldRef,
        lk: &Seqlock,
        part: &TrailerPart,
        what: &str,
    ) -> Option<()> {
        let SlotKeys {
            head, slot_size, ..
        } = *keys;
        let slot = &self.abi.structs[lk.struct_index];
        let slot_align = self.layout.of(lk.struct_index).align;
        let needed = part.offset + part.size;
        if needed > size {
            self.errors.error_help(
                &self.inner(slot_size),
                format!(
                    "{what}: a slot of {size} bytes (`{}`) cannot hold `{}` and its payload `{}`, {needed} bytes in all",
                    slot_size.get_ref(), slot.name, part.ty.text
                ),
                format!(
                    "raise `{}` to at least {needed}, or shrink the payload",
                    slot_size.get_ref()
                ),
            );
            return None;
        }
        if size % slot_align != 0 {
            self.errors.error_help(
                &self.inner(slot_size),
                format!(
                    "{what}: a slot of {size} bytes (`{}`) is not a multiple of {slot_align}, the alignment of `{}`, so the slots after the first are misaligned",
                    slot_size.get_ref(), slot.name
                ),
                format!(
                    "round `{}` up to a multiple of {slot_align}",
                    slot_size.get_ref()
                ),
            );
            return None;
        }
        if head_ref.struct_index == lk.struct_index {
            self.errors.error_help(
                &self.inner(head),
                format!(
                    "{what}: head `{}` is in `{}`, the struct that starts each slot; the head counts the ring's publications, so it belongs outside the slots",
                    head.get_ref(),
                    slot.name
                ),
                "name a counter in the struct that holds the ring, such as its region's header",
            );
            return None;
        }
        Some(())
    }

    /// An event ring: a counter of entries ever written and the array that holds entry
    /// `i` at `i % its length`, in one struct.
    fn lower_events(
        &mut self,
        total: &Spanned<String>,
        entries: &Spanned<String>,
        structs: &PerStruct<StructAccess>,
        what: &str,
    ) -> Option<RingKind> {
        let total_ref = self.resolve_field(total, what)?;
        let entries_ref = self.resolve_field(entries, what)?;
        self.check_counter(total, total_ref, structs, what)?;
        let f = entries_ref.of(self.abi);
        let Some(len) = f.ty.len.filter(|_| f.ty.elem != Elem::Char) else {
            let owner = &self.abi.structs[entries_ref.struct_index];
            let array = owner
                .fields
                .iter()
                .find(|f| f.ty.len.is_some() && f.ty.elem != Elem::Char);
            let help = match array {
                Some(a) => format!(
                    "name the array that holds entry i at i % its length, such as `{}.{}`",
                    owner.name, a.name
                ),
                None => {
                    "name the array that holds entry i at i % its length, in the struct of `total`"
                        .to_string()
                }
            };
            self.errors.error_help(
                &self.inner(entries),
                format!(
                    "{what}: entries `{}` is `{}`, not an array",
                    entries.get_ref(),
                    f.ty.text
                ),
                help,
            );
            return None;
        };
        if total_ref.struct_index != entries_ref.struct_index {
            self.errors.error_help(
                &self.inner(entries),
                format!(
                    "{what}: total `{}` and entries `{}` are in different structs",
                    total.get_ref(),
                    entries.get_ref()
                ),
                "the total and the entries are fields of one struct, which a reader copies whole",
            );
            return None;
        }
        Some(RingKind::Events {
            total: total_ref,
            entries: entries_ref,
            capacity: len.count,
        })
    }
}

/// The keys of a ring of slots, each present.
#[derive(Clone, Copy)]
struct SlotKeys<'r> {
    head: &'r Spanned<String>,
    slot_count: &'r Spanned<String>,
    slot_size: &'r Spanned<String>,
    seqlock: &'r Spanned<String>,
}
