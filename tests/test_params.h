/* Params validity helpers: the first cases of every per-file test (issue 28, after ozz's
 * JobValidity). A struct's own _validate is called through a small wrapper, so what is checked
 * is what a caller gets, not only the range table. */
#ifndef AK_TEST_PARAMS_H
#define AK_TEST_PARAMS_H

#include "test_util.h"

/* A struct's _validate behind one signature: `params` may be NULL (the NULL case). */
typedef int32_t (*akt_validate_fn)(const void *params, ak_error *err);

/* 1 when `message` names `field`, or for a vector component ("start.x") the member ("start"). */
static inline int akt_names_field(const char *message, const char *field)
{
    if (strstr(message, field)) return 1;
    const char *dot = strchr(field, '.');
    if (!dot) return 0;
    char member[64];
    snprintf(member, sizeof member, "%.*s", (int)(dot - field), field);
    return strstr(message, member) != NULL;
}

/* Fails unless validate(params) returns `status` and, for a refusal, the message names
 * `field` (NULL: any message, but not empty). */
static inline void akt_expect_refused(akt_validate_fn validate, const void *params, int32_t status,
                                      const char *field, const char *what)
{
    ak_error err;
    memset(&err, 0, sizeof err);
    const int32_t got = validate(params, &err);
    if (got != status)
        fail_msg("%s: status %s, expected %s (%s)", what, ak_status_name(got),
                 ak_status_name(status), err.message);
    if (status != AK_OK && err.message[0] == '\0') fail_msg("%s: refused without a message", what);
    if (status != AK_OK && field && !akt_names_field(err.message, field))
        fail_msg("%s: message '%s' does not name %s", what, err.message, field);
}

static const ak_param_table *akt_table_;
static inline int32_t akt_table_check(const void *params, ak_error *err)
{
    return ak_params_check(akt_table_, params, err);
}

/* The defaults validate, NULL is refused, and every float field of `table` set to NaN (unless
 * NaN means "automatic"), +-inf, 1e20 beyond a bound and just past each bound is refused by
 * `validate` with AK_ERR_INVALID_ARG and the field's name; each bound itself passes the table.
 * `defaults` is `size` bytes. Returns the number of refused probes. */
static inline int akt_check_param_table(const ak_param_table *t, const void *defaults, size_t size,
                                        akt_validate_fn validate)
{
    unsigned char *p = (unsigned char *)malloc(size);
    int probes = 0;
    assert_non_null(p);
    assert_non_null(t);
    assert_true(t->count > 0);
    akt_table_ = t;
    akt_expect_refused(validate, defaults, AK_OK, NULL, t->params);
    akt_expect_refused(validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL params");
    for (int32_t i = 0; i < t->count; ++i) {
        const ak_param_range *r = &t->ranges[i];
        assert_true(r->offset + sizeof(float) <= size);
        const float bad[] = {NAN,
                             INFINITY,
                             -INFINITY,
                             1e20f > r->hi ? 1e20f : INFINITY,
                             -1e20f < r->lo ? -1e20f : -INFINITY,
                             nextafterf(r->hi, INFINITY) + fabsf(r->hi) * 1e-3f,
                             nextafterf(r->lo, -INFINITY) - fabsf(r->lo) * 1e-3f};
        char what[160];
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
            if (isnan(bad[b]) && r->nan_ok) continue;
            memcpy(p, defaults, size);
            memcpy(p + r->offset, &bad[b], sizeof(float));
            snprintf(what, sizeof what, "%s.%s = %g", t->params, r->field, (double)bad[b]);
            akt_expect_refused(validate, p, AK_ERR_INVALID_ARG, r->field, what);
            ++probes;
        }
        const float good[] = {r->lo, r->hi};
        for (size_t g = 0; g < 2; ++g) {
            memcpy(p, defaults, size);
            memcpy(p + r->offset, &good[g], sizeof(float));
            snprintf(what, sizeof what, "%s.%s = %g (a bound)", t->params, r->field,
                     (double)good[g]);
            /* the table's check: a rule across fields (start_distance > full_distance) may
             * still refuse a bound in _validate */
            akt_expect_refused(akt_table_check, p, AK_OK, NULL, what);
        }
    }
    free(p);
    return probes;
}

/* A range table's shape: named `name`; every entry a distinct field at a distinct, 4-aligned
 * offset inside the struct's `size` bytes; finite ordered bounds; ak_param_find finds each. */
