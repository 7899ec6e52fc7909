//! Attaching to a live image: the version handshake, then every layout table (the root's
//! and each block's), checked row by row, as `codegen/ATTACH.md` specifies. Generated code
//! describes its tables as static [`TableSpec`]s and wraps [`attach`] in typed handles.
//!
//! Every read goes through the [`Region`] (relaxed atomic loads), after a bounds check of its
//! own: hostile bytes give an [`AttachError`], never a panic or a read outside the mapping.

use core::sync::atomic::Ordering;

use crate::Region;
pub use crate::attach_error::AttachError;

/// An unsigned little-endian integer field: its offset from the start of its record, and
/// its width in bytes (1, 2, 4 or 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// From the start of the record.
    pub offset: usize,
    /// 1, 2, 4 or 8.
    pub width: usize,
}

/// An ABI version, `major.minor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Must equal the reader's.
    pub major: u32,
    /// Older and newer are both accepted.
    pub minor: u32,
}

impl core::fmt::Display for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A field a later minor version added to an extensible record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddedField {
    /// The field's name.
    pub name: &'static str,
    /// The minor version that added it (of the reader's major).
    pub since_minor: u32,
    /// Its first byte and the byte after it, from the start of the record.
    pub offset: usize,
    /// The byte after it.
    pub end: usize,
}

/// How a reader learns who produced an extensible record.
#[derive(Debug, Clone, Copy)]
pub struct HandshakeSpec {
    /// The record's name.
    pub record: &'static str,
    /// The reader's version (the schema's).
    pub ours: Version,
    /// The magic field and the value it holds.
    pub magic: Option<(Field, u64)>,
    /// The major version field.
    pub major: Field,
    /// The minor version field.
    pub minor: Field,
    /// The producer's record size field.
    pub size: Option<Field>,
    /// Bytes every producer of this major writes.
    pub base_size: usize,
    /// The reader's record size.
    pub full_size: usize,
    /// The fields later minor versions added, in order.
    pub added: &'static [AddedField],
}

/// What a row's region holds, as far as attach checks it.
#[derive(Debug, Clone, Copy)]
pub enum RowContents {
    /// A struct (with its trailer and any bytes after it), a ring, or bytes: checked by size.
    Plain,
    /// The layout's header struct itself: it may overlap the header bytes.
    Header,
    /// `count` blocks, `stride` bytes apart, each laid out by `table`.
    Blocks {
        /// The nested layout.
        table: &'static TableSpec,
        /// How many blocks.
        count: usize,
        /// Bytes from one block's start to the next's.
        stride: usize,
    },
}

/// One row of a layout table.
#[derive(Debug, Clone, Copy)]
pub struct RowSpec {
    /// The index enum's value name.
    pub name: &'static str,
    /// The row's index in the table.
    pub index: usize,
    /// The minor version (of the reader's major) that added the row, when a later one did.
    pub since_minor: Option<u32>,
    /// Any producer may leave it out.
    pub optional: bool,
    /// Bytes the region needs at least.
    pub min_size: u64,
    /// The alignment its start needs.
    pub align: u64,
    /// Rows (by position in [`TableSpec::rows`]) it may overlap.
    pub overlaps: &'static [usize],
    /// What it holds.
    pub contents: RowContents,
}

/// A layout table: a header's array of `{ offset, size }` rows indexed by an enum.
#[derive(Debug, Clone, Copy)]
pub struct TableSpec {
    /// The layout's name.
    pub name: &'static str,
    /// The header struct's name and size.
    pub header: &'static str,
    /// The header struct's size.
    pub header_size: usize,
    /// From the start of the header.
    pub table_offset: usize,
    /// Rows the table holds.
    pub max_rows: usize,
    /// Bytes per row.
    pub row_size: usize,
    /// The row's `offset` field, from the row's start.
    pub row_offset: Field,
    /// The row's `size` field, from the row's start.
    pub row_len: Field,
    /// The header's field counting the rows in use.
    pub row_count: Option<Field>,
    /// The header's field holding the bytes the bridge or block spans.
    pub extent: Option<Field>,
    /// In index order.
    pub rows: &'static [RowSpec],
}

