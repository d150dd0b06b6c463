/* The shapes other studios give the same capture, made from a shipped one in memory (issue
 * 22): a still top joint with the travel in the hips, the zero pose rotated so bones lie along
 * X (the motion unchanged), six channels on every joint, another rotation order, 30 fps,
 * centimetres, one frame line more than Frames: says, the whole file Z-up (read back turned to
 * Y-up, with a warning) (and the 30 fps file played back at 120 fps, to tell its content from
 * its rate) (and a floor bone `root` above the hips carrying their travel, Unreal's shape, alone
 * or with the UE4 mannequin's ik_foot_root and ik_hand_root beside the hips). Each variant is
 * written as BVH text and
 * read back, so the reader sees what a studio's file would give it. */
#ifndef AK_TEST_STUDIO_VARIANTS_H
#define AK_TEST_STUDIO_VARIANTS_H

#include "test_util.h"

enum {
    AKV_STILL_TOP = 1 << 0,    /* joint_Root (never moves) above the file's top joint */
    AKV_ZERO_ALONG_X = 1 << 1, /* each joint's frame turned so its first child lies along +X */
    AKV_SIX_CHANNELS = 1 << 2, /* every joint has position channels */
    AKV_ORDER_ZXY = 1 << 3,    /* rotation channels Z X Y (the files: Z Y X) */
    AKV_30_FPS = 1 << 4,       /* resampled to 30 frames per second */
    AKV_CENTIMETRES = 1 << 5,  /* lengths in centimetres */
    AKV_EXTRA_LINE = 1 << 6,   /* the last frame line twice, Frames: unchanged */
    AKV_BACK_TO_120 = 1 << 7,  /* with AKV_30_FPS: then back to 120 fps, linear between the
                                  30 fps frames (what a player shows of the 30 fps file) */
    AKV_Z_UP = 1 << 8,         /* the whole file turned +90 degrees about X (+Y to +Z): offsets,
                                  every joint's keys, the root's travel; the motion unchanged */
    AKV_60_FPS = 1 << 9,       /* resampled to 60 frames per second (not with AKV_30_FPS) */
    AKV_GROUND_ROOT = 1 << 10, /* a bone `root` on the floor above the file's top joint carries
                                  its horizontal travel (Unreal's root: no turn of its own), the
                                  top joint keeps its height and its whole turn; not with
                                  AKV_STILL_TOP */
    AKV_IK_BONES = 1 << 11     /* with AKV_GROUND_ROOT: the UE4 mannequin's other children of
                                  `root` beside the body, ik_foot_root -> ik_foot_l, ik_foot_r
                                  and ik_hand_root -> ik_hand_gun -> ik_hand_r, ik_hand_l, each
                                  ik_ bone a copy of its foot or hand (ik_hand_gun: the right
                                  hand) in every frame, six channels each (the two ik roots,
                                  which stay on `root`: three) */
};

/* Every shape at once (the 30 fps rate aside). */
#define AKV_ALL                                                                                    \
    (AKV_STILL_TOP | AKV_ZERO_ALONG_X | AKV_SIX_CHANNELS | AKV_ORDER_ZXY | AKV_CENTIMETRES |       \
     AKV_EXTRA_LINE)

/* A variant the tests run: its AKV_* bits and the name rows are printed and listed under. */
typedef struct akv_kind {
    unsigned bits;
    const char *name;
} akv_kind;

/* The variants every test runs on each capture, *count of them. */
static inline const akv_kind *akv_kinds(size_t *count)
{
    static const akv_kind kinds[] = {
        {AKV_STILL_TOP, "still top joint"},
        {AKV_ZERO_ALONG_X, "zero pose along X"},
        {AKV_SIX_CHANNELS | AKV_ORDER_ZXY, "six channels, ZXY"},
        {AKV_CENTIMETRES, "centimetres"},
        {AKV_EXTRA_LINE, "extra frame line"},
        {AKV_30_FPS, "30 fps"},
        {AKV_ALL, "all of them"},
        {AKV_Z_UP, "Z-up"},
        {AKV_GROUND_ROOT, "floor root bone"},
        {AKV_GROUND_ROOT | AKV_IK_BONES, "floor root, ik bones"},
    };
    *count = sizeof kinds / sizeof kinds[0];
    return kinds;
}

