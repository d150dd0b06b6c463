/* Retargeting on real captures: every pair among five rigs (CMU, Arena louise, ReActIdle's
 * Blender names, the built-in biped and a generated A-pose Mixamo-style rig) keeps bone
 * directions, stance feet, the floor and smooth rotations; round trips come back; a rig onto
 * itself is exact; a retargeted CMU walk drives the walker. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <unistd.h>
#include "retarget/retarget_internal.h"
#include "retarget/retarget_rigs.h"

#define RIG_COUNT 5
#define DEG       (180.0 / 3.14159265358979)

typedef struct rig {
    const char *name;
    ak_skeleton *s;
    ak_clip *c;
    float mpu;          /* metres per unit (PROVENANCE.md; the biped and A-pose rig are metres) */
    uint8_t *stance[2]; /* stance flags of the rig's own clip */
    ak_humanoid map;
} rig;

static rig g_rig[RIG_COUNT];

/* Stance flags from the public contact detector. CMU files from motion-viewer start with a
 * T-pose reference frame (PROVENANCE.md) whose feet would set the detector's floor: it sees a
 * copy whose frame 0 repeats frame 1, and frame 0 counts as no stance. */
static void detect(rig *r, int reference_frame0)
{
    ak_error err;
    const int32_t n = r->c->frame_count;
    r->stance[0] = (uint8_t *)calloc((size_t)n, 1);
    r->stance[1] = (uint8_t *)calloc((size_t)n, 1);
    ak_clip *c = ak_clip_clone(r->c);
    if (reference_frame0) {
        memcpy(c->rotations, c->rotations + c->joint_count,
               sizeof(ak_quat) * (size_t)c->joint_count);
        memcpy(c->translations, c->translations + c->track_count,
               sizeof(ak_vec3) * (size_t)c->track_count);
    }
    ak_contact_params cp = ak_contact_defaults();
    if (ak_foot_contacts_detect(r->s, c, r->map.joint[AK_HUM_LEFT_FOOT],
                                r->map.joint[AK_HUM_RIGHT_FOOT], r->mpu, &cp, r->stance[0],
                                r->stance[1], &err) != AK_OK)
        fail_msg("%s: contacts: %s", r->name, err.message);
    for (int32_t f = 0; f < n; ++f) { /* the ankle's own stance: the heel bit */
        r->stance[0][f] &= AK_CONTACT_HEEL;
        r->stance[1][f] &= AK_CONTACT_HEEL;
    }
    if (reference_frame0) r->stance[0][0] = r->stance[1][0] = 0;
    ak_clip_destroy(c);
}

static void load_bvh(rig *r, const char *name, const char *file, float mpu, int reference_frame0)
{
    char path[1024];
    ak_error err;
    r->name = name;
    r->mpu = mpu;
    if (ak_bvh_read_file(akt_mocap_path(file, path, sizeof path), NULL, &r->s, &r->c, &err) !=
        AK_OK)
        fail_msg("%s: %s", file, err.message);
    if (ak_humanoid_find(r->s, NULL, &r->map, &err) != AK_OK) fail_msg("%s: %s", name, err.message);
    detect(r, reference_frame0);
}

/* The A-pose rig's own motion: the CMU walk retargeted onto it (its stance: the CMU flags). */
static void make_apose(rig *r, const rig *cmu)
{
    ak_error err;
    r->name = "apose";
    r->mpu = 1.0f;
    if (akt_apose_rig_create(&r->s, &err) != AK_OK) fail_msg("apose rig: %s", err.message);
    ak_humanoid_find(r->s, NULL, &r->map, &err);
    ak_retarget_params p = ak_retarget_defaults();
    p.source = cmu->s;
    p.source_clip = cmu->c;
    p.target = r->s;
    p.stance_left = cmu->stance[0];
    p.stance_right = cmu->stance[1];
    if (ak_retarget_run(&p, &r->c, NULL, &err) != AK_OK) fail_msg("cmu -> apose: %s", err.message);
    const size_t n = (size_t)r->c->frame_count;
    r->stance[0] = (uint8_t *)malloc(n);
    r->stance[1] = (uint8_t *)malloc(n);
    memcpy(r->stance[0], cmu->stance[0], n);
    memcpy(r->stance[1], cmu->stance[1], n);
}

static int setup(void **state)
{
    (void)state;
    ak_error err;
    load_bvh(&g_rig[0], "cmu", "cmu_02_01_walk.bvh", 0.056444f, 1);
    load_bvh(&g_rig[1], "louise", "arena_louise_stand_walk_cycle.bvh", 0.01f, 0);
    load_bvh(&g_rig[2], "reactidle", "reactidle_003_genuine_idle.bvh", 1.0f, 0);
    rig *b = &g_rig[3];
    ak_walk_clip_params wp = ak_walk_clip_defaults();
    b->name = "biped";
    b->mpu = 1.0f;
    if (ak_walk_clip_create(&wp, &b->s, &b->c, &err) != AK_OK) fail_msg("biped: %s", err.message);
    ak_humanoid_find(b->s, NULL, &b->map, &err);
    b->c->loop = 0; /* measured as a plain clip: the pins do not wrap */
    b->stance[0] = (uint8_t *)malloc((size_t)b->c->frame_count);
    b->stance[1] = (uint8_t *)malloc((size_t)b->c->frame_count);
    ak_walk_clip_contacts(&wp, b->c, b->stance[0], b->stance[1], &err);
    make_apose(&g_rig[4], &g_rig[0]);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < RIG_COUNT; ++i) {
        ak_skeleton_destroy(g_rig[i].s);
        ak_clip_destroy(g_rig[i].c);
        free(g_rig[i].stance[0]);
        free(g_rig[i].stance[1]);
    }
    return 0;
}

