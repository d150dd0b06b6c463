/* animkit viewer — skinned bodies on the GPU: a glTF file's own mesh or the library's generated
 * body (ak_body_mesh_create), uploaded once per skeleton, skinned in the vertex shader from a
 * palette texture that holds the library's own per-joint skinning transforms (ak_skin_palette:
 * three matrix rows for LBS, the real and dual quaternion for DQS, one RGBA32F texel each), with
 * the same maths as src/anim/skin.c (antipodality fix included). Works on OpenGL 3.3 and WebGL 2.
 */
#include "render_internal.h"

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#include <epoxy/gl.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SKIN_CACHE = 16, PALETTE_TEXELS = 5 };

static const char *k_skin_vs =
    "layout(location=0) in vec3 a_pos; layout(location=1) in vec3 a_normal;\n"
    "layout(location=2) in vec4 a_joints; layout(location=3) in vec4 a_weights;\n"
    "uniform highp sampler2D u_palette; uniform int u_method; uniform float u_unit;\n"
    "uniform mat4 u_vp, u_post;\n"
    "out vec3 v_normal; out vec3 v_world;\n"
    "vec4 texel(int j, int k) { return texelFetch(u_palette, ivec2(k, j), 0); }\n"
    "vec3 rot(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }\n"
    "void main() {\n"
    "  ivec4 j = ivec4(a_joints + 0.5); vec3 p = a_pos * u_unit, n;\n"
    "  if (u_method == 0) {  /* LBS: the weighted sum of the joints' 3x4 matrices */\n"
    "    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);\n"
    "    for (int i = 0; i < 4; ++i) { float w = a_weights[i];\n"
    "      r0 += w * texel(j[i], 0); r1 += w * texel(j[i], 1); r2 += w * texel(j[i], 2); }\n"
    "    vec4 h = vec4(p, 1.0); p = vec3(dot(r0, h), dot(r1, h), dot(r2, h));\n"
    "    n = vec3(dot(r0.xyz, a_normal), dot(r1.xyz, a_normal), dot(r2.xyz, a_normal));\n"
    "  } else {  /* DQS: blend on the first influence's side, normalise, rotate, translate */\n"
    "    vec4 q0 = texel(j[0], 3), br = vec4(0.0), bd = vec4(0.0);\n"
    "    for (int i = 0; i < 4; ++i) { vec4 q = texel(j[i], 3);\n"
    "      float w = dot(q0, q) < 0.0 ? -a_weights[i] : a_weights[i];\n"
    "      br += w * q; bd += w * texel(j[i], 4); }\n"
    "    float inv = inversesqrt(max(dot(br, br), 1e-20)); br *= inv; bd *= inv;\n"
    "    vec3 t = 2.0 * (br.w * bd.xyz - bd.w * br.xyz + cross(br.xyz, bd.xyz));\n"
    "    p = rot(br, p) + t; n = rot(br, a_normal);\n"
    "  }\n"
    "  vec4 world = u_post * vec4(p, 1.0);\n"
    "  v_normal = n; v_world = world.xyz; gl_Position = u_vp * world; }\n";

typedef struct skin_entry {
    const ak_skeleton *key;
    const ak_body_mesh *mesh; /* the file's own mesh, or NULL: the generated body */
    int32_t joint_count;
    float rest_sum; /* a fingerprint of the rest pose, so a new skeleton at a freed address
                       is not mistaken for the old one */
    int failed;     /* no body for this rig: draw bones */
    GLuint vao, vbo[4], ibo, tex;
    GLsizei index_count;
    float *inverse_bind; /* joint_count * 16, file units */
} skin_entry;

typedef struct skin_state {
    GLuint program;
    GLint u_palette, u_method, u_unit, u_vp, u_post, u_color, u_light, u_eye, u_fog, u_fog_color,
        u_flat, u_contour;
    int failed;
    skin_entry entries[SKIN_CACHE];
    int next;
    float *texels;
    ak_skin_joint *palette;
    float *ibm;
    size_t capacity; /* joints the three buffers above hold */
} skin_state;

