/* animkit viewer — the IK mode's solvers: the library's one dispatch (ak_ik_solve_any) with
 * the viewer's growing Jacobian workspace. */
#include "ik_solvers.h"

#include <stdlib.h>
#include <string.h>

int akv_ik_solver_count(void)
{
    return AK_IK_KIND_COUNT;
}

const char *akv_ik_solver_name(int index)
{
    return ak_ik_kind_name(index);
}

int akv_ik_solver_index(const char *name)
{
    return ak_ik_kind_from_name(name);
}

const char *akv_ik_solver_list(void)
{
    return "limb, ccd, fabrik, jacobian, dls";
}

int32_t akv_ik_solve(int index, const akv_ik_request *q, ak_xform *local, ak_xform *world,
                     ak_ik_result *result, ak_error *err)
{
    ak_ik_any_params p = ak_ik_any_defaults();
    const size_t need = ak_ik_any_workspace_size(index, q->chain_len);
    if (need > *q->workspace_size) {
        unsigned char *grown = realloc(*q->workspace, need);
        if (!grown) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
        *q->workspace = grown;
        *q->workspace_size = need;
    }
    p.skeleton = q->skeleton;
    p.chain = q->chain;
    p.chain_length = q->chain_len;
    p.target = q->target;
    p.use_pole = q->use_pole;
    p.pole = q->pole;
    p.max_iterations = q->iterations;
    p.workspace = *q->workspace;
    p.workspace_bytes = *q->workspace_size;
    return ak_ik_solve_any(index, &p, local, world, result, err);
}
