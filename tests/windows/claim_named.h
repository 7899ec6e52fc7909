/* A Windows client's start, shared by the test programs under wine (events_bot.c,
 * commands.c): opens the section Local\NAME (OpenFileMappingA, MapViewOfFile, its length from
 * VirtualQuery), attaches, claims the first free row and activates it. NULL on success, else
 * what failed (GetLastError() may say more). */
#ifndef CLAIM_NAMED_H
#define CLAIM_NAMED_H

#include "bridge.h"

#include <stdio.h>

static const char *claim_named(const char *name, unsigned char **base, size_t *len, ibf_attached *a, ibf_client_session *me) {
    char full[256];
    ibf_attach_error err;
    MEMORY_BASIC_INFORMATION info;
    HANDLE section;
    uint32_t i;
    int found = 0;
    snprintf(full, sizeof full, "Local\\%s", name);
    section = OpenFileMappingA(FILE_MAP_READ | FILE_MAP_WRITE, FALSE, full);
    if (section == NULL) {
        return "no such mapping";
    }
    *base = (unsigned char *)MapViewOfFile(section, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
    if (*base == NULL || VirtualQuery(*base, &info, sizeof info) == 0) {
        return "cannot map it";
    }
    if (ibf_attach(*base, (size_t)info.RegionSize, a, &err) != IBF_ATTACH_OK) {
        return "attach";
    }
    *len = (size_t)ibf_attached_header_size(a);
    for (i = 0; i < IBF_MAX_CLIENTS && !found; i++) {
        found = ibf_client_claim(*base, *len, (uint32_t)a->generation, i, me) == IBF_OK
                && ibf_client_activate(*base, *len, me) == IBF_OK;
    }
    return found ? NULL : "no row";
}

#endif
