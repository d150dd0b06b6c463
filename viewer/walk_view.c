/* animkit viewer — walker view: the guide-joint walker of the locomotion module on its
 * terrain, with the target, the guide (ground point and heading), the ground rays under the
 * character and each sole, stance feet (green) vs swing feet (grey), the hip drop (a red bar
 * from the lowered hips up to where the animation had them) and the path walked so far.
 * Built when include/animkit/locomotion.h has the walker (AKV_HAVE_WALKER). */
#include "walk_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(AKV_HAVE_WALKER)
#include "animkit/locomotion.h"

#define TRAIL_MAX 8192

struct akv_walk_view {
    ak_skeleton *source_skeleton;
    ak_clip *source_clip, *idle_clip;
    ak_walk_motion *motion;
    ak_terrain *terrain;
    ak_ground ground;
    ak_walker_params wp;
    ak_walker *walker;
    float dt;
    int frame;       /* frames stepped since the reset */
    int frame_count; /* frames until the walker stops (or max time) */
    float max_time;
    int hips;
    ak_vec3 trail[TRAIL_MAX];
    int trail_count;
    /* terrain mesh around the walk */
    float *heights;
    int nx, nz;
    float x0, z0, cell;
    char clip_label[128];
};

static int parse_xz(const char *v, float *x, float *z)
{
    return sscanf(v, "%f,%f", x, z) == 2 ? 0 : -1;
}

/* Steps one frame (dt 0 for the first, which places the character). */
static void step(akv_walk_view *w)
{
    ak_error e;
    ak_walker_step(w->walker, w->frame == 0 ? 0.0f : w->dt, &w->ground, &e);
    ak_walker_state s;
    ak_walker_get_state(w->walker, &s);
    if (w->trail_count < TRAIL_MAX) w->trail[w->trail_count++] = s.position;
    w->frame++;
}

static void reset(akv_walk_view *w)
{
    ak_walker_reset(w->walker, &w->ground);
    w->frame = 0;
    w->trail_count = 0;
    step(w);
}

/* Samples the terrain on a grid covering start, target and a margin (at most 240 x 240). */
static int build_terrain_mesh(akv_walk_view *w)
{
    float lo_x = fminf(w->wp.start.x, w->wp.target.x) - 14.0f,
          hi_x = fmaxf(w->wp.start.x, w->wp.target.x) + 14.0f;
    float lo_z = fminf(w->wp.start.z, w->wp.target.z) - 14.0f,
          hi_z = fmaxf(w->wp.start.z, w->wp.target.z) + 14.0f;
    float size;
    ak_terrain_info(w->terrain, NULL, &size, NULL, NULL);
    float half = 0.5f * size - 1e-3f;
    lo_x = fmaxf(lo_x, -half);
    lo_z = fmaxf(lo_z, -half);
    hi_x = fminf(hi_x, half);
    hi_z = fminf(hi_z, half);
    w->cell = 0.5f;
    while ((hi_x - lo_x) / w->cell > 159.0f || (hi_z - lo_z) / w->cell > 159.0f)
        w->cell *= 1.5f;
    w->nx = (int)((hi_x - lo_x) / w->cell) + 1;
    w->nz = (int)((hi_z - lo_z) / w->cell) + 1;
    w->x0 = lo_x;
    w->z0 = lo_z;
    w->heights = malloc((size_t)w->nx * (size_t)w->nz * sizeof(float));
    if (!w->heights) return -1;
    for (int iz = 0; iz < w->nz; ++iz)
        for (int ix = 0; ix < w->nx; ++ix) {
            ak_ground_hit h;
            float y = 0.0f;
            if (ak_terrain_sample(w->terrain, lo_x + (float)ix * w->cell,
                                  lo_z + (float)iz * w->cell, &h))
                y = h.height;
            w->heights[iz * w->nx + ix] = y;
        }
    return 0;
}

