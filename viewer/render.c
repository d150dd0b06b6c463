/* animkit viewer — renderer: shaded capsules and spheres, ground grid, terrain, planar
 * shadows (stencilled so overlapping shadows do not double-darken), lines and HUD text.
 * OpenGL 3.3 core through libepoxy; matrices through cglm. In the browser (emscripten) the
 * same code runs on WebGL 2 = OpenGL ES 3.0: the shaders are one source with the version
 * line chosen at compile time. */
#include "render.h"
#include "render_internal.h"

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
/* GLSL ES 3.00 wants a default float precision in fragment shaders. */
#define AKR_GLSL_VERSION "#version 300 es\nprecision highp float;\n"
#else
#include <epoxy/gl.h>
#define AKR_GLSL_VERSION "#version 330 core\n"
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#endif
#include <stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#define PI_F 3.14159265358979f

static const float k_background[3] = {0.80f, 0.84f, 0.89f};
static const float k_light_dir[3] = {0.35f, 1.0f, 0.45f}; /* towards the light */

/* ---- camera ---- */

akr_camera akr_camera_defaults(void)
{
    akr_camera c;
    c.target = ak_vec3_make(0.0f, 0.9f, 0.0f);
    c.yaw = 0.6f;
    c.pitch = 0.25f;
    c.distance = 4.5f;
    c.fov_y = 40.0f * PI_F / 180.0f;
    return c;
}

ak_vec3 akr_camera_eye(const akr_camera *c)
{
    float cp = cosf(c->pitch);
    return ak_vec3_make(c->target.x + c->distance * cp * sinf(c->yaw),
                        c->target.y + c->distance * sinf(c->pitch),
                        c->target.z + c->distance * cp * cosf(c->yaw));
}

static void view_and_proj(const akr_camera *c, int w, int h, mat4 view, mat4 proj)
{
    ak_vec3 e = akr_camera_eye(c);
    vec3 eye = {e.x, e.y, e.z}, at = {c->target.x, c->target.y, c->target.z}, up = {0, 1, 0};
    glm_lookat(eye, at, up, view);
    float near_z = c->distance * 0.01f < 0.05f ? c->distance * 0.01f : 0.05f;
    glm_perspective(c->fov_y, h > 0 ? (float)w / (float)h : 1.0f, near_z, 400.0f, proj);
}

void akr_camera_view_proj(const akr_camera *c, int w, int h, float out_m[16])
{
    mat4 view, proj, vp;
    view_and_proj(c, w, h, view, proj);
    glm_mat4_mul(proj, view, vp);
    memcpy(out_m, vp, sizeof vp);
}

int akr_project(const akr_camera *c, int w, int h, ak_vec3 p, float *px, float *py)
{
    mat4 vp;
    akr_camera_view_proj(c, w, h, (float *)vp);
    vec4 in = {p.x, p.y, p.z, 1.0f}, clip;
    glm_mat4_mulv(vp, in, clip);
    if (clip[3] <= 1e-6f) return 0;
    float ndc_x = clip[0] / clip[3], ndc_y = clip[1] / clip[3];
    *px = (ndc_x * 0.5f + 0.5f) * (float)w;
    *py = (1.0f - (ndc_y * 0.5f + 0.5f)) * (float)h;
    return 1;
}

void akr_unproject_ray(const akr_camera *c, int w, int h, float px, float py, ak_vec3 *origin,
                       ak_vec3 *direction)
{
    mat4 vp, inv;
    akr_camera_view_proj(c, w, h, (float *)vp);
    glm_mat4_inv(vp, inv);
    float nx = 2.0f * px / (float)w - 1.0f, ny = 1.0f - 2.0f * py / (float)h;
    vec4 a = {nx, ny, -1.0f, 1.0f}, b = {nx, ny, 1.0f, 1.0f}, wa, wb;
    glm_mat4_mulv(inv, a, wa);
    glm_mat4_mulv(inv, b, wb);
    ak_vec3 pa = ak_vec3_make(wa[0] / wa[3], wa[1] / wa[3], wa[2] / wa[3]);
    ak_vec3 pb = ak_vec3_make(wb[0] / wb[3], wb[1] / wb[3], wb[2] / wb[3]);
    *origin = akr_camera_eye(c);
    *direction = ak_vec3_normalize_or(ak_vec3_sub(pb, pa), ak_vec3_make(0, 0, -1));
}

void akr_camera_frame_box(akr_camera *c, ak_vec3 lo, ak_vec3 hi, float aspect)
{
    c->target = ak_vec3_scale(ak_vec3_add(lo, hi), 0.5f);
    float radius = 0.5f * ak_vec3_length(ak_vec3_sub(hi, lo));
    if (radius < 0.3f) radius = 0.3f;
    float half = 0.5f * c->fov_y;
    float half_x = atanf(tanf(half) * (aspect > 0 ? aspect : 1.0f));
    float fit = half < half_x ? half : half_x;
    c->distance = radius / sinf(fit) * 1.12f;
}

/* ---- GL objects ---- */

typedef struct mesh {
    GLuint vao, vbo, ibo;
    GLsizei index_count;
} mesh;

