/* Limb IK: the analytic two-bone solver (law of cosines + pole vector).
 *
 * Positions (model space, suffix _model): a = upper joint, b = middle joint, c = end joint,
 * t = target. Bone lengths l1 = |b - a|, l2 = |c - b| (rotations of the limb never change
 * them; for direct children they are the skeleton's bone lengths). d = |t - a|.
 *
 *   interior angle at the middle joint  beta  = acos((l1^2 + l2^2 - d^2) / (2 l1 l2))
 *   angle at the upper joint            alpha = acos((l1^2 + d^2 - l2^2) / (2 l1 d))
 *
 * The solve is three model-space rotations, as in ozz-animation's IKTwoBoneJob:
 *   A  bends the middle joint about its current bend-plane normal (a hinge: the plane the
 *      limb already bends in, or mid_axis when the limb is straight) until the interior angle
 *      is beta;
 *   B  turns the whole limb about the upper joint so the end joint lies on the line a -> t;
 *   C  twists the limb about that line so the middle joint points at the pole (or stays in
 *      the plane it was bent in before the solve).
 * For a bent limb, B and C are computed together as one change of frame (the solved limb is
 * known in closed form), which shortens the chain of dependent square roots; a straight
 * limb (no bend plane yet) goes through A, B, C one by one.
 * The corrections in local space are conj(W) R W for each joint's model-space rotation W. */
#include "ik/ik_internal.h"

ak_limb_ik_params ak_limb_ik_defaults(void)
{
    ak_limb_ik_params p;
    p.skeleton = NULL;
    p.upper = p.middle = p.end = -1;
    p.target = ak_vec3_make(0.0f, 0.0f, 0.0f);
    p.use_pole = 0;
    p.pole = ak_vec3_make(0.0f, 0.0f, 0.0f);
    p.mid_axis = ak_vec3_make(0.0f, 0.0f, 1.0f);
    p.soft_limit = 0.0f;
    p.match_end_rotation = 0;
    p.end_rotation = ak_quat_identity();
    p.tolerance = 1e-4f;
    p.weight = 1.0f;
    return p;
}

/* The range table's bounds (param_ranges.c) in one pass: inside them every float field the
 * table covers is finite, so with the joints in order, a non-zero mid_axis and the flagged
 * fields sound the params are valid, and the field-by-field checks run only when this fails,
 * for their messages. The bounds must equal the table's: tests/ik/test_param_ranges.c probes
 * every row through _validate. */
static inline int limb_valid_fast(const ak_limb_ik_params *p)
{
    static const float lo[12] = {-1e6f, -1e6f, -1e6f, -1e6f, -1e6f, -1e6f,
                                 0.0f,  0.0f,  0.0f,  0.0f,  0.0f,  0.0f};
    static const float hi[12] = {1e6f,   1e6f, 1e6f, 1e6f, 1e6f, 1e6f,
                                 0.999f, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f};
    const float v[12] = {p->target.x,   p->target.y,   p->target.z,   p->mid_axis.x,
                         p->mid_axis.y, p->mid_axis.z, p->soft_limit, p->tolerance,
                         p->weight,     0.0f,          0.0f,          0.0f};
    const ak_skeleton *s = p->skeleton;
    return s && p->upper >= 0 && p->middle > p->upper && p->end > p->middle &&
           p->end < s->joint_count && p->middle < s->subtree_end[p->upper] &&
           p->end < s->subtree_end[p->middle] &&
           (ik_floats_within(v, lo, hi, 12) & (akv_dot(p->mid_axis, p->mid_axis) > 1e-12f)) &&
           (!p->use_pole || akv_finite(p->pole)) &&
           (!p->match_end_rotation || akq_is_unit(p->end_rotation));
}

/* Static so the solve inlines it (an exported function may be interposed under -fPIC). */
static int32_t limb_validate(const ak_limb_ik_params *p, ak_error *err)
{
    if (p && limb_valid_fast(p)) return AK_OK;
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "params is NULL");
    const ak_skeleton *s = p->skeleton;
    if (!s) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skeleton is NULL");
    int32_t st;
    if ((st = ik_check_joint(s, p->upper, "upper", err)) < 0) return st;
    if ((st = ik_check_joint(s, p->middle, "middle", err)) < 0) return st;
    if ((st = ik_check_joint(s, p->end, "end", err)) < 0) return st;
    if (p->middle == p->upper || !ik_is_in_subtree(s, p->upper, p->middle))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "middle joint is not below the upper joint");
    if (p->end == p->middle || !ik_is_in_subtree(s, p->middle, p->end))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "end joint is not below the middle joint");
    if ((st = ik_check_vec(p->target, "target", err)) < 0) return st;
    if (p->use_pole && (st = ik_check_vec(p->pole, "pole", err)) < 0) return st;
    if ((st = ik_check_vec(p->mid_axis, "mid_axis", err)) < 0) return st;
    const float axis2 = akv_dot(p->mid_axis, p->mid_axis);
    if (!(axis2 > 1e-12f) || !isfinite(axis2))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "mid_axis is zero or too long");
    if (!(p->soft_limit >= 0.0f && p->soft_limit < 1.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "soft_limit must be in [0, 1)");
    if (p->match_end_rotation && !akq_is_unit(p->end_rotation))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "end_rotation is not a unit quaternion");
    if (!(p->tolerance >= 0.0f) || !isfinite(p->tolerance))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "tolerance must be finite and >= 0");
    if ((st = ik_check_weight(p->weight, err)) < 0) return st;
    return ak_params_check(ak_limb_ik_param_ranges(), p, err);
}

