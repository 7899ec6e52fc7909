/* A seqlock's run-time sized bytes (the snapshot ring slot's payload and its extras) are
 * copied in the same chunks by every reader and writer, whatever `size` says: the writer
 * publishes with each extras length, and a reader then reads the slot under every size
 * another publication could have left in it (a lapped reader's view). For every byte that
 * both touched, the atomic access that covered it must begin at the same address and have
 * the same width; the test counts the pairs compared and the mismatches.
 *
 * A control does the same with the plain range copies (ibf_live_write_bytes_ and
 * ibf_live_read_bytes_ of exactly the bytes a size says), which chunk by size: its
 * mismatches show that the trace sees mixed widths when there are some. */
#include <stdio.h>
#include <string.h>

#include "bridge.h"
#include "hooks.h"

#define HEAD sizeof(ibf_ring_slot_header)
#define FIXED sizeof(ibf_snapshot)
#define ROOM 40U /* the most bytes a test slot has past the payload's type */

static _Alignas(8) unsigned char slot_mem[IBF_RING_SLOT_SIZE];
static struct chunk written[IBF_RING_SLOT_SIZE], read_back[IBF_RING_SLOT_SIZE];
static unsigned long pairs, mismatches, failures, printed;

#define CHECK(c)                                                            \
    do {                                                                    \
        if (!(c)) {                                                         \
            fprintf(stderr, "line %d: CHECK(%s) failed\n", __LINE__, #c);   \
            failures++;                                                     \
        }                                                                   \
    } while (0)

static void start_trace(struct chunk *into, size_t len) {
    memset(into, 0, sizeof written);
    trace = into;
    trace_base = slot_mem;
    trace_len = len;
}

/* The mismatches of one writer and one reader, over the bytes both touched. */
static unsigned long compare(const char *what, size_t len, size_t wrote, size_t size) {
    unsigned long found = 0;
    size_t i;
    for (i = 0; i < len; i++) {
        if (written[i].size == 0 || read_back[i].size == 0) {
            continue;
        }
        pairs++;
        if (written[i].start != read_back[i].start || written[i].size != read_back[i].size) {
            if (found++ == 0 && what[0] == 'r' && printed++ < 3) {
                printf("%s: byte %zu: stored by %u bytes at %ld, loaded by %u bytes at %ld "
                       "(slot of %zu bytes, extras %zu, size %zu)\n",
                       what, i, (unsigned)written[i].size, (long)written[i].start,
                       (unsigned)read_back[i].size, (long)read_back[i].start, len, wrote, size);
            }
        }
    }
    return found;
}

static void set_size(size_t size) {
    uint32_t word = (uint32_t)size;
    trace = NULL;
    memcpy(slot_mem + offsetof(ibf_ring_slot_header, size), &word, sizeof word);
}

int main(void) {
    static const size_t tails[] = {0, 1, 3, 5, 7};
    static ibf_ring_slot_copy value, copy;
    unsigned char src[ROOM], dst[ROOM + 8];
    unsigned long control = 0;
    size_t t, wrote, size, i;
    for (i = 0; i < ROOM; i++) {
        src[i] = (unsigned char)(i + 1);
    }
    memset(&value.payload, 0xAB, FIXED);
    for (t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        size_t room = ROOM - 8 + tails[t]; /* bytes past the payload's type */
        size_t len = HEAD + FIXED + room;
        for (wrote = 0; wrote <= room; wrote++) {
            memset(slot_mem, 0, sizeof slot_mem);
            value.payload_extra_len = wrote;
            start_trace(written, len);
            CHECK(ibf_ring_slot_write((ibf_ring_slot_header *)(void *)slot_mem, len, &value, src) == IBF_OK);
            for (size = FIXED - 9; size <= FIXED + room + 2; size++) {
                size_t cut = size < HEAD + FIXED + room - HEAD ? size : FIXED + room;
                set_size(size);
                memset(dst, 0xEE, sizeof dst);
                start_trace(read_back, len);
                CHECK(ibf_ring_slot_read((const ibf_ring_slot_header *)(const void *)slot_mem, len, &copy, dst,
                                         sizeof dst, 1, NULL) == IBF_OK);
                trace = NULL;
                mismatches += compare("ring_slot", len, wrote, size);
                /* The copy is cut to the size it read. */
                if (cut < FIXED) {
                    CHECK(copy.payload_extra_len == 0);
                    CHECK(((unsigned char *)&copy.payload)[cut - 1] == 0xAB);
                    CHECK(((unsigned char *)&copy.payload)[cut] == 0);
                } else {
                    CHECK(copy.payload_extra_len == cut - FIXED);
                    CHECK(((unsigned char *)&copy.payload)[FIXED - 1] == 0xAB);
                    for (i = 0; i < cut - FIXED; i++) {
                        CHECK(dst[i] == (i < wrote ? src[i] : 0));
                    }
                    CHECK(dst[cut - FIXED] == 0xEE);
                }
            }
            /* The control: exactly the bytes each size says, in a copy chunked by its size. */
            for (size = 0; size <= room; size++) {
                memset(slot_mem, 0, sizeof slot_mem);
                start_trace(written, len);
                ibf_live_write_bytes_(slot_mem + HEAD + FIXED, src, wrote);
                start_trace(read_back, len);
                ibf_live_read_bytes_(slot_mem + HEAD + FIXED, dst, size);
                trace = NULL;
                control += compare("control", len, wrote, size) != 0;
            }
        }
    }
    printf("pairs %lu mismatches %lu control %lu failures %lu\n", pairs, mismatches, control, failures);
    return failures != 0;
}
