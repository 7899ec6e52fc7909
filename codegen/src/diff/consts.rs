//! Constants compared: added, removed, renamed, and changes of value (breaking when it
//! sizes arrays, names a magic number or is any other number readers compiled in), type
//! and spelling.

use crate::ir::geometry::GeometryRule;
use crate::ir::{ConstType, Constant};
use crate::schema::Schema;

use super::change::{ChangeKind, ItemKind, Severity, Shape};
use super::compute::{Cx, change, named, quote_list, sized_by};
use super::facts::field_path;

impl Cx<'_> {
    fn const_shape(c: &Constant) -> Shape {
        let value = match &c.expr {
            Some(e) => format!("{e} = {}", c.literal),
            None => c.literal.clone(),
        };
        Shape {
            value: Some(value),
            ..named(&c.name)
        }
    }

    pub(super) fn added_const(&mut self, n: usize) {
        let c = &self.new.abi.consts[n];
        let mut ch = change(
            Severity::Compatible,
            ChangeKind::ConstAdded,
            ItemKind::Const,
            &c.name,
            "constant added",
            "a new name; nothing old changes",
        )
        .sides(None, Some(Self::const_shape(c)))
        .spans(None, Some(&c.span));
        ch.embedded_in = sized_by(self.new, n);
        ch.since_check = Some((c.since, false));
        self.push(ch);
    }

    pub(super) fn removed_const(&mut self, o: usize) {
        let c = &self.old.abi.consts[o];
        let ch = change(
            Severity::Breaking,
            ChangeKind::ConstRemoved,
            ItemKind::Const,
            &c.name,
            "constant removed",
            format!("code built against {} uses it", self.old_v()),
        )
        .sides(Some(Self::const_shape(c)), None)
        .spans(Some(&c.span), None);
        self.push(ch);
    }

    /// Constant `o` of the old schema against its match `n`: renamed, its value changed
    /// ([`Self::const_value_changed`]) or respelled, its type changed, then its doc and since.
    pub(super) fn compare_const(&mut self, o: usize, n: usize) {
        let (a, b) = (&self.old.abi.consts[o], &self.new.abi.consts[n]);
        let path = b.name.clone();
        let spans = (Some(&a.span), Some(&b.span));
        if a.name != b.name {
            let ch = change(
                Severity::SourceBreaking,
                ChangeKind::ConstRenamed,
                ItemKind::Const,
                &path,
                format!("constant renamed from `{}`", a.name),
                format!(
                    "the same value and type; code that names `{}` must say `{}`",
                    a.name, b.name
                ),
            )
            .sides(Some(Self::const_shape(a)), Some(Self::const_shape(b)))
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if a.value != b.value {
            self.const_value_changed(o, n);
        } else if a.literal != b.literal || a.expr != b.expr {
            let ch = change(
                Severity::Cosmetic,
                ChangeKind::ValueSpelling,
                ItemKind::Const,
                &path,
                "value written differently",
                "the same number",
            )
            .sides(Some(Self::const_shape(a)), Some(Self::const_shape(b)))
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if a.ty != b.ty {
            let shape = |c: &Constant| Shape {
                ty: Some(const_type_name(c)),
                ..named(&c.name)
            };
            let ch = change(
                Severity::SourceBreaking,
                ChangeKind::ConstTypeChanged,
                ItemKind::Const,
                &path,
                "constant type changed",
                "the number is the same, but its type in the bindings changes",
            )
            .sides(Some(shape(a)), Some(shape(b)))
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        self.cosmetic_edits(
            ItemKind::Const,
            &path,
            (&a.doc, &b.doc),
            (a.since, b.since),
            &a.span,
            &b.span,
        );
    }

    /// Constant `o`'s value changed (its match is `n`): a geometry value that readers follow
    /// or check, or else a breaking change that says what the value sizes or means.
    fn const_value_changed(&mut self, o: usize, n: usize) {
        let (a, b) = (&self.old.abi.consts[o], &self.new.abi.consts[n]);
        let path = b.name.clone();
        let spans = (Some(&a.span), Some(&b.span));
        let sized = {
            let mut v = sized_by(self.new, n);
            if v.is_empty() {
                v = sized_by(self.old, o);
            }
            v
        };
        let geometry = (
            geometry_naming(self.old, &a.name),
            geometry_naming(self.new, &b.name),
        );
        let mut equal: Vec<String> = Vec::new();
        for (p, _) in [&geometry.0, &geometry.1]
            .into_iter()
            .flat_map(|g| g.iter().filter(|(_, r)| *r == GeometryRule::Equal))
        {
            if !equal.contains(p) {
                equal.push(p.clone());
            }
        }
        let followed_both = equal.is_empty() && !geometry.0.is_empty() && !geometry.1.is_empty();
        let plain = sized.is_empty() && !is_magic(a) && !is_magic(b);
        if plain && (!equal.is_empty() || followed_both) {
            let fields: Vec<String> = geometry.1.iter().map(|(p, _)| p.clone()).collect();
            let (kind, reason) = if followed_both {
                (
                    ChangeKind::GeometryFollowedChanged,
                    format!(
                        "readers follow it from {} (geometry, followed): a reader built at {old_v} reads a new host's {new_value}, and one built at the new version an old host's {old_value}; writers built at the old value lay out {old_value} and write it there, so readers of either version follow them too",
                        quote_list(&fields),
                        old_v = self.old_v(),
                        old_value = a.literal,
                        new_value = b.literal,
                    ),
                )
            } else {
                (
                    ChangeKind::GeometryEqualChanged,
                    format!(
                        "readers must find their own value in {} (geometry, equal): a reader built at {old_v} refuses a new host's image (geometry_mismatch: expected {old_value}, found {new_value}), and one built at the new version refuses the image of a writer built at the old value",
                        quote_list(&equal),
                        old_v = self.old_v(),
                        old_value = a.literal,
                        new_value = b.literal,
                    ),
                )
            };
            let rule = super::rules::rule_of(kind);
            let ch = change(
                rule.class,
                kind,
                ItemKind::Const,
                &path,
                "geometry value changed",
                reason,
            )
            .sides(Some(Self::const_shape(a)), Some(Self::const_shape(b)))
            .spans(spans.0, spans.1);
            self.push(ch);
        } else {
            let reason = if a.ty == ConstType::Usize || b.ty == ConstType::Usize {
                format!(
                    "it sizes arrays ({}): every field after them moves",
                    quote_list(&sized)
                )
            } else if is_magic(a) || is_magic(b) {
                format!(
                    "it is a magic number: readers built against {} reject data that carries the new one",
                    self.old_v()
                )
            } else {
                format!(
                    "readers built against {} keep using {}",
                    self.old_v(),
                    a.literal
                )
            };
            let mut ch = change(
                Severity::Breaking,
                ChangeKind::ConstValueChanged,
                ItemKind::Const,
                &path,
                "constant value changed",
                reason,
            )
            .sides(Some(Self::const_shape(a)), Some(Self::const_shape(b)))
            .spans(spans.0, spans.1);
            ch.embedded_in = sized;
            self.push(ch);
        }
    }
}

/// The geometry fields (`struct.field`) whose `geometry` expression names constant `name`,
/// each with its rule.
fn geometry_naming(schema: &Schema, name: &str) -> Vec<(String, GeometryRule)> {
    schema
        .attach
        .geometry
        .iter()
        .filter(|g| {
            g.expr
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == name)
        })
        .map(|g| (field_path(schema, g.struct_index, g.field), g.rule))
        .collect()
}

fn is_magic(c: &Constant) -> bool {
    c.name.split('_').any(|w| w == "magic")
}

fn const_type_name(c: &Constant) -> String {
    match c.ty {
        ConstType::Usize => "usize".to_string(),
        ConstType::Prim(p) => p.name().to_string(),
    }
}
