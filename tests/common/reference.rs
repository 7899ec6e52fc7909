//! A parser of the plain-text bridge ABI reference (`tests/fixtures/bridge-abi-0.9-reference.txt`),
//! so that tests compare what the generator makes with numbers and sentences read from the
//! reference itself, never from the generator's own output.
//!
//! The format: a title line; an opening paragraph; a "Constants" section with one
//! `Name Value Meaning` table; an "Enums" section of headings `name (enum, u8)` or
//! `name (flags, u32)`, each with an optional doc paragraph and a `Name Value Meaning` table;
//! a "Structs" section of headings `name (N bytes, align A)`, each with an optional doc
//! paragraph and an `Offset Field Type Meaning` table with hex offsets. Blank lines separate
//! the blocks. In a row the first columns are single tokens and the Meaning is the rest of
//! the line, possibly empty. Anything else is an error that names its line.

use std::path::Path;

/// Where the reference lives.
pub const REFERENCE_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/bridge-abi-0.9-reference.txt"
);

/// The one struct whose heading the reference lost: in the "Structs" section, its table
/// follows a doc paragraph with no heading before it. The schema still has the struct
/// (`rec_footer`, 48 bytes, align 8) and that paragraph is its doc, so the parser restores
/// the heading for exactly this paragraph, and for no other. Any other paragraph that is not
/// a heading is an error.
pub const LOST_HEADING: LostHeading = LostHeading {
    doc: "The footer: chunk_count rec_chunk_entry and mark_count rec_mark follow it",
    name: "rec_footer",
    size: 48,
    align: 8,
};

/// A struct heading the reference lost, and the doc paragraph that stands where it was.
pub struct LostHeading {
    pub doc: &'static str,
    pub name: &'static str,
    pub size: u64,
    pub align: u64,
}

/// The whole reference, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub title: String,
    /// The paragraph under the title ("ABI version 0.9. All structs are ...").
    pub opening: String,
    pub constants: Vec<RefConstant>,
    pub enums: Vec<RefEnum>,
    pub structs: Vec<RefStruct>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefConstant {
    pub name: String,
    /// As written: `0x10000`, `4096`.
    pub value: String,
    pub meaning: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefEnum {
    pub name: String,
    /// `enum` or `flags`.
    pub kind: String,
    /// `u8`, `u16`, `u32` ...
    pub repr: String,
    /// Empty when the enum has no doc paragraph.
    pub doc: String,
    pub values: Vec<RefValue>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefValue {
    pub name: String,
    /// As written: `0x1`, `255`.
    pub value: String,
    pub meaning: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefStruct {
    pub name: String,
    pub size: u64,
    pub align: u64,
    /// Empty when the struct has no doc paragraph.
    pub doc: String,
    pub fields: Vec<RefField>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefField {
    pub offset: u64,
    pub name: String,
    /// As written: `char[client_name_len]`, `region_entry[max_regions]`.
    pub ty: String,
    pub meaning: String,
}

/// A field meaning where schema.toml departs from the reference's text on purpose. Each
/// must still be a difference, exactly these two texts (tests/reference_layout.rs), and the
/// targets that print the reference's sentences print the schema's one instead
/// (tests/markdown_reference.rs, through [`with_departures`]).
pub struct Departure {
    pub item: &'static str,
    pub field: &'static str,
    /// The reference's text.
    pub reference: &'static str,
    /// The schema's text.
    pub schema: &'static str,
    pub why: &'static str,
}

pub const DEPARTURES: &[Departure] = &[Departure {
    item: "client_entry",
    field: "heartbeat_ns",
    reference: "Host clock; the client writes it at least every 100 ms, and one older than 1 s counts as hung",
    schema: "The client's own clock in ns (a client cannot read the host's): it writes it at least every 100 ms; the host never compares it with its clock, it watches it change, and a row whose state, generation and heartbeat stay unchanged for 1 s is hung",
    why: "a client cannot read the host's clock (issue 48): the value is the client's, and only its change counts (codegen/ATTACH.md, \"Hung\")",
}];

/// The reference as the schema states it: each departure's field meaning replaced by the
/// schema's text; panics when the reference no longer says the departure's text there.
pub fn with_departures(mut reference: Reference) -> Reference {
    for d in DEPARTURES {
        let field = reference
            .structs
            .iter_mut()
            .find(|s| s.name == d.item)
            .and_then(|s| s.fields.iter_mut().find(|f| f.name == d.field))
            .unwrap_or_else(|| {
                panic!(
                    "departure {}.{}: no such field in the reference",
                    d.item, d.field
                )
            });
        assert_eq!(
            field.meaning, d.reference,
            "departure {}.{}: the reference no longer says this",
            d.item, d.field
        );
        field.meaning = d.schema.to_string();
    }
    reference
}

/// Reads and parses the reference; panics with the file, line and problem when it cannot.
pub fn load_reference() -> Reference {
    let text = std::fs::read_to_string(Path::new(REFERENCE_PATH))
        .unwrap_or_else(|e| panic!("cannot read {REFERENCE_PATH}: {e}"));
    parse_reference(&text).unwrap_or_else(|e| panic!("{REFERENCE_PATH}:{e}"))
}

const CONSTANTS_SECTION: &str = "Constants";
const ENUMS_SECTION: &str = "Enums";
const STRUCTS_SECTION: &str = "Structs";
const VALUE_TABLE_HEADER: &str = "Name Value Meaning";
const FIELD_TABLE_HEADER: &str = "Offset Field Type Meaning";

/// A run of non-blank lines, with the 1-based number of its first line.
struct Block<'a> {
    line: usize,
    lines: Vec<&'a str>,
}

impl Block<'_> {
    fn first(&self) -> &str {
        self.lines[0]
    }

    /// The block as a one-line paragraph.
    fn paragraph(&self, what: &str) -> Result<String, String> {
        match self.lines.as_slice() {
            [line] => Ok((*line).to_string()),
            _ => Err(format!(
                "{}: expected the {what} on one line, found {} lines",
                self.line,
                self.lines.len()
            )),
        }
    }

    fn is_table(&self, header: &str) -> bool {
        self.first() == header
    }
}

fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out: Vec<Block> = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            out.extend(current.take());
        } else {
            current
                .get_or_insert_with(|| Block {
                    line: i + 1,
                    lines: Vec::new(),
                })
                .lines
                .push(line);
        }
    }
    out.extend(current);
    out
}

