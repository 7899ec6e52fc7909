//! `codegen inspect`: decodes bytes (a shared-memory dump, a recording, a test blob) through
//! the schema's layout into a tree of typed values, flags every suspicious value, and renders
//! the tree as one line per leaf (`--dump`) or as JSON.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::Schema;
use crate::ir::{Abi, Elem, EnumKind, Prim, Type};

/// How bad an issue is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error,
    Warn,
    Info,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
        }
    }
}

/// Something worth flagging at a byte offset of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub level: Level,
    pub offset: u64,
    pub path: String,
    pub message: String,
}

/// A decoded value with its absolute offset in the input.
#[derive(Debug, Clone)]
pub struct Node {
    pub offset: u64,
    pub kind: NodeKind,
}

#[derive(Debug, Clone)]
pub enum NodeKind {
    Int(Prim, i128),
    /// An integer field that should hold a constant (index into `Abi::consts`).
    Expected(Prim, i128, usize),
    Float(Prim, f64),
    Enum(usize, i128),
    Flags(usize, i128),
    Text(Vec<u8>),
    /// Declared padding; only its bytes are kept, to flag non-zero ones.
    Padding(Vec<u8>),
    Struct(usize, Vec<(String, Node)>),
    /// The elements in use: all of them, or as many as the array's count field says.
    Array {
        elem_type: String,
        elems: Vec<Node>,
        capacity: u64,
        /// The count field that bounds the array, when the schema names one.
        counter: Option<String>,
    },
}

/// The result of decoding `count` records of one struct from an input.
#[derive(Debug, Clone)]
pub struct Inspection {
    pub type_name: String,
    pub offset: u64,
    pub size: u64,
    pub count: u64,
    pub issues: Vec<Issue>,
    pub records: Vec<Node>,
}

impl Inspection {
    pub fn has(&self, level: Level) -> bool {
        self.issues.iter().any(|i| i.level == level)
    }

    /// 0 clean (info only), 1 when errors are present; with `strict`, 2 for any error or
    /// warning.
    pub fn exit_code(&self, strict: bool) -> u8 {
        if strict && (self.has(Level::Error) || self.has(Level::Warn)) {
            2
        } else if self.has(Level::Error) {
            1
        } else {
            0
        }
    }
}

/// Decodes `count` consecutive records of struct `type_name` from `bytes`, starting at
/// `offset`. Returns `Err` only for a type the schema does not have.
pub fn inspect(
    schema: &Schema,
    type_name: &str,
    bytes: &[u8],
    offset: u64,
    count: u64,
) -> Result<Inspection, String> {
    let abi = &schema.abi;
    let index = abi
        .structs
        .iter()
        .position(|s| s.name == type_name)
        .ok_or_else(|| format!("no struct named `{type_name}` in the schema"))?;
    let size = schema.layout.of(index).size;
    let mut cx = Decoder {
        schema,
        bytes,
        issues: Vec::new(),
    };
    let mut records = Vec::new();
    let len = bytes.len() as u64;
    let needed = size.checked_mul(count).and_then(|n| n.checked_add(offset));
    if offset > len {
        cx.issue(
            Level::Error,
            offset,
            "",
            format!("offset {offset:#x} lies past the end of the input ({len} bytes)"),
        );
    } else if needed.is_none_or(|n| n > len) {
        let have = len - offset;
        cx.issue(
            Level::Error,
            offset,
            "",
            format!(
                "the input is too short: {count} × {type_name} ({size} bytes each) from offset {offset:#x} need {} bytes, {have} are there",
                size.saturating_mul(count)
            ),
        );
    } else {
        for i in 0..count {
            let path = if count == 1 {
                String::new()
            } else {
                format!("[{i}]")
            };
            records.push(cx.decode_struct(index, offset + i * size, &path));
        }
        let end = offset + size * count;
        if end < len {
            cx.issue(
                Level::Info,
                end,
                "",
                format!("{} more bytes follow the last record", len - end),
            );
        }
    }
    Ok(Inspection {
        type_name: type_name.to_string(),
        offset,
        size,
        count,
        issues: cx.issues,
        records,
    })
}

struct Decoder<'a> {
    schema: &'a Schema,
    bytes: &'a [u8],
    issues: Vec<Issue>,
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