/// A region that attach placed: its offset from the start of the mapping, and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// From the start of the mapping.
    pub offset: usize,
    /// Bytes.
    pub size: usize,
}

/// One checked table: each row's region (absent ones `None`), and for a blocks row, each
/// block's own table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedTable {
    /// Where the table's header starts, from the start of the mapping.
    pub base: usize,
    /// Like [`TableSpec::rows`].
    pub rows: Vec<Option<Placed>>,
    /// Like [`TableSpec::rows`]: the blocks of a blocks row, empty for the others.
    pub blocks: Vec<Vec<PlacedTable>>,
}

impl PlacedTable {
    /// Row `row`'s region, or `None` when it is absent.
    pub fn row(&self, row: usize) -> Option<Placed> {
        self.rows.get(row).copied().flatten()
    }

    /// Block `k` of row `row`, or `None` when the row is absent or `k` is out of range.
    pub fn block(&self, row: usize, k: usize) -> Option<&PlacedTable> {
        self.blocks.get(row)?.get(k)
    }
}

/// A mapping that passed every check.
#[derive(Debug, Clone)]
pub struct Attached {
    /// The producer's version.
    pub producer: Version,
    /// The producer's header size.
    pub header_size: usize,
    /// The bytes the image spans (at most the mapping's length).
    pub extent: usize,
    /// The root table.
    pub table: PlacedTable,
}

/// Reads the unsigned field `f` of the record at `base`; an error, never a panic, if it is
/// outside the region (attach's checks make that unreachable).
fn read(region: Region<'_>, base: usize, f: Field) -> Result<u64, AttachError> {
    let at = base
        .checked_add(f.offset)
        .ok_or(AttachError::MappingTooShort {
            expected: u64::MAX,
            found: region.len() as u64,
        })?;
    let short = || AttachError::MappingTooShort {
        expected: at as u64 + f.width as u64,
        found: region.len() as u64,
    };
    let word = region.sub(at, f.width, f.width).map_err(|_| short())?;
    Ok(match f.width {
        1 => u64::from(word.load::<u8>(0, Ordering::Relaxed)),
        2 => u64::from(word.load::<u16>(0, Ordering::Relaxed)),
        4 => u64::from(word.load::<u32>(0, Ordering::Relaxed)),
        _ => word.load::<u64>(0, Ordering::Relaxed),
    })
}

/// The version check every record reader starts with: magic, length, major. `read` reads
/// a field of the record (inside its first `len` bytes). Returns the producer's version.
pub fn check_handshake(
    spec: &HandshakeSpec,
    len: usize,
    read: impl Fn(Field) -> Result<u64, AttachError>,
) -> Result<Version, AttachError> {
    if let Some((magic, value)) = spec.magic {
        if len < magic.offset + magic.width {
            return Err(AttachError::MappingTooShort {
                expected: spec.base_size as u64,
                found: len as u64,
            });
        }
        let found = read(magic)?;
        if found != value {
            return Err(AttachError::BadMagic {
                expected: value,
                found,
            });
        }
    }
    if len < spec.base_size {
        return Err(AttachError::MappingTooShort {
            expected: spec.base_size as u64,
            found: len as u64,
        });
    }
    let major = read(spec.major)?;
    if major != u64::from(spec.ours.major) {
        return Err(AttachError::MajorMismatch {
            expected: u64::from(spec.ours.major),
            found: major,
        });
    }
    let minor = read(spec.minor)?;
    Ok(Version {
        major: spec.ours.major,
        minor: u32::try_from(minor).unwrap_or(u32::MAX),
    })
}