int32_t ak_limb_ik_validate(const ak_limb_ik_params *p, ak_error *err)
{
    return limb_validate(p, err);
}

/* The solve proper (ik_limb_solution, ik_internal.h): the model-space rotations r_upper (B then
 * C, applied to the whole limb about a) and r_middle (A, applied to the lower bone about b), and
 * where the end joint lands. Trig-free on the common path: A from its half-angle form, B and C
 * from a frame change. */
typedef ik_limb_solution limb_solution;

/* What the phases of the solve share: the limb as it is (model space) and the solve so far. */
typedef struct limb_geom {
    ak_vec3 a_model, ab, bc; /* upper joint; upper->middle and middle->end bones */
    float l1, l2, reach;     /* bone lengths and l1 + l2 */
    float dist;              /* |target - a| */
    ak_vec3 dir;             /* unit aim, upper joint -> target */
    float d;                 /* effective target distance after soft limit and clamp */
    float cos_t, sin_t;      /* target interior angle at the middle joint */
    ak_vec3 n;               /* bend axis (unnormalised when bent: length sin_n) */
    float n_scale;           /* 1 / |n| */
    float sin_s, cos_n;      /* signed sine and cosine of the current interior angle about n */
    int bent;                /* the current limb defines a bend plane */
    ak_vec3 ref;             /* the side of the a->target line the middle joint ends on */
    int have_ref;
} limb_geom;

/* Reads the three joints, checks they are finite and the bones not zero-length, and picks the
 * aim direction. A target on the upper joint keeps the current upper->end (or upper->middle)
 * direction. */
static inline int32_t limb_measure(const ak_limb_ik_params *p, const ak_xform *model, limb_geom *g,
                                   ak_error *err)
{
    const ak_vec3 a_model = model[p->upper].translation;
    const ak_vec3 b_model = model[p->middle].translation;
    const ak_vec3 c_model = model[p->end].translation;
    if (!akv_finite(a_model) || !akv_finite(b_model) || !akv_finite(c_model) ||
        !akq_finite(model[p->middle].rotation))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "model pose is not finite");
    g->a_model = a_model;
    g->ab = akv_sub(b_model, a_model);
    g->bc = akv_sub(c_model, b_model);
    const ak_vec3 at = akv_sub(p->target, a_model);
    const float l1 = akf_sqrt(akv_dot(g->ab, g->ab)), l2 = akf_sqrt(akv_dot(g->bc, g->bc));
    const float dist = akf_sqrt(akv_dot(at, at));
    const float reach = l1 + l2;
    g->l1 = l1;
    g->l2 = l2;
    g->reach = reach;
    g->dist = dist;
    if (!isfinite(4.0f * (dist + reach) * (dist + reach)))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "coordinates too large: distances overflow single precision");
    if (p->use_pole) {
        const int32_t st = ik_check_range(a_model, p->pole, reach, err);
        if (st < 0) return st;
    }
    if (!(l1 > 1e-6f * reach) || !(l2 > 1e-6f * reach) || !(reach > FLT_MIN))
        return ak_error_set(err, AK_ERR_DEGENERATE, 0,
                            "zero-length bone in the limb (upper->middle %g, middle->end %g)",
                            (double)l1, (double)l2);
    ak_vec3 aim = at;
    float aim_len = dist;
    if (!(dist > 1e-6f * reach) || !isfinite(dist)) {
        aim = akv_sub(c_model, a_model);
        aim_len = akv_len(aim);
        if (!(aim_len > 1e-6f * reach)) {
            aim = g->ab;
            aim_len = l1;
        }
    }
    g->dir = akv_scale(aim, 1.0f / aim_len);
    return AK_OK;
}

/* Effective distance: soft limit, then the clamp into the solvable range (epsilon keeps the
 * cosines inside [-1, 1] and the limb from locking straight on reachable targets, so its bend
 * plane survives to the next frame). An unreachable target straightens the limb exactly.
 * Law of cosines: cos(interior) = (l1^2 + l2^2 - d^2) / (2 l1 l2). Returns "unreachable". */
