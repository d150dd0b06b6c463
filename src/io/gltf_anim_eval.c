/* glTF animation channels: reading the samplers, evaluating them at a time the way the glTF
 * 2.0 specification (appendix C) and three.js do, and turning node matrices into animkit's
 * rigid joints. */
#include "io/gltf_anim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t path_of(const char *s)
{
    if (!s) return -1;
    if (strcmp(s, "translation") == 0) return GA_T;
    if (strcmp(s, "rotation") == 0) return GA_R;
    if (strcmp(s, "scale") == 0) return GA_S;
    return -2; /* "weights" or an extension's path: not a joint's */
}

static int32_t interp_of(const char *s)
{
    if (!s || strcmp(s, "LINEAR") == 0) return GA_LINEAR;
    if (strcmp(s, "STEP") == 0) return GA_STEP;
    if (strcmp(s, "CUBICSPLINE") == 0) return GA_CUBIC;
    return -1;
}

/* Times must be finite, >= 0 and non-decreasing (the spec asks for strictly increasing;
 * equal neighbours, which exporters write at cuts, are read as a jump). */
static int32_t check_times(ga_ctx *c, const ga_channel *ch, int32_t sv, const char *what)
{
    for (int32_t k = 0; k < ch->keys; ++k)
        if (!(ch->times[k] >= 0.0f) || (k > 0 && ch->times[k] < ch->times[k - 1]))
            return akgd_fail(&c->d, AK_ERR_INVALID_ARG, sv,
                             "%s: key time %d (%g s) is negative or goes back in time", what,
                             (int)k, (double)ch->times[k]);
    return AK_OK;
}

/* Rotation keys as unit quaternions (the spec asks for them; files round them, quantized
 * ones hold them to 1/127 or 1/32767): each key's value, never a cubic key's tangents; a key
 * under 1e-12 long is the identity. A key whose squared length is within 1e-6 of 1 (unit to
 * float rounding, as exporters write them: length within 5e-7 of 1) stays as it is. The only
 * normalisation of a key: a frame on a key copies it, one between keys normalises the
 * interpolated value (unit_quat). */
