//! The C header's attach helpers (`templates/c_attach.h.j2`): `<prefix>_attach`, one
//! generic, table-driven checker of a mapping that follows `codegen/ATTACH.md` step for
//! step, the handle it fills with every region's place, a typed accessor per region, and a
//! reader of each extensible record by its producer's size. This module turns
//! `schema.attach` into the template's tables (every number from the IR, none computed
//! again); the C text itself is in the template, after the live helpers, whose relaxed
//! loads it reads the mapping with.

use std::sync::LazyLock;

use serde::Serialize;

use super::attach_accessors::{AccessorCtx, AccessorWalk, Slot};
use super::names::c_type_name;
use super::result_codes::{CodeCtx, code_ctxs};
use super::session_host::{SessionHostCtx, session_hosts};
use crate::ir::access::RingKind;
use crate::ir::attach::{Holds, LayoutTable, MAX_BLOCK_NESTING, MAX_LAYOUT_ROWS};
use crate::ir::result_codes::Family;
use crate::ir::scalar::Scalar;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template, template};
use crate::plan::attach::{AttachPlan, Contents, HandshakePlan, Rule, TablePlan, Word};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_attach.h.j2",
    source: include_str!("../../../templates/c_attach.h.j2"),
};

/// The parts `c_attach.h.j2` includes, one concern each.
const PARTS: [Template; 6] = [
    template!("c_attach_tables.h.j2"),
    template!("c_attach_check.h.j2"),
    template!("c_attach_blocks.h.j2"),
    template!("c_produce.h.j2"),
    template!("c_record_read.h.j2"),
    template!("c_attach_host.h.j2"),
];

static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&TEMPLATE, &PARTS, |_| {}));

#[derive(Serialize)]
struct AttachContext {
    p: String,
    pu: String,
    /// The attach checks' codes, `<PREFIX>_ATTACH_OK` first (`result_codes.rs`).
    checks: Vec<CodeCtx>,
    /// The produce errors' codes, `<PREFIX>_PRODUCE_OK` first.
    produce_codes: Vec<CodeCtx>,
    major: u32,
    minor: u32,
    tables: Vec<TableCtx>,
    root: usize,
    slots: u64,
    root_hs: RecordCtx,
    /// The handshake's state field `(offset, width)`, its running value, and the generation
    /// field (width 0 when none); `None` without a state.
    liveness: Option<LivenessCtx>,
    /// The root handshake's identity fields, `(offset, width)` each (width 0 when the schema
    /// names none; a version's width is its bytes); `None` when it names none at all.
    identity: Option<IdentityCtx>,
    /// Geometry fields of the table that has the most (at least 1): the checker's scratch.
    max_geometry: usize,
    /// Rows of the table that has the most (at least 1): the producer's scratch.
    max_rows: usize,
    accessors: Vec<AccessorCtx>,
    records: Vec<RecordCtx>,
    /// The host's free and reload of each session whose rows own blocks.
    session_hosts: Vec<SessionHostCtx>,
    /// The bytes of the host's copies of its owned blocks' headers (`laid_out`).
    laid_out_size: u64,
    /// Every session's places, for the handle's `laid_out` lookup and produce's copy.
    laid_out_places: Vec<super::session_host::PlaceCtx>,
    /// Each session row's word that holds its generation, which produce carries past the
    /// mapping's (`plan::session::carried_rows`): `[offset from the mapping's start, bytes,
    /// the generation's first byte in it]`, ascending.
    carried: Vec<[u64; 3]>,
}

/// One `[[layout]]` table as the checker reads it.
#[derive(Serialize)]
struct TableCtx {
    /// Its position in the header's table of tables.
    index: usize,
    name: String,
    header_name: String,
    header_size: u64,
    table_offset: u64,
    max_rows: u64,
    row_size: u64,
    row_offset: (u64, u64),
    row_size_field: (u64, u64),
    /// `(offset, width)`, width 0 when the table has no such field.
    count: (u64, u64),
    extent: (u64, u64),
    rows: Vec<RowCtx>,
    /// The row count a producer writes: the highest row index plus one.
    rows_used: u64,
    geometry: Vec<GeometryCtx>,
    /// The words a producer starts at a value of their own: each exchange's state.
    inits: Vec<InitCtx>,
    /// Each row's need, flattened: `fixed, terms, (factor, n, g1 .. gn) * terms`.
    needs: Vec<u64>,
    /// Entries of the handle's region array one block laid out by this table takes: its
    /// rows, then its blocks' own.
    slots: u64,
}

