/* Captured starts and stops cut from a capture (src/locomotion/transitions.c), on a made
 * capture whose numbers are worked by hand: 30 fps, a root that stands until frame 40, walks
 * along +Z at exactly 1 m/s (1/30 m a frame) and stops dead at frame 130; both feet down while
 * it stands (frames 0-39 and 131-159), one foot at a time while it walks; the loop is frames
 * [70, 100). The root speed is a central difference over +-2 frames (0.05 s rounds to 1.5 -> 2
 * frames), so around the start the speeds are 0.25, 0.5, 0.75 and 1 m/s at frames 39-42 and
 * around the stop 1, 0.75, 0.5, 0.25 and 0 at frames 128-132. Hence:
 *   start: the last still frame before the loop is 38 (frame 39 moves at 0.25 m/s > 0.1); the
 *          ramp reaches 0.8 m/s at frame 42, within a cycle (30 frames) of the loop's first
 *          frame, so it joins there exactly: frames [38, 70], join error 0;
 *   stop:  the first still frame after the loop is 132; the fall below 0.8 m/s begins after
 *          frame 128, within a cycle of the loop's end, so the stop leaves at frame 100 exactly
 *          and keeps 0.3 s (9 frames) of standing: frames [100, 141]. Walk-test scenarios on
 *          recorded captures live in test_walker_transitions.c. */
#include "test_params.h"

#include "locomotion/internal.h"

enum { N = 160, START_MOVE = 40, STOP_MOVE = 130, CYCLE_A = 70, CYCLE_B = 100 };
static const float k_dt = 1.0f / 30.0f;

typedef struct capture {
    ak_skeleton *skeleton;
    ak_clip *clip;
    uint8_t flags[2 * N]; /* [left N][right N] */
} capture;

/* Root z of frame f: still, 1 m/s, still. `speed` scales the walk (1: the worked numbers). */
static float root_z(int32_t f, float speed)
{
    const int32_t g = f < START_MOVE ? START_MOVE : f > STOP_MOVE ? STOP_MOVE : f;
    return speed * (float)(g - START_MOVE) * k_dt;
}

static void capture_make(capture *c, float speed, int walk_all_along)
{
    c->skeleton = akt_line_skeleton(3, 0.5f);
    ak_error e;
    assert_int_equal(ak_clip_create(3, N, k_dt, NULL, &c->clip, &e), AK_OK);
    const int32_t T = c->clip->track_count, tr = c->clip->joint_track[0];
    assert_true(tr >= 0);
    for (int32_t f = 0; f < N; ++f) {
        const float z = walk_all_along ? speed * (float)f * k_dt : root_z(f, speed);
        c->clip->translations[(size_t)f * T + tr] = ak_vec3_make(0.0f, 0.9f, z);
        const int standing = !walk_all_along && (f < START_MOVE || f > STOP_MOVE);
        const int left = standing || (f / 8) % 2 == 0, right = standing || !left;
        c->flags[f] = (uint8_t)left;
        c->flags[N + f] = (uint8_t)right;
    }
    ak_clip_finalize(c->clip);
}

static void capture_free(capture *c)
{
    ak_skeleton_destroy(c->skeleton);
    ak_clip_destroy(c->clip);
}

static void motion_on(ak_walk_motion *m, const capture *c, int32_t a, int32_t b)
{
    memset(m, 0, sizeof *m);
    m->skeleton = c->skeleton;
    m->cycle_start = a;
    m->cycle_end = b;
}

static void segments_free(ak_walk_motion *m)
{
    ak_walk_segment_free(&m->segment[AK_SEGMENT_START]);
    ak_walk_segment_free(&m->segment[AK_SEGMENT_STOP]);
}

/* Fails unless the capture c (with `full` as its clip: c's own when NULL) and the loop
 * [a, b) give AK_OK and no segment. */
static void expect_none(const capture *c, const ak_clip *full, int32_t a, int32_t b,
                        const char *what)
{
    ak_walk_motion m;
    ak_error e;
    motion_on(&m, c, a, b);
    if (ak_walk_motion_find_transitions(&m, full ? full : c->clip, c->flags, 0, &e) != AK_OK)
        fail_msg("%s: %s", what, e.message);
    if (m.segment[AK_SEGMENT_START].clip || m.segment[AK_SEGMENT_STOP].clip)
        fail_msg("%s: a segment was made", what);
}

/* The worked capture (1 m/s) and its transitions for the loop [a, b). */
static void find_on_walk(capture *c, ak_walk_motion *m, int32_t a, int32_t b)
{
    capture_make(c, 1.0f, 0);
    motion_on(m, c, a, b);
    ak_error e;
    if (ak_walk_motion_find_transitions(m, c->clip, c->flags, 0, &e) != AK_OK)
        fail_msg("loop [%d, %d): %s", (int)a, (int)b, e.message);
}

/* The file takes no params struct: its validity case is the inputs that hold no transition
 * (no root track, an empty cycle, a loop slower than 0.2 m/s, a capture that walks from its
 * first frame to its last): AK_OK, and no segment made. */
