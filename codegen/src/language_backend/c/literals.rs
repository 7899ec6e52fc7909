//! C integer literals: a value in the radix the schema wrote it in, with the suffix that
//! gives it the width and signedness of its type.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::ir::Prim;

/// The suffix that gives an integer literal a type at least as wide as `p` with its
/// signedness, so that comparing it with a field of type `p` does not warn: `U` up to 32
/// bits, `ULL` for `u64`, none for `int` and `LL` for `i64`.
pub(super) fn int_suffix(p: Prim) -> &'static str {
    match (p.is_signed(), p.size()) {
        (false, 8) => "ULL",
        (false, _) => "U",
        (true, 8) => "LL",
        (true, _) => "",
    }
}

/// A C integer literal with `value`, in the radix the schema wrote it in (`written`):
/// decimal, hex and octal stay (`0o17` becomes `017`); binary, which C11 lacks, becomes
/// hex; `_` separators go. When `written` does not spell `value` (an expression), the
/// value is written in decimal. A negative value is parenthesised, and the most negative
/// value of a type is written as `(-MAX - 1)`, since `MAX + 1` is not a literal of it.
pub fn render_int_literal(value: i128, written: &str, suffix: &str) -> String {
    let mut out = String::with_capacity(24);
    push_int_literal(&mut out, value, written, suffix);
    out
}

/// [`render_int_literal`], appended to `out`.
pub(super) fn push_int_literal(out: &mut String, value: i128, written: &str, suffix: &str) {
    let magnitude = value.unsigned_abs();
    let max_positive: u128 = match suffix {
        "LL" => i64::MAX as u128,
        _ => i32::MAX as u128,
    };
    // Writing to a String cannot fail.
    if value < 0 && magnitude > max_positive {
        let _ = write!(out, "(-{max_positive}{suffix} - 1)");
        return;
    }
    if value < 0 {
        out.push_str("(-");
    }
    if !push_in_radix(out, value, written) {
        let _ = write!(out, "{magnitude}");
    }
    out.push_str(suffix);
    if value < 0 {
        out.push(')');
    }
}

/// Appends the digits of `|value|` as `written` spells them, with a C prefix, and returns
/// true; appends nothing and returns false when `written` is not a plain literal of `value`.
fn push_in_radix(out: &mut String, value: i128, written: &str) -> bool {
    let written = written.trim();
    let text: Cow<str> = if written.contains('_') {
        Cow::Owned(written.replace('_', ""))
    } else {
        Cow::Borrowed(written)
    };
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(&text)),
    };
    let (prefix, digits, radix) = if let Some(d) = text.strip_prefix("0x") {
        ("0x", d, 16)
    } else if let Some(d) = text.strip_prefix("0X") {
        ("0X", d, 16)
    } else if let Some(d) = text.strip_prefix("0o") {
        ("0", d, 8)
    } else if let Some(d) = text.strip_prefix("0b") {
        ("0b", d, 2)
    } else {
        ("", text, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    let Ok(parsed) = u128::from_str_radix(digits, radix) else {
        return false;
    };
    if parsed != value.unsigned_abs() || negative != (value < 0) {
        return false;
    }
    // Writing to a String cannot fail.
    match radix {
        2 => {
            let _ = write!(out, "0x{parsed:x}");
        }
        10 => {
            let _ = write!(out, "{parsed}");
        }
        8 if parsed == 0 => out.push('0'),
        _ => {
            out.push_str(prefix);
            out.push_str(digits);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_literals() {
        assert_eq!(render_int_literal(0x42, "0x42", "U"), "0x42U");
        assert_eq!(render_int_literal(0x10000, "0x1_0000", "U"), "0x10000U");
        assert_eq!(render_int_literal(15, "0o17", "U"), "017U");
        assert_eq!(render_int_literal(0, "0o0", ""), "0");
        assert_eq!(render_int_literal(5, "0b101", "U"), "0x5U");
        assert_eq!(render_int_literal(10, "010", ""), "10");
        assert_eq!(render_int_literal(7, "+7", ""), "7");
        assert_eq!(render_int_literal(-5, "-5", ""), "(-5)");
        assert_eq!(render_int_literal(4096, "4096", "U"), "4096U");
        assert_eq!(render_int_literal(4096, "64 * 64", "U"), "4096U");
        assert_eq!(render_int_literal(3, "4", "U"), "3U");
        assert_eq!(
            render_int_literal(i128::from(i32::MIN), "-2147483648", ""),
            "(-2147483647 - 1)"
        );
        assert_eq!(
            render_int_literal(i128::from(i64::MIN), "-9223372036854775808", "LL"),
            "(-9223372036854775807LL - 1)"
        );
        assert_eq!(
            render_int_literal(i128::from(u64::MAX), "0xFFFF_FFFF_FFFF_FFFF", "ULL"),
            "0xFFFFFFFFFFFFFFFFULL"
        );
    }
}
