/* animkit viewer — headless rendering to pictures (see headless.h). */
#define _POSIX_C_SOURCE 200809L /* popen */
#include "headless.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

#include "io/file.h"
#include "modes.h"
#include "offscreen.h"
#include "progress.h"
#include "render.h"
#include "scene.h"

/* The PNG bytes stb hands over, gathered in memory. */
typedef struct png_bytes {
    unsigned char *data;
    size_t size, cap;
    int failed;
} png_bytes;

static void gather_png(void *ctx, void *data, int n)
{
    png_bytes *b = (png_bytes *)ctx;
    if (b->failed || n <= 0) return;
    if (b->size + (size_t)n > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->size + (size_t)n)
            cap *= 2;
        unsigned char *d = (unsigned char *)realloc(b->data, cap);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->size, data, (size_t)n);
    b->size += (size_t)n;
}

/* Encoded in memory, then written atomically (io/file.h): a failed or killed render never
 * leaves a half PNG over an old one. The reason goes to stderr. */
int akv_write_png(const char *path, int w, int h, const uint8_t *rgb)
{
    png_bytes b = {NULL, 0, 0, 0};
    if (!stbi_write_png_to_func(gather_png, &b, w, h, 3, rgb, w * 3) || b.failed) {
        free(b.data);
        return -1;
    }
    ak_error err;
    int32_t st = akio_write_file(path, b.data, b.size, &err);
    free(b.data);
    if (st != AK_OK) fprintf(stderr, "%s: %s\n", path, err.message);
    return st == AK_OK ? 0 : -1;
}

void akv_render_usage(FILE *out, const char *prog)
{
    fprintf(
        out,
        "usage: %s FILE.bvh [FILE2.bvh ...] [--frame N | --frames A:B[:STEP]] --out OUT [options]\n"
        "       %s --walk [walk flags] --out OUT [options]\n"
        "       %s --ik FILE.bvh --target x,y,z --out OUT [options]\n\n"
        "Renders offscreen (EGL surfaceless, or a hidden window when $DISPLAY is set) with no "
        "window.\n"
        "OUT.png with --frame: one picture; with --frames: OUT_0000.png... (frame numbers), or "
        "one\n"
        "contact sheet with --sheet; OUT.gif / OUT.mp4: an animation through ffmpeg.\n\n",
        prog, prog, prog);
    akv_print_flags(out);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t i = 0; i < m; ++i) {
        char a = s[n - m + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return 0;
    }
    return 1;
}

/* Appends `path` single-quoted for /bin/sh. */
static void shell_quote(char *dst, size_t size, const char *path)
{
    size_t k = strlen(dst);
    if (k + 1 < size) dst[k++] = '\'';
    for (const char *p = path; *p && k + 5 < size; ++p) {
        if (*p == '\'') {
            memcpy(dst + k, "'\\''", 4);
            k += 4;
        } else {
            dst[k++] = *p;
        }
    }
    if (k + 1 < size) dst[k++] = '\'';
    dst[k] = 0;
}

static FILE *open_ffmpeg(const char *out, int w, int h, float fps)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgb24 -s %dx%d -framerate %.4f -i - ",
             w, h, (double)fps);
    if (ends_with(out, ".gif"))
        strncat(cmd,
                "-vf "
                "'split[a][b];[a]palettegen=max_colors=128:stats_mode=diff[p];[b][p]paletteuse="
                "dither=bayer:bayer_scale=3' ",
                sizeof cmd - strlen(cmd) - 1);
    else
        strncat(cmd,
                "-vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -c:v libx264 -pix_fmt yuv420p -crf 23 "
                "-movflags +faststart ",
                sizeof cmd - strlen(cmd) - 1);
    shell_quote(cmd, sizeof cmd, out);
    return popen(cmd, "w");
}

/* HUD for pictures: file names in their colours and the time. */
static void draw_labels(akr_renderer *r, const akv_scene *scene, const char *extra)
{
    static const float ink[3] = {0.12f, 0.13f, 0.16f};
    float y = 10.0f;
    for (int i = 0; i < scene->count; ++i) {
        akr_draw_text(r, 10.0f, y, 2.0f, scene->chars[i].label, scene->chars[i].colour);
        y += 20.0f;
    }
    if (extra) akr_draw_text(r, 10.0f, y, 2.0f, extra, ink);
}

