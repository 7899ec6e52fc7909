//! Plans: each protocol's and attach's decisions and numbers, computed once from the loaded
//! schema, which every backend only names and prints.

pub mod attach;
pub(crate) mod live;
pub mod recording;
pub mod row_loads;
pub mod session;
pub mod tries;
pub mod words;
