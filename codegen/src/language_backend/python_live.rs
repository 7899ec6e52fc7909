//! The Python target's live section: views of the structs the schema puts in shared memory,
//! with atomic words, compare-and-swap claims, seqlock reads and writes and the rings, as
//! the Rust live layer (`rust_live.rs`) has them. This file names things and takes every
//! offset and size from the layout; the Python that runs is written once, in the templates:
//! the atomics layer in `python.py.j2`, seqlock retries, bounds checks and the classes in
//! `python_live.py.j2`. None when the schema declares no shared memory, so that such a
//! module is as it always was.
//!
//! One function per kind of thing: views and their field methods, seqlock methods and the
//! value classes they read into, slot rings, event rings, and the bot example.
//!
//! Names: views are `Live` and the struct's class (`LiveBridgeHeader`), a seqlock's value
//! class and a slot ring are CamelCase (`ParamDefs`, `SnapshotRing`), an event ring's
//! function is `<ring>_since`. Unlike the module's other helpers these can meet a schema
//! name, so any that is taken (or a keyword) gets a trailing `_`; so does a view method
//! named after a keyword or `release`.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Serialize;

use super::RenderError;
use super::live_plan::{self, guarded_runs, has_view, needs_view, value_guards};
use super::python::{
    Names, PYTHON_KEYWORDS, escape_docstring_line, python_field_alias, python_type_name,
    render_ctype,
};
use super::text::{Compiled, Template};
use crate::Schema;
use crate::ir::access::{AccessKind, Guard, Ring, RingKind};
use crate::ir::names::upper;
use crate::ir::{Elem, Field, Prim, Type};

const TEMPLATE: Template = Template {
    name: "python_live.py.j2",
    source: include_str!("../../templates/python_live.py.j2"),
};

/// The template, compiled on first use.
pub(super) static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

/// The rendered section (after the atomics layer, which `python.py.j2` has), the names of
/// the exceptions that layer raises, and the public names the section adds to `__all__`.
#[derive(Serialize)]
pub(super) struct LiveSection {
    pub text: String,
    pub unavailable_error: String,
    pub contended_error: String,
    #[serde(skip)]
    pub exports: Vec<String>,
    /// The view class of each struct that has one, and the class of each slot ring, by
    /// index: what `attach` hands out (`python_attach.rs`).
    #[serde(skip)]
    pub views: Vec<Option<String>>,
    #[serde(skip)]
    pub rings: Vec<Option<String>>,
    /// The context the text was rendered from, which the stub types (`python_stub/live.rs`).
    #[serde(skip)]
    pub context: serde_json::Value,
}

/// The live section of the module, or `None` when the schema declares no shared memory.
pub(super) fn render_live(
    schema: &Schema,
    names: &Names,
) -> Result<Option<LiveSection>, RenderError> {
    if !super::rust_live::has_live_layer(schema) {
        return Ok(None);
    }
    let (context, views, rings) = live_context(schema, names);
    Ok(Some(LiveSection {
        text: COMPILED.render(&context)?,
        context: serde_json::to_value(&context).map_err(|e| RenderError(e.to_string()))?,
        unavailable_error: context.unavailable_error,
        contended_error: context.contended_error,
        exports: context.exports,
        views,
        rings,
    }))
}

/// The public helpers of the section, whatever the schema.
const HELPERS: &str = "atomic_load atomic_store atomic_compare_exchange atomic_exchange \
                       atomic_fetch_add atomics_backend set_atomics_backend";

#[derive(Serialize)]
struct LiveContext {
    abi_name: String,
    unavailable_error: String,
    contended_error: String,
    values: Vec<ValueClass>,
    views: Vec<ViewClass>,
    rings: Vec<RingClass>,
    events: Vec<EventsFunction>,
    example: Option<Example>,
    #[serde(skip)]
    exports: Vec<String>,
}

