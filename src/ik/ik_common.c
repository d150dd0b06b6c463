/* Chains from joint names' indices: root..tip extraction and skipping zero-length joints. */
#include "ik/ik_internal.h"

int32_t ak_ik_chain_from_joints(const ak_skeleton *s, int32_t root, int32_t tip, int32_t *out_chain,
                                int32_t capacity)
{
    if (!s || !out_chain || capacity < 1) return AK_ERR_INVALID_ARG;
    if (root < 0 || root >= s->joint_count || tip < 0 || tip >= s->joint_count)
        return AK_ERR_INVALID_ARG;
    if (!ik_is_in_subtree(s, root, tip)) return AK_ERR_INVALID_ARG;
    int32_t n = 1;
    for (int32_t j = tip; j != root; j = s->parents[j])
        ++n;
    if (n > capacity) return AK_ERR_LIMIT;
    int32_t i = n - 1;
    for (int32_t j = tip;; j = s->parents[j]) {
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
