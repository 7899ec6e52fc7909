//! The C header's MSVC branch (`__iso_volatile_load`/`_store`, the `_Interlocked` intrinsics,
//! `_ReadWriteBarrier` on x64 and `__dmb` on ARM64), compiled here without cl.exe: by clang in
//! MSVC mode for the x64 and ARM64 Windows targets (`--target x86_64-pc-windows-msvc` and
//! `aarch64-pc-windows-msvc`, which define `_MSC_VER`, `_M_X64` or `_M_ARM64`, and the
//! intrinsics from clang's own `<intrin.h>`), with `IBF_LIVE_MSVC_INTRINSICS` selecting the
//! branch clang would otherwise skip. Every `static inline` function of the header is
//! compiled (its address taken), as C11 and as C++17 with every warning an error, and the
//! assembly of the primitives under everything else is checked: an acquire load is the load
//! then the barrier, a release store the barrier then the store, a compare-and-swap a
//! `lock cmpxchg` (x64) or an acquire/release exclusive pair (ARM64), and nothing calls a
//! library atomic. Nothing here is run: there is no Windows machine. The C runtime's headers
//! are not on this machine either; the few declarations the header and clang's `<intrin.h>`
//! include are stubs written by the test. Needs clang on PATH (Debian: apt-get install clang)
//! and fails, never skips, without it.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use abi_codegen::testing::language_backend::c::render_c_header;
use common::tools::{c_inline_functions, run_ok, scratch};

