/* Internal: the one growth rule of io's text and byte buffers (BVH text, glTF JSON and
 * binary): capacities double from 4096 until the request fits. */
#ifndef AK_IO_GROW_H
#define AK_IO_GROW_H

#include "animkit/ak_config.h"

#include <stdlib.h>

/* Makes the heap block *data (capacity *cap, NULL/0 for none yet) hold at least `need`
 * bytes. 0 on success; -1 when out of memory, with *data and *cap unchanged. */
AK_INLINE int akio_grow(void **data, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c *= 2;
    void *p = realloc(*data, c);
    if (!p) return -1;
    *data = p;
    *cap = c;
    return 0;
}

#endif
