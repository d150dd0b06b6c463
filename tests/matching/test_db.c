/* The motion database: cuts, candidates, features in the character's ground frame,
 * normalisation, contacts from the walker's heel and toe detector, and the accelerated search
 * returning the brute-force frame. First: ak_motion_db_params refused field by field. */
#include "match_util.h"
#include "test_params.h"
#include "animkit/scenario.h"
#include "scene_walk_util.h"

static int32_t db_validate(const void *params, ak_error *err)
{
    return ak_motion_db_validate((const ak_motion_db_params *)params, err);
}

/* One float field set to each bad value is refused by name. */
static void expect_float_refused(size_t offset, const char *field, const float *bad, size_t n)
{
    const ak_motion_db_params d = ak_motion_db_defaults();
    for (size_t i = 0; i < n; ++i) {
        ak_motion_db_params p = d;
        memcpy((char *)&p + offset, &bad[i], sizeof(float));
        char what[96];
        snprintf(what, sizeof what, "%s = %g", field, (double)bad[i]);
        akt_expect_refused(db_validate, &p, AK_ERR_INVALID_ARG, field, what);
    }
}

static void motion_db_params_validity(void **state)
{
    (void)state;
    const ak_motion_db_params d = ak_motion_db_defaults();
    AKT_NEAR(d.frame_rate, 60.0f, 0.0);
    AKT_NEAR(d.metres_per_unit, 0.0f, 0.0);
    akt_expect_refused(db_validate, &d, AK_OK, NULL, "defaults");
    akt_expect_refused(db_validate, NULL, AK_ERR_INVALID_ARG, NULL, "NULL");
    const float neg[] = {NAN, INFINITY, -INFINITY, -1e20f, -0.001f};
    const float rate[] = {NAN, INFINITY, 9.99f, 1000.5f, 1e20f, -60.0f, 0.0f};
    const float smooth[] = {NAN, INFINITY, -0.01f, 2.01f, 1e20f};
    const float speed[] = {NAN, INFINITY, 0.0f, -25.0f, -1e20f};
    expect_float_refused(offsetof(ak_motion_db_params, metres_per_unit), "metres_per_unit", neg,
                         sizeof neg / sizeof neg[0]);
    expect_float_refused(offsetof(ak_motion_db_params, frame_rate), "frame_rate", rate,
                         sizeof rate / sizeof rate[0]);
    expect_float_refused(offsetof(ak_motion_db_params, max_joint_speed), "max_joint_speed", speed,
                         sizeof speed / sizeof speed[0]);
    expect_float_refused(offsetof(ak_motion_db_params, position_smoothing), "position_smoothing",
                         smooth, sizeof smooth / sizeof smooth[0]);
    expect_float_refused(offsetof(ak_motion_db_params, heading_smoothing), "heading_smoothing",
                         smooth, sizeof smooth / sizeof smooth[0]);
    for (int g = 0; g < AK_MATCH_GROUPS; ++g) {
        char field[16];
        snprintf(field, sizeof field, "weights[%d]", g);
        expect_float_refused(offsetof(ak_motion_db_params, weights) + sizeof(float) * (size_t)g,
                             field, neg, sizeof neg / sizeof neg[0]);
    }
    ak_motion_db_params p = d;
    for (int g = 0; g < AK_MATCH_GROUPS; ++g)
        p.weights[g] = 0.0f;
    akt_expect_refused(db_validate, &p, AK_ERR_INVALID_ARG, "weights", "all weights 0");
    /* the nested contact detector: each of its fields refused as contacts.<field> */
    const ak_param_table *ct = ak_contact_param_ranges();
    for (int32_t i = 0; i < ct->count; ++i) {
        p = d;
        const float v = ct->ranges[i].hi * 2.0f + 1.0f;
        memcpy((char *)&p.contacts + ct->ranges[i].offset, &v, sizeof v);
        char field[80];
        snprintf(field, sizeof field, "contacts.%s", ct->ranges[i].field);
        akt_expect_refused(db_validate, &p, AK_ERR_INVALID_ARG, field, field);
    }
    /* the bounds themselves are accepted */
    p = d;
    p.frame_rate = 10.0f;
    p.position_smoothing = 2.0f;
    p.heading_smoothing = 0.0f;
    akt_expect_refused(db_validate, &p, AK_OK, NULL, "bounds");
}