akv_walk_view *akv_walk_view_create(const akv_settings *s, char *err, size_t err_size)
{
    akv_walk_view *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    const char *clip_path = NULL, *idle_path = NULL, *heightmap = NULL, *terrain_kind = "hills";
    float sx = -6.0f, sz = -4.0f, tx = 6.0f, tz = 4.0f, scale = 0.0f, turn_rate = 90.0f,
          arrival = 0.3f;
    float hm_size = 40.0f, hm_height = 3.0f;
    int seed = 1, steer = AK_STEER_CYCLE, foot_ik = 1, cycle_a = -1, cycle_b = -1;
    w->max_time = 60.0f;
    for (int i = 0; i < s->walk_argc; ++i) {
        const char *a = s->walk_argv[i], *v = i + 1 < s->walk_argc ? s->walk_argv[i + 1] : NULL;
        int used = 1, bad = 0;
        if (strcmp(a, "--clip") == 0 && v)
            clip_path = v;
        else if (strcmp(a, "--idle") == 0 && v)
            idle_path = v;
        else if (strcmp(a, "--terrain") == 0 && v) {
            terrain_kind = v;
            bad = strcmp(v, "flat") && strcmp(v, "hills") && strcmp(v, "stairs");
        } else if (strcmp(a, "--heightmap") == 0 && v)
            heightmap = v;
        else if (strcmp(a, "--size") == 0 && v)
            bad = sscanf(v, "%f", &hm_size) != 1;
        else if (strcmp(a, "--height") == 0 && v)
            bad = sscanf(v, "%f", &hm_height) != 1;
        else if (strcmp(a, "--seed") == 0 && v)
            bad = sscanf(v, "%d", &seed) != 1;
        else if (strcmp(a, "--start") == 0 && v)
            bad = parse_xz(v, &sx, &sz);
        else if (strcmp(a, "--target") == 0 && v)
            bad = parse_xz(v, &tx, &tz);
        else if (strcmp(a, "--scale") == 0 && v)
            bad = sscanf(v, "%f", &scale) != 1;
        else if (strcmp(a, "--turn-rate") == 0 && v)
            bad = sscanf(v, "%f", &turn_rate) != 1;
        else if (strcmp(a, "--arrival") == 0 && v)
            bad = sscanf(v, "%f", &arrival) != 1;
        else if (strcmp(a, "--max-time") == 0 && v)
            bad = sscanf(v, "%f", &w->max_time) != 1 || w->max_time <= 0;
        else if (strcmp(a, "--cycle") == 0 && v)
            bad = sscanf(v, "%d:%d", &cycle_a, &cycle_b) != 2;
        else if (strcmp(a, "--steer") == 0 && v) {
            steer = strcmp(v, "continuous") == 0 ? AK_STEER_CONTINUOUS : AK_STEER_CYCLE;
            bad = strcmp(v, "continuous") && strcmp(v, "cycle");
        } else if (strcmp(a, "--no-foot-ik") == 0) {
            foot_ik = 0;
            used = 0;
        } else {
            snprintf(err, err_size, "walker: unknown flag '%s' (see animkit walk --help)", a);
            akv_walk_view_destroy(w);
            return NULL;
        }
        if (bad) {
            snprintf(err, err_size, "walker: bad value '%s' for %s", v ? v : "", a);
            akv_walk_view_destroy(w);
            return NULL;
        }
        i += used;
    }

    ak_error e;
    ak_walk_motion_params mp = ak_walk_motion_defaults();
    if (clip_path) {
        if (ak_bvh_read_file(clip_path, NULL, &w->source_skeleton, &w->source_clip, &e) != AK_OK) {
            snprintf(err, err_size, "%s: %s", clip_path, e.message);
            akv_walk_view_destroy(w);
            return NULL;
        }
        mp.metres_per_unit = scale;
        if (cycle_a >= 0) {
            mp.cycle_start = cycle_a;
            mp.cycle_end = cycle_b;
        }
        const char *base = strrchr(clip_path, '/');
        snprintf(w->clip_label, sizeof w->clip_label, "%s", base ? base + 1 : clip_path);
    } else {
        ak_walk_clip_params cp = ak_walk_clip_defaults();
        if (ak_walk_clip_create(&cp, &w->source_skeleton, &w->source_clip, &e) != AK_OK ||
            ak_idle_clip_create(&cp, w->source_skeleton, &w->idle_clip, &e) != AK_OK) {
            snprintf(err, err_size, "built-in walk: %s", e.message);
            akv_walk_view_destroy(w);
            return NULL;
        }
        mp.metres_per_unit = 1.0f;
        mp.cycle_start = mp.cycle_end = 0;
        snprintf(w->clip_label, sizeof w->clip_label, "built-in walk");
    }
    if (idle_path) {
        ak_skeleton *idle_sk = NULL;
        ak_clip_destroy(w->idle_clip);
        w->idle_clip = NULL;
        if (ak_bvh_read_file(idle_path, NULL, &idle_sk, &w->idle_clip, &e) != AK_OK) {
            snprintf(err, err_size, "%s: %s", idle_path, e.message);
            akv_walk_view_destroy(w);
            return NULL;
        }
        int same = idle_sk->joint_count == w->source_skeleton->joint_count;
        ak_skeleton_destroy(idle_sk);
        if (!same) {
            snprintf(err, err_size, "--idle must have the walk clip's skeleton");
            akv_walk_view_destroy(w);
            return NULL;
        }
        w->idle_clip->loop = 1;
    }
    if (ak_walk_motion_create(w->source_skeleton, w->source_clip, &mp, &w->motion, &e) != AK_OK) {
        snprintf(err, err_size, "walk motion: %s", e.message);
        akv_walk_view_destroy(w);
        return NULL;
    }
    if (heightmap) {
        if (ak_terrain_load_pgm(heightmap, hm_size, hm_height, &w->terrain, &e) != AK_OK) {
            snprintf(err, err_size, "%s: %s", heightmap, e.message);
            akv_walk_view_destroy(w);
            return NULL;
        }
    } else {
        ak_terrain_params tp = ak_terrain_defaults();
        tp.kind = strcmp(terrain_kind, "flat") == 0     ? AK_TERRAIN_FLAT
                  : strcmp(terrain_kind, "stairs") == 0 ? AK_TERRAIN_STAIRS
                                                        : AK_TERRAIN_HILLS;
        tp.seed = (uint32_t)seed;
        if (ak_terrain_create(&tp, &w->terrain, &e) != AK_OK) {
            snprintf(err, err_size, "terrain: %s", e.message);
            akv_walk_view_destroy(w);
            return NULL;
        }
    }
    w->ground = ak_terrain_ground(w->terrain);
    w->wp = ak_walker_defaults();
    w->wp.start = ak_vec3_make(sx, 0, sz);
    w->wp.target = ak_vec3_make(tx, 0, tz);
    w->wp.steer = steer;
    w->wp.max_turn_rate = turn_rate;
    w->wp.arrival_radius = arrival;
    w->wp.foot_ik = foot_ik;
    w->wp.idle_clip = w->idle_clip;
    if (ak_walker_create(w->motion, &w->wp, &w->ground, &w->walker, &e) != AK_OK) {
        snprintf(err, err_size, "walker: %s", e.message);
        akv_walk_view_destroy(w);
        return NULL;
    }
    w->dt = ak_walk_motion_clip(w->motion)->frame_time;
    const ak_humanoid *h = ak_walk_motion_humanoid(w->motion);
    w->hips = h->joint[AK_HUM_HIPS] >= 0 ? h->joint[AK_HUM_HIPS] : 0;
    if (build_terrain_mesh(w) != 0) {
        snprintf(err, err_size, "out of memory");
        akv_walk_view_destroy(w);
        return NULL;
    }
    /* How long the walk takes: simulate once to the stop (or max time), then start over. */
    int max_frames = (int)ceilf(w->max_time / w->dt) + 1;
    reset(w);
    ak_walker_state st;
    ak_walker_get_state(w->walker, &st);
    while (w->frame < max_frames && !st.stopped) {
        step(w);
        ak_walker_get_state(w->walker, &st);
    }
    w->frame_count = w->frame;
    reset(w);
    return w;
}

