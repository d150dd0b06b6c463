/* A generated body for any rig: one swept tube with rounded ends per bone (elliptic across the
 * torso, tapered along the limbs) and a rounded box from heel to toe under each ankle, skinned
 * to the bones with weights that blend across every joint. Offline (allocates).
 *
 * The body is built on a pose that stands: the zero pose, or when that lies flat or folded
 * (another studio's rig with every bone along X) the clip's most upright frame with its feet
 * set flat (standing_internal.h, as the retargeter's reference pose). The bind pose is that
 * pose.
 * Sizes are fractions of that pose's standing height h, by the bone's place in the
 * humanoid map (a thigh starts at 0.047 h, a forearm at 0.022 h: round figures from adult
 * proportions); rigs the map does not know get tubes in proportion to each bone. The body is
 * the humanoid's top joint and its descendants (ak_skeleton_rest_height's): a joint above it,
 * such as another studio's still joint_Root, gets no tube, no weight and no part in h.
 * Weights along a bone from joint p to joint c at axial position z (0 at p, L at c):
 *   w(parent of p) = 0.5 (1 - z / (L/4)) for z < L/4   (half and half at the joint),
 *   w(c)           = 0.5 (z - 3L/4) / (L/4) for z > 3L/4 (when c carries bones of its own),
 *   w(p)           = the rest;
 * so both tubes meeting at a joint carry the same weights there and bend together. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/skin.h"
#include "anim/standing_internal.h"
#include "core/humanoid_internal.h"
#include "core/xform_inline.h"

ak_body_params ak_body_defaults(void)
{
    ak_body_params o;
    o.thickness = 1.0f;
    o.feet = 1;
    o.sides = 12;
    o.rings = 6;
    o.clip = NULL;
    return o;
}

enum { CAP_RINGS = 3, MAX_SIDES = 64 };

/* A weight ramp: joint `joint` gets lerp(w0, w1, clamp((z - z0) / (z1 - z0), 0, 1)). */
typedef struct ramp {
    int32_t joint;
    float z0, z1, w0, w1;
} ramp;

/* One swept part: an axis from `origin` along unit `axis` for `length`, cross-section
 * half-sizes rx (along u) and ry (along v) going from *0 at z = 0 to *1 at z = length,
 * `square` < 1 makes the section a rounded box (superellipse exponent), `cap` scales the
 * rounded ends' length. */
typedef struct sweep {
    ak_vec3 origin, axis, u, v;
    float length, rx0, rx1, ry0, ry1, square, cap;
    int32_t owner;
    ramp start, end;
} sweep;

typedef struct body_build {
    const ak_skeleton *sk;
    const ak_body_params *opt;
    ak_xform *model;   /* the bind pose (the zero pose or the standing frame), model space */
    int32_t *region;   /* humanoid slot of the joint or its nearest mapped ancestor, or -1 */
    int32_t *slot;     /* humanoid slot of the joint itself, or -1 */
    int32_t *children; /* child count per joint */
    ak_humanoid map;
    int mapped;
    int32_t body; /* the body's top joint (ak_humanoid_body_top), -1: every joint */
    float h;
    ak_vec3 forward; /* the rig's facing in the bind pose */
    int32_t frame;   /* the clip frame of the bind pose, -1: the zero pose */
    ak_body_mesh *m;
    int32_t vcap, icap;
} body_build;

static float ramp_weight(const ramp *r, float z)
{
    if (r->joint < 0) return 0.0f;
    const float t = r->z1 > r->z0 ? akf_clamp((z - r->z0) / (r->z1 - r->z0), 0.0f, 1.0f)
                                  : (z >= r->z1 ? 1.0f : 0.0f);
    return r->w0 + (r->w1 - r->w0) * t;
}

/* Influence slots as glTF wants them: each joint once, weights > 0 first, unused slots joint 0
 * with weight 0 (so a validator finds no zero-weight joint and no duplicate). */
