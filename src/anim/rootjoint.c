/* Which joint carries the character's travel, which joints are the body (and its standing
 * height), and the clip with that travel moved onto the top joint (rootmotion.h, clip.h).
 * Offline: all allocate. */
#include "animkit/rootmotion.h"
#include "core/humanoid_internal.h"
#include "core/xform_inline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A still joint stays within STILL_FRACTION of the standing height of its frame-0 place; a
 * travelling one reaches TRAVEL_FRACTION of it (a quarter of a stride's length for a walk;
 * an idle capture's hip sway stays under it). */
#define STILL_FRACTION  1e-3f
#define TRAVEL_FRACTION 0.25f

/* reach[j]: the largest XZ distance of joint j, in model space, from its frame-0 place. */
static int32_t measure_reach(const ak_skeleton *s, const ak_clip *c, float *reach)
{
    const int32_t J = s->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    ak_vec3 *first = (ak_vec3 *)malloc(sizeof(ak_vec3) * (size_t)J);
    if (!local || !first) {
        free(local);
        free(first);
        return AK_ERR_NOMEM;
    }
    ak_xform *model = local + J;
    for (int32_t j = 0; j < J; ++j)
        reach[j] = 0.0f;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        for (int32_t j = 0; j < J; ++j) {
            if (f == 0) first[j] = model[j].translation;
            const float dx = model[j].translation.x - first[j].x;
            const float dz = model[j].translation.z - first[j].z;
            const float d = sqrtf(dx * dx + dz * dz);
            if (d > reach[j]) reach[j] = d;
        }
    }
    free(local);
    free(first);
    return AK_OK;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The median, over up to 64 evenly spaced frames, of the pose height along Y of `body` and its
 * descendants (ak_pose_body_height). 0 when out of memory. */
static float median_height(const ak_skeleton *s, const ak_clip *c, int32_t body)
{
    const int32_t n = s->joint_count;
    const int32_t samples = c->frame_count < 64 ? c->frame_count : 64;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n * 2);
    float heights[64] = {0};
    if (!local) return 0.0f;
    for (int32_t i = 0; i < samples; ++i) {
        int32_t f = samples > 1 ? (int32_t)((int64_t)i * (c->frame_count - 1) / (samples - 1)) : 0;
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, local + n);
        heights[i] = ak_pose_body_height(s, local + n, body);
    }
    free(local);
    qsort(heights, (size_t)samples, sizeof(float), cmp_float);
    return heights[samples / 2];
}

/* Down from the still top joint: the child whose subtree reaches furthest, while it is still;
 * the first that travels (with a translation track) is the answer. */
static int32_t walk_down(const ak_skeleton *s, const ak_clip *c, const float *reach, float height)
{
    const int32_t J = s->joint_count;
    int32_t cur = 0;
    while (reach[cur] <= STILL_FRACTION * height) {
        int32_t best = -1;
        float best_reach = -1.0f;
        const int32_t end = s->subtree_end[cur] < J ? s->subtree_end[cur] : J;
        for (int32_t j = cur + 1; j < end; ++j) {
            if (s->parents[j] != cur || s->is_end_site[j]) continue;
            float sub = 0.0f;
            for (int32_t k = j; k < s->subtree_end[j] && k < J; ++k)
                if (reach[k] > sub) sub = reach[k];
            if (sub > best_reach) {
                best_reach = sub;
                best = j;
            }
        }
        if (best < 0 || best >= J) return 0;
        if (reach[best] >= TRAVEL_FRACTION * height && c->joint_track[best] >= 0) return best;
        if (reach[best] > STILL_FRACTION * height) return 0;
        cur = best;
    }
    return cur;
}

