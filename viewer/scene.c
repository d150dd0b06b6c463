/* animkit viewer — scene: loading, posing, bounds, drawing, and the shared flags. */
#include "scene.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEG (3.14159265358979f / 180.0f)

const float akv_palette[8][3] = {
    {0.90f, 0.42f, 0.32f}, /* coral */
    {0.20f, 0.60f, 0.68f}, /* teal */
    {0.93f, 0.70f, 0.22f}, /* amber */
    {0.56f, 0.44f, 0.82f}, /* violet */
    {0.42f, 0.70f, 0.32f}, /* green */
    {0.30f, 0.48f, 0.90f}, /* blue */
    {0.88f, 0.45f, 0.70f}, /* pink */
    {0.50f, 0.50f, 0.52f}, /* grey */
};

void akv_settings_defaults(akv_settings *s, int headless)
{
    memset(s, 0, sizeof *s);
    s->mode = AKV_MODE_PLAY;
    s->width = headless ? 800 : 1280;
    s->height = headless ? 600 : 800;
    s->frame = -1;
    s->frame_step = 1;
    s->speed = 1.0f;
    s->loop = 1;
    s->interp = AK_INTERP_LINEAR;
    s->units = "auto";
    s->yaw = 35.0f * DEG;
    s->pitch = 14.0f * DEG;
    s->grid = 1;
    s->shadows = 1;
    s->hud = headless ? 0 : 1;
    s->radius = 0.03f;
    s->ik_solver = "limb";
    s->ik_iterations = 100;
}

void akv_print_flags(FILE *out)
{
    fprintf(
        out,
        "files:   FILE.bvh ...            one or more BVH files, each drawn in its own colour; files that\n"
        "                                 start in one spot stand side by side (--overlay: keep them)\n"
        "output:  --out FILE              .png (one frame or a contact sheet), .gif or .mp4 "
        "(ffmpeg)\n"
        "         --frame N               render frame N (default 0)\n"
        "         --frames A:B[:STEP]     render frames A..B (inclusive) every STEP\n"
        "         --sheet                 with --frames and a .png: one contact sheet instead of "
        "numbered PNGs\n"
        "         --sheet-cols N          columns of the contact sheet (default: about square)\n"
        "         --fps F                 frame rate of a GIF/MP4 (default: the clip's, at most "
        "30)\n"
        "         --size WxH              image or window size in pixels\n"
        "playback: --time S  --speed X  --loop | --no-loop  --paused\n"
        "         --interp step|linear|cubic   --in-place (hold the root over its start)\n"
        "units:   --units auto|m|cm|cmu|in|mm   --scale METRES_PER_UNIT\n"
        "camera:  --yaw DEG  --pitch DEG  --distance M  --follow JOINT\n"
        "look:    --no-grid  --no-shadows  --hud | --no-hud  --radius M (bone radius)\n"
        "window:  --screenshot FILE.png   draw a few frames, save the window, exit (for tests)\n"
        "modes:   --ik                    IK mode: drag the target of a chain (window) or solve "
        "once (headless)\n"
        "         --ik-chain ROOT,TIP  --solver limb|ccd|fabrik|jacobian|dls  --iterations N  "
        "--target x,y,z  --pole x,y,z\n"
        "         --walk [walk flags]     the walker on terrain (flags as `animkit walk`)\n");
}

static int usage(const char *prog, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see '%s --help')\n", prog);
    return 2;
}

static int parse_f(const char *v, float *out)
{
    if (!v || !*v) return -1;
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (errno || *end || !isfinite(d)) return -1;
    *out = (float)d;
    return 0;
}

static int parse_i(const char *v, int *out)
{
    if (!v || !*v) return -1;
    char *end;
    errno = 0;
    long l = strtol(v, &end, 10);
    if (errno || *end || l < -1000000000L || l > 1000000000L) return -1;
    *out = (int)l;
    return 0;
}

/* The flags of the walk scenario (`animkit walk`), which the walker view takes: the index in
 * its flag table, or -1. `--size S` (heightmap side) is told apart from the picture's
 * `--size WxH` by the x. */
static int walker_flag(const char *a, const char *v)
{
    if (a[0] != '-' || a[1] != '-') return -1;
    if (strcmp(a, "--size") == 0 && (!v || strchr(v, 'x'))) return -1;
    return ak_flags_find(ak_walk_scenario_flags(), a + 2);
}

