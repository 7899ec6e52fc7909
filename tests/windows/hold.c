/* A stand-in Windows host for tests/windows.rs: `hold NAME SIZE [IMAGE] [read-only]`.
 * Creates the named, pagefile-backed mapping NAME of SIZE bytes (CreateFileMappingA on
 * INVALID_HANDLE_VALUE), copies the first SIZE bytes of the file IMAGE into it, prints
 * `ready`, and holds the mapping (which lives while a handle to it does) until its stdin
 * closes. `read-only` gives the mapping a security descriptor that grants everyone read
 * access only, as a host that shares its bridge read-only would: a read-write open is then
 * denied. Valid C11 for mingw-w64 (-Wall -Wextra -Werror -pedantic). */
#include <windows.h>
#include <sddl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: hold NAME SIZE [IMAGE] [read-only]\n");
        return 2;
    }
    const char *name = argv[1];
    size_t size = (size_t)strtoull(argv[2], NULL, 10);
    SECURITY_ATTRIBUTES attributes = {sizeof attributes, NULL, FALSE};
    if (argc == 5 && strcmp(argv[4], "read-only") == 0 &&
        !ConvertStringSecurityDescriptorToSecurityDescriptorA("D:P(A;;GR;;;WD)", SDDL_REVISION_1,
                                                             &attributes.lpSecurityDescriptor, NULL)) {
        fprintf(stderr, "hold: SDDL (error %lu)\n", (unsigned long)GetLastError());
        return 2;
    }
    HANDLE h = CreateFileMappingA(INVALID_HANDLE_VALUE, &attributes, PAGE_READWRITE,
                                  (DWORD)((unsigned long long)size >> 32), (DWORD)size, name);
    if (h == NULL || GetLastError() == ERROR_ALREADY_EXISTS) {
        fprintf(stderr, "hold: cannot create the mapping named `%s` (error %lu)\n", name,
                (unsigned long)GetLastError());
        return 2;
    }
    unsigned char *base = (unsigned char *)MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, size);
    if (base == NULL) {
        fprintf(stderr, "hold: cannot map `%s` (error %lu)\n", name, (unsigned long)GetLastError());
        return 2;
    }
    if (argc >= 4 && strcmp(argv[3], "-") != 0) {
        FILE *f = fopen(argv[3], "rb");
        if (f == NULL) {
            fprintf(stderr, "hold: cannot read %s\n", argv[3]);
            return 2;
        }
        size_t got = fread(base, 1, size, f);
        fclose(f);
        printf("copied %zu\n", got);
    }
    printf("ready\n");
    fflush(stdout);
    while (getchar() != EOF) {
    }
    UnmapViewOfFile(base);
    CloseHandle(h);
    return 0;
}
