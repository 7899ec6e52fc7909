//! The producer's side of attach: laying out a new image from the same tables attach checks
//! (`codegen/ATTACH.md`, "Producing an image"): the header's handshake, every layout table's
//! rows placed one after another at their alignment and sized for the geometry, each block
//! laid out by its own table, every geometry field, then the state set to running last, with
//! release. The image is checked by attach (every block too) before a byte of the mapping is
//! written, so a producer never publishes what a reader would refuse.

use crate::sync::{Ordering, fence};

use crate::attach_error::AttachError;
use crate::attach_spec::{Field, HandshakeSpec, RowContents, TableSpec};
use crate::raw::{Region, Writable};

/// Why an image could not be laid out or written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProduceError {
    /// A geometry value was given for a field no table has: `known` lists the names
    /// (`<header or row>.<field>`, as attach's errors name them without block indices).
    UnknownGeometry {
        /// The name given.
        name: String,
        /// The names there are.
        known: Vec<String>,
    },
    /// A number does not fit the field that must hold it (an offset or a size of a row,
    /// an extent, a geometry value).
    TooLarge {
        /// Where: `client_blocks[3].mailbox`, `bridge_header.total_size`.
        field: String,
        /// The number.
        value: u64,
        /// The field's width in bytes.
        width: usize,
    },
    /// A block's rows do not fit its stride.
    BlockTooSmall {
        /// The block: `bot_blocks[0]`.
        block: String,
        /// The bytes its rows need.
        needs: u64,
        /// The stride.
        stride: u64,
    },
    /// A geometry field sizes an area no constant of the schema names (`geometry = "*"`):
    /// the producer must give its value.
    GeometryNeeded {
        /// The field: `mailbox.request_capacity`.
        name: String,
    },
    /// The image the geometry gives would not attach (a value breaks a geometry rule).
    Refused(AttachError),
    /// The mapping is smaller than the image.
    MappingTooShort {
        /// The image's bytes.
        expected: u64,
        /// The mapping's.
        found: u64,
    },
    /// A store into a word whose other bytes a peer kept changing gave up
    /// ([`crate::Contended`]): the image may be written in part, with the state not running.
    Contended {
        /// The compare-exchanges tried.
        tries: u32,
    },
}

impl From<crate::error::Contended> for ProduceError {
    fn from(e: crate::error::Contended) -> Self {
        Self::Contended { tries: e.tries }
    }
}

impl core::fmt::Display for ProduceError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::UnknownGeometry { name, known } => write!(
                f,
                "produce: no geometry field `{name}` (there are: {})",
                known.join(", ")
            ),
            Self::TooLarge {
                field,
                value,
                width,
            } => write!(
                f,
                "produce: {field} would be {value}, which does not fit {width} bytes"
            ),
            Self::BlockTooSmall {
                block,
                needs,
                stride,
            } => write!(
                f,
                "produce: {block}'s rows need {needs} bytes, its stride is {stride}"
            ),
            Self::GeometryNeeded { name } => write!(
                f,
                "produce: no constant of the schema sizes `{name}`: give its value"
            ),
            Self::Refused(e) => write!(f, "produce: the image would not attach: {e}"),
            Self::MappingTooShort { expected, found } => write!(
                f,
                "produce: the image is {expected} bytes, the mapping {found}"
            ),
            Self::Contended { tries } => {
                write!(f, "produce: {}", crate::error::Contended { tries: *tries })
            }
        }
    }
}

impl std::error::Error for ProduceError {}

/// A laid-out image, not yet written: its bytes (the state not running, the generation
/// set) and where the state goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Every byte of the image.
    pub bytes: Vec<u8>,
    /// The state field and the running value, stored last.
    pub state: Option<(Field, u64)>,
    /// The writer's generation field, when the handshake names one: [`write()`] makes it go
    /// past the generation already in the mapping.
    pub generation: Option<Field>,
    /// The session tables whose rows' generations [`write()`] carries forward past the
    /// mapping's (the generated `lay_out` names them; empty from [`lay_out`]).
    pub sessions: Vec<SessionRows>,
}

/// A table of session rows at a place no geometry moves (the root header's, which lowering
/// requires of a session in a schema with a root layout): a re-layout writes each row's
/// generation past the one in the mapping, as it does the writer's generation, so that no
/// claim made on the old image matches a row of the new one
/// ([`Claim`](crate::claim::Claim)'s moves compare-and-swap the generation they were given).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRows {
    /// The first row's start, from the image's start.
    pub at: usize,
    /// The rows.
    pub rows: usize,
    /// From one row's start to the next.
    pub stride: usize,
    /// Where a row keeps its state and generation.
    pub spec: crate::claim::ClaimSpec,
}