static inline int limb_target_interior(const ak_limb_ik_params *p, limb_geom *g)
{
    const float reach = g->reach, l1 = g->l1, l2 = g->l2;
    float d = isfinite(g->dist) ? g->dist : 2.0f * reach;
    const int unreachable = d - reach > p->tolerance * reach;
    if (p->soft_limit > 0.0f) {
        const float ds = p->soft_limit * reach;
        if (d > ds) d = ds + (reach - ds) * (1.0f - expf(-(d - ds) / (reach - ds)));
    }
    const float eps = 1e-5f * reach;
    if (d >= reach) {
        d = reach;
        g->cos_t = -1.0f;
    } else {
        d = akf_clamp(d, fabsf(l1 - l2) + eps, reach - eps);
        g->cos_t = akf_clamp((l1 * l1 + l2 * l2 - d * d) * 0.5f / (l1 * l2), -1.0f, 1.0f);
    }
    g->d = d;
    g->sin_t = akf_sqrt(akf_max(0.0f, 1.0f - g->cos_t * g->cos_t));
    return unreachable;
}

/* The current bend axis n = (c-b) x (a-b) (unit bone directions first, so no product of four
 * lengths can overflow); a straight (or folded) limb bends about the hinge axis instead, made
 * perpendicular to c-b. */
static inline void limb_bend_axis(const ak_limb_ik_params *p, const ak_xform *model, limb_geom *g)
{
    const ak_vec3 u_ba = akv_scale(g->ab, -1.0f / g->l1), u_bc = akv_scale(g->bc, 1.0f / g->l2);
    ak_vec3 n = akv_cross(u_bc, u_ba);
    const float sin_n = akf_min(1.0f, akf_sqrt(akv_dot(n, n)));
    g->cos_n = akf_clamp(akv_dot(u_bc, u_ba), -1.0f, 1.0f);
    g->sin_s = sin_n;
    g->bent = sin_n > 1e-5f;
    if (g->bent && sin_n < 1e-2f) {
        /* n is perpendicular to the bones only to float precision over |n|: a nearly straight
         * limb (|n| ~ 1e-5) would give a frame with e1.e2 ~ 2e-4, no rotation, and an end
         * 0.1-0.3 mm off its target (a planted foot creeping 1-2 cm/s). A second Gram-Schmidt
         * pass against the upper bone; above 1e-2 the error is under 1e-5. */
        n = akv_sub(n, akv_scale(u_ba, akv_dot(n, u_ba)));
        g->n_scale = 1.0f / akf_sqrt(akv_dot(n, n));
    } else if (g->bent) {
        g->n_scale = 1.0f / sin_n;
    } else {
        ak_vec3 h = akq_rotate(model[p->middle].rotation, p->mid_axis);
        h = akv_sub(h, akv_scale(u_bc, akv_dot(h, u_bc)));
        const float h_len = akv_len(h);
        n = h_len > 1e-6f ? akv_scale(h, 1.0f / h_len) : akv_any_perpendicular(u_bc);
        g->n_scale = 1.0f;
    }
    g->n = n;
}

/* Bend reference: the side of the a->target line the middle joint should end on: toward the
 * pole (unusable within 1e-4 rad of the a->target line, or on the upper joint), else where it
 * pointed before the solve (bent limbs only).
 * Then the bend axis is oriented toward that side (perp x dir is the solved limb's bend
 * normal). A limb bent a hair the other way (a knee at heel strike in mocap) is taken as bent
 * by a small negative angle about that axis and unbends through straight, instead of keeping
 * its own sign and being twisted half a turn about the upper bone to put the middle joint back
 * on the reference side: the output is continuous in the input across the straight pose. */
static inline void limb_bend_reference(const ak_limb_ik_params *p, limb_geom *g)
{
    const ak_vec3 dir = g->dir;
    const ak_vec3 zero = {0.0f, 0.0f, 0.0f};
    g->have_ref = 0;
    g->ref = zero;
    if (p->use_pole) {
        const ak_vec3 ap = akv_sub(p->pole, g->a_model);
        g->ref = akv_sub(ap, akv_scale(dir, akv_dot(ap, dir)));
        const float rr = akv_dot(g->ref, g->ref);
        g->have_ref = rr > 1e-8f * akv_dot(ap, ap) && rr > 1e-12f * g->reach * g->reach;
    }
    if (!g->have_ref && g->bent) {
        g->ref = akv_sub(g->ab, akv_scale(dir, akv_dot(g->ab, dir)));
        g->have_ref = akv_dot(g->ref, g->ref) > 1e-8f * g->l1 * g->l1;
    }
    if (g->have_ref) {
        const ak_vec3 side = akv_sub(g->ref, akv_scale(dir, akv_dot(g->ref, dir)));
        if (akv_dot(akv_cross(side, dir), g->n) < 0.0f) {
            g->n = akv_scale(g->n, -1.0f);
            g->sin_s = -g->sin_s;
        }
    }
}

