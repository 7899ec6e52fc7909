//! Lowers a `[[file]]` record's `encoding` (how its data decodes, record after record) and
//! `seek` (how one is found by a key) into [`Encoding`] and [`Seek`], every path resolved to
//! a scalar of the layout and every kind to its enum value.

use toml::Spanned;

use crate::ir::file::{Encoding, FileRecord, Same, Seek, Step, Zlib};
use crate::ir::{Elem, EnumKind};
use crate::parse::{RawEncoding, RawFileRecord, RawSeek};

use crate::attach::LowerAttach;
use crate::ir::StructId;

impl LowerAttach<'_> {
    /// `encoding` and `seek` of record `r` (struct `si`), placed in the zlib streams `z`
    /// describes, which follow the copies of record `source` (`None` for a record placed
    /// otherwise, which may have neither). `Err` after an error.
    pub(super) fn lower_encoding(
        &mut self,
        r: &RawFileRecord,
        si: StructId,
        z: Option<(&Zlib, &FileRecord)>,
        what: &str,
    ) -> Result<(Option<Encoding>, Option<Seek>), ()> {
        for (key, name) in [
            (r.encoding.as_ref().map(Spanned::span), "encoding"),
            (r.seek.as_ref().map(Spanned::span), "seek"),
        ] {
            let Some(span) = key else { continue };
            let lacks = match z {
                None => Some("zlib"),
                Some((z, _)) if name == "encoding" && z.data.is_none() => Some("data"),
                Some(_) => None,
            };
            if let Some(lacks) = lacks {
                self.errors.error_help(
                    &span,
                    format!("{what}: `{name}` needs `{lacks}`"),
                    "encoding and seek describe records inside zlib streams; encoding decodes the `data` bytes after each record's struct",
                );
                return Err(());
            }
        }
        let Some((z, source)) = z else {
            return Ok((None, None));
        };
        let encoding = match &r.encoding {
            Some(e) => Some(
                self.encoding(e.get_ref(), si, z.source, source, what)
                    .ok_or(())?,
            ),
            None => None,
        };
        let seek = match &r.seek {
            Some(s) => Some(self.seek(s, si, source, what).ok_or(())?),
            None => None,
        };
        Ok((encoding, seek))
    }

    fn encoding(
        &mut self,
        e: &RawEncoding,
        si: StructId,
        restart: usize,
        source: &FileRecord,
        what: &str,
    ) -> Option<Encoding> {
        let what = format!("{what}, encoding");
        let (fields, offset) = self.resolve_path(si, &e.kind, &what)?;
        let field = self.field_at(si, &fields);
        let kind_enum = match (field.ty.elem, field.ty.len) {
            (Elem::Enum(k), None) if self.abi.enums[k].kind == EnumKind::Enum => k,
            _ => {
                self.errors.error_help(
                    &self.inner(&e.kind),
                    format!(
                        "{what}: `kind = \"{}\"` is `{}`; it must be an enum field",
                        e.kind.get_ref(),
                        field.ty.text
                    ),
                    "the kind names, by the enum's values, how each record's data is encoded",
                );
                return None;
            }
        };
        let en = &self.abi.enums[kind_enum];
        let width = en.repr.size();
        let kind = crate::ir::scalar::Scalar {
            path: e.kind.get_ref().clone(),
            offset,
            width,
        };
        if e.plain.get_ref().is_empty() {
            self.errors.error_help(
                &e.plain.span(),
                format!("{what}: `plain` lists no kind"),
                "a chain starts with a record whose data is as is: name its kind, such as plain = [\"keyframe\"]",
            );
            return None;
        }
        let mut steps: Vec<(u64, Step)> = Vec::new();
        let mut listed: Vec<&str> = Vec::new();
        let lists = [(Some(&e.plain), Step::Plain), (e.xor.as_ref(), Step::Xor)];
        let mut ok = true;
        for (list, step) in lists {
            for v in list.iter().flat_map(|l| l.get_ref()) {
                let name = v.get_ref().as_str();
                let Some(value) = en.values.iter().find(|x| x.name == name) else {
                    let help = Self::suggest(
                        name,
                        en.values.iter().map(|x| x.name.as_str()),
                        format!("name a value of enum `{}`", en.name),
                    );
                    self.errors.error_help(
                        &self.inner(v),
                        format!("{what}: `{name}` is not a value of enum `{}`", en.name),
                        help,
                    );
                    ok = false;
                    continue;
                };
                if listed.contains(&name) {
                    self.errors.error_help(
                        &self.inner(v),
                        format!("{what}: `{name}` is listed twice"),
                        "each kind has one encoding: list it once",
                    );
                    ok = false;
                    continue;
                }
                listed.push(name);
                let mask = if width >= 8 {
                    u64::MAX
                } else {
                    (1u64 << (8 * width)) - 1
                };
                steps.push(((value.value as u64) & mask, step));
            }
        }
        if *e.restart.get_ref() != source.name {
            self.errors.error_help(
                &self.inner(&e.restart),
                format!(
                    "{what}: `restart = \"{}\"`: a chain restarts with each zlib stream, so it must be `{}`",
                    e.restart.get_ref(),
                    source.name
                ),
                "a stream is inflated on its own: a record in it cannot depend on a record of another stream",
            );
            ok = false;
        }
        let decoded = self.find_struct(&e.decoded, &what);
        let mut same = Vec::new();
        for s in e.same.iter().flat_map(|s| s.get_ref()) {
            let text = s.get_ref();
            let shape = format!("{what}: `same = \"{text}\"` is not `decoded.field = field`");
            let help = "name a field of the decoded struct, `=`, and a field of the record: \"header.tick = tick\"";
            match self.lower_pair(s, decoded, si, &what, &shape, help) {
                Ok(Some((decoded, record))) => same.push(Same { decoded, record }),
                Ok(None) => {}
                Err(()) => ok = false,
            }
        }
        let decoded = decoded?;
        ok.then(|| Encoding {
            kind,
            kind_enum,
            steps,
            restart,
            decoded,
            decoded_size: self.layout.of(decoded).size,
            same,
        })
    }

    fn seek(
        &mut self,
        s: &Spanned<RawSeek>,
        si: StructId,
        source: &FileRecord,
        what: &str,
    ) -> Option<Seek> {
        let what = format!("{what}, seek");
        let raw = s.get_ref();
        let key = self.resolve_unsigned(si, &raw.key, &what)?;
        let bounds = match (&raw.first, &raw.last) {
            (None, None) => None,
            (Some(first), Some(last)) => {
                let first = self.resolve_unsigned(source.struct_index, first, &what);
                let last = self.resolve_unsigned(source.struct_index, last, &what);
                Some((first?, last?))
            }
            _ => {
                self.errors.error_help(
                    &s.span(),
                    format!("{what}: give both `first` and `last`, or neither"),
                    "first and last name the stream record's fields that bound the keys its stream holds",
                );
                return None;
            }
        };
        Some(Seek { key, bounds })
    }
}