struct akr_renderer {
    GLuint lit, flat;
    GLint lit_mvp, lit_model, lit_normal, lit_color, lit_light, lit_eye, lit_fog, lit_fog_color,
        lit_flat, lit_contour;
    GLint flat_mvp, flat_eye, flat_fog, flat_fog_color;
    mesh sphere, cylinder, plane;
    GLuint stream_vao, stream_vbo; /* lines, text, rects: position + colour per vertex */
    GLuint terrain_vao, terrain_vbo, terrain_ibo, terrain_line_vao, terrain_line_vbo;
    GLsizei terrain_index_count, terrain_line_count;
    uint64_t terrain_key;
    GLuint steps_vao[2], steps_vbo[2], steps_ibo[2]; /* stairs: treads, risers */
    int w, h;
    float text_right; /* right edge of the widest text since akr_begin, pixels */
    mat4 vp, ortho;
    ak_vec3 eye;
    float fog[2];
    int shadows;
    float shadow_y;
    float *scratch;
    size_t scratch_cap;
    void *skin_state; /* render_skin.c */
};

static const char *k_lit_vs =
    "layout(location=0) in vec3 a_pos; layout(location=1) in vec3 a_normal;\n"
    "uniform mat4 u_mvp, u_model; uniform mat3 u_normal;\n"
    "out vec3 v_normal; out vec3 v_world;\n"
    "void main() { v_normal = u_normal * a_normal; v_world = (u_model * vec4(a_pos, 1.0)).xyz;\n"
    "  gl_Position = u_mvp * vec4(a_pos, 1.0); }\n";
static const char *k_lit_fs =
    "in vec3 v_normal; in vec3 v_world; out vec4 o_color;\n"
    "uniform vec4 u_color; uniform vec3 u_light, u_eye, u_fog_color; uniform vec2 u_fog; uniform "
    "int u_flat; uniform float u_contour;\n"
    "void main() {\n"
    "  vec3 n = normalize(v_normal); vec3 l = normalize(u_light); vec3 v = normalize(u_eye - "
    "v_world);\n"
    "  vec3 c = u_color.rgb;\n"
    "  if (u_flat == 0) {\n"
    "    float diff = max(dot(n, l), 0.0); float hemi = 0.5 + 0.5 * n.y;\n"
    "    float spec = pow(max(dot(reflect(-l, n), v), 0.0), 24.0);\n"
    "    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0);\n"
    "    c = c * (0.28 + 0.22 * hemi + 0.62 * diff) + vec3(0.18 * spec + 0.10 * rim);\n"
    "  } else if (u_flat == 1) { float diff = max(dot(n, l), 0.0); c = c * (0.55 + 0.45 * diff); "
    "}\n"
    "  if (u_contour > 0.0) {  /* height contour lines, antialiased with fwidth */\n"
    "    float h = v_world.y / u_contour; float d = min(fract(h), 1.0 - fract(h));\n"
    "    c *= mix(0.80, 1.0, smoothstep(0.0, 1.2 * fwidth(h), d)); }\n"
    "  float f = smoothstep(u_fog.x, u_fog.y, length(u_eye - v_world));\n"
    "  o_color = vec4(mix(c, u_fog_color, f), u_color.a); }\n";
static const char *k_flat_vs =
    "layout(location=0) in vec3 a_pos; layout(location=1) in vec4 a_color;\n"
    "uniform mat4 u_mvp; out vec4 v_color; out vec3 v_world;\n"
    "void main() { v_color = a_color; v_world = a_pos; gl_Position = u_mvp * vec4(a_pos, 1.0); }\n";
static const char *k_flat_fs =
    "in vec4 v_color; in vec3 v_world; out vec4 o_color;\n"
    "uniform vec3 u_eye, u_fog_color; uniform vec2 u_fog;\n"
    "void main() { float f = smoothstep(u_fog.x, u_fog.y, length(u_eye - v_world));\n"
    "  o_color = vec4(mix(v_color.rgb, u_fog_color, f), v_color.a * (1.0 - f)); }\n";

/* `id` (a shader just compiled, or with is_program a program just linked) when that
 * worked; else 0, with the info log in err ("shader: ..." / "link: ...") and `id` deleted. */
static GLuint checked(GLuint id, int is_program, char *err, size_t err_size)
{
    GLint ok = 0;
    if (is_program)
        glGetProgramiv(id, GL_LINK_STATUS, &ok);
    else
        glGetShaderiv(id, GL_COMPILE_STATUS, &ok);
    if (ok) return id;
    char log[512];
    if (is_program)
        glGetProgramInfoLog(id, sizeof log, NULL, log);
    else
        glGetShaderInfoLog(id, sizeof log, NULL, log);
    snprintf(err, err_size, "%s: %s", is_program ? "link" : "shader", log);
    if (is_program)
        glDeleteProgram(id);
    else
        glDeleteShader(id);
    return 0;
}

static GLuint compile(GLenum type, const char *src, char *err, size_t err_size)
{
    GLuint s = glCreateShader(type);
    const char *parts[2] = {AKR_GLSL_VERSION, src};
    glShaderSource(s, 2, parts, NULL);
    glCompileShader(s);
    return checked(s, 0, err, err_size);
}

static GLuint program(const char *vs, const char *fs, char *err, size_t err_size)
{
    GLuint v = compile(GL_VERTEX_SHADER, vs, err, err_size);
    if (!v) return 0;
    GLuint f = compile(GL_FRAGMENT_SHADER, fs, err, err_size);
    if (!f) {
        glDeleteShader(v);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    return checked(p, 1, err, err_size);
}

/* Uploads interleaved position+normal vertices and indices. */
static mesh upload(const float *pn, int vertex_count, const unsigned *idx, int index_count)
{
    mesh m;
    glGenVertexArrays(1, &m.vao);
    glBindVertexArray(m.vao);
    glGenBuffers(1, &m.vbo);
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)vertex_count * 6 * (GLsizeiptr)sizeof(float), pn,
                 GL_STATIC_DRAW);
    glGenBuffers(1, &m.ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)index_count * (GLsizeiptr)sizeof(unsigned),
                 idx, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(3 * sizeof(float)));
    glBindVertexArray(0);
    m.index_count = index_count;
    return m;
}

