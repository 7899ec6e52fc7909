/* Issue 48, item 5: ibf_relayout keeps the host's own fields across a re-layout (8 -> 16
 * ring slots): it prints each kept field, the pads' owners and the ring's slots as the new
 * image has them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"

static const ibf_geometry_value first[] = {
    {"bridge_header.ring_slots", 8},
    {"mailbox.request_capacity", 256},
    {"mailbox.response_capacity", 256},
};
static const ibf_geometry_value second[] = {
    {"bridge_header.ring_slots", 16},
    {"mailbox.request_capacity", 256},
    {"mailbox.response_capacity", 256},
};

static unsigned char *laid_out(const ibf_geometry_value *g, size_t *len) {
    unsigned char *image;
    (void)ibf_lay_out(NULL, 0, g, 3, 1, len, NULL);
    image = (unsigned char *)calloc(*len, 1);
    if (image == NULL || ibf_lay_out(image, *len, g, 3, 1, len, NULL) != IBF_PRODUCE_OK) {
        fprintf(stderr, "lay out failed\n");
        exit(1);
    }
    return image;
}

int main(void) {
    size_t len1 = 0;
    size_t len2 = 0;
    unsigned char *one = laid_out(first, &len1);
    unsigned char *two = laid_out(second, &len2);
    size_t len = len1 > len2 ? len1 : len2;
    /* A mapping of 8-byte words, sized for the larger image. */
    uint64_t *words = (uint64_t *)calloc(len / 8U + 1U, 8U);
    ibf_bridge_header *h = (ibf_bridge_header *)(void *)words;
    ibf_attached host;
    ibf_attach_error err;
    uint8_t owner = IBF_NO_PAD;
    uint8_t pads[IBF_MAX_PLAYERS];
    int rc;
    unsigned i;
    if (words == NULL || ibf_produce_attached(words, len, one, len1, &host, &err) != IBF_PRODUCE_OK) {
        fprintf(stderr, "produce failed\n");
        return 1;
    }
    /* The host's own fields, set while it runs (this test is its only thread). */
    h->controls.move = IBF_CONTROL_STICK_DPAD;
    h->controls.min_press_ticks = 3U;
    h->controls.pause = 0x0400U;
    h->controls.back = 0x0800U;
    h->lockstep_timeout_ms = 1234U;
    ibf_bridge_header_store_run_mode(h, IBF_RUN_MODE_LOCKSTEP);
    ibf_bridge_header_store_sim_state(h, IBF_SIM_STATE_PAUSED);
    (void)ibf_bridge_header_compare_exchange_pad_owner_at(h, 0, &owner, IBF_PAD_NOT_BOT);
    owner = IBF_NO_PAD;
    (void)ibf_bridge_header_compare_exchange_pad_owner_at(h, 1, &owner, 3U); /* row 3's claim */
    /* An image too short for the kept fields is refused, nothing written. */
    if (ibf_relayout_keep(words, len, two, 16U) != IBF_PRODUCE_BUFFER_TOO_SHORT) {
        fprintf(stderr, "a 16-byte image was not refused\n");
        return 1;
    }
    rc = ibf_relayout(words, len, two, len2, &host, &err);
    printf("relayout rc=%d ring_slots=%u generation=%u\n", rc, (unsigned)h->ring_slots,
           (unsigned)h->host_generation);
    printf("controls move=%u min_press_ticks=%u pause=%u back=%u\n", (unsigned)h->controls.move,
           (unsigned)h->controls.min_press_ticks, (unsigned)h->controls.pause,
           (unsigned)h->controls.back);
    printf("run_mode=%u sim_state=%u lockstep_timeout_ms=%u\n",
           (unsigned)ibf_bridge_header_load_run_mode(h), (unsigned)ibf_bridge_header_load_sim_state(h),
           (unsigned)h->lockstep_timeout_ms);
    ibf_bridge_header_load_pad_owner(h, pads);
    printf("pad_owner");
    for (i = 0; i < IBF_MAX_PLAYERS; i++) {
        printf(" %u", (unsigned)pads[i]);
    }
    printf("\n");
    free(one);
    free(two);
    free(words);
    return 0;
}