static void put_influences(uint16_t *j, float *w, const int32_t joint[3], const float weight[3])
{
    int n = 0;
    for (int i = 0; i < 4; ++i)
        j[i] = 0, w[i] = 0.0f;
    for (int i = 0; i < 3; ++i) {
        if (!(weight[i] > 0.0f) || joint[i] < 0) continue;
        int k = 0;
        while (k < n && j[k] != (uint16_t)joint[i])
            ++k;
        if (k == n) j[n++] = (uint16_t)joint[i];
        w[k] += weight[i];
    }
}

static void put_vertex(body_build *b, ak_vec3 pos, const sweep *s, float z)
{
    ak_body_mesh *m = b->m;
    const int32_t v = m->vertex_count++;
    m->positions[3 * v] = pos.x;
    m->positions[3 * v + 1] = pos.y;
    m->positions[3 * v + 2] = pos.z;
    const float ws = ramp_weight(&s->start, z), we = ramp_weight(&s->end, z);
    const int32_t joint[3] = {s->owner, s->start.joint, s->end.joint};
    const float weight[3] = {1.0f - ws - we, ws, we};
    put_influences(m->joints + 4 * (size_t)v, m->weights + 4 * (size_t)v, joint, weight);
}

/* sign(c) |c|^e: the superellipse's coordinate (e = 1 gives the ellipse). */
static float super(float c, float e)
{
    const float a = powf(fabsf(c), e);
    return c < 0.0f ? -a : a;
}

/* Ring k of the sweep's profile: axial position z and the section's scale (0 at the poles). */
static void profile(const sweep *s, int32_t k, int32_t rings, float *z, float *scale)
{
    const int32_t body0 = CAP_RINGS, body1 = CAP_RINGS + rings - 1;
    if (k < body0) { /* start cap: from the pole (k = 0) to the first body ring */
        const float phi = 0.5f * AK_PI * (float)k / (float)CAP_RINGS;
        *z = -s->cap * akf_max(s->rx0, s->ry0) * cosf(phi);
        *scale = sinf(phi);
    } else if (k <= body1) {
        *z = s->length * (float)(k - body0) / (float)(rings - 1);
        *scale = 1.0f;
    } else {
        const float phi = 0.5f * AK_PI * (float)(k - body1) / (float)CAP_RINGS;
        *z = s->length + s->cap * akf_max(s->rx1, s->ry1) * sinf(phi);
        *scale = cosf(phi);
    }
}

/* Index of ring k's vertex i: ring 0 and the last ring are single pole vertices. */
static uint32_t ring_vertex(int32_t base, int32_t k, int32_t i, int32_t sides, int32_t ring_count)
{
    if (k == 0) return (uint32_t)base;
    if (k == ring_count - 1) return (uint32_t)(base + 1 + (ring_count - 2) * sides);
    return (uint32_t)(base + 1 + (k - 1) * sides + i % sides);
}

static void emit_rings(body_build *b, const sweep *s, int32_t ring_count)
{
    const int32_t sides = b->opt->sides; /* at most MAX_SIDES (ak_body_validate) */
    /* The unit section, the same on every ring of the sweep, computed once: a cosf, a sinf
     * and two powf per vertex were 11 % of a GLB export's instructions (CMU 02_01 with the
     * body, 5.14 -> 4.57 million; the same bits). */
    float unit_u[MAX_SIDES] = {0.0f}, unit_v[MAX_SIDES] = {0.0f};
    for (int32_t i = 0; i < sides; ++i) {
        const float th = 2.0f * AK_PI * (float)i / (float)sides;
        unit_u[i] = super(cosf(th), s->square);
        unit_v[i] = super(sinf(th), s->square);
    }
    for (int32_t k = 0; k < ring_count; ++k) {
        float z, scale;
        profile(s, k, b->opt->rings, &z, &scale);
        const float t = akf_clamp(z / s->length, 0.0f, 1.0f);
        const float rx = scale * (s->rx0 + (s->rx1 - s->rx0) * t);
        const float ry = scale * (s->ry0 + (s->ry1 - s->ry0) * t);
        const int32_t n = (k == 0 || k == ring_count - 1) ? 1 : sides;
        for (int32_t i = 0; i < n; ++i) {
            const float cu = rx * unit_u[i], cv = ry * unit_v[i];
            ak_vec3 p = akv_add(s->origin, akv_scale(s->axis, z));
            p = akv_add(akv_add(p, akv_scale(s->u, cu)), akv_scale(s->v, cv));
            put_vertex(b, p, s, z);
        }
    }
}

