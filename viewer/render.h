/* animkit viewer — the renderer: everything that touches OpenGL to draw a scene, shared by the
 * window (viewer/main.c) and the headless path (viewer/headless.c).
 *
 * Needs a current OpenGL 3.3 core context (GLFW window, or EGL/offscreen). World space is
 * animkit's: right-handed, Y up, metres. Pixel coordinates have their origin at the top-left
 * corner of the framebuffer, x right, y down. */
#ifndef AKV_RENDER_H
#define AKV_RENDER_H

#include <stddef.h>

#include "animkit/animkit.h"

/* An orbit camera: looks at `target` from `distance` metres, `yaw` radians about +Y (0 looks
 * along -Z, i.e. the eye sits on +Z), `pitch` radians above the horizon. */
typedef struct akr_camera {
    ak_vec3 target;
    float yaw, pitch, distance;
    float fov_y; /* vertical field of view, radians */
} akr_camera;

akr_camera akr_camera_defaults(void);
ak_vec3 akr_camera_eye(const akr_camera *camera);
/* Column-major view-projection matrix for a w x h framebuffer. */
void akr_camera_view_proj(const akr_camera *camera, int w, int h, float out_m[16]);
/* Projects a world point to pixel coordinates; returns 0 when it is behind the camera. */
int akr_project(const akr_camera *camera, int w, int h, ak_vec3 p, float *px, float *py);
/* The ray through pixel (px, py): origin at the eye, unit direction. */
void akr_unproject_ray(const akr_camera *camera, int w, int h, float px, float py, ak_vec3 *origin,
                       ak_vec3 *direction);
/* Places the camera so a box [lo, hi] fills the view, keeping yaw and pitch. */
void akr_camera_frame_box(akr_camera *camera, ak_vec3 lo, ak_vec3 hi, float aspect);

typedef struct akr_renderer akr_renderer;

/* Compiles the shaders and builds the meshes; NULL with a reason in `err` on failure. */
akr_renderer *akr_create(char *err, size_t err_size);
void akr_destroy(akr_renderer *r);

/* Starts a frame: viewport, clear (background + stencil), camera. */
void akr_begin(akr_renderer *r, int w, int h, const akr_camera *camera);
/* Flat ground at height y: a plane fading into the background and a 1 m grid. */
void akr_draw_ground(akr_renderer *r, float y, float extent);
/* A heightfield: heights[iz * nx + ix] at (x0 + ix*cell, z0 + iz*cell). */
/* A staircase along x, drawn exactly (no heightfield sampling, so no aliasing): tread i is the
 * level quad x in [edges[i], edges[i+1]], y = heights[i], z in [z0, z1], in the tread colour;
 * between treads a vertical riser in a darker colour with a dark nosing line on its top edge.
 * `edges` has treads + 1 entries, increasing. */
void akr_draw_steps(akr_renderer *r, const float *edges, const float *heights, int treads, float z0,
                    float z1);
void akr_draw_terrain(akr_renderer *r, const float *heights, int nx, int nz, float x0, float z0,
                      float cell);
/* Where planar shadows fall (the ground height); shadows are off while `enabled` is 0. */
void akr_set_shadow_plane(akr_renderer *r, int enabled, float y);
/* Shaded primitives, each with its planar shadow when shadows are on. */
void akr_draw_sphere(akr_renderer *r, ak_vec3 centre, float radius, const float rgba[4]);
void akr_draw_capsule(akr_renderer *r, ak_vec3 a, ak_vec3 b, float radius, const float rgba[4]);
/* A skeleton as capsule bones and joint spheres. `world_m` are world transforms in metres;
 * `radius` is the bone radius in metres. */
void akr_draw_skeleton(akr_renderer *r, const ak_skeleton *skeleton, const ak_xform *world_m,
                       float radius, const float rgb[3]);
/* How a character is drawn: its generated body (ak_body_mesh_create, built once per skeleton
 * and kept on the GPU) skinned in the vertex shader, or the capsule skeleton. */
typedef struct akr_look {
    int body;     /* 1: the skinned body (default); 0: capsule bones */
    int skinning; /* AK_SKIN_LINEAR or AK_SKIN_DUAL_QUAT (default) */
    int bones;    /* 1: the bones as lines over the body; default 0 */
} akr_look;
akr_look akr_look_defaults(void);
/* A character at model pose `world_m` (metres; the skeleton may be in any units: the scale is
 * read off the pose's bone lengths) drawn as `look` says (NULL: defaults); a rig that gets no
 * body (one joint) is drawn as bones of `radius`. */
void akr_draw_character(akr_renderer *r, const ak_skeleton *skeleton, const ak_xform *world_m,
                        float radius, const float rgb[3], const akr_look *look);
/* Same with the character's own skinned mesh (a glTF file's, bound to `skeleton`, in its
 * units; kept on the GPU while the pointer lives) instead of the generated body; NULL: the
 * generated body. */
void akr_draw_character_mesh(akr_renderer *r, const ak_skeleton *skeleton, const ak_xform *world_m,
                             const ak_body_mesh *mesh, float radius, const float rgb[3],
                             const akr_look *look);
/* Unlit lines: `count` vertices of x,y,z,r,g,b,a (pairs form segments), world space. */
void akr_draw_lines(akr_renderer *r, const float *xyzrgba, int count, int depth_test);
/* HUD text at pixel (x, y) (top-left of the first line), `scale` x the 8-px stb_easy_font. */
void akr_draw_text(akr_renderer *r, float x, float y, float scale, const char *text,
                   const float rgb[3]);
/* Width in pixels of `text` (its longest line) drawn at `scale`. */
float akr_text_width(const char *text, float scale);
/* `scale`, or the smaller scale at which `text` fits in `max_width` pixels. */
float akr_text_fit(const char *text, float scale, float max_width);
/* The right edge, in pixels, of the widest text drawn since akr_begin (the page test checks
 * that the HUD fits the window). */
float akr_text_right(const akr_renderer *r);
/* A filled translucent rectangle in pixels (HUD backgrounds, the timeline). */
void akr_draw_rect(akr_renderer *r, float x, float y, float w, float h, const float rgba[4]);

#endif
