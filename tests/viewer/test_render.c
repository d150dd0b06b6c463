/* Headless rendering (EGL surfaceless or a hidden window under Xvfb): pictures are not blank,
 * joints land on the pixels the projected FK says, different frames give different pictures,
 * and the CLI writes PNG / contact sheet / GIF files. Exits 77 (skipped) only when no OpenGL
 * context can be had at all. */
#include "test_util.h"

#include <stb_image.h>
#include <sys/wait.h>

#include "../locomotion/studio_variants.h"
#include "headless.h"
#include "match_overlay.h"
#include "modes.h"
#include "offscreen.h"
#include "render.h"
#include "scene.h"

#define W 320
#define H 240

static akv_offscreen *g_off;
static akr_renderer *g_r;

static void load_walk(akv_scene *scene, akv_settings *s)
{
    char path[1024];
    akv_settings_defaults(s, 1);
    memset(scene, 0, sizeof *scene);
    char err[256];
    if (akv_scene_add_file(scene, s, akt_mocap_path("cmu_02_01_walk.bvh", path, sizeof path), err,
                           sizeof err) != 0)
        fail_msg("%s", err);
}

/* Renders the scene at frame f (or only the ground when `empty`) with camera `cam`. */
static void render(akv_scene *scene, akv_settings *s, int f, const akr_camera *cam, int empty,
                   uint8_t *rgb)
{
    akv_scene_pose(scene, s, (float)f * akv_scene_frame_time(scene));
    akv_offscreen_bind(g_off);
    akr_begin(g_r, W, H, cam);
    if (empty) {
        akr_draw_ground(g_r, 0.0f, 30.0f);
    } else {
        akv_scene_draw(g_r, scene, s);
    }
    akv_offscreen_read(g_off, rgb);
}

static akr_camera framed_camera(akv_scene *scene, akv_settings *s, int f)
{
    akr_camera cam = akr_camera_defaults();
    ak_vec3 lo, hi;
    akv_scene_bounds(scene, s, f, f, 1, &lo, &hi);
    akr_camera_frame_box(&cam, lo, hi, (float)W / (float)H);
    return cam;
}

static int pixel_diff(const uint8_t *a, const uint8_t *b, int x, int y)
{
    const uint8_t *p = a + ((size_t)y * W + (size_t)x) * 3,
                  *q = b + ((size_t)y * W + (size_t)x) * 3;
    return abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]);
}

static void render_is_not_blank(void **state)
{
    (void)state;
    akv_scene scene;
    akv_settings s;
    load_walk(&scene, &s);
    uint8_t *img = malloc(W * H * 3), *bg = malloc(W * H * 3);
    akr_camera cam = framed_camera(&scene, &s, 100);
    render(&scene, &s, 100, &cam, 0, img);
    render(&scene, &s, 100, &cam, 1, bg);
    /* The character (coral: red well above blue) covers a real share of the picture. */
    int character = 0, changed = 0;
    for (int i = 0; i < W * H; ++i) {
        const uint8_t *p = img + i * 3;
        if (p[0] > p[2] + 60) character++;
        if (pixel_diff(img, bg, i % W, i / W) > 30) changed++;
    }
    print_message("character pixels %d of %d, changed vs empty %d\n", character, W * H, changed);
    assert_true(character > W * H / 100);
    assert_true(changed > W * H / 100);
    /* The sky (top row) is the background colour, the ground (bottom row) is lighter grey. */
    const uint8_t *top = img + (W / 2) * 3;
    assert_true(top[2] > top[0]);
    free(img);
    free(bg);
    akv_scene_free(&scene);
}

static void render_joints_land_where_projected_fk_says(void **state)
{
    (void)state;
    akv_scene scene;
    akv_settings s;
    load_walk(&scene, &s);
    uint8_t *img = malloc(W * H * 3), *bg = malloc(W * H * 3);
    const char *joints[] = {"Head",         "LeftFoot", "RightFoot", "LeftHand",
                            "RightForeArm", "Hips",     "Spine1"};
    int frames[] = {0, 120, 250};
    for (int fi = 0; fi < 3; ++fi) {
        akr_camera cam = framed_camera(&scene, &s, frames[fi]);
        render(&scene, &s, frames[fi], &cam, 0, img);
        render(&scene, &s, frames[fi], &cam, 1, bg);
        akv_scene_pose(&scene, &s, (float)frames[fi] * akv_scene_frame_time(&scene));
        for (size_t k = 0; k < sizeof joints / sizeof joints[0]; ++k) {
            ak_vec3 p = akv_scene_joint_m(&scene, joints[k]);
            assert_true(ak_skeleton_find(scene.chars[0].skeleton, joints[k]) >= 0);
            float px, py;
            assert_true(akr_project(&cam, W, H, p, &px, &py));
            int x = (int)px, y = (int)py;
            assert_true(x >= 0 && x < W && y >= 0 && y < H);
            const uint8_t *c = img + ((size_t)y * W + (size_t)x) * 3;
            if (!(pixel_diff(img, bg, x, y) > 60 && c[0] > c[2] + 30))
                fail_msg("frame %d joint %s at pixel (%d,%d): rgb %d,%d,%d is not the character",
                         frames[fi], joints[k], x, y, c[0], c[1], c[2]);
        }
        /* And a point 1 m beside the head, off the body, shows no character. */
        ak_vec3 head = akv_scene_joint_m(&scene, "Head");
        float px, py;
        ak_vec3 right = ak_vec3_make(cosf(cam.yaw), 0.0f, -sinf(cam.yaw));
        assert_true(akr_project(&cam, W, H, ak_vec3_add(head, right), &px, &py));
        if ((int)px >= 0 && (int)px < W && (int)py >= 0 && (int)py < H)
            assert_true(pixel_diff(img, bg, (int)px, (int)py) < 30);
    }
    free(img);
    free(bg);
    akv_scene_free(&scene);
}

static void render_different_frames_differ_and_same_frame_repeats(void **state)
{
    (void)state;
    akv_scene scene;
    akv_settings s;
    load_walk(&scene, &s);
    uint8_t *a = malloc(W * H * 3), *b = malloc(W * H * 3), *c = malloc(W * H * 3);
    akr_camera cam = akr_camera_defaults();
    cam.target = ak_vec3_make(0, 0.9f, 0);
    ak_vec3 lo, hi;
    akv_scene_bounds(&scene, &s, 0, 343, 10, &lo, &hi);
    akr_camera_frame_box(&cam, lo, hi, (float)W / H);
    render(&scene, &s, 60, &cam, 0, a);
    render(&scene, &s, 200, &cam, 0, b);
    render(&scene, &s, 60, &cam, 0, c);
    int differ = 0;
    for (int i = 0; i < W * H; ++i)
        differ += pixel_diff(a, b, i % W, i / W) > 30;
    print_message("frames 60 and 200 differ in %d pixels\n", differ);
    assert_true(differ > 500);
    assert_memory_equal(a, c, W * H * 3);
    free(a);
    free(b);
    free(c);
    akv_scene_free(&scene);
}

/* Is pixel (x, y) the character's: unlike the empty picture, and coral (red well above blue). */
static int is_character(const uint8_t *img, const uint8_t *bg, int x, int y)
{
    const uint8_t *c = img + ((size_t)y * W + (size_t)x) * 3;
    return pixel_diff(img, bg, x, y) > 60 && c[0] > c[2] + 30;
}

/* The library's own skinning of the generated body (ak_body_mesh_create + ak_skin_run, the
 * inverse binds' translations and the mesh in metres) at the scene's pose; returns the mesh. */