/// Lays out an image of `root` (the root table, whose header has `handshake`), with the
/// geometry `values` (by name, `<header or row>.<field>`; the schema's value for any not
/// given) and `generation`. The image passes attach, every block included.
pub fn lay_out(
    handshake: &HandshakeSpec<'_>,
    root: &TableSpec<'_>,
    values: &[(&str, u64)],
    generation: u64,
) -> Result<Image, ProduceError> {
    let mut known = Vec::new();
    names(root, &mut known, 0);
    if let Some((name, _)) = values.iter().find(|(n, _)| !known.iter().any(|k| k == n)) {
        return Err(ProduceError::UnknownGeometry {
            name: (*name).to_string(),
            known,
        });
    }
    let mut out = Layout {
        bytes: vec![0; root.header_size],
        values,
    };
    let extent = out.table(root, 0, None, "")?;
    out.bytes.resize(extent, 0);
    let header = handshake.record;
    if let Some((f, magic)) = handshake.magic {
        out.put(0, f, magic, header)?;
    }
    out.put(0, handshake.major, u64::from(handshake.ours.major), header)?;
    out.put(0, handshake.minor, u64::from(handshake.ours.minor), header)?;
    if let Some(f) = handshake.size {
        out.put(0, f, root.header_size as u64, header)?;
    }
    if let Some(f) = handshake.generation {
        out.put(0, f, generation, header)?;
    }
    let mut bytes = out.bytes;
    // Checked as a reader will see it: running.
    if let Some((f, running)) = handshake.state {
        f.put(&mut bytes, running);
    }
    let report = crate::attach_check::report(bytes.as_slice(), Some(handshake), root);
    if let Some(e) = report.first_error() {
        return Err(ProduceError::Refused(e.clone()));
    }
    if let Some((f, running)) = handshake.state {
        f.put(&mut bytes, not(running));
    }
    Ok(Image {
        bytes,
        state: handshake.state,
        generation: handshake.generation,
        sessions: Vec::new(),
    })
}

/// Writes `image` into `region`, as ATTACH.md's start-up and reload ask: the state set to
/// not running (release), a release fence, every other byte, then the state set to running
/// (release). A reader attached before sees `reloaded()`; one attaching during the write is
/// refused, retryably. One producer at a time.
///
/// A re-layout of a mapping that already holds an image is a reload: the image's generation
/// goes past the one in the mapping (the image's when it is greater, else the mapping's + 1,
/// wrapping), so no generation a held client saw ever comes back and every old handle and
/// claim notices (`reloaded()`, a `Reloaded` standing). When the mapping holds an image (its
/// generation is not 0; always when the handshake names none), so does every session row's
/// generation ([`Image::sessions`]), a row never claimed included, so that a claim on the old image never matches the
/// newcomer's row of the new one: each row's word (the state and generation's shared word,
/// where they share one) is written whole, with the other bytes of its 8-byte word, as every
/// store of this crate is, so a stale compare-and-swap racing the write sees the old word or
/// the new one.
pub fn write<A: Writable>(region: Region<'_, A>, image: &Image) -> Result<(), ProduceError> {
    if region.len() < image.bytes.len() {
        return Err(ProduceError::MappingTooShort {
            expected: image.bytes.len() as u64,
            found: region.len() as u64,
        });
    }
    let mut bytes = std::borrow::Cow::Borrowed(image.bytes.as_slice());
    // Whether the mapping holds an image: its generation is not 0 (produce never writes 0).
    let mut held = true;
    if let Some(g) = image.generation
        && g.offset.saturating_add(g.width) <= image.bytes.len()
    {
        let old = load(region, g);
        held = old != 0;
        let wanted = g.read(&image.bytes).unwrap_or(0);
        let next = past(wanted, old, g.width);
        if next != wanted {
            g.put(bytes.to_mut(), next);
        }
    }
    if held {
        for rows in &image.sessions {
            carry_rows(region, rows, &mut bytes);
        }
    }
    if let Some((f, running)) = image.state {
        store(region, f, not(running), Ordering::Release)?;
        fence(Ordering::Release);
    }
    region.write_bytes(0, &bytes)?;
    if let Some((f, running)) = image.state {
        store(region, f, running, Ordering::Release)?;
    }
    Ok(())
}

