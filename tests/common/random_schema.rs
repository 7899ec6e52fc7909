//! Random valid schemas from a seed, for the differential test: constants, enums and flag
//! sets of every representation, nested structs and arrays of them, explicit padding
//! wherever natural alignment needs it, and names that are keywords somewhere. The text is
//! a pure function of the seed. The small layout simulation here only decides where
//! padding goes; the layout engine and the compilers are what the test compares.

use std::collections::HashSet;
use std::fmt::Write;

/// splitmix64: small, fast and good enough to pick schemas.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x6A09_E667_F3BC_C908)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// One generated schema: its seed, its C prefix (unique per seed, so that many schemas
/// share one C translation unit) and its TOML text.
pub struct RandomSchema {
    pub seed: u64,
    pub c_prefix: String,
    pub toml: String,
}

/// The C prefix of the schema with `seed`: `s` and the seed in 16 hex digits, so that it
/// names one schema and no prefix is part of another.
pub fn prefix_of(seed: u64) -> String {
    format!("s{seed:016x}")
}

/// Words for type names (two letters or more, so no CamelCase type name can equal an
/// UPPER_CASE constant).
#[rustfmt::skip]
const TYPE_WORDS: &[&str] = &[
    "node", "item", "entry", "header", "slot", "ring", "block", "frame", "list", "table",
    "cell", "point", "vec", "state", "mode", "record", "packet", "chunk", "page", "region",
    "sample", "event", "pair", "range", "span", "tile", "grid", "layer", "color", "rect",
    "link", "port", "lane", "queue", "leaf", "root", "ship", "pad",
];

/// Whole type names that are keywords, builtins or prelude names in some target.
#[rustfmt::skip]
const KEYWORD_TYPES: &[&str] = &[
    "self", "match", "type", "class", "default", "new", "none", "true", "false", "option",
    "result", "some", "ok", "err", "vec", "string", "box", "clone", "copy", "debug", "sized",
    "send", "sync", "drop", "str", "object", "exception", "int", "float", "bool", "struct",
    "union", "enum", "text", "property", "iterator", "from", "into", "fn", "impl", "mod",
    "core", "std", "zerocopy", "ctypes", "structure", "formatter",
];

/// Field names that are keywords, macros or reserved words in some target, or names the
/// generated code uses for something else.
#[rustfmt::skip]
const KEYWORD_FIELDS: &[&str] = &[
    "type", "match", "class", "default", "self", "new", "union", "struct", "enum", "fn",
    "crate", "super", "async", "await", "dyn", "impl", "trait", "mod", "ref", "move", "loop",
    "where", "yield", "box", "none", "true", "false", "bool", "int", "float", "and", "or",
    "not", "xor", "errno", "linux", "unix", "sizeof", "offsetof", "size_t", "uint8_t",
    "int64_t", "template", "operator", "this", "delete", "register", "auto", "signed",
    "restrict", "inline", "static_assert", "alignof", "noreturn", "lambda", "def", "pass",
    "import", "from", "in", "is", "global", "nonlocal", "print", "len", "object", "str", "std",
    "core", "main", "assert", "final", "override", "raw", "safe", "gen", "macro", "priv",
    "virtual", "do", "try", "typeof", "value", "name", "offset", "size", "text", "set_text",
    "f", "fmt", "values", "from_name", "bits", "all", "empty", "iter", "unsafe", "static",
    "const", "abstract", "become", "unsized", "use", "pub", "let", "mut", "for",
];

#[rustfmt::skip]
const FIELD_WORDS: &[&str] = &[
    "x", "y", "z", "w", "id", "count", "flags", "kind", "state", "pos", "vel", "hp", "seq",
    "tick", "time", "stamp", "mask", "code", "tag", "level", "score", "owner", "target", "data",
    "head", "tail", "min", "max", "lo", "hi", "left", "right", "width", "height",
];

