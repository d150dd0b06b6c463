/* Shared pieces of the IK module: chain extraction and argument checks. */
#include "ik/ik_internal.h"

int ik_is_in_subtree(const ak_skeleton *s, int32_t a, int32_t d)
{
    return d >= a && d < s->subtree_end[a];
}

int32_t ik_check_joint(const ak_skeleton *s, int32_t j, const char *what, ak_error *err)
{
    if (j < 0 || j >= s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s joint %d out of range [0, %d)", what,
                            (int)j, (int)s->joint_count);
    return AK_OK;
}

int32_t ik_check_weight(float w, ak_error *err)
{
    if (!(w >= 0.0f && w <= 1.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "weight must be in [0, 1]");
    return AK_OK;
}

int32_t ik_check_vec(ak_vec3 v, const char *what, ak_error *err)
{
    if (!akv_finite(v)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "%s is not finite", what);
    return AK_OK;
}

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
