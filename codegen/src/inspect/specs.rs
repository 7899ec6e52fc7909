//! The runtime's attach descriptions (`abi_runtime::attach::spec`) converted from the attach
//! plan (`plan::attach`) at run time, borrowing its names, so that `inspect` asks the
//! runtime's engine for its verdicts with the numbers the Rust backend prints as `static`
//! specs: one plan, converted field for field, nothing derived here.

use std::cell::OnceCell;

use abi_runtime::attach::spec::{
    AddedField, Field, GeometryRule, GeometrySpec, HandshakeSpec, NeedSpec, NeedTerm, RowContents,
    RowSpec, TableSpec, Version,
};

use crate::ir::StructId;
use crate::plan::attach::{self as plan, AttachPlan, Contents, Rule, Word};

/// The table of every layout (each built once, when first asked for, with the tables of
/// the layouts it nests) and the handshake of every extensible struct.
pub struct AttachSpecs<'a> {
    plan: &'a AttachPlan,
    rows: Vec<OnceCell<Vec<RowSpec<'a>>>>,
    tables: Vec<OnceCell<TableSpec<'a>>>,
    geometry: Vec<Vec<GeometrySpec<'a>>>,
    needs: Vec<Vec<Vec<NeedTerm<'a>>>>,
    added: Vec<Vec<AddedField<'a>>>,
}

fn field(w: Word) -> Field {
    Field {
        offset: w.offset as usize,
        width: w.width as usize,
    }
}

fn geometry_spec(g: &plan::GeometryPlan) -> GeometrySpec<'_> {
    GeometrySpec {
        name: &g.name,
        row: g.row,
        field: field(g.field),
        rule: match g.rule {
            Rule::Equal(v) => GeometryRule::Equal(v),
            Rule::Follow { least, align } => GeometryRule::Follow { least, align },
        },
        default: g.default,
    }
}

impl<'a> AttachSpecs<'a> {
    pub fn new(plan: &'a AttachPlan) -> Self {
        let n = plan.tables.len();
        let added = plan.handshakes.iter().map(|h| {
            (h.added.iter())
                .map(|a| AddedField {
                    name: &a.name,
                    since_minor: a.since_minor,
                    offset: a.offset as usize,
                    end: a.end as usize,
                })
                .collect()
        });
        let geometry = (plan.tables.iter()).map(|t| t.geometry.iter().map(geometry_spec).collect());
        let needs = plan.tables.iter().map(|t| {
            (t.rows.iter())
                .map(|r| {
                    r.need.as_ref().map_or(Vec::new(), |n| {
                        (n.terms.iter())
                            .map(|(factor, geometry)| NeedTerm {
                                factor: *factor,
                                geometry,
                            })
                            .collect()
                    })
                })
                .collect()
        });
        AttachSpecs {
            plan,
            rows: (0..n).map(|_| OnceCell::new()).collect(),
            tables: (0..n).map(|_| OnceCell::new()).collect(),
            geometry: geometry.collect(),
            needs: needs.collect(),
            added: added.collect(),
        }
    }

    /// Layout `layout`'s table.
    pub fn table(&'a self, layout: usize) -> &'a TableSpec<'a> {
        self.tables[layout].get_or_init(|| {
            let t = &self.plan.tables[layout];
            let rows = self.rows[layout].get_or_init(|| {
                (t.rows.iter().enumerate())
                    .map(|(k, r)| self.row(layout, k, r))
                    .collect::<Vec<_>>()
            });
            TableSpec {
                name: &t.name,
                header: &t.header,
                header_size: t.header_size as usize,
                table_offset: t.table_offset as usize,
                max_rows: t.max_rows as usize,
                row_size: t.row_size as usize,
                row_offset: field(t.row_offset),
                row_len: field(t.row_len),
                row_count: t.row_count.map(field),
                extent: t.extent.map(field),
                rows,
                geometry: &self.geometry[layout],
            }
        })
    }

    fn row(&'a self, t: usize, k: usize, r: &'a plan::RowPlan) -> RowSpec<'a> {
        let contents = match r.contents {
            Contents::Header => RowContents::Header,
            Contents::Blocks {
                table,
                count,
                stride,
                stride_geometry,
            } => RowContents::Blocks {
                table: self.table(table.index()),
                count: count as usize,
                stride: stride as usize,
                stride_geometry,
            },
            Contents::Plain => RowContents::Plain,
        };
        RowSpec {
            name: &r.name,
            index: r.index as usize,
            since_minor: r.since_minor,
            optional: r.optional,
            min_size: r.min_size,
            align: r.align,
            overlaps: &r.overlaps,
            contents,
            need: r.need.as_ref().map(|n| NeedSpec {
                fixed: n.fixed,
                terms: &self.needs[t][k],
            }),
        }
    }

    /// The handshake of struct `struct_index`, when it declares `version`.
    pub fn handshake(&self, struct_index: StructId) -> Option<HandshakeSpec<'_>> {
        let k = (self.plan.handshakes.iter()).position(|h| h.struct_index == struct_index)?;
        let h = &self.plan.handshakes[k];
        Some(HandshakeSpec {
            record: &h.record,
            ours: Version {
                major: h.ours.major,
                minor: h.ours.minor,
            },
            magic: h.magic.map(|m| (field(m.field), m.value)),
            major: field(h.major),
            minor: field(h.minor),
            size: h.size.map(field),
            base_size: h.base_size as usize,
            full_size: h.full_size as usize,
            added: &self.added[k],
            state: h.state.map(|(f, running)| (field(f), running)),
            generation: h.generation.map(field),
        })
    }
}
