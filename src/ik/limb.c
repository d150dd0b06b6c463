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
 * The sines of beta and alpha come from Heron's factors (limb_area4), not sqrt(1 - cos^2),
 * which loses half its digits near a straight or folded target; A's quaternion is the product
 * of the two interior angles' half-angle forms.
 * The corrections in local space are conj(W) R W for each joint's model-space rotation W.
 * Where there is SSE a packed solve (below) covers the common case, a bent limb with a usable
 * reference side, with a shorter chain of dependent square roots. */
#include "ik/ik_internal.h"

ak_limb_ik_params ak_limb_ik_defaults(void)
{
    return ik_limb_defaults();
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
 * Sets g->d (g->d == g->reach: straight); returns "unreachable". */
static inline int limb_target_distance(const ak_limb_ik_params *p, limb_geom *g)
{
    const float reach = g->reach, l1 = g->l1, l2 = g->l2;
    float d = isfinite(g->dist) ? g->dist : 2.0f * reach;
    const int unreachable = d - reach > p->tolerance * reach;
    if (p->soft_limit > 0.0f) {
        const float ds = p->soft_limit * reach;
        if (d > ds) d = ds + (reach - ds) * (1.0f - expf(-(d - ds) / (reach - ds)));
    }
    const float eps = 1e-5f * reach;
    g->d = d >= reach ? reach : akf_clamp(d, fabsf(l1 - l2) + eps, reach - eps);
    return unreachable;
}

/* Four times the area of the triangle (l1, l2, d): Heron's formula in factors that do not
 * cancel, sqrt((reach - d)(reach + d)) sqrt((d - dl)(d + dl)) with dl = l1 - l2 (0 exactly at
 * d = reach). The sines of the solved limb's angles are this over products of its sides:
 * sqrt(1 - cos^2) from the law of cosines loses half its digits near a straight or folded
 * target (the end joint missed by up to 1.4e-4 of the reach with d near |l1 - l2|). */
static inline float limb_area4(const limb_geom *g)
{
    const float d = g->d, reach = g->reach, dl = g->l1 - g->l2;
    return akf_sqrt(akf_max(0.0f, (reach - d) * (reach + d))) *
           akf_sqrt(akf_max(0.0f, (d - dl) * (d + dl)));
}

/* limb_target_distance, then the interior angle at the middle joint: by the law of cosines
 * cos(interior) = (l1^2 + l2^2 - d^2) / (2 l1 l2), sin(interior) = area4 / (2 l1 l2). */
static inline int limb_target_interior(const ak_limb_ik_params *p, limb_geom *g)
{
    const int unreachable = limb_target_distance(p, g);
    const float l1 = g->l1, l2 = g->l2, d = g->d;
    g->cos_t = d >= g->reach
                   ? -1.0f
                   : akf_clamp((l1 * l1 + l2 * l2 - d * d) * 0.5f / (l1 * l2), -1.0f, 1.0f);
    g->sin_t = akf_min(1.0f, limb_area4(g) * 0.5f / (l1 * l2));
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

/* (cos(theta/2), sin(theta/2)) of the angle with cosine c and sine s (theta in (-pi, pi]),
 * by the half-angle formula that does not cancel: the half angle farther from zero's cosine
 * or sine is sqrt((1 + |c|) / 2), the other one s / (2 of it). */
static inline void limb_half_angle(float c, float s, float *cos_half, float *sin_half)
{
    const float far = akf_sqrt(0.5f * (1.0f + fabsf(c))), near = 0.5f * s / far;
    *cos_half = c >= 0.0f ? far : fabsf(near);
    *sin_half = c >= 0.0f ? near : copysignf(far, s);
}

/* A: bend about n; rotating c-b about n by a positive angle moves it toward a-b, i.e. closes
 * the interior angle. The turn is delta = interior_now - interior_target, and its quaternion
 * (n sin(delta/2), cos(delta/2)) the product of the two angles' half-angle forms (the angle
 * difference of the halves): accurate at every angle, where 1 + cos(delta) in
 * h = sqrt(2 (1 + cos(delta))) lost its digits near a half turn (unfolding a folded limb).
 * w >= 0. */
static inline ak_quat limb_middle_rotation(const limb_geom *g)
{
    float cn, sn, ct, st;
    limb_half_angle(g->cos_n, g->sin_s, &cn, &sn);
    limb_half_angle(g->cos_t, g->sin_t, &ct, &st);
    const float cos_h = cn * ct + sn * st, sin_h = sn * ct - cn * st;
    const float k = copysignf(g->n_scale, cos_h) * sin_h;
    ak_quat r_a = {g->n.x * k, g->n.y * k, g->n.z * k, fabsf(cos_h)};
    return r_a;
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
    const float sin_a = akf_min(1.0f, limb_area4(g) * 0.5f / (l1 * d));
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
    /* And the middle joint's (the fuzzer: |q|^2 = 0.9986 on a degenerate limb). */
    out->r_middle_model = fabsf(akq_dot(r_a, r_a) - 1.0f) > 1e-5f ? akq_normalize(r_a) : r_a;
    out->end_model = akv_add(g.a_model, akv_scale(g.dir, g.d));
    out->reach = g.reach;
    out->has_local = 0;
    return AK_OK;
}

int32_t ik_limb_model_scalar(const ak_limb_ik_params *p, const ak_xform *model,
                             ik_limb_solution *out, ak_error *err)
{
    return limb_model_scalar(p, model, out, err);
}

#ifdef AK_HAVE_SSE
/* ---- The packed solve: limb_model_scalar's rotations for a bent limb (bend sine >= 1e-2) with
 * a usable reference side, written for a short chain of dependent square roots. Only the four
 * half angles below wait on the effective distance d; everything else depends on the pose
 * alone, is computed beside them, and in the joints' own frames (the corrections conj(W) R W),
 * so the solve ends in two multiply-adds per joint:
 *   A (middle joint) turns by delta = theta_n - theta_t about the bend axis: its quaternion is
 *     z_n conj(z_t) with z = (n sin(theta/2), cos(theta/2)) of the current interior angle (from
 *     its cosine and sine by the half-angle formula that does not cancel) and of the target one,
 *     cos^2(theta_t/2) = (reach - d)(reach + d) / (4 l1 l2),
 *     sin^2(theta_t/2) = (d - dl)(d + dl) / (4 l1 l2), dl = l1 - l2 (Heron's factors: exact at
 *     the straight limb, where 1 - cos^2 cancels);
 *   B and C (upper joint) are the frame change R0 of the limb's frame (e1 upper bone, e2 bend
 *     axis, e3 = e1 x e2) onto (dir, f2, perp) (aim, solved bend normal, reference side), then
 *     the turn by alpha about -f2 that lifts the upper bone off the aim:
 *     q = cos(alpha/2) q0 + sin(alpha/2) (-f2, 0) q0, with
 *     cos^2(alpha/2) = (d + dl)(reach + d) / (4 l1 d),
 *     sin^2(alpha/2) = (d - dl)(reach - d) / (4 l1 d).
 * f2 ~ src x at and perp ~ at x f2 (src the pole or the upper bone) are the scalar solve's two
 * Gram-Schmidt passes without their divisions. The lengths l1, l2, dist (and so d, reach, the
 * clamp) are the scalar solve's to the bit. Anything else (a non-finite or too large pose, a
 * zero-length bone, a target on the upper joint, a nearly straight limb, an unusable pole, a
 * middle joint near a half turn) returns 0 and the scalar solve decides. ---- */
typedef struct limb_packed {
    __m128 a, ab, bc, at; /* upper joint; bones; upper joint -> target */
    __m128 cn, w;         /* ab x bc (the bend axis), src x at (the solved bend normal) */
    __m128 sq2;           /* (ab.bc, w.cn, |cn|^2, |w|^2) */
    __m128 inv;           /* (1/l1, 1/dist, 1/|cn|, 1/|w|) */
    __m128 flip;          /* -0.0 in every lane where the bend axis turns toward the reference */
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

/* |q|^2 within 1e-5 of 1 (the scalar solve's test before it normalises). */
static inline int lp_unit(__m128 q)
{
    const __m128 s = _mm_mul_ps(q, q);
    const __m128 t = _mm_add_ps(s, AK_SHUF(s, 2, 3, 0, 1));
    return fabsf(_mm_cvtss_f32(_mm_add_ss(t, AK_SHUF(t, 1, 1, 1, 1))) - 1.0f) <= 1e-5f;
}

static inline __m128 lp_scale(__m128 v, float s)
{
    return _mm_mul_ps(v, _mm_set1_ps(s));
}

/* limb_measure's checks and lengths, the bend axis, the reference side and the reciprocals. */
static inline int limb_packed_measure(const ak_limb_ik_params *p, const ak_xform *model,
                                      limb_packed *v, limb_geom *g)
{
    const __m128 a = aks_load_translation(&model[p->upper]);
    const __m128 b = aks_load_translation(&model[p->middle]);
    v->a = a;
    v->ab = lp_xyz(_mm_sub_ps(b, a));
    v->bc = lp_xyz(_mm_sub_ps(aks_load_translation(&model[p->end]), b));
    v->at = lp_xyz(_mm_sub_ps(aks_load3(&p->target), a));
    const __m128 src = p->use_pole ? lp_xyz(_mm_sub_ps(aks_load3(&p->pole), a)) : v->ab;
    v->cn = aks_cross(v->ab, v->bc);
    v->w = aks_cross(src, v->at);
    /* (l1^2, dist^2, l2^2, |src|^2), summed as akv_dot: the roots are the scalar solve's. */
    const __m128 sq = aks_dots4(v->ab, v->ab, v->at, v->at, v->bc, v->bc, src, src);
    v->sq2 = aks_dots4(v->ab, v->bc, v->w, v->cn, v->cn, v->cn, v->w, v->w);
    const __m128 len = _mm_sqrt_ps(sq);
    v->inv = aks_rsqrt(_mm_shuffle_ps(sq, v->sq2, _MM_SHUFFLE(3, 2, 1, 0)));
    const float l1 = _mm_cvtss_f32(len), dist = lp_lane(len, 1), l2 = lp_lane(len, 2);
    const float reach = l1 + l2;
    /* A non-finite position makes a length non-finite (the target is finite: validated);
     * below 1e9 every square of a length and |cn|^2 <= (l1 l2)^2 is far inside float range
     * (larger limbs, whose squares may overflow, are the scalar solve's). */
    if (!(dist + reach < 1e9f) || !akq_finite(model[p->middle].rotation) || !(l1 > 1e-6f * reach) ||
        !(l2 > 1e-6f * reach) || !(reach > FLT_MIN) || !(dist > 1e-6f * reach))
        return 0;
    const float src2 = lp_lane(sq, 3), dist2 = lp_lane(sq, 1);
    const float cn2 = lp_lane(v->sq2, 2), w2 = lp_lane(v->sq2, 3);
    if (p->use_pole && !isfinite(8.0f * (src2 + reach * reach))) return 0;
    /* Bend sine |cn| / (l1 l2) under 1e-2: nearly straight, the scalar solve's care. */
    if (!(cn2 >= 1e-4f * (l1 * l1) * (l2 * l2))) return 0;
    /* The scalar solve's reference tests on |ref|^2 = |w|^2 / dist^2, with a factor 2 of margin
     * (its rounding is below 1e-2 of these bounds) so that a limb this solve takes has a
     * reference side there too. */
    const int have_ref = p->use_pole
                             ? w2 > 2e-8f * src2 * dist2 && w2 > 2e-12f * reach * reach * dist2
                             : w2 > 2e-8f * (l1 * l1) * dist2;
    if (!have_ref) return 0;
    /* limb_bend_reference: the bend axis turns toward the reference, (side x dir).n >= 0, and
     * side x dir is a positive multiple of w. */
    v->flip =
        _mm_and_ps(_mm_cmplt_ps(AK_SHUF(v->sq2, 1, 1, 1, 1), _mm_setzero_ps()), _mm_set1_ps(-0.0f));
    g->l1 = l1;
    g->l2 = l2;
    g->reach = reach;
    g->dist = dist;
    return 1;
}

/* What the solve's end combines: the upper joint's q0 (unnormalised, the trace form) and
 * (-f2, 0) q0, with 1/|q0|; the middle joint's z_n and its quarter-turn partner. Local frames. */
typedef struct limb_terms {
    __m128 q0, g0, k0; /* k0: 1/|q0| broadcast */
    __m128 zn, zn2;    /* (n sin(theta_n/2), cos(theta_n/2)) and (-n cos(theta_n/2), sin(..)) */
} limb_terms;

/* The limb's frame (e1, e2, e3) and the solved one at alpha = 0 (dir, f2, perp) from the raw
 * vectors ab, at, cn, w (model space, or rotated into a joint's frame) and v's reciprocals. */
typedef struct limb_frames {
    __m128 e1, e2, e3, dir, f2, perp;
} limb_frames;

static inline limb_frames limb_packed_frames(const limb_packed *v, __m128 ab, __m128 at, __m128 cn,
                                             __m128 w)
{
    const __m128 inv = v->inv, inv2 = _mm_mul_ps(inv, AK_SHUF(inv, 2, 3, 0, 1));
    limb_frames f;
    f.e1 = _mm_mul_ps(ab, AK_SHUF(inv, 0, 0, 0, 0));
    f.e2 = _mm_xor_ps(_mm_mul_ps(cn, AK_SHUF(inv, 2, 2, 2, 2)), v->flip);
    f.e3 = _mm_xor_ps(_mm_mul_ps(aks_cross(ab, cn), AK_SHUF(inv2, 0, 0, 0, 0)), v->flip);
    f.dir = _mm_mul_ps(at, AK_SHUF(inv, 1, 1, 1, 1));
    f.f2 = _mm_mul_ps(w, AK_SHUF(inv, 3, 3, 3, 3));
    f.perp = _mm_mul_ps(aks_cross(at, w), AK_SHUF(inv2, 1, 1, 1, 1));
    return f;
}

/* The upper joint's frames in its own frame (the raw vectors rotated by conj(W) first, so the
 * rotation runs beside the dot products), and q0 from them: for R0 = sum f_k e_k^T,
 * (sum e_k x f_k, 1 + tr) is 4 w q0, normalised by its own length; its error is that of the
 * frames over 4 w, at most 1x for 1 + tr > 0.25 (a turn under 151 degrees). Nearer a half turn,
 * Shepperd's branches. */
static inline void limb_packed_upper(const limb_packed *v, __m128 conj_w, limb_terms *t)
{
    const limb_frames f =
        limb_packed_frames(v, aks_rotate(conj_w, v->ab), aks_rotate(conj_w, v->at),
                           aks_rotate(conj_w, v->cn), aks_rotate(conj_w, v->w));
    const __m128 diag = _mm_add_ps(_mm_add_ps(_mm_mul_ps(f.e1, f.dir), _mm_mul_ps(f.e2, f.f2)),
                                   _mm_mul_ps(f.e3, f.perp));
    const float tr = _mm_cvtss_f32(aks_dot4(diag, _mm_set1_ps(1.0f)));
    __m128 q0;
    if (1.0f + tr > 0.25f) {
        /* e x f = (e f.yzx - e.yzx f).yzx, summed before the last shuffle. */
        const __m128 sum =
            _mm_add_ps(_mm_add_ps(_mm_sub_ps(_mm_mul_ps(f.e1, AK_SHUF(f.dir, 1, 2, 0, 3)),
                                             _mm_mul_ps(AK_SHUF(f.e1, 1, 2, 0, 3), f.dir)),
                                  _mm_sub_ps(_mm_mul_ps(f.e2, AK_SHUF(f.f2, 1, 2, 0, 3)),
                                             _mm_mul_ps(AK_SHUF(f.e2, 1, 2, 0, 3), f.f2))),
                       _mm_sub_ps(_mm_mul_ps(f.e3, AK_SHUF(f.perp, 1, 2, 0, 3)),
                                  _mm_mul_ps(AK_SHUF(f.e3, 1, 2, 0, 3), f.perp)));
        q0 = _mm_add_ps(lp_xyz(AK_SHUF(sum, 1, 2, 0, 3)), _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f + tr));
    } else {
        const ak_quat q = ik_frames_quat(f.dir, f.f2, f.perp, f.e1, f.e2, f.e3);
        q0 = _mm_loadu_ps(&q.x);
    }
    t->q0 = q0;
    t->g0 = aks_qmul(_mm_sub_ps(_mm_setzero_ps(), f.f2), q0);
    t->k0 = aks_rsqrt(aks_dot4(q0, q0));
}

/* The middle joint's current half angles, in its own frame: cos theta_n = -ab.bc / P and
 * sin theta_n = |cn| / P (P = l1 l2); with u = P + |ab.bc| the half angle away from zero is
 * sqrt(u / (2P)) and the other sin theta_n / (2 of it) = |cn| / sqrt(2 P u): one reciprocal root.
 */
static inline void limb_packed_middle(const limb_packed *v, const limb_geom *g, __m128 conj_w,
                                      limb_terms *t)
{
    const float pp = g->l1 * g->l2, ab_bc = _mm_cvtss_f32(v->sq2);
    const float cn_len = lp_lane(v->sq2, 2) * lp_lane(v->inv, 2), u = pp + fabsf(ab_bc);
    const float r = _mm_cvtss_f32(aks_rsqrt(_mm_set1_ps(2.0f * pp * u)));
    const float far = u * r, near = cn_len * r;
    /* Obtuse (ab.bc >= 0: theta_n >= 90 degrees): the half angle's sine is the far one. */
    const float s_half = ab_bc >= 0.0f ? far : near, c_half = ab_bc >= 0.0f ? near : far;
    const __m128 n = _mm_mul_ps(aks_rotate(conj_w, v->cn), AK_SHUF(v->inv, 2, 2, 2, 2));
    const __m128 lane_w = _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f);
    t->zn = _mm_add_ps(lp_scale(n, s_half), lp_scale(lane_w, c_half));
    t->zn2 = _mm_xor_ps(_mm_sub_ps(lp_scale(lane_w, s_half), lp_scale(n, c_half)), v->flip);
}

/* (cos(theta_t/2), sin(theta_t/2), cos(alpha/2), sin(alpha/2)) from d: the half angles of the
 * target interior angle and of the upper joint's lift (see above). At d = reach the first and
 * last are 0 exactly: the straight limb. */
static inline __m128 limb_packed_half_angles(const limb_geom *g)
{
    const float l1 = g->l1, reach = g->reach, d = g->d, dl = l1 - g->l2;
    const __m128 x = _mm_setr_ps(reach - d, d - dl, d + dl, d - dl);
    const __m128 y = _mm_setr_ps(reach + d, d + dl, reach + d, reach - d);
    const float pp4 = 4.0f * l1 * g->l2, ld4 = 4.0f * l1 * d;
    return _mm_mul_ps(_mm_sqrt_ps(_mm_mul_ps(x, y)), aks_rsqrt(_mm_setr_ps(pp4, pp4, ld4, ld4)));
}

/* The turn of 120 degrees or more: the full frame change's matrix in model space and
 * Shepperd's branches, as the scalar solve (whose sign the fast path's w > 0 matches below 120
 * degrees, the trace branch). Returns the model-space rotation. */
static inline __m128 limb_packed_upper_wide(const limb_packed *v, __m128 half)
{
    const limb_frames f = limb_packed_frames(v, v->ab, v->at, v->cn, v->w);
    const float ca = lp_lane(half, 2), sa = lp_lane(half, 3);
    const float cos_a = ca * ca - sa * sa, sin_a = 2.0f * sa * ca;
    const __m128 f1 = _mm_add_ps(lp_scale(f.dir, cos_a), lp_scale(f.perp, sin_a));
    const __m128 f3 = _mm_sub_ps(lp_scale(f.perp, cos_a), lp_scale(f.dir, sin_a));
    ak_quat q = ik_frames_quat(f1, f.f2, f3, f.e1, f.e2, f.e3);
    if (fabsf(akq_dot(q, q) - 1.0f) > 1e-5f) q = akq_normalize(q); /* as limb_model_scalar */
    return _mm_loadu_ps(&q.x);
}

/* The packed solve proper: the local corrections, where the end lands, reach and
 * unreachable; the model-space rotations are left to limb_model_from_local (has_local 1). */
static inline int limb_packed_solve(const ak_limb_ik_params *p, const ak_xform *model,
                                    ik_limb_solution *out)
{
    limb_packed v;
    limb_geom g = {.l1 = 0.0f};
    if (!limb_packed_measure(p, model, &v, &g)) return 0;
    const int unreachable = limb_target_distance(p, &g);
    const __m128 conj = _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f);
    const __m128 conj_wu = _mm_xor_ps(_mm_loadu_ps(&model[p->upper].rotation.x), conj);
    limb_terms t;
    limb_packed_upper(&v, conj_wu, &t);
    limb_packed_middle(&v, &g, _mm_xor_ps(_mm_loadu_ps(&model[p->middle].rotation.x), conj), &t);
    const __m128 half = limb_packed_half_angles(&g);
    /* A: z_n conj(z_t), w > 0; within ~6 degrees of a half turn (|w| <= 0.05) the scalar
     * solve decides, where the sign of w is a rounding's. */
    __m128 cm = _mm_add_ps(_mm_mul_ps(AK_SHUF(half, 0, 0, 0, 0), t.zn),
                           _mm_mul_ps(AK_SHUF(half, 1, 1, 1, 1), t.zn2));
    if (!(fabsf(lp_lane(cm, 3)) > 0.05f)) return 0;
    cm = _mm_xor_ps(cm, _mm_and_ps(AK_SHUF(cm, 3, 3, 3, 3), _mm_set1_ps(-0.0f)));
    /* B and C: cos(alpha/2) q0 + sin(alpha/2) (-f2, 0) q0, normalised by 1/|q0|; w > 0 (the
     * scalar solve's Shepperd trace branch) below 120 degrees. */
    const __m128 hk = _mm_mul_ps(half, t.k0);
    __m128 cu = _mm_add_ps(_mm_mul_ps(AK_SHUF(hk, 2, 2, 2, 2), t.q0),
                           _mm_mul_ps(AK_SHUF(hk, 3, 3, 3, 3), t.g0));
    if (fabsf(lp_lane(cu, 3)) > 0.5f)
        cu = _mm_xor_ps(cu, _mm_and_ps(AK_SHUF(cu, 3, 3, 3, 3), _mm_set1_ps(-0.0f)));
    else
        cu = aks_rotate(conj_wu, limb_packed_upper_wide(&v, half));
    /* Unit to float precision where the geometry is well posed; a degenerate limb (bones or
     * distances near float's limits) can leave them off (the IK fuzzer: |cm|^2 = 0.99886):
     * the scalar solve decides there, as near a half turn above. */
    if (!(lp_unit(cu) && lp_unit(cm))) return 0;
    _mm_storeu_ps(&out->upper_local.x, cu);
    _mm_storeu_ps(&out->middle_local.x, cm);
    const __m128 end = _mm_add_ps(v.a, lp_scale(v.at, g.d / g.dist));
    out->end_model = ak_vec3_make(_mm_cvtss_f32(end), lp_lane(end, 1), lp_lane(end, 2));
    out->reach = g.reach;
    out->unreachable = unreachable;
    out->has_local = 1;
    return 1;
}
#endif

