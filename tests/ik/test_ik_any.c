/* ak_ik_solve_any: the one dispatch the CLI, viewer, fuzzer and benchmark use gives exactly
 * what the solver it names gives, and refuses what that solver cannot do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "ik_test_util.h"

static unsigned char g_ws[2][1 << 16];

/* The same solve through the named solver directly. */
static int32_t direct(int32_t kind, const test_chain *tc, ak_vec3 target, ak_xform *local,
                      ak_xform *world, ak_ik_result *r)
{
    if (kind == AK_IK_LIMB) {
        ak_limb_ik_params p = ak_limb_ik_defaults();
        p.skeleton = tc->skel;
        p.upper = tc->chain[0];
        p.middle = tc->chain[1];
        p.end = tc->chain[2];
        p.target = target;
        return ak_limb_ik_run(&p, local, world, r, NULL);
    }
    if (kind == AK_IK_CCD || kind == AK_IK_FABRIK) {
        ak_chain_ik_params p = ak_chain_ik_defaults();
        p.skeleton = tc->skel;
        p.chain = tc->chain;
        p.chain_length = tc->n;
        p.target = target;
        return kind == AK_IK_CCD ? ak_ccd_ik_run(&p, local, world, r, NULL)
                                 : ak_fabrik_ik_run(&p, local, world, r, NULL);
    }
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = tc->skel;
    p.method = kind == AK_IK_JACOBIAN ? AK_JACOBIAN_PSEUDO_INVERSE : AK_JACOBIAN_DLS;
    p.chain = tc->chain;
    p.chain_length = tc->n;
    p.target = target;
    p.workspace = g_ws[0];
    p.workspace_bytes = sizeof g_ws[0];
    return ak_jacobian_ik_run(&p, local, world, r, NULL);
}

static void dispatch_gives_what_the_named_solver_gives(void **state)
{
    (void)state;
    test_rng rng = {99};
    for (int32_t kind = 0; kind < AK_IK_KIND_COUNT; ++kind) {
        assert_int_equal(ak_ik_kind_from_name(ak_ik_kind_name(kind)), kind);
        for (int k = 0; k < 20; ++k) {
            test_chain tc;
            const int n = kind == AK_IK_LIMB ? 3 : rng_int(&rng, 2, 12);
            assert_int_equal(test_chain_make(&tc, &rng, n, 0.2f, 1.0f, 0), 0);
            ak_xform la[AK_IK_MAX_CHAIN + 3], wa[AK_IK_MAX_CHAIN + 3];
            ak_xform lb[AK_IK_MAX_CHAIN + 3], wb[AK_IK_MAX_CHAIN + 3];
            test_random_pose(&tc, &rng, 1.0f, la);
            ak_fk(tc.skel, la, wa);
            memcpy(lb, la, sizeof(ak_xform) * (size_t)tc.count);
            memcpy(wb, wa, sizeof(ak_xform) * (size_t)tc.count);
            const ak_vec3 target =
                ak_vec3_add(wa[1].translation, ak_vec3_scale(rng_dir(&rng), 0.8f * tc.length));
            ak_ik_any_params p = ak_ik_any_defaults();
            p.skeleton = tc.skel;
            p.chain = tc.chain;
            p.chain_length = tc.n;
            p.target = target;
            p.workspace = g_ws[1];
            p.workspace_bytes = sizeof g_ws[1];
            assert_true(ak_ik_any_workspace_size(kind, tc.n) <= sizeof g_ws[1]);
            ak_ik_result ra, rb;
            assert_int_equal(direct(kind, &tc, target, la, wa, &ra), AK_OK);
            assert_int_equal(ak_ik_solve_any(kind, &p, lb, wb, &rb, NULL), AK_OK);
            assert_memory_equal(&ra, &rb, sizeof ra);
            assert_memory_equal(la, lb, sizeof(ak_xform) * (size_t)tc.count);
            assert_memory_equal(wa, wb, sizeof(ak_xform) * (size_t)tc.count);
            test_chain_free(&tc);
        }
    }
}

static void dispatch_refuses_what_the_solver_cannot_do(void **state)
{
    (void)state;
    test_rng rng = {5};
    test_chain tc;
    assert_int_equal(test_chain_make(&tc, &rng, 2, 0.5f, 1.0f, 0), 0);
    ak_xform local[8], world[8];
    test_random_pose(&tc, &rng, 0.5f, local);
    ak_fk(tc.skel, local, world);
    ak_ik_any_params p = ak_ik_any_defaults();
    p.skeleton = tc.skel;
    p.chain = tc.chain;
    p.chain_length = tc.n;
    ak_ik_result r;
    ak_error e;
    assert_int_equal(ak_ik_solve_any(AK_IK_LIMB, &p, local, world, &r, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "3 joints"));
    /* validate refuses exactly what solve refuses, with the same reason, and solves nothing. */
    assert_int_equal(ak_ik_any_validate(AK_IK_LIMB, &p, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "3 joints"));
    assert_int_equal(ak_ik_any_validate(AK_IK_DLS, &p, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "workspace"));
    assert_int_equal(ak_ik_any_validate(AK_IK_CCD, &p, &e), AK_OK);
    assert_int_equal(ak_ik_any_validate(AK_IK_KIND_COUNT, &p, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_any_validate(AK_IK_FABRIK, NULL, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_solve_any(AK_IK_DLS, &p, local, world, &r, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "workspace"));
    assert_int_equal(ak_ik_solve_any(AK_IK_KIND_COUNT, &p, local, world, &r, &e),
                     AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_solve_any(AK_IK_CCD, NULL, local, world, &r, &e), AK_ERR_INVALID_ARG);
    assert_int_equal(ak_ik_kind_from_name("newton"), -1);
    assert_string_equal(ak_ik_kind_name(-1), "?");
    assert_int_equal(ak_ik_any_workspace_size(AK_IK_FABRIK, 5), 0);
    test_chain_free(&tc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dispatch_gives_what_the_named_solver_gives),
        cmocka_unit_test(dispatch_refuses_what_the_solver_cannot_do),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
