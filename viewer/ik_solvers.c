/* animkit viewer — the IK solver table. */
#include "ik_solvers.h"

#include <stdlib.h>
#include <string.h>

static int32_t solve_limb(const akv_ik_request *q, ak_xform *local, ak_xform *world,
                          ak_ik_result *res, ak_error *err)
{
    if (q->chain_len < 3)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "limb IK needs a chain of 3 joints (upper, middle, end)");
    ak_limb_ik_params p = ak_limb_ik_defaults();
    p.skeleton = q->skeleton;
    p.upper = q->chain[0];
    p.middle = q->chain[q->chain_len - 2];
    p.end = q->chain[q->chain_len - 1];
    p.target = q->target;
    p.use_pole = q->use_pole;
    p.pole = q->pole;
    return ak_limb_ik_run(&p, local, world, res, err);
}

#if defined(AKV_HAVE_CHAIN_IK)
static ak_chain_ik_params chain_params(const akv_ik_request *q)
{
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = q->skeleton;
    p.chain = q->chain;
    p.chain_length = q->chain_len;
    p.target = q->target;
    p.max_iterations = q->iterations;
    return p;
}

static int32_t solve_ccd(const akv_ik_request *q, ak_xform *local, ak_xform *world,
                         ak_ik_result *res, ak_error *err)
{
    ak_chain_ik_params p = chain_params(q);
    return ak_ccd_ik_run(&p, local, world, res, err);
}

static int32_t solve_fabrik(const akv_ik_request *q, ak_xform *local, ak_xform *world,
                            ak_ik_result *res, ak_error *err)
{
    ak_chain_ik_params p = chain_params(q);
    return ak_fabrik_ik_run(&p, local, world, res, err);
}
#endif

#if defined(AKV_HAVE_JACOBIAN_IK)
/* The workspace is the caller's, grown to the library's size query when needed. */
static int32_t solve_jacobian_method(const akv_ik_request *q, int method, ak_xform *local,
                                     ak_xform *world, ak_ik_result *res, ak_error *err)
{
    unsigned char **workspace = q->workspace;
    size_t *workspace_size = q->workspace_size;
    size_t need = ak_jacobian_ik_workspace_size(q->chain_len - 1, 1);
    if (need == 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "the Jacobian solvers need a chain of 2+ joints");
    if (need > *workspace_size) {
        unsigned char *p = realloc(*workspace, need);
        if (!p) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        *workspace = p;
        *workspace_size = need;
    }
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = q->skeleton;
    p.method = method;
    p.chain = q->chain;
    p.chain_length = q->chain_len;
    p.target = q->target;
    p.max_iterations = q->iterations;
    p.workspace = *workspace;
    p.workspace_bytes = *workspace_size;
    return ak_jacobian_ik_run(&p, local, world, res, err);
}

static int32_t solve_jacobian(const akv_ik_request *q, ak_xform *local, ak_xform *world,
                              ak_ik_result *res, ak_error *err)
{
    return solve_jacobian_method(q, AK_JACOBIAN_PSEUDO_INVERSE, local, world, res, err);
}

static int32_t solve_dls(const akv_ik_request *q, ak_xform *local, ak_xform *world,
                         ak_ik_result *res, ak_error *err)
{
    return solve_jacobian_method(q, AK_JACOBIAN_DLS, local, world, res, err);
}
#endif

typedef int32_t (*solve_fn)(const akv_ik_request *, ak_xform *, ak_xform *, ak_ik_result *,
                            ak_error *);

static const struct {
    const char *name;
    solve_fn fn;
} k_solvers[] = {
    {"limb", solve_limb},
#if defined(AKV_HAVE_CHAIN_IK)
    {"ccd", solve_ccd},           {"fabrik", solve_fabrik},
#endif
#if defined(AKV_HAVE_JACOBIAN_IK)
    {"jacobian", solve_jacobian}, {"dls", solve_dls},
#endif
};

int akv_ik_solver_count(void)
{
    return (int)(sizeof k_solvers / sizeof k_solvers[0]);
}

const char *akv_ik_solver_name(int index)
{
    return index >= 0 && index < akv_ik_solver_count() ? k_solvers[index].name : "?";
}

int akv_ik_solver_index(const char *name)
{
    for (int i = 0; i < akv_ik_solver_count(); ++i)
        if (strcmp(name, k_solvers[i].name) == 0) return i;
    return -1;
}

const char *akv_ik_solver_list(void)
{
    static char list[128];
    list[0] = 0;
    for (int i = 0; i < akv_ik_solver_count(); ++i) {
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, k_solvers[i].name, sizeof list - strlen(list) - 1);
    }
    return list;
}

int32_t akv_ik_solve(int index, const akv_ik_request *q, ak_xform *local, ak_xform *world,
                     ak_ik_result *result, ak_error *err)
{
    memset(result, 0, sizeof *result);
    if (index < 0 || index >= akv_ik_solver_count())
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "no such solver");
    return k_solvers[index].fn(q, local, world, result, err);
}