impl Decoder<'_> {
    fn issue(&mut self, level: Level, offset: u64, path: &str, message: String) {
        self.issues.push(Issue {
            level,
            offset,
            path: path.to_string(),
            message,
        });
    }

    fn raw(&self, offset: u64, size: u64) -> &[u8] {
        &self.bytes[offset as usize..(offset + size) as usize]
    }

    fn read_int(&self, prim: Prim, offset: u64) -> i128 {
        let mut buf = [0u8; 8];
        let n = prim.size() as usize;
        buf[..n].copy_from_slice(self.raw(offset, prim.size()));
        let unsigned = u64::from_le_bytes(buf);
        if prim.is_signed() {
            let shift = 64 - 8 * n as u32;
            i128::from(((unsigned << shift) as i64) >> shift)
        } else {
            i128::from(unsigned)
        }
    }

    fn decode_struct(&mut self, index: usize, base: u64, path: &str) -> Node {
        let abi = &self.schema.abi;
        let s = &abi.structs[index];
        let layout = self.schema.layout.of(index);
        // Count fields bound their arrays (and may come after them), so read them first:
        // entries past the count are not decoded, nor checked.
        let mut limits: Vec<Option<u64>> = vec![None; s.fields.len()];
        for (fi, f) in s.fields.iter().enumerate() {
            let Some(c) = &f.count else { continue };
            let (count_offset, prim) = self.path_offset(index, &c.path, base);
            let used = self.read_int(prim, count_offset);
            let capacity = f.ty.count();
            if used < 0 || used > i128::from(capacity) {
                self.issue(
                    Level::Warn,
                    count_offset,
                    &join(path, &c.text),
                    format!(
                        "counts {used} entries of `{}`, which holds {capacity}",
                        f.name
                    ),
                );
            }
            limits[fi] = Some(used.clamp(0, i128::from(capacity)) as u64);
        }
        let mut fields = Vec::with_capacity(s.fields.len());
        for ((f, fl), limit) in s.fields.iter().zip(&layout.fields).zip(limits) {
            let offset = base + fl.offset;
            let fpath = join(path, &f.name);
            let node = if f.is_padding() {
                let bytes = self.raw(offset, fl.size).to_vec();
                if bytes.iter().any(|b| *b != 0) {
                    self.issue(
                        Level::Warn,
                        offset,
                        &fpath,
                        format!(
                            "declared padding holds non-zero bytes: {}",
                            hex_bytes(&bytes)
                        ),
                    );
                }
                Node {
                    offset,
                    kind: NodeKind::Padding(bytes),
                }
            } else {
                let counter = f.count.as_ref().map(|c| c.text.clone());
                self.decode_field(&f.ty, offset, fl.elem_size, &fpath, limit, counter)
            };
            let node = match (f.expect, node.kind) {
                (Some(i), NodeKind::Int(p, v)) => {
                    let c = &abi.consts[i];
                    if v != c.value {
                        let shown = show_like(v, &c.literal);
                        let message = format!("holds {shown}, expected {} ({})", c.name, c.literal);
                        self.issue(Level::Warn, offset, &fpath, message);
                    }
                    Node {
                        offset,
                        kind: NodeKind::Expected(p, v, i),
                    }
                }
                (_, kind) => Node { offset, kind },
            };
            fields.push((f.name.clone(), node));
        }
        Node {
            offset: base,
            kind: NodeKind::Struct(index, fields),
        }
    }

    /// The absolute offset and type of the integer field at `path` from struct `index`.
    fn path_offset(&self, mut index: usize, path: &[usize], base: u64) -> (u64, Prim) {
        let abi = &self.schema.abi;
        let mut offset = base;
        for &fi in path {
            offset += self.schema.layout.of(index).fields[fi].offset;
            match abi.structs[index].fields[fi].ty.elem {
                Elem::Struct(j) => index = j,
                Elem::Prim(p) => return (offset, p),
                _ => break,
            }
        }
        unreachable!("lowering checked that count paths end at an integer field")
    }

    fn decode_field(
        &mut self,
        ty: &Type,
        offset: u64,
        elem_size: u64,
        path: &str,
        limit: Option<u64>,
        counter: Option<String>,
    ) -> Node {
        if ty.elem == Elem::Char {
            let bytes = self.raw(offset, elem_size * ty.count()).to_vec();
            match bytes.iter().position(|b| *b == 0) {
                None => self.issue(
                    Level::Warn,
                    offset,
                    path,
                    format!("text has no NUL terminator in its {} bytes", bytes.len()),
                ),
                Some(end) if bytes[end..].iter().any(|b| *b != 0) => self.issue(
                    Level::Info,
                    offset,
                    path,
                    "bytes after the terminating NUL are not zero".into(),
                ),
                Some(_) => {}
            }
            return Node {
                offset,
                kind: NodeKind::Text(bytes),
            };
        }
        match ty.len {
            None => self.decode_elem(ty.elem, offset, path),
            Some(len) => {
                let elems = (0..limit.unwrap_or(len.count))
                    .map(|i| {
                        self.decode_elem(ty.elem, offset + i * elem_size, &format!("{path}[{i}]"))
                    })
                    .collect();
                let elem_type = elem_type_name(&self.schema.abi, ty.elem);
                Node {
                    offset,
                    kind: NodeKind::Array {
                        elem_type,
                        elems,
                        capacity: len.count,
                        counter,
                    },
                }
            }
        }
    }

    fn decode_elem(&mut self, elem: Elem, offset: u64, path: &str) -> Node {
        let abi = &self.schema.abi;
        let kind = match elem {
            Elem::Prim(p @ (Prim::F32 | Prim::F64)) => {
                let v = if p == Prim::F32 {
                    f64::from(f32::from_le_bytes(
                        self.raw(offset, 4).try_into().expect("4 bytes"),
                    ))
                } else {
                    f64::from_le_bytes(self.raw(offset, 8).try_into().expect("8 bytes"))
                };
                NodeKind::Float(p, v)
            }
            Elem::Prim(p) => NodeKind::Int(p, self.read_int(p, offset)),
            Elem::Char => NodeKind::Int(Prim::U8, self.read_int(Prim::U8, offset)),
            Elem::Enum(i) => {
                let e = &abi.enums[i];
                let v = self.read_int(e.repr, offset);
                match e.kind {
                    EnumKind::Enum if !e.values.iter().any(|x| x.value == v) => {
                        self.issue(
                            Level::Warn,
                            offset,
                            path,
                            format!("{v} is not a declared {} value", e.name),
                        );
                    }
                    EnumKind::Flags if v & !e.all_bits() != 0 => {
                        self.issue(
                            Level::Warn,
                            offset,
                            path,
                            format!("undeclared {} bits {:#x}", e.name, v & !e.all_bits()),
                        );
                    }
                    _ => {}
                }
                match e.kind {
                    EnumKind::Enum => NodeKind::Enum(i, v),
                    EnumKind::Flags => NodeKind::Flags(i, v),
                }
            }
            Elem::Struct(i) => return self.decode_struct(i, offset, path),
        };
        Node { offset, kind }
    }
}