static void transitions_validity_inputs_without_a_start_or_stop(void **state)
{
    (void)state;
    capture c;
    capture_make(&c, 1.0f, 0);
    expect_none(&c, NULL, CYCLE_A, CYCLE_A, "an empty cycle");
    ak_clip *no_track = NULL;
    const uint8_t has[3] = {0, 0, 0};
    ak_error e;
    assert_int_equal(ak_clip_create(3, N, k_dt, has, &no_track, &e), AK_OK);
    assert_int_equal(no_track->joint_track[0], -1);
    expect_none(&c, no_track, CYCLE_A, CYCLE_B, "no root track");
    ak_clip_destroy(no_track);
    capture_free(&c);
    /* 0.15 m/s: under twice the still speed (0.1 m/s), no walk to start or stop */
    capture_make(&c, 0.15f, 0);
    expect_none(&c, NULL, CYCLE_A, CYCLE_B, "0.15 m/s");
    capture_free(&c);
    capture_make(&c, 1.0f, 1);
    expect_none(&c, NULL, CYCLE_A, CYCLE_B, "walking from the first frame to the last");
    capture_free(&c);
}

/* The worked numbers of the header: start [38, 70], stop [100, 141], both joining the loop
 * exactly (join error 0), their keys and contacts copies of the capture's frames. */
static void start_and_stop_frames_are_the_worked_ones(void **state)
{
    (void)state;
    capture c;
    ak_walk_motion m;
    find_on_walk(&c, &m, CYCLE_A, CYCLE_B);
    const ak_walk_segment *s = &m.segment[AK_SEGMENT_START], *p = &m.segment[AK_SEGMENT_STOP];
    assert_non_null(s->clip);
    assert_non_null(p->clip);
    assert_int_equal(s->source_first, 38);
    assert_int_equal(s->source_last, CYCLE_A);
    assert_int_equal(p->source_first, CYCLE_B);
    assert_int_equal(p->source_last, 141);
    AKT_NEAR(s->join_error, 0.0f, 0);
    AKT_NEAR(p->join_error, 0.0f, 0);
    const ak_walk_segment *segs[2] = {s, p};
    for (int k = 0; k < 2; ++k) {
        const ak_walk_segment *g = segs[k];
        const int32_t n = g->source_last - g->source_first + 1;
        assert_int_equal(g->clip->frame_count, n);
        assert_int_equal(g->clip->loop, 0);
        AKT_NEAR(g->clip->frame_time, k_dt, 0);
        assert_null(g->root); /* made by ak_walk_motion_segments_finish */
        const int32_t tr = g->clip->joint_track[0];
        for (int32_t f = 0; f < n; ++f) {
            const int32_t src = g->source_first + f;
            AKT_NEAR(g->clip->translations[(size_t)f * g->clip->track_count + tr].z,
                     root_z(src, 1.0f), 0);
            assert_int_equal(g->contacts[0][f], c.flags[src]);
            assert_int_equal(g->contacts[1][f], c.flags[N + src]);
        }
    }
    /* the start begins and the stop ends standing on both feet */
    assert_true(s->contacts[0][0] && s->contacts[1][0]);
    assert_true(p->contacts[0][p->clip->frame_count - 1] &&
                p->contacts[1][p->clip->frame_count - 1]);
    segments_free(&m);
    capture_free(&c);
}

/* A loop [45, 75) ends more than a cycle before the walk's fall (frame 128): the stop no longer
 * leaves from the loop's end but from the frame within a cycle before the fall whose feet
 * are the loop's first frame's; the start still joins the loop's first frame exactly. */
static void a_loop_at_the_capture_edge_has_no_transition_there(void **state)
{
    (void)state;
    capture c;
    ak_walk_motion m;
    find_on_walk(&c, &m, 45, 75); /* the ramp (frames 39-42) is before it: start [38, 45] */
    assert_int_equal(m.segment[AK_SEGMENT_START].source_first, 38);
    assert_int_equal(m.segment[AK_SEGMENT_START].source_last, 45);
    /* the fall ends 55 frames after the loop: more than a cycle (30), so the stop leaves from
     * the frame within a cycle before the fall that matches the loop's first frame best */
    const ak_walk_segment *p = &m.segment[AK_SEGMENT_STOP];
    assert_non_null(p->clip);
    assert_true(p->source_first >= 128 - 30 && p->source_first <= 128);
    /* with the feet of the loop's first frame (45: right foot down) */
    assert_true(!c.flags[p->source_first] && c.flags[N + p->source_first]);
    assert_int_equal(p->source_last, 141);
    segments_free(&m);
    capture_free(&c);
}

/* ak_walk_motion_segments_finish gives each segment root motion travelling what the capture's
 * root does over its frames (start 38-70: 30 frames of walking, 1.0 m; stop 100-141: 30
 * frames of walking then standing, 1.0 m); ak_walk_segment_free clears it all. */
