/* BVH reader/writer — placeholder, replaced by the real implementation. */
#include "animkit/bvh.h"

#include <stdlib.h>

ak_bvh_limits ak_bvh_limits_defaults(void)
{
    ak_bvh_limits l = {1024, 1000000, (int64_t)512 << 20};
    return l;
}

int32_t ak_bvh_read_file(const char *path, const ak_bvh_limits *limits, ak_skeleton **s,
                         ak_clip **c, ak_error *err)
{
    (void)path; (void)limits;
    if (s) *s = NULL;
    if (c) *c = NULL;
    return ak_error_set(err, AK_ERR_STATE, 0, "BVH reader not implemented");
}

int32_t ak_bvh_read_memory(const char *text, size_t size, const ak_bvh_limits *limits,
                           ak_skeleton **s, ak_clip **c, ak_error *err)
{
    (void)text; (void)size;
    return ak_bvh_read_file(NULL, limits, s, c, err);
}

int32_t ak_bvh_write_file(const char *path, const ak_skeleton *s, const ak_clip *c,
                          ak_rot_order order, ak_error *err)
{
    (void)path; (void)s; (void)c; (void)order;
    return ak_error_set(err, AK_ERR_STATE, 0, "BVH writer not implemented");
}

int32_t ak_bvh_write_memory(const ak_skeleton *s, const ak_clip *c, ak_rot_order order,
                            char **out_text, size_t *out_size, ak_error *err)
{
    (void)s; (void)c; (void)order; (void)out_text; (void)out_size;
    return ak_error_set(err, AK_ERR_STATE, 0, "BVH writer not implemented");
}

void ak_free(void *p) { free(p); }
