/* One dispatch for the chain solvers (ak_ik_solve_any): the CLI, the viewer, the fuzzer and the
 * benchmark name a solver and fill the common inputs once. */
#include "ik/ik_internal.h"

#include <string.h>

static const char *const k_kind_names[AK_IK_KIND_COUNT] = {"limb", "ccd", "fabrik", "jacobian",
                                                           "dls"};

ak_ik_any_params ak_ik_any_defaults(void)
{
    ak_ik_any_params p;
    memset(&p, 0, sizeof p);
    p.max_iterations = 100;
    p.tolerance = 1e-4f;
    p.weight = 1.0f;
    return p;
}

const char *ak_ik_kind_name(ak_ik_kind kind)
{
    return (int32_t)kind >= 0 && kind < AK_IK_KIND_COUNT ? k_kind_names[kind] : "?";
}

int32_t ak_ik_kind_from_name(const char *name)
{
    for (int32_t k = 0; name && k < AK_IK_KIND_COUNT; ++k)
        if (strcmp(name, k_kind_names[k]) == 0) return k;
    return -1;
}

size_t ak_ik_any_workspace_size(ak_ik_kind kind, int32_t chain_length)
{
    if (kind != AK_IK_JACOBIAN && kind != AK_IK_DLS) return 0;
    return ak_jacobian_ik_workspace_size(chain_length - 1, 1);
}

/* The common inputs copied into each solver's own params (its defaults for the rest). */
static int32_t limb_params(const ak_ik_any_params *q, ak_limb_ik_params *p, ak_error *err)
{
    if (!q->chain || q->chain_length < 3)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "limb IK needs a chain of 3 joints (upper, middle, end)");
    *p = ak_limb_ik_defaults();
    p->skeleton = q->skeleton;
    p->upper = q->chain[0];
    p->middle = q->chain[q->chain_length - 2];
    p->end = q->chain[q->chain_length - 1];
    p->target = q->target;
    p->use_pole = q->use_pole;
    p->pole = q->pole;
    p->tolerance = q->tolerance;
    p->weight = q->weight;
    return AK_OK;
}

static ak_chain_ik_params chain_params(const ak_ik_any_params *q)
{
    ak_chain_ik_params p = ak_chain_ik_defaults();
    p.skeleton = q->skeleton;
    p.chain = q->chain;
    p.chain_length = q->chain_length;
    p.target = q->target;
    p.max_iterations = q->max_iterations;
    p.tolerance = q->tolerance;
    p.weight = q->weight;
    return p;
}

static ak_jacobian_ik_params jacobian_params(int32_t kind, const ak_ik_any_params *q)
{
    ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
    p.skeleton = q->skeleton;
    p.method = kind == AK_IK_JACOBIAN ? AK_JACOBIAN_PSEUDO_INVERSE : AK_JACOBIAN_DLS;
    p.chain = q->chain;
    p.chain_length = q->chain_length;
    p.target = q->target;
    p.max_iterations = q->max_iterations;
    p.tolerance = q->tolerance;
    p.weight = q->weight;
    p.workspace = q->workspace;
    p.workspace_bytes = q->workspace_bytes;
    return p;
}

int32_t ak_ik_any_validate(ak_ik_kind kind, const ak_ik_any_params *params, ak_error *err)
{
    if (!params) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    const int32_t ranges = ak_params_check(ak_ik_any_param_ranges(), params, err);
    if (ranges < 0) return ranges;
    switch (kind) {
    case AK_IK_LIMB: {
        ak_limb_ik_params p;
        const int32_t st = limb_params(params, &p, err);
        return st != AK_OK ? st : ak_limb_ik_validate(&p, err);
    }
    case AK_IK_CCD:
    case AK_IK_FABRIK: {
        const ak_chain_ik_params p = chain_params(params);
        return ak_chain_ik_validate(&p, err);
    }
    case AK_IK_JACOBIAN:
    case AK_IK_DLS: {
        const ak_jacobian_ik_params p = jacobian_params(kind, params);
        return ak_jacobian_ik_validate(&p, err);
    }
    default:
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown IK solver kind %d", (int)kind);
    }
}

int32_t ak_ik_solve_any(ak_ik_kind kind, const ak_ik_any_params *params, ak_xform *local,
                        ak_xform *model, ak_ik_result *result, ak_error *err)
{
    if (result) memset(result, 0, sizeof *result);
    if (!params) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    switch (kind) {
    case AK_IK_LIMB: {
        ak_limb_ik_params p;
        const int32_t st = limb_params(params, &p, err);
        return st != AK_OK ? st : ak_limb_ik_run(&p, local, model, result, err);
    }
    case AK_IK_CCD:
    case AK_IK_FABRIK: {
        const ak_chain_ik_params p = chain_params(params);
        return kind == AK_IK_CCD ? ak_ccd_ik_run(&p, local, model, result, err)
                                 : ak_fabrik_ik_run(&p, local, model, result, err);
    }
    case AK_IK_JACOBIAN:
    case AK_IK_DLS: {
        const ak_jacobian_ik_params p = jacobian_params(kind, params);
        return ak_jacobian_ik_run(&p, local, model, result, err);
    }
    default:
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "unknown IK solver kind %d", (int)kind);
    }
}
