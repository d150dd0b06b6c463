/* Foot IK on its own (ak_foot_ik_*), on animkit's built-in biped standing still: flat ground
 * raised and lowered, a step, a slope, ground out of reach, and a weight of 0; and moving on
 * over a push-off toe with the planned hips. The ground hits
 * are made here from known planes, asked where ak_foot_ik_query_points says; every bound
 * comes from that geometry (a plane's height and normal, the bones' lengths), not from what
 * the code produced. The file's params (ak_foot_ik_params, ak_reach_params) are checked field by
 * field first. */
#include "test_params.h"

#include "locomotion/internal.h" /* ak_floor_support, ak_floor_follow(_climb) */

#define FPS    60.0f
#define FRAMES 120 /* 2 s: the hip drop spring (omega 20/s) settles in ~0.3 s */
#define MM     0.001f
#define DEG    (3.14159265358979f / 180.0f)

/* A ground plane: a point on it and its unit normal (up); hit 0 = no ground. */
typedef struct plane {
    int hit;
    ak_vec3 p0, n;
} plane;

typedef struct rig {
    ak_skeleton *sk;
    ak_foot_ik_params fp;
    ak_humanoid hum;
    int32_t J;
    float floor;      /* the clip floor (ak_foot_calibrate) */
    ak_xform *local0; /* the standing pose: the idle clip's first frame */
    ak_xform *world0;
    ak_xform *local, *world; /* the output of the last run */
} rig;

static rig R;

static plane flat(float y)
{
    plane g = {1, ak_vec3_make(0, y, 0), ak_vec3_make(0, 1, 0)};
    return g;
}

static float plane_height(const plane *g, float x, float z)
{
    return g->p0.y - (g->n.x * (x - g->p0.x) + g->n.z * (z - g->p0.z)) / g->n.y;
}

static ak_ground_hit hit_at(const plane *g, ak_vec3 q)
{
    ak_ground_hit h;
    memset(&h, 0, sizeof h);
    h.hit = g->hit;
    if (g->hit) {
        h.height = plane_height(g, q.x, q.z);
        h.normal = g->n;
    }
    return h;
}

/* The signed height of point a above plane g (along the plane's normal). */
static float above(const plane *g, ak_vec3 a)
{
    return ak_vec3_dot(ak_vec3_sub(a, g->p0), g->n);
}

static int setup(void **state)
{
    (void)state;
    memset(&R, 0, sizeof R);
    ak_error err;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    ak_clip *walk = NULL, *idle = NULL;
    assert_int_equal(ak_walk_clip_create(&wp, &R.sk, &walk, &err), AK_OK);
    assert_int_equal(ak_idle_clip_create(&wp, R.sk, &idle, &err), AK_OK);
    assert_int_equal(ak_humanoid_find(R.sk, NULL, &R.hum, &err), AK_OK);
    const int32_t n = walk->frame_count;
    uint8_t *contacts = malloc((size_t)n * 2);
    assert_int_equal(ak_walk_clip_contacts(&wp, walk, contacts, contacts + n, &err), AK_OK);
    const int32_t foot[2] = {R.hum.joint[AK_HUM_LEFT_FOOT], R.hum.joint[AK_HUM_RIGHT_FOOT]};
    const int32_t toe[2] = {R.hum.joint[AK_HUM_LEFT_TOE], R.hum.joint[AK_HUM_RIGHT_TOE]};
    ak_foot_calibration cal;
    assert_int_equal(ak_foot_calibrate(R.sk, walk, foot, toe, contacts, contacts + n, &cal, &err),
                     AK_OK);
    free(contacts);
    R.floor = cal.floor_y;
    R.fp = ak_foot_ik_defaults();
    R.fp.skeleton = R.sk;
    R.fp.hips = R.hum.joint[AK_HUM_HIPS];
    for (int s = 0; s < 2; ++s) {
        R.fp.legs[s].upper = R.hum.joint[s ? AK_HUM_RIGHT_UPPER_LEG : AK_HUM_LEFT_UPPER_LEG];
        R.fp.legs[s].lower = R.hum.joint[s ? AK_HUM_RIGHT_LOWER_LEG : AK_HUM_LEFT_LOWER_LEG];
        R.fp.legs[s].foot = foot[s];
        R.fp.legs[s].sole_height = cal.sole_height[s];
        R.fp.legs[s].up_local = cal.up_local[s];
        R.fp.legs[s].toe_local = cal.toe_local[s];
        R.fp.legs[s].has_toe = cal.has_toe[s];
    }
    assert_int_equal(ak_foot_ik_validate(&R.fp, &err), AK_OK);
    R.J = R.sk->joint_count;
    R.local0 = calloc((size_t)R.J * 4, sizeof(ak_xform));
    R.world0 = R.local0 + R.J;
    R.local = R.local0 + 2 * R.J;
    R.world = R.local0 + 3 * R.J;
    ak_clip_frame(idle, R.sk, 0, R.local0);
    ak_fk(R.sk, R.local0, R.world0);
    ak_clip_destroy(walk);
    ak_clip_destroy(idle);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(R.local0);
    ak_skeleton_destroy(R.sk);
    return 0;
}

/* Runs `frames` frames of foot IK on the standing pose (the character at the origin, facing
 * +Z), foot s over ground g[s], in stance when stance[s]. R.local/R.world hold the last
 * frame's result. */
static void run_lifted(const ak_foot_ik_params *fp, ak_foot_ik_state *st, const plane g[2],
                       const int stance[2], const float *lift, int frames);

static void run(const ak_foot_ik_params *fp, ak_foot_ik_state *st, const plane g[2],
                const int stance[2], int frames)
{
    run_lifted(fp, st, g, stance, NULL, frames);
}

/* A frame of R on the ground planes g[2] (NULL: flat at R.floor under both feet): the standing
 * pose in R.local/R.world, the query points' heights, dt 1/FPS, the character at the origin. */
static ak_foot_ik_frame standing_frame(const ak_foot_ik_params *fp, const ak_foot_ik_state *st,
                                       const plane g[2])
{
    memcpy(R.local, R.local0, (size_t)R.J * sizeof(ak_xform));
    memcpy(R.world, R.world0, (size_t)R.J * sizeof(ak_xform));
    ak_vec3 hq[2], tq[2];
    ak_foot_ik_query_points(fp, st, R.world, hq, tq);
    ak_foot_ik_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.dt = 1.0f / FPS;
    fr.character = ak_xform_identity();
    fr.floor_height = R.floor;
    const plane level = flat(R.floor);
    for (int s = 0; s < 2; ++s) {
        const plane *gs = g ? &g[s] : &level;
        fr.ground[s] = hit_at(gs, hq[s]);
        fr.ground_toe[s] = hit_at(gs, tq[s]);
    }
    return fr;
}

