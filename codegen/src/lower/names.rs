//! Names: snake_case, the shared namespace of types and constants, reserved names, and
//! names that collide once a backend converts them (C macros, CamelCase, Python).

use std::collections::HashMap;
use std::fmt::Display;

use toml::Spanned;

use super::context::{Lower, TypeName};
use crate::diagnostics::Span;
use crate::ir::names::{camel, is_c_reserved_word, is_snake_case, upper};
use crate::ir::{Constant, Enum, PerStruct, Prim, Struct, StructId};
use crate::parse::{RawEnum, RawSchema};

/// Names the ABI version constants take in every target; no constant may take them.
const RESERVED_CONSTS: [&str; 3] = ["abi_version", "abi_version_major", "abi_version_minor"];

/// Names the wake statistics take when the schema has events: C's `PREFIX_wake_stats` type
/// and its two functions, Python's `WakeStats` (the first name in CamelCase). No type may
/// take them then.
const WAKE_STATS_NAMES: [&str; 3] = [
    "wake_stats",
    "wake_stats_record",
    "wake_stats_percentiles_us",
];

impl Lower<'_> {
    pub(super) fn check_name(&mut self, name: &Spanned<String>, what: &dyn Display) {
        let n = name.get_ref();
        if !is_snake_case(n) {
            let rule = if n.is_ascii() {
                "use lowercase words joined by single underscores"
            } else {
                "names are ASCII: use lowercase words joined by single underscores"
            };
            let help = match suggest_snake(n) {
                Some(hint) => format!("{rule}, such as `{hint}`"),
                None => format!("{rule}, starting with a letter"),
            };
            self.errors.error_help(
                &self.inner(name),
                format!("{what} `{n}` is not snake_case"),
                help,
            );
        }
    }
}

impl Lower<'_> {
    /// Checks the shared namespace of types and constants, and returns the type names.
    pub(super) fn collect_type_names(&mut self, raw: &RawSchema) -> HashMap<String, TypeName> {
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
        for (i, s) in StructId::enumerate(&raw.structs) {
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
            if kind != "constant" && !raw.events.is_empty() && WAKE_STATS_NAMES.contains(&n) {
                self.errors.error_help(
                    &self.inner(name),
                    format!(
                        "{kind} `{n}` takes a name the events' wake statistics are generated under"
                    ),
                    "with events, C has the prefix's `_wake_stats` type and its `_record` and \
                     `_percentiles_us` functions, and Python a `WakeStats` class: rename the type",
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
}

impl Lower<'_> {
    /// Names that differ in the schema but collide once a backend converts them: type names
    /// in CamelCase (`vec_2` and `vec2` are both `Vec2`), and the C macros of constants and
    /// enum values (constant `phase_playing` and value `phase.playing` are both
    /// `PREFIX_PHASE_PLAYING`). The later name is reported, pointing at the earlier one.
    pub(super) fn check_converted_names(&mut self, raw: &RawSchema, prefix: &str) {
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
    pub(super) fn check_python_names(
        &mut self,
        consts: &[Constant],
        enums: &[Enum],
        structs: &PerStruct<Struct>,
    ) {
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

impl Lower<'_> {
    /// Names that only the C header's rules reject: a type whose C name
    /// (`<prefix>_<name>`) is a C or C++ reserved word, such as `and_eq`, and an enum value
    /// whose macro (`<PREFIX>_<ENUM>_<VALUE>`) is one of the ABI version macros, the names
    /// the constants may not take either.
    pub(super) fn check_c_names(
        &mut self,
        enums: &[Enum],
        structs: &PerStruct<Struct>,
        prefix: &str,
    ) {
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

/// A snake_case spelling of `name` (`ClientEntry` → `client_entry`, `prozeß_id` →
/// `prozess_id`), when there is a valid one that differs from it.
fn suggest_snake(name: &str) -> Option<String> {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 && !out.ends_with('_') {
            out.push('_');
        }
        let lower = c.to_lowercase().next().unwrap_or(c);
        let ascii = match lower {
            'a'..='z' | '0'..='9' | '_' => None,
            '-' | ' ' => Some("_"),
            _ => Some(transliterate(lower)),
        };
        let text = ascii.map_or_else(|| lower.to_string(), str::to_string);
        for c in text.chars() {
            if !(c == '_' && out.ends_with('_')) {
                out.push(c);
            }
        }
    }
    let out = out.trim_end_matches('_');
    let out = match out.strip_prefix('_') {
        Some(rest) if !name.starts_with('_') => rest,
        _ => out,
    };
    (is_snake_case(out) && out != name).then(|| out.to_string())
}

/// The ASCII letters a lowercase Latin letter with a diacritic is usually written with
/// (`é` → `e`, `ß` → `ss`); `_` for any other character.
fn transliterate(c: char) -> &'static str {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => "e",
        'ì' | 'í' | 'î' | 'ï' | 'ī' => "i",
        'ł' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'œ' => "oe",
        'ř' => "r",
        'ß' => "ss",
        'ś' | 'š' => "s",
        'ť' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => "_",
    }
}

#[cfg(test)]
mod tests {
    use super::suggest_snake;

    #[test]
    fn snake_hints_are_valid_names() {
        for (name, hint) in [
            ("ClientEntry", Some("client_entry")),
            ("heartbeatNs", Some("heartbeat_ns")),
            ("In-Match", Some("in_match")),
            ("prozeß_id", Some("prozess_id")),
            ("Größe", Some("grosse")),
            ("_Pad", Some("_pad")),
            ("名前", None),
            ("2d", None),
            ("a__b", Some("a_b")),
        ] {
            assert_eq!(suggest_snake(name).as_deref(), hint, "{name}");
        }
    }
}