static void normalise_keys(ga_channel *ch)
{
    const int per = ch->interp == GA_CUBIC ? 12 : 4, at = ch->interp == GA_CUBIC ? 4 : 0;
    for (int32_t k = 0; k < ch->keys; ++k) {
        float *q = ch->values + (size_t)k * (size_t)per + (size_t)at;
        const double n2 =
            (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
        if (fabs(n2 - 1.0) <= 1e-6) continue;
        const double n = sqrt(n2), inv = n > 1e-12 ? 1.0 / n : 0.0;
        for (int i = 0; i < 4; ++i)
            q[i] = n > 1e-12 ? (float)(q[i] * inv) : (float)(i == 3);
    }
}

/* An earlier channel (the first or the one before ch: exporters write one input for every
 * channel, or one per joint) with ch's input accessor: its key times, read and checked. */
static const ga_channel *same_input(const ga_ctx *c, const ga_channel *ch)
{
    const ga_channel *first = &c->ch[0], *prev = ch - 1;
    if (ch == first || ch->input < 0) return NULL;
    if (first->input == ch->input && first->times) return first;
    if (prev->input == ch->input && prev->times) return prev;
    return NULL;
}

/* Key times of ch's sampler sv (ch->input): an earlier channel's when it read the same. */
static int32_t read_times(ga_ctx *c, int32_t sv, const char *what, ga_channel *ch)
{
    const ga_channel *twin = same_input(c, ch);
    if (twin) {
        ch->times = twin->times;
        ch->keys = twin->keys;
        ch->shares_times = 1;
        return AK_OK;
    }
    const int32_t st = akgd_read_floats(&c->d, ch->input, 1, what, &ch->keys, &ch->times);
    return st < 0 ? st : check_times(c, ch, sv, what);
}

static int32_t read_sampler(ga_ctx *c, int32_t samplers, int32_t s, ga_channel *ch)
{
    char what[96];
    snprintf(what, sizeof what, "animations[%d].samplers[%d]", (int)c->anim, (int)s);
    const int32_t sv = akj_at(&c->d.json, samplers, s);
    if (s < 0 || sv < 0 || akj_type(&c->d.json, sv) != AKJ_OBJECT)
        return akgd_fail(&c->d, AK_ERR_INVALID_ARG, samplers, "%s does not exist", what);
    ch->interp = interp_of(akj_string(&c->d.json, akj_get(&c->d.json, sv, "interpolation")));
    if (ch->interp < 0)
        return akgd_fail(&c->d, AK_ERR_INVALID_ARG, sv,
                         "%s.interpolation must be LINEAR, STEP or CUBICSPLINE", what);
    int32_t n_out = 0;
    float *out = NULL;
    ch->input = akgd_index(&c->d, sv, "input", -1);
    int32_t st = read_times(c, sv, what, ch);
    if (st >= 0)
        st = akgd_read_floats(&c->d, akgd_index(&c->d, sv, "output", -1), ch->comps, what, &n_out,
                              &out);
    ch->values = out;
    const int32_t per_key = ch->interp == GA_CUBIC ? 3 : 1;
    if (st >= 0 && (double)n_out != (double)ch->keys * per_key)
        st = akgd_fail(&c->d, AK_ERR_INVALID_ARG, sv,
                       "%s: %d outputs for %d key times (%s needs %d per key)", what, (int)n_out,
                       (int)ch->keys, ch->interp == GA_CUBIC ? "CUBICSPLINE" : "this interpolation",
                       (int)per_key);
    if (st >= 0 && ch->comps == 4) normalise_keys(ch);
    return st;
}

int32_t ga_read_channels(ga_ctx *c)
{
    const int32_t av = c->d.animations.v[c->anim];
    const int32_t chans = akj_get(&c->d.json, av, "channels");
    const int32_t samplers = akj_get(&c->d.json, av, "samplers");
    if (akj_type(&c->d.json, chans) != AKJ_ARRAY || akj_type(&c->d.json, samplers) != AKJ_ARRAY)
        return akgd_fail(&c->d, AK_ERR_INVALID_ARG, av,
                         "animations[%d] needs channels and samplers arrays", (int)c->anim);
    const int32_t n = c->d.json.v[chans].count;
    c->ch = (ga_channel *)calloc((size_t)(n > 0 ? n : 1), sizeof(ga_channel));
    if (!c->ch) return akgd_fail(&c->d, AK_ERR_NOMEM, av, "out of memory");
    int32_t i = 0, st = AK_OK;
    for (int32_t e = c->d.json.v[chans].first; e >= 0 && st >= 0; e = c->d.json.v[e].next, ++i) {
        const int32_t target = akj_get(&c->d.json, e, "target");
        const int32_t node = akgd_index(&c->d, target, "node", -1);
        const int32_t path = path_of(akj_string(&c->d.json, akj_get(&c->d.json, target, "path")));
        if (target < 0 || path == -1 || node == -2 || node >= c->d.nodes.count)
            st = akgd_fail(&c->d, AK_ERR_INVALID_ARG, e,
                           "animations[%d].channels[%d] has a bad target (node %d of %d, path)",
                           (int)c->anim, (int)i, (int)node, (int)c->d.nodes.count);
        if (st < 0 || node < 0 || path < 0) {
            if (st >= 0 && c->info) c->info->ignored_channels++;
            continue;
        }
        ga_channel *ch = &c->ch[c->ch_count++];
        ch->node = node;
        ch->path = path;
        ch->comps = path == GA_R ? 4 : 3;
        st = read_sampler(c, samplers, akgd_index(&c->d, e, "sampler", -1), ch);
    }
    return st;
}

void ga_free_channels(ga_ctx *c)
{
    for (int32_t i = 0; c->ch && i < c->ch_count; ++i) {
        if (!c->ch[i].shares_times) free(c->ch[i].times);
        free(c->ch[i].values);
    }
    free(c->ch);
    c->ch = NULL;
    c->ch_count = 0;
}

/* Key k with times[k] <= t < times[k+1], for t inside the keys: the last key found or the
 * next one when t lies there (frames run forward), else a binary search. */
static int32_t find_key(ga_channel *ch, double t)
{
    for (int32_t k = ch->cursor; k < ch->cursor + 2 && k + 1 < ch->keys; ++k)
        if ((double)ch->times[k] <= t && t < (double)ch->times[k + 1]) return ch->cursor = k;
    int32_t lo = 0, hi = ch->keys - 1;
    while (hi - lo > 1) {
        const int32_t mid = lo + (hi - lo) / 2;
        if ((double)ch->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return ch->cursor = lo;
}

/* Spherical interpolation the short way (three.js Quaternion.slerpFlat). */
static void slerp(const double *a, const double *b_in, double u, double *out)
{
    double b[4] = {b_in[0], b_in[1], b_in[2], b_in[3]};
    double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (dot < 0.0) {
        dot = -dot;
        for (int k = 0; k < 4; ++k)
            b[k] = -b[k];
    }
    double wa = 1.0 - u, wb = u;
    if (1.0 - dot > 1e-12) {
        const double theta = acos(dot < 1.0 ? dot : 1.0), s = sin(theta);
        wa = sin((1.0 - u) * theta) / s;
        wb = sin(u * theta) / s;
    }
    for (int k = 0; k < 4; ++k)
        out[k] = wa * a[k] + wb * b[k];
}

/* 1 when key k of times[keys] lies on frame k at fps (channel_value's rule picks it there with
 * nothing to interpolate) for every k. */
static int keys_on_every_frame(const float *times, int32_t keys, float fps)
{
    for (int32_t k = 0; k < keys; ++k) {
        const double t = (double)k / (double)fps, ulps = ga_key_ulps(t);
        if (fabs((double)times[k] - t) > ulps || (k + 1 < keys && (double)times[k + 1] <= t + ulps))
            return 0;
    }
    return 1;
}

void ga_mark_frame_keys(ga_ctx *c)
{
    const float *seen = NULL; /* channels mostly share their key times: checked once */
    int on = 0;
    for (int32_t i = 0; i < c->ch_count; ++i) {
        ga_channel *ch = &c->ch[i];
        if (ch->times != seen) on = keys_on_every_frame(ch->times, ch->keys, c->fps);
        seen = ch->times;
        ch->frame_keys = on;
    }
}

/* Key times are float32: a frame time within a few float ulps of a key counts as on it (frame
 * 49 at 0.4 s is the key written as 0.4f = 0.4000000059604645), so a STEP key is not missed by
 * rounding, from either side: a frame just past a key takes the key's value (no interpolation
 * by the rounding's few ulps; keys on frames are then copied). */
double ga_key_ulps(double t)
{
    return 5e-7 * fmax(1.0, fabs(t));
}

/* How far time t lies from key k towards key k + 1, for t inside the keys; 0 within `ulps` of
 * key k (a frame just past a key takes the key's value: no interpolation by the rounding). */
static double key_fraction(const ga_channel *ch, int32_t k, double t, double ulps)
{
    const double dt = (double)ch->times[k + 1] - (double)ch->times[k];
    const double past = t - (double)ch->times[k];
    return dt > 0.0 && past > ulps ? past / dt : 0.0;
}

/* The value between key k and key k + 1 at fraction u > 0 (glTF 2.0 appendix C), written
 * over out, which holds key k's value: LINEAR (slerp for rotations) and CUBICSPLINE (Hermite
 * with the tangents scaled by the key interval); STEP keeps key k. */
static void interpolate(const ga_channel *ch, int32_t k, double u, double *out)
{
    const int n = ch->comps, stride = ch->interp == GA_CUBIC ? 3 * n : n;
    const int mid = ch->interp == GA_CUBIC ? n : 0; /* the value inside a cubic key */
    const float *a = ch->values + (size_t)k * (size_t)stride + mid, *b = a + stride;
    if (ch->interp == GA_LINEAR) {
        double va[4], vb[4];
        for (int i = 0; i < n; ++i) {
            va[i] = a[i];
            vb[i] = b[i];
        }
        if (n == 4)
            slerp(va, vb, u, out);
        else
            for (int i = 0; i < n; ++i)
                out[i] = va[i] + (vb[i] - va[i]) * u;
    } else if (ch->interp == GA_CUBIC) {
        const double dt = (double)ch->times[k + 1] - (double)ch->times[k];
        const float *out_tan = a + n, *in_tan = b - n;
        const double u2 = u * u, u3 = u2 * u;
        const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2,
                     h11 = u3 - u2;
        for (int i = 0; i < n; ++i)
            out[i] = h00 * a[i] + h10 * dt * out_tan[i] + h01 * b[i] + h11 * dt * in_tan[i];
    }
}

/* A rotation made unit length in double (under 1e-12: the identity). */
static inline void unit_quat(double *q)
{
    const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; ++i)
        q[i] = len > 1e-12 ? q[i] / len : (i == 3);
}

/* The value between key k and key k + 1 at fraction u (u = 0: key k's value, unit already
 * for a rotation); interpolated rotations normalised. */
static void channel_mix(const ga_channel *ch, int32_t k, double u, double *out)
{
    const int n = ch->comps, stride = ch->interp == GA_CUBIC ? 3 * n : n;
    const float *a = ch->values + (size_t)k * (size_t)stride + (ch->interp == GA_CUBIC ? n : 0);
    for (int i = 0; i < n; ++i)
        out[i] = a[i];
    if (u > 0.0) interpolate(ch, k, u, out);
    if (u > 0.0 && n == 4) unit_quat(out);
}

/* The value of a channel at time t (glTF 2.0 appendix C); rotations normalised. The key: the
 * last one at or before t + ga_key_ulps(t) (the first before the keys, the last past them). */
static void channel_value(ga_channel *ch, double t, double *out)
{
    const double ulps = ga_key_ulps(t), on = t + ulps;
    int32_t k = 0;
    double u = 0.0;
    if (on >= (double)ch->times[ch->keys - 1])
        k = ch->keys - 1;
    else if (on > (double)ch->times[0]) {
        k = find_key(ch, on);
        u = key_fraction(ch, k, t, ulps);
    }
    channel_mix(ch, k, u, out);
}

/* A translation (path GA_T, 3 values) or rotation (GA_R, x y z w) in double into x, as float. */
static void store_path(ak_xform *x, int32_t path, const double *v)
{
    if (path == GA_R) {
        x->rotation.x = (float)v[0];
        x->rotation.y = (float)v[1];
        x->rotation.z = (float)v[2];
        x->rotation.w = (float)v[3];
    } else {
        x->translation.x = (float)v[0];
        x->translation.y = (float)v[1];
        x->translation.z = (float)v[2];
    }
}

/* Key `key` of a channel with n values per key (values: the first key's value) into x. */
static inline void copy_key(ak_xform *x, const int n, const float *values, int32_t per, int32_t key)
{
    const float *a = values + (size_t)key * (size_t)per;
    if (n == 4) {
        x->rotation.x = a[0];
        x->rotation.y = a[1];
        x->rotation.z = a[2];
        x->rotation.w = a[3];
    } else {
        x->translation.x = a[0];
        x->translation.y = a[1];
        x->translation.z = a[2];
    }
}

/* Channel ch (n = ch->comps values) at every time of fr in one forward pass: channel_value's
 * key rule and channel_mix's arithmetic (the same floats), the key found by stepping on from the
 * one before instead of searching; values to out[i * stride]. A time before the one swept last
 * restarts from the first key. Inlined with n constant, a frame on a key (most of them) costs
 * a copy; a channel with a key on every frame (frame_keys) is copied without looking at times. */
static inline void sweep_n(ga_channel *ch, const int n, const ga_frames *fr, ak_xform *out,
                           size_t stride)
{
    const float *times = ch->times;
    const int32_t last = ch->keys - 1, per = ch->interp == GA_CUBIC ? 3 * n : n;
    const float *values = ch->values + (ch->interp == GA_CUBIC ? n : 0);
    if (ch->frame_keys && fr->frame0 >= 0) {
        for (int32_t i = 0, f = fr->frame0; i < fr->count; ++i, ++f)
            copy_key(&out[(size_t)i * stride], n, values, per, f < last ? f : last);
        return;
    }
    int32_t k = ch->cursor >= 0 && ch->cursor <= last ? ch->cursor : 0;
    for (int32_t i = 0; i < fr->count; ++i) {
        const double t = fr->t[i], ulps = fr->ulps[i], on = t + ulps;
        int32_t key = 0;
        double u = 0.0;
        if (on >= (double)times[last])
            key = last;
        else if (on > (double)times[0]) {
            if ((double)times[k] > on) k = 0;
            while ((double)times[k + 1] <= on) /* stops before the last key: it lies past on */
                ++k;
            key = k;
            u = key_fraction(ch, k, t, ulps);
        }
        if (!(u > 0.0)) {
            copy_key(&out[(size_t)i * stride], n, values, per, key);
            continue;
        }
        const float *a = values + (size_t)key * (size_t)per;
        double v[4] = {a[0], a[1], a[2], n == 4 ? a[3] : 0.0};
        interpolate(ch, key, u, v);
        if (n == 4) unit_quat(v);
        store_path(&out[(size_t)i * stride], n == 4 ? GA_R : GA_T, v);
    }
    ch->cursor = k;
}

static void channel_sweep(ga_channel *ch, const ga_frames *fr, ak_xform *out, size_t stride)
{
    if (ch->comps == 4)
        sweep_n(ch, 4, fr, out, stride);
    else
        sweep_n(ch, 3, fr, out, stride);
}

/* Rigid part of a column-major matrix: translation and the rotation of its orthonormalised
 * axes (Gram-Schmidt on x then y; z = x * y). 0 when the axes are degenerate. */
static int rigid_of(const double m[16], ga_rigid *out)
{
    double x[3] = {m[0], m[1], m[2]}, y[3] = {m[4], m[5], m[6]}, z[3];
    const double nx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    out->t[0] = m[12];
    out->t[1] = m[13];
    out->t[2] = m[14];
    if (!(nx > 1e-12)) return 0;
    for (int k = 0; k < 3; ++k)
        x[k] /= nx;
    const double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    for (int k = 0; k < 3; ++k)
        y[k] -= d * x[k];
    const double ny = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    if (!(ny > 1e-12)) return 0;
    for (int k = 0; k < 3; ++k)
        y[k] /= ny;
    z[0] = x[1] * y[2] - x[2] * y[1];
    z[1] = x[2] * y[0] - x[0] * y[2];
    z[2] = x[0] * y[1] - x[1] * y[0];
    double *q = out->q;
    const double tr = x[0] + y[1] + z[2];
    if (tr > 0.0) {
        const double s = sqrt(tr + 1.0) * 2.0;
        q[3] = 0.25 * s, q[0] = (y[2] - z[1]) / s, q[1] = (z[0] - x[2]) / s;
        q[2] = (x[1] - y[0]) / s;
    } else if (x[0] > y[1] && x[0] > z[2]) {
        const double s = sqrt(1.0 + x[0] - y[1] - z[2]) * 2.0;
        q[3] = (y[2] - z[1]) / s, q[0] = 0.25 * s, q[1] = (y[0] + x[1]) / s;
        q[2] = (z[0] + x[2]) / s;
    } else if (y[1] > z[2]) {
        const double s = sqrt(1.0 + y[1] - x[0] - z[2]) * 2.0;
        q[3] = (z[0] - x[2]) / s, q[0] = (y[0] + x[1]) / s, q[1] = 0.25 * s;
        q[2] = (z[1] + y[2]) / s;
    } else {
        const double s = sqrt(1.0 + z[2] - x[0] - y[1]) * 2.0;
        q[3] = (x[1] - y[0]) / s, q[0] = (z[0] + x[2]) / s, q[1] = (z[1] + y[2]) / s;
        q[2] = 0.25 * s;
    }
    const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k)
        q[k] /= n;
    return 1;
}

void ga_evaluate(ga_ctx *c, double t, int use_anim, ga_rigid *out)
{
    for (int32_t j = 0; j < c->joints; ++j) {
        akgd_trs trs = c->base[j];
        int changed = 0;
        for (int path = 0; use_anim && path < 3; ++path) {
            const int32_t ci = c->chan_of[j * 3 + path];
            if (ci < 0) continue;
            double *dst = path == GA_T ? trs.t : path == GA_R ? trs.r : trs.s;
            channel_value(&c->ch[ci], t, dst);
            changed = 1;
        }
        if (changed) akgd_compose(&trs);
        const int32_t p = c->parent[j];
        if (p >= 0)
            akgd_mat_mul(c->world[p], trs.m, c->world[j]);
        else
            memcpy(c->world[j], trs.m, sizeof(double[16]));
        if (!rigid_of(c->world[j], &out[j])) {
            /* A joint scaled to nothing (props hidden by a zero scale): it keeps its
             * position and its parent's orientation. */
            static const double id[4] = {0, 0, 0, 1};
            memcpy(out[j].q, p >= 0 ? out[p].q : id, sizeof(double[4]));
        }
    }
}

/* 1 when a 3x3 block (columns m[0..2], m[4..6], m[8..10]) is a rotation within 1e-6. */
static int rotation_matrix(const double m[16])
{
    for (int a = 0; a < 3; ++a)
        for (int b = a; b < 3; ++b) {
            const double d =
                m[4 * a] * m[4 * b] + m[4 * a + 1] * m[4 * b + 1] + m[4 * a + 2] * m[4 * b + 2];
            if (fabs(d - (a == b)) > 1e-6) return 0;
        }
    const double det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) +
                       m[8] * (m[1] * m[6] - m[2] * m[5]);
    return det > 0.0;
}

