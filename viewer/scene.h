/* animkit viewer — the scene both the window and the headless renderer show: loaded BVH
 * characters (each coloured apart), playback settings, and every setting's command-line flag.
 * Nothing here needs a GL context except akv_scene_draw. */
#ifndef AKV_SCENE_H
#define AKV_SCENE_H

#include <stdio.h>

#include "animkit/animkit.h"
#include "animkit/scenario.h"
#include "render.h"

#define AKV_MAX_FILES 16

typedef enum akv_mode { AKV_MODE_PLAY = 0, AKV_MODE_IK = 1, AKV_MODE_WALK = 2 } akv_mode;

/* Every viewer setting; each has a command-line flag (akv_print_flags lists them). */
typedef struct akv_settings {
    const char *files[AKV_MAX_FILES];
    int file_count;
    akv_mode mode;
    /* output (headless) */
    const char *out;                               /* --out: .png, .gif or .mp4 */
    int width, height;                             /* --size WxH */
    int frame;                                     /* --frame N (-1: not given) */
    int frame_a, frame_b, frame_step, have_frames; /* --frames A:B:STEP */
    int sheet;                                     /* --sheet: one contact-sheet PNG for --frames */
    int sheet_cols;                                /* --sheet-cols N (0: automatic) */
    float fps; /* --fps for GIF/MP4 (0: the clip's rate, at most 30) */
    /* playback */
    float time;       /* --time SECONDS: start time */
    float speed;      /* --speed X */
    int loop;         /* --loop / --no-loop */
    ak_interp interp; /* --interp step|linear|cubic */
    int in_place;     /* --in-place: hold the root's ground position at frame 0 */
    int overlay;      /* --overlay: draw characters where their files put them, even on top of
                         each other (default: ones starting in the same spot stand side by side) */
    int paused;       /* --paused */
    /* units */
    const char *units; /* --units auto|m|cm|cmu|in|mm */
    float scale;       /* --scale METRES_PER_UNIT (0: from --units) */
    /* camera and look */
    float yaw, pitch;       /* --yaw DEG, --pitch DEG */
    int pitch_set;          /* --pitch was given */
    float distance;         /* --distance M (0: fit the motion) */
    const char *follow;     /* --follow JOINT: keep the camera on this joint of the first file */
    const char *root_joint; /* --root-joint NAME: the joint that travels (default: measured) */
    int grid, shadows, hud; /* --no-grid, --no-shadows, --hud / --no-hud */
    float radius;           /* --radius M: bone radius */
    akr_look look;          /* --look body|bones, --skinning lbs|dqs, --bones (keys B, K, O) */
    int verbose;            /* -v */
    const char *screenshot; /* --screenshot FILE.png: window draws a few frames, saves, exits */
    /* IK mode */
    const char *ik_chain;  /* --ik-chain ROOT,TIP (default: right arm) */
    const char *ik_solver; /* --solver limb|ccd|fabrik|jacobian|dls */
    int ik_iterations;     /* --iterations N */
    int have_ik_target;
    ak_vec3 ik_target; /* --target x,y,z metres */
    int have_ik_pole;
    ak_vec3 ik_pole; /* --pole x,y,z metres: the middle joint bends toward it (limb) */
    /* walker mode: the walk scenario's own flags (the same table as `animkit walk`) */
    ak_walk_scenario_params walk;
    /* The parsed text and degree values the pointers and radians above come from (the flag
     * table writes here; akv_parse_args then points out/follow/... into it). */
    struct {
        char out[AK_FLAG_TEXT_MAX], follow[128], screenshot[AK_FLAG_TEXT_MAX], ik_chain[256];
        char root_joint[128];
        int32_t units, solver, size[2], frames[3], look, skinning, up;
        float yaw_deg, pitch_deg, target[3], pole[3];
    } flag_values;
} akv_settings;

void akv_settings_defaults(akv_settings *s, int headless);
/* Parses argv[1..argc) through the viewer's flag table (and, with --walk, the walk scenario's:
 * animkit/scenario.h). Files are positional. Returns 0, or 2 after printing a usage error to
 * stderr prefixed with `prog`; *wants_help is set for -h/--help. */
int akv_parse_args(akv_settings *s, int argc, char **argv, const char *prog, int *wants_help);
void akv_print_flags(FILE *out);

