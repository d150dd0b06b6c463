/* animkit viewer — headless OpenGL: EGL surfaceless (Mesa) or a hidden GLFW window, plus an
 * MSAA framebuffer resolved into a plain one for glReadPixels. */
#include "offscreen.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct akv_offscreen {
    int w, h;
    EGLDisplay egl_display;
    EGLContext egl_context;
    GLFWwindow *window;
    GLuint msaa_fbo, msaa_color, msaa_depth;
    GLuint fbo, color;
    char description[160];
};

static int create_egl(akv_offscreen *o, char *err, size_t err_size)
{
    EGLDisplay d = EGL_NO_DISPLAY;
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
        d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d == EGL_NO_DISPLAY) d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (d == EGL_NO_DISPLAY) {
        snprintf(err, err_size, "EGL: no display");
        return -1;
    }
    EGLint major, minor;
    if (!eglInitialize(d, &major, &minor)) {
        snprintf(err, err_size, "EGL: eglInitialize failed (0x%x)", (unsigned)eglGetError());
        return -1;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(err, err_size, "EGL: no desktop OpenGL");
        eglTerminate(d);
        return -1;
    }
    EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                         EGL_NONE};
    EGLConfig cfg = NULL;
    EGLint n = 0;
    eglChooseConfig(d, cfg_attr, &cfg, 1, &n);
    EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION,
                         3,
                         EGL_CONTEXT_MINOR_VERSION,
                         3,
                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                         EGL_NONE};
    EGLContext c = eglCreateContext(d, n > 0 ? cfg : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
    if (c == EGL_NO_CONTEXT) {
        snprintf(err, err_size, "EGL: no OpenGL 3.3 core context (0x%x)", (unsigned)eglGetError());
        eglTerminate(d);
        return -1;
    }
    /* Surfaceless: we draw into our own framebuffer object only. */
    if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        snprintf(err, err_size, "EGL: cannot make the context current without a surface (0x%x)",
                 (unsigned)eglGetError());
        eglDestroyContext(d, c);
        eglTerminate(d);
        return -1;
    }
    o->egl_display = d;
    o->egl_context = c;
    snprintf(o->description, sizeof o->description, "EGL %d.%d surfaceless, %s", (int)major,
             (int)minor, (const char *)glGetString(GL_RENDERER));
    return 0;
}

static int create_glfw(akv_offscreen *o, char *err, size_t err_size)
{
    if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
        snprintf(err, err_size, "no $DISPLAY for a hidden GLFW window");
        return -1;
    }
    if (!glfwInit()) {
        snprintf(err, err_size, "GLFW: cannot initialise");
        return -1;
    }
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    o->window = glfwCreateWindow(64, 64, "animkit headless", NULL, NULL);
    if (!o->window) {
        snprintf(err, err_size, "GLFW: no OpenGL 3.3 core window");
        glfwTerminate();
        return -1;
    }
    glfwMakeContextCurrent(o->window);
    snprintf(o->description, sizeof o->description, "GLFW hidden window, %s",
             (const char *)glGetString(GL_RENDERER));
    return 0;
}

akv_offscreen *akv_offscreen_create(int w, int h, char *err, size_t err_size)
{
    akv_offscreen *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    o->w = w;
    o->h = h;
    const char *force = getenv("AK_GL");
    char egl_err[256] = "", glfw_err[256] = "";
    int ok = -1;
    if (!force || strcmp(force, "glfw") != 0) ok = create_egl(o, egl_err, sizeof egl_err);
    if (ok != 0 && (!force || strcmp(force, "egl") != 0))
        ok = create_glfw(o, glfw_err, sizeof glfw_err);
    if (ok != 0) {
        snprintf(err, err_size, "no OpenGL context: %s%s%s", egl_err,
                 *egl_err && *glfw_err ? "; " : "", glfw_err);
        free(o);
        return NULL;
    }
    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    GLsizei samples = max_samples >= 4 ? 4 : max_samples;
    glGenFramebuffers(1, &o->msaa_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, o->msaa_fbo);
    glGenRenderbuffers(1, &o->msaa_color);
    glBindRenderbuffer(GL_RENDERBUFFER, o->msaa_color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->msaa_color);
    glGenRenderbuffers(1, &o->msaa_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, o->msaa_depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                              o->msaa_depth);
    GLenum st1 = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glGenFramebuffers(1, &o->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, o->fbo);
    glGenRenderbuffers(1, &o->color);
    glBindRenderbuffer(GL_RENDERBUFFER, o->color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->color);
    GLenum st2 = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st1 != GL_FRAMEBUFFER_COMPLETE || st2 != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, err_size, "framebuffer incomplete (0x%x, 0x%x)", (unsigned)st1,
                 (unsigned)st2);
        akv_offscreen_destroy(o);
        return NULL;
    }
    akv_offscreen_bind(o);
    return o;
}

void akv_offscreen_bind(akv_offscreen *o)
{
    glBindFramebuffer(GL_FRAMEBUFFER, o->msaa_fbo);
}

void akv_offscreen_read(akv_offscreen *o, uint8_t *rgb)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, o->msaa_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, o->fbo);
    glBlitFramebuffer(0, 0, o->w, o->h, 0, 0, o->w, o->h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, o->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    size_t row = (size_t)o->w * 3;
    /* One read, then flip: GL's first row is the bottom one. */
    glReadPixels(0, 0, o->w, o->h, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    uint8_t tmp[3 * 4096];
    for (int y = 0; y < o->h / 2; ++y) {
        uint8_t *a = rgb + (size_t)y * row, *b = rgb + (size_t)(o->h - 1 - y) * row;
        for (size_t x = 0; x < row; x += sizeof tmp) {
            size_t n = row - x < sizeof tmp ? row - x : sizeof tmp;
            memcpy(tmp, a + x, n);
            memcpy(a + x, b + x, n);
            memcpy(b + x, tmp, n);
        }
    }
    akv_offscreen_bind(o);
}

const char *akv_offscreen_describe(const akv_offscreen *o)
{
    return o->description;
}

void akv_offscreen_destroy(akv_offscreen *o)
{
    if (!o) return;
    if (o->msaa_fbo) glDeleteFramebuffers(1, &o->msaa_fbo);
    if (o->fbo) glDeleteFramebuffers(1, &o->fbo);
    if (o->msaa_color) glDeleteRenderbuffers(1, &o->msaa_color);
    if (o->msaa_depth) glDeleteRenderbuffers(1, &o->msaa_depth);
    if (o->color) glDeleteRenderbuffers(1, &o->color);
    if (o->egl_context) {
        eglMakeCurrent(o->egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(o->egl_display, o->egl_context);
        eglTerminate(o->egl_display);
    }
    if (o->window) {
        glfwDestroyWindow(o->window);
        glfwTerminate();
    }
    free(o);
}