/* 1 when a scale channel holds (1, 1, 1) in every key (a cubic one: its values, tangents 0). */
static int unit_scale_channel(const ga_channel *ch)
{
    const int32_t n = ch->keys * 3 * (ch->interp == GA_CUBIC ? 3 : 1);
    for (int32_t i = 0; i < n; ++i) {
        const int tangent = ch->interp == GA_CUBIC && (i / 3) % 3 != 1;
        if (fabs((double)ch->values[i] - (tangent ? 0.0 : 1.0)) > 1e-7) return 0;
    }
    return 1;
}

int ga_rigid_joints(const ga_ctx *c)
{
    for (int32_t j = 0; j < c->joints; ++j) {
        const akgd_trs *b = &c->base[j];
        if (b->has_matrix ? !rotation_matrix(b->m)
                          : fabs(b->s[0] - 1.0) > 1e-7 || fabs(b->s[1] - 1.0) > 1e-7 ||
                                fabs(b->s[2] - 1.0) > 1e-7)
            return 0;
        const int32_t cs = c->chan_of[j * 3 + GA_S];
        if (cs >= 0 && !unit_scale_channel(&c->ch[cs])) return 0;
    }
    return 1;
}

/* A rotation (x, y, z, w) and translation in double as an ak_xform. */
static ak_xform xform_of(const double q[4], const double t[3])
{
    ak_xform x;
    x.rotation.x = (float)q[0];
    x.rotation.y = (float)q[1];
    x.rotation.z = (float)q[2];
    x.rotation.w = (float)q[3];
    x.translation.x = (float)t[0];
    x.translation.y = (float)t[1];
    x.translation.z = (float)t[2];
    return x;
}