ak_walker *akv_walk_view_walker(const akv_walk_view *w)
{
    return w->walker;
}

const ak_walk_motion *akv_walk_view_motion(const akv_walk_view *w)
{
    return w->motion;
}

void akv_walk_view_destroy(akv_walk_view *w)
{
    if (!w) return;
    ak_walker_destroy(w->walker);
    ak_terrain_destroy(w->terrain);
    ak_walk_motion_destroy(w->motion);
    ak_clip_destroy(w->idle_clip);
    ak_clip_destroy(w->source_clip);
    ak_skeleton_destroy(w->source_skeleton);
    free(w->heights);
    free(w);
}

int akv_walk_view_frame_count(const akv_walk_view *w)
{
    return w->frame_count;
}
float akv_walk_view_frame_time(const akv_walk_view *w)
{
    return w->dt;
}

void akv_walk_view_step_to(akv_walk_view *w, int frame)
{
    if (frame + 1 < w->frame) reset(w);
    while (w->frame < frame + 1)
        step(w);
}

void akv_walk_view_update(akv_walk_view *w, float dt)
{
    /* Real time: as many fixed steps as the elapsed time holds (at most 8 per call). */
    static const int max_steps = 8;
    int n = (int)floorf(dt / w->dt + 0.5f);
    if (n < 1) n = 1;
    if (n > max_steps) n = max_steps;
    ak_walker_state s;
    ak_walker_get_state(w->walker, &s);
    if (s.stopped) return;
    for (int i = 0; i < n; ++i)
        step(w);
}