/* run, with a re-step's lift of each foot (ak_foot_ik_solve_lifted; NULL: none). */
static void run_lifted(const ak_foot_ik_params *fp, ak_foot_ik_state *st, const plane g[2],
                       const int stance[2], const float *lift, int frames)
{
    ak_error err;
    ak_foot_ik_state_reset(st);
    for (int f = 0; f < frames; ++f) {
        ak_foot_ik_frame fr = standing_frame(fp, st, g);
        for (int s = 0; s < 2; ++s) {
            fr.stance[s] = fr.stance_next[s] = stance[s];
            fr.contact[s] = stance[s] ? AK_CONTACT_HEEL | AK_CONTACT_TOE : 0;
        }
        if (lift)
            assert_int_equal(
                ak_foot_ik_solve_lifted(fp, st, &fr, lift, NULL, NULL, 0, R.local, R.world, &err),
                AK_OK);
        else
            assert_int_equal(ak_foot_ik_run(fp, st, &fr, R.local, R.world, &err), AK_OK);
    }
}

static float dist(ak_vec3 a, ak_vec3 b)
{
    return ak_vec3_length(ak_vec3_sub(a, b));
}

/* Every joint finite, every rotation unit, every bone its skeleton length, and the world pose
 * the FK of the local one. */
static void assert_pose_sound(void)
{
    ak_xform *fk = malloc((size_t)R.J * sizeof(ak_xform));
    ak_fk(R.sk, R.local, fk);
    for (int32_t j = 0; j < R.J; ++j) {
        const ak_xform x = R.world[j];
        assert_true(isfinite(x.translation.x) && isfinite(x.translation.y) &&
                    isfinite(x.translation.z));
        const ak_quat q = x.rotation;
        AKT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0, 2e-6);
        AKT_NEAR(dist(x.translation, fk[j].translation), 0.0, 1e-5);
        const int32_t p = R.sk->parents[j];
        if (p < 0) continue;
        /* The input pose keeps its bones at the skeleton's lengths; so must the output. */
        AKT_NEAR(dist(R.world0[j].translation, R.world0[p].translation), R.sk->bone_lengths[j],
                 1e-5);
        AKT_NEAR(dist(x.translation, R.world[p].translation), R.sk->bone_lengths[j], 1e-5);
    }
    free(fk);
}

static float leg_length(int s)
{
    return R.sk->bone_lengths[R.fp.legs[s].lower] + R.sk->bone_lengths[R.fp.legs[s].foot];
}

/* The knee's offset from the hip-ankle line along the character's forward (+Z): > 0 when it
 * bends toward the pole in front. */
static float knee_forward(int s)
{
    const ak_vec3 h = R.world[R.fp.legs[s].upper].translation;
    const ak_vec3 k = R.world[R.fp.legs[s].lower].translation;
    const ak_vec3 a = R.world[R.fp.legs[s].foot].translation;
    const ak_vec3 d = ak_vec3_normalize_or(ak_vec3_sub(a, h), ak_vec3_make(0, -1, 0));
    const ak_vec3 hk = ak_vec3_sub(k, h);
    const ak_vec3 off = ak_vec3_sub(hk, ak_vec3_scale(d, ak_vec3_dot(hk, d)));
    return off.z;
}

/* Heel and toe of foot s on plane g within 1 mm (along its normal). */
static void assert_sole_on(int s, const plane *g, const char *what)
{
    const ak_vec3 heel = ak_foot_ik_sole(&R.fp, R.world, s),
                  toe = ak_foot_ik_toe(&R.fp, R.world, s);
    printf("  %-10s foot %d: heel %+.3f mm, toe %+.3f mm off the ground\n", what, s,
           1e3 * (double)above(g, heel), 1e3 * (double)above(g, toe));
    AKT_NEAR(above(g, heel), 0.0, MM);
    AKT_NEAR(above(g, toe), 0.0, MM);
}

static int32_t foot_ik_validate(const void *params, ak_error *err)
{
    return ak_foot_ik_validate((const ak_foot_ik_params *)params, err);
}

static int32_t reach_validate(const void *params, ak_error *err)
{
    return ak_reach_validate((const ak_reach_params *)params, err);
}

/* The rig's params validate; every float field out of its range, NULL and a missing skeleton
 * are refused by name; leg joints out of range or out of order are refused. */
static void foot_ik_params_validity(void **state)
{
    (void)state;
    assert_true(
        akt_check_param_table(ak_foot_ik_param_ranges(), &R.fp, sizeof R.fp, foot_ik_validate) > 0);
    ak_foot_ik_params p = R.fp;
    p.skeleton = NULL;
    akt_expect_refused(foot_ik_validate, &p, AK_ERR_INVALID_ARG, "skeleton", "skeleton NULL");
    p = R.fp;
    p.hips = R.J;
    akt_expect_refused(foot_ik_validate, &p, AK_ERR_INVALID_ARG, "hips", "hips out of range");
    p = R.fp;
    p.legs[1].foot = -1;
    akt_expect_refused(foot_ik_validate, &p, AK_ERR_INVALID_ARG, NULL, "foot -1");
    p = R.fp;
    p.legs[0].lower = R.fp.legs[0].foot;
    p.legs[0].foot = R.fp.legs[0].lower; /* foot above its knee */
    akt_expect_refused(foot_ik_validate, &p, AK_ERR_INVALID_ARG, NULL, "leg out of order");
}

static void reach_params_validity(void **state)
{
    (void)state;
    ak_reach_params ok = ak_reach_defaults();
    ok.skeleton = R.sk;
    ok.upper = R.hum.joint[AK_HUM_LEFT_UPPER_ARM];
    ok.lower = R.hum.joint[AK_HUM_LEFT_LOWER_ARM];
    ok.hand = R.hum.joint[AK_HUM_LEFT_HAND];
    ok.target = ak_vec3_make(0.3f, 1.2f, 0.4f);
    ok.pole = ak_vec3_make(0.3f, 0.8f, -0.5f);
    assert_true(akt_check_param_table(ak_reach_param_ranges(), &ok, sizeof ok, reach_validate) > 0);
    ak_reach_params p = ok;
    p.skeleton = NULL;
    akt_expect_refused(reach_validate, &p, AK_ERR_INVALID_ARG, "skeleton", "skeleton NULL");
    p = ok;
    p.hand = R.J;
    akt_expect_refused(reach_validate, &p, AK_ERR_INVALID_ARG, NULL, "hand out of range");
    p = ok;
    p.target.y = NAN;
    akt_expect_refused(reach_validate, &p, AK_ERR_INVALID_ARG, "target", "target NaN");
    p = ok;
    p.pole.x = INFINITY;
    akt_expect_refused(reach_validate, &p, AK_ERR_INVALID_ARG, "pole", "pole inf");
    p = ok;
    p.full_distance = p.start_distance; /* the fade needs start > full */
    akt_expect_refused(reach_validate, &p, AK_ERR_INVALID_ARG, "start_distance", "start = full");
}