int akv_parse_args(akv_settings *s, int argc, char **argv, const char *prog, int *wants_help)
{
    *wants_help = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                                               \
    do {                                                                                           \
        if (!v) return usage(prog, "%s needs a value", a);                                         \
        ++i;                                                                                       \
    } while (0)
        const int wf = s->mode == AKV_MODE_WALK ? walker_flag(a, v) : -1;
        if (wf >= 0) {
            /* walker flags pass through, with their value */
            if (s->walk_argc + 2 >= 64) return usage(prog, "too many walker flags (%s)", a);
            s->walk_argv[s->walk_argc++] = a;
            if (ak_walk_scenario_flags()->flags[wf].type != AK_FLAG_SWITCH) {
                if (!v) return usage(prog, "%s needs a value", a);
                s->walk_argv[s->walk_argc++] = v;
                ++i;
            }
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            *wants_help = 1;
            return 0;
        } else if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) {
            NEED_VALUE();
            s->out = v;
        } else if (strcmp(a, "--size") == 0) {
            NEED_VALUE();
            if (sscanf(v, "%dx%d", &s->width, &s->height) != 2 || s->width < 16 || s->height < 16 ||
                s->width > 8192 || s->height > 8192)
                return usage(prog, "--size wants WxH between 16 and 8192, got '%s'", v);
        } else if (strcmp(a, "--frame") == 0) {
            NEED_VALUE();
            if (parse_i(v, &s->frame) || s->frame < 0)
                return usage(prog, "--frame wants a frame number >= 0, got '%s'", v);
        } else if (strcmp(a, "--frames") == 0) {
            NEED_VALUE();
            s->frame_step = 1;
            int n = sscanf(v, "%d:%d:%d", &s->frame_a, &s->frame_b, &s->frame_step);
            if (n < 2 || s->frame_a < 0 || s->frame_b < s->frame_a || s->frame_step < 1)
                return usage(
                    prog, "--frames wants A:B[:STEP] with 0 <= A <= B and STEP >= 1, got '%s'", v);
            s->have_frames = 1;
        } else if (strcmp(a, "--sheet") == 0) {
            s->sheet = 1;
        } else if (strcmp(a, "--sheet-cols") == 0) {
            NEED_VALUE();
            if (parse_i(v, &s->sheet_cols) || s->sheet_cols < 1)
                return usage(prog, "--sheet-cols wants N >= 1, got '%s'", v);
        } else if (strcmp(a, "--fps") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->fps) || s->fps <= 0 || s->fps > 240)
                return usage(prog, "--fps wants 0 < F <= 240, got '%s'", v);
        } else if (strcmp(a, "--time") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->time) || s->time < 0)
                return usage(prog, "--time wants seconds >= 0, got '%s'", v);
        } else if (strcmp(a, "--speed") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->speed) || s->speed < -16 || s->speed > 16)
                return usage(prog, "--speed wants -16..16, got '%s'", v);
        } else if (strcmp(a, "--loop") == 0) {
            s->loop = 1;
        } else if (strcmp(a, "--no-loop") == 0) {
            s->loop = 0;
        } else if (strcmp(a, "--paused") == 0) {
            s->paused = 1;
        } else if (strcmp(a, "--in-place") == 0) {
            s->in_place = 1;
        } else if (strcmp(a, "--overlay") == 0) {
            s->overlay = 1;
        } else if (strcmp(a, "--interp") == 0) {
            NEED_VALUE();
            if (strcmp(v, "step") == 0)
                s->interp = AK_INTERP_STEP;
            else if (strcmp(v, "linear") == 0)
                s->interp = AK_INTERP_LINEAR;
            else if (strcmp(v, "cubic") == 0)
                s->interp = AK_INTERP_CUBIC;
            else
                return usage(prog, "--interp wants step, linear or cubic, got '%s'", v);
        } else if (strcmp(a, "--units") == 0) {
            NEED_VALUE();
            const char *ok[] = {"auto", "m", "cm", "cmu", "in", "mm"};
            int found = 0;
            for (size_t k = 0; k < sizeof ok / sizeof ok[0]; ++k)
                found |= strcmp(v, ok[k]) == 0;
            if (!found) return usage(prog, "--units wants auto, m, cm, cmu, in or mm, got '%s'", v);
            s->units = v;
        } else if (strcmp(a, "--scale") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->scale) || s->scale <= 0)
                return usage(prog, "--scale wants metres per unit > 0, got '%s'", v);
        } else if (strcmp(a, "--yaw") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->yaw)) return usage(prog, "--yaw wants degrees, got '%s'", v);
            s->yaw *= DEG;
        } else if (strcmp(a, "--pitch") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->pitch) || s->pitch < -89 || s->pitch > 89)
                return usage(prog, "--pitch wants -89..89 degrees, got '%s'", v);
            s->pitch *= DEG;
            s->pitch_set = 1;
        } else if (strcmp(a, "--distance") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->distance) || s->distance <= 0)
                return usage(prog, "--distance wants metres > 0, got '%s'", v);
        } else if (strcmp(a, "--follow") == 0) {
            NEED_VALUE();
            s->follow = v;
        } else if (strcmp(a, "--no-grid") == 0) {
            s->grid = 0;
        } else if (strcmp(a, "--no-shadows") == 0) {
            s->shadows = 0;
        } else if (strcmp(a, "--hud") == 0) {
            s->hud = 1;
        } else if (strcmp(a, "--no-hud") == 0) {
            s->hud = 0;
        } else if (strcmp(a, "--radius") == 0) {
            NEED_VALUE();
            if (parse_f(v, &s->radius) || s->radius <= 0 || s->radius > 1)
                return usage(prog, "--radius wants metres in (0, 1], got '%s'", v);
        } else if (strcmp(a, "--screenshot") == 0) {
            NEED_VALUE();
            s->screenshot = v;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            s->verbose = 1;
        } else if (strcmp(a, "--ik") == 0) {
            s->mode = AKV_MODE_IK;
        } else if (strcmp(a, "--ik-chain") == 0) {
            NEED_VALUE();
            s->ik_chain = v;
        } else if (strcmp(a, "--solver") == 0) {
            NEED_VALUE();
            s->ik_solver = v;
        } else if (strcmp(a, "--iterations") == 0) {
            NEED_VALUE();
            if (parse_i(v, &s->ik_iterations) || s->ik_iterations < 1 || s->ik_iterations > 10000)
                return usage(prog, "--iterations wants 1..10000, got '%s'", v);
        } else if (strcmp(a, "--target") == 0) {
            NEED_VALUE();
            if (sscanf(v, "%f,%f,%f", &s->ik_target.x, &s->ik_target.y, &s->ik_target.z) != 3)
                return usage(prog, "--target wants x,y,z in metres, got '%s'", v);
            s->have_ik_target = 1;
        } else if (strcmp(a, "--pole") == 0) {
            NEED_VALUE();
            if (sscanf(v, "%f,%f,%f", &s->ik_pole.x, &s->ik_pole.y, &s->ik_pole.z) != 3)
                return usage(prog, "--pole wants x,y,z in metres, got '%s'", v);
            s->have_ik_pole = 1;
        } else if (strcmp(a, "--walk") == 0) {
            s->mode = AKV_MODE_WALK;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage(prog, "unknown option '%s'", a);
        } else {
            if (s->file_count >= AKV_MAX_FILES) return usage(prog, "at most 16 files (%s)", a);
            s->files[s->file_count++] = a;
        }
