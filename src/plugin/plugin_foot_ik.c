/* Standalone foot IK behind a handle: the library's foot IK (locomotion.h) for any clip,
 * in the two-phase form. The calibration is the walk motion's (ak_foot_calibrate: the clip's
 * floor, each ankle's height above it in stance, the foot's up axis seen from the ankle),
 * over the whole clip because there is no walk cycle.
 *
 * Frames: callers pass model-space poses and a world placement in Unity's frame; the solve
 * runs in animkit's right-handed world on scratch buffers allocated at create, so the
 * per-frame calls allocate nothing. */
#include "plugin/plugin_internal.h"

#include "animkit/locomotion.h"
#include "core/xform_inline.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct akp_foot_ik {
    akp_object hdr;
    akp_skeleton *skeleton; /* retained */
    int32_t joint_count;
    ak_foot_ik_params params;
    ak_foot_ik_state state;
    uint8_t *contacts[2]; /* per clip frame */
    int32_t frame_count;
    float frame_time;
    int32_t loop;
    float floor_y; /* the clip's floor, model space */
    float ray_up, ray_down;
    ak_xform *local; /* scratch, world space (right-handed) */
    ak_xform *world;
    ak_xform character; /* right-handed, from phase 1 */
    int32_t stance[2], stance_next[2];
    int32_t have_rays;
    int32_t stance_override[2]; /* -1: contacts from the clip; else the caller's AK_CONTACT_* */
    int32_t contact[2];         /* this frame's AK_CONTACT_* bits (0: swing) */
    int32_t has_toe[2]; /* a toe joint was calibrated (params.legs[s].toe_local is its contact);
                           the solve itself keeps one contact point per foot */
} akp_foot_ik;

static void foot_ik_free(akp_object *obj)
{
    akp_foot_ik *f = (akp_foot_ik *)obj;
    free(f->contacts[0]);
    free(f->local);
    if (f->skeleton) akp_release(&f->skeleton->hdr);
    free(f);
}

AK_PLUGIN_API int32_t ak_plugin_foot_ik_defaults(ak_plugin_foot_ik_params *out)
{
    if (!out) return AK_ERR_INVALID_ARG;
    const ak_foot_ik_params d = ak_foot_ik_defaults();
    memset(out, 0, sizeof *out);
    out->weight = d.weight;
    out->max_tilt_deg = d.max_tilt * 180.0f / AK_PI; /* radians -> degrees */
    out->max_hip_drop = d.max_hip_drop;
    out->hip_drop_rate = d.hip_drop_rate;
    out->pole_distance = d.pole_distance;
    out->lock_feet = d.lock_feet;
    out->ray_up = 0.5f;
    out->ray_down = 1.0f;
    return AK_OK;
}

/* Floor, sole heights and foot up axes from the clip: the library's rule
 * (ak_foot_calibrate), over the whole clip. */
static int32_t calibrate(akp_foot_ik *f, const ak_skeleton *sk, const ak_clip *clip,
                         const int32_t toe[2], ak_error *err)
{
    const int32_t foot[2] = {f->params.legs[0].foot, f->params.legs[1].foot};
    ak_foot_calibration cal;
    /* A one-frame clip is a reference pose (a rig's pose at mapping): both feet stand on
     * its floor, whatever contact detection makes of a single frame. */
    const int32_t one = clip->frame_count == 1;
    int32_t status = ak_foot_calibrate(sk, clip, foot, toe, one ? NULL : f->contacts[0],
                                       one ? NULL : f->contacts[1], &cal, err);
    if (status != AK_OK) return status;
    f->floor_y = cal.floor_y;
    for (int s = 0; s < 2; ++s) {
        f->params.legs[s].sole_height = cal.sole_height[s];
        f->params.legs[s].up_local = cal.up_local[s];
        f->params.legs[s].toe_local = cal.toe_local[s];
        f->params.legs[s].has_toe = cal.has_toe[s]; /* a toe-only contact rolls over the toe */
        f->has_toe[s] = cal.has_toe[s];
    }
    return AK_OK;
}

#define FOOT_RANGE(f, lo, hi)                                                                      \
    {                                                                                              \
#f, offsetof(ak_plugin_foot_ik_params, f), lo, hi, NULL, NULL                              \
    }
#define FOOT_LIB(f)                                                                                \
    {                                                                                              \
#f, offsetof(ak_plugin_foot_ik_params, f), 0.0f, 0.0f, ak_foot_ik_param_ranges, #f         \
    }
