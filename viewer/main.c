/* animkit-view — look at BVH files: play, scrub, orbit, compare several files, drag IK
 * targets, watch the walker. `animkit-view --headless ...` renders pictures with no window
 * (same flags as `animkit render`). */
#if defined(__EMSCRIPTEN__)
/* The browser build (web/): WebGL 2 through emscripten's GLFW port, one frame per
 * requestAnimationFrame. */
#include <emscripten.h>
#define GLFW_INCLUDE_ES3
#else
#include <epoxy/gl.h> /* before GLFW, which must not pull in GL/gl.h */
#endif
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animkit/ak_config.h"
#include "headless.h"
#include "modes.h"
#include "render.h"
#include "scene.h"

typedef struct app {
    GLFWwindow *window;
    akr_renderer *r;
    akv_settings s;
    akv_scene scene;
    akv_mode_state *mode;
    akr_camera cam;
    int follow;      /* -1 off, else joint index of character 0 */
    int follow_mode; /* the camera follows the mode's focus (the walker) */
    int fb_w, fb_h;
    double last_x, last_y;
    int dragging;      /* 0 none, 1 orbit, 2 pan, 3 timeline, 4 mode (IK target) */
    char message[600]; /* last status line (load errors, mode changes) */
    double message_until;
    double last_time; /* glfwGetTime() of the last frame */
    int frames_drawn; /* --screenshot counts frames */
    int exit_code;
    char walk_next[AK_FLAG_TEXT_MAX]; /* a file loaded since the walker was built: walk it next */
} app;

static const char *k_interp_names[3] = {"step", "linear", "cubic"};

static void say(app *a, const char *msg)
{
    snprintf(a->message, sizeof a->message, "%s", msg);
    a->message_until = glfwGetTime() + 4.0;
    fprintf(stderr, "animkit-view: %s\n", msg);
}

static void frame_all(app *a)
{
    ak_vec3 lo, hi;
    if (a->mode) {
        akv_mode_bounds(a->mode, &lo, &hi);
    } else {
        float t = a->scene.time;
        akv_scene_bounds(&a->scene, &a->s, 0, akv_scene_frame_count(&a->scene) - 1,
                         1 + akv_scene_frame_count(&a->scene) / 60, &lo, &hi);
        akv_scene_pose(&a->scene, &a->s, t);
    }
    akr_camera_frame_box(&a->cam, lo, hi, a->fb_h > 0 ? (float)a->fb_w / (float)a->fb_h : 1.6f);
    if (a->s.distance > 0) a->cam.distance = a->s.distance;
}

static void load_file(app *a, const char *path)
{
    char err[512];
    if (akv_scene_add_file(&a->scene, &a->s, path, err, sizeof err) != 0) {
        say(a, err);
        return;
    }
    const akv_character *c = &a->scene.chars[a->scene.count - 1];
    char msg[256];
    snprintf(msg, sizeof msg, "loaded %s: %d joints, %d frames, units %s", c->label,
             (int)c->skeleton->joint_count, c->clip ? (int)c->clip->frame_count : 0,
             ak_units_name(c->units));
    say(a, msg);
    snprintf(a->walk_next, sizeof a->walk_next, "%s", path);
}

/* The walker walks the file loaded last (dropped, picked, listed), as `--walk --clip FILE`
 * would: its cycle found, its units detected. When the clip cannot walk (no walking found in
 * it), the walker keeps what it walked and the status line says why. */
static void walk_loaded_clip(app *a)
{
    if (!a->walk_next[0] || a->s.mode != AKV_MODE_WALK || a->s.walk.steer == AK_WALK_STEER_MATCH)
        return;
    ak_walk_scenario_params *saved = malloc(sizeof *saved);
    if (!saved) return;
    *saved = a->s.walk;
    snprintf(a->s.walk.clip, sizeof a->s.walk.clip, "%s", a->walk_next);
    a->s.walk.cycle[0] = a->s.walk.cycle[1] = -1;
    a->s.walk.idle[0] = '\0';
    a->s.walk.scale = 0.0f;
    char err[512], msg[560];
    akv_mode_state *walker = akv_mode_create(&a->s, &a->scene, err, sizeof err);
    const char *name = strrchr(a->walk_next, '/') ? strrchr(a->walk_next, '/') + 1 : a->walk_next;
    if (walker) {
        akv_mode_destroy(a->mode);
        a->mode = walker;
        snprintf(msg, sizeof msg, "walker: walking %.200s (right-click the terrain for a target)",
                 name);
    } else {
        a->s.walk = *saved;
        snprintf(msg, sizeof msg, "walker: %.80s cannot walk, so the walker keeps %.60s: %.300s",
                 name, a->mode ? akv_mode_walk_label(a->mode) : "the built-in walk", err);
    }
    say(a, msg);
    free(saved);
    a->walk_next[0] = '\0';
}