static void free_entry(skin_entry *e)
{
    if (e->vao) glDeleteVertexArrays(1, &e->vao);
    glDeleteBuffers(4, e->vbo);
    if (e->ibo) glDeleteBuffers(1, &e->ibo);
    if (e->tex) glDeleteTextures(1, &e->tex);
    free(e->inverse_bind);
    memset(e, 0, sizeof *e);
}

void akr_skin_release(akr_renderer *r)
{
    skin_state *st = (skin_state *)*akr_skin_state(r);
    if (!st) return;
    for (int i = 0; i < SKIN_CACHE; ++i)
        free_entry(&st->entries[i]);
    if (st->program) glDeleteProgram(st->program);
    free(st->texels);
    free(st->palette);
    free(st->ibm);
    free(st);
    *akr_skin_state(r) = NULL;
}

static skin_state *get_state(akr_renderer *r)
{
    skin_state **slot = (skin_state **)akr_skin_state(r);
    if (*slot) return (*slot)->failed ? NULL : *slot;
    skin_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    *slot = st;
    char err[512];
    st->program = akr_lit_program(k_skin_vs, err, sizeof err);
    if (!st->program) {
        fprintf(stderr, "animkit: skinning shader: %s (drawing bones instead)\n", err);
        st->failed = 1;
        return NULL;
    }
    const GLuint p = st->program;
    st->u_palette = glGetUniformLocation(p, "u_palette");
    st->u_method = glGetUniformLocation(p, "u_method");
    st->u_unit = glGetUniformLocation(p, "u_unit");
    st->u_vp = glGetUniformLocation(p, "u_vp");
    st->u_post = glGetUniformLocation(p, "u_post");
    st->u_color = glGetUniformLocation(p, "u_color");
    st->u_light = glGetUniformLocation(p, "u_light");
    st->u_eye = glGetUniformLocation(p, "u_eye");
    st->u_fog = glGetUniformLocation(p, "u_fog");
    st->u_fog_color = glGetUniformLocation(p, "u_fog_color");
    st->u_flat = glGetUniformLocation(p, "u_flat");
    st->u_contour = glGetUniformLocation(p, "u_contour");
    return st;
}

static float rest_fingerprint(const ak_skeleton *s)
{
    float sum = 0.0f;
    for (int32_t j = 0; j < s->joint_count; ++j)
        sum += s->bone_lengths[j] * (float)(j + 1) + (float)s->parents[j];
    return sum;
}

static void upload_attrib(GLuint vbo, GLuint index, GLint size, GLenum type, const void *data,
                          GLsizeiptr bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, bytes, data, GL_STATIC_DRAW);
    glEnableVertexAttribArray(index);
    glVertexAttribPointer(index, size, type, GL_FALSE, 0, (void *)0);
}

/* Uploads `own` (the file's mesh) or the generated body of `s`; e->failed when the rig gets
 * none. */
static void build_entry(skin_entry *e, const ak_skeleton *s, const ak_body_mesh *own)
{
    e->key = s;
    e->mesh = own;
    e->joint_count = s->joint_count;
    e->rest_sum = rest_fingerprint(s);
    ak_body_mesh *made = NULL;
    if (!own && ak_body_mesh_create(s, NULL, &made, NULL) != AK_OK) {
        e->failed = 1;
        return;
    }
    const ak_body_mesh *m = own ? own : made;
    if (m->joint_count != s->joint_count) {
        e->failed = 1;
        return;
    }
    e->inverse_bind = malloc(sizeof(float) * 16 * (size_t)s->joint_count);
    if (!e->inverse_bind) {
        e->failed = 1;
        ak_body_mesh_destroy(made);
        return;
    }
    memcpy(e->inverse_bind, m->inverse_bind, sizeof(float) * 16 * (size_t)s->joint_count);
    const GLsizeiptr nv = m->vertex_count;
    glGenVertexArrays(1, &e->vao);
    glBindVertexArray(e->vao);
    glGenBuffers(4, e->vbo);
    upload_attrib(e->vbo[0], 0, 3, GL_FLOAT, m->positions, nv * 12);
    upload_attrib(e->vbo[1], 1, 3, GL_FLOAT, m->normals, nv * 12);
    upload_attrib(e->vbo[2], 2, 4, GL_UNSIGNED_SHORT, m->joints, nv * 8);
    upload_attrib(e->vbo[3], 3, 4, GL_FLOAT, m->weights, nv * 16);
    glGenBuffers(1, &e->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, e->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)m->index_count * 4, m->indices,
                 GL_STATIC_DRAW);
    glBindVertexArray(0);
    e->index_count = m->index_count;
    glGenTextures(1, &e->tex);
    glBindTexture(GL_TEXTURE_2D, e->tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, PALETTE_TEXELS, s->joint_count, 0, GL_RGBA, GL_FLOAT,
                 NULL);
    ak_body_mesh_destroy(made);
}

