/* A library rig handed to the plugin the way a Unity script does it (ak_plugin_skeleton_create
 * and ak_plugin_clip_create, mirrored into Unity's frame), so a test can run the same call on
 * both sides: the built-in biped walk (ak_walk_clip_create, metres) by default. The library
 * side is rebuilt from the same description the plugin gets (no channels, no End Site flags),
 * so both see one skeleton. */
#ifndef AK_TEST_PLUGIN_RIG_H
#define AK_TEST_PLUGIN_RIG_H

#include "test_util.h"

#include "animkit/plugin.h"
#include "locomotion/studio_variants.h"

typedef struct akpt_rig {
    ak_skeleton *skeleton; /* the library's, right-handed, metres */
    ak_clip *clip;
    ak_handle s, c; /* the plugin's */
    int32_t joints;
} akpt_rig;

static inline ak_vec3 akpt_mirror_point(ak_vec3 p)
{
    return ak_vec3_make(p.x, p.y, -p.z);
}

static inline ak_quat akpt_mirror_rotation(ak_quat q)
{
    ak_quat m = {-q.x, -q.y, q.z, q.w};
    return m;
}

static inline ak_plugin_xform akpt_to_unity(ak_xform x)
{
    ak_plugin_xform u;
    u.rotation = akpt_mirror_rotation(x.rotation);
    u.position = akpt_mirror_point(x.translation);
    return u;
}

/* Plugin handles for skeleton `s` and clip `c` (in metres); the library copies in r. */
static inline void akpt_rig_push(akpt_rig *r, const ak_skeleton *s, const ak_clip *c)
{
    const int32_t J = s->joint_count;
    char names[4096];
    int32_t at = 0;
    ak_plugin_xform *rest = (ak_plugin_xform *)malloc(sizeof(ak_plugin_xform) * (size_t)J);
    ak_xform *pose = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)J);
    ak_plugin_xform *frames =
        (ak_plugin_xform *)malloc(sizeof(ak_plugin_xform) * (size_t)J * (size_t)c->frame_count);
    assert_true(rest && pose && frames);
    for (int32_t j = 0; j < J; ++j) {
        const int n = snprintf(names + at, sizeof names - (size_t)at, "%s", s->names[j]);
        assert_true(n > 0 && at + n + 1 < (int32_t)sizeof names);
        at += n + 1;
        rest[j] = akpt_to_unity(s->rest_local[j]);
    }
    for (int32_t f = 0; f < c->frame_count; ++f) {
        ak_clip_frame(c, s, f, pose);
        for (int32_t j = 0; j < J; ++j)
            frames[(size_t)f * J + j] = akpt_to_unity(pose[j]);
    }
    char err[256];
    int32_t st = ak_plugin_skeleton_create(J, names, at, s->parents, rest, &r->s, err, sizeof err);
    if (st != AK_OK) fail_msg("skeleton_create: %s", err);
    st = ak_plugin_clip_create(r->s, c->frame_count, c->frame_time, c->loop, frames,
                               J * c->frame_count, &r->c, err, sizeof err);
    if (st != AK_OK) fail_msg("clip_create: %s", err);
    const char **name_ptr = (const char **)malloc(sizeof(char *) * (size_t)J);
    assert_non_null(name_ptr);
    for (int32_t j = 0; j < J; ++j)
        name_ptr[j] = s->names[j];
    ak_skeleton_desc d = {J, name_ptr, s->parents, s->rest_local, NULL, NULL};
    ak_error e;
    assert_int_equal(ak_skeleton_create(&d, &r->skeleton, &e), AK_OK);
    free(name_ptr);
    r->clip = ak_clip_clone(c);
    assert_non_null(r->clip);
    r->joints = J;
    free(rest);
    free(pose);
    free(frames);
}

/* A built-in biped's walk (looping), on both sides: `wp` NULL for the defaults. */
static inline void akpt_rig_walk_with(akpt_rig *r, const ak_walk_clip_params *wp)
{
    const ak_walk_clip_params d = ak_walk_clip_defaults();
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    ak_error e;
    assert_int_equal(ak_walk_clip_create(wp ? wp : &d, &s, &c, &e), AK_OK);
    akpt_rig_push(r, s, c);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static inline void akpt_rig_walk(akpt_rig *r)
{
    akpt_rig_walk_with(r, NULL);
}

/* CMU 02_01 (`kinds` 0) or its UE4 shape (AKV_GROUND_ROOT | AKV_IK_BONES: the mannequin's
 * ik_foot_l/r and ik_hand_gun/r/l, each a copy of its foot or hand in every frame;
 * studio_variants.h), scaled to metres as Unity holds it, on both sides. */
static inline void akpt_rig_cmu(akpt_rig *r, unsigned kinds)
{
    ak_skeleton *s = NULL;
    ak_clip *c = NULL;
    akv_make("cmu_02_01_walk.bvh", kinds, &s, &c);
    float metres_per_unit = 1.0f;
    ak_units_detect_clip(s, c, &metres_per_unit);
    ak_skeleton_scale(s, metres_per_unit);
    ak_clip_scale(c, metres_per_unit);
    akpt_rig_push(r, s, c);
    ak_skeleton_destroy(s);
    ak_clip_destroy(c);
}

static inline void akpt_rig_free(akpt_rig *r)
{
    assert_int_equal(ak_plugin_destroy(r->s), AK_OK);
    assert_int_equal(ak_plugin_destroy(r->c), AK_OK);
    ak_skeleton_destroy(r->skeleton);
    ak_clip_destroy(r->clip);
    memset(r, 0, sizeof *r);
}

/* Fails unless a plugin pose is the library's mirrored within `tol` metres and 1e-5 in the
 * quaternion dot product (sign free). */
static inline void akpt_assert_mirrored(const ak_plugin_xform *plugin, const ak_xform *lib,
                                        int32_t count, float tol, const char *what)
{
    for (int32_t j = 0; j < count; ++j) {
        const ak_vec3 p = akpt_mirror_point(lib[j].translation);
        const ak_quat q = akpt_mirror_rotation(lib[j].rotation), u = plugin[j].rotation;
        const float dot = fabsf(q.x * u.x + q.y * u.y + q.z * u.z + q.w * u.w);
        const float d = ak_vec3_length(ak_vec3_sub(p, plugin[j].position));
        if (!(d <= tol && dot >= 1.0f - 1e-5f))
            fail_msg("%s: joint %d is %.3g m and dot %.8f from the library's", what, (int)j,
                     (double)d, (double)dot);
    }
}

#endif
