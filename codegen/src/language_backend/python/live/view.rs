//! A struct's view class: a method per field as its access allows (loads, stores,
//! fetch-adds, compare-and-swaps, copies, nested views), and its seqlocks' methods. The
//! module prints the field methods as rows of the class's `_methods` table, which the
//! template's fixed code turns into methods at import; the stub types the same list.

use serde::Serialize;

use super::context::{Ctx, prim_format};
use super::seqlock::LockMethods;
use crate::ir::StructId;
use crate::ir::access::AccessKind;
use crate::ir::{Elem, Prim};
use crate::language_backend::python::names::Namer;
use crate::plan::live::needs_view;
use crate::plan::row_loads::is_text;
use crate::plan::words::{Lane, lane};

#[derive(Serialize)]
pub(in crate::language_backend::python) struct ViewClass {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) value: String,
    /// The struct's index in the schema.
    #[serde(skip)]
    pub(in crate::language_backend::python) struct_index: StructId,
    /// Who writes the struct: `host`, or nothing.
    writers: String,
    size: u64,
    align: u64,
    min_len: u64,
    trailer: bool,
    /// Class attributes holding ctypes types: (`_type_regions`, `RegionEntry * MAX_REGIONS`).
    types: Vec<(String, String)>,
    pub(in crate::language_backend::python) methods: Vec<Method>,
    pub(in crate::language_backend::python) locks: Vec<LockMethods>,
}

/// What a view method does; the template words its doc by it (serialized in snake case:
/// `load`, `fetch_add`, `word_cas_at`, …).
#[derive(Serialize, Default, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub(in crate::language_backend::python) enum MethodKind {
    /// An atomic field's load (acquire).
    #[default]
    Load,
    /// A seqlock counter's load.
    Counter,
    /// An atomic field's store (release).
    Store,
    /// An atomic field's fetch-add.
    FetchAdd,
    /// An atomic field's compare-and-swap.
    Cas,
    /// An atomic field's swap.
    Swap,
    /// A lane of a wider word the protocols' helpers access (`plan::words`): a load of
    /// that whole word, the field's bytes taken out; the field has no other method.
    LaneLoad,
    /// An array claimed as one word, loaded whole.
    WordLoad,
    /// That word's compare-and-swap, whole.
    WordCas,
    /// That word's compare-and-swap of one byte element.
    WordCasAt,
    /// A plain scalar field's copy out.
    Get,
    /// A plain scalar field's store.
    Set,
    /// A plain non-scalar field's copy out.
    Copy,
    /// A plain non-scalar field's copy in.
    Put,
    /// A text field's copy out, as a `str` (`plan::row_loads::is_text`).
    Text,
    /// A nested struct's view.
    View,
    /// An array of nested structs' views, by index.
    Views,
}

/// One method of a view: its kind, its name and what the template needs of its field.
#[derive(Serialize, Default, Clone)]
pub(in crate::language_backend::python) struct Method {
    pub(in crate::language_backend::python) kind: MethodKind,
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) field: String,
    /// The field's index in its struct (the view's `struct_index`).
    #[serde(skip)]
    pub(in crate::language_backend::python) field_index: usize,
    /// Who writes the field: `host and client`, or nothing.
    who: String,
    offset: u64,
    width: u64,
    fmt: String,
    pub(in crate::language_backend::python) enum_class: Option<String>,
    signed: bool,
    type_attr: String,
    pub(in crate::language_backend::python) count: u64,
    elem_size: u64,
    pub(in crate::language_backend::python) view: String,
    /// A field a later minor version added to an extensible record: where it ends. A view
    /// shorter than that (an older producer's record) lacks it: its reads give None and its
    /// writes raise. 0 for every other field.
    pub(in crate::language_backend::python) absent_past: u64,
    /// The row's two kind-dependent entries in `_methods`, as Python text (the template's
    /// `_LiveView.__init_subclass__` says what each kind takes): [`Method::row_args`].
    arg: String,
    extra: String,
    /// The word the field is a lane of, for [`MethodKind::LaneLoad`].
    #[serde(skip)]
    lane: Option<Lane>,
}

impl Method {
    /// `arg` and `extra` of the method's row: for an atomic number its width and its
    /// conversion (an enum class, `_signed`, or `None`); for a word its width and (format,
    /// count); for a plain number its format and enum class; for a copy its ctypes type; for
    /// nested views the view class's name, and (count, stride) for an array of them.
    fn row_args(&self) -> (String, String) {
        let enum_class = || self.enum_class.clone().unwrap_or_else(|| "None".into());
        let quoted = |s: &str| format!("\"{s}\"");
        use MethodKind::*;
        match self.kind {
            Load | Counter | Store | FetchAdd | Cas | Swap => {
                let convert = match (&self.enum_class, self.signed) {
                    (Some(e), _) => e.clone(),
                    (None, true) => "_signed".into(),
                    (None, false) => "None".into(),
                };
                (self.width.to_string(), convert)
            }
            LaneLoad => {
                let convert = match (&self.enum_class, self.signed) {
                    (Some(e), _) => e.clone(),
                    (None, true) => "_signed".into(),
                    (None, false) => "None".into(),
                };
                let l = self.lane.expect("a lane load has its word");
                (
                    l.word_width.to_string(),
                    format!("({convert}, {}, {})", l.at, l.width),
                )
            }
            WordLoad | WordCas | WordCasAt => (
                self.width.to_string(),
                format!("({}, {})", quoted(&self.fmt), self.count),
            ),
            Get | Set => (quoted(&self.fmt), enum_class()),
            Copy | Put | Text => (self.type_attr.clone(), "None".into()),
            View => (quoted(&self.view), "None".into()),
            Views => (
                quoted(&self.view),
                format!("({}, {})", self.count, self.elem_size),
            ),
        }
    }
}