/// Reads the unsigned little-endian field `f` of a record copied into `bytes`.
fn read_copy(bytes: &[u8], f: Field) -> Result<u64, AttachError> {
    let field = f
        .offset
        .checked_add(f.width)
        .and_then(|end| bytes.get(f.offset..end))
        .ok_or(AttachError::MappingTooShort {
            expected: (f.offset + f.width) as u64,
            found: bytes.len() as u64,
        })?;
    Ok(field
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
}

/// Attaches to `region`: the handshake of the root header, then every table. The first
/// failed check is the error.
pub fn attach(
    region: Region<'_>,
    handshake: &HandshakeSpec,
    root: &'static TableSpec,
) -> Result<Attached, AttachError> {
    let len = region.len();
    let producer = check_handshake(handshake, len, |f| read(region, 0, f))?;
    let header_size = match handshake.size {
        Some(f) => read(region, 0, f)?,
        None => handshake.base_size as u64,
    };
    if header_size < handshake.base_size as u64 {
        return Err(AttachError::HeaderTooSmall {
            expected: handshake.base_size as u64,
            found: header_size,
        });
    }
    if header_size > len as u64 {
        return Err(AttachError::HeaderBeyondMapping {
            expected: len as u64,
            found: header_size,
        });
    }
    let extent = match root.extent {
        Some(f) => read(region, 0, f)?,
        None => len as u64,
    };
    if extent > len as u64 {
        return Err(AttachError::ExtentBeyondMapping {
            expected: len as u64,
            found: extent,
        });
    }
    if extent < header_size {
        return Err(AttachError::ExtentTooSmall {
            region: String::new(),
            expected: header_size,
            found: extent,
        });
    }
    let cx = Check { region, producer };
    let table = cx.table(root, 0, extent, header_size, "")?;
    Ok(Attached {
        producer,
        header_size: header_size as usize,
        extent: extent as usize,
        table,
    })
}

struct Check<'r> {
    region: Region<'r>,
    producer: Version,
}

impl Check<'_> {
    /// Checks table `t` whose header starts at `base`, inside `limit` bytes from `base`,
    /// the first `header_len` of which are its header.
    fn table(
        &self,
        t: &'static TableSpec,
        base: usize,
        limit: u64,
        header_len: u64,
        path: &str,
    ) -> Result<PlacedTable, AttachError> {
        let count = match t.row_count {
            Some(f) => read(self.region, base, f)?,
            None => t.max_rows as u64,
        };
        if count > t.max_rows as u64 {
            return Err(AttachError::TooManyRows {
                region: path.trim_end_matches('.').to_string(),
                expected: t.max_rows as u64,
                found: count,
            });
        }
        let mut rows: Vec<Option<(u64, u64)>> = Vec::with_capacity(t.rows.len());
        for row in t.rows {
            let name = || format!("{path}{}", row.name);
            let (offset, size) = if (row.index as u64) < count {
                let at = base + t.table_offset + row.index * t.row_size;
                (
                    read(self.region, at, t.row_offset)?,
                    read(self.region, at, t.row_len)?,
                )
            } else {
                (0, 0)
            };
            if size == 0 {
                let newer = row.since_minor.is_some_and(|m| m > self.producer.minor);
                if !row.optional && !newer {
                    return Err(AttachError::RegionMissing { region: name() });
                }
                rows.push(None);
                continue;
            }
            if offset + size > limit {
                return Err(AttachError::RegionOutOfBounds {
                    region: name(),
                    offset,
                    size,
                    limit,
                });
            }
            if (base as u64 + offset) % row.align != 0 {
                return Err(AttachError::RegionMisaligned {
                    region: name(),
                    offset,
                    align: row.align,
                });
            }
            if size < row.min_size {
                return Err(AttachError::RegionTooSmall {
                    region: name(),
                    expected: row.min_size,
                    found: size,
                });
            }
            rows.push(Some((offset, size)));
        }
        self.overlaps(t, &rows, header_len, path)?;
        let mut blocks = Vec::with_capacity(t.rows.len());
        for (row, placed) in t.rows.iter().zip(&rows) {
            let (
                RowContents::Blocks {
                    table,
                    count,
                    stride,
                },
                Some((offset, _)),
            ) = (row.contents, placed)
            else {
                blocks.push(Vec::new());
                continue;
            };
            let mut list = Vec::with_capacity(count);
            for k in 0..count {
                let bbase = base + *offset as usize + k * stride;
                let bname = format!("{path}{}[{k}]", row.name);
                list.push(self.block(table, bbase, stride, bname)?);
            }
            blocks.push(list);
        }
        Ok(PlacedTable {
            base,
            rows: rows
                .into_iter()
                .map(|r| {
                    r.map(|(offset, size)| Placed {
                        offset: base + offset as usize,
                        size: size as usize,
                    })
                })
                .collect(),
            blocks,
        })
    }

    fn block(
        &self,
        t: &'static TableSpec,
        base: usize,
        stride: usize,
        name: String,
    ) -> Result<PlacedTable, AttachError> {
        let header_len = t.header_size as u64;
        let extent = match t.extent {
            Some(f) => read(self.region, base, f)?,
            None => stride as u64,
        };
        if extent > stride as u64 {
            return Err(AttachError::ExtentBeyondBlock {
                region: name,
                expected: stride as u64,
                found: extent,
            });
        }
        if extent < header_len {
            return Err(AttachError::ExtentTooSmall {
                region: name,
                expected: header_len,
                found: extent,
            });
        }
        self.table(t, base, extent, header_len, &format!("{name}."))
    }

    /// No present row overlaps the header bytes (unless it holds the header) or another
    /// row (unless the schema allows it).
    fn overlaps(
        &self,
        t: &TableSpec,
        rows: &[Option<(u64, u64)>],
        header_len: u64,
        path: &str,
    ) -> Result<(), AttachError> {
        let meets = |(a, n): (u64, u64), (b, m): (u64, u64)| a < b + m && b < a + n;
        for (row, placed) in t.rows.iter().zip(rows) {
            let Some(r) = *placed else { continue };
            if !matches!(row.contents, RowContents::Header) && meets(r, (0, header_len)) {
                return Err(AttachError::RegionsOverlap {
                    region: format!("{path}{}", row.name),
                    other: format!("{path}{}", t.header),
                });
            }
        }
        for j in 0..rows.len() {
            for i in 0..j {
                let (Some(a), Some(b)) = (rows[i], rows[j]) else {
                    continue;
                };
                if meets(a, b)
                    && !t.rows[i].overlaps.contains(&j)
                    && !t.rows[j].overlaps.contains(&i)
                {
                    return Err(AttachError::RegionsOverlap {
                        region: format!("{path}{}", t.rows[j].name),
                        other: format!("{path}{}", t.rows[i].name),
                    });
                }
            }
        }
        Ok(())
    }
}

