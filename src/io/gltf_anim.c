/* glTF 2.0 / GLB animation clips: one animation of a file resampled into animkit's clip
 * (frame-major keys at a fixed rate) on the skeleton of a skin or of a node tree. */
#include "io/gltf_anim_internal.h"

#include "animkit/bvh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim/reach.h"
#include "core/xform_inline.h"

#define GA_MAX_JOINTS 1024

ak_gltf_clip_params ak_gltf_clip_defaults(void)
{
    ak_gltf_clip_params p;
    memset(&p, 0, sizeof p);
    p.animation = 0;
    p.animation_name = NULL;
    p.skin = -1;
    p.fps = 0.0f;
    p.max_fps = 120.0f;
    p.max_frames = 1000000;
    return p;
}

int32_t ak_gltf_clip_validate(const ak_gltf_clip_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null glTF clip params");
    if (p->animation < 0)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "animation index %d is negative",
                            (int)p->animation);
    if (p->skin < -2)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "skin %d: use -1 (automatic), -2 (node tree) or a skin index",
                            (int)p->skin);
    if (!(p->fps >= 0.0f && p->fps <= 1000.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "fps %g outside 0 (automatic)..1000",
                            (double)p->fps);
    if (!(p->max_fps >= 1.0f && p->max_fps <= 1000.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_fps %g outside 1..1000",
                            (double)p->max_fps);
    if (p->max_frames < 1)
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "max_frames %d must be >= 1",
                            (int)p->max_frames);
    /* The range table last, after the checks that say more (and their status). */
    return ak_params_check(ak_gltf_clip_param_ranges(), p, err);
}

/* The animation by name, else by index; none in the file: -1 (a one-frame rest clip). */
static int32_t pick_animation(ga_ctx *c)
{
    const int32_t n = c->d.animations.count;
    c->anim = -1;
    if (c->p->animation_name) {
        for (int32_t a = 0; a < n; ++a) {
            const char *nm =
                akj_string(&c->d.json, akj_get(&c->d.json, c->d.animations.v[a], "name"));
            if (nm && strcmp(nm, c->p->animation_name) == 0) {
                c->anim = a;
                return AK_OK;
            }
        }
        return akgd_fail(&c->d, AK_ERR_NOT_FOUND, 0,
                         "no animation named \"%.80s\" (%d in the "
                         "file)",
                         c->p->animation_name, (int)n);
    }
    if (n == 0 && c->p->animation == 0) return AK_OK;
    if (c->p->animation >= n)
        return akgd_fail(&c->d, AK_ERR_NOT_FOUND, 0, "no animation %d (the file has %d)",
                         (int)c->p->animation, (int)n);
    c->anim = c->p->animation;
    return AK_OK;
}

/* Marks node i and its ancestors (stops at the first marked one: linear overall). */
static void mark_up(const ga_ctx *c, uint8_t *want, int32_t i)
{
    for (int32_t guard = 0; i >= 0 && !want[i] && guard <= c->d.nodes.count; ++guard) {
        want[i] = 1;
        i = c->d.parent[i];
    }
}

/* The skin the animation moves most (-1: none moves any). */
static int32_t busiest_skin(ga_ctx *c, uint8_t *want)
{
    int32_t best = -1, best_count = 0;
    for (int32_t s = 0; s < c->d.skins.count; ++s) {
        if (!want) return akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
        memset(want, 0, (size_t)c->d.nodes.count);
        const int32_t joints = akj_get(&c->d.json, c->d.skins.v[s], "joints");
        for (int32_t e = joints >= 0 ? c->d.json.v[joints].first : -1; e >= 0;
             e = c->d.json.v[e].next) {
            const double x = akj_number(&c->d.json, e, -1);
            if (x >= 0 && x < c->d.nodes.count) want[(int32_t)x] = 1;
        }
        int32_t count = 0;
        for (int32_t i = 0; i < c->ch_count; ++i)
            count += want[c->ch[i].node];
        if (count > best_count) best = s, best_count = count;
    }
    return best;
}

/* Nodes of the skeleton: a skin's joints and their ancestors, or whole node trees (those
 * holding an animated node, or every tree when nothing is animated). */