void akv_walk_view_bounds(akv_walk_view *w, ak_vec3 *lo, ak_vec3 *hi)
{
    float lo_h = 0.0f, hi_h = 0.0f;
    ak_terrain_info(w->terrain, NULL, NULL, &lo_h, &hi_h);
    *lo = ak_vec3_make(fminf(w->wp.start.x, w->wp.target.x) - 1.0f, lo_h,
                       fminf(w->wp.start.z, w->wp.target.z) - 1.0f);
    *hi = ak_vec3_make(fmaxf(w->wp.start.x, w->wp.target.x) + 1.0f, hi_h + 1.8f,
                       fmaxf(w->wp.start.z, w->wp.target.z) + 1.0f);
}

static void line(float *v, int *k, ak_vec3 a, ak_vec3 b, const float rgba[4])
{
    float *o = v + *k * 7;
    o[0] = a.x;
    o[1] = a.y;
    o[2] = a.z;
    memcpy(o + 3, rgba, 4 * sizeof(float));
    o[7] = b.x;
    o[8] = b.y;
    o[9] = b.z;
    memcpy(o + 10, rgba, 4 * sizeof(float));
    *k += 2;
}

void akv_walk_view_draw(akv_walk_view *w, akr_renderer *r, const akv_settings *s)
{
    akr_draw_terrain(r, w->heights, w->nx, w->nz, w->x0, w->z0, w->cell);
    ak_walker_state st;
    ak_walker_get_state(w->walker, &st);
    const ak_skeleton *sk = ak_walk_motion_skeleton(w->motion);
    const ak_xform *world = ak_walker_world_pose(w->walker);
    /* Shadows on the plane through the ground under the character. */
    akr_set_shadow_plane(r, s->shadows, st.position.y);
    static const float body[3] = {0.90f, 0.42f, 0.32f};
    akr_draw_skeleton(r, sk, world, s->radius, body);
    akr_set_shadow_plane(r, 0, 0.0f);

    /* Target: a post with a ball on the ground point. */
    ak_ground_hit th;
    float ty =
        ak_terrain_sample(w->terrain, w->wp.target.x, w->wp.target.z, &th) ? th.height : 0.0f;
    ak_vec3 tgt = ak_vec3_make(w->wp.target.x, ty, w->wp.target.z);
    static const float amber[4] = {0.98f, 0.75f, 0.10f, 1.0f},
                       blue[4] = {0.25f, 0.45f, 0.95f, 1.0f};
    static const float green[4] = {0.20f, 0.80f, 0.30f, 1.0f},
                       grey[4] = {0.55f, 0.55f, 0.58f, 1.0f};
    akr_draw_capsule(r, tgt, ak_vec3_add(tgt, ak_vec3_make(0, 1.2f, 0)), 0.025f, amber);
    akr_draw_sphere(r, ak_vec3_add(tgt, ak_vec3_make(0, 1.2f, 0)), 0.08f, amber);
    /* Guide: the character's ground point and an arrow along the guide heading (heading 0
     * faces +Z). */
    ak_vec3 g = st.position;
    akr_draw_sphere(r, g, 0.05f, blue);
    ak_vec3 dir = ak_vec3_make(sinf(st.guide_heading), 0.0f, cosf(st.guide_heading));
    akr_draw_capsule(r, ak_vec3_add(g, ak_vec3_make(0, 0.02f, 0)),
                     ak_vec3_add(g, ak_vec3_make(dir.x * 0.6f, 0.02f, dir.z * 0.6f)), 0.015f, blue);
    /* Stance (green) and swing (grey) sole points. */
    for (int k = 0; k < 2; ++k)
        akr_draw_sphere(r, st.sole[k], 0.035f, st.stance[k] ? green : grey);

    float v[64 * 7];
    int n = 0;
    static const float ray[4] = {0.9f, 0.2f, 0.6f, 0.9f}, path[4] = {0.15f, 0.25f, 0.7f, 0.8f},
                       drop[4] = {0.9f, 0.1f, 0.1f, 1.0f};
    /* Ground rays: from 0.5 m above each sole and the guide down to the ground found. */
    for (int k = 0; k < 2; ++k) {
        float gy = isfinite(st.sole_ground[k]) ? st.sole_ground[k] : st.sole[k].y - 0.5f;
        line(v, &n, ak_vec3_add(st.sole[k], ak_vec3_make(0, 0.5f, 0)),
             ak_vec3_make(st.sole[k].x, gy, st.sole[k].z), ray);
    }
    line(v, &n, ak_vec3_add(g, ak_vec3_make(0, 1.0f, 0)), g, ray);
    /* Hip drop: from the hips up by the amount they were lowered. */
    ak_vec3 hips = world[w->hips].translation;
    if (st.hip_drop > 1e-4f)
        line(v, &n, hips, ak_vec3_add(hips, ak_vec3_make(0, st.hip_drop, 0)), drop);
    akr_draw_lines(r, v, n, 0);
    akr_draw_sphere(r, ak_vec3_add(hips, ak_vec3_make(0, st.hip_drop, 0)), 0.02f, drop);
    /* The path so far, 3 cm above the ground. */
    float *pv =
        malloc((size_t)(w->trail_count > 1 ? (w->trail_count - 1) * 2 : 1) * 7 * sizeof(float));
    if (pv) {
        int m = 0;
        for (int i = 1; i < w->trail_count; ++i)
            line(pv, &m, ak_vec3_add(w->trail[i - 1], ak_vec3_make(0, 0.03f, 0)),
                 ak_vec3_add(w->trail[i], ak_vec3_make(0, 0.03f, 0)), path);
        akr_draw_lines(r, pv, m, 1);
        free(pv);
    }
}

