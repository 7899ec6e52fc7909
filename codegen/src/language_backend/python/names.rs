//! The Python names of the schema's items: CamelCase classes kept clear of keywords and
//! builtins, the keyword aliases of fields, the names by index that every part of the
//! module reads, and the namer that keeps the live and attach sections' own names unique.

use std::collections::HashSet;

use crate::ir::Abi;
use crate::ir::names::{camel, upper};

/// Python's hard keywords (`keyword.kwlist`); soft keywords such as `match` and `type` are
/// valid identifiers. A test checks this list against the installed python3.
pub const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The names in Python's `builtins` that start with an uppercase letter, up to Python 3.13:
/// the only builtins a CamelCase type name can shadow. A test checks that the installed
/// python3 has no other.
pub const PYTHON_CAMEL_BUILTINS: [&str; 75] = [
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "PythonFinalizationError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
];

/// The Python class name of an enum, flag set or struct: CamelCase, with a trailing `_`
/// when that is a keyword or a builtin (`none` → `None_`).
pub fn python_type_name(name: &str) -> String {
    let c = camel(name);
    if PYTHON_KEYWORDS.contains(&c.as_str()) || PYTHON_CAMEL_BUILTINS.contains(&c.as_str()) {
        c + "_"
    } else {
        c
    }
}

/// The property alias of a field named after a Python keyword (`class` → `class_`).
pub fn python_field_alias(name: &str) -> Option<String> {
    PYTHON_KEYWORDS.contains(&name).then(|| format!("{name}_"))
}

/// The Python names of the schema's types and constants, by index, made once per module:
/// every field that refers to a type or a constant reads its name from here.
pub(in crate::language_backend::python) struct Names {
    pub(in crate::language_backend::python) enums: Vec<String>,
    pub(in crate::language_backend::python) structs: Vec<String>,
    pub(in crate::language_backend::python) consts: Vec<String>,
}

impl Names {
    pub(in crate::language_backend::python) fn new(abi: &Abi) -> Names {
        Names {
            enums: abi
                .enums
                .iter()
                .map(|e| python_type_name(&e.name))
                .collect(),
            structs: abi
                .structs
                .iter()
                .map(|s| python_type_name(&s.name))
                .collect(),
            consts: abi.consts.iter().map(|c| upper(&c.name)).collect(),
        }
    }
}

/// Unique names in one namespace: a wanted name that is taken, or a keyword, gets `_` until
/// it is free.
pub(super) struct Namer(pub(super) HashSet<String>);

impl Namer {
    /// The first of `candidates` that is free (each clearer than a `_` suffix: a protocol's
    /// entry class `MidiEntry`, then `MidiBroadcastEntry` when a struct `midi_entry` holds
    /// that name); the first with `_` only when every one is taken.
    pub(super) fn first_free(&mut self, candidates: &[String]) -> String {
        for c in candidates {
            if !PYTHON_KEYWORDS.contains(&c.as_str()) && self.0.insert(c.clone()) {
                return c.clone();
            }
        }
        self.name(&candidates[0])
    }

    pub(super) fn name(&mut self, wanted: &str) -> String {
        let mut name = wanted.to_string();
        while PYTHON_KEYWORDS.contains(&name.as_str()) || !self.0.insert(name.clone()) {
            name.push('_');
        }
        name
    }
}

/// The module's names beside the schema's items: the ABI version's three, and the text
/// helpers (defined when a struct has a `char` field). The sections that add names of their
/// own keep clear of them.
pub(super) const MODULE_NAMES: [&str; 5] = [
    "ABI_VERSION_MAJOR",
    "ABI_VERSION_MINOR",
    "ABI_VERSION",
    "text",
    "set_text",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_that_are_keywords_or_builtins_get_an_underscore() {
        assert_eq!(python_type_name("client_entry"), "ClientEntry");
        assert_eq!(python_type_name("match"), "Match");
        assert_eq!(python_type_name("none"), "None_");
        assert_eq!(python_type_name("true"), "True_");
        assert_eq!(python_type_name("false"), "False_");
        assert_eq!(python_type_name("exception"), "Exception_");
        assert_eq!(python_type_name("import_error"), "ImportError_");
    }

    #[test]
    fn keyword_fields_get_an_alias() {
        assert_eq!(python_field_alias("class").as_deref(), Some("class_"));
        assert_eq!(python_field_alias("lambda").as_deref(), Some("lambda_"));
        for ok in ["type", "match", "self", "none", "id", "name"] {
            assert_eq!(python_field_alias(ok), None, "{ok}");
        }
    }
}
