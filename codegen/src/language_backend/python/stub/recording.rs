//! The stub's recordings section: `FileFormatError`, `FileIssue`, and per file format its
//! reader (a property per record, iteration and `seek_<key>` typed with the record's and
//! the decoded struct's classes) and its writer. It reads the context `recording.rs`
//! rendered the module's section from.

use std::fmt::Write as _;

use crate::language_backend::python::recording::RecordingContext;

/// What every recordings section has; `{error}` and `{issue}` are the classes' names.
const HELPERS: &str = r#"
class {error}(ValueError): ...

class {issue}(tuple[int, str, str]):
    def __new__(cls, offset: int, path: str, message: str) -> {issue}: ...
    @property
    def offset(self) -> int: ...
    @property
    def path(self) -> str: ...
    @property
    def message(self) -> str: ...
"#;

/// Writes the section after the attach section's.
pub(super) fn write_recording(out: &mut String, cx: &RecordingContext) {
    out.push_str(
        &HELPERS
            .replace("{error}", &cx.error)
            .replace("{issue}", &cx.issue),
    );
    let input = "str | os.PathLike[str] | IO[bytes] | bytes | bytearray | memoryview";
    let output = "str | os.PathLike[str] | IO[bytes]";
    for f in &cx.formats {
        let item = format!("tuple[{}, {}, bytes]", f.record_class, f.decoded_class);
        let r = &f.reader;
        let _ = writeln!(out, "\nclass {r}:");
        let _ = writeln!(out, "    issues: list[{}]\n    walked: bool", cx.issue);
        let _ = writeln!(out, "    def __init__(self, source: {input}) -> None: ...");
        for p in &f.properties {
            let ty = if p.many {
                format!("list[{}]", p.class)
            } else {
                format!("{} | None", p.class)
            };
            let _ = writeln!(out, "    @property\n    def {}(self) -> {ty}: ...", p.name);
        }
        let _ = writeln!(out, "    def __iter__(self) -> Iterator[{item}]: ...");
        let _ = writeln!(
            out,
            "    def {}(self, key: int) -> {item} | None: ...",
            f.seek
        );
        let _ = writeln!(out, "    def check(self) -> list[{}]: ...", cx.issue);
        let _ = writeln!(out, "    def close(self) -> None: ...");
        let _ = writeln!(out, "    def __enter__(self) -> {r}: ...");
        let _ = writeln!(out, "    def __exit__(self, *exc: object) -> bool: ...");
        let w = &f.writer;
        let _ = writeln!(out, "\nclass {w}:");
        let _ = writeln!(
            out,
            "    def __init__(\n        self,\n        target: {output},\n        {}: {},\n        chunk_{}: int | None = None,\n        keyframe_every: int | None = None,\n    ) -> None: ...",
            f.first, f.first_class, f.per_chunk
        );
        let _ = writeln!(
            out,
            "    def push(self, record: {}, decoded: {}, extras: bytes = ...) -> None: ...",
            f.record_class, f.decoded_class
        );
        let _ = writeln!(out, "    def flush(self) -> None: ...");
        for a in &f.added {
            let _ = writeln!(
                out,
                "    def {}(self, record: {}) -> None: ...",
                a.name, a.class
            );
        }
        let given: Vec<String> = (f.given.iter())
            .map(|g| format!(", {}: {} | None = None", g.name, g.class))
            .collect();
        let _ = writeln!(out, "    def finish(self{}) -> None: ...", given.concat());
        let _ = writeln!(out, "    def close(self) -> None: ...");
        let _ = writeln!(out, "    def __enter__(self) -> {w}: ...");
        let _ = writeln!(
            out,
            "    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> bool: ..."
        );
    }
}
