//! Which plain fields of a session's row a host reads through loaders of their own, and how,
//! decided once for every target; and which fields are text. A client's fill stores each
//! field of its row but the state and the generation (`ibf_client_fill`, `Session.fill`,
//! `fill`): a scalar with one atomic store of its own width, anything else by its bytes in
//! the live layer's chunks (8-byte words where the address allows, 4, 2, 1 at the edges). So
//! the loaders take the same sizes: a scalar one atomic load of its width, a text field its
//! bytes in the same chunks, never past the field. No byte of a row is then accessed with two
//! sizes within a language (tests/c_access_sizes.rs records every access of the C ones).
//!
//! Padding and the atomic fields (which have their loads already) get none; a row's other
//! plain fields are the client's to write, and a host reads them: the `pid` it may probe, the
//! `name` it logs, the `caps` it honours.
//!
//! A text field (`char[N]`) reads as text in every language: the bytes up to the first NUL
//! (all N when none), decoded as UTF-8 with every invalid sequence replaced (Python
//! `errors="replace"`, Rust `String::from_utf8_lossy`), C the bytes themselves, cut to the
//! caller's buffer and NUL-terminated.

use crate::ir::access::AccessKind;
use crate::ir::protocol::ProtocolKind;
use crate::ir::{Elem, Field, StructId};
use crate::schema::Schema;

/// How a row's plain field is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowLoad {
    /// A scalar: one atomic load of its own width (bytes).
    Scalar { width: u64 },
    /// A `char[len]`: its bytes in the live layer's chunks, read as text.
    Text { len: u64 },
}

/// One plain field of a session's row with a loader of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowField {
    /// The field, by index into the row struct's fields.
    pub field: usize,
    pub load: RowLoad,
}

/// Whether struct `si` is some session's row.
pub fn is_session_row(schema: &Schema, si: StructId) -> bool {
    (schema.protocols.iter()).any(|p| matches!(&p.kind, ProtocolKind::Session(s) if s.row == si))
}

/// The plain fields of struct `si` with loaders of their own, in field order: none unless it
/// is a session's row.
pub fn row_loads(schema: &Schema, si: StructId) -> Vec<RowField> {
    if !is_session_row(schema, si) {
        return Vec::new();
    }
    let s = &schema.abi.structs[si];
    let a = &schema.access.structs[si];
    let l = schema.layout.of(si);
    let mut out = Vec::new();
    for (fi, f) in s.fields.iter().enumerate() {
        if f.is_padding() || a.fields[fi].kind != AccessKind::Plain {
            continue;
        }
        let load = match (f.ty.elem, f.ty.len) {
            (Elem::Char, Some(_)) => RowLoad::Text {
                len: l.fields[fi].size,
            },
            (Elem::Prim(_) | Elem::Enum(_), None) => RowLoad::Scalar {
                width: l.fields[fi].size,
            },
            _ => continue,
        };
        out.push(RowField { field: fi, load });
    }
    out
}

/// Whether a field is text: a `char[N]` that is not declared padding, which every target
/// reads as text (padding of type `char[N]` is bytes to keep zero, with no accessors).
pub fn is_text(f: &Field) -> bool {
    f.ty.elem == Elem::Char && f.ty.len.is_some() && !f.is_padding()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::plan::bridge_for_tests as bridge;

    fn struct_id(schema: &Schema, name: &str) -> StructId {
        let si = (schema.abi.structs.iter().position(|x| x.name == name)).expect("the struct");
        StructId::new(si)
    }

    #[test]
    fn a_client_row_has_loaders_for_its_plain_fields_and_the_header_none() {
        let schema = bridge();
        let row = struct_id(&schema, "client_entry");
        let fields = &schema.abi.structs[row].fields;
        let got: Vec<(&str, RowLoad)> = row_loads(&schema, row)
            .iter()
            .map(|r| (fields[r.field].name.as_str(), r.load))
            .collect();
        assert_eq!(
            got,
            [
                ("pid", RowLoad::Scalar { width: 4 }),
                ("caps", RowLoad::Scalar { width: 4 }),
                ("connected_ns", RowLoad::Scalar { width: 8 }),
                ("pad", RowLoad::Scalar { width: 1 }),
                ("name", RowLoad::Text { len: 32 }),
            ]
        );
        let header = struct_id(&schema, "bridge_header");
        assert!(row_loads(&schema, header).is_empty());
        let version = (schema.abi.structs[header].fields.iter())
            .position(|f| f.name == "host_version")
            .expect("host_version");
        let fields = &schema.abi.structs[header].fields;
        assert!(is_text(&fields[version]));
        assert!(!is_text(&fields[0]));
    }
}