/* One headless render: the settings, what is drawn, which frames, and where the pixels go.
 * Every pointer is NULL until its phase creates it; render_job_free frees what exists. */
typedef struct render_job {
    akv_settings s;
    const char *prog;
    akv_scene scene;
    akv_mode_state *mode; /* --walk / --ik; NULL when playing BVH files */
    int anim;             /* OUT is a .gif or .mp4 through ffmpeg */
    int frame_count;
    float frame_time;
    int a, b, step, n;   /* frames a..b every step: n pictures */
    int frame_from_time; /* s.frame was picked from --time (for the range message) */
    int have_focus;      /* last_focus holds the followed point of the previous frame */
    ak_vec3 last_focus;
    ak_vec3 aim;        /* the point the camera was last pointed at, before framing the figure */
    float fit_distance; /* the camera distance that fits everything the frames show */
    int distance_noted; /* the note that the figure needed more than --distance was printed */
    akv_offscreen *off;
    akr_renderer *r;
    akr_camera cam;
    size_t frame_bytes;
    uint8_t *rgb;
    int sheet, cols, rows; /* one contact sheet of cols x rows tiles */
    uint8_t *sheet_rgb;
    FILE *pipe;     /* ffmpeg's stdin */
    char *anim_tmp; /* what ffmpeg writes, renamed over OUT on success */
} render_job;

static void render_job_free(render_job *job)
{
    free(job->anim_tmp);
    free(job->rgb);
    free(job->sheet_rgb);
    akr_destroy(job->r);
    akv_offscreen_destroy(job->off);
    akv_mode_destroy(job->mode);
    akv_scene_free(&job->scene);
}

/* Usage errors the flags alone show: 0, or the exit code 2 after the message. */
static int check_render_settings(const akv_settings *s, const char *prog, int anim)
{
    if (!s->out) {
        fprintf(stderr, "%s: --out is required\n(see '%s --help')\n", prog, prog);
        return 2;
    }
    if (s->mode == AKV_MODE_PLAY && s->file_count == 0) {
        fprintf(stderr, "%s: give a BVH file (or --walk)\n(see '%s --help')\n", prog, prog);
        return 2;
    }
    if (!anim && !ends_with(s->out, ".png")) {
        fprintf(stderr, "%s: --out must end in .png, .gif or .mp4 (got %s)\n", prog, s->out);
        return 2;
    }
    if (s->frame >= 0 && s->have_frames) {
        fprintf(stderr, "%s: give --frame or --frames, not both\n", prog);
        return 2;
    }
    return 0;
}

/* The BVH files into the scene and, for --walk / --ik, the mode; --time without --frame or
 * --frames picks the nearest frame (the IK mode bases its pose on the first frame rendered). */