/* The mapped bones the bound covers: slot -> slot segments. */
static const int k_bones[][2] = {{AK_HUM_SPINE, AK_HUM_CHEST},
                                 {AK_HUM_CHEST, AK_HUM_NECK},
                                 {AK_HUM_NECK, AK_HUM_HEAD},
                                 {AK_HUM_LEFT_UPPER_LEG, AK_HUM_LEFT_LOWER_LEG},
                                 {AK_HUM_LEFT_LOWER_LEG, AK_HUM_LEFT_FOOT},
                                 {AK_HUM_LEFT_FOOT, AK_HUM_LEFT_TOE},
                                 {AK_HUM_RIGHT_UPPER_LEG, AK_HUM_RIGHT_LOWER_LEG},
                                 {AK_HUM_RIGHT_LOWER_LEG, AK_HUM_RIGHT_FOOT},
                                 {AK_HUM_RIGHT_FOOT, AK_HUM_RIGHT_TOE},
                                 {AK_HUM_LEFT_SHOULDER, AK_HUM_LEFT_UPPER_ARM},
                                 {AK_HUM_LEFT_UPPER_ARM, AK_HUM_LEFT_LOWER_ARM},
                                 {AK_HUM_LEFT_LOWER_ARM, AK_HUM_LEFT_HAND},
                                 {AK_HUM_RIGHT_SHOULDER, AK_HUM_RIGHT_UPPER_ARM},
                                 {AK_HUM_RIGHT_UPPER_ARM, AK_HUM_RIGHT_LOWER_ARM},
                                 {AK_HUM_RIGHT_LOWER_ARM, AK_HUM_RIGHT_HAND}};
#define BONE_COUNT ((int)(sizeof k_bones / sizeof k_bones[0]))

typedef struct pair_result {
    double dir_deg; /* worst mapped bone direction error, degrees */
    int dir_bone, dir_frame;
    double skate_src, skate_dst; /* m/s: mean stance heel pad speed (the sole point under the
                                    ankle, which a stance heel keeps while the foot turns over
                                    it), source scaled onto the target and the target's own
                                    (worse foot) */
    double below_src, below_dst; /* m: deepest foot point below its floor (source, target) */
    int below_joint, below_frame;
    int flips; /* target joint jumps > 30 deg in a frame where no source joint jumps */
    int stance_frames;
} pair_result;

static double quat_angle(ak_quat a, ak_quat b)
{
    double d = fabs((double)ak_quat_dot(a, b));
    return 2.0 * acos(d > 1.0 ? 1.0 : d);
}

static double vec_angle(ak_vec3 a, ak_vec3 b)
{
    double la = ak_vec3_length(a), lb = ak_vec3_length(b);
    if (la < 1e-9 || lb < 1e-9) return 0.0;
    double c = ak_vec3_dot(a, b) / (la * lb);
    return acos(c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c));
}

/* Per joint of a foot subtree: its rest height above the rest foot's lowest joint (-1 outside
 * the feet) and its rest world rotation, so a sole point can turn with the joint. */
static void foot_clearance(const ak_skeleton *s, const ak_humanoid *m, float *clear,
                           ak_quat *rest_rot)
{
    ak_xform *w = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    ak_fk(s, s->rest_local, w);
    for (int32_t j = 0; j < s->joint_count; ++j) {
        clear[j] = -1.0f;
        rest_rot[j] = w[j].rotation;
    }
    for (int side = 0; side < 2; ++side) {
        int32_t f = m->joint[side ? AK_HUM_RIGHT_FOOT : AK_HUM_LEFT_FOOT];
        float lo = w[f].translation.y;
        for (int32_t j = f; j < s->subtree_end[f]; ++j)
            lo = fminf(lo, w[j].translation.y);
        for (int32_t j = f; j < s->subtree_end[f]; ++j)
            clear[j] = w[j].translation.y - lo;
    }
    free(w);
}

/* The sole point under joint j of a world pose: its rest clearance straight down in the rest
 * pose, turned with the joint (under the ankle: the heel pad). */
static ak_vec3 sole_under(const float *clear, const ak_quat *rest_rot, const ak_xform *w, int32_t j)
{
    ak_quat turn = ak_quat_mul(w[j].rotation, ak_quat_conjugate(rest_rot[j]));
    return ak_vec3_add(w[j].translation, ak_quat_rotate(turn, ak_vec3_make(0, -clear[j], 0)));
}

/* Deepest sole point of either foot below `floor`, in units: under each foot joint, its rest
 * clearance straight down in the rest pose, turned with the joint. */
static int g_depth_joint;
static double foot_depth(const ak_skeleton *s, const float *clear, const ak_quat *rest_rot,
                         const ak_xform *w, float floor)
{
    double depth = -1e9;
    g_depth_joint = -1;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        if (clear[j] < 0.0f) continue;
        ak_quat turn = ak_quat_mul(w[j].rotation, ak_quat_conjugate(rest_rot[j]));
        float y = w[j].translation.y + ak_quat_rotate(turn, ak_vec3_make(0, -clear[j], 0)).y;
        if (floor - y > depth) g_depth_joint = (int)j;
        depth = fmax(depth, (double)(floor - y));
    }
    return depth;
}

static double max_jump(const ak_clip *c, int32_t f)
{
    double worst = 0.0;
    for (int32_t j = 0; j < c->joint_count; ++j)
        worst = fmax(worst, quat_angle(c->rotations[(size_t)f * c->joint_count + j],
                                       c->rotations[(size_t)(f - 1) * c->joint_count + j]));
    return worst;
}