static void set_mode(app *a, akv_mode mode)
{
    akv_mode_destroy(a->mode);
    a->mode = NULL;
    a->s.mode = mode;
    if (mode == AKV_MODE_IK) a->s.paused = 1; /* drag on a still pose; space plays on */
    if (mode != AKV_MODE_PLAY) {
        char err[256];
        a->mode = akv_mode_create(&a->s, &a->scene, err, sizeof err);
        if (!a->mode) {
            say(a, err);
            a->s.mode = AKV_MODE_PLAY;
        }
    }
    frame_all(a);
    a->follow_mode = 1;
    walk_loaded_clip(a);
    if (a->mode && mode == AKV_MODE_WALK)
        a->cam.distance = a->s.distance > 0 ? a->s.distance : 6.0f;
}

/* A mode chosen by key or button: the walker walks (IK mode paused playback to hold the pose
 * it drags; it says so in its HUD, and the walker must not inherit that pause unannounced). */
static void choose_mode(app *a, akv_mode mode)
{
    if (mode == AKV_MODE_WALK && a->s.paused) {
        a->s.paused = 0;
        say(a, "walker: walking (space pauses)");
    }
    set_mode(a, mode);
}

/* ---- input ---- */

static float timeline_y(const app *a)
{
    return (float)a->fb_h - 28.0f;
}

static void scrub_to(app *a, double px)
{
    float d = akv_scene_duration(&a->scene, 0);
    float u = (float)((px - 10.0) / (double)(a->fb_w - 20));
    if (u < 0) u = 0;
    if (u > 1) u = 1;
    a->scene.time = u * d;
    a->s.paused = 1;
}

static void cursor_px(app *a, double *x, double *y)
{
    int ww, wh;
    glfwGetWindowSize(a->window, &ww, &wh);
    glfwGetCursorPos(a->window, x, y);
    if (ww > 0 && wh > 0) {
        *x *= (double)a->fb_w / ww;
        *y *= (double)a->fb_h / wh;
    }
}

static void on_mouse_button(GLFWwindow *w, int button, int action, int mods)
{
    app *a = glfwGetWindowUserPointer(w);
    double x, y;
    cursor_px(a, &x, &y);
    if (action == GLFW_RELEASE) {
        if (a->dragging == 4)
            akv_mode_drag(a->mode, &a->cam, a->fb_w, a->fb_h, (float)x, (float)y, 2);
        a->dragging = 0;
        return;
    }
    a->last_x = x;
    a->last_y = y;
    if (button == GLFW_MOUSE_BUTTON_RIGHT && a->mode && a->s.mode == AKV_MODE_WALK &&
        akv_mode_drag(a->mode, &a->cam, a->fb_w, a->fb_h, (float)x, (float)y, 3)) {
        a->dragging = 0;
    } else if (button == GLFW_MOUSE_BUTTON_LEFT && !a->mode && y > timeline_y(a) - 8) {
        a->dragging = 3;
        scrub_to(a, x);
    } else if (button == GLFW_MOUSE_BUTTON_LEFT && !(mods & GLFW_MOD_SHIFT) && a->mode &&
               akv_mode_drag(a->mode, &a->cam, a->fb_w, a->fb_h, (float)x, (float)y, 0)) {
        a->dragging = 4;
    } else if (button == GLFW_MOUSE_BUTTON_LEFT && !(mods & GLFW_MOD_SHIFT)) {
        a->dragging = 1;
    } else {
        a->dragging = 2;
    }
}

