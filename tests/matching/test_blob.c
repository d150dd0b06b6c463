/* The motion database blob: a round trip gives the same database (searches, poses, names),
 * numbers are little-endian on every machine, and a damaged blob is refused with a reason,
 * never half-loaded. */
#include "match_util.h"
#include "locomotion/studio_variants.h"
#include "matching/internal.h"

static akt_sources g_src;
static ak_motion_db *g_db;
static unsigned char *g_blob;
static size_t g_size;

static int setup(void **state)
{
    (void)state;
    g_db = akt_db_of(&g_src, akt_subject2, AKT_SUBJECT2_COUNT);
    if (!g_db) return -1;
    g_size = ak_motion_db_blob_size(g_db);
    g_blob = (unsigned char *)malloc(g_size);
    return g_blob && ak_motion_db_save_memory(g_db, g_blob, g_size, NULL) == AK_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(g_blob);
    ak_motion_db_destroy(g_db);
    akt_sources_free(&g_src);
    return 0;
}

/* CRC-32 (IEEE), bit by bit: the blob's checksum, computed independently. */
static uint32_t crc32_ref(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void same_database(const ak_motion_db *a, const ak_motion_db *b)
{
    ak_motion_db_info ia, ib;
    ak_motion_db_get_info(a, &ia);
    ak_motion_db_get_info(b, &ib);
    assert_memory_equal(&ia, &ib, sizeof ia);
    const int32_t J = ia.joint_count;
    ak_xform *pa = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2), *pb = pa + J;
    assert_non_null(pa);
    for (int32_t f = 0; f < ia.frame_count; ++f) {
        ak_motion_db_pose(a, f, pa);
        ak_motion_db_pose(b, f, pb);
        assert_memory_equal(pa, pb, sizeof(ak_xform) * (size_t)J);
        assert_int_equal(ak_motion_db_contact(a, f, 0), ak_motion_db_contact(b, f, 0));
        assert_int_equal(ak_motion_db_is_candidate(a, f), ak_motion_db_is_candidate(b, f));
    }
    free(pa);
    const ak_skeleton *sa = ak_motion_db_skeleton(a), *sb = ak_motion_db_skeleton(b);
    for (int32_t j = 0; j < J; ++j) {
        assert_string_equal(sa->names[j], sb->names[j]);
        assert_int_equal(sa->parents[j], sb->parents[j]);
    }
    assert_string_equal(ak_motion_db_clip_name(a, 1), ak_motion_db_clip_name(b, 1));
    assert_memory_equal(ak_motion_db_root_joint(a), ak_motion_db_root_joint(b),
                        sizeof(ak_root_joint_report));
    akt_rng rng = {12345};
    float raw[AK_MATCH_FEATURES], q[AK_MATCH_FEATURES];
    for (int i = 0; i < 300; ++i) {
        ak_motion_db_features(a, (int32_t)(akt_next(&rng) % (uint64_t)ia.frame_count), raw);
        ak_motion_db_normalize(a, raw, q);
        for (int k = 0; k < AK_MATCH_FEATURES; ++k)
            q[k] += akt_uniform(&rng, -1.0f, 1.0f);
        for (int mode = 0; mode < 2; ++mode) {
            ak_match_result ra, rb;
            ak_motion_db_search(a, q, mode, INFINITY, &ra);
            ak_motion_db_search(b, q, mode, INFINITY, &rb);
            assert_int_equal(ra.frame, rb.frame);
            assert_true(ra.cost == rb.cost);
        }
    }
}

static void blob_round_trips_in_memory_and_through_a_file(void **state)
{
    (void)state;
    ak_motion_db *back = NULL;
    ak_error err;
    assert_int_equal(ak_motion_db_load_memory(g_blob, g_size, &back, &err), AK_OK);
    same_database(g_db, back);
    ak_motion_db_destroy(back);
    char path[1200];
    const char *b = getenv("AK_BUILD_DIR");
    snprintf(path, sizeof path, "%s/subject2.akmdb", b ? b : ".");
    assert_int_equal(ak_motion_db_save_file(g_db, path, &err), AK_OK);
    assert_int_equal(ak_motion_db_load_file(path, &back, &err), AK_OK);
    same_database(g_db, back);
    ak_motion_db_destroy(back);
    remove(path);
    printf("blob: %zu bytes\n", g_size);
}

/* Header and a float field spelled out byte by byte, as a big-endian machine must write
 * them too: version 3 as 03 00 00 00, the frame time 1/60 (IEEE 0x3C888889) as 89 88 88 3C. */