static const akp_range k_foot_ik_ranges[] = {
    FOOT_LIB(weight),
    FOOT_RANGE(max_tilt_deg, 0.0f, 89.0f), /* degrees: ak_foot_ik_params.max_tilt in radians */
    FOOT_LIB(max_hip_drop),
    FOOT_LIB(hip_drop_rate),
    FOOT_LIB(pole_distance),
    FOOT_RANGE(ray_up, 0.0f, 1e3f),
    FOOT_RANGE(ray_down, 0.0f, 1e3f),
};

/* Foot IK params from the humanoid map and the plugin's settings. */
static void foot_ik_params(akp_foot_ik *f, const ak_humanoid *hum,
                           const ak_plugin_foot_ik_params *pp)
{
    f->params = ak_foot_ik_defaults();
    const int32_t slots[2][3] = {
        {AK_HUM_LEFT_UPPER_LEG, AK_HUM_LEFT_LOWER_LEG, AK_HUM_LEFT_FOOT},
        {AK_HUM_RIGHT_UPPER_LEG, AK_HUM_RIGHT_LOWER_LEG, AK_HUM_RIGHT_FOOT}};
    for (int s = 0; s < 2; ++s) {
        f->params.legs[s].upper = hum->joint[slots[s][0]];
        f->params.legs[s].lower = hum->joint[slots[s][1]];
        f->params.legs[s].foot = hum->joint[slots[s][2]];
    }
    f->params.hips = hum->joint[AK_HUM_HIPS];
    f->params.weight = pp->weight;
    f->params.max_tilt = pp->max_tilt_deg * AK_PI / 180.0f;
    f->params.max_hip_drop = pp->max_hip_drop;
    f->params.hip_drop_rate = pp->hip_drop_rate;
    f->params.pole_distance = pp->pole_distance;
    f->params.lock_feet = pp->lock_feet;
}

/* Contacts per frame (heel of each foot) from the clip, then the sole calibration. */
static int32_t foot_ik_contacts(akp_foot_ik *f, const ak_skeleton *sk, const ak_clip *clip,
                                const int32_t toe[2], char *text, size_t size)
{
    ak_error err;
    ak_error_clear(&err);
    ak_contact_params cp = ak_contact_defaults();
    cp.skeleton = sk;
    cp.clip = clip;
    cp.metres_per_unit = 1.0f;
    for (int s = 0; s < 2; ++s)
        cp.heel[s] = f->params.legs[s].foot;
    cp.roll_height = 0.0f; /* the walker's rule: no roll bit (its foot IK pins ankles) */
    int32_t status = ak_contact_run(&cp, f->contacts[0], f->contacts[1], &err);
    if (status != AK_OK) {
        snprintf(text, size, "foot IK: contacts: %s", err.message);
    } else if ((status = calibrate(f, sk, clip, toe, &err)) != AK_OK ||
               (status = ak_foot_ik_validate(&f->params, &err)) != AK_OK) {
        snprintf(text, size, "foot IK: %s", err.message);
    }
    return status;
}

/* Buffers, checks, humanoid map, params, contacts and calibration for skeleton + clip. */
static int32_t foot_ik_setup(akp_foot_ik *f, const ak_skeleton *sk, const ak_clip *clip,
                             const ak_plugin_foot_ik_params *pp, char *text, size_t size)
{
    ak_error err;
    ak_error_clear(&err);
    ak_humanoid hum;
    int32_t status = AK_OK;
    f->joint_count = sk->joint_count;
    f->frame_count = clip->frame_count;
    f->frame_time = clip->frame_time;
    f->loop = clip->loop;
    f->ray_up = pp->ray_up;
    f->ray_down = pp->ray_down;
    f->contacts[0] = (uint8_t *)calloc((size_t)clip->frame_count * 2, 1);
    f->local = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)sk->joint_count * 2);
    if (!f->contacts[0] || !f->local) {
        snprintf(text, size, "foot IK: out of memory");
        status = AK_ERR_NOMEM;
    } else if (clip->joint_count != sk->joint_count) {
        snprintf(text, size, "foot IK: clip and skeleton were not loaded together");
        status = AK_ERR_INVALID_ARG;
    } else if (!(pp->ray_up > 0.0f) || !(pp->ray_down > 0.0f) || !isfinite(pp->ray_up) ||
               !isfinite(pp->ray_down)) {
        snprintf(text, size, "foot IK: ray_up and ray_down must be > 0");
        status = AK_ERR_INVALID_ARG;
    } else if ((status = ak_humanoid_find(sk, NULL, &hum, &err)) != AK_OK) {
        snprintf(text, size, "foot IK: %s", err.message);
    }
    if (status != AK_OK) return status;
    f->contacts[1] = f->contacts[0] + clip->frame_count;
    f->world = f->local + sk->joint_count;
    foot_ik_params(f, &hum, pp);
    f->params.skeleton = sk;
    const int32_t toe[2] = {hum.joint[AK_HUM_LEFT_TOE], hum.joint[AK_HUM_RIGHT_TOE]};
    return foot_ik_contacts(f, sk, clip, toe, text, size);
}