static ak_body_mesh *cpu_body(const akv_character *c, int method, float **out_pos, float **out_nrm)
{
    ak_body_mesh *m = NULL;
    assert_int_equal(ak_body_mesh_create(c->skeleton, NULL, &m, NULL), AK_OK);
    const int32_t n = c->skeleton->joint_count;
    float *ibm = malloc(sizeof(float) * 16 * (size_t)n),
          *pos = malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    ak_skin_joint *pal = malloc(sizeof(ak_skin_joint) * (size_t)n);
    memcpy(ibm, m->inverse_bind, sizeof(float) * 16 * (size_t)n);
    for (int32_t j = 0; j < n; ++j)
        ibm[16 * j + 12] *= c->mpu, ibm[16 * j + 13] *= c->mpu, ibm[16 * j + 14] *= c->mpu;
    for (int32_t i = 0; i < 3 * m->vertex_count; ++i)
        pos[i] = m->positions[i] * c->mpu;
    *out_pos = malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    *out_nrm = malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    ak_skin_params p = ak_skin_defaults();
    p.method = method, p.joint_count = n, p.model_pose = c->world_m, p.inverse_bind = ibm;
    p.palette = pal, p.vertex_count = m->vertex_count, p.joints = m->joints, p.weights = m->weights;
    p.positions = pos, p.normals = m->normals, p.out_positions = *out_pos, p.out_normals = *out_nrm;
    assert_int_equal(ak_skin_run(&p, NULL), AK_OK);
    free(ibm), free(pos), free(pal);
    return m;
}

/* The body the viewer draws (GPU skinning, LBS and DQS) covers the pixels of every vertex the
 * library's skinning puts facing the camera, feet included; it covers more than the bones. */
static void render_body_is_drawn_where_the_library_skins_it(void **state)
{
    (void)state;
    akv_scene scene;
    akv_settings s;
    load_walk(&scene, &s);
    uint8_t *img = malloc(W * H * 3), *bg = malloc(W * H * 3), *bones = malloc(W * H * 3);
    const int frame = 100;
    akr_camera cam = framed_camera(&scene, &s, frame);
    render(&scene, &s, frame, &cam, 1, bg);
    s.look.body = 0;
    render(&scene, &s, frame, &cam, 0, bones);
    s.look.body = 1;
    const ak_vec3 eye = akr_camera_eye(&cam);
    const akv_character *c = &scene.chars[0];
    ak_humanoid map;
    assert_int_equal(ak_humanoid_find(c->skeleton, NULL, &map, NULL), AK_OK);
    for (int method = 0; method < 2; ++method) {
        s.look.skinning = method;
        render(&scene, &s, frame, &cam, 0, img);
        float *pos, *nrm;
        ak_body_mesh *m = cpu_body(c, method, &pos, &nrm);
        int checked = 0, hit = 0, feet = 0, body_px = 0, bone_px = 0;
        for (int32_t v = 0; v < m->vertex_count; ++v) {
            const ak_vec3 p = ak_vec3_make(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
            const ak_vec3 to_eye = ak_vec3_normalize_or(ak_vec3_sub(eye, p), ak_vec3_make(0, 1, 0));
            if (ak_vec3_dot(to_eye, ak_vec3_make(nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2])) <
                0.6f)
                continue;
            float px, py;
            if (!akr_project(&cam, W, H, p, &px, &py) || px < 0 || py < 0 || px >= W || py >= H)
                continue;
            checked++;
            const int ok = is_character(img, bg, (int)px, (int)py);
            hit += ok;
            const int32_t j = m->joints[4 * v];
            feet += ok && (j == map.joint[AK_HUM_LEFT_FOOT] || j == map.joint[AK_HUM_RIGHT_FOOT] ||
                           j == map.joint[AK_HUM_LEFT_TOE] || j == map.joint[AK_HUM_RIGHT_TOE]);
        }
        for (int i = 0; i < W * H; ++i) {
            body_px += is_character(img, bg, i % W, i / W);
            bone_px += is_character(bones, bg, i % W, i / W);
        }
        print_message("%s: %d of %d front-facing vertices on character pixels (%d on the feet); "
                      "body %d px, bones %d px\n",
                      method ? "DQS" : "LBS", hit, checked, feet, body_px, bone_px);
        assert_true(checked > 200);
        assert_true(hit >= checked * 99 / 100);
        assert_true(feet > 20);
        assert_true(body_px > bone_px); /* limbs and torso wider than the 3 cm bones */
        free(pos), free(nrm);
        ak_body_mesh_destroy(m);
    }
    free(img), free(bg), free(bones);
    akv_scene_free(&scene);
}

/* A glTF character draws its own skinned mesh, not the generated body: the glTF tutorial's
 * simple skin is a 1 m wide ribbon facing +Z around a 2 m bone chain. Points inside the
 * ribbon near its edges (a tenth of its width in), skinned by the library on the CPU, land on
 * character pixels with the file's mesh; with the generated body (tubes around the bones) in
 * its place they are background. */
static void render_gltf_character_draws_its_own_mesh(void **state)
{
    (void)state;
    akv_scene scene;
    akv_settings s;
    akv_settings_defaults(&s, 1);
    memset(&scene, 0, sizeof scene);
    char err[256], path[1024];
    const char *src = getenv("AK_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/data/gltf/simple_skin.gltf", src ? src : ".");
    if (akv_scene_add_file(&scene, &s, path, err, sizeof err) != 0) fail_msg("%s", err);
    akv_character *c = &scene.chars[0];
    assert_non_null(c->mesh);
    assert_int_equal(c->mesh->vertex_count, 10);
    const int frame = c->clip->frame_count / 3;
    akv_scene_pose(&scene, &s, (float)frame * akv_scene_frame_time(&scene));
    ak_body_mesh *m = c->mesh;
    /* The library's LBS of the file's mesh at the drawn pose (metres, as the viewer scales). */
    float ibm[3 * 16], pos[30], out[30];
    ak_skin_joint pal[3];
    memcpy(ibm, m->inverse_bind, sizeof ibm);
    for (int j = 0; j < 3; ++j)
        ibm[16 * j + 12] *= c->mpu, ibm[16 * j + 13] *= c->mpu, ibm[16 * j + 14] *= c->mpu;
    for (int i = 0; i < 30; ++i)
        pos[i] = m->positions[i] * c->mpu;
    ak_skin_params p = ak_skin_defaults();
    p.joint_count = 3, p.model_pose = c->world_m, p.inverse_bind = ibm, p.palette = pal;
    p.vertex_count = 10, p.joints = m->joints, p.weights = m->weights, p.positions = pos;
    p.out_positions = out;
    ak_error e;
    assert_int_equal(ak_skin_run(&p, &e), AK_OK);
    /* Looking from +Z (where the ribbon faces) at the skinned ribbon, 3 of its sizes away. */
    ak_vec3 lo = ak_vec3_make(1e9f, 1e9f, 1e9f), hi = ak_vec3_scale(lo, -1.0f);
    for (int v = 0; v < 10; ++v) {
        const ak_vec3 q = ak_vec3_make(out[3 * v], out[3 * v + 1], out[3 * v + 2]);
        lo = ak_vec3_make(fminf(lo.x, q.x), fminf(lo.y, q.y), fminf(lo.z, q.z));
        hi = ak_vec3_make(fmaxf(hi.x, q.x), fmaxf(hi.y, q.y), fmaxf(hi.z, q.z));
    }
    akr_camera cam = akr_camera_defaults();
    cam.target = ak_vec3_scale(ak_vec3_add(lo, hi), 0.5f);
    cam.yaw = 0.0f, cam.pitch = 0.1f, cam.distance = 3.0f * ak_vec3_length(ak_vec3_sub(hi, lo));
    uint8_t *bg = malloc(W * H * 3), *own = malloc(W * H * 3), *made = malloc(W * H * 3);
    render(&scene, &s, frame, &cam, 1, bg);
    render(&scene, &s, frame, &cam, 0, own);
    c->mesh = NULL; /* the generated body instead */
    render(&scene, &s, frame, &cam, 0, made);
    c->mesh = m;
    int checked = 0, on_own = 0, on_made = 0;
    for (int row = 0; row < 4; ++row)
        for (int side = 0; side < 2; ++side) {
            const float u = side ? 0.9f : 0.1f; /* across the ribbon */
            ak_vec3 q = ak_vec3_make(0, 0, 0);
            for (int k = 0; k < 2; ++k) { /* the middle of rows `row` and `row + 1` */
                const float *a = out + 3 * (2 * (row + k)), *b = out + 3 * (2 * (row + k) + 1);
                q = ak_vec3_add(q, ak_vec3_make(0.5f * (a[0] + u * (b[0] - a[0])),
                                                0.5f * (a[1] + u * (b[1] - a[1])),
                                                0.5f * (a[2] + u * (b[2] - a[2]))));
            }
            float px, py;
            if (!akr_project(&cam, W, H, q, &px, &py) || px < 0 || py < 0 || px >= W || py >= H)
                continue;
            checked++;
            on_own += is_character(own, bg, (int)px, (int)py);
            on_made += is_character(made, bg, (int)px, (int)py);
        }
    print_message("simple_skin.gltf: %d of %d ribbon points on its own mesh, %d on the generated "
                  "body\n",
                  on_own, checked, on_made);
    assert_int_equal(checked, 8);
    assert_int_equal(on_own, 8);
    assert_true(on_made <= 1);
    free(bg), free(own), free(made);
    akv_scene_free(&scene);
}

