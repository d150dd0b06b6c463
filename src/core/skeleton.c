/* Skeleton construction, FK and pose queries. */
#include "animkit/skeleton.h"
#include "core/xform_inline.h"
#include "core/skeleton_internal.h"
#include "core/simd.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

int32_t ak_skeleton_create(const ak_skeleton_desc *desc, ak_skeleton **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!desc || !out || !desc->names || !desc->parents || !desc->rest_local)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton description is incomplete");
    const int32_t n = desc->joint_count;
    if (n < 1 || n > (1 << 24))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "joint count %d out of range", (int)n);
    for (int32_t j = 0; j < n; ++j) {
        const int32_t p = desc->parents[j];
        if (p >= j || p < -1)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "joint %d has parent %d: parents must come before children", (int)j,
                                (int)p);
        const char *name = desc->names[j];
        size_t len = name ? strlen(name) : 0;
        if (len == 0 || len >= AK_NAME_MAX)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "joint %d has an empty or too long name", (int)j);
        if (!akq_finite(desc->rest_local[j].rotation) ||
            !akv_finite(desc->rest_local[j].translation))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "joint %d has a non-finite rest transform", (int)j);
    }

    ak_skeleton *s = (ak_skeleton *)calloc(1, sizeof *s);
    if (!s) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    s->joint_count = n;
    s->names = (char(*)[AK_NAME_MAX])calloc((size_t)n, AK_NAME_MAX);
    s->parents = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    s->rest_local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    s->bone_lengths = (float *)malloc(sizeof(float) * (size_t)n);
    s->channels = (ak_channel_layout *)calloc((size_t)n, sizeof(ak_channel_layout));
    s->is_end_site = (uint8_t *)calloc((size_t)n, 1);
    s->subtree_end = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    if (!s->names || !s->parents || !s->rest_local || !s->bone_lengths || !s->channels ||
        !s->is_end_site || !s->subtree_end) {
        ak_skeleton_destroy(s);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    for (int32_t j = 0; j < n; ++j) {
        memcpy(s->names[j], desc->names[j], strlen(desc->names[j]) + 1);
        s->parents[j] = desc->parents[j];
        s->rest_local[j] = desc->rest_local[j];
        s->rest_local[j].rotation = akq_normalize(s->rest_local[j].rotation);
        s->bone_lengths[j] = akv_len(s->rest_local[j].translation);
        if (desc->channels) s->channels[j] = desc->channels[j];
        if (desc->is_end_site) s->is_end_site[j] = desc->is_end_site[j] ? 1 : 0;
        s->subtree_end[j] = j + 1;
    }
    /* Subtree ends: walk children back to front, extending each parent's range. */
    for (int32_t j = n - 1; j >= 0; --j) {
        const int32_t p = s->parents[j];
        if (p >= 0 && s->subtree_end[j] > s->subtree_end[p]) s->subtree_end[p] = s->subtree_end[j];
    }
    /* Depth-first order: every joint inside [j, subtree_end[j]) must descend from j. */
    for (int32_t j = 0; j < n; ++j) {
        for (int32_t k = j + 1; k < s->subtree_end[j] && k < n; ++k) {
            if (s->parents[k] < j) {
                ak_skeleton_destroy(s);
                return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                    "joint order is not depth-first at joint %d", (int)k);
            }
        }
    }
    *out = s;
    return AK_OK;
}

void ak_skeleton_destroy(ak_skeleton *s)
{
    if (!s) return;
    free(s->names);
    free(s->parents);
    free(s->rest_local);
    free(s->bone_lengths);
    free(s->channels);
    free(s->is_end_site);
    free(s->subtree_end);
    free(s);
}

int32_t ak_skeleton_clone(const ak_skeleton *s, ak_skeleton **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!s || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null skeleton or output");
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)s->joint_count);
    if (!names) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < s->joint_count; ++j)
        names[j] = s->names[j];
    ak_skeleton_desc d = {s->joint_count, names,       s->parents,
                          s->rest_local,  s->channels, s->is_end_site};
    int32_t status = ak_skeleton_create(&d, out, err);
    free((void *)names);
    if (status == AK_OK) { /* bit-exact: create would re-normalise the rest rotations */
        memcpy((*out)->rest_local, s->rest_local, sizeof(ak_xform) * (size_t)s->joint_count);
        memcpy((*out)->bone_lengths, s->bone_lengths, sizeof(float) * (size_t)s->joint_count);
    }
    return status;
}

