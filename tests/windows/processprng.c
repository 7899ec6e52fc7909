/* A test-only stand-in for bcryptprimitives.dll, which wine 8 lacks: Rust's std (1.78 and
 * later) imports ProcessPrng from it at load time, so no Rust program starts under wine 8
 * without it. run-under-wine.sh builds it and puts it next to the .exe it runs. Never
 * shipped: real Windows has the DLL. ProcessPrng fills the buffer from RtlGenRandom
 * (advapi32's SystemFunction036), in chunks that fit its ULONG length. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000u ? 0x10000000u : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
