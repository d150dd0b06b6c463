/* libFuzzer target for every IK solver: arbitrary bytes become a chain skeleton (offsets,
 * rotations), a pose, targets, poles, weights, tolerances and joint limits. For every finite
 * input a solver either returns an error status or a pose whose local and world rotations are
 * finite unit quaternions and whose positions are finite; anything else aborts. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/animkit.h"

enum { MAXN = 12 };

typedef struct reader {
    const uint8_t *data;
    size_t size, pos;
} reader;

static uint8_t next_byte(reader *r)
{
    return r->pos < r->size ? r->data[r->pos++] : 0;
}

/* A finite float from the input: raw bits, non-finite mapped to 0, optionally scaled. */
static float next_float(reader *r)
{
    uint32_t bits = 0;
    for (int i = 0; i < 4; ++i)
        bits |= (uint32_t)next_byte(r) << (8 * i);
    float f;
    memcpy(&f, &bits, sizeof f);
    if (!isfinite(f)) f = 0.0f;
    return f;
}

/* A float of moderate range in [-range, range] for geometry that should usually be solvable. */
static float next_moderate(reader *r, float range)
{
    uint8_t mode = next_byte(r);
    if (mode < 16) return next_float(r); /* occasionally anything finite */
    int16_t v = (int16_t)(next_byte(r) | (next_byte(r) << 8));
    return range * (float)v / 32768.0f;
}

static ak_vec3 next_vec(reader *r, float range)
{
    ak_vec3 v;
    v.x = next_moderate(r, range);
    v.y = next_moderate(r, range);
    v.z = next_moderate(r, range);
    return v;
}

static ak_quat next_quat(reader *r)
{
    ak_quat q = {next_moderate(r, 1.0f), next_moderate(r, 1.0f), next_moderate(r, 1.0f),
                 next_moderate(r, 1.0f)};
    return ak_quat_normalize(q);
}

static float next_unit_interval(reader *r)
{
    return (float)next_byte(r) / 255.0f;
}

static void check_pose(const ak_xform *local, const ak_xform *world, int count, const char *who)
{
    for (int j = 0; j < count; ++j) {
        const ak_quat q[2] = {local[j].rotation, world[j].rotation};
        for (int k = 0; k < 2; ++k) {
            float n = q[k].x * q[k].x + q[k].y * q[k].y + q[k].z * q[k].z + q[k].w * q[k].w;
            if (!isfinite(n) || fabsf(n - 1.0f) > 1e-3f) {
                fprintf(stderr, "%s: joint %d %s rotation not unit (|q|^2 = %g)\n", who, j,
                        k ? "world" : "local", (double)n);
                abort();
            }
        }
        const ak_vec3 p = world[j].translation;
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z)) {
            fprintf(stderr, "%s: joint %d position not finite\n", who, j);
            abort();
        }
    }
}