ak_xform ga_rigid_local(const ga_ctx *c, int32_t j, double t, const ak_xform *rest_local)
{
    const int32_t ct = c->chan_of[j * 3 + GA_T], cr = c->chan_of[j * 3 + GA_R];
    if (ct < 0 && cr < 0) return rest_local[j];
    const akgd_trs *b = &c->base[j]; /* animated nodes never give a matrix (joint_tables) */
    double tr[3] = {b->t[0], b->t[1], b->t[2]}, q[4] = {b->r[0], b->r[1], b->r[2], b->r[3]};
    if (ct >= 0) channel_value(&c->ch[ct], t, tr);
    if (cr >= 0) channel_value(&c->ch[cr], t, q); /* normalised there; b->r by akgd_node_trs */
    return xform_of(q, tr);
}

void ga_rigid_sweep(ga_ctx *c, int32_t j, const ga_frames *fr, const ak_xform *rest_local,
                    ak_xform *out, size_t stride)
{
    const int32_t ct = c->chan_of[j * 3 + GA_T], cr = c->chan_of[j * 3 + GA_R];
    const akgd_trs *b = &c->base[j];
    for (int32_t i = 0; ct < 0 && cr < 0 && i < fr->count; ++i)
        out[(size_t)i * stride] = rest_local[j];
    if (ct < 0 && cr < 0) return;
    ak_xform node; /* the node's own translation and rotation, as float once */
    store_path(&node, GA_T, b->t);
    store_path(&node, GA_R, b->r);
    if (ct >= 0)
        channel_sweep(&c->ch[ct], fr, out, stride);
    else
        for (int32_t i = 0; i < fr->count; ++i)
            out[(size_t)i * stride].translation = node.translation;
    if (cr >= 0)
        channel_sweep(&c->ch[cr], fr, out, stride);
    else
        for (int32_t i = 0; i < fr->count; ++i)
            out[(size_t)i * stride].rotation = node.rotation;
}