static void on_cursor(GLFWwindow *w, double x_win, double y_win)
{
    app *a = glfwGetWindowUserPointer(w);
    (void)x_win;
    (void)y_win;
    double x, y;
    cursor_px(a, &x, &y);
    double dx = x - a->last_x, dy = y - a->last_y;
    a->last_x = x;
    a->last_y = y;
    if (a->dragging == 1) {
        a->cam.yaw -= (float)dx * 0.008f;
        a->cam.pitch += (float)dy * 0.008f;
        if (a->cam.pitch > 1.5f) a->cam.pitch = 1.5f;
        if (a->cam.pitch < -1.2f) a->cam.pitch = -1.2f;
    } else if (a->dragging == 2) {
        /* Pan in the view plane, scaled so the point under the cursor follows it. */
        float k = a->cam.distance * 2.0f * tanf(a->cam.fov_y * 0.5f) / (float)a->fb_h;
        ak_vec3 right = ak_vec3_make(cosf(a->cam.yaw), 0.0f, -sinf(a->cam.yaw));
        float cp = cosf(a->cam.pitch), sp = sinf(a->cam.pitch);
        ak_vec3 fwd =
            ak_vec3_make(-cp * sinf(a->cam.yaw), -sp, -cp * cosf(a->cam.yaw)); /* eye -> target */
        ak_vec3 up = ak_vec3_normalize_or(ak_vec3_cross(right, fwd), ak_vec3_make(0, 1, 0));
        a->cam.target = ak_vec3_add(a->cam.target, ak_vec3_scale(right, -(float)dx * k));
        a->cam.target = ak_vec3_add(a->cam.target, ak_vec3_scale(up, (float)dy * k));
        a->follow = -1;
        a->follow_mode = 0;
    } else if (a->dragging == 3) {
        scrub_to(a, x);
    } else if (a->dragging == 4) {
        akv_mode_drag(a->mode, &a->cam, a->fb_w, a->fb_h, (float)x, (float)y, 1);
    }
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    app *a = glfwGetWindowUserPointer(w);
    (void)dx;
    a->cam.distance *= powf(0.88f, (float)dy);
    if (a->cam.distance < 0.2f) a->cam.distance = 0.2f;
    if (a->cam.distance > 300.0f) a->cam.distance = 300.0f;
}

static void on_drop(GLFWwindow *w, int count, const char **paths)
{
    app *a = glfwGetWindowUserPointer(w);
    for (int i = 0; i < count; ++i)
        load_file(a, paths[i]);
    if (!a->mode) frame_all(a);
    walk_loaded_clip(a);
}

static void step_frames(app *a, int delta)
{
    float ft = akv_scene_frame_time(&a->scene);
    int f = (int)lroundf(a->scene.time / ft) + delta;
    int n = akv_scene_frame_count(&a->scene);
    if (f < 0) f = a->s.loop ? n - 1 : 0;
    if (f > n - 1) f = a->s.loop ? 0 : n - 1;
    a->scene.time = (float)f * ft;
    a->s.paused = 1;
}

/* F outside the modes: cycle the followed joint of the first character: off, root, then the
 * humanoid's head, hands and feet. */
static void cycle_follow(app *a)
{
    if (a->scene.count == 0) return;
    const ak_skeleton *sk = a->scene.chars[0].skeleton;
    ak_humanoid h;
    ak_humanoid_find(sk, NULL, &h, NULL);
    int order[6] = {0,
                    h.joint[AK_HUM_HEAD],
                    h.joint[AK_HUM_LEFT_HAND],
                    h.joint[AK_HUM_RIGHT_HAND],
                    h.joint[AK_HUM_LEFT_FOOT],
                    h.joint[AK_HUM_RIGHT_FOOT]};
    int pos = -1;
    for (int i = 0; i < 6; ++i)
        if (order[i] == a->follow) pos = i;
    int next = -1;
    for (int i = pos + 1; i < 6; ++i)
        if (order[i] >= 0) {
            next = order[i];
            break;
        }
    a->follow = next;
    char msg[128];
    snprintf(msg, sizeof msg, "follow: %s", next >= 0 ? sk->names[next] : "off");
    say(a, msg);
}