typedef struct frame_buffers {
    ak_xform *sl, *sw, *dl, *dw;
    float *clear_s, *clear_d;
    ak_quat *rest_s, *rest_d;
    ak_xform *rw_s, *rw_d; /* rest world poses */
} frame_buffers;

static frame_buffers buffers_make(const rig *src, const rig *dst)
{
    frame_buffers b;
    size_t ns = (size_t)src->s->joint_count, nd = (size_t)dst->s->joint_count;
    b.sl = (ak_xform *)malloc(sizeof(ak_xform) * ns);
    b.sw = (ak_xform *)malloc(sizeof(ak_xform) * ns);
    b.dl = (ak_xform *)malloc(sizeof(ak_xform) * nd);
    b.dw = (ak_xform *)malloc(sizeof(ak_xform) * nd);
    b.clear_s = (float *)calloc(ns, sizeof(float));
    b.clear_d = (float *)calloc(nd, sizeof(float));
    b.rest_s = (ak_quat *)malloc(sizeof(ak_quat) * ns);
    b.rest_d = (ak_quat *)malloc(sizeof(ak_quat) * nd);
    b.rw_s = (ak_xform *)malloc(sizeof(ak_xform) * ns);
    b.rw_d = (ak_xform *)malloc(sizeof(ak_xform) * nd);
    ak_fk(src->s, src->s->rest_local, b.rw_s);
    ak_fk(dst->s, dst->s->rest_local, b.rw_d);
    foot_clearance(src->s, &src->map, b.clear_s, b.rest_s);
    foot_clearance(dst->s, &dst->map, b.clear_d, b.rest_d);
    return b;
}

static void buffers_free(frame_buffers *b)
{
    free(b->sl);
    free(b->sw);
    free(b->dl);
    free(b->dw);
    free(b->clear_s);
    free(b->clear_d);
    free(b->rest_s);
    free(b->rest_d);
    free(b->rw_s);
    free(b->rw_d);
}

/* Worst bone direction error of one frame (degrees), and which bone. */
static void frame_directions(const rig *src, const rig *dst, const frame_buffers *b, ak_quat yaw,
                             int32_t f, pair_result *r)
{
    for (int i = 0; i < BONE_COUNT; ++i) {
        int32_t sa = src->map.joint[k_bones[i][0]], sb = src->map.joint[k_bones[i][1]];
        int32_t da = dst->map.joint[k_bones[i][0]], db = dst->map.joint[k_bones[i][1]];
        if (sa < 0 || sb < 0 || da < 0 || db < 0) continue;
        ak_vec3 ds = ak_quat_rotate(yaw, ak_vec3_sub(b->sw[sb].translation, b->sw[sa].translation));
        ak_vec3 dd = ak_vec3_sub(b->dw[db].translation, b->dw[da].translation);
        if (k_bones[i][0] == AK_HUM_LEFT_FOOT || k_bones[i][0] == AK_HUM_RIGHT_FOOT) {
            /* foot -> toe: the target foot bone turns from its rest direction (heading aligned
             * with the source's) as the source foot joint turns from its rest */
            ak_vec3 rest_d = ak_vec3_sub(b->rw_d[db].translation, b->rw_d[da].translation);
            ak_vec3 rest_s =
                ak_quat_rotate(yaw, ak_vec3_sub(b->rw_s[sb].translation, b->rw_s[sa].translation));
            rest_s.y = rest_d.y = 0.0f;
            ak_quat turn = ak_quat_mul(b->sw[sa].rotation, ak_quat_conjugate(b->rw_s[sa].rotation));
            turn = ak_quat_mul(yaw, ak_quat_mul(turn, ak_quat_conjugate(yaw)));
            ds = ak_quat_rotate(turn, ak_quat_rotate(ak_quat_from_to(rest_d, rest_s),
                                                     ak_vec3_sub(b->rw_d[db].translation,
                                                                 b->rw_d[da].translation)));
        }
        double a = vec_angle(ds, dd) * DEG;
        if (a > r->dir_deg) {
            r->dir_deg = a;
            r->dir_bone = i;
            r->dir_frame = (int)f;
        }
    }
}

static pair_result measure_pair(const rig *src, const rig *dst, const ak_clip *out,
                                const ak_retarget_info *info)
{
    pair_result r;
    memset(&r, 0, sizeof r);
    frame_buffers b = buffers_make(src, dst);
    const ak_quat yaw = ak_quat_yaw(info->heading_offset);
    const float dt = src->c->frame_time;
    double sum_s[2] = {0, 0}, sum_d[2] = {0, 0};
    int count[2] = {0, 0};
    ak_vec3 prev_s[2] = {{0}}, prev_d[2] = {{0}};
    r.below_src = r.below_dst = -1e9;
    for (int32_t f = 0; f < src->c->frame_count; ++f) {
        ak_clip_frame(src->c, src->s, f, b.sl);
        ak_fk(src->s, b.sl, b.sw);
        ak_clip_frame(out, dst->s, f, b.dl);
        ak_fk(dst->s, b.dl, b.dw);
        frame_directions(src, dst, &b, yaw, f, &r);
        for (int side = 0; side < 2; ++side) {
            /* the heel pad: what a stance heel keeps on the floor while the foot turns */
            ak_vec3 ps = sole_under(b.clear_s, b.rest_s, b.sw,
                                    src->map.joint[side ? AK_HUM_RIGHT_FOOT : AK_HUM_LEFT_FOOT]);
            ak_vec3 pd = sole_under(b.clear_d, b.rest_d, b.dw,
                                    dst->map.joint[side ? AK_HUM_RIGHT_FOOT : AK_HUM_LEFT_FOOT]);
            if (f > 0 && src->stance[side][f] && src->stance[side][f - 1]) {
                sum_s[side] += hypot(ps.x - prev_s[side].x, ps.z - prev_s[side].z) / dt;
                sum_d[side] += hypot(pd.x - prev_d[side].x, pd.z - prev_d[side].z) / dt;
                ++count[side];
            }
            prev_s[side] = ps;
            prev_d[side] = pd;
        }
        r.below_src =
            fmax(r.below_src,
                 foot_depth(src->s, b.clear_s, b.rest_s, b.sw, info->source_floor) * src->mpu);
        double below = foot_depth(dst->s, b.clear_d, b.rest_d, b.dw, info->target_floor) * dst->mpu;
        if (below > r.below_dst) {
            r.below_dst = below;
            r.below_joint = g_depth_joint;
            r.below_frame = (int)f;
        }
        if (f > 0 && max_jump(out, f) > 30.0 / DEG && max_jump(src->c, f) <= 30.0 / DEG) ++r.flips;
    }
    r.skate_src = r.skate_dst = 0.0;
    for (int side = 0; side < 2; ++side) {
        if (!count[side]) continue;
        double s = sum_s[side] / count[side] * info->scale * dst->mpu,
               d = sum_d[side] / count[side] * dst->mpu;
        if (d - s > r.skate_dst - r.skate_src || (r.skate_dst == 0.0 && r.skate_src == 0.0)) {
            r.skate_src = s;
            r.skate_dst = d;
        }
        r.stance_frames += count[side];
    }
    buffers_free(&b);
    return r;
}