int32_t ak_root_joint_find(const ak_skeleton *s, const ak_clip *c, const char *name,
                           ak_root_joint_report *out, ak_error *err)
{
    if (!s || !c || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (c->joint_count != s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "clip has %d joints, skeleton %d",
                            (int)c->joint_count, (int)s->joint_count);
    memset(out, 0, sizeof *out);
    int32_t named = -1;
    if (name && *name) {
        named = ak_skeleton_find(s, name);
        if (named < 0)
            return ak_error_set(err, AK_ERR_NOT_FOUND, 0,
                                "no joint named '%s' to carry the root motion", name);
    }
    float *reach = (float *)calloc((size_t)s->joint_count, sizeof(float));
    if (!reach || measure_reach(s, c, reach) != AK_OK) {
        free(reach);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    /* The scale of "still": the body's height, where names find it; else every joint's, until
     * the measure has found the travelling joint whose subtree is then the body. */
    const int32_t humanoid = ak_humanoid_body_top(s);
    const int32_t scale_body = humanoid >= 0 ? humanoid : 0;
    out->height = median_height(s, c, scale_body);
    if (!(out->height > 0.0f)) out->height = ak_skeleton_rest_height(s);
    const int32_t measured = walk_down(s, c, reach, out->height);
    out->joint = named >= 0 ? named : measured;
    out->body = humanoid >= 0 ? humanoid : measured;
    if (out->body != scale_body) {
        out->height = median_height(s, c, out->body);
        if (!(out->height > 0.0f)) out->height = ak_skeleton_rest_height(s);
    }
    int32_t top = out->joint;
    while (s->parents[top] >= 0)
        top = s->parents[top];
    out->top = top;
    out->reason = named >= 0          ? AK_ROOT_JOINT_NAMED
                  : out->joint == top ? AK_ROOT_JOINT_TOP_TRAVELS
                                      : AK_ROOT_JOINT_UNDER_STILL;
    out->travel = reach[out->joint];
    out->top_travel = reach[top];
    free(reach);
    return AK_OK;
}

int32_t ak_clip_body_root(const ak_skeleton *s, const ak_clip *c)
{
    if (!s || !c || c->joint_count != s->joint_count) return -1;
    const int32_t humanoid = ak_humanoid_body_top(s);
    if (humanoid >= 0) return humanoid;
    ak_root_joint_report r;
    return ak_root_joint_find(s, c, NULL, &r, NULL) == AK_OK ? r.body : -1;
}

float ak_clip_standing_height(const ak_clip *c, const ak_skeleton *s)
{
    const int32_t body = ak_clip_body_root(s, c);
    return body >= 0 ? median_height(s, c, body) : 0.0f;
}

void ak_root_joint_describe(const ak_skeleton *s, const ak_root_joint_report *r, char *buf,
                            size_t size)
{
    if (!buf || !size) return;
    if (!s || !r || r->joint < 0 || r->joint >= s->joint_count) {
        snprintf(buf, size, "?");
        return;
    }
    const char *name = s->names[r->joint], *top = s->names[r->top];
    if (r->reason == AK_ROOT_JOINT_NAMED)
        snprintf(buf, size, "%s (named; it reaches %.3g on XZ, the top joint %s %.3g)", name,
                 (double)r->travel, top, (double)r->top_travel);
    else if (r->reason == AK_ROOT_JOINT_UNDER_STILL)
        snprintf(buf, size,
                 "%s (the top joint %s is still: %.3g on XZ; %s reaches %.3g, height %.3g)", name,
                 top, (double)r->top_travel, name, (double)r->travel, (double)r->height);
    else if (r->travel > STILL_FRACTION * r->height)
        snprintf(buf, size, "%s (the top joint travels: it reaches %.3g on XZ, height %.3g)", name,
                 (double)r->travel, (double)r->height);
    else
        snprintf(buf, size, "%s (the top joint; no joint travels: %.3g on XZ, height %.3g)", name,
                 (double)r->travel, (double)r->height);
}

/* on_chain[j] = 1 for the top joint and every joint between it and `joint` (exclusive). */
static void mark_chain(const ak_skeleton *s, int32_t joint, uint8_t *on_chain)
{
    memset(on_chain, 0, (size_t)s->joint_count);
    for (int32_t j = s->parents[joint]; j >= 0; j = s->parents[j])
        on_chain[j] = 1;
}

/* The new clip's tracks: the old ones, the top joint, and every joint hanging off the chain
 * (End Sites keep their offsets). */
static int32_t create_like(const ak_skeleton *s, const ak_clip *c, const uint8_t *on_chain,
                           ak_clip **out, ak_error *err)
{
    const int32_t J = s->joint_count;
    uint8_t *has = (uint8_t *)malloc((size_t)J);
    if (!has) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t j = 0; j < J; ++j) {
        const int32_t p = s->parents[j];
        has[j] = (uint8_t)(c->joint_track[j] >= 0 || (p < 0 && on_chain[j]) ||
                           (p >= 0 && on_chain[p] && !on_chain[j] && !s->is_end_site[j]));
    }
    const int32_t st = ak_clip_create(J, c->frame_count, c->frame_time, has, out, err);
    free(has);
    if (st == AK_OK) (*out)->loop = c->loop;
    return st;
}

/* T(f): the joint's heading about +Y and its XZ place, as a model-space rigid motion taking
 * the top joint's place c0 (XZ) to the joint's place. */
static ak_xform travel_of(const ak_xform *model, int32_t joint, int32_t top)
{
    /* The joint's heading (the rule root_no_heading removes), not the heading of its rotation:
     * with pitch and roll the two differ, and the joint below would keep a heading that moves
     * with them. The heading itself, not its change since frame 0: the top joint then faces
     * where a travelling top joint of the same capture does, so a motion database's
     * character frames are the same (CMU 16_11's veer under a still top joint matched 1.6 %
     * late while its frame 0 heading offset every frame's). */
    const ak_quat yaw = ak_quat_yaw(ak_heading_of(model[joint].rotation, ak_vec3_make(0, 0, 1)));
    const ak_vec3 c0 = ak_vec3_make(model[top].translation.x, 0.0f, model[top].translation.z);
    const ak_vec3 to = ak_vec3_make(model[joint].translation.x, 0.0f, model[joint].translation.z);
    ak_xform t;
    t.rotation = yaw;
    t.translation = akv_sub(to, akq_rotate(yaw, c0));
    return t;
}

/* Frame f of the new clip from the old clip's local and model poses. */
static void hoist_frame(const ak_skeleton *s, const ak_clip *c, int32_t f, const uint8_t *on_chain,
                        ak_xform T, const ak_xform *local, const ak_xform *model, ak_clip *out)
{
    const int32_t J = s->joint_count;
    const ak_xform T_inv = akx_inverse(T);
    for (int32_t j = 0; j < J; ++j) {
        const int32_t p = s->parents[j];
        ak_xform l = local[j];
        if (p < 0 && on_chain[j]) {
            l = akx_mul(T, l);
        } else if (p >= 0 && on_chain[p] && !on_chain[j] && !s->is_end_site[j]) {
            /* M_p^-1 T^-1 M_j: the joint keeps its model transform under the moved parent. */
            l = akx_mul(akx_inverse(model[p]), akx_mul(T_inv, model[j]));
        }
        out->rotations[(size_t)f * J + j] = akq_normalize(l.rotation);
        const int32_t tr = out->joint_track[j];
        if (tr >= 0) out->translations[(size_t)f * out->track_count + tr] = l.translation;
    }
    (void)c;
}

int32_t ak_clip_travel_on_top(const ak_skeleton *s, const ak_clip *c, const ak_root_joint_report *r,
                              ak_clip **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!s || !c || !r || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (c->joint_count != s->joint_count || r->joint < 0 || r->joint >= s->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "report does not fit the skeleton");
    if (s->parents[r->joint] < 0) {
        *out = ak_clip_clone(c);
        return *out ? AK_OK : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    const int32_t J = s->joint_count;
    uint8_t *on_chain = (uint8_t *)malloc((size_t)J);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2);
    int32_t st = on_chain && local ? AK_OK : ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    if (st == AK_OK) {
        mark_chain(s, r->joint, on_chain);
        st = create_like(s, c, on_chain, out, err);
    }
    if (st == AK_OK) {
        ak_xform *model = local + J;
        for (int32_t f = 0; f < c->frame_count; ++f) {
            ak_clip_frame(c, s, f, local);
            ak_fk(s, local, model);
            hoist_frame(s, c, f, on_chain, travel_of(model, r->joint, r->top), local, model, *out);
        }
        ak_clip_finalize(*out);
    }
    free(on_chain);
    free(local);
    return st;
}

int32_t ak_clip_root_motion_prepare(const ak_skeleton *s, ak_clip **clip, const char *name,
                                    ak_root_joint_report *report, ak_error *err)
{
    if (!clip || !*clip) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null clip");
    ak_root_joint_report r;
    int32_t st = ak_root_joint_find(s, *clip, name, &r, err);
    if (st != AK_OK) return st;
    if (report) *report = r;
    /* A floor bone that travels above the body (Unreal's `root`, measured): the body's heading
     * and place go up into it too, so it faces where the body does, as a travelling top joint
     * of the same capture does. With its own (say, no) turn the cycle finder's turn term and
     * the guide's heading read a bone that does not turn with the body: a floor-bone copy of
     * CMU 07_04 picked the cycle 266:435 against 26:206 and arrived in 13.450 s against
     * 14.358; every shipped capture picked another cycle. */
    ak_root_joint_report hoist = r;
    if (r.reason == AK_ROOT_JOINT_TOP_TRAVELS && r.travel > STILL_FRACTION * r.height &&
        r.body > r.top && r.body < s->joint_count && (*clip)->joint_track[r.body] >= 0)
        hoist.joint = r.body;
    if (hoist.joint == r.top) return AK_OK;
    ak_clip *moved = NULL;
    if ((st = ak_clip_travel_on_top(s, *clip, &hoist, &moved, err)) != AK_OK) return st;
    ak_clip_destroy(*clip);
    *clip = moved;
    return AK_OK;
}