/// Declarations that `bridge.h` (string.h) and clang's `<intrin.h>` (stdlib.h via
/// mm_malloc.h, malloc.h, setjmp.h) include from the C runtime, which is not installed here.
const CRT_STUBS: [(&str, &str); 6] = [
    (
        "string.h",
        "#pragma once\n#include <stddef.h>\nvoid *memcpy(void *, const void *, size_t);\n\
         void *memset(void *, int, size_t);\nint memcmp(const void *, const void *, size_t);\n\
         size_t strlen(const char *);\n",
    ),
    (
        "stdlib.h",
        "#pragma once\n#include <stddef.h>\nvoid *malloc(size_t);\nvoid free(void *);\n",
    ),
    (
        "malloc.h",
        "#pragma once\n#include <stddef.h>\nvoid *_aligned_malloc(size_t, size_t);\n\
         void _aligned_free(void *);\n",
    ),
    // The host directory's process probe and the events' named events, which the header
    // includes <windows.h> for: the types and functions they use, as the Windows SDK declares them for x64 and ARM64.
    (
        "windows.h",
        "#pragma once\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\
         typedef unsigned long DWORD;\ntypedef int BOOL;\ntypedef void *HANDLE;\n\
         typedef struct _FILETIME { DWORD dwLowDateTime; DWORD dwHighDateTime; } FILETIME;\n\
         #define FALSE 0\n#define PROCESS_QUERY_LIMITED_INFORMATION 0x1000\n\
         #define ERROR_ACCESS_DENIED 5L\n#define STILL_ACTIVE 259\n\
         __declspec(dllimport) HANDLE __stdcall OpenProcess(DWORD, BOOL, DWORD);\n\
         __declspec(dllimport) DWORD __stdcall GetLastError(void);\n\
         __declspec(dllimport) BOOL __stdcall GetExitCodeProcess(HANDLE, DWORD *);\n\
         __declspec(dllimport) BOOL __stdcall GetProcessTimes(HANDLE, FILETIME *, FILETIME *, FILETIME *, FILETIME *);\n\
         __declspec(dllimport) BOOL __stdcall CloseHandle(HANDLE);\n\
         #define WAIT_OBJECT_0 0UL\n\
         __declspec(dllimport) DWORD __stdcall WaitForSingleObject(HANDLE, DWORD);\n\
         __declspec(dllimport) BOOL __stdcall SetEvent(HANDLE);\n\
         __declspec(dllimport) DWORD __stdcall WaitForMultipleObjects(DWORD, const HANDLE *, BOOL, DWORD);\n\
         typedef void *PSECURITY_DESCRIPTOR;\ntypedef void *PSID;\ntypedef char *LPSTR;\n\
         typedef unsigned long long SIZE_T;\n\
         typedef struct _SECURITY_ATTRIBUTES { DWORD nLength; void *lpSecurityDescriptor; BOOL bInheritHandle; } SECURITY_ATTRIBUTES;\n\
         typedef struct _SID_AND_ATTRIBUTES { PSID Sid; DWORD Attributes; } SID_AND_ATTRIBUTES;\n\
         typedef struct _TOKEN_USER { SID_AND_ATTRIBUTES User; } TOKEN_USER;\n\
         typedef struct _MEMORY_BASIC_INFORMATION { void *BaseAddress; void *AllocationBase; DWORD AllocationProtect; \
         unsigned short PartitionId; SIZE_T RegionSize; DWORD State; DWORD Protect; DWORD Type; } MEMORY_BASIC_INFORMATION;\n\
         typedef enum _TOKEN_INFORMATION_CLASS { TokenUser = 1 } TOKEN_INFORMATION_CLASS;\n\
         #define TOKEN_QUERY 0x0008\n#define PAGE_READWRITE 0x04\n#define FILE_MAP_WRITE 0x0002\n\
         #define FILE_MAP_READ 0x0004\n#define ERROR_ALREADY_EXISTS 183L\n#define ERROR_INSUFFICIENT_BUFFER 122L\n\
         #define INVALID_HANDLE_VALUE ((HANDLE)(long long)-1)\n\
         __declspec(dllimport) HANDLE __stdcall GetCurrentProcess(void);\n\
         __declspec(dllimport) BOOL __stdcall OpenProcessToken(HANDLE, DWORD, HANDLE *);\n\
         __declspec(dllimport) BOOL __stdcall GetTokenInformation(HANDLE, TOKEN_INFORMATION_CLASS, void *, DWORD, DWORD *);\n\
         __declspec(dllimport) void __stdcall SetLastError(DWORD);\n\
         __declspec(dllimport) void *__stdcall LocalFree(void *);\n\
         __declspec(dllimport) HANDLE __stdcall CreateFileMappingA(HANDLE, SECURITY_ATTRIBUTES *, DWORD, DWORD, DWORD, const char *);\n\
         __declspec(dllimport) void *__stdcall MapViewOfFile(HANDLE, DWORD, DWORD, DWORD, SIZE_T);\n\
         __declspec(dllimport) BOOL __stdcall UnmapViewOfFile(const void *);\n\
         __declspec(dllimport) SIZE_T __stdcall VirtualQuery(const void *, MEMORY_BASIC_INFORMATION *, SIZE_T);\n\
         __declspec(dllimport) void __stdcall Sleep(DWORD);\n\
         #ifdef __cplusplus\n}\n#endif\n",
    ),
    // The host directory's owner-only descriptor, from an SDDL string.
    (
        "sddl.h",
        "#pragma once\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n#define SDDL_REVISION_1 1\n\
         __declspec(dllimport) BOOL __stdcall ConvertSidToStringSidA(PSID, LPSTR *);\n\
         __declspec(dllimport) BOOL __stdcall ConvertStringSecurityDescriptorToSecurityDescriptorA(\
         const char *, DWORD, PSECURITY_DESCRIPTOR *, unsigned long *);\n\
         #ifdef __cplusplus\n}\n#endif\n",
    ),
    (
        "setjmp.h",
        "#pragma once\ntypedef struct { unsigned long long part[2]; } _JBTYPE;\n\
         typedef _JBTYPE jmp_buf[16];\n",
    ),
];

const WIDTHS: [u32; 4] = [8, 16, 32, 64];

fn bridge_header() -> String {
    render_c_header(&common::bridge_schema(), "schema.toml").expect("render bridge.h")
}