static int png_size(const char *path, int *w, int *h)
{
    int comp;
    return stbi_info(path, w, h, &comp) ? 0 : -1;
}

static void render_cli_writes_png_sheet_and_gif(void **state)
{
    (void)state;
    const char *build = getenv("AK_BUILD_DIR");
    assert_non_null(build);
    char bvh[1024], cmd[4096], out[1024];
    akt_mocap_path("cmu_09_01_run.bvh", bvh, sizeof bvh);
    snprintf(out, sizeof out, "%s/render-test", build);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && rm -f '%s'/*", out, out);
    assert_int_equal(system(cmd), 0);

    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' render '%s' --frame 40 --size 200x150 --out '%s/one.png' >/dev/null",
             build, bvh, out);
    assert_int_equal(system(cmd), 0);
    char path[1200];
    int w, h;
    snprintf(path, sizeof path, "%s/one.png", out);
    assert_int_equal(png_size(path, &w, &h), 0);
    assert_int_equal(w, 200);
    assert_int_equal(h, 150);

    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' render '%s' --frames 0:100:20 --sheet --sheet-cols 3 --size 100x80 "
             "--out '%s/sheet.png' >/dev/null",
             build, bvh, out);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/sheet.png", out);
    assert_int_equal(png_size(path, &w, &h), 0);
    assert_int_equal(w, 300); /* 6 frames, 3 columns -> 2 rows */
    assert_int_equal(h, 160);

    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' render '%s' --frames 10:30:10 --size 100x80 --out '%s/seq.png' "
             ">/dev/null",
             build, bvh, out);
    assert_int_equal(system(cmd), 0);
    for (int f = 10; f <= 30; f += 10) {
        snprintf(path, sizeof path, "%s/seq_%04d.png", out, f);
        assert_int_equal(png_size(path, &w, &h), 0);
    }

    /* Usage errors exit 2. */
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' render '%s' --frame 9999 --out '%s/x.png' 2>/dev/null", build, bvh,
             out);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);

    if (system("command -v ffmpeg >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd,
                 "'%s/bin/animkit' render '%s' --frames 0:60:6 --size 120x90 --out '%s/anim.gif' "
                 ">/dev/null",
                 build, bvh, out);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof path, "%s/anim.gif", out);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        char sig[6];
        assert_int_equal(fread(sig, 1, 6, f), 6);
        fclose(f);
        assert_memory_equal(sig, "GIF89a", 6);
        /* MP4 (H.264): an ISO media file starts with a 'ftyp' box. */
        snprintf(cmd, sizeof cmd,
                 "'%s/bin/animkit' render '%s' --frames 0:30:3 --size 120x90 --out '%s/anim.mp4' "
                 ">/dev/null",
                 build, bvh, out);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof path, "%s/anim.mp4", out);
        f = fopen(path, "rb");
        assert_non_null(f);
        char box[8];
        assert_int_equal(fread(box, 1, 8, f), 8);
        fclose(f);
        assert_memory_equal(box + 4, "ftyp", 4);
    }

    /* animkit-view --headless is the same command. */
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit-view' --headless '%s' --frame 5 --size 64x48 --out '%s/view.png' "
             ">/dev/null",
             build, bvh, out);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/view.png", out);
    assert_int_equal(png_size(path, &w, &h), 0);
    assert_int_equal(w, 64);
}

/* The rows the character covers in an RGB picture: the largest 8-connected patch of its
 * red-dominant pixels (the colour rule above). The target post, a GIF palette of yellow and
 * orange dithered with the body's reds, is a smaller patch apart from the figure. */
static void character_rows(const unsigned char *img, int w, int h, int *top, int *bottom)
{
    const size_t n = (size_t)w * (size_t)h;
    int *label = calloc(n, sizeof *label), *stack = malloc(n * sizeof *stack);
    assert_non_null(label);
    assert_non_null(stack);
    for (size_t i = 0; i < n; ++i) {
        const unsigned char *c = img + i * 3;
        label[i] = c[0] > c[2] + 30 && c[0] > c[1] + 30 ? -1 : 0; /* -1: not labelled yet */
    }
    int best_size = 0, next = 0;
    *top = *bottom = -1;
    for (size_t seed = 0; seed < n; ++seed) {
        if (label[seed] != -1) continue;
        int size = 0, lo = h, hi = -1, sp = 0;
        label[seed] = ++next;
        stack[sp++] = (int)seed;
        while (sp > 0) {
            const int i = stack[--sp], x = i % w, y = i / w;
            ++size;
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int nx = x + dx, ny = y + dy, j = ny * w + nx;
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h || label[j] != -1) continue;
                    label[j] = next;
                    stack[sp++] = j;
                }
        }
        if (size > best_size) {
            best_size = size;
            *top = lo;
            *bottom = hi;
        }
    }
    free(label);
    free(stack);
}

/* Issue 21: `make demo`'s GIF (tools/demo.sh: render --walk --terrain hills --size 640x400)
 * follows the character closely enough to judge the feet: in every frame of it, from the
 * start to the stop, the character spans at least a third of the frame's height and neither
 * its head nor its feet touch the frame's edge (a camera aimed 0.8 m above the hips left the
 * feet under the bottom edge in 51 of the 193 frames). GIF frames decoded with stb_image;
 * skipped without ffmpeg. */
