#include "animkit/bvh.h"
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
