/* Ground queries and the built-in heightfield terrain (flat, hills, stairs, PGM heightmaps). */
#include "animkit/ground.h"
#include "core/xform_inline.h"
#include "io/file.h"
#include "locomotion/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ak_terrain {
    int32_t kind;
    ak_terrain_params params;
    float size, half;
    /* grid kinds: width x depth heights, row-major (row = z index) */
    int32_t width, depth;
    float dx, dz;
    /* 1/dx and 1/dz where both are exact (dx and dz powers of two, as every built-in grid's
     * cell is): then x * inv_dx is x / dx to the bit, without a division's latency (grid
     * queries were a third of the walker's divisions); 0 otherwise (a heightmap's step). */
    float inv_dx, inv_dz;
    float *heights;
    float min_h, max_h;
};

ak_terrain_params ak_terrain_defaults(void)
{
    ak_terrain_params p;
    memset(&p, 0, sizeof p);
    p.kind = AK_TERRAIN_HILLS;
    p.seed = 1;
    p.size = 40.0f;
    p.base_height = 0.0f;
    p.cell = 0.25f;
    p.max_slope = 18.0f * AK_PI / 180.0f;
    p.wavelength = 12.0f;
    p.step_height = 0.15f;
    p.step_depth = 0.5f;
    p.step_count = 5;
    p.stairs_start_x = -3.0f;
    p.landing = 1.5f;
    return p;
}

int32_t ak_terrain_validate(const ak_terrain_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null terrain params");
    if (p->kind < AK_TERRAIN_FLAT || p->kind > AK_TERRAIN_STAIRS)
        return ak_error_set(
            err, AK_ERR_INVALID_ARG, 0,
            "terrain kind must be flat, hills or stairs (heightmaps: ak_terrain_load_pgm)");
    if (!(p->size > 0.0f) || !(p->size <= 100000.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "terrain size must be in (0, 1e5] m");
    if (!isfinite(p->base_height))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "base height not finite");
    if (p->kind == AK_TERRAIN_HILLS) {
        if (!(p->cell >= 0.01f) || p->size / p->cell > 8192.0f)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "hills cell must be >= 0.01 m and size/cell <= 8192");
        if (!(p->max_slope > 0.0f) || !(p->max_slope <= 60.0f * AK_PI / 180.0f))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "max slope must be in (0, 1.0472] radians (60 degrees)");
        if (!(p->wavelength >= 4.0f * p->cell) || !isfinite(p->wavelength))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "wavelength must be at least 4 cells");
    }
    if (p->kind == AK_TERRAIN_STAIRS) {
        if (!(p->step_height > 0.0f) || !(p->step_height <= 0.5f))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "step height must be in (0, 0.5] m");
        if (!(p->step_depth > 0.05f) || !isfinite(p->step_depth))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "step depth must be > 0.05 m");
        if (p->step_count < 1 || p->step_count > 1000)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "step count must be in [1, 1000]");
        if (!(p->landing >= 0.0f) || !isfinite(p->landing) || !isfinite(p->stairs_start_x))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "landing must be >= 0 and finite");
    }
    return ak_params_check(ak_terrain_param_ranges(), p, err);
}

/* A small deterministic generator (PCG-style LCG + xorshift output) for the seeded hills. */
static float rng_next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t x = (uint32_t)(((*state >> 18u) ^ *state) >> 27u);
    uint32_t rot = (uint32_t)(*state >> 59u);
    x = (x >> rot) | (x << ((32u - rot) & 31u));
    return (float)(x >> 8) * (1.0f / 16777216.0f);
}

/* Whether 1/v is exact: v a power of two (a normal float whose reciprocal is normal too). */
static int exact_inverse(float v)
{
    int e;
    return v > 0.0f && frexpf(v, &e) == 0.5f && isnormal(1.0f / v);
}

/* The grid's extremes, and its steps' reciprocals where exact (ak_terrain.inv_dx). */
static void grid_range(ak_terrain *t)
{
    const int exact = exact_inverse(t->dx) && exact_inverse(t->dz);
    t->inv_dx = exact ? 1.0f / t->dx : 0.0f;
    t->inv_dz = exact ? 1.0f / t->dz : 0.0f;
    const int64_t n = (int64_t)t->width * t->depth;
    t->min_h = t->max_h = t->heights[0];
    for (int64_t i = 1; i < n; ++i) {
        if (t->heights[i] < t->min_h) t->min_h = t->heights[i];
        if (t->heights[i] > t->max_h) t->max_h = t->heights[i];
    }
}