static void render_demo_gif_shows_the_character_a_third_of_the_frame(void **state)
{
    (void)state;
    const char *build = getenv("AK_BUILD_DIR");
    assert_non_null(build);
    if (system("command -v ffmpeg >/dev/null 2>&1") != 0) return;
    char cmd[8192], dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/render-test-demo", build);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && rm -f '%s'/* && '%s/bin/animkit' render --walk --terrain hills "
             "--size 640x400 --out '%s/demo.gif' >/dev/null 2>&1 && "
             "ffmpeg -loglevel error -i '%s/demo.gif' -vsync 0 '%s/f_%%03d.png'",
             dir, dir, build, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    int frames = 0, lowest = 0, highest = 1 << 30, shortest = 1 << 30;
    for (int k = 1;; ++k) {
        snprintf(path, sizeof path, "%s/f_%03d.png", dir, k);
        int w = 0, h = 0, comp = 0, top = 0, bottom = 0;
        unsigned char *img = stbi_load(path, &w, &h, &comp, 3);
        if (!img) break;
        ++frames;
        assert_int_equal(w, 640);
        assert_int_equal(h, 400);
        character_rows(img, w, h, &top, &bottom);
        stbi_image_free(img);
        if (3 * (bottom - top + 1) < h || top <= 0 || bottom >= h - 1)
            fail_msg("frame %d: the character spans rows %d..%d of %d", k, top, bottom, h);
        lowest = bottom > lowest ? bottom : lowest;
        highest = top < highest ? top : highest;
        shortest = bottom - top + 1 < shortest ? bottom - top + 1 : shortest;
    }
    printf("  %d frames: the character spans at least %d of 400 px, rows %d..%d at the extremes\n",
           frames, shortest, highest, lowest);
    assert_true(frames >= 100);
}

/* The followed walker is framed with its feet and the ground under them at any yaw, pitch and
 * distance (akv_frame_figure, as `animkit render --walk` points its camera): on the built-in
 * stairs, stepping down (frames 400-440), for every camera, every foot's heel and toe on the
 * ground under it projects inside the picture with its 5 % margin at the top and bottom, and the
 * top of the head too. Before, the camera looked at the hips: from the front at 5 deg of pitch
 * and 2.5 m (the view 1.82 m high) the feet fell 20.1 deg under the view's axis, past its 20 deg
 * half-height, under the picture's bottom edge. A camera too close for the whole figure backs
 * off (2.5 m at 5 deg: about 3 m for a 240-pixel-high picture); one that fits stays where it
 * was put (5 and 12 m). */
static void render_walker_feet_in_the_picture_at_any_camera(void **state)
{
    (void)state;
    akv_settings s;
    akv_settings_defaults(&s, 1);
    s.mode = AKV_MODE_WALK;
    s.walk.terrain = AK_WALK_TERRAIN_STAIRS;
    s.walk.start[0] = -6.0f; /* along +x: yaw 90 looks at it from the front */
    s.walk.start[1] = 0.0f;
    s.walk.target[0] = 6.0f;
    s.walk.target[1] = 0.0f;
    akv_scene scene;
    memset(&scene, 0, sizeof scene);
    char err[256];
    akv_mode_state *m = akv_mode_create(&s, &scene, err, sizeof err);
    if (!m) fail_msg("%s", err);
    static const float yaws[] = {0.0f, 90.0f, 200.0f, -45.0f};
    static const float pitches[] = {-10.0f, 0.0f, 5.0f, 14.0f, 32.0f, 60.0f, 85.0f};
    static const float distances[] = {1.0f, 2.5f, 5.0f, 12.0f};
    int cameras = 0, backed_off = 0;
    for (int f = 400; f <= 440; f += 20) {
        akv_mode_step_to(m, f);
        ak_vec3 hips, pts[8];
        assert_true(akv_mode_focus(m, &hips));
        const int n = akv_mode_figure(m, pts, 8);
        assert_int_equal(n, 5);
        assert_true(pts[0].y > hips.y + 0.5f); /* the head's top */
        for (int k = 1; k < n; ++k)
            assert_true(pts[k].y < hips.y - 0.6f); /* the ground under a heel or toe */
        for (size_t a = 0; a < sizeof yaws / sizeof yaws[0]; ++a)
            for (size_t b = 0; b < sizeof pitches / sizeof pitches[0]; ++b)
                for (size_t c = 0; c < sizeof distances / sizeof distances[0]; ++c) {
                    akr_camera cam = akr_camera_defaults();
                    cam.yaw = AKT_RAD(yaws[a]);
                    cam.pitch = AKT_RAD(pitches[b]);
                    cam.distance = distances[c];
                    cam.target = hips;
                    const float d = akv_frame_figure(&cam, W, H, pts, n);
                    assert_true(d >= distances[c]);
                    backed_off += d > distances[c];
                    if (distances[c] >= 5.0f) assert_float_equal(d, distances[c], 1e-6f);
                    for (int k = 0; k < n; ++k) {
                        float px, py;
                        assert_true(akr_project(&cam, W, H, pts[k], &px, &py));
                        if (px < 0.0f || px > W || py < 0.05f * H - 1.0f || py > 0.95f * H + 1.0f)
                            fail_msg("frame %d, yaw %g, pitch %g, %g m: point %d at %.1f,%.1f "
                                     "outside the %dx%d picture",
                                     f, (double)yaws[a], (double)pitches[b], (double)distances[c],
                                     k, (double)px, (double)py, W, H);
                    }
                    ++cameras;
                }
    }
    printf("  %d cameras: feet and head in the picture; %d backed off to fit the figure\n", cameras,
           backed_off);
    akv_mode_destroy(m);
}

/* The CLI's front-view contact sheet at 5 deg of pitch and 2.5 m (issue 21: it cut the feet off
 * at the bottom edge): in every tile the character's pixels stop short of the tile's bottom
 * edge and its top. */
static void render_front_sheet_keeps_the_feet_in_every_tile(void **state)
{
    (void)state;
    const char *build = getenv("AK_BUILD_DIR");
    assert_non_null(build);
    char cmd[4096], path[1200];
    snprintf(path, sizeof path, "%s/render-test-front.png", build);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/animkit' render --walk --terrain stairs --start -6,0 --target 6,0 --frames "
             "400:440:10 --sheet --sheet-cols 5 --yaw 90 --pitch 5 --distance 2.5 --size 200x240 "
             "--out '%s' >/dev/null 2>&1",
             build, path);
    assert_int_equal(system(cmd), 0);
    int w = 0, h = 0, comp = 0;
    unsigned char *img = stbi_load(path, &w, &h, &comp, 3);
    assert_non_null(img);
    assert_int_equal(w, 1000);
    assert_int_equal(h, 240);
    unsigned char *tile = malloc(200 * 240 * 3);
    assert_non_null(tile);
    for (int t = 0; t < 5; ++t) {
        for (int y = 0; y < 240; ++y)
            memcpy(tile + (size_t)y * 200 * 3, img + ((size_t)y * 1000 + (size_t)t * 200) * 3,
                   200 * 3);
        int top = 0, bottom = 0;
        character_rows(tile, 200, 240, &top, &bottom);
        printf("  tile %d: the character spans rows %d..%d of 240\n", t, top, bottom);
        if (top <= 0 || bottom >= 239)
            fail_msg("tile %d: the character spans rows %d..%d of 240", t, top, bottom);
    }
    free(tile);
    stbi_image_free(img);
}

/* IK mode, headless: the built-in arm reaches a target inside its reach (limb solver), the
 * tip ends on the target, and the target ball is drawn where the target projects. */
