//! Name rules and case conversions shared by every backend.

/// Whether `name` is snake_case: lowercase ASCII letters and digits in words joined by
/// single underscores, starting with a letter. Padding names may start with one `_`.
pub fn is_snake_case(name: &str) -> bool {
    let body = name.strip_prefix('_').unwrap_or(name);
    let mut words = body.split('_');
    let first_ok = body.bytes().next().is_some_and(|b| b.is_ascii_lowercase());
    first_ok
        && words.all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// `client_entry` → `ClientEntry`.
pub fn camel(name: &str) -> String {
    name.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// `in_match` → `IN_MATCH`.
pub fn upper(name: &str) -> String {
    name.to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_rules() {
        for ok in ["a", "client_entry", "pad33", "_pad33", "_reserved", "x2_y"] {
            assert!(is_snake_case(ok), "{ok}");
        }
        for bad in [
            "", "_", "Client", "foo__bar", "foo_", "2x", "__x", "a-b", "fooBar",
        ] {
            assert!(!is_snake_case(bad), "{bad}");
        }
    }

    #[test]
    fn conversions() {
        assert_eq!(camel("client_entry"), "ClientEntry");
        assert_eq!(camel("vec2"), "Vec2");
        assert_eq!(upper("in_match"), "IN_MATCH");
    }
}
