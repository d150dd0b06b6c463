/* libFuzzer target: the glTF skin reader (JSON and GLB, with the JSON reader under it) on
 * arbitrary bytes. Any input must give a skeleton or a status, never a crash, a leak or
 * undefined behaviour; a skeleton it gives must have finite rest transforms. */
#include "animkit/gltf.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ak_skeleton *s = NULL;
    ak_error err;
    if (ak_gltf_read_skin_memory(data, size, NULL, 0, &s, &err) == AK_OK) {
        for (int32_t j = 0; j < s->joint_count; ++j) {
            const ak_xform *x = &s->rest_local[j];
            if (!isfinite(x->translation.x) || !isfinite(x->translation.y) ||
                !isfinite(x->translation.z) || !isfinite(x->rotation.w))
                abort();
        }
        ak_skeleton_destroy(s);
    }
    return 0;
}
