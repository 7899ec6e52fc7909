//! The stub's live section: the atomics layer's helpers and exceptions, a class per view
//! with a signature per method, the seqlocks' value classes with their attributes, the
//! rings, and the event-ring functions. It reads the context `live/` rendered the
//! module's section from (every name as the module has it, renamed ones included) and takes
//! each field's type from the schema.

use std::fmt::Write as _;

use super::types::{StructExtras, copy_type, elem_type, put_type, shield_builtins};
use crate::ir::{Elem, Prim, StructId, Type};
use crate::language_backend::output::RenderError;
use crate::language_backend::python::live::LiveSection;
use crate::language_backend::python::names::Names;
use crate::schema::Schema;

/// The stub's side of the live section: the context `live/` rendered the module's section
/// from, whose names the stub types.
pub(super) use crate::language_backend::python::live::LiveContext as LiveStub;
use crate::language_backend::python::live::{EventsFunction, Method, MethodKind, Slot, ValueClass};

/// The helpers every live section has, as `python_atomics.py.j2` names them; `{unavailable}` and
/// `{contended}` and `{cas}` are the exceptions' names.
const HELPERS: &str = r#"
class {unavailable}(RuntimeError): ...
class {contended}(RuntimeError): ...
class {cas}(RuntimeError):
    generation: int | None
    freed: tuple[int, ...]
    contended: tuple[int, ...]

_AtomicsBackend: TypeAlias = Literal["atomics", "libatomic"]

def atomic_load(buf: _Buffer, offset: int, width: int) -> int: ...
def atomic_store(buf: _Buffer, offset: int, width: int, value: int) -> None: ...
def atomic_compare_exchange(
    buf: _Buffer, offset: int, width: int, current: int, new: int
) -> tuple[bool, int]: ...
def atomic_exchange(buf: _Buffer, offset: int, width: int, value: int) -> int: ...
def atomic_fetch_add(buf: _Buffer, offset: int, width: int, value: int) -> int: ...
def atomics_backend() -> _AtomicsBackend | None: ...
def set_atomics_backend(
    name: Literal["auto", "atomics", "libatomic"] | None = "auto",
) -> _AtomicsBackend | None: ...

class _LiveView:
    SIZE: ClassVar[int]
    ALIGN: ClassVar[int]
    MIN_LEN: ClassVar[int]
    def __init__(self, buf: _Buffer, offset: int = 0, length: int | None = None) -> None: ...
    def release(self) -> None: ...
    def __enter__(self: _Self) -> _Self: ...
    def __exit__(self, *exc_info: object) -> None: ...

class _LiveValue: ...
"#;

impl LiveStub {
    /// The live section's context, once every field a signature needs is found.
    pub(super) fn new(
        schema: &Schema,
        names: &Names,
        live: LiveSection,
    ) -> Result<LiveStub, RenderError> {
        let stub = live.context;
        for v in &stub.values {
            for s in &v.slots {
                slot_type(schema, names, v, s)?;
            }
        }
        Ok(stub)
    }

    /// `Holder.<ring>_since`, the method an event ring's function is on its holder too.
    pub(super) fn struct_extras(
        &self,
        schema: &Schema,
        names: &Names,
        extras: &mut StructExtras,
    ) -> Result<(), RenderError> {
        for e in self.events.iter().filter(|e| e.method) {
            let result = events_result(schema, names, e)?;
            // The function itself, so its first parameter is the record, not `self`.
            let line = format!("    def {}(record, count: int) -> {result}: ...", e.name);
            extras.entry(e.holder.clone()).or_default().push(line);
        }
        for e in self.events.iter().filter(|e| e.push_method) {
            let entry = entry_type(schema, names, e)?;
            let line = format!("    def {}(record, entry: {entry}) -> int: ...", e.push);
            extras.entry(e.holder.clone()).or_default().push(line);
        }
        Ok(())
    }

