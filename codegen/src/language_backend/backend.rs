//! The trait every whole-file target implements: the C header, the Python module and its
//! stub, the markdown reference, and a fifth target of your own (codegen/README.md, "Adding
//! a target"). `mod.rs` registers them in one table. The Rust module is printed in parts on
//! several threads and is not one of them.

use super::output::RenderError;
use crate::schema::Schema;

/// One generated file, `<abi name>.<extension>`, rendered from the schema alone: a pure
/// function, run on one of the generator's threads beside the others.
pub(crate) trait LanguageBackend: Sync {
    /// The file's extension. The built-in ones are `BUILTIN_EXTENSIONS`, which a
    /// `[[template]]` output may not take.
    fn extension(&self) -> &'static str;

    /// The file's text; `source` is the schema's file name as the generated-file line shows
    /// it.
    fn render(&self, schema: &Schema, source: &str) -> Result<String, RenderError>;
}

/// A unit struct `$name`, the whole-file target whose file is `<abi name>.$extension` and whose
/// text `$render(schema, source)` returns: what a target folder declares of itself.
macro_rules! whole_file_target {
    ($(#[$doc:meta])* $name:ident, $extension:literal, $render:path) => {
        $(#[$doc])*
        pub(crate) struct $name;

        impl $crate::language_backend::backend::LanguageBackend for $name {
            fn extension(&self) -> &'static str {
                $extension
            }

            fn render(
                &self,
                schema: &$crate::schema::Schema,
                source: &str,
            ) -> Result<String, $crate::language_backend::output::RenderError> {
                $render(schema, source)
            }
        }
    };
}
pub(crate) use whole_file_target;
