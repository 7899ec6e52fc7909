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

/// The names the Rust live module (`pub mod live`) imports, with what each is: a view,
/// seqlock, ring or layout handle whose CamelCase name is one of them would be defined twice
/// there, so lowering rejects it.
pub const RUST_LIVE_IMPORTS: [(&str, &str); 6] = [
    ("Region", "::abi_runtime::Region"),
    ("RegionError", "::abi_runtime::RegionError"),
    ("SeqLock", "::abi_runtime::SeqLock"),
    ("SeqLockError", "::abi_runtime::SeqLockError"),
    ("FromZeros", "::zerocopy::FromZeros"),
    ("IntoBytes", "::zerocopy::IntoBytes"),
];

/// What the Rust live module imports as `camel`, if it imports that name.
pub fn rust_live_import(camel: &str) -> Option<&'static str> {
    (RUST_LIVE_IMPORTS.iter())
        .find(|(name, _)| *name == camel)
        .map(|(_, path)| *path)
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

/// Words that C or C++ would not take as the name of a struct member or a type: C11, C23,
/// C++17 and C++20 keywords, the C++ alternative tokens (`and`, `or`, ...), the lowercase
/// object-like macros of standard headers a program may include before a generated header
/// (`bool` from `<stdbool.h>`, `errno`, `complex`, ...), GCC's `linux`, `unix` and `i386` of
/// the GNU modes, and the type names of `<stdint.h>` and `<stddef.h>`. Sorted.
pub const C_RESERVED_WORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "char8_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "complex",
    "concept",
    "const",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "errno",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "i386",
    "if",
    "imaginary",
    "inline",
    "int",
    "int16_t",
    "int32_t",
    "int64_t",
    "int8_t",
    "int_fast16_t",
    "int_fast32_t",
    "int_fast64_t",
    "int_fast8_t",
    "int_least16_t",
    "int_least32_t",
    "int_least64_t",
    "int_least8_t",
    "intmax_t",
    "intptr_t",
    "linux",
    "long",
    "max_align_t",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "noreturn",
    "not",
    "not_eq",
    "nullptr",
    "nullptr_t",
    "offsetof",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "ptrdiff_t",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "restrict",
    "return",
    "short",
    "signed",
    "size_t",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "typeof_unqual",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "uint8_t",
    "uint_fast16_t",
    "uint_fast32_t",
    "uint_fast64_t",
    "uint_fast8_t",
    "uint_least16_t",
    "uint_least32_t",
    "uint_least64_t",
    "uint_least8_t",
    "uintmax_t",
    "uintptr_t",
    "union",
    "unix",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];

/// Whether `name` is one of [`C_RESERVED_WORDS`].
pub fn is_c_reserved_word(name: &str) -> bool {
    C_RESERVED_WORDS.binary_search(&name).is_ok()
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

    #[test]
    fn c_reserved_words_are_sorted_and_unique() {
        assert!(C_RESERVED_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_c_reserved_word("and_eq") && !is_c_reserved_word("type"));
    }
}