/* The built-in walk at a few gaits, each unrolled from its loop: straight, steady speed. */
static ak_motion_db *builtin_db(int gaits, ak_skeleton **sk_out, float *speed_out)
{
    ak_clip *clips[32];
    ak_motion_db_clip src[32];
    ak_skeleton *sk = NULL;
    ak_error err;
    assert_true(gaits <= 32);
    for (int i = 0; i < gaits; ++i) {
        ak_walk_clip_params wp = ak_walk_clip_defaults();
        wp.stride_length = 1.0f + 0.3f * (float)i / (float)(gaits > 1 ? gaits - 1 : 1);
        wp.cycle_time = 1.2f - 0.3f * (float)i / (float)(gaits > 1 ? gaits - 1 : 1);
        ak_skeleton *s = NULL;
        assert_int_equal(ak_walk_clip_create(&wp, &s, &clips[i], &err), AK_OK);
        if (i == 0) {
            sk = s;
            if (speed_out) *speed_out = wp.stride_length / wp.cycle_time;
        } else {
            ak_skeleton_destroy(s);
        }
        memset(&src[i], 0, sizeof src[i]);
        src[i].clip = clips[i];
        src[i].loops = 4;
    }
    ak_motion_db_params p = ak_motion_db_defaults();
    p.metres_per_unit = 1.0f;
    ak_motion_db *db = NULL;
    assert_int_equal(ak_motion_db_create(sk, src, gaits, &p, &db, &err), AK_OK);
    for (int i = 0; i < gaits; ++i)
        ak_clip_destroy(clips[i]);
    *sk_out = sk;
    return db;
}

/* A straight walk at v m/s: the future root is v*t ahead, facing ahead; the frame rate and
 * the candidate rule follow the parameters. The built-in pelvis yaws and sways every cycle;
 * the character frame smooths both, so its headings t apart differ by at most the clip's own
 * peak-to-peak yaw W, and its positions sideways by at most the peak-to-peak sway S plus
 * v t sin W. */
static void features_of_a_straight_walk_are_its_speed_and_heading(void **state)
{
    (void)state;
    ak_skeleton *sk;
    float v;
    ak_motion_db *db = builtin_db(1, &sk, &v);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    AKT_NEAR(info.frame_time, 1.0f / 60.0f, 1e-7);
    /* 4 loops of 1.2 s = 4.8 s at 60 fps: 289 frames, those with 60 frames after them are
     * candidates. */
    assert_int_equal(info.frame_count, 289);
    assert_int_equal(info.candidate_count, 289 - 60);
    assert_int_equal(info.range_count, 1);
    /* W and S of the same gait, measured on its clip */
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    wp.stride_length = 1.0f;
    wp.cycle_time = 1.2f;
    ak_skeleton *csk;
    ak_clip *clip;
    assert_int_equal(ak_walk_clip_create(&wp, &csk, &clip, NULL), AK_OK);
    float hmin = INFINITY, hmax = -INFINITY, xmin = INFINITY, xmax = -INFINITY;
    for (int32_t f = 0; f < clip->frame_count; ++f) {
        const ak_quat q = clip->rotations[(size_t)f * clip->joint_count];
        const float h = ak_heading_of(q, ak_vec3_make(0, 0, 1));
        const float x = clip->translations[(size_t)f * clip->track_count].x;
        hmin = fminf(hmin, h);
        hmax = fmaxf(hmax, h);
        xmin = fminf(xmin, x);
        xmax = fmaxf(xmax, x);
    }
    ak_clip_destroy(clip);
    ak_skeleton_destroy(csk);
    const double lean = sin((double)(hmax - hmin)), sway = (double)(xmax - xmin);
    printf("speed %.3f m/s, yaw %.2f deg and sway %.3f m peak to peak\n", (double)v,
           (double)(hmax - hmin) * 57.2958, sway);
    float raw[AK_MATCH_FEATURES];
    for (int32_t f = 0; f < info.candidate_count; f += 7) {
        assert_true(ak_motion_db_is_candidate(db, f));
        ak_motion_db_features(db, f, raw);
        for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
            const float t = (float)(k + 1) / 3.0f;
            AKT_NEAR(raw[15 + 2 * k], 0.0f, sway + lean * v * t); /* sideways */
            AKT_NEAR(raw[16 + 2 * k], v * t, 0.01 + (1.0 - cos(asin(lean))) * v * t);
            AKT_NEAR(raw[21 + 2 * k], 0.0f, lean); /* facing ahead */
            AKT_NEAR(raw[22 + 2 * k], 1.0f, 1.0 - cos(asin(lean)));
        }
        /* feet either side of the root: left (+x) and right (-x), at or above the floor */
        assert_true(raw[0] > 0.0f && raw[3] < 0.0f);
        assert_true(raw[1] > 0.0f && raw[4] > 0.0f);
    }
    assert_false(ak_motion_db_is_candidate(db, info.frame_count - 1));
    assert_false(ak_motion_db_is_candidate(db, info.frame_count - 60));
    ak_motion_db_destroy(db);
    ak_skeleton_destroy(sk);
}

/* Contacts come from the walker's heel and toe detector: on the built-in walk the flat foot
 * (heel and toe down) agrees with the constructed stance of the same cycle; every constructed
 * stance frame is a detected stance, and the detector's extra stance frames are the roll onto
 * the toe at lift-off and the touch-down, within 0.1 s of a constructed stance. */