static void toggle_look(app *a, int key)
{
    akr_look *l = &a->s.look;
    if (key == GLFW_KEY_M) l->body = !l->body;
    if (key == GLFW_KEY_K)
        l->skinning = l->skinning == AK_SKIN_LINEAR ? AK_SKIN_DUAL_QUAT : AK_SKIN_LINEAR;
    if (key == GLFW_KEY_J) l->bones = !l->bones;
    if (a->mode) akv_mode_set_look(a->mode, l);
    say(a, !l->body ? "look: bones"
                    : (l->skinning == AK_SKIN_LINEAR ? "look: body, linear blend skinning"
                                                     : "look: body, dual-quaternion skinning"));
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    app *a = glfwGetWindowUserPointer(w);
    (void)scancode;
    (void)mods;
    if (action == GLFW_RELEASE) return;
    if (a->mode && akv_mode_key(a->mode, key)) return;
    switch (key) {
#if !defined(__EMSCRIPTEN__)
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(w, 1); break;
#endif
    case GLFW_KEY_SPACE: a->s.paused = !a->s.paused; break;
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_PERIOD: step_frames(a, 1); break;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_COMMA: step_frames(a, -1); break;
    case GLFW_KEY_PAGE_UP: step_frames(a, 10); break;
    case GLFW_KEY_PAGE_DOWN: step_frames(a, -10); break;
    case GLFW_KEY_HOME: a->scene.time = 0.0f; break;
    case GLFW_KEY_UP: a->s.speed *= 1.25f; break;
    case GLFW_KEY_DOWN: a->s.speed /= 1.25f; break;
    case GLFW_KEY_BACKSPACE: a->s.speed = 1.0f; break;
    case GLFW_KEY_L: a->s.loop = !a->s.loop; break;
    case GLFW_KEY_I: a->s.interp = (ak_interp)((a->s.interp + 1) % 3); break;
    case GLFW_KEY_P: a->s.in_place = !a->s.in_place; break;
    case GLFW_KEY_G: a->s.grid = !a->s.grid; break;
    case GLFW_KEY_S: a->s.shadows = !a->s.shadows; break;
    case GLFW_KEY_H: a->s.hud = !a->s.hud; break;
    case GLFW_KEY_M: /* M mesh: body or bones; K skinning LBS/DQS; J joints over the body */
    case GLFW_KEY_K:
    case GLFW_KEY_J: toggle_look(a, key); break;
    case GLFW_KEY_R:
        frame_all(a);
        a->follow = -1;
        break;
    case GLFW_KEY_F:
        if (a->mode) {
            a->follow_mode = !a->follow_mode;
            break;
        }
        cycle_follow(a);
        break;
    case GLFW_KEY_1: choose_mode(a, AKV_MODE_PLAY); break;
    case GLFW_KEY_2: choose_mode(a, AKV_MODE_IK); break;
    case GLFW_KEY_3: choose_mode(a, AKV_MODE_WALK); break;
    case GLFW_KEY_DELETE:
        if (a->scene.count > 0) {
            /* Drop the last file. */
            akv_character *last = &a->scene.chars[a->scene.count - 1];
            ak_skeleton_destroy(last->skeleton);
            ak_clip_destroy(last->clip);
            free(last->local);
            free(last->world_m);
            memset(last, 0, sizeof *last);
            a->scene.count--;
            if (a->follow >= 0 && a->scene.count == 0) a->follow = -1;
        }
        break;
    default: break;
    }
}

/* ---- HUD ---- */

/* The key help for a mode. The page has no Q (a tab is closed by the browser) and no
 * command line; the desktop window has both. */
static const char *key_hints(akv_mode mode)
{
#if defined(__EMSCRIPTEN__)
#define AKV_QUIT ""
#else
#define AKV_QUIT "  Q quit"
#endif
    if (mode == AKV_MODE_WALK)
        return "mouse: left orbit, shift pan, wheel zoom, RIGHT CLICK the terrain: new target\n"
               "space pause  up/down speed  T mirror the target  B restart the walk  F follow "
               "on/off\n"
               "drop a walk clip: the walker walks it  R reset view  G grid  S shadows  H hide "
               "help\n"
               "M body/bones  K LBS/DQS skinning  J bones over the body\n"
               "1 playback  2 IK  3 walker" AKV_QUIT;
    return "mouse: left orbit, right/shift pan, wheel zoom, click the timeline to scrub\n"
           "space play/pause  <- -> step  PgUp/PgDn 10  Home start  up/down speed  backspace 1x\n"
           "L loop  I interp  P in-place  F follow  R reset view  G grid  S shadows  H hide help\n"
           "M body/bones  K LBS/DQS skinning  J bones over the body\n"
           "1 playback  2 IK (drag the ball; C solver, O pole, +/- iterations)  3 walker" AKV_QUIT;
#undef AKV_QUIT
}

