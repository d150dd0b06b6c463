/* libFuzzer target: the glTF clip reader (JSON and GLB framing, accessors of every component
 * type, sparse substitution, node trees, samplers, resampling) on arbitrary bytes. Any input
 * must give a skeleton and clip or a status, never a crash, a leak or undefined behaviour; a
 * clip it gives must have finite keys. Frames are capped (max_frames 2000) so a key time of
 * 1e6 s is a quick AK_ERR_LIMIT, not minutes of resampling. */
#include "animkit/gltf.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static int finite_quat(ak_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    ak_gltf_clip_params p = ak_gltf_clip_defaults();
    p.max_frames = 2000;
    p.skin = (int32_t)(size % 3) - 2; /* node tree, automatic, skin 0 */
    if (ak_gltf_read_clip_memory(data, size, NULL, &p, &s, &c, NULL, &err) == AK_OK) {
        const size_t n = (size_t)c->frame_count * (size_t)c->joint_count;
        for (size_t i = 0; i < n; ++i)
            if (!finite_quat(c->rotations[i])) abort();
        for (size_t i = 0; i < (size_t)c->frame_count * (size_t)c->track_count; ++i)
            if (!isfinite(c->translations[i].x + c->translations[i].y + c->translations[i].z))
                abort();
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
    return 0;
}