static void render_ik_mode_reaches_and_draws_the_target(void **state)
{
    (void)state;
    akv_settings s;
    akv_settings_defaults(&s, 1);
    s.mode = AKV_MODE_IK;
    s.have_ik_target = 1;
    s.ik_target = ak_vec3_make(0.35f, 1.75f, 0.2f); /* shoulder at (0, 1.4, 0), reach 0.57 m */
    akv_scene scene;
    memset(&scene, 0, sizeof scene);
    char err[256];
    akv_mode_state *m = akv_mode_create(&s, &scene, err, sizeof err);
    if (!m) fail_msg("%s", err);
    akv_mode_step_to(m, 0);
    ak_vec3 target;
    float e = akv_mode_ik_error_m(m, &target);
    print_message("IK tip-to-target error %.3g m\n", (double)e);
    assert_true(e >= 0.0f && e < 1e-3f);
    akr_camera cam = akr_camera_defaults();
    ak_vec3 lo, hi;
    akv_mode_bounds(m, &lo, &hi);
    akr_camera_frame_box(&cam, lo, hi, (float)W / H);
    uint8_t *img = malloc(W * H * 3);
    akv_offscreen_bind(g_off);
    akr_begin(g_r, W, H, &cam);
    akv_mode_draw(m, g_r);
    akv_offscreen_read(g_off, img);
    float px, py;
    assert_true(akr_project(&cam, W, H, target, &px, &py));
    const uint8_t *c = img + ((size_t)py * W + (size_t)px) * 3;
    /* amber ball: strong red and green, little blue */
    if (!(c[0] > 150 && c[1] > 100 && c[2] < 100))
        fail_msg("pixel at the target is %d,%d,%d", c[0], c[1], c[2]);
    free(img);
    akv_mode_destroy(m);
}

/* Draws the mode into img (W x H RGB) with the camera `distance` m from `target`. */
static akr_camera render_mode(akv_mode_state *m, ak_vec3 target, float distance, uint8_t *img)
{
    akr_camera cam = akr_camera_defaults();
    cam.target = target;
    cam.distance = distance;
    akv_offscreen_bind(g_off);
    akr_begin(g_r, W, H, &cam);
    akv_mode_draw(m, g_r);
    akv_offscreen_read(g_off, img);
    return cam;
}

/* Walker mode, headless: after 2 s the character has moved off its start and is drawn where
 * its hips project. */
static void render_walker_mode_draws_the_character_on_the_terrain(void **state)
{
    (void)state;
    akv_settings s;
    akv_settings_defaults(&s, 1);
    s.mode = AKV_MODE_WALK;
    akv_scene scene;
    memset(&scene, 0, sizeof scene);
    char err[256];
    akv_mode_state *m = akv_mode_create(&s, &scene, err, sizeof err);
    if (!m) fail_msg("%s", err);
    assert_true(akv_mode_frame_count(m) > 10);
    int f = (int)(2.0f / akv_mode_frame_time(m));
    akv_mode_step_to(m, f);
    ak_vec3 hips;
    assert_true(akv_mode_focus(m, &hips));
    uint8_t *img = malloc(W * H * 3);
    const akr_camera cam = render_mode(m, hips, 5.0f, img);
    float px, py;
    assert_true(akr_project(&cam, W, H, hips, &px, &py));
    const uint8_t *c = img + ((size_t)py * W + (size_t)px) * 3;
    if (!(c[0] > c[2] + 30 && c[0] > c[1]))
        fail_msg("pixel at the hips is %d,%d,%d", c[0], c[1], c[2]);
    free(img);
    akv_mode_destroy(m);
}

/* Stairs (issue 27): drawn from the terrain's own steps, not a sampled grid, so a riser is a
 * vertical face in its own colour and a tread a level face in the ground's. The built-in
 * stairs' first riser stands at x = -3 from y = 0 to 0.15 m, its tread runs to x = -2.5:
 * looking up the stairs (+x), the riser's middle is riser-coloured (tan: red over blue) and the
 * tread's middle ground-coloured (green over red). */
static void render_stairs_draw_treads_and_risers_apart(void **state)
{
    (void)state;
    akv_settings s;
    akv_settings_defaults(&s, 1);
    s.mode = AKV_MODE_WALK;
    s.walk.terrain = AK_WALK_TERRAIN_STAIRS;
    akv_scene scene;
    memset(&scene, 0, sizeof scene);
    char err[256];
    akv_mode_state *m = akv_mode_create(&s, &scene, err, sizeof err);
    if (!m) fail_msg("%s", err);
    uint8_t *img = malloc(W * H * 3);
    akr_camera cam = akr_camera_defaults();
    cam.target = ak_vec3_make(-2.9f, 0.15f, 0.0f);
    cam.distance = 2.5f;
    cam.yaw = -1.5707963f; /* the eye on -x, looking along +x */
    cam.pitch = 0.35f;
    akv_offscreen_bind(g_off);
    akr_begin(g_r, W, H, &cam);
    akv_mode_draw(m, g_r);
    akv_offscreen_read(g_off, img);
    float px, py;
    assert_true(akr_project(&cam, W, H, ak_vec3_make(-3.0f, 0.075f, 0.0f), &px, &py));
    const uint8_t *c = img + ((size_t)py * W + (size_t)px) * 3;
    if (!(c[0] > c[2] + 40 && c[0] > c[1]))
        fail_msg("riser pixel at %.0f,%.0f is %d,%d,%d, not the riser colour", (double)px,
                 (double)py, c[0], c[1], c[2]);
    assert_true(akr_project(&cam, W, H, ak_vec3_make(-2.75f, 0.15f, 0.0f), &px, &py));
    c = img + ((size_t)py * W + (size_t)px) * 3;
    if (!(c[1] > c[0] + 10 && c[1] > c[2]))
        fail_msg("tread pixel at %.0f,%.0f is %d,%d,%d, not the tread colour", (double)px,
                 (double)py, c[0], c[1], c[2]);
    free(img);
    akv_mode_destroy(m);
}

/* Pixels within `radius` of (px, py) that `is_colour` accepts. */
static int colour_near(const uint8_t *img, float px, float py, int radius,
                       int (*is_colour)(const uint8_t *))
{
    int n = 0;
    for (int y = (int)py - radius; y <= (int)py + radius; ++y)
        for (int x = (int)px - radius; x <= (int)px + radius; ++x)
            if (x >= 0 && y >= 0 && x < W && y < H) n += is_colour(img + ((size_t)y * W + x) * 3);
    return n;
}
/* Yellow (the wanted trajectory, 1, 0.86, 0) and cyan (the matched one, 0, 0.85, 0.95), shaded
 * or blended half with the ground: far from the ground's green-grey, the coral character, the
 * blue guide and pink rays. */
static int is_wanted(const uint8_t *p)
{
    return p[0] > p[2] + 100 && p[1] > p[2] + 80;
}
static int is_matched(const uint8_t *p)
{
    return p[2] > p[0] + 80 && p[1] > p[0] + 60;
}

/* Walker mode with --steer match, headless: the scene's matcher walks toward the target, the
 * overlay's line vertices are the matcher's wanted and matched trajectories (on the ground,
 * lifted 5 cm) in their colours, and both colours are drawn where those points project. */