/* A: bend about n; rotating c-b about n by a positive angle moves it toward a-b, i.e. closes
 * the interior angle. The turn is delta = interior_now - interior_target: cos/sin of delta
 * from the angle-difference identities, then the half-angle quaternion
 * (n sin(delta) / h, h / 2) with h = sqrt(2 (1 + cos delta)). */
static inline ak_quat limb_middle_rotation(const limb_geom *g)
{
    const float cos_d = g->cos_n * g->cos_t + g->sin_s * g->sin_t;
    const float sin_d = g->sin_s * g->cos_t - g->cos_n * g->sin_t;
    const float h2 = 2.0f * (1.0f + cos_d);
    if (h2 > 1e-2f) {
        const float h = akf_sqrt(h2);
        const float k = sin_d * g->n_scale / h;
        ak_quat r_a = {g->n.x * k, g->n.y * k, g->n.z * k, 0.5f * h};
        return r_a;
    }
    /* Within ~6 degrees of a half turn 1 + cos(delta) loses its digits to cancellation: take
     * the angles themselves (rare: unfolding a folded limb). */
    const float delta = atan2f(g->sin_s, g->cos_n) - atan2f(g->sin_t, g->cos_t);
    return akq_axis_angle(akv_scale(g->n, g->n_scale), delta);
}

/* B and C at once, as a change of frame. The solved limb is known in closed form: upper bone
 * u1 = cos(alpha) dir + sin(alpha) perp (perp: unit reference side), bend-plane normal
 * n' = perp x dir. The upper joint's model-space delta maps the old frame (ab^, n^, ab^ x n^)
 * onto (u1, n', u1 x n'): R = F_new F_old^T. It equals the shortest turn B followed by the
 * twist C, with a much shorter dependency chain. */