static int load_scene(render_job *job)
{
    akv_settings *s = &job->s;
    char err[512];
    for (int i = 0; i < s->file_count; ++i)
        if (akv_scene_add_file(&job->scene, s, s->files[i], err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
    if (s->follow && strcmp(s->follow, "off") != 0 && job->scene.count > 0 &&
        ak_skeleton_find(job->scene.chars[0].skeleton, s->follow) < 0) {
        fprintf(stderr,
                "%s: --follow %s: %s has no such joint (give a joint name, e.g. %s, or off)\n",
                job->prog, s->follow, s->files[0], job->scene.chars[0].skeleton->names[0]);
        return 2;
    }
    job->frame_from_time = s->frame < 0 && !s->have_frames && s->time > 0;
    if (job->frame_from_time && job->scene.count > 0)
        s->frame = (int)lroundf(s->time / akv_scene_frame_time(&job->scene));
    job->scene.time = (float)(s->frame >= 0    ? s->frame
                              : s->have_frames ? s->frame_a
                                               : 0) *
                      akv_scene_frame_time(&job->scene);
    if (s->mode != AKV_MODE_PLAY) {
        job->mode = akv_mode_create(s, &job->scene, err, sizeof err);
        if (!job->mode) {
            fprintf(stderr, "%s: %s\n", job->prog, err);
            return 1;
        }
    }
    if (job->mode && s->mode == AKV_MODE_WALK && s->frame < 0 && !s->have_frames && s->time > 0)
        s->frame = (int)lroundf(s->time / akv_mode_frame_time(job->mode));
    return 0;
}

/* Which frames: --frame N, --frames A:B:STEP, else frame 0 for a PNG or the whole clip for an
 * animation (at the clip's rate, at most 30 fps for video and 15 for GIF, for size). */
static int choose_frames(render_job *job)
{
    const akv_settings *s = &job->s;
    job->frame_count =
        job->mode ? akv_mode_frame_count(job->mode) : akv_scene_frame_count(&job->scene);
    job->frame_time =
        job->mode ? akv_mode_frame_time(job->mode) : akv_scene_frame_time(&job->scene);
    int a = 0, b = 0, step = 1;
    if (s->frame >= 0) {
        a = b = s->frame;
    } else if (s->have_frames) {
        a = s->frame_a;
        b = s->frame_b;
        step = s->frame_step;
    } else if (job->anim) {
        float fps = s->fps > 0 ? s->fps : 1.0f / job->frame_time;
        float cap = ends_with(s->out, ".gif") ? 15.0f : 30.0f;
        if (s->fps <= 0 && fps > cap) fps = cap;
        step = (int)lroundf(1.0f / (fps * job->frame_time));
        if (step < 1) step = 1;
        b = job->frame_count - 1;
    }
    const int last = job->frame_count - 1;
    if (a > last || b > last) {
        if (job->frame_from_time)
            fprintf(stderr, "%s: --time %g is past the end (%.3f s, frame %d)\n", job->prog,
                    (double)s->time, (double)((float)last * job->frame_time), last);
        else if (s->have_frames)
            fprintf(stderr, "%s: --frames %d:%d: frame %d is past the last frame (%d)\n", job->prog,
                    s->frame_a, s->frame_b, a > last ? a : b, last);
        else
            fprintf(stderr, "%s: --frame %d is past the last frame (%d)\n", job->prog, a, last);
        return 2;
    }
    job->a = a;
    job->b = b;
    job->step = step;
    job->n = (b - a) / step + 1;
    return 0;
}

/* The offscreen context and the renderer (exit code 3 without OpenGL), and the camera: fit
 * everything the frames show, unless it follows a joint or has a distance. */
static int open_renderer(render_job *job)
{
    const akv_settings *s = &job->s;
    char err[512];
    job->off = akv_offscreen_create(s->width, s->height, err, sizeof err);
    if (!job->off) {
        fprintf(stderr, "%s: %s\n", job->prog, err);
        return 3;
    }
    if (s->verbose) fprintf(stderr, "%s: %s\n", job->prog, akv_offscreen_describe(job->off));
    job->r = akr_create(err, sizeof err);
    if (!job->r) {
        fprintf(stderr, "%s: %s\n", job->prog, err);
        return 3;
    }
    akr_camera *cam = &job->cam;
    *cam = akr_camera_defaults();
    cam->yaw = s->yaw;
    cam->pitch = s->pitch;
    ak_vec3 lo, hi;
    if (job->mode)
        akv_mode_bounds(job->mode, &lo, &hi);
    else
        akv_scene_bounds(&job->scene, s, job->a, job->b, job->step, &lo, &hi);
    if (job->mode && s->mode == AKV_MODE_WALK && !s->pitch_set)
        cam->pitch = 0.55f; /* ~32 deg: see the path */
    akr_camera_frame_box(cam, lo, hi, (float)s->width / (float)s->height);
    job->fit_distance = cam->distance;
    if (s->distance > 0) cam->distance = s->distance;
    return 0;
}

/* Where the pixels go: the frame buffer, the contact sheet (background colour where no tile
 * lands) and, for an animation, ffmpeg writing a temporary beside OUT (same extension),
 * renamed over OUT only when it succeeded: an old animation survives a failed or killed
 * render. */
static int open_sinks(render_job *job)
{
    const akv_settings *s = &job->s;
    job->frame_bytes = (size_t)s->width * (size_t)s->height * 3;
    job->rgb = malloc(job->frame_bytes);
    job->sheet = !job->anim && s->sheet && job->n > 1;
    job->cols = s->sheet_cols > 0 ? s->sheet_cols : (int)ceilf(sqrtf((float)job->n));
    job->rows = (job->n + job->cols - 1) / job->cols;
    const size_t sheet_bytes = (size_t)job->cols * (size_t)job->rows * job->frame_bytes;
    job->sheet_rgb = job->sheet ? malloc(sheet_bytes) : NULL;
    if (job->sheet_rgb)
        for (size_t i = 0; i < sheet_bytes; i += 3) {
            job->sheet_rgb[i] = 204;
            job->sheet_rgb[i + 1] = 214;
            job->sheet_rgb[i + 2] = 227;
        }
    job->anim_tmp =
        job->anim ? akio_temp_path(s->out, ends_with(s->out, ".gif") ? ".gif" : ".mp4") : NULL;
    if (job->anim && job->anim_tmp) {
        float fps = s->fps > 0 ? s->fps : 1.0f / (job->frame_time * (float)job->step);
        job->pipe = open_ffmpeg(job->anim_tmp, s->width, s->height, fps);
        if (!job->pipe) fprintf(stderr, "%s: cannot run ffmpeg\n", job->prog);
    }
    return (!job->rgb || (job->sheet && !job->sheet_rgb) || (job->anim && !job->pipe)) ? 1 : 0;
}

/* Camera distance at which a figure of height_m fills about 45 % of the frame height
 * (40 degree vertical field of view: view height = 2 d tan 20 deg). */
static float follow_distance(float height_m)
{
    const float h = height_m > 0.5f ? height_m : 1.7f;
    return h / (2.0f * 0.364f * 0.45f);
}

#define FIGURE_POINTS 8

/* The points the followed character must show this frame, metres: the top of its head and the
 * ground under its feet (akv_mode_figure, akv_scene_figure); how many (0: none). */
static int figure_points(const render_job *job, ak_vec3 *pts)
{
    return job->mode ? akv_mode_figure(job->mode, pts, FIGURE_POINTS)
                     : akv_scene_figure(&job->scene, pts, FIGURE_POINTS);
}

/* The highest and lowest picture rows (top < bottom) the points project to; 0 when one of them
 * is behind the camera. */
static int figure_rows(const akr_camera *cam, int w, int h, const ak_vec3 *pts, int n, float *top,
                       float *bottom)
{
    *top = 1e30f;
    *bottom = -1e30f;
    for (int k = 0; k < n; ++k) {
        float px, py;
        if (!akr_project(cam, w, h, pts[k], &px, &py)) return 0;
        *top = py < *top ? py : *top;
        *bottom = py > *bottom ? py : *bottom;
    }
    return n > 0;
}

/* Sliding along the camera's own up axis moves the picture straight up or down at any pitch
 * (headless.h). */
float akv_frame_figure(akr_camera *cam, int w, int h, const ak_vec3 *pts, int n)
{
    const float margin = 0.05f * (float)h, room = (float)h - 2.0f * margin;
    const ak_vec3 up = ak_vec3_make(-sinf(cam->pitch) * sinf(cam->yaw), cosf(cam->pitch),
                                    -sinf(cam->pitch) * cosf(cam->yaw));
    for (int it = 0; it < 12; ++it) {
        float top, bottom;
        if (!figure_rows(cam, w, h, pts, n, &top, &bottom)) break;
        if (bottom - top > room + 0.5f) {
            cam->distance *= fminf((bottom - top) / room, 2.0f) * 1.01f;
            continue;
        }
        const float shift = 0.5f * (top + bottom - (float)h); /* rows below the middle */
        if (fabsf(shift) < 0.25f) break;
        const float px_per_m = (float)h / (2.0f * cam->distance * tanf(0.5f * cam->fov_y));
        cam->target = ak_vec3_sub(cam->target, ak_vec3_scale(up, shift / px_per_m));
    }
    return cam->distance;
}

/* 1 when the figure's points (figure_points) project inside the picture with 5 % of its height
 * to spare at the top and the bottom. */
static int figure_in_frame(const render_job *job)
{
    ak_vec3 pts[FIGURE_POINTS];
    const int n = figure_points(job, pts);
    const float h = (float)job->s.height, margin = 0.05f * h;
    float top, bottom;
    if (n == 0) return 1;
    return figure_rows(&job->cam, job->s.width, job->s.height, pts, n, &top, &bottom) &&
           top >= margin - 0.5f && bottom <= h - margin + 0.5f;
}

/* Points the camera at `aim` from `distance` and frames the figure there (akv_frame_figure); says
 * once on stderr when the figure needed the camera farther than --distance. */
static void aim_camera(render_job *job, ak_vec3 aim, float distance)
{
    ak_vec3 pts[FIGURE_POINTS];
    const int n = figure_points(job, pts);
    job->aim = aim;
    job->cam.target = aim;
    job->cam.distance = distance;
    const float needed =
        n ? akv_frame_figure(&job->cam, job->s.width, job->s.height, pts, n) : distance;
    if (job->s.distance > 0 && needed > distance * 1.001f && !job->distance_noted) {
        fprintf(stderr,
                "%s: the character with the ground under its feet needs the camera %.2f m away at "
                "this pitch and picture size (--distance %g); framed from there\n",
                job->prog, (double)needed, (double)job->s.distance);
        job->distance_noted = 1;
    }
}

/* Points the camera at `focus`, the figure framed (aim_camera). A GIF cuts rather than pans:
 * the camera holds still while the followed point stays within 0.22 of the view height of
 * where it was aimed and the whole figure stays in the picture (a figure walking toward the
 * camera, or down a hill, leaves it at the bottom first), then jumps ahead along the motion so
 * the point walks back across the frame. A still background between cuts is what keeps a GIF
 * small (a panning camera redraws every pixel of every frame); video pans smoothly. */
static void follow_point(render_job *job, ak_vec3 focus, float distance)
{
    const float reach = 0.22f * 2.0f * distance * tanf(0.5f * job->cam.fov_y);
    ak_vec3 off = ak_vec3_sub(focus, job->aim);
    off.y = 0.0f;
    if (!ends_with(job->s.out, ".gif") || !job->have_focus) {
        aim_camera(job, focus, distance);
    } else if (ak_vec3_length(off) > reach || !figure_in_frame(job)) {
        ak_vec3 step = ak_vec3_sub(focus, job->last_focus);
        step.y = 0.0f;
        const float len = ak_vec3_length(step);
        ak_vec3 aim =
            len > 1e-6f ? ak_vec3_add(focus, ak_vec3_scale(step, 0.8f * reach / len)) : focus;
        aim.y = focus.y;
        aim_camera(job, aim, distance);
    }
    job->last_focus = focus;
    job->have_focus = 1;
}

/* Poses frame f, points the camera and draws it with its HUD or label into job->rgb. The
 * camera follows the character: the walker always (from 5 m: a 1.8 m figure is 49 % of the
 * frame height), a clip when it gives several pictures (GIF, MP4, sheet, sequence: the first
 * file's root at follow_distance) or --follow JOINT names one, framing the figure with the
 * ground under its feet (follow_point); `--follow off` keeps the camera still over everything
 * the frames show. */
static void draw_frame(render_job *job, int f)
{
    const akv_settings *s = &job->s;
    const float t = (float)f * job->frame_time;
    if (job->mode)
        akv_mode_step_to(job->mode, f);
    else
        akv_scene_pose(&job->scene, s, t);
    ak_vec3 focus;
    const int follow_off = s->follow && strcmp(s->follow, "off") == 0;
    if (job->mode && !follow_off && akv_mode_focus(job->mode, &focus)) {
        /* The focus is the hips; the camera frames the figure from the top of its head to
         * the ground under its feet (follow_point) */
        follow_point(job, focus, s->distance > 0 ? s->distance : 5.0f);
    } else if (!job->mode && !follow_off && job->scene.count > 0 && (s->follow || job->n > 1)) {
        follow_point(job, akv_scene_joint_m(&job->scene, s->follow),
                     s->distance > 0 ? s->distance
                     : s->follow     ? job->fit_distance
                                     : follow_distance(job->scene.chars[0].height_m));
    }
    akv_offscreen_bind(job->off);
    akr_begin(job->r, s->width, s->height, &job->cam);
    if (job->mode)
        akv_mode_draw(job->mode, job->r);
    else
        akv_scene_draw(job->r, &job->scene, s);
    char label[128];
    snprintf(label, sizeof label, "frame %d  t = %.2f s", f, (double)t);
    if (s->hud) {
        if (job->mode)
            akv_mode_hud(job->mode, job->r, s->width, s->height);
        else
            draw_labels(job->r, &job->scene, label);
    } else if (job->sheet) {
        static const float ink[3] = {0.12f, 0.13f, 0.16f};
        akr_draw_text(job->r, 8.0f, 8.0f, 2.0f, label, ink);
    }
    akv_offscreen_read(job->off, job->rgb);
}

/* Picture k (frame f) to its sink: ffmpeg, its tile of the sheet, or its own PNG (OUT itself
 * for one picture, OUT_ffff.png otherwise). 0, or 1 when it could not be written. */
static int store_frame(render_job *job, int k, int f)
{
    const akv_settings *s = &job->s;
    if (job->anim) return fwrite(job->rgb, 1, job->frame_bytes, job->pipe) != job->frame_bytes;
    if (job->sheet) {
        const int cx = k % job->cols, cy = k / job->cols;
        const size_t row = (size_t)s->width * 3, sheet_row = (size_t)job->cols * row;
        for (int y = 0; y < s->height; ++y)
            memcpy(job->sheet_rgb + ((size_t)cy * (size_t)s->height + (size_t)y) * sheet_row +
                       (size_t)cx * row,
                   job->rgb + (size_t)y * row, row);
        return 0;
    }
    char path[2048];
    if (job->n == 1)
        snprintf(path, sizeof path, "%s", s->out);
    else
        snprintf(path, sizeof path, "%.*s_%04d.png", (int)(strlen(s->out) - 4), s->out, f);
    if (akv_write_png(path, s->width, s->height, job->rgb) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", job->prog, path);
        return 1;
    }
    if (s->verbose) fprintf(stderr, "%s: wrote %s\n", job->prog, path);
    return 0;
}

/* Closes the sinks after the frames (rc: 0 so far): ffmpeg's temporary renamed over OUT or
 * removed, the sheet written, and the summary line. Returns the final exit code. */
static int finish_output(render_job *job, int rc)
{
    const akv_settings *s = &job->s;
    if (job->pipe) {
        int st = pclose(job->pipe);
        job->pipe = NULL;
        ak_error err;
        if (st != 0) {
            fprintf(stderr, "%s: ffmpeg failed writing %s\n", job->prog, s->out);
            rc = 1;
        } else if (rc == 0 && akio_replace(job->anim_tmp, s->out, &err) != AK_OK) {
            fprintf(stderr, "%s: %s: %s\n", job->prog, s->out, err.message);
            rc = 1;
        }
        if (rc != 0) remove(job->anim_tmp);
    }
    if (job->sheet && rc == 0 &&
        akv_write_png(s->out, job->cols * s->width, job->rows * s->height, job->sheet_rgb) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", job->prog, s->out);
        rc = 1;
    }
    if (rc == 0 && (job->anim || job->sheet || job->n == 1))
        printf("wrote %s (%d frame%s)\n", s->out, job->n, job->n == 1 ? "" : "s");
    else if (rc == 0)
        printf("wrote %d PNG frames %.*s_%04d.png ... _%04d.png\n", job->n,
               (int)(strlen(s->out) - 4), s->out, job->a, job->b);
    return rc;
}

/* Every frame through draw_frame and store_frame, with a progress line on a terminal once
 * the job has run 2 s, or a timing line at the end when stderr is not a terminal
 * (progress.h); stops at the first frame that could not be written. */
static int render_frames(render_job *job)
{
    akt_progress progress;
    akt_progress_begin(&progress, job->prog);
    int rc = 0, k = 0;
    for (; k < job->n && rc == 0; ++k) {
        const int f = job->a + k * job->step;
        draw_frame(job, f);
        rc = store_frame(job, k, f);
        akt_progress_update(&progress, k + 1, job->n, "frame");
    }
    akt_progress_end(&progress, k, "frame");
    return rc;
}

int akv_render_main(int argc, char **argv, const char *prog)
{
    render_job job;
    memset(&job, 0, sizeof job);
    job.prog = prog;
    akv_settings_defaults(&job.s, 1);
    int help = 0;
    int rc = akv_parse_args(&job.s, argc, argv, prog, &help);
    if (rc) return rc;
    if (help) {
        akv_render_usage(stdout, prog);
        return 0;
    }
    job.anim = job.s.out && (ends_with(job.s.out, ".gif") || ends_with(job.s.out, ".mp4"));
    if ((rc = check_render_settings(&job.s, prog, job.anim))) return rc;
    if (!(rc = load_scene(&job)) && !(rc = choose_frames(&job)) && !(rc = open_renderer(&job))) {
        rc = open_sinks(&job);
        if (rc == 0) rc = render_frames(&job);
        rc = finish_output(&job, rc);
    }
    render_job_free(&job);
    return rc;
}