#[rustfmt::skip]
const VALUE_WORDS: &[&str] = &[
    "idle", "running", "done", "error", "none", "self", "type", "default", "bool", "int",
    "class", "true", "false", "match", "new", "first", "last", "min", "max", "zero", "one",
    "red", "green", "blue", "on", "off", "north", "south", "east", "west", "all", "empty",
    "bits", "name", "value", "values", "from_name", "iter", "contains", "insert", "remove",
];

#[rustfmt::skip]
const CONST_WORDS: &[&str] = &[
    "max", "min", "count", "len", "slots", "limit", "size", "cap", "items", "rows", "cols",
    "magic", "mask", "flag", "base", "step", "depth", "width",
];

/// Docs that fight comments, docstrings, templates and markdown.
const DOCS: &[&str] = &[
    "A plain doc.",
    "Doc with */ and /* inside",
    "Quotes \" and a backslash \\ and \"\"\" triple quotes",
    "{{ braces }} {% tag %} {# comment #}",
    "Unicode: \u{fc}n\u{ef}c\u{f6}d\u{e9} \u{2014} \u{2713}",
    "Trailing backslash \\",
    "Line one\nLine two",
    "# not a heading\n- not a list",
    "<b>html</b> & `code` | pipe *stars* _under_",
    "tab\tinside",
    "??/ trigraph ??= and ??'",
    "percent %d %s and {} and {0}",
    "r#\"raw\"# and '''single''' and \\n not a newline",
];

/// The names a schema has taken, as `name:`, `camel:` (type names) and `macro:` (C
/// macros) keys, so that no two collide in any target.
struct Names {
    used: HashSet<String>,
}