static inline ak_quat limb_upper_rotation_frame(const limb_geom *g)
{
    const float l1 = g->l1, l2 = g->l2, d = g->d;
    /* A second Gram-Schmidt pass: ref came from a difference of large, nearly parallel
     * vectors when the pole or target is far away. */
    const ak_vec3 ref2 = akv_sub(g->ref, akv_scale(g->dir, akv_dot(g->ref, g->dir)));
    const ak_vec3 perp = akv_scale(ref2, 1.0f / akf_sqrt(akv_dot(ref2, ref2)));
    /* Straight (an unreachable target, cos_t -1): alpha is 0 exactly. The law of cosines at
     * d = l1 + l2 rounds to 1 - 6e-8 at best, a sin of 3.5e-4 that tilted the limb off its
     * target by 0.3 mm toward perp, which a nearly straight limb takes from a difference of
     * nearly parallel vectors (two builds apart by libm's last bit differed by 0.2 mm). */
    const float cos_a = g->cos_t <= -1.0f
                            ? 1.0f
                            : akf_clamp((l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d), -1.0f, 1.0f);
    const float sin_a = akf_sqrt(akf_max(0.0f, 1.0f - cos_a * cos_a));
    const ak_vec3 f1 = akv_add(akv_scale(g->dir, cos_a), akv_scale(perp, sin_a));
    const ak_vec3 f2 = akv_cross(perp, g->dir);
    const ak_vec3 f3 = akv_cross(f1, f2);
    const ak_vec3 e1 = akv_scale(g->ab, 1.0f / l1);
    const ak_vec3 e2 = akv_scale(g->n, g->n_scale); /* perpendicular to e1: limb_bend_axis */
    const ak_vec3 e3 = akv_cross(e1, e2);
    const float fa[3][3] = {{f1.x, f1.y, f1.z}, {f2.x, f2.y, f2.z}, {f3.x, f3.y, f3.z}};
    const float ea[3][3] = {{e1.x, e1.y, e1.z}, {e2.x, e2.y, e2.z}, {e3.x, e3.y, e3.z}};
    float m[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            m[i][j] = fa[0][i] * ea[0][j] + fa[1][i] * ea[1][j] + fa[2][i] * ea[2][j];
    return akq_from_matrix(m);
}

/* B: the shortest rotation c1a -> dir (measured: near the folded limit |c1a| is not the
 * clamped d to relative precision). C: twist about dir so the middle joint lies toward the
 * reference side; a straight limb with no pole keeps B's result (its bend plane comes from
 * mid_axis). */
static inline ak_quat limb_upper_rotation_turn(const limb_geom *g, ak_quat r_a)
{
    const ak_vec3 c1a = akv_add(g->ab, akq_rotate(r_a, g->bc)); /* a -> end after A */
    const ak_quat r_b = akq_from_to(c1a, g->dir);
    if (!g->have_ref) return r_b;
    const ak_vec3 ab2 = akq_rotate(r_b, g->ab);
    const ak_vec3 bend = akv_sub(ab2, akv_scale(g->dir, akv_dot(ab2, g->dir)));
    if (akv_dot(bend, bend) > 1e-12f * g->l1 * g->l1)
        return akq_mul(akq_twist_between(bend, g->ref, g->dir), r_b);
    return r_b;
}

IK_FLATTEN static int32_t limb_model_scalar(const ak_limb_ik_params *p, const ak_xform *model,
                                            limb_solution *out, ak_error *err)
{
    limb_geom g = {.l1 =
                       0.0f}; /* every field is set before use; this quiets -Wmaybe-uninitialized */
    const int32_t st = limb_measure(p, model, &g, err);
    if (st < 0) return st;
    out->unreachable = limb_target_interior(p, &g);
    limb_bend_axis(p, model, &g);
    limb_bend_reference(p, &g);
    const ak_quat r_a = limb_middle_rotation(&g);
    out->r_upper_model =
        g.bent && g.have_ref ? limb_upper_rotation_frame(&g) : limb_upper_rotation_turn(&g, r_a);
    if (g.bent && g.have_ref && fabsf(g.sin_s) < 1e-2f) {
        /* A nearly straight limb's bend axis n is known only to float precision over |n|
         * (sin_s is signed: a limb bent the other way than its reference has it negative):
         * the frame's end misses its aim by up to ~1e-3 rad (0.1-0.3 mm on a leg, a planted
         * foot creeping 1-2 cm/s). The residual turn onto the aim, about the upper joint. */
        const ak_vec3 c1a = akq_rotate(out->r_upper_model, akv_add(g.ab, akq_rotate(r_a, g.bc)));
        out->r_upper_model = akq_normalize(akq_mul(akq_from_to(c1a, g.dir), out->r_upper_model));
    }
    /* Unit to float precision on every path, which a fuzzed limb once was not (|q|^2 = 0.958
     * for the upper joint's correction): callers are promised unit rotations. */
    if (fabsf(akq_dot(out->r_upper_model, out->r_upper_model) - 1.0f) > 1e-5f)
        out->r_upper_model = akq_normalize(out->r_upper_model);
    out->r_middle_model = r_a;
    out->end_model = akv_add(g.a_model, akv_scale(g.dir, g.d));
    out->reach = g.reach;
    return AK_OK;
}

int32_t ik_limb_model_scalar(const ak_limb_ik_params *p, const ak_xform *model,
                             ik_limb_solution *out, ak_error *err)
{
    return limb_model_scalar(p, model, out, err);
}

#ifdef AK_HAVE_SSE
/* ---- The packed solve: limb_model_scalar's formulas for a bent limb (bend sine >= 1e-2) with
 * a usable reference side, each vector in one register (lane 3 zero). The dot products add in
 * the scalar order, so lengths, cosines and the clamp come out the same; the upper joint's
 * quaternion is taken from the frame change without the matrix. Anything else (a non-finite or
 * too large pose, a zero-length bone, a target on the upper joint, a nearly straight limb, an
 * unusable pole) returns 0 and the scalar solve decides. ---- */
typedef struct limb_packed {
    __m128 a, ab, dir; /* upper joint, upper->middle bone, unit aim */
    __m128 e1, u_bc;   /* unit bones: upper->middle, middle->end */
    __m128 n;          /* bend axis e1 x u_bc (length sin_n), oriented toward the reference */
    __m128 perp;       /* unit reference side, perpendicular to dir */
} limb_packed;

static inline __m128 lp_xyz(__m128 v)
{
    return _mm_and_ps(v, _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)));
}

static inline float lp_lane(__m128 v, int i)
{
    float f[4];
    _mm_storeu_ps(f, v);
    return f[i];
}

static inline __m128 lp_scale(__m128 v, float s)
{
    return _mm_mul_ps(v, _mm_set1_ps(s));
}

/* limb_measure's checks and lengths, and limb_target_interior. */
static inline int limb_packed_measure(const ak_limb_ik_params *p, const ak_xform *model,
                                      limb_packed *v, limb_geom *g)
{
    const __m128 a = aks_load_translation(&model[p->upper]);
    const __m128 b = aks_load_translation(&model[p->middle]);
    const __m128 ab = lp_xyz(_mm_sub_ps(b, a));
    const __m128 bc = lp_xyz(_mm_sub_ps(aks_load_translation(&model[p->end]), b));
    const __m128 at = lp_xyz(_mm_sub_ps(aks_load3(&p->target), a));
    /* l1, l2, dist; lane 3 becomes 1 for the reciprocals. */
    const __m128 len = _mm_or_ps(lp_xyz(_mm_sqrt_ps(aks_dots4(ab, ab, bc, bc, at, at, ab, ab))),
                                 _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f));
    const float l1 = _mm_cvtss_f32(len), l2 = lp_lane(len, 1), dist = lp_lane(len, 2);
    const float reach = l1 + l2;
    /* A non-finite position makes a length non-finite (the target is finite: validated). */
    if (!isfinite(4.0f * (dist + reach) * (dist + reach)) ||
        !akq_finite(model[p->middle].rotation) || !(l1 > 1e-6f * reach) || !(l2 > 1e-6f * reach) ||
        !(reach > FLT_MIN) || !(dist > 1e-6f * reach))
        return 0;
    if (p->use_pole) {
        const __m128 ap = lp_xyz(_mm_sub_ps(aks_load3(&p->pole), a));
        if (!isfinite(8.0f * (_mm_cvtss_f32(aks_dot4(ap, ap)) + reach * reach))) return 0;
    }
    const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), len); /* 1/l1, 1/l2, 1/dist */
    v->a = a;
    v->ab = ab;
    v->dir = _mm_mul_ps(at, AK_SHUF(inv, 2, 2, 2, 2));
    v->e1 = _mm_mul_ps(ab, AK_SHUF(inv, 0, 0, 0, 0));
    v->u_bc = _mm_mul_ps(bc, AK_SHUF(inv, 1, 1, 1, 1));
    g->l1 = l1;
    g->l2 = l2;
    g->reach = reach;
    g->dist = dist;
    return 1;
}

