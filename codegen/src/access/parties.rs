//! Parties: the `[abi] parties` list, and the `writer` and `reader` values that name them.

use toml::Spanned;

use super::LowerAccess;
use crate::diagnostics::Span;
use crate::diagnostics::closest;
use crate::ir::access::Parties;
use crate::ir::names::is_snake_case;
use crate::parse::{RawParties, RawSchema};

impl LowerAccess<'_> {
    /// The span of `name` inside a `writer` or `reader` value, such as `client` in
    /// `["host", "client"]`; the whole value when it cannot be found.
    fn party_span(&self, value: &Span, name: &str) -> Span {
        let Some(text) = self.src.get(value.clone()) else {
            return value.clone();
        };
        for quote in ['"', '\''] {
            let quoted = format!("{quote}{name}{quote}");
            if let Some(at) = text.find(&quoted) {
                let start = value.start + at + 1;
                return start..start + name.len();
            }
        }
        value.clone()
    }

    pub(super) fn lower_parties(&mut self, raw: &RawSchema) {
        let Some(list) = &raw.abi.get_ref().parties else {
            return;
        };
        for p in list.get_ref() {
            let name = p.get_ref();
            if !is_snake_case(name) {
                self.errors.error(
                    &self.inner(p),
                    format!("[abi] party `{name}` is not snake_case"),
                );
            } else if self.parties.contains(name) {
                self.errors.error_help(
                    &self.inner(p),
                    format!("[abi] party `{name}` is listed twice"),
                    format!("list each party once: remove this `{name}`"),
                );
            } else {
                self.parties.push(name.clone());
            }
        }
    }

    /// `writer = "host"` or `reader = ["host", "client"]`: names from `[abi] parties`.
    pub(super) fn lower_parties_value(
        &mut self,
        value: &Spanned<RawParties>,
        what: &str,
    ) -> Parties {
        let mut set = Vec::new();
        let names = value.get_ref().names();
        if names.is_empty() {
            self.errors
                .error(&value.span(), format!("{what}: name at least one party"));
        }
        for name in names {
            let span = self.party_span(&value.span(), name);
            match self.parties.iter().position(|p| p == name) {
                Some(i) if !set.contains(&i) => set.push(i),
                Some(_) => {}
                None if self.parties.is_empty() => {
                    self.errors.error_help(
                        &span,
                        format!("{what}: party `{name}` is not declared, and [abi] lists no `parties`"),
                        "declare who shares the memory in [abi], such as `parties = [\"host\", \"client\"]`",
                    );
                }
                None => {
                    let help = match closest(name, self.parties.iter().map(String::as_str)) {
                        Some(p) => format!("did you mean `{p}`?"),
                        None => format!("name one of [abi] `parties`: {}", self.parties.join(", ")),
                    };
                    self.errors
                        .error_help(&span, format!("{what}: unknown party `{name}`"), help);
                }
            }
        }
        set.sort_unstable();
        Parties(set)
    }
}

/// A set of parties as a TOML value: `"client"`, or `["host", "client"]`.
pub(super) fn toml_parties(set: &Parties, names: &[String]) -> String {
    let quoted: Vec<String> = set.0.iter().map(|&i| format!("\"{}\"", names[i])).collect();
    match &quoted[..] {
        [one] => one.clone(),
        _ => format!("[{}]", quoted.join(", ")),
    }
}