/* A row still out of a test's bound (issue 22): capture, variant name, figures. The tables
 * only shrink: a listed row that holds fails its test until it is taken out. */
typedef struct akv_out_row {
    const char *clip, *variant, *why;
} akv_out_row;

/* The figures of (clip, variant) in rows[0..n), NULL when it is not listed. */
static inline const char *akv_known_out(const akv_out_row *rows, size_t n, const char *clip,
                                        const char *variant)
{
    for (size_t k = 0; k < n; ++k)
        if (!strcmp(rows[k].clip, clip) && !strcmp(rows[k].variant, variant)) return rows[k].why;
    return NULL;
}

/* Skeleton from parallel arrays (names copied). */
static inline ak_skeleton *akv_skeleton(int32_t n, const char *const *names, const int32_t *parents,
                                        const ak_xform *rest, const ak_channel_layout *layouts,
                                        const uint8_t *end_site)
{
    ak_skeleton_desc d;
    d.joint_count = n;
    d.names = names;
    d.parents = parents;
    d.rest_local = rest;
    d.channels = layouts;
    d.is_end_site = end_site;
    ak_skeleton *s = NULL;
    ak_error err;
    if (ak_skeleton_create(&d, &s, &err) != AK_OK) fail_msg("variant skeleton: %s", err.message);
    return s;
}

/* A joint `top_name` at index 0 (zero offset, identity, six channels), the old joints below
 * it. */
static inline void akv_add_top(ak_skeleton **ps, ak_clip **pc, const char *top_name)
{
    const ak_skeleton *s = *ps;
    const ak_clip *c = *pc;
    const int32_t J = s->joint_count + 1, F = c->frame_count;
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    int32_t *parents = (int32_t *)malloc(sizeof(int32_t) * (size_t)J);
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    ak_channel_layout *lay = (ak_channel_layout *)calloc((size_t)J, sizeof *lay);
    uint8_t *end = (uint8_t *)calloc((size_t)J, 1), *has = (uint8_t *)calloc((size_t)J, 1);
    names[0] = top_name;
    parents[0] = -1;
    rest[0].rotation = ak_quat_identity();
    rest[0].translation = ak_vec3_make(0, 0, 0);
    lay[0] = s->channels[0];
    has[0] = 1;
    for (int32_t j = 1; j < J; ++j) {
        names[j] = s->names[j - 1];
        parents[j] = s->parents[j - 1] + 1;
        rest[j] = s->rest_local[j - 1];
        lay[j] = s->channels[j - 1];
        end[j] = s->is_end_site[j - 1];
        has[j] = c->joint_track[j - 1] >= 0;
    }
    ak_skeleton *ns = akv_skeleton(J, names, parents, rest, lay, end);
    ak_clip *nc = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(J, F, c->frame_time, has, &nc, &err), AK_OK);
    for (int32_t f = 0; f < F; ++f) {
        nc->rotations[(size_t)f * J] = ak_quat_identity();
        memcpy(nc->rotations + (size_t)f * J + 1, c->rotations + (size_t)f * (J - 1),
               sizeof(ak_quat) * (size_t)(J - 1));
        nc->translations[(size_t)f * nc->track_count] = ak_vec3_make(0, 0, 0);
        for (int32_t j = 1; j < J; ++j)
            if (c->joint_track[j - 1] >= 0)
                nc->translations[(size_t)f * nc->track_count + nc->joint_track[j]] =
                    c->translations[(size_t)f * c->track_count + c->joint_track[j - 1]];
    }
    ak_clip_finalize(nc);
    free(names);
    free(parents);
    free(rest);
    free(lay);
    free(end);
    free(has);
    ak_skeleton_destroy(*ps);
    ak_clip_destroy(*pc);
    *ps = ns;
    *pc = nc;
}