/* limb_bend_axis (bent case) and limb_bend_reference with a usable reference; then the unit
 * reference side. */
static inline int limb_packed_bend(const ak_limb_ik_params *p, limb_packed *v, limb_geom *g)
{
    /* n = u_bc x u_ba with u_ba = -e1, i.e. e1 x u_bc. */
    __m128 n = aks_cross(v->e1, v->u_bc);
    const __m128 dir = v->dir;
    const __m128 src = p->use_pole ? lp_xyz(_mm_sub_ps(aks_load3(&p->pole), v->a)) : v->ab;
    const __m128 d1 = aks_dots4(n, n, v->u_bc, v->e1, src, dir, src, src);
    const float sin_n = akf_min(1.0f, akf_sqrt(_mm_cvtss_f32(d1)));
    if (sin_n < 1e-2f) return 0; /* nearly straight or straight: the scalar solve's care */
    g->cos_n = akf_clamp(-lp_lane(d1, 1), -1.0f, 1.0f);
    g->n_scale = 1.0f / sin_n;
    const __m128 ref = _mm_sub_ps(src, lp_scale(dir, lp_lane(d1, 2)));
    const __m128 d2 = aks_dots4(ref, ref, ref, dir, ref, ref, ref, ref);
    const float rr = _mm_cvtss_f32(d2);
    const int have_ref = p->use_pole
                             ? rr > 1e-8f * lp_lane(d1, 3) && rr > 1e-12f * g->reach * g->reach
                             : rr > 1e-8f * g->l1 * g->l1;
    if (!have_ref) return 0;
    const __m128 side = _mm_sub_ps(ref, lp_scale(dir, lp_lane(d2, 1)));
    const __m128 d3 = aks_dots4(aks_cross(side, dir), n, side, side, side, side, side, side);
    g->sin_s = sin_n;
    if (_mm_cvtss_f32(d3) < 0.0f) {
        n = _mm_xor_ps(n, _mm_set1_ps(-0.0f));
        g->sin_s = -sin_n;
    }
    v->n = n;
    v->perp = lp_scale(side, 1.0f / akf_sqrt(lp_lane(d3, 1)));
    return 1;
}

/* limb_upper_rotation_frame's change of frame (e1, e2, e3) -> (f1, f2, f3). For a turn under
 * 90 degrees (trace tr > 0) as a quaternion without the matrix: for R = sum f_k e_k^T,
 * (sum e_k x f_k, 1 + tr) is 4 w q (the antisymmetric part and the trace), normalised by its
 * own length; its error is that of the frames over 4 w < 1/2.8. Shepperd's trace branch is the
 * same direction. At 90 degrees or more, the matrix and Shepperd's branches, as the scalar solve
 * (there the trace form would lose digits to 1 + tr). */
