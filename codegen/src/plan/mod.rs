//! Plans: each protocol's and attach's decisions and numbers, computed once from the loaded
//! schema, which every backend only names and prints.

pub mod attach;
pub mod bound;
pub mod commands;
#[cfg(feature = "text")]
pub mod directory;
pub mod events;
pub mod host_words;
pub(crate) mod live;
pub mod lockstep;
pub mod recording;
pub mod relayout;
pub mod row_loads;
pub mod service;
pub mod session;
pub mod tries;
pub mod words;

/// The bridge schema (schema.toml), for the plans' unit tests.
#[cfg(test)]
pub(crate) fn bridge_for_tests() -> crate::schema::Schema {
    let src = include_str!("../../../schema.toml");
    crate::schema::load_schema(src).unwrap_or_else(|e| panic!("{}", e.render("schema.toml", src)))
}
