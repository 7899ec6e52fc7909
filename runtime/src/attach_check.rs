//! The one implementation of attach's checks (`codegen/ATTACH.md`): the handshake of the root
//! header, then every table (the root's and each block's) row by row, each problem recorded
//! where it was found. [`attach`](crate::attach::attach) refuses an image with the first
//! problem, in the order the document gives; [`report`] gives every problem, for a tool that
//! lists them all and decodes the regions that passed (`abi-codegen inspect`).
//!
//! After a problem the checks go on where the image still says where things are: a row that
//! fails a check is left out (not compared with the others, its blocks not checked); an
//! extent past the mapping or past its block is cut to it; a row count past the table is cut
//! to the table's rows. A failed handshake, a header size out of range, or an extent smaller
//! than its header stops the image or the block. Every read is bounds-checked by the
//! [`Source`]: hostile bytes give problems, never a panic or a read outside the image.

use core::sync::atomic::Ordering;

use crate::attach_error::AttachError;
use crate::attach_spec::{HandshakeSpec, RowContents, TableSpec, Version};
use crate::raw::Region;
use crate::spec::{Field, load_uint};

/// The bytes attach reads: a live [`Region`] (relaxed atomic loads), or a copy.
pub trait Source {
    /// The image's length in bytes.
    fn size(&self) -> usize;
    /// The unsigned little-endian integer of `width` bytes (1, 2, 4 or 8) at `at`, or `None`
    /// when they are not all inside the image (or `width` is not one of those).
    fn read_uint(&self, at: usize, width: usize) -> Option<u64>;
    /// [`Source::read_uint`] with an acquire load, for the writer's state and generation:
    /// what the writer stored before its release store of them is then visible.
    fn read_uint_acquire(&self, at: usize, width: usize) -> Option<u64> {
        self.read_uint(at, width)
    }
}

impl<A: crate::raw::Access> Source for Region<'_, A> {
    fn size(&self) -> usize {
        self.len()
    }

    fn read_uint(&self, at: usize, width: usize) -> Option<u64> {
        load_uint(self, at, width, Ordering::Relaxed)
    }

    fn read_uint_acquire(&self, at: usize, width: usize) -> Option<u64> {
        load_uint(self, at, width, Ordering::Acquire)
    }
}

impl Source for [u8] {
    fn size(&self) -> usize {
        self.len()
    }

    fn read_uint(&self, at: usize, width: usize) -> Option<u64> {
        crate::spec::read_le(self, at, width)
    }
}

/// Every problem of an image, where each was found, and the regions that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The producer's version, once the handshake passed (`None` without a handshake).
    pub producer: Option<Version>,
    /// The producer's header size, once it was read and in range.
    pub header_size: u64,
    /// The bytes the image spans, cut to the image's length.
    pub extent: u64,
    /// The problems of the image itself, in the order found: the handshake, the header
    /// size, the extent.
    pub problems: Vec<AttachError>,
    /// The root table, unless a problem of the image stopped the checks before it.
    pub table: Option<TableReport>,
    /// The writer's generation, read (acquire) after its state, when the handshake names it.
    pub generation: Option<u64>,
    first: Option<AttachError>,
}

impl Report {
    /// The first problem in the order of `codegen/ATTACH.md`: the error attach gives.
    pub fn first_error(&self) -> Option<&AttachError> {
        self.first.as_ref()
    }
}

/// One table: its own problems and each row's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableReport {
    /// Where its header starts, from the start of the image.
    pub base: usize,
    /// The bytes of its header, from `base`.
    pub header_len: u64,
    /// The problems of the table itself, in the order found: a block's extent, the row count.
    pub problems: Vec<AttachError>,
    /// Like [`TableSpec::rows`]; empty when a problem stopped the table before its rows.
    pub rows: Vec<RowReport>,
    /// Like [`TableSpec::geometry`]: each field's value, `None` when it failed its check or
    /// its row is not placed.
    pub geometry: Vec<Option<u64>>,
}

/// One row of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowReport {
    /// Size 0 (or past the row count), and this producer may leave it out.
    Absent,
    /// It passed every check: its region, from the table's `base`, and for a blocks row,
    /// each block's table.
    Placed {
        /// From the table's `base`.
        offset: u64,
        /// Bytes.
        size: u64,
        /// For a blocks row, each block; empty for the others.
        blocks: Vec<TableReport>,
    },
    /// It failed `error`: the offset and size its row gives (0 past the row count).
    Refused {
        /// From the table's `base`.
        offset: u64,
        /// Bytes.
        size: u64,
        /// The check it failed.
        error: AttachError,
    },
}