#[derive(Serialize)]
struct RowCtx {
    name: String,
    index: u64,
    /// The minor version of ours that added the row, -1 when none (the plan gives a row a
    /// `since` only within our major).
    since_minor: i64,
    optional: bool,
    holds_header: bool,
    min_size: u64,
    align: u64,
    overlaps: String,
    blocks: i64,
    block_count: u64,
    block_stride: u64,
    /// The region array entry of block 0's first row, from the table's first entry.
    first_block_slot: u64,
    /// Where the row's need starts in the table's `needs`, -1 when it has none.
    need: i64,
    /// A ring's slot count or a blocks row's count: the schema's, and the geometry field (a
    /// position in the table's geometry, -1 when none) that holds the writer's.
    count_value: u64,
    count_geometry: i64,
    /// A ring's slot size or a blocks row's stride, likewise.
    size_value: u64,
    size_geometry: i64,
}

/// A word a producer writes at its protocol's start value (an exchange's `initial_state`):
/// the row whose struct holds it (-1 for the header), its offset in the struct and width.
#[derive(Serialize)]
struct InitCtx {
    name: String,
    row: i64,
    at: u64,
    width: u64,
    value: u64,
}

/// A geometry field of a table: where it is, and its rule.
#[derive(Serialize)]
struct GeometryCtx {
    name: String,
    /// Position in the table's rows of the row whose struct holds it, -1 for the header.
    row: i64,
    at: u64,
    width: u64,
    equal: bool,
    /// Equal: the schema's value. Followed: the least and the alignment.
    value: u64,
    /// What a producer writes unless told another (the schema's value); `has_default` is
    /// false for an area no constant sizes, which the producer must give.
    default: u64,
    has_default: bool,
    least: u64,
    align: u64,
}

#[derive(Serialize)]
struct IdentityCtx {
    pid: (u64, u64),
    version: (u64, u64),
    mono_ns: (u64, u64),
    unix_ns: (u64, u64),
}

#[derive(Serialize)]
struct LivenessCtx {
    state: (u64, u64),
    running: u64,
    running_name: String,
    generation: (u64, u64),
}

/// An extensible record's handshake, as the record reader and the attach read it.
#[derive(Serialize)]
struct RecordCtx {
    name: String,
    ty: String,
    /// `(offset, width, value)` of the magic, width 0 when there is none.
    magic: (u64, u64, String),
    major: (u64, u64),
    minor: (u64, u64),
    size: (u64, u64),
    base_size: u64,
    full_size: u64,
    added: Vec<AddedCtx>,
}

#[derive(Serialize)]
struct AddedCtx {
    field: String,
    since_major: u32,
    since_minor: u32,
    offset: u64,
    end: u64,
}