static void contacts_match_the_built_in_walks_stance(void **state)
{
    (void)state;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    wp.frame_rate = 60.0f;
    ak_skeleton *sk;
    ak_clip *clip;
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &clip, NULL), AK_OK);
    const int32_t n = clip->frame_count;
    uint8_t *flags = (uint8_t *)malloc((size_t)n * 2);
    assert_non_null(flags);
    assert_int_equal(ak_walk_clip_contacts(&wp, clip, flags, flags + n, NULL), AK_OK);
    ak_motion_db_clip src = {clip, 0, 0, 4, "builtin"};
    ak_motion_db_params p = ak_motion_db_defaults();
    p.metres_per_unit = 1.0f;
    ak_motion_db *db = NULL;
    assert_int_equal(ak_motion_db_create(sk, &src, 1, &p, &db, NULL), AK_OK);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    const int32_t near = (int32_t)(0.1f * 60.0f);
    int32_t flat = 0, stance = 0, total = 0, missing = 0, far_extra = 0;
    /* away from the unrolled ends, where the detector has only one side */
    for (int32_t f = 10; f < info.frame_count - 10; ++f)
        for (int s = 0; s < 2; ++s) {
            const int32_t c = ak_motion_db_contact(db, f, s), k = flags[s * n + f % n] != 0;
            flat += (c == (AK_CONTACT_HEEL | AK_CONTACT_TOE)) == k;
            stance += (c != 0) == k;
            missing += k && !c;
            if (c && !k) {
                int close = 0;
                for (int32_t d = -near; d <= near; ++d)
                    close |= flags[s * n + ((f + d) % n + n) % n] != 0;
                far_extra += !close;
            }
            ++total;
        }
    printf("flat foot agrees with the constructed stance on %d of %d foot-frames (stance either "
           "bit: %d); %d constructed stance frames missed, %d extra stance frames away from one\n",
           (int)flat, (int)total, (int)stance, (int)missing, (int)far_extra);
    assert_true(flat >= total * 95 / 100);
    assert_int_equal(missing, 0);
    assert_int_equal(far_extra, 0);
    free(flags);
    ak_motion_db_destroy(db);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
}

/* CMU subject 2's run has stance on each foot and flight phases (neither foot down); its
 * walks have both feet in stance at some frames (double support) and toe-only roll-off. */
static void the_run_has_stance_and_flight_the_walks_double_support(void **state)
{
    (void)state;
    akt_sources s;
    ak_motion_db *db = akt_subject2_db(&s);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    int32_t count[AKT_SUBJECT2_COUNT][5];
    memset(count, 0, sizeof count);
    for (int32_t f = 0; f < info.frame_count; ++f) {
        int32_t clip;
        ak_motion_db_frame_source(db, f, &clip, NULL);
        const int32_t l = ak_motion_db_contact(db, f, 0), r = ak_motion_db_contact(db, f, 1);
        count[clip][0] += l != 0;
        count[clip][1] += r != 0;
        count[clip][2] += l && r;
        count[clip][3] += !l && !r;
        count[clip][4] += (l == AK_CONTACT_TOE) + (r == AK_CONTACT_TOE);
    }
    for (int c = 0; c < AKT_SUBJECT2_COUNT; ++c)
        printf("%s: left stance %d, right %d, both %d, neither %d, toe-only foot-frames %d\n",
               akt_subject2[c], (int)count[c][0], (int)count[c][1], (int)count[c][2],
               (int)count[c][3], (int)count[c][4]);
    const int run = 2;
    assert_true(count[run][0] > 0 && count[run][1] > 0 && count[run][3] > 0);
    assert_int_equal(count[run][2], 0); /* a run never has both feet down */
    assert_true(count[0][2] > 0);
    assert_true(count[0][4] > 0 && count[1][4] > 0);
    ak_motion_db_destroy(db);
    akt_sources_free(&s);
}

/* Angle between joint j's keys a and b of clip c, radians. */
static float key_turn(const ak_clip *c, int32_t a, int32_t j, int32_t b)
{
    const int32_t J = c->joint_count;
    float d = fabsf(ak_quat_dot(c->rotations[(size_t)a * J + j], c->rotations[(size_t)b * J + j]));
    d = d > 1.0f ? 1.0f : d;
    return 2.0f * acosf(d);
}

/* 1 when a key m in [a, k] of joint j is an isolated glitch the database repairs: a turn over
 * `lim` into it and out of it, its neighbours within twice that of each other. */
static int repaired_in(const ak_clip *c, int32_t a, int32_t k, int32_t j, float lim)
{
    for (int32_t m = a > 1 ? a : 1; m <= k && m + 1 < c->frame_count; ++m)
        if (key_turn(c, m - 1, j, m) > lim - 1e-4f && key_turn(c, m, j, m + 1) > lim - 1e-4f &&
            key_turn(c, m - 1, j, m + 1) <= 2.0f * lim)
            return 1;
    return 0;
}