static void blob_numbers_are_little_endian(void **state)
{
    (void)state;
    assert_memory_equal(g_blob, "AKMDB\r\n\x1a", 8);
    const unsigned char v3[4] = {3, 0, 0, 0}, h32[4] = {32, 0, 0, 0};
    assert_memory_equal(g_blob + 8, v3, 4);
    assert_memory_equal(g_blob + 12, h32, 4);
    assert_int_equal(le32(g_blob + 16), (uint32_t)(g_size - 32));
    assert_int_equal(le32(g_blob + 24), crc32_ref(g_blob + 32, g_size - 32));
    const unsigned char ft[4] = {0x89, 0x88, 0x88, 0x3c};
    assert_memory_equal(g_blob + 32 + 20, ft, 4); /* after five counts */
    const unsigned char joints[4] = {38, 0, 0, 0};
    assert_memory_equal(g_blob + 32, joints, 4);
}

static int32_t load_copy(const unsigned char *b, size_t n, ak_error *err)
{
    ak_motion_db *db = (ak_motion_db *)1;
    const int32_t st = ak_motion_db_load_memory(b, n, &db, err);
    if (st != AK_OK) assert_null(db);
    ak_motion_db_destroy(st == AK_OK ? db : NULL);
    return st;
}

static void damaged_blobs_are_refused_with_a_reason(void **state)
{
    (void)state;
    unsigned char *b = (unsigned char *)malloc(g_size);
    assert_non_null(b);
    ak_error err;
    /* one flipped payload bit: the checksum */
    memcpy(b, g_blob, g_size);
    b[g_size / 2] ^= 0x10;
    assert_int_equal(load_copy(b, g_size, &err), AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "checksum"));
    /* truncated anywhere */
    for (size_t n = 0; n < g_size; n += 1 + n / 3)
        assert_int_equal(load_copy(g_blob, n, &err), AK_ERR_PARSE);
    /* another version: the last one (2, without the root-motion joint's report) */
    memcpy(b, g_blob, g_size);
    b[8] = 2;
    assert_int_equal(load_copy(b, g_size, &err), AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "version 2, this animkit reads version 3"));
    /* a joint count that does not fit the bytes, with a valid checksum */
    memcpy(b, g_blob, g_size);
    b[32] = 39;
    const uint32_t crc = crc32_ref(b + 32, g_size - 32);
    for (int i = 0; i < 4; ++i)
        b[24 + i] = (unsigned char)(crc >> (8 * i));
    assert_int_equal(load_copy(b, g_size, &err), AK_ERR_PARSE);
    /* 200 random byte changes, checksum fixed up: refused or loaded, never a crash */
    akt_rng rng = {777};
    int refused = 0;
    for (int i = 0; i < 200; ++i) {
        memcpy(b, g_blob, g_size);
        const size_t at = 32 + (size_t)(akt_next(&rng) % (uint64_t)(g_size - 32));
        b[at] = (unsigned char)akt_next(&rng);
        const uint32_t c = crc32_ref(b + 32, g_size - 32);
        for (int k = 0; k < 4; ++k)
            b[24 + k] = (unsigned char)(c >> (8 * k));
        refused += load_copy(b, g_size, &err) != AK_OK;
    }
    printf("%d of 200 damaged blobs refused (the rest changed a finite value, not a structure)\n",
           refused);
    /* a buffer too small to save into */
    assert_int_equal(ak_motion_db_save_memory(g_db, b, g_size - 1, &err), AK_ERR_LIMIT);
    free(b);
}

/* The file goes through the io layer's one reader (akio_read_file, whose size limit and
 * 32-bit bound tests/io/test_file_read.c covers): a folder or a missing file is refused with
 * the path and the reason, and nothing is returned. */
static void blob_file_errors_name_the_path_and_reason(void **state)
{
    (void)state;
    ak_error err;
    ak_motion_db *db = (ak_motion_db *)&err; /* must be reset to NULL */
    assert_int_equal(ak_motion_db_load_file(".", &db, &err), AK_ERR_IO);
    assert_null(db);
    assert_non_null(strstr(err.message, ".: not a regular file"));
    assert_int_equal(ak_motion_db_load_file("no-such.akdb", &db, &err), AK_ERR_IO);
    assert_null(db);
    assert_non_null(strstr(err.message, "no-such.akdb: cannot open: "));
}

static void fix_crc(unsigned char *b)
{
    const uint32_t c = crc32_ref(b + 32, g_size - 32);
    for (int k = 0; k < 4; ++k)
        b[24 + k] = (unsigned char)(c >> (8 * k));
}

static void put_f32_le(unsigned char *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int k = 0; k < 4; ++k)
        p[k] = (unsigned char)(u >> (8 * k));
}