/// A record read by its producer's size: our struct's bytes, zero-extended or cut to our
/// size, the producer's version and size, and the bytes past our size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordBytes {
    /// Exactly [`HandshakeSpec::full_size`] bytes; the fields absent for the producer are zero.
    pub bytes: Vec<u8>,
    /// The producer's version.
    pub producer: Version,
    /// The producer's record size, as far as the bytes given hold it.
    pub size: usize,
    /// The bytes past our record size, which a newer producer wrote.
    pub extra: Vec<u8>,
}

impl HandshakeSpec {
    /// Whether the added field `f` is present in a record of `size` bytes from `producer`.
    pub fn present(&self, f: &AddedField, producer: Version, size: usize) -> bool {
        producer.major == self.ours.major && f.since_minor <= producer.minor && f.end <= size
    }

    /// The bytes a producer of minor `minor` writes, by the fields each minor added.
    pub fn size_at(&self, minor: u32) -> usize {
        self.added
            .iter()
            .find(|a| a.since_minor > minor)
            .map_or(self.full_size, |a| a.offset)
    }

    /// Reads a record from `bytes` (a copy, not live memory) by its producer's size.
    pub fn read_bytes(&self, bytes: &[u8]) -> Result<RecordBytes, AttachError> {
        let producer = check_handshake(self, bytes.len(), |f| read_copy(bytes, f))?;
        let size = match self.size {
            Some(f) => usize::try_from(read_copy(bytes, f)?).unwrap_or(usize::MAX),
            None if producer.minor > self.ours.minor => bytes.len(),
            None => self.size_at(producer.minor),
        }
        .min(bytes.len());
        let mut out = vec![0u8; self.full_size];
        let keep = size.min(self.full_size);
        out[..keep].copy_from_slice(&bytes[..keep]);
        for f in self.added {
            if !self.present(f, producer, size) {
                out[f.offset..f.end].fill(0);
            }
        }
        let extra = bytes.get(self.full_size..size).unwrap_or(&[]).to_vec();
        Ok(RecordBytes {
            bytes: out,
            producer,
            size,
            extra,
        })
    }
}