static void emit_sweep(body_build *b, const sweep *s)
{
    const int32_t sides = b->opt->sides;
    const int32_t ring_count = b->opt->rings + 2 * CAP_RINGS, base = b->m->vertex_count;
    emit_rings(b, s, ring_count);
    uint32_t *ix = b->m->indices + b->m->index_count;
    for (int32_t k = 0; k + 1 < ring_count; ++k)
        for (int32_t i = 0; i < sides; ++i) {
            const uint32_t a = ring_vertex(base, k, i, sides, ring_count);
            const uint32_t bb = ring_vertex(base, k, i + 1, sides, ring_count);
            const uint32_t c = ring_vertex(base, k + 1, i + 1, sides, ring_count);
            const uint32_t d = ring_vertex(base, k + 1, i, sides, ring_count);
            if (k > 0) *ix++ = a, *ix++ = bb, *ix++ = c;
            if (k + 2 < ring_count) *ix++ = a, *ix++ = c, *ix++ = d;
        }
    b->m->index_count = (int32_t)(ix - b->m->indices);
}

/* u, v across `axis` with v as close to `forward` as the axis allows and u x v = axis. */
static void frame_across(ak_vec3 axis, ak_vec3 forward, ak_vec3 *u, ak_vec3 *v)
{
    ak_vec3 f = akv_sub(forward, akv_scale(axis, akv_dot(axis, forward)));
    if (akv_dot(f, f) < 1e-6f) f = akv_any_perpendicular(axis);
    *v = akv_normalize_or(f, akv_any_perpendicular(axis));
    *u = akv_cross(*v, axis);
}

/* Start and end radius (fractions of h) and depth factor of the bone p -> c by where p sits in
 * the humanoid map; returns 0 for bones the feet boxes replace. */
