//! The one module that touches the disk: reading the schema (from a file, or from git for
//! `abi-codegen diff --base`), and writing generated files only when their content changed,
//! all or nothing. (`abi-codegen inspect` reads its binary input in the command line's own
//! `input` module, only at the ranges of the records it decodes.)

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One generated file: its name inside the output folder, and its full text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub file_name: String,
    pub contents: String,
}

/// Reads a text file the generator takes as input: the schema, or a user template.
pub fn read_text(path: &Path) -> io::Result<String> {
    fs::read_to_string(path)
}

/// The folder to run git in for `path`, and the `REV:./FILE` that names it there.
fn git_place<'p>(rev: &str, path: &'p Path) -> io::Result<(&'p Path, String)> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let file = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?;
    Ok((dir, format!("{rev}:./{}", file.to_string_lossy())))
}

/// Reads the schema at `path` as it was in git revision `rev`, with `git show REV:./FILE`
/// run in the schema's folder (so `path` may be relative to the current folder or absolute,
/// inside any repository). This runs a process: it lives here, with the other I/O.
pub fn read_schema_at_revision(rev: &str, path: &Path) -> io::Result<String> {
    let (dir, spec) = git_place(rev, path)?;
    let output = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["show", &spec])
        .output()
        .map_err(|e| io::Error::new(e.kind(), format!("cannot run git: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(io::Error::other(format!(
            "git show {spec} failed: {}",
            stderr.trim()
        )));
    }
    String::from_utf8(output.stdout).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("git show {spec}: not UTF-8"),
        )
    })
}

/// Reads the templates of the schema's `[[template]]` tables, each relative to `schema_dir`,
/// in order.
pub fn read_user_templates(
    schema_dir: &Path,
    templates: &[crate::ir::template::UserTemplate],
) -> Vec<io::Result<String>> {
    templates
        .iter()
        .map(|t| fs::read_to_string(schema_dir.join(&t.path)))
        .collect()
}

/// Whether the file at `path` exists in git revision `rev` (resolved as
/// [`read_schema_at_revision`] does). An unknown revision, or no repository, is an error.
pub fn exists_at_revision(rev: &str, path: &Path) -> io::Result<bool> {
    let (dir, spec) = git_place(rev, path)?;
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .map_err(|e| io::Error::new(e.kind(), format!("cannot run git: {e}")))
    };
    if !git(&["rev-parse", "--git-dir"])?.status.success() {
        return Err(io::Error::other(format!(
            "{} is not in a git repository, so there is no revision to read the old schema \
             from; to compare two files, run `abi-codegen diff OLD.toml NEW.toml`",
            dir.display()
        )));
    }
    let commit = format!("{rev}^{{commit}}");
    let out = git(&["rev-parse", "--verify", "--quiet", &commit])?;
    if !out.status.success() {
        return Err(io::Error::other(format!(
            "git rev-parse --verify {commit} failed: not a revision of the repository at {}",
            dir.display()
        )));
    }
    Ok(git(&["cat-file", "-e", &spec])?.status.success())
}

/// The outputs whose file in `dir` is missing or differs. Writes nothing.
pub fn stale_outputs(dir: &Path, outputs: &[Output]) -> Vec<PathBuf> {
    outputs
        .iter()
        .map(|o| dir.join(&o.file_name))
        .zip(outputs)
        .filter(|(path, o)| fs::read(path).ok().as_deref() != Some(o.contents.as_bytes()))
        .map(|(path, _)| path)
        .collect()
}

/// Renders every output with `render`, then writes those whose content changed (with
/// [`write_outputs`]): nothing is written unless every output rendered. This is the path of
/// `abi-codegen generate`; a failure to write converts into the caller's error type.
pub fn render_then_write<E: From<io::Error>>(
    dir: &Path,
    render: impl FnOnce() -> Result<Vec<Output>, E>,
) -> Result<Vec<PathBuf>, E> {
    let outputs = render()?;
    Ok(write_outputs(dir, &outputs)?)
}

/// Writes every output whose content changed, and returns their paths. Every error names
/// the path it concerns (`out: exists and is not a folder`). Each changed file is
/// first written in full to a temporary file beside it; only when all of them are written
/// are they renamed into place, so a failure leaves `dir` as it was and removes the
/// temporary files. A path that is not a file (a folder where an output should go) is an
/// error found before anything is written, since renaming a file onto it would fail after
/// the outputs before it had been replaced.
pub fn write_outputs(dir: &Path, outputs: &[Output]) -> io::Result<Vec<PathBuf>> {
    let stale = stale_outputs(dir, outputs);
    if stale.is_empty() {
        return Ok(stale);
    }
    for path in &stale {
        if let Ok(meta) = fs::metadata(path)
            && !meta.is_file()
        {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: exists and is not a file", path.display()),
            ));
        }
    }
    if fs::metadata(dir).is_ok_and(|meta| !meta.is_dir()) {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{}: exists and is not a folder", dir.display()),
        ));
    }
    fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = (|| -> io::Result<()> {
        for o in outputs {
            let path = dir.join(&o.file_name);
            if !stale.contains(&path) {
                continue;
            }
            // Beside the output, which may sit in a folder of its own (a template's
            // `js/bridge.mjs`).
            let parent = path.parent().unwrap_or(dir);
            fs::create_dir_all(parent).map_err(|e| with_path(e, parent))?;
            let file = path
                .file_name()
                .map_or_else(|| o.file_name.clone(), |n| n.to_string_lossy().into_owned());
            let tmp = parent.join(format!(".{file}.tmp{}", std::process::id()));
            staged.push((tmp.clone(), path.clone()));
            fs::write(&tmp, &o.contents).map_err(|e| with_path(e, &tmp))?;
        }
        for (tmp, path) in &staged {
            fs::rename(tmp, path).map_err(|e| with_path(e, path))?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        for (tmp, _) in &staged {
            let _ = fs::remove_file(tmp);
        }
        return Err(e);
    }
    Ok(stale)
}

/// Writes `contents` to `path` only when it differs (for build scripts: an unchanged file
/// keeps its timestamp, so nothing downstream rebuilds). Returns whether it wrote.
pub fn ensure_file_contents(path: &Path, contents: &str) -> io::Result<bool> {
    if fs::read(path).ok().as_deref() == Some(contents.as_bytes()) {
        return Ok(false);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    write_outputs(
        dir,
        &[Output {
            file_name: name.to_string(),
            contents: contents.to_string(),
        }],
    )?;
    Ok(true)
}

/// `e` with the path it concerns in front of its message: `PATH: MESSAGE`.
fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