/* upload() of arrays the caller allocated, then freed. */
static mesh upload_owned(float *pn, int vertex_count, unsigned *idx, int index_count)
{
    mesh m = upload(pn, vertex_count, idx, index_count);
    free(pn);
    free(idx);
    return m;
}

/* Unit sphere: `stacks` x `slices` lat-long grid. */
static mesh make_sphere(int stacks, int slices)
{
    int nv = (stacks + 1) * (slices + 1);
    float *pn = malloc((size_t)nv * 6 * sizeof(float));
    unsigned *idx = malloc((size_t)stacks * (size_t)slices * 6 * sizeof(unsigned));
    int v = 0, k = 0;
    for (int i = 0; i <= stacks; ++i) {
        float phi = PI_F * (float)i / (float)stacks;
        for (int j = 0; j <= slices; ++j) {
            float th = 2.0f * PI_F * (float)j / (float)slices;
            float x = sinf(phi) * cosf(th), y = cosf(phi), z = -sinf(phi) * sinf(th);
            float *o = pn + v * 6;
            o[0] = o[3] = x;
            o[1] = o[4] = y;
            o[2] = o[5] = z;
            ++v;
        }
    }
    for (int i = 0; i < stacks; ++i)
        for (int j = 0; j < slices; ++j) {
            unsigned a = (unsigned)(i * (slices + 1) + j), b = a + (unsigned)(slices + 1);
            unsigned q[6] = {a, b, a + 1, a + 1, b, b + 1};
            memcpy(idx + k, q, sizeof q);
            k += 6;
        }
    return upload_owned(pn, nv, idx, k);
}

/* Open cylinder of radius 1 from y=0 to y=1 (the joint spheres close the ends). */
static mesh make_cylinder(int slices)
{
    int nv = 2 * (slices + 1);
    float *pn = malloc((size_t)nv * 6 * sizeof(float));
    unsigned *idx = malloc((size_t)slices * 6 * sizeof(unsigned));
    for (int j = 0; j <= slices; ++j) {
        float th = 2.0f * PI_F * (float)j / (float)slices;
        float x = cosf(th), z = -sinf(th);
        for (int e = 0; e < 2; ++e) {
            float *o = pn + (j * 2 + e) * 6;
            o[0] = x;
            o[1] = (float)e;
            o[2] = z;
            o[3] = x;
            o[4] = 0;
            o[5] = z;
        }
    }
    int k = 0;
    for (int j = 0; j < slices; ++j) {
        unsigned a = (unsigned)(j * 2);
        unsigned q[6] = {a, a + 2, a + 1, a + 1, a + 2, a + 3};
        memcpy(idx + k, q, sizeof q);
        k += 6;
    }
    return upload_owned(pn, nv, idx, k);
}

static mesh make_plane(void)
{
    float pn[4 * 6] = {-1, 0, -1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 1, 0};
    unsigned idx[6] = {0, 3, 1, 1, 3, 2};
    return upload(pn, 4, idx, 6);
}

akr_renderer *akr_create(char *err, size_t err_size)
{
    akr_renderer *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
#if !defined(__EMSCRIPTEN__)
    if (epoxy_gl_version() < 33) {
        snprintf(err, err_size, "OpenGL 3.3 needed, context has %d.%d", epoxy_gl_version() / 10,
                 epoxy_gl_version() % 10);
        free(r);
        return NULL;
    }
#endif
    r->lit = program(k_lit_vs, k_lit_fs, err, err_size);
    r->flat = r->lit ? program(k_flat_vs, k_flat_fs, err, err_size) : 0;
    if (!r->lit || !r->flat) {
        akr_destroy(r);
        return NULL;
    }
    r->lit_mvp = glGetUniformLocation(r->lit, "u_mvp");
    r->lit_model = glGetUniformLocation(r->lit, "u_model");
    r->lit_normal = glGetUniformLocation(r->lit, "u_normal");
    r->lit_color = glGetUniformLocation(r->lit, "u_color");
    r->lit_light = glGetUniformLocation(r->lit, "u_light");
    r->lit_eye = glGetUniformLocation(r->lit, "u_eye");
    r->lit_fog = glGetUniformLocation(r->lit, "u_fog");
    r->lit_fog_color = glGetUniformLocation(r->lit, "u_fog_color");
    r->lit_flat = glGetUniformLocation(r->lit, "u_flat");
    r->lit_contour = glGetUniformLocation(r->lit, "u_contour");
    r->flat_mvp = glGetUniformLocation(r->flat, "u_mvp");
    r->flat_eye = glGetUniformLocation(r->flat, "u_eye");
    r->flat_fog = glGetUniformLocation(r->flat, "u_fog");
    r->flat_fog_color = glGetUniformLocation(r->flat, "u_fog_color");
    r->sphere = make_sphere(12, 18);
    r->cylinder = make_cylinder(18);
    r->plane = make_plane();
    glGenVertexArrays(1, &r->stream_vao);
    glBindVertexArray(r->stream_vao);
    glGenBuffers(1, &r->stream_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->stream_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 7 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 7 * sizeof(float), (void *)(3 * sizeof(float)));
    glBindVertexArray(0);
    r->shadow_y = 0.0f;
    return r;
}

