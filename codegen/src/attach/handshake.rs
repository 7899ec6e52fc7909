//! A struct's `version` handshake: which fields hold the magic, the major and minor
//! version and the producer's size, and which fields each later minor version added.

use toml::Spanned;

use super::LowerAttach;
use crate::ir::attach::{AddedField, Handshake};
use crate::ir::scalar::Scalar;
use crate::parse::{RawHandshake, RawStruct};

impl LowerAttach<'_> {
    pub(super) fn lower_handshake(
        &mut self,
        si: usize,
        raw: &RawStruct,
        version: &Spanned<RawHandshake>,
    ) -> Option<Handshake> {
        let s = &self.abi.structs[si];
        let what = format!("struct `{}`, version", s.name);
        if !s.extensible {
            self.errors.error_help(
                &self.inner(&raw.name),
                format!(
                    "{what}: a version handshake belongs to an extensible struct, and `{}` is not one",
                    s.name
                ),
                "add `extensible = true`: a record that later versions may grow is read by its producer's size",
            );
            return None;
        }
        let v = version.get_ref();
        let added = self.added_fields(si, raw);
        let major = self.resolve_unsigned(si, &v.major, &format!("{what}, major"));
        let minor = self.resolve_unsigned(si, &v.minor, &format!("{what}, minor"));
        let size = match &v.size {
            Some(p) => Some(self.resolve_unsigned(si, p, &format!("{what}, size"))?),
            None => None,
        };
        let magic = match &v.magic {
            Some(p) => Some(self.lower_magic(si, p, &what)?),
            None => None,
        };
        let (major, minor, added) = (major?, minor?, added?);
        let full = self.layout.of(si).size;
        let base_size = added.first().map_or(full, |a| a.offset);
        let named = [
            (Some(&v.major), Some(&major)),
            (Some(&v.minor), Some(&minor)),
            (v.size.as_ref(), size.as_ref()),
            (v.magic.as_ref(), magic.as_ref().map(|m| &m.0)),
        ];
        for (raw_path, scalar) in named {
            let (Some(raw_path), Some(scalar)) = (raw_path, scalar) else {
                continue;
            };
            if scalar.offset + scalar.width > base_size {
                self.errors.error_help(
                    &self.inner(raw_path),
                    format!(
                        "{what}: `{}` ends at byte {}, past the {base_size} bytes every producer writes",
                        scalar.path,
                        scalar.offset + scalar.width
                    ),
                    "the handshake's fields must come before the first field a later version added",
                );
            }
        }
        Some(Handshake {
            struct_index: si,
            magic,
            major,
            minor,
            size,
            base_size,
            added,
        })
    }

    fn lower_magic(
        &mut self,
        si: usize,
        path: &Spanned<String>,
        what: &str,
    ) -> Option<(Scalar, usize)> {
        let scalar = self.resolve_unsigned(si, path, &format!("{what}, magic"))?;
        let (fields, _) = self.resolve_path(si, path, what)?;
        match self.field_at(si, &fields).expect {
            Some(c) => Some((scalar, c)),
            None => {
                self.errors.error_help(
                    &self.inner(path),
                    format!(
                        "{what}, magic: field `{}` does not say which constant it holds",
                        path.get_ref()
                    ),
                    "add `expect = \"<constant>\"` to the field: the handshake checks it",
                );
                None
            }
        }
    }

    /// The fields a later minor version of this major added, which must come after every
    /// field of the first version, in version order (padding may sit anywhere).
    fn added_fields(&mut self, si: usize, raw: &RawStruct) -> Option<Vec<AddedField>> {
        let s = &self.abi.structs[si];
        let ours = self.abi.version;
        let mut added: Vec<AddedField> = Vec::new();
        let mut ok = true;
        for (fi, f) in s.fields.iter().enumerate() {
            if f.is_padding() {
                continue;
            }
            let since = f.since.filter(|v| v.major == ours.major && v.minor > 0);
            let prev = added.last().map(|a| (a.since, &s.fields[a.field].name));
            match (since, prev) {
                (None, Some((p, pname))) | (Some(_), Some((p, pname)))
                    if since.is_none_or(|v| v < p) =>
                {
                    let this = since.map_or("no `since`".to_string(), |v| format!("since {v}"));
                    self.errors.error_help(
                        &raw.fields.get_ref()[fi].get_ref().name.span(),
                        format!(
                            "struct `{}`: field `{}` ({this}) follows `{pname}` (since {p}); a version handshake reads fields by version, so fields a later version added go at the end, in version order",
                            s.name, f.name
                        ),
                        format!("move `{}` before `{pname}`, or give it `since = \"{p}\"` or later", f.name),
                    );
                    ok = false;
                }
                _ => {}
            }
            if let Some(since) = since {
                let l = self.layout.of(si).fields[fi];
                added.push(AddedField {
                    field: fi,
                    since,
                    offset: l.offset,
                    end: l.offset + l.size,
                });
            }
        }
        ok.then_some(added)
    }
}
