/* Issue 46, item 1 and the reload policy, through bridge.h: a claim made on the old image never
 * moves the newcomer's row after a re-layout (ibf_produce carries the rows' generations past the
 * mapping's; each move checks the host's generation first, which alone refuses B when the
 * producer carried nothing, as a hand-written one may not), and a reload whose free of a row is
 * contended (IBF_CAS_HOOK, the peer below) tries every row, then says IBF_CONTENDED with the
 * rows it freed and the row it could not. Prints one line per scenario. */
#include <stdint.h>
#include <stddef.h>
static void *peer_target;
static unsigned peer_calls;
/* The peer: flips the top bit of the word it watches whenever a loop is about to exchange it. */
static void peer(void *word) {
    if (word != peer_target) {
        return;
    }
    peer_calls++;
    (void)__atomic_fetch_xor((uint64_t *)word, 0x8000000000000000ull, __ATOMIC_RELAXED);
}
#define IBF_CAS_HOOK(word) peer((void *)(word))
#include "bridge.h"
#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                           \
    do {                                                                   \
        if (!(c)) {                                                        \
            fprintf(stderr, "relayout.c:%d: check failed: %s\n", __LINE__, #c); \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

static const ibf_geometry_value first[] = {
    {"mailbox.request_capacity", 256},
    {"mailbox.response_capacity", 256},
};
static const ibf_geometry_value second[] = {
    {"mailbox.request_capacity", 512},
    {"mailbox.response_capacity", 128},
};

/* An image of `values`, at generation 1, in a new buffer of *n bytes. */
static unsigned char *lay(const ibf_geometry_value *values, size_t *n) {
    unsigned char *img;
    CHECK(ibf_lay_out(NULL, 0, values, 2, 1, n, NULL) == IBF_PRODUCE_BUFFER_TOO_SHORT);
    img = (unsigned char *)calloc(*n, 1);
    CHECK(img != NULL && ibf_lay_out(img, *n, values, 2, 1, n, NULL) == IBF_PRODUCE_OK);
    return img;
}

/* Writes img over m as a producer that carries no row generations would (a plain copy, then the
 * host generation past the old one, the state running). */
static void produce_without_carrying(unsigned char *m, const unsigned char *img, size_t n) {
    uint32_t old = ibf_live_load_acquire_u32_(m + 20);
    memcpy(m, img, n);
    ibf_live_store_release_u32_(m + 20, old + 1U);
    ibf_live_store_release_u32_(m + 24, 1U);
}

static uint64_t row_word(const ibf_attached *a, uint32_t row) {
    return ibf_live_load_acquire_u64_(ibf_client_row_(ibf_attached_header(a), (size_t)ibf_attached_header_size(a), row));
}

/* B claims row 0 on the first image, the host lays out `values` again (asking for generation 1
 * again), A claims row 0: B's activate and close leave A's row alone. */
static void stale(const ibf_geometry_value *values, int carry) {
    size_t n1, n2;
    unsigned char *img1 = lay(first, &n1), *img2 = lay(values, &n2);
    size_t size = n1 > n2 ? n1 : n2;
    uint64_t *mapping = (uint64_t *)calloc((size + 7U) / 8U, 8U);
    unsigned char *m = (unsigned char *)mapping;
    ibf_attached old, now;
    ibf_client_session b, a;
    void *h;
    size_t len;
    uint64_t word;
    CHECK(mapping != NULL);
    if (carry) {
        CHECK(ibf_produce(m, size, img1, n1) == IBF_PRODUCE_OK);
    } else {
        produce_without_carrying(m, img1, n1);
    }
    CHECK(ibf_attach_all(m, size, &old, NULL) == IBF_ATTACH_OK);
    h = (void *)ibf_attached_header(&old);
    len = (size_t)ibf_attached_header_size(&old);
    CHECK(ibf_client_claim(h, len, (uint32_t)old.generation, 0, &b) == IBF_OK);
    if (carry) {
        CHECK(ibf_produce(m, size, img2, n2) == IBF_PRODUCE_OK);
    } else {
        produce_without_carrying(m, img2, n2);
    }
    CHECK(ibf_attach_all(m, size, &now, NULL) == IBF_ATTACH_OK);
    CHECK(now.generation != old.generation);
    CHECK(ibf_client_claim(h, len, (uint32_t)now.generation, 0, &a) == IBF_OK);
    if (carry) {
        CHECK(a.generation > b.generation);
    } else {
        CHECK(a.generation == b.generation);
    }
    word = row_word(&now, 0);
    CHECK(ibf_client_activate(h, len, &b) == IBF_RELOADED);
    CHECK(row_word(&now, 0) == word);
    CHECK(ibf_client_activate(h, len, &a) == IBF_OK);
    word = row_word(&now, 0);
    CHECK(ibf_client_close(h, len, &b) == IBF_RELOADED);
    CHECK(row_word(&now, 0) == word);
    CHECK(ibf_client_standing(h, len, &a) == IBF_OK);
    printf("stale carry=%d a=%u b=%u\n", carry, (unsigned)a.generation, (unsigned)b.generation);
    free(img1);
    free(img2);
    free(mapping);
}

/* Rows 0, 1 and 2 in use; the peer writes row 1's word nonstop: the reload frees rows 0 and 2,
 * then says IBF_CONTENDED with row 1 flagged. */
static void contended_reload(void) {
    size_t n;
    unsigned char *img = lay(first, &n);
    uint64_t *mapping = (uint64_t *)calloc((n + 7U) / 8U, 8U);
    unsigned char *m = (unsigned char *)mapping;
    ibf_attached host;
    ibf_client_session s[3];
    uint32_t generation = 0, was[IBF_MAX_CLIENTS];
    unsigned char contended[IBF_MAX_CLIENTS];
    void *h;
    size_t len;
    uint32_t i;
    int rc;
    size_t size = n;
    CHECK(mapping != NULL);
    CHECK(ibf_produce_attached(m, size, img, n, &host, NULL) == IBF_PRODUCE_OK);
    h = (void *)ibf_attached_header(&host);
    len = (size_t)ibf_attached_header_size(&host);
    for (i = 0; i < 3U; i++) {
        CHECK(ibf_client_claim(h, len, (uint32_t)host.generation, i, &s[i]) == IBF_OK);
        CHECK(ibf_client_activate(h, len, &s[i]) == IBF_OK);
    }
    peer_target = ibf_client_row_(h, len, 1U);
    peer_calls = 0;
    rc = ibf_attached_client_reload(&host, &generation, was, contended);
    peer_target = NULL;
    CHECK(rc == IBF_CONTENDED && peer_calls == IBF_CAS_TRIES);
    CHECK(generation == (uint32_t)host.generation + 1U);
    CHECK(was[0] == IBF_CLIENT_STATE_ACTIVE && was[2] == IBF_CLIENT_STATE_ACTIVE);
    CHECK(contended[0] == 0 && contended[1] == 1 && contended[2] == 0 && contended[3] == 0);
    CHECK((uint32_t)row_word(&host, 0) == IBF_CLIENT_STATE_FREE && (uint32_t)row_word(&host, 2) == IBF_CLIENT_STATE_FREE);
    CHECK((uint32_t)row_word(&host, 1) == IBF_CLIENT_STATE_ACTIVE);
    /* The peer quiet, a later free goes on. */
    CHECK(ibf_attached_client_free(&host, 1, &was[1]) == IBF_OK && was[1] == IBF_CLIENT_STATE_ACTIVE);
    printf("contended reload rc=%d rows=%u%u%u%u\n", rc, contended[0], contended[1], contended[2], contended[3]);
    free(img);
    free(mapping);
}

int main(void) {
    stale(first, 1);
    stale(second, 1);
    stale(first, 0);
    stale(second, 0);
    contended_reload();
    return 0;
}