static void free_mesh(mesh *m)
{
    if (m->vao) glDeleteVertexArrays(1, &m->vao);
    if (m->vbo) glDeleteBuffers(1, &m->vbo);
    if (m->ibo) glDeleteBuffers(1, &m->ibo);
    memset(m, 0, sizeof *m);
}

void akr_destroy(akr_renderer *r)
{
    if (!r) return;
    free_mesh(&r->sphere);
    free_mesh(&r->cylinder);
    free_mesh(&r->plane);
    if (r->stream_vao) glDeleteVertexArrays(1, &r->stream_vao);
    if (r->stream_vbo) glDeleteBuffers(1, &r->stream_vbo);
    if (r->terrain_vao) glDeleteVertexArrays(1, &r->terrain_vao);
    if (r->terrain_vbo) glDeleteBuffers(1, &r->terrain_vbo);
    if (r->terrain_ibo) glDeleteBuffers(1, &r->terrain_ibo);
    if (r->terrain_line_vao) glDeleteVertexArrays(1, &r->terrain_line_vao);
    if (r->terrain_line_vbo) glDeleteBuffers(1, &r->terrain_line_vbo);
    for (int i = 0; i < 2; ++i) {
        if (r->steps_vao[i]) glDeleteVertexArrays(1, &r->steps_vao[i]);
        if (r->steps_vbo[i]) glDeleteBuffers(1, &r->steps_vbo[i]);
        if (r->steps_ibo[i]) glDeleteBuffers(1, &r->steps_ibo[i]);
    }
    akr_skin_release(r);
    if (r->lit) glDeleteProgram(r->lit);
    if (r->flat) glDeleteProgram(r->flat);
    free(r->scratch);
    free(r);
}

void akr_begin(akr_renderer *r, int w, int h, const akr_camera *c)
{
    r->w = w;
    r->h = h;
    r->text_right = 0.0f;
    mat4 view, proj;
    view_and_proj(c, w, h, view, proj);
    glm_mat4_mul(proj, view, r->vp);
    glm_ortho(0.0f, (float)w, (float)h, 0.0f, -1.0f, 1.0f, r->ortho);
    r->eye = akr_camera_eye(c);
    /* Fog from a little beyond the target to far away: the ground fades into the sky. */
    r->fog[0] = c->distance * 1.6f + 6.0f;
    r->fog[1] = c->distance * 4.0f + 30.0f;
    glViewport(0, 0, w, h);
    glClearColor(k_background[0], k_background[1], k_background[2], 1.0f);
    glClearStencil(0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->lit);
    glUniform3fv(r->lit_light, 1, k_light_dir);
    glUniform3f(r->lit_eye, r->eye.x, r->eye.y, r->eye.z);
    glUniform2fv(r->lit_fog, 1, r->fog);
    glUniform3fv(r->lit_fog_color, 1, k_background);
    glUniform1f(r->lit_contour, 0.0f);
    glUseProgram(r->flat);
    glUniform3f(r->flat_eye, r->eye.x, r->eye.y, r->eye.z);
    glUniform2fv(r->flat_fog, 1, r->fog);
    glUniform3fv(r->flat_fog_color, 1, k_background);
}

void akr_set_shadow_plane(akr_renderer *r, int enabled, float y)
{
    r->shadows = enabled;
    r->shadow_y = y;
}

/* Draws `m` with model matrix `model` lit in colour rgba. */
static void draw_lit(akr_renderer *r, const mesh *m, mat4 model, const float rgba[4], int flat)
{
    mat4 mvp, inv;
    mat3 nrm;
    glm_mat4_mul(r->vp, model, mvp);
    glm_mat4_inv(model, inv);
    glm_mat4_transpose(inv);
    glm_mat4_pick3(inv, nrm);
    glUseProgram(r->lit);
    glUniformMatrix4fv(r->lit_mvp, 1, GL_FALSE, (const float *)mvp);
    glUniformMatrix4fv(r->lit_model, 1, GL_FALSE, (const float *)model);
    glUniformMatrix3fv(r->lit_normal, 1, GL_FALSE, (const float *)nrm);
    glUniform4fv(r->lit_color, 1, rgba);
    glUniform1i(r->lit_flat, flat);
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, 0);
}

/* The planar projection onto y = shadow_y along the light direction:
 * S = (p.l) I - l p^T with plane p = (0, 1, 0, -y) and l = (light, 0). Stencil: each pixel is
 * darkened once however many shadows overlap it. */
static void shadow_matrix(const akr_renderer *r, mat4 s)
{
    float l[4] = {k_light_dir[0], k_light_dir[1], k_light_dir[2], 0.0f};
    float p[4] = {0.0f, 1.0f, 0.0f, -(r->shadow_y + 0.002f)};
    float d = l[0] * p[0] + l[1] * p[1] + l[2] * p[2] + l[3] * p[3];
    for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 4; ++row)
            s[col][row] = (row == col ? d : 0.0f) - l[row] * p[col];
}

void akr_shadow_begin(void)
{
    glDisable(GL_CULL_FACE);
    glDepthMask(GL_FALSE);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_EQUAL, 0, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
}

void akr_shadow_end(void)
{
    glDisable(GL_STENCIL_TEST);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
}

void akr_frame_info(const akr_renderer *r, akr_frame *out)
{
    mat4 s;
    memcpy(out->vp, r->vp, sizeof out->vp);
    shadow_matrix(r, s);
    memcpy(out->shadow, s, sizeof out->shadow);
    out->eye = r->eye;
    out->fog[0] = r->fog[0], out->fog[1] = r->fog[1];
    out->shadows = r->shadows;
}

