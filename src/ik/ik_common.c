/* Shared pieces of the IK module: chain extraction and argument checks. */
#include "ik/ik_internal.h"





int32_t ak_ik_chain_from_joints(const ak_skeleton *s, int32_t root, int32_t tip,
                                int32_t *out_chain, int32_t capacity)
{
    if (!s || !out_chain || capacity < 1) return AK_ERR_INVALID_ARG;
    if (root < 0 || root >= s->joint_count || tip < 0 || tip >= s->joint_count)
        return AK_ERR_INVALID_ARG;
    if (!ik_is_in_subtree(s, root, tip)) return AK_ERR_INVALID_ARG;
    int32_t n = 1;
    for (int32_t j = tip; j != root; j = s->parents[j]) ++n;
    if (n > capacity) return AK_ERR_LIMIT;
    int32_t i = n - 1;
    for (int32_t j = tip; ; j = s->parents[j]) {
        out_chain[i--] = j;
        if (j == root) break;
    }
    return n;
}

int32_t ak_ik_chain_skip_zero_bones(const ak_skeleton *s, int32_t *chain, int32_t length)
{
    if (!s || !chain || length < 1) return length < 0 ? 0 : length;
    int32_t kept = 1;
    for (int32_t i = 1; i < length; ++i) {
        const int32_t j = chain[i];
        if (j >= 0 && j < s->joint_count && s->bone_lengths[j] == 0.0f && i + 1 < length) continue;
        chain[kept++] = j;
    }
    return kept;
}

int32_t ik_chain_begin(ik_chain *c, const ak_chain_ik_params *p, const ak_xform *local,
                       const ak_xform *world, ak_error *err)
{
    int32_t st = ak_chain_ik_validate(p, err);
    if (st == AK_OK && (!local || !world)) st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "NULL pose");
    if (st == AK_OK) st = ik_chain_load(c, p->skeleton, p->chain, p->chain_length, local, world, 0, err);
    if (st == AK_OK) st = ik_check_range(c->pos[0], p->target, c->total, err);
    return st;
}