static void render_walker_mode_draws_the_matching_trajectories(void **state)
{
    (void)state;
    akv_settings s;
    akv_settings_defaults(&s, 1);
    s.mode = AKV_MODE_WALK;
    s.walk.steer = AK_WALK_STEER_MATCH;
    s.walk.terrain = AK_WALK_TERRAIN_FLAT;
    char a[1024], b[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", a, sizeof a);
    akt_mocap_path("locomotion/cmu_02_02_walk.bvh", b, sizeof b);
    snprintf(s.walk.clip, sizeof s.walk.clip, "%s\n%s", a, b);
    akv_scene scene;
    memset(&scene, 0, sizeof scene);
    char err[256];
    akv_mode_state *m = akv_mode_create(&s, &scene, err, sizeof err);
    if (!m) fail_msg("%s", err);
    akv_mode_step_to(m, (int)(1.5f / akv_mode_frame_time(m)));
    ak_walk_scene *walk = akv_mode_walk_scene(m);
    ak_matcher *matcher = ak_walk_scene_matcher(walk);
    assert_non_null(matcher);
    ak_matcher_info info;
    ak_walker_state st;
    ak_matcher_get_info(matcher, &info);
    ak_walk_scene_get_state(walk, &st);
    assert_true(st.path_length > 0.5f); /* walking */
    /* The vertex data: path from the character (flat ground: y 0 + lift) through the points. */
    float v[AKV_MATCH_OVERLAY_VERTICES * 7];
    assert_int_equal(akv_match_overlay_lines(&info, ak_walk_scene_ground(walk), st.position, v),
                     AKV_MATCH_OVERLAY_VERTICES);
    ak_vec3 pts[2][AK_MATCH_TRAJ_POINTS];
    const float *colour[2] = {akv_wanted_rgba, akv_matched_rgba};
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
            const ak_vec3 want = t ? info.matched_position[k] : info.desired_position[k];
            const float *p = v + 7 * (t * 12 + 4 * k + 1); /* the segment's end: point k */
            AKT_NEAR(p[0], want.x, 1e-6);
            AKT_NEAR(p[1], AKV_MATCH_OVERLAY_LIFT, 1e-6);
            AKT_NEAR(p[2], want.z, 1e-6);
            assert_memory_equal(p + 3, colour[t], 4 * sizeof(float));
            pts[t][k] = ak_vec3_make(p[0], p[1], p[2]);
        }
    /* One second ahead lies farther than a third of a second (the character walks on). */
    assert_true(hypotf(pts[0][2].x - st.position.x, pts[0][2].z - st.position.z) >
                hypotf(pts[0][0].x - st.position.x, pts[0][0].z - st.position.z) + 0.3f);
    uint8_t *img = malloc(W * H * 3);
    const akr_camera cam = render_mode(m, st.position, 4.0f, img);
    int (*is[2])(const uint8_t *) = {is_wanted, is_matched};
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < AK_MATCH_TRAJ_POINTS; ++k) {
            float px, py;
            assert_true(akr_project(&cam, W, H, pts[t][k], &px, &py));
            const int n = colour_near(img, px, py, 2, is[t]);
            print_message("%s point %d at pixel %.0f,%.0f: %d pixels of its colour\n",
                          t ? "matched" : "wanted", k, (double)px, (double)py, n);
            assert_true(n >= 1);
        }
    /* Neither colour anywhere in a picture without the overlay (the ground and sky alone). */
    akr_begin(g_r, W, H, &cam);
    akr_draw_ground(g_r, 0.0f, 30.0f);
    akv_offscreen_read(g_off, img);
    int stray = 0;
    for (int i = 0; i < W * H; ++i)
        stray += is_wanted(img + 3 * i) + is_matched(img + 3 * i);
    assert_int_equal(stray, 0);
    free(img);
    akv_mode_destroy(m);
}

/* What the HUD's feet line says of foot k (0 left, 1 right): 1 planted, 0 swinging, -1 neither. */
static int hud_says_planted(const char *text, int k)
{
    const char *at = strstr(text, k ? ", R " : "feet: L ");
    if (!at) return -1;
    at += k ? 4 : 8;
    if (strncmp(at, "planted", 7) == 0) return 1;
    if (strncmp(at, "swinging", 8) == 0) return 0;
    return -1;
}

/* Walks `seconds` of the walk in `s`, and on every frame checks the HUD's feet line against
 * what the feet do: a foot whose heel and toe are both within 2 mm of the ground under them
 * reads planted, one with both 5 cm or more above it reads swinging. Returns the frames where
 * the HUD said planted of a foot the walker state did not have in stance. */
static int walk_checking_the_feet_line(const akv_settings *s, float seconds)
{
    akv_scene scene;
    memset(&scene, 0, sizeof scene);
    char err[256], text[256];
    akv_mode_state *m = akv_mode_create(s, &scene, err, sizeof err);
    if (!m) fail_msg("%s", err);
    const int frames = (int)(seconds / akv_mode_frame_time(m) + 0.5f);
    int unheld = 0, flat_frames = 0, swing_frames = 0;
    for (int f = 0; f < frames; ++f) {
        akv_mode_step_to(m, f);
        ak_walker_state st;
        ak_walk_scene_get_state(akv_mode_walk_scene(m), &st);
        assert_int_equal(akv_mode_walk_feet_text(m, text, sizeof text), 1);
        for (int k = 0; k < 2; ++k) {
            const float heel = st.sole[k].y - st.sole_ground[k],
                        toe = st.toe[k].y - st.toe_ground[k];
            const int said = hud_says_planted(text, k);
            if (fabsf(heel) <= 0.002f && fabsf(toe) <= 0.002f) {
                ++flat_frames;
                if (said != 1)
                    fail_msg("t %.3f s: %s foot flat on the ground (heel %.4f m, toe %.4f m "
                             "up), the HUD says \"%s\"",
                             (double)st.time, k ? "right" : "left", (double)heel, (double)toe,
                             text);
                unheld += !st.stance[k];
            } else if (heel >= 0.05f && toe >= 0.05f) {
                ++swing_frames;
                if (said != 0)
                    fail_msg("t %.3f s: %s foot %.3f m up, the HUD says \"%s\"", (double)st.time,
                             k ? "right" : "left", (double)fminf(heel, toe), text);
            }
        }
    }
    print_message("%d frames: %d feet flat on the ground (%d of them not in stance), %d swinging "
                  "clear\n",
                  frames, flat_frames, unheld, swing_frames);
    assert_true(flat_frames > 0 && swing_frames > 0);
    akv_mode_destroy(m);
    return unheld;
}

/* The HUD's feet line says what the feet do, for both walkers. The matching walk of
 * docs/img/walker_match.png (two CMU walks and a run, flat): the matcher's stance is the
 * grounding's, and a foot a transition brings down at another height than its frame's is not
 * held -- its left foot stands flat from 1.23 to 1.55 s with no stance, and the HUD said
 * "L swinging, R swinging" (at 1.30 s: the left toe 0.0 mm and heel 0.8 mm up, moving
 * 0.04 m/s; the right foot 15 cm up). */
static void walk_hud_says_a_foot_on_the_ground_is_planted(void **state)
{
    (void)state;
    akv_settings s;
    akv_settings_defaults(&s, 1);
    s.mode = AKV_MODE_WALK;
    s.walk.terrain = AK_WALK_TERRAIN_FLAT;
    walk_checking_the_feet_line(&s, 4.0f); /* the guide walker, built-in walk */
    s.walk.steer = AK_WALK_STEER_MATCH;
    s.walk.start[0] = -3.0f;
    s.walk.start[1] = -2.0f;
    s.walk.target[0] = 3.0f;
    s.walk.target[1] = 2.0f;
    char a[1024], b[1024], c[1024];
    akt_mocap_path("cmu_02_01_walk.bvh", a, sizeof a);
    akt_mocap_path("locomotion/cmu_02_02_walk.bvh", b, sizeof b);
    akt_mocap_path("locomotion/cmu_02_03_run.bvh", c, sizeof c);
    snprintf(s.walk.clip, sizeof s.walk.clip, "%s\n%s\n%s", a, b, c);
    walk_checking_the_feet_line(&s, 1.6f);
}

