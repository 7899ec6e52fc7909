//! The Python target's live section: views of the structs the schema puts in shared memory,
//! with atomic words, compare-and-swap claims, seqlock reads and writes and the rings, as
//! the Rust live layer (`rust/live/`) has them. This module names things and takes every
//! offset and size from the layout; the Python that runs is written once, in the templates:
//! the atomics layer in `python_atomics.py.j2`, seqlock retries, bounds checks and the classes in
//! `python_live.py.j2`. None when the schema declares no shared memory, so that such a
//! module is as it always was.
//!
//! One function per kind of thing: views and their field methods (`view.rs`), seqlock methods
//! and the value classes they read into (`seqlock.rs`), slot rings, event rings, and the bot
//! example (`ring.rs`), and the region protocols' classes (`protocols.rs`, rendered from
//! `python_protocols.py.j2` and its parts after the rest). This file holds the section's context and names its classes; what
//! every part reads is in `context.rs`.
//!
//! Names: views are `Live` and the struct's class (`LiveBridgeHeader`), a seqlock's value
//! class and a slot ring are CamelCase (`ParamDefs`, `SnapshotRing`), an event ring's
//! function is `<ring>_since`. Unlike the module's other helpers these can meet a schema
//! name, so any that is taken (or a keyword) gets a trailing `_`; so does a view method
//! named after a keyword or `release`.

mod commands;
mod context;
mod lockstep;
mod protocols;
mod ring;
mod seqlock;
mod view;

use crate::plan::tries::HOST_TRIES;
use std::sync::LazyLock;

use serde::Serialize;

use super::names::{Namer, Names, python_type_name};
use crate::ir::access::RingKind;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template, template};
use crate::plan::live::{has_live_layer, has_view};
use crate::schema::Schema;
use context::Ctx;
use ring::{Example, RingClass};
use view::ViewClass;
// The stub (`stub/live.rs`) types the classes and functions these describe.
pub(in crate::language_backend::python) use protocols::ProtocolsContext;
pub(in crate::language_backend::python) use ring::EventsFunction;
pub(in crate::language_backend::python) use seqlock::{Slot, ValueClass};
pub(in crate::language_backend::python) use view::{Method, MethodKind};

const TEMPLATE: Template = Template {
    name: "python_live.py.j2",
    source: include_str!("../../../../templates/python_live.py.j2"),
};

/// The template, compiled on first use.
/// The parts `python_live.py.j2` includes, one concern each.
const PARTS: [Template; 3] = [
    template!("python_live_view.py.j2"),
    template!("python_live_classes.py.j2"),
    template!("python_live_rings.py.j2"),
];

pub(super) static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&TEMPLATE, &PARTS, |_| {}));

/// The rendered section (after the atomics layer, `python_atomics.py.j2`), the names of
/// the exceptions that layer raises, and the public names the section adds to `__all__`.
#[derive(Serialize)]
pub(super) struct LiveSection {
    pub text: String,
    pub unavailable_error: String,
    pub contended_error: String,
    pub cas_error: String,
    #[serde(skip)]
    pub exports: Vec<String>,
    /// The view class of each struct that has one, and the class of each slot ring, by
    /// index: what `attach` hands out (`attach.rs`).
    #[serde(skip)]
    pub views: Vec<Option<String>>,
    #[serde(skip)]
    pub rings: Vec<Option<String>>,
    /// The context the text was rendered from, which the stub types (`stub/live.rs`).
    #[serde(skip)]
    pub context: LiveContext,
}

/// The live section of the module, or `None` when the schema declares no shared memory.
pub(super) fn render_live(
    schema: &Schema,
    names: &Names,
) -> Result<Option<LiveSection>, RenderError> {
    if !has_live_layer(schema) {
        return Ok(None);
    }
    let (context, views, rings) = live_context(schema, names);
    let mut text = COMPILED.render(&context)?;
    if !schema.protocols.is_empty() {
        text.push_str(&protocols::render(&context.protocols)?);
    }
    Ok(Some(LiveSection {
        text,
        unavailable_error: context.unavailable_error.clone(),
        contended_error: context.contended_error.clone(),
        cas_error: context.cas_error.clone(),
        exports: context.exports.clone(),
        views,
        rings,
        context,
    }))
}

/// The public helpers of the section, whatever the schema.
const HELPERS: &str = "atomic_load atomic_store atomic_compare_exchange atomic_exchange \
                       atomic_fetch_add atomics_backend set_atomics_backend";

