//! A fifth target as small as one can be, for the tests: the layout IR as JSON, `<name>.json`
//! (what `abi-codegen layout --json` prints). It shows what adding a target takes: this
//! folder and one line in a registration table (codegen/README.md, "Adding a target"). It
//! is registered only in the test that shows it, so `generated/` has no such file.

use super::backend::LanguageBackend;
use super::output::RenderError;
use crate::schema::Schema;

/// The layout IR as pretty-printed JSON.
pub(crate) struct LayoutJson;

impl LanguageBackend for LayoutJson {
    fn extension(&self) -> &'static str {
        "json"
    }

    fn render(&self, schema: &Schema, _source: &str) -> Result<String, RenderError> {
        let value = crate::report::layout_json(schema);
        Ok(serde_json::to_string_pretty(&value).expect("a JSON value prints") + "\n")
    }
}
