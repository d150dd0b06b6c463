/* Every float that crosses the plugin boundary (issue 10): for each float argument and each
 * float field of the parameter structs, the values NaN, +-inf, +-1e30 and a few out-of-range
 * ones either fail with an error status and a message, or give only finite output (poses,
 * results, states, rays). A host passing garbage never gets NaN or inf back. */
#include "test_util.h"
#include "animkit/plugin.h"

#include <stddef.h>

static const float k_bad[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 1e20f, -1.0f, 0.0f, 2.0f};
#define BAD_COUNT ((int)(sizeof k_bad / sizeof k_bad[0]))

static int g_failures;
static ak_handle g_s, g_c;
static int32_t g_n;

static int fin(float v)
{
    return isfinite(v);
}
static int fin3(ak_vec3 v)
{
    return fin(v.x) && fin(v.y) && fin(v.z);
}
static int fin4(ak_quat q)
{
    return fin(q.x) && fin(q.y) && fin(q.z) && fin(q.w);
}

static int finite_pose(const ak_plugin_xform *x, int32_t n)
{
    for (int32_t j = 0; j < n; ++j)
        if (!fin3(x[j].position) || !fin4(x[j].rotation)) return 0;
    return 1;
}

/* One probe's verdict: an error must come with a message; a success with finite output. */
static void judge(const char *what, float value, int32_t status, ak_handle h, int outputs_finite)
{
    char msg[256] = "";
    if (status < 0 && h) ak_plugin_last_error(h, msg, sizeof msg);
    if (status < 0 && h && !msg[0]) {
        print_error("%s = %g: error %d without a message\n", what, (double)value, (int)status);
        ++g_failures;
    } else if (status >= 0 && !outputs_finite) {
        print_error("%s = %g: accepted, and the output is not finite\n", what, (double)value);
        ++g_failures;
    }
}

static int setup(void **state)
{
    (void)state;
    char path[1024], err[256];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    if (ak_plugin_bvh_load(path, 0.0f, 1, &g_s, &g_c, err, sizeof err) != AK_OK) return -1;
    ak_plugin_skeleton_info si;
    ak_plugin_skeleton_info_get(g_s, &si);
    g_n = si.joint_count;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ak_plugin_destroy(g_s);
    ak_plugin_destroy(g_c);
    return 0;
}

static void load_scales_beyond_float_range_are_refused(void **state)
{
    (void)state;
    char path[1024], err[256];
    akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path);
    for (int i = 0; i < BAD_COUNT; ++i) {
        ak_handle s = NULL, c = NULL;
        int32_t st = ak_plugin_bvh_load(path, k_bad[i], 1, &s, &c, err, sizeof err);
        int ok = 1;
        if (st == AK_OK) {
            ak_plugin_xform pose[64];
            ok = ak_plugin_clip_sample_model(c, s, 0.5f, 1, pose, 64) == AK_OK &&
                 finite_pose(pose, g_n);
        } else if (!err[0]) {
            ok = 0;
        }
        judge("metres_per_unit", k_bad[i], st, NULL, ok);
        ak_plugin_destroy(c);
        ak_plugin_destroy(s);
    }
}

static void sample_times(void **state)
{
    (void)state;
    ak_plugin_xform pose[64];
    for (int i = 0; i < BAD_COUNT; ++i) {
        int32_t st = ak_plugin_clip_sample_model(g_c, g_s, k_bad[i], 2, pose, 64);
        judge("sample time", k_bad[i], st, g_c, finite_pose(pose, g_n));
    }
}

typedef struct field {
    const char *name;
    size_t offset;
} field;

#define LIMB_FIELD(f)                                                                              \
    {                                                                                              \
#f, offsetof(ak_plugin_limb_ik_params, f)                                                  \
    }
static const field k_limb_fields[] = {
    LIMB_FIELD(target.x),       LIMB_FIELD(target.y),   LIMB_FIELD(pole.x),
    LIMB_FIELD(mid_axis.x),     LIMB_FIELD(soft_limit), LIMB_FIELD(end_rotation.x),
    LIMB_FIELD(end_rotation.w), LIMB_FIELD(tolerance),  LIMB_FIELD(weight)};

