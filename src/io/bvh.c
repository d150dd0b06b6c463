/* BVH module: limits and the buffer release function. The reader is in bvh_read.c, the
 * writer in bvh_write.c, the number parser in bvh_number.h. */
#include "animkit/bvh.h"

#include <stdlib.h>

ak_bvh_limits ak_bvh_limits_defaults(void)
{
    ak_bvh_limits l;
    l.max_joints = 1024;
    l.max_frames = 1000000;
    l.max_bytes = (int64_t)512 << 20;
    return l;
}

void ak_free(void *p)
{
    free(p);
}