/* The standing pose the tests start from: both feet flat on the clip floor, legs reachable. */
static void standing_pose_is_planted(void **state)
{
    (void)state;
    const plane g = flat(R.floor);
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 heel = ak_foot_ik_sole(&R.fp, R.world0, s);
        const ak_vec3 toe = ak_foot_ik_toe(&R.fp, R.world0, s);
        printf("  input foot %d: heel %+.3f toe %+.3f mm above the floor, toe %.3f m ahead\n", s,
               1e3 * (double)above(&g, heel), 1e3 * (double)above(&g, toe),
               (double)(toe.z - heel.z));
        AKT_NEAR(above(&g, heel), 0.0, MM);
        AKT_NEAR(above(&g, toe), 0.0, MM);
        assert_true(R.fp.legs[s].has_toe && toe.z - heel.z > 0.1f);
    }
    memcpy(R.local, R.local0, (size_t)R.J * sizeof(ak_xform));
    memcpy(R.world, R.world0, (size_t)R.J * sizeof(ak_xform));
    assert_pose_sound();
}

/* Flat ground raised or lowered by h under both planted feet: heel and toe of each on it. */
static void flat_ground_raised_and_lowered(void **state)
{
    (void)state;
    const float hs[4] = {-0.05f, -0.02f, 0.02f, 0.05f};
    const int stance[2] = {1, 1};
    for (int i = 0; i < 4; ++i) {
        const plane g[2] = {flat(R.floor + hs[i]), flat(R.floor + hs[i])};
        ak_foot_ik_state st;
        run(&R.fp, &st, g, stance, FRAMES);
        char what[32];
        snprintf(what, sizeof what, "h %+.2f", (double)hs[i]);
        for (int s = 0; s < 2; ++s) {
            assert_sole_on(s, &g[s], what);
            assert_true(st.reached[s]);
            assert_true(knee_forward(s) > 0.0f);
        }
        assert_pose_sound();
    }
}

/* The left foot on ground d below the floor, the right on a step h above it: both soles on
 * their surfaces; the hips come down by d (what the lower leg needs to stand as animated) and
 * no further, so the lower leg is as long as animated and the higher one bends by h + d. */
static void one_foot_on_a_step(void **state)
{
    (void)state;
    const float d = 0.03f, h = 0.08f;
    const plane g[2] = {flat(R.floor - d), flat(R.floor + h)};
    const int stance[2] = {1, 1};
    ak_foot_ik_state st;
    run(&R.fp, &st, g, stance, FRAMES);
    assert_sole_on(0, &g[0], "step low");
    assert_sole_on(1, &g[1], "step high");
    const int32_t hips = R.fp.hips;
    const float drop = R.world0[hips].translation.y - R.world[hips].translation.y;
    printf("  hips lowered %.2f mm (lower foot %.0f mm below the floor)\n", 1e3 * (double)drop,
           1e3 * (double)d);
    AKT_NEAR(drop, d, MM);
    for (int s = 0; s < 2; ++s) {
        const ak_vec3 hip0 = R.world0[R.fp.legs[s].upper].translation;
        const ak_vec3 ank0 = R.world0[R.fp.legs[s].foot].translation;
        /* Feet flat on flat ground keep their x,z and turn nowhere: the ankle moves with the
         * ground, the hip with the drop. */
        const float rise = s == 0 ? -d : h;
        const ak_vec3 want = ak_vec3_sub(ak_vec3_make(ank0.x, ank0.y + rise, ank0.z),
                                         ak_vec3_make(hip0.x, hip0.y - d, hip0.z));
        const float got =
            dist(R.world[R.fp.legs[s].foot].translation, R.world[R.fp.legs[s].upper].translation);
        printf("  leg %d: hip-ankle %.4f m (geometry %.4f, bones %.4f), knee %+.3f m forward\n", s,
               (double)got, (double)ak_vec3_length(want), (double)leg_length(s),
               (double)knee_forward(s));
        AKT_NEAR(got, ak_vec3_length(want), MM);
        assert_true(got <= leg_length(s));
        assert_true(knee_forward(s) > 0.0f);
        assert_true(st.reached[s]);
    }
    assert_pose_sound();
}

/* A slope of angle theta (rising toward +Z, or across toward +X) under the right foot: heel
 * and toe on it, the heel-to-toe line in its plane (pitch = the plane's rise along the
 * foot), the foot's up axis on the plane's normal. */
static void foot_on_a_slope(void **state)
{
    (void)state;
    const float thetas[3] = {10.0f, -15.0f, 20.0f};
    const int stance[2] = {1, 1};
    for (int i = 0; i < 4; ++i) {
        const int across = i == 3;
        const float t = (across ? 12.0f : thetas[i]) * DEG;
        plane g[2] = {flat(R.floor), flat(R.floor)};
        g[1].p0 = ak_foot_ik_sole(&R.fp, R.world0, 1);
        g[1].n = across ? ak_vec3_make(-sinf(t), cosf(t), 0) : ak_vec3_make(0, cosf(t), -sinf(t));
        ak_foot_ik_state st;
        run(&R.fp, &st, g, stance, FRAMES);
        char what[32];
        snprintf(what, sizeof what, "%s %+.0f", across ? "roll" : "pitch", (double)(t / DEG));
        assert_sole_on(0, &g[0], what);
        assert_sole_on(1, &g[1], what);
        const ak_vec3 heel = ak_foot_ik_sole(&R.fp, R.world, 1);
        const ak_vec3 dir = ak_vec3_normalize_or(
            ak_vec3_sub(ak_foot_ik_toe(&R.fp, R.world, 1), heel), ak_vec3_make(0, 0, 1));
        const float off_plane = asinf(fabsf(ak_vec3_dot(dir, g[1].n))) / DEG;
        /* The pitch a line in the plane has along the foot's horizontal heading (hx, hz). */
        const float hl = sqrtf(dir.x * dir.x + dir.z * dir.z);
        const float rise = -(g[1].n.x * dir.x + g[1].n.z * dir.z) / (g[1].n.y * hl);
        const float pitch = atan2f(dir.y, hl) / DEG, want = atanf(rise) / DEG;
        const ak_vec3 up =
            ak_quat_rotate(R.world[R.fp.legs[1].foot].rotation, R.fp.legs[1].up_local);
        const float up_err = acosf(fminf(1.0f, ak_vec3_dot(up, g[1].n))) / DEG;
        printf("  %s: sole %.3f deg off the plane, pitch %.3f (plane %.3f), up %.3f deg off "
               "the normal\n",
               what, (double)off_plane, (double)pitch, (double)want, (double)up_err);
        assert_true(off_plane < 1.0f);
        AKT_NEAR(pitch, want, 1.0);
        assert_true(up_err < 1.0f);
        assert_true(knee_forward(1) > 0.0f);
        assert_pose_sound();
    }
}

/* Ground 0.8 m below the left foot (beyond the hip drop's 0.45 m and the leg): the left leg
 * straight toward it, never longer than its bones, not reached; the right still planted. */
