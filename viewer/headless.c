/* animkit viewer — headless rendering to pictures (see headless.h). */
#define _POSIX_C_SOURCE 200809L /* popen */
#include "headless.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* isatty */

#include <stb_image_write.h>

#include "io/file.h"
#include "modes.h"
#include "offscreen.h"
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

int akv_render_main(int argc, char **argv, const char *prog)
{
    akv_settings s;
    akv_settings_defaults(&s, 1);
    int help = 0;
    int rc = akv_parse_args(&s, argc, argv, prog, &help);
    if (rc) return rc;
    if (help) {
        akv_render_usage(stdout, prog);
        return 0;
    }
    if (!s.out) {
        fprintf(stderr, "%s: --out is required\n(see '%s --help')\n", prog, prog);
        return 2;
    }
    if (s.mode == AKV_MODE_PLAY && s.file_count == 0) {
        fprintf(stderr, "%s: give a BVH file (or --walk)\n(see '%s --help')\n", prog, prog);
        return 2;
    }
    int anim = ends_with(s.out, ".gif") || ends_with(s.out, ".mp4");
    if (!anim && !ends_with(s.out, ".png")) {
        fprintf(stderr, "%s: --out must end in .png, .gif or .mp4 (got %s)\n", prog, s.out);
        return 2;
    }
    if (s.frame >= 0 && s.have_frames) {
        fprintf(stderr, "%s: give --frame or --frames, not both\n", prog);
        return 2;
    }

    akv_scene scene;
    memset(&scene, 0, sizeof scene);
    char err[512];
    akv_mode_state *mode = NULL;
    for (int i = 0; i < s.file_count; ++i)
        if (akv_scene_add_file(&scene, &s, s.files[i], err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            akv_scene_free(&scene);
            return 1;
        }
    /* --time without --frame/--frames picks the nearest frame; the IK mode bases its pose on
     * the first frame rendered. */
    if (s.frame < 0 && !s.have_frames && s.time > 0 && scene.count > 0)
        s.frame = (int)lroundf(s.time / akv_scene_frame_time(&scene));
    scene.time = (float)(s.frame >= 0    ? s.frame
                         : s.have_frames ? s.frame_a
                                         : 0) *
                 akv_scene_frame_time(&scene);
    if (s.mode != AKV_MODE_PLAY) {
        mode = akv_mode_create(&s, &scene, err, sizeof err);
        if (!mode) {
            fprintf(stderr, "%s: %s\n", prog, err);
            akv_scene_free(&scene);
            return 1;
        }
    }

    if (mode && s.mode == AKV_MODE_WALK && s.frame < 0 && !s.have_frames && s.time > 0)
        s.frame = (int)lroundf(s.time / akv_mode_frame_time(mode));

    /* Which frames: --frame N, --frames A:B:STEP, else frame 0 for a PNG or the whole clip. */
    int frame_count = mode ? akv_mode_frame_count(mode) : akv_scene_frame_count(&scene);
    float frame_time = mode ? akv_mode_frame_time(mode) : akv_scene_frame_time(&scene);
    int a = 0, b = 0, step = 1;
    if (s.frame >= 0) {
        a = b = s.frame;
    } else if (s.have_frames) {
        a = s.frame_a;
        b = s.frame_b;
        step = s.frame_step;
    } else if (anim) {
        /* Default rate: the clip's, at most 30 fps for video and 15 for GIF (size). */
        float fps = s.fps > 0 ? s.fps : 1.0f / frame_time;
        float cap = ends_with(s.out, ".gif") ? 15.0f : 30.0f;
        if (s.fps <= 0 && fps > cap) fps = cap;
        step = (int)lroundf(1.0f / (fps * frame_time));
        if (step < 1) step = 1;
        b = frame_count - 1;
    }
    if (a > frame_count - 1 || b > frame_count - 1) {
        fprintf(stderr, "%s: frame %d is past the last frame (%d)\n", prog,
                a > frame_count - 1 ? a : b, frame_count - 1);
        akv_mode_destroy(mode);
        akv_scene_free(&scene);
        return 2;
    }
    int n = (b - a) / step + 1;

    akv_offscreen *off = akv_offscreen_create(s.width, s.height, err, sizeof err);
    if (!off) {
        fprintf(stderr, "%s: %s\n", prog, err);
        akv_mode_destroy(mode);
        akv_scene_free(&scene);
        return 3;
    }
    if (s.verbose) fprintf(stderr, "%s: %s\n", prog, akv_offscreen_describe(off));
    akr_renderer *r = akr_create(err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s: %s\n", prog, err);
        akv_offscreen_destroy(off);
        akv_mode_destroy(mode);
        akv_scene_free(&scene);
        return 3;
    }

    /* Camera: fit everything the frames show, unless it follows a joint or has a distance. */
    akr_camera cam = akr_camera_defaults();
    cam.yaw = s.yaw;
    cam.pitch = s.pitch;
    ak_vec3 lo, hi;
    if (mode)
        akv_mode_bounds(mode, &lo, &hi);
    else
        akv_scene_bounds(&scene, &s, a, b, step, &lo, &hi);
    if (mode && s.mode == AKV_MODE_WALK && !s.pitch_set) cam.pitch = 0.55f; /* ~32 deg: see the path */
    akr_camera_frame_box(&cam, lo, hi, (float)s.width / (float)s.height);
    if (s.distance > 0) cam.distance = s.distance;

    size_t frame_bytes = (size_t)s.width * (size_t)s.height * 3;
    uint8_t *rgb = malloc(frame_bytes);
    int sheet = !anim && s.sheet && n > 1;
    int cols = s.sheet_cols > 0 ? s.sheet_cols : (int)ceilf(sqrtf((float)n));
    int rows = (n + cols - 1) / cols;
    uint8_t *sheet_rgb = sheet ? malloc((size_t)cols * (size_t)rows * frame_bytes) : NULL;
    if (sheet_rgb) /* empty tiles show the background colour */
        for (size_t i = 0; i < (size_t)cols * (size_t)rows * frame_bytes; i += 3) {
            sheet_rgb[i] = 204;
            sheet_rgb[i + 1] = 214;
            sheet_rgb[i + 2] = 227;
        }
    FILE *pipe = NULL;
    /* ffmpeg writes a temporary beside OUT (same extension), renamed over OUT only when it
     * succeeded: an old animation survives a failed or killed render. */
    char *anim_tmp = anim ? akio_temp_path(s.out, ends_with(s.out, ".gif") ? ".gif" : ".mp4") : NULL;
    if (anim && anim_tmp) {
        float fps = s.fps > 0 ? s.fps : 1.0f / (frame_time * (float)step);
        pipe = open_ffmpeg(anim_tmp, s.width, s.height, fps);
        if (!pipe) fprintf(stderr, "%s: cannot run ffmpeg\n", prog);
    }
    rc = (!rgb || (sheet && !sheet_rgb) || (anim && !pipe)) ? 1 : 0;

    int progress = n >= 30 && isatty(2);
    for (int k = 0; k < n && rc == 0; ++k) {
        int f = a + k * step;
        if (progress && (k % 10 == 0 || k == n - 1))
            fprintf(stderr, "\r%s: frame %d of %d", prog, k + 1, n);
        float t = (float)f * frame_time;
        char label[128];
        if (mode) {
            akv_mode_step_to(mode, f);
        } else {
            akv_scene_pose(&scene, &s, t);
        }
        ak_vec3 focus;
        if (mode && (!ends_with(s.out, ".gif") || s.follow) && akv_mode_focus(mode, &focus)) {
            /* The walker: stills and videos follow the character from 6 m; a GIF keeps the
             * camera still over the whole walk (unless --follow), which keeps it small. */
            cam.target = focus;
            cam.distance = s.distance > 0 ? s.distance : 6.0f;
        } else if (s.follow) {
            cam.target = akv_scene_joint_m(&scene, s.follow);
        }
        akv_offscreen_bind(off);
        akr_begin(r, s.width, s.height, &cam);
        if (mode)
            akv_mode_draw(mode, r);
        else
            akv_scene_draw(r, &scene, &s);
        snprintf(label, sizeof label, "frame %d  t = %.2f s", f, (double)t);
        if (s.hud) {
            if (mode)
                akv_mode_hud(mode, r, s.width, s.height);
            else
                draw_labels(r, &scene, label);
        } else if (sheet) {
            static const float ink[3] = {0.12f, 0.13f, 0.16f};
            akr_draw_text(r, 8.0f, 8.0f, 2.0f, label, ink);
        }
        akv_offscreen_read(off, rgb);
        if (anim) {
            if (fwrite(rgb, 1, frame_bytes, pipe) != frame_bytes) rc = 1;
        } else if (sheet) {
            int cx = k % cols, cy = k / cols;
            size_t sheet_row = (size_t)cols * (size_t)s.width * 3;
            for (int y = 0; y < s.height; ++y)
                memcpy(sheet_rgb + ((size_t)cy * (size_t)s.height + (size_t)y) * sheet_row +
                           (size_t)cx * (size_t)s.width * 3,
                       rgb + (size_t)y * (size_t)s.width * 3, (size_t)s.width * 3);
        } else {
            char path[2048];
            if (n == 1)
                snprintf(path, sizeof path, "%s", s.out);
            else
                snprintf(path, sizeof path, "%.*s_%04d.png", (int)(strlen(s.out) - 4), s.out, f);
            if (akv_write_png(path, s.width, s.height, rgb) != 0) {
                fprintf(stderr, "%s: cannot write %s\n", prog, path);
                rc = 1;
            } else if (s.verbose) {
                fprintf(stderr, "%s: wrote %s\n", prog, path);
            }
        }
    }
    if (progress) fprintf(stderr, "\n");
    if (pipe) {
        int st = pclose(pipe);
        ak_error err;
        if (st != 0) {
            fprintf(stderr, "%s: ffmpeg failed writing %s\n", prog, s.out);
            rc = 1;
        } else if (rc == 0 && akio_replace(anim_tmp, s.out, &err) != AK_OK) {
            fprintf(stderr, "%s: %s: %s\n", prog, s.out, err.message);
            rc = 1;
        }
        if (rc != 0) remove(anim_tmp);
    }
    free(anim_tmp);
    if (sheet && rc == 0 && akv_write_png(s.out, cols * s.width, rows * s.height, sheet_rgb) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", prog, s.out);
        rc = 1;
    }
    if (rc == 0 && (anim || sheet || n == 1))
        printf("wrote %s (%d frame%s)\n", s.out, n, n == 1 ? "" : "s");
    else if (rc == 0)
        printf("wrote %d PNG frames %.*s_%04d.png ... _%04d.png\n", n, (int)(strlen(s.out) - 4),
               s.out, a, b);
    free(rgb);
    free(sheet_rgb);
    akr_destroy(r);
    akv_offscreen_destroy(off);
    akv_mode_destroy(mode);
    akv_scene_free(&scene);
    return rc;
}
