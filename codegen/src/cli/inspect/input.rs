//! The input of `abi-codegen inspect`: reads only the bytes of the records a plan asks for. A
//! regular file is read at those ranges (seek, then read), so memory and time grow with what
//! is decoded, not with the file. Standard input, pipes and devices (`/dev/zero`) are read
//! forward as a stream, only as far as the end of the last record, never to their end.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use crate::inspect::{Extent, Plan, ReadAt};

/// The bytes of each record of a plan, in order, and what is known of the input's length.
/// Fewer records than the plan's count mean the input ended before the last one.
pub struct Records {
    pub bytes: Vec<Vec<u8>>,
    pub len: Extent,
}

/// Reads the records of `plan` from `path`, or from standard input for `-`.
pub fn read_records(path: &Path, plan: &Plan) -> io::Result<Records> {
    if path == Path::new("-") {
        return read_stdin(plan);
    }
    read_file(File::open(path)?, plan)
}

/// Standard input redirected from a regular file is read at ranges like any file; anything
/// else as a stream.
#[cfg(unix)]
fn read_stdin(plan: &Plan) -> io::Result<Records> {
    use std::os::fd::AsFd;
    let file = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    read_file(file, plan)
}

#[cfg(not(unix))]
fn read_stdin(plan: &Plan) -> io::Result<Records> {
    read_stream(io::stdin().lock(), plan)
}

fn read_file(mut file: File, plan: &Plan) -> io::Result<Records> {
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a folder, not a file",
        ));
    }
    if !meta.is_file() {
        return read_stream(file, plan);
    }
    let len = meta.len();
    let mut bytes = Vec::new();
    if plan.end() > len {
        // Too short: nothing to read, and the decoder says so.
        return Ok(Records {
            bytes,
            len: Extent::Exactly(len),
        });
    }
    for i in 0..plan.count {
        file.seek(SeekFrom::Start(plan.record_offset(i)))?;
        let mut record = vec![0; plan.size as usize];
        let got = read_full(&mut file, &mut record)?;
        if got < record.len() {
            // The file shrank while it was read.
            let len = plan.record_offset(i) + got as u64;
            return Ok(Records {
                bytes,
                len: Extent::Exactly(len),
            });
        }
        bytes.push(record);
    }
    Ok(Records {
        bytes,
        len: Extent::Exactly(len),
    })
}

/// Reads forward: skips to each record, reads it, and stops after the last one (or where the
/// stream ends).
fn read_stream(mut stream: impl Read, plan: &Plan) -> io::Result<Records> {
    let mut bytes = Vec::new();
    let mut pos = 0u64;
    let mut scratch = vec![0; 64 * 1024];
    for i in 0..plan.count {
        let at = plan.record_offset(i);
        while pos < at {
            let want = scratch.len().min((at - pos) as usize);
            let got = read_full(&mut stream, &mut scratch[..want])?;
            pos += got as u64;
            if got < want {
                return Ok(Records {
                    bytes,
                    len: Extent::Exactly(pos),
                });
            }
        }
        let mut record = vec![0; plan.size as usize];
        let got = read_full(&mut stream, &mut record)?;
        pos += got as u64;
        if got < record.len() {
            return Ok(Records {
                bytes,
                len: Extent::Exactly(pos),
            });
        }
        bytes.push(record);
    }
    Ok(Records {
        bytes,
        len: Extent::AtLeast(pos),
    })
}

/// A whole file for a `[[file]]` format, read at the ranges its records sit: a regular file
/// (or standard input redirected from one) is never read whole. Anything else (a pipe) is read
/// into memory, up to [`MAX_STREAM`] bytes.
pub fn open_whole(path: &Path) -> io::Result<Box<dyn ReadAt>> {
    let file = if path == Path::new("-") {
        stdin_file()?
    } else {
        File::open(path)?
    };
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a folder, not a file",
        ));
    }
    if meta.is_file() {
        return Ok(Box::new(FileAt {
            file: std::cell::RefCell::new(file),
            len: meta.len(),
        }));
    }
    let mut bytes = Vec::new();
    file.take(MAX_STREAM + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_STREAM {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a stream of more than {MAX_STREAM} bytes: save it to a file first"),
        ));
    }
    Ok(Box::new(bytes))
}

/// The most of a pipe read into memory for a `[[file]]`: 1 GiB.
const MAX_STREAM: u64 = 1 << 30;

#[cfg(unix)]
fn stdin_file() -> io::Result<File> {
    use std::os::fd::AsFd;
    Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn stdin_file() -> io::Result<File> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "a [[file]] format reads a file, not standard input, on this system",
    ))
}

struct FileAt {
    file: std::cell::RefCell<File>,
    len: u64,
}

impl ReadAt for FileAt {
    fn size(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, n: u64) -> Option<Vec<u8>> {
        if offset.checked_add(n)? > self.len {
            return None;
        }
        let mut file = self.file.borrow_mut();
        file.seek(SeekFrom::Start(offset)).ok()?;
        let mut buf = vec![0; usize::try_from(n).ok()?];
        let got = read_full(&mut *file, &mut buf).ok()?;
        (got == buf.len()).then_some(buf)
    }
}

/// Fills `buf` unless the input ends first; returns how many bytes it read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// A seqlock counter inside each record: its offset from the record's start and its width.
#[derive(Clone, Copy)]
pub struct Counter {
    pub offset: usize,
    pub width: usize,
}

/// The records of `plan` read from `mapping`, a file another process may be writing: every
/// byte with relaxed atomic loads, and a record with seqlock counters copied while every
/// counter is even and unchanged, retried up to `DEFAULT_TRIES` times. Also returns how many
/// retries each record took.
pub fn read_live(
    mapping: &abi_runtime::Mapping,
    plan: &Plan,
    counters: &[Counter],
) -> Result<(Records, Vec<u32>), String> {
    let region = mapping.region().map_err(|e| e.to_string())?;
    let len = mapping.len() as u64;
    let mut bytes = Vec::new();
    let mut retries = Vec::new();
    if plan.end() > len {
        return Ok((
            Records {
                bytes,
                len: Extent::Exactly(len),
            },
            retries,
        ));
    }
    for i in 0..plan.count {
        let at = plan.record_offset(i) as usize;
        let mut record = vec![0; plan.size as usize];
        let aligned = counters.iter().all(|c| (at + c.offset) % c.width == 0);
        if counters.is_empty() || !aligned {
            region.read_bytes(at, &mut record);
            retries.push(0);
        } else {
            let (_, tries) = abi_runtime::retry(abi_runtime::DEFAULT_TRIES, || {
                copy_under(region, at, counters, &mut record).then_some(())
            })
            .map_err(|e| format!("record {i} at {at:#x}: {e}"))?;
            retries.push(tries);
        }
        bytes.push(record);
    }
    Ok((
        Records {
            bytes,
            len: Extent::Exactly(len),
        },
        retries,
    ))
}

/// One try: copies the record at `at` inside one stable period of every counter (nested
/// seqlock reads); `false` when a write was in progress or began meanwhile.
fn copy_under(
    region: abi_runtime::Region<'_>,
    at: usize,
    counters: &[Counter],
    record: &mut [u8],
) -> bool {
    let Some((first, rest)) = counters.split_first() else {
        region.read_bytes(at, record);
        return true;
    };
    let mut inner = || copy_under(region, at, rest, record);
    let ok = if first.width == 8 {
        abi_runtime::SeqLock::<u64>::new(region, at + first.offset).try_read(&mut inner)
    } else {
        abi_runtime::SeqLock::<u32>::new(region, at + first.offset).try_read(&mut inner)
    };
    ok == Some(true)
}
