//! Records of one struct: which to decode (a [`Plan`]), decoding them from their bytes,
//! and the [`Inspection`] that holds them with their issues.

use super::model::{Issue, Level, Node, exit_code};
use crate::ir::StructId;
use crate::schema::Schema;

/// Which records to decode: `count` records of struct `type_name`, the first at `offset`,
/// each `stride` bytes after the one before. Checked when made: the type exists, `count` is at
/// least 1, the stride is at least the record size, and the last record ends below 2^64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The struct.
    pub index: StructId,
    pub type_name: String,
    /// The record size.
    pub size: u64,
    pub offset: u64,
    pub count: u64,
    pub stride: u64,
}

impl Plan {
    /// `stride` defaults to the record size: records back to back. A smaller stride is
    /// refused: records would overlap, which is almost always a mistake of unit (a slot
    /// count for a byte count), and a stream is then read forward only.
    pub fn new(
        schema: &Schema,
        type_name: &str,
        offset: u64,
        count: u64,
        stride: Option<u64>,
    ) -> Result<Plan, String> {
        let index = find_inspected(schema, type_name)?;
        let size = schema.layout.of(index).size;
        let stride = stride.unwrap_or(size);
        if count == 0 {
            return Err("--count must be at least 1".into());
        }
        if stride < size {
            return Err(format!(
                "--stride {stride} is smaller than `{type_name}` ({size} bytes): the records \
                 would overlap; give a stride of at least {size}, or leave it out for records \
                 back to back"
            ));
        }
        let plan = Plan {
            index,
            type_name: type_name.to_string(),
            size,
            offset,
            count,
            stride,
        };
        if plan.checked_end().is_none() {
            return Err(format!(
                "{count} × `{type_name}` ({size} bytes each{}) from offset {offset:#x} would \
                 end past 2^64 bytes",
                plan.every()
            ));
        }
        Ok(plan)
    }

    fn checked_end(&self) -> Option<u64> {
        (self.count - 1)
            .checked_mul(self.stride)
            .and_then(|n| n.checked_add(self.offset))
            .and_then(|n| n.checked_add(self.size))
    }

    /// Where record `i` (below `count`) starts.
    pub fn record_offset(&self, i: u64) -> u64 {
        self.offset + i * self.stride
    }

    /// Where the last record ends: how far into the input the plan reads.
    pub fn end(&self) -> u64 {
        self.checked_end().expect("checked in Plan::new")
    }

    fn every(&self) -> String {
        every(self.size, self.stride)
    }
}

/// `, every 32768 bytes` when records are not back to back.
pub(super) fn every(size: u64, stride: u64) -> String {
    if stride == size {
        String::new()
    } else {
        format!(", every {stride} bytes")
    }
}

/// The index of struct `name`, or an error that names the closest struct (or says that
/// `name` is an enum or a flag set): what `layout TYPE` takes.
pub fn find_struct(schema: &Schema, name: &str) -> Result<StructId, String> {
    find_type(schema, name, false)
}

/// [`find_struct`] for `inspect TYPE`, which also takes a `[[file]]` format's or a
/// `[[layout]]`'s name: the closest of all three is suggested.
pub fn find_inspected(schema: &Schema, name: &str) -> Result<StructId, String> {
    find_type(schema, name, true)
}

fn find_type(schema: &Schema, name: &str, wholes: bool) -> Result<StructId, String> {
    let abi = &schema.abi;
    if let Some(i) = abi.find_struct(name) {
        return Ok(i);
    }
    let mut msg = format!("no struct named `{name}` in the schema");
    let structs = abi.structs.iter().map(|s| s.name.as_str());
    let files = schema.attach.files.iter().map(|f| f.name.as_str());
    let layouts = schema.attach.layouts.iter().map(|l| l.name.as_str());
    let closest = if wholes {
        crate::diagnostics::closest(name, structs.chain(files).chain(layouts))
    } else {
        crate::diagnostics::closest(name, structs)
    };
    if abi.enums.iter().any(|e| e.name == name) {
        msg.push_str(&format!(
            " (`{name}` is an enum or a flag set: {} decodes structs)",
            if wholes { "inspect" } else { "layout" }
        ));
    } else if let Some(c) = closest {
        msg.push_str(&format!("; did you mean `{c}`?"));
    }
    Err(msg)
}

/// How long the input is, as far as the reader knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// A file's length, or where a stream ended.
    Exactly(u64),
    /// A stream read up to the end of the last record and no further.
    AtLeast(u64),
}