#[derive(Serialize)]
pub(in crate::language_backend::python) struct LiveContext {
    abi_name: String,
    pub(in crate::language_backend::python) unavailable_error: String,
    pub(in crate::language_backend::python) contended_error: String,
    pub(in crate::language_backend::python) cas_error: String,
    /// The module's name for `plan::tries::HOST_TRIES`, and its value.
    pub(in crate::language_backend::python) host_tries: String,
    pub(in crate::language_backend::python) host_tries_count: u32,
    pub(in crate::language_backend::python) values: Vec<ValueClass>,
    pub(in crate::language_backend::python) views: Vec<ViewClass>,
    pub(in crate::language_backend::python) rings: Vec<RingClass>,
    pub(in crate::language_backend::python) events: Vec<EventsFunction>,
    example: Option<Example>,
    /// The region protocols' section (`protocols.rs`), rendered after the rest.
    #[serde(skip)]
    pub(in crate::language_backend::python) protocols: ProtocolsContext,
    #[serde(skip)]
    exports: Vec<String>,
}

/// The context, the view class of each struct and the class of each slot ring.
type Live = (LiveContext, Vec<Option<String>>, Vec<Option<String>>);

fn live_context(schema: &Schema, names: &Names) -> Live {
    let taken = (names
        .consts
        .iter()
        .chain(&names.enums)
        .chain(&names.structs)
        .cloned())
    .chain(["ABI_VERSION_MAJOR", "ABI_VERSION_MINOR", "ABI_VERSION"].map(String::from));
    let mut module = Namer(taken.collect());
    let unavailable_error = module.name("AtomicsUnavailableError");
    let contended_error = module.name("SeqlockContendedError");
    let cas_error = module.name("ContendedError");
    let host_tries = module.name("HOST_TRIES");
    let structs = schema.abi.struct_ids();
    let views = (structs.clone())
        .map(|i| has_view(schema, i).then(|| module.name(&format!("Live{}", names.structs[i]))))
        .collect();
    let locks = &schema.access.seqlocks;
    let values = (locks.iter())
        .map(|l| match l.guards_whole_struct(&schema.access.structs) {
            true => names.structs[l.struct_index].clone(),
            false => module.name(&python_type_name(&l.name)),
        })
        .collect();
    let cx = Ctx {
        schema,
        names,
        views,
        values,
        host_tries: host_tries.clone(),
    };
    let values: Vec<ValueClass> = (0..locks.len())
        .filter(|&k| !locks[k].guards_whole_struct(&schema.access.structs))
        .map(|k| cx.value_class(k))
        .collect();
    let views: Vec<ViewClass> = structs.filter_map(|i| cx.view_class(i)).collect();
    let (mut rings, mut events) = (Vec::new(), Vec::new());
    let mut ring_names = Vec::new();
    for ring in &schema.access.rings {
        let made = rings.len();
        match ring.kind {
            RingKind::Slots { .. } => {
                let name = module.name(&python_type_name(&ring.name));
                rings.extend(cx.ring_class(ring, name, &views));
            }
            RingKind::Events { .. } => {
                let name = module.name(&format!("{}_since", ring.name));
                let push = module.name(&format!("push_{}", ring.name));
                events.push(cx.events_function(ring, name, push));
            }
        }
        ring_names.push((rings.len() > made).then(|| rings[made].name.clone()));
    }
    let protocols = cx.protocols(&mut module, &cas_error);
    let example = rings
        .first()
        .and_then(|r| cx.example(r, &views, &protocols.sessions));
    let mut exports = vec![
        unavailable_error.clone(),
        contended_error.clone(),
        cas_error.clone(),
        host_tries.clone(),
    ];
    exports.extend(HELPERS.split_whitespace().map(String::from));
    exports.extend(views.iter().map(|v| v.name.clone()));
    exports.extend(values.iter().map(|v| v.name.clone()));
    exports.extend(rings.iter().map(|r| r.name.clone()));
    exports.extend(events.iter().flat_map(|e| [e.name.clone(), e.push.clone()]));
    if !schema.protocols.is_empty() {
        exports.extend(protocols.exports());
    }
    let context = LiveContext {
        abi_name: schema.abi.name.clone(),
        unavailable_error,
        contended_error,
        cas_error,
        host_tries_count: HOST_TRIES,
        host_tries: host_tries.clone(),
        values,
        views,
        rings,
        events,
        example,
        protocols,
        exports,
    };
    (context, cx.views, ring_names)
}