/* The bilinear cell gradient (dh/dx, dh/dz) bounds: inside a cell |grad|^2 can reach
 * gx^2 + gz^2 of edge differences, so the slope limit is applied to that combination. */
static float grid_max_cell_gradient(const ak_terrain *t)
{
    float g = 0.0f;
    for (int32_t r = 0; r + 1 < t->depth; ++r)
        for (int32_t c = 0; c + 1 < t->width; ++c) {
            const float *row0 = t->heights + (size_t)r * t->width + c;
            const float *row1 = row0 + t->width;
            float gx0 = fabsf(row0[1] - row0[0]) / t->dx, gx1 = fabsf(row1[1] - row1[0]) / t->dx;
            float gz0 = fabsf(row1[0] - row0[0]) / t->dz, gz1 = fabsf(row1[1] - row0[1]) / t->dz;
            float gx = gx0 > gx1 ? gx0 : gx1, gz = gz0 > gz1 ? gz0 : gz1;
            float m = sqrtf(gx * gx + gz * gz);
            if (m > g) g = m;
        }
    return g;
}

static int32_t make_hills(ak_terrain *t, ak_error *err)
{
    const ak_terrain_params *p = &t->params;
    const int32_t n = (int32_t)ceilf(p->size / p->cell) + 1;
    t->width = t->depth = n;
    t->dx = t->dz = p->size / (float)(n - 1);
    t->heights = (float *)malloc(sizeof(float) * (size_t)n * (size_t)n);
    if (!t->heights) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    enum { WAVES = 8 };
    float kx[WAVES], kz[WAVES], amp[WAVES], phase[WAVES];
    uint64_t s = 0x853c49e6748fea9bull ^ ((uint64_t)p->seed * 0x9e3779b97f4a7c15ull);
    (void)rng_next(&s);
    for (int i = 0; i < WAVES; ++i) {
        const float dir = rng_next(&s) * 2.0f * AK_PI;
        const float wl = p->wavelength * (0.5f + 1.2f * rng_next(&s));
        kx[i] = cosf(dir) * 2.0f * AK_PI / wl;
        kz[i] = sinf(dir) * 2.0f * AK_PI / wl;
        amp[i] = wl * (0.5f + rng_next(&s));
        phase[i] = rng_next(&s) * 2.0f * AK_PI;
    }
    for (int32_t r = 0; r < n; ++r) {
        const float z = -t->half + (float)r * t->dz;
        for (int32_t c = 0; c < n; ++c) {
            const float x = -t->half + (float)c * t->dx;
            float h = 0.0f;
            for (int i = 0; i < WAVES; ++i)
                h += amp[i] * sinf(kx[i] * x + kz[i] * z + phase[i]);
            t->heights[(size_t)r * n + c] = h;
        }
    }
    /* Scale so the steepest bilinear slope is exactly max_slope, then put the centre at
     * base_height. */
    const float g = grid_max_cell_gradient(t);
    const float want = tanf(p->max_slope);
    const float k = g > 0.0f ? want / g : 0.0f;
    const float centre = t->heights[(size_t)(n / 2) * n + n / 2] * k;
    for (size_t i = 0; i < (size_t)n * (size_t)n; ++i)
        t->heights[i] = t->heights[i] * k - centre + p->base_height;
    grid_range(t);
    return AK_OK;
}

int32_t ak_terrain_create(const ak_terrain_params *params, ak_terrain **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    int32_t st = ak_terrain_validate(params, err);
    if (st != AK_OK) return st;
    ak_terrain *t = (ak_terrain *)calloc(1, sizeof *t);
    if (!t) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    t->kind = params->kind;
    t->params = *params;
    t->size = params->size;
    t->half = params->size * 0.5f;
    t->min_h = t->max_h = params->base_height;
    if (t->kind == AK_TERRAIN_HILLS) {
        st = make_hills(t, err);
        if (st != AK_OK) {
            ak_terrain_destroy(t);
            return st;
        }
    } else if (t->kind == AK_TERRAIN_STAIRS) {
        t->max_h = params->base_height + params->step_height * (float)params->step_count;
    }
    *out = t;
    return AK_OK;
}