/* The window path: animkit-view under Xvfb draws a few frames, saves the window and exits.
 * Skipped when xvfb-run is not installed (make deps installs it). */
static void viewer_window_draws_the_clip_under_xvfb(void **state)
{
    (void)state;
    if (system("command -v xvfb-run >/dev/null 2>&1") != 0) skip();
    const char *build = getenv("AK_BUILD_DIR");
    char bvh[1024], cmd[4096], out[1200];
    akt_mocap_path("cmu_09_01_run.bvh", bvh, sizeof bvh);
    snprintf(out, sizeof out, "%s/render-test/window.png", build);
    remove(out);
    snprintf(cmd, sizeof cmd,
             "xvfb-run -a '%s/bin/animkit-view' '%s' --time 0.5 --paused --size 320x240 "
             "--screenshot '%s' >/dev/null 2>&1",
             build, bvh, out);
    assert_int_equal(system(cmd), 0);
    int w, h, comp;
    unsigned char *img = stbi_load(out, &w, &h, &comp, 3);
    assert_non_null(img);
    assert_int_equal(w, 320);
    assert_int_equal(h, 240);
    int character = 0;
    for (int i = 0; i < w * h; ++i)
        character += img[i * 3] > img[i * 3 + 2] + 60;
    stbi_image_free(img);
    print_message("window screenshot: %d character-coloured pixels\n", character);
    assert_true(character > 300);
}

/* Another studio's shape (issue 22): the CMU walk under a joint_Root that never moves, the
 * hips carrying the travel. The viewer measures the joint that travels: the hips; the still
 * joint_Root is drawn as a point (the drawn skeleton has no bone from it to the hips: before,
 * a bone of up to the whole walk's length), side by side places the file as it places the
 * original (0.6 of the summed heights apart), and --in-place holds the hips where they start. */
static void still_top_joint_is_a_point_and_the_hips_lead(void **state)
{
    (void)state;
    akv_settings s;
    akv_scene scene;
    load_walk(&scene, &s);
    size_t size = 0;
    char *text = akv_text("cmu_02_01_walk.bvh", AKV_STILL_TOP, &size);
    ak_skeleton *sk = NULL;
    ak_clip *c = NULL;
    ak_error e;
    assert_int_equal(ak_bvh_read_memory(text, size, NULL, &sk, &c, &e), AK_OK);
    free(text);
    char err[256];
    assert_int_equal(akv_scene_add(&scene, &s, "still_top.bvh", sk, c, err, sizeof err), 0);
    const akv_character *o = &scene.chars[0], *v = &scene.chars[1];
    const int32_t hips = ak_skeleton_find(v->skeleton, "Hips");
    assert_int_equal(o->travel_joint, 0);
    assert_null(o->draw_skeleton);
    assert_int_equal(v->travel_joint, hips);
    assert_non_null(v->draw_skeleton);
    assert_int_equal(v->draw_skeleton->parents[hips], -1);
    for (int32_t j = 0; j < v->skeleton->joint_count; ++j)
        if (j != hips) assert_int_equal(v->draw_skeleton->parents[j], v->skeleton->parents[j]);
    /* Where it starts and where it is put: the original's hips, 0.6 of two heights over. */
    AKT_NEAR(v->root_start_m.x, o->root_start_m.x, 1e-4);
    AKT_NEAR(v->root_start_m.z, o->root_start_m.z, 1e-4);
    AKT_NEAR(v->offset_m.x - o->offset_m.x, 0.6f * (o->height_m + v->height_m), 1e-4);
    s.in_place = 1;
    akv_scene_pose(&scene, &s, 2.0f);
    const ak_vec3 vh = v->world_m[hips].translation, oh = o->world_m[0].translation;
    AKT_NEAR(vh.x - v->offset_m.x, v->root_start_m.x, 1e-4);
    AKT_NEAR(vh.z, v->root_start_m.z, 1e-4);
    AKT_NEAR(vh.y, oh.y, 1e-4);
    const ak_vec3 cam = akv_scene_joint_m(&scene, NULL);
    AKT_NEAR(cam.y, oh.y, 1e-4); /* the camera's default joint: the first file's hips */
    akv_scene_free(&scene);
    /* The hips named with --root-joint: the same drawing (before, the bone from joint_Root to
     * the travelling hips was drawn). */
    akv_settings_defaults(&s, 1);
    memset(&scene, 0, sizeof scene);
    s.root_joint = "Hips";
    text = akv_text("cmu_02_01_walk.bvh", AKV_STILL_TOP, &size);
    assert_int_equal(ak_bvh_read_memory(text, size, NULL, &sk, &c, &e), AK_OK);
    free(text);
    assert_int_equal(akv_scene_add(&scene, &s, "still_top.bvh", sk, c, err, sizeof err), 0);
    assert_int_equal(scene.chars[0].travel_joint, hips);
    assert_non_null(scene.chars[0].draw_skeleton);
    assert_int_equal(scene.chars[0].draw_skeleton->parents[hips], -1);
    akv_scene_free(&scene);
    /* Named joint_Root (the still one): it is the joint that travels, drawn as it is. */
    akv_settings_defaults(&s, 1);
    memset(&scene, 0, sizeof scene);
    s.root_joint = "joint_Root";
    text = akv_text("cmu_02_01_walk.bvh", AKV_STILL_TOP, &size);
    assert_int_equal(ak_bvh_read_memory(text, size, NULL, &sk, &c, &e), AK_OK);
    free(text);
    assert_int_equal(akv_scene_add(&scene, &s, "still_top.bvh", sk, c, err, sizeof err), 0);
    assert_int_equal(scene.chars[0].travel_joint, 0);
    assert_null(scene.chars[0].draw_skeleton);
    akv_scene_free(&scene);
}

/* Where the character is in a PNG: the centre of its coral pixels (red well above blue) and
 * how many there are. */
static int character_centre(const char *path, double *cx, double *cy)
{
    int w, h, comp;
    unsigned char *img = stbi_load(path, &w, &h, &comp, 3);
    if (!img) fail_msg("cannot read %s", path);
    double sx = 0.0, sy = 0.0;
    int n = 0;
    for (int i = 0; i < w * h; ++i)
        if (img[i * 3] > img[i * 3 + 2] + 60) {
            sx += i % w;
            sy += i / w;
            ++n;
        }
    stbi_image_free(img);
    *cx = n ? sx / n : -1.0;
    *cy = n ? sy / n : -1.0;
    return n;
}

/* The build folder; `orig` (1024 bytes) the path of mocap file `name`, `dir` (1100) the
 * build's render-test folder (made), `var` (1200) the file `file` there holding the variant
 * `kinds` of `name` (studio_variants.h). */
static const char *variant_file(const char *name, unsigned kinds, const char *file, char *orig,
                                char *dir, char *var)
{
    const char *build = getenv("AK_BUILD_DIR");
    assert_non_null(build);
    char cmd[1200];
    akt_mocap_path(name, orig, 1024);
    snprintf(dir, 1100, "%s/render-test", build);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(var, 1200, "%s/%s", dir, file);
    akv_write(name, kinds, var);
    return build;
}

