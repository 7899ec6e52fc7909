//! Lowering: raw schema to the validated IR. Resolves names and references, evaluates
//! values, and checks every rule that does not need the layout. Errors pile up.

use std::collections::HashMap;

use toml::Spanned;

use crate::diagnostics::{Errors, SchemaErrors, Span};
use crate::expr;
use crate::ir::names::{camel, is_c_reserved_word, is_snake_case, upper};
use crate::ir::{
    Abi, ArrayLen, ConstType, Constant, Elem, Enum, EnumKind, EnumValue, Field, ItemRef, Prim,
    Struct, Type, Version,
};
use crate::parse::{RawConst, RawEnum, RawSchema, RawStruct, RawValue};

/// Names the ABI version constants take in every target; no constant may take them.
const RESERVED_CONSTS: [&str; 3] = ["abi_version", "abi_version_major", "abi_version_minor"];

pub fn lower_schema(raw: &RawSchema, src: &str) -> Result<Abi, SchemaErrors> {
    let mut cx = Lower {
        src,
        errors: Errors::new(),
    };
    let abi = cx.lower_abi_header(raw);
    let item_types = cx.collect_type_names(raw);
    let array_consts = collect_array_len_names(raw);
    let consts = cx.lower_consts(&raw.consts, &array_consts, abi.version);
    let mut enums_raw: Vec<(EnumKind, &Spanned<RawEnum>)> = raw
        .enums
        .iter()
        .map(|e| (EnumKind::Enum, e))
        .chain(raw.flags.iter().map(|e| (EnumKind::Flags, e)))
        .collect();
    enums_raw.sort_by_key(|(_, e)| e.span().start);
    let enums: Vec<Enum> = enums_raw
        .iter()
        .map(|(kind, e)| cx.lower_enum(*kind, e, &consts, abi.version))
        .collect();
    let structs: Vec<Struct> = raw
        .structs
        .iter()
        .map(|s| cx.lower_struct(s, &item_types, &consts, abi.version))
        .collect();
    cx.check_extensible(raw, &structs);
    cx.check_converted_names(&consts, &enums, &structs, &abi.c_prefix);
    cx.check_c_names(&enums, &structs, &abi.c_prefix);

    let mut order: Vec<(usize, ItemRef)> = Vec::new();
    order.extend(
        consts
            .iter()
            .enumerate()
            .map(|(i, c)| (c.span.start, ItemRef::Const(i))),
    );
    order.extend(
        enums
            .iter()
            .enumerate()
            .map(|(i, e)| (e.span.start, ItemRef::Enum(i))),
    );
    order.extend(
        structs
            .iter()
            .enumerate()
            .map(|(i, s)| (s.span.start, ItemRef::Struct(i))),
    );
    order.sort_by_key(|(start, _)| *start);
    cx.errors.propagate()?;
    Ok(Abi {
        consts,
        enums,
        structs,
        order: order.into_iter().map(|(_, r)| r).collect(),
        ..abi
    })
}

struct Lower<'a> {
    src: &'a str,
    errors: Errors,
}

/// What a type name refers to, before structs are lowered.
#[derive(Clone, Copy)]
enum TypeName {
    Enum(usize),
    Struct(usize),
}

fn text(s: &Option<Spanned<String>>) -> String {
    s.as_ref().map(|s| s.get_ref().clone()).unwrap_or_default()
}

/// The names used as array lengths (`T[name]`) anywhere in the schema.
fn collect_array_len_names(raw: &RawSchema) -> HashMap<String, Span> {
    let mut out = HashMap::new();
    for s in &raw.structs {
        for f in s.get_ref().fields.get_ref() {
            if let Ok((_, Some(len))) = split_type(f.get_ref().ty.get_ref()) {
                if len.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                    out.entry(len.to_string())
                        .or_insert_with(|| f.get_ref().ty.span());
                }
            }
        }
    }
    out
}

/// Splits `name[len]` into its parts.
fn split_type(text: &str) -> Result<(&str, Option<&str>), String> {
    let text = text.trim();
    match text.find('[') {
        None => Ok((text, None)),
        Some(open) => {
            let close = text
                .rfind(']')
                .filter(|c| *c == text.len() - 1)
                .ok_or("expected `]` at the end of the type")?;
            let inner = text[open + 1..close].trim();
            if inner.contains('[') || inner.contains(']') || text[..open].contains(']') {
                return Err(
                    "arrays of arrays are not supported; wrap the inner array in a struct".into(),
                );
            }
            Ok((text[..open].trim(), Some(inner)))
        }
    }
}