/// The attach section of the C header, or `None` when the schema has no root layout.
pub(super) fn render_c_attach(schema: &Schema) -> Result<Option<String>, RenderError> {
    let Some(root) = schema.attach.root else {
        return Ok(None);
    };
    let abi = &schema.abi;
    let p = abi.c_prefix.clone();
    let pu = p.to_ascii_uppercase();
    let plan = &schema.attach_plan;
    let layouts = &schema.attach.layouts;
    let mut slots = vec![None; layouts.len()];
    for i in 0..layouts.len() {
        table_slots(plan, i, &mut slots, 0)?;
    }
    let slots: Vec<u64> = slots.into_iter().map(|s| s.unwrap_or(0)).collect();
    let tables = (layouts.iter().zip(&plan.tables).enumerate())
        .map(|(i, (l, t))| table_ctx(schema, l, t, i, slots[i], &slots))
        .collect::<Result<Vec<_>, _>>()?;
    let header = layouts[root].header;
    let root_hs = plan
        .handshake_of(header)
        .map(|h| record_ctx(schema, h))
        .ok_or_else(|| RenderError("the root layout's header has no handshake".into()))?;
    let handshake = schema
        .attach
        .handshakes
        .iter()
        .find(|h| h.struct_index == header);
    // The running value's name is the template's; its number and the fields are the plan's.
    let running_name = handshake.and_then(|h| Some(h.liveness.as_ref()?.running_name.clone()));
    let liveness = plan.handshake_of(header).and_then(|h| {
        let (state, running) = h.state?;
        Some(LivenessCtx {
            state: pair(state),
            running,
            running_name: running_name?,
            generation: h.generation.map_or((0, 0), pair),
        })
    });
    let identity = handshake
        .map(|h| &h.identity)
        .filter(|i| !i.is_empty())
        .map(|i| {
            let at = |s: &Option<crate::ir::scalar::Scalar>| s.as_ref().map_or((0, 0), scalar);
            IdentityCtx {
                pid: at(&i.pid),
                version: at(&i.version),
                mono_ns: at(&i.mono_ns),
                unix_ns: at(&i.unix_ns),
            }
        });
    let max_geometry = tables
        .iter()
        .map(|t| t.geometry.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let mut accessors = Vec::new();
    let mut cx = AccessorWalk {
        schema,
        slots: &slots,
        out: &mut accessors,
    };
    cx.walk(root, "", &Slot::default(), &[], 0)?;
    let hosts = session_hosts(schema);
    let context = AttachContext {
        checks: code_ctxs(&[Family::Attach], &pu),
        produce_codes: code_ctxs(&[Family::Produce], &pu),
        major: abi.version.major,
        minor: abi.version.minor,
        root: root.index(),
        slots: slots[root.index()],
        root_hs,
        liveness,
        identity,
        max_geometry,
        max_rows: layouts
            .iter()
            .map(|t| t.rows.len())
            .max()
            .unwrap_or(0)
            .max(1),
        accessors,
        laid_out_size: super::session_host::laid_out_size(&hosts),
        laid_out_places: hosts.iter().flat_map(|h| h.places.clone()).collect(),
        session_hosts: hosts,
        carried: carried_words(schema),
        records: (plan.handshakes.iter())
            .map(|h| record_ctx(schema, h))
            .collect(),
        tables,
        p,
        pu,
    };
    COMPILED.render(context).map(Some)
}

/// Every session row's generation word a re-layout carries forward, ascending.
fn carried_words(schema: &Schema) -> Vec<[u64; 3]> {
    let mut out: Vec<[u64; 3]> = crate::plan::session::carried_rows(schema)
        .iter()
        .flat_map(|c| (0..c.rows).map(move |i| [c.at + i * c.stride + c.word, c.width, c.lane]))
        .collect();
    out.sort_unstable();
    out
}

/// The region entries one block laid out by table `i` takes, memoized in `slots`.
fn table_slots(
    plan: &AttachPlan,
    i: usize,
    slots: &mut [Option<u64>],
    depth: usize,
) -> Result<u64, RenderError> {
    if let Some(n) = slots[i] {
        return Ok(n);
    }
    // Lowering refuses a cycle and nesting past MAX_BLOCK_NESTING.
    debug_assert!(depth <= MAX_BLOCK_NESTING, "lowering bounds the nesting");
    let t = &plan.tables[i];
    let mut n = t.rows.len() as u64;
    for row in &t.rows {
        if let Contents::Blocks { table, count, .. } = row.contents {
            n += count * table_slots(plan, table.index(), slots, depth + 1)?;
        }
    }
    slots[i] = Some(n);
    Ok(n)
}

fn scalar(s: &Scalar) -> (u64, u64) {
    (s.offset, s.width)
}

fn pair(w: Word) -> (u64, u64) {
    (w.offset, w.width)
}

fn table_ctx(
    schema: &Schema,
    l: &LayoutTable,
    t: &TablePlan,
    index: usize,
    own_slots: u64,
    slots: &[u64],
) -> Result<TableCtx, RenderError> {
    // The overlap masks are u64s: lowering refuses more than MAX_LAYOUT_ROWS rows.
    debug_assert!(t.rows.len() <= MAX_LAYOUT_ROWS, "lowering bounds the rows");
    let mut next_block = t.rows.len() as u64;
    let mut needs = Vec::new();
    let position = |g: Option<usize>| g.map_or(-1, |g| g as i64);
    let rows = (t.rows.iter().zip(&l.rows))
        .map(|(row, ir)| {
            let need = row.need.as_ref().map_or(-1, |n| {
                let at = needs.len() as i64;
                needs.push(n.fixed);
                needs.push(n.terms.len() as u64);
                for (factor, geometry) in &n.terms {
                    needs.push(*factor);
                    needs.push(geometry.len() as u64);
                    needs.extend(geometry.iter().map(|&g| g as u64));
                }
                at
            });
            let (blocks, block_count, block_stride) = match row.contents {
                Contents::Blocks {
                    table,
                    count,
                    stride,
                    ..
                } => (table.index() as i64, count, stride),
                _ => (-1, 0, 0),
            };
            let (count_value, size_value) = match ir.holds {
                Holds::Ring { ring } => match schema.access.rings[ring].kind {
                    RingKind::Slots {
                        slot_count,
                        slot_size,
                        ..
                    } => (slot_count, slot_size),
                    RingKind::Events { .. } => (0, 0),
                },
                _ => (block_count, block_stride),
            };
            let mask = row.overlaps.iter().fold(0u64, |m, &j| m | (1u64 << j));
            let first_block_slot = next_block;
            if blocks >= 0 {
                next_block += block_count * slots[blocks as usize];
            }
            RowCtx {
                name: row.name.clone(),
                index: row.index,
                since_minor: row.since_minor.map_or(-1, i64::from),
                optional: row.optional,
                holds_header: row.contents == Contents::Header,
                min_size: row.min_size,
                align: row.align,
                overlaps: format!("{mask:#x}ULL"),
                blocks,
                block_count,
                block_stride,
                first_block_slot,
                need,
                count_value,
                count_geometry: position(row.follows_count),
                size_value,
                size_geometry: position(row.follows_size),
            }
        })
        .collect();
    let geometry = (t.geometry.iter())
        .map(|g| {
            let (equal, value, least, align) = match g.rule {
                Rule::Equal(v) => (true, v, 0, 1),
                Rule::Follow { least, align } => (false, 0, least, align),
            };
            GeometryCtx {
                name: g.name.clone(),
                row: position(g.row),
                at: g.field.offset,
                width: g.field.width,
                equal,
                value,
                default: g.default.unwrap_or(0),
                has_default: g.default.is_some(),
                least,
                align,
            }
        })
        .collect();
    let inits = table_inits(schema, l);
    Ok(TableCtx {
        index,
        inits,
        name: t.name.clone(),
        header_name: t.header.clone(),
        header_size: t.header_size,
        table_offset: t.table_offset,
        max_rows: t.max_rows,
        row_size: t.row_size,
        row_offset: pair(t.row_offset),
        row_size_field: pair(t.row_len),
        count: t.row_count.map_or((0, 0), pair),
        extent: t.extent.map_or((0, 0), pair),
        rows_used: t.rows.iter().map(|r| r.index + 1).max().unwrap_or(0),
        rows,
        geometry,
        needs,
        slots: own_slots,
    })
}

/// The state word of every exchange whose header is this table's or one of its struct rows'.
fn table_inits(schema: &Schema, t: &LayoutTable) -> Vec<InitCtx> {
    let holders = std::iter::once((-1i64, t.header)).chain(t.rows.iter().enumerate().filter_map(
        |(r, row)| match row.holds {
            Holds::Struct { struct_index, .. } if struct_index != t.header => {
                Some((r as i64, struct_index))
            }
            _ => None,
        },
    ));
    let words = crate::plan::live::initial_words(schema);
    let mut out = Vec::new();
    for (row, si) in holders {
        for w in words.iter().filter(|w| w.struct_index == si) {
            out.push(InitCtx {
                name: w.name.clone(),
                row,
                at: w.offset,
                width: w.width,
                value: w.value,
            });
        }
    }
    out
}

fn record_ctx(schema: &Schema, h: &HandshakePlan) -> RecordCtx {
    let abi = &schema.abi;
    RecordCtx {
        name: h.record.clone(),
        ty: c_type_name(&h.record, &abi.c_prefix),
        magic: h.magic.map_or((0, 0, "0".into()), |m| {
            (m.field.offset, m.field.width, format!("{:#x}ULL", m.value))
        }),
        major: pair(h.major),
        minor: pair(h.minor),
        size: h.size.map_or((0, 0), pair),
        base_size: h.base_size,
        full_size: h.full_size,
        added: (h.added.iter())
            .map(|a| AddedCtx {
                field: a.name.clone(),
                since_major: h.ours.major,
                since_minor: a.since_minor,
                offset: a.offset,
                end: a.end,
            })
            .collect(),
    }
}