static int32_t choose_nodes(ga_ctx *c, uint8_t *want)
{
    int32_t skin = c->p->skin;
    if (skin == -1) skin = busiest_skin(c, want);
    if (skin == -1 && c->d.skins.count > 0 && c->ch_count == 0) skin = 0;
    if (skin >= c->d.skins.count)
        return akgd_fail(&c->d, AK_ERR_NOT_FOUND, 0, "no skin %d (the file has %d)", (int)skin,
                         (int)c->d.skins.count);
    if (!want) return akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    memset(want, 0, (size_t)c->d.nodes.count);
    if (c->info) c->info->skin = skin >= 0 ? skin : -1;
    if (skin >= 0) {
        const int32_t sv = c->d.skins.v[skin];
        const int32_t joints = akj_get(&c->d.json, sv, "joints");
        if (akj_type(&c->d.json, joints) != AKJ_ARRAY || c->d.json.v[joints].count < 1)
            return akgd_fail(&c->d, AK_ERR_INVALID_ARG, sv, "skins[%d] has no joints", (int)skin);
        for (int32_t e = c->d.json.v[joints].first; e >= 0; e = c->d.json.v[e].next) {
            const double x = akj_number(&c->d.json, e, -1);
            if (!(x >= 0 && x < c->d.nodes.count && x == floor(x)))
                return akgd_fail(&c->d, AK_ERR_INVALID_ARG, e,
                                 "skins[%d].joints names node %g, outside 0..%d", (int)skin, x,
                                 (int)c->d.nodes.count - 1);
            mark_up(c, want, (int32_t)x);
        }
        return AK_OK;
    }
    for (int32_t i = 0; i < c->ch_count; ++i)
        mark_up(c, want, c->ch[i].node);
    for (int32_t i = 0; i < c->d.nodes.count; ++i) /* whole trees: roots marked above */
        if (c->d.parent[i] < 0 && (want[i] || c->ch_count == 0)) want[i] = 2;
    return AK_OK;
}

/* Depth-first order of the wanted nodes, children in file order (parents first). In tree
 * mode (want == 2 at a root) every descendant joins. */
static int32_t order_joints(ga_ctx *c, const uint8_t *want, int32_t *stack)
{
    const int32_t n = c->d.nodes.count;
    c->joints = 0;
    for (int32_t r = 0; r < n; ++r) {
        if (!want[r] || c->d.parent[r] >= 0) continue;
        const int whole = want[r] == 2;
        int32_t top = 0;
        stack[top++] = r;
        while (top > 0) {
            const int32_t i = stack[--top];
            if (c->joints == GA_MAX_JOINTS)
                return akgd_fail(&c->d, AK_ERR_LIMIT, 0, "more than %d joints", GA_MAX_JOINTS);
            c->node_joint[i] = c->joints;
            c->joint_node[c->joints++] = i;
            int32_t kids = 0;
            for (int32_t k = c->d.first_child[i]; k >= 0; k = c->d.next_sibling[k])
                kids += whole || want[k];
            top += kids; /* pushed in reverse so the first child pops first */
            int32_t at = top;
            for (int32_t k = c->d.first_child[i]; k >= 0; k = c->d.next_sibling[k])
                if (whole || want[k]) stack[--at] = k;
        }
    }
    if (c->joints < 1) return akgd_fail(&c->d, AK_ERR_NOT_FOUND, 0, "no nodes to make joints of");
    return AK_OK;
}

