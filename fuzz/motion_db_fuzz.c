/* libFuzzer target: the motion database blob reader (header, counts, skeleton, humanoid map,
 * per-frame arrays, normalisation, foot calibration, the search arrays rebuilt on load).
 * Each input is loaded twice: as given (the header checks: magic, version, sizes, reserved
 * word, checksum), and with its payload size and CRC-32 rewritten to match its bytes, so a
 * mutation reaches the index and range checks behind the checksum instead of stopping at it.
 * Any input must give a database or a status with a message, never a crash, a leak or
 * undefined behaviour; a database it gives must drive a matcher to finite poses (a blob with
 * a correct checksum and a rotation key of -1.7e38 once walked to -inf within 48 frames).
 * Seed: the built-in walk clip's database at 10 fps, two cycles (ak_walk_clip_create, then
 * ak_motion_db_create with frame_rate 10 and loops 2: 23 frames, 26 joints, 16,217 bytes). */
#include "animkit/matching.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* CRC-32 (IEEE, reflected 0xEDB88320) with a byte table built once, independent of the
 * reader's nibble table (a bit-by-bit loop under coverage instrumentation cost most of each
 * run). */
static uint32_t crc32_ref(const uint8_t *p, size_t n)
{
    static uint32_t table[256];
    if (table[1] == 0)
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
            table[i] = c;
        }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i)
        c = (c >> 8) ^ table[(c ^ p[i]) & 0xffu];
    return ~c;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A few matcher frames over a loaded database: every joint finite. */
static void walk_finite(const ak_motion_db *db)
{
    ak_matcher_params p = ak_matcher_defaults();
    p.target = ak_vec3_make(3.0f, 0.0f, 4.0f);
    ak_matcher *m = NULL;
    if (ak_matcher_create(db, &p, NULL, &m, NULL) != AK_OK) return;
    const int32_t J = ak_skeleton_joint_count(ak_motion_db_skeleton(db));
    for (int f = 0; f < 8; ++f) {
        if (ak_matcher_step(m, 1.0f / 60.0f, NULL, NULL) != AK_OK) break;
        const ak_xform *w = ak_matcher_world_pose(m);
        for (int32_t j = 0; j < J; ++j)
            if (!isfinite(w[j].translation.x + w[j].translation.y + w[j].translation.z) ||
                !isfinite(w[j].rotation.x + w[j].rotation.y + w[j].rotation.z + w[j].rotation.w))
                abort();
    }
    ak_matcher_destroy(m);
}

static void load_one(const uint8_t *data, size_t size)
{
    ak_motion_db *db = NULL;
    ak_error err;
    err.message[0] = '\0';
    if (ak_motion_db_load_memory(data, size, &db, &err) == AK_OK) {
        walk_finite(db);
        ak_motion_db_destroy(db);
    } else if (db != NULL || err.message[0] == '\0') {
        abort(); /* a refusal gives no object and says why */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_one(data, size);
    if (size < 32) return 0;
    uint8_t *b = (uint8_t *)malloc(size);
    if (!b) return 0;
    memcpy(b, data, size);
    const uint64_t n = (uint64_t)(size - 32);
    put_le32(b + 16, (uint32_t)n);
    put_le32(b + 20, (uint32_t)(n >> 32));
    put_le32(b + 24, crc32_ref(b + 32, size - 32));
    load_one(b, size);
    free(b);
    return 0;
}