/* joint_Root at index 0 that never moves, the old joints below it. */
static inline void akv_still_top(ak_skeleton **ps, ak_clip **pc)
{
    akv_add_top(ps, pc, "joint_Root");
}

/* A floor bone `root` at index 0 carrying the old top joint's horizontal travel, the old
 * joints below it: the old top joint keeps its height and rotation (x, y, z -> root x, 0, z
 * and top 0, y, 0), so every old joint's model transform is unchanged. */
static inline void akv_ground_root(ak_skeleton **ps, ak_clip **pc)
{
    akv_add_top(ps, pc, "root");
    ak_clip *c = *pc;
    const int32_t t0 = c->joint_track[0], t1 = c->joint_track[1];
    assert_true(t0 >= 0 && t1 >= 0);
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_vec3 *root = &c->translations[(size_t)f * c->track_count + t0];
        ak_vec3 *top = &c->translations[(size_t)f * c->track_count + t1];
        *root = ak_vec3_make(top->x, 0.0f, top->z);
        *top = ak_vec3_make(0.0f, top->y, 0.0f);
    }
    ak_clip_finalize(c);
}

/* The UE4 mannequin's IK bones (AKV_IK_BONES), after every joint of the body under the floor
 * bone at index 0: ik_foot_root and ik_hand_root at root's origin without a turn, ik_foot_l/r
 * copies of the feet, ik_hand_gun of the right hand, ik_hand_r/l of the hands below it (each
 * copy's model transform is its joint's in every frame, as the mannequin's animations key
 * them). Every old joint's model transform is unchanged. */
enum { AKV_IK_COUNT = 7 };

/* local[J0 + k] and model[J0 + k] of the ik bones from the old joints' model transforms:
 * parent[k] -1 is the floor bone (joint 0), copy[k] -1 none (the bone sits on its parent). */
static inline void akv_ik_locals(int32_t J0, const int *parent, const int32_t *copy,
                                 ak_xform *model, ak_xform *local)
{
    for (int k = 0; k < AKV_IK_COUNT; ++k) {
        const int32_t j = J0 + k, p = parent[k] < 0 ? 0 : J0 + parent[k];
        const ak_xform want = copy[k] < 0 ? model[p] : model[copy[k]];
        local[j] = ak_xform_mul(ak_xform_inverse(model[p]), want);
        model[j] = want;
    }
}

