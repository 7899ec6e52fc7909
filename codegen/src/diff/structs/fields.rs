//! Fields compared: each new field with the old field it matched (renamed, moved, resized,
//! retyped or respelled), or judged as added (in old padding, appended, inserted); then the
//! old fields nothing matched, as removed.

use crate::ir::{Elem, Field};

use super::{StructPair, site};
use crate::diff::change::{ChangeKind, FieldSite, ItemKind, Severity};
use crate::diff::compute::{Cx, bytes, change, covered, quote_list};
use crate::ir::StructId;

/// The verdict on an added field: its severity, kind, summary and reason.
type AddedVerdict = (Severity, ChangeKind, &'static str, String);

impl Cx<'_> {
    /// Each new field against the old field it matched, or as added; then the old fields
    /// nothing matched, as removed.
    pub(super) fn compare_struct_fields(&mut self, pair: &StructPair) {
        let (o, n) = (pair.o, pair.n);
        for (fi, g) in pair.b.fields.iter().enumerate() {
            // A field is named by its own struct; who holds the struct shows in the effects.
            let path = format!("{}.{}", pair.b.name, g.name);
            match pair.old_of(fi) {
                Some(fo) => self.compare_field((o, fo), (n, fi), &path),
                // Padding is bytes, not an item: its reuse shows in the fields that take it.
                None if g.is_padding() => {}
                None => self.added_field(pair, fi, g, path),
            }
        }
        self.removed_fields(pair);
    }

    /// New field `fi` (`g`, at `path`), which matched no old field.
    fn added_field(&mut self, pair: &StructPair, fi: usize, g: &Field, path: String) {
        let (la, lb) = (pair.la, pair.lb);
        let lg = &lb.fields[fi];
        let (severity, kind, summary, reason) =
            added_field_verdict(pair, lg.offset, lg.offset + lg.size);
        // In the middle: the fields after it move.
        let inserted = kind == ChangeKind::FieldAdded
            && (fi + 1..pair.b.fields.len()).any(|later| {
                pair.old_of(later)
                    .is_some_and(|fo| la.fields[fo].offset != lb.fields[later].offset)
            });
        let summary = if inserted { "field inserted" } else { summary };
        let mut ch = change(severity, kind, ItemKind::Field, &path, summary, reason)
            .sides(None, Some(Self::field_shape(self.new, pair.n, fi)))
            .spans(None, Some(&g.span));
        ch.site = Some(site(self.new, &pair.b.name, g, lg.offset));
        self.check_since_in_handshake(pair.n, fi, &mut ch);
        if kind == ChangeKind::FieldAppended && g.since.is_none() {
            self.appended_without_since(pair.n, &mut ch);
        }
        self.push(ch);
    }

    /// The old fields that no new field matched, padding apart.
    fn removed_fields(&mut self, pair: &StructPair) {
        let (old, o) = (self.old, pair.o);
        let old_v = pair.old_v;
        for (fo, f) in pair.a.fields.iter().enumerate() {
            if pair.map[fo].is_some() || f.is_padding() {
                continue;
            }
            let ch = change(
                Severity::Breaking,
                ChangeKind::FieldRemoved,
                ItemKind::Field,
                format!("{}.{}", pair.b.name, f.name),
                "field removed",
                format!("readers built against {old_v} still read it"),
            )
            .sides(Some(Self::field_shape(old, o, fo)), None)
            .spans(Some(&f.span), None);
            let ch = FieldSite::attach(ch, site(old, &pair.b.name, f, pair.la.fields[fo].offset));
            self.push(ch);
        }
    }

    /// Compares old field `fo` of struct `o` with its match, field `fi` of struct `n`, at
    /// `path`: a rename, its place and type, then its doc and since.
    fn compare_field(
        &mut self,
        (o, fo): (StructId, usize),
        (n, fi): (StructId, usize),
        path: &str,
    ) {
        let (old, new) = (self.old, self.new);
        let (f, g) = (
            &old.abi.structs[o].fields[fo],
            &new.abi.structs[n].fields[fi],
        );
        let sides = (
            Some(Self::field_shape(old, o, fo)),
            Some(Self::field_shape(new, n, fi)),
        );
        let spans = (Some(&f.span), Some(&g.span));
        if f.name != g.name {
            let reason = if g.is_padding() {
                "declared padding under another name; the bytes are the same".to_string()
            } else {
                format!(
                    "the same offset, size and type; code that names `{}` must say `{}`",
                    f.name, g.name
                )
            };
            let ch = change(
                Severity::SourceBreaking,
                ChangeKind::FieldRenamed,
                ItemKind::Field,
                path,
                format!("field renamed from `{}`", f.name),
                reason,
            )
            .sides(sides.0.clone(), sides.1.clone())
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if !g.is_padding() {
            self.field_layout_changed((o, fo), (n, fi), path);
        }
        let first = self.changes.len();
        self.cosmetic_edits(
            ItemKind::Field,
            path,
            (&f.doc, &g.doc),
            (f.since, g.since),
            &f.span,
            &g.span,
        );
        self.since_in_handshake_is_no_doc(n, first);
    }

    /// A matched field moved, resized or retyped (breaking), or its type only spelled
    /// differently (cosmetic).
    fn field_layout_changed(
        &mut self,
        (o, fo): (StructId, usize),
        (n, fi): (StructId, usize),
        path: &str,
    ) {
        let (old, new) = (self.old, self.new);
        let (f, g) = (
            &old.abi.structs[o].fields[fo],
            &new.abi.structs[n].fields[fi],
        );
        let (lf, lg) = (&old.layout.of(o).fields[fo], &new.layout.of(n).fields[fi]);
        let old_v = self.old_v();
        let sides = (
            Some(Self::field_shape(old, o, fo)),
            Some(Self::field_shape(new, n, fi)),
        );
        let spans = (Some(&f.span), Some(&g.span));
        let moved = lf.offset != lg.offset;
        let resized = lf.size != lg.size;
        let retyped = !self.m.same_elem(&f.ty, &g.ty);
        if moved || resized || retyped {
            let mut what = Vec::new();
            let mut why = Vec::new();
            if moved {
                what.push("moved");
                why.push(format!("look for it at 0x{:04x}", lf.offset));
            }
            if retyped {
                what.push("retyped");
                why.push(format!("read it as `{}`", f.ty.text));
            }
            if resized {
                what.push("resized");
                let cause = if retyped {
                    String::new()
                } else if f.ty.count() != g.ty.count() {
                    format!(
                        " (the array length goes from {} to {})",
                        f.ty.count(),
                        g.ty.count()
                    )
                } else {
                    match g.ty.elem {
                        Elem::Struct(j) => {
                            format!(" (`{}` changed size)", new.abi.structs[j].name)
                        }
                        Elem::Enum(j) => {
                            format!(" (`{}` changed representation)", new.abi.enums[j].name)
                        }
                        _ => String::new(),
                    }
                };
                why.push(format!("read {}{cause}", bytes(lf.size)));
            }
            let kind = if retyped {
                ChangeKind::FieldRetyped
            } else if resized {
                ChangeKind::FieldResized
            } else {
                ChangeKind::FieldMoved
            };
            let summary = match what.len() {
                1 => format!("field {}", what[0]),
                _ => format!(
                    "field {} and {}",
                    what[..what.len() - 1].join(", "),
                    what[what.len() - 1]
                ),
            };
            let ch = change(
                Severity::Breaking,
                kind,
                ItemKind::Field,
                path,
                summary,
                format!("readers built against {old_v} {}", why.join(" and ")),
            )
            .sides(sides.0.clone(), sides.1.clone())
            .spans(spans.0, spans.1);
            let owner = &new.abi.structs[n].name;
            let ch = FieldSite::attach(ch, site(new, owner, g, lf.offset.min(lg.offset)));
            self.push(ch);
        } else if self.canonical_old(&f.ty) != self.canonical_new(&g.ty) {
            let ch = change(
                Severity::Cosmetic,
                ChangeKind::TypeSpelling,
                ItemKind::Field,
                path,
                "type written differently",
                "the same type",
            )
            .sides(sides.0.clone(), sides.1.clone())
            .spans(spans.0, spans.1);
            self.push(ch);
        }
    }
}

/// The names of the old fields, padding (`padding`) or not, that overlap bytes
/// `start..end`.
fn old_fields_over(pair: &StructPair, start: u64, end: u64, padding: bool) -> Vec<String> {
    pair.a
        .fields
        .iter()
        .zip(&pair.la.fields)
        .filter(|(f, l)| f.is_padding() == padding && l.offset < end && start < l.offset + l.size)
        .map(|(f, _)| f.name.clone())
        .collect()
}

/// Whether a field added at bytes `start..end` is compatible: in old padding (trailing or
/// declared), appended to an extensible struct, or else breaking, and why.
fn added_field_verdict(pair: &StructPair, start: u64, end: u64) -> AddedVerdict {
    let (a, b, la, lb) = (pair.a, pair.b, pair.la, pair.lb);
    let old_v = pair.old_v;
    let old_padding: Vec<(u64, u64)> = a
        .fields
        .iter()
        .zip(&la.fields)
        .filter(|(f, _)| f.is_padding())
        .map(|(_, l)| (l.offset, l.offset + l.size))
        .collect();
    let tail = a
        .fields
        .last()
        .zip(la.fields.last())
        .filter(|(f, _)| f.is_padding())
        .map(|(f, l)| (f, l.offset, l.offset + l.size));
    if covered(start, end, &old_padding) {
        match tail {
            Some((t, ts, te)) if lb.size == la.size && ts <= start && end <= te => (
                Severity::Compatible,
                ChangeKind::TailPaddingReused,
                "field added in the trailing padding",
                format!(
                    "its bytes were the trailing padding `{}`, and `{}` stays {}",
                    t.name,
                    b.name,
                    bytes(lb.size)
                ),
            ),
            _ => (
                Severity::Compatible,
                ChangeKind::PaddingReused,
                "field added in declared padding",
                format!(
                    "its bytes were declared padding ({}), which readers built against {old_v} do not read",
                    quote_list(&old_fields_over(pair, start, end, true))
                ),
            ),
        }
    } else if pair.grows_at_end && covered(start, end.min(la.size), &old_padding) {
        (
            Severity::Compatible,
            ChangeKind::FieldAppended,
            "field appended",
            format!(
                "it lies past the {} `{}` had in {old_v}, and `{}` is extensible",
                bytes(la.size),
                b.name,
                b.name
            ),
        )
    } else {
        let taken = old_fields_over(pair, start, end, false);
        let reason = if !taken.is_empty() {
            format!("it takes bytes that held {} in {old_v}", quote_list(&taken))
        } else if pair.embedded.is_empty() {
            format!(
                "it lies past the {} `{}` had in {old_v}, and `{}` cannot grow compatibly",
                bytes(la.size),
                b.name,
                b.name
            )
        } else {
            format!(
                "it lies past the {} `{}` had in {old_v}; {}",
                bytes(la.size),
                b.name,
                pair.embedding_note()
            )
        };
        (
            Severity::Breaking,
            ChangeKind::FieldAdded,
            "field added",
            reason,
        )
    }
}