static void ground_out_of_reach(void **state)
{
    (void)state;
    const plane g[2] = {flat(R.floor - 0.8f), flat(R.floor)};
    const int stance[2] = {1, 1};
    ak_foot_ik_state st;
    run(&R.fp, &st, g, stance, FRAMES);
    const float got =
        dist(R.world[R.fp.legs[0].foot].translation, R.world[R.fp.legs[0].upper].translation);
    const float bend = knee_forward(0);
    const float gap = above(&g[0], ak_foot_ik_sole(&R.fp, R.world, 0));
    const float drop = R.world0[R.fp.hips].translation.y - R.world[R.fp.hips].translation.y;
    printf("  out of reach: hip-ankle %.5f m of %.5f, knee %.4f m off the line, sole %.1f mm "
           "above the ground, hips lowered %.1f mm, reached %d/%d\n",
           (double)got, (double)leg_length(0), (double)bend, 1e3 * (double)gap, 1e3 * (double)drop,
           (int)st.reached[0], (int)st.reached[1]);
    assert_true(got <= leg_length(0) + 1e-5f);
    assert_true(got >= 0.995f * leg_length(0)); /* knee within ~11 deg of straight */
    assert_true(gap > 0.0f);
    /* The ankle on the line from the (lowered) hip to its target (the flat foot's ankle moved
     * straight down with the ground), a leg's length from the hip. */
    const ak_vec3 hip = R.world[R.fp.legs[0].upper].translation;
    const ak_vec3 a0 = R.world0[R.fp.legs[0].foot].translation;
    const ak_vec3 to = ak_vec3_sub(ak_vec3_make(a0.x, a0.y - 0.8f, a0.z), hip);
    const ak_vec3 want = ak_vec3_add(hip, ak_vec3_scale(to, leg_length(0) / ak_vec3_length(to)));
    printf("  ankle %.3f mm from the hip-target line's point\n",
           1e3 * (double)dist(R.world[R.fp.legs[0].foot].translation, want));
    AKT_NEAR(dist(R.world[R.fp.legs[0].foot].translation, want), 0.0, MM);
    AKT_NEAR(drop, R.fp.max_hip_drop, MM);
    assert_false(st.reached[0]);
    assert_true(st.reached[1]);
    assert_sole_on(1, &g[1], "reachable");
    assert_pose_sound();
}

/* The largest distance between joints [a, b) of the output and the input world pose. */
static float moved(int32_t a, int32_t b)
{
    float m = 0.0f;
    for (int32_t j = a; j < b; ++j) {
        m = fmaxf(m, dist(R.world[j].translation, R.world0[j].translation));
        const ak_quat p = R.world[j].rotation, q = R.world0[j].rotation;
        m = fmaxf(m, fabsf(p.x - q.x) + fabsf(p.y - q.y) + fabsf(p.z - q.z) + fabsf(p.w - q.w));
    }
    return m;
}

/* weight 0 leaves the pose as given; so does a swinging foot with no ground under it. */
static void zero_weight_and_no_stance_leave_the_leg(void **state)
{
    (void)state;
    const plane g[2] = {flat(R.floor + 0.04f), flat(R.floor + 0.04f)};
    const int both[2] = {1, 1};
    ak_foot_ik_params fp = R.fp;
    fp.weight = 0.0f;
    ak_foot_ik_state st;
    run(&fp, &st, g, both, FRAMES);
    const float all = moved(0, R.J);
    printf("  weight 0: pose moved %.3g (m or quaternion units)\n", (double)all);
    /* Not bit-exact: the legs are still re-solved toward where they already are, which
     * rounds (3.1e-7 measured); a few float ulps of a 1 m coordinate (1.2e-7 each) is all. */
    assert_true(all <= 1e-6f);
    const plane g2[2] = {flat(R.floor + 0.04f), {0, {0, 0, 0}, {0, 1, 0}}};
    const int left[2] = {1, 0};
    run(&R.fp, &st, g2, left, FRAMES);
    const int32_t up = R.fp.legs[1].upper;
    const float leg = moved(up, R.sk->subtree_end[up]);
    printf("  right foot swinging, no ground: its leg moved %.3g\n", (double)leg);
    assert_true(leg <= 1e-6f);
    assert_sole_on(0, &g2[0], "left only");
}

/* A re-step's lift (ak_foot_ik_solve_lifted): the right foot, not planted, standing as
 * animated on a raised floor, keeps its heel and toe 5 cm above it (within 1 mm) once the lift
 * has risen (at most swing_height_rate, 2 m/s); the planted left foot stays on the floor; no
 * lift leaves the right foot on it. */
static void a_re_step_lifts_the_foot_not_planted(void **state)
{
    (void)state;
    const plane g[2] = {flat(R.floor + 0.02f), flat(R.floor + 0.02f)};
    const int left[2] = {1, 0};
    const float lift[2] = {0.05f, 0.05f};
    ak_foot_ik_state st;
    run_lifted(&R.fp, &st, g, left, lift, FRAMES);
    const ak_vec3 heel = ak_foot_ik_sole(&R.fp, R.world, 1),
                  toe = ak_foot_ik_toe(&R.fp, R.world, 1);
    printf("  lifted 5 cm: right heel %+.3f mm, toe %+.3f mm off the ground\n",
           1e3 * (double)above(&g[1], heel), 1e3 * (double)above(&g[1], toe));
    assert_true(above(&g[1], heel) >= 0.05f - MM && above(&g[1], toe) >= 0.05f - MM);
    assert_true(fminf(above(&g[1], heel), above(&g[1], toe)) <= 0.05f + MM);
    assert_sole_on(0, &g[0], "planted");
    assert_pose_sound();
    const float none[2] = {0.0f, 0.0f};
    run_lifted(&R.fp, &st, g, left, none, FRAMES);
    assert_sole_on(1, &g[1], "not lifted");
}

/* A point's clearance (ak_foot_ik_solve_lifted's point_clear, the matcher's frame's own): the
 * right foot, not planted, standing as animated on a raised floor, keeps its toe 3 cm over it
 * (within 1 mm) once the lift has risen, its heel asked for nothing; the planted left foot stays
 * on the floor. */
static void a_point_clearance_keeps_that_point_up(void **state)
{
    (void)state;
    const plane g[2] = {flat(R.floor + 0.02f), flat(R.floor + 0.02f)};
    const float clear[2][2] = {{0.0f, 0.0f}, {0.0f, 0.03f}};
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    ak_error err;
    for (int f = 0; f < FRAMES; ++f) {
        ak_foot_ik_frame fr = standing_frame(&R.fp, &st, g);
        for (int s = 0; s < 2; ++s) {
            fr.stance[s] = fr.stance_next[s] = s == 0;
            fr.contact[s] = s == 0 ? AK_CONTACT_HEEL | AK_CONTACT_TOE : 0;
        }
        assert_int_equal(
            ak_foot_ik_solve_lifted(&R.fp, &st, &fr, NULL, clear, NULL, 0, R.local, R.world, &err),
            AK_OK);
    }
    const float toe = above(&g[1], ak_foot_ik_toe(&R.fp, R.world, 1));
    printf("  toe clearance 3 cm: right toe %+.3f mm off the ground\n", 1e3 * (double)toe);
    assert_true(toe >= 0.03f - MM && toe <= 0.03f + MM);
    assert_sole_on(0, &g[0], "planted");
    assert_pose_sound();
}