static inline void akv_ik_bones(ak_skeleton **ps, ak_clip **pc)
{
    static const char *const ik_names[AKV_IK_COUNT] = {"ik_foot_root", "ik_foot_l",   "ik_foot_r",
                                                       "ik_hand_root", "ik_hand_gun", "ik_hand_r",
                                                       "ik_hand_l"};
    static const int ik_parent[AKV_IK_COUNT] = {-1, 0, 0, -1, 3, 4, 4}; /* -1: root */
    static const int ik_copy[AKV_IK_COUNT] = {-1,
                                              AK_HUM_LEFT_FOOT,
                                              AK_HUM_RIGHT_FOOT,
                                              -1,
                                              AK_HUM_RIGHT_HAND,
                                              AK_HUM_RIGHT_HAND,
                                              AK_HUM_LEFT_HAND};
    const ak_skeleton *s = *ps;
    const ak_clip *c = *pc;
    ak_humanoid h;
    ak_error err;
    if (ak_humanoid_find(s, NULL, &h, &err) != AK_OK) fail_msg("ik bones: %s", err.message);
    const int32_t J0 = s->joint_count, J = J0 + AKV_IK_COUNT, F = c->frame_count;
    int32_t copy_of[AKV_IK_COUNT];
    for (int k = 0; k < AKV_IK_COUNT; ++k) {
        copy_of[k] = ik_copy[k] < 0 ? -1 : h.joint[ik_copy[k]];
        if (ik_copy[k] >= 0 && copy_of[k] < 0) fail_msg("ik bones: no joint for %s", ik_names[k]);
    }
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    int32_t *parents = (int32_t *)malloc(sizeof(int32_t) * (size_t)J);
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    ak_channel_layout *lay = (ak_channel_layout *)calloc((size_t)J, sizeof *lay);
    uint8_t *end = (uint8_t *)calloc((size_t)J, 1), *has = (uint8_t *)calloc((size_t)J, 1);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    ak_xform *model = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    for (int32_t j = 0; j < J0; ++j) {
        names[j] = s->names[j];
        parents[j] = s->parents[j];
        rest[j] = s->rest_local[j];
        lay[j] = s->channels[j];
        end[j] = s->is_end_site[j];
        has[j] = c->joint_track[j] >= 0;
    }
    ak_fk(s, s->rest_local, model);
    /* the two ik roots never move off `root`: rotation channels only (a child of the floor
     * bone without a translation track, which the motion database gives one: db.c) */
    ak_channel_layout rotation_only = s->channels[0];
    for (int32_t j = 0; j < J0; ++j)
        if (s->channels[j].count == 3) rotation_only = s->channels[j];
    for (int k = 0; k < AKV_IK_COUNT; ++k) {
        names[J0 + k] = ik_names[k];
        parents[J0 + k] = ik_parent[k] < 0 ? 0 : J0 + ik_parent[k];
        lay[J0 + k] = ik_parent[k] < 0 ? rotation_only : s->channels[0];
        has[J0 + k] = ik_parent[k] >= 0;
    }
    akv_ik_locals(J0, ik_parent, copy_of, model, local);
    for (int k = 0; k < AKV_IK_COUNT; ++k)
        rest[J0 + k] = local[J0 + k];
    ak_skeleton *ns = akv_skeleton(J, names, parents, rest, lay, end);
    ak_clip *nc = NULL;
    assert_int_equal(ak_clip_create(J, F, c->frame_time, has, &nc, &err), AK_OK);
    for (int32_t f = 0; f < F; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        akv_ik_locals(J0, ik_parent, copy_of, model, local);
        for (int32_t j = 0; j < J; ++j) {
            nc->rotations[(size_t)f * J + j] = local[j].rotation;
            if (nc->joint_track[j] >= 0)
                nc->translations[(size_t)f * nc->track_count + nc->joint_track[j]] =
                    local[j].translation;
        }
    }
    ak_clip_finalize(nc);
    free(names);
    free(parents);
    free(rest);
    free(lay);
    free(end);
    free(has);
    free(local);
    free(model);
    ak_skeleton_destroy(*ps);
    ak_clip_destroy(*pc);
    *ps = ns;
    *pc = nc;
}

/* The farthest the UE4 shape's ik bones (AKV_IK_BONES) are from the feet and hands they copy in
 * one pose of `s` (model or world transforms, any frame, a mirrored one too: only distances
 * count): ik_foot_l/r from the feet, ik_hand_gun and ik_hand_r from the right hand, ik_hand_l
 * from the left (humanoid map), the pose's units. Fails when a bone is missing. */
static inline double akv_ik_bones_apart_pose(const ak_skeleton *s, const ak_xform *model)
{
    static const char *const names[5] = {"ik_foot_l", "ik_foot_r", "ik_hand_gun", "ik_hand_r",
                                         "ik_hand_l"};
    static const int slots[5] = {AK_HUM_LEFT_FOOT, AK_HUM_RIGHT_FOOT, AK_HUM_RIGHT_HAND,
                                 AK_HUM_RIGHT_HAND, AK_HUM_LEFT_HAND};
    ak_humanoid h;
    ak_error err;
    if (ak_humanoid_find(s, NULL, &h, &err) != AK_OK) fail_msg("ik bones: %s", err.message);
    double worst = 0.0;
    for (int k = 0; k < 5; ++k) {
        const int32_t bone = ak_skeleton_find(s, names[k]), target = h.joint[slots[k]];
        if (bone < 0 || target < 0) fail_msg("ik bones: no %s or its joint", names[k]);
        const double d =
            (double)ak_vec3_length(ak_vec3_sub(model[bone].translation, model[target].translation));
        if (!(d <= worst)) worst = d;
    }
    return worst;
}

