//! A struct's `version` handshake: which fields hold the magic, the major and minor
//! version and the producer's size, and which fields each later minor version added.

use toml::Spanned;

use super::LowerAttach;
use crate::ir::StructId;
use crate::ir::attach::{AddedField, Handshake};
use crate::ir::geometry::Liveness;
use crate::ir::scalar::Scalar;
use crate::ir::{Elem, Prim};
use crate::parse::{RawHandshake, RawStruct};

impl LowerAttach<'_> {
    pub(super) fn lower_handshake(
        &mut self,
        si: StructId,
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
        let liveness = self.lower_liveness(si, v, &what);
        let identity = self.lower_identity(si, v, &what);
        let (major, minor, added, liveness, identity) =
            (major?, minor?, added?, liveness?, identity?);
        let full = self.layout.of(si).size;
        let base_size = added.first().map_or(full, |a| a.offset);
        let named = [
            (Some(&v.major), Some(&major)),
            (Some(&v.minor), Some(&minor)),
            (v.size.as_ref(), size.as_ref()),
            (v.magic.as_ref(), magic.as_ref().map(|m| &m.0)),
            (v.state.as_ref(), liveness.as_ref().map(|l| &l.state)),
            (
                v.generation.as_ref(),
                liveness.as_ref().and_then(|l| l.generation.as_ref()),
            ),
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
            liveness,
            identity,
        })
    }

    /// `state`, `running` and `generation`: all three or none of state and running; the
    /// state field an unsigned integer or an enum with an unsigned repr, `running` one of
    /// its values (or a constant); the generation an unsigned integer. `None` on an error.
    fn lower_liveness(
        &mut self,
        si: StructId,
        v: &RawHandshake,
        what: &str,
    ) -> Option<Option<Liveness>> {
        let (state, running) = match (&v.state, &v.running) {
            (None, None) => {
                if let Some(g) = &v.generation {
                    self.errors.error_help(
                        &self.inner(g),
                        format!("{what}: `generation` without `state`"),
                        "add `state = \"<field>\"` and `running = \"<value>\"`: a reader learns of a reload from the state and the generation together",
                    );
                    return None;
                }
                return Some(None);
            }
            (Some(state), Some(running)) => (state, running),
            (Some(given), None) | (None, Some(given)) => {
                self.errors.error_help(
                    &self.inner(given),
                    format!("{what}: `state` and `running` go together"),
                    "name the state field and the value that means the writer has finished its tables",
                );
                return None;
            }
        };
        let swhat = format!("{what}, state");
        let (fields, offset) = self.resolve_path(si, state, &swhat)?;
        let field = self.field_at(si, &fields);
        let (width, values) = match (field.ty.elem, field.ty.len) {
            (Elem::Prim(p @ (Prim::U8 | Prim::U16 | Prim::U32 | Prim::U64)), None) => {
                (p.size(), None)
            }
            (Elem::Enum(e), None)
                if self.abi.enums[e].repr.is_integer() && !self.abi.enums[e].repr.is_signed() =>
            {
                (self.abi.enums[e].repr.size(), Some(e))
            }
            _ => {
                self.errors.error_help(
                    &self.inner(state),
                    format!(
                        "{swhat}: `{}` is `{}`; it must be an unsigned integer or an enum with an unsigned repr",
                        state.get_ref(),
                        field.ty.text
                    ),
                    "name a u8, u16, u32 or u64 field, or an enum field",
                );
                return None;
            }
        };
        let name = running.get_ref();
        let found = match values {
            Some(e) => self.abi.enums[e]
                .values
                .iter()
                .find(|x| x.name == *name)
                .map(|x| x.value),
            None => self.abi.find_const(name).map(|c| self.abi.consts[c].value),
        };
        let Some(value) = found else {
            let help = match values {
                Some(e) => Self::suggest(
                    name,
                    self.abi.enums[e].values.iter().map(|x| x.name.as_str()),
                    format!("name a value of enum `{}`", self.abi.enums[e].name),
                ),
                None => Self::suggest(
                    name,
                    self.abi.consts.iter().map(|c| c.name.as_str()),
                    "name a constant",
                ),
            };
            self.errors.error_help(
                &self.inner(running),
                format!("{what}, running: `{name}` is not a value the state field can hold"),
                help,
            );
            return None;
        };
        let generation = match &v.generation {
            Some(g) => Some(self.resolve_unsigned(si, g, &format!("{what}, generation"))?),
            None => None,
        };
        Some(Some(Liveness {
            state: Scalar {
                path: state.get_ref().clone(),
                offset,
                width,
            },
            running: u64::try_from(value).unwrap_or(u64::MAX),
            running_name: name.clone(),
            generation,
        }))
    }

    fn lower_magic(
        &mut self,
        si: StructId,
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
    fn added_fields(&mut self, si: StructId, raw: &RawStruct) -> Option<Vec<AddedField>> {
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

impl LowerAttach<'_> {
    /// A region that holds one extensible record and nothing else needs only the bytes every
    /// producer of its major version writes (`base_size`): an older producer's record is shorter
    /// than ours, and its row says so. Its size field (checked by the handshake) says how much
    /// of it there is.
    pub(super) fn shorten_extensible_rows(&self, attach: &mut crate::ir::attach::Attach) {
        for table in &mut attach.layouts {
            for row in &mut table.rows {
                let crate::ir::attach::Holds::Struct {
                    struct_index,
                    count: 1,
                    bytes: 0,
                } = row.holds
                else {
                    continue;
                };
                let extensible = attach
                    .handshakes
                    .iter()
                    .find(|h| h.struct_index == struct_index && !h.added.is_empty());
                if let Some(h) = extensible {
                    row.min_size = row.min_size.min(h.base_size);
                }
            }
        }
    }
}
