/* Internal helpers shared by the BVH reader and writer (not part of the public API). */
#ifndef AK_IO_BVH_INTERNAL_H
#define AK_IO_BVH_INTERNAL_H

#include "animkit/bvh.h"

/* Reads a whole file into a malloc'ed buffer (not NUL-terminated). Fails with AK_ERR_IO when
 * it cannot be opened or read, AK_ERR_LIMIT when it is larger than max_bytes. */
int32_t akbvh_read_whole_file(const char *path, int64_t max_bytes, char **out_data,
                              size_t *out_size, ak_error *err);

#endif