void akv_walk_view_hud(akv_walk_view *w, akr_renderer *r)
{
    static const float ink[3] = {0.10f, 0.11f, 0.14f};
    ak_walker_state st;
    ak_walker_get_state(w->walker, &st);
    char line1[256];
    snprintf(line1, sizeof line1, "walker (%s)  t %.2f s  distance to target %.2f m  path %.2f m%s",
             w->clip_label, (double)st.time, (double)st.distance, (double)st.path_length,
             st.stopped   ? "  stopped"
             : st.arrived ? "  arrived"
                          : "");
    akr_draw_text(r, 10.0f, 10.0f, 2.0f, line1, ink);
    snprintf(line1, sizeof line1,
             "stance L %s R %s  hip drop %.1f mm  tilt %.1f/%.1f deg  heading %.0f",
             st.stance[0] ? "on" : "--", st.stance[1] ? "on" : "--",
             (double)(st.hip_drop * 1000.0f), (double)st.tilt_deg[0], (double)st.tilt_deg[1],
             (double)(st.heading * 57.29578f));
    akr_draw_text(r, 10.0f, 30.0f, 2.0f, line1, ink);
}

int akv_walk_view_target_ray(akv_walk_view *w, ak_vec3 origin, ak_vec3 direction)
{
    /* March 5 cm steps until the ray is below the surface, then bisect. */
    ak_ground_hit h;
    float prev = 0.0f;
    for (float t = 0.05f; t < 300.0f; t += 0.05f) {
        ak_vec3 p = ak_vec3_add(origin, ak_vec3_scale(direction, t));
        if (!ak_terrain_sample(w->terrain, p.x, p.z, &h) || p.y > h.height) {
            prev = t;
            continue;
        }
        float lo = prev, hi = t;
        for (int i = 0; i < 20; ++i) {
            float mid = 0.5f * (lo + hi);
            ak_vec3 q = ak_vec3_add(origin, ak_vec3_scale(direction, mid));
            if (ak_terrain_sample(w->terrain, q.x, q.z, &h) && q.y <= h.height)
                hi = mid;
            else
                lo = mid;
        }
        ak_vec3 hit = ak_vec3_add(origin, ak_vec3_scale(direction, hi));
        w->wp.target = ak_vec3_make(hit.x, 0.0f, hit.z);
        ak_walker_set_target(w->walker, w->wp.target);
        return 1;
    }
    return 0;
}