static int humanoid_shape(const body_build *b, int32_t p, int32_t c, float r[2], float *depth)
{
    static const struct {
        int32_t slot;
        float r0, r1, depth;
    } k_table[] = {
        {AK_HUM_HIPS, 0.062f, 0.068f, 0.68f},
        {AK_HUM_SPINE, 0.070f, 0.082f, 0.62f},
        {AK_HUM_CHEST, 0.082f, 0.066f, 0.60f},
        {AK_HUM_NECK, 0.034f, 0.030f, 1.0f},
        {AK_HUM_HEAD, 0.056f, 0.050f, 1.0f},
        {AK_HUM_LEFT_UPPER_LEG, 0.047f, 0.034f, 1.0f},
        {AK_HUM_LEFT_LOWER_LEG, 0.033f, 0.023f, 1.0f},
        {AK_HUM_LEFT_SHOULDER, 0.030f, 0.030f, 1.0f},
        {AK_HUM_LEFT_UPPER_ARM, 0.033f, 0.026f, 1.0f},
        {AK_HUM_LEFT_LOWER_ARM, 0.026f, 0.019f, 1.0f},
        {AK_HUM_LEFT_HAND, 0.019f, 0.015f, 0.6f},
        {AK_HUM_LEFT_FOOT, 0.022f, 0.018f, 1.0f},
        {AK_HUM_LEFT_TOE, 0.018f, 0.015f, 1.0f},
    };
    int32_t region = b->region[p];
    if (region < 0) return -1;
    /* right side slots share the left side's sizes */
    static const int32_t k_mirror[][2] = {{AK_HUM_RIGHT_UPPER_LEG, AK_HUM_LEFT_UPPER_LEG},
                                          {AK_HUM_RIGHT_LOWER_LEG, AK_HUM_LEFT_LOWER_LEG},
                                          {AK_HUM_RIGHT_FOOT, AK_HUM_LEFT_FOOT},
                                          {AK_HUM_RIGHT_TOE, AK_HUM_LEFT_TOE},
                                          {AK_HUM_RIGHT_SHOULDER, AK_HUM_LEFT_SHOULDER},
                                          {AK_HUM_RIGHT_UPPER_ARM, AK_HUM_LEFT_UPPER_ARM},
                                          {AK_HUM_RIGHT_LOWER_ARM, AK_HUM_LEFT_LOWER_ARM},
                                          {AK_HUM_RIGHT_HAND, AK_HUM_LEFT_HAND}};
    for (size_t i = 0; i < sizeof k_mirror / sizeof k_mirror[0]; ++i)
        if (region == k_mirror[i][0]) region = k_mirror[i][1];
    if (b->opt->feet && (region == AK_HUM_LEFT_FOOT || region == AK_HUM_LEFT_TOE)) return 0;
    const int hand_child = region == AK_HUM_LEFT_HAND && b->slot[p] < 0;
    const int head_child = region == AK_HUM_HEAD && b->slot[p] < 0;
    for (size_t i = 0; i < sizeof k_table / sizeof k_table[0]; ++i) {
        if (k_table[i].slot != region) continue;
        r[0] = k_table[i].r0, r[1] = k_table[i].r1, *depth = k_table[i].depth;
        if (hand_child) r[0] = 0.008f, r[1] = 0.007f, *depth = 1.0f; /* fingers */
        if (head_child) r[0] = r[1] = 0.010f, *depth = 1.0f;
        /* the torso's branches to the shoulders and legs narrow to the limb they carry */
        const int32_t cs = b->region[c];
        if ((region == AK_HUM_CHEST || region == AK_HUM_SPINE) && cs != region &&
            cs != AK_HUM_NECK && cs != AK_HUM_CHEST && cs != AK_HUM_HEAD)
            r[0] = 0.050f, r[1] = 0.034f, *depth = 0.8f;
        if (region == AK_HUM_HIPS && cs != AK_HUM_SPINE && cs != AK_HUM_CHEST && cs != AK_HUM_HIPS)
            r[0] = 0.052f, r[1] = 0.047f, *depth = 0.9f;
        return 1;
    }
    return -1;
}

/* Sizes of the bone p -> c in the skeleton's units; 0 to draw nothing. */
static int bone_shape(const body_build *b, int32_t p, int32_t c, float len, float r[2],
                      float *depth)
{
    *depth = 1.0f;
    int st = b->mapped ? humanoid_shape(b, p, c, r, depth) : -1;
    if (st == 0) return 0;
    if (st < 0) {
        const float rr = akf_clamp(0.12f * len / b->h, 0.004f, 0.035f);
        r[0] = r[1] = rr;
    }
    r[0] *= b->h * b->opt->thickness;
    r[1] *= b->h * b->opt->thickness;
    return 1;
}

/* Joint j is part of the body: the body's top joint or below it. A joint above it (another
 * studio's still joint_Root) gets no tube and no weight. */
static int in_body(const body_build *b, int32_t j)
{
    return j >= 0 && (b->body < 0 || (j >= b->body && j < b->sk->subtree_end[b->body]));
}