ak_xform ga_local(const ga_rigid *parent, const ga_rigid *child)
{
    /* local = parent^-1 * child: q = conj(qp) * qc, t = conj(qp) (tc - tp) conj(qp)^-1 */
    const double *a = parent->q, *b = child->q;
    const double ax = -a[0], ay = -a[1], az = -a[2], aw = a[3];
    double q[4] = {aw * b[0] + ax * b[3] + ay * b[2] - az * b[1],
                   aw * b[1] - ax * b[2] + ay * b[3] + az * b[0],
                   aw * b[2] + ax * b[1] - ay * b[0] + az * b[3],
                   aw * b[3] - ax * b[0] - ay * b[1] - az * b[2]};
    const double v[3] = {child->t[0] - parent->t[0], child->t[1] - parent->t[1],
                         child->t[2] - parent->t[2]};
    /* rotate v by (ax, ay, az, aw): v + 2w (u x v) + 2 u x (u x v) */
    const double cx = ay * v[2] - az * v[1], cy = az * v[0] - ax * v[2], cz = ax * v[1] - ay * v[0];
    const double r[3] = {v[0] + 2 * (aw * cx + ay * cz - az * cy),
                         v[1] + 2 * (aw * cy + az * cx - ax * cz),
                         v[2] + 2 * (aw * cz + ax * cy - ay * cx)};
    return xform_of(q, r);
}