unsigned akr_lit_program(const char *vertex_source, char *err, size_t err_size)
{
    return program(vertex_source, k_lit_fs, err, err_size);
}

void **akr_skin_state(akr_renderer *r)
{
    return &r->skin_state;
}

static void draw_shadow(akr_renderer *r, const mesh *m, mat4 model)
{
    if (!r->shadows) return;
    mat4 s, sm, mvp;
    shadow_matrix(r, s);
    glm_mat4_mul(s, model, sm);
    glm_mat4_mul(r->vp, sm, mvp);
    static const float shade[4] = {0.05f, 0.07f, 0.12f, 0.30f};
    glUseProgram(r->lit);
    glUniformMatrix4fv(r->lit_mvp, 1, GL_FALSE, (const float *)mvp);
    glUniformMatrix4fv(r->lit_model, 1, GL_FALSE, (const float *)sm);
    glUniformMatrix3fv(r->lit_normal, 1, GL_FALSE, (const float *)GLM_MAT3_IDENTITY);
    glUniform4fv(r->lit_color, 1, shade);
    glUniform1i(r->lit_flat, 2);
    akr_shadow_begin();
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, 0);
    akr_shadow_end();
}

void akr_draw_ground(akr_renderer *r, float y, float extent)
{
    static const float ground[4] = {0.91f, 0.91f, 0.89f, 1.0f};
    mat4 model;
    glm_mat4_identity(model);
    glm_translate(model, (vec3){r->eye.x * 0.0f, y, 0.0f});
    glm_scale(model, (vec3){extent, 1.0f, extent});
    /* Push the plane back in depth so the grid lines and shadows sit on it cleanly. */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    draw_lit(r, &r->plane, model, ground, 1);
    glDisable(GL_POLYGON_OFFSET_FILL);
    int n = (int)extent;
    int count = (2 * n + 1) * 4;
    float *v = malloc((size_t)count * 7 * sizeof(float));
    if (!v) return;
    int k = 0;
    for (int i = -n; i <= n; ++i) {
        float a = (i % 5 == 0) ? 0.35f : 0.18f;
        float col[4] = {0.35f, 0.37f, 0.42f, a};
        if (i == 0) {
            col[0] = 0.75f;
            col[1] = 0.3f;
            col[2] = 0.3f;
            col[3] = 0.6f;
        }
        float seg[4][3] = {{(float)i, y, (float)-n},
                           {(float)i, y, (float)n},
                           {(float)-n, y, (float)i},
                           {(float)n, y, (float)i}};
        for (int e = 0; e < 4; ++e) {
            if (i == 0 && e == 2) {
                col[0] = 0.3f;
                col[1] = 0.4f;
                col[2] = 0.8f;
            }
            memcpy(v + k * 7, seg[e], 3 * sizeof(float));
            memcpy(v + k * 7 + 3, col, 4 * sizeof(float));
            ++k;
        }
    }
    akr_draw_lines(r, v, k, 1);
    free(v);
}

/* FNV-1a over the heights and the grid placement: the terrain is rebuilt only when it changes. */
static uint64_t terrain_key(const float *heights, int nx, int nz, float x0, float z0, float cell)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char *p = (const unsigned char *)heights;
    size_t n = (size_t)nx * (size_t)nz * sizeof(float);
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    float extra[3] = {x0, z0, cell};
    p = (const unsigned char *)extra;
    for (size_t i = 0; i < sizeof extra; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h ^ ((uint64_t)(unsigned)nx << 32) ^ (uint64_t)(unsigned)nz;
}

/* Terrain vertices: position + normal (central differences), 6 floats each. */
static void terrain_vertices(float *pn, const float *heights, int nx, int nz, float x0, float z0,
                             float cell)
{
    for (int iz = 0; iz < nz; ++iz)
        for (int ix = 0; ix < nx; ++ix) {
            float *o = pn + ((size_t)iz * (size_t)nx + (size_t)ix) * 6;
            int xl = ix > 0 ? ix - 1 : ix, xr = ix + 1 < nx ? ix + 1 : ix;
            int zl = iz > 0 ? iz - 1 : iz, zr = iz + 1 < nz ? iz + 1 : iz;
            float dx = (heights[iz * nx + xr] - heights[iz * nx + xl]) / ((float)(xr - xl) * cell);
            float dz = (heights[zr * nx + ix] - heights[zl * nx + ix]) / ((float)(zr - zl) * cell);
            ak_vec3 n = ak_vec3_normalize_or(ak_vec3_make(-dx, 1.0f, -dz), ak_vec3_make(0, 1, 0));
            o[0] = x0 + (float)ix * cell;
            o[1] = heights[iz * nx + ix];
            o[2] = z0 + (float)iz * cell;
            o[3] = n.x;
            o[4] = n.y;
            o[5] = n.z;
        }
}

/* Two triangles per cell; returns the index count. */
static int terrain_indices(unsigned *idx, int nx, int nz)
{
    int k = 0;
    for (int iz = 0; iz + 1 < nz; ++iz)
        for (int ix = 0; ix + 1 < nx; ++ix) {
            unsigned a = (unsigned)(iz * nx + ix), b = a + (unsigned)nx;
            unsigned q[6] = {a, b, a + 1, a + 1, b, b + 1};
            memcpy(idx + k, q, sizeof q);
            k += 6;
        }
    return k;
}

/* Grid lines every `step` samples along both axes, lifted 1 cm: position + colour, 7 floats a
 * vertex. Returns the vertex count. */
