/* animkit — ground: what the feet and the character stand on.
 *
 * Three ways to give animkit the ground, all in world metres, Y up:
 *  1. ak_ground: a query struct (function pointers + user data). Given x,z it answers hit,
 *     height and unit surface normal; or it casts a downward ray. Any C program can wrap its
 *     own collision world in one.
 *  2. ak_terrain: a built-in heightfield (flat, seeded procedural hills, stairs, or a PGM
 *     heightmap) with bilinear heights and normals that are the exact gradient of that
 *     bilinear surface. ak_terrain_ground() wraps it as an ak_ground.
 *  3. The two-phase form for engines: a step lists the rays it needs (ak_ground_ray), the
 *     engine casts them with its own physics (e.g. Unity's Physics.Raycast) and hands the
 *     hits back (ak_ground_hit) — no callback crosses a plugin boundary per ray. See
 *     ak_walker_ground_rays / ak_walker_finish in walker.h. */
#ifndef ANIMKIT_GROUND_H
#define ANIMKIT_GROUND_H

#include "ak_math.h"
#include "status.h"

AK_EXTERN_C_BEGIN

/* A ray to cast, world space. `direction` is unit length (the library asks for (0,-1,0)). */
typedef struct ak_ground_ray {
    ak_vec3 origin;
    ak_vec3 direction;
    float max_distance; /* metres along direction; > 0 */
} ak_ground_ray;

/* The answer of a ground query or ray cast, world space. */
typedef struct ak_ground_hit {
    int32_t hit;    /* 1 when there is ground, 0 when none (then the other fields are unused) */
    float height;   /* Y of the surface at the query x,z (for a ray: of the hit point) */
    ak_vec3 normal; /* unit surface normal, pointing up (normal.y > 0) */
} ak_ground_hit;

/* Height and normal at (x,z). Writes *out and returns out->hit. */
typedef int32_t (*ak_ground_height_fn)(void *user, float x, float z, ak_ground_hit *out);
/* Casts `ray`; writes *out (height = hit point's Y) and returns out->hit. */
typedef int32_t (*ak_ground_ray_fn)(void *user, const ak_ground_ray *ray, ak_ground_hit *out);

/* An abstract ground. Set at least one of the two functions. Plain data: copy it freely. */
typedef struct ak_ground {
    ak_ground_height_fn height_at; /* may be NULL when raycast is set */
    ak_ground_ray_fn raycast;      /* may be NULL when height_at is set */
    void *user;                    /* passed back to the functions */
} ak_ground;

/* Height and normal at (x,z): height_at when set, else a downward ray from y = 1e4.
 * Returns out->hit (0 with a NULL/empty ground). */
AK_API int32_t ak_ground_query(const ak_ground *ground, float x, float z, ak_ground_hit *out);
/* Casts a ray: raycast when set; else, for a downward ray, height_at at the ray's x,z with
 * the hit kept only when the surface lies within [origin.y - max_distance, origin.y].
 * Returns out->hit. */
AK_API int32_t ak_ground_cast(const ak_ground *ground, const ak_ground_ray *ray,
                              ak_ground_hit *out);
/* The downward ray animkit asks for above point p: origin p + (0, up, 0), length up + down. */
AK_API ak_ground_ray ak_ground_ray_down(ak_vec3 p, float up, float down);

/* ---- The built-in heightfield terrain ---- */

typedef enum ak_terrain_kind {
    AK_TERRAIN_FLAT = 0,   /* y = base_height everywhere inside the extent */
    AK_TERRAIN_HILLS = 1,  /* seeded sum of sines on a grid, scaled so no slope exceeds max_slope */
    AK_TERRAIN_STAIRS = 2, /* exact steps along +x: up step_count steps, a landing, down again */
    AK_TERRAIN_HEIGHTMAP = 3 /* a grid of given heights (ak_terrain_create_grid / PGM) */
} ak_terrain_kind;

typedef struct ak_terrain_params {
    int32_t kind;         /* ak_terrain_kind; default AK_TERRAIN_HILLS */
    uint32_t seed;        /* hills: random seed; default 1 */
    float size;           /* side of the square extent, metres, centred on the origin; default 40.
                             Outside [-size/2, size/2] in x or z there is no ground. */
    float base_height;    /* metres; default 0 */
    float cell;           /* hills: grid spacing, metres; default 0.25 */
    float max_slope;      /* hills: steepest slope of the grid, radians, (0, pi/3]; default
                             0.1 pi (18 deg) */
    float wavelength;     /* hills: typical hill wavelength, metres; default 12 */
    float step_height;    /* stairs: riser height, metres, (0, 0.5]; default 0.15 */
    float step_depth;     /* stairs: tread depth, metres; default 0.5 */
    int32_t step_count;   /* stairs: steps up (and down again); default 5 */
    float stairs_start_x; /* stairs: x of the first riser; default -3 */
    float landing;        /* stairs: length of the top landing, metres; default 1.5 */
} ak_terrain_params;

typedef struct ak_terrain ak_terrain; /* opaque */

AK_API ak_terrain_params ak_terrain_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the reason in err. */
AK_API int32_t ak_terrain_validate(const ak_terrain_params *params, ak_error *err);
/* The ranges of its float fields (status.h), checked by ak_terrain_validate. */
AK_API const ak_param_table *ak_terrain_param_ranges(void);
/* Builds a terrain (validates first). The caller destroys it. */
AK_API int32_t ak_terrain_create(const ak_terrain_params *params, ak_terrain **out, ak_error *err);
/* A heightmap terrain from `width` x `depth` heights in metres, row-major, row r at
 * z = -size/2 + r*size/(depth-1), column c at x = -size/2 + c*size/(width-1); bilinear between.
 * width, depth >= 2. */
AK_API int32_t ak_terrain_create_grid(const float *heights, int32_t width, int32_t depth,
                                      float size, ak_terrain **out, ak_error *err);
/* Reads a PGM heightmap (P2 ASCII or P5 binary, maxval up to 65535) of W x H pixels:
 * pixel (column c, row r) with value v becomes height v/maxval*height at
 * x = -size/2 + c*size/(W-1), z = -size/2 + r*size/(H-1); heights between pixel centres are
 * bilinear. Parse errors carry a line number. */
AK_API int32_t ak_terrain_load_pgm(const char *path, float size, float height, ak_terrain **out,
                                   ak_error *err);
AK_API int32_t ak_terrain_read_pgm_memory(const char *data, size_t bytes, float size, float height,
                                          ak_terrain **out, ak_error *err);
AK_API void ak_terrain_destroy(ak_terrain *terrain);

/* Height and normal at (x,z). Returns out->hit (0 outside the extent). No allocation. */
AK_API int32_t ak_terrain_sample(const ak_terrain *terrain, float x, float z, ak_ground_hit *out);
/* The terrain as an abstract ground (height_at and raycast both set). The terrain must
 * outlive the returned struct. */
AK_API ak_ground ak_terrain_ground(const ak_terrain *terrain);
/* Kind, extent (side length) and height range; any pointer may be NULL. */
AK_API void ak_terrain_info(const ak_terrain *terrain, int32_t *kind, float *size,
                            float *min_height, float *max_height);
/* Steepest slope in radians of a grid terrain (hills, heightmaps): an upper bound over every
 * bilinear cell. Flat and stairs report 0 (their treads are level; risers are steps, whose
 * height is in the params). */
AK_API float ak_terrain_max_slope(const ak_terrain *terrain);

AK_EXTERN_C_END

#endif