/* Playback's status line (fitted to the window) and timeline; nothing without a clip (a frame
 * count of an empty scene means nothing to a reader). */
static void draw_playback_status(app *a, float y)
{
    static const float ink[3] = {0.10f, 0.11f, 0.14f};
    akr_renderer *r = a->r;
    char line[256];
    float ft = akv_scene_frame_time(&a->scene);
    snprintf(line, sizeof line, "%s  frame %d / %d  t %.2f s  speed %.2fx  %s  interp %s%s%s%s",
             a->s.paused ? "paused" : "playing", (int)lroundf(a->scene.time / ft),
             akv_scene_frame_count(&a->scene) - 1, (double)a->scene.time, (double)a->s.speed,
             a->s.loop ? "loop" : "once", k_interp_names[a->s.interp],
             a->s.in_place ? "  in-place" : "", a->follow >= 0 ? "  follow " : "",
             a->follow >= 0 && a->scene.count ? a->scene.chars[0].skeleton->names[a->follow] : "");
    akr_draw_text(r, 10.0f, y + 4.0f, akr_text_fit(line, 2.0f, (float)a->fb_w - 20.0f), line, ink);
    /* Timeline: the bar, the playhead. */
    float d = akv_scene_duration(&a->scene, 0);
    float ty = timeline_y(a), tw = (float)a->fb_w - 20.0f;
    static const float bar[4] = {0.2f, 0.22f, 0.28f, 0.35f}, head[4] = {0.9f, 0.42f, 0.32f, 1.0f};
    akr_draw_rect(r, 10.0f, ty, tw, 10.0f, bar);
    float u = d > 0 ? a->scene.time / d : 0.0f;
    if (u > 1) u = 1;
    akr_draw_rect(r, 10.0f + u * tw - 3.0f, ty - 5.0f, 6.0f, 20.0f, head);
}

static void draw_hud(app *a)
{
    static const float ink[3] = {0.10f, 0.11f, 0.14f}, dim[3] = {0.30f, 0.32f, 0.38f};
    akr_renderer *r = a->r;
    float y = 10.0f;
    char line[256];
    if (a->mode) {
        akv_mode_hud(a->mode, r, a->fb_w, a->fb_h);
    } else {
        if (a->scene.count == 0) {
#if defined(__EMSCRIPTEN__)
            akr_draw_text(r, 10.0f, y, 2.0f,
                          "drop BVH or GLB files here, or pick a test clip above", ink);
#else
            akr_draw_text(r, 10.0f, y, 2.0f,
                          "drop BVH/glTF files here (or: animkit-view FILE.bvh ...)", ink);
#endif
            y += 22.0f;
        }
        for (int i = 0; i < a->scene.count; ++i) {
            const akv_character *c = &a->scene.chars[i];
            snprintf(line, sizeof line, "%s  (%d joints, %d frames @ %.0f fps, %s)", c->label,
                     (int)c->skeleton->joint_count, c->clip ? (int)c->clip->frame_count : 0,
                     c->clip ? 1.0 / (double)c->clip->frame_time : 0.0, ak_units_name(c->units));
            akr_draw_text(r, 10.0f, y, 2.0f, line, c->colour);
            y += 20.0f;
        }
        if (a->scene.count > 0) draw_playback_status(a, y);
    }
    float ks = a->fb_w >= 1100 ? 2.0f : 1.5f;
    const char *keys = key_hints(a->s.mode);
    float lines = 1.0f;
    for (const char *c = keys; *c; ++c)
        lines += *c == '\n';
    const float keys_y = (float)a->fb_h - 36.0f - (lines - 1.0f) * 11.0f * ks;
    if (a->s.hud)
        akr_draw_text(r, 10.0f, keys_y, akr_text_fit(keys, ks, (float)a->fb_w - 20.0f), keys, dim);
    if (a->mode && a->s.paused) {
        static const float red[3] = {0.75f, 0.16f, 0.10f};
        akr_draw_text(r, 10.0f, keys_y - 26.0f, 2.0f, "PAUSED - space plays", red);
    }
    if (a->message[0] && glfwGetTime() < a->message_until)
        akr_draw_text(r, 10.0f, (float)a->fb_h - 150.0f, 2.0f, a->message, ink);
}