static int terrain_grid_lines(float *v, const float *heights, int nx, int nz, float x0, float z0,
                              float cell, int step)
{
    int q = 0;
    const float c[4] = {0.25f, 0.32f, 0.22f, 0.25f};
    for (int ix = 0; ix < nx; ix += step)
        for (int iz = 0; iz + 1 < nz; ++iz)
            for (int e = 0; e < 2; ++e) {
                float p[7] = {x0 + (float)ix * cell,
                              heights[(iz + e) * nx + ix] + 0.01f,
                              z0 + (float)(iz + e) * cell,
                              c[0],
                              c[1],
                              c[2],
                              c[3]};
                memcpy(v + (size_t)q++ * 7, p, sizeof p);
            }
    for (int iz = 0; iz < nz; iz += step)
        for (int ix = 0; ix + 1 < nx; ++ix)
            for (int e = 0; e < 2; ++e) {
                float p[7] = {x0 + (float)(ix + e) * cell,
                              heights[iz * nx + ix + e] + 0.01f,
                              z0 + (float)iz * cell,
                              c[0],
                              c[1],
                              c[2],
                              c[3]};
                memcpy(v + (size_t)q++ * 7, p, sizeof p);
            }
    return q;
}

/* Hands the mesh (vertices pn, indices idx) and the grid lines (v) to GL. */
static void terrain_upload(akr_renderer *r, const float *pn, size_t nv, const unsigned *idx, int k,
                           const float *v, int q)
{
    if (!r->terrain_vao) {
        glGenVertexArrays(1, &r->terrain_vao);
        glGenBuffers(1, &r->terrain_vbo);
        glGenBuffers(1, &r->terrain_ibo);
        glGenVertexArrays(1, &r->terrain_line_vao);
        glGenBuffers(1, &r->terrain_line_vbo);
    }
    glBindVertexArray(r->terrain_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->terrain_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(nv * 6 * sizeof(float)), pn, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->terrain_ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)k * sizeof(unsigned)), idx,
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(3 * sizeof(float)));
    glBindVertexArray(r->terrain_line_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->terrain_line_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)q * 7 * sizeof(float)), v, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 7 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 7 * sizeof(float), (void *)(3 * sizeof(float)));
    glBindVertexArray(0);
    r->terrain_index_count = k;
    r->terrain_line_count = q;
}

/* Builds the terrain mesh and its 1 m grid lines into the renderer's buffers. */
static void build_terrain(akr_renderer *r, const float *heights, int nx, int nz, float x0, float z0,
                          float cell)
{
    size_t nv = (size_t)nx * (size_t)nz;
    float *pn = malloc(nv * 6 * sizeof(float));
    unsigned *idx = malloc((size_t)(nx - 1) * (size_t)(nz - 1) * 6 * sizeof(unsigned));
    int step = (int)(1.0f / cell + 0.5f);
    if (step < 1) step = 1;
    size_t lines = (size_t)((nx + step - 1) / step) * (size_t)(nz - 1) +
                   (size_t)((nz + step - 1) / step) * (size_t)(nx - 1);
    float *v = malloc(lines * 2 * 7 * sizeof(float));
    if (pn && idx && v) {
        terrain_vertices(pn, heights, nx, nz, x0, z0, cell);
        const int k = terrain_indices(idx, nx, nz);
        const int q = terrain_grid_lines(v, heights, nx, nz, x0, z0, cell, step);
        terrain_upload(r, pn, nv, idx, k, v, q);
    } else {
        r->terrain_index_count = 0;
        r->terrain_line_count = 0;
    }
    free(pn);
    free(idx);
    free(v);
}

void akr_draw_terrain(akr_renderer *r, const float *heights, int nx, int nz, float x0, float z0,
                      float cell)
{
    if (nx < 2 || nz < 2) return;
    uint64_t key = terrain_key(heights, nx, nz, x0, z0, cell);
    if (!r->terrain_vao || key != r->terrain_key) {
        build_terrain(r, heights, nx, nz, x0, z0, cell);
        r->terrain_key = key;
    }
    mesh m = {r->terrain_vao, r->terrain_vbo, r->terrain_ibo, r->terrain_index_count};
    mat4 model;
    glm_mat4_identity(model);
    static const float col[4] = {0.62f, 0.72f, 0.52f, 1.0f};
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    glUseProgram(r->lit);
    glUniform1f(r->lit_contour, 0.25f); /* a line every 25 cm of height */
    draw_lit(r, &m, model, col, 0);
    glUniform1f(r->lit_contour, 0.0f);
    glDisable(GL_POLYGON_OFFSET_FILL);
    /* The 1 m grid, depth-tested but not written, fogged like everything else. */
    glUseProgram(r->flat);
    glUniformMatrix4fv(r->flat_mvp, 1, GL_FALSE, (const float *)r->vp);
    glUniform2fv(r->flat_fog, 1, r->fog);
    glDepthMask(GL_FALSE);
    glBindVertexArray(r->terrain_line_vao);
    glDrawArrays(GL_LINES, 0, r->terrain_line_count);
    glBindVertexArray(0);
    glDepthMask(GL_TRUE);
}

/* Appends the quad a b c d (counter-clockwise seen from `n`) to a pos+normal array and its
 * two triangles to the index array. */