/// Checks `source` against `root` (after `handshake`, when the root header has one; without
/// one, the header is the root header struct's size and a row that a later minor version
/// added may be absent), going on after each problem.
pub fn report<S: Source + ?Sized>(
    source: &S,
    handshake: Option<&HandshakeSpec<'_>>,
    root: &TableSpec<'_>,
) -> Report {
    check_image(source, handshake, root, false)
}

/// [`report`]; with `lazy`, the blocks are left for their first use ([`check_block`]).
pub(crate) fn check_image<S: Source + ?Sized>(
    source: &S,
    handshake: Option<&HandshakeSpec<'_>>,
    root: &TableSpec<'_>,
    lazy: bool,
) -> Report {
    let mut check = Check {
        source,
        producer: None,
        first: None,
        lazy,
    };
    let mut report = Report {
        producer: None,
        header_size: 0,
        extent: 0,
        problems: Vec::new(),
        table: None,
        generation: None,
        first: None,
    };
    if let Err(e) = check.image(handshake, root, &mut report) {
        check.problem(&mut report.problems, e);
    }
    report.first = check.first;
    report
}

/// Block `k` of blocks row `row` of a table whose report is `parent` (a table checked with
/// its blocks left for later), checked now as its own table: the block's report, or the
/// first problem. Its own blocks, if any, are left for later too.
pub(crate) fn check_block<S: Source + ?Sized>(
    source: &S,
    producer: Option<Version>,
    spec: &TableSpec<'_>,
    parent: &TableReport,
    path: &str,
    row: usize,
    k: usize,
) -> Result<Option<TableReport>, AttachError> {
    let Some(r) = spec.rows.get(row) else {
        return Ok(None);
    };
    let RowContents::Blocks {
        table,
        count,
        stride,
        stride_geometry,
    } = r.contents
    else {
        return Ok(None);
    };
    let Some(RowReport::Placed { offset, .. }) = parent.rows.get(row) else {
        return Ok(None);
    };
    if k >= count {
        return Ok(None);
    }
    let stride = followed(stride, stride_geometry, &parent.geometry);
    let mut check = Check {
        source,
        producer,
        first: None,
        lazy: true,
    };
    let base = parent.base + *offset as usize + k * stride;
    let report = check.block(table, base, stride, &format!("{path}{}[{k}]", r.name));
    match check.first {
        Some(e) => Err(e),
        None => Ok(Some(report)),
    }
}

/// The schema's `value`, or the writer's when the table follows it.
pub(crate) fn followed(value: usize, geometry: Option<usize>, values: &[Option<u64>]) -> usize {
    geometry
        .and_then(|g| values.get(g).copied().flatten())
        .map_or(value, |v| v as usize)
}

pub(crate) struct Check<'s, S: ?Sized> {
    pub(crate) source: &'s S,
    /// `None` without a handshake: any row a later minor version added may be absent.
    pub(crate) producer: Option<Version>,
    pub(crate) first: Option<AttachError>,
    /// Leave the blocks for their first use.
    lazy: bool,
}