static void limb_ik_params(void **state)
{
    (void)state;
    int32_t hum[32];
    ak_plugin_skeleton_humanoid(g_s, NULL, hum, 32);
    ak_plugin_xform local[64], world[64];
    for (size_t k = 0; k < sizeof k_limb_fields / sizeof k_limb_fields[0]; ++k)
        for (int i = 0; i < BAD_COUNT; ++i) {
            ak_plugin_limb_ik_params p;
            ak_plugin_limb_ik_defaults(&p);
            p.upper = hum[AK_HUM_LEFT_UPPER_LEG];
            p.middle = hum[AK_HUM_LEFT_LOWER_LEG];
            p.end = hum[AK_HUM_LEFT_FOOT];
            p.use_pole = 1;
            p.match_end_rotation = 1;
            p.target = ak_vec3_make(0.1f, 0.2f, 0.1f);
            p.pole = ak_vec3_make(0.1f, 0.5f, -1.0f);
            memcpy((char *)&p + k_limb_fields[k].offset, &k_bad[i], sizeof(float));
            ak_plugin_clip_sample(g_c, g_s, 0.3f, 1, local, 64);
            ak_plugin_fk(g_s, local, world, 64);
            ak_plugin_ik_result r = {0, 0, 0, 0.0f};
            int32_t st = ak_plugin_limb_ik(g_s, &p, local, world, 64, &r);
            judge(k_limb_fields[k].name, k_bad[i], st, g_s,
                  finite_pose(local, g_n) && finite_pose(world, g_n) && fin(r.error));
        }
}

#define LOOK_FIELD(f)                                                                              \
    {                                                                                              \
#f, offsetof(ak_plugin_look_at_params, f)                                                  \
    }
static const field k_look_fields[] = {
    LOOK_FIELD(target.x),     LOOK_FIELD(forward.x), LOOK_FIELD(up.y),  LOOK_FIELD(up_model.y),
    LOOK_FIELD(clamp_weight), LOOK_FIELD(tolerance), LOOK_FIELD(weight)};

static void look_at_params(void **state)
{
    (void)state;
    int32_t hum[32];
    ak_plugin_skeleton_humanoid(g_s, NULL, hum, 32);
    const int32_t chain[3] = {hum[AK_HUM_SPINE],
                              hum[AK_HUM_NECK] >= 0 ? hum[AK_HUM_NECK] : hum[AK_HUM_HEAD],
                              hum[AK_HUM_HEAD]};
    ak_plugin_xform local[64], world[64];
    for (size_t k = 0; k < sizeof k_look_fields / sizeof k_look_fields[0] + 1; ++k)
        for (int i = 0; i < BAD_COUNT; ++i) {
            ak_plugin_look_at_params p;
            ak_plugin_look_at_defaults(&p);
            p.target = ak_vec3_make(1.0f, 1.5f, -2.0f);
            float weights[3] = {0.3f, 0.3f, 0.4f};
            const char *name = "joint_weights[1]";
            if (k < sizeof k_look_fields / sizeof k_look_fields[0]) {
                memcpy((char *)&p + k_look_fields[k].offset, &k_bad[i], sizeof(float));
                name = k_look_fields[k].name;
            } else {
                weights[1] = k_bad[i];
            }
            ak_plugin_clip_sample(g_c, g_s, 0.3f, 1, local, 64);
            ak_plugin_fk(g_s, local, world, 64);
            ak_plugin_ik_result r = {0, 0, 0, 0.0f};
            int32_t st = ak_plugin_look_at(g_s, chain, weights, 3, &p, local, world, 64, &r);
            judge(name, k_bad[i], st, g_s,
                  finite_pose(local, g_n) && finite_pose(world, g_n) && fin(r.error));
        }
}

/* A few frames of a character on flat engine ground at y = 0; 0 when anything is not finite. */
static int run_character(ak_handle ch, float dt, const ak_vec3 *position, float hit_height,
                         ak_vec3 normal, int32_t *status)
{
    ak_plugin_ray rays[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_CHARACTER_MAX_RAYS];
    ak_plugin_xform pose[64];
    ak_plugin_character_state s;
    *status = AK_OK;
    for (int f = 0; f < 5; ++f) {
        ak_vec3 move;
        int32_t st = ak_plugin_character_begin(ch, dt, &move);
        if (st == AK_OK && !fin3(move)) return 0;
        if (st == AK_OK && position) st = ak_plugin_character_set_position(ch, position);
        int32_t n = 0;
        if (st == AK_OK)
            st = ak_plugin_character_ground_rays(ch, rays, AK_PLUGIN_CHARACTER_MAX_RAYS, &n);
        for (int32_t i = 0; st == AK_OK && i < n; ++i) {
            if (!fin3(rays[i].origin) || !fin3(rays[i].direction) || !fin(rays[i].max_distance))
                return 0;
            hits[i].hit = 1;
            hits[i].height = hit_height;
            hits[i].normal = normal;
        }
        if (st == AK_OK) st = ak_plugin_character_finish(ch, hits, n);
        if (st != AK_OK) {
            *status = st;
            return 1;
        }
        if (ak_plugin_character_state_get(ch, &s) != AK_OK || !fin3(s.position) ||
            !fin4(s.rotation) || !fin(s.distance) || !fin(s.path_length) || !fin(s.hip_drop) ||
            !fin3(s.sole[0]) || !fin3(s.sole[1]) || !fin(s.tilt_deg[0]) || !fin(s.time))
            return 0;
        if (ak_plugin_character_world_pose(ch, pose, 64) != AK_OK || !finite_pose(pose, g_n))
            return 0;
    }
    return 1;
}