AK_PLUGIN_API int32_t ak_plugin_foot_ik_create(ak_handle hs, ak_handle hc,
                                               const ak_plugin_foot_ik_params *pp, ak_handle *out,
                                               char *error_buffer, int32_t error_size)
{
    int32_t status = akp_create_begin(
        pp, k_foot_ik_ranges, (int32_t)(sizeof k_foot_ik_ranges / sizeof k_foot_ik_ranges[0]),
        "foot IK", "params and out_foot_ik are required", out, error_buffer, error_size);
    if (status != AK_OK) return status;
    akp_foot_ik *f = (akp_foot_ik *)calloc(1, sizeof *f);
    if (!f) {
        akp_copy_text(error_buffer, error_size, "out of memory");
        return AK_ERR_NOMEM;
    }
    f->hdr.kind = AKP_KIND_FOOT_IK;
    f->hdr.free_fn = foot_ik_free;
    akp_clip *c = NULL;
    status = akp_create_acquire(hs, AKP_KIND_SKELETON, (akp_object **)&f->skeleton, "foot IK",
                                error_buffer, error_size);
    if (status == AK_OK)
        status = akp_create_acquire(hc, AKP_KIND_CLIP, (akp_object **)&c, "foot IK", error_buffer,
                                    error_size);
    if (status == AK_OK) {
        char text[AKP_ERROR_MAX];
        status = foot_ik_setup(f, f->skeleton->skeleton, c->clip, pp, text, sizeof text);
        if (status != AK_OK) akp_copy_text(error_buffer, error_size, text);
    }
    if (c) akp_release(&c->hdr);
    if (status != AK_OK) {
        foot_ik_free(&f->hdr);
        return status;
    }
    ak_foot_ik_state_reset(&f->state);
    f->character = ak_xform_identity();
    f->stance_override[0] = f->stance_override[1] = -1;
    return akp_create_register(&f->hdr, out, error_buffer, error_size);
}

static int32_t acquire_foot_ik(ak_handle h, akp_foot_ik **out)
{
    return akp_acquire(h, AKP_KIND_FOOT_IK, (akp_object **)out);
}

/* Contact flags (AK_CONTACT_*) of foot `side` at clip time t (ak_contact_at: nearest frame,
 * wraps when looping); 0 in swing. */
static int32_t contact_at(const akp_foot_ik *f, int side, float t)
{
    return ak_contact_at(f->contacts[side], f->frame_count, f->frame_time, f->loop, t);
}

/* Unity-frame model pose -> right-handed world (scratch `world`). */
static void model_to_world(akp_foot_ik *f, const ak_plugin_xform *model, ak_xform *world)
{
    for (int32_t j = 0; j < f->joint_count; ++j) {
        ak_xform m;
        m.rotation = akp_mirror_rotation(model[j].rotation);
        m.translation = akp_mirror_point(model[j].position);
        world[j] = akx_mul(f->character, m);
    }
}