/* ---- one frame ---- */

/* Advances the clip (or the mode) by dt seconds and moves a following camera. */
static void advance(app *a, float dt)
{
    if (a->mode) {
        if (!a->s.paused) akv_mode_update(a->mode, dt * a->s.speed);
        ak_vec3 focus;
        if (a->follow_mode && akv_mode_focus(a->mode, &focus))
            a->cam.target = ak_vec3_lerp(a->cam.target, focus, 1.0f - expf(-dt * 6.0f));
        return;
    }
    if (!a->s.paused) {
        a->scene.time += dt * a->s.speed;
        float d = akv_scene_duration(&a->scene, a->s.loop);
        if (d > 0) {
            if (a->s.loop)
                a->scene.time = fmodf(fmodf(a->scene.time, d) + d, d);
            else if (a->scene.time > d)
                a->scene.time = d;
            else if (a->scene.time < 0)
                a->scene.time = 0;
        }
    }
    akv_scene_pose(&a->scene, &a->s, a->scene.time);
    if (a->follow >= 0 && a->scene.count) {
        ak_vec3 p = a->scene.chars[0].world_m[a->follow].translation;
        float k = 1.0f - expf(-dt * 8.0f);
        a->cam.target = ak_vec3_lerp(a->cam.target, p, k);
    }
}

#if !defined(__EMSCRIPTEN__)
/* --screenshot: saves the back buffer as PNG and asks the window to close. */
static void take_screenshot(app *a)
{
    uint8_t *rgb = malloc((size_t)a->fb_w * (size_t)a->fb_h * 3);
    if (rgb) {
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_BACK);
        for (int y = 0; y < a->fb_h; ++y)
            glReadPixels(0, a->fb_h - 1 - y, a->fb_w, 1, GL_RGB, GL_UNSIGNED_BYTE,
                         rgb + (size_t)y * (size_t)a->fb_w * 3);
        if (akv_write_png(a->s.screenshot, a->fb_w, a->fb_h, rgb) != 0)
            a->exit_code = 1;
        else
            printf("wrote %s (%dx%d)\n", a->s.screenshot, a->fb_w, a->fb_h);
        free(rgb);
    } else {
        a->exit_code = 1;
    }
    glfwSetWindowShouldClose(a->window, 1);
}
#endif

/* One frame: time step, update, draw, present. */
static void frame(app *a)
{
    double now = glfwGetTime();
    float dt = (float)(now - a->last_time);
    a->last_time = now;
    if (dt > 0.1f) dt = 0.1f;
    glfwGetFramebufferSize(a->window, &a->fb_w, &a->fb_h);
    if (a->fb_w < 1 || a->fb_h < 1) return;
    advance(a, dt);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    akr_begin(a->r, a->fb_w, a->fb_h, &a->cam);
    if (a->mode)
        akv_mode_draw(a->mode, a->r);
    else
        akv_scene_draw(a->r, &a->scene, &a->s);
    draw_hud(a);
#if !defined(__EMSCRIPTEN__)
    if (a->s.screenshot && ++a->frames_drawn == 3) take_screenshot(a);
#endif
    glfwSwapBuffers(a->window);
}

#if defined(__EMSCRIPTEN__)
/* ---- the browser page's hooks (web/index.html calls these; see docs/web.md) ---- */

static app *g_web; /* the one viewer of the page */

static void web_frame(void *arg)
{
    frame(arg);
}

static void akv_web_start(app *a)
{
    g_web = a;
    emscripten_set_main_loop_arg(web_frame, a, 0, 0);
}

/* Loads a BVH file the page wrote into the virtual file system (file picker, clip list). */
EMSCRIPTEN_KEEPALIVE int akv_web_load(const char *path)
{
    if (!g_web) return -1;
    int before = g_web->scene.count;
    load_file(g_web, path);
    if (g_web->scene.count > before && !g_web->mode) frame_all(g_web);
    walk_loaded_clip(g_web);
    return g_web->scene.count > before ? 0 : -1;
}

/* A key press as the window would get it (GLFW key code): the page's buttons use it. */
EMSCRIPTEN_KEEPALIVE void akv_web_key(int key)
{
    if (g_web) on_key(g_web->window, key, 0, GLFW_PRESS, 0);
}