#define CHAR_FIELD(f)                                                                              \
    {                                                                                              \
#f, offsetof(ak_plugin_character_params, f)                                                \
    }
static const field k_char_fields[] = {
    CHAR_FIELD(start.x),           CHAR_FIELD(start.y),        CHAR_FIELD(target.x),
    CHAR_FIELD(start_heading_deg), CHAR_FIELD(arrival_radius), CHAR_FIELD(turn_rate_deg),
    CHAR_FIELD(ground_smoothing),  CHAR_FIELD(idle_fade),      CHAR_FIELD(foot_weight),
    CHAR_FIELD(max_tilt_deg),      CHAR_FIELD(max_hip_drop),   CHAR_FIELD(hip_drop_rate),
    CHAR_FIELD(pole_distance),     CHAR_FIELD(seam_blend)};

static void character_params_and_calls(void **state)
{
    (void)state;
    char err[256];
    for (size_t k = 0; k < sizeof k_char_fields / sizeof k_char_fields[0]; ++k)
        for (int i = 0; i < BAD_COUNT; ++i) {
            ak_plugin_character_params p;
            ak_plugin_character_defaults(&p);
            p.face_target = 0;
            memcpy((char *)&p + k_char_fields[k].offset, &k_bad[i], sizeof(float));
            ak_handle ch = NULL;
            int32_t st = ak_plugin_character_create(g_s, g_c, NULL, &p, &ch, err, sizeof err);
            int ok = st == AK_OK || err[0];
            int32_t run_st = AK_OK;
            if (st == AK_OK)
                ok = run_character(ch, 1.0f / 60.0f, NULL, 0.0f, ak_vec3_make(0, 1, 0), &run_st);
            judge(k_char_fields[k].name, k_bad[i], st == AK_OK ? run_st : st,
                  st == AK_OK ? ch : NULL, ok);
            ak_plugin_destroy(ch);
        }
    /* The per-frame arguments: dt, the target, the engine's position, the hits. */
    for (int a = 0; a < 5; ++a)
        for (int i = 0; i < BAD_COUNT; ++i) {
            ak_plugin_character_params p;
            ak_plugin_character_defaults(&p);
            ak_handle ch = NULL;
            assert_int_equal(ak_plugin_character_create(g_s, g_c, NULL, &p, &ch, err, sizeof err),
                             AK_OK);
            const float v = k_bad[i];
            const ak_vec3 bad_point = ak_vec3_make(v, 0.0f, 1.0f);
            int32_t st = AK_OK, run_st = AK_OK;
            int ok = 1;
            static const char *const names[5] = {"begin dt", "set_target x", "set_position x",
                                                 "hit height", "hit normal y"};
            if (a == 1) st = ak_plugin_character_set_target(ch, &bad_point);
            if (st == AK_OK)
                ok = run_character(ch, a == 0 ? v : 1.0f / 60.0f, a == 2 ? &bad_point : NULL,
                                   a == 3 ? v : 0.0f, ak_vec3_make(0, a == 4 ? v : 1.0f, 0),
                                   &run_st);
            judge(names[a], v, st != AK_OK ? st : run_st, ch, ok);
            ak_plugin_destroy(ch);
        }
}

#define FOOT_FIELD(f)                                                                              \
    {                                                                                              \
#f, offsetof(ak_plugin_foot_ik_params, f)                                                  \
    }
static const field k_foot_fields[] = {FOOT_FIELD(weight),        FOOT_FIELD(max_tilt_deg),
                                      FOOT_FIELD(max_hip_drop),  FOOT_FIELD(hip_drop_rate),
                                      FOOT_FIELD(pole_distance), FOOT_FIELD(ray_up),
                                      FOOT_FIELD(ray_down)};

/* Frames of standalone foot IK; `bad` goes into argument a (0 none, 1 time, 2 dt, 3 the
 * character's x, 4 the hit height). */