/* Byte offset of the first rotation key in the blob: header 32, counts 32, skeleton
 * J * (64 name + 4 parent + 28 rest + 8 channels), humanoid map, track joints. */
static size_t rotation_keys_at(void)
{
    const size_t J = le32(g_blob + 32), T = le32(g_blob + 40);
    return 32 + 32 + J * 104 + 4 * AK_HUM_SLOT_COUNT + 4 * T;
}

/* Issue 26: a blob with a correct checksum but one finite, absurd value loaded and walked the
 * matcher to -inf poses within 48 frames; a stale header with a non-zero reserved word
 * loaded too. Now loaded values are range-checked like parameters. */
static void blob_values_are_range_checked_like_parameters(void **state)
{
    (void)state;
    unsigned char *b = (unsigned char *)malloc(g_size);
    assert_non_null(b);
    ak_error err;
    memcpy(b, g_blob, g_size);
    put_f32_le(b + rotation_keys_at(), -1.7e38f);
    fix_crc(b);
    assert_int_equal(load_copy(b, g_size, &err), AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "not a unit quaternion"));
    /* the message names its subject once */
    assert_ptr_equal(strstr(err.message, "motion database blob"), err.message);
    assert_null(strstr(err.message + 1, "motion database blob"));
    memcpy(b, g_blob, g_size);
    put_f32_le(b + rotation_keys_at(), 0.5f); /* finite, small, and not unit */
    fix_crc(b);
    assert_int_equal(load_copy(b, g_size, &err), AK_ERR_PARSE);
    memcpy(b, g_blob, g_size);
    b[28] = 1; /* the reserved word */
    assert_int_equal(load_copy(b, g_size, &err), AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "reserved word"));
    /* a translation key of 1e38 (the root's track: the first after the rotations) */
    memcpy(b, g_blob, g_size);
    const size_t F = le32(g_blob + 36), J = le32(g_blob + 32);
    put_f32_le(b + rotation_keys_at() + F * J * 16, 1e38f);
    fix_crc(b);
    assert_int_equal(load_copy(b, g_size, &err), AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "beyond the bounds"));
    free(b);
}

/* Drives a matcher over db for 60 frames (0.5 s at 120 fps) toward (3, 0, 4): the first frame
 * with a joint not finite, or -1 (also when the matcher refuses the database with a reason). */
static int walk_non_finite_frame(const ak_motion_db *db)
{
    ak_matcher_params p = ak_matcher_defaults();
    p.target = ak_vec3_make(3.0f, 0.0f, 4.0f);
    ak_matcher *m = NULL;
    ak_error err;
    err.message[0] = '\0';
    if (ak_matcher_create(db, &p, NULL, &m, &err) != AK_OK) {
        assert_null(m);
        assert_true(err.message[0] != '\0');
        return -1;
    }
    const int32_t J = ak_skeleton_joint_count(ak_motion_db_skeleton(db));
    int bad = -1;
    for (int f = 0; f < 60 && bad < 0; ++f) {
        if (ak_matcher_step(m, 1.0f / 120.0f, NULL, &err) != AK_OK) break;
        const ak_xform *w = ak_matcher_world_pose(m);
        for (int32_t j = 0; j < J; ++j)
            if (!isfinite(w[j].translation.x) || !isfinite(w[j].translation.y) ||
                !isfinite(w[j].translation.z) || !isfinite(w[j].rotation.w))
                bad = f;
    }
    ak_matcher_destroy(m);
    return bad;
}

/* The class: 400 blobs, each with one float of the payload (4-byte aligned, anywhere after the
 * counts) set to an absurd finite value and the checksum fixed. Each is refused, or loads and
 * then drives a matcher for 60 frames (0.5 s at 120 fps, past the 48 frames that reached -inf)
 * with every joint of every frame finite. */
static void blob_with_absurd_values_never_gives_a_non_finite_pose(void **state)
{
    (void)state;
    static const float absurd[] = {-1.7e38f, 1.7e38f, 1e20f, -1e20f, 1e6f, -1.0f, 2.0f, 1e-30f};
    unsigned char *b = (unsigned char *)malloc(g_size);
    assert_non_null(b);
    akt_rng rng = {2626};
    int loaded = 0, refused = 0;
    for (int i = 0; i < 400; ++i) {
        memcpy(b, g_blob, g_size);
        const size_t words = (g_size - 64) / 4;
        const size_t at = 64 + 4 * (size_t)(akt_next(&rng) % (uint64_t)words);
        put_f32_le(b + at, absurd[akt_next(&rng) % 8]);
        fix_crc(b);
        ak_motion_db *db = NULL;
        ak_error err;
        if (ak_motion_db_load_memory(b, g_size, &db, &err) != AK_OK) {
            assert_null(db);
            assert_true(err.message[0] != '\0');
            ++refused;
            continue;
        }
        ++loaded;
        const int bad = walk_non_finite_frame(db);
        if (bad >= 0)
            fail_msg("blob %d (float at byte %zu): a joint non-finite at frame %d", i, at, bad);
        ak_motion_db_destroy(db);
    }
    printf("%d of 400 blobs with an absurd value refused, %d loaded and walked finite\n", refused,
           loaded);
    free(b);
}