static void emit_bone(body_build *b, int32_t p, int32_t c)
{
    const ak_vec3 a = b->model[p].translation, e = b->model[c].translation;
    const ak_vec3 d = akv_sub(e, a);
    const float len = akv_len(d);
    float r[2], depth;
    if (len < 1e-4f * b->h || !bone_shape(b, p, c, len, r, &depth)) return;
    sweep s;
    s.origin = a;
    s.axis = akv_scale(d, 1.0f / len);
    frame_across(s.axis, b->forward, &s.u, &s.v);
    s.length = len;
    s.rx0 = r[0], s.rx1 = r[1], s.ry0 = r[0] * depth, s.ry1 = r[1] * depth;
    s.square = 1.0f, s.cap = 1.0f;
    s.owner = p;
    const int32_t pp = in_body(b, b->sk->parents[p]) ? b->sk->parents[p] : -1;
    s.start = (ramp){pp, 0.0f, 0.25f * len, 0.5f, 0.0f};
    s.end = (ramp){b->children[c] > 0 ? c : -1, 0.75f * len, len, 0.0f, 0.5f};
    emit_sweep(b, &s);
}

/* The first child of joint j, or -1. */
static int32_t first_child(const ak_skeleton *sk, int32_t j)
{
    return j + 1 < sk->joint_count && sk->parents[j + 1] == j ? j + 1 : -1;
}

/* A rounded box under the ankle from behind the heel to the toe tip, sole flat on the lowest
 * point of the toes; weighted to the ankle, turning to the toe joint across the ball. */
static void emit_foot(body_build *b, int32_t foot, int32_t toe)
{
    const float h = b->h * b->opt->thickness;
    const ak_vec3 up = {0.0f, 1.0f, 0.0f};
    const ak_vec3 ankle = b->model[foot].translation;
    const int32_t tip_j = toe >= 0 ? first_child(b->sk, toe) : -1;
    ak_vec3 ball = toe >= 0 ? b->model[toe].translation : ankle;
    ak_vec3 tip = tip_j >= 0 ? b->model[tip_j].translation : ball;
    ak_vec3 fwd = akv_sub(tip, ankle);
    fwd.y = 0.0f;
    fwd = akv_normalize_or(fwd, b->forward);
    if (akv_dot(akv_sub(tip, ankle), fwd) < 0.08f * b->h) /* no usable toe: a typical foot */
        tip = akv_add(ankle, akv_scale(fwd, 0.13f * b->h));
    const float sole = akf_min(ankle.y - 0.035f * b->h, akf_min(ball.y, tip.y) - 0.012f * b->h);
    const float top = ankle.y + 0.012f * b->h;
    ak_vec3 heel = akv_sub(ankle, akv_scale(fwd, 0.035f * b->h));
    heel.y = 0.5f * (sole + top);
    ak_vec3 front = akv_add(tip, akv_scale(fwd, 0.006f * b->h));
    front.y = sole + 0.018f * h;
    sweep s;
    const ak_vec3 d = akv_sub(front, heel);
    s.length = akv_len(d);
    s.origin = heel;
    s.axis = akv_scale(d, 1.0f / s.length);
    s.u = akv_normalize_or(akv_cross(up, s.axis), akv_make(1, 0, 0));
    s.v = akv_cross(s.axis, s.u);
    s.rx0 = 0.025f * h, s.rx1 = 0.029f * h;
    s.ry0 = 0.5f * (top - sole), s.ry1 = 0.018f * h;
    s.square = 0.35f, s.cap = 0.35f;
    s.owner = foot;
    const float ball_z = akv_dot(akv_sub(ball, heel), s.axis);
    s.start = (ramp){-1, 0, 0, 0, 0};
    s.end = (ramp){toe, ball_z - 0.015f * b->h, ball_z + 0.015f * b->h, 0.0f, 1.0f};
    if (toe < 0 || ball_z <= 0.0f) s.end.joint = -1;
    emit_sweep(b, &s);
}