#undef NEED_VALUE
    }
    return 0;
}

static float units_scale(const akv_settings *s, float height, ak_units *units)
{
    if (s->scale > 0) {
        *units = AK_UNITS_METRES;
        return s->scale;
    }
    if (strcmp(s->units, "auto") == 0) {
        float mpu;
        *units = ak_units_detect(height, &mpu);
        return mpu;
    }
    static const struct {
        const char *name;
        ak_units u;
    } k[] = {{"m", AK_UNITS_METRES},
             {"cm", AK_UNITS_CENTIMETRES},
             {"cmu", AK_UNITS_CMU},
             {"in", AK_UNITS_INCHES},
             {"mm", AK_UNITS_MILLIMETRES}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i)
        if (strcmp(s->units, k[i].name) == 0) {
            *units = k[i].u;
            return ak_units_metres_per_unit(k[i].u);
        }
    *units = AK_UNITS_METRES;
    return 1.0f;
}

/* Characters that start in the same spot (a capture and its retarget, two takes of one
 * subject) would be drawn inside each other: move each new one sideways (+X, across the
 * usual +Z walking direction) until its start is clear of every earlier one by 0.6 of their
 * summed heights. --overlay keeps the files' own positions. */
static void place_side_by_side(const akv_scene *scene, const akv_settings *s, akv_character *c)
{
    c->offset_m = ak_vec3_make(0.0f, 0.0f, 0.0f);
    if (s->overlay) return;
    for (int moved = 1, guard = 0; moved && guard < AKV_MAX_FILES; ++guard) {
        moved = 0;
        for (int i = 0; i < scene->count; ++i) {
            const akv_character *o = &scene->chars[i];
            float gap = 0.6f * (o->height_m + c->height_m);
            float dx = (c->root_start_m.x + c->offset_m.x) - (o->root_start_m.x + o->offset_m.x);
            float dz = (c->root_start_m.z + c->offset_m.z) - (o->root_start_m.z + o->offset_m.z);
            if (dx * dx + dz * dz >= gap * gap) continue;
            c->offset_m.x = o->root_start_m.x + o->offset_m.x + gap - c->root_start_m.x;
            moved = 1;
        }
    }
}