/* A humanoid map with a slot left out (-1) is a valid blob (a skeleton without knees or toes
 * may still be matched with foot IK off). CI's fuzz run found the matcher's planned hips reading
 * the bone length at joint -1 for a database without a left knee (heap overflow). Each of the
 * 21 slots left out in turn: refused with a reason, or loaded and walked finite. */
static void blob_with_a_humanoid_slot_left_out_loads_or_is_refused(void **state)
{
    (void)state;
    unsigned char *b = (unsigned char *)malloc(g_size);
    assert_non_null(b);
    const size_t J = le32(g_blob + 32);
    const size_t map_at = 32 + 32 + J * 104;
    int loaded = 0;
    for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot) {
        memcpy(b, g_blob, g_size);
        for (int k = 0; k < 4; ++k)
            b[map_at + 4 * (size_t)slot + k] = 0xff;
        fix_crc(b);
        ak_motion_db *db = NULL;
        ak_error err;
        if (ak_motion_db_load_memory(b, g_size, &db, &err) != AK_OK) {
            assert_null(db);
            assert_non_null(strstr(err.message, "motion database blob"));
            continue;
        }
        ++loaded;
        const int bad = walk_non_finite_frame(db);
        if (bad >= 0)
            fail_msg("humanoid slot %d left out: a joint non-finite at frame %d", slot, bad);
        ak_motion_db_destroy(db);
    }
    /* only the hips and the two feet are required of a blob's map */
    assert_int_equal(loaded, AK_HUM_SLOT_COUNT - 3);
    free(b);
}

/* The database keeps which joint carries its sources' travel, and why (ak_root_joint_find's
 * report, the walk scene's root_joint line): it repeated the database's rule before
 * (walk_scene_match.c). CMU 02_01 as captured (its top joint travels), under a joint_Root that
 * never moves (the hips travel: UNDER_STILL, the same report ak_root_joint_find gives the clip),
 * and with the hips named. Each report survives the blob; a report naming a joint the skeleton
 * has not, a top joint that is not above it, an unknown reason or a negative reach is refused. */