/* Smooth normals: area-weighted sums of the faces around each vertex, made unit. */
static void compute_normals(ak_body_mesh *m)
{
    memset(m->normals, 0, sizeof(float) * 3 * (size_t)m->vertex_count);
    for (int32_t t = 0; t + 2 < m->index_count; t += 3) {
        const uint32_t *ix = m->indices + t;
        const float *p0 = m->positions + 3 * ix[0], *p1 = m->positions + 3 * ix[1],
                    *p2 = m->positions + 3 * ix[2];
        const ak_vec3 e1 = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
        const ak_vec3 e2 = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
        const ak_vec3 n = akv_cross(e1, e2);
        for (int k = 0; k < 3; ++k) {
            float *o = m->normals + 3 * ix[k];
            o[0] += n.x, o[1] += n.y, o[2] += n.z;
        }
    }
    for (int32_t v = 0; v < m->vertex_count; ++v) {
        float *o = m->normals + 3 * v;
        const ak_vec3 n = akv_normalize_or(akv_make(o[0], o[1], o[2]), akv_make(0, 1, 0));
        o[0] = n.x, o[1] = n.y, o[2] = n.z;
    }
}

void ak_body_mesh_destroy(ak_body_mesh *m)
{
    if (!m) return;
    free(m->positions);
    free(m->normals);
    free(m->joints);
    free(m->weights);
    free(m->indices);
    free(m->inverse_bind);
    free(m);
}

int32_t ak_body_validate(const ak_body_params *o, ak_error *err)
{
    if (!o) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null ak_body_params");
    if (!(o->thickness > 0.0f && o->thickness <= 4.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "thickness = %g: must be in (0, 4]",
                            (double)o->thickness);
    if (o->feet != 0 && o->feet != 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "feet = %d: must be 0 or 1", (int)o->feet);
    if (o->sides < 4 || o->sides > MAX_SIDES)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "sides = %d: must be in 4..64",
                            (int)o->sides);
    if (o->rings < 2 || o->rings > 64)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "rings = %d: must be in 2..64",
                            (int)o->rings);
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_body_param_ranges(), o, err);
}

static int32_t check_body_args(const ak_skeleton *sk, const ak_body_params *o, ak_error *err)
{
    if (!sk) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton is NULL");
    if (sk->joint_count < 2 || sk->joint_count > 65535)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "a body needs 2..65535 joints (the skeleton has %d)",
                            (int)sk->joint_count);
    const int32_t st = ak_body_validate(o, err);
    if (st == AK_OK && o->clip && o->clip->joint_count != sk->joint_count)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "the clip has %d joints, the skeleton %d: not its clip",
                            (int)o->clip->joint_count, (int)sk->joint_count);
    return st;
}

/* Frame `f` of the clip with its feet set flat as the capture has them where each foot is
 * lowest (ak_clip_lowest_up_axes, ak_pose_flatten_feet: the retargeter's reference pose, its
 * contact detector aside), FK into b->model. A walking frame has a heel or a toe up; the foot
 * boxes' soles are built flat, so they lie on the floor whenever the foot does. `local`: 2 *
 * joint_count scratch. */
static void flat_footed_frame(body_build *b, int32_t f, ak_xform *local)
{
    const ak_skeleton *sk = b->sk;
    const ak_clip *c = b->opt->clip;
    int32_t j[4];
    ak_humanoid_foot_joints(&b->map, j);
    float mpu = 1.0f;
    ak_units_detect(ak_clip_standing_height(c, sk), &mpu);
    ak_vec3 up[4] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    ak_clip_lowest_up_axes(sk, c, j, AK_LOWEST_TOL_M / mpu, local, local + sk->joint_count, up);
    for (int i = 0; i < 4; ++i)
        up[i] = akv_normalize_or(up[i], akv_make(0.0f, 0.0f, 0.0f));
    ak_clip_frame(c, sk, f, local);
    ak_fk(sk, local, b->model);
    ak_quat *rot = (ak_quat *)(local + sk->joint_count); /* model rotations, changed at the feet */
    for (int32_t k = 0; k < sk->joint_count; ++k)
        rot[k] = b->model[k].rotation;
    ak_pose_flatten_feet(sk, &b->map, up, ak_pose_facing_yaw(&b->map, b->model), b->model, rot);
    for (int i = 0; i < 4; ++i) { /* the feet's new local rotations, their children follow */
        const int32_t p = j[i] >= 0 ? sk->parents[j[i]] : -1;
        if (p >= 0) local[j[i]].rotation = akq_normalize(akq_mul(akq_conj(rot[p]), rot[j[i]]));
    }
    ak_fk(sk, local, b->model);
}