static inline __m128 limb_packed_upper(const limb_packed *v, const limb_geom *g)
{
    const float l1 = g->l1, l2 = g->l2, d = g->d;
    const float cos_a = g->cos_t <= -1.0f
                            ? 1.0f
                            : akf_clamp((l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d), -1.0f, 1.0f);
    const float sin_a = akf_sqrt(akf_max(0.0f, 1.0f - cos_a * cos_a));
    const __m128 f1 = _mm_add_ps(lp_scale(v->dir, cos_a), lp_scale(v->perp, sin_a));
    const __m128 f2 = aks_cross(v->perp, v->dir), f3 = aks_cross(f1, f2);
    const __m128 e1 = v->e1, e2 = lp_scale(v->n, g->n_scale), e3 = aks_cross(e1, e2);
    const __m128 diag =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(f1, e1), _mm_mul_ps(f2, e2)), _mm_mul_ps(f3, e3));
    const float tr = _mm_cvtss_f32(aks_dot4(diag, _mm_set1_ps(1.0f)));
    if (!(tr > 0.0f)) {
        ak_quat q = ik_frames_quat(f1, f2, f3, e1, e2, e3);
        if (fabsf(akq_dot(q, q) - 1.0f) > 1e-5f) q = akq_normalize(q); /* as limb_model_scalar */
        return _mm_loadu_ps(&q.x);
    }
    /* e x f = (e f.yzx - e.yzx f).yzx, summed before the last shuffle. */
    const __m128 sum = _mm_add_ps(_mm_add_ps(_mm_sub_ps(_mm_mul_ps(e1, AK_SHUF(f1, 1, 2, 0, 3)),
                                                        _mm_mul_ps(AK_SHUF(e1, 1, 2, 0, 3), f1)),
                                             _mm_sub_ps(_mm_mul_ps(e2, AK_SHUF(f2, 1, 2, 0, 3)),
                                                        _mm_mul_ps(AK_SHUF(e2, 1, 2, 0, 3), f2))),
                                  _mm_sub_ps(_mm_mul_ps(e3, AK_SHUF(f3, 1, 2, 0, 3)),
                                             _mm_mul_ps(AK_SHUF(e3, 1, 2, 0, 3), f3)));
    const __m128 q =
        _mm_add_ps(lp_xyz(AK_SHUF(sum, 1, 2, 0, 3)), _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f + tr));
    return _mm_div_ps(q, _mm_sqrt_ps(aks_dot4(q, q)));
}

int ik_limb_model_sse(const ak_limb_ik_params *p, const ak_xform *model, ik_limb_solution *out)
{
    limb_packed v;
    limb_geom g = {.l1 = 0.0f};
    if (!limb_packed_measure(p, model, &v, &g)) return 0;
    const int unreachable = limb_target_interior(p, &g);
    if (!limb_packed_bend(p, &v, &g)) return 0;
    /* A: limb_middle_rotation's half-angle form. */
    const float cos_d = g.cos_n * g.cos_t + g.sin_s * g.sin_t;
    const float sin_d = g.sin_s * g.cos_t - g.cos_n * g.sin_t;
    const float h2 = 2.0f * (1.0f + cos_d);
    if (!(h2 > 1e-2f)) return 0;
    const float h = akf_sqrt(h2);
    const __m128 q_upper = limb_packed_upper(&v, &g);
    const __m128 r_a =
        _mm_add_ps(lp_scale(v.n, sin_d * g.n_scale / h), _mm_setr_ps(0.0f, 0.0f, 0.0f, 0.5f * h));
    _mm_storeu_ps(&out->r_upper_model.x, q_upper);
    _mm_storeu_ps(&out->r_middle_model.x, r_a);
    const __m128 end = _mm_add_ps(v.a, lp_scale(v.dir, g.d));
    out->end_model = ak_vec3_make(_mm_cvtss_f32(end), lp_lane(end, 1), lp_lane(end, 2));
    out->reach = g.reach;
    out->unreachable = unreachable;
    return 1;
}
#endif

/* The packed solve where there is SSE and it applies, else the scalar one. */
static inline int32_t limb_solve_model(const ak_limb_ik_params *p, const ak_xform *model,
                                       limb_solution *out, ak_error *err)
{
#ifdef AK_HAVE_SSE
    if (ik_limb_model_sse(p, model, out)) return AK_OK;
#endif
    return limb_model_scalar(p, model, out, err);
}

/* slerp(identity, q, w) with w in [0,1]; exact at w = 1. */
static ak_quat weigh(ak_quat q, float w)
{
    if (w >= 1.0f) return q;
    return akq_normalize(akq_slerp(akq_identity(), akq_positive_w(q), w));
}

/* The local corrections conj(W) R W of the model-space rotations (products of unit quaternions:
 * unit to float precision). For R = (v, s) that is (conj(W) v, s): the same angle about the
 * axis expressed in the joint's frame, one vector rotation instead of two quaternion
 * products; the scalar form keeps the products for the upper joint. */
static inline void limb_corrections(ak_quat w_upper, ak_quat w_middle, const limb_solution *sol,
                                    ak_quat *cu, ak_quat *cm)
{
#ifdef AK_HAVE_SSE
    /* aks_rotate leaves lane 3 (s) as it is: its cross products are 0 there. */
    const __m128 conj = _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f);
    _mm_storeu_ps(&cu->x, aks_rotate(_mm_xor_ps(_mm_loadu_ps(&w_upper.x), conj),
                                     _mm_loadu_ps(&sol->r_upper_model.x)));
    _mm_storeu_ps(&cm->x, aks_rotate(_mm_xor_ps(_mm_loadu_ps(&w_middle.x), conj),
                                     _mm_loadu_ps(&sol->r_middle_model.x)));
#else
    *cu = akq_in_frame(w_upper, sol->r_upper_model);
    const ak_vec3 ra_axis = {sol->r_middle_model.x, sol->r_middle_model.y, sol->r_middle_model.z};
    const ak_vec3 ra_local = akq_rotate(akq_conj(w_middle), ra_axis);
    const ak_quat q = {ra_local.x, ra_local.y, ra_local.z, sol->r_middle_model.w};
    *cm = q;