EMSCRIPTEN_KEEPALIVE void akv_web_resize(int w, int h)
{
    if (g_web && w > 0 && h > 0) glfwSetWindowSize(g_web->window, w, h);
}

/* The key help on one line, for the probe (JSON has no raw newlines). */
static const char *web_hints_oneline(akv_mode mode)
{
    static char line[512];
    snprintf(line, sizeof line, "%s", key_hints(mode));
    for (char *c = line; *c; ++c)
        if (*c == '\n') *c = ' ';
    return line;
}

/* The state a test checks, as JSON: mode, framebuffer, camera matrix, time, the first
 * character's joints (world, metres) in playback, the IK target and error, the walker focus. */
EMSCRIPTEN_KEEPALIVE const char *akv_web_probe(void)
{
    static char json[65536];
    app *a = g_web;
    if (!a) return "{}";
    float vp[16];
    akr_camera_view_proj(&a->cam, a->fb_w, a->fb_h, vp);
    size_t n = (size_t)snprintf(
        json, sizeof json,
        "{\"mode\":%d,\"characters\":%d,\"width\":%d,\"height\":%d,"
        "\"time\":%.9g,\"paused\":%d,\"hud_right\":%.1f,"
        "\"walk_clip\":\"%s\",\"hints\":\"%s\",\"mesh_vertices\":%d,"
        "\"view_proj\":[",
        (int)a->s.mode, a->scene.count, a->fb_w, a->fb_h, (double)a->scene.time, a->s.paused,
        (double)akr_text_right(a->r), akv_mode_walk_label(a->mode), web_hints_oneline(a->s.mode),
        a->scene.count && a->scene.chars[0].mesh ? (int)a->scene.chars[0].mesh->vertex_count : 0);
    for (int i = 0; i < 16 && n < sizeof json; ++i)
        n += (size_t)snprintf(json + n, sizeof json - n, "%s%.9g", i ? "," : "", (double)vp[i]);
    ak_vec3 p;
    float err_m = a->mode ? akv_mode_ik_error_m(a->mode, &p) : -1.0f;
    if (n < sizeof json && err_m >= 0)
        n += (size_t)snprintf(json + n, sizeof json - n,
                              "],\"ik_error_m\":%.9g,\"ik_target\":[%.9g,%.9g,%.9g", (double)err_m,
                              (double)p.x, (double)p.y, (double)p.z);
    ak_walk_scene *walk = a->mode ? akv_mode_walk_scene(a->mode) : NULL;
    if (n < sizeof json && walk) {
        ak_walker_state st;
        ak_walk_scene_get_state(walk, &st);
        n += (size_t)snprintf(json + n, sizeof json - n,
                              "],\"walk\":[%.9g,%d", /* [time s, arrived] */
                              (double)st.time, (int)st.arrived);
    }
    if (n < sizeof json && a->mode && akv_mode_focus(a->mode, &p))
        n += (size_t)snprintf(json + n, sizeof json - n, "],\"focus\":[%.9g,%.9g,%.9g", (double)p.x,
                              (double)p.y, (double)p.z);
    if (n < sizeof json) n += (size_t)snprintf(json + n, sizeof json - n, "],\"joints\":[");
    const akv_character *c = a->scene.count && !a->mode ? &a->scene.chars[0] : NULL;
    for (int j = 0; c && j < c->skeleton->joint_count && n < sizeof json; ++j) {
        ak_vec3 w = c->world_m[j].translation;
        n += (size_t)snprintf(json + n, sizeof json - n, "%s[\"%s\",%.9g,%.9g,%.9g]", j ? "," : "",
                              c->skeleton->names[j], (double)w.x, (double)w.y, (double)w.z);
    }
    if (n < sizeof json) snprintf(json + n, sizeof json - n, "]}");
    return json;
}

/* Draws one frame now and reads it back: RGBA rows, bottom row first, fb_w x fb_h (the probe
 * says the size). The buffer stays valid until the next call. */
