//! A struct's byte map in the markdown reference: a code block of rows of bytes, each the
//! letter of its field, with a key of letters to field names.

use std::fmt::Write as _;

use crate::ir::Struct;
use crate::layout::StructLayout;

/// Bytes in one row of a struct's byte map.
const BYTE_MAP_ROW: u64 = 16;
/// A run of at least this many identical rows of one field is folded into one line.
const BYTE_MAP_FOLD: u64 = 3;
/// The byte map's key lines stay within this width.
const BYTE_MAP_KEY_WIDTH: usize = 78;
/// The letters that stand for the non-padding fields of a byte map, in field order; a
/// struct with more fields starts over.
const BYTE_MAP_LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// What a padding byte looks like in a byte map.
const BYTE_MAP_PADDING: char = '.';
/// A struct's byte map, as the lines of a code block: one row of `BYTE_MAP_ROW` bytes a
/// line, each byte the letter of its field and padding as `BYTE_MAP_PADDING`; a run of
/// identical rows of one field (an array, a reserved area) folds into one line that says how
/// many rows it stands for. A key of letters to field names follows. Offsets and sizes are
/// the layout's.
pub fn render_byte_map(s: &Struct, layout: &StructLayout) -> Vec<String> {
    let mut letters: Vec<Option<char>> = Vec::with_capacity(s.fields.len());
    let mut next_letter = 0;
    for f in &s.fields {
        if f.is_padding() {
            letters.push(None);
        } else {
            letters.push(Some(
                BYTE_MAP_LETTERS[next_letter % BYTE_MAP_LETTERS.len()] as char,
            ));
            next_letter += 1;
        }
    }
    // The field that holds byte `b`: fields are in offset order and leave no gap. The map
    // walks rows and whole runs of rows, never single bytes of a large field, so that a
    // struct of gigabytes costs no more than its fields.
    let last_field = layout.fields.len() - 1;
    let owner = |b: u64| -> usize {
        layout
            .fields
            .partition_point(|fl| fl.offset + fl.size <= b)
            .min(last_field)
    };
    let show = |i: usize| letters[i].unwrap_or(BYTE_MAP_PADDING);
    let offset_width = format!("{:x}", layout.size.saturating_sub(1)).len().max(4);
    let mut lines = Vec::new();
    let mut start = 0;
    while start < layout.size {
        let end = (start + BYTE_MAP_ROW).min(layout.size);
        let first = owner(start);
        let mut line = String::with_capacity(2 + offset_width + 2 + 17 + 48);
        // Writing to a String cannot fail.
        let _ = write!(line, "0x{start:0offset_width$x}  ");
        // The owner of each byte of the row, found by walking on from the row's first:
        // `owner` is monotone in the byte.
        let mut held_by = first;
        for b in start..end {
            if b > start && (b - start) % 8 == 0 {
                line.push(' ');
            }
            while held_by < last_field
                && layout.fields[held_by].offset + layout.fields[held_by].size <= b
            {
                held_by += 1;
            }
            line.push(show(held_by));
        }
        let fl = &layout.fields[first];
        // Whole rows from `start` that lie inside the one field.
        let run = if end - start == BYTE_MAP_ROW && held_by == first {
            (fl.offset + fl.size - start) / BYTE_MAP_ROW
        } else {
            1
        };
        if run >= BYTE_MAP_FOLD {
            let last = start + run * BYTE_MAP_ROW - 1;
            let _ = write!(
                line,
                "  ×{run} rows, to 0x{last:0offset_width$x}: {}",
                s.fields[first].name
            );
            start += run * BYTE_MAP_ROW;
        } else {
            start = end;
        }
        lines.push(line);
    }
    lines.push(String::new());
    // The key: `<letter> <field>` for each field that has a letter, and the padding's.
    let mut key: Vec<(char, &str)> = s
        .fields
        .iter()
        .zip(&letters)
        .filter_map(|(f, l)| l.map(|l| (l, f.name.as_str())))
        .collect();
    if letters.iter().any(Option::is_none) {
        key.push((BYTE_MAP_PADDING, "padding"));
    }
    // Each entry is padded to `width` characters, and a line ends trimmed.
    let entry_chars = |name: &str| 2 + name.chars().count();
    let width = key.iter().map(|(_, n)| entry_chars(n)).max().unwrap_or(0) + 2;
    let per_line = (BYTE_MAP_KEY_WIDTH / width).max(1);
    for chunk in key.chunks(per_line) {
        let mut line = String::with_capacity(chunk.len() * width);
        for (i, &(letter, name)) in chunk.iter().enumerate() {
            line.push(letter);
            line.push(' ');
            line.push_str(name);
            if i + 1 < chunk.len() {
                line.extend(std::iter::repeat_n(' ', width - entry_chars(name)));
            }
        }
        let trimmed = line.trim_end().len();
        line.truncate(trimmed);
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_map_of_a_huge_struct_folds_and_stays_short() {
        let schema = crate::schema::load_schema(
            r#"
[abi]
name = "big"
version = "1.0"
c_prefix = "big"
byte_order = "little"

[[struct]]
name = "blob"
fields = [
  { name = "len", type = "u32" },
  { name = "_pad4", type = "u8[4]" },
  { name = "data", type = "u8[4000000000]" },
]
"#,
        )
        .expect("the schema loads");
        let id = schema.abi.find_struct("blob").expect("the struct");
        let map = render_byte_map(&schema.abi.structs[id], schema.layout.of(id));
        assert_eq!(
            map,
            [
                "0x00000000  aaaa.... bbbbbbbb",
                "0x00000010  bbbbbbbb bbbbbbbb  ×249999999 rows, to 0xee6b27ff: data",
                "0xee6b2800  bbbbbbbb",
                "",
                "a len      b data     . padding",
            ]
        );
    }
}
