//! The lowering of the `[[event]]` declarations, after the attach pass: who waits and who
//! sets each event, its table of rows, the 32-bit word it waits on (a field of the layout,
//! so that the layout is the same on every platform, written by the event's setter) and the
//! pattern of its Windows object's name, each checked with a spanned error.

use toml::Spanned;

use crate::diagnostics::SchemaErrors;
use crate::ir::Abi;
use crate::ir::access::{Access, FieldRef};
use crate::ir::attach::Attach;
use crate::ir::event::{Event, EventStats, NamePart};
use crate::ir::{Elem, Prim};
use crate::layout::Layout;
use crate::lower::after_layout::AfterLayout;
use crate::parse::{RawEvent, RawEventStats, RawSchema};

/// Lowers every `[[event]]` of `raw`, after the attach pass (a name may use the producer's
/// pid and generation, which its handshake names).
pub fn lower_events(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
    access: &Access,
    attach: &Attach,
) -> Result<Vec<Event>, SchemaErrors> {
    let mut cx = AfterLayout::new(src, abi, layout, access.parties.clone());
    let mut out = Vec::new();
    for (i, e) in raw.events.iter().enumerate() {
        let e = e.get_ref();
        let first = raw.events[..i]
            .iter()
            .map(|o| &o.get_ref().name)
            .find(|o| o.get_ref() == e.name.get_ref());
        cx.check_item_name(&e.name, "event", first.map(|o| o.span()).as_ref());
        if let Some(ev) = cx.lower_event(e, access, attach) {
            out.push(ev);
        }
    }
    cx.errors.propagate()?;
    Ok(out)
}

