//! Lowering: raw schema to the validated IR. Resolves names and references, evaluates
//! values, and checks every rule that does not need the layout. Errors pile up.

use std::collections::HashMap;
use std::fmt::Display;

use toml::Spanned;

use crate::diagnostics::{Errors, SchemaErrors, Span};
use crate::expr;
use crate::ir::names::{camel, is_c_reserved_word, is_snake_case, upper};
use crate::ir::order_error;
use crate::ir::{
    Abi, ArrayLen, ConstType, Constant, CountRef, Elem, Enum, EnumKind, EnumValue, Field, ItemRef,
    Prim, Struct, Type, Version,
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
    let const_table = ConstTable::new(&consts);
    let mut enums_raw: Vec<(EnumKind, &Spanned<RawEnum>)> = raw
        .enums
        .iter()
        .map(|e| (EnumKind::Enum, e))
        .chain(raw.flags.iter().map(|e| (EnumKind::Flags, e)))
        .collect();
    enums_raw.sort_by_key(|(_, e)| e.span().start);
    let enums: Vec<Enum> = enums_raw
        .iter()
        .map(|(kind, e)| cx.lower_enum(*kind, e, &const_table, abi.version))
        .collect();
    let structs: Vec<Struct> = raw
        .structs
        .iter()
        .map(|s| cx.lower_struct(s, &item_types, &const_table, abi.version))
        .collect();
    drop(const_table);
    let mut structs = structs;
    cx.resolve_counts(raw, &mut structs);
    cx.check_extensible(raw, &structs);
    cx.check_converted_names(raw, &abi.c_prefix);
    cx.check_python_names(&consts, &enums, &structs);
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

/// The lowered constants with an index by name, built once: a name declared twice finds
/// its first declaration (the duplicate is reported on its own).
struct ConstTable<'c> {
    list: &'c [Constant],
    by_name: HashMap<&'c str, usize>,
}

