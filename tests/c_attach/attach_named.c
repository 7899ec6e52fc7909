/* The C attach example on Windows: `attach_named NAME`, e.g. `attach_named Local\ibf.bridge`.
 * Opens the host's named mapping (OpenFileMappingA, MapViewOfFile), takes its length from
 * VirtualQuery (whole pages: Windows keeps no byte length for a pagefile section), and
 * attaches with ibf_attach, which checks every size the host wrote against that length. The
 * /dev/shm way is the same after an open and mmap (docs/bots.md, "Live shared memory in C and
 * Python"). Every failure is one line on stderr naming the mapping; exit 2 when it cannot be
 * mapped, 1 when it does not attach. tests/windows.rs builds it with mingw-w64 and runs it
 * under wine. Valid C11 (-Wall -Wextra -Werror -pedantic). */
#include <windows.h>
#include <inttypes.h>
#include <stdio.h>

#include "bridge.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: attach_named NAME\n");
        return 2;
    }
    const char *name = argv[1];
    HANDLE h = OpenFileMappingA(FILE_MAP_READ | FILE_MAP_WRITE, FALSE, name);
    if (h == NULL) {
        DWORD e = GetLastError();
        if (e == ERROR_FILE_NOT_FOUND) {
            fprintf(stderr, "no mapping named `%s` (error %lu): is the host running, in this session?\n", name,
                    (unsigned long)e);
        } else if (e == ERROR_ACCESS_DENIED) {
            fprintf(stderr, "access denied to the mapping named `%s` (read-write, error %lu)\n", name,
                    (unsigned long)e);
        } else {
            fprintf(stderr, "cannot open the mapping named `%s` (error %lu)\n", name, (unsigned long)e);
        }
        return 2;
    }
    unsigned char *base = (unsigned char *)MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
    MEMORY_BASIC_INFORMATION info;
    if (base == NULL || VirtualQuery(base, &info, sizeof info) == 0) {
        fprintf(stderr, "cannot map a view of the mapping named `%s` (error %lu)\n", name,
                (unsigned long)GetLastError());
        CloseHandle(h);
        return 2;
    }
    size_t len = info.RegionSize;
    static ibf_attached bridge;
    ibf_attach_error error;
    int rc = ibf_attach(base, len, &bridge, &error);
    if (rc != IBF_ATTACH_OK) {
        fprintf(stderr, "the mapping named `%s` (%zu bytes) does not attach: %s: %s expected %" PRIu64
                        ", found %" PRIu64 "\n",
                name, len, error.check_name, error.region, (uint64_t)error.expected, (uint64_t)error.found);
        UnmapViewOfFile(base);
        CloseHandle(h);
        return 1;
    }
    ibf_bridge_header *header = ibf_attached_header(&bridge);
    if (header == NULL) { /* a producer may leave a region out; the header, never in practice */
        fprintf(stderr, "the mapping named `%s` has no bridge header\n", name);
        return 1;
    }
    printf("%s attached len=%zu total_size=%" PRIu32 " ring_slots=%" PRIu32 " ring_stride=%" PRIu64
           " host_state=%d\n",
           name, len, (uint32_t)header->total_size, (uint32_t)ibf_attached_snapshot_ring_count(&bridge),
           (uint64_t)ibf_attached_snapshot_ring_stride(&bridge), (int)ibf_bridge_header_load_host_state(header));
    UnmapViewOfFile(base);
    CloseHandle(h);
    return 0;
}