static ak_clip *retarget_with(const rig *src, const rig *dst, const ak_clip *clip,
                              ak_retarget_info *info, int contacts)
{
    ak_retarget_params p = ak_retarget_defaults();
    p.contacts = contacts;
    p.source = src->s;
    p.source_clip = clip;
    p.target = dst->s;
    p.stance_left = src->stance[0];
    p.stance_right = src->stance[1];
    ak_clip *out = NULL;
    ak_error err;
    if (ak_retarget_run(&p, &out, info, &err) != AK_OK)
        fail_msg("%s -> %s: %s", src->name, dst->name, err.message);
    return out;
}

static ak_clip *retarget(const rig *src, const rig *dst, const ak_clip *clip,
                         ak_retarget_info *info)
{
    return retarget_with(src, dst, clip, info, 1);
}

/* The source as the retarget sees it (retarget_ref.c): re-rested on its reference pose (its
 * feet set flat from its stance), the same positions in every frame; the feet's rest
 * directions (frame_directions) are the reference's. `ref` is freed by the caller. */
static rig reference_rig(const rig *src, const rig *dst, akr_rested *ref)
{
    ak_retarget_params p = ak_retarget_defaults();
    p.source = src->s;
    p.source_clip = src->c;
    p.target = dst->s;
    ak_error err;
    if (akr_reference_source(&p, &src->map, ref, &err) != AK_OK) fail_msg("%s", err.message);
    rig r = *src;
    if (ref->skeleton) {
        r.s = ref->skeleton;
        r.c = ref->clip;
    }
    return r;
}

/* Every ordered pair of different rigs: the four bounds, on every frame. */
static void retarget_every_pair_keeps_directions_contacts_floor(void **state)
{
    (void)state;
    int failures = 0;
    printf("%-10s %-10s %7s %-26s %9s %9s %9s %9s %5s\n", "source", "target", "dir deg",
           "(bone, frame)", "skate src", "skate dst", "below src", "below dst", "flips");
    for (int i = 0; i < RIG_COUNT; ++i)
        for (int k = 0; k < RIG_COUNT; ++k) {
            if (i == k) continue;
            ak_retarget_info info;
            ak_clip *out = retarget(&g_rig[i], &g_rig[k], g_rig[i].c, &info);
            akr_rested ref;
            const rig src = reference_rig(&g_rig[i], &g_rig[k], &ref);
            pair_result r = measure_pair(&src, &g_rig[k], out, &info);
            akr_rested_free(&ref);
            char where[64];
            snprintf(where, sizeof where, "(%s, %d)", ak_humanoid_slot_name(k_bones[r.dir_bone][0]),
                     r.dir_frame);
            int ok = r.dir_deg <= 5.0 && r.skate_dst <= r.skate_src + 0.005 &&
                     r.below_dst <= 0.005 && r.flips == 0;
            printf("%-10s %-10s %7.2f %-26s %9.4f %9.4f %9.4f %9.4f %5d%s  (below: %s, %d; stance "
                   "%d)\n",
                   g_rig[i].name, g_rig[k].name, r.dir_deg, where, r.skate_src, r.skate_dst,
                   r.below_src, r.below_dst, r.flips, ok ? "" : "  FAIL",
                   r.below_joint >= 0 ? g_rig[k].s->names[r.below_joint] : "-", r.below_frame,
                   r.stance_frames);
            failures += !ok;
            ak_clip_destroy(out);
        }
    assert_int_equal(failures, 0);
}

/* Largest world position difference between two clips on one skeleton, every frame, over the
 * joints with mask[j] != 0 (all when mask is NULL); where (joint, frame) when `where` is not
 * NULL. */
static double max_position_error_at(const ak_skeleton *s, const ak_clip *a, const ak_clip *b,
                                    const uint8_t *mask, int *where)
{
    size_t n = (size_t)s->joint_count;
    ak_xform *la = (ak_xform *)malloc(sizeof(ak_xform) * n),
             *wa = (ak_xform *)malloc(sizeof(ak_xform) * n);
    ak_xform *lb = (ak_xform *)malloc(sizeof(ak_xform) * n),
             *wb = (ak_xform *)malloc(sizeof(ak_xform) * n);
    double worst = 0.0;
    for (int32_t f = 0; f < a->frame_count; ++f) {
        ak_clip_frame(a, s, f, la);
        ak_fk(s, la, wa);
        ak_clip_frame(b, s, f, lb);
        ak_fk(s, lb, wb);
        for (size_t j = 0; j < n; ++j) {
            if (mask && !mask[j]) continue;
            double e = ak_vec3_length(ak_vec3_sub(wa[j].translation, wb[j].translation));
            if (e > worst && where) {
                where[0] = (int)j;
                where[1] = (int)f;
            }
            worst = fmax(worst, e);
        }
    }
    free(la);
    free(wa);
    free(lb);
    free(wb);
    return worst;
}

