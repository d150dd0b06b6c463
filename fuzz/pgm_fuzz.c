/* libFuzzer target: the PGM heightmap reader. Any input either fails with a status and a
 * message or gives a terrain whose samples are finite; never a crash, leak or overflow. */
#include "animkit/ground.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ak_terrain *t = NULL;
    ak_error err;
    const int32_t st = ak_terrain_read_pgm_memory((const char *)data, size, 10.0f, 2.0f, &t, &err);
    if (st != AK_OK) {
        if (t) abort(); /* nothing partial on failure */
        return 0;
    }
    for (int i = 0; i <= 10; ++i) {
        ak_ground_hit h;
        const float x = -5.0f + (float)i, z = 5.0f - (float)i * 0.7f;
        if (!ak_terrain_sample(t, x, z, &h)) abort(); /* inside the extent there is ground */
        if (!isfinite(h.height) || !isfinite(h.normal.x) || !isfinite(h.normal.y) ||
            !isfinite(h.normal.z))
            abort();
        if (h.height < -1e-4f || h.height > 2.0001f) abort(); /* v/maxval*H stays in [0, H] */
    }
    ak_terrain_destroy(t);
    return 0;
}
