//! Seqlocks: the value class a seqlock reads into when it is not its struct's own, and the
//! read and write methods on the view of the counter's struct, with the steps of their copy.

use serde::Serialize;

use super::context::{Ctx, prim_format};
use crate::ir::access::Guard;
use crate::ir::{Elem, Field, Type};
use crate::language_backend::python::literals::doc_lines;
use crate::language_backend::python::names::{Namer, python_field_alias};
use crate::plan::bound;
use crate::plan::live::{self as live_plan, guarded_runs, value_guards};
use crate::plan::tries::{DEFAULT_TRIES, HOST_TRIES, host_reads_client};

/// `read_<lock>`, `read_<lock>_counted` and `write_<lock>` on the view of the counter's struct.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct LockMethods {
    lock: String,
    pub(in crate::language_backend::python) read: String,
    pub(in crate::language_backend::python) read_counted: String,
    pub(in crate::language_backend::python) write: String,
    /// The client's write bound to its session's claim (`plan::bound`), `write_<lock>`, when
    /// the lock is bound: `write` is then `write_<lock>_unscoped`.
    pub(in crate::language_backend::python) bound_write: Option<String>,
    doc: Vec<String>,
    writers: String,
    readers: String,
    /// What a read without tries tries: `_default_tries`, or the module's `HOST_TRIES` for a
    /// host's read of its client's record (`plan::tries`), and how many that is.
    tries: String,
    tries_count: u32,
    counter: u64,
    width: u64,
    pub(in crate::language_backend::python) value: String,
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
pub(in crate::language_backend::python) struct ValueClass {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) lock: String,
    doc: Vec<String>,
    types: Vec<(String, String)>,
    pub(in crate::language_backend::python) slots: Vec<Slot>,
}

/// An attribute of a value class. `kind`: `int`, `ctype` or `bytes`; `source`: `field`,
/// `part`, `sized` (a part whose length varies) or `extra` (the bytes past it).
#[derive(Serialize)]
pub(in crate::language_backend::python) struct Slot {
    pub(in crate::language_backend::python) attr: String,
    pub(in crate::language_backend::python) kind: &'static str,
    pub(in crate::language_backend::python) source: &'static str,
    pub(in crate::language_backend::python) name: String,
    ty: String,
}

/// The attribute a value class gives a field or trailer part: its name, or its keyword
/// alias (`class_`).
fn attr_name(name: &str) -> String {
    python_field_alias(name).unwrap_or_else(|| name.to_string())
}

impl Ctx<'_> {
    /// The value class seqlock `k` reads into when it is not its struct's own: the guarded
    /// fields and trailer parts (`ParamDefs(def_count, defs)`).
    pub(super) fn value_class(&self, k: usize) -> ValueClass {
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

    pub(super) fn lock_methods(&self, k: usize, namer: &mut Namer) -> LockMethods {
        let (schema, lock) = (self.schema, &self.schema.access.seqlocks[k]);
        let si = lock.struct_index;
        let (s, l, a) = (
            &schema.abi.structs[si],
            schema.layout.of(si),
            &schema.access.structs[si],
        );
        let whole = lock.guards_whole_struct(&schema.access.structs);
        let bound = bound::seqlock_binding(schema, k).is_some();
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
            write: namer.name(&match bound {
                true => format!("write_{}_{}", lock.name, bound::UNSCOPED),
                false => format!("write_{}", lock.name),
            }),
            bound_write: bound.then(|| namer.name(&format!("write_{}", lock.name))),
            doc: doc_lines(&lock.doc),
            writers: lock.writers.describe(&schema.access.parties),
            readers: lock.readers.describe(&schema.access.parties),
            tries: match host_reads_client(schema, lock) {
                true => self.host_tries.clone(),
                false => "_default_tries".into(),
            },
            tries_count: match host_reads_client(schema, lock) {
                true => HOST_TRIES,
                false => DEFAULT_TRIES,
            },
            counter: l.fields[lock.counter].offset,
            width: lock.counter_width,
            value: self.values[k].clone(),
            whole,
            size: l.size,
            runs: guarded_runs(schema, lock),
            steps,
        }
    }
}
