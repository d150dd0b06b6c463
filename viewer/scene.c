/* animkit viewer — scene: loading, posing, bounds, drawing, and the shared flags. */
#include "scene.h"

#include "clip_any.h"

#include <math.h>
#include <stddef.h>
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

#define AKV_FIELD(f) offsetof(akv_settings, f)
#define AKV_VALUE(f) offsetof(akv_settings, flag_values.f)
#define AKV_TEXT(f)  AKV_VALUE(f), sizeof(((akv_settings *)0)->flag_values.f)

/* Every viewer setting, once: parsing, --help and messages come from here. */
static const ak_flag k_viewer_flags[] = {
    {.name = "out",
     .short_name = 'o',
     .type = AK_FLAG_TEXT,
     .offset = AKV_TEXT(out),
     .metavar = "FILE",
     .help = ".png (one frame or a contact sheet), .gif or .mp4 (ffmpeg)"},
    {.name = "frame",
     .type = AK_FLAG_INT,
     .offset = AKV_FIELD(frame),
     .metavar = "N",
     .def = "-1",
     .range = "[0,1000000000]",
     .help = "render frame N (default 0)"},
    {.name = "frames",
     .type = AK_FLAG_INT,
     .offset = AKV_VALUE(frames),
     .count = 3,
     .min_count = 2,
     .separator = ':',
     .metavar = "A:B[:STEP]",
     .def = "0:0:1",
     .range = "[0,1000000000]",
     .help = "render frames A..B (inclusive) every STEP"},
    {.name = "sheet",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(sheet),
     .on = 1,
     .help = "with --frames and a .png: one contact sheet instead of numbered PNGs"},
    {.name = "sheet-cols",
     .type = AK_FLAG_INT,
     .offset = AKV_FIELD(sheet_cols),
     .metavar = "N",
     .def = "0",
     .range = "[1,1000]",
     .help = "columns of the contact sheet (default: about square)"},
    {.name = "fps",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_FIELD(fps),
     .metavar = "F",
     .def = "0",
     .range = "(0,240]",
     .help = "frame rate of a GIF/MP4 (default: the clip's, at most 30)"},
    {.name = "size",
     .type = AK_FLAG_INT,
     .offset = AKV_VALUE(size),
     .count = 2,
     .separator = 'x',
     .metavar = "WxH",
     .range = "[16,8192]",
     .help = "image or window size in pixels"},
    {.name = "time",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_FIELD(time),
     .metavar = "S",
     .def = "0",
     .range = "[0,1000000]",
     .help = "start time, seconds"},
    {.name = "speed",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_FIELD(speed),
     .metavar = "X",
     .def = "1",
     .range = "[-16,16]",
     .help = "playback speed"},
    {.name = "loop",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(loop),
     .on = 1,
     .def = "1",
     .help = "loop the clips (default)"},
    {.name = "no-loop",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(loop),
     .on = 0,
     .def = "1",
     .help = "play once and hold the last frame"},
    {.name = "paused",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(paused),
     .on = 1,
     .help = "start paused"},
    {.name = "in-place",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(in_place),
     .on = 1,
     .help = "hold the root over its start"},
    {.name = "overlay",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(overlay),
     .on = 1,
     .help = "draw files where they are, even on top of each other (default: side by side)"},
    {.name = "interp",
     .type = AK_FLAG_CHOICE,
     .offset = AKV_FIELD(interp),
     .def = "linear",
     .choices = "step|linear|cubic",
     .help = "interpolation between keys"},
    {.name = "units",
     .type = AK_FLAG_CHOICE,
     .offset = AKV_VALUE(units),
     .def = "auto",
     .choices = "auto|m|cm|cmu|in|mm",
     .help = "file units (auto: from the standing height)"},
    {.name = "scale",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_FIELD(scale),
     .metavar = "M",
     .def = "0",
     .range = "(0,1000000]",
     .help = "metres per file unit (overrides --units)"},
    {.name = "yaw",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_VALUE(yaw_deg),
     .metavar = "DEG",
     .def = "35",
     .range = "[-100000,100000]",
     .help = "camera yaw: the side of the world the camera looks from, not the character's: "
             "0 from +Z looking toward -Z, 90 from +X (a walk along +X is seen from its side at 0 "
             "and from the front at 90)"},
    {.name = "pitch",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_VALUE(pitch_deg),
     .metavar = "DEG",
     .def = "14",
     .range = "[-89,89]",
     .help = "camera pitch: how far above the horizontal the camera looks down from (0 level, "
             "89 from above; default 14, rendering the walker 32)"},
    {.name = "distance",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_FIELD(distance),
     .metavar = "M",
     .def = "0",
     .range = "(0,1000000]",
     .help = "camera distance (default: fit the motion; rendering the walker 5). A picture "
             "frames the character it follows from the top of its head to the ground under its "
             "feet; where that needs the camera farther away at this pitch and picture size, it "
             "backs off (and says so)"},
    {.name = "follow",
     .type = AK_FLAG_TEXT,
     .offset = AKV_TEXT(follow),
     .metavar = "JOINT",
     .help = "keep the camera on this joint of the first file (several pictures follow the "
             "root by default; off: a still camera over the whole motion)"},
    {.name = "root-joint",
     .type = AK_FLAG_TEXT,
     .offset = AKV_TEXT(root_joint),
     .metavar = "NAME",
     .help = "the joint that carries the travel (default: measured: the top joint, or the hips "
             "under a still one); side by side, --in-place and the camera use it"},
    AK_CLI_UP_FLAG(AKV_VALUE(up)),
    {.name = "no-grid",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(grid),
     .on = 0,
     .def = "1",
     .help = "no ground grid"},
    {.name = "no-shadows",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(shadows),
     .on = 0,
     .def = "1",
     .help = "no shadows"},
    {.name = "hud",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(hud),
     .on = 1,
     .help = "text overlay (default in the window)"},
    {.name = "no-hud",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(hud),
     .on = 0,
     .help = "no text overlay (default headless)"},
    {.name = "radius",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_FIELD(radius),
     .metavar = "M",
     .def = "0.03",
     .range = "(0,1]",
     .help = "bone radius"},
    {.name = "look",
     .type = AK_FLAG_CHOICE,
     .offset = AKV_VALUE(look),
     .def = "body",
     .choices = "body|bones",
     .help = "draw each character as a skinned body with feet, or as capsule bones (key B)"},
    {.name = "skinning",
     .type = AK_FLAG_CHOICE,
     .offset = AKV_VALUE(skinning),
     .def = "dqs",
     .choices = "lbs|dqs",
     .help = "body skinning on the GPU: linear blend or dual quaternion (key K)"},
    {.name = "bones",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(look.bones),
     .on = 1,
     .help = "draw the bones as lines over the body (key O)"},
    {.name = "screenshot",
     .type = AK_FLAG_TEXT,
     .offset = AKV_TEXT(screenshot),
     .metavar = "FILE.png",
     .help = "window: draw a few frames, save the window, exit (for tests)"},
    {.name = "verbose",
     .short_name = 'v',
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(verbose),
     .on = 1,
     .help = "say more"},
    {.name = "ik",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(mode),
     .on = AKV_MODE_IK,
     .help = "IK mode: drag the target of a chain (window) or solve once (headless)"},
    {.name = "ik-chain",
     .type = AK_FLAG_TEXT,
     .offset = AKV_TEXT(ik_chain),
     .metavar = "ROOT,TIP",
     .help = "IK mode: the chain (default: the right arm)"},
    {.name = "solver",
     .type = AK_FLAG_CHOICE,
     .offset = AKV_VALUE(solver),
     .def = "limb",
     .choices = "limb|ccd|fabrik|jacobian|dls",
     .help = "IK mode: the solver"},
    {.name = "iterations",
     .type = AK_FLAG_INT,
     .offset = AKV_FIELD(ik_iterations),
     .metavar = "N",
     .def = "100",
     .range = "[1,10000]",
     .help = "IK mode: iteration cap"},
    {.name = "target",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_VALUE(target),
     .count = 3,
     .metavar = "X,Y,Z",
     .help = "IK mode: the target, metres"},
    {.name = "pole",
     .type = AK_FLAG_FLOAT,
     .offset = AKV_VALUE(pole),
     .count = 3,
     .metavar = "X,Y,Z",
     .help = "IK mode: the middle joint bends toward it (limb), metres"},
    {.name = "walk",
     .type = AK_FLAG_SWITCH,
     .offset = AKV_FIELD(mode),
     .on = AKV_MODE_WALK,
     .help = "the walker on terrain; the walk flags below apply"},
};
static const ak_flag_table k_viewer_table = {
    "view", k_viewer_flags, (int32_t)(sizeof k_viewer_flags / sizeof k_viewer_flags[0])};

