//! The pieces every table of the JSON Schema shares: the patterns of names, versions and
//! field types, and the schemas of a name, a doc, a since, a value, parties and a path.

use serde_json::{Value, json};

/// A snake_case name, as the generator checks it: lowercase ASCII letters and digits in
/// words joined by single underscores, starting with a letter; padding fields start with
/// one `_`.
pub(super) const NAME: &str = "^_?[a-z][a-z0-9]*(_[a-z0-9]+)*$";

/// `MAJOR.MINOR`, without leading zeros.
pub(super) const VERSION: &str = "^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$";

/// The integer types a constant, an enum or a flag set may take.
pub(super) const INTEGER_TYPES: [&str; 8] = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];

/// An integer literal of a field type's array length, in any radix TOML allows.
pub(super) const LITERAL: &str = "[0-9][0-9_]*|0[xX][0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+";

/// A snake_case identifier, without the padding field's leading `_`.
pub(super) const IDENT: &str = "[a-z][a-z0-9]*(_[a-z0-9]+)*";

/// An item's `name`: `what` says which item.
pub(super) fn name_json(what: &str) -> Value {
    json!({
        "type": "string",
        "pattern": NAME,
        "description": format!("The {what}'s name, snake_case: lowercase ASCII letters and digits, words joined by single underscores, starting with a letter."),
    })
}

/// An item's `doc`: `what` says which item.
pub(super) fn doc_json(what: &str) -> Value {
    json!({
        "type": "string",
        "description": format!("Documentation of the {what}, carried into every target."),
    })
}

/// An item's `since`: `what` says which item.
pub(super) fn since_json(what: &str) -> Value {
    json!({
        "type": "string",
        "pattern": VERSION,
        "description": format!("The ABI version that added the {what}, MAJOR.MINOR without leading zeros; not later than [abi] version."),
    })
}

/// An integer or an integer expression.
pub(super) fn value_json() -> Value {
    json!({
        "description": "An integer, in any radix TOML allows (64, 0x10000, 0o17, 0b101, with _ separators), or a string holding an integer expression: literals, the names of constants declared earlier, * / % + - << >> & ^ |, unary - and parentheses.",
        "anyOf": [
            { "type": "integer" },
            { "type": "string", "minLength": 1 },
        ],
    })
}

/// A `writer` or `reader`: one party or several; `what` says what they do.
pub(super) fn parties_json(what: &str) -> Value {
    json!({
        "description": format!("Who {what}: a party of [abi] parties, or an array of them."),
        "anyOf": [
            { "type": "string", "pattern": NAME },
            { "type": "array", "minItems": 1, "items": { "type": "string", "pattern": NAME } },
        ],
    })
}

/// A `struct.field` path.
pub(super) fn path_json() -> Value {
    json!({
        "type": "string",
        "pattern": "^[a-z][a-z0-9]*(_[a-z0-9]+)*\\.[a-z][a-z0-9]*(_[a-z0-9]+)*$",
        "description": "struct.field, such as bridge_header.snapshot_seq.",
    })
}