/// Parses the reference text. An error reads `LINE: problem`.
pub fn parse_reference(text: &str) -> Result<Reference, String> {
    let blocks = blocks(text);
    let mut it = blocks.iter().peekable();
    let mut next = |what: &str| -> Result<&Block, String> {
        it.next()
            .ok_or_else(|| format!("end of file: expected {what}"))
    };
    let title = next("the title")?.paragraph("title")?;
    let opening = next("the opening paragraph")?.paragraph("opening paragraph")?;
    expect_section(next("the Constants section")?, CONSTANTS_SECTION)?;
    let table = next("the constants table")?;
    let constants = parse_value_table(table)?
        .into_iter()
        .map(|(name, value, meaning)| RefConstant {
            name,
            value,
            meaning,
        })
        .collect();
    expect_section(next("the Enums section")?, ENUMS_SECTION)?;

    let rest: Vec<&Block> = it.collect();
    let structs_at = rest
        .iter()
        .position(|b| b.lines == [STRUCTS_SECTION])
        .ok_or_else(|| "end of file: expected the Structs section".to_string())?;
    let enums = parse_enums(&rest[..structs_at])?;
    let structs = parse_structs(&rest[structs_at + 1..])?;
    Ok(Reference {
        title,
        opening,
        constants,
        enums,
        structs,
    })
}

fn expect_section(block: &Block, name: &str) -> Result<(), String> {
    if block.lines == [name] {
        Ok(())
    } else {
        Err(format!(
            "{}: expected the section heading `{name}`, found `{}`",
            block.line,
            block.first()
        ))
    }
}

/// `Name Value Meaning` rows: two tokens, then the rest of the line.
fn parse_value_table(block: &Block) -> Result<Vec<(String, String, String)>, String> {
    if !block.is_table(VALUE_TABLE_HEADER) {
        return Err(format!(
            "{}: expected the table header `{VALUE_TABLE_HEADER}`, found `{}`",
            block.line,
            block.first()
        ));
    }
    let mut rows = Vec::new();
    for (i, line) in block.lines.iter().enumerate().skip(1) {
        let mut parts = line.splitn(3, ' ');
        let (Some(name), Some(value)) = (parts.next(), parts.next()) else {
            return Err(format!(
                "{}: expected `name value meaning`, found `{line}`",
                block.line + i
            ));
        };
        if name.is_empty() || value.is_empty() {
            return Err(format!(
                "{}: empty name or value in `{line}`",
                block.line + i
            ));
        }
        let meaning = parts.next().unwrap_or("").to_string();
        rows.push((name.to_string(), value.to_string(), meaning));
    }
    Ok(rows)
}

/// `name (a, b)` → (`name`, `a`, `b`).
fn split_heading(line: &str) -> Option<(&str, &str, &str)> {
    let (name, rest) = line.split_once(" (")?;
    let inner = rest.strip_suffix(')')?;
    let (a, b) = inner.split_once(", ")?;
    if name.is_empty() || name.contains(' ') {
        return None;
    }
    Some((name, a, b))
}