static void apply_values(akv_settings *s, const ak_flags_result *r, int vt);

void akv_settings_defaults(akv_settings *s, int headless)
{
    ak_flags_result none;
    memset(s, 0, sizeof *s);
    memset(&none, 0, sizeof none);
    ak_flags_defaults(&k_viewer_table, s, NULL);
    s->walk = ak_walk_scenario_defaults();
    s->mode = AKV_MODE_PLAY;
    s->width = headless ? 800 : 1280;
    s->height = headless ? 600 : 800;
    s->hud = headless ? 0 : 1;
    apply_values(s, &none, 0);
}

void akv_print_flags(FILE *out)
{
    char help[8192];
    ak_flags_help(&k_viewer_table, help, sizeof help);
    fprintf(out,
            "files:  FILE.bvh ...  one or more BVH files, each drawn in its own colour\n\n"
            "options:\n%s  %-24s this help\n\nwith --walk (the flags of `animkit walk`; a "
            "viewer --size WxH has an x):\n",
            help, "-h, --help");
    ak_flags_help(ak_walk_scenario_flags(), help, sizeof help);
    fputs(help, out);
}

static int usage(const char *prog, const char *message)
{
    fprintf(stderr, "%s: %s\n(see '%s --help')\n", prog, message, prog);
    return 2;
}

