/* The C attach helpers on files (tests/c_attach.rs): each file is read into a heap buffer of
 * exactly its length, so that a sanitizer sees any read past it.
 *
 *   attach FILE...          ibf_attach on each file, then every block's first-use check: the
 *                           first error (the verdict) and, when it attaches, facts
 *   snapshot FILE...        ibf_snapshot_read_versioned on each file
 *   header FILE...          ibf_bridge_header_read_versioned on each file
 *   ring FILE...            attach, then the snapshot ring's newest slot at the writer's geometry
 *   produce FILE GEN [NAME=VALUE...]
 *                           ibf_lay_out with those geometry values and generation GEN, then
 *                           ibf_produce into a buffer, written to FILE; prints the result
 *
 * One line per file, `FILE key=value ...`. Valid C11 and C++17. */
#include "bridge.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *load(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *data;
    long size;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    *len = (size_t)size;
    data = (unsigned char *)malloc(*len != 0 ? *len : 1);
    if (data == NULL || fread(data, 1, *len, f) != *len) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    return data;
}

/* An offset in the mapping, or -1 for NULL. */
static long long at(const ibf_attached *a, const void *p) {
    return p == NULL ? -1 : (long long)((const unsigned char *)p - a->base);
}

static void attach(const char *path) {
    size_t len;
    unsigned char *data = load(path, &len);
    static ibf_attached a;
    ibf_attach_error err;
    int rc = ibf_attach(data, len, &a, &err);
    int attached = rc == IBF_ATTACH_OK;
    unsigned k;
    /* The verdict: the attach's error, else the first block's that fails its check. */
    for (k = 0; rc == IBF_ATTACH_OK && k < IBF_MAX_CLIENTS; k++) {
        rc = ibf_attached_client_blocks_check(&a, k, &err);
    }
    for (k = 0; rc == IBF_ATTACH_OK && k < IBF_MAX_CLIENTS; k++) {
        rc = ibf_attached_bot_blocks_check(&a, k, &err);
    }
    /* ibf_attach_all gives the same verdict in one call; the header's one name table
     * (ibf_result_name) names the code as the attach checks' name does. */
    if (strcmp(ibf_result_name(rc), ibf_attach_check_name(rc)) != 0) {
        fprintf(stderr, "%s ibf_result_name(%d) is %s\n", path, rc, ibf_result_name(rc));
        exit(1);
    }
    printf("%s attached=%d all=%s", path, attached, ibf_attach_check_name(ibf_attach_all(data, len, NULL, NULL)));
    printf(" check=%s code=%d name_of_code=%s region=%s other=%s expected=%" PRIu64 " found=%" PRIu64
           " offset=%" PRIu64 " size=%" PRIu64 " limit=%" PRIu64 " align=%" PRIu64,
           err.check_name, rc, ibf_attach_check_name(rc), err.region, err.other, err.expected,
           err.found, err.offset, err.size, err.limit, err.align);
    if (attached) {
        unsigned i;
        int blocks_ok = 1;
        printf(" producer=%" PRIu32 ".%" PRIu32 " header_size=%" PRIu64 " extent=%" PRIu64, a.producer_major,
               a.producer_minor, a.header_size, a.extent);
        printf(" header=%lld header_size_region=%" PRIu64, at(&a, ibf_attached_header(&a)),
               ibf_attached_header_size(&a));
        printf(" snapshot_ring=%lld snapshot_ring_size=%" PRIu64, at(&a, ibf_attached_snapshot_ring(&a)),
               ibf_attached_snapshot_ring_size(&a));
        printf(" log_ring=%lld log_ring_size=%" PRIu64, at(&a, ibf_attached_log_ring(&a)),
               ibf_attached_log_ring_size(&a));
        printf(" client_blocks=%lld client_blocks_size=%" PRIu64 " client_block3=%lld",
               at(&a, ibf_attached_client_blocks(&a, 0)), ibf_attached_client_blocks_size(&a),
               at(&a, ibf_attached_client_blocks(&a, 3)));
        printf(" client3_log_queue=%lld client3_pad_input=%lld client3_pad_input_size=%" PRIu64
               " client3_mailbox=%lld",
               at(&a, ibf_attached_client_blocks_log_queue(&a, 3)),
               at(&a, ibf_attached_client_blocks_pad_input(&a, 3)),
               ibf_attached_client_blocks_pad_input_size(&a, 3),
               at(&a, ibf_attached_client_blocks_mailbox(&a, 3)));
        printf(" bot_blocks=%lld bot_blocks_size=%" PRIu64 " bot7=%lld bot7_draw=%lld bot7_params=%lld"
               " bot7_stats=%lld bot7_stats_size=%" PRIu64,
               at(&a, ibf_attached_bot_blocks(&a, 0)), ibf_attached_bot_blocks_size(&a),
               at(&a, ibf_attached_bot_blocks(&a, 7)), at(&a, ibf_attached_bot_blocks_draw(&a, 7)),
               at(&a, ibf_attached_bot_blocks_params(&a, 7)), at(&a, ibf_attached_bot_blocks_stats(&a, 7)),
               ibf_attached_bot_blocks_stats_size(&a, 7));
        /* Past the block count: absent, never an error. */
        printf(" client8=%lld client8_pad_input=%lld client8_pad_input_size=%" PRIu64
               " bot8_stats=%lld bot8_draw_size=%" PRIu64,
               at(&a, ibf_attached_client_blocks(&a, 8)), at(&a, ibf_attached_client_blocks_pad_input(&a, 8)),
               ibf_attached_client_blocks_pad_input_size(&a, 8), at(&a, ibf_attached_bot_blocks_stats(&a, 8)),
               ibf_attached_bot_blocks_draw_size(&a, 8));
        /* Every block's rows at the same place from the block's start. */
        for (i = 0; i < IBF_MAX_CLIENTS; i++) {
            long long c = at(&a, ibf_attached_client_blocks(&a, i));
            long long b = at(&a, ibf_attached_bot_blocks(&a, i));
            blocks_ok &= at(&a, ibf_attached_client_blocks_mailbox(&a, i)) - c == 16640;
            blocks_ok &= ibf_attached_client_blocks_log_queue_size(&a, i) == 64 + 16384;
            blocks_ok &= at(&a, ibf_attached_bot_blocks_params(&a, i)) - b == 270720;
            blocks_ok &= ibf_attached_bot_blocks_params_size(&a, i) == 8768;
            blocks_ok &= ibf_attached_bot_blocks_draw_size(&a, i) == 270592;
            blocks_ok &= ibf_attached_client_blocks_mailbox_size(&a, i) == 4096;
        }
        /* Live reads through the typed pointers. */
        printf(" blocks_ok=%d host_generation=%" PRIu32, blocks_ok,
               ibf_bridge_header_load_host_generation(ibf_attached_header(&a)));
        /* The 0.9 fields of the header, present only when the producer's header has them. */
        printf(" has=%d%d%d%d", ibf_attached_has_controls(&a), ibf_attached_has_run_mode(&a),
               ibf_attached_has_sim_state(&a), ibf_attached_has_lockstep_timeout_ms(&a));
        /* The writer's geometry the handle follows, and whether it reloaded. */
        printf(" generation=%" PRIu64 " reloaded=%d ring_slots=%" PRIu64 " ring_slot_size=%" PRIu64
               " client_stride=%" PRIu64 " client_count=%" PRIu64 " bot_stride=%" PRIu64 " bot_count=%" PRIu64
               " bot0_draw=%lld",
               a.generation, ibf_attached_reloaded(&a), ibf_attached_snapshot_ring_count(&a),
               ibf_attached_snapshot_ring_stride(&a), ibf_attached_client_blocks_stride(&a),
               ibf_attached_client_blocks_count(&a), ibf_attached_bot_blocks_stride(&a),
               ibf_attached_bot_blocks_count(&a), at(&a, ibf_attached_bot_blocks_draw(&a, 0)));
    }
    printf("\n");
    free(data);
}