fn elem_type_name(abi: &Abi, elem: Elem) -> String {
    match elem {
        Elem::Prim(p) => p.name().to_string(),
        Elem::Char => "char".into(),
        Elem::Enum(i) => abi.enums[i].name.clone(),
        Elem::Struct(i) => abi.structs[i].name.clone(),
    }
}

fn hex_bytes(bytes: &[u8]) -> String {
    let shown: Vec<String> = bytes.iter().take(16).map(|b| format!("{b:02x}")).collect();
    let more = if bytes.len() > 16 { " …" } else { "" };
    format!("{}{more}", shown.join(" "))
}

/// A number in the radix of the literal it is compared with.
fn show_like(v: i128, literal: &str) -> String {
    if literal.starts_with("0x") && v >= 0 {
        format!("{v:#x}")
    } else {
        v.to_string()
    }
}

fn is_zero(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Int(_, v)
        | NodeKind::Expected(_, v, _)
        | NodeKind::Enum(_, v)
        | NodeKind::Flags(_, v) => *v == 0,
        NodeKind::Float(_, v) => v.to_bits() == 0,
        NodeKind::Text(b) | NodeKind::Padding(b) => b.iter().all(|b| *b == 0),
        NodeKind::Struct(_, fields) => fields.iter().all(|(_, n)| is_zero(n)),
        NodeKind::Array { elems, .. } => elems.iter().all(is_zero),
    }
}