/// The result of decoding the records of a [`Plan`].
#[derive(Debug, Clone)]
pub struct Inspection {
    pub type_name: String,
    pub offset: u64,
    pub size: u64,
    pub count: u64,
    pub stride: u64,
    pub issues: Vec<Issue>,
    /// Every record, or none when the input does not hold them all (an error issue says so).
    pub records: Vec<Node>,
}

impl Inspection {
    pub fn has(&self, level: Level) -> bool {
        self.issues.iter().any(|i| i.level == level)
    }

    /// 0 clean (info only), 1 when errors are present; with `strict`, 2 for any error or
    /// warning.
    pub fn exit_code(&self, strict: bool) -> u8 {
        exit_code(&self.issues, strict)
    }
}

/// Decodes the records of `plan` from `records`, the bytes of each record in order (`size`
/// bytes each), read from an input of length `len`. Fewer records than `plan.count` mean the
/// input ended before the last one: that is an error issue, and nothing is decoded.
pub fn decode(schema: &Schema, plan: &Plan, records: &[&[u8]], len: Extent) -> Inspection {
    let mut issues = Vec::new();
    let mut nodes = Vec::new();
    let complete =
        records.len() as u64 >= plan.count && records.iter().all(|r| r.len() as u64 == plan.size);
    if !complete {
        let len = match len {
            Extent::Exactly(n) | Extent::AtLeast(n) => n,
        };
        issues.push(short_input(plan, len));
    } else {
        for (i, bytes) in (0..plan.count).zip(records) {
            let path = if plan.count == 1 {
                String::new()
            } else {
                format!("[{i}]")
            };
            let at = plan.record_offset(i);
            nodes.push(super::decode::record(
                schema,
                plan.index,
                bytes,
                at,
                &path,
                &mut issues,
            ));
        }
        let end = plan.end();
        if let Extent::Exactly(len) = len
            && end < len
        {
            issues.push(Issue {
                level: Level::Info,
                offset: end,
                path: String::new(),
                message: format!("{} more bytes follow the last record", len - end),
            });
        }
    }
    Inspection {
        type_name: plan.type_name.clone(),
        offset: plan.offset,
        size: plan.size,
        count: plan.count,
        stride: plan.stride,
        issues,
        records: nodes,
    }
}

/// The error for an input of `len` bytes that ends before the last record of `plan`.
fn short_input(plan: &Plan, len: u64) -> Issue {
    let Plan {
        offset,
        count,
        size,
        ..
    } = *plan;
    let message = if offset > len {
        format!("offset {offset:#x} lies past the end of the input ({len} bytes)")
    } else {
        let fit = if len - offset < size {
            0
        } else {
            (len - offset - size) / plan.stride + 1
        };
        let whole = if count > 1 {
            let s = if fit == 1 { "" } else { "s" };
            format!(" ({fit} whole record{s})")
        } else {
            String::new()
        };
        format!(
            "the input is too short: {count} × {} ({size} bytes each{}) from offset {offset:#x} \
             need {} bytes, {} are there{whole}",
            plan.type_name,
            plan.every(),
            plan.end() - offset,
            len - offset,
        )
    };
    Issue {
        level: Level::Error,
        offset,
        path: String::new(),
        message,
    }
}

/// Decodes the records of `plan` from `bytes`, the whole input (a file read or mapped into
/// memory, a test blob).
pub fn inspect_bytes(schema: &Schema, plan: &Plan, bytes: &[u8]) -> Inspection {
    let len = bytes.len() as u64;
    let records: Vec<&[u8]> = if plan.end() <= len {
        (0..plan.count)
            .map(|i| {
                let at = plan.record_offset(i) as usize;
                &bytes[at..at + plan.size as usize]
            })
            .collect()
    } else {
        Vec::new()
    };
    decode(schema, plan, &records, Extent::Exactly(len))
}

/// Decodes `count` consecutive records of struct `type_name` from `bytes`, starting at
/// `offset`. Returns `Err` for a request no input can satisfy: a type the schema does not
/// have, a count of 0, records that would end past 2^64.
pub fn inspect(
    schema: &Schema,
    type_name: &str,
    bytes: &[u8],
    offset: u64,
    count: u64,
) -> Result<Inspection, String> {
    let plan = Plan::new(schema, type_name, offset, count, None)?;
    Ok(inspect_bytes(schema, &plan, bytes))
}

/// Parses `--offset` and `--stride`: decimal, or hex with `0x`.
pub fn parse_offset(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("`{text}` is not a number of bytes (write 48 or 0x30)"))
}
