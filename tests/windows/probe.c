/* ibf_process_probe on Windows with the header alone (issue 48): no macro and no <windows.h>
 * of its own before bridge.h, which includes what the probe needs. `probe.exe` checks itself
 * (running, a creation time), pid 0 and a pid no process has (gone), then starts
 * `probe.exe sleep` as a child: running while it sleeps, gone once TerminateProcess killed it
 * (while this process still holds its handle, and after that handle is closed). Prints one
 * line per step; exits non-zero on the first wrong answer. <windows.h> comes after bridge.h
 * here, for CreateProcessA: the order that used to leave the probe "unknown". */
#include "bridge.h"
#include <stdio.h>
#include <string.h>
#include <windows.h>

static const char *name(int r) {
    return r == IBF_PROCESS_RUNNING ? "running" : r == IBF_PROCESS_GONE ? "gone" : "unknown";
}

static int check(const char *what, uint32_t pid, int want, uint64_t *created) {
    uint64_t t = 0;
    int r = ibf_process_probe(pid, &t, NULL);
    printf("%s %s%s\n", what, name(r), r == IBF_PROCESS_RUNNING && t != 0 ? " created" : "");
    if (created) {
        *created = t;
    }
    return r == want && (want != IBF_PROCESS_RUNNING || t != 0);
}

int main(int argc, char **argv) {
    STARTUPINFOA si;
    PROCESS_INFORMATION pi;
    char line[MAX_PATH + 16];
    uint64_t first = 0, again = 0;
    if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
        Sleep(60000);
        return 0;
    }
    if (!check("self", (uint32_t)GetCurrentProcessId(), IBF_PROCESS_RUNNING, &first)
        || !check("self-again", (uint32_t)GetCurrentProcessId(), IBF_PROCESS_RUNNING, &again) || first != again
        || !check("pid-0", 0U, IBF_PROCESS_GONE, NULL) || !check("no-such", 0x7ffffff0U, IBF_PROCESS_GONE, NULL)) {
        return 1;
    }
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    snprintf(line, sizeof line, "\"%s\" sleep", argv[0]);
    if (!CreateProcessA(NULL, line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) {
        printf("CreateProcess failed: %lu\n", GetLastError());
        return 1;
    }
    if (!check("child", (uint32_t)pi.dwProcessId, IBF_PROCESS_RUNNING, NULL)) {
        return 1;
    }
    TerminateProcess(pi.hProcess, 9);
    WaitForSingleObject(pi.hProcess, 10000);
    if (!check("killed-held", (uint32_t)pi.dwProcessId, IBF_PROCESS_GONE, NULL)) {
        return 1;
    }
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    if (!check("killed", (uint32_t)pi.dwProcessId, IBF_PROCESS_GONE, NULL)) {
        return 1;
    }
    return 0;
}
