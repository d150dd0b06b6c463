/* IK on the real skeletons of the test mocap files: every foot and hand put on reachable
 * targets at several frames, with the limb solver and the chain solvers (from the hips). */
#include "test_util.h"

#include "animkit/ik.h"

static const char *const k_files[] = {"cmu_02_01_walk.bvh",
                                      "cmu_05_06_dance.bvh",
                                      "cmu_07_01_walk.bvh",
                                      "cmu_09_01_run.bvh",
                                      "cmu_16_11_walk_veer_left.bvh",
                                      "arena_louise_stand_walk_cycle.bvh",
                                      "reactidle_003_genuine_idle.bvh"};
#define FILE_COUNT ((int)(sizeof k_files / sizeof k_files[0]))

/* upper, middle, end slots of the four limbs. */
static const int k_limbs[4][3] = {
    {AK_HUM_LEFT_UPPER_LEG, AK_HUM_LEFT_LOWER_LEG, AK_HUM_LEFT_FOOT},
    {AK_HUM_RIGHT_UPPER_LEG, AK_HUM_RIGHT_LOWER_LEG, AK_HUM_RIGHT_FOOT},
    {AK_HUM_LEFT_UPPER_ARM, AK_HUM_LEFT_LOWER_ARM, AK_HUM_LEFT_HAND},
    {AK_HUM_RIGHT_UPPER_ARM, AK_HUM_RIGHT_LOWER_ARM, AK_HUM_RIGHT_HAND}};

typedef struct mocap {
    ak_skeleton *s;
    ak_clip *clip;
    ak_humanoid hum;
    ak_xform *local, *world, *before_local, *before_world, *goal_local, *goal_world;
} mocap;

static void mocap_load(mocap *m, const char *name)
{
    char path[1024];
    ak_error err;
    assert_int_equal(
        ak_bvh_read_file(akt_mocap_path(name, path, sizeof path), NULL, &m->s, &m->clip, &err),
        AK_OK);
    ak_humanoid_find(m->s, NULL, &m->hum, &err);
    const size_t bytes = sizeof(ak_xform) * (size_t)m->s->joint_count;
    m->local = malloc(bytes);
    m->world = malloc(bytes);
    m->before_local = malloc(bytes);
    m->before_world = malloc(bytes);
    m->goal_local = malloc(bytes);
    m->goal_world = malloc(bytes);
    assert_non_null(m->goal_world);
}

static void mocap_free(mocap *m)
{
    free(m->local);
    free(m->world);
    free(m->before_local);
    free(m->before_world);
    free(m->goal_local);
    free(m->goal_world);
    ak_clip_destroy(m->clip);
    ak_skeleton_destroy(m->s);
}

/* Loads frame f into local/world and their copies; the goal pose is the same frame with the
 * chain joints turned by random rotations (so the goal tip position is reachable). */
static void pose_frame(mocap *m, int32_t f, const int32_t *chain, int n, akt_rng *rng, float angle)
{
    const size_t bytes = sizeof(ak_xform) * (size_t)m->s->joint_count;
    ak_clip_frame(m->clip, m->s, f, m->local);
    ak_fk(m->s, m->local, m->world);
    memcpy(m->before_local, m->local, bytes);
    memcpy(m->before_world, m->world, bytes);
    memcpy(m->goal_local, m->local, bytes);
    for (int i = 0; i < n - 1; ++i) {
        ak_quat q = akt_random_quat(rng);
        float a = ak_quat_angle(q);
        if (a > angle) q = ak_quat_slerp(ak_quat_identity(), q, angle / a);
        m->goal_local[chain[i]].rotation =
            ak_quat_normalize(ak_quat_mul(m->goal_local[chain[i]].rotation, q));
    }
    ak_fk(m->s, m->goal_local, m->goal_world);
}

/* Joints outside root's subtree are untouched; every bone keeps its length; the subtree of the
 * tip moves rigidly (its local transforms are unchanged). */
static void check_pose(const mocap *m, int32_t root, int32_t tip)
{
    const ak_skeleton *s = m->s;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        const int inside = j >= root && j < s->subtree_end[root];
        if (!inside) assert_memory_equal(&m->world[j], &m->before_world[j], sizeof(ak_xform));
        if (j > tip && j < s->subtree_end[tip])
            assert_memory_equal(&m->local[j], &m->before_local[j], sizeof(ak_xform));
        int32_t p = s->parents[j];
        if (p >= 0) {
            float want = ak_vec3_length(
                ak_vec3_sub(m->before_world[j].translation, m->before_world[p].translation));
            float got =
                ak_vec3_length(ak_vec3_sub(m->world[j].translation, m->world[p].translation));
            AKT_NEAR(got, want, 1e-5 * want + 1e-5);
        }
        float n2 = ak_quat_dot(m->local[j].rotation, m->local[j].rotation);
        AKT_NEAR(n2, 1.0, 1e-4);
    }
}

