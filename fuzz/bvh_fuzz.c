/* libFuzzer target for the BVH reader: any bytes must give either a clean error or a
 * skeleton + clip that the writers can write and the readers can read back (issue 10's
 * writer round trip): BVH in two rotation orders back to the same shape, offsets and frame
 * time bit for bit; glTF (JSON or GLB) back through the glTF reader with the same joints,
 * names kept when they were UTF-8. Limits are kept small so a short input cannot ask for
 * huge memory. */
#include "animkit/bvh.h"
#include "animkit/gltf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Length of the valid UTF-8 sequence at p, 0 when there is none (RFC 3629). */
static int utf8_valid(const unsigned char *p)
{
    while (*p) {
        int n = *p < 0x80                  ? 1
                : *p >= 0xC2 && *p <= 0xDF ? 2
                : *p >= 0xE0 && *p <= 0xEF ? 3
                : *p >= 0xF0 && *p <= 0xF4 ? 4
                                           : 0;
        if (!n) return 0;
        for (int i = 1; i < n; ++i)
            if ((p[i] & 0xC0) != 0x80) return 0;
        if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F) ||
            (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] > 0x8F))
            return 0;
        p += n;
    }
    return 1;
}

/* Everything the glTF writer writes, the glTF reader reads: the skin's joints in order
 * (after the wrapper root the writer adds for several roots), UTF-8 names unchanged. The
 * writer may refuse only values that overflow when scaled and names the readers would refuse
 * once written as UTF-8 (a BVH name's Latin-1 bytes double). */
static void gltf_round_trip(const ak_skeleton *s, const ak_clip *c, int binary)
{
    uint8_t *doc = NULL;
    size_t doc_size = 0;
    ak_error err;
    ak_gltf_params o = ak_gltf_defaults();
    o.with_mesh = binary; /* the mesh on half the inputs: both paths stay fast */
    int32_t st = ak_gltf_write_memory(s, c, &o, binary, &doc, &doc_size, &err);
    if (st != AK_OK) {
        if (st != AK_ERR_INVALID_ARG ||
            (!strstr(err.message, "overflow") && !strstr(err.message, "once written as UTF-8")))
            abort();
        return;
    }
    ak_skeleton *g = NULL;
    if (ak_gltf_read_skin_memory(doc, doc_size, NULL, 0, &g, &err) != AK_OK) abort();
    int32_t roots = 0;
    for (int32_t j = 0; j < s->joint_count; ++j)
        roots += s->parents[j] < 0;
    const int32_t skip = roots > 1 ? 1 : 0;
    if (g->joint_count != s->joint_count + skip) abort();
    for (int32_t j = 0; j < s->joint_count; ++j)
        if (utf8_valid((const unsigned char *)s->names[j]) &&
            strcmp(s->names[j], g->names[j + skip]) != 0)
            abort();
    ak_skeleton_destroy(g);
    ak_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ak_bvh_read_params lim = ak_bvh_read_defaults();
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
        if (c2->frame_time != c->frame_time) abort();
        for (int32_t j = 0; j < s->joint_count; ++j) {
            if (strcmp(s->names[j], s2->names[j]) != 0 || s->parents[j] != s2->parents[j]) abort();
            if (memcmp(&s->rest_local[j].translation, &s2->rest_local[j].translation,
                       sizeof(ak_vec3)) != 0 &&
                !(s->rest_local[j].translation.x == s2->rest_local[j].translation.x &&
                  s->rest_local[j].translation.y == s2->rest_local[j].translation.y &&
                  s->rest_local[j].translation.z == s2->rest_local[j].translation.z))
                abort(); /* %.9g round-trips every float (-0 may come back as 0) */
        }
        ak_skeleton_destroy(s2);
        ak_clip_destroy(c2);
        ak_free(text);
    }
    gltf_round_trip(s, c, (int)(size & 1));
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    return 0;
}
