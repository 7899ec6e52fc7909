//! The C header's live access helpers (`templates/c_live.h.j2`): `static inline` functions
//! over the plain structs for every atomic field, compare-and-swap word, seqlock and ring
//! the schema declares, on a small atomics layer (GCC/Clang `__atomic` builtins, or MSVC
//! intrinsics). This module builds the template's context from `schema.access` and the
//! layout's numbers (one `build_*` per kind); the C text itself is in the template.
//!
//! This file builds the context and the parts for atomic fields and words; the doc comments
//! (`comments.rs`), seqlocks (`seqlock.rs`), rings (`ring.rs`) and the region protocols
//! (`protocols.rs`) have files of their own.

mod commands;
mod comments;
mod event_names;
mod lockstep;
mod protocols;
mod ring;
mod seqlock;
mod wake_store;

use std::sync::LazyLock;

use serde::Serialize;

use super::names::{array_len, c_field_name, c_type_name, field_type};
use super::result_codes::{CodeCtx, code_ctxs};
use crate::ir::Elem;
use crate::ir::StructId;
use crate::ir::access::AccessKind;
use crate::ir::result_codes::Family;
use crate::language_backend::output::RenderError;
use crate::language_backend::prose::ProtocolProse;
use crate::language_backend::prose::regions::describe_all;
use crate::language_backend::text::{Compiled, Template, template};
use crate::plan::row_loads::{RowLoad, row_loads};
use crate::plan::tries::HOST_TRIES;
use crate::plan::words;
use crate::schema::Schema;
use comments::field_doc;
use ring::{EventRingCtx, SlotRingCtx, build_ring};
use seqlock::{SeqlockCtx, build_seqlock};

const TEMPLATE: Template = Template {
    name: "c_live.h.j2",
    source: include_str!("../../../../templates/c_live.h.j2"),
};

/// The parts `c_live.h.j2` includes, one concern each.
const PARTS: [Template; 4] = [
    template!("c_atomics.h.j2"),
    template!("c_fields.h.j2"),
    template!("c_seqlocks.h.j2"),
    template!("c_rings.h.j2"),
];

static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&TEMPLATE, &PARTS, |_| {}));

/// The preprocessor conditions of the helpers' two branches, with `pu` the macro prefix:
/// the GCC/Clang `__atomic` builtins, else MSVC's intrinsics (also under clang when
/// `<PREFIX>_LIVE_MSVC_INTRINSICS` is defined). The includes and the section test the same.
fn branch_conditions(pu: &str) -> (String, String) {
    (
        format!("(defined(__GNUC__) || defined(__clang__)) && !defined({pu}_LIVE_MSVC_INTRINSICS)"),
        format!("defined(_MSC_VER) || defined({pu}_LIVE_MSVC_INTRINSICS)"),
    )
}