/* CMU subject 2: frame 0 of each file is a T-pose and a few keys jump a toe by more than
 * 25 rad/s (marker glitches); the database repairs an isolated glitch key and cuts where a
 * body joint still turns faster over 1/30 s (the span a 30 fps copy has between two frames),
 * a piece beginning that span after the last frame before the cut, keeps the pieces that hold
 * a second of future, detects CMU units, and every candidate has a second of future in its
 * piece. */
static void cmu_files_are_cut_at_their_t_pose_and_glitches(void **state)
{
    (void)state;
    akt_sources s;
    akt_sources_load(&s);
    ak_motion_db_params p = ak_motion_db_defaults();
    ak_motion_db *db = NULL;
    ak_error err;
    assert_int_equal(ak_motion_db_create(s.sk[0], s.src, AKT_SUBJECT2_COUNT, &p, &db, &err), AK_OK);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    assert_int_equal(info.units, AK_UNITS_CMU);
    assert_int_equal(info.clip_count, 3);
    int32_t clip, prev_clip = -1;
    float t, prev_t = 0.0f;
    ak_motion_db_frame_source(db, 0, &clip, &t);
    assert_int_equal(clip, 0);
    AKT_NEAR(t, 1.0f / 30.0f, 1e-4); /* starts 1/30 s after the T-pose frame (frame 4) */
    /* Within a piece no source key pair turns a body joint (the humanoid-mapped ones but the
     * toes, and those between them and the root) faster than the limit, except around an
     * isolated glitch key the database repaired. */
    uint8_t body[64] = {0};
    assert_true(s.sk[0]->joint_count <= 64);
    body[0] = 1;
    const ak_humanoid *h = ak_motion_db_humanoid(db);
    for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot)
        for (int32_t j = h->joint[slot];
             slot != AK_HUM_LEFT_TOE && slot != AK_HUM_RIGHT_TOE && j >= 0 && !body[j];
             j = s.sk[0]->parents[j])
            body[j] = 1;
    int32_t pieces = 0, repaired = 0, first_key = 0;
    for (int32_t f = 0; f < info.frame_count; ++f) {
        ak_motion_db_frame_source(db, f, &clip, &t);
        const ak_clip *c = s.clip[clip];
        if (clip != prev_clip || fabsf(t - prev_t - info.frame_time) > 1e-4f) {
            ++pieces;
            first_key = (int32_t)lroundf(t / c->frame_time);
        } else {
            /* 120 fps: each key against the key 4 earlier (1/30 s) or the piece's first */
            const int32_t span = (int32_t)lroundf(1.0f / 30.0f / c->frame_time);
            const float lim = p.max_joint_speed * c->frame_time;
            for (int32_t k = (int32_t)lroundf(prev_t / c->frame_time) + 1;
                 k <= (int32_t)lroundf(t / c->frame_time); ++k) {
                const int32_t a = k - span > first_key ? k - span : first_key;
                for (int32_t j = 0; j < c->joint_count; ++j) {
                    if (!body[j] || key_turn(c, a, j, k) <= lim * (float)span + 1e-4f) continue;
                    /* else the span holds an isolated glitch key, repaired */
                    assert_true(repaired_in(c, a, k, j, lim));
                    ++repaired;
                }
            }
        }
        prev_clip = clip;
        prev_t = t;
    }
    printf("%d pieces, %d source key spans over the limit around repaired keys\n", (int)pieces,
           (int)repaired);
    assert_int_equal(pieces, info.range_count);
    assert_true(info.range_count >= 3);
    assert_int_equal(info.candidate_count, info.frame_count - 60 * info.range_count);
    /* Ankles above the sole by a few centimetres; speeds of walking and running. */
    for (int k = 0; k < 2; ++k)
        assert_true(info.sole_height[k] > 0.03f && info.sole_height[k] < 0.15f);
    assert_true(info.min_speed > 0.3f && info.max_speed > 2.0f && info.max_speed < 4.0f);
    ak_motion_db_destroy(db);
    akt_sources_free(&s);
}

/* The source span of each of the database's ranges, s (first and last frame), up to n. */
static int32_t range_spans(const ak_motion_db *db, float (*span)[2], int32_t n)
{
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    int32_t r = -1, clip, prev_clip = -1;
    float t, prev_t = 0.0f;
    for (int32_t f = 0; f < info.frame_count; ++f) {
        ak_motion_db_frame_source(db, f, &clip, &t);
        if ((clip != prev_clip || fabsf(t - prev_t - info.frame_time) > 1e-4f) && r + 1 < n)
            span[++r][0] = t;
        span[r][1] = t;
        prev_clip = clip;
        prev_t = t;
    }
    return r + 1;
}

