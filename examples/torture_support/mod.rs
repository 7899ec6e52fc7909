//! What the two torture hosts (`torture`, `torture_protocols`) share: building the C client
//! with the strict flags, and starting one client process of a language with its output read
//! as it comes (a client that fills a full pipe would stall).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;

/// Compiles `tests/torture/{source}` against the generated header into `dir/{exe}`, with
/// `-std=c11 -O2 -Wall -Wextra -Werror -pedantic` and `extra` flags.
pub fn build_c_client(
    root: &Path,
    dir: &Path,
    source: &str,
    exe: &str,
    extra: &[&str],
) -> Result<PathBuf, String> {
    let exe = dir.join(exe);
    let out = Command::new("gcc")
        .args([
            "-std=c11",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
        ])
        .args(extra)
        .arg("-I")
        .arg(root.join("generated"))
        .arg(root.join("tests/torture").join(source))
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("gcc is needed for the C client: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the C client {source} does not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(exe)
}

/// Where each language's client lives: this example's own `client` mode for Rust, the C
/// program `build_c_client` made, and a script of `tests/torture/` run under
/// `python3 -W error` with the generated module on its path.
pub struct ClientPrograms<'a> {
    pub root: &'a Path,
    pub c_client: &'a Path,
    pub python_script: &'a str,
}

impl ClientPrograms<'_> {
    /// Starts `lang`'s client with `args`, its stdout read by a thread until it exits.
    pub fn spawn(
        &self,
        lang: &str,
        args: &[String],
    ) -> Result<(Child, JoinHandle<String>), String> {
        let mut cmd = match lang {
            "rust" => {
                let mut c = Command::new(std::env::current_exe().map_err(|e| e.to_string())?);
                c.arg("client");
                c
            }
            "c" => Command::new(self.c_client),
            "python" => {
                let mut c = Command::new("python3");
                c.arg("-W")
                    .arg("error")
                    .arg(self.root.join("tests/torture").join(self.python_script));
                c.env("PYTHONPATH", self.root.join("generated"));
                c
            }
            other => return Err(format!("no {other} client: rust, c or python")),
        };
        let mut child = cmd
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the {lang} client: {e}"))?;
        let mut stdout = child.stdout.take().expect("piped");
        let output = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
            text
        });
        Ok((child, output))
    }
}