/// Every `static inline` function of the header, once (both branches define the
/// primitives), but those only a Linux branch defines (the host directory's open-or-create
/// on a file: `#if defined(__linux__)` to its `#elif`, `#else` or `#endif`; a function the
/// Windows branch defines too, such as `ibf_directory_unmap`, stays).
fn inline_functions(header: &str) -> Vec<String> {
    let mut linux_only = Vec::new();
    let (mut block, mut depth): (Option<String>, usize) = (None, 0);
    for line in header.lines() {
        let Some(text) = block.as_mut() else {
            if line == "#if defined(__linux__)" {
                (block, depth) = (Some(String::new()), 0);
            }
            continue;
        };
        if line.starts_with("#if") {
            depth += 1;
        } else if depth == 0 && (line.starts_with("#endif") || line.starts_with("#el")) {
            linux_only.extend(c_inline_functions(text).into_iter().map(|(n, _)| n));
            block = None;
            continue;
        } else if line.starts_with("#endif") {
            depth -= 1;
        }
        text.push_str(line);
        text.push('\n');
    }
    let all: Vec<String> = (c_inline_functions(header).into_iter())
        .map(|(name, _)| name)
        .collect();
    let defined_once = |name: &String| all.iter().filter(|n| *n == name).count() == 1;
    linux_only.retain(defined_once);
    assert!(linux_only.iter().any(|n| n == "ibf_hosts_open_or_create"));
    assert!(!linux_only.iter().any(|n| n == "ibf_directory_unmap"));
    let mut names: Vec<String> = all
        .into_iter()
        .filter(|name| !linux_only.contains(name))
        .collect();
    assert!(names.iter().any(|n| n == "ibf_hosts_open_or_create_named"));
    names.sort();
    names.dedup();
    names
}

/// A translation unit that takes the address of every function, so that each is compiled.
fn program(functions: &[String]) -> String {
    let mut out = String::from(
        "#include \"bridge.h\"\ntypedef void (*ibf_any_fn)(void);\n\
         extern ibf_any_fn const ibf_every_helper[];\nibf_any_fn const ibf_every_helper[] = {\n",
    );
    for f in functions {
        out.push_str(&format!("    (ibf_any_fn)&{f},\n"));
    }
    out.push_str("};\n");
    out
}

/// The instructions of each function in clang's assembly, by the function's C name: labels,
/// directives and comments dropped, except clang's `#MEMBARRIER` mark of a compiler barrier
/// (`_ReadWriteBarrier`).
fn functions_in(asm: &str) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    let mut current: Option<String> = None;
    for line in asm.lines() {
        let trimmed = line.trim();
        let code = if trimmed == "#MEMBARRIER" {
            trimmed
        } else {
            line.split('#')
                .next()
                .unwrap_or("")
                .split("//")
                .next()
                .unwrap_or("")
        };
        if let Some(label) = code.trim_end().strip_suffix(':')
            && !label.starts_with('.')
            && !label.starts_with(char::is_whitespace)
        {
            // C++ gives even these static functions MSVC-mangled names: "?name@@...".
            let plain = label
                .strip_prefix("\"?")
                .map_or(label, |m| m.split('@').next().unwrap_or(m));
            current = Some(plain.to_string());
            continue;
        }
        let Some(name) = &current else { continue };
        let text = code.trim();
        if text.is_empty() || text.starts_with('.') {
            continue;
        }
        let instruction = text.split_whitespace().collect::<Vec<_>>().join(" ");
        out.entry(name.clone()).or_default().push(instruction);
    }
    out
}

/// Compiles the program for `target` as `lang` (`c` or `c++`) to assembly.
fn compile(dir: &Path, target: &str, lang: &str) -> String {
    let std = if lang == "c" {
        "-std=c11"
    } else {
        "-std=c++17"
    };
    let out = format!("{target}-{lang}.s");
    let target_flag = format!("--target={target}");
    let args = [
        target_flag.as_str(),
        "-x",
        lang,
        std,
        "-O2",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-DIBF_LIVE_MSVC_INTRINSICS",
        "-idirafter",
        "crt",
        "-S",
        "every.c",
        "-o",
        &out,
    ];
    run_ok("clang", &args, dir);
    std::fs::read_to_string(dir.join(out)).expect("clang's assembly")
}

fn position(body: &[String], what: &str) -> Option<usize> {
    body.iter().position(|i| i.starts_with(what))
}