/* A capture and its 30 fps copy are cut alike: the cut is judged over 1/30 s. CMU 07_01 has
 * two marker steps of 0.216 and 0.214 rad in one 120 fps frame (frames 24 and 263, over the
 * 0.208 rad 25 rad/s allows there): judged per key they cut it to 0.200-2.183 s while the
 * 30 fps copy ran 0.033-2.633 s. Both now hold one range from 1/30 s after the T-pose (the
 * capture's frame 4, the copy's frame 1: the piece starts by time, not at the first frame after
 * the cut, 1/120 s in the capture) to their last frame, the same source span to one frame of the
 * copy (1/30 s). */
static void a_capture_and_its_30_fps_copy_are_cut_alike(void **state)
{
    (void)state;
    static const char *const name[] = {"cmu_07_01_walk.bvh"};
    akt_sources s;
    akt_sources_load_list(&s, name, 1);
    ak_edit_resample_params rp = ak_edit_resample_defaults(); /* 30 fps */
    ak_clip *c30 = NULL;
    ak_error err;
    assert_int_equal(ak_edit_resample_run(&rp, s.sk[0], s.clip[0], &c30, &err), AK_OK);
    const ak_motion_db_clip src30 = {c30, 0, 0, 0, "30 fps"};
    ak_motion_db_params p = ak_motion_db_defaults();
    ak_motion_db *db = NULL, *db30 = NULL;
    assert_int_equal(ak_motion_db_create(s.sk[0], s.src, 1, &p, &db, &err), AK_OK);
    assert_int_equal(ak_motion_db_create(s.sk[0], &src30, 1, &p, &db30, &err), AK_OK);
    float span[4][2], span30[4][2];
    const int32_t n = range_spans(db, span, 4), n30 = range_spans(db30, span30, 4);
    printf("120 fps: %d range(s), first %.4f-%.4f s; 30 fps: %d, first %.4f-%.4f s\n", (int)n,
           (double)span[0][0], (double)span[0][1], (int)n30, (double)span30[0][0],
           (double)span30[0][1]);
    assert_int_equal(n, 1);
    assert_int_equal(n30, 1);
    AKT_NEAR(span[0][0], 1.0f / 30.0f, 1e-4);   /* frame 4, 1/30 s after the T-pose */
    AKT_NEAR(span30[0][0], 1.0f / 30.0f, 1e-4); /* the copy's frame 1 */
    AKT_NEAR(span[0][1], span30[0][1], 1.0f / 30.0f);
    ak_motion_db_destroy(db);
    ak_motion_db_destroy(db30);
    ak_clip_destroy(c30);
    akt_sources_free(&s);
}

/* Normalised: each dimension centred over the candidates, each group's mean standard
 * deviation equal to its weight. */
static void groups_are_normalised_to_their_weights(void **state)
{
    (void)state;
    akt_sources s;
    ak_motion_db *db = akt_subject2_db(&s);
    const float w[AK_MATCH_GROUPS] = {2.0f, 1.0f, 0.5f, 3.0f, 0.25f};
    assert_int_equal(ak_motion_db_set_weights(db, w, NULL), AK_OK);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    double sum[AK_MATCH_FEATURES] = {0}, sum2[AK_MATCH_FEATURES] = {0};
    int32_t cnt = 0;
    float raw[AK_MATCH_FEATURES], q[AK_MATCH_FEATURES];
    for (int32_t f = 0; f < info.frame_count; ++f) {
        if (!ak_motion_db_is_candidate(db, f)) continue;
        ak_motion_db_features(db, f, raw);
        ak_motion_db_normalize(db, raw, q);
        for (int k = 0; k < AK_MATCH_FEATURES; ++k) {
            sum[k] += q[k];
            sum2[k] += (double)q[k] * q[k];
        }
        ++cnt;
    }
    for (int g = 0; g < AK_MATCH_GROUPS; ++g) {
        double sd = 0.0;
        for (int k = ak_match_group_offset(g);
             k < ak_match_group_offset(g) + ak_match_group_size(g); ++k) {
            const double m = sum[k] / cnt;
            AKT_NEAR(m, 0.0, 1e-3);
            sd += sqrt(sum2[k] / cnt - m * m);
        }
        AKT_NEAR(sd / ak_match_group_size(g), w[g], 1e-3 * w[g]);
    }
    const float bad[AK_MATCH_GROUPS] = {0, 0, 0, 0, 0};
    assert_int_equal(ak_motion_db_set_weights(db, bad, NULL), AK_ERR_INVALID_ARG);
    const float neg[AK_MATCH_GROUPS] = {1, -1, 1, 1, 1};
    assert_int_equal(ak_motion_db_set_weights(db, neg, NULL), AK_ERR_INVALID_ARG);
    ak_motion_db_destroy(db);
    akt_sources_free(&s);
}