/* The same over every frame of a clip (a variant, or what a tool made of one), model space,
 * the clip's units. */
static inline double akv_ik_bones_apart(const ak_skeleton *s, const ak_clip *c)
{
    const int32_t J = s->joint_count;
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J * 2), *model = local + J;
    double worst = 0.0;
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, local);
        ak_fk(s, local, model);
        const double d = akv_ik_bones_apart_pose(s, model);
        if (!(d <= worst)) worst = d;
    }
    free(local);
    return worst;
}

/* C_j: the rotation taking joint j's first child offset to +X (identity for tips). The new
 * offsets are C_p o_j, the new local rotations C_p L_j C_j^-1 (the top joint: L_0 C_0^-1):
 * every model-space position is unchanged, and in the zero pose bones lie along X. */
static inline void akv_zero_along_x(ak_skeleton **ps, ak_clip **pc)
{
    const ak_skeleton *s = *ps;
    ak_clip *c = *pc;
    const int32_t J = s->joint_count;
    ak_quat *C = (ak_quat *)malloc(sizeof(ak_quat) * (size_t)J);
    for (int32_t j = 0; j < J; ++j) {
        C[j] = ak_quat_identity();
        for (int32_t k = j + 1; k < J; ++k)
            if (s->parents[k] == j && ak_vec3_length(s->rest_local[k].translation) > 1e-6f) {
                C[j] = ak_quat_from_to(
                    ak_vec3_normalize_or(s->rest_local[k].translation, ak_vec3_make(1, 0, 0)),
                    ak_vec3_make(1, 0, 0));
                break;
            }
    }
    const char **names = (const char **)malloc(sizeof(char *) * (size_t)J);
    ak_xform *rest = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    for (int32_t j = 0; j < J; ++j) {
        names[j] = s->names[j];
        const int32_t p = s->parents[j];
        rest[j].rotation = ak_quat_identity();
        rest[j].translation = p < 0 ? s->rest_local[j].translation
                                    : ak_quat_rotate(C[p], s->rest_local[j].translation);
    }
    ak_skeleton *ns = akv_skeleton(J, names, s->parents, rest, s->channels, s->is_end_site);
    for (int32_t f = 0; f < c->frame_count; ++f)
        for (int32_t j = 0; j < J; ++j) {
            const int32_t p = s->parents[j];
            ak_quat *q = &c->rotations[(size_t)f * J + j];
            const ak_quat right = ak_quat_conjugate(C[j]);
            *q = p < 0 ? ak_quat_mul(*q, right) : ak_quat_mul(C[p], ak_quat_mul(*q, right));
            const int32_t tr = c->joint_track[j];
            if (tr >= 0 && p >= 0) {
                ak_vec3 *t = &c->translations[(size_t)f * c->track_count + tr];
                *t = ak_quat_rotate(C[p], *t);
            }
        }
    ak_clip_finalize(c);
    free(C);
    free(names);
    free(rest);
    ak_skeleton_destroy(*ps);
    *ps = ns;
}

/* The whole file turned by R, +90 degrees about X (+Y to +Z), as a Z-up tool writes it: every
 * model-space transform M becomes R M R^-1, so offsets R o, every rotation key R q R^-1 and
 * every translation key R t (the root's travel included). The reader turns it back
 * (ak_clip_turn_z_up, -90 degrees). */