EMSCRIPTEN_KEEPALIVE const uint8_t *akv_web_capture(void)
{
    static uint8_t *rgba;
    app *a = g_web;
    if (!a) return NULL;
    frame(a);
    free(rgba);
    rgba = malloc((size_t)a->fb_w * (size_t)a->fb_h * 4);
    if (rgba) glReadPixels(0, 0, a->fb_w, a->fb_h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    return rgba;
}
#endif

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: animkit-view [FILE.bvh ...] [options]\n"
        "       animkit-view --headless FILE.bvh [--frame N | --frames A:B[:STEP]] --out OUT "
        "[options]\n\n"
        "Plays BVH, glTF/GLB and FBX clips (several at once, each in its own colour; drop more),\n"
        "with IK (--ik) and walker (--walk) modes. Every setting is also a key (press H).\n"
        "--version prints the version.\n\n");
    akv_print_flags(out);
}

/* Opens the window (a WebGL 2 canvas in the browser), the renderer and the input callbacks;
 * 0, or 3 when there is no OpenGL. */
static int open_window(app *a)
{
    if (!glfwInit()) {
        fprintf(stderr,
                "animkit-view: cannot open a window (no display?). For pictures use --headless.\n");
        return 3;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, 4);
    glfwWindowHint(GLFW_STENCIL_BITS, 8);
    a->window = glfwCreateWindow(a->s.width, a->s.height, "animkit-view", NULL, NULL);
    if (!a->window) {
        fprintf(stderr, "animkit-view: no OpenGL 3.3 core window\n");
        glfwTerminate();
        return 3;
    }
    glfwMakeContextCurrent(a->window);
    glfwSwapInterval(1);
    char err[512];
    a->r = akr_create(err, sizeof err);
    if (!a->r) {
        fprintf(stderr, "animkit-view: %s\n", err);
        glfwTerminate();
        return 3;
    }
#if defined(GL_MULTISAMPLE)
    glEnable(GL_MULTISAMPLE); /* WebGL: the context's antialias attribute instead */
#endif
    glfwSetWindowUserPointer(a->window, a);
    glfwSetMouseButtonCallback(a->window, on_mouse_button);
    glfwSetCursorPosCallback(a->window, on_cursor);
    glfwSetScrollCallback(a->window, on_scroll);
    glfwSetKeyCallback(a->window, on_key);
    glfwSetDropCallback(a->window, on_drop);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("animkit-view %s\n", AK_VERSION_STRING);
        return 0;
    }
#if !defined(__EMSCRIPTEN__)
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--headless") == 0) {
            /* Same flags as `animkit render`: drop --headless and hand over. */
            char **rest = malloc(sizeof(char *) * (size_t)argc);
            int n = 0;
            for (int k = 0; k < argc; ++k)
                if (k != i) rest[n++] = argv[k];
            int rc = akv_render_main(n, rest, "animkit-view --headless");
            free(rest);
            return rc;
        }
#endif
    static app a;
    akv_settings_defaults(&a.s, 0);
    int help = 0;
    int rc = akv_parse_args(&a.s, argc, argv, "animkit-view", &help);
    if (rc) return rc;
    if (help) {
        usage(stdout);
        return 0;
    }
    for (int i = 0; i < a.s.file_count; ++i) {
        char err[512];
        if (akv_scene_add_file(&a.scene, &a.s, a.s.files[i], err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            akv_scene_free(&a.scene);
            return 1;
        }
    }
    rc = open_window(&a);
    if (rc) return rc;
    glfwGetFramebufferSize(a.window, &a.fb_w, &a.fb_h);
    a.cam = akr_camera_defaults();
    a.cam.yaw = a.s.yaw;
    a.cam.pitch = a.s.pitch;
    a.follow = -1;
    a.scene.time = a.s.time;
    if (a.s.mode != AKV_MODE_PLAY)
        set_mode(&a, a.s.mode);
    else
        frame_all(&a);
    if (a.s.follow && a.scene.count)
        a.follow = ak_skeleton_find(a.scene.chars[0].skeleton, a.s.follow);

    a.last_time = glfwGetTime();
#if defined(__EMSCRIPTEN__)
    /* The browser calls frame() once per animation frame; main returns and the page lives on. */
    akv_web_start(&a);
    return 0;
#else
    while (!glfwWindowShouldClose(a.window)) {
        glfwPollEvents();
        frame(&a);
    }
    akv_mode_destroy(a.mode);
    akr_destroy(a.r);
    akv_scene_free(&a.scene);
    glfwDestroyWindow(a.window);
    glfwTerminate();
    return a.exit_code;
#endif
}