    pub(super) fn write(
        &self,
        out: &mut String,
        schema: &Schema,
        names: &Names,
    ) -> Result<(), RenderError> {
        let _ = writeln!(
            out,
            "{}: Final = {}",
            self.host_tries, self.host_tries_count
        );
        out.push_str(
            &HELPERS
                .replace("{unavailable}", &self.unavailable_error)
                .replace("{contended}", &self.contended_error)
                .replace("{cas}", &self.cas_error),
        );
        for v in &self.values {
            let mut class = format!("\nclass {}(_LiveValue):\n", v.name);
            let mut params = String::new();
            for s in &v.slots {
                let ty = slot_type(schema, names, v, s)?;
                let _ = writeln!(class, "    {}: {ty}", s.attr);
                let ty = if s.kind == "ctype" {
                    format!("{ty} | None")
                } else {
                    ty
                };
                let _ = write!(params, ", {}: {ty} = ...", s.attr);
            }
            let _ = writeln!(class, "    def __init__(self{params}) -> None: ...");
            out.push_str(&shield_builtins(&class));
        }
        for view in &self.views {
            let mut class = format!("\nclass {}(_LiveView):\n", view.name);
            for m in &view.methods {
                let ty = &schema.abi.structs[view.struct_index].fields[m.field_index].ty;
                let signature = signature(names, m, ty);
                let _ = writeln!(class, "    def {}{signature}: ...", m.name);
            }
            for l in &view.locks {
                let v = &l.value;
                let _ = writeln!(
                    class,
                    "    def {}(self) -> {v}: ...\n    def {}(self, max_tries: int) -> tuple[{v}, int]: ...\n    def {}(self, value: {v}) -> None: ...",
                    l.read, l.read_counted, l.write
                );
                if let Some(bound) = &l.bound_write {
                    let _ = writeln!(
                        class,
                        "    def {bound}(self, session: object, value: {v}) -> None: ..."
                    );
                }
            }
            if view.methods.is_empty() && view.locks.is_empty() {
                class.push_str("    pass\n");
            }
            out.push_str(&shield_builtins(&class));
        }
        // A ring's methods are the template's, none named after a builtin.
        for r in &self.rings {
            let v = &r.value;
            let _ = writeln!(
                out,
                "\nclass {}:\n    SLOT_COUNT: ClassVar[int]\n    SLOT_SIZE: ClassVar[int]\n    \
                 def __init__(self, header: {}, buf: _Buffer, offset: int = 0, slot_count: int = ..., \
                 slot_size: int = ...) -> None: ...\n    @property\n    def slot_count(self) -> int: ...\n    \
                 @property\n    def slot_size(self) -> int: ...\n    \
                 def release(self) -> None: ...\n    def head(self) -> int: ...\n    \
                 def slot(self, index: int) -> {}: ...\n    def read_newest(self) -> {v} | None: ...\n    \
                 def read_newest_counted(self, max_tries: int) -> tuple[{v}, int] | None: ...\n    \
                 def publish(self, value: {v}) -> int: ...",
                r.name, r.header_view, r.slot_view
            );
        }
        if !self.events.is_empty() {
            out.push('\n');
        }
        for e in &self.events {
            let result = events_result(schema, names, e)?;
            let _ = writeln!(
                out,
                "def {}(record: {}, count: int) -> {result}: ...",
                e.name, e.holder
            );
            let entry = entry_type(schema, names, e)?;
            let _ = writeln!(
                out,
                "def {}(record: {}, entry: {entry}) -> int: ...",
                e.push, e.holder
            );
        }
        Ok(())
    }
}

