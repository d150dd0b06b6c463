/* animkit viewer — walker view: the guide-joint walker of the locomotion module (or, with
 * --steer match, the motion-matching walker) on its terrain, with the target, the guide
 * (ground point and heading), the ground rays under the character and each sole, planted feet
 * (green: held by the grounding or standing on the ground) vs swinging feet (grey), the hip
 * drop (a red bar from the lowered hips up to where the animation had them) and the path walked so
 * far; matching adds the wanted and matched future trajectories (match_overlay.c). The walk itself
 * is the library's walk scenario (animkit/scenario.h), shared with the CLI. */
#include "walk_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/scenario.h"
#include "clip_any.h"
#include "heightmap_png.h"
#include "match_overlay.h"

#define TRAIL_MAX 8192

struct akv_walk_view {
    ak_walk_scene *scene; /* clips, motion, terrain and walker: the library's walk scenario */
    ak_walk_scenario_params scenario;
    ak_vec3 start, target; /* world x,z (y 0) */
    float dt;
    int frame_count; /* frames until the walker stops (or max time) */
    int hips;
    ak_vec3 trail[TRAIL_MAX];
    int trail_count;
    /* the state one frame before the shown one (how fast each foot's points move) */
    ak_walker_state prev;
    int has_prev;
    /* terrain mesh around the walk */
    float *heights;
    /* Stairs: drawn exactly from the terrain's own treads (step_edges: step_count + 1 x values,
     * step_heights: one per tread), not from the sampled grid, whose 0.5 m cells alias them. */
    int step_count;
    float *step_edges, *step_heights;
    int nx, nz;
    float x0, z0, cell;
    char clip_label[128];
    ak_body_mesh *body; /* the walk skeleton's generated body (walk_body), NULL: bones */
};

/* The database's frames as one clip of the database skeleton (every joint's translation kept),
 * for the body to stand on; NULL when out of memory. */
static ak_clip *db_frames_clip(const ak_motion_db *db)
{
    ak_motion_db_info info;
    ak_motion_db_get_info(db, &info);
    const int32_t n = info.joint_count;
    uint8_t *all = malloc((size_t)n);
    ak_xform *local = malloc(sizeof(ak_xform) * (size_t)n);
    ak_clip *c = NULL;
    if (all && local) {
        memset(all, 1, (size_t)n);
        if (ak_clip_create(n, info.frame_count, info.frame_time, all, &c, NULL) != AK_OK) c = NULL;
    }
    for (int32_t f = 0; c && f < info.frame_count; ++f) {
        ak_motion_db_pose(db, f, local);
        for (int32_t j = 0; j < n; ++j) {
            c->rotations[(size_t)f * n + j] = local[j].rotation;
            c->translations[(size_t)f * c->track_count + c->joint_track[j]] = local[j].translation;
        }
    }
    if (c) ak_clip_finalize(c);
    free(all);
    free(local);
    return c;
}

/* The generated body of the walk skeleton, standing on the walk clip's (with --steer match:
 * the database's) most upright frame when the zero pose lies flat (ak_body_params.clip);
 * NULL when the rig gets none (then bones are drawn). */
static ak_body_mesh *walk_body(const ak_walk_scene *scene)
{
    const ak_walk_motion *motion = ak_walk_scene_motion(scene);
    const ak_motion_db *db = ak_walk_scene_motion_db(scene);
    ak_clip *frames = db ? db_frames_clip(db) : NULL;
    ak_body_params p = ak_body_defaults();
    p.clip = frames ? frames : (motion ? ak_walk_motion_clip(motion) : NULL);
    ak_body_mesh *m = NULL;
    if (ak_body_mesh_create(ak_walk_scene_skeleton(scene), &p, &m, NULL) != AK_OK) m = NULL;
    ak_clip_destroy(frames);
    return m;
}

static int frame_of(const akv_walk_view *w)
{
    ak_walk_scene_info info;
    ak_walk_scene_get_info(w->scene, &info);
    return info.frame;
}

static void add_trail_point(akv_walk_view *w)
{
    ak_walker_state s;
    ak_walk_scene_get_state(w->scene, &s);
    if (w->trail_count < TRAIL_MAX) w->trail[w->trail_count++] = s.position;
}

/* Steps one frame and extends the trail. */
static void step(akv_walk_view *w)
{
    ak_walk_scene_get_state(w->scene, &w->prev);
    w->has_prev = 1;
    ak_walk_scene_step(w->scene, NULL);
    add_trail_point(w);
}