static inline void akt_check_table_shape(const ak_param_table *t, const char *name, size_t size)
{
    assert_non_null(t);
    assert_string_equal(t->params, name);
    assert_true(t->count > 0);
    for (int32_t i = 0; i < t->count; ++i) {
        const ak_param_range *r = &t->ranges[i];
        if (!(r->offset % 4 == 0 && r->offset + sizeof(float) <= size))
            fail_msg("%s.%s: offset %u outside the struct", name, r->field, (unsigned)r->offset);
        if (!(isfinite(r->lo) && isfinite(r->hi) && r->lo <= r->hi))
            fail_msg("%s.%s: bounds [%g, %g]", name, r->field, (double)r->lo, (double)r->hi);
        assert_ptr_equal(ak_param_find(t, r->field), r);
        for (int32_t k = 0; k < i; ++k) {
            if (strcmp(t->ranges[k].field, r->field) == 0) fail_msg("%s.%s twice", name, r->field);
            if (t->ranges[k].offset == r->offset)
                fail_msg("%s: %s and %s at one offset", name, t->ranges[k].field, r->field);
        }
    }
}

/* Fails unless `t` has `field` with bounds [lo, hi] and nan_ok as given. */
static inline void akt_expect_range(const ak_param_table *t, const char *field, float lo, float hi,
                                    int32_t nan_ok)
{
    const ak_param_range *r = ak_param_find(t, field);
    if (!r) fail_msg("%s has no %s", t->params, field);
    if (!(r->lo == lo && r->hi == hi && r->nan_ok == nan_ok))
        fail_msg("%s.%s: [%g, %g] nan_ok %d, documented [%g, %g] nan_ok %d", t->params, field,
                 (double)r->lo, (double)r->hi, (int)r->nan_ok, (double)lo, (double)hi, (int)nan_ok);
}

/* A chain of `n` joints along +Y from the origin, each bone `bone` long, rest rotations
 * identity (joint j at (0, j * bone, 0) in model space); names "j0".."j15". */
static inline ak_skeleton *akt_line_skeleton(int32_t n, float bone)
{
    static const char *const names[16] = {"j0", "j1", "j2",  "j3",  "j4",  "j5",  "j6",  "j7",
                                          "j8", "j9", "j10", "j11", "j12", "j13", "j14", "j15"};
    int32_t parents[16];
    ak_xform rest[16];
    assert_true(n >= 1 && n <= 16);
    for (int32_t j = 0; j < n; ++j) {
        parents[j] = j - 1;
        rest[j] = ak_xform_identity();
        rest[j].translation = ak_vec3_make(0.0f, j > 0 ? bone : 0.0f, 0.0f);
    }
    ak_skeleton_desc desc = {n, names, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    ak_error err;
    if (ak_skeleton_create(&desc, &s, &err) != AK_OK) fail_msg("skeleton: %s", err.message);
    return s;
}

/* The 7-joint biped of the edit and retarget tests (Hips, LeftUpLeg, LeftLeg, LeftFoot,
 * RightUpLeg, RightLeg, RightFoot; the first `joints` of them): Hips `hip_height` up, the upper
 * legs 0.1 m to either side of it, every lower bone `bone` straight down; rest rotations
 * identity. */
static inline ak_skeleton *akt_biped7(float hip_height, float bone, int32_t joints)
{
    static const char *const names[7] = {"Hips",       "LeftUpLeg", "LeftLeg",  "LeftFoot",
                                         "RightUpLeg", "RightLeg",  "RightFoot"};
    const int32_t parents[7] = {-1, 0, 1, 2, 0, 4, 5};
    ak_xform rest[7];
    assert_true(joints >= 1 && joints <= 7);
    for (int j = 0; j < 7; ++j) {
        rest[j] = ak_xform_identity();
        rest[j].translation = ak_vec3_make(0.0f, -bone, 0.0f);
    }
    rest[0].translation = ak_vec3_make(0.0f, hip_height, 0.0f);
    rest[1].translation = ak_vec3_make(0.1f, 0.0f, 0.0f);
    rest[4].translation = ak_vec3_make(-0.1f, 0.0f, 0.0f);
    ak_skeleton_desc d = {joints, names, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    ak_error err;
    if (ak_skeleton_create(&d, &s, &err) != AK_OK) fail_msg("biped: %s", err.message);
    return s;
}

/* The group fixture of a test on one skeleton and clip: g_s and g_c, made by the file's own
 * setup, freed by this teardown. */
#define AKT_CLIP_FIXTURE                                                                           \
    static ak_skeleton *g_s;                                                                       \
    static ak_clip *g_c;                                                                           \
    static int teardown(void **state)                                                              \
    {                                                                                              \
        (void)state;                                                                               \
        ak_clip_destroy(g_c);                                                                      \
        ak_skeleton_destroy(g_s);                                                                  \
        return 0;                                                                                  \
    }

#endif