/* 2,000 queries (database frames plus noise, and far-off random points): the box search
 * returns exactly the brute-force frame and cost, testing fewer frames. */
static void box_search_returns_the_brute_force_frame(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_motion_db *db = builtin_db(12, &sk, NULL);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    akt_rng rng = {0x9e3779b97f4a7c15ULL};
    float raw[AK_MATCH_FEATURES], q[AK_MATCH_FEATURES];
    long tested_brute = 0, tested_boxes = 0;
    for (int i = 0; i < 2000; ++i) {
        const int32_t f = (int32_t)(akt_next(&rng) % (uint64_t)info.frame_count);
        ak_motion_db_features(db, f, raw);
        ak_motion_db_normalize(db, raw, q);
        const float noise = i < 1000 ? 0.3f : 3.0f;
        for (int k = 0; k < AK_MATCH_FEATURES; ++k)
            q[k] += akt_uniform(&rng, -noise, noise);
        ak_match_result a, b;
        ak_motion_db_search(db, q, AK_MATCH_BRUTE, INFINITY, &a);
        ak_motion_db_search(db, q, AK_MATCH_BOXES, INFINITY, &b);
        assert_int_equal(a.frame, b.frame);
        assert_true(a.cost == b.cost);
        assert_true(ak_motion_db_is_candidate(db, a.frame));
        tested_brute += a.frames_tested;
        tested_boxes += b.frames_tested;
    }
    printf("%d frames, %d candidates: boxes test %.1f %% of the frames brute force does\n",
           (int)info.frame_count, (int)info.candidate_count,
           100.0 * (double)tested_boxes / (double)tested_brute);
    assert_true(tested_boxes < tested_brute);
    /* A bound already below every cost finds nothing. */
    ak_match_result r;
    ak_motion_db_search(db, q, AK_MATCH_BOXES, 0.0f, &r);
    assert_int_equal(r.frame, -1);
    ak_motion_db_destroy(db);
    ak_skeleton_destroy(sk);
}

/* Excluding ranges (the playing frame's neighbourhood, stretches just played): both searches
 * still agree, never return an excluded frame, and excluding the unexcluded answer's
 * neighbourhood is the same as searching the rest by brute force. */
static void search_excluding_ranges_agrees_and_skips_them(void **state)
{
    (void)state;
    ak_skeleton *sk;
    ak_motion_db *db = builtin_db(12, &sk, NULL);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    akt_rng rng = {77};
    float raw[AK_MATCH_FEATURES], q[AK_MATCH_FEATURES];
    for (int i = 0; i < 500; ++i) {
        const int32_t f = (int32_t)(akt_next(&rng) % (uint64_t)info.frame_count);
        ak_motion_db_features(db, f, raw);
        ak_motion_db_normalize(db, raw, q);
        for (int k = 0; k < AK_MATCH_FEATURES; ++k)
            q[k] += akt_uniform(&rng, -0.5f, 0.5f);
        ak_match_result whole, a, b;
        ak_motion_db_search(db, q, AK_MATCH_BRUTE, INFINITY, &whole);
        /* the winner's neighbourhood (20 frames either side) and a random other stretch */
        const int32_t r0 = (int32_t)(akt_next(&rng) % (uint64_t)info.frame_count);
        const int32_t ex[4] = {whole.frame - 20, whole.frame + 21, r0, r0 + 40};
        ak_motion_db_search_excluding(db, q, AK_MATCH_BRUTE, INFINITY, ex, 2, &a);
        ak_motion_db_search_excluding(db, q, AK_MATCH_BOXES, INFINITY, ex, 2, &b);
        assert_int_equal(a.frame, b.frame);
        assert_true(a.cost == b.cost);
        if (a.frame < 0) continue;
        assert_false(a.frame >= ex[0] && a.frame < ex[1]);
        assert_false(a.frame >= ex[2] && a.frame < ex[3]);
        assert_true(a.cost >= whole.cost);
        /* the reference: every candidate outside the ranges, by hand */
        float best = INFINITY;
        float cand[AK_MATCH_FEATURES], cn[AK_MATCH_FEATURES];
        for (int32_t g = 0; g < info.frame_count; ++g) {
            if (!ak_motion_db_is_candidate(db, g) || (g >= ex[0] && g < ex[1]) ||
                (g >= ex[2] && g < ex[3]))
                continue;
            ak_motion_db_features(db, g, cand);
            ak_motion_db_normalize(db, cand, cn);
            float c = 0.0f;
            for (int k = 0; k < AK_MATCH_FEATURES; ++k)
                c += (q[k] - cn[k]) * (q[k] - cn[k]);
            best = c < best ? c : best;
        }
        AKT_NEAR(a.cost, best, 1e-4 * (1.0 + best));
    }
    ak_motion_db_destroy(db);
    ak_skeleton_destroy(sk);
}

