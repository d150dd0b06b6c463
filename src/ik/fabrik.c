/* FABRIK (Aristidou & Lasenby, "FABRIK: a fast, iterative solver for the inverse kinematics
 * problem", 2011).
 *
 * Positions p_0..p_{n-1} (model space), bone lengths l_i = |p_{i+1} - p_i| from the pose.
 *   backward: p_{n-1} = target; p_i = p_{i+1} + l_i * normalize(p_i - p_{i+1}), i = n-2..0
 *   forward:  p_0 = root;       p_{i+1} = p_i + l_i * normalize(p_{i+1} - p_i), i = 0..n-2
 * so every bone keeps its exact length after each pass. Unreachable targets (|t - p_0| >= sum
 * l_i) give the chain stretched straight toward the target in one step.
 * After each iteration the rotations are derived root to tip: joint i turns by the minimal
 * rotation from its bone's current direction to the new one (which keeps its twist), then its
 * limit is applied and the chain below is recomputed by FK, so the next iteration starts from
 * positions a rotation can actually produce. */
#include "ik/ik_internal.h"

/* normalize(v) * len, or `fallback` (already of length len) when v is too short. */
static ak_vec3 scaled_dir(ak_vec3 v, float len, ak_vec3 fallback)
{
    float l = akv_len(v);
    if (!(l > 1e-20f)) return fallback;
    return akv_scale(v, len / l);
}

int32_t ak_fabrik_ik_run(const ak_chain_ik_params *p, ak_xform *local, ak_xform *model,
                         ak_ik_result *result, ak_error *err)
{
    ik_chain c;
    ik_chain_solve s;
    const int32_t st = ik_chain_solve_begin(&c, &s, p, local, model, result, err);
    if (st <= 0) return st;
    const int32_t n = c.n;
    const ak_vec3 target = p->target;
    const ak_vec3 root_to_target = akv_sub(target, c.pos[0]);
    const float target_dist = akv_len(root_to_target);
    const int straight = target_dist >= c.total;

    ak_vec3 q[AK_IK_MAX_CHAIN]; /* the FABRIK positions */
    int32_t it = 0;
    while (s.error > s.tol && it < p->max_iterations) {
        ++it;
        for (int32_t i = 0; i < n; ++i)
            q[i] = c.pos[i];
        if (straight) {
            const ak_vec3 dir = akv_scale(root_to_target, 1.0f / target_dist);
            for (int32_t i = 0; i + 1 < n; ++i)
                q[i + 1] = akv_add(q[i], akv_scale(dir, c.length[i]));
        } else {
            q[n - 1] = target;
            for (int32_t i = n - 2; i >= 0; --i) {
                const ak_vec3 bone = akv_sub(c.pos[i], c.pos[i + 1]);
                q[i] = akv_add(q[i + 1], scaled_dir(akv_sub(q[i], q[i + 1]), c.length[i], bone));
            }
        }
        /* Forward pass fused with the rotations, root to tip: each bone turns by the minimal
         * rotation (twist kept) onto the direction toward its backward-pass position, is
         * limited, and the next joint goes where that rotation actually puts it. Without
         * limits this is exactly FABRIK's p_{i+1} = p_i + l_i normalize(q_{i+1} - p_i). */
        for (int32_t i = 0; i + 1 < n; ++i) {
            const ak_quat cur = akq_mul(ik_chain_parent_rot(&c, i), c.local[i]);
            const ak_vec3 cur_dir = akq_rotate(cur, c.offset[i]);
            const ak_vec3 new_dir = akv_sub(q[i + 1], c.pos[i]);
            ik_chain_set_rot(&c, i, akq_mul(akq_from_to(cur_dir, new_dir), cur),
                             p->limits ? &p->limits[i] : NULL);
            c.pos[i + 1] = akv_add(c.pos[i], akq_rotate(c.rot[i], c.offset[i]));
        }
        c.rot[n - 1] = akq_mul(ik_chain_parent_rot(&c, n - 1), c.local[n - 1]);
        const float new_error = akv_len(akv_sub(c.pos[n - 1], target));
        const int stalled = ik_stalled(new_error, s.error, s.tol);
        s.error = new_error;
        if (stalled || (straight && !p->limits)) break;
    }
    /* Limits: FABRIK's position passes know nothing of hinges, so once constrained passes stop
     * improving, the remaining iterations are CCD passes, which turn one joint at a time and
     * respect limits naturally. */
    if (p->limits && !straight) {
        while (s.error > s.tol && it < p->max_iterations) {
            ++it;
            const float new_error = ik_ccd_pass(&c, target, NULL, p->limits);
            const int stalled = ik_stalled(new_error, s.error, s.tol);
            s.error = new_error;
            if (stalled) break;
        }
    }
    return ik_chain_solve_end(&c, &s, p, it, local, model, result);
}