/* Per-joint arrays: parents, the nodes' own transforms, the channel of each path. */
static int32_t joint_tables(ga_ctx *c)
{
    const size_t j = (size_t)c->joints;
    c->parent = (int32_t *)malloc(sizeof(int32_t) * j);
    c->base = (akgd_trs *)calloc(j ? j : 1, sizeof(akgd_trs));
    c->chan_of = (int32_t *)malloc(sizeof(int32_t) * j * 3);
    c->world = (double(*)[16])malloc(sizeof(double[16]) * j);
    if (!c->parent || !c->base || !c->chan_of || !c->world)
        return akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    for (int32_t k = 0; k < c->joints; ++k) {
        const int32_t node = c->joint_node[k], p = c->d.parent[node];
        c->parent[k] = p >= 0 ? c->node_joint[p] : -1;
        c->chan_of[k * 3] = c->chan_of[k * 3 + 1] = c->chan_of[k * 3 + 2] = -1;
        const int32_t st = akgd_node_trs(&c->d, node, &c->base[k]);
        if (st < 0) return st;
    }
    for (int32_t i = 0; i < c->ch_count; ++i) {
        const int32_t nd = c->ch[i].node;
        const int32_t jt = nd >= 0 && nd < c->d.nodes.count ? c->node_joint[nd] : -1;
        if (jt < 0 || jt >= c->joints) {
            if (c->info) c->info->ignored_channels++;
            continue;
        }
        if (c->base[jt].has_matrix)
            return akgd_fail(&c->d, AK_ERR_INVALID_ARG, c->d.nodes.v[c->ch[i].node],
                             "nodes[%d] is animated but gives a matrix (the spec forbids it)",
                             (int)c->ch[i].node);
        c->chan_of[jt * 3 + c->ch[i].path] = i; /* a later channel on the same path wins */
        if (c->info) {
            c->info->channels++;
            c->info->scale_channels += c->ch[i].path == GA_S;
        }
    }
    return AK_OK;
}

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* 1 when every time lies on the grid of `fps` (within 2e-4 of a frame). */
static int on_grid(const float *t, int32_t n, double fps)
{
    for (int32_t i = 0; i < n; ++i) {
        const double f = (double)t[i] * fps;
        if (fabs(f - floor(f + 0.5)) > 2e-4) return 0;
    }
    return 1;
}

/* The frame rate from the key times: their own even spacing when they have one, else the
 * lowest common rate that holds every key, else the lowest common rate with a frame in every
 * key interval (capped at max_fps; keys then fall between frames). Rates under 30 fps are
 * raised to a multiple by choose_rate unless the keys fill a capture's grid (capture_grid). */
static double rate_from_times(const float *t, int32_t n, double max_fps, int *exact)
{
    static const double rates[] = {24, 25, 30, 48, 50, 60, 72, 90, 100, 120, 144, 240, 480, 1000};
    double gap = 0.0;
    *exact = 1;
    if (n <= 0) return max_fps < 30.0 ? max_fps : 30.0;
    for (int32_t i = 1; i < n; ++i)
        if (t[i] > t[i - 1] && (gap == 0.0 || (double)(t[i] - t[i - 1]) < gap))
            gap = (double)(t[i] - t[i - 1]);
    if (gap <= 0.0) return max_fps < 30.0 ? max_fps : 30.0;
    const double steps = floor((double)t[n - 1] / gap + 0.5);
    const double fps = steps / (double)t[n - 1];
    /* 1.001: a BVH's 0.008333 s is 120.005 fps, still "120" for a 120 fps cap */
    if (steps >= 1.0 && fps <= max_fps * 1.001 && on_grid(t, n, fps)) return fps;
    for (size_t r = 0; r < sizeof rates / sizeof rates[0] && rates[r] <= max_fps; ++r)
        if (on_grid(t, n, rates[r])) return rates[r];
    *exact = 0;
    for (size_t r = 0; r < sizeof rates / sizeof rates[0] && rates[r] <= max_fps; ++r)
        if (rates[r] * gap >= 1.0) return rates[r];
    return max_fps;
}

/* 1 when sorted key times t (all on the grid of fps: `exact`) are a capture's: fps is a
 * capture rate, at least 23.976 (NTSC film; 24 written as a BVH's 0.041667 s is 23.9998), and
 * every frame from 0 to the last key has a key. Such a clip keeps its rate: with a key on every
 * frame there is no curve between keys to sample. */
static int capture_grid(const float *t, int32_t n, double fps, int exact)
{
    if (!exact || fps < 23.97 || n <= 0) return 0;
    int32_t distinct = 1;
    for (int32_t i = 1; i < n; ++i)
        distinct += t[i] > t[i - 1];
    return (double)distinct == floor((double)t[n - 1] * fps + 2e-4) + 1.0;
}