#[test]
fn the_msvc_branch_compiles_for_x64_and_arm64_to_the_documented_barriers() {
    let header = bridge_header();
    let functions = inline_functions(&header);
    assert!(functions.len() > 100, "{} functions", functions.len());
    let dir = scratch("c_msvc");
    std::fs::write(dir.join("bridge.h"), &header).unwrap();
    std::fs::write(dir.join("every.c"), program(&functions)).unwrap();
    std::fs::create_dir_all(dir.join("crt")).unwrap();
    for (name, text) in CRT_STUBS {
        std::fs::write(dir.join("crt").join(name), text).unwrap();
    }

    for lang in ["c", "c++"] {
        let x64 = compile(&dir, "x86_64-pc-windows-msvc", lang);
        let arm64 = compile(&dir, "aarch64-pc-windows-msvc", lang);
        for (target, asm) in [("x64", &x64), ("arm64", &arm64)] {
            // The GCC/Clang branch was not taken, and nothing calls a library atomic.
            assert!(
                !asm.contains("__atomic"),
                "{target} {lang}: a library atomic"
            );
            assert!(asm.contains("__imp_SwitchToThread"), "{target} {lang}");
        }
        let x64 = functions_in(&x64);
        let arm64 = functions_in(&arm64);
        for f in &functions {
            assert!(x64.contains_key(f), "x64 {lang}: {f} was not compiled");
            assert!(arm64.contains_key(f), "arm64 {lang}: {f} was not compiled");
        }
        check_primitives(&X64, &x64, lang);
        check_primitives(&ARM64, &arm64, lang);
    }
}

/// What one instruction set's primitives must become.
struct Isa {
    name: &'static str,
    /// The barrier: clang's mark of `_ReadWriteBarrier` (x64), or `dmb ish` (ARM64).
    barrier: &'static str,
    load: &'static str,
    store: &'static str,
    /// The instructions a read-modify-write (`cas`, `fetch_add`, `exchange`) of `bits` needs.
    rmw: fn(&str, u32) -> Vec<String>,
    ret: &'static str,
    spin: &'static str,
}

/// x64: loads and stores are plain moves (acquire and release in hardware), with a compiler
/// barrier after an acquire load and before a release store; read-modify-writes are locked.
const X64: Isa = Isa {
    name: "x64",
    barrier: "#MEMBARRIER",
    load: "mov",
    store: "mov",
    rmw: |op, bits| {
        let suffix = match bits {
            8 => 'b',
            16 => 'w',
            32 => 'l',
            _ => 'q',
        };
        let instruction = match op {
            "cas" => "lock cmpxchg",
            "fetch_add" => "lock xadd",
            _ => "xchg",
        };
        vec![format!("{instruction}{suffix}")]
    },
    ret: "retq",
    spin: "pause",
};

/// ARM64: loads and stores are plain (relaxed), a full `dmb ish` after an acquire load and
/// before a release store; read-modify-writes are acquire/release exclusive pairs.
const ARM64: Isa = Isa {
    name: "arm64",
    barrier: "dmb ish",
    load: "ldr",
    store: "str",
    rmw: |_, _| vec!["ldaxr".to_string(), "stlxr".to_string()],
    ret: "ret",
    spin: "yield",
};

fn check_primitives(isa: &Isa, asm: &HashMap<String, Vec<String>>, lang: &str) {
    let target = format!("{} {lang}", isa.name);
    for bits in WIDTHS {
        let f = |op: &str| {
            let name = format!("ibf_live_{op}_u{bits}_");
            let body = asm
                .get(&name)
                .unwrap_or_else(|| panic!("{target}: no {name}"));
            (name, body)
        };
        let (name, body) = f("load_acquire");
        let (load, barrier) = (position(body, isa.load), position(body, isa.barrier));
        assert!(
            load.is_some() && barrier > load,
            "{target} {name}: the load, then the barrier: {body:?}"
        );
        let (name, body) = f("store_release");
        let (barrier, store) = (position(body, isa.barrier), position(body, isa.store));
        assert!(
            barrier.is_some() && store > barrier,
            "{target} {name}: the barrier, then the store: {body:?}"
        );
        let (name, body) = f("load_relaxed");
        assert!(
            position(body, isa.load).is_some()
                && position(body, isa.barrier).is_none()
                && position(body, "lock").is_none(),
            "{target} {name}: a plain load: {body:?}"
        );
        for op in ["cas", "fetch_add", "exchange"] {
            let (name, body) = f(op);
            for instruction in (isa.rmw)(op, bits) {
                assert!(
                    position(body, &instruction).is_some(),
                    "{target} {name}: {instruction}: {body:?}"
                );
            }
        }
    }
    for fence in ["ibf_live_fence_acquire_", "ibf_live_fence_release_"] {
        assert_eq!(asm[fence], [isa.barrier, isa.ret], "{target} {fence}");
    }
    let spin = &asm["ibf_live_spin_"];
    assert!(
        position(spin, isa.spin).is_some(),
        "{target} spin: {spin:?}"
    );
}
