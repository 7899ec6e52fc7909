//! The raw values several kinds of table share: an integer or an integer expression, and
//! one party or several.

use serde::Deserialize;

/// `writer = "host"` or `writer = ["host", "client"]`: one party or several.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawParties {
    One(String),
    Many(Vec<String>),
}

impl RawParties {
    pub fn names(&self) -> Vec<&str> {
        match self {
            RawParties::One(s) => vec![s.as_str()],
            RawParties::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// An integer as written, or a string holding an integer expression.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawValue {
    Int(i64),
    Expr(String),
}