AK_PLUGIN_API int32_t ak_plugin_foot_ik_rays(ak_handle h, float time,
                                             const ak_plugin_xform *character,
                                             const ak_plugin_xform *model, int32_t count,
                                             ak_plugin_ray *out_rays, int32_t capacity,
                                             int32_t *out_count)
{
    akp_foot_ik *f;
    int32_t status = acquire_foot_ik(h, &f);
    if (status != AK_OK) return status;
    if (out_count) *out_count = AK_PLUGIN_FOOT_IK_RAYS;
    if (!character || !out_rays || !out_count || capacity < AK_PLUGIN_FOOT_IK_RAYS ||
        !isfinite(time)) {
        akp_fail(&f->hdr, AK_ERR_INVALID_ARG,
                 "character, a finite time, out_count and room for %d rays are required",
                 AK_PLUGIN_FOOT_IK_RAYS);
        status = AK_ERR_INVALID_ARG;
    } else {
        status = akp_check_pose(&f->hdr, model, count, f->joint_count, "model");
        if (status == AK_OK)
            status = akp_check_coord(&f->hdr, &character->position, "character position");
        if (status == AK_OK && !akq_finite(character->rotation))
            status = akp_fail(&f->hdr, AK_ERR_INVALID_ARG, "character rotation is not finite");
    }
    if (status == AK_OK) {
        f->character.rotation = akq_normalize(akp_mirror_rotation(character->rotation));
        f->character.translation = akp_mirror_point(character->position);
        const float ahead = 1.0f / f->params.stance_fade_rate;
        for (int s = 0; s < 2; ++s) {
            const int32_t o = f->stance_override[s];
            f->contact[s] = o >= 0 ? o : contact_at(f, s, time);
            f->stance[s] = f->contact[s] != 0;
            f->stance_next[s] = o >= 0 ? o != 0 : contact_at(f, s, time + ahead) != 0;
        }
        model_to_world(f, model, f->world);
        ak_vec3 points[2];
        ak_foot_ik_query_points(&f->params, &f->state, f->world, points, NULL);
        for (int s = 0; s < 2; ++s) {
            const ak_ground_ray r = ak_ground_ray_down(points[s], f->ray_up, f->ray_down);
            out_rays[s].origin = akp_mirror_point(r.origin);
            out_rays[s].direction = akp_mirror_point(r.direction);
            out_rays[s].max_distance = r.max_distance;
        }
        f->have_rays = 1;
    }
    akp_release(&f->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_foot_ik_apply(ak_handle h, float dt,
                                              const ak_plugin_ground_hit *hits, int32_t hit_count,
                                              ak_plugin_xform *local, ak_plugin_xform *model,
                                              int32_t count)
{
    akp_foot_ik *f;
    int32_t status = acquire_foot_ik(h, &f);
    if (status != AK_OK) return status;
    const int32_t n = f->joint_count;
    if (!f->have_rays) {
        akp_fail(&f->hdr, AK_ERR_STATE, "call ak_plugin_foot_ik_rays first (phase 1)");
        status = AK_ERR_STATE;
    } else if (!hits || hit_count < AK_PLUGIN_FOOT_IK_RAYS) {
        akp_fail(&f->hdr, AK_ERR_INVALID_ARG, "hits need %d entries (one per ray)",
                 AK_PLUGIN_FOOT_IK_RAYS);
        status = AK_ERR_INVALID_ARG;
    } else if (!(dt >= 0.0f && dt <= AKP_MAX_DT)) {
        akp_fail(&f->hdr, AK_ERR_INVALID_ARG, "dt = %g: must be in [0, %g] seconds", (double)dt,
                 (double)AKP_MAX_DT);
        status = AK_ERR_INVALID_ARG;
    } else {
        status = akp_check_pose(&f->hdr, local, count, n, "local");
        if (status == AK_OK) status = akp_check_pose(&f->hdr, model, count, n, "model");
    }
    if (status == AK_OK) {
        const ak_skeleton *sk = f->skeleton->skeleton;
        /* The pose in the world: roots carry the character placement. */
        for (int32_t j = 0; j < n; ++j) {
            ak_xform l;
            l.rotation = akp_mirror_rotation(local[j].rotation);
            l.translation = akp_mirror_point(local[j].position);
            f->local[j] = sk->parents[j] < 0 ? akx_mul(f->character, l) : l;
        }
        ak_fk(sk, f->local, f->world);
        ak_foot_ik_frame fr;
        memset(&fr, 0, sizeof fr);
        fr.dt = dt;
        fr.character = f->character;
        fr.floor_height = f->character.translation.y + f->floor_y;
        for (int s = 0; s < 2; ++s) {
            fr.stance[s] = f->stance[s];
            fr.contact[s] = f->contact[s];
            fr.stance_next[s] = f->stance_next[s];
            fr.ground[s].hit = hits[s].hit ? 1 : 0;
            fr.ground[s].height = hits[s].height;
            fr.ground[s].normal = akp_mirror_point(hits[s].normal);
            if (fr.ground[s].hit &&
                (!isfinite(fr.ground[s].height) || !akv_finite(fr.ground[s].normal)))
                fr.ground[s].hit = 0;
            fr.ground_land[s].hit = 0; /* no walk cycle: landing points unknown */
            fr.swing_phase[s] = 0.0f;
        }
        ak_error err;
        ak_error_clear(&err);
        status = ak_foot_ik_run(&f->params, &f->state, &fr, f->local, f->world, &err);
        if (status != AK_OK) {
            akp_fail(&f->hdr, status, "foot IK: %s", err.message);
        } else {
            const ak_xform inv = akx_inverse(f->character);
            for (int32_t j = 0; j < n; ++j) {
                ak_xform l = sk->parents[j] < 0 ? akx_mul(inv, f->local[j]) : f->local[j];
                ak_xform m = akx_mul(inv, f->world[j]);
                local[j].rotation = akp_mirror_rotation(l.rotation);
                local[j].position = akp_mirror_point(l.translation);
                model[j].rotation = akp_mirror_rotation(m.rotation);
                model[j].position = akp_mirror_point(m.translation);
            }
        }
        f->have_rays = 0;
    }
    akp_release(&f->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_foot_ik_state_get(ak_handle h, ak_plugin_foot_ik_state *out)
{
    akp_foot_ik *f;
    int32_t status = acquire_foot_ik(h, &f);
    if (status != AK_OK) return status;
    if (!out) {
        akp_fail(&f->hdr, AK_ERR_INVALID_ARG, "out is null");
        status = AK_ERR_INVALID_ARG;
    } else {
        for (int s = 0; s < 2; ++s) {
            out->stance[s] = f->stance[s];
            out->sole[s] = akp_mirror_point(f->state.sole[s]);
            out->tilt_deg[s] = f->state.tilt[s] * 180.0f / AK_PI;
            out->reached[s] = f->state.reached[s];
        }
        out->hip_drop = f->state.applied_hip_drop;
    }
    akp_release(&f->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_foot_ik_contact_points(ak_handle h,
                                                       const ak_plugin_xform *character,
                                                       const ak_plugin_xform *model, int32_t count,
                                                       ak_vec3 *out_heel, ak_vec3 *out_toe)
{
    akp_foot_ik *f;
    int32_t status = acquire_foot_ik(h, &f);
    if (status != AK_OK) return status;
    if (!character || !out_heel || !out_toe) {
        akp_fail(&f->hdr, AK_ERR_INVALID_ARG, "character, out_heel and out_toe are required");
        akp_release(&f->hdr);
        return AK_ERR_INVALID_ARG;
    }
    status = akp_check_pose(&f->hdr, model, count, f->joint_count, "model");
    if (status == AK_OK)
        status = akp_check_coord(&f->hdr, &character->position, "character position");
    if (status == AK_OK && !akq_finite(character->rotation))
        status = akp_fail(&f->hdr, AK_ERR_INVALID_ARG, "character rotation is not finite");
    if (status == AK_OK) {
        ak_xform place;
        place.rotation = akq_normalize(akp_mirror_rotation(character->rotation));
        place.translation = akp_mirror_point(character->position);
        /* f->world is scratch between the phases too: apply rebuilds it from `local`. */
        for (int32_t j = 0; j < f->joint_count; ++j) {
            ak_xform m;
            m.rotation = akp_mirror_rotation(model[j].rotation);
            m.translation = akp_mirror_point(model[j].position);
            f->world[j] = akx_mul(place, m);
        }
        for (int s = 0; s < 2; ++s) {
            const ak_vec3 heel = ak_foot_ik_sole(&f->params, f->world, s);
            out_heel[s] = akp_mirror_point(heel);
            out_toe[s] =
                akp_mirror_point(f->has_toe[s] ? ak_foot_ik_toe(&f->params, f->world, s) : heel);
        }
    }
    akp_release(&f->hdr);
    return status;
}

AK_PLUGIN_API int32_t ak_plugin_foot_ik_set_stance(ak_handle h, int32_t left, int32_t right)
{
    akp_foot_ik *f;
    int32_t status = acquire_foot_ik(h, &f);
    if (status != AK_OK) return status;
    if (left < -1 || left > 3 || right < -1 || right > 3) {
        status =
            akp_fail(&f->hdr, AK_ERR_INVALID_ARG,
                     "stance left = %d, right = %d: each must be -1 (from the clip), 0 (swing) "
                     "or AK_CONTACT_* bits 1..3",
                     (int)left, (int)right);
    } else {
        f->stance_override[0] = left;
        f->stance_override[1] = right;
    }
    akp_release(&f->hdr);
    return status;
}