/* The table's values -> the settings' pointers, radians and flags. */
static void apply_values(akv_settings *s, const ak_flags_result *r, int vt)
{
    static const char *const k_units[] = {"auto", "m", "cm", "cmu", "in", "mm"};
    const akv_settings *v = s;
    s->out = v->flag_values.out[0] ? v->flag_values.out : NULL;
    s->follow = v->flag_values.follow[0] ? v->flag_values.follow : NULL;
    s->root_joint = v->flag_values.root_joint[0] ? v->flag_values.root_joint : NULL;
    /* how the files to come are read: in walk mode the scenario takes --up (its table first) */
    ak_tools_set_up(vt ? s->walk.up : v->flag_values.up);
    s->screenshot = v->flag_values.screenshot[0] ? v->flag_values.screenshot : NULL;
    s->ik_chain = v->flag_values.ik_chain[0] ? v->flag_values.ik_chain : NULL;
    s->units = k_units[v->flag_values.units];
    s->ik_solver = ak_ik_kind_name(v->flag_values.solver);
    s->look.body = v->flag_values.look == 0;
    s->look.skinning = v->flag_values.skinning == 0 ? AK_SKIN_LINEAR : AK_SKIN_DUAL_QUAT;
    s->yaw = v->flag_values.yaw_deg * DEG;
    s->pitch = v->flag_values.pitch_deg * DEG;
    s->pitch_set = ak_flags_given(r, &k_viewer_table, vt, "pitch");
    if (ak_flags_given(r, &k_viewer_table, vt, "size")) {
        s->width = v->flag_values.size[0];
        s->height = v->flag_values.size[1];
    }
    s->have_frames = ak_flags_given(r, &k_viewer_table, vt, "frames");
    s->frame_a = v->flag_values.frames[0];
    s->frame_b = v->flag_values.frames[1];
    s->frame_step = v->flag_values.frames[2];
    s->have_ik_target = ak_flags_given(r, &k_viewer_table, vt, "target");
    s->ik_target =
        ak_vec3_make(v->flag_values.target[0], v->flag_values.target[1], v->flag_values.target[2]);
    s->have_ik_pole = ak_flags_given(r, &k_viewer_table, vt, "pole");
    s->ik_pole =
        ak_vec3_make(v->flag_values.pole[0], v->flag_values.pole[1], v->flag_values.pole[2]);
}