static void reset(akv_walk_view *w)
{
    ak_walk_scene_reset(w->scene);
    w->trail_count = 0;
    w->has_prev = 0;
    add_trail_point(w);
}

/* Stairs: the treads along x over the mesh's extent, found where the terrain's height changes
 * (scanned every 5 mm along z = the mesh's middle; a riser's x is the middle of the 5 mm in
 * which the height steps). */
static int find_steps(akv_walk_view *w)
{
    const ak_terrain *terrain = ak_walk_scene_terrain(w->scene);
    const float x_lo = w->x0, x_hi = w->x0 + (float)(w->nx - 1) * w->cell;
    const float z = w->z0 + 0.5f * (float)(w->nz - 1) * w->cell, dx = 0.005f;
    const int samples = (int)((x_hi - x_lo) / dx) + 1;
    int cap = 16;
    w->step_edges = malloc((size_t)(cap + 1) * sizeof(float));
    w->step_heights = malloc((size_t)cap * sizeof(float));
    if (!w->step_edges || !w->step_heights) return -1;
    ak_ground_hit h;
    float prev = ak_terrain_sample(terrain, x_lo, z, &h) ? h.height : 0.0f;
    w->step_edges[0] = x_lo;
    w->step_heights[0] = prev;
    w->step_count = 1;
    for (int i = 1; i < samples; ++i) {
        const float x = x_lo + (float)i * dx;
        const float y = ak_terrain_sample(terrain, x, z, &h) ? h.height : prev;
        if (fabsf(y - prev) < 1e-3f) continue;
        if (w->step_count == cap) {
            cap *= 2;
            float *e = realloc(w->step_edges, (size_t)(cap + 1) * sizeof(float));
            if (e) w->step_edges = e;
            float *hh = e ? realloc(w->step_heights, (size_t)cap * sizeof(float)) : NULL;
            if (!hh) return -1;
            w->step_heights = hh;
        }
        w->step_edges[w->step_count] = x - 0.5f * dx;
        w->step_heights[w->step_count++] = y;
        prev = y;
    }
    w->step_edges[w->step_count] = x_hi;
    return 0;
}

/* Samples the terrain on a grid covering start, target and a margin (at most 160 x 160). */
static int build_terrain_mesh(akv_walk_view *w)
{
    const ak_terrain *terrain = ak_walk_scene_terrain(w->scene);
    float lo_x = fminf(w->start.x, w->target.x) - 14.0f,
          hi_x = fmaxf(w->start.x, w->target.x) + 14.0f;
    float lo_z = fminf(w->start.z, w->target.z) - 14.0f,
          hi_z = fmaxf(w->start.z, w->target.z) + 14.0f;
    float size;
    ak_terrain_info(terrain, NULL, &size, NULL, NULL);
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
            if (ak_terrain_sample(terrain, lo_x + (float)ix * w->cell, lo_z + (float)iz * w->cell,
                                  &h))
                y = h.height;
            w->heights[iz * w->nx + ix] = y;
        }
    int32_t kind = 0;
    ak_terrain_info(terrain, &kind, NULL, NULL, NULL);
    return kind == AK_TERRAIN_STAIRS ? find_steps(w) : 0;
}

/* The walk scenario akv_parse_args filled (the same table, ranges and messages as
 * `animkit walk`), checked again for settings built by code. */
static int parse_scenario(akv_walk_view *w, const akv_settings *s, char *err, size_t err_size)
{
    ak_error e;
    w->scenario = s->walk;
    if (ak_walk_scenario_validate(&w->scenario, &e) != AK_OK) {
        snprintf(err, err_size, "walker: %s (see animkit walk --help)", e.message);
        return -1;
    }
    return 0;
}

/* How long the walk takes: simulate once to the stop (or max time), then start over. */
static void measure_walk(akv_walk_view *w)
{
    ak_walk_scene_info info;
    ak_walk_scene_get_info(w->scene, &info);
    ak_walker_state st;
    ak_walk_scene_get_state(w->scene, &st);
    while (frame_of(w) < info.max_frames && !st.stopped) {
        ak_walk_scene_step(w->scene, NULL);
        ak_walk_scene_get_state(w->scene, &st);
    }
    w->frame_count = frame_of(w);
    reset(w);
}

