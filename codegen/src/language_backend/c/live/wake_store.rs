//! The C header's `<p>_<event>_store_wake_stats`, from `c_wake_store.h.j2`: a waiter's wake
//! statistics stored into the fields its event's `stats` names (`plan::events::wake_stores`),
//! each with its declared access, after the session helpers that define `<p>_wake_stats`.

use std::sync::LazyLock;

use serde::Serialize;

use crate::language_backend::c::names::c_type_name;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::events::wake_stores;
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_wake_store.h.j2",
    source: include_str!("../../../../templates/c_wake_store.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

/// One figure's store.
#[derive(Serialize)]
struct StoreCtx {
    key: &'static str,
    field: String,
    at: u64,
    atomic: bool,
    float: bool,
}

#[derive(Serialize)]
struct WakeStoreCtx {
    p: String,
    event: String,
    /// The C type of the struct that receives the figures.
    s: String,
    stores: Vec<StoreCtx>,
}

/// The store helper of every event whose `stats` the schema declares; empty without one.
pub(super) fn render_c_wake_stores(schema: &Schema) -> Result<String, RenderError> {
    let p = &schema.abi.c_prefix;
    let mut out = String::new();
    for w in wake_stores(schema) {
        out.push_str(
            &COMPILED.render(WakeStoreCtx {
                p: p.clone(),
                event: w.event.name.clone(),
                s: c_type_name(&schema.abi.structs[w.struct_index].name, p),
                stores: w
                    .stores
                    .iter()
                    .map(|s| StoreCtx {
                        key: s.key,
                        field: s.field.clone(),
                        at: s.offset,
                        atomic: s.atomic,
                        float: s.float,
                    })
                    .collect(),
            })?,
        );
    }
    Ok(out)
}
