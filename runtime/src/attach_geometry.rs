//! The checks attach adds to the layout tables' (`codegen/ATTACH.md`): the writer's state and
//! generation around the whole attach (start-up and reload), and each table's geometry
//! fields, equal to the schema's or followed, with what each region needs of them.

use crate::sync::{Ordering, fence};

use crate::attach_check::{Check, RowReport, Source, TableReport};
use crate::attach_error::AttachError;
use crate::attach_spec::{GeometryRule, HandshakeSpec, TableSpec};

impl<S: Source + ?Sized> Check<'_, S> {
    /// The writer's state `found`, loaded first of all (acquire): anything but running is a
    /// retryable error. Then its generation (acquire), which the handle keeps.
    pub(crate) fn liveness(
        &self,
        h: &HandshakeSpec<'_>,
        found: Option<u64>,
    ) -> Result<Option<u64>, AttachError> {
        let (Some((_, running)), Some(found)) = (h.state, found) else {
            return Ok(None);
        };
        if found != running {
            return Err(AttachError::HostNotRunning {
                expected: running,
                found,
            });
        }
        h.generation.map(|g| self.read_with(0, g, true)).transpose()
    }

    /// After every table was read: the state is still running and the generation the same,
    /// so no reload began while attach read (the acquire fence orders the table reads before
    /// these loads, as a seqlock reader's).
    pub(crate) fn unchanged(
        &self,
        h: &HandshakeSpec<'_>,
        generation: Option<u64>,
    ) -> Result<(), AttachError> {
        let Some((state, running)) = h.state else {
            return Ok(());
        };
        fence(Ordering::Acquire);
        let found = self.read_with(0, state, true)?;
        if found != running {
            return Err(AttachError::HostNotRunning {
                expected: running,
                found,
            });
        }
        if let (Some(g), Some(before)) = (h.generation, generation) {
            let now = self.read_with(0, g, true)?;
            if now != before {
                return Err(AttachError::HostReloaded {
                    expected: before,
                    found: now,
                });
            }
        }
        Ok(())
    }

    /// Reads and checks table `t`'s geometry fields (a row's only when the row is placed;
    /// a row whose field fails is refused), then each placed row's need.
    pub(crate) fn geometry(
        &mut self,
        t: &TableSpec<'_>,
        report: &mut TableReport,
        path: &str,
    ) -> Result<(), AttachError> {
        for g in t.geometry {
            let (base, region) = match g.row {
                None => (report.base, format!("{path}{}.{}", t.header, g.name)),
                Some(r) => match report.rows.get(r) {
                    Some(RowReport::Placed { offset, .. }) => (
                        report.base + *offset as usize,
                        format!("{path}{}.{}", t.rows[r].name, g.name),
                    ),
                    _ => {
                        report.geometry.push(None);
                        continue;
                    }
                },
            };
            let found = self.read(base, g.field)?;
            let error = match g.rule {
                GeometryRule::Equal(expected) if found != expected => {
                    Some(AttachError::GeometryMismatch {
                        region,
                        expected,
                        found,
                    })
                }
                GeometryRule::Equal(_) => None,
                GeometryRule::Follow { .. } if found == 0 => {
                    Some(AttachError::GeometryZero { region })
                }
                GeometryRule::Follow { align, .. } if found % align != 0 => {
                    Some(AttachError::GeometryMisaligned {
                        region,
                        expected: align,
                        found,
                    })
                }
                GeometryRule::Follow { least, .. } if found < least => {
                    Some(AttachError::GeometryTooSmall {
                        region,
                        expected: least,
                        found,
                    })
                }
                GeometryRule::Follow { .. } => None,
            };
            match error {
                None => report.geometry.push(Some(found)),
                Some(error) => {
                    report.geometry.push(None);
                    match g.row {
                        Some(r) => self.refuse(&mut report.rows[r], error),
                        None => self.problem(&mut report.problems, error),
                    }
                }
            }
        }
        for (k, row) in t.rows.iter().enumerate() {
            let (Some(need), RowReport::Placed { size, .. }) = (row.need, &report.rows[k]) else {
                continue;
            };
            let total = need.bytes(|g| report.geometry.get(g).copied().flatten());
            if let Some(total) = total.filter(|&t| t > *size) {
                let error = AttachError::GeometryTooLarge {
                    region: format!("{path}{}", row.name),
                    expected: *size,
                    found: total,
                };
                self.refuse(&mut report.rows[k], error);
            }
        }
        Ok(())
    }

    /// Turns a placed row into a refused one, with `error`.
    fn refuse(&mut self, row: &mut RowReport, error: AttachError) {
        self.note(&error);
        if let RowReport::Placed { offset, size, .. } = *row {
            *row = RowReport::Refused {
                offset,
                size,
                error,
            };
        }
    }
}