/* A new lock of the other point starts where that point is shown: the left foot planted on its
 * toe alone (the lock on the toe), released for a frame (its lock fading, weight 1 - 8/60), then
 * planted on heel and toe (the lock on the heel). The pose stands still, so the heel stays where
 * it was shown, within 1 mm; blended with the fading toe lock as a heel point, it moved 104 mm
 * toward the toe in that frame (the matcher's stop on the library's stairs: 10.2 cm, 6.1 m/s). */
static void a_new_lock_of_the_other_point_starts_where_it_is_shown(void **state)
{
    (void)state;
    const plane g = flat(R.floor);
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    ak_error err;
    ak_vec3 heel_was = ak_vec3_make(0, 0, 0);
    float worst = 0.0f;
    for (int f = 0; f < 40; ++f) {
        const int left = f < 30 || f > 30; /* released at frame 30 */
        ak_foot_ik_frame fr = standing_frame(&R.fp, &st, NULL);
        for (int s = 0; s < 2; ++s) {
            fr.stance[s] = fr.stance_next[s] = s ? 1 : left;
            fr.contact[s] = AK_CONTACT_HEEL | AK_CONTACT_TOE;
        }
        if (f < 30) fr.contact[0] = AK_CONTACT_TOE; /* on its toe: the lock holds the toe */
        if (!left) fr.contact[0] = 0;
        assert_int_equal(ak_foot_ik_run(&R.fp, &st, &fr, R.local, R.world, &err), AK_OK);
        if (f == 29) assert_true(st.lock_toe[0]);
        if (f == 30) assert_true(st.lock_weight[0] > 0.8f && st.lock_weight[0] < 1.0f);
        if (f == 31) assert_false(st.lock_toe[0]);
        const ak_vec3 heel = ak_foot_ik_sole(&R.fp, R.world, 0);
        if (f >= 30) worst = fmaxf(worst, dist(heel, heel_was));
        heel_was = heel;
    }
    printf("  toe lock, released a frame, heel lock: the heel moved %.3f mm a frame at most\n",
           1e3 * (double)worst);
    assert_true(worst <= MM);
    assert_sole_on(0, &g, "heel lock");
}

/* A foot across the edge of a stair down: the left heel on a tread at the floor, the edge 0.9
 * of the foot's length toward its toe, the tread below a riser of 0.15 m lower. Planted flat (heel
 * and toe down), then rolling over its toe (the toe alone down), no point of the foot is under the
 * ground it is over: the foot lies on its heel's tread, its toe over the edge, and rolls over that
 * edge. Tipped toward the tread below (the toe's ground), the toe came back over the edge under
 * the tread, and rolled on its toe's ground, the heel went under it (CMU 02_02 at 24 fps down the
 * built-in stairs: toe 83 mm, then heel 90 mm under the 0.45 tread). */
#define EDGE_RISER 0.15f
static float edge_height(float edge, ak_vec3 q)
{
    return q.z < edge ? R.floor : R.floor - EDGE_RISER;
}

static void foot_across_a_stair_edge_stays_on_its_tread(void **state)
{
    (void)state;
    const ak_vec3 heel0 = ak_foot_ik_sole(&R.fp, R.world0, 0),
                  toe0 = ak_foot_ik_toe(&R.fp, R.world0, 0);
    const float edge = heel0.z + 0.9f * (toe0.z - heel0.z);
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    ak_error err;
    float under[2] = {0.0f, 0.0f}; /* the deepest heel and toe below the ground they are over */
    for (int f = 0; f < 2 * FRAMES; ++f) {
        ak_foot_ik_frame fr = standing_frame(&R.fp, &st, NULL);
        ak_vec3 hq[2], tq[2];
        ak_foot_ik_query_points(&R.fp, &st, R.world, hq, tq);
        fr.ground[0].height = edge_height(edge, hq[0]);
        fr.ground_toe[0].height = edge_height(edge, tq[0]);
        for (int s = 0; s < 2; ++s) {
            fr.stance[s] = fr.stance_next[s] = 1;
            fr.contact[s] = AK_CONTACT_HEEL | AK_CONTACT_TOE;
        }
        if (f >= FRAMES) fr.contact[0] = AK_CONTACT_TOE; /* rolling over its toe */
        assert_int_equal(ak_foot_ik_run(&R.fp, &st, &fr, R.local, R.world, &err), AK_OK);
        const ak_vec3 heel = ak_foot_ik_sole(&R.fp, R.world, 0),
                      toe = ak_foot_ik_toe(&R.fp, R.world, 0);
        under[0] = fmaxf(under[0], edge_height(edge, heel) - heel.y);
        under[1] = fmaxf(under[1], edge_height(edge, toe) - toe.y);
        if (f == FRAMES - 1) {
            printf("  planted: heel %+.3f mm, toe %+.3f mm off the tread\n",
                   1e3 * (double)(heel.y - R.floor), 1e3 * (double)(toe.y - R.floor));
            AKT_NEAR(heel.y, R.floor, MM);
            AKT_NEAR(toe.y, R.floor, MM);
        }
    }
    assert_true(st.lock_toe[0]);
    printf("  across the edge: heel %.3f mm, toe %.3f mm under the ground at most\n",
           1e3 * (double)under[0], 1e3 * (double)under[1]);
    assert_true(under[0] <= MM && under[1] <= MM);
    assert_pose_sound();
}

/* A foot planted on its toe across a riser up: the left toe on a tread at the floor, the riser's
 * edge 0.3 of the foot's length from the heel toward the toe, the heel over the tread a riser
 * (0.15 m) lower, and the pose pitched toe-up by 20 degrees (the source's heel-down pitch, as a
 * heel strike has it). The sole spans the edge, so no point of it may be below the toe's tread:
 * the heel keeps to that tread, not the one its own ray finds (and past the edge it is over that
 * tread). Held to the heel ray's ground alone, the pitch took the heel 41.0 mm below the tread
 * (71.6 mm the first frame, past the edge: in the step; the guide walker on Debian's assimp
 * 01_03.bvh up the built-in stairs, frame 785: 93.1 mm). */
#define HEEL_PITCH (20.0f * DEG)
static float riser_up_height(float edge, ak_vec3 q)
{
    return q.z >= edge ? R.floor : R.floor - EDGE_RISER;
}

