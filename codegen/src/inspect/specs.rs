//! The runtime's attach descriptions (`abi_runtime::attach::spec`) built from the IR at run
//! time, borrowing the schema's names, so that `inspect` asks the runtime's engine for its
//! verdicts. They are the `static` specs the Rust backend emits for the live layer
//! (`language_backend/rust/live/attach.rs`), value for value: `tests/inspect_image.rs` compares them.

use std::cell::OnceCell;

use abi_runtime::attach::spec::{
    AddedField, Field, GeometryRule, GeometrySpec, HandshakeSpec, NeedSpec, NeedTerm, RowContents,
    RowSpec, TableSpec, Version,
};

use crate::ir::attach::{Holds, LayoutTable, Row};
use crate::ir::geometry;
use crate::ir::scalar::Scalar;
use crate::schema::Schema;

/// The table of every layout (each built once, when first asked for, with the tables of
/// the layouts it nests) and the handshake of every extensible struct.
pub struct AttachSpecs<'a> {
    schema: &'a Schema,
    rows: Vec<OnceCell<Vec<RowSpec<'a>>>>,
    tables: Vec<OnceCell<TableSpec<'a>>>,
    geometry: Vec<Vec<GeometrySpec<'a>>>,
    needs: Vec<Vec<Vec<NeedTerm<'a>>>>,
    added: Vec<Vec<AddedField<'a>>>,
}

fn field(s: &Scalar) -> Field {
    Field {
        offset: s.offset as usize,
        width: s.width as usize,
    }
}

impl<'a> AttachSpecs<'a> {
    pub fn new(schema: &'a Schema) -> Self {
        let n = schema.attach.layouts.len();
        let added = schema.attach.handshakes.iter().map(|h| {
            let s = &schema.abi.structs[h.struct_index];
            h.added
                .iter()
                .map(|a| AddedField {
                    name: &s.fields[a.field].name,
                    since_minor: a.since.minor,
                    offset: a.offset as usize,
                    end: a.end as usize,
                })
                .collect()
        });
        let attach = &schema.attach;
        let geometry = attach.layouts.iter().map(|l| {
            l.geometry
                .iter()
                .map(|t| {
                    let g = &attach.geometry[t.geometry];
                    GeometrySpec {
                        name: &schema.abi.structs[g.struct_index].fields[g.field].name,
                        row: t.row,
                        field: field(&g.scalar),
                        rule: match g.rule {
                            geometry::GeometryRule::Equal => {
                                GeometryRule::Equal(g.value.unwrap_or(0))
                            }
                            geometry::GeometryRule::Follow { least, align } => {
                                GeometryRule::Follow { least, align }
                            }
                        },
                        default: g.value,
                    }
                })
                .collect()
        });
        let needs = attach.layouts.iter().map(|l| {
            l.rows
                .iter()
                .map(|r| {
                    r.need.as_ref().map_or(Vec::new(), |n| {
                        n.terms
                            .iter()
                            .map(|t| NeedTerm {
                                factor: t.factor,
                                geometry: &t.geometry,
                            })
                            .collect()
                    })
                })
                .collect()
        });
        AttachSpecs {
            schema,
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
            let schema = self.schema;
            let l = &schema.attach.layouts[layout];
            let rows = self.rows[layout].get_or_init(|| {
                l.rows
                    .iter()
                    .enumerate()
                    .map(|(k, r)| self.row(layout, l, k, r))
                    .collect::<Vec<_>>()
            });
            TableSpec {
                name: &l.name,
                header: &schema.abi.structs[l.header].name,
                header_size: schema.layout.of(l.header).size as usize,
                table_offset: l.table_offset as usize,
                max_rows: l.max_rows as usize,
                row_size: l.row_size as usize,
                row_offset: field(&l.row_offset),
                row_len: field(&l.row_size_field),
                row_count: l.row_count.as_ref().map(field),
                extent: l.extent.as_ref().map(field),
                rows,
                geometry: &self.geometry[layout],
            }
        })
    }

    fn row(&'a self, li: usize, l: &LayoutTable, k: usize, r: &'a Row) -> RowSpec<'a> {
        let ours = self.schema.abi.version;
        let contents = match r.holds {
            Holds::Struct { struct_index, .. } if struct_index == l.header => RowContents::Header,
            Holds::Blocks {
                layout,
                count,
                stride,
            } => RowContents::Blocks {
                table: self.table(layout),
                count: count as usize,
                stride: stride as usize,
                stride_geometry: r.follows.size,
            },
            _ => RowContents::Plain,
        };
        RowSpec {
            name: &r.name,
            index: r.index as usize,
            since_minor: r
                .since
                .filter(|v| v.major == ours.major && v.minor > 0)
                .map(|v| v.minor),
            optional: r.optional,
            min_size: r.min_size,
            align: r.align,
            overlaps: &r.overlaps,
            contents,
            need: r.need.as_ref().map(|n| NeedSpec {
                fixed: n.fixed,
                terms: &self.needs[li][k],
            }),
        }
    }

    /// The handshake of struct `struct_index`, when it declares `version`.
    pub fn handshake(&self, struct_index: usize) -> Option<HandshakeSpec<'_>> {
        let schema = self.schema;
        let (k, h) = schema
            .attach
            .handshakes
            .iter()
            .enumerate()
            .find(|(_, h)| h.struct_index == struct_index)?;
        let abi = &schema.abi;
        Some(HandshakeSpec {
            record: &abi.structs[struct_index].name,
            ours: Version {
                major: abi.version.major,
                minor: abi.version.minor,
            },
            magic: h
                .magic
                .as_ref()
                .map(|(f, c)| (field(f), abi.consts[*c].value as u64)),
            major: field(&h.major),
            minor: field(&h.minor),
            size: h.size.as_ref().map(field),
            base_size: h.base_size as usize,
            full_size: schema.layout.of(struct_index).size as usize,
            added: &self.added[k],
            state: h.liveness.as_ref().map(|l| (field(&l.state), l.running)),
            generation: h
                .liveness
                .as_ref()
                .and_then(|l| l.generation.as_ref())
                .map(field),
        })
    }
}