/// The headers the helpers need, included before the header's `extern "C"` block; with a
/// host directory or an event, `<windows.h>` on Windows for the directory's process probe and
/// the events' `WaitForSingleObject`/`SetEvent`, so both work whatever the including file
/// included first (no macro to define after it). It comes without the min and max macros,
/// which would break C++'s `std::min` and `std::max` (`NOMINMAX` for the include only, unless
/// the including file defined it: the header leaves no macro of its own behind).
fn includes(pu: &str, directory: bool, events: bool) -> String {
    let (gnu, msvc) = branch_conditions(pu);
    let sddl = if directory {
        "/* The host directory's owner-only section (ConvertStringSecurityDescriptorToSecurityDescriptorA). */
#include <sddl.h>
"
    } else {
        ""
    };
    let windows = if directory || events {
        format!(
            "\
#if defined(_WIN32) && !defined(__linux__)
/* The host directory's process probe (OpenProcess, GetExitCodeProcess, GetProcessTimes) and
 * named section (CreateFileMappingA), and the events' named auto-reset events
 * (WaitForSingleObject, SetEvent). */
#ifdef NOMINMAX
#include <windows.h>
#else
#define NOMINMAX
#include <windows.h>
#undef NOMINMAX
#endif
{sddl}#endif
"
        )
    } else {
        String::new()
    };
    let posix = if directory {
        "\
#if defined(__linux__)
/* The host directory's open-or-create: open, lseek, write, chmod, fstat, mmap, poll. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
"
    } else {
        ""
    };
    format!(
        "\
#include <stdbool.h>
#include <string.h>
#if {gnu}
#ifndef _WIN32
#include <sched.h>
#endif
#elif {msvc}
#include <intrin.h>
#endif
{windows}{posix}"
    )
}

/// What the C header prints when the schema declares shared-memory access.
#[derive(Serialize)]
pub(super) struct LiveText {
    /// `#include` lines for the top of the header.
    includes: String,
    /// The "Live access helpers" section, for after the structs.
    section: String,
}

/// The live section of the C header, or `None` when the schema declares no atomic field,
/// seqlock or ring (then the header is exactly what it was without this module).
pub(super) fn render_c_live(schema: &Schema) -> Result<Option<LiveText>, RenderError> {
    if !has_live_access(schema) {
        return Ok(None);
    }
    let mut section = COMPILED.render(build_context(schema))?;
    section.push_str(&protocols::render_c_protocols(
        schema,
        &describe_all(schema),
    )?);
    section.push_str(&wake_store::render_c_wake_stores(schema)?);
    section.push_str(&lockstep::render_c_lockstep(schema)?);
    section.push_str(&commands::render_c_commands(schema)?);
    section.push_str(&event_names::render_c_event_names(schema)?);
    Ok(Some(LiveText {
        includes: includes(
            &schema.abi.c_prefix.to_ascii_uppercase(),
            !schema.directories.is_empty(),
            !schema.events.is_empty(),
        ),
        section,
    }))
}

/// Whether the header has live helpers: for the shared memory the schema declares, or for
/// the attach helpers (`attach.rs`), which read a mapping with their loads.
fn has_live_access(schema: &Schema) -> bool {
    let a = &schema.access;
    schema.attach.root.is_some()
        || !schema.protocols.is_empty()
        || !a.seqlocks.is_empty()
        || !a.rings.is_empty()
        || a.structs
            .iter()
            .any(|s| s.shared && s.fields.iter().any(|f| f.kind.is_atomic()))
}

#[derive(Serialize)]
struct LiveContext {
    p: String,
    pu: String,
    /// The `#if` condition of the GCC/Clang branch, and the `#elif` one of MSVC's.
    gnu_branch: String,
    msvc_branch: String,
    static_assert: String,
    alignof: String,
    asserts: Vec<AssertCtx>,
    fields: Vec<FieldCtx>,
    words: Vec<WordCtx>,
    /// A session row's plain fields with loaders (`plan::row_loads`).
    row_loads: Vec<RowLoadCtx>,
    seqlocks: Vec<SeqlockCtx>,
    slot_rings: Vec<SlotRingCtx>,
    event_rings: Vec<EventRingCtx>,
    /// The live helpers' result codes (`result_codes.rs`).
    codes: Vec<CodeCtx>,
    /// `plan::tries::HOST_TRIES`.
    host_tries: u32,
}

/// A static assert that an atomic field is a naturally aligned word.
#[derive(Serialize)]
struct AssertCtx {
    s: String,
    member: String,
    width: u64,
}

/// What every field's accessor names: its doc, struct, schema name (for function names),
/// member, C type and bits.
#[derive(Serialize)]
struct FieldHead {
    doc: String,
    s: String,
    name: String,
    member: String,
    ty: String,
    bits: u64,
}

impl FieldHead {
    fn of(
        schema: &Schema,
        protocols: &[ProtocolProse],
        si: StructId,
        fi: usize,
        bits: u64,
    ) -> Self {
        let abi = &schema.abi;
        let s = &abi.structs[si];
        let f = &s.fields[fi];
        FieldHead {
            doc: field_doc(schema, protocols, si, fi),
            s: c_type_name(&s.name, &abi.c_prefix),
            name: f.name.clone(),
            member: c_field_name(&f.name, &abi.c_prefix),
            ty: field_type(abi, &f.ty).into_owned(),
            bits,
        }
    }
}

/// One atomic or compare-and-swap scalar field.
#[derive(Serialize)]
struct FieldCtx {
    #[serde(flatten)]
    head: FieldHead,
    /// A seqlock counter: a load only.
    counter: bool,
    /// An integer (not an enum or flag set): fetch_add too.
    add: bool,
    cas: bool,
    /// A lane of a wider word the protocols' helpers access (`plan::words`): a load of
    /// that word only, and no store, add or swap of the field's own size.
    lane: Option<LaneCtx>,
}

/// The word an atomic field is a lane of: its offset in the struct, its bits, and the
/// field's shift in it.
#[derive(Serialize)]
struct LaneCtx {
    word_at: u64,
    word_bits: u64,
    shift: u64,
}

/// A session row's plain field with a loader of its own (`plan::row_loads`): a scalar's
/// `bits`, or a text field's bytes (`text_len`, 0 for a scalar).
#[derive(Serialize)]
struct RowLoadCtx {
    #[serde(flatten)]
    head: FieldHead,
    text_len: u64,
}

/// An array claimed as one word (`pad_owner`).
#[derive(Serialize)]
struct WordCtx {
    doc: String,
    s: String,
    name: String,
    member: String,
    elem: String,
    len: String,
    count: u64,
    elem_size: u64,
    width: u64,
    bits: u64,
}

fn build_context(schema: &Schema) -> LiveContext {
    let abi = &schema.abi;
    let p = abi.c_prefix.clone();
    let pu = p.to_ascii_uppercase();
    let protocols = describe_all(schema);
    let (gnu_branch, msvc_branch) = branch_conditions(&pu);
    let mut ctx = LiveContext {
        gnu_branch,
        msvc_branch,
        static_assert: format!("{pu}_STATIC_ASSERT_"),
        alignof: format!("{pu}_ALIGNOF_"),
        codes: code_ctxs(&[Family::Live], &pu),
        host_tries: HOST_TRIES,
        p,
        pu,
        asserts: Vec::new(),
        fields: Vec::new(),
        words: Vec::new(),
        row_loads: Vec::new(),
        seqlocks: Vec::new(),
        slot_rings: Vec::new(),
        event_rings: Vec::new(),
    };
    for &si in &schema.layout.order {
        let a = &schema.access.structs[si];
        for (fi, fa) in a.fields.iter().enumerate() {
            let Some(width) = fa.kind.width() else {
                continue;
            };
            let s = &abi.structs[si];
            ctx.asserts.push(AssertCtx {
                s: c_type_name(&s.name, &abi.c_prefix),
                member: c_field_name(&s.fields[fi].name, &abi.c_prefix),
                width,
            });
            // A struct copied whole under a seqlock (a ring slot's snapshot) has no
            // accessors: its atomic fields are read in the copy.
            if !a.shared || a.guarded_whole {
                continue;
            }
            if s.fields[fi].ty.len.is_some() {
                ctx.words
                    .push(build_cas_word(schema, &protocols, si, fi, width));
            } else {
                ctx.fields
                    .push(build_atomic_field(schema, &protocols, si, fi, width));
            }
        }
    }
    for &si in &schema.layout.order {
        for r in row_loads(schema, si) {
            let (bits, text_len) = match r.load {
                RowLoad::Scalar { width } => (width * 8, 0),
                RowLoad::Text { len } => (0, len),
            };
            ctx.row_loads.push(RowLoadCtx {
                head: FieldHead::of(schema, &protocols, si, r.field, bits),
                text_len,
            });
        }
    }
    ctx.seqlocks = schema
        .access
        .seqlocks
        .iter()
        .map(|l| build_seqlock(schema, &protocols, l))
        .collect();
    for ring in &schema.access.rings {
        build_ring(
            schema,
            &protocols,
            ring,
            &mut ctx.slot_rings,
            &mut ctx.event_rings,
        );
    }
    ctx
}

fn build_atomic_field(
    schema: &Schema,
    protocols: &[ProtocolProse],
    si: StructId,
    fi: usize,
    width: u64,
) -> FieldCtx {
    let f = &schema.abi.structs[si].fields[fi];
    let a = &schema.access.structs[si];
    let counter = a
        .seqlocks
        .iter()
        .any(|&k| schema.access.seqlocks[k].counter == fi);
    let lane = words::lane(schema, si, fi).map(|l| LaneCtx {
        word_at: l.word_at,
        word_bits: l.word_width * 8,
        shift: l.at * 8,
    });
    FieldCtx {
        lane,
        head: FieldHead::of(schema, protocols, si, fi, width * 8),
        counter,
        add: !counter && matches!(f.ty.elem, Elem::Prim(_)),
        cas: !counter && matches!(a.fields[fi].kind, AccessKind::Cas { .. }),
    }
}

fn build_cas_word(
    schema: &Schema,
    protocols: &[ProtocolProse],
    si: StructId,
    fi: usize,
    width: u64,
) -> WordCtx {
    let abi = &schema.abi;
    let s = &abi.structs[si];
    let f = &s.fields[fi];
    let fl = &schema.layout.of(si).fields[fi];
    WordCtx {
        doc: field_doc(schema, protocols, si, fi),
        s: c_type_name(&s.name, &abi.c_prefix),
        name: f.name.clone(),
        member: c_field_name(&f.name, &abi.c_prefix),
        elem: field_type(abi, &f.ty).into_owned(),
        len: array_len(abi, &f.ty),
        count: f.ty.count(),
        elem_size: fl.elem_size,
        width,
        bits: width * 8,
    }
}