static void heel_pitched_down_behind_a_riser_up_stays_on_the_toe_s_tread(void **state)
{
    (void)state;
    const ak_vec3 heel0 = ak_foot_ik_sole(&R.fp, R.world0, 0),
                  toe0 = ak_foot_ik_toe(&R.fp, R.world0, 0);
    const float edge = heel0.z + 0.3f * (toe0.z - heel0.z);
    const int32_t foot = R.fp.legs[0].foot, parent = R.sk->parents[foot];
    /* the standing pose's left foot turned toe-up about the world's +x (the character faces +z) */
    const ak_quat pw = R.world0[parent].rotation;
    const ak_quat pitched = ak_quat_mul(ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), -HEEL_PITCH),
                                        R.world0[foot].rotation);
    const ak_quat local = ak_quat_normalize(ak_quat_mul(ak_quat_conjugate(pw), pitched));
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    ak_error err;
    float under = 0.0f, toe_off = 0.0f, heel_drop = 0.0f;
    for (int f = 0; f < FRAMES; ++f) {
        memcpy(R.local, R.local0, (size_t)R.J * sizeof(ak_xform));
        R.local[foot].rotation = local;
        ak_fk(R.sk, R.local, R.world);
        if (f == 0)
            heel_drop = ak_foot_ik_toe(&R.fp, R.world, 0).y - ak_foot_ik_sole(&R.fp, R.world, 0).y;
        ak_vec3 hq[2], tq[2];
        ak_foot_ik_query_points(&R.fp, &st, R.world, hq, tq);
        ak_foot_ik_frame fr;
        memset(&fr, 0, sizeof fr);
        fr.dt = 1.0f / FPS;
        fr.character = ak_xform_identity();
        fr.floor_height = R.floor;
        const plane level = flat(R.floor);
        fr.ground[0] = hit_at(&level, hq[0]);
        fr.ground[0].height = riser_up_height(edge, hq[0]);
        fr.ground_toe[0] = hit_at(&level, tq[0]);
        fr.ground_toe[0].height = riser_up_height(edge, tq[0]);
        fr.ground[1] = hit_at(&level, hq[1]);
        fr.ground_toe[1] = hit_at(&level, tq[1]);
        for (int s = 0; s < 2; ++s)
            fr.stance[s] = fr.stance_next[s] = 1;
        fr.contact[0] = AK_CONTACT_TOE; /* on its toe: the lock holds the toe */
        fr.contact[1] = AK_CONTACT_HEEL | AK_CONTACT_TOE;
        assert_int_equal(ak_foot_ik_run(&R.fp, &st, &fr, R.local, R.world, &err), AK_OK);
        const ak_vec3 heel = ak_foot_ik_sole(&R.fp, R.world, 0),
                      toe = ak_foot_ik_toe(&R.fp, R.world, 0);
        if (f < 10) continue; /* (the toe lock takes hold) */
        under = fmaxf(under, R.floor - heel.y);
        toe_off = fmaxf(toe_off, fabsf(toe.y - R.floor));
    }
    assert_true(st.lock_toe[0]);
    printf("  toe-up %.0f deg (heel %.1f mm below the toe as posed): heel %.3f mm under the toe's "
           "tread at most, toe %.3f mm off it\n",
           (double)(HEEL_PITCH / DEG), 1e3 * (double)heel_drop, 1e3 * (double)under,
           1e3 * (double)toe_off);
    assert_true(heel_drop > 0.03f); /* what this test is about: a pitch that would go 3 cm in */
    assert_true(under <= MM && toe_off <= MM);
    assert_pose_sound();
}

/* The floor both walkers stand their animation on (ak_floor_support, ak_floor_follow): a
 * planted foot's ground, a swinging foot's smoothstep glide from its foothold to its landing
 * (the guide walker's up a step by 40 % of the swing), the fallback without a foothold; the follow
 * is core's exact spring, so a 0.15 m stair step reaches the same height at the same time at 30, 60
 * and 120 Hz, without overshoot. */
static void floor_follows_the_footholds_at_any_frame_rate(void **state)
{
    (void)state;
    float hold = 0.0f;
    int32_t has = 0;
    const ak_ground_hit down = {1, 0.15f, {0.0f, 1.0f, 0.0f}};
    const ak_ground_hit land = {1, 0.45f, {0.0f, 1.0f, 0.0f}};
    const ak_ground_hit none = {0, 0.0f, {0.0f, 1.0f, 0.0f}};
    assert_float_equal(ak_floor_support(&hold, &has, 0, &none, &land, 0.5f, -1.0f, 0), -1.0f, 0.0f);
    assert_float_equal(ak_floor_support(&hold, &has, 1, &down, NULL, 0.0f, -1.0f, 0), 0.15f, 0.0f);
    assert_int_equal(has, 1);
    /* swinging: smoothstep(0.5) = 0.5 of the way, smoothstep(0.25) = 0.15625 */
    assert_float_equal(ak_floor_support(&hold, &has, 0, &none, &land, 0.5f, -1.0f, 0), 0.30f,
                       1e-6f);
    assert_float_equal(ak_floor_support(&hold, &has, 0, &none, &land, 0.25f, -1.0f, 0),
                       0.15f + 0.3f * 0.15625f, 1e-6f);
    /* no landing known, or planted without a hit: the foothold */
    assert_float_equal(ak_floor_support(&hold, &has, 0, &none, &none, 0.5f, -1.0f, 0), 0.15f, 0.0f);
    assert_float_equal(ak_floor_support(&hold, &has, 1, &none, &land, 0.5f, -1.0f, 0), 0.15f, 0.0f);
    /* step_early (the guide walker): up one riser between level grounds the foothold reaches
     * the landing by 40 % of the swing, as the foot's own glide does (smoothstep(0.2 / 0.4) =
     * 0.5); up more than a riser (0.18 m) the first 0.18 m by 40 %, the rest by 55 %
     * (smoothstep(0.4 / 0.55) = 1088/1331); on a slope under the foot, or down, the whole swing */
    const ak_ground_hit tilted = {1, 0.15f, {0.0f, 0.99f, 0.141f}};
    const ak_ground_hit below = {1, 0.0f, {0.0f, 1.0f, 0.0f}};
    const ak_ground_hit riser = {1, 0.30f, {0.0f, 1.0f, 0.0f}};
    assert_float_equal(ak_floor_support(&hold, &has, 0, &down, &riser, 0.2f, -1.0f, 1), 0.225f,
                       1e-6f);
    assert_float_equal(ak_floor_support(&hold, &has, 0, &down, &riser, 0.4f, -1.0f, 1), 0.30f,
                       1e-6f);
    assert_float_equal(ak_floor_support(&hold, &has, 0, &down, &land, 0.4f, -1.0f, 1),
                       0.15f + 0.18f + 0.12f * 1088.0f / 1331.0f, 1e-6f);
    assert_float_equal(ak_floor_support(&hold, &has, 0, &down, &land, 0.6f, -1.0f, 1), 0.45f,
                       1e-6f);
    assert_float_equal(ak_floor_support(&hold, &has, 0, &tilted, &land, 0.5f, -1.0f, 1), 0.30f,
                       1e-6f);
    assert_float_equal(ak_floor_support(&hold, &has, 0, &down, &below, 0.5f, -1.0f, 1), 0.075f,
                       1e-6f);
    /* the follow: omega = 1/0.12 s; after 0.3 s from rest the closed form 1 - (1 + 2.5) e^-2.5 */
    const int hz[3] = {30, 60, 120};
    const double want = 0.15 * (1.0 - 3.5 * exp(-2.5));
    for (int k = 0; k < 3; ++k) {
        float y = 0.0f, v = 0.0f, last = 0.0f;
        ak_floor_follow(&y, &v, 0.0f, 0.12f, 1.0f / (float)hz[k], 0);
        for (int i = 0; i < (3 * hz[k]) / 10; ++i) {
            ak_floor_follow(&y, &v, 0.15f, 0.12f, 1.0f / (float)hz[k], 1);
            assert_true(y >= last && y <= 0.15f);
            last = y;
        }
        printf("  floor at %d Hz after 0.3 s: %.6f m (closed form %.6f)\n", hz[k], (double)y, want);
        assert_float_equal(y, want, 1e-6f);
    }
    /* the first frame, or no smoothing: at once */
    float y = 0.0f, v = 3.0f;
    ak_floor_follow(&y, &v, 0.4f, 0.0f, 1.0f / 60.0f, 1);
    assert_float_equal(y, 0.4f, 0.0f);
    assert_float_equal(v, 0.0f, 0.0f);
}

