//! The generated Python module on CPUs and builds where its struct fallback is not enough.
//!
//! - A weakly ordered CPU (aarch64, arm, ppc64le, ...): without libatomic's
//!   `atomic_thread_fence` the module has no real fence (the `atomics` package's
//!   read-modify-write of a private word orders nothing else), and the first live access
//!   (attach's acquire load of the host's state included) raises `AtomicsUnavailableError`
//!   saying what is missing; with it, live access works and the fence is libatomic's. x86
//!   (TSO) works with no fence at all. There is no aarch64 machine here: the scripts
//!   simulate one by replacing `platform.machine()` (and, for the old libatomic, a library
//!   that lacks the fence) before the backend is chosen, on this x86-64 CPython, so they test
//!   the module's choice, not a weakly ordered CPU's behaviour.
//! - 32-bit CPython: a u64 goes through libatomic's `__atomic_load_8`/`__atomic_store_8` (one
//!   64-bit atomic), and where that cannot be (no libatomic, or a read-only buffer) a u64 load
//!   or store raises instead of copying two halves. Run on Debian's real 32-bit CPython (its
//!   i386 libpython, as tests/portability.rs runs it) with the real i386 libatomic; a u32
//!   still works from a read-only buffer.
//!
//! Offsets are the reference's: `bridge_header.snapshot_seq` (u64) at 0xC0 and
//! `host_generation` (u32) at 0x14. Needs python3, gcc -m32 and Debian's libpython3-dev:i386,
//! and fails, never skips, without them.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::tools::{python_i386, run_ok, scratch};

/// The checks both scripts share: `raises`, and `check_live(buf)`, which uses a header's u64
/// and u32 atomic fields.
const PRELUDE: &str = r#"
import ctypes, ctypes.util, platform, sys

def raises(kind, words, fn, *args):
    try:
        fn(*args)
    except kind as e:
        for w in words:
            assert w in str(e), (w, str(e))
        return str(e)
    raise AssertionError("%s did not raise %s" % (fn, kind.__name__))

def check_live(buf):
    h = bridge.LiveBridgeHeader(buf)
    h.set_snapshot_seq(0x1122334455667788)
    h.set_host_generation(7)
    assert h.snapshot_seq() == 0x1122334455667788 and h.host_generation() == 7
    assert bytes(buf[0xC0:0xC8]) == (0x1122334455667788).to_bytes(8, "little")
    h.release()

def starting_image():
    """A bridge header whose host state is 0 (starting): attach reads the state with the
    live layer's acquire load right after the major version."""
    img = bytearray(8192)
    img[0:4] = bridge.BRIDGE_MAGIC.to_bytes(4, "little")
    return img

def no_libatomic(*args, **kwargs):
    raise OSError("no libatomic here")
"#;

/// Each CPU and backend: what the first live access does.
const WEAK_CPUS: &str = r#"
import bridge

real_cdll, real_find = ctypes.CDLL, ctypes.util.find_library

class NoFence:
    """libatomic as a library older than GCC 7 exports it: no atomic_thread_fence."""
    def __init__(self, *args, **kwargs):
        self._lib = real_cdll(*args, **kwargs)
    def __getattr__(self, name):
        if name == "atomic_thread_fence":
            raise AttributeError(name)
        return getattr(self._lib, name)

def choose(machine, backend, library):
    platform.machine = lambda: machine
    ctypes.CDLL = {"real": real_cdll, "old": NoFence, "none": no_libatomic}[library]
    ctypes.util.find_library = real_find if library != "none" else (lambda name: None)
    if backend == "atomics":
        sys.modules.pop("atomics", None)
        sys.path.insert(0, "stub")
    else:
        sys.modules["atomics"] = None
    return bridge.set_atomics_backend(backend)

def refused(words):
    buf = bytearray(8192)
    before = bytes(buf)
    h = bridge.LiveBridgeHeader(buf)
    for fn, args in ((h.snapshot_seq, ()), (h.set_snapshot_seq, (1,)), (h.host_generation, ()),
                     (bridge.LivePadInput(bytearray(64)).read_pad_input, ())):
        raises(bridge.AtomicsUnavailableError, words + ["weakly ordered", "libatomic1"], fn, *args)
    assert bytes(buf) == before, "nothing was written"
    h.release()
    # attach's acquire load of the host's state is the live layer's: refused the same way.
    raises(bridge.AtomicsUnavailableError, words + ["weakly ordered"], bridge.attach, starting_image())