/* The bind pose into b->model: the zero pose, or when it does not stand and a clip is given,
 * the clip's most upright frame (ak_clip_standing_frame, the retargeter's reference frame) with
 * its feet set flat (flat_footed_frame). */
static int32_t bind_pose(body_build *b, ak_error *err)
{
    const ak_skeleton *sk = b->sk;
    b->frame = -1;
    ak_fk(sk, sk->rest_local, b->model);
    if (!b->opt->clip || !b->mapped) return AK_OK;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * 2 * (size_t)sk->joint_count);
    if (!local) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    b->frame = ak_clip_standing_frame(sk, b->opt->clip, &b->map, local, b->model);
    if (b->frame >= 0) flat_footed_frame(b, b->frame, local);
    free(local);
    return AK_OK;
}

/* Height is at least FLAT_FRACTION of the body's largest extent when the pose is not lying
 * flat: a standing adult's height is the largest, a zero pose with every bone along X has 1e-7
 * of it (its tubes would be needles: no body, so callers draw bones). */
#define FLAT_FRACTION 0.01f

/* The largest side of the box around the body's joints (in_body) in the bind pose. */
static float body_extent(const body_build *b)
{
    const int32_t first = b->body >= 0 ? b->body : 0;
    const int32_t end = b->body >= 0 ? b->sk->subtree_end[b->body] : b->sk->joint_count;
    ak_vec3 lo = b->model[first].translation, hi = lo;
    for (int32_t j = first + 1; j < end; ++j) {
        const ak_vec3 p = b->model[j].translation;
        lo = akv_make(akf_min(lo.x, p.x), akf_min(lo.y, p.y), akf_min(lo.z, p.z));
        hi = akv_make(akf_max(hi.x, p.x), akf_max(hi.y, p.y), akf_max(hi.z, p.z));
    }
    return akf_max(hi.x - lo.x, akf_max(hi.y - lo.y, hi.z - lo.z));
}

/* Bind pose, humanoid map, regions, child counts, height and facing. */
static int32_t analyse(body_build *b, ak_error *err)
{
    const ak_skeleton *sk = b->sk;
    const int32_t n = sk->joint_count;
    b->model = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)n);
    b->region = (int32_t *)malloc(sizeof(int32_t) * (size_t)n * 3);
    if (!b->model || !b->region) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    b->slot = b->region + n;
    b->children = b->region + 2 * n;
    b->mapped = ak_humanoid_find(sk, NULL, &b->map, NULL) == AK_OK;
    const int32_t st = bind_pose(b, err);
    if (st != AK_OK) return st;
    b->body = ak_humanoid_body_top(sk);
    b->h = ak_humanoid_body_height(sk, b->model);
    if (!(b->h > 0.0f) || !isfinite(b->h))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "the rest pose has no height");
    const float across = body_extent(b);
    if (b->h < FLAT_FRACTION * across)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "the %s lies flat (height %.3g of %.3g across): give the body "
                            "a clip to stand it on",
                            b->frame >= 0 ? "clip's most upright frame" : "zero pose", (double)b->h,
                            (double)across);
    for (int32_t j = 0; j < n; ++j)
        b->slot[j] = -1, b->children[j] = 0;
    for (int32_t s = 0; b->mapped && s < AK_HUM_SLOT_COUNT; ++s)
        if (b->map.joint[s] >= 0) b->slot[b->map.joint[s]] = s;
    for (int32_t j = 0; j < n; ++j) {
        const int32_t p = sk->parents[j];
        b->region[j] = b->slot[j] >= 0 ? b->slot[j] : (p >= 0 ? b->region[p] : -1);
        if (p >= 0) b->children[p]++;
    }
    b->forward = akv_make(0.0f, 0.0f, 1.0f);
    const int32_t l = b->mapped ? b->map.joint[AK_HUM_LEFT_UPPER_LEG] : -1;
    const int32_t r = b->mapped ? b->map.joint[AK_HUM_RIGHT_UPPER_LEG] : -1;
    if (l >= 0 && r >= 0) {
        const ak_vec3 left = akv_sub(b->model[l].translation, b->model[r].translation);
        b->forward = akv_normalize_or(akv_cross(left, akv_make(0, 1, 0)), b->forward);
    }
    return AK_OK;
}