/* Up a slope the floor's support rises at the ground's climb rate r; fed forward (the goal's
 * rate, walker.c update_floor) the floor stays on it to float precision, else it trails by the
 * critically damped spring's ramp lag, e(t) = (2 r / w) (1 - e^-wt (1 + w t)) starting on the
 * ramp at its rate (e'' + 2 w e' + w^2 e = 2 w r, e(0) = e'(0) = 0): r = 0.46 m/s (CMU 02_01
 * at 24 fps up the tests' heightmap's 40 % climb), w = 1/0.12 s, after 1 s 0.1102 m; sampled
 * once a frame, within one frame's rise of it at 30, 60 and 120 Hz. */
static void floor_keeps_up_with_a_climb_fed_its_rate(void **state)
{
    (void)state;
    const float r = 0.46f, smoothing = 0.12f, w = 1.0f / smoothing;
    const int hz[3] = {30, 60, 120};
    for (int k = 0; k < 3; ++k) {
        const float dt = 1.0f / (float)hz[k];
        float fed = 0.0f, fed_v = r, lag = 0.0f, lag_v = r;
        float worst = 0.0f;
        for (int i = 1; i <= hz[k]; ++i) {
            const float support = r * dt * (float)i;
            ak_floor_follow_climb(&fed, &fed_v, support, r, smoothing, dt, 1);
            ak_floor_follow(&lag, &lag_v, support, smoothing, dt, 1);
            worst = fmaxf(worst, fabsf(fed - support));
        }
        const double want = 2.0 * r / w * (1.0 - exp(-(double)w) * (1.0 + w));
        printf("  climb at %d Hz: fed off the ramp at most %.2e m; unfed %.4f m behind (%.4f)\n",
               hz[k], (double)worst, (double)(r - lag), want);
        assert_true(worst <= 1e-5f);
        assert_true(fabs((double)(r - lag) - want) <= (double)(r * dt));
    }
}

/* A push-off toe the body goes on over (issue 21): the right foot planted on its toe alone, the
 * left swinging (its landing half a second away), the character moving on at 1.5 m/s with the
 * planned hips (the source's envelope +-1 g, ak_foot_ik_plan_accel). Once the hips pass 0.36 m
 * beyond the toe its leg's need grows at up to 1 m/s. Returns the toe's highest point over its
 * ground over 0.5 s; *fall: the hips' fastest downward acceleration (m/s^2, the second
 * difference of the pelvis height); the left foot lands `land_rise` above the toe's ground. */
static float push_off_toe_over(float land_rise, float *fall)
{
    ak_foot_ik_params fp = R.fp;
    ak_foot_ik_plan_accel(&fp, -1.0f, 1.0f);
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    ak_error err;
    const plane level = flat(R.floor);
    const float v = 1.5f, dt = 1.0f / 120.0f;
    float top = 0.0f, y[3] = {0.0f, 0.0f, 0.0f};
    *fall = 0.0f;
    for (int f = 0; f < 60; ++f) {
        const float z = v * dt * (float)f;
        memcpy(R.local, R.local0, (size_t)R.J * sizeof(ak_xform));
        memcpy(R.world, R.world0, (size_t)R.J * sizeof(ak_xform));
        R.local[0].translation.z += z;
        for (int32_t j = 0; j < R.J; ++j)
            R.world[j].translation.z += z;
        ak_vec3 hq[2], tq[2];
        ak_foot_ik_query_points(&fp, &st, R.world, hq, tq);
        ak_foot_ik_frame fr;
        memset(&fr, 0, sizeof fr);
        fr.dt = f ? dt : 0.0f;
        fr.character = ak_xform_identity();
        fr.character.translation.z = z;
        fr.floor_height = R.floor;
        for (int s = 0; s < 2; ++s) {
            fr.ground[s] = hit_at(&level, hq[s]);
            fr.ground_toe[s] = hit_at(&level, tq[s]);
        }
        fr.stance[1] = 1;
        fr.contact[1] = AK_CONTACT_TOE;
        fr.ground_land[0] = fr.ground[0];
        fr.ground_land[0].height += land_rise;
        fr.swing_phase[0] = 0.1f + 0.4f * (float)f / 60.0f;
        assert_int_equal(ak_foot_ik_run(&fp, &st, &fr, R.local, R.world, &err), AK_OK);
        top = fmaxf(top, st.toe[1].y - R.floor);
        y[0] = y[1];
        y[1] = y[2];
        y[2] = st.pelvis;
        if (f >= 3) *fall = fmaxf(*fall, -(y[2] - 2.0f * y[1] + y[0]) / (dt * dt));
    }
    return top;
}

/* Where the other foot will land no higher than the toe stands, the hips come down for the toe
 * as fast as a landing may bring them, at most 1 g (a body falls no faster than gravity): the
 * toe stays within the 5 cm a toe the source stands on may be held up (walk_physics.h) and comes
 * back toward its ground as the hips catch up (before: lifted straight up in place, the hips at
 * hip_accel_down). Where it lands a riser higher (0.15 m) the body must rise onto it: the hips
 * are pulled down for the toe at no more than hip_accel_down, and the toe lifts early. */
static void push_off_toe_kept_within_reach(void **state)
{
    (void)state;
    ak_foot_ik_params fp = R.fp;
    ak_foot_ik_plan_accel(&fp, -1.0f, 1.0f);
    float fall_level, fall_up;
    const float level = push_off_toe_over(0.0f, &fall_level);
    const float up = push_off_toe_over(0.15f, &fall_up);
    printf("  push-off toe, landing level: toe up %.1f mm, hips down at %.2f g; landing a riser "
           "up: toe up %.1f mm, hips down at %.2f g (hip_accel_down %.2f g)\n",
           (double)(level / MM), (double)(fall_level / 9.81f), (double)(up / MM),
           (double)(fall_up / 9.81f), (double)(fp.hip_accel_down / 9.81f));
    assert_true(level <= 0.05f);
    assert_true(fall_level <= 9.81f * 1.001f);
    assert_true(fall_level > fp.hip_accel_down * 1.5f);
    assert_true(fall_up <= fp.hip_accel_down * 1.001f);
    assert_true(up > 0.05f);
}

/* The standing pose with the left leg swung `back` radians about the hips' across axis (+X,
 * the character facing +Z: back > 0 puts the foot behind the hips), into pose/pose + R.J. */