int akv_parse_args(akv_settings *s, int argc, char **argv, const char *prog, int *wants_help)
{
    int walk = 0;
    for (int i = 1; i < argc; ++i)
        walk |= strcmp(argv[i], "--walk") == 0;
    /* In walk mode the walker's flags come first (its --target, --scale...); a flag both have
     * goes to the first that accepts the value (the picture's --size WxH has an x). */
    const ak_flag_table *tables[2] = {ak_walk_scenario_flags(), &k_viewer_table};
    void *params[2] = {&s->walk, s};
    const int first = walk ? 0 : 1;
    ak_flags_result r;
    ak_error err;
    *wants_help = 0;
    if (ak_flags_parse_args(tables + first, params + first, 2 - first, argc,
                            (const char *const *)argv, AKV_MAX_FILES, &r, &err) != AK_OK)
        return usage(prog, err.message);
    *wants_help = r.wants_help;
    apply_values(s, &r, walk ? 1 : 0);
    if (s->have_frames && (s->frame_b < s->frame_a || s->frame_step < 1))
        return usage(prog, "--frames wants A:B[:STEP] with A <= B and STEP >= 1");
    if (walk && ak_walk_scenario_validate(&s->walk, &err) != AK_OK) return usage(prog, err.message);
    s->file_count = r.positional_count;
    for (int i = 0; i < r.positional_count; ++i)
        s->files[i] = r.positional[i];
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

/* The joint that carries the character's travel (measured, or --root-joint) and, when the
 * joints above it stay still, a drawing copy of the skeleton with that joint detached. */
static int travel_joint(akv_character *c, const akv_settings *s, char *err, size_t err_size)
{
    c->travel_joint = 0;
    c->draw_skeleton = NULL;
    if (!c->clip) return 0;
    ak_root_joint_report r;
    ak_error e;
    if (ak_root_joint_find(c->skeleton, c->clip, s->root_joint, &r, &e) != AK_OK) {
        if (!s->root_joint) return 0; /* nothing measured: joint 0 as before */
        /* the library names what is missing; the flag is the viewer's */
        snprintf(err, err_size, "%s: %s%s", c->label, e.message,
                 e.status == AK_ERR_NOT_FOUND ? " (--root-joint)" : "");
        return -1;
    }
    c->travel_joint = r.joint;
    /* A joint named with --root-joint under a top joint that stays still (as the measure
     * judges still) is detached as the measured one is. */
    const int still_top = r.reason == AK_ROOT_JOINT_UNDER_STILL ||
                          (r.reason == AK_ROOT_JOINT_NAMED && r.top_travel <= 1e-3f * r.height);
    if (r.joint == r.top || !still_top) return 0;
    if (ak_skeleton_clone(c->skeleton, &c->draw_skeleton, NULL) != AK_OK) return 0;
    c->draw_skeleton->parents[r.joint] = -1;
    c->draw_skeleton->bone_lengths[r.joint] = 0.0f;
    return 0;
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
    /* Standing height as the CLI measures it: the larger of the rest pose and frame 0's body,
     * so a rig resting folded or lying still measures as standing. */
    float height = ak_skeleton_rest_height(skeleton);
    c->body_joint = clip ? ak_clip_body_root(skeleton, clip) : 0;
    if (c->body_joint < 0) c->body_joint = 0;
    if (clip) {
        ak_xform *tmp_l = malloc((size_t)skeleton->joint_count * 2 * sizeof *tmp_l);
        if (tmp_l) {
            ak_clip_frame(clip, skeleton, 0, tmp_l);
            ak_fk(skeleton, tmp_l, tmp_l + skeleton->joint_count);
            float h0 = ak_pose_body_height(skeleton, tmp_l + skeleton->joint_count, c->body_joint);
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
    if (travel_joint(c, s, err, err_size) < 0) {
        free(c->local);
        free(c->world_m);
        ak_skeleton_destroy(skeleton);
        ak_clip_destroy(clip);
        return -1;
    }
    /* The body stands on the clip's most upright frame when the zero pose lies flat (every
     * bone along X); no body (bones are drawn) when the rig gets none. */
    ak_body_params body = ak_body_defaults();
    body.clip = clip;
    if (ak_body_mesh_create(skeleton, &body, &c->body, NULL) != AK_OK) c->body = NULL;
    c->root_start_m = ak_vec3_scale(c->world_m[c->travel_joint].translation, c->mpu);
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
    ak_body_mesh *mesh = NULL;
    ak_error e;
    if (ak_tools_read_clip_mesh(path, &sk, &clip, &mesh, &e) != AK_OK) {
        if (e.line > 0)
            snprintf(err, err_size, "%s:%d: %s", path, (int)e.line, e.message);
        else
            snprintf(err, err_size, "%s: %s", path, e.message);
        return -1;
    }
    if (e.message[0]) fprintf(stderr, "%s:%d: warning: %s\n", path, (int)e.line, e.message);
    /* The viewer switches interpolation modes live: have cubic's control points ready. */
    ak_clip_prepare_cubic(clip);
    const char *base = strrchr(path, '/');
    if (akv_scene_add(scene, s, base ? base + 1 : path, sk, clip, err, err_size) < 0) {
        ak_body_mesh_destroy(mesh);
        return -1;
    }
    scene->chars[scene->count - 1].mesh = mesh; /* a glTF character draws as it is */
    return 0;
}

void akv_scene_free(akv_scene *scene)
{
    for (int i = 0; i < scene->count; ++i) {
        akv_character *c = &scene->chars[i];
        ak_skeleton_destroy(c->skeleton);
        ak_skeleton_destroy(c->draw_skeleton);
        ak_clip_destroy(c->clip);
        ak_body_mesh_destroy(c->mesh);
        ak_body_mesh_destroy(c->body);
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
            ak_vec3 root = ak_vec3_scale(c->world_m[c->travel_joint].translation, c->mpu);
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
            for (int32_t j = c->body_joint; j < c->skeleton->subtree_end[c->body_joint]; ++j) {
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

void akv_draw_character(akr_renderer *r, const akv_settings *s, const ak_skeleton *skeleton,
                        const ak_xform *world_m, const ak_body_mesh *mesh, const float rgb[3])
{
    akr_draw_character_mesh(r, skeleton, world_m, mesh, s->radius, rgb, &s->look);
}

const ak_body_mesh *akv_character_mesh(const akv_character *c)
{
    return c->mesh ? c->mesh : c->body;
}

void akv_scene_draw(akr_renderer *r, const akv_scene *scene, const akv_settings *s)
{
    if (s->grid) akr_draw_ground(r, 0.0f, 30.0f);
    akr_set_shadow_plane(r, s->shadows, 0.0f);
    for (int i = 0; i < scene->count; ++i) {
        const akv_character *c = &scene->chars[i];
        akv_draw_character(r, s, c->draw_skeleton ? c->draw_skeleton : c->skeleton, c->world_m,
                           akv_character_mesh(c), c->colour);
    }
    akr_set_shadow_plane(r, 0, 0.0f);
}

ak_vec3 akv_scene_joint_m(const akv_scene *scene, const char *joint)
{
    if (scene->count == 0) return ak_vec3_make(0, 0.9f, 0);
    const akv_character *c = &scene->chars[0];
    int32_t j = joint ? ak_skeleton_find(c->skeleton, joint) : c->travel_joint;
    if (j < 0) j = c->travel_joint;
    return c->world_m[j].translation;
}

int akv_scene_figure(const akv_scene *scene, ak_vec3 *out, int max)
{
    if (scene->count == 0 || max < 2) return 0;
    const akv_character *c = &scene->chars[0];
    const int32_t end = c->skeleton->subtree_end[c->body_joint];
    ak_vec3 top = c->world_m[c->body_joint].translation;
    int n = 1, lows = max - 1 < AKV_FIGURE_LOW ? max - 1 : AKV_FIGURE_LOW;
    for (int32_t j = c->body_joint; j < end; ++j) {
        const ak_vec3 p = c->world_m[j].translation;
        if (p.y > top.y) top = p;
        /* the lowest joints so far, lowest first, in out[1..n) */
        int at = n;
        if (n == 1 + lows) {
            if (!(p.y < out[n - 1].y)) continue;
            at = n - 1; /* full: the highest of them makes way */
        } else {
            ++n;
        }
        for (; at > 1 && out[at - 1].y > p.y; --at)
            out[at] = out[at - 1];
        out[at] = p;
    }
    top.y += AKV_HEAD_TOP;
    out[0] = top;
    for (int k = 1; k < n; ++k)
        if (out[k].y > 0.0f) out[k].y = 0.0f;
    return n;
}