/* The joints of rig `r` a trip through rig `via` can carry: humanoid joints whose slot `via`
 * has, as it has every humanoid slot on their path from the hips. */
static void carried_joints(const rig *r, const rig *via, uint8_t *mask)
{
    for (int32_t j = 0; j < r->s->joint_count; ++j) {
        mask[j] = 0;
        int has_slot = 0, ok = 1;
        for (int32_t a = j; a >= 0; a = r->s->parents[a])
            for (int slot = 0; slot < AK_HUM_SLOT_COUNT; ++slot)
                if (r->map.joint[slot] == a) {
                    if (a == j) has_slot = 1;
                    if (via->map.joint[slot] < 0) ok = 0;
                }
        mask[j] = (uint8_t)(has_slot && ok);
    }
}

static double max_position_error(const ak_skeleton *s, const ak_clip *a, const ak_clip *b)
{
    return max_position_error_at(s, a, b, NULL, NULL);
}

/* Source -> target -> source (the transfer, contacts off: pins deliberately remove the
 * source's own skate) comes back within 2% of the source's height on every joint the trip can
 * carry, every frame. The figure over all joints is printed too: fingers, toes and hands a
 * rig lacks come back at rest, and a one-joint spine cannot carry a two-joint spine's bend. */
static void retarget_round_trip_within_two_percent_of_height(void **state)
{
    (void)state;
    int failures = 0;
    for (int i = 0; i < RIG_COUNT; ++i) {
        const float height = ak_clip_standing_height(g_rig[i].c, g_rig[i].s);
        uint8_t *mask = (uint8_t *)malloc((size_t)g_rig[i].s->joint_count);
        for (int k = 0; k < RIG_COUNT; ++k) {
            if (i == k) continue;
            ak_retarget_info info;
            ak_clip *there = retarget_with(&g_rig[i], &g_rig[k], g_rig[i].c, &info, 0);
            rig via = g_rig[k];
            via.stance[0] = g_rig[i].stance[0];
            via.stance[1] = g_rig[i].stance[1];
            ak_clip *back = retarget_with(&via, &g_rig[i], there, &info, 0);
            carried_joints(&g_rig[i], &g_rig[k], mask);
            int where[2] = {0, 0}, where_all[2] = {0, 0};
            double e = max_position_error_at(g_rig[i].s, g_rig[i].c, back, mask, where) / height;
            double all =
                max_position_error_at(g_rig[i].s, g_rig[i].c, back, NULL, where_all) / height;
            printf("round trip %-10s via %-10s: carried joints %.3f%% of height (%s, frame %d); "
                   "all joints %.3f%% (%s)\n",
                   g_rig[i].name, g_rig[k].name, 100.0 * e, g_rig[i].s->names[where[0]], where[1],
                   100.0 * all, g_rig[i].s->names[where_all[0]]);
            failures += e > 0.02;
            ak_clip_destroy(there);
            ak_clip_destroy(back);
        }
        free(mask);
    }
    assert_int_equal(failures, 0);
}

/* A rig onto itself (no contacts): every joint maps to itself and rest offsets are identity,
 * so the motion comes back exactly. ReActIdle is left out: its clip animates every joint's
 * translation (position channels) and the output keeps rest translations below the hips. */
static void retarget_rig_onto_itself_is_exact(void **state)
{
    (void)state;
    for (int i = 0; i < RIG_COUNT; ++i) {
        if (g_rig[i].c->track_count > 1) continue;
        ak_retarget_info info;
        ak_clip *out = retarget_with(&g_rig[i], &g_rig[i], g_rig[i].c, &info, 0);
        AKT_NEAR(info.scale, 1.0, 1e-6);
        assert_int_equal(info.rest_joints + info.chain_joints, 0);
        const float height = ak_clip_standing_height(g_rig[i].c, g_rig[i].s);
        /* float FK through two different products: 1e-5 of the height */
        assert_true(max_position_error(g_rig[i].s, g_rig[i].c, out) <= 1e-5 * height + 1e-6);
        ak_clip_destroy(out);
    }
}

/* The A-pose rig written as GLB and read back by the skin reader: same joints, names,
 * parents and rest world positions (float precision of the file's matrices). */
static void retarget_gltf_skin_reads_back_rig(void **state)
{
    (void)state;
    const rig *a = &g_rig[4];
    uint8_t *data = NULL;
    size_t size = 0;
    ak_error err;
    ak_gltf_params opt = ak_gltf_defaults();
    assert_int_equal(ak_gltf_write_memory(a->s, NULL, &opt, 1, &data, &size, &err), AK_OK);
    ak_skeleton *back = NULL;
    if (ak_gltf_read_skin_memory(data, size, NULL, 0, &back, &err) != AK_OK)
        fail_msg("read: %s", err.message);
    assert_int_equal(back->joint_count, a->s->joint_count);
    ak_xform *wa = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)a->s->joint_count);
    ak_xform *wb = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)a->s->joint_count);
    ak_fk(a->s, a->s->rest_local, wa);
    ak_fk(back, back->rest_local, wb);
    for (int32_t j = 0; j < a->s->joint_count; ++j) {
        assert_string_equal(back->names[j], a->s->names[j]);
        assert_int_equal(back->parents[j], a->s->parents[j]);
        assert_true(ak_vec3_length(ak_vec3_sub(wa[j].translation, wb[j].translation)) < 1e-5f);
        assert_true(quat_angle(wa[j].rotation, wb[j].rotation) < 1e-3);
    }
    free(wa);
    free(wb);
    ak_skeleton_destroy(back);
    ak_free(data);
}