int32_t ak_skeleton_joint_count(const ak_skeleton *s)
{
    return s ? s->joint_count : 0;
}

int32_t ak_skeleton_find(const ak_skeleton *s, const char *name)
{
    if (!s || !name) return -1;
    for (int32_t j = 0; j < s->joint_count; ++j)
        if (strcmp(s->names[j], name) == 0) return j;
    return -1;
}

int32_t ak_skeleton_same_rig(const ak_skeleton *a, const ak_skeleton *b, ak_error *err)
{
    if (!a || !b) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null skeleton");
    if (a->joint_count != b->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "not one skeleton: %d joints and %d joints",
                            (int)a->joint_count, (int)b->joint_count);
    for (int32_t j = 0; j < a->joint_count; ++j) {
        if (strcmp(a->names[j], b->names[j]) != 0)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "not one skeleton: joint %d is '%s' in one and '%s' in the other",
                                (int)j, a->names[j], b->names[j]);
        if (a->parents[j] != b->parents[j])
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "not one skeleton: joint %d ('%s') has parent %d in one and %d in "
                                "the other",
                                (int)j, a->names[j], (int)a->parents[j], (int)b->parents[j]);
    }
    return AK_OK;
}

/* model[j] = model[parent] * local[j] for j in [begin, end). The parent is usually the
 * previous joint, whose transform is kept in registers by the SSE path. */
static void fk_range(const ak_skeleton *s, const ak_xform *AK_RESTRICT local,
                     ak_xform *AK_RESTRICT model, int32_t begin, int32_t end)
{
    const int32_t *parents = s->parents;
#ifdef AK_HAVE_SSE
    __m128 prev_q = _mm_setzero_ps(), prev_t = _mm_setzero_ps();
    for (int32_t j = begin; j < end; ++j) {
        const int32_t p = parents[j];
        assert(p < j);
        __m128 lq = _mm_loadu_ps(&local[j].rotation.x);
        __m128 lt = aks_load_translation(&local[j]);
        if (p >= 0) {
            __m128 pq = prev_q, pt = prev_t;
            if (p != j - 1 || j == begin) {
                pq = _mm_loadu_ps(&model[p].rotation.x);
                pt = aks_load_translation(&model[p]);
            }
            lt = _mm_add_ps(pt, aks_rotate(pq, lt));
            lq = aks_qmul(pq, lq);
        }
        aks_store_xform(&model[j], lq, lt);
        prev_q = lq;
        prev_t = lt;
    }
#else
    for (int32_t j = begin; j < end; ++j) {
        const int32_t p = parents[j];
        assert(p < j);
        model[j] = p < 0 ? local[j] : akx_mul(model[p], local[j]);
    }
#endif
}

void ak_fk(const ak_skeleton *s, const ak_xform *AK_RESTRICT local, ak_xform *AK_RESTRICT model)
{
    fk_range(s, local, model, 0, s->joint_count);
}

void ak_fk_range(const ak_skeleton *s, const ak_xform *local, ak_xform *model, int32_t begin,
                 int32_t end)
{
    fk_range(s, local, model, begin, end);
}

void ak_fk_subtree(const ak_skeleton *s, const ak_xform *local, ak_xform *model, int32_t joint)
{
    if (!s || joint < 0 || joint >= s->joint_count) return;
    fk_range(s, local, model, joint, s->subtree_end[joint]);
}

void ak_skeleton_scale(ak_skeleton *s, float factor)
{
    if (!s || !isfinite(factor)) return;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        s->rest_local[j].translation = akv_scale(s->rest_local[j].translation, factor);
        s->bone_lengths[j] *= fabsf(factor);
    }
}

void ak_pose_rest(const ak_skeleton *s, ak_xform *local)
{
    memcpy(local, s->rest_local, sizeof(ak_xform) * (size_t)s->joint_count);
}

float ak_pose_height(const ak_xform *model, int32_t n)
{
    if (n <= 0) return 0.0f;
    float lo = model[0].translation.y, hi = lo;
    for (int32_t j = 1; j < n; ++j) {
        float y = model[j].translation.y;
        if (y < lo) lo = y;
        if (y > hi) hi = y;
    }
    return hi - lo;
}

float ak_pose_body_height(const ak_skeleton *s, const ak_xform *model, int32_t body)
{
    if (!s || !model || body < 0 || body >= s->joint_count) return 0.0f;
    return ak_pose_height(model + body, s->subtree_end[body] - body);
}