fn parse_enum_heading(line: &str) -> Option<(String, String, String)> {
    let (name, kind, repr) = split_heading(line)?;
    if !matches!(kind, "enum" | "flags") || repr.is_empty() || repr.contains(' ') {
        return None;
    }
    Some((name.to_string(), kind.to_string(), repr.to_string()))
}

fn parse_struct_heading(line: &str) -> Option<(String, u64, u64)> {
    let (name, size, align) = split_heading(line)?;
    let size = size.strip_suffix(" bytes")?.parse().ok()?;
    let align = align.strip_prefix("align ")?.parse().ok()?;
    Some((name.to_string(), size, align))
}

/// The optional doc paragraph after a heading: any block that is not the table.
fn take_doc(
    blocks: &[&Block],
    i: &mut usize,
    table_header: &str,
    item: &str,
) -> Result<String, String> {
    match blocks.get(*i) {
        Some(b) if !b.is_table(table_header) => {
            *i += 1;
            b.paragraph(&format!("doc paragraph of `{item}`"))
        }
        _ => Ok(String::new()),
    }
}

fn parse_enums(blocks: &[&Block]) -> Result<Vec<RefEnum>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let heading = blocks[i];
        let (name, kind, repr) = match heading.lines.as_slice() {
            [line] => parse_enum_heading(line),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "{}: expected an enum heading `name (enum, u8)` or `name (flags, u32)`, found `{}`",
                heading.line,
                heading.first()
            )
        })?;
        i += 1;
        let doc = take_doc(blocks, &mut i, VALUE_TABLE_HEADER, &name)?;
        let table = blocks
            .get(i)
            .ok_or_else(|| format!("end of the Enums section: `{name}` has no table"))?;
        i += 1;
        let values = parse_value_table(table)?
            .into_iter()
            .map(|(name, value, meaning)| RefValue {
                name,
                value,
                meaning,
            })
            .collect();
        out.push(RefEnum {
            name,
            kind,
            repr,
            doc,
            values,
        });
    }
    Ok(out)
}

fn parse_structs(blocks: &[&Block]) -> Result<Vec<RefStruct>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let heading = blocks[i];
        let parsed = match heading.lines.as_slice() {
            [line] => parse_struct_heading(line),
            _ => None,
        };
        let (name, size, align, doc) = match parsed {
            Some((name, size, align)) => {
                i += 1;
                let doc = take_doc(blocks, &mut i, FIELD_TABLE_HEADER, &name)?;
                (name, size, align, doc)
            }
            // The lost heading: this paragraph is rec_footer's doc, and its table follows.
            None if heading.lines == [LOST_HEADING.doc]
                && blocks
                    .get(i + 1)
                    .is_some_and(|b| b.is_table(FIELD_TABLE_HEADER)) =>
            {
                i += 1;
                (
                    LOST_HEADING.name.to_string(),
                    LOST_HEADING.size,
                    LOST_HEADING.align,
                    LOST_HEADING.doc.to_string(),
                )
            }
            None => {
                return Err(format!(
                    "{}: expected a struct heading `name (N bytes, align A)`, found `{}`",
                    heading.line,
                    heading.first()
                ));
            }
        };
        let table = blocks
            .get(i)
            .ok_or_else(|| format!("end of the Structs section: `{name}` has no table"))?;
        i += 1;
        let fields = parse_field_table(table)?;
        out.push(RefStruct {
            name,
            size,
            align,
            doc,
            fields,
        });
    }
    Ok(out)
}

/// `0x00A4` → 164. Offsets are `0x` and at least four uppercase hex digits.
fn parse_offset(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("0x")?;
    let ok = digits.len() >= 4
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b));
    if !ok {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

fn parse_field_table(block: &Block) -> Result<Vec<RefField>, String> {
    if !block.is_table(FIELD_TABLE_HEADER) {
        return Err(format!(
            "{}: expected the table header `{FIELD_TABLE_HEADER}`, found `{}`",
            block.line,
            block.first()
        ));
    }
    let mut fields = Vec::new();
    for (i, line) in block.lines.iter().enumerate().skip(1) {
        let at = block.line + i;
        let mut parts = line.splitn(4, ' ');
        let (Some(offset), Some(name), Some(ty)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!(
                "{at}: expected `offset field type meaning`, found `{line}`"
            ));
        };
        let offset = parse_offset(offset)
            .ok_or_else(|| format!("{at}: `{offset}` is not an offset like 0x00A4"))?;
        if name.is_empty() || ty.is_empty() {
            return Err(format!("{at}: empty field name or type in `{line}`"));
        }
        fields.push(RefField {
            offset,
            name: name.to_string(),
            ty: ty.to_string(),
            meaning: parts.next().unwrap_or("").to_string(),
        });
    }
    Ok(fields)
}