/* Whether the `n` bytes of `p` are all zero. */
static int zero(const unsigned char *p, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] != 0) return 0;
    }
    return 1;
}

static void print_info(const char *path, int rc, const ibf_attach_error *err, const ibf_record_info *info) {
    printf("%s check=%s code=%d expected=%" PRIu64 " found=%" PRIu64 " producer=%" PRIu32 ".%" PRIu32
           " producer_size=%zu extra=%zu extra_offset=%zu",
           path, err->check_name, rc, err->expected, err->found, info->producer_major, info->producer_minor,
           info->producer_size, info->extra, info->extra_offset);
}

static void snapshot(const char *path) {
    size_t len;
    unsigned char *data = load(path, &len);
    static ibf_snapshot value;
    ibf_record_info info;
    ibf_attach_error err;
    int rc = ibf_snapshot_read_versioned(data, len, &value, &info, &err);
    size_t kept = info.producer_size < sizeof value ? info.producer_size : sizeof value;
    print_info(path, rc, &err, &info);
    printf(" has_match=%d has_projectiles_ext=%d has_spawn_markers=%d has_spawn_marker_count=%d",
           ibf_snapshot_has_match(&info), ibf_snapshot_has_projectiles_ext(&info),
           ibf_snapshot_has_spawn_markers(&info), ibf_snapshot_has_spawn_marker_count(&info));
    printf(" prefix_same=%d rest_zero=%d\n", rc == IBF_ATTACH_OK && memcmp(&value, data, kept) == 0,
           zero((const unsigned char *)&value + kept, sizeof value - kept));
    free(data);
}

