/* Pose blending: per-joint slerp/lerp of two local poses with a weight and an optional mask. */
#include "animkit/clip.h"
#include "core/xform_inline.h"

void ak_pose_blend(const ak_xform *a, const ak_xform *b, int32_t n, float weight, const float *mask,
                   ak_xform *out)
{
    if (!a || !b || !out || n <= 0) return;
    for (int32_t j = 0; j < n; ++j) {
        float w = weight * (mask ? mask[j] : 1.0f);
        if (!(w > 0.0f)) {
            out[j] = a[j];
            continue;
        }
        if (w >= 1.0f) {
            out[j] = b[j];
            continue;
        }
        ak_xform r;
        r.rotation = akq_slerp(a[j].rotation, b[j].rotation, w);
        r.translation = akv_lerp(a[j].translation, b[j].translation, w);
        out[j] = r;
    }
}