static int same_times(const ga_channel *a, const ga_channel *b)
{
    return a->keys == b->keys && (a->times == b->times ||
                                  memcmp(a->times, b->times, sizeof(float) * (size_t)a->keys) == 0);
}

/* Joint channel i's key times when they are a list not yet taken: not those of the first
 * joint channel or of the joint channel before (exporters write one input for every channel,
 * or one per joint); other repeats are taken twice, which changes no rate (ties add no gap).
 * *first and *prev track those channels over calls with i = 0, 1, ... */
static const ga_channel *new_times(const ga_ctx *c, int32_t i, int32_t *first, int32_t *prev)
{
    const ga_channel *a = &c->ch[i];
    if (c->node_joint[a->node] < 0) return NULL;
    const int repeat = (*first >= 0 && same_times(&c->ch[*first], a)) ||
                       (*prev >= 0 && same_times(&c->ch[*prev], a));
    if (*first < 0) *first = i;
    *prev = i;
    return repeat ? NULL : a;
}

/* Frame rate and frame count from the key times of the channels that move joints. */
static int32_t choose_rate(ga_ctx *c)
{
    /* Channels mostly share their key times (one input accessor for every joint): each
     * distinct list once; a single list is already in order. */
    size_t total = 0;
    int32_t lists = 0, first = -1, prev = -1;
    for (int32_t i = 0; i < c->ch_count; ++i) {
        const ga_channel *ch = new_times(c, i, &first, &prev);
        if (ch) total += (size_t)ch->keys, ++lists;
    }
    float *t = (float *)calloc(total + 1, sizeof(float)); /* + 1: never a 0-byte block */
    if (!t) return akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    size_t n = 0;
    first = prev = -1;
    for (int32_t i = 0; i < c->ch_count; ++i) {
        const ga_channel *ch = new_times(c, i, &first, &prev);
        if (ch) memcpy(t + n, ch->times, sizeof(float) * (size_t)ch->keys), n += (size_t)ch->keys;
    }
    if (lists > 1) qsort(t, n, sizeof(float), cmp_float);
    int exact = 1;
    const double end = n > 0 ? (double)t[n - 1] : 0.0;
    double fps = c->p->fps > 0.0f ? (double)c->p->fps
                                  : rate_from_times(t, (int32_t)n, (double)c->p->max_fps, &exact);
    if (c->p->fps > 0.0f) exact = on_grid(t, (int32_t)n, fps);
    /* Sparse keys (2 per second...) get a multiple of their rate of at least 30 fps, so
     * curves between them (CUBICSPLINE, rotations) keep their shape; keys stay on frames. A 24
     * or 25 fps capture (a key on every frame) keeps its rate: doubling it only interpolated. */
    if (c->p->fps <= 0.0f && fabs(fps - floor(fps + 0.5)) < 1e-6 * fps)
        fps = floor(fps + 0.5); /* 9.99999985 from float key times is 10 */
    if (c->p->fps <= 0.0f && fps < 30.0 && !capture_grid(t, (int32_t)n, fps, exact) &&
        ceil(30.0 / fps - 1e-6) * fps <= (double)c->p->max_fps)
        fps *= ceil(30.0 / fps - 1e-6);
    free(t);
    double frames = floor(end * fps + 2e-4) + 1.0;
    if ((frames - 1.0) / fps < end - 1e-6) frames += 1.0;
    if (frames > (double)c->p->max_frames || frames * c->joints > 16.0 * 1024 * 1024)
        return akgd_fail(&c->d, AK_ERR_LIMIT, 0,
                         "%.0f frames at %.3f fps for %.3f s of %d joints (limits: "
                         "%d frames, 16M keys)",
                         frames, fps, end, (int)c->joints, (int)c->p->max_frames);
    c->fps = (float)fps;
    c->frames = (int32_t)frames;
    if (c->info) {
        c->info->fps = c->fps;
        c->info->keys_on_frames = exact;
        c->info->duration = (float)end;
    }
    return AK_OK;
}

/* Joint name: the node's name cut to AK_NAME_MAX - 1 bytes at a UTF-8 boundary, or
 * "node<N>" for a node without one. */