impl Names {
    /// Whether `key` was free, claiming it.
    fn claim(&mut self, key: String) -> bool {
        self.used.insert(key)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Enum,
    Flags,
}

struct EnumInfo {
    name: String,
    size: u64,
}

#[derive(Clone)]
struct ConstInfo {
    name: String,
    value: i128,
    /// Sizes arrays (no `type`, value 1..=6).
    sizes_array: bool,
}

struct StructInfo {
    name: String,
    size: u64,
    align: u64,
    /// Paths to integer fields a `count` may name from a struct that embeds this one.
    int_paths: Vec<String>,
    embedded: bool,
}

/// The element of a field, as the generator picked it.
#[derive(Clone)]
enum Elem {
    Prim(&'static str, u64),
    Char,
    Enum(usize),
    Struct(usize),
}

struct FieldSpec {
    name: String,
    ty: String,
    /// `, key = value` pairs after the type: count, expect, doc, since.
    extra: String,
    size: u64,
}

const PRIMS: &[(&str, u64)] = &[
    ("u8", 1),
    ("u16", 2),
    ("u32", 4),
    ("u64", 8),
    ("i8", 1),
    ("i16", 2),
    ("i32", 4),
    ("i64", 8),
    ("f32", 4),
    ("f64", 8),
];

const INT_REPRS: &[(&str, u64, bool)] = &[
    ("u8", 1, false),
    ("u16", 2, false),
    ("u32", 4, false),
    ("u64", 8, false),
    ("i8", 1, true),
    ("i16", 2, true),
    ("i32", 4, true),
    ("i64", 8, true),
];

fn int_range(bytes: u64, signed: bool) -> (i128, i128) {
    let bits = bytes * 8;
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// A TOML basic string.
pub fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

struct Gen {
    rng: Rng,
    prefix: String,
    names: Names,
    version: (u32, u32),
    consts: Vec<ConstInfo>,
    enums: Vec<EnumInfo>,
    structs: Vec<StructInfo>,
    /// TOML blocks: constants in order (expressions name earlier ones), and the rest.
    const_blocks: Vec<String>,
    other_blocks: Vec<String>,
}

/// Generates the schema with `seed`.
pub fn random_schema(seed: u64) -> RandomSchema {
    let prefix = prefix_of(seed);
    let mut g = Gen {
        rng: Rng::new(seed),
        prefix: prefix.clone(),
        names: Names {
            used: HashSet::new(),
        },
        version: (0, 0),
        consts: Vec::new(),
        enums: Vec::new(),
        structs: Vec::new(),
        const_blocks: Vec::new(),
        other_blocks: Vec::new(),
    };
    let toml = g.generate();
    RandomSchema {
        seed,
        c_prefix: prefix,
        toml,
    }
}

impl Gen {
    fn generate(&mut self) -> String {
        let mut head = String::new();
        let abi_name = self.snake_words(TYPE_WORDS, 1, 3);
        self.version = match self.rng.below(10) {
            0 => (65535, self.rng.range(0, 65535) as u32),
            1 => (self.rng.range(0, 65535) as u32, 65535),
            2 => (
                self.rng.range(100, 65535) as u32,
                self.rng.range(100, 65535) as u32,
            ),

            _ => (self.rng.range(0, 3) as u32, self.rng.range(0, 20) as u32),
        };
        let _ = writeln!(head, "[abi]");
        let _ = writeln!(head, "name = {}", toml_string(&abi_name));
        let _ = writeln!(head, "version = \"{}.{}\"", self.version.0, self.version.1);
        let _ = writeln!(head, "c_prefix = {}", toml_string(&self.prefix));
        if self.rng.chance(30) {
            let title = self.doc();
            let _ = writeln!(head, "title = {}", toml_string(&title));
        }
        if self.rng.chance(30) {
            let doc = self.doc();
            let _ = writeln!(head, "doc = {}", toml_string(&doc));
        }
        let _ = writeln!(head, "byte_order = \"little\"");

        let n_array_consts = self.rng.range(0, 3);
        for _ in 0..n_array_consts {
            self.gen_array_const();
        }
        for _ in 0..self.rng.range(0, 3) {
            self.gen_other_const();
        }
        for _ in 0..self.rng.range(0, 3) {
            self.gen_enum(Kind::Enum);
        }
        for _ in 0..self.rng.range(0, 2) {
            self.gen_enum(Kind::Flags);
        }
        let n_structs = self.rng.range(1, 6);
        let mut struct_blocks = Vec::new();
        let mut struct_extras = Vec::new();
        for _ in 0..n_structs {
            let (block, extensible_slot) = self.gen_struct();
            struct_blocks.push(block);
            struct_extras.push(extensible_slot);
        }
        // A struct nothing embeds may be extensible.
        for (i, block) in struct_blocks.iter_mut().enumerate() {
            let line = if !self.structs[i].embedded && self.rng.chance(20) {
                "extensible = true\n"
            } else {
                ""
            };
            *block = block.replacen(&struct_extras[i], line, 1);
        }
        self.other_blocks.extend(struct_blocks);

        // Constants keep their order; enums and structs come in any order, among them.
        let mut others = std::mem::take(&mut self.other_blocks);
        self.rng.shuffle(&mut others);
        let consts = std::mem::take(&mut self.const_blocks);
        let mut out = head;
        let (mut ci, mut oi) = (0, 0);
        while ci < consts.len() || oi < others.len() {
            let take_const = oi == others.len() || (ci < consts.len() && self.rng.chance(50));
            out.push('\n');
            if take_const {
                out.push_str(&consts[ci]);
                ci += 1;
            } else {
                out.push_str(&others[oi]);
                oi += 1;
            }
        }
        out
    }

    fn doc(&mut self) -> String {
        self.rng.pick(DOCS).to_string()
    }

    /// `word_word...`, `min..=max` words from `words`, sometimes with a number.
    fn snake_words(&mut self, words: &[&str], min: u64, max: u64) -> String {
        let n = self.rng.range(min, max);
        let mut parts: Vec<String> = (0..n).map(|_| self.rng.pick(words).to_string()).collect();
        if self.rng.chance(20) {
            parts.push(self.rng.range(0, 99).to_string());
        }
        parts.join("_")
    }

    /// A fresh name for an enum, flag set or struct: free as a schema name, as a CamelCase
    /// type name and as the C macro prefix of its values.
    fn type_name(&mut self) -> String {
        loop {
            let name = if self.rng.chance(30) {
                self.rng.pick(KEYWORD_TYPES).to_string()
            } else {
                self.snake_words(TYPE_WORDS, 1, 2)
            };
            let camel: String = name
                .split('_')
                .map(|w| {
                    let mut c = w.chars();
                    c.next()
                        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                        .unwrap_or_default()
                })
                .collect();
            if self.names.used.contains(&format!("name:{name}"))
                || self.names.used.contains(&format!("camel:{camel}"))
            {
                continue;
            }
            self.names.claim(format!("name:{name}"));
            self.names.claim(format!("camel:{camel}"));
            return name;
        }
    }

    /// The version in `since`, never later than the ABI's.
    fn since(&mut self) -> String {
        if !self.rng.chance(15) {
            return String::new();
        }
        let (major, minor) = self.version;
        let m = self.rng.range(0, u64::from(major)) as u32;
        let n = if m == major {
            self.rng.range(0, u64::from(minor)) as u32
        } else {
            self.rng.range(0, 65535) as u32
        };
        format!(", since = \"{m}.{n}\"")
    }

    fn doc_key(&mut self, percent: u64) -> String {
        if self.rng.chance(percent) {
            let d = self.doc();
            format!(", doc = {}", toml_string(&d))
        } else {
            String::new()
        }
    }

    /// A constant name whose macro meets no other.
    fn const_name(&mut self) -> String {
        loop {
            let name = self.snake_words(CONST_WORDS, 1, 3);
            let reserved = name.starts_with("abi_version");
            if reserved || self.names.used.contains(&format!("name:{name}")) {
                continue;
            }
            if !self
                .names
                .claim(format!("macro:{}", name.to_ascii_uppercase()))
            {
                continue;
            }
            self.names.claim(format!("name:{name}"));
            return name;
        }
    }

    /// `value` written as TOML: an integer in one of TOML's radices, or a string the
    /// generator evaluates (a literal in any radix, or an expression of constants).
    fn spell_value(&mut self, value: i128) -> String {
        let fits_toml = i64::try_from(value).is_ok();
        // An expression of an earlier constant: `name + k`, `name * k + r`.
        if self.rng.chance(20) && !self.consts.is_empty() {
            let c = self.rng.pick(&self.consts).clone();
            let diff = value - c.value;
            if diff.unsigned_abs() > u128::from(u64::MAX) {
                return format!("\"{value}\"");
            }
            if c.value != 0 && self.rng.chance(30) && value % c.value == 0 {
                let k = value / c.value;
                return format!("\"{} * ({k})\"", c.name);
            }
            return if diff >= 0 {
                format!("\"{} + {diff}\"", c.name)
            } else {
                format!("\"{} - {}\"", c.name, diff.unsigned_abs())
            };
        }
        let magnitude = value.unsigned_abs();
        match self.rng.below(8) {
            0 if fits_toml && value >= 0 => format!("0x{magnitude:X}"),
            1 if fits_toml && value >= 0 => format!("0o{magnitude:o}"),
            2 if fits_toml && value >= 0 => format!("0b{magnitude:b}"),
            3 if fits_toml && magnitude >= 1000 => {
                let digits = magnitude.to_string();
                let mut grouped = String::new();
                for (i, ch) in digits.chars().enumerate() {
                    if i > 0 && (digits.len() - i) % 3 == 0 {
                        grouped.push('_');
                    }
                    grouped.push(ch);
                }
                let sign = if value < 0 { "-" } else { "" };
                format!("{sign}{grouped}")
            }
            4 => {
                let sign = if value < 0 { "-" } else { "" };
                format!("\"{sign}0x{magnitude:X}\"")
            }
            5 if magnitude > 0xFFFF => {
                // Hex with separators every four digits, as a string.
                let hex = format!("{magnitude:X}");
                let mut grouped = String::new();
                for (i, ch) in hex.chars().enumerate() {
                    if i > 0 && (hex.len() - i) % 4 == 0 {
                        grouped.push('_');
                    }
                    grouped.push(ch);
                }
                let sign = if value < 0 { "-" } else { "" };
                format!("\"{sign}0x{grouped}\"")
            }
            6 => format!("\"{value}\""),
            _ if fits_toml => value.to_string(),
            _ => format!("\"{value}\""),
        }
    }

    fn gen_array_const(&mut self) {
        let name = self.const_name();
        let value = self.rng.range(1, 6) as i128;
        let spelled = self.spell_value(value);
        let doc = self.doc_key(20);
        let since = self.since();
        let mut block = String::from("[[const]]\n");
        let _ = writeln!(block, "name = {}", toml_string(&name));
        let _ = writeln!(block, "value = {spelled}");
        block.push_str(&self.item_extras(&doc, &since));
        self.const_blocks.push(block);
        self.consts.push(ConstInfo {
            name,
            value,
            sizes_array: true,
        });
    }

    /// `doc = ...` and `since = ...` as item keys, from the `, key = ...` forms.
    fn item_extras(&self, doc: &str, since: &str) -> String {
        let mut out = String::new();
        for part in [doc, since] {
            if let Some(kv) = part.strip_prefix(", ") {
                out.push_str(kv);
                out.push('\n');
            }
        }
        out
    }

    /// A value of the integer type (`bytes`, `signed`), often one of its extremes.
    fn int_value(&mut self, bytes: u64, signed: bool) -> i128 {
        let (lo, hi) = int_range(bytes, signed);
        match self.rng.below(8) {
            0 => lo,
            1 => hi,
            2 if signed => -1,
            3 => 0,
            4 => (self.rng.below(200) as i128).min(hi),
            5 if signed => (-(self.rng.range(1, 200) as i128)).max(lo),
            _ => {
                let span = (hi - lo) as u128 + 1;
                let r = (u128::from(self.rng.next_u64()) << 64 | u128::from(self.rng.next_u64()))
                    % span;
                lo + r as i128
            }
        }
    }

    fn gen_other_const(&mut self) {
        let name = self.const_name();
        let (ty, value) = match self.rng.below(3) {
            // No type: the generator picks the smallest of u32, u64, i32, i64 that holds it.
            0 => {
                let &(_, bytes, signed) = self.rng.pick(INT_REPRS);
                (None, self.int_value(bytes, signed))
            }
            _ => {
                let &(ty, bytes, signed) = self.rng.pick(INT_REPRS);
                (Some(ty), self.int_value(bytes, signed))
            }
        };
        let spelled = self.spell_value(value);
        let doc = self.doc_key(20);
        let since = self.since();
        let mut block = String::from("[[const]]\n");
        let _ = writeln!(block, "name = {}", toml_string(&name));
        let _ = writeln!(block, "value = {spelled}");
        if let Some(ty) = ty {
            let _ = writeln!(block, "type = \"{ty}\"");
        }
        block.push_str(&self.item_extras(&doc, &since));
        self.const_blocks.push(block);
        self.consts.push(ConstInfo {
            name,
            value,
            sizes_array: false,
        });
    }

    fn gen_enum(&mut self, kind: Kind) {
        let name = self.type_name();
        let (repr, bytes, signed) = match kind {
            Kind::Enum => *self.rng.pick(INT_REPRS),
            Kind::Flags => *self.rng.pick(&INT_REPRS[..4]),
        };
        let bits = bytes * 8;
        let count = match kind {
            Kind::Enum => self.rng.range(1, 6),
            Kind::Flags => self.rng.range(1, 6.min(bits)),
        };
        let upper_enum = name.to_ascii_uppercase();
        let mut value_names: Vec<String> = Vec::new();
        let mut values: Vec<i128> = Vec::new();
        let mut lines = Vec::new();
        for _ in 0..count {
            let vname = loop {
                let v = self.snake_words(VALUE_WORDS, 1, 2);
                let macro_key = format!("macro:{upper_enum}_{}", v.to_ascii_uppercase());
                let version_macro = format!("{name}_{v}").starts_with("abi_version");
                if value_names.contains(&v) || version_macro || self.names.used.contains(&macro_key)
                {
                    continue;
                }
                self.names.claim(macro_key);
                break v;
            };
            let value = match kind {
                Kind::Enum => loop {
                    let v = self.int_value(bytes, signed);
                    if !values.contains(&v) {
                        break v;
                    }
                },
                Kind::Flags => loop {
                    let bit = if self.rng.chance(25) {
                        bits - 1
                    } else {
                        self.rng.below(bits)
                    };
                    let v = 1i128 << bit;
                    if !values.contains(&v) {
                        break v;
                    }
                },
            };
            let spelled = match kind {
                Kind::Flags if self.rng.chance(30) => {
                    format!("\"1 << {}\"", value.trailing_zeros())
                }
                _ => self.spell_value(value),
            };
            let doc = self.doc_key(15);
            let since = self.since();
            lines.push(format!(
                "  {{ name = {}, value = {spelled}{doc}{since} }},",
                toml_string(&vname)
            ));
            value_names.push(vname);
            values.push(value);
        }
        let keyword = match kind {
            Kind::Enum => "enum",
            Kind::Flags => "flags",
        };
        let mut block = format!("[[{keyword}]]\n");
        let _ = writeln!(block, "name = {}", toml_string(&name));
        let _ = writeln!(block, "repr = \"{repr}\"");
        let doc = self.doc_key(20);
        let since = self.since();
        block.push_str(&self.item_extras(&doc, &since));
        block.push_str("values = [\n");
        for l in lines {
            block.push_str(&l);
            block.push('\n');
        }
        block.push_str("]\n");
        self.other_blocks.push(block);
        self.enums.push(EnumInfo { name, size: bytes });
    }

    /// An array length: a literal in some spelling, or a constant that sizes arrays.
    fn array_len(&mut self, max: u64) -> (String, u64) {
        let sizers: Vec<ConstInfo> = self
            .consts
            .iter()
            .filter(|c| c.sizes_array && c.value as u64 <= max)
            .cloned()
            .collect();
        if !sizers.is_empty() && self.rng.chance(40) {
            let c = self.rng.pick(&sizers).clone();
            return (c.name, c.value as u64);
        }
        let n = self.rng.range(1, max.clamp(1, 6));
        let text = match self.rng.below(6) {
            0 => format!("0x{n:x}"),
            1 => format!(" {n} "),
            2 if n > 1 => format!("0b{n:b}"),
            3 => format!("0o{n:o}"),
            _ => n.to_string(),
        };
        (text, n)
    }

    fn field_name(&mut self, taken: &mut Vec<String>) -> String {
        loop {
            let name = match self.rng.below(10) {
                0..=2 => self.rng.pick(KEYWORD_FIELDS).to_string(),
                3 => format!("{}_{}", self.prefix, self.rng.pick(FIELD_WORDS)),
                _ => self.snake_words(FIELD_WORDS, 1, 2),
            };
            if !taken.contains(&name) {
                taken.push(name.clone());
                return name;
            }
        }
    }

    fn padding_name(&mut self, offset: u64, taken: &mut Vec<String>) -> String {
        let candidates = [
            format!("_pad{offset}"),
            "_reserved".to_string(),
            format!("_reserved{offset}"),
            "_spare".to_string(),
            "_unused".to_string(),
            "_type".to_string(),
            "_class".to_string(),
            format!("_r{}", self.rng.below(1000)),
        ];
        let mut i = if self.rng.chance(60) {
            0
        } else {
            self.rng.below(candidates.len() as u64) as usize
        };
        loop {
            let name = &candidates[i % candidates.len()];
            if !taken.contains(name) {
                taken.push(name.clone());
                return name.clone();
            }
            i += 1;
            if i > 2 * candidates.len() {
                let name = format!("_pad{offset}_{}", self.rng.below(1_000_000));
                if !taken.contains(&name) {
                    taken.push(name.clone());
                    return name;
                }
            }
        }
    }

    /// A field's type, its element's size and alignment and its element count.
    fn field_type(&mut self) -> (String, Elem, u64, u64, u64) {
        // Mostly the latest structs, so that nesting goes several levels deep.
        let n_structs = self.structs.len() as u64;
        let pick = self.rng.below(100);
        let elem = if pick < 40 {
            let &(p, size) = self.rng.pick(PRIMS);
            Elem::Prim(p, size)
        } else if pick < 52 {
            Elem::Char
        } else if pick < 70 && !self.enums.is_empty() {
            Elem::Enum(self.rng.below(self.enums.len() as u64) as usize)
        } else if n_structs > 0 {
            let back = self.rng.below(n_structs.min(3));
            let i = if self.rng.chance(70) {
                n_structs - 1 - back
            } else {
                self.rng.below(n_structs)
            };
            Elem::Struct(i as usize)
        } else {
            let &(p, size) = self.rng.pick(PRIMS);
            Elem::Prim(p, size)
        };
        let (base, size, align) = match &elem {
            Elem::Prim(p, s) => (p.to_string(), *s, *s),
            Elem::Char => ("char".to_string(), 1, 1),
            Elem::Enum(i) => (
                self.enums[*i].name.clone(),
                self.enums[*i].size,
                self.enums[*i].size,
            ),
            Elem::Struct(i) => (
                self.structs[*i].name.clone(),
                self.structs[*i].size,
                self.structs[*i].align,
            ),
        };
        let array = matches!(elem, Elem::Char) || self.rng.chance(30);
        if !array {
            return (base, elem, size, align, 1);
        }
        // Keep every field small, however deep the nesting.
        let max = (512 / size).max(1);
        let (len, count) = match elem {
            Elem::Char => {
                if self.rng.chance(50) {
                    let n = self.rng.range(1, 40);
                    (n.to_string(), n)
                } else {
                    self.array_len(40)
                }
            }
            _ => self.array_len(max),
        };
        let space = if self.rng.chance(10) { " " } else { "" };
        (format!("{base}{space}[{len}]"), elem, size, align, count)
    }

    fn gen_struct(&mut self) -> (String, String) {
        let name = self.type_name();
        let mut taken: Vec<String> = Vec::new();
        let mut fields: Vec<FieldSpec> = Vec::new();
        let mut offset: u64 = 0;
        let mut align: u64 = 1;
        // Integer fields a `count` may name: own scalars and paths into embedded structs.
        let mut int_paths: Vec<String> = Vec::new();
        let mut arrays: Vec<usize> = Vec::new();
        let n_fields = self.rng.range(1, 8);

        let mut push = |fields: &mut Vec<FieldSpec>, offset: &mut u64, f: FieldSpec| {
            *offset += f.size;
            fields.push(f);
        };

        for _ in 0..n_fields {
            // Sometimes declared room to grow: bytes, or wider reserved words.
            if self.rng.chance(12) {
                let (ty, esize) =
                    *self
                        .rng
                        .pick(&[("u8", 1u64), ("u16", 2), ("u32", 4), ("u64", 8)]);
                let count = self.rng.range(1, 8);
                self.pad_to(&mut fields, &mut taken, &mut offset, esize, &mut push);
                let pname = self.padding_name(offset, &mut taken);
                let ty = if count == 1 && self.rng.chance(50) {
                    ty.to_string()
                } else {
                    format!("{ty}[{count}]")
                };
                align = align.max(esize);
                push(
                    &mut fields,
                    &mut offset,
                    FieldSpec {
                        name: pname,
                        ty,
                        extra: String::new(),
                        size: esize * count,
                    },
                );
            }
            let (ty, elem, esize, ealign, count) = self.field_type();
            self.pad_to(&mut fields, &mut taken, &mut offset, ealign, &mut push);
            let fname = self.field_name(&mut taken);
            align = align.max(ealign);
            let mut extra = String::new();
            match (&elem, count == 1 && !ty.contains('[')) {
                (Elem::Prim(p, _), true) if !p.starts_with('f') => {
                    int_paths.push(fname.clone());
                    // `expect`: a constant whose value fits.
                    let &(_, bytes, signed) = INT_REPRS
                        .iter()
                        .find(|r| r.0 == *p)
                        .expect("an integer prim");
                    let (lo, hi) = int_range(bytes, signed);
                    let fitting: Vec<String> = self
                        .consts
                        .iter()
                        .filter(|c| (lo..=hi).contains(&c.value))
                        .map(|c| c.name.clone())
                        .collect();
                    if !fitting.is_empty() && self.rng.chance(15) {
                        let c = self.rng.pick(&fitting).clone();
                        let _ = write!(extra, ", expect = {}", toml_string(&c));
                    }
                }
                (Elem::Struct(i), true) => {
                    for p in self.structs[*i].int_paths.clone() {
                        int_paths.push(format!("{fname}.{p}"));
                    }
                }
                (Elem::Char, _) => {}
                (_, false) => arrays.push(fields.len()),
                _ => {}
            }
            if let Elem::Struct(i) = elem {
                self.structs[i].embedded = true;
            }
            let doc = self.doc_key(10);
            let since = self.since();
            extra.push_str(&doc);
            extra.push_str(&since);
            push(
                &mut fields,
                &mut offset,
                FieldSpec {
                    name: fname,
                    ty,
                    extra,
                    size: esize * count,
                },
            );
        }
        // Tail padding, sometimes with extra room before it.
        if self.rng.chance(15) {
            let pname = self.padding_name(offset, &mut taken);
            let n = self.rng.range(1, 9);
            let ty = if n == 1 {
                "u8".to_string()
            } else {
                format!("u8[{n}]")
            };
            push(
                &mut fields,
                &mut offset,
                FieldSpec {
                    name: pname,
                    ty,
                    extra: String::new(),
                    size: n,
                },
            );
        }
        self.pad_to(&mut fields, &mut taken, &mut offset, align, &mut push);
        let size = offset;

        // `count` on some arrays: an integer field of this struct, or of one it embeds.
        if !int_paths.is_empty() {
            for &i in &arrays {
                if self.rng.chance(30) {
                    let path = self.rng.pick(&int_paths).clone();
                    fields[i].extra =
                        format!(", count = {}{}", toml_string(&path), fields[i].extra);
                }
            }
        }

        let mut block = String::from("[[struct]]\n");
        let _ = writeln!(block, "name = {}", toml_string(&name));
        let doc = self.doc_key(20);
        let since = self.since();
        block.push_str(&self.item_extras(&doc, &since));
        if self.rng.chance(25) {
            let _ = writeln!(block, "size = {size}");
        }
        if self.rng.chance(25) {
            let _ = writeln!(block, "align = {align}");
        }
        // Where `extensible = true` may go, once it is known whether anything embeds it.
        let slot = format!("#extensible-slot-{}\n", self.structs.len());
        block.push_str(&slot);
        block.push_str("fields = [\n");
        for f in &fields {
            let _ = writeln!(
                block,
                "  {{ name = {}, type = {}{} }},",
                toml_string(&f.name),
                toml_string(&f.ty),
                f.extra
            );
        }
        block.push_str("]\n");
        self.structs.push(StructInfo {
            name,
            size,
            align,
            int_paths: int_paths
                .into_iter()
                .filter(|p| !p.contains('.') || self.rng.chance(50))
                .collect(),
            embedded: false,
        });
        (block, slot)
    }

    /// Declares padding up to the next multiple of `align`, as one field or two.
    fn pad_to(
        &mut self,
        fields: &mut Vec<FieldSpec>,
        taken: &mut Vec<String>,
        offset: &mut u64,
        align: u64,
        push: &mut impl FnMut(&mut Vec<FieldSpec>, &mut u64, FieldSpec),
    ) {
        let mut gap = (align - *offset % align) % align;
        while gap > 0 {
            let part = if gap > 1 && self.rng.chance(20) {
                self.rng.range(1, gap - 1)
            } else {
                gap
            };
            let name = self.padding_name(*offset, taken);
            let ty = if part == 1 && self.rng.chance(70) {
                "u8".to_string()
            } else if self.rng.chance(15) {
                format!("char[{part}]")
            } else {
                format!("u8[{part}]")
            };
            push(
                fields,
                offset,
                FieldSpec {
                    name,
                    ty,
                    extra: String::new(),
                    size: part,
                },
            );
            gap -= part;
        }
    }
}