ak_vec3 akv_walk_view_focus(const akv_walk_view *w)
{
    return ak_walker_world_pose(w->walker)[w->hips].translation;
}

int akv_walk_view_key(akv_walk_view *w, int key)
{
    /* 'T': a new target mirrored through the start; 'R' (82) is the view reset, so
     * restart is 'B' (66, back to the beginning). */
    if (key == 84) {
        ak_vec3 t = ak_vec3_make(2.0f * w->wp.start.x - w->wp.target.x, 0.0f, w->wp.target.z);
        w->wp.target = t;
        ak_walker_set_target(w->walker, t);
        return 1;
    }
    if (key == 66) {
        reset(w);
        return 1;
    }
    return 0;
}

#else /* no walker in this tree */

struct akv_walk_view {
    int unused;
};

akv_walk_view *akv_walk_view_create(const akv_settings *s, char *err, size_t err_size)
{
    (void)s;
    snprintf(err, err_size,
             "walker mode is not in this build (the locomotion module has no walker yet)");
    return NULL;
}
void akv_walk_view_destroy(akv_walk_view *w)
{
    free(w);
}
int akv_walk_view_frame_count(const akv_walk_view *w)
{
    (void)w;
    return 1;
}
float akv_walk_view_frame_time(const akv_walk_view *w)
{
    (void)w;
    return 1.0f / 30.0f;
}
void akv_walk_view_step_to(akv_walk_view *w, int frame)
{
    (void)w;
    (void)frame;
}
void akv_walk_view_update(akv_walk_view *w, float dt)
{
    (void)w;
    (void)dt;
}
void akv_walk_view_bounds(akv_walk_view *w, ak_vec3 *lo, ak_vec3 *hi)
{
    (void)w;
    *lo = ak_vec3_make(-1, 0, -1);
    *hi = ak_vec3_make(1, 2, 1);
}
void akv_walk_view_draw(akv_walk_view *w, akr_renderer *r, const akv_settings *s)
{
    (void)w;
    (void)r;
    (void)s;
}
void akv_walk_view_hud(akv_walk_view *w, akr_renderer *r)
{
    (void)w;
    (void)r;
}
int akv_walk_view_key(akv_walk_view *w, int key)
{
    (void)w;
    (void)key;
    return 0;
}
ak_vec3 akv_walk_view_focus(const akv_walk_view *w)
{
    (void)w;
    return ak_vec3_make(0, 0.9f, 0);
}
int akv_walk_view_target_ray(akv_walk_view *w, ak_vec3 origin, ak_vec3 direction)
{
    (void)w;
    (void)origin;
    (void)direction;
    return 0;
}

ak_walker *akv_walk_view_walker(const akv_walk_view *w)
{
    (void)w;
    return NULL;
}
const ak_walk_motion *akv_walk_view_motion(const akv_walk_view *w)
{
    (void)w;
    return NULL;
}

#endif