#[derive(Serialize)]
struct ViewClass {
    name: String,
    value: String,
    /// Who writes the struct: `host`, or nothing.
    writers: String,
    size: u64,
    align: u64,
    min_len: u64,
    trailer: bool,
    /// Class attributes holding ctypes types: (`_type_regions`, `RegionEntry * MAX_REGIONS`).
    types: Vec<(String, String)>,
    methods: Vec<Method>,
    locks: Vec<LockMethods>,
}

/// One method of a view. `kind` says which, and the template words its doc: `load`,
/// `counter`, `store`, `fetch_add`, `cas`, `swap`, `word_load`, `word_cas`, `word_cas_at`,
/// `get`, `set`, `copy`, `put`, `view`, `views`.
#[derive(Serialize, Default, Clone)]
struct Method {
    kind: &'static str,
    name: String,
    field: String,
    /// Who writes the field: `host and client`, or nothing.
    who: String,
    offset: u64,
    width: u64,
    fmt: String,
    enum_class: Option<String>,
    signed: bool,
    type_attr: String,
    count: u64,
    elem_size: u64,
    view: String,
}

/// `read_<lock>`, `read_<lock>_counted` and `write_<lock>` on the view of the counter's struct.
#[derive(Serialize)]
struct LockMethods {
    lock: String,
    read: String,
    read_counted: String,
    write: String,
    doc: Vec<String>,
    writers: String,
    readers: String,
    counter: u64,
    width: u64,
    value: String,
    /// The value is the struct itself, of which the lock guards these byte runs.
    whole: bool,
    size: u64,
    runs: Vec<(u64, u64)>,
    steps: Vec<Step>,
}

/// One part of a value class's copy: `scalar` (a number), `copy` (a ctypes value) or
/// `sized` (a trailer part whose length a field says, and the bytes past its type).
#[derive(Serialize, Default)]
struct Step {
    kind: &'static str,
    attr: String,
    offset: u64,
    fmt: String,
    enum_class: Option<String>,
    /// A size field: written from the part's length, never from the value.
    is_size: bool,
    fixed: u64,
    /// Where the size comes from: the value's attribute when the lock guards the field.
    size_attr: Option<String>,
    size_offset: u64,
    size_fmt: String,
    extra: String,
}

#[derive(Serialize)]
struct ValueClass {
    name: String,
    lock: String,
    doc: Vec<String>,
    types: Vec<(String, String)>,
    slots: Vec<Slot>,
}

/// An attribute of a value class. `kind`: `int`, `ctype` or `bytes`; `source`: `field`,
/// `part`, `sized` (a part whose length varies) or `extra` (the bytes past it).
#[derive(Serialize)]
struct Slot {
    attr: String,
    kind: &'static str,
    source: &'static str,
    name: String,
    ty: String,
}

#[derive(Serialize)]
struct RingClass {
    name: String,
    ring: String,
    doc: Vec<String>,
    slot_count: u64,
    slot_size: u64,
    align: u64,
    header_view: String,
    head_field: String,
    head_get: String,
    head_set: String,
    head_mask: String,
    slot_view: String,
    lock: String,
    value: String,
}

#[derive(Serialize)]
struct EventsFunction {
    name: String,
    ring: String,
    holder: String,
    total: String,
    entries: String,
    capacity: u64,
    doc: Vec<String>,
    /// Also a method of the holder (no field of that name).
    method: bool,
}

/// The names of the bot example: the first slot ring, its header view, and a row of that
/// header claimed by compare-and-swap of an enum field, from its first member to its second
/// (then set to its third).
#[derive(Serialize)]
struct Example {
    module: String,
    header_view: String,
    ring: String,
    claim: Option<Claim>,
}

#[derive(Serialize)]
struct Claim {
    rows: String,
    count: String,
    cas: String,
    set: String,
    enum_class: String,
    from: String,
    to: String,
    active: String,
}

/// Unique names in one namespace: a wanted name that is taken, or a keyword, gets `_` until
/// it is free.
pub(super) struct Namer(pub(super) HashSet<String>);

