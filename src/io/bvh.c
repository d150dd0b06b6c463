/* BVH module: limits and the buffer release function. The reader is in bvh_read.c, the
 * writer in bvh_write.c, the number parser in bvh_number.h. */
#include "animkit/bvh.h"

#include <stdlib.h>

ak_bvh_read_params ak_bvh_read_defaults(void)
{
    ak_bvh_read_params l;
    l.max_joints = 1024;
    l.max_frames = 1000000;
    l.max_bytes = (int64_t)512 << 20;
    l.up = AK_UP_AUTO;
    return l;
}

int32_t ak_bvh_read_validate(const ak_bvh_read_params *l, ak_error *err)
{
    if (!l) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null ak_bvh_read_params");
    if (l->max_joints < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_joints = %d: must be >= 1",
                            (int)l->max_joints);
    if (l->max_frames < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_frames = %d: must be >= 1",
                            (int)l->max_frames);
    if (l->max_bytes < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_bytes = %lld: must be >= 1",
                            (long long)l->max_bytes);
    if (l->up != AK_UP_AUTO && l->up != AK_UP_Y && l->up != AK_UP_Z)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "up = %d: must be AK_UP_AUTO (0), AK_UP_Y (1) or AK_UP_Z (2)",
                            (int)l->up);
    return AK_OK;
}

void ak_free(void *p)
{
    free(p);
}