/// Edit distance, for "did you mean" hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn closest<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    candidates
        .map(|c| (distance(name, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3) && *d < name.len().max(1))
        .min()
        .map(|(_, c)| c)
}

impl Lower<'_> {
    fn line_of(&self, span: &Span) -> usize {
        crate::diagnostics::line_col(self.src, span.start).0
    }

    /// The span of a string value's text, inside its quotes.
    fn inner(&self, s: &Spanned<String>) -> Span {
        let span = s.span();
        let quoted = self
            .src
            .get(span.clone())
            .is_some_and(|t| t.len() >= 2 && (t.starts_with('"') || t.starts_with('\'')));
        if quoted
            && !self.src[span.clone()].starts_with("\"\"\"")
            && !self.src[span.clone()].starts_with("'''")
        {
            span.start + 1..span.end - 1
        } else {
            span
        }
    }

    fn check_name(&mut self, name: &Spanned<String>, what: &str) {
        if !is_snake_case(name.get_ref()) {
            let hint = suggest_snake(name.get_ref());
            self.errors.error_help(
                &self.inner(name),
                format!("{what} `{}` is not snake_case", name.get_ref()),
                format!("use lowercase words joined by single underscores, such as `{hint}`"),
            );
        }
    }

    fn lower_since(
        &mut self,
        since: &Option<Spanned<String>>,
        abi_version: Version,
        what: &str,
    ) -> Option<Version> {
        let s = since.as_ref()?;
        match Version::parse(s.get_ref()) {
            None => {
                self.errors.error_help(
                    &self.inner(s),
                    format!("{what}: `since = \"{}\"` is not a version", s.get_ref()),
                    "write the ABI version that added it as MAJOR.MINOR, such as \"0.6\"",
                );
                None
            }
            Some(v) if v > abi_version => {
                self.errors.error(
                    &self.inner(s),
                    format!(
                        "{what}: `since = \"{v}\"` is later than the ABI version {abi_version}"
                    ),
                );
                None
            }
            Some(v) => Some(v),
        }
    }

    fn lower_abi_header(&mut self, raw: &RawSchema) -> Abi {
        let a = raw.abi.get_ref();
        self.check_name(&a.name, "abi name");
        let version = match Version::parse(a.version.get_ref()) {
            Some(v) => v,
            None => {
                self.errors.error_help(
                    &self.inner(&a.version),
                    format!("abi version `{}` is not MAJOR.MINOR", a.version.get_ref()),
                    "write it as \"0.9\"",
                );
                Version { major: 0, minor: 0 }
            }
        };
        let prefix = a.c_prefix.get_ref();
        let prefix_ok = prefix.starts_with(|c: char| c.is_ascii_lowercase())
            && prefix
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !prefix_ok {
            self.errors.error(
                &self.inner(&a.c_prefix),
                format!("c_prefix `{prefix}` must be lowercase letters and digits, starting with a letter"),
            );
        }
        if a.byte_order.get_ref() != "little" {
            self.errors.error_help(
                &self.inner(&a.byte_order),
                format!("byte_order `{}` is not supported", a.byte_order.get_ref()),
                "the generator targets little-endian ABIs: write byte_order = \"little\"",
            );
        }
        Abi {
            name: a.name.get_ref().clone(),
            version,
            c_prefix: prefix.clone(),
            title: a.title.as_ref().map_or_else(
                || format!("{} schema reference", a.name.get_ref()),
                |t| t.get_ref().clone(),
            ),
            doc: text(&a.doc),
            consts: Vec::new(),
            enums: Vec::new(),
            structs: Vec::new(),
            order: Vec::new(),
            span: raw.abi.span(),
        }
    }

    /// Checks the shared namespace of types and constants, and returns the type names.
    fn collect_type_names(&mut self, raw: &RawSchema) -> HashMap<String, TypeName> {
        let mut seen: HashMap<&str, (&str, Span)> = HashMap::new();
        let mut types = HashMap::new();
        let mut enums: Vec<(&str, &Spanned<RawEnum>)> = raw
            .enums
            .iter()
            .map(|e| ("enum", e))
            .chain(raw.flags.iter().map(|e| ("flags", e)))
            .collect();
        enums.sort_by_key(|(_, e)| e.span().start);
        let mut all: Vec<(&str, &Spanned<String>)> = Vec::new();
        all.extend(raw.consts.iter().map(|c| ("constant", &c.get_ref().name)));
        all.extend(enums.iter().map(|(k, e)| (*k, &e.get_ref().name)));
        all.extend(raw.structs.iter().map(|s| ("struct", &s.get_ref().name)));
        for (i, (_, e)) in enums.iter().enumerate() {
            types
                .entry(e.get_ref().name.get_ref().clone())
                .or_insert(TypeName::Enum(i));
        }
        for (i, s) in raw.structs.iter().enumerate() {
            types
                .entry(s.get_ref().name.get_ref().clone())
                .or_insert(TypeName::Struct(i));
        }
        for (kind, name) in all {
            self.check_name(name, kind);
            let n = name.get_ref().as_str();
            if kind != "constant" && (Prim::from_name(n).is_some() || n == "char") {
                self.errors.error(
                    &self.inner(name),
                    format!("{kind} `{n}` takes the name of a built-in type"),
                );
            }
            if kind == "constant" && RESERVED_CONSTS.contains(&n) {
                self.errors.error(
                    &self.inner(name),
                    format!("constant `{n}` takes a name reserved for the ABI version constants"),
                );
            }
            if let Some((first_kind, first_span)) = seen.get(n) {
                let line = self.line_of(first_span);
                self.errors.error_help(
                    &self.inner(name),
                    format!("duplicate name `{n}`: {first_kind} `{n}` is already declared on line {line}"),
                    "types and constants share one namespace; rename one of them",
                );
            } else {
                seen.insert(n, (kind, name.span()));
            }
        }
        types
    }

    fn lower_value(
        &mut self,
        value: &Spanned<RawValue>,
        what: &str,
        lookup: &dyn Fn(&str) -> Option<i128>,
    ) -> Option<(i128, String, Option<String>)> {
        let span = value.span();
        match value.get_ref() {
            RawValue::Int(v) => {
                let literal = self
                    .src
                    .get(span.clone())
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                let literal = if literal.is_empty() {
                    v.to_string()
                } else {
                    literal
                };
                Some((i128::from(*v), literal, None))
            }
            RawValue::Expr(text) => match expr::eval(text, lookup) {
                Ok(v) => match expr::parse_int_literal(text.trim()) {
                    Some(_) => Some((v, text.trim().to_string(), None)),
                    None => Some((v, v.to_string(), Some(text.trim().to_string()))),
                },
                Err(e) => {
                    self.errors.error(&span, format!("{what}: {e}"));
                    None
                }
            },
        }
    }

    fn lower_consts(
        &mut self,
        raw: &[Spanned<RawConst>],
        array_consts: &HashMap<String, Span>,
        version: Version,
    ) -> Vec<Constant> {
        let mut out: Vec<Constant> = Vec::new();
        for c in raw {
            let r = c.get_ref();
            let name = r.name.get_ref().clone();
            let what = format!("constant `{name}`");
            let earlier: HashMap<&str, i128> =
                out.iter().map(|c| (c.name.as_str(), c.value)).collect();
            let Some((value, literal, expr)) =
                self.lower_value(&r.value, &what, &|n| earlier.get(n).copied())
            else {
                continue;
            };
            let declared =
                r.ty.as_ref()
                    .and_then(|t| match Prim::from_name(t.get_ref()) {
                        Some(p) if p.is_integer() => Some(p),
                        _ => {
                            self.errors.error(
                                &self.inner(t),
                                format!(
                                    "{what}: `type = \"{}\"` is not an integer type",
                                    t.get_ref()
                                ),
                            );
                            None
                        }
                    });
            let ty = if array_consts.contains_key(&name) {
                if let Some(t) = &r.ty {
                    self.errors.error_help(
                        &self.inner(t),
                        format!("{what} sizes an array, so its type is `usize` in Rust"),
                        "remove its `type`",
                    );
                }
                if !(1..=i128::from(u32::MAX)).contains(&value) {
                    self.errors.error(
                        &r.value.span(),
                        format!("{what} sizes an array but its value {value} is not between 1 and 4294967295"),
                    );
                }
                ConstType::Usize
            } else if let Some(p) = declared {
                ConstType::Prim(p)
            } else if (0..=i128::from(u32::MAX)).contains(&value) {
                ConstType::Prim(Prim::U32)
            } else if value > 0 && value <= i128::from(u64::MAX) {
                ConstType::Prim(Prim::U64)
            } else if (i128::from(i32::MIN)..0).contains(&value) {
                ConstType::Prim(Prim::I32)
            } else {
                ConstType::Prim(Prim::I64)
            };
            if let ConstType::Prim(p) = ty {
                let (lo, hi) = p.range();
                if !(lo..=hi).contains(&value) {
                    self.errors.error(
                        &r.value.span(),
                        format!("{what}: value {value} does not fit its type {p} ({lo}..={hi})"),
                    );
                }
            }
            out.push(Constant {
                name,
                value,
                literal,
                expr,
                ty,
                doc: text(&r.doc),
                since: self.lower_since(&r.since, version, &what),
                span: c.span(),
            });
        }
        out
    }

    fn lower_enum(
        &mut self,
        kind: EnumKind,
        e: &Spanned<RawEnum>,
        consts: &[Constant],
        version: Version,
    ) -> Enum {
        let r = e.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("{} `{name}`", kind.keyword());
        let repr = match Prim::from_name(r.repr.get_ref()) {
            Some(p) if p.is_integer() && (kind == EnumKind::Enum || !p.is_signed()) => p,
            _ => {
                let allowed = if kind == EnumKind::Enum {
                    "u8, u16, u32, u64, i8, i16, i32 or i64"
                } else {
                    "u8, u16, u32 or u64"
                };
                self.errors.error(
                    &self.inner(&r.repr),
                    format!(
                        "{what}: repr `{}` is not one of {allowed}",
                        r.repr.get_ref()
                    ),
                );
                Prim::U32
            }
        };
        let lookup = |n: &str| consts.iter().find(|c| c.name == n).map(|c| c.value);
        let mut values: Vec<EnumValue> = Vec::new();
        if r.values.get_ref().is_empty() {
            self.errors
                .error(&r.values.span(), format!("{what} has no values"));
        }
        for v in r.values.get_ref() {
            let rv = v.get_ref();
            let vname = rv.name.get_ref().clone();
            let vwhat = format!("{} value `{name}.{vname}`", kind.keyword());
            self.check_name(&rv.name, &format!("{} value", kind.keyword()));
            if let Some(first) = values
                .iter()
                .find(|x| x.name == vname || upper(&x.name) == upper(&vname))
            {
                let line = self.line_of(&first.span);
                self.errors.error(
                    &self.inner(&rv.name),
                    format!("duplicate value name `{vname}` in {what}: `{}` is already declared on line {line}", first.name),
                );
            }
            let Some((value, literal, _)) = self.lower_value(&rv.value, &vwhat, &lookup) else {
                continue;
            };
            let (lo, hi) = repr.range();
            if !(lo..=hi).contains(&value) {
                self.errors.error_help(
                    &rv.value.span(),
                    format!(
                        "{vwhat}: {literal} does not fit the representation {repr} ({lo}..={hi})"
                    ),
                    format!("use a wider repr than `{repr}`, or another value"),
                );
            } else if kind == EnumKind::Flags {
                if value <= 0 || value & (value - 1) != 0 {
                    self.errors.error_help(
                        &rv.value.span(),
                        format!("{vwhat}: {literal} is not a single bit"),
                        "a flag is one bit: 0x1, 0x2, 0x4, ...",
                    );
                } else if let Some(other) = values.iter().find(|x| x.value & value != 0) {
                    self.errors.error(
                        &rv.value.span(),
                        format!(
                            "{vwhat}: bit {literal} overlaps `{name}.{}` ({})",
                            other.name, other.literal
                        ),
                    );
                }
            }
            values.push(EnumValue {
                name: vname,
                value,
                literal,
                doc: text(&rv.doc),
                since: self.lower_since(&rv.since, version, &vwhat),
                span: v.span(),
            });
        }
        Enum {
            name,
            kind,
            repr,
            doc: text(&r.doc),
            since: self.lower_since(&r.since, version, &what),
            values,
            span: e.span(),
        }
    }

    fn lower_type(
        &mut self,
        ty: &Spanned<String>,
        what: &str,
        types: &HashMap<String, TypeName>,
        consts: &[Constant],
    ) -> Option<Type> {
        let span = self.inner(ty);
        let (base, len) = match split_type(ty.get_ref()) {
            Ok(parts) => parts,
            Err(e) => {
                self.errors
                    .error(&span, format!("{what}: type `{}`: {e}", ty.get_ref()));
                return None;
            }
        };
        let elem = if let Some(p) = Prim::from_name(base) {
            Elem::Prim(p)
        } else if base == "char" {
            if len.is_none() {
                self.errors.error_help(
                    &span,
                    format!("{what}: `char` needs a length"),
                    "write fixed text as `char[N]`",
                );
                return None;
            }
            Elem::Char
        } else if let Some(t) = types.get(base) {
            match *t {
                TypeName::Enum(i) => Elem::Enum(i),
                TypeName::Struct(i) => Elem::Struct(i),
            }
        } else {
            let candidates = Prim::ALL
                .iter()
                .map(|p| p.name())
                .chain(["char"])
                .chain(types.keys().map(String::as_str));
            let help = match closest(base, candidates) {
                Some(c) => format!("did you mean `{c}`?"),
                None => "use a primitive (u8 ... f64), `char[N]`, or the name of an enum, flag set or struct".into(),
            };
            let msg = if consts.iter().any(|c| c.name == base) {
                format!("{what}: `{base}` is a constant, not a type")
            } else {
                format!("{what}: unknown type `{base}`")
            };
            self.errors.error_help(&span, msg, help);
            return None;
        };
        let len = match len {
            None => None,
            Some(l) => {
                let (count, constant) = if let Some(i) = consts.iter().position(|c| c.name == l) {
                    (consts[i].value, Some(i))
                } else if let Some(v) = expr::parse_int_literal(l) {
                    (v, None)
                } else {
                    let help = match closest(l, consts.iter().map(|c| c.name.as_str())) {
                        Some(c) => format!("did you mean `{c}`?"),
                        None => "write a positive integer or the name of a constant".into(),
                    };
                    self.errors.error_help(
                        &span,
                        format!("{what}: array length `{l}` is not a constant"),
                        help,
                    );
                    return None;
                };
                if count <= 0 || count > i128::from(u32::MAX) {
                    let by = constant
                        .map(|i| format!(" (constant `{}`)", consts[i].name))
                        .unwrap_or_default();
                    self.errors.error(
                        &span,
                        format!("{what}: array length {count}{by} is not between 1 and 4294967295"),
                    );
                    return None;
                }
                Some(ArrayLen {
                    count: count as u64,
                    constant,
                })
            }
        };
        Some(Type {
            elem,
            len,
            text: ty.get_ref().trim().to_string(),
        })
    }

    fn lower_struct(
        &mut self,
        s: &Spanned<RawStruct>,
        types: &HashMap<String, TypeName>,
        consts: &[Constant],
        version: Version,
    ) -> Struct {
        let r = s.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("struct `{name}`");
        if r.fields.get_ref().is_empty() {
            self.errors
                .error(&r.fields.span(), format!("{what} has no fields"));
        }
        let mut fields: Vec<Field> = Vec::new();
        for f in r.fields.get_ref() {
            let rf = f.get_ref();
            let fname = rf.name.get_ref().clone();
            let fwhat = format!("field `{name}.{fname}`");
            self.check_name(&rf.name, "field");
            if let Some(first) = fields.iter().find(|x| x.name == fname) {
                let line = self.line_of(&first.span);
                self.errors.error(
                    &self.inner(&rf.name),
                    format!(
                        "duplicate field `{fname}` in {what}: it is already declared on line {line}"
                    ),
                );
            }
            let Some(ty) = self.lower_type(&rf.ty, &fwhat, types, consts) else {
                continue;
            };
            fields.push(Field {
                name: fname,
                ty,
                doc: text(&rf.doc),
                since: self.lower_since(&rf.since, version, &fwhat),
                span: f.span(),
                type_span: self.inner(&rf.ty),
            });
        }
        let mut positive = |v: &Option<Spanned<i64>>, key: &str| -> Option<(u64, Span)> {
            let v = v.as_ref()?;
            let n = *v.get_ref();
            if n <= 0 || (key == "align" && n & (n - 1) != 0) {
                let rule = if key == "align" {
                    "a power of two"
                } else {
                    "positive"
                };
                self.errors
                    .error(&v.span(), format!("{what}: `{key} = {n}` must be {rule}"));
                return None;
            }
            Some((n as u64, v.span()))
        };
        let declared_size = positive(&r.size, "size");
        let declared_align = positive(&r.align, "align");
        Struct {
            name,
            doc: text(&r.doc),
            since: self.lower_since(&r.since, version, &what),
            extensible: r.extensible.as_ref().is_some_and(|e| *e.get_ref()),
            fields,
            declared_size,
            declared_align,
            span: s.span(),
        }
    }

    /// An extensible struct grows at its end, so nothing may embed it.
    fn check_extensible(&mut self, raw: &RawSchema, structs: &[Struct]) {
        for (i, s) in structs.iter().enumerate() {
            if !s.extensible {
                continue;
            }
            let flag_span = raw.structs[i]
                .get_ref()
                .extensible
                .as_ref()
                .map_or(s.span.clone(), |e| e.span());
            for outer in structs {
                if let Some(f) = outer.fields.iter().find(|f| f.ty.elem == Elem::Struct(i)) {
                    self.errors.error_help(
                        &flag_span,
                        format!(
                            "struct `{}` is marked extensible but `{}.{}` embeds it",
                            s.name, outer.name, f.name
                        ),
                        "only a top-level record whose readers learn its size at run time may grow; remove `extensible`",
                    );
                }
            }
        }
    }

    /// Names that differ in the schema but collide once a backend converts them.
    fn check_converted_names(
        &mut self,
        consts: &[Constant],
        enums: &[Enum],
        structs: &[Struct],
        prefix: &str,
    ) {
        let mut seen: HashMap<String, (String, Span)> = HashMap::new();
        let mut claim =
            |errors: &mut Errors, key: String, shown: String, original: String, span: &Span| {
                if let Some((first, first_span)) = seen.get(&key) {
                    if *first != original {
                        errors.error_help(
                        span,
                        format!(
                            "`{original}` and `{first}` both become `{shown}` in the generated code"
                        ),
                        format!(
                            "rename one of them (the other is at byte {})",
                            first_span.start
                        ),
                    );
                    }
                } else {
                    seen.insert(key, (original, span.clone()));
                }
            };
        let p = upper(prefix);
        for c in consts {
            claim(
                &mut self.errors,
                format!("macro:{p}_{}", upper(&c.name)),
                format!("{p}_{}", upper(&c.name)),
                c.name.clone(),
                &c.span,
            );
        }
        for e in enums {
            claim(
                &mut self.errors,
                format!("type:{}", camel(&e.name)),
                camel(&e.name),
                e.name.clone(),
                &e.span,
            );
            for v in &e.values {
                let m = format!("{p}_{}_{}", upper(&e.name), upper(&v.name));
                claim(
                    &mut self.errors,
                    format!("macro:{m}"),
                    m,
                    format!("{}.{}", e.name, v.name),
                    &v.span,
                );
            }
        }
        for s in structs {
            claim(
                &mut self.errors,
                format!("type:{}", camel(&s.name)),
                camel(&s.name),
                s.name.clone(),
                &s.span,
            );
        }
    }
}