static void the_database_keeps_its_root_joint_through_the_blob(void **state)
{
    (void)state;
    static const struct {
        unsigned kinds;
        const char *named;
        int32_t reason;
    } cases[] = {{0, NULL, AK_ROOT_JOINT_TOP_TRAVELS},
                 {AKV_STILL_TOP, NULL, AK_ROOT_JOINT_UNDER_STILL},
                 {AKV_STILL_TOP, "Hips", AK_ROOT_JOINT_NAMED}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ak_skeleton *s = NULL;
        ak_clip *c = NULL;
        ak_error err;
        akv_make("cmu_02_01_walk.bvh", cases[k].kinds, &s, &c);
        ak_root_joint_report want;
        assert_int_equal(ak_root_joint_find(s, c, cases[k].named, &want, &err), AK_OK);
        const int32_t hips = ak_skeleton_find(s, "Hips");
        assert_int_equal(want.joint, cases[k].kinds ? hips : 0);
        assert_int_equal(want.top, 0);
        assert_int_equal(want.reason, cases[k].reason);
        ak_motion_db_params p = ak_motion_db_defaults();
        p.root_joint = cases[k].named;
        const ak_motion_db_clip dc = {c, 0, 0, 0, "02_01"};
        ak_motion_db *db = NULL;
        assert_int_equal(ak_motion_db_create(s, &dc, 1, &p, &db, &err), AK_OK);
        assert_memory_equal(ak_motion_db_root_joint(db), &want, sizeof want);
        const size_t n = ak_motion_db_blob_size(db);
        unsigned char *b = (unsigned char *)malloc(n);
        assert_non_null(b);
        assert_int_equal(ak_motion_db_save_memory(db, b, n, &err), AK_OK);
        ak_motion_db *back = NULL;
        assert_int_equal(ak_motion_db_load_memory(b, n, &back, &err), AK_OK);
        assert_memory_equal(ak_motion_db_root_joint(back), &want, sizeof want);
        char said[256];
        ak_root_joint_describe(ak_motion_db_skeleton(back), ak_motion_db_root_joint(back), said,
                               sizeof said);
        printf("root joint: %s\n", said);
        ak_motion_db_destroy(back);
        /* the report is the payload's last 7 words: joint, top, reason, travel, top_travel,
         * height, body */
        const int32_t J = ak_skeleton_joint_count(s);
        const struct {
            size_t word;
            uint32_t value;
        } bad[] = {/* the joint, a top joint not above it (joint 1 has a parent), the reason, the
                    * body */
                   {0, (uint32_t)J},
                   {0, 0xffffffffu},
                   {1, 1},
                   {2, 3},
                   {6, (uint32_t)J}};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            unsigned char *d = (unsigned char *)malloc(n);
            memcpy(d, b, n);
            unsigned char *w = d + n - 28 + 4 * bad[i].word;
            for (int q = 0; q < 4; ++q)
                w[q] = (unsigned char)(bad[i].value >> (8 * q));
            const uint32_t crc = crc32_ref(d + 32, n - 32);
            for (int q = 0; q < 4; ++q)
                d[24 + q] = (unsigned char)(crc >> (8 * q));
            back = (ak_motion_db *)&err;
            assert_int_equal(ak_motion_db_load_memory(d, n, &back, &err), AK_ERR_PARSE);
            assert_null(back);
            assert_non_null(strstr(err.message, "an index is out of range"));
            if (bad[i].word == 0 && k == 1) { /* and a negative reach */
                memcpy(d, b, n);
                put_f32_le(d + n - 28 + 12, -1.0f);
                const uint32_t c2 = crc32_ref(d + 32, n - 32);
                for (int q = 0; q < 4; ++q)
                    d[24 + q] = (unsigned char)(c2 >> (8 * q));
                assert_int_equal(ak_motion_db_load_memory(d, n, &back, &err), AK_ERR_PARSE);
                assert_non_null(strstr(err.message, "root-motion joint's reach"));
            }
            free(d);
        }
        free(b);
        ak_motion_db_destroy(db);
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
}

/* Issue 26: ak_matcher_finish before ak_matcher_begin (and its ground rays) is refused. */
static void matcher_phases_out_of_order_are_refused(void **state)
{
    (void)state;
    ak_matcher_params p = ak_matcher_defaults();
    p.target = ak_vec3_make(2.0f, 0.0f, 3.0f);
    ak_matcher *m = NULL;
    ak_error err;
    assert_int_equal(ak_matcher_create(g_db, &p, NULL, &m, &err), AK_OK);
    ak_ground_ray rays[AK_MATCHER_RAY_COUNT];
    ak_ground_hit hits[AK_MATCHER_RAY_COUNT];
    memset(hits, 0, sizeof hits);
    assert_int_equal(ak_matcher_finish(m, hits, AK_MATCHER_RAY_COUNT, &err), AK_ERR_STATE);
    assert_non_null(strstr(err.message, "ak_matcher_begin"));
    ak_vec3 move;
    assert_int_equal(ak_matcher_begin(m, 1.0f / 120.0f, &move, &err), AK_OK);
    assert_int_equal(ak_matcher_finish(m, hits, AK_MATCHER_RAY_COUNT, &err), AK_ERR_STATE);
    assert_int_equal(ak_matcher_ground_rays(m, rays, AK_MATCHER_RAY_COUNT), AK_MATCHER_RAY_COUNT);
    assert_int_equal(ak_matcher_finish(m, hits, AK_MATCHER_RAY_COUNT, &err), AK_OK);
    assert_int_equal(ak_matcher_finish(m, hits, AK_MATCHER_RAY_COUNT, &err), AK_ERR_STATE);
    assert_int_equal(ak_matcher_step(m, 1.0f / 120.0f, NULL, &err), AK_OK);
    ak_matcher_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blob_round_trips_in_memory_and_through_a_file),
        cmocka_unit_test(blob_numbers_are_little_endian),
        cmocka_unit_test(damaged_blobs_are_refused_with_a_reason),
        cmocka_unit_test(blob_file_errors_name_the_path_and_reason),
        cmocka_unit_test(blob_values_are_range_checked_like_parameters),
        cmocka_unit_test(matcher_phases_out_of_order_are_refused),
        cmocka_unit_test(blob_with_absurd_values_never_gives_a_non_finite_pose),
        cmocka_unit_test(blob_with_a_humanoid_slot_left_out_loads_or_is_refused),
        cmocka_unit_test(the_database_keeps_its_root_joint_through_the_blob),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