impl AfterLayout<'_> {
    fn lower_event(&mut self, e: &RawEvent, access: &Access, attach: &Attach) -> Option<Event> {
        let what = format!("event `{}`", e.name.get_ref());
        let sides = self.sides((&e.waiter, "waiter"), (&e.setter, "setter"), &what);
        let rows = e.rows.as_ref().map(|r| self.event_rows(r, &what));
        let word = self.event_word(e, &what, access, sides.as_ref().map(|s| &s.1));
        let name = self.windows_name(e, &what, attach);
        let stats = match (&e.stats, &sides) {
            (Some(st), Some((waiter, _))) => Some(self.event_stats(st, &what, access, waiter)),
            _ => None,
        };
        let (waiter, setter) = sides?;
        let stats = match stats {
            Some(st) => Some(st?),
            None => None,
        };
        let rows = match rows {
            Some(r) => Some(r?),
            None => None,
        };
        let (word, low_half, word_offset) = word?;
        let s = &self.abi.structs[word.struct_index];
        let word_path = format!(
            "{}.{}{}",
            s.name,
            s.fields[word.field].name,
            if low_half { ".low" } else { "" }
        );
        Some(Event {
            name: e.name.get_ref().clone(),
            doc: e
                .doc
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            span: self.inner(&e.name),
            waiter,
            setter,
            rows,
            word,
            low_half,
            word_path,
            word_offset,
            windows_name: name?,
            stats,
        })
    }

    /// Where the waiter stores its wake statistics: four fields of one struct, written by the
    /// waiter alone and guarded by no seqlock (each is stored with its own access: an atomic
    /// field by a release store, a plain one by relaxed atomic stores before them); `ticks`
    /// and `skipped` unsigned 8-byte integers, `p50_us` and `p99_us` `f32`.
    fn event_stats(
        &mut self,
        st: &Spanned<RawEventStats>,
        what: &str,
        access: &Access,
        waiter: &crate::ir::access::Parties,
    ) -> Option<EventStats> {
        let raw = st.get_ref();
        let keys = [
            ("ticks", &raw.ticks, true),
            ("skipped", &raw.skipped, true),
            ("p50_us", &raw.p50_us, false),
            ("p99_us", &raw.p99_us, false),
        ];
        let mut refs = Vec::new();
        for (key, path, count) in keys {
            let what = format!("{what}: `stats.{key}`");
            let Some(r) = self.resolve_field(path, &what) else {
                continue;
            };
            let f = r.of(self.abi);
            let ok = f.ty.len.is_none()
                && if count {
                    matches!(f.ty.elem, Elem::Prim(Prim::U64))
                } else {
                    matches!(f.ty.elem, Elem::Prim(Prim::F32))
                };
            if !ok {
                self.errors.error_help(
                    &self.inner(path),
                    format!(
                        "{what} field `{}` is `{}`, not `{}`",
                        path.get_ref(),
                        f.ty.text,
                        if count { "u64" } else { "f32" }
                    ),
                    if count {
                        "a count of ticks is stored as a `u64`: name a `u64` field"
                    } else {
                        "a percentile in microseconds is stored as an `f32`: name an `f32` field"
                    },
                );
                continue;
            }
            if let Some((_, first, first_path)) = refs.first() {
                let first: &FieldRef = first;
                if first.struct_index != r.struct_index {
                    self.errors.error_help(
                        &self.inner(path),
                        format!(
                            "{what} field `{}` is not in the struct of `{}`",
                            path.get_ref(),
                            first_path
                        ),
                        "the helper stores the four figures in one struct: name fields of the same struct",
                    );
                    continue;
                }
            }
            let fa = r.access(&access.structs);
            let mut writers = fa.writers.0.clone();
            writers.sort_unstable();
            if writers != waiter.0 {
                let names = &self.parties;
                self.errors.error_help(
                    &self.inner(path),
                    format!(
                        "{what} field `{}` is written by {}, but the event's waiter is {}",
                        path.get_ref(),
                        fa.writers.describe(names),
                        waiter.describe(names)
                    ),
                    "the waiter stores its own wake statistics: name a field its waiter writes",
                );
                continue;
            }
            if let Some(g) = fa.guarded_by {
                self.errors.error_help(
                    &self.inner(path),
                    format!(
                        "{what} field `{}` is guarded by seqlock `{}`",
                        path.get_ref(),
                        access.seqlocks[g].name
                    ),
                    "the helper stores each figure with its own access: name a field outside the seqlock's guards",
                );
                continue;
            }
            refs.push((key, r, path.get_ref().clone()));
        }
        if refs.len() != 4 {
            return None;
        }
        Some(EventStats {
            ticks: refs[0].1,
            skipped: refs[1].1,
            p50_us: refs[2].1,
            p99_us: refs[3].1,
        })
    }

    /// The table an event has one of per row: an array of structs.
    fn event_rows(&mut self, rows: &Spanned<String>, what: &str) -> Option<FieldRef> {
        let table = self.resolve_field(rows, &format!("{what}: `rows`"))?;
        let f = table.of(self.abi);
        if matches!((f.ty.elem, f.ty.len), (Elem::Struct(_), Some(_))) {
            return Some(table);
        }
        self.errors.error_help(
            &self.inner(rows),
            format!(
                "{what}: `rows` field `{}` is `{}`, not an array of rows",
                rows.get_ref(),
                f.ty.text
            ),
            "name an array of structs, such as `bridge_header.clients`, or remove `rows` for one event",
        );
        None
    }

    /// The word a waiter sleeps on: an unsigned 4-byte, 4-aligned atomic field written by
    /// the setter (or the low half of an 8-byte one, with `half = "low"`), and its offset.
    fn event_word(
        &mut self,
        e: &RawEvent,
        what: &str,
        access: &Access,
        setter: Option<&crate::ir::access::Parties>,
    ) -> Option<(FieldRef, bool, u64)> {
        let r = self.resolve_field(&e.word, &format!("{what}: `word`"));
        let low_half = match &e.half {
            None => false,
            Some(h) if h.get_ref() == "low" => true,
            Some(h) => {
                self.errors.error_help(
                    &self.inner(h),
                    format!("{what}: `half` is `{}`", h.get_ref()),
                    "write `half = \"low\"`: the word is the first 4 bytes of a little-endian 8-byte field",
                );
                return None;
            }
        };
        let r = r?;
        let f = r.of(self.abi);
        let fl = self.layout.field(r);
        let path = e.word.get_ref();
        let unsigned = matches!(f.ty.elem, Elem::Prim(p) if p.is_integer() && !p.is_signed())
            && f.ty.len.is_none();
        let want = if low_half { 8 } else { 4 };
        if !unsigned || fl.size != want {
            let help = if low_half {
                "`half = \"low\"` takes an 8-byte unsigned field (its first 4 bytes are the word): name one, or remove `half`"
            } else if unsigned && fl.size == 8 {
                "a futex waits on 4 bytes: name a `u32` field, or write `half = \"low\"` to wait on this field's low half"
            } else {
                "a futex waits on 4 bytes: name a `u32` field"
            };
            self.errors.error_help(
                &self.inner(&e.word),
                format!(
                    "{what}: `word` field `{path}` is `{}`; an event waits on {}an unsigned {want}-byte field",
                    f.ty.text,
                    if low_half { "the low half of " } else { "" }
                ),
                help,
            );
            return None;
        }
        // 4-aligned by the layout's rule: a field sits at a multiple of its alignment (a u32
        // of 4, a u64 of 8) in a struct at least as aligned, and a stated `align` below it
        // is the layout's error.
        let fa = r.access(&access.structs);
        if !fa.kind.is_atomic() {
            self.errors.error_help(
                &self.inner(&e.word),
                format!(
                    "{what}: `word` field `{path}` is {}; the waiter reads it while the setter writes it",
                    fa.kind.keyword()
                ),
                format!("declare `access = \"atomic\"` on field `{path}`"),
            );
            return None;
        }
        if let Some(setter) = setter {
            let mut writers = fa.writers.0.clone();
            writers.sort_unstable();
            if writers != setter.0 {
                let names = &self.parties;
                self.errors.error_help(
                    &self.inner(&e.word),
                    format!(
                        "{what}: `word` field `{path}` is written by {}, but the event's setter is {}",
                        fa.writers.describe(names),
                        setter.describe(names)
                    ),
                    "setting the event changes its word: name a word its setter writes, or change the setter",
                );
                return None;
            }
        }
        Some((r, low_half, fl.offset))
    }

    /// The Windows object's name: text and placeholders; `{mapping}` always, `{row}` exactly
    /// when the event has one per row, `{pid}` and `{generation}` when the handshake names them.
    fn windows_name(&mut self, e: &RawEvent, what: &str, attach: &Attach) -> Option<Vec<NamePart>> {
        let text = e.windows_name.get_ref();
        let span = self.inner(&e.windows_name);
        let mut parts = Vec::new();
        let mut rest = text.as_str();
        let bad = |cx: &mut Self, message: String, help: &str| {
            cx.errors.error_help(&span, message, help.to_string());
            None
        };
        if let Some(c) = text.chars().find(|c| *c == '\\' || c.is_control()) {
            return bad(
                self,
                format!("{what}: `windows_name` `{text}` holds {c:?}"),
                "the name goes under `Local\\`: write it without backslashes or control characters",
            );
        }
        while !rest.is_empty() {
            match rest.find('{') {
                Some(0) => {
                    let Some(end) = rest.find('}') else {
                        return bad(
                            self,
                            format!(
                                "{what}: `windows_name` `{text}` has a `{{` that no `}}` closes"
                            ),
                            "write a placeholder as `{mapping}`, `{row}`, `{pid}` or `{generation}`",
                        );
                    };
                    let part = match &rest[..=end] {
                        "{mapping}" => NamePart::Mapping,
                        "{row}" => NamePart::Row,
                        "{pid}" => NamePart::Pid,
                        "{generation}" => NamePart::Generation,
                        other => {
                            return bad(
                                self,
                                format!("{what}: `windows_name` has unknown placeholder `{other}`"),
                                "use `{mapping}`, `{row}`, `{pid}` or `{generation}`",
                            );
                        }
                    };
                    parts.push(part);
                    rest = &rest[end + 1..];
                }
                Some(at) => {
                    parts.push(NamePart::Text(rest[..at].to_string()));
                    rest = &rest[at..];
                }
                None => {
                    if rest.contains('}') {
                        return bad(
                            self,
                            format!(
                                "{what}: `windows_name` `{text}` has a `}}` that no `{{` opens"
                            ),
                            "write a placeholder as `{mapping}`, `{row}`, `{pid}` or `{generation}`",
                        );
                    }
                    parts.push(NamePart::Text(rest.to_string()));
                    rest = "";
                }
            }
        }
        if !parts.contains(&NamePart::Mapping) {
            return bad(
                self,
                format!("{what}: `windows_name` `{text}` does not hold `{{mapping}}`"),
                "two mappings' events must not share a name: start it with `{mapping}-`",
            );
        }
        let per_row = e.rows.is_some();
        if parts.contains(&NamePart::Row) != per_row {
            let (message, help) = if per_row {
                (
                    "has one event per row but its `windows_name` does not hold `{row}`",
                    "add `{row}`: each row's event needs a name of its own",
                )
            } else {
                (
                    "is one event but its `windows_name` holds `{row}`",
                    "remove `{row}`, or declare `rows` for one event per row",
                )
            };
            return bad(self, format!("{what} {message}"), help);
        }
        let handshake = attach.root.and_then(|r| {
            let header = attach.layouts[r].header;
            attach.handshakes.iter().find(|h| h.struct_index == header)
        });
        let has_pid = handshake.is_some_and(|h| h.identity.pid.is_some());
        let has_generation =
            handshake.is_some_and(|h| h.liveness.as_ref().is_some_and(|l| l.generation.is_some()));
        for (part, has, key) in [
            (NamePart::Pid, has_pid, "pid"),
            (NamePart::Generation, has_generation, "generation"),
        ] {
            if parts.contains(&part) && !has {
                return bad(
                    self,
                    format!(
                        "{what}: `windows_name` holds `{{{key}}}`, but the mapping's handshake names no `{key}`"
                    ),
                    "name the field in the root header's `version = { ... }`, or remove the placeholder",
                );
            }
        }
        Some(parts)
    }
}
