/* Skeleton construction and FK invariants (the humanoid map and unit detection:
 * test_humanoid.c). */
#include "test_util.h"

/* A random tree of n joints in depth-first order: parent of j is a random earlier joint on
 * the current root-to-j path, so subtrees stay contiguous. */
static ak_skeleton *random_skeleton(akt_rng *rng, int n)
{
    char names[64][16];
    const char *name_ptrs[64];
    int32_t parents[64];
    ak_xform rest[64];
    int32_t stack[64];
    int depth = 0;
    for (int j = 0; j < n; ++j) {
        snprintf(names[j], sizeof names[j], "j%d", j);
        name_ptrs[j] = names[j];
        if (j == 0) {
            parents[j] = -1;
            stack[depth++] = 0;
        } else {
            int pop = (int)(akt_next(rng) % (uint64_t)depth);
            depth -= pop;
            if (depth < 1) depth = 1;
            parents[j] = stack[depth - 1];
            stack[depth++] = j;
        }
        rest[j].rotation = akt_random_quat(rng);
        rest[j].translation =
            ak_vec3_make(akt_uniform(rng, -1, 1), akt_uniform(rng, -1, 1), akt_uniform(rng, -1, 1));
    }
    ak_skeleton_desc d = {n, name_ptrs, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    ak_error err;
    assert_int_equal(ak_skeleton_create(&d, &s, &err), AK_OK);
    return s;
}

static float dist(ak_vec3 a, ak_vec3 b)
{
    return ak_vec3_length(ak_vec3_sub(a, b));
}

static void fk_keeps_bone_lengths_under_any_rotation(void **state)
{
    (void)state;
    akt_rng rng = {42};
    ak_xform local[64], world[64];
    for (int trial = 0; trial < 200; ++trial) {
        int n = 2 + (int)(akt_next(&rng) % 60);
        ak_skeleton *s = random_skeleton(&rng, n);
        ak_pose_rest(s, local);
        for (int j = 0; j < n; ++j)
            local[j].rotation = akt_random_quat(&rng);
        ak_fk(s, local, world);
        for (int j = 1; j < n; ++j) {
            float len = dist(world[j].translation, world[s->parents[j]].translation);
            AKT_NEAR(len, s->bone_lengths[j], 1e-5f * (1.0f + s->bone_lengths[j]) * 4);
            AKT_NEAR(ak_quat_dot(world[j].rotation, world[j].rotation), 1.0f, 1e-5f);
        }
        ak_skeleton_destroy(s);
    }
}

static void fk_subtree_matches_full_fk(void **state)
{
    (void)state;
    akt_rng rng = {5};
    ak_xform local[64], world[64], full[64];
    for (int trial = 0; trial < 100; ++trial) {
        int n = 3 + (int)(akt_next(&rng) % 50);
        ak_skeleton *s = random_skeleton(&rng, n);
        ak_pose_rest(s, local);
        ak_fk(s, local, world);
        int j = (int)(akt_next(&rng) % (uint64_t)n);
        local[j].rotation = akt_random_quat(&rng);
        ak_fk_subtree(s, local, world, j);
        ak_fk(s, local, full);
        for (int k = 0; k < n; ++k) {
            AKT_NEAR(world[k].translation.x, full[k].translation.x, 1e-6f);
            AKT_NEAR(world[k].translation.y, full[k].translation.y, 1e-6f);
            AKT_NEAR(world[k].translation.z, full[k].translation.z, 1e-6f);
        }
        /* subtree ranges: every joint in [j, end) descends from j */
        for (int k = j + 1; k < s->subtree_end[j]; ++k) {
            int a = k;
            while (a > j)
                a = s->parents[a];
            assert_int_equal(a, j);
        }
        ak_skeleton_destroy(s);
    }
}

static void clone_is_deep_and_equal(void **state)
{
    (void)state;
    akt_rng rng = {77};
    ak_skeleton *s = random_skeleton(&rng, 20), *c = NULL;
    assert_int_equal(ak_skeleton_clone(s, &c, NULL), AK_OK);
    assert_int_equal(c->joint_count, 20);
    for (int j = 0; j < 20; ++j) {
        assert_string_equal(c->names[j], s->names[j]);
        assert_int_equal(c->parents[j], s->parents[j]);
        assert_int_equal(c->subtree_end[j], s->subtree_end[j]);
        assert_memory_equal(&c->rest_local[j], &s->rest_local[j], sizeof(ak_xform));
    }
    ak_skeleton_scale(c, 2.0f);
    AKT_NEAR(c->bone_lengths[5], 2.0f * s->bone_lengths[5], 1e-6f);
    ak_skeleton_destroy(s);
    ak_skeleton_destroy(c);
    assert_int_equal(ak_skeleton_clone(NULL, &c, NULL), AK_ERR_INVALID_ARG);
}

static void skeleton_rejects_bad_descriptions(void **state)
{
    (void)state;
    const char *names[3] = {"a", "b", "c"};
    ak_xform rest[3] = {ak_xform_identity(), ak_xform_identity(), ak_xform_identity()};
    int32_t bad_parent[3] = {-1, 2, 0};
    ak_skeleton_desc d = {3, names, bad_parent, rest, NULL, NULL};
    ak_skeleton *s = (ak_skeleton *)1;
    ak_error err;
    assert_int_equal(ak_skeleton_create(&d, &s, &err), AK_ERR_INVALID_ARG);
    assert_null(s);
    assert_non_null(strstr(err.message, "parent"));
    /* not depth-first: c's parent is a, but b (a's other child) sits between... fine; make
     * a subtree non-contiguous: a -> b, a -> c, b -> d placed after c */
    const char *names4[4] = {"a", "b", "c", "d"};
    ak_xform rest4[4] = {ak_xform_identity(), ak_xform_identity(), ak_xform_identity(),
                         ak_xform_identity()};
    int32_t p4[4] = {-1, 0, 0, 1};
    ak_skeleton_desc d4 = {4, names4, p4, rest4, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d4, &s, &err), AK_ERR_INVALID_ARG);
    const char *empty[1] = {""};
    ak_skeleton_desc d1 = {1, empty, bad_parent, rest, NULL, NULL};
    assert_int_equal(ak_skeleton_create(&d1, &s, &err), AK_ERR_INVALID_ARG);
    d.joint_count = 0;
    assert_int_equal(ak_skeleton_create(&d, &s, &err), AK_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fk_keeps_bone_lengths_under_any_rotation),
        cmocka_unit_test(fk_subtree_matches_full_fk),
        cmocka_unit_test(skeleton_rejects_bad_descriptions),
        cmocka_unit_test(clone_is_deep_and_equal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