static void bad_input_is_refused_with_a_reason(void **state)
{
    (void)state;
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    ak_skeleton *sk;
    ak_clip *clip;
    assert_int_equal(ak_walk_clip_create(&wp, &sk, &clip, NULL), AK_OK);
    ak_motion_db_params p = ak_motion_db_defaults();
    ak_motion_db *db = (ak_motion_db *)1;
    ak_error err;
    /* 40 frames of a clamped clip: shorter than 1 s of future, nothing to match. */
    clip->loop = 0;
    ak_motion_db_clip src = {clip, 0, 40, 0, "short"};
    assert_int_equal(ak_motion_db_create(sk, &src, 1, &p, &db, &err), AK_ERR_DEGENERATE);
    assert_null(db);
    assert_non_null(strstr(err.message, "1 s"));
    /* Wrong joint count. */
    clip->loop = 1;
    clip->joint_count -= 1;
    assert_int_equal(ak_motion_db_create(sk, &src, 1, &p, &db, &err), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "joints"));
    clip->joint_count += 1;
    p.frame_rate = 0.0f;
    assert_int_equal(ak_motion_db_create(sk, &src, 1, &p, &db, &err), AK_ERR_INVALID_ARG);
    p = ak_motion_db_defaults();
    p.weights[2] = NAN;
    assert_int_equal(ak_motion_db_validate(&p, &err), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_motion_db_create(sk, NULL, 1, &p, &db, &err), AK_ERR_INVALID_ARG);
    ak_clip_destroy(clip);
    ak_skeleton_destroy(sk);
}

/* A jump or a stand on a prop is no ground the matcher walks on (db.c off_floor). In 01_03 both
 * feet are more than 17 cm (3 file units, 5.6 cm each) above the floor over these seconds of
 * the capture (its own FK, `animkit positions`): on a box 0.74 m high twice, and in two jumps.
 * The database held all of them (2247 frames, candidates among them); played, the matcher on
 * the flat arrived mid-jump with both feet 0.48 m up and then dropped the hips 0.72 m (knee
 * 177.3 deg). No stored frame comes from them now; the walk before the box (0.5-3.0 s) stays. */
static void a_database_leaves_out_jumps_and_a_box(void **state)
{
    (void)state;
    char path[1024];
    if (!akt_assimp_bvh("01_03.bvh", path, sizeof path)) {
        skip();
        return;
    }
    static const float off[4][2] = {
        {3.625f, 11.192f}, {15.767f, 16.300f}, {21.108f, 26.633f}, {32.992f, 33.825f}};
    ak_skeleton *sk = NULL;
    ak_clip *c = NULL;
    ak_error err;
    assert_int_equal(ak_bvh_read_file(path, NULL, &sk, &c, &err), AK_OK);
    const ak_motion_db_clip src = {.clip = c, .name = "01_03.bvh"};
    ak_motion_db_params p = ak_motion_db_defaults();
    ak_motion_db *db = NULL;
    assert_int_equal(ak_motion_db_create(sk, &src, 1, &p, &db, &err), AK_OK);
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    int walk = 0;
    for (int32_t f = 0; f < info.frame_count; ++f) {
        float t;
        ak_motion_db_frame_source(db, f, NULL, &t);
        walk += t >= 0.5f && t <= 3.0f;
        for (int i = 0; i < 4; ++i)
            if (t >= off[i][0] && t <= off[i][1])
                fail_msg("frame %d: %.3f s of the capture, in %.3f..%.3f s (off the floor)", f,
                         (double)t, (double)off[i][0], (double)off[i][1]);
    }
    printf("01_03: %d frames stored, %d of them 0.5-3.0 s\n", info.frame_count, walk);
    /* every frame of that walk: 2.5 s at 60 fps, less one at each end for the samples' offset */
    assert_true(walk >= (int)(2.5f * p.frame_rate) - 2);
    ak_motion_db_destroy(db);
    ak_skeleton_destroy(sk);
    ak_clip_destroy(c);
}

/* The matcher over 01_03 alone walks the CLI's route (-6,-4 to 6,4) on flat ground within issue
 * 21's bounds: no foot point more than 5 mm down, planted skate under 1 cm/s, hips within
 * [min(source, -1 g) - 0.25, max(source, +1 g) + 0.5], knee peak at most max(source, 75) + 25
 * deg, arrival within 0.3 m and at rest. Before the database left out the jumps and the box:
 * hips -2.78..2.94 g against -2.71..2.93, knee 177.3 deg against 139.0. */