/// The method of `class` for `field` of `kind`, as the class named it.
pub(super) fn method<'v>(
    views: &'v [ViewClass],
    class: &str,
    field: &str,
    kind: MethodKind,
) -> Option<&'v Method> {
    let view = views.iter().find(|v| v.name == class)?;
    (view.methods.iter()).find(|m| m.field == field && m.kind == kind)
}

impl Ctx<'_> {
    pub(super) fn view_class(&self, si: StructId) -> Option<ViewClass> {
        let name = self.views[si].clone()?;
        let (schema, s) = (self.schema, &self.schema.abi.structs[si]);
        let (l, a) = (schema.layout.of(si), &schema.access.structs[si]);
        let reserved = ["release", "SIZE", "ALIGN", "MIN_LEN"];
        let mut namer = Namer(reserved.map(String::from).into());
        let (mut types, mut methods) = (Vec::new(), Vec::new());
        // An extensible record: its views may be as short as what every producer writes.
        let extensible =
            (schema.attach.handshakes.iter()).find(|h| h.struct_index == si && !h.added.is_empty());
        for (fi, f) in s.fields.iter().enumerate() {
            let fa = &a.fields[fi];
            if f.is_padding() || fa.guarded_by.is_some() {
                continue;
            }
            let (n, fl) = (&f.name, &l.fields[fi]);
            let mut m = Method {
                absent_past: extensible
                    .and_then(|h| h.added.iter().find(|a| a.field == fi))
                    .map_or(0, |a| a.end),
                field: n.clone(),
                field_index: fi,
                who: fa.writers.describe(&schema.access.parties),
                offset: fl.offset,
                width: fa.kind.width().unwrap_or(0),
                count: f.ty.count(),
                elem_size: fl.elem_size,
                ..Method::default()
            };
            let scalar = self.scalar(&f.ty);
            if let Some((p, enum_class)) = &scalar {
                m.fmt = prim_format(*p);
                m.signed = matches!(p, Prim::I8 | Prim::I16 | Prim::I32 | Prim::I64);
                m.enum_class = enum_class.clone();
            }
            let is_counter = (a.seqlocks.iter()).any(|&k| schema.access.seqlocks[k].counter == fi);
            let cx = format!("compare_exchange_{n}");
            use MethodKind::*;
            let kinds: Vec<(MethodKind, String)> = match (fa.kind, f.ty.elem, scalar) {
                (AccessKind::Plain, Elem::Struct(j), _) if needs_view(schema, j) => {
                    m.view = self.views[j].clone().unwrap_or_default();
                    vec![(if f.ty.len.is_some() { Views } else { View }, n.clone())]
                }
                (AccessKind::Plain, _, Some(_)) => {
                    vec![(Get, n.clone()), (Set, format!("set_{n}"))]
                }
                (AccessKind::Plain, _, None) => {
                    m.type_attr = format!("_type_{n}");
                    types.push((m.type_attr.clone(), self.ctype(&f.ty)));
                    let read = if is_text(f) { Text } else { Copy };
                    vec![(read, n.clone()), (Put, format!("set_{n}"))]
                }
                // An array claimed as one word: loaded and swapped whole, its elements
                // taken from the word.
                (_, Elem::Prim(p), None) => {
                    m.fmt = format!("<{}{}", f.ty.count(), &prim_format(p)[1..]);
                    let mut kinds = vec![(WordLoad, n.clone()), (WordCas, cx)];
                    if p == Prim::U8 {
                        kinds.push((WordCasAt, format!("compare_exchange_{n}_at")));
                    }
                    kinds
                }
                (_, _, None) => Vec::new(),
                (_, _, Some(_)) if is_counter => vec![(Counter, n.clone())],
                // A lane of a word the helpers swap whole: its load reads that word.
                (_, _, Some(_)) if lane(schema, si, fi).is_some() => {
                    m.lane = lane(schema, si, fi);
                    m.offset = m.lane.map_or(m.offset, |l| l.word_at);
                    vec![(LaneLoad, n.clone())]
                }
                (kind, _, Some(_)) => {
                    let mut kinds = vec![(Load, n.clone()), (Store, format!("set_{n}"))];
                    if m.enum_class.is_none() {
                        kinds.push((FetchAdd, format!("fetch_add_{n}")));
                    }
                    if matches!(kind, AccessKind::Cas { .. }) {
                        kinds.extend([(Cas, cx), (Swap, format!("swap_{n}"))]);
                    }
                    kinds
                }
            };
            for (kind, wanted) in kinds {
                (m.kind, m.name) = (kind, namer.name(&wanted));
                (m.arg, m.extra) = m.row_args();
                methods.push(m.clone());
            }
        }
        let locks = (a.seqlocks.iter())
            .map(|&k| self.lock_methods(k, &mut namer))
            .collect();
        let trailer_min: u64 = (a.trailer.iter())
            .map(|t| if t.size_field.is_some() { 0 } else { t.size })
            .sum();
        Some(ViewClass {
            name,
            value: self.names.structs[si].clone(),
            struct_index: si,
            writers: a.writers.describe(&schema.access.parties),
            size: l.size,
            align: l.align,
            min_len: match extensible {
                Some(h) if a.trailer.is_empty() => h.base_size,
                _ => l.size + trailer_min,
            },
            trailer: !a.trailer.is_empty(),
            types,
            methods,
            locks,
        })
    }
}