static void header(const char *path) {
    size_t len;
    unsigned char *data = load(path, &len);
    ibf_bridge_header value;
    ibf_record_info info;
    ibf_attach_error err;
    int rc = ibf_bridge_header_read_versioned(data, len, &value, &info, NULL);
    size_t kept = info.producer_size < sizeof value ? info.producer_size : sizeof value;
    (void)ibf_bridge_header_read_versioned(data, len, &value, &info, &err);
    print_info(path, rc, &err, &info);
    printf(" has_controls=%d has_run_mode=%d has_sim_state=%d has_lockstep_timeout_ms=%d",
           ibf_bridge_header_has_controls(&info), ibf_bridge_header_has_run_mode(&info),
           ibf_bridge_header_has_sim_state(&info), ibf_bridge_header_has_lockstep_timeout_ms(&info));
    printf(" prefix_same=%d rest_zero=%d run_mode=%d lockstep_timeout_ms=%" PRIu32 "\n",
           rc == IBF_ATTACH_OK && memcmp(&value, data, kept) == 0,
           zero((const unsigned char *)&value + kept, sizeof value - kept), (int)value.run_mode,
           value.lockstep_timeout_ms);
    free(data);
}

static void ring(const char *path) {
    size_t len;
    unsigned char *data = load(path, &len);
    static ibf_attached a;
    static ibf_ring_slot_copy newest;
    unsigned char extra[64];
    uint32_t retries = 0;
    int rc = ibf_attach(data, len, &a, NULL);
    int status = -1;
    uint64_t slots = ibf_attached_snapshot_ring_count(&a);
    uint64_t size = ibf_attached_snapshot_ring_stride(&a);
    if (rc == IBF_ATTACH_OK) {
        status = ibf_snapshot_ring_read_newest(ibf_attached_header(&a), ibf_attached_snapshot_ring(&a), slots,
                                               size, &newest, extra, sizeof extra, IBF_DEFAULT_TRIES, &retries);
    }
    printf("%s attach=%d status=%d slots=%" PRIu64 " slot_size=%" PRIu64 " tick=%" PRIu64
           " schema_slots_status=%d\n",
           path, rc, status, slots, size, newest.tick,
           /* A refused geometry is refused, never read. */
           ibf_snapshot_ring_read_newest(ibf_attached_header(&a), ibf_attached_snapshot_ring(&a), 0, size,
                                         &newest, extra, sizeof extra, 1, NULL));
    free(data);
}

static int produce(int argc, char **argv) {
    static ibf_geometry_value values[16];
    size_t n = 0, len = 0;
    ibf_attach_error err;
    unsigned char *image, *mapping;
    int i, rc;
    FILE *f;
    for (i = 4; i < argc && n < 16; i++, n++) {
        char *eq = strchr(argv[i], '=');
        if (eq == NULL) {
            return 2;
        }
        *eq = '\0';
        values[n].name = argv[i];
        values[n].value = (uint64_t)strtoull(eq + 1, NULL, 10);
    }
    /* First the size, then the image. */
    rc = ibf_lay_out(NULL, 0, values, n, (uint64_t)strtoull(argv[3], NULL, 10), &len, &err);
    if (rc != IBF_PRODUCE_BUFFER_TOO_SHORT) {
        printf("%s check=%s code=%d region=%s expected=%" PRIu64 " found=%" PRIu64 " len=%zu\n", argv[2],
               err.check_name, rc, err.region, err.expected, err.found, len);
        return 0;
    }
    image = (unsigned char *)malloc(len);
    mapping = (unsigned char *)calloc(len, 1);
    if (image == NULL || mapping == NULL) {
        return 2;
    }
    rc = ibf_lay_out(image, len, values, n, (uint64_t)strtoull(argv[3], NULL, 10), &len, &err);
    if (rc == IBF_PRODUCE_OK) {
        rc = ibf_produce(mapping, len, image, len);
    }
    printf("%s check=%s code=%d region=%s expected=%" PRIu64 " found=%" PRIu64 " len=%zu short=%s\n", argv[2],
           ibf_produce_code_name(rc), rc, err.region, err.expected, err.found, len,
           ibf_produce_code_name(ibf_produce(mapping, len - 1, image, len)));
    f = fopen(argv[2], "wb");
    if (f == NULL || fwrite(mapping, 1, len, f) != len || fclose(f) != 0) {
        return 2;
    }
    if (rc == IBF_PRODUCE_OK) {
        /* The same image again over the live mapping: a re-layout is a reload, and the
         * generation goes past the mapping's (issue 36, item 1). */
        uint32_t first = ((ibf_bridge_header *)(void *)mapping)->host_generation;
        rc = ibf_produce(mapping, len, image, len);
        printf("relayout code=%d generation %" PRIu32 " then %" PRIu32 "\n", rc, first,
               ((ibf_bridge_header *)(void *)mapping)->host_generation);
    }
    free(image);
    free(mapping);
    return 0;
}

int main(int argc, char **argv) {
    int i;
    if (argc >= 4 && strcmp(argv[1], "produce") == 0) {
        return produce(argc, argv);
    }
    if (argc < 2) {
        fprintf(stderr, "usage: attach attach|snapshot|header FILE...\n");
        return 2;
    }
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[1], "attach") == 0) {
            attach(argv[i]);
        } else if (strcmp(argv[1], "snapshot") == 0) {
            snapshot(argv[i]);
        } else if (strcmp(argv[1], "header") == 0) {
            header(argv[i]);
        } else if (strcmp(argv[1], "ring") == 0) {
            ring(argv[i]);
        } else {
            return 2;
        }
    }
    return 0;
}