akv_walk_view *akv_walk_view_create(const akv_settings *s, char *err, size_t err_size)
{
    akv_walk_view *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    ak_error e;
    if (parse_scenario(w, s, err, err_size) != 0) {
        akv_walk_view_destroy(w);
        return NULL;
    }
    if (ak_walk_scene_create_with(&w->scenario, ak_tools_png_heightmap_loader,
                                  ak_tools_read_clip_warn, &w->scene, &e) != AK_OK) {
        snprintf(err, err_size, "%s", e.message);
        akv_walk_view_destroy(w);
        return NULL;
    }
    ak_walk_scene_info info;
    ak_walk_scene_get_info(w->scene, &info);
    w->dt = info.frame_time;
    w->hips = info.hips;
    snprintf(w->clip_label, sizeof w->clip_label, "%s", info.clip_label);
    w->start = ak_vec3_make(w->scenario.start[0], 0.0f, w->scenario.start[1]);
    w->target = ak_vec3_make(w->scenario.target[0], 0.0f, w->scenario.target[1]);
    if (build_terrain_mesh(w) != 0) {
        snprintf(err, err_size, "out of memory");
        akv_walk_view_destroy(w);
        return NULL;
    }
    measure_walk(w);
    w->body = walk_body(w->scene);
    return w;
}

void akv_walk_view_destroy(akv_walk_view *w)
{
    if (!w) return;
    ak_walk_scene_destroy(w->scene);
    ak_body_mesh_destroy(w->body);
    free(w->heights);
    free(w->step_edges);
    free(w->step_heights);
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
    if (frame + 1 < frame_of(w)) reset(w);
    while (frame_of(w) < frame + 1)
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
    ak_walk_scene_get_state(w->scene, &s);
    if (s.stopped) return;
    for (int i = 0; i < n; ++i)
        step(w);
}

void akv_walk_view_bounds(akv_walk_view *w, ak_vec3 *lo, ak_vec3 *hi)
{
    float lo_h = 0.0f, hi_h = 0.0f;
    ak_terrain_info(ak_walk_scene_terrain(w->scene), NULL, NULL, &lo_h, &hi_h);
    *lo = ak_vec3_make(fminf(w->start.x, w->target.x) - 1.0f, lo_h,
                       fminf(w->start.z, w->target.z) - 1.0f);
    *hi = ak_vec3_make(fmaxf(w->start.x, w->target.x) + 1.0f, hi_h + 1.8f,
                       fmaxf(w->start.z, w->target.z) + 1.0f);
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
    if (w->step_count > 0)
        akr_draw_steps(r, w->step_edges, w->step_heights, w->step_count, w->z0,
                       w->z0 + (float)(w->nz - 1) * w->cell);
    else
        akr_draw_terrain(r, w->heights, w->nx, w->nz, w->x0, w->z0, w->cell);
    ak_walker_state st;
    ak_walk_scene_get_state(w->scene, &st);
    const ak_skeleton *sk = ak_walk_scene_skeleton(w->scene);
    const ak_xform *world = ak_walk_scene_world_pose(w->scene);
    /* Shadows on the plane through the ground under the character. */
    akr_set_shadow_plane(r, s->shadows, st.position.y);
    static const float body[3] = {0.90f, 0.42f, 0.32f};
    akv_draw_character(r, s, sk, world, w->body, body);
    akr_set_shadow_plane(r, 0, 0.0f);

    /* Target: a post with a ball on the ground point. */
    ak_ground_hit th;
    float ty = ak_terrain_sample(ak_walk_scene_terrain(w->scene), w->target.x, w->target.z, &th)
                   ? th.height
                   : 0.0f;
    ak_vec3 tgt = ak_vec3_make(w->target.x, ty, w->target.z);
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
    /* Planted (green) and swinging (grey) sole points, as the HUD says. */
    akv_foot_shown feet[2];
    akv_walk_view_feet(w, feet);
    for (int k = 0; k < 2; ++k)
        akr_draw_sphere(r, st.sole[k], 0.035f, feet[k].down ? green : grey);

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
    const ak_matcher *matcher = ak_walk_scene_matcher(w->scene);
    if (matcher) akv_match_overlay_draw(r, matcher, ak_walk_scene_ground(w->scene));
}

/* One HUD line at scale 2, smaller where the window is too narrow for it. */
static void hud_line(akr_renderer *r, float y, const char *text, int width, const float ink[3])
{
    akr_draw_text(r, 10.0f, y, akr_text_fit(text, 2.0f, (float)width - 20.0f), text, ink);
}

