/* Where each traced byte's last atomic access began (from trace_base) and its width. */
#include <stddef.h>
#include <stdint.h>

struct chunk {
    int32_t start;
    uint8_t size;
};

extern struct chunk *trace;
extern const unsigned char *trace_base;
extern size_t trace_len;
