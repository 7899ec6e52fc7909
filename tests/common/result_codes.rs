//! The result codes a generated C header's helpers return, found by reading the header's text
//! (issue 40, item 6): every `<PREFIX>_X` a `return` or an assignment gives, or a failure
//! helper (`*_fail_(err, <PREFIX>_X, ...)`) returns; and a C program that prints each code's
//! number and what every `*_name(int)` function of the header calls it.

use std::collections::{BTreeMap, BTreeSet};

/// The identifiers `<PREFIX>_...` in `text`, in order.
fn macros_in<'a>(text: &'a str, pu: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    while let Some(at) = rest.find(pu) {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at..];
        let end = tail.find(|c: char| !word(c)).unwrap_or(tail.len());
        if before.is_none_or(|c| !word(c)) && tail[pu.len()..].starts_with('_') {
            out.push(&tail[..end]);
        }
        rest = &tail[end.max(1)..];
    }
    out
}

/// The integer macros of the header: name -> the literal (`12`, `(-3)`); unsigned
/// (`U`-suffixed) counts are not codes and are left out.
pub fn int_macros(header: &str, pu: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in header.lines() {
        let Some(rest) = line.strip_prefix("#define ") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(' ') else {
            continue;
        };
        let digits = value.trim_start_matches("(-").trim_end_matches(')');
        if name.starts_with(pu) && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
        {
            out.insert(name.to_string(), value.to_string());
        }
    }
    out
}

/// Every code the header's helpers return: the `<PREFIX>_` macros in `return` statements,
/// on the right of `=` and as a `*_fail_(` helper's code, that are integer macros
/// (`int_macros`).
pub fn returned_codes(header: &str, pu: &str) -> BTreeSet<String> {
    let ints = int_macros(header, pu);
    let mut found = BTreeSet::new();
    for stmt in header.split(';') {
        let stmt = stmt.trim();
        let tail = if let Some(at) = stmt.rfind("return ") {
            &stmt[at..]
        } else if let Some(at) = stmt.find(" = ") {
            &stmt[at..]
        } else {
            ""
        };
        let mut names = macros_in(tail, pu);
        if let Some(at) = stmt.find("_fail_(") {
            names.extend(macros_in(&stmt[at..], pu).into_iter().take(1));
        }
        for name in names {
            // Function-like uses (`IBF_ALIGNOF_(`) and calls are not codes.
            let after = &tail[tail.find(name).map_or(0, |i| i + name.len())..];
            if name.ends_with('_') || after.starts_with('(') {
                continue;
            }
            // Unsigned constants (counts, sizes, enum values) are not codes.
            if ints.contains_key(name) {
                found.insert(name.to_string());
            }
        }
    }
    found
}

/// The header's name functions: `static inline const char *<prefix>_..._name(int ...)`.
pub fn name_functions(header: &str, prefix: &str) -> Vec<String> {
    let start = format!("static inline const char *{prefix}_");
    header
        .lines()
        .filter(|l| l.ends_with('{'))
        .filter_map(|l| l.strip_prefix(&start))
        .filter_map(|l| l.split_once("(int "))
        .filter(|(name, _)| name.ends_with("_name"))
        .map(|(name, _)| format!("{prefix}_{name}"))
        .collect()
}

/// A C program that prints, per code, `MACRO value name_of_each_function...`.
pub fn program(header_file: &str, codes: &BTreeSet<String>, functions: &[String]) -> String {
    let mut p = format!("#include <stdio.h>\n#include \"{header_file}\"\nint main(void) {{\n");
    for code in codes {
        p.push_str(&format!("    printf(\"{code} %d\", (int){code});\n"));
        for f in functions {
            p.push_str(&format!("    printf(\" %s\", {f}({code}));\n"));
        }
        p.push_str("    printf(\"\\n\");\n");
    }
    p.push_str("    return 0;\n}\n");
    p
}

/// Checks the program's output: each code has a name other than "unknown" (every function
/// that names it gives the same one, named after its macro), and two codes with one number
/// have one name. Returns the codes by number.
pub fn check(out: &str, pu: &str) -> BTreeMap<i64, BTreeSet<String>> {
    let mut by_value: BTreeMap<i64, BTreeSet<String>> = BTreeMap::new();
    let mut names_of: BTreeMap<i64, BTreeSet<String>> = BTreeMap::new();
    for line in out.lines() {
        let mut words = line.split(' ');
        let code = words.next().unwrap();
        let value: i64 = words.next().unwrap().parse().unwrap();
        let names: BTreeSet<&str> = words.filter(|n| *n != "unknown").collect();
        assert!(!names.is_empty(), "{code} ({value}) has no name: `{line}`");
        assert_eq!(names.len(), 1, "{code} ({value}) has two names: `{line}`");
        let name = names.into_iter().next().unwrap();
        let suffix = code[pu.len() + 1..].to_ascii_lowercase();
        assert!(
            suffix.ends_with(name) || name.ends_with(&suffix),
            "{code} is named {name}"
        );
        by_value.entry(value).or_default().insert(code.to_string());
        names_of.entry(value).or_default().insert(name.to_string());
    }
    for (value, names) in &names_of {
        assert_eq!(
            names.len(),
            1,
            "{value} means {names:?}: {:?}",
            by_value[value]
        );
    }
    by_value
}