/* A contact point counts as down this close to the ground under it (1 cm: the grounding puts
 * planted points within a millimetre; a swinging toe passes higher), and, alone, only slower
 * than AKV_FOOT_DOWN_SPEED: a foot point on the floor rolls and creeps, a swinging one passing
 * near the ground moves at metres a second (tests/locomotion/test_contacts_mocap.c's
 * DOWN_SPEED, the captures' own stance measure). */
#define AKV_FOOT_DOWN_HEIGHT 0.01f
#define AKV_FOOT_DOWN_SPEED  0.3f

/* Point p (heel or toe) of foot k: its height over the ground under it (infinite where no
 * ground), and its speed in m/s since `prev` (infinite without one). */
static void point_motion(const ak_walker_state *now, const ak_walker_state *prev, float dt, int k,
                         int toe, float *height, float *speed)
{
    const ak_vec3 p = toe ? now->toe[k] : now->sole[k];
    const float ground = toe ? now->toe_ground[k] : now->sole_ground[k];
    *height = isfinite(ground) ? p.y - ground : INFINITY;
    *speed = INFINITY;
    if (prev && dt > 0.0f) {
        const ak_vec3 q = toe ? prev->toe[k] : prev->sole[k];
        const float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
        *speed = sqrtf(dx * dx + dy * dy + dz * dz) / dt;
    }
}

void akv_walk_feet_shown(const ak_walker_state *now, const ak_walker_state *prev, float dt,
                         akv_foot_shown out[2])
{
    for (int k = 0; k < 2; ++k) {
        float h[2], v[2];
        for (int p = 0; p < 2; ++p)
            point_motion(now, prev, dt, k, p, &h[p], &v[p]);
        const int low[2] = {h[0] < AKV_FOOT_DOWN_HEIGHT, h[1] < AKV_FOOT_DOWN_HEIGHT};
        const int slow_low =
            (low[0] && v[0] < AKV_FOOT_DOWN_SPEED) || (low[1] && v[1] < AKV_FOOT_DOWN_SPEED);
        out[k].held = now->stance[k] != 0;
        out[k].down = out[k].held || (low[0] && low[1]) || slow_low;
        /* the slower of its points that are down (the heel and toe of a flat foot) */
        const float v0 = low[0] ? v[0] : INFINITY, v1 = low[1] ? v[1] : INFINITY;
        out[k].slide = out[k].down ? fminf(v0, v1) : 0.0f;
        if (!isfinite(out[k].slide)) out[k].slide = 0.0f;
    }
}

void akv_walk_view_feet(const akv_walk_view *w, akv_foot_shown out[2])
{
    ak_walker_state st;
    ak_walk_scene_get_state(w->scene, &st);
    akv_walk_feet_shown(&st, w->has_prev ? &w->prev : NULL, w->dt, out);
}

/* One foot as the HUD names it: planted (the grounding holds it), planted but not held (it
 * stands on the ground by itself, at the speed its points creep), or swinging. */
static void foot_word(char *out, size_t size, const akv_foot_shown *f)
{
    if (f->held)
        snprintf(out, size, "planted");
    else if (f->down)
        snprintf(out, size, "planted (not held, %.2f m/s)", (double)f->slide);
    else
        snprintf(out, size, "swinging");
}

/* A sole's tilt against the ground normal means something only while that foot is planted:
 * a swinging foot's angle is the animation's, not an error. */
static void sole_tilt(char *out, size_t size, int planted, float tilt)
{
    if (planted)
        snprintf(out, size, "%.1f deg", (double)tilt * 57.29577951308232); /* radians in */
    else
        snprintf(out, size, "-- (swing)");
}

void akv_walk_view_feet_text(const akv_walk_view *w, char *out, size_t size)
{
    ak_walker_state st;
    ak_walk_scene_get_state(w->scene, &st);
    akv_foot_shown f[2];
    akv_walk_view_feet(w, f);
    char word[2][48], tilt[2][32];
    for (int k = 0; k < 2; ++k) {
        foot_word(word[k], sizeof word[k], &f[k]);
        sole_tilt(tilt[k], sizeof tilt[k], f[k].down, st.tilt[k]);
    }
    snprintf(out, size, "feet: L %s, R %s   sole tilt from the ground: L %s, R %s", word[0],
             word[1], tilt[0], tilt[1]);
}