int32_t ak_terrain_create_grid(const float *heights, int32_t width, int32_t depth, float size,
                               ak_terrain **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!out || !heights) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (width < 2 || depth < 2 || width > 32768 || depth > 32768)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "heightmap must be 2..32768 samples on each side");
    if (!(size > 0.0f) || !isfinite(size))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "heightmap size must be positive");
    const size_t n = (size_t)width * (size_t)depth;
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(heights[i]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "heightmap value not finite");
    ak_terrain *t = (ak_terrain *)calloc(1, sizeof *t);
    if (!t) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    t->heights = (float *)malloc(sizeof(float) * n);
    if (!t->heights) {
        free(t);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    memcpy(t->heights, heights, sizeof(float) * n);
    t->kind = AK_TERRAIN_HEIGHTMAP;
    t->params = ak_terrain_defaults();
    t->params.kind = AK_TERRAIN_HEIGHTMAP;
    t->params.size = size;
    t->size = size;
    t->half = size * 0.5f;
    t->width = width;
    t->depth = depth;
    t->dx = size / (float)(width - 1);
    t->dz = size / (float)(depth - 1);
    grid_range(t);
    *out = t;
    return AK_OK;
}

void ak_terrain_destroy(ak_terrain *t)
{
    if (!t) return;
    free(t->heights);
    free(t);
}

/* ---- PGM ---- */

typedef struct pgm_reader {
    const unsigned char *p, *end;
    int32_t line;
} pgm_reader;

/* Skips whitespace and '#' comments (to end of line), counting lines. */
static void pgm_skip(pgm_reader *r)
{
    while (r->p < r->end) {
        if (*r->p == '#') {
            while (r->p < r->end && *r->p != '\n')
                ++r->p;
        } else if (isspace(*r->p)) {
            if (*r->p == '\n') ++r->line;
            ++r->p;
        } else {
            break;
        }
    }
}

static int pgm_uint(pgm_reader *r, uint32_t *v)
{
    pgm_skip(r);
    if (r->p >= r->end || !isdigit(*r->p)) return -1;
    uint64_t x = 0;
    while (r->p < r->end && isdigit(*r->p)) {
        x = x * 10u + (uint64_t)(*r->p - '0');
        if (x > 0xffffffffull) return -1;
        ++r->p;
    }
    *v = (uint32_t)x;
    return 0;
}

int32_t ak_terrain_read_pgm_memory(const char *data, size_t bytes, float size, float height,
                                   ak_terrain **out, ak_error *err)
{
    if (out) *out = NULL;
    if (!data || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    if (!(size > 0.0f) || !isfinite(size) || !isfinite(height))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "--size must be positive and --height finite");
    pgm_reader r = {(const unsigned char *)data, (const unsigned char *)data + bytes, 1};
    if (bytes < 2 || r.p[0] != 'P' || (r.p[1] != '2' && r.p[1] != '5'))
        return ak_error_set(err, AK_ERR_PARSE, 1, "not a PGM file (expected P2 or P5)");
    const int binary = r.p[1] == '5';
    r.p += 2;
    uint32_t w, h, maxval;
    if (pgm_uint(&r, &w) || pgm_uint(&r, &h) || pgm_uint(&r, &maxval))
        return ak_error_set(err, AK_ERR_PARSE, r.line, "bad PGM header (width height maxval)");
    if (w < 2 || h < 2 || w > 32768 || h > 32768)
        return ak_error_set(err, AK_ERR_LIMIT, r.line,
                            "PGM must be 2..32768 pixels on each side (got %ux%u)", (unsigned)w,
                            (unsigned)h);
    if (maxval < 1 || maxval > 65535)
        return ak_error_set(err, AK_ERR_PARSE, r.line, "PGM maxval must be 1..65535");
    const size_t n = (size_t)w * (size_t)h;
    if (n > ((size_t)1 << 26))
        return ak_error_set(err, AK_ERR_LIMIT, r.line,
                            "PGM of %ux%u pixels is above the 64 Mpixel limit", (unsigned)w,
                            (unsigned)h);
    /* Before allocating: the rest of the input must be able to hold the raster (binary: n or
     * 2n bytes after one separator; ASCII: at least a digit per pixel), so a short file never
     * makes a large allocation. */
    const size_t left = (size_t)(r.end - r.p);
    const size_t need = binary ? n * (maxval < 256 ? 1u : 2u) + 1u : n;
    if (left < need)
        return ak_error_set(err, AK_ERR_PARSE, r.line,
                            "PGM raster truncated: %lu pixels need %lu bytes, %lu left",
                            (unsigned long)n, (unsigned long)need, (unsigned long)left);
    float *hs = (float *)malloc(sizeof(float) * n);
    if (!hs) return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    const float k = height / (float)maxval;
    int32_t st = AK_OK;
    if (binary) {
        /* Exactly one whitespace byte separates maxval from the raster. */
        if (r.p >= r.end || !isspace(*r.p)) {
            free(hs);
            return ak_error_set(err, AK_ERR_PARSE, r.line, "missing whitespace before PGM raster");
        }
        ++r.p;
        const size_t bpp = maxval < 256 ? 1 : 2;
        if ((size_t)(r.end - r.p) < n * bpp) {
            free(hs);
            return ak_error_set(err, AK_ERR_PARSE, r.line,
                                "PGM raster truncated (%lu of %lu bytes)",
                                (unsigned long)(r.end - r.p), (unsigned long)(n * bpp));
        }
        for (size_t i = 0; i < n; ++i) {
            uint32_t v = bpp == 1 ? r.p[i] : ((uint32_t)r.p[2 * i] << 8) | r.p[2 * i + 1];
            if (v > maxval) v = maxval;
            hs[i] = (float)v * k;
        }
    } else {
        for (size_t i = 0; i < n; ++i) {
            uint32_t v;
            if (pgm_uint(&r, &v)) {
                st = ak_error_set(err, AK_ERR_PARSE, r.line,
                                  "PGM pixel %lu of %lu missing or not a number",
                                  (unsigned long)(i + 1), (unsigned long)n);
                break;
            }
            if (v > maxval) {
                st = ak_error_set(err, AK_ERR_PARSE, r.line, "PGM pixel value %u above maxval %u",
                                  (unsigned)v, (unsigned)maxval);
                break;
            }
            hs[i] = (float)v * k;
        }
    }
    if (st == AK_OK) st = ak_terrain_create_grid(hs, (int32_t)w, (int32_t)h, size, out, err);
    free(hs);
    return st;
}