impl Namer {
    pub(super) fn name(&mut self, wanted: &str) -> String {
        let mut name = wanted.to_string();
        while PYTHON_KEYWORDS.contains(&name.as_str()) || !self.0.insert(name.clone()) {
            name.push('_');
        }
        name
    }
}

/// What every part of the context needs: the schema, its Python names, the view class of
/// each struct that has one, and the class each seqlock reads into.
struct Ctx<'a> {
    schema: &'a Schema,
    names: &'a Names,
    views: Vec<Option<String>>,
    values: Vec<String>,
}

/// The context, the view class of each struct and the class of each slot ring.
type Live = (LiveContext, Vec<Option<String>>, Vec<Option<String>>);

fn live_context(schema: &Schema, names: &Names) -> Live {
    let taken = (names
        .consts
        .iter()
        .chain(&names.enums)
        .chain(&names.structs)
        .cloned())
    .chain(["ABI_VERSION_MAJOR", "ABI_VERSION_MINOR"].map(String::from));
    let mut module = Namer(taken.collect());
    let unavailable_error = module.name("AtomicsUnavailableError");
    let contended_error = module.name("SeqlockContendedError");
    let structs = 0..schema.abi.structs.len();
    let views = (structs.clone())
        .map(|i| has_view(schema, i).then(|| module.name(&format!("Live{}", names.structs[i]))))
        .collect();
    let locks = &schema.access.seqlocks;
    let values = (locks.iter())
        .map(|l| match l.guards_whole_struct(&schema.access.structs) {
            true => names.structs[l.struct_index].clone(),
            false => module.name(&python_type_name(&l.name)),
        })
        .collect();
    let cx = Ctx {
        schema,
        names,
        views,
        values,
    };
    let values: Vec<ValueClass> = (0..locks.len())
        .filter(|&k| !locks[k].guards_whole_struct(&schema.access.structs))
        .map(|k| cx.value_class(k))
        .collect();
    let views: Vec<ViewClass> = structs.filter_map(|i| cx.view_class(i)).collect();
    let (mut rings, mut events) = (Vec::new(), Vec::new());
    let mut ring_names = Vec::new();
    for ring in &schema.access.rings {
        let made = rings.len();
        match ring.kind {
            RingKind::Slots { .. } => {
                let name = module.name(&python_type_name(&ring.name));
                rings.extend(cx.ring_class(ring, name, &views));
            }
            RingKind::Events { .. } => {
                let name = module.name(&format!("{}_since", ring.name));
                events.push(cx.events_function(ring, name));
            }
        }
        ring_names.push((rings.len() > made).then(|| rings[made].name.clone()));
    }
    let example = rings.first().and_then(|r| cx.example(r, &views));
    let mut exports = vec![unavailable_error.clone(), contended_error.clone()];
    exports.extend(HELPERS.split_whitespace().map(String::from));
    exports.extend(views.iter().map(|v| v.name.clone()));
    exports.extend(values.iter().map(|v| v.name.clone()));
    exports.extend(rings.iter().map(|r| r.name.clone()));
    exports.extend(events.iter().map(|e| e.name.clone()));
    let context = LiveContext {
        abi_name: schema.abi.name.clone(),
        unavailable_error,
        contended_error,
        values,
        views,
        rings,
        events,
        example,
        exports,
    };
    (context, cx.views, ring_names)
}

/// The `struct` format of a number: `<I`, `<q`, `<d` (letters in the order of `Prim::ALL`).
fn prim_format(p: Prim) -> String {
    let i = Prim::ALL.iter().position(|&q| q == p).unwrap_or(0);
    format!("<{}", &"BHIQbhiqfd"[i..=i])
}

/// The attribute a value class gives a field or trailer part: its name, or its keyword
/// alias (`class_`).
fn attr_name(name: &str) -> String {
    python_field_alias(name).unwrap_or_else(|| name.to_string())
}

/// A doc as escaped docstring lines, empty lines left out.
pub(super) fn doc_lines(doc: &str) -> Vec<String> {
    (doc.split('\n').filter(|d| !d.is_empty()))
        .map(escape_docstring_line)
        .collect()
}

