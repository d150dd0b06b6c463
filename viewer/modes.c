/* animkit viewer — IK mode (drag a target, switch solvers) and walker mode.
 *
 * IK mode poses the first character at the current time (or a built-in arm when no file is
 * loaded), then solves a chain toward a target every frame: the base pose is drawn as a grey
 * ghost, the solved pose in colour, the target amber and the pole blue. Solver iterations,
 * the remaining error and the solve time go to the HUD. */
#include "modes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ik_solvers.h"
#include "walk_view.h"

struct akv_mode_state {
    akv_mode kind;
    akv_settings s;
    /* IK */
    akv_scene *scene; /* not owned */
    int own_arm;      /* the built-in arm was added to a private scene */
    akv_scene arm_scene;
    akv_character *ch;
    ak_xform *base_local, *local, *world, *base_world_m;
    int32_t chain[AK_IK_MAX_CHAIN];
    int chain_len;
    int solver;
    int iterations;
    int use_pole;
    ak_vec3 target_m, pole_m;
    ak_ik_result result;
    int status;
    char status_text[300];
    double solve_us;
    unsigned char *ik_workspace;
    size_t ik_workspace_size;
    int grabbed;      /* 0 none, 1 target, 2 pole */
    float grab_depth; /* distance from the eye along the view axis at grab time */
    /* walker */
    akv_walk_view *walk;
};

/* ---- IK ---- */

/* A shoulder-elbow-wrist-hand arm in metres, reaching out along +X at 1.4 m height. */
static int add_builtin_arm(akv_scene *scene, const akv_settings *s, char *err, size_t err_size)
{
    const char *names[6] = {"base", "shoulder", "elbow", "wrist", "hand", "hand_end"};
    int32_t parents[6] = {-1, 0, 1, 2, 3, 4};
    ak_xform rest[6];
    for (int j = 0; j < 6; ++j)
        rest[j] = ak_xform_identity();
    rest[0].translation = ak_vec3_make(0, 1.0f, 0);
    rest[1].translation = ak_vec3_make(0, 0.4f, 0);
    rest[2].translation = ak_vec3_make(0.30f, 0, 0);
    rest[3].translation = ak_vec3_make(0.27f, 0, 0);
    rest[4].translation = ak_vec3_make(0.08f, 0, 0);
    rest[5].translation = ak_vec3_make(0.06f, 0, 0);
    /* A gentle bend at the elbow so the bend plane is defined. */
    rest[2].rotation = ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), -0.25f);
    rest[3].rotation = ak_quat_from_axis_angle(ak_vec3_make(0, 0, 1), 0.5f);
    uint8_t end[6] = {0, 0, 0, 0, 0, 1};
    ak_skeleton_desc d = {6, names, parents, rest, NULL, end};
    ak_skeleton *sk;
    ak_error e;
    if (ak_skeleton_create(&d, &sk, &e) != AK_OK) {
        snprintf(err, err_size, "%s", e.message);
        return -1;
    }
    akv_settings metres = *s;
    metres.scale = 1.0f;
    return akv_scene_add(scene, &metres, "arm", sk, NULL, err, err_size);
}

/* Chain root and tip: --ik-chain ROOT,TIP, else the humanoid's right arm (upper arm to hand),
 * else the built-in arm's shoulder to hand. */
static int pick_chain(akv_mode_state *m, char *err, size_t err_size)
{
    const ak_skeleton *sk = m->ch->skeleton;
    int32_t root = -1, tip = -1;
    if (m->s.ik_chain) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", m->s.ik_chain);
        char *comma = strchr(buf, ',');
        if (!comma) {
            snprintf(err, err_size, "--ik-chain wants ROOT,TIP joint names");
            return -1;
        }
        *comma = 0;
        root = ak_skeleton_find(sk, buf);
        tip = ak_skeleton_find(sk, comma + 1);
        if (root < 0 || tip < 0) {
            snprintf(err, err_size, "--ik-chain: joint '%s' not found", root < 0 ? buf : comma + 1);
            return -1;
        }
    } else if (m->own_arm) {
        root = ak_skeleton_find(sk, "shoulder");
        tip = ak_skeleton_find(sk, "wrist");
    } else {
        ak_humanoid h;
        ak_humanoid_find(sk, NULL, &h, NULL);
        root = h.joint[AK_HUM_RIGHT_UPPER_ARM];
        tip = h.joint[AK_HUM_RIGHT_HAND];
        if (root < 0 || tip < 0) {
            root = h.joint[AK_HUM_RIGHT_UPPER_LEG];
            tip = h.joint[AK_HUM_RIGHT_FOOT];
        }
        if (root < 0 || tip < 0) {
            snprintf(err, err_size,
                     "no right arm or leg found: name a chain with --ik-chain ROOT,TIP");
            return -1;
        }
    }
    int32_t n = ak_ik_chain_from_joints(sk, root, tip, m->chain, AK_IK_MAX_CHAIN);
    if (n < 2) {
        snprintf(err, err_size, "'%s' is not below '%s' (or the chain is longer than %d)",
                 sk->names[tip], sk->names[root], AK_IK_MAX_CHAIN);
        return -1;
    }
    /* Joints whose bone to the next chain joint has zero length (CMU's Spine1 -> shoulder
     * offsets, for one) cannot move the chain: leave them out, the solvers reject them. */
    int kept = 0;
    for (int32_t i = 0; i < n; ++i)
        if (i == n - 1 || sk->bone_lengths[m->chain[i + 1]] > 1e-6f) m->chain[kept++] = m->chain[i];
    if (kept < 2) {
        snprintf(err, err_size, "the chain %s -> %s has no bone of non-zero length",
                 sk->names[root], sk->names[tip]);
        return -1;
    }
    m->chain_len = kept;
    return 0;
}