impl<'c> ConstTable<'c> {
    fn new(list: &'c [Constant]) -> Self {
        let mut by_name = HashMap::with_capacity(list.len());
        for (i, c) in list.iter().enumerate() {
            by_name.entry(c.name.as_str()).or_insert(i);
        }
        ConstTable { list, by_name }
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    fn names(&self) -> impl Iterator<Item = &'c str> {
        self.list.iter().map(|c| c.name.as_str())
    }
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

/// The candidate closest to `name`, when one is close enough to be a likely typo.
pub(crate) fn closest<'n>(
    name: &str,
    candidates: impl Iterator<Item = &'n str>,
) -> Option<&'n str> {
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
        crate::diagnostics::string_span(self.src, s)
    }

    fn check_name(&mut self, name: &Spanned<String>, what: &dyn Display) {
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
        what: &dyn Display,
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
                self.errors.error_help(
                    &self.inner(s),
                    format!(
                        "{what}: `since = \"{v}\"` is later than the ABI version {abi_version}"
                    ),
                    format!("raise `version` in [abi] to \"{v}\", or correct `since`"),
                );
                None
            }
            Some(v) => Some(v),
        }
    }

    fn lower_abi_header(&mut self, raw: &RawSchema) -> Abi {
        let a = raw.abi.get_ref();
        self.check_name(&a.name, &"abi name");
        let version = match Version::parse(a.version.get_ref()) {
            Some(v) if v.major > u32::from(u16::MAX) || v.minor > u32::from(u16::MAX) => {
                self.errors.error_help(
                    &self.inner(&a.version),
                    format!(
                        "abi version `{v}`: its major and minor numbers must each be at most 65535"
                    ),
                    "the targets hold them as 16-bit numbers (`ABI_VERSION_MAJOR: u16` in Rust), as a header field would",
                );
                // Still check `since` against it, so that each mistake is reported once.
                v
            }
            Some(v) => v,
            None => {
                self.errors.error_help(
                    &self.inner(&a.version),
                    format!("abi version `{}` is not MAJOR.MINOR", a.version.get_ref()),
                    "write it as \"0.9\"",
                );
                // Unknown: check no `since` against it, so that one mistake makes one error.
                Version {
                    major: u32::MAX,
                    minor: u32::MAX,
                }
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
            self.check_name(name, &kind);
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
        what: &dyn Display,
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
        let mut out: Vec<Constant> = Vec::with_capacity(raw.len());
        // The constants declared so far; a name declared twice takes its later value.
        let mut earlier: HashMap<String, i128> = HashMap::with_capacity(raw.len());
        for c in raw {
            let r = c.get_ref();
            let name = r.name.get_ref().clone();
            let what = format!("constant `{name}`");
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
                    let used = self.line_of(&array_consts[&name]);
                    self.errors.error_help(
                        &r.value.span(),
                        format!("{what} sizes an array but its value {value} is not between 1 and 4294967295"),
                        format!("line {used} uses it as an array length; give it a value from 1 to 4294967295"),
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
                    self.errors.error_help(
                        &r.value.span(),
                        format!("{what}: value {value} does not fit its type {p} ({lo}..={hi})"),
                        "declare a wider `type`, or another value",
                    );
                }
            }
            earlier.insert(name.clone(), value);
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
        consts: &ConstTable,
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
        let lookup = |n: &str| consts.find(n).map(|i| consts.list[i].value);
        let mut values: Vec<EnumValue> = Vec::with_capacity(r.values.get_ref().len());
        // The first value of each name, by its uppercase form (`a` and `A` meet in every
        // target), and the first value holding each bit: looked up, never scanned.
        let mut names: HashMap<String, &Spanned<String>> = HashMap::new();
        let mut first_with_bit: [Option<usize>; 128] = [None; 128];
        if r.values.get_ref().is_empty() {
            self.errors
                .error(&r.values.span(), format!("{what} has no values"));
        }
        for v in r.values.get_ref() {
            let rv = v.get_ref();
            let vname = rv.name.get_ref().clone();
            let vwhat = MemberName {
                kind: match kind {
                    EnumKind::Enum => "enum value",
                    EnumKind::Flags => "flags value",
                },
                item: &name,
                member: rv.name.get_ref(),
            };
            self.check_name(&rv.name, &Labeled(&what, "value"));
            let key = upper(&vname);
            if let Some(first) = names.get(&key) {
                let line = self.line_of(&first.span());
                self.errors.error_help(
                    &self.inner(&rv.name),
                    format!("duplicate value name `{vname}` in {what}: `{}` is already declared on line {line}", first.get_ref()),
                    "rename or remove one of them",
                );
            }
            names.entry(key).or_insert(&rv.name);
            let Some((value, literal, _)) = self.lower_value(&rv.value, &vwhat, &lookup) else {
                continue;
            };
            let (lo, hi) = repr.range();
            if !(lo..=hi).contains(&value) {
                let help = if value < 0 && !repr.is_signed() && kind == EnumKind::Enum {
                    let signed = repr.name().replacen('u', "i", 1);
                    format!(
                        "an unsigned repr holds no negative values: use a signed repr such as `{signed}`, or a value of 0 or more"
                    )
                } else {
                    format!("use a wider repr than `{repr}`, or another value")
                };
                self.errors.error_help(
                    &rv.value.span(),
                    format!(
                        "{vwhat}: {literal} does not fit the representation {repr} ({lo}..={hi})"
                    ),
                    help,
                );
            } else if kind == EnumKind::Flags {
                if value <= 0 || value & (value - 1) != 0 {
                    self.errors.error_help(
                        &rv.value.span(),
                        format!("{vwhat}: {literal} is not a single bit"),
                        "a flag is one bit: 0x1, 0x2, 0x4, ...",
                    );
                } else if let Some(other) =
                    first_with_bit[value.trailing_zeros() as usize].map(|i| &values[i])
                {
                    let line = self.line_of(&other.span);
                    self.errors.error_help(
                        &rv.value.span(),
                        format!(
                            "{vwhat}: bit {literal} overlaps `{name}.{}` ({}) on line {line}",
                            other.name, other.literal
                        ),
                        "give each flag a bit of its own",
                    );
                }
            }
            if kind == EnumKind::Flags {
                let bits = value as u128;
                for (bit, first) in first_with_bit.iter_mut().enumerate() {
                    if first.is_none() && bits & (1 << bit) != 0 {
                        *first = Some(values.len());
                    }
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
        let ordered = r.ordered.as_ref().filter(|o| *o.get_ref());
        if let Some((o, message)) =
            ordered.and_then(|o| Some((o, order_error(kind, &what, &values)?)))
        {
            self.errors.error(&o.span(), message);
        }
        Enum {
            name,
            kind,
            repr,
            ordered: ordered.is_some(),
            doc: text(&r.doc),
            since: self.lower_since(&r.since, version, &what),
            values,
            span: e.span(),
        }
    }

    fn lower_type(
        &mut self,
        ty: &Spanned<String>,
        what: &dyn Display,
        types: &HashMap<String, TypeName>,
        consts: &ConstTable,
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
            let is_const = consts.find(base).is_some();
            let help = match closest(base, candidates) {
                Some(c) if !is_const => format!("did you mean `{c}`?"),
                _ if is_const => format!("a constant can size an array, as in `u32[{base}]`; a type is a primitive (u8 ... f64), `char[N]`, or an enum, flag set or struct"),
                _ => "use a primitive (u8 ... f64), `char[N]`, or the name of an enum, flag set or struct".into(),
            };
            let msg = if is_const {
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
                let (count, constant) = if let Some(i) = consts.find(l) {
                    (consts.list[i].value, Some(i))
                } else if let Some(v) = expr::parse_int_literal(l) {
                    (v, None)
                } else {
                    let is_name = l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        && !l.starts_with(|c: char| c.is_ascii_digit());
                    let help = match closest(l, consts.names()) {
                        Some(c) if is_name => format!("did you mean `{c}`?"),
                        _ if !l.contains(|c: char| "+-*/%<>&|^() ".contains(c)) => {
                            "write a positive integer or the name of a constant".into()
                        }
                        _ => format!(
                            "an array length is an integer or a constant's name, not an expression: \
                             declare a [[const]] with value = \"{l}\" and use its name"
                        ),
                    };
                    let problem = if is_name {
                        "is not a constant"
                    } else {
                        "is neither an integer nor the name of a constant"
                    };
                    self.errors.error_help(
                        &span,
                        format!("{what}: array length `{l}` {problem}"),
                        help,
                    );
                    return None;
                };
                if count <= 0 || count > i128::from(u32::MAX) {
                    // A constant that sizes an array is checked, and reported, where it is
                    // declared; only a literal length is reported here.
                    if constant.is_none() {
                        self.errors.error_help(
                            &span,
                            format!("{what}: array length {count} is not between 1 and 4294967295"),
                            "an array holds at least one element",
                        );
                    }
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
        consts: &ConstTable,
        version: Version,
    ) -> Struct {
        let r = s.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("struct `{name}`");
        if r.fields.get_ref().is_empty() {
            self.errors
                .error(&r.fields.span(), format!("{what} has no fields"));
        }
        let mut fields: Vec<Field> = Vec::with_capacity(r.fields.get_ref().len());
        // The first field of each name, looked up, never scanned.
        let mut names: HashMap<&str, &Spanned<String>> = HashMap::new();
        for f in r.fields.get_ref() {
            let rf = f.get_ref();
            let fname = rf.name.get_ref().clone();
            let fwhat = MemberName {
                kind: "field",
                item: &name,
                member: rf.name.get_ref(),
            };
            self.check_name(&rf.name, &Labeled(&what, "field"));
            if let Some(first) = names.get(fname.as_str()) {
                let line = self.line_of(&first.span());
                self.errors.error_help(
                    &self.inner(&rf.name),
                    format!(
                        "duplicate field `{fname}` in {what}: it is already declared on line {line}"
                    ),
                    "rename or remove one of them",
                );
            }
            names.entry(rf.name.get_ref().as_str()).or_insert(&rf.name);
            let Some(ty) = self.lower_type(&rf.ty, &fwhat, types, consts) else {
                continue;
            };
            let expect = rf
                .expect
                .as_ref()
                .and_then(|e| self.lower_expect(e, &ty, &fwhat, consts));
            fields.push(Field {
                name: fname,
                ty,
                doc: text(&rf.doc),
                since: self.lower_since(&rf.since, version, &fwhat),
                count: None,
                expect,
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

    /// `expect = "snapshot_magic"`: a constant whose value fits the field's integer type.
    fn lower_expect(
        &mut self,
        e: &Spanned<String>,
        ty: &Type,
        what: &dyn Display,
        consts: &ConstTable,
    ) -> Option<usize> {
        let span = self.inner(e);
        let Some(i) = consts.find(e.get_ref()) else {
            let help = match closest(e.get_ref(), consts.names()) {
                Some(c) => format!("did you mean `{c}`?"),
                None => "name a constant declared in this schema".into(),
            };
            self.errors.error_help(
                &span,
                format!("{what}: `expect` names unknown constant `{}`", e.get_ref()),
                help,
            );
            return None;
        };
        let prim = match (ty.elem, ty.len) {
            (Elem::Prim(p), None) if p.is_integer() => p,
            _ => {
                self.errors.error(
                    &span,
                    format!("{what}: `expect` needs an integer field, not `{}`", ty.text),
                );
                return None;
            }
        };
        let consts = consts.list;
        let (lo, hi) = prim.range();
        if !(lo..=hi).contains(&consts[i].value) {
            self.errors.error(
                &span,
                format!(
                    "{what}: constant `{}` ({}) does not fit the field's type {prim}",
                    consts[i].name, consts[i].literal
                ),
            );
            return None;
        }
        Some(i)
    }

    /// `count = "ship_count"` on an array: a path through this struct's fields (and nested
    /// structs) to an integer field. Resolved once every struct is lowered.
    fn resolve_counts(&mut self, raw: &RawSchema, structs: &mut [Struct]) {
        for (si, rs) in raw.structs.iter().enumerate() {
            for rf in rs.get_ref().fields.get_ref() {
                let rf = rf.get_ref();
                let Some(c) = &rf.count else { continue };
                // A field whose type failed to lower is absent; find fields by name.
                let Some(index) = structs[si]
                    .fields
                    .iter()
                    .position(|f| f.name == *rf.name.get_ref())
                else {
                    continue;
                };
                let what = format!("field `{}.{}`", structs[si].name, rf.name.get_ref());
                let span = self.inner(c);
                let field = &structs[si].fields[index];
                if field.ty.len.is_none() || field.ty.elem == Elem::Char {
                    self.errors.error(
                        &span,
                        format!(
                            "{what}: `count` belongs on an array field, and `{}` is not one",
                            field.ty.text
                        ),
                    );
                    continue;
                }
                match resolve_path(structs, si, c.get_ref()) {
                    Ok(path) => {
                        structs[si].fields[index].count = Some(CountRef {
                            path,
                            text: c.get_ref().clone(),
                        })
                    }
                    Err(e) => self
                        .errors
                        .error(&span, format!("{what}: `count = \"{}\"`: {e}", c.get_ref())),
                }
            }
        }
    }

    /// An extensible struct grows at its end, so nothing may embed it.
    fn check_extensible(&mut self, raw: &RawSchema, structs: &[Struct]) {
        // For each struct, the structs that embed it with their first such field, in
        // schema order: one pass over every field, not one per extensible struct.
        let mut embedders: Vec<Vec<(&Struct, &Field)>> = vec![Vec::new(); structs.len()];
        for outer in structs {
            for f in &outer.fields {
                if let Elem::Struct(j) = f.ty.elem {
                    let list = &mut embedders[j];
                    if !list.last().is_some_and(|(o, _)| std::ptr::eq(*o, outer)) {
                        list.push((outer, f));
                    }
                }
            }
        }
        for (i, s) in structs.iter().enumerate() {
            if !s.extensible {
                continue;
            }
            let flag_span = raw.structs[i]
                .get_ref()
                .extensible
                .as_ref()
                .map_or(s.span.clone(), |e| e.span());
            for (outer, f) in &embedders[i] {
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

    /// Names that differ in the schema but collide once a backend converts them: type names
    /// in CamelCase (`vec_2` and `vec2` are both `Vec2`), and the C macros of constants and
    /// enum values (constant `phase_playing` and value `phase.playing` are both
    /// `PREFIX_PHASE_PLAYING`). The later name is reported, pointing at the earlier one.
    fn check_converted_names(&mut self, raw: &RawSchema, prefix: &str) {
        /// What a name becomes: a C macro or a type name.
        #[derive(PartialEq, Eq, Hash)]
        enum Converted {
            Macro(String),
            Type(String),
        }
        /// Where a name comes from. Messages are only formatted for a collision.
        enum Source<'a> {
            Const(&'a str),
            Type(&'static str, &'a str),
            Value(&'static str, &'a str, &'a str),
        }
        impl Source<'_> {
            /// The schema's name: the same one twice is a duplicate, reported on its own.
            fn original(&self) -> (&str, Option<&str>) {
                match *self {
                    Source::Const(n) | Source::Type(_, n) => (n, None),
                    Source::Value(_, n, v) => (n, Some(v)),
                }
            }
            fn what(&self) -> String {
                match *self {
                    Source::Const(n) => format!("constant `{n}`"),
                    Source::Type(kind, n) => format!("{kind} `{n}`"),
                    Source::Value(kind, n, v) => format!("{kind} value `{n}.{v}`"),
                }
            }
        }
        struct Claim<'a> {
            key: Converted,
            source: Source<'a>,
            span: Span,
        }
        let p = upper(prefix);
        let mut claims: Vec<Claim> = Vec::new();
        for c in &raw.consts {
            let n = c.get_ref().name.get_ref();
            claims.push(Claim {
                key: Converted::Macro(format!("{p}_{}", upper(n))),
                source: Source::Const(n),
                span: self.inner(&c.get_ref().name),
            });
        }
        let enums = raw
            .enums
            .iter()
            .map(|e| ("enum", e))
            .chain(raw.flags.iter().map(|e| ("flags", e)));
        for (kind, e) in enums {
            let e = e.get_ref();
            let n = e.name.get_ref();
            claims.push(Claim {
                key: Converted::Type(camel(n)),
                source: Source::Type(kind, n),
                span: self.inner(&e.name),
            });
            for v in e.values.get_ref() {
                let v = &v.get_ref().name;
                claims.push(Claim {
                    key: Converted::Macro(format!("{p}_{}_{}", upper(n), upper(v.get_ref()))),
                    source: Source::Value(kind, n, v.get_ref()),
                    span: self.inner(v),
                });
            }
        }
        for st in &raw.structs {
            let n = st.get_ref().name.get_ref();
            claims.push(Claim {
                key: Converted::Type(camel(n)),
                source: Source::Type("struct", n),
                span: self.inner(&st.get_ref().name),
            });
        }
        claims.sort_by_key(|c| c.span.start);
        let mut seen: HashMap<&Converted, &Claim> = HashMap::with_capacity(claims.len());
        for c in &claims {
            match seen.get(&c.key) {
                Some(first) if first.source.original() == c.source.original() => {}
                Some(first) => {
                    let line = self.line_of(&first.span);
                    let shown = match &c.key {
                        Converted::Macro(m) => format!("the C macro `{m}`"),
                        Converted::Type(t) => format!("the type name `{t}`"),
                    };
                    self.errors.error_help(
                        &c.span,
                        format!(
                            "{} and {} (line {line}) both become {shown} in the generated code",
                            c.source.what(),
                            first.source.what(),
                        ),
                        "rename one of them",
                    );
                }
                None => {
                    seen.insert(&c.key, c);
                }
            }
        }
    }

    /// The Python module puts constants (`ab` → `AB`) and types (`a_b` → `AB`) in one
    /// namespace.
    fn check_python_names(&mut self, consts: &[Constant], enums: &[Enum], structs: &[Struct]) {
        let by_name: HashMap<String, &Constant> =
            consts.iter().map(|c| (upper(&c.name), c)).collect();
        let types = enums
            .iter()
            .map(|e| (e.kind.keyword(), &e.name, &e.span))
            .chain(structs.iter().map(|s| ("struct", &s.name, &s.span)));
        for (kind, name, span) in types {
            if let Some(c) = by_name.get(&camel(name)) {
                self.errors.error_help(
                    span,
                    format!(
                        "{kind} `{name}` and constant `{}` both become `{}` in the Python module",
                        c.name,
                        camel(name)
                    ),
                    "rename one of them",
                );
            }
        }
    }
}

/// How a message names a member of an item, such as "field `ship.pos`" or "enum value
/// `phase.playing`": formatted only when a message is, not for every member lowered.
struct MemberName<'a> {
    kind: &'static str,
    item: &'a str,
    member: &'a str,
}

impl Display for MemberName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}.{}`", self.kind, self.item, self.member)
    }
}

/// An item's name followed by a word: "struct `ship`: field".
struct Labeled<'a>(&'a str, &'static str);

impl Display for Labeled<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.0, self.1)
    }
}

/// Resolves `a.b.c` from struct `start` to field indices; the last must be a plain integer.
fn resolve_path(structs: &[Struct], start: usize, path: &str) -> Result<Vec<usize>, String> {
    let mut current = start;
    let mut out = Vec::new();
    let segments: Vec<&str> = path.split('.').collect();
    for (n, seg) in segments.iter().enumerate() {
        let s = &structs[current];
        let Some(i) = s.fields.iter().position(|f| f.name == *seg) else {
            return Err(format!("struct `{}` has no field `{seg}`", s.name));
        };
        out.push(i);
        let f = &s.fields[i];
        let last = n + 1 == segments.len();
        match (f.ty.elem, f.ty.len, last) {
            (Elem::Struct(j), None, false) => current = j,
            (Elem::Prim(p), None, true) if p.is_integer() => return Ok(out),
            (_, _, true) => {
                return Err(format!("`{seg}` is `{}`, not an integer field", f.ty.text));
            }
            (_, _, false) => {
                return Err(format!(
                    "`{seg}` is `{}`, not a struct to look into",
                    f.ty.text
                ));
            }
        }
    }
    Err("empty path".into())
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