void akv_walk_view_hud(akv_walk_view *w, akr_renderer *r, int width)
{
    static const float ink[3] = {0.10f, 0.11f, 0.14f};
    ak_walker_state st;
    ak_walk_scene_get_state(w->scene, &st);
    const ak_matcher *matcher = ak_walk_scene_matcher(w->scene);
    char line[256];
    const char *state = st.stopped ? "  stopped" : st.arrived ? "  arrived" : "";
    if (matcher) /* the clip playing is on line 4 */
        snprintf(line, sizeof line, "matching  t %.2f s  to target %.2f m  path %.2f m%s",
                 (double)st.time, (double)st.distance, (double)st.path_length, state);
    else
        snprintf(line, sizeof line, "walker (%s)  t %.2f s  to target %.2f m  path %.2f m%s",
                 w->clip_label, (double)st.time, (double)st.distance, (double)st.path_length,
                 state);
    hud_line(r, 10.0f, line, width, ink);
    akv_walk_view_feet_text(w, line, sizeof line);
    hud_line(r, 30.0f, line, width, ink);
    snprintf(line, sizeof line,
             "hip drop by foot IK: %.1f mm (negative: raised)   heading %.0f deg (0 = +Z, 90 = +X)",
             (double)(st.hip_drop * 1000.0f), (double)(st.heading * 57.29578f));
    hud_line(r, 50.0f, line, width, ink);
    if (matcher)
        akv_match_overlay_hud(r, matcher, ak_walk_scene_motion_db(w->scene), 10.0f, 70.0f, ink);
}

const char *akv_walk_view_clip_label(const akv_walk_view *w)
{
    return w->clip_label;
}

int akv_walk_view_target_ray(akv_walk_view *w, ak_vec3 origin, ak_vec3 direction)
{
    /* March 5 cm steps until the ray is below the surface, then bisect. */
    ak_ground_hit h;
    float prev = 0.0f;
    for (float t = 0.05f; t < 300.0f; t += 0.05f) {
        ak_vec3 p = ak_vec3_add(origin, ak_vec3_scale(direction, t));
        if (!ak_terrain_sample(ak_walk_scene_terrain(w->scene), p.x, p.z, &h) || p.y > h.height) {
            prev = t;
            continue;
        }
        float lo = prev, hi = t;
        for (int i = 0; i < 20; ++i) {
            float mid = 0.5f * (lo + hi);
            ak_vec3 q = ak_vec3_add(origin, ak_vec3_scale(direction, mid));
            if (ak_terrain_sample(ak_walk_scene_terrain(w->scene), q.x, q.z, &h) && q.y <= h.height)
                hi = mid;
            else
                lo = mid;
        }
        ak_vec3 hit = ak_vec3_add(origin, ak_vec3_scale(direction, hi));
        w->target = ak_vec3_make(hit.x, 0.0f, hit.z);
        ak_walk_scene_set_target(w->scene, w->target);
        return 1;
    }
    return 0;
}

ak_walk_scene *akv_walk_view_scene(akv_walk_view *w)
{
    return w->scene;
}

ak_vec3 akv_walk_view_focus(const akv_walk_view *w)
{
    return ak_walk_scene_world_pose(w->scene)[w->hips].translation;
}

/* A foot point at the ground under it, or where it is when lower or no ground is known. */
static ak_vec3 on_ground(ak_vec3 p, float ground)
{
    if (isfinite(ground) && ground < p.y) p.y = ground;
    return p;
}

int akv_walk_view_figure(const akv_walk_view *w, ak_vec3 *out, int max)
{
    if (max < 5) return 0;
    const ak_skeleton *sk = ak_walk_scene_skeleton(w->scene);
    const ak_xform *world = ak_walk_scene_world_pose(w->scene);
    ak_vec3 top = world[0].translation;
    for (int32_t j = 1; j < sk->joint_count; ++j)
        if (world[j].translation.y > top.y) top = world[j].translation;
    top.y += AKV_HEAD_TOP;
    ak_walker_state st;
    ak_walk_scene_get_state(w->scene, &st);
    out[0] = top;
    for (int k = 0; k < 2; ++k) {
        out[1 + 2 * k] = on_ground(st.sole[k], st.sole_ground[k]);
        out[2 + 2 * k] = on_ground(st.toe[k], st.toe_ground[k]);
    }
    return 5;
}

int akv_walk_view_key(akv_walk_view *w, int key)
{
    /* 'T': a new target mirrored through the start; 'R' (82) is the view reset, so
     * restart is 'B' (66, back to the beginning). */
    if (key == 84) {
        ak_vec3 t = ak_vec3_make(2.0f * w->start.x - w->target.x, 0.0f, w->target.z);
        w->target = t;
        ak_walk_scene_set_target(w->scene, t);
        return 1;
    }
    if (key == 66) {
        reset(w);
        return 1;
    }
    return 0;
}