/// Writes into `bytes` each row of `rows` its generation past the mapping's (a row past the
/// image or the mapping is left out).
fn carry_rows<A: Writable>(
    region: Region<'_, A>,
    rows: &SessionRows,
    bytes: &mut std::borrow::Cow<'_, [u8]>,
) {
    for i in 0..rows.rows {
        let Some(at) = i
            .checked_mul(rows.stride)
            .and_then(|o| o.checked_add(rows.at))
            .and_then(|o| o.checked_add(rows.spec.generation))
        else {
            return;
        };
        let g = Field {
            offset: at,
            width: 4,
        };
        if at.saturating_add(4) > bytes.len() || at.saturating_add(4) > region.len() {
            return;
        }
        let old = load(region, g);
        let wanted = g.read(bytes).unwrap_or(0);
        let next = past(wanted, old, 4);
        if next != wanted {
            g.put(bytes.to_mut(), next);
        }
    }
}

/// The generation to write: `wanted` when it is past `old` (greater, in the field's width),
/// else `old + 1`, wrapping within the width.
fn past(wanted: u64, old: u64, width: usize) -> u64 {
    let mask = if width >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * width)) - 1
    };
    if wanted > old {
        wanted
    } else {
        old.wrapping_add(1) & mask
    }
}

pub(crate) fn load<A: Writable>(region: Region<'_, A>, f: Field) -> u64 {
    match f.width {
        1 => u64::from(region.load::<u8>(f.offset, Ordering::Acquire)),
        2 => u64::from(region.load::<u16>(f.offset, Ordering::Acquire)),
        4 => u64::from(region.load::<u32>(f.offset, Ordering::Acquire)),
        _ => region.load::<u64>(f.offset, Ordering::Acquire),
    }
}

/// A state value that is not `running`.
fn not(running: u64) -> u64 {
    u64::from(running == 0)
}

fn store<A: Writable>(
    region: Region<'_, A>,
    f: Field,
    value: u64,
    order: Ordering,
) -> Result<(), crate::error::Contended> {
    match f.width {
        1 => region.try_store(f.offset, value as u8, order),
        2 => region.try_store(f.offset, value as u16, order),
        4 => region.try_store(f.offset, value as u32, order),
        _ => region.try_store(f.offset, value, order),
    }
}

/// The geometry names of `t` and of the tables its blocks use.
fn names(t: &TableSpec<'_>, out: &mut Vec<String>, depth: usize) {
    for g in t.geometry {
        let owner = g.row.map_or(t.header, |r| t.rows[r].name);
        let name = format!("{owner}.{}", g.name);
        if !out.contains(&name) {
            out.push(name);
        }
    }
    for row in t.rows {
        if let RowContents::Blocks { table, .. } = row.contents
            && depth < 8
        {
            names(table, out, depth + 1);
        }
    }
}

struct Layout<'v> {
    bytes: Vec<u8>,
    values: &'v [(&'v str, u64)],
}

impl Layout<'_> {
    /// Writes field `f` of the record at `base` (growing the image to hold it).
    fn put(&mut self, base: usize, f: Field, value: u64, what: &str) -> Result<(), ProduceError> {
        fits(f, value, what)?;
        let at = base + f.offset;
        if self.bytes.len() < at + f.width {
            self.bytes.resize(at + f.width, 0);
        }
        Field {
            offset: at,
            width: f.width,
        }
        .put(&mut self.bytes, value);
        Ok(())
    }

    /// Lays out table `t` at `base` (a block `stride` bytes long, or the root); returns the
    /// bytes it spans.
    fn table(
        &mut self,
        t: &TableSpec<'_>,
        base: usize,
        stride: Option<usize>,
        path: &str,
    ) -> Result<usize, ProduceError> {
        let values = t
            .geometry
            .iter()
            .map(|g| {
                let owner = g.row.map_or(t.header, |r| t.rows[r].name);
                let name = format!("{owner}.{}", g.name);
                self.values
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| *v)
                    .or(g.default)
                    .ok_or(ProduceError::GeometryNeeded { name })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        // Each row placed after the last, at its alignment (from the mapping's start, as
        // attach checks it), sized for what it holds.
        let mut end = t.header_size;
        let mut placed = Vec::with_capacity(t.rows.len());
        for row in t.rows {
            let (offset, size) = match row.contents {
                RowContents::Header => (0, t.header_size as u64),
                _ => {
                    let align = row.align.max(1) as usize;
                    let offset = (base + end).next_multiple_of(align) - base;
                    let need = row.need.and_then(|n| n.bytes(|g| values.get(g).copied()));
                    let size = row.min_size.max(need.unwrap_or(0));
                    // Both must fit the row's fields before any byte is allocated for them.
                    let name = format!("{path}{}", row.name);
                    fits(t.row_offset, offset as u64, &name)?;
                    fits(t.row_len, size, &name)?;
                    end = offset + size as usize;
                    (offset as u64, size)
                }
            };
            placed.push((offset, size));
        }
        if let Some(stride) = stride
            && end > stride
        {
            return Err(ProduceError::BlockTooSmall {
                block: path.trim_end_matches('.').to_string(),
                needs: end as u64,
                stride: stride as u64,
            });
        }
        let extent = stride.unwrap_or(end);
        if let Some(f) = t.extent {
            fits(f, extent as u64, &format!("{path}{}.extent", t.header))?;
        }
        if self.bytes.len() < base + extent {
            self.bytes.resize(base + extent, 0);
        }
        let in_header = |field: &str| format!("{path}{}.{field}", t.header);
        if let Some(f) = t.row_count {
            let rows = t.rows.iter().map(|r| r.index + 1).max().unwrap_or(0);
            self.put(base, f, rows as u64, &in_header("row count"))?;
        }
        if let Some(f) = t.extent {
            self.put(base, f, extent as u64, &in_header("extent"))?;
        }
        for (row, &(offset, size)) in t.rows.iter().zip(&placed) {
            let at = base + t.table_offset + row.index * t.row_size;
            let name = format!("{path}{}", row.name);
            self.put(at, t.row_offset, offset, &name)?;
            self.put(at, t.row_len, size, &name)?;
        }
        for (g, &value) in t.geometry.iter().zip(&values) {
            let (at, owner) = match g.row {
                None => (base, t.header),
                Some(r) => (base + placed[r].0 as usize, t.rows[r].name),
            };
            self.put(at, g.field, value, &format!("{path}{owner}.{}", g.name))?;
        }
        for (k, row) in t.rows.iter().enumerate() {
            let RowContents::Blocks {
                table,
                count,
                stride,
                stride_geometry,
            } = row.contents
            else {
                continue;
            };
            let stride = stride_geometry
                .and_then(|g| values.get(g).copied())
                .map_or(stride, |v| v as usize);
            for b in 0..count {
                let at = base + placed[k].0 as usize + b * stride;
                self.table(
                    table,
                    at,
                    Some(stride),
                    &format!("{path}{}[{b}].", row.name),
                )?;
            }
        }
        Ok(extent)
    }
}