/// A leaf value as `--dump` shows it: `playing (6)`, `valid|in_match`, `"bot-7"`.
fn leaf_text(abi: &Abi, kind: &NodeKind) -> String {
    match kind {
        NodeKind::Int(_, v) => v.to_string(),
        NodeKind::Expected(_, v, i) => {
            let c = &abi.consts[*i];
            let shown = show_like(*v, &c.literal);
            if *v == c.value {
                format!("{shown} ({})", c.name)
            } else {
                format!("{shown} (expected {})", c.name)
            }
        }
        NodeKind::Float(Prim::F32, v) => format!("{}", *v as f32),
        NodeKind::Float(_, v) => format!("{v}"),
        NodeKind::Enum(i, v) => match abi.enums[*i].values.iter().find(|x| x.value == *v) {
            Some(x) => format!("{} ({v})", x.name),
            None => format!("{v} (undeclared)"),
        },
        NodeKind::Flags(i, v) => {
            let e = &abi.enums[*i];
            let mut parts: Vec<String> = e
                .values
                .iter()
                .filter(|x| v & x.value != 0)
                .map(|x| x.name.clone())
                .collect();
            let unknown = v & !e.all_bits();
            if unknown != 0 {
                parts.push(format!("{unknown:#x}"));
            }
            if parts.is_empty() {
                "0".into()
            } else {
                parts.join("|")
            }
        }
        NodeKind::Text(bytes) => {
            let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
            format!("{:?}", String::from_utf8_lossy(&bytes[..end]))
        }
        NodeKind::Padding(bytes) => format!("padding {}", hex_bytes(bytes)),
        NodeKind::Struct(..) | NodeKind::Array { .. } => String::new(),
    }
}

fn leaf_type(abi: &Abi, kind: &NodeKind) -> String {
    match kind {
        NodeKind::Int(p, _) | NodeKind::Expected(p, _, _) | NodeKind::Float(p, _) => {
            p.name().to_string()
        }
        NodeKind::Enum(i, _) | NodeKind::Flags(i, _) => abi.enums[*i].name.clone(),
        NodeKind::Text(b) => format!("char[{}]", b.len()),
        NodeKind::Padding(b) => format!("u8[{}]", b.len()),
        NodeKind::Struct(i, _) => abi.structs[*i].name.clone(),
        NodeKind::Array {
            elem_type,
            capacity,
            ..
        } => format!("{elem_type}[{capacity}]"),
    }
}

/// One line per leaf: `@0x0030 game.menu_id i32 5`. Runs of all-zero array elements fold
/// into one line; entries past an array's count field are summarised.
pub fn render_dump(schema: &Schema, inspection: &Inspection) -> String {
    let abi = &schema.abi;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {} × {} ({} bytes) at {:#06X}",
        inspection.count, inspection.type_name, inspection.size, inspection.offset
    );
    const MAX_LISTED: usize = 50;
    for issue in inspection.issues.iter().take(MAX_LISTED) {
        let at = if issue.path.is_empty() {
            String::new()
        } else {
            format!(" {}", issue.path)
        };
        let _ = writeln!(
            out,
            "# {}: @{:#06X}{at}: {}",
            issue.level.name(),
            issue.offset,
            issue.message
        );
    }
    if inspection.issues.len() > MAX_LISTED {
        let _ = writeln!(
            out,
            "# … and {} more issues (--json lists them all)",
            inspection.issues.len() - MAX_LISTED
        );
    }
    for (i, record) in inspection.records.iter().enumerate() {
        let path = if inspection.count == 1 {
            String::new()
        } else {
            format!("[{i}]")
        };
        dump_node(abi, record, &path, &mut out);
    }
    out
}

fn dump_node(abi: &Abi, node: &Node, path: &str, out: &mut String) {
    match &node.kind {
        NodeKind::Struct(_, fields) => {
            for (name, child) in fields {
                if matches!(child.kind, NodeKind::Padding(_)) && is_zero(child) {
                    continue;
                }
                dump_node(abi, child, &join(path, name), out);
            }
        }
        NodeKind::Array {
            elem_type,
            elems,
            capacity,
            counter,
        } => {
            let leafy = !matches!(elems.first().map(|e| &e.kind), Some(NodeKind::Struct(..)));
            if leafy && !elems.is_empty() {
                dump_leaf_array(abi, node.offset, elem_type, elems, path, out);
            } else {
                dump_struct_array(abi, elem_type, elems, path, out);
            }
            if let Some(counter) = counter {
                let n = elems.len() as u64;
                if n < *capacity {
                    let _ = writeln!(
                        out,
                        "#        {path}[{n}..{capacity}] not in use ({counter} = {n})"
                    );
                }
            }
        }
        kind => {
            let _ = writeln!(
                out,
                "@{:#06X} {path} {} {}",
                node.offset,
                leaf_type(abi, kind),
                leaf_text(abi, kind)
            );
        }
    }
}