static void a_capture_that_jumps_and_climbs_matches_a_walk(void **state)
{
    (void)state;
    ak_walk_summary sum;
    ak_walker_state st;
    if (!akt_walk_assimp("01_03.bvh", AK_WALK_STEER_MATCH, AK_WALK_TERRAIN_FLAT, 1, &sum, &st)) {
        skip();
        return;
    }
    const ak_walk_metrics *m = &sum.metrics;
    assert_true(sum.has_source);
    const akt_walk_bounds b = akt_issue21_bounds(&sum.source);
    const float lo = b.hips_lo_g, hi = b.hips_hi_g;
    const double knee = AKT_DEG(b.knee);
    printf("01_03 matched on the flat: deepest %.1f mm, skate %.2f mm/s, hips %.2f..%.2f g "
           "(bounds %.2f..%.2f), knee %.1f (bound %.1f) deg, %.3f m from the target, stopped %d\n",
           (double)m->deepest * 1e3, (double)m->skate * 1e3, (double)m->hip_accel_min_g,
           (double)m->hip_accel_max_g, (double)lo, (double)hi, AKT_DEG(m->knee_peak), knee,
           (double)st.distance, st.stopped);
    assert_true(m->deepest <= 0.005f);
    assert_true(m->skate < 0.01f);
    assert_true(m->hip_accel_min_g >= lo && m->hip_accel_max_g <= hi);
    assert_true(AKT_DEG(m->knee_peak) <= knee);
    assert_true(st.stopped && st.distance <= 0.3f);
}

/* A planted foot stays planted while the body, still moving as it did before a jump, comes on
 * over it (matcher.c body_lead). 01_03 up the CLI's stairs: the jump at frame 301 (database
 * 21 -> 297) carried 0.41 m/s over its frame's 0.68; counted, that travel released the only
 * planted foot at frame 316 while its frame stood on it, both feet were in the air 16 frames and
 * it landed with its toe 57 mm in a riser: planted deepest 56.6 mm, hips -10.57..10.50 g against
 * the issue's -3.84..2.76. On the hills of seed 7 the same release every 70 frames slid the right
 * toe at 0.25-0.32 m/s: skate 1.06 cm/s (bound 1). Issue 21's bounds as the test above. */
static void a_planted_foot_stays_while_the_body_comes_on_over_it(void **state)
{
    (void)state;
    ak_walk_summary sum;
    ak_walker_state st;
    if (!akt_walk_assimp("01_03.bvh", AK_WALK_STEER_MATCH, AK_WALK_TERRAIN_STAIRS, 1, &sum, &st)) {
        skip();
        return;
    }
    assert_true(sum.has_source);
    const ak_walk_metrics *m = &sum.metrics;
    const akt_walk_bounds b = akt_issue21_bounds(&sum.source);
    const float lo = b.hips_lo_g, hi = b.hips_hi_g;
    printf("01_03 matched up the stairs: planted deepest %.1f mm (frame %d), hips %.2f..%.2f g "
           "(bounds %.2f..%.2f), stopped %d at %.3f m\n",
           (double)m->deepest_planted * 1e3, (int)m->deepest_planted_frame,
           (double)m->hip_accel_min_g, (double)m->hip_accel_max_g, (double)lo, (double)hi,
           st.stopped, (double)st.distance);
    assert_true(m->deepest_planted <= 0.005f);
    assert_true(m->hip_accel_min_g >= lo && m->hip_accel_max_g <= hi);
    assert_true(st.stopped && st.distance <= 0.3f);
    assert_true(
        akt_walk_assimp("01_03.bvh", AK_WALK_STEER_MATCH, AK_WALK_TERRAIN_HILLS, 7, &sum, &st));
    assert_true(sum.has_source);
    printf("01_03 matched over the hills of seed 7: skate %.2f mm/s (bound 10)\n",
           (double)m->skate * 1e3);
    assert_true(m->skate < 0.01f);
    assert_true(st.stopped && st.distance <= 0.3f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(motion_db_params_validity),
        cmocka_unit_test(features_of_a_straight_walk_are_its_speed_and_heading),
        cmocka_unit_test(contacts_match_the_built_in_walks_stance),
        cmocka_unit_test(the_run_has_stance_and_flight_the_walks_double_support),
        cmocka_unit_test(cmu_files_are_cut_at_their_t_pose_and_glitches),
        cmocka_unit_test(a_capture_and_its_30_fps_copy_are_cut_alike),
        cmocka_unit_test(groups_are_normalised_to_their_weights),
        cmocka_unit_test(box_search_returns_the_brute_force_frame),
        cmocka_unit_test(search_excluding_ranges_agrees_and_skips_them),
        cmocka_unit_test(bad_input_is_refused_with_a_reason),
        cmocka_unit_test(a_database_leaves_out_jumps_and_a_box),
        cmocka_unit_test(a_capture_that_jumps_and_climbs_matches_a_walk),
        cmocka_unit_test(a_planted_foot_stays_while_the_body_comes_on_over_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