static void limbs_reach_targets_on_mocap_skeletons(void **state)
{
    (void)state;
    akt_rng rng = {2024};
    int solved = 0;
    for (int fi = 0; fi < FILE_COUNT; ++fi) {
        mocap m;
        mocap_load(&m, k_files[fi]);
        for (int limb = 0; limb < 4; ++limb) {
            int32_t upper = m.hum.joint[k_limbs[limb][0]], middle = m.hum.joint[k_limbs[limb][1]],
                    end = m.hum.joint[k_limbs[limb][2]];
            if (upper < 0 || middle < 0 || end < 0) continue;
            for (int k = 0; k < 4; ++k) {
                int32_t f = (int32_t)((int64_t)(m.clip->frame_count - 1) * k / 3);
                int32_t chain[3] = {upper, middle, end};
                pose_frame(&m, f, chain, 3, &rng, 1.0f);
                ak_limb_ik_params p = ak_limb_ik_defaults();
                p.skeleton = m.s;
                p.upper = upper;
                p.middle = middle;
                p.end = end;
                p.target = m.goal_world[end].translation;
                p.use_pole = 1;
                p.pole = m.goal_world[middle].translation; /* the goal's own knee/elbow */
                ak_ik_result r;
                ak_error err;
                assert_int_equal(ak_limb_ik_run(&p, m.local, m.world, &r, &err), AK_OK);
                assert_true(r.reached);
                float reach = m.s->bone_lengths[middle] + m.s->bone_lengths[end];
                assert_true(r.error <= 1e-4f * reach);
                /* With the goal's knee as the pole, the solve lands on the goal's limb. */
                AKT_NEAR(ak_vec3_length(ak_vec3_sub(m.world[middle].translation,
                                                    m.goal_world[middle].translation)),
                         0.0, 1e-3 * reach);
                check_pose(&m, upper, end);
                ++solved;
            }
        }
        mocap_free(&m);
    }
    print_message("limb solves on mocap skeletons: %d\n", solved);
    assert_true(solved >= FILE_COUNT * 4 * 4 - 8);
}

static void chain_solvers_reach_from_hips_on_mocap_skeletons(void **state)
{
    (void)state;
    akt_rng rng = {77};
    static unsigned char ws[1 << 16];
    int solved = 0, reached = 0;
    for (int fi = 0; fi < FILE_COUNT; ++fi) {
        mocap m;
        mocap_load(&m, k_files[fi]);
        const int32_t hips = m.hum.joint[AK_HUM_HIPS];
        for (int limb = 0; limb < 4; ++limb) {
            const int32_t end = m.hum.joint[k_limbs[limb][2]];
            if (hips < 0 || end < 0) continue;
            int32_t chain[AK_IK_MAX_CHAIN];
            int32_t n = ak_ik_chain_from_joints(m.s, hips, end, chain, AK_IK_MAX_CHAIN);
            assert_true(n >= 3);
            n = ak_ik_chain_skip_zero_bones(m.s, chain, n);
            for (int solver = 0; solver < 3; ++solver) {
                for (int k = 0; k < 3; ++k) {
                    int32_t f = (int32_t)((int64_t)(m.clip->frame_count - 1) * k / 2);
                    pose_frame(&m, f, chain, n, &rng, 0.5f);
                    ak_ik_result r;
                    ak_error err;
                    int32_t st;
                    if (solver < 2) {
                        ak_chain_ik_params p = ak_chain_ik_defaults();
                        p.skeleton = m.s;
                        p.chain = chain;
                        p.chain_length = n;
                        p.target = m.goal_world[end].translation;
                        p.max_iterations = 200;
                        st = solver == 0 ? ak_ccd_ik_run(&p, m.local, m.world, &r, &err)
                                         : ak_fabrik_ik_run(&p, m.local, m.world, &r, &err);
                    } else {
                        ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
                        p.skeleton = m.s;
                        p.chain = chain;
                        p.chain_length = n;
                        p.target = m.goal_world[end].translation;
                        p.max_iterations = 200;
                        p.workspace = ws;
                        p.workspace_bytes = sizeof ws;
                        st = ak_jacobian_ik_run(&p, m.local, m.world, &r, &err);
                    }
                    if (st != AK_OK) fail_msg("%s: %s", k_files[fi], err.message);
                    reached += r.reached;
                    check_pose(&m, hips, end);
                    ++solved;
                }
            }
        }
        mocap_free(&m);
    }
    print_message("chain solves on mocap skeletons: %d/%d reached\n", reached, solved);
    assert_true(reached >= solved * 95 / 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limbs_reach_targets_on_mocap_skeletons),
        cmocka_unit_test(chain_solvers_reach_from_hips_on_mocap_skeletons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