static int run_foot_ik(ak_handle f, int a, float bad, int32_t *status)
{
    ak_plugin_xform local[64], model[64];
    ak_plugin_ray rays[AK_PLUGIN_FOOT_IK_RAYS];
    ak_plugin_ground_hit hits[AK_PLUGIN_FOOT_IK_RAYS];
    ak_plugin_foot_ik_state s;
    ak_plugin_xform character = {{0, 0, 0, 1}, {a == 3 ? bad : 0.0f, 0, 0}};
    *status = AK_OK;
    for (int i = 0; i < 5; ++i) {
        const float t = 0.1f * (float)i;
        ak_plugin_clip_sample(g_c, g_s, t, 1, local, 64);
        ak_plugin_fk(g_s, local, model, 64);
        int32_t n = 0;
        int32_t st = ak_plugin_foot_ik_rays(f, a == 1 ? bad : t, &character, model, 64, rays,
                                            AK_PLUGIN_FOOT_IK_RAYS, &n);
        for (int32_t k = 0; st == AK_OK && k < n; ++k) {
            if (!fin3(rays[k].origin) || !fin(rays[k].max_distance)) return 0;
            hits[k].hit = 1;
            hits[k].height = a == 4 ? bad : 0.0f;
            hits[k].normal = ak_vec3_make(0, 1, 0);
        }
        if (st == AK_OK)
            st = ak_plugin_foot_ik_apply(f, a == 2 ? bad : (i ? 0.1f : 0.0f), hits, n, local, model,
                                         64);
        if (st != AK_OK) {
            *status = st;
            return 1;
        }
        if (ak_plugin_foot_ik_state_get(f, &s) != AK_OK || !fin3(s.sole[0]) || !fin3(s.sole[1]) ||
            !fin(s.hip_drop) || !fin(s.tilt_deg[1]) || !finite_pose(local, g_n) ||
            !finite_pose(model, g_n))
            return 0;
    }
    return 1;
}

static void foot_ik_params_and_calls(void **state)
{
    (void)state;
    char err[256];
    const size_t nf = sizeof k_foot_fields / sizeof k_foot_fields[0];
    for (size_t k = 0; k < nf + 4; ++k)
        for (int i = 0; i < BAD_COUNT; ++i) {
            ak_plugin_foot_ik_params p;
            ak_plugin_foot_ik_defaults(&p);
            static const char *const args[4] = {"rays time", "apply dt", "character x",
                                                "hit height"};
            if (k < nf) memcpy((char *)&p + k_foot_fields[k].offset, &k_bad[i], sizeof(float));
            ak_handle f = NULL;
            int32_t st = ak_plugin_foot_ik_create(g_s, g_c, &p, &f, err, sizeof err);
            int ok = st == AK_OK || err[0];
            int32_t run_st = AK_OK;
            if (st == AK_OK) ok = run_foot_ik(f, k < nf ? 0 : (int)(k - nf) + 1, k_bad[i], &run_st);
            judge(k < nf ? k_foot_fields[k].name : args[k - nf], k_bad[i],
                  st == AK_OK ? run_st : st, st == AK_OK ? f : NULL, ok);
            ak_plugin_destroy(f);
        }
}

/* Poses handed in (FK, IK) are float arguments too. */
static void input_poses(void **state)
{
    (void)state;
    ak_plugin_xform local[64], world[64];
    for (int i = 0; i < BAD_COUNT; ++i)
        for (int part = 0; part < 2; ++part) {
            ak_plugin_clip_sample(g_c, g_s, 0.3f, 1, local, 64);
            if (part == 0)
                local[1].position.x = k_bad[i];
            else
                local[2].rotation.w = k_bad[i] * 1e20f; /* 0 * 1e20: a zero quaternion */
            int32_t st = ak_plugin_fk(g_s, local, world, 64);
            judge(part ? "fk local rotation" : "fk local position", k_bad[i], st, g_s,
                  finite_pose(world, g_n));
        }
}

static void no_float_argument_gives_non_finite_output(void **state)
{
    (void)state;
    if (g_failures)
        fail_msg("%d float arguments were accepted with non-finite output or refused without a "
                 "message (listed above)",
                 g_failures);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_scales_beyond_float_range_are_refused),
        cmocka_unit_test(sample_times),
        cmocka_unit_test(limb_ik_params),
        cmocka_unit_test(look_at_params),
        cmocka_unit_test(character_params_and_calls),
        cmocka_unit_test(foot_ik_params_and_calls),
        cmocka_unit_test(input_poses),
        cmocka_unit_test(no_float_argument_gives_non_finite_output),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