for machine in ("aarch64", "armv7l", "ppc64le", "riscv64"):
    # libatomic with atomic_thread_fence: a real fence, and live access works.
    assert choose(machine, "auto", "real") == "libatomic"
    assert bridge._Backend.fence is bridge._Backend.lib.fence is not None
    check_live(bytearray(8192))
    check_live(bytearray(8192))
    raises(bridge.AttachError, ["host_not_running", "host state 0"], bridge.attach, starting_image())
    # An old libatomic, only the atomics package, or nothing: refused at first use.
    assert choose(machine, "libatomic", "old") == "libatomic"
    refused([machine, "no atomic_thread_fence"])
    assert choose(machine, "atomics", "none") == "atomics"
    refused([machine, "only the atomics package", "no fence"])
    assert choose(machine, "auto", "none") is None
    refused([machine, "neither libatomic nor the atomics package"])
    assert choose(machine, None, "real") is None
    refused([machine, "set_atomics_backend(None)"])
# x86 is TSO: the struct fallback needs no fence there, and works with nothing installed.
for machine in ("x86_64", "AMD64", "i686"):
    assert choose(machine, "auto", "none") is None and bridge._Backend.fence is None
    check_live(bytearray(8192))
    assert choose(machine, "atomics", "none") == "atomics" and bridge._Backend.fence is None
    check_live(bytearray(8192))
    raises(bridge.AttachError, ["host_not_running"], bridge.attach, bytes(starting_image()))
print("ok")
"#;

#[test]
fn python_refuses_live_access_without_a_real_fence_on_a_weakly_ordered_cpu() {
    let dir = scratch("python_platforms_weak");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("generated/bridge.py"), dir.join("bridge.py")).unwrap();
    std::fs::create_dir_all(dir.join("stub")).unwrap();
    // A stand-in of the atomics package's documented API: enough to be chosen.
    std::fs::write(
        dir.join("stub/atomics.py"),
        "UINT = 'uint'\ndef atomicview(buffer, atype):\n    raise AssertionError('not used')\n",
    )
    .unwrap();
    std::fs::write(dir.join("weak.py"), format!("{PRELUDE}\n{WEAK_CPUS}")).unwrap();
    let out = Command::new("python3")
        .args(["-B", "-W", "error", "weak.py"])
        .current_dir(&dir)
        .output()
        .expect("python3 is needed for this test");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
}

/// Under a real 32-bit CPython. Before Python 3.13 the module's import refuses i386's ctypes
/// alignment of u64 (tests/portability.rs), so the script loads it with that check taken
/// out: the live views use offsets, never ctypes' alignment.
const I386: &str = r#"
import struct
assert struct.calcsize("P") == 4, "not a 32-bit CPython"
text = open("bridge.py").read()
assert text.count("\n_check_layout()\n") == 1
bridge = type(sys)("bridge")
sys.modules["bridge"] = bridge
exec(compile(text.replace("\n_check_layout()\n", "\n"), "bridge.py", "exec"), bridge.__dict__)

# libatomic (i386): a u64 is one 64-bit atomic.
assert bridge.set_atomics_backend("libatomic") == "libatomic" and bridge._Backend.halves
check_live(bytearray(8192))
image = bytearray(8192)
image[0xC0:0xC8] = (0x0102030405060708).to_bytes(8, "little")
image[0x14:0x18] = (9).to_bytes(4, "little")
# A read-only buffer has no address for libatomic: its u64 is refused, its u32 read.
ro = bridge.LiveBridgeHeader(bytes(image))
raises(bridge.AtomicsUnavailableError, ["u64 load", "32-bit", "__atomic_load_8"], ro.snapshot_seq)
assert ro.host_generation() == 9
# No libatomic: a u64 store is refused, and writes nothing.
ctypes.CDLL = no_libatomic
ctypes.util.find_library = lambda name: None
sys.modules["atomics"] = None
assert bridge.set_atomics_backend("auto") is None
buf = bytearray(image)
h = bridge.LiveBridgeHeader(buf)
raises(bridge.AtomicsUnavailableError, ["u64 store", "32-bit", "libatomic1"], h.set_snapshot_seq, 1)
raises(bridge.AtomicsUnavailableError, ["u64 load"], h.snapshot_seq)
assert bytes(buf) == bytes(image)
h.set_host_generation(10)
assert h.host_generation() == 10
print("ok")
"#;

#[test]
fn a_32_bit_cpython_never_copies_a_u64_in_halves() {
    let dir = scratch("python_platforms_i386");
    let python = python_i386(&dir);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("generated/bridge.py"), dir.join("bridge.py")).unwrap();
    std::fs::write(dir.join("i386.py"), format!("{PRELUDE}\n{I386}")).unwrap();
    let out = run_ok(python.to_str().unwrap(), &["-B", "i386.py"], &dir);
    assert_eq!(out, "ok\n");
}
