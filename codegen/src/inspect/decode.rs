//! Decoding one record: bytes through a struct's layout into a tree of [`Node`]s, with an
//! [`Issue`] for every suspicious value.

use crate::ir::{Abi, Elem, EnumKind, Prim, Type};
use crate::schema::Schema;

use super::model::{Issue, Level, Node, NodeKind, hex_bytes, join, show_like};
use crate::ir::StructId;

/// Decodes one record of struct `index`: `bytes` are its bytes, found at offset `at` of the
/// input, which every node and issue is placed by.
pub(super) fn record(
    schema: &Schema,
    index: StructId,
    bytes: &[u8],
    at: u64,
    path: &str,
    issues: &mut Vec<Issue>,
) -> Node {
    let mut cx = Decoder {
        schema,
        bytes,
        base: at,
        issues,
    };
    cx.decode_struct(index, at, path)
}

struct Decoder<'a> {
    schema: &'a Schema,
    /// The record's bytes; `base` is their offset in the input.
    bytes: &'a [u8],
    base: u64,
    issues: &'a mut Vec<Issue>,
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
        let start = (offset - self.base) as usize;
        &self.bytes[start..start + size as usize]
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

    fn decode_struct(&mut self, index: StructId, base: u64, path: &str) -> Node {
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
    fn path_offset(&self, mut index: StructId, path: &[usize], base: u64) -> (u64, Prim) {
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