static double now_us(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* Re-poses from the base pose and solves toward the target. */
static void ik_solve(akv_mode_state *m)
{
    akv_character *c = m->ch;
    int32_t n = c->skeleton->joint_count;
    float inv = 1.0f / c->mpu;
    memcpy(m->local, m->base_local, (size_t)n * sizeof *m->local);
    ak_fk(c->skeleton, m->local, m->world);
    akv_ik_request q;
    q.skeleton = c->skeleton;
    q.chain = m->chain;
    q.chain_len = m->chain_len;
    q.target = ak_vec3_scale(m->target_m, inv);
    q.use_pole = m->use_pole;
    q.pole = ak_vec3_scale(m->pole_m, inv);
    q.iterations = m->iterations;
    q.workspace = &m->ik_workspace;
    q.workspace_size = &m->ik_workspace_size;
    ak_error e;
    ak_error_clear(&e);
    double t0 = now_us();
    m->status = akv_ik_solve(m->solver, &q, m->local, m->world, &m->result, &e);
    m->solve_us = now_us() - t0;
    snprintf(m->status_text, sizeof m->status_text, "%s", m->status < 0 ? e.message : "");
    ak_fk(c->skeleton, m->local, m->world);
    for (int32_t j = 0; j < n; ++j) {
        c->world_m[j] = m->world[j];
        c->world_m[j].translation = ak_vec3_scale(m->world[j].translation, c->mpu);
    }
}

static akv_mode_state *ik_create(akv_mode_state *m, akv_scene *scene, char *err, size_t err_size)
{
    if (scene->count == 0) {
        if (add_builtin_arm(&m->arm_scene, &m->s, err, err_size) != 0) return NULL;
        m->own_arm = 1;
        m->scene = &m->arm_scene;
    } else {
        m->scene = scene;
    }
    m->ch = &m->scene->chars[0];
    if (pick_chain(m, err, err_size) != 0) return NULL;
    int32_t n = m->ch->skeleton->joint_count;
    m->base_local = malloc((size_t)n * 4 * sizeof(ak_xform));
    if (!m->base_local) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    m->local = m->base_local + n;
    m->world = m->base_local + 2 * n;
    m->base_world_m = m->base_local + 3 * n;
    /* Base pose: the clip at the scene time (rest pose without a clip). */
    akv_scene_pose(m->scene, &m->s, m->scene->time);
    memcpy(m->base_local, m->ch->local, (size_t)n * sizeof(ak_xform));
    memcpy(m->base_world_m, m->ch->world_m, (size_t)n * sizeof(ak_xform));
    m->solver = akv_ik_solver_index(m->s.ik_solver);
    if (m->solver < 0) {
        snprintf(err, err_size, "unknown solver '%s' (this build has: %s)", m->s.ik_solver,
                 akv_ik_solver_list());
        return NULL;
    }
    m->iterations = m->s.ik_iterations;
    /* Default target: inside the reach (75% of it from the chain root), raised from where the
     * tip points now, so the picture shows a bent chain that gets there. */
    ak_vec3 tip = m->base_world_m[m->chain[m->chain_len - 1]].translation;
    ak_vec3 root = m->base_world_m[m->chain[0]].translation;
    float reach = 0.0f;
    for (int i = 1; i < m->chain_len; ++i)
        reach += ak_vec3_length(ak_vec3_sub(m->base_world_m[m->chain[i]].translation,
                                            m->base_world_m[m->chain[i - 1]].translation));
    ak_vec3 out = ak_vec3_normalize_or(ak_vec3_sub(tip, root), ak_vec3_make(1, 0, 0));
    ak_vec3 dir = ak_vec3_normalize_or(ak_vec3_add(out, ak_vec3_make(0.0f, 1.1f, 0.0f)),
                                       ak_vec3_make(0, 1, 0));
    m->target_m =
        m->s.have_ik_target ? m->s.ik_target : ak_vec3_add(root, ak_vec3_scale(dir, 0.72f * reach));
    ak_vec3 mid = m->base_world_m[m->chain[m->chain_len / 2]].translation;
    ak_vec3 away = ak_vec3_sub(mid, ak_vec3_scale(ak_vec3_add(root, tip), 0.5f));
    m->pole_m = ak_vec3_add(
        mid, ak_vec3_scale(ak_vec3_normalize_or(away, ak_vec3_make(0, 0, -1)), 0.5f * reach));
    if (m->s.have_ik_pole) {
        m->pole_m = m->s.ik_pole;
        m->use_pole = 1;
    }
    ik_solve(m);
    return m;
}

/* ---- public ---- */

akv_mode_state *akv_mode_create(const akv_settings *s, akv_scene *scene, char *err, size_t err_size)
{
    akv_mode_state *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    m->kind = s->mode;
    m->s = *s;
    akv_mode_state *ok = NULL;
    if (s->mode == AKV_MODE_IK) {
        ok = ik_create(m, scene, err, err_size);
    } else if (s->mode == AKV_MODE_WALK) {
        m->walk = akv_walk_view_create(s, err, err_size);
        ok = m->walk ? m : NULL;
    } else {
        snprintf(err, err_size, "not a mode");
    }
    if (!ok) akv_mode_destroy(m);
    return ok;
}

void akv_mode_destroy(akv_mode_state *m)
{
    if (!m) return;
    if (m->kind == AKV_MODE_IK && m->ch && !m->own_arm) {
        /* Leave the shared character at its base pose. */
        memcpy(m->ch->world_m, m->base_world_m,
               (size_t)m->ch->skeleton->joint_count * sizeof(ak_xform));
    }
    if (m->own_arm) akv_scene_free(&m->arm_scene);
    free(m->base_local);
    free(m->ik_workspace);
    akv_walk_view_destroy(m->walk);
    free(m);
}

int akv_mode_frame_count(const akv_mode_state *m)
{
    return m->kind == AKV_MODE_WALK ? akv_walk_view_frame_count(m->walk)
                                    : akv_scene_frame_count(m->scene);
}

float akv_mode_frame_time(const akv_mode_state *m)
{
    return m->kind == AKV_MODE_WALK ? akv_walk_view_frame_time(m->walk)
                                    : akv_scene_frame_time(m->scene);
}

/* IK: the base pose becomes the clip at `time`; the target stays where it is. */
static void ik_rebase(akv_mode_state *m, float time)
{
    int32_t n = m->ch->skeleton->joint_count;
    akv_scene_pose(m->scene, &m->s, time);
    memcpy(m->base_local, m->ch->local, (size_t)n * sizeof(ak_xform));
    memcpy(m->base_world_m, m->ch->world_m, (size_t)n * sizeof(ak_xform));
    ik_solve(m);
}

void akv_mode_step_to(akv_mode_state *m, int frame)
{
    if (m->kind == AKV_MODE_WALK)
        akv_walk_view_step_to(m->walk, frame);
    else
        ik_rebase(m, (float)frame * akv_scene_frame_time(m->scene));
}

float akv_mode_ik_error_m(const akv_mode_state *m, ak_vec3 *target_m)
{
    if (m->kind != AKV_MODE_IK) return -1.0f;
    if (target_m) *target_m = m->target_m;
    ak_vec3 tip = m->ch->world_m[m->chain[m->chain_len - 1]].translation;
    return ak_vec3_length(ak_vec3_sub(tip, m->target_m));
}

const char *akv_mode_walk_label(const akv_mode_state *m)
{
    return m && m->kind == AKV_MODE_WALK ? akv_walk_view_clip_label(m->walk) : "";
}

int akv_mode_focus(const akv_mode_state *m, ak_vec3 *point)
{
    if (m->kind != AKV_MODE_WALK) return 0;
    *point = akv_walk_view_focus(m->walk);
    return 1;
}

int akv_mode_figure(const akv_mode_state *m, ak_vec3 *out, int max)
{
    return m->kind == AKV_MODE_WALK ? akv_walk_view_figure(m->walk, out, max) : 0;
}

ak_walk_scene *akv_mode_walk_scene(akv_mode_state *m)
{
    return m->kind == AKV_MODE_WALK ? akv_walk_view_scene(m->walk) : NULL;
}

int akv_mode_walk_feet_text(const akv_mode_state *m, char *out, size_t size)
{
    if (size) out[0] = '\0';
    if (m->kind != AKV_MODE_WALK) return 0;
    akv_walk_view_feet_text(m->walk, out, size);
    return 1;
}

void akv_mode_bounds(akv_mode_state *m, ak_vec3 *lo, ak_vec3 *hi)
{
    if (m->kind == AKV_MODE_WALK) {
        akv_walk_view_bounds(m->walk, lo, hi);
        return;
    }
    const akv_character *c = m->ch;
    *lo = *hi = m->target_m;
    for (int32_t j = 0; j < c->skeleton->joint_count; ++j) {
        ak_vec3 p[2] = {c->world_m[j].translation, m->base_world_m[j].translation};
        for (int k = 0; k < 2; ++k) {
            lo->x = fminf(lo->x, p[k].x);
            lo->y = fminf(lo->y, p[k].y);
            lo->z = fminf(lo->z, p[k].z);
            hi->x = fmaxf(hi->x, p[k].x);
            hi->y = fmaxf(hi->y, p[k].y);
            hi->z = fmaxf(hi->z, p[k].z);
        }
    }
    lo->y = fminf(lo->y, 0.0f);
}

void akv_mode_set_look(akv_mode_state *m, const akr_look *look)
{
    m->s.look = *look;
}

void akv_mode_draw(akv_mode_state *m, akr_renderer *r)
{
    if (m->kind == AKV_MODE_WALK) {
        akv_walk_view_draw(m->walk, r, &m->s);
        return;
    }
    const akv_character *c = m->ch;
    if (m->s.grid) akr_draw_ground(r, 0.0f, 30.0f);
    akr_set_shadow_plane(r, m->s.shadows, 0.0f);
    static const float ghost[3] = {0.72f, 0.74f, 0.78f};
    akr_draw_skeleton(r, c->skeleton, m->base_world_m, m->s.radius * 0.7f, ghost);
    akv_draw_character(r, &m->s, c->skeleton, c->world_m, akv_character_mesh(c), c->colour);
    /* The chain drawn again thicker, so it stands out from the rest of the body. */
    static const float chain_rgba[4] = {0.95f, 0.55f, 0.20f, 1.0f};
    for (int i = 1; i < m->chain_len; ++i)
        akr_draw_capsule(r, c->world_m[m->chain[i - 1]].translation,
                         c->world_m[m->chain[i]].translation, m->s.radius * 1.3f, chain_rgba);
    static const float target_rgba[4] = {0.98f, 0.78f, 0.10f, 1.0f},
                       pole_rgba[4] = {0.25f, 0.45f, 0.95f, 1.0f};
    akr_draw_sphere(r, m->target_m, m->s.radius * 2.2f, target_rgba);
    if (m->use_pole) akr_draw_sphere(r, m->pole_m, m->s.radius * 1.6f, pole_rgba);
    akr_set_shadow_plane(r, 0, 0.0f);
    ak_vec3 tip = c->world_m[m->chain[m->chain_len - 1]].translation;
    float lines[2 * 7] = {tip.x,         tip.y,         tip.z,         0.9f, 0.2f, 0.1f, 1.0f,
                          m->target_m.x, m->target_m.y, m->target_m.z, 0.9f, 0.2f, 0.1f, 1.0f};
    akr_draw_lines(r, lines, 2, 0);
}

void akv_mode_hud(akv_mode_state *m, akr_renderer *r, int w, int h)
{
    (void)w;
    (void)h;
    if (m->kind == AKV_MODE_WALK) {
        akv_walk_view_hud(m->walk, r, w);
        return;
    }
    static const float ink[3] = {0.10f, 0.11f, 0.14f}, bad[3] = {0.8f, 0.15f, 0.1f};
    const ak_skeleton *sk = m->ch->skeleton;
    char line[512];
    snprintf(line, sizeof line, "IK %s -> %s (%d joints)  solver %s", sk->names[m->chain[0]],
             sk->names[m->chain[m->chain_len - 1]], m->chain_len, akv_ik_solver_name(m->solver));
    akr_draw_text(r, 10.0f, 10.0f, 2.0f, line, ink);
    snprintf(line, sizeof line, "iterations %d of max %d  pole %s  solve time %.1f us",
             (int)m->result.iterations, m->iterations, m->use_pole ? "on" : "off", m->solve_us);
    akr_draw_text(r, 10.0f, 30.0f, 2.0f, line, ink);
    if (m->status < 0)
        snprintf(line, sizeof line, "target (%.2f, %.2f, %.2f) m  solve failed",
                 (double)m->target_m.x, (double)m->target_m.y, (double)m->target_m.z);
    else
        snprintf(line, sizeof line, "target (%.2f, %.2f, %.2f) m  tip to target %.2f mm: %s",
                 (double)m->target_m.x, (double)m->target_m.y, (double)m->target_m.z,
                 (double)(m->result.error * m->ch->mpu * 1000.0f),
                 m->result.reached       ? "reached"
                 : m->result.unreachable ? "out of reach"
                                         : "not reached");
    akr_draw_text(r, 10.0f, 50.0f, 2.0f, line, m->result.reached ? ink : bad);
    if (m->status < 0) akr_draw_text(r, 10.0f, 70.0f, 2.0f, m->status_text, bad);
}

void akv_mode_update(akv_mode_state *m, float dt)
{
    if (m->kind == AKV_MODE_WALK) {
        akv_walk_view_update(m->walk, dt);
        return;
    }
    /* IK over a playing clip: the body moves on, the chain keeps reaching for the target. */
    float d = akv_scene_duration(m->scene, m->s.loop);
    if (d <= 0.0f || dt == 0.0f) return;
    float t = m->scene->time + dt;
    t = m->s.loop ? fmodf(fmodf(t, d) + d, d) : fminf(fmaxf(t, 0.0f), d);
    ik_rebase(m, t);
}

int akv_mode_key(akv_mode_state *m, int key)
{
    if (m->kind == AKV_MODE_WALK) return akv_walk_view_key(m->walk, key);
    /* GLFW key codes: 'C' 67, 'O' 79, '=' 61, '-' 45, keypad + 334, keypad - 333. */
    switch (key) {
    case 67: m->solver = (m->solver + 1) % akv_ik_solver_count(); break;
    case 79: m->use_pole = !m->use_pole; break;
    case 61:
    case 334: m->iterations = m->iterations < 4096 ? m->iterations * 2 : m->iterations; break;
    case 45:
    case 333: m->iterations = m->iterations > 1 ? m->iterations / 2 : 1; break;
    default: return 0;
    }
    ik_solve(m);
    return 1;
}

int akv_mode_drag(akv_mode_state *m, const akr_camera *cam, int w, int h, float px, float py,
                  int phase)
{
    if (m->kind == AKV_MODE_WALK) {
        /* A click (phase 3: right button) on the terrain sends the walker there. */
        if (phase != 3) return 0;
        ak_vec3 o, d;
        akr_unproject_ray(cam, w, h, px, py, &o, &d);
        return akv_walk_view_target_ray(m->walk, o, d);
    }
    if (phase == 3) return 0;
    ak_vec3 eye, dir;
    akr_unproject_ray(cam, w, h, px, py, &eye, &dir);
    ak_vec3 view = ak_vec3_normalize_or(ak_vec3_sub(cam->target, eye), ak_vec3_make(0, 0, -1));
    if (phase == 0) {
        /* Grab the target or the pole when the click lands within 18 px of it. */
        ak_vec3 cand[2] = {m->target_m, m->pole_m};
        for (int k = 0; k < (m->use_pole ? 2 : 1); ++k) {
            float sx, sy;
            if (akr_project(cam, w, h, cand[k], &sx, &sy) &&
                (sx - px) * (sx - px) + (sy - py) * (sy - py) < 18.0f * 18.0f) {
                m->grabbed = k + 1;
                m->grab_depth = ak_vec3_dot(ak_vec3_sub(cand[k], eye), view);
                return 1;
            }
        }
        return 0;
    }
    if (phase == 2) {
        int was = m->grabbed;
        m->grabbed = 0;
        return was != 0;
    }
    if (!m->grabbed) return 0;
    /* Move in the plane facing the camera at the grabbed depth. */
    float along = ak_vec3_dot(dir, view);
    if (along < 1e-4f) return 1;
    ak_vec3 p = ak_vec3_add(eye, ak_vec3_scale(dir, m->grab_depth / along));
    if (m->grabbed == 1)
        m->target_m = p;
    else
        m->pole_m = p;
    ik_solve(m);
    return 1;
}
