//! Parties: the `[abi] parties` list, and how a set of them is written back as TOML (the
//! `writer` and `reader` values that name them are resolved by
//! `lower::after_layout`, which the protocols share).

use crate::ir::access::Parties;
use crate::ir::names::is_snake_case;
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawSchema;

impl AfterLayout<'_> {
    /// `[abi] parties`: snake_case names, each once.
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
}

/// A set of parties as a TOML value: `"client"`, or `["host", "client"]`.
pub(super) fn toml_parties(set: &Parties, names: &[String]) -> String {
    let quoted: Vec<String> = set.0.iter().map(|&i| format!("\"{}\"", names[i])).collect();
    match &quoted[..] {
        [one] => one.clone(),
        _ => format!("[{}]", quoted.join(", ")),
    }
}