/// Struct elements one by one, with runs of two or more all-zero elements folded.
fn dump_struct_array(abi: &Abi, elem_type: &str, elems: &[Node], path: &str, out: &mut String) {
    let mut i = 0;
    while i < elems.len() {
        let run = elems[i..].iter().take_while(|e| is_zero(e)).count();
        if run >= 2 {
            let _ = writeln!(
                out,
                "@{:#06X} {path}[{i}..{}] {elem_type} ×{run} all zero",
                elems[i].offset,
                i + run
            );
            i += run;
        } else {
            dump_node(abi, &elems[i], &format!("{path}[{i}]"), out);
            i += 1;
        }
    }
}

/// An array of leaves on one line, runs of equal values written once with their count.
fn dump_leaf_array(
    abi: &Abi,
    offset: u64,
    elem_type: &str,
    elems: &[Node],
    path: &str,
    out: &mut String,
) {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < elems.len() {
        let text = leaf_text(abi, &elems[i].kind);
        let run = elems[i..]
            .iter()
            .take_while(|e| leaf_text(abi, &e.kind) == text)
            .count();
        parts.push(if run >= 3 {
            format!("{text} ×{run}")
        } else {
            vec![text; run].join(", ")
        });
        i += run;
    }
    let _ = writeln!(
        out,
        "@{offset:#06X} {path} {elem_type}[{}] [{}]",
        elems.len(),
        parts.join(", ")
    );
}

/// `{"type", "offset", "size", "count", "issues": [...], "data": ...}`: values typed, enums
/// by name (or number when undeclared), flags as lists of names, padding left out.
pub fn render_json(schema: &Schema, inspection: &Inspection) -> Value {
    let abi = &schema.abi;
    let issues: Vec<Value> = inspection
        .issues
        .iter()
        .map(|i| json!({"level": i.level.name(), "offset": i.offset, "path": i.path, "message": i.message}))
        .collect();
    let records: Vec<Value> = inspection
        .records
        .iter()
        .map(|r| json_node(abi, r))
        .collect();
    let data = if inspection.count == 1 {
        records.into_iter().next().unwrap_or(Value::Null)
    } else {
        Value::Array(records)
    };
    json!({
        "type": inspection.type_name,
        "offset": inspection.offset,
        "size": inspection.size,
        "count": inspection.count,
        "issues": issues,
        "data": data,
    })
}

fn json_node(abi: &Abi, node: &Node) -> Value {
    match &node.kind {
        NodeKind::Int(_, v) | NodeKind::Expected(_, v, _) => {
            i64::try_from(*v).map_or_else(|_| json!(*v as u64), |v| json!(v))
        }
        NodeKind::Float(Prim::F32, v) => json!(*v as f32),
        NodeKind::Float(_, v) => json!(v),
        NodeKind::Enum(i, v) => match abi.enums[*i].values.iter().find(|x| x.value == *v) {
            Some(x) => json!(x.name),
            None => json!(*v as i64),
        },
        NodeKind::Flags(i, v) => {
            let e = &abi.enums[*i];
            let mut names: Vec<Value> = e
                .values
                .iter()
                .filter(|x| v & x.value != 0)
                .map(|x| json!(x.name))
                .collect();
            let unknown = v & !e.all_bits();
            if unknown != 0 {
                names.push(json!(format!("{unknown:#x}")));
            }
            Value::Array(names)
        }
        NodeKind::Text(bytes) => {
            let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
            json!(String::from_utf8_lossy(&bytes[..end]))
        }
        NodeKind::Padding(_) => Value::Null,
        NodeKind::Struct(_, fields) => {
            let mut map = Map::new();
            for (name, child) in fields {
                if !matches!(child.kind, NodeKind::Padding(_)) {
                    map.insert(name.clone(), json_node(abi, child));
                }
            }
            Value::Object(map)
        }
        NodeKind::Array { elems, .. } => {
            Value::Array(elems.iter().map(|e| json_node(abi, e)).collect())
        }
    }
}

/// Parses `--offset`: decimal, or hex with `0x`.
pub fn parse_offset(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("`{text}` is not an offset (write 48 or 0x30)"))
}