static void joint_name(ga_ctx *c, int32_t node, char *out)
{
    const char *nm = akj_string(&c->d.json, akj_get(&c->d.json, c->d.nodes.v[node], "name"));
    if (!nm || !*nm) {
        snprintf(out, AK_NAME_MAX, "node%d", (int)node);
        return;
    }
    size_t n = strlen(nm);
    if (n > AK_NAME_MAX - 1) {
        n = AK_NAME_MAX - 1;
        while (n > 0 && ((unsigned char)nm[n] & 0xC0) == 0x80) /* not inside a sequence */
            --n;
    }
    memcpy(out, nm, n);
    out[n] = '\0';
}

/* The model's size: the diagonal of the box around the rest joints (floor 1e-6). */
static double model_size(const ga_rigid *rest, int32_t n)
{
    double lo[3] = {rest[0].t[0], rest[0].t[1], rest[0].t[2]}, hi[3] = {lo[0], lo[1], lo[2]};
    for (int32_t j = 1; j < n; ++j)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], rest[j].t[k]);
            hi[k] = fmax(hi[k], rest[j].t[k]);
        }
    const double d = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                          (hi[2] - lo[2]) * (hi[2] - lo[2]));
    return d > 1e-6 ? d : 1e-6;
}

static ak_xform local_of(const ga_ctx *c, const ga_rigid *w, int32_t j)
{
    static const ga_rigid origin = {{0, 0, 0, 1}, {0, 0, 0}};
    return ga_local(c->parent[j] >= 0 ? &w[c->parent[j]] : &origin, &w[j]);
}

static int32_t build_skeleton(ga_ctx *c, const ga_rigid *rest, ak_skeleton **out)
{
    const size_t n = (size_t)c->joints;
    char(*names)[AK_NAME_MAX] = (char(*)[AK_NAME_MAX])calloc(n, AK_NAME_MAX);
    const char **name_ptr = (const char **)malloc(sizeof(char *) * n);
    ak_xform *local = (ak_xform *)malloc(sizeof(ak_xform) * n);
    ak_channel_layout *ch = (ak_channel_layout *)calloc(n, sizeof(ak_channel_layout));
    const int have = names && name_ptr && local && ch;
    int32_t st = have ? AK_OK : akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    static const ak_channel_layout root6 = {
        6, {AK_CH_XPOS, AK_CH_YPOS, AK_CH_ZPOS, AK_CH_ZROT, AK_CH_YROT, AK_CH_XROT}};
    static const ak_channel_layout rot3 = {3, {AK_CH_ZROT, AK_CH_YROT, AK_CH_XROT}};
    for (int32_t j = 0; have && st >= 0 && j < c->joints; ++j) {
        joint_name(c, c->joint_node[j], names[j]);
        name_ptr[j] = names[j];
        local[j] = local_of(c, rest, j);
        ch[j] = c->parent[j] < 0 ? root6 : rot3;
    }
    if (st >= 0) {
        ak_skeleton_desc desc = {c->joints, name_ptr, c->parent, local, ch, NULL};
        st = ak_skeleton_create(&desc, out, c->d.err);
    }
    free(names);
    free(name_ptr);
    free(local);
    free(ch);
    return st;
}

/* A key the library can use: finite, translations within a BVH's bounds (anim/reach.h), so
 * sums and differences of positions stay finite too (check_key). */

/* Frames evaluated together: every joint's channels sweep a block, whose keys (frames x joints)
 * stay in cache for the checks that follow. */
enum { GA_BLOCK = 64 };

/* Frames f0 .. f0 + n - 1's local poses to keys (frame-major, n x joints, joints = c->joints
 * read once by the caller). Rigid joints: each joint's channels swept over the block;
 * otherwise the node tree evaluated per frame. */
