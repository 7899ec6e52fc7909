//! The Python module's `store_<event>_wake_stats(view, stats)` (`python_wake_store.py.j2`): a
//! waiter's `WakeStats` stored into the fields its event's `stats` names
//! (`plan::events::wake_stores`), each through the view's setter of that field, which uses
//! the field's declared access, in the plan's order.

use serde::Serialize;

use crate::language_backend::python::names::Namer;
use crate::plan::events::wake_stores;
use crate::schema::Schema;

/// One figure's store: the view's setter and the figure (`ticks`, `skipped`, `p50_us`,
/// `p99_us`).
#[derive(Serialize)]
pub(in crate::language_backend::python) struct StorePy {
    setter: String,
    /// The figure's expression in the helper.
    value: &'static str,
}

/// An event's store helper.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct WakeStorePy {
    pub(in crate::language_backend::python) function: String,
    pub(in crate::language_backend::python) event: String,
    /// The view class of the struct that receives the figures.
    pub(in crate::language_backend::python) view: String,
    stores: Vec<StorePy>,
}

/// The store helper of every event whose `stats` the schema declares; `views` is the
/// module's view class of each struct.
pub(in crate::language_backend::python) fn wake_stores_py(
    schema: &Schema,
    views: &[Option<String>],
    module: &mut Namer,
) -> Vec<WakeStorePy> {
    wake_stores(schema)
        .into_iter()
        .map(|w| WakeStorePy {
            function: module.name(&format!("store_{}_wake_stats", w.event.name)),
            event: w.event.name.clone(),
            view: views[w.struct_index].clone().unwrap_or_default(),
            stores: w
                .stores
                .iter()
                .map(|s| StorePy {
                    setter: format!("set_{}", s.field),
                    value: match s.key {
                        "ticks" => "stats.ticks",
                        "skipped" => "stats.skipped",
                        "p50_us" => "p50_us",
                        _ => "p99_us",
                    },
                })
                .collect(),
        })
        .collect()
}
