/* libFuzzer target for the BVH reader: any bytes must give either a clean error or a
 * skeleton + clip that the writer can write and the reader can read back identically
 * shaped. Limits are kept small so a short input cannot ask for huge memory. */
#include "animkit/bvh.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ak_bvh_limits lim = ak_bvh_limits_defaults();
    lim.max_joints = 256;
    lim.max_frames = 4096;
    lim.max_bytes = 1 << 20;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error err;
    int32_t st = ak_bvh_read_memory((const char *)data, size, &lim, &s, &c, &err);
    if (st != AK_OK) {
        if (s || c || err.status != st || err.message[0] == '\0') abort();
        return 0;
    }
    if (!s || !c || s->joint_count != c->joint_count) abort();
    for (int order = 0; order < 6; order += 5) {
        char *text = NULL;
        size_t text_size = 0;
        if (ak_bvh_write_memory(s, c, (ak_rot_order)order, &text, &text_size, &err) != AK_OK) {
            /* Only names the writer cannot represent may fail; the reader never makes them. */
            abort();
        }
        ak_skeleton *s2 = NULL;
        ak_clip *c2 = NULL;
        lim.max_bytes = (int64_t)text_size + 1;
        if (ak_bvh_read_memory(text, text_size, &lim, &s2, &c2, &err) != AK_OK) abort();
        if (s2->joint_count != s->joint_count || c2->frame_count != c->frame_count) abort();
        for (int32_t j = 0; j < s->joint_count; ++j)
            if (strcmp(s->names[j], s2->names[j]) != 0 || s->parents[j] != s2->parents[j]) abort();
        ak_skeleton_destroy(s2);
        ak_clip_destroy(c2);
        ak_free(text);
    }
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return 0;
}