static inline void akv_z_up(ak_skeleton *s, ak_clip *c)
{
    const float h = 0.70710678f;
    const ak_quat r = {h, 0.0f, 0.0f, h}, ri = ak_quat_conjugate(r);
    for (int32_t j = 0; j < s->joint_count; ++j)
        s->rest_local[j].translation = ak_quat_rotate(r, s->rest_local[j].translation);
    const size_t keys = (size_t)c->frame_count * (size_t)c->joint_count;
    for (size_t k = 0; k < keys; ++k)
        c->rotations[k] = ak_quat_mul(r, ak_quat_mul(c->rotations[k], ri));
    const size_t moves = (size_t)c->frame_count * (size_t)c->track_count;
    for (size_t k = 0; k < moves; ++k)
        c->translations[k] = ak_quat_rotate(r, c->translations[k]);
    ak_clip_finalize(c);
}

/* Every joint (End Sites aside) with a translation track (its offset where it had none). */
static inline void akv_six_channels(const ak_skeleton *s, ak_clip **pc)
{
    const ak_clip *c = *pc;
    const int32_t J = s->joint_count;
    uint8_t *has = (uint8_t *)malloc((size_t)J);
    for (int32_t j = 0; j < J; ++j)
        has[j] = (uint8_t)(!s->is_end_site[j] || c->joint_track[j] >= 0);
    ak_clip *nc = NULL;
    ak_error err;
    assert_int_equal(ak_clip_create(J, c->frame_count, c->frame_time, has, &nc, &err), AK_OK);
    memcpy(nc->rotations, c->rotations, sizeof(ak_quat) * (size_t)J * (size_t)c->frame_count);
    for (int32_t f = 0; f < c->frame_count; ++f)
        for (int32_t j = 0; j < J; ++j) {
            const int32_t tr = nc->joint_track[j];
            if (tr < 0) continue;
            nc->translations[(size_t)f * nc->track_count + tr] =
                c->joint_track[j] >= 0
                    ? c->translations[(size_t)f * c->track_count + c->joint_track[j]]
                    : s->rest_local[j].translation;
        }
    ak_clip_finalize(nc);
    free(has);
    ak_clip_destroy(*pc);
    *pc = nc;
}

/* A reference T-pose frame 0 (some joint turns over 20 degrees into frame k) has frames
 * 1..k-1 blending from it when a 30 fps file is played at 120 fps: they are made frame k's
 * pose, so the file's first motion frame follows its reference frame as in a capture. */
static inline void akv_hold_after_reference(ak_clip *c, int32_t k)
{
    const int32_t J = c->joint_count;
    if (c->frame_count <= k) return;
    int reference = 0;
    for (int32_t j = 0; j < J; ++j)
        if (fabsf(ak_quat_dot(c->rotations[j], c->rotations[(size_t)k * J + j])) <
            cosf(0.5f * 0.349f))
            reference = 1;
    if (!reference) return;
    for (int32_t f = 1; f < k; ++f) {
        memcpy(c->rotations + (size_t)f * J, c->rotations + (size_t)k * J,
               sizeof(ak_quat) * (size_t)J);
        memcpy(c->translations + (size_t)f * c->track_count,
               c->translations + (size_t)k * c->track_count,
               sizeof(ak_vec3) * (size_t)c->track_count);
    }
    ak_clip_finalize(c);
}

/* The BVH text of the variant `kinds` (AKV_* bits) of `name` from the mocap folder (a name
 * starting with '/': that file); malloc'ed, NUL-terminated, *size bytes. */