static void evaluate_block(ga_ctx *c, int rigid, int32_t f0, int32_t n, int32_t joints,
                           const ak_xform *rest_local, ga_rigid *w, ak_xform *keys)
{
    const size_t j = (size_t)joints;
    double t[GA_BLOCK], ulps[GA_BLOCK];
    for (int32_t i = 0; i < n; ++i) {
        t[i] = (double)(f0 + i) / (double)c->fps;
        ulps[i] = ga_key_ulps(t[i]);
    }
    const ga_frames fr = {t, ulps, n, f0};
    for (int32_t k = 0; rigid && k < joints; ++k)
        ga_rigid_sweep(c, k, &fr, rest_local, keys + k, j);
    for (int32_t i = 0; !rigid && i < n; ++i) {
        ga_evaluate(c, t[i], 1, w);
        for (int32_t k = 0; k < joints; ++k)
            keys[(size_t)i * j + (size_t)k] = local_of(c, w, k);
    }
}

/* Which joints' keys check_block looks at in frames after the first: every joint's, or (rigid
 * joints) the translations of the joints with a translation channel. A rigid joint's rotation
 * is a unit quaternion made of finite keys (normalised, interpolated, or its node's), and
 * without a translation channel its translation is its node's in every frame: frame 0 shows
 * all there is to check. */
typedef struct ga_watch {
    const int32_t *joint; /* joints to check in every frame */
    int32_t count;
    int translations_only; /* 1: rigid joints, only the watched translations after frame 0 */
} ga_watch;

/* 0 when key x is unusable; else marks moves[k] when its translation leaves rest's by more
 * than tol. `rotation`: check the rotation too. */
static int check_key(const ak_xform *x, int rotation, const ak_vec3 *rest, double tol,
                     uint8_t *moves)
{
    if (!(fabs(x->translation.x) <= AK_MAX_REACH && fabs(x->translation.y) <= AK_MAX_REACH &&
          fabs(x->translation.z) <= AK_MAX_REACH))
        return 0;
    if (rotation && !(isfinite(x->rotation.x) && isfinite(x->rotation.y) &&
                      isfinite(x->rotation.z) && isfinite(x->rotation.w)))
        return 0;
    if (!*moves &&
        (fabs(x->translation.x - rest->x) > tol || fabs(x->translation.y - rest->y) > tol ||
         fabs(x->translation.z - rest->z) > tol))
        *moves = 1;
    return 1;
}

/* Checks frames f0 .. f0 + n - 1 (keys: n x joints) in frame order (every joint in frame 0,
 * then those `watch` names) and marks in `moves` the joints whose translation leaves the rest
 * pose's by more than tol (roots: marked before). */
static int32_t check_block(ga_ctx *c, int32_t f0, int32_t n, int32_t joints, const ak_xform *keys,
                           const ak_xform *rest_local, double tol, const ga_watch *watch,
                           uint8_t *moves)
{
    for (int32_t i = 0; i < n; ++i) {
        const ak_xform *row = &keys[(size_t)i * (size_t)joints];
        const int all = f0 + i == 0;
        const int32_t count = all ? joints : watch->count;
        for (int32_t w = 0; w < count; ++w) {
            const int32_t k = all ? w : watch->joint[w];
            if (!check_key(&row[k], all || !watch->translations_only, &rest_local[k].translation,
                           tol, &moves[k]))
                /* finite keys can still compose past float's range */
                return akgd_fail(
                    &c->d, AK_ERR_INVALID_ARG, 0,
                    "joint %d at %.4f s: its keys give a non-finite or out-of-range transform",
                    (int)k, (double)(f0 + i) / (double)c->fps);
        }
    }
    return AK_OK;
}

/* The joints check_block watches after frame 0 into list[joints] (see ga_watch). */
static ga_watch watch_joints(const ga_ctx *c, int rigid, int32_t *list)
{
    ga_watch w = {list, 0, rigid};
    for (int32_t k = 0; k < c->joints; ++k)
        if (!rigid || c->chan_of[k * 3 + GA_T] >= 0) list[w.count++] = k;
    return w;
}

/* The keys (frames x joints) into the clip: every rotation, each on its predecessor's side
 * (akq_same_side), and the translations of its tracks. What ak_clip_finalize does but for
 * normalising: the rotations are unit already (keys normalised once as read, interpolated
 * values after interpolating, node matrices' rotations in ga_evaluate). */