int32_t ak_terrain_load_pgm(const char *path, float size, float height, ak_terrain **out,
                            ak_error *err)
{
    if (out) *out = NULL;
    if (!path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null path");
    akio_read_params rp = akio_read_defaults();
    rp.max_bytes = (int64_t)1 << 30;
    char *buf = NULL;
    size_t got = 0;
    int32_t st = akio_read_file(path, &rp, &buf, &got, err);
    if (st) return st;
    st = ak_terrain_read_pgm_memory(buf, got, size, height, out, err);
    free(buf);
    return st;
}

/* ---- Queries ---- */

static int32_t no_hit(ak_ground_hit *out)
{
    out->hit = 0;
    out->height = 0.0f;
    out->normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
    return 0;
}

/* Bilinear height in the cell containing (x,z) and its exact gradient:
 * h = (1-u)(1-v)h00 + u(1-v)h10 + (1-u)v h01 + uv h11,
 * dh/dx = ((1-v)(h10-h00) + v(h11-h01))/dx, dh/dz = ((1-u)(h01-h00) + u(h11-h10))/dz,
 * normal = normalize(-dh/dx, 1, -dh/dz). */
/* floorf(f) as the cell index, inline: f is finite, >= 0 (x >= -half) and within a cell of
 * the grid (|x|, |z| <= half), far inside int32_t, where truncation toward zero is floorf
 * exactly. libm's floorf, called twice per query, was a fifth of every ground query (the
 * walker asks about ten a frame). */
static inline int32_t cell_floor(float f)
{
    return (int32_t)f;
}

static void grid_sample(const ak_terrain *t, float x, float z, ak_ground_hit *out)
{
    const int by_inverse = t->inv_dx > 0.0f; /* the divisions' bits (ak_terrain.inv_dx) */
    const float fx = by_inverse ? (x + t->half) * t->inv_dx : (x + t->half) / t->dx;
    const float fz = by_inverse ? (z + t->half) * t->inv_dz : (z + t->half) / t->dz;
    int32_t c = cell_floor(fx), r = cell_floor(fz);
    if (c > t->width - 2) c = t->width - 2;
    if (r > t->depth - 2) r = t->depth - 2;
    float u = fx - (float)c, v = fz - (float)r;
    u = u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
    v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    const float *row0 = t->heights + (size_t)r * t->width + c;
    const float *row1 = row0 + t->width;
    const float h00 = row0[0], h10 = row0[1], h01 = row1[0], h11 = row1[1];
    out->hit = 1;
    out->height = (1 - u) * (1 - v) * h00 + u * (1 - v) * h10 + (1 - u) * v * h01 + u * v * h11;
    const float ex = (1 - v) * (h10 - h00) + v * (h11 - h01);
    const float ez = (1 - u) * (h01 - h00) + u * (h11 - h10);
    const float gx = by_inverse ? ex * t->inv_dx : ex / t->dx;
    const float gz = by_inverse ? ez * t->inv_dz : ez / t->dz;
    const float inv = 1.0f / sqrtf(gx * gx + 1.0f + gz * gz);
    out->normal = akv_make(-gx * inv, inv, -gz * inv);
}

static float stairs_height(const ak_terrain_params *p, float x)
{
    const float rise_end = p->stairs_start_x + p->step_depth * (float)p->step_count;
    const float fall_start = rise_end + p->landing;
    int32_t n;
    if (x < p->stairs_start_x)
        n = 0;
    else if (x < rise_end)
        n = (int32_t)floorf((x - p->stairs_start_x) / p->step_depth) + 1;
    else if (x < fall_start)
        n = p->step_count;
    else
        n = p->step_count - 1 - (int32_t)floorf((x - fall_start) / p->step_depth);
    if (n < 0) n = 0;
    if (n > p->step_count) n = p->step_count;
    return p->base_height + p->step_height * (float)n;
}

int32_t ak_terrain_sample(const ak_terrain *t, float x, float z, ak_ground_hit *out)
{
    if (!out) return 0;
    if (!t || !(fabsf(x) <= t->half) || !(fabsf(z) <= t->half)) return no_hit(out);
    switch (t->kind) {
    case AK_TERRAIN_HILLS:
    case AK_TERRAIN_HEIGHTMAP: grid_sample(t, x, z, out); break;
    case AK_TERRAIN_STAIRS:
        out->hit = 1;
        out->height = stairs_height(&t->params, x);
        out->normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
        break;
    default:
        out->hit = 1;
        out->height = t->params.base_height;
        out->normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
        break;
    }
    return 1;
}

static int32_t terrain_height_cb(void *user, float x, float z, ak_ground_hit *out)
{
    return ak_terrain_sample((const ak_terrain *)user, x, z, out);
}

/* A downward ray hits the heightfield at its x,z when the surface lies within the ray's
 * span; other directions are not needed by animkit and report no hit. */
static int32_t terrain_ray_cb(void *user, const ak_ground_ray *ray, ak_ground_hit *out)
{
    if (!(ray->direction.y < -0.999f)) return no_hit(out);
    if (!ak_terrain_sample((const ak_terrain *)user, ray->origin.x, ray->origin.z, out)) return 0;
    if (out->height > ray->origin.y || out->height < ray->origin.y - ray->max_distance)
        return no_hit(out);
    return 1;
}

ak_ground ak_terrain_ground(const ak_terrain *t)
{
    ak_ground g;
    g.height_at = terrain_height_cb;
    g.raycast = terrain_ray_cb;
    g.user = (void *)(uintptr_t)t; /* the callbacks only read */
    return g;
}

void ak_terrain_info(const ak_terrain *t, int32_t *kind, float *size, float *min_h, float *max_h)
{
    if (!t) return;
    if (kind) *kind = t->kind;
    if (size) *size = t->size;
    if (min_h) *min_h = t->min_h;
    if (max_h) *max_h = t->max_h;
}

float ak_terrain_max_slope(const ak_terrain *t)
{
    if (!t || !t->heights) return 0.0f;
    return atanf(grid_max_cell_gradient(t));
}

/* ---- The abstract ground ---- */

int32_t ak_ground_query(const ak_ground *g, float x, float z, ak_ground_hit *out)
{
    if (!out) return 0;
    if (!g) return no_hit(out);
    if (g->height_at) return g->height_at(g->user, x, z, out) ? (out->hit = 1) : no_hit(out);
    if (g->raycast) {
        ak_ground_ray ray = {{x, 1.0e4f, z}, {0.0f, -1.0f, 0.0f}, 2.0e4f};
        return g->raycast(g->user, &ray, out) ? (out->hit = 1) : no_hit(out);
    }
    return no_hit(out);
}

int32_t ak_ground_cast(const ak_ground *g, const ak_ground_ray *ray, ak_ground_hit *out)
{
    if (!out) return 0;
    if (!g || !ray) return no_hit(out);
    if (g->raycast) return g->raycast(g->user, ray, out) ? (out->hit = 1) : no_hit(out);
    if (g->height_at && ray->direction.y < -0.999f) {
        if (!g->height_at(g->user, ray->origin.x, ray->origin.z, out)) return no_hit(out);
        if (out->height > ray->origin.y || out->height < ray->origin.y - ray->max_distance)
            return no_hit(out);
        return (out->hit = 1);
    }
    return no_hit(out);
}

ak_ground_ray ak_ground_ray_down(ak_vec3 p, float up, float down)
{
    return akg_ray_down(p, up, down);
}