/* The model-space rotations W c conj(W) of a solution that has the local corrections c. */
static inline void limb_model_from_local(ak_quat w_upper, ak_quat w_middle, limb_solution *sol)
{
    const ak_vec3 u = {sol->upper_local.x, sol->upper_local.y, sol->upper_local.z};
    const ak_vec3 m = {sol->middle_local.x, sol->middle_local.y, sol->middle_local.z};
    const ak_vec3 ru = akq_rotate(w_upper, u), rm = akq_rotate(w_middle, m);
    sol->r_upper_model = (ak_quat){ru.x, ru.y, ru.z, sol->upper_local.w};
    sol->r_middle_model = (ak_quat){rm.x, rm.y, rm.z, sol->middle_local.w};
}

#ifdef AK_HAVE_SSE
int ik_limb_model_sse(const ak_limb_ik_params *p, const ak_xform *model, ik_limb_solution *out)
{
    if (!limb_packed_solve(p, model, out)) return 0;
    limb_model_from_local(model[p->upper].rotation, model[p->middle].rotation, out);
    return 1;
}
#endif

/* The packed solve where there is SSE and it applies, else the scalar one. */
static inline int32_t limb_solve_model(const ak_limb_ik_params *p, const ak_xform *model,
                                       limb_solution *out, ak_error *err)
{
#ifdef AK_HAVE_SSE
    if (limb_packed_solve(p, model, out)) return AK_OK;
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

    limb_solution sol; /* every field the paths below read is written by the solve */
    sol.has_local = 0;
    st = limb_solve_model(p, model, &sol, err);
    if (st < 0) goto done;

    ak_quat cu_full, cm_full;
    if (sol.has_local) {
        cu_full = sol.upper_local;
        cm_full = sol.middle_local;
    } else {
        limb_corrections(model[p->upper].rotation, model[p->middle].rotation, &sol, &cu_full,
                         &cm_full);
    }
    ak_quat cu = weigh(cu_full, p->weight), cm = weigh(cm_full, p->weight);
    *upper_correction = cu;
    *middle_correction = cm;

    /* Where the end joint lands: analytic at full weight, else with the weighted corrections. */
    ak_quat ru = akq_identity(), rm = akq_identity(); /* read only to match the end rotation */
    ak_vec3 c_model = sol.end_model;
    if (p->weight < 1.0f) {
        const ak_quat w_upper = model[p->upper].rotation, w_middle = model[p->middle].rotation;
        ru = akq_mul(w_upper, akq_mul(cu, akq_conj(w_upper)));
        rm = akq_mul(w_middle, akq_mul(cm, akq_conj(w_middle)));
        const ak_vec3 a_model = model[p->upper].translation, b_model = model[p->middle].translation;
        const ak_vec3 bc1 = akq_rotate(rm, akv_sub(model[p->end].translation, b_model));
        c_model = akv_add(a_model, akq_rotate(ru, akv_add(akv_sub(b_model, a_model), bc1)));
    } else if (p->match_end_rotation) {
        if (sol.has_local)
            limb_model_from_local(model[p->upper].rotation, model[p->middle].rotation, &sol);
        ru = sol.r_upper_model;
        rm = sol.r_middle_model;
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