static void fill_clip(const ak_xform *keys, ak_clip *clip)
{
    const size_t j = (size_t)clip->joint_count, tracks = (size_t)clip->track_count;
    for (size_t k = 0; k < j; ++k)
        clip->rotations[k] = keys[k].rotation;
    for (size_t f = 1; f < (size_t)clip->frame_count; ++f) {
        const ak_xform *row = keys + f * j;
        ak_quat *q = clip->rotations + f * j;
        const ak_quat *prev = q - j;
        for (size_t k = 0; k < j; ++k)
            q[k] = akq_same_side(row[k].rotation, prev[k]);
    }
    for (size_t f = 0; f < (size_t)clip->frame_count; ++f)
        for (size_t tr = 0; tr < tracks; ++tr)
            clip->translations[f * tracks + tr] = keys[f * j + clip->track_joint[tr]].translation;
}

/* Every frame's local pose; a joint gets a translation track when it is a root or its
 * translation moves by more than 1e-7 of the model's size in some frame. */
static int32_t build_clip(ga_ctx *c, const ga_rigid *rest, ga_rigid *w, ak_clip **out)
{
    const int32_t joints = c->joints;
    const size_t j = (size_t)joints;
    /* every frame's keys, then the rest pose's locals */
    ak_xform *keys = (ak_xform *)malloc(sizeof(ak_xform) * j * ((size_t)c->frames + 1));
    uint8_t *moves = (uint8_t *)calloc(j, 1);
    int32_t *watched = (int32_t *)malloc(sizeof(int32_t) * j);
    if (!keys || !moves || !watched) {
        free(keys);
        free(moves);
        free(watched);
        return akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    }
    ak_xform *rest_local = keys + j * (size_t)c->frames;
    for (int32_t k = 0; k < joints; ++k) {
        rest_local[k] = local_of(c, rest, k);
        moves[k] = c->parent[k] < 0; /* roots always get a translation track */
    }
    /* Without scale in the tree a joint's local transform is its channels' values: no tree
     * to evaluate per frame (the same numbers to float rounding; io_gltf_three checks both). */
    const int rigid = ga_rigid_joints(c);
    const double tol = 1e-7 * model_size(rest, c->joints);
    for (int32_t i = 0; i < c->ch_count; ++i)
        c->ch[i].cursor = 0;
    ga_mark_frame_keys(c);
    const ga_watch watch = watch_joints(c, rigid, watched);
    int32_t st = AK_OK;
    for (int32_t f0 = 0; st >= 0 && f0 < c->frames; f0 += GA_BLOCK) {
        const int32_t n = c->frames - f0 < GA_BLOCK ? c->frames - f0 : GA_BLOCK;
        evaluate_block(c, rigid, f0, n, joints, rest_local, w, keys + (size_t)f0 * j);
        st = check_block(c, f0, n, joints, keys + (size_t)f0 * j, rest_local, tol, &watch, moves);
    }
    if (st >= 0) st = ak_clip_create(c->joints, c->frames, 1.0f / c->fps, moves, out, c->d.err);
    if (st >= 0) fill_clip(keys, *out);
    free(keys);
    free(moves);
    free(watched);
    return st;
}