static skin_entry *find_entry(skin_state *st, const ak_skeleton *s, const ak_body_mesh *own)
{
    const float fp = rest_fingerprint(s);
    for (int i = 0; i < SKIN_CACHE; ++i) {
        skin_entry *e = &st->entries[i];
        if (e->key == s && e->mesh == own && e->joint_count == s->joint_count && e->rest_sum == fp)
            return e;
    }
    skin_entry *e = &st->entries[st->next];
    st->next = (st->next + 1) % SKIN_CACHE;
    free_entry(e);
    build_entry(e, s, own);
    return e;
}

static int reserve(skin_state *st, size_t joints)
{
    if (joints <= st->capacity) return 1;
    float *t = realloc(st->texels, sizeof(float) * 4 * PALETTE_TEXELS * joints);
    if (t) st->texels = t;
    ak_skin_joint *p = realloc(st->palette, sizeof(ak_skin_joint) * joints);
    if (p) st->palette = p;
    float *b = realloc(st->ibm, sizeof(float) * 16 * joints);
    if (b) st->ibm = b;
    if (!t || !p || !b) return 0;
    st->capacity = joints;
    return 1;
}

/* Metres per skeleton unit of a pose: world bone lengths over the skeleton's own (FK keeps
 * bone lengths, so the ratio is the scale the pose was drawn at). */
static float pose_scale(const ak_skeleton *s, const ak_xform *w)
{
    double world = 0.0, rest = 0.0;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        const int32_t p = s->parents[j];
        if (p < 0) continue;
        world += ak_vec3_length(ak_vec3_sub(w[j].translation, w[p].translation));
        rest += s->bone_lengths[j];
    }
    return rest > 1e-12 ? (float)(world / rest) : 1.0f;
}

/* Fills the palette texture of `e` for pose `w` at `unit` metres per skeleton unit. */
static void upload_palette(skin_state *st, skin_entry *e, const ak_xform *w, float unit)
{
    const int32_t n = e->joint_count;
    for (int32_t j = 0; j < n; ++j) { /* inverse binds in metres: translations scaled */
        float *b = st->ibm + 16 * (size_t)j;
        memcpy(b, e->inverse_bind + 16 * (size_t)j, sizeof(float) * 16);
        b[12] *= unit, b[13] *= unit, b[14] *= unit;
    }
    ak_skin_palette(w, st->ibm, n, st->palette);
    for (int32_t j = 0; j < n; ++j) {
        const ak_skin_joint *s = &st->palette[j];
        float *t = st->texels + 4 * PALETTE_TEXELS * (size_t)j;
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 4; ++col)
                t[4 * row + col] = s->columns[col][row];
        memcpy(t + 12, &s->real, sizeof(float) * 4);
        memcpy(t + 16, &s->dual, sizeof(float) * 4);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, e->tex);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, PALETTE_TEXELS, n, GL_RGBA, GL_FLOAT, st->texels);
}

static void set_common_uniforms(const skin_state *st, const akr_frame *f, int method, float unit)
{
    static const float k_light[3] = {0.35f, 1.0f, 0.45f}, k_fog_color[3] = {0.80f, 0.84f, 0.89f};
    glUseProgram(st->program);
    glUniform1i(st->u_palette, 0);
    glUniform1i(st->u_method, method);
    glUniform1f(st->u_unit, unit);
    glUniformMatrix4fv(st->u_vp, 1, GL_FALSE, f->vp);
    glUniform3fv(st->u_light, 1, k_light);
    glUniform3f(st->u_eye, f->eye.x, f->eye.y, f->eye.z);
    glUniform2fv(st->u_fog, 1, f->fog);
    glUniform3fv(st->u_fog_color, 1, k_fog_color);
    glUniform1f(st->u_contour, 0.0f);
}

