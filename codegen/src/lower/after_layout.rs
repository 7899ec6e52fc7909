//! The state the passes after the layout share (access, protocols, directories): the
//! schema's text, its items and their layout, the declared parties and the errors found so
//! far, with the helpers every one of them uses: a string value's span, a `struct.field`
//! path, a constant or a `writer`/`reader` list of parties resolved with a spanned error,
//! and an item's name checked.

use toml::Spanned;

use crate::diagnostics::closest;
use crate::diagnostics::{Errors, Span};
use crate::ir::Abi;
use crate::ir::access::{FieldRef, Parties};
use crate::ir::names::is_snake_case;
use crate::layout::Layout;
use crate::parse::RawParties;

/// A pass after the layout: what it reads, and the errors it has found.
pub(crate) struct AfterLayout<'a> {
    pub(crate) src: &'a str,
    pub(crate) abi: &'a Abi,
    pub(crate) layout: &'a Layout,
    pub(crate) errors: Errors,
    /// `[abi] parties`: filled by the access pass, handed to the passes after it.
    pub(crate) parties: Vec<String>,
}

impl<'a> AfterLayout<'a> {
    /// A pass with no errors yet, whose schema declares `parties`.
    pub(crate) fn new(
        src: &'a str,
        abi: &'a Abi,
        layout: &'a Layout,
        parties: Vec<String>,
    ) -> Self {
        AfterLayout {
            src,
            abi,
            layout,
            errors: Errors::new(),
            parties,
        }
    }
}

impl AfterLayout<'_> {
    /// The span of a string value's text, inside its quotes.
    pub(crate) fn inner(&self, s: &Spanned<String>) -> Span {
        crate::diagnostics::string_span(self.src, s)
    }

    /// The span of the part of a `struct.field` path after its dot (`part` 1) or before
    /// it (`part` 0).
    fn path_part(&self, path: &Spanned<String>, part: usize) -> Span {
        let span = self.inner(path);
        let text = path.get_ref();
        match (text.split_once('.'), self.src.get(span.clone())) {
            (Some((s, f)), Some(t)) if t == text => {
                if part == 0 {
                    span.start..span.start + s.len()
                } else {
                    span.end - f.len()..span.end
                }
            }
            _ => span,
        }
    }

    /// `bridge_header.snapshot_seq`: a struct and one of its fields.
    pub(crate) fn resolve_field(&mut self, path: &Spanned<String>, what: &str) -> Option<FieldRef> {
        let span = self.inner(path);
        let Some((sname, fname)) = path.get_ref().split_once('.') else {
            self.errors.error_help(
                &span,
                format!("{what}: `{}` is not a `struct.field` path", path.get_ref()),
                "name the struct, a dot, then its field, such as `ring_slot_header.seq`",
            );
            return None;
        };
        let Some(si) = self.abi.find_struct(sname) else {
            let help = closest(sname, self.abi.structs.iter().map(|s| s.name.as_str()))
                .map_or("name a struct of this schema".into(), |c| {
                    format!("did you mean `{c}`?")
                });
            self.errors.error_help(
                &self.path_part(path, 0),
                format!("{what}: unknown struct `{sname}` in `{}`", path.get_ref()),
                help,
            );
            return None;
        };
        let s = &self.abi.structs[si];
        let Some(fi) = s.fields.iter().position(|f| f.name == fname) else {
            let help = closest(fname, s.fields.iter().map(|f| f.name.as_str()))
                .map_or(format!("name a field of `{sname}`"), |c| {
                    format!("did you mean `{c}`?")
                });
            self.errors.error_help(
                &self.path_part(path, 1),
                format!("{what}: struct `{sname}` has no field `{fname}`"),
                help,
            );
            return None;
        };
        Some(FieldRef {
            struct_index: si,
            field: fi,
        })
    }

    /// An item's name (a seqlock's, a ring's, a protocol's, a directory's): snake_case, and
    /// not the name of an earlier one (whose span is `taken`).
    pub(crate) fn check_item_name(
        &mut self,
        name: &Spanned<String>,
        kind: &str,
        taken: Option<&Span>,
    ) {
        if !is_snake_case(name.get_ref()) {
            self.errors.error_help(
                &self.inner(name),
                format!("{kind} `{}` is not snake_case", name.get_ref()),
                "use lowercase words joined by single underscores",
            );
        } else if let Some(first) = taken {
            let line = crate::diagnostics::line_col(self.src, first.start).0;
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "duplicate {kind} `{}`: it is already declared on line {line}",
                    name.get_ref()
                ),
                "rename or remove one of them",
            );
        }
    }

    /// A constant named by a declaration (a ring's capacity, a protocol's): its index and
    /// value, which must be positive.
    pub(crate) fn constant(&mut self, c: &Spanned<String>, what: &str) -> Option<(usize, u64)> {
        match self.abi.find_const(c.get_ref()) {
            Some(i) if self.abi.consts[i].value > 0 => Some((i, self.abi.consts[i].value as u64)),
            Some(_) => {
                self.errors.error(
                    &self.inner(c),
                    format!("{what}: constant `{}` must be positive", c.get_ref()),
                );
                None
            }
            None => {
                let help = closest(c.get_ref(), self.abi.consts.iter().map(|c| c.name.as_str()))
                    .map_or("name a constant".into(), |n| format!("did you mean `{n}`?"));
                self.errors.error_help(
                    &self.inner(c),
                    format!("{what}: unknown constant `{}`", c.get_ref()),
                    help,
                );
                None
            }
        }
    }

    /// `writer = "host"` or `reader = ["host", "client"]`: names from `[abi] parties`.
    pub(crate) fn lower_parties_value(
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
}