#endif
}

/* The correction form; static so ak_limb_ik_run inlines it. `reach_out` gets l1 + l2. */
static int32_t limb_solve(const ak_limb_ik_params *p, const ak_xform *local, const ak_xform *model,
                          ak_quat *upper_correction, ak_quat *middle_correction,
                          ak_quat *end_rotation_out, ak_ik_result *result, float *reach_out,
                          ak_error *err)
{
    ak_ik_result res = {0, 0, 0, 0.0f};
    if (upper_correction) *upper_correction = akq_identity();
    if (middle_correction) *middle_correction = akq_identity();
    int32_t st = limb_validate(p, err);
    if (st < 0) goto done;
    if (!local || !model || !upper_correction || !middle_correction) {
        st = ak_error_set(err, AK_ERR_INVALID_ARG, 0, "NULL pose or output");
        goto done;
    }
    if (end_rotation_out) *end_rotation_out = local[p->end].rotation;

    limb_solution sol = {
        {0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}, 0.0f, 0};
    st = limb_solve_model(p, model, &sol, err);
    if (st < 0) goto done;

    const ak_quat w_upper = model[p->upper].rotation, w_middle = model[p->middle].rotation;
    ak_quat cu_full, cm_full;
    limb_corrections(w_upper, w_middle, &sol, &cu_full, &cm_full);
    ak_quat cu = weigh(cu_full, p->weight), cm = weigh(cm_full, p->weight);
    *upper_correction = cu;
    *middle_correction = cm;

    /* Where the end joint lands: analytic at full weight, else with the weighted corrections. */
    ak_quat ru = sol.r_upper_model, rm = sol.r_middle_model;
    ak_vec3 c_model = sol.end_model;
    if (p->weight < 1.0f) {
        ru = akq_mul(w_upper, akq_mul(cu, akq_conj(w_upper)));
        rm = akq_mul(w_middle, akq_mul(cm, akq_conj(w_middle)));
        const ak_vec3 a_model = model[p->upper].translation, b_model = model[p->middle].translation;
        const ak_vec3 bc1 = akq_rotate(rm, akv_sub(model[p->end].translation, b_model));
        c_model = akv_add(a_model, akq_rotate(ru, akv_add(akv_sub(b_model, a_model), bc1)));
    }
    res.error = akv_len(akv_sub(c_model, p->target));
    res.iterations = 1;
    res.unreachable = sol.unreachable;
    res.reached = res.error <= p->tolerance * sol.reach;
    *reach_out = sol.reach;

    if (p->match_end_rotation && end_rotation_out) {
        /* New model rotation of the end joint's parent: (ru rm) applied to its old one. */
        const ak_quat parent_old = model[p->skeleton->parents[p->end]].rotation;
        const ak_quat parent_new = akq_mul(ru, akq_mul(rm, parent_old));
        ak_quat solved = akq_normalize(akq_mul(akq_conj(parent_new), p->end_rotation));
        const ak_quat old = local[p->end].rotation;
        *end_rotation_out =
            p->weight >= 1.0f ? solved : akq_normalize(akq_slerp(old, solved, p->weight));
    }
    st = AK_OK;
done:
    if (result) *result = res;
    return st;
}

IK_FLATTEN int32_t ak_limb_ik_solve(const ak_limb_ik_params *p, const ak_xform *local,
                                    const ak_xform *model, ak_quat *upper_correction,
                                    ak_quat *middle_correction, ak_quat *end_rotation_out,
                                    ak_ik_result *result, ak_error *err)
{
    float reach = 0.0f;
    return limb_solve(p, local, model, upper_correction, middle_correction, end_rotation_out,
                      result, &reach, err);
}

IK_FLATTEN int32_t ak_limb_ik_run(const ak_limb_ik_params *p, ak_xform *local, ak_xform *model,
                                  ak_ik_result *result, ak_error *err)
{
    ak_quat cu, cm, end_rot;
    ak_ik_result res;
    float reach = 0.0f;
    int32_t st = limb_solve(p, local, model, &cu, &cm, &end_rot, &res, &reach, err);
    if (st < 0 || p->weight <= 0.0f) {
        if (result) *result = res;
        return st;
    }
    local[p->upper].rotation = akq_normalize(akq_mul(local[p->upper].rotation, cu));
    local[p->middle].rotation = akq_normalize(akq_mul(local[p->middle].rotation, cm));
    if (p->match_end_rotation) local[p->end].rotation = end_rot;
    ak_fk_subtree(p->skeleton, local, model, p->upper);
    res.error = akv_len(akv_sub(model[p->end].translation, p->target));
    res.reached = res.error <= p->tolerance * reach;
    if (result) *result = res;
    return AK_OK;
}