static int32_t read_all(ga_ctx *c, ak_skeleton **sk, ak_clip **clip)
{
    const size_t nodes = (size_t)(c->d.nodes.count > 0 ? c->d.nodes.count : 1);
    int32_t st = c->d.nodes.count > 0 ? pick_animation(c)
                                      : akgd_fail(&c->d, AK_ERR_NOT_FOUND, 0, "no nodes");
    if (st >= 0 && c->info) {
        c->info->animation = c->anim;
        const char *nm =
            c->anim < 0
                ? NULL
                : akj_string(&c->d.json, akj_get(&c->d.json, c->d.animations.v[c->anim], "name"));
        snprintf(c->info->animation_name, sizeof c->info->animation_name, "%s", nm ? nm : "");
    }
    if (st >= 0 && c->anim >= 0) st = ga_read_channels(c);
    uint8_t *want = (uint8_t *)calloc(nodes, 1);
    int32_t *stack = (int32_t *)malloc(sizeof(int32_t) * nodes);
    c->joint_node = (int32_t *)malloc(sizeof(int32_t) * nodes);
    c->node_joint = (int32_t *)malloc(sizeof(int32_t) * nodes);
    if (st >= 0 && (!want || !stack || !c->joint_node || !c->node_joint))
        st = akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; c->node_joint && i < nodes; ++i)
        c->node_joint[i] = -1;
    if (st >= 0) st = choose_nodes(c, want);
    if (st >= 0) st = order_joints(c, want, stack);
    free(want);
    free(stack);
    if (st >= 0) st = joint_tables(c);
    if (st >= 0) st = choose_rate(c);
    ga_rigid *rest = st < 0 ? NULL : (ga_rigid *)malloc(sizeof(ga_rigid) * (size_t)c->joints * 2);
    if (st >= 0 && !rest) st = akgd_fail(&c->d, AK_ERR_NOMEM, 0, "out of memory");
    if (st >= 0) {
        ga_evaluate(c, 0.0, 0, rest);
        st = build_skeleton(c, rest, sk);
    }
    if (st >= 0) st = build_clip(c, rest, rest + c->joints, clip);
    free(rest);
    return st;
}

static void fill_info_joints(const ga_ctx *c, ak_gltf_clip_info *info)
{
    if (!info || !info->joint_node) return;
    for (int32_t j = 0; j < info->joint_node_capacity; ++j)
        info->joint_node[j] = j < c->joints ? c->joint_node[j] : -1;
}

int32_t ak_gltf_read_clip_memory(const uint8_t *data, size_t size, const char *base_dir,
                                 const ak_gltf_clip_params *params, ak_skeleton **out_skeleton,
                                 ak_clip **out_clip, ak_gltf_clip_info *info, ak_error *err)
{
    if (!out_skeleton || !out_clip) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out_skeleton = NULL;
    *out_clip = NULL;
    if (!data) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null data");
    const ak_gltf_clip_params defaults = ak_gltf_clip_defaults();
    if (!params) params = &defaults;
    int32_t st = ak_gltf_clip_validate(params, err);
    if (st < 0) return st;
    ga_ctx c;
    memset(&c, 0, sizeof c);
    c.p = params;
    c.info = info;
    if (info) {
        int32_t *jn = info->joint_node, cap = info->joint_node_capacity;
        memset(info, 0, sizeof *info);
        info->joint_node = jn;
        info->joint_node_capacity = cap;
        info->animation = info->skin = -1;
    }
    st = akgd_open(&c.d, data, size, base_dir, err);
    if (info) info->animation_count = c.d.animations.count;
    if (st >= 0) st = read_all(&c, out_skeleton, out_clip);
    if (st >= 0) fill_info_joints(&c, info);
    ga_free_channels(&c);
    free(c.joint_node);
    free(c.node_joint);
    free(c.parent);
    free(c.base);
    free(c.chan_of);
    free(c.world);
    akgd_close(&c.d);
    if (st < 0) {
        ak_skeleton_destroy(*out_skeleton);
        ak_clip_destroy(*out_clip);
        *out_skeleton = NULL;
        *out_clip = NULL;
        return st;
    }
    ak_error_clear(err);
    return AK_OK;
}

int32_t ak_gltf_read_clip_file(const char *path, const ak_gltf_clip_params *params,
                               ak_skeleton **out_skeleton, ak_clip **out_clip,
                               ak_gltf_clip_info *info, ak_error *err)
{
    if (!out_skeleton || !out_clip) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null output");
    *out_skeleton = NULL;
    *out_clip = NULL;
    if (!path) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null path");
    size_t size = 0;
    const char *why = "";
    uint8_t *data = akgd_read_file(path, &size, &why);
    if (!data) return ak_error_set(err, AK_ERR_IO, 0, "file %s", why);
    char *dir = akgd_folder_of(path); /* buffers resolve in the file's own folder */
    if (!dir) {
        free(data);
        return ak_error_set(err, AK_ERR_NOMEM, 0, "out of memory");
    }
    const int32_t st =
        ak_gltf_read_clip_memory(data, size, dir, params, out_skeleton, out_clip, info, err);
    free(dir);
    free(data);
    return st;
}
