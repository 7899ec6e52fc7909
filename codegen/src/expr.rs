//! Integer expressions in constant and enum values: literals (decimal, `0x`, `0o`, `0b`,
//! `_` separators), names of earlier constants, `+ - * / % << >> & |`, unary `-` and
//! parentheses, evaluated with overflow checks.

/// Evaluates `text`, looking names up with `lookup`. Errors are lowercase sentences.
pub fn eval(text: &str, lookup: &dyn Fn(&str) -> Option<i128>) -> Result<i128, String> {
    let tokens = tokenize(text)?;
    if tokens.is_empty() {
        return Err("empty expression".into());
    }
    let mut p = Parser {
        tokens,
        pos: 0,
        lookup,
        depth: 0,
    };
    let v = p.expr(0)?;
    match p.tokens.get(p.pos) {
        None => Ok(v),
        Some(t) => Err(format!("unexpected `{}` in expression", t.text())),
    }
}

/// Parses an integer literal as TOML or Rust writes it.
pub fn parse_int_literal(s: &str) -> Option<i128> {
    let s = s.replace('_', "");
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(o) = s.strip_prefix("0o") {
        (o.to_string(), 8)
    } else if let Some(b) = s.strip_prefix("0b") {
        (b.to_string(), 2)
    } else {
        (s.clone(), 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i128::from_str_radix(&digits, radix)
        .ok()
        .filter(|v| *v <= u64::MAX as i128)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i128),
    Name(String),
    Op(&'static str),
}

impl Tok {
    fn text(&self) -> String {
        match self {
            Tok::Num(n) => n.to_string(),
            Tok::Name(s) => s.clone(),
            Tok::Op(o) => (*o).to_string(),
        }
    }
}

const OPS: [&str; 12] = ["<<", ">>", "+", "-", "*", "/", "%", "&", "|", "^", "(", ")"];

fn tokenize(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let word = &rest[..end];
            if c.is_ascii_digit() {
                let n =
                    parse_int_literal(word).ok_or_else(|| format!("`{word}` is not an integer"))?;
                out.push(Tok::Num(n));
            } else {
                out.push(Tok::Name(word.to_string()));
            }
            rest = &rest[end..];
        } else if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
            out.push(Tok::Op(op));
            rest = &rest[op.len()..];
        } else {
            return Err(format!("unexpected `{c}` in expression"));
        }
    }
    Ok(out)
}

struct Parser<'a> {
    tokens: Vec<Tok>,
    pos: usize,
    lookup: &'a dyn Fn(&str) -> Option<i128>,
    depth: usize,
}

fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "|" => 1,
        "^" => 2,
        "&" => 3,
        "<<" | ">>" => 4,
        "+" | "-" => 5,
        "*" | "/" | "%" => 6,
        _ => return None,
    })
}

impl Parser<'_> {
    fn expr(&mut self, min: u8) -> Result<i128, String> {
        self.depth += 1;
        if self.depth > 64 {
            return Err("expression nested too deeply".into());
        }
        let mut lhs = self.atom()?;
        while let Some(Tok::Op(op)) = self.tokens.get(self.pos).cloned() {
            let Some(prec) = precedence(op) else { break };
            if prec <= min {
                break;
            }
            self.pos += 1;
            let rhs = self.expr(prec)?;
            lhs = apply(op, lhs, rhs)?;
        }
        self.depth -= 1;
        Ok(lhs)
    }

    fn atom(&mut self) -> Result<i128, String> {
        let tok = self
            .tokens
            .get(self.pos)
            .cloned()
            .ok_or("expression ends too early")?;
        self.pos += 1;
        match tok {
            Tok::Num(n) => Ok(n),
            Tok::Name(name) => (self.lookup)(&name).ok_or_else(|| {
                format!("unknown constant `{name}` (only constants declared earlier can be used)")
            }),
            Tok::Op("-") => self.atom()?.checked_neg().ok_or_else(|| "overflow".into()),
            Tok::Op("(") => {
                let v = self.expr(0)?;
                match self.tokens.get(self.pos) {
                    Some(Tok::Op(")")) => {
                        self.pos += 1;
                        Ok(v)
                    }
                    _ => Err("missing `)`".into()),
                }
            }
            other => Err(format!("unexpected `{}` in expression", other.text())),
        }
    }
}

fn apply(op: &str, a: i128, b: i128) -> Result<i128, String> {
    let overflow = || format!("overflow in `{a} {op} {b}`");
    let v = match op {
        "+" => a.checked_add(b),
        "-" => a.checked_sub(b),
        "*" => a.checked_mul(b),
        "/" | "%" if b == 0 => return Err("division by zero".into()),
        "/" => a.checked_div(b),
        "%" => a.checked_rem(b),
        "<<" | ">>" if !(0..64).contains(&b) => {
            return Err(format!("shift by {b} is out of range 0..64"));
        }
        "<<" => a.checked_shl(b as u32),
        ">>" => a.checked_shr(b as u32),
        "&" => Some(a & b),
        "|" => Some(a | b),
        "^" => Some(a ^ b),
        _ => None,
    };
    let v = v.ok_or_else(overflow)?;
    if v > u64::MAX as i128 || v < i64::MIN as i128 {
        return Err(overflow());
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(s: &str) -> Result<i128, String> {
        eval(s, &|n| (n == "dim").then_some(64))
    }

    #[test]
    fn evaluates_with_precedence_and_names() {
        assert_eq!(ev("dim * dim"), Ok(4096));
        assert_eq!(ev("1 + 2 * 3"), Ok(7));
        assert_eq!(ev("(1 + 2) * 3"), Ok(9));
        assert_eq!(ev("1 << 4 | 1"), Ok(17));
        assert_eq!(ev("0x10 - 0b1"), Ok(15));
        assert_eq!(ev("-5 + 1_000"), Ok(995));
        assert_eq!(ev("0xFFFF_FFFF_FFFF_FFFF"), Ok(u64::MAX as i128));
    }

    #[test]
    fn rejects_bad_expressions() {
        assert!(
            ev("nope * 2")
                .unwrap_err()
                .contains("unknown constant `nope`")
        );
        assert!(ev("1 / 0").unwrap_err().contains("division by zero"));
        assert!(
            ev("0xFFFFFFFFFFFFFFFF * 2")
                .unwrap_err()
                .contains("overflow")
        );
        assert!(ev("(1 + 2").is_err());
        assert!(ev("1 +").is_err());
        assert!(ev("").is_err());
        assert!(ev("1 2").is_err());
        assert!(ev("3 $ 4").is_err());
    }
}