/// The signature of a view method after its name: `(self, value: int) -> None`.
fn signature(names: &Names, m: &Method, ty: &Type) -> String {
    // A number as it reads (an enum field as its class) and as a store takes it.
    let number = elem_type(names, ty);
    let (read, take) = match &m.enum_class {
        Some(e) => (e.clone(), format!("{e} | int")),
        None => (number.clone(), number.clone()),
    };
    // An array claimed as one word reads as a tuple of its elements.
    let word = format!(
        "tuple[{}]",
        vec![number.as_str(); m.count as usize].join(", ")
    );
    // A field a later minor version added reads as None from an older producer's record.
    let maybe = if m.absent_past > 0 { " | None" } else { "" };
    use MethodKind::*;
    match m.kind {
        Load | LaneLoad | Counter | Get => format!("(self) -> {read}{maybe}"),
        Store | Set => format!("(self, value: {take}) -> None"),
        FetchAdd => "(self, value: int) -> int".to_string(),
        Cas => format!("(self, current: {take}, new: {take}) -> tuple[bool, {read}]"),
        Swap => format!("(self, value: {take}) -> {read}"),
        WordLoad => format!("(self) -> {word}{maybe}"),
        WordCas => format!(
            "(self, current: Iterable[{number}], new: Iterable[{number}]) -> tuple[bool, {word}]"
        ),
        WordCasAt => "(self, index: int, current: int, new: int) -> tuple[bool, int]".into(),
        Copy => format!("(self) -> {}{maybe}", copy_type(names, ty)),
        Text => format!("(self) -> str{maybe}"),
        Put => format!("(self, value: {}) -> None", put_type(names, ty)),
        View => format!("(self) -> {}{maybe}", m.view),
        Views => format!("(self, index: int) -> {}{maybe}", m.view),
    }
}

/// The type of field `field` of the struct whose class is `class`.
fn field_of<'s>(
    schema: &'s Schema,
    names: &Names,
    class: &str,
    field: &str,
) -> Result<&'s Type, RenderError> {
    let si = StructId::enumerate(&names.structs)
        .find(|(_, n)| *n == class)
        .map(|(i, _)| i);
    si.and_then(|si| {
        schema.abi.structs[si]
            .fields
            .iter()
            .find(|f| f.name == field)
    })
    .map(|f| &f.ty)
    .ok_or_else(|| RenderError(format!("the stub finds no field {field} in class {class}")))
}

/// The type of a value class's attribute: a number (an enum's is an `int`, as in a struct),
/// the ctypes value of a field or trailer part, or `bytes`.
fn slot_type(
    schema: &Schema,
    names: &Names,
    v: &ValueClass,
    s: &Slot,
) -> Result<String, RenderError> {
    let missing = || {
        RenderError(format!(
            "the stub finds no {} of seqlock {}",
            s.name, v.lock
        ))
    };
    let lock = (schema.access.seqlocks.iter())
        .find(|l| l.name == v.lock)
        .ok_or_else(missing)?;
    let si = lock.struct_index;
    let ty = match s.source {
        "extra" => return Ok("bytes".to_string()),
        "field" => (schema.abi.structs[si].fields.iter())
            .find(|f| f.name == s.name)
            .map(|f| &f.ty),
        _ => (schema.access.structs[si].trailer.iter())
            .find(|t| t.name == s.name)
            .map(|t| &t.ty),
    };
    let ty = ty.ok_or_else(missing)?;
    Ok(match (s.kind, ty.elem) {
        ("int", Elem::Prim(Prim::F32 | Prim::F64)) => "float".to_string(),
        ("int", _) => "int".to_string(),
        _ => copy_type(names, ty),
    })
}

/// What an event ring's function returns: `([(number, entry), ...], lost)`.
/// The type of an event ring's entry, as the stub names it.
fn entry_type(schema: &Schema, names: &Names, e: &EventsFunction) -> Result<String, RenderError> {
    let ty = field_of(schema, names, &e.holder, &e.entries)?;
    Ok(elem_type(names, ty).to_string())
}

fn events_result(
    schema: &Schema,
    names: &Names,
    e: &EventsFunction,
) -> Result<String, RenderError> {
    let ty = field_of(schema, names, &e.holder, &e.entries)?;
    Ok(format!(
        "tuple[list[tuple[int, {}]], int]",
        elem_type(names, ty)
    ))
}