/* The bones as thin dark lines drawn over the body (no depth test). */
static void draw_bone_lines(akr_renderer *r, const ak_skeleton *s, const ak_xform *w,
                            const float rgb[3])
{
    float v[2 * 7 * 64];
    int count = 0;
    for (int32_t j = 0; j < s->joint_count; ++j) {
        const int32_t p = s->parents[j];
        if (p < 0) continue;
        const ak_vec3 a = w[p].translation, b = w[j].translation;
        const float line[14] = {
            a.x, a.y, a.z, rgb[0] * 0.35f, rgb[1] * 0.35f, rgb[2] * 0.35f, 0.9f,
            b.x, b.y, b.z, rgb[0] * 0.35f, rgb[1] * 0.35f, rgb[2] * 0.35f, 0.9f};
        memcpy(v + 7 * count, line, sizeof line);
        count += 2;
        if (count == 128) akr_draw_lines(r, v, count, 0), count = 0;
    }
    if (count) akr_draw_lines(r, v, count, 0);
}

/* Draws the skinned body; 0 when this rig or this GL has none (the caller draws bones). */
static int draw_body(akr_renderer *r, const ak_skeleton *s, const ak_xform *w,
                     const ak_body_mesh *own, const float rgb[3], int method)
{
    skin_state *st = get_state(r);
    if (!st || !reserve(st, (size_t)s->joint_count)) return 0;
    skin_entry *e = find_entry(st, s, own);
    if (e->failed) return 0;
    const float unit = pose_scale(s, w);
    upload_palette(st, e, w, unit);
    akr_frame f;
    akr_frame_info(r, &f);
    set_common_uniforms(st, &f, method, unit);
    static const float k_identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const float colour[4] = {rgb[0], rgb[1], rgb[2], 1.0f};
    glUniformMatrix4fv(st->u_post, 1, GL_FALSE, k_identity);
    glUniform4fv(st->u_color, 1, colour);
    glUniform1i(st->u_flat, 0);
    glBindVertexArray(e->vao);
    glDrawElements(GL_TRIANGLES, e->index_count, GL_UNSIGNED_INT, 0);
    if (f.shadows) {
        static const float shade[4] = {0.05f, 0.07f, 0.12f, 0.30f};
        glUniformMatrix4fv(st->u_post, 1, GL_FALSE, f.shadow);
        glUniform4fv(st->u_color, 1, shade);
        glUniform1i(st->u_flat, 2);
        akr_shadow_begin();
        glDrawElements(GL_TRIANGLES, e->index_count, GL_UNSIGNED_INT, 0);
        akr_shadow_end();
    }
    glBindVertexArray(0);
    return 1;
}

void akr_draw_character(akr_renderer *r, const ak_skeleton *s, const ak_xform *world_m,
                        float radius, const float rgb[3], const akr_look *look)
{
    akr_draw_character_mesh(r, s, world_m, NULL, radius, rgb, look);
}

void akr_draw_character_mesh(akr_renderer *r, const ak_skeleton *s, const ak_xform *world_m,
                             const ak_body_mesh *mesh, float radius, const float rgb[3],
                             const akr_look *look)
{
    const akr_look defaults = akr_look_defaults();
    if (!look) look = &defaults;
    if (look->body && draw_body(r, s, world_m, mesh, rgb, look->skinning)) {
        if (look->bones) draw_bone_lines(r, s, world_m, rgb);
        return;
    }
    akr_draw_skeleton(r, s, world_m, radius, rgb);
}

akr_look akr_look_defaults(void)
{
    akr_look l;
    l.body = 1;
    l.skinning = AK_SKIN_DUAL_QUAT;
    l.bones = 0;
    return l;
}