/* `animkit render --root-joint` (issue 22): a sequence's camera follows the joint that carries
 * the travel. On the CMU walk under a still joint_Root (the hips travel 3.4 m), with
 * --root-joint Hips every frame frames the character where the original's frames do (its
 * centre within 2 pixels, its coral pixels within 2 %: the still joint_Root is a point, not a
 * bone to the hips, as when the hips are measured; named, it was drawn: 672 pixels against
 * 500); naming the still joint_Root instead, the camera stays over the origin and the walker
 * leaves the middle of the picture (the flag reaches the camera). */
static void render_camera_follows_the_named_root_joint(void **state)
{
    (void)state;
    char orig[1024], var[1200], dir[1100], cmd[4096], path[1300];
    const char *build =
        variant_file("cmu_02_01_walk.bvh", AKV_STILL_TOP, "still_top.bvh", orig, dir, var);
    static const char *const runs[3][2] = {
        {"o", ""}, {"hips", " --root-joint Hips"}, {"still", " --root-joint joint_Root"}};
    double cx[3][4], cy[3][4];
    int count[3][4];
    for (int r = 0; r < 3; ++r) {
        snprintf(cmd, sizeof cmd,
                 "'%s/bin/animkit' render '%s'%s --frames 0:300:100 --size 160x120 "
                 "--out '%s/follow_%s.png' >/dev/null",
                 build, r ? var : orig, runs[r][1], dir, runs[r][0]);
        assert_int_equal(system(cmd), 0);
        for (int k = 0; k < 4; ++k) {
            snprintf(path, sizeof path, "%s/follow_%s_%04d.png", dir, runs[r][0], 100 * k);
            const int n = count[r][k] = character_centre(path, &cx[r][k], &cy[r][k]);
            print_message("%-6s frame %3d: character centre (%.1f, %.1f), %d pixels\n", runs[r][0],
                          100 * k, cx[r][k], cy[r][k], n);
            remove(path);
        }
    }
    remove(var);
    double off = 0.0;
    for (int k = 0; k < 4; ++k) {
        assert_true(fabs(cx[1][k] - cx[0][k]) <= 2.0 && fabs(cy[1][k] - cy[0][k]) <= 2.0);
        assert_true(abs(count[1][k] - count[0][k]) <= 0.02 * count[0][k]);
        off = fmax(off, fabs(cx[2][k] - cx[0][k]) + fabs(cy[2][k] - cy[0][k]));
    }
    assert_true(off > 20.0);
}

/* The box of the character's coral pixels (red well above blue and green: not the matcher's
 * yellow points) in a PNG: x0, y0, x1, y1 (inclusive), and how many there are. */
static int character_box(const char *path, int box[4])
{
    int w, h, comp;
    unsigned char *img = stbi_load(path, &w, &h, &comp, 3);
    if (!img) fail_msg("cannot read %s", path);
    int n = 0;
    box[0] = box[1] = 1 << 30, box[2] = box[3] = -1;
    for (int i = 0; i < w * h; ++i)
        if (img[i * 3] > img[i * 3 + 2] + 60 && img[i * 3] > img[i * 3 + 1] + 40) {
            const int x = i % w, y = i / w;
            box[0] = x < box[0] ? x : box[0], box[1] = y < box[1] ? y : box[1];
            box[2] = x > box[2] ? x : box[2], box[3] = y > box[3] ? y : box[3];
            ++n;
        }
    stbi_image_free(img);
    return n;
}

/* Issue 22, any rest pose: CMU 02_02 with its zero pose turned so every bone lies along X (the
 * motion unchanged) is drawn as the original is, by `animkit render` playing it (no grid: its
 * red axis is coral too), walking it with the guide and matching with it: the same coral
 * pixels within 3 % and their box within 2 pixels of the original's. Before, the copy's body
 * had every vertex on one line (its zero pose's height is 1e-7 of its length): 0, 49 and 38
 * coral pixels (the walks' feet markers) against 5664, 1329 and 1352. The body now stands on
 * the clip's most upright frame (ak_body_params.clip). */
static void zero_pose_along_x_draws_the_originals_body(void **state)
{
    (void)state;
    char orig[1024], var[1200], dir[1100], cmd[4096], path[1300];
    const char *build = variant_file("locomotion/cmu_02_02_walk.bvh", AKV_ZERO_ALONG_X,
                                     "x_pose.bvh", orig, dir, var);
    static const char *const runs[3][2] = {
        {"play", "'%s' --frame 100 --no-grid"},
        {"walk", "--walk --clip '%s' --frame 200"},
        {"match", "--walk --steer match --clip '%s' --frame 200"}};
    for (int r = 0; r < 3; ++r) {
        int count[2], box[2][4];
        for (int v = 0; v < 2; ++v) {
            char what[1400];
            snprintf(what, sizeof what, runs[r][1], v ? var : orig);
            snprintf(path, sizeof path, "%s/x_pose_%s_%d.png", dir, runs[r][0], v);
            snprintf(cmd, sizeof cmd,
                     "'%s/bin/animkit' render %s --size %dx%d --out '%s' >/dev/null", build, what,
                     W, H, path);
            assert_int_equal(system(cmd), 0);
            count[v] = character_box(path, box[v]);
            remove(path);
        }
        print_message("%-5s original %d coral pixels in (%d,%d)-(%d,%d), zero pose along X %d in "
                      "(%d,%d)-(%d,%d)\n",
                      runs[r][0], count[0], box[0][0], box[0][1], box[0][2], box[0][3], count[1],
                      box[1][0], box[1][1], box[1][2], box[1][3]);
        assert_true(count[0] > W * H / 100);
        assert_true(abs(count[1] - count[0]) <= 0.03 * count[0]);
        for (int k = 0; k < 4; ++k)
            assert_true(abs(box[1][k] - box[0][k]) <= 2);
    }
    remove(var);
}

int main(void)
{
    char err[512];
    g_off = akv_offscreen_create(W, H, err, sizeof err);
    if (!g_off) {
        printf("no OpenGL context (%s): skipping the rendering tests\n", err);
        return 77;
    }
    printf("# %s\n", akv_offscreen_describe(g_off));
    g_r = akr_create(err, sizeof err);
    if (!g_r) {
        printf("renderer: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(render_is_not_blank),
        cmocka_unit_test(still_top_joint_is_a_point_and_the_hips_lead),
        cmocka_unit_test(render_camera_follows_the_named_root_joint),
        cmocka_unit_test(zero_pose_along_x_draws_the_originals_body),
        cmocka_unit_test(render_joints_land_where_projected_fk_says),
        cmocka_unit_test(render_different_frames_differ_and_same_frame_repeats),
        cmocka_unit_test(render_body_is_drawn_where_the_library_skins_it),
        cmocka_unit_test(render_gltf_character_draws_its_own_mesh),
        cmocka_unit_test(render_cli_writes_png_sheet_and_gif),
        cmocka_unit_test(render_ik_mode_reaches_and_draws_the_target),
        cmocka_unit_test(render_walker_mode_draws_the_character_on_the_terrain),
        cmocka_unit_test(render_demo_gif_shows_the_character_a_third_of_the_frame),
        cmocka_unit_test(render_walker_feet_in_the_picture_at_any_camera),
        cmocka_unit_test(render_front_sheet_keeps_the_feet_in_every_tile),
        cmocka_unit_test(render_stairs_draw_treads_and_risers_apart),
        cmocka_unit_test(render_walker_mode_draws_the_matching_trajectories),
        cmocka_unit_test(walk_hud_says_a_foot_on_the_ground_is_planted),
        cmocka_unit_test(viewer_window_draws_the_clip_under_xvfb),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    akr_destroy(g_r);
    akv_offscreen_destroy(g_off);
    return rc;
}