/* Reads a skin and returns the rest world position of joint `name`. */
static ak_vec3 rest_world_of(const ak_skeleton *s, const char *name)
{
    ak_xform w[16];
    assert_true(s->joint_count <= 16);
    ak_fk(s, s->rest_local, w);
    int32_t j = ak_skeleton_find(s, name);
    if (j < 0) fail_msg("no joint %s", name);
    return w[j].translation;
}

/* Inverse bind matrices set the rest pose (the bind pose), whether they come from a GLB's BIN
 * chunk, a data: URI or a .bin file beside the .gltf; the nodes' own TRS (a Mixamo-style
 * armature at scale 0.01 with the hips in centimetres and turned 90 degrees) do not. The
 * files hold Hips bound at (0,1,0) and Spine at (0,1.1,0) with identity rotations. */
static void retarget_gltf_skin_rest_is_the_bind_pose(void **state)
{
    (void)state;
    const char *src = getenv("AK_SOURCE_DIR"), *build = getenv("AK_BUILD_DIR");
    if (!src || !build) fail_msg("AK_SOURCE_DIR / AK_BUILD_DIR not set (run through ctest)");
    char path[1200];
    static const char *const files[2] = {"ibm.glb", "ibm_data_uri.gltf"};
    ak_error err;
    for (int i = 0; i < 3; ++i) {
        ak_skeleton *s = NULL;
        if (i < 2) {
            snprintf(path, sizeof path, "%s/fuzz/corpus/gltf_skin/%s", src, files[i]);
        } else {
            /* the same document with its buffer in a file beside it */
            char bin[1200], doc[2048];
            snprintf(bin, sizeof bin, "%s/tests/retarget_ibm_%d.bin", build, (int)getpid());
            snprintf(path, sizeof path, "%s/tests/retarget_ibm_%d.gltf", build, (int)getpid());
            const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1,    0, 1,
                                   1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1.1f, 0, 1};
            FILE *f = fopen(bin, "wb");
            assert_non_null(f);
            assert_int_equal(fwrite(ibm, sizeof ibm, 1, f), 1);
            fclose(f);
            const char *base = strrchr(bin, '/') + 1;
            snprintf(
                doc, sizeof doc,
                "{\"nodes\": [{\"name\": \"Armature\", \"scale\": [0.01, 0.01, 0.01], "
                "\"children\": [1]},"
                " {\"name\": \"mixamorig:Hips\", \"translation\": [0, 100, 0], \"children\": [2]},"
                " {\"name\": \"mixamorig:Spine\", \"translation\": [0, 10, 0]}],"
                " \"skins\": [{\"joints\": [1, 2], \"inverseBindMatrices\": 0}],"
                " \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 2, "
                "\"type\": \"MAT4\"}],"
                " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 128}],"
                " \"buffers\": [{\"byteLength\": 128, \"uri\": \"%s\"}]}",
                base);
            f = fopen(path, "wb");
            assert_non_null(f);
            fputs(doc, f);
            fclose(f);
        }
        if (ak_gltf_read_skin_file(path, 0, &s, &err) != AK_OK)
            fail_msg("%s: %s", path, err.message);
        assert_int_equal(s->joint_count, 3); /* the armature above the joints comes too */
        ak_vec3 h = rest_world_of(s, "mixamorig:Hips"), sp = rest_world_of(s, "mixamorig:Spine");
        AKT_NEAR(h.y, 1.0, 1e-6);
        AKT_NEAR(sp.y, 1.1, 1e-6);
        AKT_NEAR(h.x, 0.0, 1e-6);
        assert_true(quat_angle(s->rest_local[1].rotation, ak_quat_identity()) < 1e-6);
        ak_skeleton_destroy(s);
    }
    remove(path);
    snprintf(path, sizeof path, "%s/tests/retarget_ibm_%d.bin", build, (int)getpid());
    remove(path);
    ak_skeleton *s = NULL;
    assert_int_equal(ak_gltf_read_skin_file("no/such/file.glb", 0, &s, &err), AK_ERR_IO);
    assert_null(s);
}

/* glTF input that is wrong fails with a clear status, never a skeleton. */
static void retarget_gltf_reader_rejects_bad_files(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        "{",
        "[]",
        "{\"nodes\": []}",
        "{\"nodes\": [{}], \"skins\": []}",
        "{\"nodes\": [{\"children\": [0]}], \"skins\": [{\"joints\": [0]}]}",
        "{\"nodes\": [{}], \"skins\": [{\"joints\": [3]}]}",
        "{\"nodes\": [{\"rotation\": [0, 0, 0, 0]}], \"skins\": [{\"joints\": [0]}]}",
        "{\"nodes\": [{\"scale\": [1, 0, 1]}], \"skins\": [{\"joints\": [0]}]}",
        "{\"nodes\": [{}], \"skins\": [{\"joints\": [0], \"inverseBindMatrices\": 0}]}",
        "{\"nodes\": [{\"translation\": [1e999, 0, 0]}], \"skins\": [{\"joints\": [0]}]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ak_skeleton *s = (ak_skeleton *)&s;
        ak_error err;
        int32_t st =
            ak_gltf_read_skin_memory((const uint8_t *)bad[i], strlen(bad[i]), NULL, 0, &s, &err);
        if (st >= 0) fail_msg("accepted: %s", bad[i]);
        assert_null(s);
        assert_true(err.message[0] != '\0');
    }
    ak_skeleton *s = NULL;
    ak_error err;
    const char *ok = "{\"nodes\": [{\"name\": \"Hips\", \"children\": [1]}, {\"name\": \"Spine\", "
                     "\"translation\": [0, 0.1, 0]}],"
                     " \"skins\": [{\"joints\": [0, 1]}]}";
    assert_int_equal(ak_gltf_read_skin_memory((const uint8_t *)ok, strlen(ok), NULL, 0, &s, &err),
                     AK_OK);
    assert_int_equal(s->joint_count, 2);
    AKT_NEAR(s->rest_local[1].translation.y, 0.1, 1e-7);
    ak_skeleton_destroy(s);
}