/// Whether `value` fits field `f`.
fn fits(f: Field, value: u64, what: &str) -> Result<(), ProduceError> {
    if f.width < 8 && value >> (8 * f.width) != 0 {
        return Err(ProduceError::TooLarge {
            field: what.to_string(),
            value,
            width: f.width,
        });
    }
    Ok(())
}

/// A protocol word that must not start at zero (a triple buffer's initial state, an unbound
/// pad): field `field` (from the row's start) of every placed row named `row` of every table
/// named `table`, the root's or a block's, at any depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowWord<'a> {
    /// The layout table's name.
    pub table: &'a str,
    /// The row's name in it.
    pub row: &'a str,
    /// The word, from the row's start.
    pub field: Field,
    /// Its start value.
    pub value: u64,
}

/// Sets every word of `words` in `image`, where its rows are placed (the image is read once
/// for all of them). Returns how many words it set. `image` must come from [`lay_out`] with
/// `handshake` and `root`.
pub fn set_words(
    image: &mut Image,
    handshake: &HandshakeSpec<'_>,
    root: &TableSpec<'_>,
    words: &[RowWord<'_>],
) -> Result<usize, ProduceError> {
    let mut running = image.bytes.clone();
    if let Some((f, on)) = image.state {
        f.put(&mut running, on);
    }
    let report = crate::attach_check::report(running.as_slice(), Some(handshake), root);
    let Some(top) = &report.table else {
        return Ok(0);
    };
    let mut out = Layout {
        bytes: core::mem::take(&mut image.bytes),
        values: &[],
    };
    let mut done = Ok(0);
    for w in words {
        let mut at = Vec::new();
        rows_named(root, top, w.table, w.row, &mut at, 0);
        for &base in &at {
            done = done.and_then(|n| {
                out.put(base, w.field, w.value, &format!("{}.{}", w.table, w.row))
                    .map(|()| n + 1)
            });
        }
    }
    image.bytes = out.bytes;
    done
}

/// The starts (from the image's start) of every placed row `row` of every table `table`.
fn rows_named(
    spec: &TableSpec<'_>,
    report: &crate::attach_check::TableReport,
    table: &str,
    row: &str,
    out: &mut Vec<usize>,
    depth: usize,
) {
    for (r, found) in spec.rows.iter().zip(&report.rows) {
        let crate::attach_check::RowReport::Placed { offset, blocks, .. } = found else {
            continue;
        };
        if spec.name == table && r.name == row {
            out.push(report.base + *offset as usize);
        }
        if let RowContents::Blocks { table: inner, .. } = r.contents
            && depth < 8
        {
            for b in blocks {
                rows_named(inner, b, table, row, out, depth + 1);
            }
        }
    }
}
