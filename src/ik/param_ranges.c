/* The documented ranges of the IK params structs' float fields: one table per struct, checked
 * by its _validate after the checks of indices and shapes, and read by the plugin, Python and
 * JS (status.h). Positions and axes are model space, within 1e6 of the origin (the plugin's
 * coordinate bound); tolerances are a fraction of the chain length (1: anywhere within one
 * chain length counts as reached, more says nothing) or radians for aim and look-at; weights
 * blend 0..1. Fields read only under a flag (the limb's pole without use_pole) are checked by
 * the solver when the flag is set, not here. */
#include "animkit/ik.h"

#include "core/param_table.h"

#define RANGE(type, f, lo, hi) AKP_RANGE(type, f, lo, hi, 0)
/* NOLINTBEGIN(bugprone-macro-parentheses): a type and a field path are offsetof's operands */
#define COORD(type, v)                                                                             \
    RANGE(type, v.x, -1e6f, 1e6f), RANGE(type, v.y, -1e6f, 1e6f), RANGE(type, v.z, -1e6f, 1e6f)
/* NOLINTEND(bugprone-macro-parentheses) */
#define TABLE AKP_TABLE
#define PI_F  3.14159265f

static const ak_param_range k_limb[] = {
    COORD(ak_limb_ik_params, target),
    COORD(ak_limb_ik_params, mid_axis),
    RANGE(ak_limb_ik_params, soft_limit, 0.0f, 0.999f),
    RANGE(ak_limb_ik_params, tolerance, 0.0f, 1.0f),
    RANGE(ak_limb_ik_params, weight, 0.0f, 1.0f),
};
static const ak_param_table k_limb_table = TABLE(ak_limb_ik_params, k_limb);

static const ak_param_range k_chain[] = {
    COORD(ak_chain_ik_params, target),
    RANGE(ak_chain_ik_params, tolerance, 0.0f, 1.0f),
    RANGE(ak_chain_ik_params, weight, 0.0f, 1.0f),
};
static const ak_param_table k_chain_table = TABLE(ak_chain_ik_params, k_chain);

static const ak_param_range k_jacobian[] = {
    COORD(ak_jacobian_ik_params, target),
    RANGE(ak_jacobian_ik_params, damping, 0.0f, 10.0f),
    RANGE(ak_jacobian_ik_params, max_step, 0.0f, PI_F),
    RANGE(ak_jacobian_ik_params, tolerance, 0.0f, 1.0f),
    RANGE(ak_jacobian_ik_params, weight, 0.0f, 1.0f),
};
static const ak_param_table k_jacobian_table = TABLE(ak_jacobian_ik_params, k_jacobian);

static const ak_param_range k_aim[] = {
    COORD(ak_aim_ik_params, target),
    COORD(ak_aim_ik_params, forward),
    COORD(ak_aim_ik_params, up),
    COORD(ak_aim_ik_params, up_model),
    RANGE(ak_aim_ik_params, clamp_weight, 0.0f, 1.0f),
    RANGE(ak_aim_ik_params, tolerance, 0.0f, PI_F),
    RANGE(ak_aim_ik_params, weight, 0.0f, 1.0f),
};
static const ak_param_table k_aim_table = TABLE(ak_aim_ik_params, k_aim);

static const ak_param_range k_look_at[] = {
    COORD(ak_look_at_params, target),
    COORD(ak_look_at_params, forward),
    COORD(ak_look_at_params, up),
    COORD(ak_look_at_params, up_model),
    RANGE(ak_look_at_params, clamp_weight, 0.0f, 1.0f),
    RANGE(ak_look_at_params, tolerance, 0.0f, PI_F),
    RANGE(ak_look_at_params, weight, 0.0f, 1.0f),
};
static const ak_param_table k_look_at_table = TABLE(ak_look_at_params, k_look_at);

static const ak_param_range k_any[] = {
    COORD(ak_ik_any_params, target),
    RANGE(ak_ik_any_params, tolerance, 0.0f, 1.0f),
    RANGE(ak_ik_any_params, weight, 0.0f, 1.0f),
};
static const ak_param_table k_any_table = TABLE(ak_ik_any_params, k_any);

const ak_param_table *ak_limb_ik_param_ranges(void)
{
    return &k_limb_table;
}
const ak_param_table *ak_chain_ik_param_ranges(void)
{
    return &k_chain_table;
}
const ak_param_table *ak_jacobian_ik_param_ranges(void)
{
    return &k_jacobian_table;
}
const ak_param_table *ak_aim_ik_param_ranges(void)
{
    return &k_aim_table;
}
const ak_param_table *ak_look_at_param_ranges(void)
{
    return &k_look_at_table;
}
const ak_param_table *ak_ik_any_param_ranges(void)
{
    return &k_any_table;
}