/* Issue 26: a rig whose bones all have zero length is refused (it retargeted with a silent
 * "leg ratio 1"), as source and as target. */
static void retarget_refuses_zero_length_rigs(void **state)
{
    (void)state;
    const ak_skeleton *s = g_rig[0].s;
    const int32_t J = s->joint_count;
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    for (int32_t j = 0; j < J; ++j) {
        rest[j] = s->rest_local[j];
        rest[j].translation = ak_vec3_make(0.0f, 0.0f, 0.0f);
        names[j] = s->names[j];
    }
    ak_skeleton_desc d = {J, names, s->parents, rest, s->channels, s->is_end_site};
    ak_skeleton *flat = NULL;
    ak_error err;
    assert_int_equal(ak_skeleton_create(&d, &flat, &err), AK_OK);
    ak_retarget_params p = ak_retarget_defaults();
    p.source = s;
    p.source_clip = g_rig[0].c;
    p.target = flat;
    ak_clip *out = NULL;
    assert_int_equal(ak_retarget_run(&p, &out, NULL, &err), AK_ERR_DEGENERATE);
    assert_null(out);
    assert_non_null(strstr(err.message, "target rig's legs have zero length"));
    ak_retargeter *r = NULL;
    p.source = flat;
    p.source_clip = NULL;
    p.target = s;
    assert_int_equal(ak_retargeter_create(&p, &r, &err), AK_ERR_DEGENERATE);
    assert_null(r);
    assert_non_null(strstr(err.message, "source rig's legs"));
    ak_skeleton_destroy(flat);
    free(rest);
    free(names);
}

/* Bad parameters are refused with a reason; nothing is returned. */
/* --pin-hands: hands that hold still in the capture (louise on the bicycle holds the bars)
 * are pinned like stance feet: over the detector's hand stance frames the target's wrists
 * move no faster than the source's (scaled) + 5 mm/s. */
static void retarget_pins_hands_that_hold_still(void **state)
{
    (void)state;
    const rig *src = &g_rig[1], *dst = &g_rig[4];
    const int32_t n = src->c->frame_count;
    uint8_t *hand[2] = {(uint8_t *)calloc((size_t)n, 1), (uint8_t *)calloc((size_t)n, 1)};
    ak_contact_params cp = ak_contact_defaults();
    ak_error err;
    assert_int_equal(ak_foot_contacts_detect(src->s, src->c, src->map.joint[AK_HUM_LEFT_HAND],
                                             src->map.joint[AK_HUM_RIGHT_HAND], src->mpu, &cp,
                                             hand[0], hand[1], &err),
                     AK_OK);
    ak_retarget_params p = ak_retarget_defaults();
    p.source = src->s;
    p.source_clip = src->c;
    p.target = dst->s;
    p.pin_hands = 1;
    ak_clip *out = NULL;
    ak_retarget_info info;
    assert_int_equal(ak_retarget_run(&p, &out, &info, &err), AK_OK);
    assert_true(info.stance_frames[2] + info.stance_frames[3] > 0);
    frame_buffers b = buffers_make(src, dst);
    double sum_s = 0.0, sum_d = 0.0;
    int count = 0;
    ak_vec3 prev_s[2] = {{0}}, prev_d[2] = {{0}};
    for (int32_t f = 0; f < n; ++f) {
        ak_clip_frame(src->c, src->s, f, b.sl);
        ak_fk(src->s, b.sl, b.sw);
        ak_clip_frame(out, dst->s, f, b.dl);
        ak_fk(dst->s, b.dl, b.dw);
        for (int side = 0; side < 2; ++side) {
            ak_vec3 ps =
                b.sw[src->map.joint[side ? AK_HUM_RIGHT_HAND : AK_HUM_LEFT_HAND]].translation;
            ak_vec3 pd =
                b.dw[dst->map.joint[side ? AK_HUM_RIGHT_HAND : AK_HUM_LEFT_HAND]].translation;
            if (f > 0 && (hand[side][f] & hand[side][f - 1] & AK_CONTACT_HEEL)) {
                sum_s += ak_vec3_length(ak_vec3_sub(ps, prev_s[side])) / src->c->frame_time *
                         info.scale * dst->mpu;
                sum_d +=
                    ak_vec3_length(ak_vec3_sub(pd, prev_d[side])) / src->c->frame_time * dst->mpu;
                ++count;
            }
            prev_s[side] = ps;
            prev_d[side] = pd;
        }
    }
    printf("pinned hands: %d hand stance frames, source %.4f m/s (scaled), target %.4f m/s\n",
           count, count ? sum_s / count : 0.0, count ? sum_d / count : 0.0);
    assert_true(count > 0);
    assert_true(sum_d / count <= sum_s / count + 0.005);
    buffers_free(&b);
    ak_clip_destroy(out);
    free(hand[0]);
    free(hand[1]);
}

