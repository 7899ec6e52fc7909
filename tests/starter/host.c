/* The starter's host (tests/starter_protocols.rs): lays out an image with lay_out's
 * defaults into a new file, publishes the state under its seqlock and one event, prints
 * "ready", then serves the mailbox, drains the log queue and frees closed session rows until
 * it has answered `want` requests, popped `want` entries and freed `want` rows (or 20 s
 * passed: exit 1). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "starter.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        return 2;
    }
    int want = atoi(argv[2]);
    size_t len = 0;
    st_attach_error error;
    (void)st_lay_out(NULL, 0, NULL, 0, 1, &len, &error);
    unsigned char *image = malloc(len);
    if (image == NULL || st_lay_out(image, len, NULL, 0, 1, &len, &error) != ST_PRODUCE_OK) {
        fprintf(stderr, "lay out: %s %s\n", error.check_name, error.region);
        return 1;
    }
    int fd = open(argv[1], O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
        perror(argv[1]);
        return 1;
    }
    void *shared = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    st_attached host;
    if (shared == MAP_FAILED || st_produce_attached(shared, len, image, len, &host, &error) != ST_PRODUCE_OK) {
        fprintf(stderr, "produce: %s\n", shared == MAP_FAILED ? "mmap" : error.check_name);
        return 1;
    }
    free(image);
    st_state state;
    memset(&state, 0, sizeof state);
    state.mode = 2;
    state.tick = 7;
    st_state_lock_write(st_attached_state(&host), &state);
    /* One event: its entry, then the total (release) that publishes it. */
    st_events *events = st_attached_events(&host);
    __atomic_store_n(&events->entries[0], (uint64_t)42, __ATOMIC_RELAXED);
    st_events_store_total(events, 1);
    printf("ready\n");
    fflush(stdout);

    void *mailbox = st_attached_mailbox(&host);
    size_t mailbox_len = (size_t)st_attached_mailbox_size(&host);
    void *queue = st_attached_log_queue(&host);
    size_t queue_len = (size_t)st_attached_log_queue_size(&host);
    st_sessions *sessions = st_attached_sessions(&host);
    size_t sessions_len = (size_t)st_attached_sessions_size(&host);
    int answered = 0, popped = 0, freed = 0;
    const struct timespec ms = {0, 1000000};
    for (int polls = 0; polls < 20000 && (answered < want || popped < want || freed < want); polls++) {
        char request[256];
        size_t n = 0;
        uint32_t seq = 0;
        int rc = st_commands_serve_begin(mailbox, mailbox_len, request, sizeof request - 1, &n, &seq);
        if (rc == ST_OK) {
            char answer[300];
            int m = snprintf(answer, sizeof answer, "pong %.*s", (int)n, request);
            if (st_commands_serve_answer(mailbox, mailbox_len, seq, ST_STATUS_OK, answer, (size_t)m) != ST_OK) {
                return 1;
            }
            printf("answered %.*s\n", (int)n, request);
            answered++;
        } else if (rc != ST_PENDING) {
            fprintf(stderr, "mailbox: %d\n", rc);
            return 1;
        }
        st_log_queue_record record;
        rc = st_log_queue_pop(queue, queue_len, &record);
        if (rc == ST_OK) {
            printf("logged %s: %s\n", record.source, record.text);
            popped++;
        } else if (rc != ST_EMPTY) {
            fprintf(stderr, "queue: %d\n", rc);
            return 1;
        }
        for (uint32_t row = 0; row < ST_MAX_CLIENTS; row++) {
            if (st_client_row_load_state(&sessions->rows[row]) == ST_ROW_STATE_CLOSING &&
                st_client_free(sessions, sessions_len, row, NULL) == ST_OK) {
                printf("freed row %u\n", (unsigned)row);
                freed++;
            }
        }
        fflush(stdout);
        nanosleep(&ms, NULL);
    }
    return answered == want && popped == want && freed == want ? 0 : 1;
}
