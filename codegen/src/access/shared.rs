//! Which structs are shared: a struct that a shared one holds is shared too, and the keys
//! that describe shared memory are errors on a struct that is not.

use crate::diagnostics::Span;
use crate::ir::Elem;
use crate::ir::PerStruct;
use crate::ir::StructId;
use crate::ir::access::StructAccess;
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawSchema;

impl AfterLayout<'_> {
    /// Shared structs share the structs they hold; a held struct with no writer of its own
    /// is written by whoever writes the field that holds it.
    pub(super) fn propagate_shared(
        &mut self,
        raw: &RawSchema,
        structs: &mut PerStruct<StructAccess>,
    ) {
        for &si in self.layout.order.iter().rev() {
            if !structs[si].shared {
                continue;
            }
            for (fi, f) in self.abi.structs[si].fields.iter().enumerate() {
                let Elem::Struct(j) = f.ty.elem else { continue };
                let writers = structs[si].fields[fi].writers.clone();
                let inner = &mut structs[j];
                if raw.structs[j].get_ref().writer.is_none() {
                    for w in writers.0 {
                        if !inner.writers.0.contains(&w) {
                            inner.writers.0.push(w);
                        }
                    }
                    inner.writers.0.sort_unstable();
                    for fa in &mut inner.fields {
                        fa.writers = inner.writers.clone();
                    }
                }
                inner.shared = true;
            }
        }
    }

    /// `access`, a field's `writer` and `trailer` describe shared memory: a struct that has
    /// them must declare its writer, or be held by a struct that does.
    pub(super) fn check_unshared(&mut self, raw: &RawSchema, structs: &PerStruct<StructAccess>) {
        for (si, rs) in StructId::enumerate(&raw.structs) {
            if structs[si].shared {
                continue;
            }
            let rs = rs.get_ref();
            let name = rs.name.get_ref();
            let mut keys: Vec<(Span, String)> = Vec::new();
            for f in rs.fields.get_ref() {
                let f = f.get_ref();
                let fwhat = format!("field `{name}.{}`", f.name.get_ref());
                if let Some(a) = &f.access {
                    let key = format!("`access = \"{}\"`", a.get_ref());
                    keys.push((self.inner(a), format!("{fwhat}: {key}")));
                }
                if let Some(w) = &f.writer {
                    keys.push((w.span(), format!("{fwhat}: its `writer`")));
                }
            }
            if let Some(t) = &rs.trailer {
                keys.push((t.span(), format!("struct `{name}`: its `trailer`")));
            }
            for (span, what) in keys {
                self.errors.error_help(
                    &span,
                    format!("{what} describes shared memory, and struct `{name}` is not shared: it declares no `writer`, and no shared struct holds it"),
                    format!("declare who writes it: `writer = \"...\"` in struct `{name}`, or in a struct that holds it"),
                );
            }
        }
    }
}
