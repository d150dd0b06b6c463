/* CCD (cyclic coordinate descent); its parameters, shared with FABRIK, are in chain.c.
 *
 * One pass visits the joints from the one nearest the end effector back to the chain root.
 * At joint j with r_jn = end - p_j and r_jd = target - p_j the joint turns by the shortest
 * rotation taking r_jn onto r_jd, scaled by the joint weight w_j (a slerp from identity, i.e.
 * angle w_j * acos(r^_jn . r^_jd) about normalize(r_jn x r_jd)), then its limit is applied.
 * Turning joint j moves only the joints below it, so within a pass only the end effector needs
 * updating (rigidly about p_j); the whole chain is refreshed once per pass, O(n) per pass. */
#include "ik/ik_internal.h"

float ik_ccd_pass(ik_chain *c, ak_vec3 target, const float *joint_weights,
                  const ak_ik_limit *limits)
{
    const int32_t n = c->n;
    ak_vec3 end = c->pos[n - 1];
    for (int32_t i = n - 2; i >= 0; --i) {
        if (joint_weights && joint_weights[i] <= 0.0f) continue;
        const ak_vec3 to_end = akv_sub(end, c->pos[i]);
        const ak_vec3 to_target = akv_sub(target, c->pos[i]);
        ak_quat r = akq_from_to(to_end, to_target);
        if (joint_weights && joint_weights[i] < 1.0f)
            r = akq_slerp(akq_identity(), akq_positive_w(r), joint_weights[i]);
        const ak_quat old_rot = c->rot[i];
        ik_chain_set_rot(c, i, akq_mul(r, old_rot), limits ? &limits[i] : NULL);
        /* The rotation actually applied (after the limit) carries the end effector. */
        const ak_quat applied = akq_mul(c->rot[i], akq_conj(old_rot));
        end = akv_add(c->pos[i], akq_rotate(applied, to_end));
    }
    ik_chain_fk_from(c, 0);
    return akv_len(akv_sub(c->pos[n - 1], target));
}

int32_t ak_ccd_ik_run(const ak_chain_ik_params *p, ak_xform *local, ak_xform *model,
                      ak_ik_result *result, ak_error *err)
{
    ik_chain c;
    ik_chain_solve s;
    const int32_t st = ik_chain_solve_begin(&c, &s, p, local, model, result, err);
    if (st <= 0) return st;
    const int32_t n = c.n;
    const ak_vec3 target = p->target;
    int32_t it = 0;
    if (s.res.unreachable) {
        /* CCD has fixed points with the chain folded along the line to the target, so an
         * unreachable target gets the defined answer directly: every bone, root first, turned
         * by its minimal rotation onto the root->target direction (then limited). */
        const ak_vec3 dir = akv_sub(target, c.pos[0]);
        for (int32_t i = 0; i + 1 < n; ++i) {
            if (p->joint_weights && p->joint_weights[i] <= 0.0f) continue;
            const ak_quat cur = akq_mul(ik_chain_parent_rot(&c, i), c.local[i]);
            ak_quat r = akq_from_to(akq_rotate(cur, c.offset[i]), dir);
            if (p->joint_weights && p->joint_weights[i] < 1.0f)
                r = akq_slerp(akq_identity(), akq_positive_w(r), p->joint_weights[i]);
            ik_chain_set_rot(&c, i, akq_mul(r, cur), p->limits ? &p->limits[i] : NULL);
            ik_chain_fk_from(&c, i);
        }
        it = 1;
        s.error = 0.0f; /* skip the passes */
    }
    while (s.error > s.tol && it < p->max_iterations) {
        ++it;
        const float new_error = ik_ccd_pass(&c, target, p->joint_weights, p->limits);
        const int stalled = ik_stalled(new_error, s.error, s.tol);
        s.error = new_error;
        if (stalled) break;
    }
    return ik_chain_solve_end(&c, &s, p, it, local, model, result);
}