/* One loaded BVH file. */
typedef struct akv_character {
    char label[96];
    ak_skeleton *skeleton;
    ak_clip *clip;
    ak_units units;
    float mpu; /* metres per file unit */
    float colour[3];
    ak_xform *local;      /* sampled pose, file units */
    ak_xform *world_m;    /* world transforms, metres (after in-place) */
    ak_vec3 root_start_m; /* position of the joint that travels at frame 0, metres */
    int32_t travel_joint; /* the joint that carries the travel (ak_root_joint_find) */
    int32_t body_joint;   /* the body is this joint and its descendants (ak_clip_body_root):
                             its height and the framing leave a still joint_Root out */
    /* The skeleton drawn: the file's, or a copy in which the travelling joint hangs from no
     * parent when the joints above it stay still (joint_Root over the hips): those are drawn
     * as points, not as a bone of several metres to the hips. */
    ak_skeleton *draw_skeleton;
    ak_vec3 offset_m;   /* where it is drawn relative to its file: side by side with others */
    float height_m;     /* standing height, metres */
    ak_body_mesh *mesh; /* the file's own skinned mesh (glTF/GLB), or NULL: generated body */
    ak_body_mesh *body; /* the generated body, built on a standing pose of the clip's when the
                           zero pose does not stand (ak_body_params.clip); NULL: none */
} akv_character;

/* The mesh character `c` is drawn with: the file's own, else its generated body (NULL: the
 * renderer's from the skeleton, or bones). */
const ak_body_mesh *akv_character_mesh(const akv_character *c);

typedef struct akv_scene {
    akv_character chars[AKV_MAX_FILES];
    int count;
    float time; /* current time, seconds */
} akv_scene;

extern const float akv_palette[8][3];

/* Loads one BVH file as character number scene->count. Returns 0, or -1 with a message. */
int akv_scene_add_file(akv_scene *scene, const akv_settings *s, const char *path, char *err,
                       size_t err_size);
/* Adds a character from a skeleton+clip the scene takes ownership of. */
int akv_scene_add(akv_scene *scene, const akv_settings *s, const char *label, ak_skeleton *skeleton,
                  ak_clip *clip, char *err, size_t err_size);
void akv_scene_free(akv_scene *scene);
/* Longest duration over the characters, seconds. */
float akv_scene_duration(const akv_scene *scene, int loop);
/* Frame time of the first character (1/30 when empty). */
float akv_scene_frame_time(const akv_scene *scene);
int akv_scene_frame_count(const akv_scene *scene);
/* Samples every character at `time` and runs FK into world_m (metres). */
void akv_scene_pose(akv_scene *scene, const akv_settings *s, float time);
/* Bounding box of every joint over the frames [a, b] (step), metres. */
void akv_scene_bounds(akv_scene *scene, const akv_settings *s, int a, int b, int step, ak_vec3 *lo,
                      ak_vec3 *hi);
/* A character drawn as the settings' look says (its own mesh when `mesh` is not NULL, else the
 * generated body, or bones of the settings' radius). */
void akv_draw_character(akr_renderer *r, const akv_settings *s, const ak_skeleton *skeleton,
                        const ak_xform *world_m, const ak_body_mesh *mesh, const float rgb[3]);
/* Ground, shadows and every character at the current pose. */
void akv_scene_draw(akr_renderer *r, const akv_scene *scene, const akv_settings *s);
/* Position in metres of `joint` of character 0 (NULL or unknown: the root). */
ak_vec3 akv_scene_joint_m(const akv_scene *scene, const char *joint);
/* m: how far the top of a head stands over the highest joint of a skeleton (a BVH's head joint
 * sits at the skull's base; the generated body's head reaches about this far above it). */
#define AKV_HEAD_TOP 0.15f
/* How many of a clip's lowest joints a picture must show on the ground (its feet and toes). */
#define AKV_FIGURE_LOW 4
/* Up to `max` points, metres, that a picture of character 0 must show at the current pose (the
 * camera frames them: headless.c): over its highest joint by AKV_HEAD_TOP, and its
 * AKV_FIGURE_LOW lowest joints on the ground grid (y 0) under them, or where they are when
 * lower; returns how many (0: no character). */
int akv_scene_figure(const akv_scene *scene, ak_vec3 *out, int max);

#endif