impl<S: Source + ?Sized> Check<'_, S> {
    /// Keeps the first problem of all as the verdict.
    pub(crate) fn note(&mut self, e: &AttachError) {
        if self.first.is_none() {
            self.first = Some(e.clone());
        }
    }

    /// Records `e` in `list`.
    pub(crate) fn problem(&mut self, list: &mut Vec<AttachError>, e: AttachError) {
        self.note(&e);
        list.push(e);
    }

    /// Reads the unsigned field `f` of the record at `base`.
    pub(crate) fn read(&self, base: usize, f: Field) -> Result<u64, AttachError> {
        self.read_with(base, f, false)
    }

    /// [`Self::read`], with an acquire load when `acquire`.
    pub(crate) fn read_with(
        &self,
        base: usize,
        f: Field,
        acquire: bool,
    ) -> Result<u64, AttachError> {
        let found = self.source.size() as u64;
        let at = base
            .checked_add(f.offset)
            .ok_or(AttachError::MappingTooShort {
                expected: u64::MAX,
                found,
            })?;
        let value = if acquire {
            self.source.read_uint_acquire(at, f.width)
        } else {
            self.source.read_uint(at, f.width)
        };
        value.ok_or(AttachError::MappingTooShort {
            expected: at as u64 + f.width as u64,
            found,
        })
    }

    /// The root: handshake, header size, extent; then its table. An `Err` stops the image.
    fn image(
        &mut self,
        handshake: Option<&HandshakeSpec<'_>>,
        root: &TableSpec<'_>,
        report: &mut Report,
    ) -> Result<(), AttachError> {
        let len = self.source.size() as u64;
        let header_size = match handshake {
            Some(h) => {
                // The writer's state first (acquire), so that the magic, the version and
                // everything read after them are what the writer stored before `running`;
                // its value is judged after the version, in ATTACH.md's order of errors.
                let state = h.state.map(|(f, _)| self.read_with(0, f, true));
                let producer = check_handshake(h, self.source.size(), |f| self.read(0, f))?;
                (self.producer, report.producer) = (Some(producer), Some(producer));
                report.generation = self.liveness(h, state.transpose()?)?;
                let size = match h.size {
                    Some(f) => self.read(0, f)?,
                    None => h.base_size as u64,
                };
                if size < h.base_size as u64 {
                    return Err(AttachError::HeaderTooSmall {
                        expected: h.base_size as u64,
                        found: size,
                    });
                }
                size
            }
            None if len < root.header_size as u64 => {
                return Err(AttachError::MappingTooShort {
                    expected: root.header_size as u64,
                    found: len,
                });
            }
            None => root.header_size as u64,
        };
        if header_size > len {
            return Err(AttachError::HeaderBeyondMapping {
                expected: len,
                found: header_size,
            });
        }
        report.header_size = header_size;
        let mut extent = match root.extent {
            Some(f) => self.read(0, f)?,
            None => len,
        };
        if extent > len {
            let e = AttachError::ExtentBeyondMapping {
                expected: len,
                found: extent,
            };
            self.problem(&mut report.problems, e);
            extent = len;
        }
        if extent < header_size {
            return Err(AttachError::ExtentTooSmall {
                region: String::new(),
                expected: header_size,
                found: extent,
            });
        }
        report.extent = extent;
        report.table = Some(self.table(root, 0, extent, header_size, "", Vec::new()));
        if let Some(h) = handshake {
            self.unchanged(h, report.generation)?;
        }
        Ok(())
    }

    /// Block `name` of a blocks row, laid out by `t`, at `base`, `stride` bytes long.
    fn block(&mut self, t: &TableSpec<'_>, base: usize, stride: usize, name: &str) -> TableReport {
        let header_len = t.header_size as u64;
        let mut problems = Vec::new();
        let extent = match t.extent {
            Some(f) => self.read(base, f),
            None => Ok(stride as u64),
        };
        let extent = match extent {
            Ok(e) if e > stride as u64 => {
                let e = AttachError::ExtentBeyondBlock {
                    region: name.to_string(),
                    expected: stride as u64,
                    found: e,
                };
                self.problem(&mut problems, e);
                Ok(stride as u64)
            }
            Ok(e) if e < header_len => Err(AttachError::ExtentTooSmall {
                region: name.to_string(),
                expected: header_len,
                found: e,
            }),
            other => other,
        };
        match extent {
            Ok(extent) => self.table(t, base, extent, header_len, &format!("{name}."), problems),
            Err(e) => {
                self.problem(&mut problems, e);
                TableReport {
                    base,
                    header_len,
                    problems,
                    rows: Vec::new(),
                    geometry: Vec::new(),
                }
            }
        }
    }

    /// Table `t`, whose header starts at `base`: its regions must lie in the `limit` bytes
    /// from `base`, apart from its first `header_len`. `problems` are the block's already.
    fn table(
        &mut self,
        t: &TableSpec<'_>,
        base: usize,
        limit: u64,
        header_len: u64,
        path: &str,
        problems: Vec<AttachError>,
    ) -> TableReport {
        let mut report = TableReport {
            base,
            header_len,
            problems,
            rows: Vec::with_capacity(t.rows.len()),
            geometry: Vec::new(),
        };
        if let Err(e) = self.rows(t, &mut report, limit, path) {
            self.problem(&mut report.problems, e);
        }
        report
    }

    /// The row count, each row, the overlaps, then each block. An `Err` (a read outside the
    /// image, which the checks before it rule out) stops the table.
    fn rows(
        &mut self,
        t: &TableSpec<'_>,
        report: &mut TableReport,
        limit: u64,
        path: &str,
    ) -> Result<(), AttachError> {
        let base = report.base;
        let mut count = match t.row_count {
            Some(f) => self.read(base, f)?,
            None => t.max_rows as u64,
        };
        if count > t.max_rows as u64 {
            let e = AttachError::TooManyRows {
                region: path.trim_end_matches('.').to_string(),
                expected: t.max_rows as u64,
                found: count,
            };
            self.problem(&mut report.problems, e);
            count = t.max_rows as u64;
        }
        for row in t.rows {
            let region = || format!("{path}{}", row.name);
            let (offset, size) = if (row.index as u64) < count {
                let at = base + t.table_offset + row.index * t.row_size;
                (self.read(at, t.row_offset)?, self.read(at, t.row_len)?)
            } else {
                (0, 0)
            };
            let error = if size == 0 {
                let newer = row
                    .since_minor
                    .is_some_and(|m| self.producer.is_none_or(|p| m > p.minor));
                if row.optional || newer {
                    report.rows.push(RowReport::Absent);
                    continue;
                }
                AttachError::RegionMissing { region: region() }
            } else if offset.checked_add(size).is_none_or(|end| end > limit) {
                AttachError::RegionOutOfBounds {
                    region: region(),
                    offset,
                    size,
                    limit,
                }
            } else if (base as u64 + offset) % row.align != 0 {
                AttachError::RegionMisaligned {
                    region: region(),
                    offset,
                    align: row.align,
                }
            } else if size < row.min_size {
                AttachError::RegionTooSmall {
                    region: region(),
                    expected: row.min_size,
                    found: size,
                }
            } else {
                report.rows.push(RowReport::Placed {
                    offset,
                    size,
                    blocks: Vec::new(),
                });
                continue;
            };
            self.note(&error);
            report.rows.push(RowReport::Refused {
                offset,
                size,
                error,
            });
        }
        self.overlaps(t, &mut report.rows, report.header_len, path);
        self.geometry(t, report, path)?;
        if self.lazy {
            return Ok(());
        }
        let values = report.geometry.clone();
        for (row, r) in t.rows.iter().zip(&mut report.rows) {
            let (
                RowContents::Blocks {
                    table,
                    count,
                    stride,
                    stride_geometry,
                },
                RowReport::Placed { offset, blocks, .. },
            ) = (row.contents, r)
            else {
                continue;
            };
            let stride = followed(stride, stride_geometry, &values);
            for k in 0..count {
                let bbase = base + *offset as usize + k * stride;
                blocks.push(self.block(table, bbase, stride, &format!("{path}{}[{k}]", row.name)));
            }
        }
        Ok(())
    }

    /// No placed row overlaps the header bytes (unless it holds the header) or an earlier
    /// placed row (unless the schema allows it); a row that does is refused.
    fn overlaps(&mut self, t: &TableSpec<'_>, rows: &mut [RowReport], header_len: u64, path: &str) {
        let meets = |(a, n): (u64, u64), (b, m): (u64, u64)| a < b + m && b < a + n;
        let refuse = |cx: &mut Self, r: &mut RowReport, error: AttachError| {
            cx.note(&error);
            if let RowReport::Placed { offset, size, .. } = *r {
                *r = RowReport::Refused {
                    offset,
                    size,
                    error,
                };
            }
        };
        let placed = |r: &RowReport| match *r {
            RowReport::Placed { offset, size, .. } => Some((offset, size)),
            _ => None,
        };
        for (k, row) in t.rows.iter().enumerate() {
            let Some(r) = placed(&rows[k]) else { continue };
            if !matches!(row.contents, RowContents::Header) && meets(r, (0, header_len)) {
                let error = AttachError::RegionsOverlap {
                    region: format!("{path}{}", row.name),
                    other: format!("{path}{}", t.header),
                };
                refuse(self, &mut rows[k], error);
            }
        }
        for j in 0..rows.len() {
            for i in 0..j {
                let (Some(a), Some(b)) = (placed(&rows[i]), placed(&rows[j])) else {
                    continue;
                };
                if meets(a, b)
                    && !t.rows[i].overlaps.contains(&j)
                    && !t.rows[j].overlaps.contains(&i)
                {
                    let error = AttachError::RegionsOverlap {
                        region: format!("{path}{}", t.rows[j].name),
                        other: format!("{path}{}", t.rows[i].name),
                    };
                    refuse(self, &mut rows[j], error);
                }
            }
        }
    }
}

/// The version check every record reader starts with: magic, length, major. `read` reads
/// a field of the record (inside its first `len` bytes). Returns the producer's version.
pub fn check_handshake(
    spec: &HandshakeSpec<'_>,
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