static void put_quad(float *pn, unsigned *idx, int *nv, int *ni, const float q[4][3], ak_vec3 n)
{
    for (int k = 0; k < 4; ++k) {
        float *o = pn + (size_t)(*nv + k) * 6;
        memcpy(o, q[k], 3 * sizeof(float));
        o[3] = n.x;
        o[4] = n.y;
        o[5] = n.z;
    }
    const unsigned b = (unsigned)*nv, t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
    memcpy(idx + *ni, t, sizeof t);
    *nv += 4;
    *ni += 6;
}

/* One lit batch of quads through steps buffer set `slot` (uploaded every call: a staircase
 * is a few dozen quads). */
static void draw_quads(akr_renderer *r, int slot, const float *pn, int nv, const unsigned *idx,
                       int ni, const float rgba[4], int flat)
{
    if (!r->steps_vao[slot]) {
        glGenVertexArrays(1, &r->steps_vao[slot]);
        glGenBuffers(1, &r->steps_vbo[slot]);
        glGenBuffers(1, &r->steps_ibo[slot]);
    }
    glBindVertexArray(r->steps_vao[slot]);
    glBindBuffer(GL_ARRAY_BUFFER, r->steps_vbo[slot]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)nv * 6 * sizeof(float)), pn, GL_STREAM_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->steps_ibo[slot]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)ni * sizeof(unsigned)), idx,
                 GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(3 * sizeof(float)));
    mesh m = {r->steps_vao[slot], r->steps_vbo[slot], r->steps_ibo[slot], ni};
    mat4 model;
    glm_mat4_identity(model);
    draw_lit(r, &m, model, rgba, flat);
    glBindVertexArray(0);
}

void akr_draw_steps(akr_renderer *r, const float *edges, const float *heights, int treads, float z0,
                    float z1)
{
    if (treads < 1) return;
    float *pn = malloc((size_t)treads * 8 * 6 * sizeof(float));
    unsigned *idx = malloc((size_t)treads * 12 * sizeof(unsigned));
    float *lines = malloc((size_t)treads * 2 * 7 * sizeof(float));
    if (!pn || !idx || !lines) {
        free(pn);
        free(idx);
        free(lines);
        return;
    }
    static const float tread_rgb[4] = {0.66f, 0.74f, 0.56f, 1.0f},
                       riser_rgb[4] = {0.84f, 0.68f, 0.47f, 1.0f};
    int nv = 0, ni = 0, nl = 0;
    for (int i = 0; i < treads; ++i) { /* treads: level quads, normal up */
        const float y = heights[i], a = edges[i], b = edges[i + 1];
        const float q[4][3] = {{a, y, z0}, {a, y, z1}, {b, y, z1}, {b, y, z0}};
        put_quad(pn, idx, &nv, &ni, q, ak_vec3_make(0, 1, 0));
    }
    glDisable(GL_CULL_FACE);
    draw_quads(r, 0, pn, nv, idx, ni, tread_rgb, 0);
    nv = ni = 0;
    for (int i = 0; i + 1 < treads; ++i) { /* risers: vertical quads facing the lower tread */
        const float x = edges[i + 1], lo = fminf(heights[i], heights[i + 1]),
                    hi = fmaxf(heights[i], heights[i + 1]);
        const float s = heights[i + 1] > heights[i] ? -1.0f : 1.0f;
        const float q[4][3] = {{x, lo, s < 0 ? z0 : z1},
                               {x, hi, s < 0 ? z0 : z1},
                               {x, hi, s < 0 ? z1 : z0},
                               {x, lo, s < 0 ? z1 : z0}};
        put_quad(pn, idx, &nv, &ni, q, ak_vec3_make(s, 0, 0));
        /* The nosing: a dark line along the top edge of each riser. */
        const float e[2][7] = {{x, hi + 0.005f, z0, 0.2f, 0.18f, 0.14f, 0.9f},
                               {x, hi + 0.005f, z1, 0.2f, 0.18f, 0.14f, 0.9f}};
        memcpy(lines + (size_t)nl * 7, e, sizeof e);
        nl += 2;
    }
    if (ni) draw_quads(r, 1, pn, nv, idx, ni, riser_rgb, 1); /* flat: never black */
    glEnable(GL_CULL_FACE);
    if (nl) akr_draw_lines(r, lines, nl, 1);
    free(pn);
    free(idx);
    free(lines);
}

void akr_draw_sphere(akr_renderer *r, ak_vec3 c, float radius, const float rgba[4])
{
    mat4 model;
    glm_mat4_identity(model);
    glm_translate(model, (vec3){c.x, c.y, c.z});
    glm_scale_uni(model, radius);
    draw_lit(r, &r->sphere, model, rgba, 0);
    draw_shadow(r, &r->sphere, model);
}

void akr_draw_capsule(akr_renderer *r, ak_vec3 a, ak_vec3 b, float radius, const float rgba[4])
{
    ak_vec3 d = ak_vec3_sub(b, a);
    float len = ak_vec3_length(d);
    if (len > 1e-6f) {
        ak_quat q = ak_quat_from_to(ak_vec3_make(0, 1, 0), d);
        float rot[16];
        ak_xform x = {q, a};
        ak_xform_to_mat4(x, rot);
        mat4 model;
        memcpy(model, rot, sizeof rot);
        glm_scale(model, (vec3){radius, len, radius});
        draw_lit(r, &r->cylinder, model, rgba, 0);
        draw_shadow(r, &r->cylinder, model);
    }
    akr_draw_sphere(r, a, radius, rgba);
    akr_draw_sphere(r, b, radius, rgba);
}