/// The method of `class` for `field` of `kind`, as the class named it.
fn method<'v>(views: &'v [ViewClass], class: &str, field: &str, kind: &str) -> Option<&'v Method> {
    let view = views.iter().find(|v| v.name == class)?;
    (view.methods.iter()).find(|m| m.field == field && m.kind == kind)
}

impl Ctx<'_> {
    /// A scalar's number type and its enum class, if any; `None` for arrays, structs, text.
    fn scalar(&self, ty: &Type) -> Option<(Prim, Option<String>)> {
        match (ty.elem, ty.len) {
            (Elem::Prim(p), None) => Some((p, None)),
            (Elem::Enum(e), None) => Some((
                self.schema.abi.enums[e].repr,
                Some(self.names.enums[e].clone()),
            )),
            _ => None,
        }
    }

    fn ctype(&self, ty: &Type) -> String {
        render_ctype(&self.schema.abi, self.names, ty)
    }

    fn view_class(&self, si: usize) -> Option<ViewClass> {
        let name = self.views[si].clone()?;
        let (schema, s) = (self.schema, &self.schema.abi.structs[si]);
        let (l, a) = (schema.layout.of(si), &schema.access.structs[si]);
        let reserved = ["release", "SIZE", "ALIGN", "MIN_LEN"];
        let mut namer = Namer(reserved.map(String::from).into());
        let (mut types, mut methods) = (Vec::new(), Vec::new());
        for (fi, f) in s.fields.iter().enumerate() {
            let fa = &a.fields[fi];
            if f.is_padding() || fa.guarded_by.is_some() {
                continue;
            }
            let (n, fl) = (&f.name, &l.fields[fi]);
            let mut m = Method {
                field: n.clone(),
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
            let kinds: Vec<(&'static str, String)> = match (fa.kind, f.ty.elem, scalar) {
                (AccessKind::Plain, Elem::Struct(j), _) if needs_view(schema, j) => {
                    m.view = self.views[j].clone().unwrap_or_default();
                    vec![(if f.ty.len.is_some() { "views" } else { "view" }, n.clone())]
                }
                (AccessKind::Plain, _, Some(_)) => {
                    vec![("get", n.clone()), ("set", format!("set_{n}"))]
                }
                (AccessKind::Plain, _, None) => {
                    m.type_attr = format!("_type_{n}");
                    types.push((m.type_attr.clone(), self.ctype(&f.ty)));
                    vec![("copy", n.clone()), ("put", format!("set_{n}"))]
                }
                // An array claimed as one word: loaded and swapped whole, its elements
                // taken from the word.
                (_, Elem::Prim(p), None) => {
                    m.fmt = format!("<{}{}", f.ty.count(), &prim_format(p)[1..]);
                    let mut kinds = vec![("word_load", n.clone()), ("word_cas", cx)];
                    if p == Prim::U8 {
                        kinds.push(("word_cas_at", format!("compare_exchange_{n}_at")));
                    }
                    kinds
                }
                (_, _, None) => Vec::new(),
                (_, _, Some(_)) if is_counter => vec![("counter", n.clone())],
                (kind, _, Some(_)) => {
                    let mut kinds = vec![("load", n.clone()), ("store", format!("set_{n}"))];
                    if m.enum_class.is_none() {
                        kinds.push(("fetch_add", format!("fetch_add_{n}")));
                    }
                    if matches!(kind, AccessKind::Cas { .. }) {
                        kinds.extend([("cas", cx), ("swap", format!("swap_{n}"))]);
                    }
                    kinds
                }
            };
            for (kind, wanted) in kinds {
                (m.kind, m.name) = (kind, namer.name(&wanted));
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
            writers: a.writers.describe(&schema.access.parties),
            size: l.size,
            align: l.align,
            min_len: l.size + trailer_min,
            trailer: !a.trailer.is_empty(),
            types,
            methods,
            locks,
        })
    }

    /// The value class seqlock `k` reads into when it is not its struct's own: the guarded
    /// fields and trailer parts (`ParamDefs(def_count, defs)`).
    fn value_class(&self, k: usize) -> ValueClass {
        let lock = &self.schema.access.seqlocks[k];
        let s = &self.schema.abi.structs[lock.struct_index];
        let a = &self.schema.access.structs[lock.struct_index];
        let (mut types, mut slots) = (Vec::new(), Vec::new());
        let mut slot = |attr: &str, kind, source, name: &str, ty: &Type| {
            if kind == "ctype" {
                types.push((format!("_type_{attr}"), self.ctype(ty)));
            }
            let (attr, name, ty) = (attr.to_string(), name.to_string(), ty.text.clone());
            slots.push(Slot {
                attr,
                kind,
                source,
                name,
                ty,
            });
        };
        for g in value_guards(self.schema, lock) {
            match g {
                Guard::Field(fi) => {
                    let f = &s.fields[fi];
                    let kind = if self.scalar(&f.ty).is_some() {
                        "int"
                    } else {
                        "ctype"
                    };
                    slot(&attr_name(&f.name), kind, "field", &f.name, &f.ty);
                }
                Guard::Trailer(ti) => {
                    let (t, attr) = (&a.trailer[ti], attr_name(&a.trailer[ti].name));
                    if t.size_field.is_some() {
                        slot(&attr, "ctype", "sized", &t.name, &t.ty);
                        slot(&format!("{attr}_extra"), "bytes", "extra", &t.name, &t.ty);
                    } else {
                        slot(&attr, "ctype", "part", &t.name, &t.ty);
                    }
                }
            }
        }
        ValueClass {
            name: self.values[k].clone(),
            lock: lock.name.clone(),
            doc: doc_lines(&lock.doc),
            types,
            slots,
        }
    }

    fn lock_methods(&self, k: usize, namer: &mut Namer) -> LockMethods {
        let (schema, lock) = (self.schema, &self.schema.access.seqlocks[k]);
        let si = lock.struct_index;
        let (s, l, a) = (
            &schema.abi.structs[si],
            schema.layout.of(si),
            &schema.access.structs[si],
        );
        let whole = lock.guards_whole_struct(&schema.access.structs);
        let size_fields = live_plan::size_fields(schema, lock);
        let mut steps = Vec::new();
        for g in value_guards(schema, lock) {
            let mut step = Step {
                kind: "copy",
                ..Step::default()
            };
            match g {
                _ if whole => continue,
                Guard::Field(fi) => {
                    let f: &Field = &s.fields[fi];
                    (step.attr, step.offset) = (attr_name(&f.name), l.fields[fi].offset);
                    step.is_size = size_fields.contains(&fi);
                    if let Some((p, enum_class)) = self.scalar(&f.ty) {
                        (step.kind, step.fmt, step.enum_class) =
                            ("scalar", prim_format(p), enum_class);
                    }
                }
                Guard::Trailer(ti) => {
                    let t = &a.trailer[ti];
                    (step.attr, step.offset) = (attr_name(&t.name), t.offset);
                    if let Some(sf) = t.size_field {
                        (step.kind, step.fixed) = ("sized", t.size);
                        step.extra = format!("{}_extra", step.attr);
                        step.size_offset = l.fields[sf].offset;
                        if let Elem::Prim(p) = s.fields[sf].ty.elem {
                            step.size_fmt = prim_format(p);
                        }
                        step.size_attr = (lock.guards.contains(&Guard::Field(sf)))
                            .then(|| attr_name(&s.fields[sf].name));
                    }
                }
            }
            steps.push(step);
        }
        LockMethods {
            lock: lock.name.clone(),
            read: namer.name(&format!("read_{}", lock.name)),
            read_counted: namer.name(&format!("read_{}_counted", lock.name)),
            write: namer.name(&format!("write_{}", lock.name)),
            doc: doc_lines(&lock.doc),
            writers: lock.writers.describe(&schema.access.parties),
            readers: lock.readers.describe(&schema.access.parties),
            counter: l.fields[lock.counter].offset,
            width: lock.counter_width,
            value: self.values[k].clone(),
            whole,
            size: l.size,
            runs: guarded_runs(schema, lock),
            steps,
        }
    }

    fn ring_class(&self, ring: &Ring, name: String, views: &[ViewClass]) -> Option<RingClass> {
        let RingKind::Slots {
            head,
            slot_count,
            slot_size,
            seqlock,
            ..
        } = ring.kind
        else {
            return None;
        };
        let lock = &self.schema.access.seqlocks[seqlock];
        let header_view = self.views[head.struct_index].clone()?;
        let head_field = &self.schema.abi.structs[head.struct_index].fields[head.field];
        // The head's getter and setter, as the view named them.
        let get = method(views, &header_view, &head_field.name, "load")?
            .name
            .clone();
        let set = method(views, &header_view, &head_field.name, "store")?
            .name
            .clone();
        let head_size = self.schema.layout.of(head.struct_index).fields[head.field].size;
        Some(RingClass {
            name,
            ring: ring.name.clone(),
            doc: doc_lines(&ring.doc),
            slot_count,
            slot_size,
            align: self.schema.layout.of(lock.struct_index).align,
            header_view,
            head_field: head_field.name.clone(),
            head_get: get,
            head_set: set,
            head_mask: format!("0x{}", "f".repeat(2 * head_size as usize)),
            slot_view: self.views[lock.struct_index].clone()?,
            lock: lock.name.clone(),
            value: self.values[seqlock].clone(),
        })
    }

    fn events_function(&self, ring: &Ring, name: String) -> EventsFunction {
        let RingKind::Events {
            total,
            entries,
            capacity,
        } = ring.kind
        else {
            unreachable!("called for event rings only");
        };
        let s = &self.schema.abi.structs[total.struct_index];
        EventsFunction {
            method: !s.fields.iter().any(|f| f.name == name),
            name,
            ring: ring.name.clone(),
            holder: self.names.structs[total.struct_index].clone(),
            total: s.fields[total.field].name.clone(),
            entries: s.fields[entries.field].name.clone(),
            capacity,
            doc: doc_lines(&ring.doc),
        }
    }

    fn example(&self, ring: &RingClass, views: &[ViewClass]) -> Option<Example> {
        let (abi, module) = (&self.schema.abi, &self.schema.abi.name);
        let hi = self
            .views
            .iter()
            .position(|v| v.as_ref() == Some(&ring.header_view))?;
        let claim = abi.structs[hi].fields.iter().find_map(|f| {
            let (Elem::Struct(j), Some(len)) = (f.ty.elem, f.ty.len) else {
                return None;
            };
            let rows = method(views, &ring.header_view, &f.name, "views")?;
            let row_view = self.views[j].as_ref()?;
            let cas = (views.iter().find(|v| &v.name == row_view)?.methods.iter())
                .find(|m| m.kind == "cas" && m.enum_class.is_some())?;
            let set = method(views, row_view, &cas.field, "store")?;
            let e = self
                .names
                .enums
                .iter()
                .position(|n| Some(n) == cas.enum_class.as_ref())?;
            let member = |i: usize| abi.enums[e].values.get(i).map(|v| upper(&v.name));
            let count = match len.constant {
                Some(c) => format!("{module}.{}", upper(&abi.consts[c].name)),
                None => len.count.to_string(),
            };
            Some(Claim {
                rows: rows.name.clone(),
                count,
                cas: cas.name.clone(),
                set: set.name.clone(),
                enum_class: self.names.enums[e].clone(),
                from: member(0)?,
                to: member(1)?,
                active: member(2).unwrap_or_default(),
            })
        });
        Some(Example {
            module: module.clone(),
            header_view: ring.header_view.clone(),
            ring: ring.name.clone(),
            claim,
        })
    }
}