static void segments_get_root_motion_and_free_clean(void **state)
{
    (void)state;
    capture c;
    ak_walk_motion m;
    find_on_walk(&c, &m, CYCLE_A, CYCLE_B);
    ak_error e;
    assert_int_equal(ak_walk_motion_segments_finish(&m, &e), AK_OK);
    const ak_walk_segment *s = &m.segment[AK_SEGMENT_START], *p = &m.segment[AK_SEGMENT_STOP];
    assert_non_null(s->root);
    assert_non_null(p->root);
    ak_vec3 a, b;
    float ha, hb;
    ak_root_motion_at(s->root, 0.0f, &a, &ha);
    ak_root_motion_at(s->root, ak_clip_duration(s->clip), &b, &hb);
    AKT_NEAR(ak_vec3_length(ak_vec3_sub(b, a)), root_z(CYCLE_A, 1.0f) - root_z(38, 1.0f), 1e-4);
    ak_root_motion_at(p->root, 0.0f, &a, &ha);
    ak_root_motion_at(p->root, ak_clip_duration(p->clip), &b, &hb);
    AKT_NEAR(ak_vec3_length(ak_vec3_sub(b, a)), root_z(141, 1.0f) - root_z(CYCLE_B, 1.0f), 1e-4);
    segments_free(&m);
    const ak_walk_segment zero = {0};
    assert_memory_equal(&m.segment[AK_SEGMENT_START], &zero, sizeof zero);
    assert_memory_equal(&m.segment[AK_SEGMENT_STOP], &zero, sizeof zero);
    /* finishing with no segments is a no-op */
    assert_int_equal(ak_walk_motion_segments_finish(&m, &e), AK_OK);
    capture_free(&c);
}

/* The loop's seam is crossfaded (motion.c blend_seam): its last frames move toward the frames
 * leading into its first, so the loop as played ends near frame a - 1, not b - 1. A stop that
 * leaves from the loop's end itself (frame b, the capture's own continuation) is crossfaded from
 * the frames that follow a, as every other join (transitions.c blend_join). Worked, on hips that
 * rise 1 mm a frame (0.9 m + 1 mm * f): frame b = 100 stands 30 mm over frame a = 70; with a
 * blend of 3 frames the stop's frames 0-2 move toward frames 70-72 by 3/4, 2/4 and 1/4 (22.5,
 * 15 and 7.5 mm down), frame 3 is the capture's. The loop's last frame (99 moved 3/4 toward 69)
 * stands at 0.9765 m, the stop's first at 0.9775: the hips rise 1 mm across the join, their own
 * rate; the stop played as captured rose 23.5 mm in a frame there (Debian assimp-testmodels'
 * Boxing_Toes, 24.6 mm between its cycle's ends: its hips -8.87..7.40 g at that join on flat
 * ground). The start joins the loop's first frame, which the seam leaves as captured: its
 * frames stay the capture's. */
static void a_stop_leaving_from_the_loop_end_crossfades_from_the_seam(void **state)
{
    (void)state;
    capture c;
    capture_make(&c, 1.0f, 0);
    const int32_t T = c.clip->track_count, tr = c.clip->joint_track[0];
    for (int32_t f = 0; f < N; ++f)
        c.clip->translations[(size_t)f * T + tr].y = 0.9f + 0.001f * (float)f;
    ak_walk_motion m;
    motion_on(&m, &c, CYCLE_A, CYCLE_B);
    ak_error e;
    assert_int_equal(ak_walk_motion_find_transitions(&m, c.clip, c.flags, 3, &e), AK_OK);
    const ak_walk_segment *s = &m.segment[AK_SEGMENT_START], *p = &m.segment[AK_SEGMENT_STOP];
    assert_non_null(p->clip);
    assert_int_equal(p->source_first, CYCLE_B);
    const float worked[4] = {1.0f - 0.0225f, 1.001f - 0.015f, 1.002f - 0.0075f, 1.003f};
    const int32_t pt = p->clip->joint_track[0], st = s->clip->joint_track[0];
    for (int32_t i = 0; i < 4; ++i) {
        const ak_vec3 hips = p->clip->translations[(size_t)i * p->clip->track_count + pt];
        AKT_NEAR(hips.y, worked[i], 1e-5);
        AKT_NEAR(hips.z, root_z(CYCLE_B + i, 1.0f), 1e-5); /* the steady walk carried onto it */
    }
    assert_int_equal(s->source_last, CYCLE_A);
    for (int32_t f = 0; f < s->clip->frame_count; ++f)
        AKT_NEAR(s->clip->translations[(size_t)f * s->clip->track_count + st].y,
                 0.9f + 0.001f * (float)(s->source_first + f), 0);
    segments_free(&m);
    capture_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transitions_validity_inputs_without_a_start_or_stop),
        cmocka_unit_test(start_and_stop_frames_are_the_worked_ones),
        cmocka_unit_test(a_loop_at_the_capture_edge_has_no_transition_there),
        cmocka_unit_test(segments_get_root_motion_and_free_clean),
        cmocka_unit_test(a_stop_leaving_from_the_loop_end_crossfades_from_the_seam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