void akr_draw_skeleton(akr_renderer *r, const ak_skeleton *s, const ak_xform *w, float radius,
                       const float rgb[3])
{
    float bone[4] = {rgb[0], rgb[1], rgb[2], 1.0f};
    float joint[4] = {rgb[0] * 0.7f, rgb[1] * 0.7f, rgb[2] * 0.7f, 1.0f};
    for (int32_t j = 0; j < s->joint_count; ++j) {
        int32_t p = s->parents[j];
        if (p < 0) continue;
        ak_vec3 a = w[p].translation, b = w[j].translation;
        float len = ak_vec3_length(ak_vec3_sub(b, a));
        if (len < 1e-5f) continue;
        float rad = radius < 0.18f * len ? radius : 0.18f * len;
        if (rad < radius * 0.4f) rad = radius * 0.4f;
        mat4 model;
        float rot[16];
        ak_xform x = {ak_quat_from_to(ak_vec3_make(0, 1, 0), ak_vec3_sub(b, a)), a};
        ak_xform_to_mat4(x, rot);
        memcpy(model, rot, sizeof rot);
        glm_scale(model, (vec3){rad, len, rad});
        draw_lit(r, &r->cylinder, model, bone, 0);
        draw_shadow(r, &r->cylinder, model);
    }
    for (int32_t j = 0; j < s->joint_count; ++j) {
        /* End Site tips get a smaller ball; every other joint a ball a bit wider than its bone. */
        float rad = s->is_end_site[j] ? radius * 0.8f : radius * 1.15f;
        akr_draw_sphere(r, w[j].translation, rad, s->is_end_site[j] ? bone : joint);
    }
}

static float *scratch(akr_renderer *r, size_t floats)
{
    if (floats > r->scratch_cap) {
        float *p = realloc(r->scratch, floats * sizeof(float));
        if (!p) return NULL;
        r->scratch = p;
        r->scratch_cap = floats;
    }
    return r->scratch;
}

static void draw_stream(akr_renderer *r, const float *v, int count, GLenum mode, const float *mvp,
                        int fog)
{
    if (count <= 0) return;
    glUseProgram(r->flat);
    glUniformMatrix4fv(r->flat_mvp, 1, GL_FALSE, mvp);
    float no_fog[2] = {1e9f, 2e9f};
    glUniform2fv(r->flat_fog, 1, fog ? r->fog : no_fog);
    glBindVertexArray(r->stream_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->stream_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)count * 7 * (GLsizeiptr)sizeof(float), v,
                 GL_STREAM_DRAW);
    glDrawArrays(mode, 0, count);
    glBindVertexArray(0);
}

void akr_draw_lines(akr_renderer *r, const float *v, int count, int depth_test)
{
    if (!depth_test) glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    draw_stream(r, v, count, GL_LINES, (const float *)r->vp, 1);
    glDepthMask(GL_TRUE);
    glEnable(GL_DEPTH_TEST);
}

void akr_draw_rect(akr_renderer *r, float x, float y, float w, float h, const float rgba[4])
{
    float v[6 * 7];
    float corners[6][2] = {{x, y}, {x, y + h}, {x + w, y}, {x + w, y}, {x, y + h}, {x + w, y + h}};
    for (int i = 0; i < 6; ++i) {
        float *o = v + i * 7;
        o[0] = corners[i][0];
        o[1] = corners[i][1];
        o[2] = 0.0f;
        memcpy(o + 3, rgba, 4 * sizeof(float));
    }
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    draw_stream(r, v, 6, GL_TRIANGLES, (const float *)r->ortho, 0);
    glEnable(GL_CULL_FACE);
    glEnable(GL_DEPTH_TEST);
}

void akr_draw_text(akr_renderer *r, float x, float y, float scale, const char *text,
                   const float rgb[3])
{
    /* stb_easy_font writes quads of 4 vertices (x, y, z floats + 4 colour bytes = 16 bytes). */
    size_t len = strlen(text);
    size_t cap = len * 300 + 1024;
    char *quads = malloc(cap);
    if (!quads) return;
    unsigned char col[4] = {255, 255, 255, 255};
    int nq = stb_easy_font_print(0.0f, 0.0f, (char *)text, col, quads, (int)cap);
    float *v = scratch(r, (size_t)nq * 6 * 7);
    if (!v) {
        free(quads);
        return;
    }
    static const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int q = 0; q < nq; ++q)
        for (int k = 0; k < 6; ++k) {
            const float *src = (const float *)(quads + ((size_t)q * 4 + (size_t)order[k]) * 16);
            float *o = v + ((size_t)q * 6 + (size_t)k) * 7;
            o[0] = x + src[0] * scale;
            o[1] = y + src[1] * scale;
            o[2] = 0.0f;
            o[3] = rgb[0];
            o[4] = rgb[1];
            o[5] = rgb[2];
            o[6] = 1.0f;
        }
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    draw_stream(r, v, nq * 6, GL_TRIANGLES, (const float *)r->ortho, 0);
    glEnable(GL_CULL_FACE);
    glEnable(GL_DEPTH_TEST);
    free(quads);
    const float right = x + akr_text_width(text, scale);
    if (right > r->text_right) r->text_right = right;
    (void)stb_easy_font_height;
    (void)stb_easy_font_spacing;
}

float akr_text_width(const char *text, float scale)
{
    return (float)stb_easy_font_width((char *)text) * scale;
}

float akr_text_fit(const char *text, float scale, float max_width)
{
    const float w = akr_text_width(text, scale);
    return w > max_width && w > 0.0f ? scale * max_width / w : scale;
}

float akr_text_right(const akr_renderer *r)
{
    return r->text_right;
}
