//! Lowers `[[file]]` formats into [`FileFormat`]: every record's struct and placement, every
//! `record.field` path resolved to a scalar of the layout, with the same path rules as the
//! layout tables (unsigned integer fields, through nested structs).

use toml::Spanned;

use crate::diagnostics::Span;
use crate::ir::file::{FieldRef, FileFormat, FileRecord, Ordered, Place, Total, TotalOf, Zlib};
use crate::ir::names::is_snake_case;
use crate::ir::scalar::Scalar;
use crate::parse::{RawFile, RawFileRecord, RawSchema, RawValue};

use crate::attach::LowerAttach;

impl LowerAttach<'_> {
    pub(crate) fn lower_files(&mut self, raw: &RawSchema) -> Vec<FileFormat> {
        let mut out = Vec::new();
        for (k, file) in raw.files.iter().enumerate() {
            let f = file.get_ref();
            let name = f.name.get_ref();
            if !self.snake_case(&f.name, &format!("file `{name}`"), "sensor_log") {
                continue;
            }
            let taken = if self.abi.structs.iter().any(|s| s.name == *name) {
                Some("a struct")
            } else if raw
                .layouts
                .iter()
                .any(|l| l.get_ref().name.get_ref() == name)
            {
                Some("a [[layout]]")
            } else if raw.files[..k]
                .iter()
                .any(|o| o.get_ref().name.get_ref() == name)
            {
                Some("another [[file]]")
            } else {
                None
            };
            if let Some(what) = taken {
                self.errors.error_help(
                    &self.inner(&f.name),
                    format!("file `{name}`: the name is taken by {what}"),
                    "`abi-codegen inspect NAME` looks files, layouts and structs up by name: give the file a name of its own",
                );
                continue;
            }
            if let Some(format) = self.lower_file(f, file.span()) {
                out.push(format);
            }
        }
        out
    }

    /// Whether `name` is snake_case; an error naming `what` when not. Every backend makes
    /// identifiers of a file's and its records' names (`SENSOR_LOG_SPEC`, `read_places`).
    fn snake_case(&mut self, name: &Spanned<String>, what: &str, example: &str) -> bool {
        if is_snake_case(name.get_ref()) {
            return true;
        }
        self.errors.error_help(
            &self.inner(name),
            format!("{what}: the name is not snake_case"),
            format!("write lowercase words joined by single underscores, such as `{example}`"),
        );
        false
    }

    fn lower_file(&mut self, f: &RawFile, span: Span) -> Option<FileFormat> {
        let name = f.name.get_ref().clone();
        let mut records: Vec<FileRecord> = Vec::new();
        let mut ok = true;
        self.failed_records.clear();
        for r in f.records.get_ref() {
            let r = r.get_ref();
            let what = format!("file `{name}`, record `{}`", r.name.get_ref());
            if !self.snake_case(&r.name, &what, "log_lines") {
                ok = false;
                self.failed_records.push(r.name.get_ref().clone());
                continue;
            }
            if records.iter().any(|x| x.name == *r.name.get_ref()) {
                self.errors.error(
                    &self.inner(&r.name),
                    format!("file `{name}`: two records named `{}`", r.name.get_ref()),
                );
                ok = false;
                continue;
            }
            match self.lower_record(&name, r, &records) {
                Some(rec) => records.push(rec),
                None => {
                    ok = false;
                    self.failed_records.push(r.name.get_ref().clone());
                }
            }
        }
        let mut totals = Vec::new();
        for t in f.totals.iter().flat_map(|t| t.get_ref()) {
            let t = t.get_ref();
            let what = format!("file `{name}`, total `{}`", t.total.get_ref());
            let total = self.single_field(&records, &t.total, &what);
            let of = match (&t.sum, &t.count, &t.first, &t.last) {
                (Some(sum), None, None, None) => self
                    .field_ref(&records, sum, &what)
                    .map(|(r, _)| (TotalOf::Sum(r), sum.get_ref().clone())),
                (None, Some(count), None, None) => self
                    .record_ref(&records, count, &what)
                    .map(|r| (TotalOf::Count(r), count.get_ref().clone())),
                (None, None, Some(first), None) => self
                    .field_ref(&records, first, &what)
                    .map(|(r, _)| (TotalOf::First(r), first.get_ref().clone())),
                (None, None, None, Some(last)) => self
                    .field_ref(&records, last, &what)
                    .map(|(r, _)| (TotalOf::Last(r), last.get_ref().clone())),
                _ => {
                    self.errors.error_help(
                        &self.inner(&t.total),
                        format!("{what}: give exactly one of `sum`, `count`, `first` and `last`"),
                        "sum = \"record.field\" adds a field over every copy; count = \"record\" counts the copies; first and last = \"record.field\" take the field of the first or last copy",
                    );
                    None
                }
            };
            match (total, of) {
                (Some(total), Some((of, text))) => totals.push(Total { total, of, text }),
                _ => ok = false,
            }
        }
        let mut ordered = Vec::new();
        for o in f.ordered.iter().flat_map(|o| o.get_ref()) {
            match self.field_ref(&records, o, &format!("file `{name}`, ordered")) {
                Some((r, _)) => ordered.push(Ordered {
                    record: r.record,
                    field: r.field,
                }),
                None => ok = false,
            }
        }
        ok.then(|| FileFormat {
            name,
            doc: f
                .doc
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            records,
            totals,
            ordered,
            span,
        })
    }

    fn lower_record(
        &mut self,
        file: &str,
        r: &RawFileRecord,
        earlier: &[FileRecord],
    ) -> Option<FileRecord> {
        let what = format!("file `{file}`, record `{}`", r.name.get_ref());
        let struct_index = self.find_struct(&r.structure, &what)?;
        let size = self.layout.of(struct_index).size;
        let places = [r.at.is_some(), r.after.is_some(), r.zlib.is_some()];
        if places.iter().filter(|p| **p).count() != 1 {
            self.errors.error_help(
                &self.inner(&r.name),
                format!("{what}: give exactly one of `at`, `after` and `zlib`"),
                "at = \"0\", \"end - 16\", \"trailer.footer_offset\" or \"chunk_index[].offset\"; after = \"record\"; zlib = \"record\"",
            );
            return None;
        }
        let zlib_keys = [
            (&r.stored, "stored"),
            (&r.raw, "raw"),
            (&r.size, "size"),
            (&r.data, "data"),
        ];
        if r.zlib.is_none()
            && let Some((Some(key), k)) = zlib_keys.iter().find(|(v, _)| v.is_some())
        {
            self.errors.error_help(
                &self.inner(key),
                format!("{what}: `{k}` goes with `zlib`"),
                "stored, raw, size and data describe records inside zlib streams",
            );
            return None;
        }
        let mut count = None;
        if r.zlib.is_none() {
            self.lower_encoding(r, struct_index, None, &what).ok()?;
        }
        let place = if let Some(at) = &r.at {
            self.lower_at(at, earlier, &what)?
        } else if let Some(after) = &r.after {
            Place::After(self.in_file(earlier, after, &what, "after")?)
        } else {
            let source_name = r.zlib.as_ref().expect("one of the three");
            let source = self.in_file(earlier, source_name, &what, "zlib")?;
            let si = earlier[source].struct_index;
            let need = |cx: &mut Self, v: &Option<Spanned<String>>, key: &str| -> Option<Scalar> {
                match v {
                    Some(v) => cx.resolve_unsigned(si, v, &what),
                    None => {
                        cx.errors.error_help(
                            &cx.inner(&r.name),
                            format!("{what}: `zlib` needs `{key}`"),
                            format!(
                                "name the field of `{}` that holds the stream's {}",
                                cx.abi.structs[si].name,
                                if key == "stored" {
                                    "bytes"
                                } else {
                                    "inflated bytes"
                                }
                            ),
                        );
                        None
                    }
                }
            };
            let stored = need(self, &r.stored, "stored");
            let raw = need(self, &r.raw, "raw");
            let count = match &r.count {
                Some(c) => Some(self.resolve_unsigned(si, c, &what)?),
                None => None,
            };
            let own = |cx: &mut Self, v: &Option<Spanned<String>>| match v {
                Some(v) => cx.resolve_unsigned(struct_index, v, &what).map(Some),
                None => Some(None),
            };
            let size_field = own(self, &r.size)?;
            let data = own(self, &r.data)?;
            let z = Zlib {
                source,
                stored: stored?,
                raw: raw?,
                count,
                size: size_field,
                data,
            };
            let (encoding, seek) = self
                .lower_encoding(r, struct_index, Some((&z, &earlier[source])), &what)
                .ok()?;
            return Some(FileRecord {
                name: r.name.get_ref().clone(),
                doc: doc(&r.doc),
                struct_index,
                size,
                place: Place::Zlib(z),
                count: None,
                walk: None,
                encoding,
                seek,
                indexed: Vec::new(),
            });
        };
        if let Some(c) = &r.count {
            count = Some(self.single_field(earlier, c, &what)?);
        }
        let walk = match &r.walk {
            Some(w) if !matches!(place, Place::Each(_)) => {
                self.errors.error_help(
                    &self.inner(w),
                    format!("{what}: `walk` goes with `at = \"record[].field\"`"),
                    "walk finds the copies of a record an index places when the index is missing",
                );
                return None;
            }
            Some(w) => Some(self.in_file(earlier, w, &what, "walk")?),
            None => None,
        };
        let indexed = self.lower_indexed(r, struct_index, &place, earlier, &what)?;
        Some(FileRecord {
            name: r.name.get_ref().clone(),
            doc: doc(&r.doc),
            struct_index,
            size,
            place,
            count,
            walk,
            encoding: None,
            seek: None,
            indexed,
        })
    }

    /// `0`, `end - 16`, `trailer.footer_offset`, `chunk_index[].offset`.
    fn lower_at(
        &mut self,
        at: &Spanned<RawValue>,
        earlier: &[FileRecord],
        what: &str,
    ) -> Option<Place> {
        let text = match at.get_ref() {
            RawValue::Int(_) => {
                return self.eval(at, &format!("{what}: `at`"), 0).map(Place::At);
            }
            RawValue::Expr(t) => t.trim().to_string(),
        };
        let span = at.span();
        let as_value = |t: &str| Spanned::new(span.clone(), RawValue::Expr(t.to_string()));
        if let Some(rest) = text.strip_prefix("end") {
            let Some(back) = rest.trim_start().strip_prefix('-') else {
                self.errors.error_help(
                    &span,
                    format!("{what}: `at = \"{text}\"` is not an offset"),
                    "from the end, write `end - 16` (or `end - rec_trailer`)",
                );
                return None;
            };
            return self
                .eval(&as_value(back.trim()), &format!("{what}: `at`"), 1)
                .map(Place::FromEnd);
        }
        let Some((head, field)) = text.split_once('.') else {
            return self
                .eval(&as_value(&text), &format!("{what}: `at`"), 0)
                .map(Place::At);
        };
        let (record, each) = match head.strip_suffix("[]") {
            Some(r) => (r, true),
            None => (head, false),
        };
        let rec = self.record_by_name(earlier, record, &span, what)?;
        let si = earlier[rec].struct_index;
        let field =
            self.resolve_unsigned(si, &Spanned::new(span.clone(), field.to_string()), what)?;
        let many = is_many(&earlier[rec]);
        if many != each {
            let help = if many {
                format!(
                    "`{record}` has many copies: write `{record}[].{}`, one record per copy",
                    field.path
                )
            } else {
                format!("`{record}` is one record: write `{record}.{}`", field.path)
            };
            self.errors.error_help(
                &span,
                format!("{what}: `at = \"{text}\"` does not match `{record}`"),
                help,
            );
            return None;
        }
        let r = FieldRef { record: rec, field };
        Some(if each {
            Place::Each(r)
        } else {
            Place::Field(r)
        })
    }

    /// A record declared before, by name.
    fn record_by_name(
        &mut self,
        earlier: &[FileRecord],
        name: &str,
        span: &Span,
        what: &str,
    ) -> Option<usize> {
        let found = earlier.iter().position(|r| r.name == name);
        if found.is_none() && !self.failed_records.iter().any(|f| f == name) {
            let help = Self::suggest(
                name,
                earlier.iter().map(|r| r.name.as_str()),
                "a record is placed by records declared before it",
            );
            self.errors.error_help(
                span,
                format!("{what}: `{name}` is not a record declared before it"),
                help,
            );
        }
        found
    }

    fn record_ref(
        &mut self,
        earlier: &[FileRecord],
        name: &Spanned<String>,
        what: &str,
    ) -> Option<usize> {
        let span = self.inner(name);
        self.record_by_name(earlier, name.get_ref(), &span, what)
    }

    /// A record declared before that sits in the file itself, not inside zlib streams: what
    /// `after`, `walk` and `zlib` place from, by its copies' offsets in the file.
    fn in_file(
        &mut self,
        earlier: &[FileRecord],
        name: &Spanned<String>,
        what: &str,
        key: &str,
    ) -> Option<usize> {
        let r = self.record_ref(earlier, name, what)?;
        if matches!(earlier[r].place, Place::Zlib(_)) {
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "{what}: `{key} = \"{}\"` names a record inside zlib streams",
                    name.get_ref()
                ),
                format!("`{key}` places from offsets in the file: name a record that sits there"),
            );
            return None;
        }
        Some(r)
    }

    /// `record.field`, any record: its field resolved against the record's struct.
    fn field_ref(
        &mut self,
        records: &[FileRecord],
        path: &Spanned<String>,
        what: &str,
    ) -> Option<(FieldRef, bool)> {
        let span = self.inner(path);
        let Some((record, field)) = path.get_ref().split_once('.') else {
            self.errors.error_help(
                &span,
                format!("{what}: `{}` is not `record.field`", path.get_ref()),
                "name a record of the file and one of its struct's fields",
            );
            return None;
        };
        let rec = self.record_by_name(records, record, &span, what)?;
        let si = records[rec].struct_index;
        let field = self.resolve_unsigned(si, &Spanned::new(span, field.to_string()), what)?;
        Some((FieldRef { record: rec, field }, is_many(&records[rec])))
    }

    /// `record.field` of a record with one copy.
    fn single_field(
        &mut self,
        records: &[FileRecord],
        path: &Spanned<String>,
        what: &str,
    ) -> Option<FieldRef> {
        let (r, many) = self.field_ref(records, path, what)?;
        if many {
            self.errors.error_help(
                &self.inner(path),
                format!(
                    "{what}: `{}` has many copies, so `{}` is not one value",
                    records[r.record].name,
                    path.get_ref()
                ),
                "name a field of a record with one copy",
            );
            return None;
        }
        Some(r)
    }
}

fn doc(d: &Option<Spanned<String>>) -> String {
    d.as_ref().map(|d| d.get_ref().clone()).unwrap_or_default()
}

fn is_many(r: &FileRecord) -> bool {
    r.count.is_some() || matches!(r.place, Place::Each(_) | Place::Zlib(_))
}
