/* Chain reach of a skeleton + clip; see reach.h. */
#include "anim/reach.h"

#include <math.h>
#include <stdlib.h>

static double length(ak_vec3 v)
{
    return sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
}

int32_t akanim_first_joint_beyond(const ak_skeleton *s, const ak_clip *clip, double limit,
                                  double *reach_out)
{
    const int32_t n = s->joint_count;
    double *reach = (double *)malloc(sizeof(double) * (size_t)n);
    if (!reach) return -2;
    int32_t found = -1;
    for (int32_t j = 0; j < n && found < 0; ++j) {
        double longest = length(s->rest_local[j].translation);
        const int32_t track = clip && j < clip->joint_count ? clip->joint_track[j] : -1;
        for (int32_t f = 0; track >= 0 && f < clip->frame_count; ++f) {
            const double len =
                length(clip->translations[(size_t)f * (size_t)clip->track_count + (size_t)track]);
            if (len > longest || isnan(len)) longest = isnan(len) ? INFINITY : len;
        }
        const int32_t p = s->parents[j];
        reach[j] = (p >= 0 ? reach[p] : 0.0) + longest;
        if (!(reach[j] <= limit)) {
            found = j;
            if (reach_out) *reach_out = reach[j];
        }
    }
    free(reach);
    return found;
}