static inline char *akv_text(const char *name, unsigned kinds, size_t *out_size)
{
    char path[1024];
    ak_error err;
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    if (name[0] == '/')
        snprintf(path, sizeof path, "%s", name);
    else
        akt_mocap_path(name, path, sizeof path);
    if (ak_bvh_read_file(path, NULL, &s, &c, &err) != AK_OK) fail_msg("%s: %s", path, err.message);
    if (kinds & (AKV_30_FPS | AKV_60_FPS)) {
        ak_edit_resample_params rp = ak_edit_resample_defaults();
        rp.frame_time = (kinds & AKV_30_FPS) ? 1.0f / 30.0f : 1.0f / 60.0f;
        ak_clip *r = NULL;
        assert_int_equal(ak_edit_resample_run(&rp, s, c, &r, &err), AK_OK);
        ak_clip_destroy(c);
        c = r;
        if (kinds & AKV_BACK_TO_120) {
            rp.frame_time = 1.0f / 120.0f;
            rp.interp = AK_INTERP_LINEAR;
            assert_int_equal(ak_edit_resample_run(&rp, s, c, &r, &err), AK_OK);
            ak_clip_destroy(c);
            c = r;
            akv_hold_after_reference(c, 4);
        }
    }
    if (kinds & AKV_CENTIMETRES) {
        float mpu = 1.0f;
        ak_units_detect(ak_clip_standing_height(c, s), &mpu);
        ak_skeleton_scale(s, mpu * 100.0f);
        ak_clip_scale(c, mpu * 100.0f);
    }
    if (kinds & AKV_STILL_TOP) akv_still_top(&s, &c);
    if (kinds & AKV_GROUND_ROOT) akv_ground_root(&s, &c);
    if (kinds & AKV_IK_BONES) akv_ik_bones(&s, &c);
    if (kinds & AKV_ZERO_ALONG_X) akv_zero_along_x(&s, &c);
    if (kinds & AKV_SIX_CHANNELS) akv_six_channels(s, &c);
    if (kinds & AKV_Z_UP) akv_z_up(s, c);
    char *text = NULL;
    size_t size = 0;
    const ak_rot_order order = (kinds & AKV_ORDER_ZXY) ? AK_ORDER_ZXY : AK_ORDER_ZYX;
    assert_int_equal(ak_bvh_write_memory(s, c, order, &text, &size, &err), AK_OK);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
    if (kinds & AKV_EXTRA_LINE) {
        size_t last = size - 1; /* the text ends with "\n": find the last line's start */
        while (last > 0 && text[last - 1] != '\n')
            --last;
        char *more = (char *)malloc(size + (size - last) + 1);
        memcpy(more, text, size);
        memcpy(more + size, text + last, size - last);
        size += size - last;
        more[size] = '\0';
        ak_free(text);
        text = more;
    } else {
        char *copy = (char *)malloc(size + 1);
        memcpy(copy, text, size + 1);
        ak_free(text);
        text = copy;
    }
    *out_size = size;
    return text;
}

/* Writes the BVH text of the variant `kinds` of `name` (akv_text) to the file `path`. */
static inline void akv_write(const char *name, unsigned kinds, const char *path)
{
    size_t size = 0;
    char *text = akv_text(name, kinds, &size);
    FILE *f = fopen(path, "wb");
    if (!f) fail_msg("cannot write %s", path);
    assert_int_equal(fwrite(text, 1, size, f), size);
    fclose(f);
    free(text);
}

/* The variant read back as skeleton + clip (the extra line's warning checked). */
static inline void akv_make(const char *name, unsigned kinds, ak_skeleton **out_s, ak_clip **out_c)
{
    size_t size = 0;
    ak_error err;
    char *text = akv_text(name, kinds, &size);
    if (ak_bvh_read_memory(text, size, NULL, out_s, out_c, &err) != AK_OK)
        fail_msg("%s variant %#x: line %d: %s", name, kinds, (int)err.line, err.message);
    if (!(kinds & AKV_EXTRA_LINE))
        assert_int_equal(err.line, 0);
    else
        assert_true(err.line > 0); /* the warning */
    /* A Z-up file is turned to Y-up on reading, and said; no other variant is. */
    if ((kinds & AKV_Z_UP) && !strstr(err.message, "the rig stands along +Z: read as Z-up"))
        fail_msg("%s variant %#x: no Z-up warning: '%s'", name, kinds, err.message);
    if (!(kinds & AKV_Z_UP) && strstr(err.message, "+Z"))
        fail_msg("%s variant %#x: '%s'", name, kinds, err.message);
    free(text);
}

#endif
