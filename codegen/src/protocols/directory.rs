//! The lowering of `[[directory]]`: its mapping name, header and row fields resolved and
//! checked (each mistake a spanned error), and its plan computed once from the layout: the
//! offsets, widths and values every backend prints.

use toml::Spanned;

use super::fields::{Need, U32, Want};
use crate::ir::StructId;
use crate::ir::access::{Access, FieldRef};
use crate::ir::directory::{Directory, DirectoryPlan};
use crate::ir::{Elem, EnumKind};
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawDirectory;

const U64: Want = Want {
    widths: &[8],
    elem: None,
    access: Need::Any,
};
const U16: Want = Want {
    widths: &[2],
    elem: None,
    access: Need::Any,
};
const STATE: Want = Want {
    widths: &[4],
    elem: Some(EnumKind::Enum),
    access: Need::Cas,
};

impl AfterLayout<'_> {
    pub(super) fn lower_directory(
        &mut self,
        d: &RawDirectory,
        access: &Access,
    ) -> Option<Directory> {
        let what = format!("directory `{}`", d.name.get_ref());
        let what = what.as_str();
        let sides = self.sides((&d.owner, "owner"), (&d.reader, "reader"), what);
        self.check_mapping(&d.mapping, what);
        let h = self.protocol_struct(&d.header, "header", what)?;
        let magic = self.protocol_field(h, &d.magic, "magic", what, U32, access);
        let count = self.protocol_field(h, &d.entry_count, "entry_count", what, U32, access);
        let size = self.protocol_field(h, &d.entry_size, "entry_size", what, U32, access);
        let magic_value = magic.and_then(|m| self.magic_value(h, m, &d.magic, what));
        let (entries, row) = self.rows(h, &d.entries, what)?;
        let state = self.protocol_field(row, &d.state, "state", what, STATE, access);
        let pid = self.protocol_field(row, &d.pid, "pid", what, U32, access);
        let time = self.protocol_field(row, &d.process_time, "process_time", what, U64, access);
        let major = self.protocol_field(row, &d.abi_major, "abi_major", what, U16, access);
        let minor = self.protocol_field(row, &d.abi_minor, "abi_minor", what, U16, access);
        let version = self.version_field(row, &d.version, what);
        let state = state?;
        let state_enum = self.enum_of(FieldRef {
            struct_index: row,
            field: state,
        });
        let values = [
            (&d.free, "free"),
            (&d.claimed, "claimed"),
            (&d.live, "live"),
        ]
        .map(|(v, key)| self.protocol_value(state_enum, v, key, what));
        let [free, claimed, live] = values;
        let (free, claimed, live) = (free?, claimed?, live?);
        self.check_values([free, claimed, live], d, what)?;
        let (pid, word) = (
            pid?,
            self.state_pid_word((h, entries), (row, state, pid?), d, what),
        );
        let (word_at, state_low) = word?;
        let fields = self.layout.of(h).fields.clone();
        let rows = self.layout.of(row).fields.clone();
        let entries_len = self.abi.structs[h].fields[entries].ty.count();
        let (time, major, minor, version) = (time?, major?, minor?, version?);
        let plan = DirectoryPlan {
            magic_at: fields[magic?].offset,
            magic: magic_value?,
            entry_count_at: fields[count?].offset,
            entry_size_at: fields[size?].offset,
            entries_at: fields[entries].offset,
            max_entries: u32::try_from(entries_len).ok()?,
            entry_size: u32::try_from(self.layout.of(row).size).ok()?,
            word_at,
            state_low,
            process_time_at: rows[time].offset,
            abi_major_at: rows[major].offset,
            abi_minor_at: rows[minor].offset,
            version_at: rows[version].offset,
            version_len: rows[version].size,
            free: free as u32,
            claimed: claimed as u32,
            live: live as u32,
            abi_major: u16::try_from(self.abi.version.major).ok()?,
            abi_minor: u16::try_from(self.abi.version.minor).ok()?,
        };
        let (owner, reader) = sides?;
        Some(Directory {
            name: d.name.get_ref().clone(),
            doc: d
                .doc
                .as_ref()
                .map(|s| s.get_ref().clone())
                .unwrap_or_default(),
            span: self.inner(&d.name),
            mapping: d.mapping.get_ref().clone(),
            header: h,
            row,
            magic: magic?,
            entry_count: count?,
            entry_size: size?,
            entries,
            state,
            pid,
            process_time: time,
            abi_major: major,
            abi_minor: minor,
            version,
            state_enum,
            value_names: [&d.free, &d.claimed, &d.live].map(|v| v.get_ref().clone()),
            owner,
            reader,
            plan,
        })
    }

    /// A mapping name each platform can use as it is: `Local\NAME`, `/dev/shm/NAME`.
    fn check_mapping(&mut self, name: &Spanned<String>, what: &str) {
        let text = name.get_ref();
        let ok = !text.is_empty()
            && text.len() <= 200
            && text
                .bytes()
                .all(|b| b.is_ascii_graphic() && !matches!(b, b'/' | b'\\' | b'"' | b'\''));
        if !ok {
            self.errors.error_help(
                &self.inner(name),
                format!("{what}: `mapping` `{text}` is not a plain name"),
                "name it with printable ASCII and no slash, backslash or quote, such as `ibf.directory`: it becomes `Local\\NAME` on Windows and `/dev/shm/NAME` on Linux",
            );
        }
    }

    /// The constant the magic field holds (its `expect`).
    fn magic_value(
        &mut self,
        h: StructId,
        m: usize,
        name: &Spanned<String>,
        what: &str,
    ) -> Option<u32> {
        let field = &self.abi.structs[h].fields[m];
        let Some(c) = field.expect else {
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "{what}: `magic` field `{}.{}` does not say the value it holds",
                    self.abi.structs[h].name, field.name
                ),
                "give the field `expect = \"CONSTANT\"`: an opener refuses a directory whose magic differs",
            );
            return None;
        };
        let value = self.abi.consts[c].value;
        u32::try_from(value).ok().filter(|&v| v != 0).or_else(|| {
            self.errors.error(
                &self.inner(name),
                format!(
                    "{what}: the magic {value} is not a non-zero u32: 0 means not laid out yet"
                ),
            );
            None
        })
    }

    /// The header's array of rows, and its element struct.
    fn rows(
        &mut self,
        h: StructId,
        name: &Spanned<String>,
        what: &str,
    ) -> Option<(usize, StructId)> {
        let s = &self.abi.structs[h];
        let Some(f) = s.fields.iter().position(|f| f.name == *name.get_ref()) else {
            self.errors.error(
                &self.inner(name),
                format!(
                    "{what}: `entries`: struct `{}` has no field `{}`",
                    s.name,
                    name.get_ref()
                ),
            );
            return None;
        };
        match (&s.fields[f].ty.elem, s.fields[f].ty.len) {
            (Elem::Struct(row), Some(_)) => Some((f, *row)),
            _ => {
                self.errors.error_help(
                    &self.inner(name),
                    format!(
                        "{what}: `entries` field `{}.{}` is `{}`, not an array of rows",
                        s.name,
                        name.get_ref(),
                        s.fields[f].ty.text
                    ),
                    "name an array of structs, such as `directory_header.entries`",
                );
                None
            }
        }
    }

    /// The row's version string: a `char[N]`.
    fn version_field(
        &mut self,
        row: StructId,
        name: &Spanned<String>,
        what: &str,
    ) -> Option<usize> {
        let s = &self.abi.structs[row];
        let found = s.fields.iter().position(|f| f.name == *name.get_ref());
        match found.map(|f| (f, &s.fields[f].ty)) {
            Some((f, ty)) if ty.elem == Elem::Char && ty.count() >= 2 => Some(f),
            _ => {
                self.errors.error_help(
                    &self.inner(name),
                    format!(
                        "{what}: `version` field `{}.{}` is not a `char[N]` of at least 2 bytes",
                        s.name,
                        name.get_ref()
                    ),
                    "name a NUL-terminated text field, such as `host_version`",
                );
                None
            }
        }
    }

    /// free, claimed and live: three different values, free 0 (a new mapping is zeros, so
    /// every row of a new directory is free).
    fn check_values(&mut self, v: [u64; 3], d: &RawDirectory, what: &str) -> Option<()> {
        if v[0] != 0 {
            self.errors.error_help(
                &self.inner(&d.free),
                format!("{what}: `free` is {}, not 0", v[0]),
                "a new directory is zeroed memory, so a free row's state must be 0",
            );
            return None;
        }
        if v[1] == v[0] || v[2] == v[0] || v[1] == v[2] {
            self.errors.error(
                &self.inner(&d.live),
                format!("{what}: `free`, `claimed` and `live` are not three different values"),
            );
            return None;
        }
        Some(())
    }

    /// The state and the pid must be the two halves of one 8-aligned word in every row
    /// (rows start 8-aligned and are a multiple of 8 long): every move of a row is one
    /// compare-and-swap of that word.
    fn state_pid_word(
        &mut self,
        (h, entries): (StructId, usize),
        (row, state, pid): (StructId, usize, usize),
        d: &RawDirectory,
        what: &str,
    ) -> Option<(u64, bool)> {
        let rl = self.layout.of(row);
        let (s, p) = (rl.fields[state].offset, rl.fields[pid].offset);
        let at = s.min(p);
        let rows_at = self.layout.of(h).fields[entries].offset;
        if s.abs_diff(p) != 4 || at % 8 != 0 || rl.size % 8 != 0 || rows_at % 8 != 0 {
            self.errors.error_help(
                &self.inner(&d.pid),
                format!(
                    "{what}: `state` (row bytes {s}..{}) and `pid` (bytes {p}..{}) are not the two halves of one 8-aligned word",
                    s + 4,
                    p + 4
                ),
                "put the state and the pid next to each other at a multiple of 8 in a row whose size and offset are multiples of 8: a claim sets both with one compare-and-swap",
            );
            return None;
        }
        Some((at, s < p))
    }
}
