/* The host directory's named section from C on Windows, with the header alone:
 * ibf_hosts_open_or_create_named (issue 48).
 *
 *   directory.exe self NAME   two opens in one process: the first creates and lays out, the
 *                             second opens the same section (map.created 0) and lists the row
 *                             the first registered; unregistered, the list is empty; both
 *                             unmapped, the section is gone and the next open creates it; a
 *                             section of NAME-bare that no host laid out is refused as not
 *                             ready after the opener's bounded looks
 *   directory.exe list NAME   the live rows another process registered: `created C`, then
 *                             `N hosts`, then one `host VERSION` line per row
 *
 * Prints one line per step; exits non-zero on the first wrong answer. */
#include "bridge.h"
#include <stdio.h>
#include <string.h>

static int list(const char *name) {
    ibf_directory_mapping map;
    ibf_directory d;
    ibf_directory_host hosts[8];
    uint32_t problems = 0;
    size_t n, i;
    int rc = ibf_hosts_open_or_create_named(name, &map, &d);
    if (rc != IBF_DIRECTORY_OK) {
        printf("open: %s (%lu)\n", ibf_directory_error_name(rc), GetLastError());
        return 1;
    }
    n = ibf_directory_list(&d, hosts, 8, &problems);
    printf("created %d\n%u hosts\n", map.created, (unsigned)n);
    for (i = 0; i < n; i++) {
        printf("host %s\n", hosts[i].host_version);
    }
    ibf_directory_unmap(&map);
    return problems != 0;
}

static int fail(const char *what, int rc) {
    printf("%s: %s (%lu)\n", what, ibf_directory_error_name(rc), GetLastError());
    return 1;
}

static int self(const char *name) {
    ibf_directory_mapping first, second, again;
    ibf_directory a, b, c;
    ibf_directory_host hosts[4];
    uint32_t pid = (uint32_t)GetCurrentProcessId(), row = 0, stale = 0, problems = 0;
    uint64_t created = 0;
    char bare[256];
    HANDLE held;
    int rc;
    if (ibf_process_probe(pid, &created, NULL) != IBF_PROCESS_RUNNING) {
        return fail("probe", 0);
    }
    rc = ibf_hosts_open_or_create_named(name, &first, &a);
    if (rc != IBF_DIRECTORY_OK || !first.created || first.len != IBF_HOSTS_SIZE) {
        return fail("first open", rc);
    }
    printf("first created %d, %u rows\n", first.created, (unsigned)a.count);
    rc = ibf_hosts_open_or_create_named(name, &second, &b);
    if (rc != IBF_DIRECTORY_OK || second.created || b.count != a.count || second.len < IBF_HOSTS_SIZE) {
        return fail("second open", rc);
    }
    printf("second created %d, %u rows\n", second.created, (unsigned)b.count);
    rc = ibf_directory_register(&a, pid, created, "dir-test 1", ibf_process_probe, NULL, &row, &stale);
    if (rc != IBF_DIRECTORY_OK) {
        return fail("register", rc);
    }
    if (ibf_directory_list(&b, hosts, 4, &problems) != 1 || problems != 0 || hosts[0].pid != pid
        || hosts[0].process_time != created || strcmp(hosts[0].host_version, "dir-test 1") != 0) {
        return fail("list through the second", 0);
    }
    printf("registered row %u, listed through the second\n", row);
    if (!ibf_directory_unregister(&a, row, pid, created) || ibf_directory_list(&b, hosts, 4, &problems) != 0) {
        return fail("unregister", 0);
    }
    printf("unregistered, listed 0\n");
    ibf_directory_unmap(&first);
    ibf_directory_unmap(&second);
    rc = ibf_hosts_open_or_create_named(name, &again, &c);
    if (rc != IBF_DIRECTORY_OK || !again.created) {
        return fail("open after the last close", rc);
    }
    printf("after the last close created %d\n", again.created);
    ibf_directory_unmap(&again);
    /* A section of the directory's size that nobody laid out: its magic stays 0. */
    snprintf(bare, sizeof bare, "%s-bare", name);
    held = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, IBF_HOSTS_SIZE, bare);
    if (held == NULL) {
        return fail("bare section", 0);
    }
    rc = ibf_hosts_open_or_create_named(bare, &again, &c);
    printf("bare: %s, mapped %d\n", ibf_directory_error_name(rc), again.base != NULL || again.handle != NULL);
    CloseHandle(held);
    return rc != IBF_DIRECTORY_NOT_READY || again.base != NULL || again.handle != NULL;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "self") == 0) {
        return self(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "list") == 0) {
        return list(argv[2]);
    }
    fprintf(stderr, "usage: directory.exe self|list NAME\n");
    return 2;
}