static void check_result(int32_t st, const ak_ik_result *r, const char *who)
{
    if (st == AK_OK && (!isfinite(r->error) || r->error < 0.0f || r->iterations < 0)) {
        fprintf(stderr, "%s: bad result (error %g, iterations %d)\n", who, (double)r->error,
                (int)r->iterations);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size, 0};
    const int n = 1 + next_byte(&r) % MAXN; /* chain joints */
    const int count = n + 2;                /* + a child of the tip + a sibling */
    const float scale = powf(10.0f, (float)((int)(next_byte(&r) % 13) - 6)); /* 1e-6 .. 1e6 */

    char names[MAXN + 2][8];
    const char *name_ptrs[MAXN + 2];
    int32_t parents[MAXN + 2];
    ak_xform rest[MAXN + 2];
    for (int j = 0; j < count; ++j) {
        snprintf(names[j], sizeof names[j], "j%d", j);
        name_ptrs[j] = names[j];
        parents[j] = j == 0 ? -1 : (j == count - 1 ? 0 : j - 1);
        rest[j].rotation = next_quat(&r);
        rest[j].translation = ak_vec3_scale(next_vec(&r, 1.0f), scale);
    }
    ak_skeleton_desc desc = {count, name_ptrs, parents, rest, NULL, NULL};
    ak_skeleton *s = NULL;
    if (ak_skeleton_create(&desc, &s, NULL) != AK_OK) return 0;

    ak_xform local0[MAXN + 2], world0[MAXN + 2], local[MAXN + 2], world[MAXN + 2];
    ak_pose_rest(s, local0);
    for (int j = 0; j < count; ++j)
        local0[j].rotation = next_quat(&r);
    ak_fk(s, local0, world0);
    for (int j = 0; j < count; ++j) {
        const ak_vec3 w = world0[j].translation;
        /* The domain: coordinates whose squares fit in a float (|x| < 1e18). Beyond that even
         * FK of the untouched subtree overflows; the solvers reject such chains and targets. */
        if (!(fabsf(w.x) < 1e18f && fabsf(w.y) < 1e18f && fabsf(w.z) < 1e18f)) {
            ak_skeleton_destroy(s);
            return 0;
        }
    }
    int32_t chain[MAXN];
    for (int i = 0; i < n; ++i)
        chain[i] = i;
    const ak_vec3 target =
        ak_vec3_scale(next_vec(&r, 4.0f), scale * (next_byte(&r) < 8 ? 1e6f : 1.0f));
    const ak_vec3 pole = ak_vec3_scale(next_vec(&r, 4.0f), scale);
    const float weight = next_byte(&r) < 16 ? next_float(&r) : next_unit_interval(&r);
    const float tolerance = next_unit_interval(&r) * 1e-2f;
    float joint_weights[MAXN];
    ak_ik_limit limits[MAXN];
    for (int i = 0; i < n; ++i) {
        joint_weights[i] = next_unit_interval(&r);
        const uint8_t kind = next_byte(&r) % 3;
        const float lo = -3.14159f * next_unit_interval(&r), hi = 3.14159f * next_unit_interval(&r);
        if (kind == 1)
            limits[i] = ak_ik_limit_hinge(next_vec(&r, 1.0f), lo, hi);
        else if (kind == 2)
            limits[i] =
                ak_ik_limit_cone(next_vec(&r, 1.0f), 3.14159f * next_unit_interval(&r), lo, hi);
        else
            limits[i] = ak_ik_limit_none();
    }
    const uint8_t flags = next_byte(&r);
    const size_t bytes = sizeof(ak_xform) * (size_t)count;
    static unsigned char workspace[1 << 14];
    ak_ik_result res;
    int32_t st;

    /* Limb on the first three chain joints. */
    if (n >= 3) {
        memcpy(local, local0, bytes);
        memcpy(world, world0, bytes);
        ak_limb_ik_params p = ak_limb_ik_defaults();
        p.skeleton = s;
        p.upper = 0;
        p.middle = 1;
        p.end = 2;
        p.target = target;
        p.use_pole = flags & 1;
        p.pole = pole;
        p.mid_axis = next_vec(&r, 1.0f);
        p.soft_limit = (flags & 2) ? 0.99f * next_unit_interval(&r) : 0.0f;
        p.match_end_rotation = (flags & 4) != 0;
        p.end_rotation = next_quat(&r);
        p.tolerance = tolerance;
        p.weight = weight;
        st = ak_limb_ik_run(&p, local, world, &res, NULL);
        check_result(st, &res, "limb");
        if (st == AK_OK) check_pose(local, world, count, "limb");
        ak_quat cu, cm, ce;
        st = ak_limb_ik_solve(&p, local0, world0, &cu, &cm, &ce, &res, NULL);
        if (st == AK_OK) {
            ak_xform tmp[3] = {{cu, {0, 0, 0}}, {cm, {0, 0, 0}}, {ce, {0, 0, 0}}};
            check_pose(tmp, tmp, 3, "limb corrections");
        }
    }
    /* CCD and FABRIK, with and without limits. */
    for (int solver = 0; solver < 2; ++solver) {
        memcpy(local, local0, bytes);
        memcpy(world, world0, bytes);
        ak_chain_ik_params p = ak_chain_ik_defaults();
        p.skeleton = s;
        p.chain = chain;
        p.chain_length = n;
        p.target = target;
        p.joint_weights = (flags & 8) ? joint_weights : NULL;
        p.limits = (flags & 16) ? limits : NULL;
        p.max_iterations = 1 + next_byte(&r) % 50;
        p.tolerance = tolerance;
        p.weight = weight;
        st = solver == 0 ? ak_ccd_ik_run(&p, local, world, &res, NULL)
                         : ak_fabrik_ik_run(&p, local, world, &res, NULL);
        check_result(st, &res, solver == 0 ? "ccd" : "fabrik");
        if (st == AK_OK) check_pose(local, world, count, solver == 0 ? "ccd" : "fabrik");
    }
    /* Jacobian pseudo-inverse and DLS, chain form and two effectors. */
    for (int method = 0; method < 2; ++method) {
        memcpy(local, local0, bytes);
        memcpy(world, world0, bytes);
        ak_jacobian_ik_params p = ak_jacobian_ik_defaults();
        p.skeleton = s;
        p.method = method;
        p.chain = chain;
        p.chain_length = n;
        p.target = target;
        p.damping = next_unit_interval(&r);
        p.max_step = 0.01f + next_unit_interval(&r);
        p.max_iterations = 1 + next_byte(&r) % 50;
        p.tolerance = tolerance;
        p.weight = weight;
        p.workspace = workspace;
        p.workspace_bytes = sizeof workspace;
        int32_t joints[MAXN], effectors[2] = {n - 1, count - 1};
        ak_vec3 targets[2] = {target, pole};
        float eff_weights[2] = {next_unit_interval(&r), next_unit_interval(&r)};
        if ((flags & 32) && n >= 2) {
            for (int i = 0; i < n - 1; ++i)
                joints[i] = i;
            p.joints = joints;
            p.joint_count = n - 1;
            p.effectors = effectors;
            p.targets = targets;
            p.effector_weights = eff_weights;
            p.effector_count = 2;
        }
        st = ak_jacobian_ik_run(&p, local, world, &res, NULL);
        check_result(st, &res, "jacobian");
        if (st == AK_OK) check_pose(local, world, count, "jacobian");
    }
    /* The one dispatch (ak_ik_solve_any) every surface uses, each kind with the common knobs. */
    for (int32_t kind = 0; kind < AK_IK_KIND_COUNT; ++kind) {
        memcpy(local, local0, bytes);
        memcpy(world, world0, bytes);
        ak_ik_any_params p = ak_ik_any_defaults();
        p.skeleton = s;
        p.chain = chain;
        p.chain_length = n;
        p.target = target;
        p.use_pole = flags & 1;
        p.pole = pole;
        p.max_iterations = 1 + next_byte(&r) % 50;
        p.tolerance = tolerance;
        p.weight = weight;
        p.workspace = workspace;
        p.workspace_bytes = sizeof workspace;
        st = ak_ik_solve_any(kind, &p, local, world, &res, NULL);
        check_result(st, &res, ak_ik_kind_name(kind));
        if (st == AK_OK) check_pose(local, world, count, ak_ik_kind_name(kind));
    }
    /* Aim and look-at. */
    {
        memcpy(local, local0, bytes);
        memcpy(world, world0, bytes);
        ak_aim_ik_params p = ak_aim_ik_defaults();
        p.skeleton = s;
        p.joint = n - 1;
        p.target = target;
        p.forward = next_vec(&r, 1.0f);
        p.up = next_vec(&r, 1.0f);
        p.up_model = next_vec(&r, 1.0f);
        p.clamp_weight = next_unit_interval(&r);
        p.weight = weight;
        st = ak_aim_ik_run(&p, local, world, &res, NULL);
        check_result(st, &res, "aim");
        if (st == AK_OK) check_pose(local, world, count, "aim");

        memcpy(local, local0, bytes);
        memcpy(world, world0, bytes);
        ak_look_at_params q = ak_look_at_defaults();
        q.skeleton = s;
        q.chain = chain;
        q.chain_length = n;
        q.joint_weights = (flags & 64) ? joint_weights : NULL;
        q.target = target;
        q.forward = p.forward;
        q.up = p.up;
        q.up_model = p.up_model;
        q.clamp_weight = p.clamp_weight;
        q.weight = weight;
        st = ak_look_at_run(&q, local, world, &res, NULL);
        check_result(st, &res, "look_at");
        if (st == AK_OK) check_pose(local, world, count, "look_at");
    }
    ak_skeleton_destroy(s);
    return 0;
}