static void left_leg_swung(float back, ak_xform *local, ak_xform *world)
{
    memcpy(local, R.local0, (size_t)R.J * sizeof(ak_xform));
    const int32_t up = R.fp.legs[0].upper, parent = R.sk->parents[up];
    ak_fk(R.sk, local, world);
    const ak_quat p = parent >= 0 ? world[parent].rotation : ak_quat_identity();
    const ak_quat q = ak_quat_from_axis_angle(ak_vec3_make(1, 0, 0), back);
    local[up].rotation =
        ak_quat_normalize(ak_quat_mul(ak_quat_mul(ak_quat_conjugate(p), q), world[up].rotation));
    ak_fk(R.sk, local, world);
}

/* A landing due on the left foot (swing phase 1, not planted: held in the air until its leg
 * reaches, as the matcher holds one) over a tread a riser (0.15 m) below the one the planted
 * right foot stands on, the planned hips (the source's envelope +-1 g), 0.5 s at 120 fps, the
 * left leg swung `back` radians; returns how far the hips came down (the applied drop) and, in
 * *short, how far the left leg still falls short of its ground (ak_foot_ik_state.due_drop). */
static float due_landing_a_riser_below(float back, float *short_by)
{
    ak_foot_ik_params fp = R.fp;
    ak_foot_ik_plan_accel(&fp, -1.0f, 1.0f);
    ak_foot_ik_state st;
    ak_foot_ik_state_reset(&st);
    ak_error err;
    const plane g[2] = {flat(R.floor - 0.15f), flat(R.floor)};
    const float dt = 1.0f / 120.0f;
    ak_xform *pose = malloc(2 * sizeof *pose * (size_t)R.J);
    assert_non_null(pose);
    for (int f = 0; f < 60; ++f) {
        left_leg_swung(back, pose, pose + R.J);
        memcpy(R.local, pose, (size_t)R.J * sizeof(ak_xform));
        memcpy(R.world, pose + R.J, (size_t)R.J * sizeof(ak_xform));
        ak_vec3 hq[2], tq[2];
        ak_foot_ik_query_points(&fp, &st, R.world, hq, tq);
        ak_foot_ik_frame fr;
        memset(&fr, 0, sizeof fr);
        fr.dt = f ? dt : 0.0f;
        fr.character = ak_xform_identity();
        fr.floor_height = R.floor;
        for (int s = 0; s < 2; ++s) {
            fr.ground[s] = hit_at(&g[s], hq[s]);
            fr.ground_toe[s] = hit_at(&g[s], tq[s]);
        }
        fr.stance[1] = fr.stance_next[1] = 1;
        fr.contact[1] = AK_CONTACT_HEEL | AK_CONTACT_TOE;
        fr.swing_phase[0] = 1.0f;
        fr.ground_land[0] = fr.ground[0];
        assert_int_equal(ak_foot_ik_run(&fp, &st, &fr, R.local, R.world, &err), AK_OK);
    }
    free(pose);
    *short_by = st.due_drop[0];
    return st.applied_hip_drop;
}

/* Going up stairs a foot whose landing is due a riser below the other foot's tread, behind the
 * hips and the other foot (trailing), is not waited for with the hips down: they stay at the
 * planted foot's height (within 1 mm) and the foot waits in the air for its pose source to lift
 * it (footik.c trailing_landing; CMU 07_04 up the stairs: the hips came 0.16 m down for such a
 * foot and the next swing two risers up folded the knee to 116 deg, bound 100). Ahead of the
 * other foot (a foot settling at a stop) it lands: the hips come down until its leg reaches
 * its ground (within 1 mm). */
static void trailing_foot_due_a_riser_below_keeps_the_hips_up(void **state)
{
    (void)state;
    float trail_short, lead_short;
    const float trail = due_landing_a_riser_below(25.0f * DEG, &trail_short);
    const float lead = due_landing_a_riser_below(-25.0f * DEG, &lead_short);
    printf("  due a riser below: trailing, hips down %.1f mm (leg %.1f mm short); leading, hips "
           "down %.1f mm (leg %.1f mm short)\n",
           (double)(trail / MM), (double)(trail_short / MM), (double)(lead / MM),
           (double)(lead_short / MM));
    assert_true(trail <= 1.0f * MM);
    assert_true(trail_short > 0.05f);
    assert_true(lead > 0.05f);
    assert_true(lead_short <= 1.0f * MM);
}

/* The swinging knee's limit planned from the source's peak knee (ak_foot_ik_plan_knee: the
 * peak, at least 75 degrees, plus 20) stays within the range the solver takes, [0, pi]: the
 * matcher over Debian assimp-testmodels' Boxing_Toes (163.7 degrees at its database's peak)
 * planned 183.7 and refused the clip. Below 160 degrees the rule is unchanged. */
static void a_source_knee_past_160_degrees_plans_a_limit_the_solver_takes(void **state)
{
    (void)state;
    const float deg = 3.14159265f / 180.0f;
    ak_error err;
    ak_foot_ik_params p = ak_foot_ik_defaults();
    ak_foot_ik_plan_knee(&p, 163.7f * deg);
    assert_true(p.max_knee_flex <= 3.14159265f && p.max_knee_flex > 160.0f * deg);
    assert_int_equal(ak_params_check(ak_foot_ik_param_ranges(), &p, &err), AK_OK);
    p = ak_foot_ik_defaults();
    ak_foot_ik_plan_knee(&p, 110.0f * deg);
    AKT_NEAR(p.max_knee_flex, 130.0f * deg, 1e-6);
    p = ak_foot_ik_defaults();
    ak_foot_ik_plan_knee(&p, 40.0f * deg);
    AKT_NEAR(p.max_knee_flex, 95.0f * deg, 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(foot_ik_params_validity),
        cmocka_unit_test(reach_params_validity),
        cmocka_unit_test(standing_pose_is_planted),
        cmocka_unit_test(flat_ground_raised_and_lowered),
        cmocka_unit_test(one_foot_on_a_step),
        cmocka_unit_test(foot_on_a_slope),
        cmocka_unit_test(ground_out_of_reach),
        cmocka_unit_test(zero_weight_and_no_stance_leave_the_leg),
        cmocka_unit_test(a_re_step_lifts_the_foot_not_planted),
        cmocka_unit_test(a_point_clearance_keeps_that_point_up),
        cmocka_unit_test(a_new_lock_of_the_other_point_starts_where_it_is_shown),
        cmocka_unit_test(foot_across_a_stair_edge_stays_on_its_tread),
        cmocka_unit_test(heel_pitched_down_behind_a_riser_up_stays_on_the_toe_s_tread),
        cmocka_unit_test(floor_follows_the_footholds_at_any_frame_rate),
        cmocka_unit_test(floor_keeps_up_with_a_climb_fed_its_rate),
        cmocka_unit_test(push_off_toe_kept_within_reach),
        cmocka_unit_test(trailing_foot_due_a_riser_below_keeps_the_hips_up),
        cmocka_unit_test(a_source_knee_past_160_degrees_plans_a_limit_the_solver_takes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
