//! The language backends. Each reads the validated IR and its layout and returns text;
//! none of them computes a layout or touches the disk.

#[cfg(feature = "text")]
pub mod c;
#[cfg(feature = "text")]
pub mod markdown;
#[cfg(feature = "text")]
pub mod python;
pub mod rust;
#[cfg(feature = "text")]
pub mod text;

use crate::Schema;
use crate::write::Output;

/// The first line of every generated file, after the comment marker.
pub fn generated_line(source: &str) -> String {
    format!("generated from {source}; do not edit")
}

/// Control characters (a tab aside) and Unicode bidirectional controls, which a compiler
/// rejects or warns about even inside a comment (a bare CR in a Rust doc comment, a bidi
/// control in any comment), written as `<U+XXXX>`. For one line of doc text.
pub fn show_invisible_chars(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        let bidi = matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && c != '\t') || bidi {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// An output that could not be rendered (a template error): a bug in the generator,
/// never a schema mistake.
#[derive(Debug)]
pub struct RenderError(pub String);

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RenderError {}

/// A target rendered from a template: the C header, the Python module or the markdown.
#[cfg(feature = "text")]
type RenderText = fn(&Schema, &str) -> Result<String, RenderError>;

/// Every target this build of the generator has, named after the ABI (`bridge.rs`, ...).
/// `source` is the schema's file name as the generated-file line shows it. The targets are
/// rendered at the same time, on threads of their own.
pub fn generate_all(schema: &Schema, source: &str) -> Result<Vec<Output>, RenderError> {
    let name = &schema.abi.name;
    let output = |extension: &str, contents: String| Output {
        file_name: format!("{name}.{extension}"),
        contents,
    };
    #[cfg(not(feature = "text"))]
    let outputs = vec![output("rs", rust::expand_rust(schema, source))];
    #[cfg(feature = "text")]
    let outputs = std::thread::scope(|scope| {
        let text_targets: [(&str, RenderText); 3] = [
            ("h", c::render_c_header),
            ("py", python::render_python),
            ("md", markdown::render_markdown),
        ];
        let rendering: Vec<_> = text_targets
            .into_iter()
            .map(|(extension, render)| (extension, scope.spawn(move || render(schema, source))))
            .collect();
        let mut outputs = vec![output("rs", rust::expand_rust(schema, source))];
        for (extension, handle) in rendering {
            let contents = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            outputs.push(output(extension, contents));
        }
        Ok::<_, RenderError>(outputs)
    })?;
    Ok(outputs)
}