int akv_scene_add(akv_scene *scene, const akv_settings *s, const char *label, ak_skeleton *skeleton,
                  ak_clip *clip, char *err, size_t err_size)
{
    if (scene->count >= AKV_MAX_FILES) {
        snprintf(err, err_size, "at most %d characters", AKV_MAX_FILES);
        ak_skeleton_destroy(skeleton);
        ak_clip_destroy(clip);
        return -1;
    }
    akv_character *c = &scene->chars[scene->count];
    memset(c, 0, sizeof *c);
    snprintf(c->label, sizeof c->label, "%s", label);
    c->skeleton = skeleton;
    c->clip = clip;
    /* Standing height as the CLI measures it: the larger of the rest pose and frame 0, so a
     * rig resting folded or lying still measures as standing. */
    float height = ak_skeleton_rest_height(skeleton);
    if (clip) {
        ak_xform *tmp_l = malloc((size_t)skeleton->joint_count * 2 * sizeof *tmp_l);
        if (tmp_l) {
            ak_clip_frame(clip, skeleton, 0, tmp_l);
            ak_fk(skeleton, tmp_l, tmp_l + skeleton->joint_count);
            float h0 = ak_pose_height(tmp_l + skeleton->joint_count, skeleton->joint_count);
            if (h0 > height) height = h0;
            free(tmp_l);
        }
    }
    c->mpu = units_scale(s, height, &c->units);
    memcpy(c->colour, akv_palette[scene->count % 8], sizeof c->colour);
    size_t n = (size_t)skeleton->joint_count;
    c->local = malloc(n * sizeof *c->local);
    c->world_m = malloc(n * sizeof *c->world_m);
    if (!c->local || !c->world_m) {
        free(c->local);
        free(c->world_m);
        ak_skeleton_destroy(skeleton);
        ak_clip_destroy(clip);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    if (clip) {
        clip->loop = s->loop;
        ak_clip_frame(clip, skeleton, 0, c->local);
    } else {
        ak_pose_rest(skeleton, c->local);
    }
    ak_fk(skeleton, c->local, c->world_m);
    c->root_start_m = ak_vec3_scale(c->world_m[0].translation, c->mpu);
    c->height_m = height * c->mpu;
    place_side_by_side(scene, s, c);
    scene->count++;
    return 0;
}

int akv_scene_add_file(akv_scene *scene, const akv_settings *s, const char *path, char *err,
                       size_t err_size)
{
    ak_skeleton *sk;
    ak_clip *clip;
    ak_error e;
    if (ak_bvh_read_file(path, NULL, &sk, &clip, &e) != AK_OK) {
        if (e.line > 0)
            snprintf(err, err_size, "%s:%d: %s", path, (int)e.line, e.message);
        else
            snprintf(err, err_size, "%s: %s", path, e.message);
        return -1;
    }
    /* The viewer switches interpolation modes live: have cubic's control points ready. */
    ak_clip_prepare_cubic(clip);
    const char *base = strrchr(path, '/');
    return akv_scene_add(scene, s, base ? base + 1 : path, sk, clip, err, err_size);
}

void akv_scene_free(akv_scene *scene)
{
    for (int i = 0; i < scene->count; ++i) {
        akv_character *c = &scene->chars[i];
        ak_skeleton_destroy(c->skeleton);
        ak_clip_destroy(c->clip);
        free(c->local);
        free(c->world_m);
    }
    memset(scene, 0, sizeof *scene);
}

float akv_scene_duration(const akv_scene *scene, int loop)
{
    float d = 0.0f;
    for (int i = 0; i < scene->count; ++i) {
        const ak_clip *c = scene->chars[i].clip;
        if (!c) continue;
        float di = loop ? (float)c->frame_count * c->frame_time
                        : (float)(c->frame_count - 1) * c->frame_time;
        if (di > d) d = di;
    }
    return d;
}

float akv_scene_frame_time(const akv_scene *scene)
{
    for (int i = 0; i < scene->count; ++i)
        if (scene->chars[i].clip) return scene->chars[i].clip->frame_time;
    return 1.0f / 30.0f;
}

int akv_scene_frame_count(const akv_scene *scene)
{
    for (int i = 0; i < scene->count; ++i)
        if (scene->chars[i].clip) return scene->chars[i].clip->frame_count;
    return 1;
}

void akv_scene_pose(akv_scene *scene, const akv_settings *s, float time)
{
    scene->time = time;
    for (int i = 0; i < scene->count; ++i) {
        akv_character *c = &scene->chars[i];
        if (c->clip) {
            c->clip->loop = s->loop;
            ak_clip_sample(c->clip, c->skeleton, time, s->interp, c->local);
        }
        ak_fk(c->skeleton, c->local, c->world_m);
        int32_t n = c->skeleton->joint_count;
        ak_vec3 shift = ak_vec3_make(0, 0, 0);
        if (s->in_place) {
            ak_vec3 root = ak_vec3_scale(c->world_m[0].translation, c->mpu);
            shift = ak_vec3_make(c->root_start_m.x - root.x, 0.0f, c->root_start_m.z - root.z);
        }
        shift = ak_vec3_add(shift, c->offset_m);
        for (int32_t j = 0; j < n; ++j)
            c->world_m[j].translation =
                ak_vec3_add(ak_vec3_scale(c->world_m[j].translation, c->mpu), shift);
    }
}

void akv_scene_bounds(akv_scene *scene, const akv_settings *s, int a, int b, int step, ak_vec3 *lo,
                      ak_vec3 *hi)
{
    float big = 1e30f;
    *lo = ak_vec3_make(big, big, big);
    *hi = ak_vec3_make(-big, -big, -big);
    float ft = akv_scene_frame_time(scene);
    if (step < 1) step = 1;
    for (int f = a; f <= b; f += step) {
        akv_scene_pose(scene, s, (float)f * ft);
        for (int i = 0; i < scene->count; ++i) {
            const akv_character *c = &scene->chars[i];
            for (int32_t j = 0; j < c->skeleton->joint_count; ++j) {
                ak_vec3 p = c->world_m[j].translation;
                if (p.x < lo->x) lo->x = p.x;
                if (p.y < lo->y) lo->y = p.y;
                if (p.z < lo->z) lo->z = p.z;
                if (p.x > hi->x) hi->x = p.x;
                if (p.y > hi->y) hi->y = p.y;
                if (p.z > hi->z) hi->z = p.z;
            }
        }
    }
    if (lo->x > hi->x) {
        *lo = ak_vec3_make(-0.5f, 0.0f, -0.5f);
        *hi = ak_vec3_make(0.5f, 1.8f, 0.5f);
    }
    if (lo->y > 0.0f) lo->y = 0.0f; /* keep the ground in view */
}

void akv_scene_draw(akr_renderer *r, const akv_scene *scene, const akv_settings *s)
{
    if (s->grid) akr_draw_ground(r, 0.0f, 30.0f);
    akr_set_shadow_plane(r, s->shadows, 0.0f);
    for (int i = 0; i < scene->count; ++i) {
        const akv_character *c = &scene->chars[i];
        akr_draw_skeleton(r, c->skeleton, c->world_m, s->radius, c->colour);
    }
    akr_set_shadow_plane(r, 0, 0.0f);
}

ak_vec3 akv_scene_joint_m(const akv_scene *scene, const char *joint)
{
    if (scene->count == 0) return ak_vec3_make(0, 0.9f, 0);
    const akv_character *c = &scene->chars[0];
    int32_t j = joint ? ak_skeleton_find(c->skeleton, joint) : 0;
    if (j < 0) j = 0;
    return c->world_m[j].translation;
}