static int32_t allocate(body_build *b, ak_error *err)
{
    const ak_body_params *o = b->opt;
    const int32_t parts = b->sk->joint_count + 2; /* at most one bone per joint, two feet */
    const size_t ring_count = (size_t)o->rings + 2 * CAP_RINGS;
    const size_t verts = (size_t)parts * ring_count * (size_t)o->sides;
    const size_t idx = (size_t)parts * (ring_count - 1) * (size_t)o->sides * 6;
    if (verts > 0x7fffffff / 4 || idx > 0x7fffffff)
        return ak_error_set(err, AK_ERR_LIMIT, 0, "the body would have too many vertices");
    ak_body_mesh *m = b->m;
    m->positions = (float *)malloc(sizeof(float) * 3 * verts);
    m->normals = (float *)malloc(sizeof(float) * 3 * verts);
    m->joints = (uint16_t *)malloc(sizeof(uint16_t) * 4 * verts);
    m->weights = (float *)malloc(sizeof(float) * 4 * verts);
    m->indices = (uint32_t *)malloc(sizeof(uint32_t) * idx);
    m->inverse_bind = (float *)malloc(sizeof(float) * 16 * (size_t)b->sk->joint_count);
    if (!m->positions || !m->normals || !m->joints || !m->weights || !m->indices ||
        !m->inverse_bind)
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    return AK_OK;
}

static void emit_all(body_build *b)
{
    const ak_skeleton *sk = b->sk;
    for (int32_t c = 1; c < sk->joint_count; ++c)
        if (in_body(b, sk->parents[c])) emit_bone(b, sk->parents[c], c);
    if (!b->mapped || !b->opt->feet) return;
    emit_foot(b, b->map.joint[AK_HUM_LEFT_FOOT], b->map.joint[AK_HUM_LEFT_TOE]);
    emit_foot(b, b->map.joint[AK_HUM_RIGHT_FOOT], b->map.joint[AK_HUM_RIGHT_TOE]);
}

int32_t ak_body_mesh_create(const ak_skeleton *sk, const ak_body_params *params, ak_body_mesh **out,
                            ak_error *err)
{
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "out is NULL");
    *out = NULL;
    const ak_body_params defaults = ak_body_defaults();
    body_build b;
    memset(&b, 0, sizeof b);
    b.sk = sk;
    b.opt = params ? params : &defaults;
    int32_t st = check_body_args(sk, b.opt, err);
    if (st < 0) return st;
    b.m = (ak_body_mesh *)calloc(1, sizeof(ak_body_mesh));
    if (!b.m) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    b.m->joint_count = sk->joint_count;
    if ((st = analyse(&b, err)) == AK_OK && (st = allocate(&b, err)) == AK_OK) {
        emit_all(&b);
        if (b.m->vertex_count == 0)
            st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "the skeleton has no bone to cover");
    }
    if (st == AK_OK) {
        compute_normals(b.m);
        b.m->bind_frame = b.frame;
        for (int32_t j = 0; j < sk->joint_count; ++j)
            ak_xform_to_mat4(akx_inverse(b.model[j]), b.m->inverse_bind + 16 * (size_t)j);
        *out = b.m;
    } else {
        ak_body_mesh_destroy(b.m);
    }
    free(b.model);
    free(b.region);
    return st;
}