/* The CMU walk retargeted onto the built-in biped is a walk the walker can use: a cycle is
 * found, and the biped walks 6 m to its target on flat ground with feet on the ground. */
static void retarget_cmu_walk_drives_walker_on_biped(void **state)
{
    (void)state;
    ak_retarget_info info;
    ak_clip *out = retarget(&g_rig[0], &g_rig[3], g_rig[0].c, &info);
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    ak_walk_motion *motion = NULL;
    ak_error err;
    if (ak_walk_motion_create(g_rig[3].s, out, &mp, &motion, &err) != AK_OK)
        fail_msg("motion: %s", err.message);
    ak_walk_motion_info mi;
    ak_walk_motion_get_info(motion, &mi);
    AKT_NEAR(mi.metres_per_unit, 1.0, 1e-6); /* the biped is in metres */
    ak_terrain_params tp = ak_terrain_defaults();
    tp.kind = AK_TERRAIN_FLAT;
    ak_terrain *flat = NULL;
    assert_int_equal(ak_terrain_create(&tp, &flat, NULL), AK_OK);
    ak_ground ground = ak_terrain_ground(flat);
    ak_walker_params wp = ak_walker_defaults();
    wp.start = ak_vec3_make(-3.0f, 0, 0);
    wp.target = ak_vec3_make(3.0f, 0, 0);
    ak_walker *w = NULL;
    assert_int_equal(ak_walker_create(motion, &wp, &ground, &w, &err), AK_OK);
    ak_walker_state st;
    ak_walk_metrics m;
    ak_walk_metrics_reset(&m);
    const float dt = ak_walk_motion_clip(motion)->frame_time;
    for (int f = 0; f * dt < 20.0f; ++f) {
        assert_int_equal(ak_walker_step(w, f == 0 ? 0.0f : dt, &ground, &err), AK_OK);
        ak_walker_get_state(w, &st);
        if (st.arrived) break;
        ak_walk_metrics_add(&m, &st, ak_walker_world_pose(w), g_rig[3].map.joint[AK_HUM_HIPS],
                            f == 0 ? 0.0f : dt);
    }
    printf("walker on the retargeted walk: cycle %.2f s, stride %.2f m, arrived %d after %.2f s, "
           "skate %.4f m/s, penetration %.4f m\n",
           (double)mi.cycle_time, (double)mi.stride_length, (int)st.arrived, (double)st.time,
           (double)m.skate, (double)m.max_penetration);
    assert_true(st.arrived);
    assert_true(mi.stride_length > 0.8f && mi.stride_length < 2.0f); /* a walking stride, m */
    ak_walker_destroy(w);
    ak_terrain_destroy(flat);
    ak_walk_motion_destroy(motion);
    ak_clip_destroy(out);
}

/* ak_foot_contacts_detect gives the heel and toe bits of ak_contact_run on the ankle and its
 * first child (the ball): on the CMU walk each foot has heel-and-toe frames, toe-only frames
 * (the push-off, heel up: about a tenth of a walk cycle) and every frame equals
 * ak_contact_run's byte; before, the toe bit was dropped. */
static void foot_contacts_detect_gives_heel_and_toe(void **state)
{
    (void)state;
    const rig *r = &g_rig[0];
    const int32_t n = r->c->frame_count;
    uint8_t *d = (uint8_t *)calloc((size_t)n * 4, 1);
    ak_contact_params cp = ak_contact_defaults();
    ak_error err;
    const int32_t lf = r->map.joint[AK_HUM_LEFT_FOOT], rf = r->map.joint[AK_HUM_RIGHT_FOOT];
    assert_int_equal(ak_foot_contacts_detect(r->s, r->c, lf, rf, r->mpu, &cp, d, d + n, &err),
                     AK_OK);
    cp.skeleton = r->s;
    cp.clip = r->c;
    cp.metres_per_unit = r->mpu;
    cp.heel[0] = lf;
    cp.heel[1] = rf;
    cp.toe[0] = lf + 1; /* CMU: LeftToeBase follows LeftFoot */
    cp.toe[1] = rf + 1;
    assert_int_equal(r->s->parents[lf + 1], lf);
    assert_int_equal(r->s->parents[rf + 1], rf);
    assert_int_equal(ak_contact_run(&cp, d + 2 * n, d + 3 * n, &err), AK_OK);
    assert_memory_equal(d, d + 2 * n, (size_t)n * 2);
    for (int side = 0; side < 2; ++side) {
        int both = 0, toe_only = 0;
        for (int32_t f = 0; f < n; ++f) {
            const uint8_t b = d[(size_t)side * n + f];
            both += b == (AK_CONTACT_HEEL | AK_CONTACT_TOE);
            toe_only += b == AK_CONTACT_TOE;
        }
        printf("side %d: heel and toe %d, toe only %d of %d frames\n", side, both, toe_only,
               (int)n);
        assert_true(both > 0);
        assert_true(toe_only > 0);
    }
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(foot_contacts_detect_gives_heel_and_toe),
        cmocka_unit_test(retarget_refuses_zero_length_rigs),
        cmocka_unit_test(retarget_gltf_reader_rejects_bad_files),
        cmocka_unit_test(retarget_gltf_skin_reads_back_rig),
        cmocka_unit_test(retarget_gltf_skin_rest_is_the_bind_pose),
        cmocka_unit_test(retarget_rig_onto_itself_is_exact),
        cmocka_unit_test(retarget_every_pair_keeps_directions_contacts_floor),
        cmocka_unit_test(retarget_round_trip_within_two_percent_of_height),
        cmocka_unit_test(retarget_pins_hands_that_hold_still),
        cmocka_unit_test(retarget_cmu_walk_drives_walker_on_biped),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