impl Lower<'_> {
    /// Names that only the C header's rules reject: a type whose C name
    /// (`<prefix>_<name>`) is a C or C++ reserved word, such as `and_eq`, and an enum value
    /// whose macro (`<PREFIX>_<ENUM>_<VALUE>`) is one of the ABI version macros, the names
    /// the constants may not take either.
    fn check_c_names(&mut self, enums: &[Enum], structs: &[Struct], prefix: &str) {
        let types = enums
            .iter()
            .map(|e| (e.kind.keyword(), &e.name, &e.span))
            .chain(structs.iter().map(|s| ("struct", &s.name, &s.span)));
        for (kind, name, span) in types {
            let c_name = format!("{prefix}_{name}");
            if is_c_reserved_word(&c_name) {
                self.errors.error_help(
                    span,
                    format!(
                        "{kind} `{name}` becomes `{c_name}` in the C header, a reserved word or standard name in C or C++"
                    ),
                    "rename it, or change the abi's c_prefix",
                );
            }
        }
        for e in enums {
            for v in &e.values {
                let joined = format!("{}_{}", e.name, v.name);
                if RESERVED_CONSTS.contains(&joined.as_str()) {
                    self.errors.error_help(
                        &v.span,
                        format!(
                            "{} value `{}.{}` becomes `{}_{}` in the C header, the name of an ABI version macro",
                            e.kind.keyword(),
                            e.name,
                            v.name,
                            upper(prefix),
                            upper(&joined)
                        ),
                        "rename the value or its enum",
                    );
                }
            }
        }
    }
}

fn suggest_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 && !out.ends_with('_') {
            out.push('_');
        }
        let c = if c == '-' || c == ' ' {
            '_'
        } else {
            c.to_ascii_lowercase()
        };
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() { "name".into() } else { out }
}
