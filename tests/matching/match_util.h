/* Shared by the matching tests: the subject-2 database and the angular-acceleration measure. */
#ifndef AK_TESTS_MATCH_UTIL_H
#define AK_TESTS_MATCH_UTIL_H

#include "test_util.h"

/* CMU subject 2: two walks and a run on one skeleton (the shared set and its locomotion/). */
static const char *const akt_subject2[] = {"cmu_02_01_walk.bvh", "locomotion/cmu_02_02_walk.bvh",
                                           "locomotion/cmu_02_03_run.bvh"};
#define AKT_SUBJECT2_COUNT 3

#define AKT_MAX_SOURCES 8

typedef struct akt_sources {
    int count;
    ak_skeleton *sk[AKT_MAX_SOURCES];
    ak_clip *clip[AKT_MAX_SOURCES];
    ak_motion_db_clip src[AKT_MAX_SOURCES];
} akt_sources;

/* Reads `n` (at most AKT_MAX_SOURCES) captures of the test data into `s`, named as given. */
static inline void akt_sources_load_list(akt_sources *s, const char *const *names, int n)
{
    char path[1200];
    ak_error err;
    memset(s, 0, sizeof *s);
    assert_true(n <= AKT_MAX_SOURCES);
    for (int i = 0; i < n; ++i) {
        if (ak_bvh_read_file(akt_mocap_path(names[i], path, sizeof path), NULL, &s->sk[i],
                             &s->clip[i], &err) != AK_OK)
            fail_msg("%s: %s", path, err.message);
        s->src[i].clip = s->clip[i];
        s->src[i].name = names[i];
        s->count = i + 1;
    }
}

/* The subject-2 captures. */
static inline void akt_sources_load(akt_sources *s)
{
    akt_sources_load_list(s, akt_subject2, AKT_SUBJECT2_COUNT);
}

static inline void akt_sources_free(akt_sources *s)
{
    for (int i = 0; i < s->count; ++i) {
        ak_skeleton_destroy(s->sk[i]);
        ak_clip_destroy(s->clip[i]);
    }
    s->count = 0;
}

/* A 65x65 binary PGM of two crossing waves, `size` metres across and `height` high. */
static inline ak_terrain *akt_waves_terrain(float size, float height)
{
    enum { W = 65 };
    static char pgm[32 + W * W];
    int n = snprintf(pgm, sizeof pgm, "P5\n%d %d\n255\n", W, W);
    for (int r = 0; r < W; ++r)
        for (int c = 0; c < W; ++c) {
            const double v = 0.5 + 0.25 * sin(c * 0.35) + 0.25 * cos(r * 0.28 + c * 0.1);
            pgm[n + r * W + c] = (char)(unsigned char)(v * 255.0 + 0.5);
        }
    ak_terrain *t = NULL;
    ak_error err;
    if (ak_terrain_read_pgm_memory(pgm, (size_t)n + W * W, size, height, &t, &err) != AK_OK)
        fail_msg("waves terrain: %s", err.message);
    return t;
}

/* The database of the captures `names` (read into `s`) with default parameters; NULL, with
 * the reason on stderr, when it cannot be built (usable in a group setup). */
static inline ak_motion_db *akt_db_of(akt_sources *s, const char *const *names, int n)
{
    akt_sources_load_list(s, names, n);
    ak_motion_db_params p = ak_motion_db_defaults();
    ak_motion_db *db = NULL;
    ak_error err;
    if (ak_motion_db_create(s->sk[0], s->src, n, &p, &db, &err) != AK_OK)
        fprintf(stderr, "database: %s\n", err.message);
    return db;
}

/* The subject-2 sources loaded into `s` and their database with default parameters. */
static inline ak_motion_db *akt_subject2_db(akt_sources *s)
{
    ak_motion_db *db = akt_db_of(s, akt_subject2, AKT_SUBJECT2_COUNT);
    if (!db) fail_msg("subject-2 database");
    return db;
}

/* The group fixture most matching tests share: a file-wide source set g_src and its database
 * g_db (default parameters) of `names`, made by setup and freed by teardown (pass both to
 * cmocka_run_group_tests). One line in the test file instead of the same 15 in each. */
#define AKT_DB_FIXTURE(names, count)                                                               \
    static akt_sources g_src;                                                                      \
    static ak_motion_db *g_db;                                                                     \
    static int setup(void **state)                                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        g_db = akt_db_of(&g_src, names, count);                                                    \
        return g_db ? 0 : -1;                                                                      \
    }                                                                                              \
    static int teardown(void **state)                                                              \
    {                                                                                              \
        (void)state;                                                                               \
        ak_motion_db_destroy(g_db);                                                                \
        akt_sources_free(&g_src);                                                                  \
        return 0;                                                                                  \
    }

/* Rotation vector of q (shortest way). */
static inline ak_vec3 akt_log(ak_quat q)
{
    if (q.w < 0.0f) q = (ak_quat){-q.x, -q.y, -q.z, -q.w};
    const float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    const float a = s < 1e-7f ? 2.0f : 2.0f * atan2f(s, q.w) / s;
    return ak_vec3_make(q.x * a, q.y * a, q.z * a);
}

/* Largest per-frame joint angular acceleration (rad/s^2) over a sequence of local poses
 * (n frames of J joints, dt apart): |w(f+1) - w(f)| / dt with w(f) the rotation vector of
 * q(f+1) q(f)^-1 over dt, over every joint. */
static inline float akt_max_angular_accel(const ak_quat *rot, int32_t n, int32_t J, float dt,
                                          int32_t *worst_joint, int32_t *worst_frame)
{
    float worst = 0.0f;
    for (int32_t f = 0; f + 2 < n; ++f)
        for (int32_t j = 0; j < J; ++j) {
            const ak_quat a = rot[(size_t)f * J + j], b = rot[(size_t)(f + 1) * J + j],
                          c = rot[(size_t)(f + 2) * J + j];
            const ak_vec3 w0 = akt_log(ak_quat_mul(b, ak_quat_conjugate(a)));
            const ak_vec3 w1 = akt_log(ak_quat_mul(c, ak_quat_conjugate(b)));
            const float acc = ak_vec3_length(ak_vec3_sub(w1, w0)) / (dt * dt);
            if (acc > worst) {
                worst = acc;
                if (worst_joint) *worst_joint = j;
                if (worst_frame) *worst_frame = f + 1;
            }
        }
    return worst;
}

#endif
