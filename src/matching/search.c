/* Normalisation and search. Each feature group is centred on its mean over the candidates and
 * divided by the group's mean standard deviation, then multiplied by its weight, so groups
 * with different units count alike. The accelerated search keeps axis-aligned boxes over
 * blocks of 16 and 64 consecutive candidates: the squared distance from the query to a box
 * (sum over dimensions of the gap to [min, max]) is a lower bound of every member's cost, so
 * a box whose bound is not below the best cost so far is skipped whole. Term by term the
 * gap is no larger than the member's own difference (IEEE subtraction and squaring are
 * monotonic), so the bound holds in floats too and both searches return the same frame. */
#include "animkit/matching.h"
#include "matching/internal.h"

#include <math.h>
#include <string.h>

/* The feature vector's groups (matching.h): where each starts, the end last. */
static const int32_t group_offset[AK_MATCH_GROUPS + 1] = {0, 6, 12, 15, 21, 27};

int32_t ak_match_group_offset(int32_t g)
{
    return g >= 0 && g < AK_MATCH_GROUPS ? group_offset[g] : -1;
}
int32_t ak_match_group_size(int32_t g)
{
    return g >= 0 && g < AK_MATCH_GROUPS ? group_offset[g + 1] - group_offset[g] : 0;
}

#define D AK_MATCH_FEATURES
/* Search storage: dimensions permuted so the trajectory (where queries differ most) comes
 * first and the early exits come soonest, padded with a zero to 28 = 7 lanes of 4. */
#define DP AK_MATCH_STRIDE
static const int8_t perm[D] = {15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 0, 1,
                               2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14};

static void group_stats(const ak_motion_db *db, int32_t g, float *mean_out, float *scale_out)
{
    const int32_t a = ak_match_group_offset(g), n = ak_match_group_size(g);
    double sd_sum = 0.0;
    for (int32_t k = a; k < a + n; ++k) {
        double s = 0.0, s2 = 0.0;
        int32_t cnt = 0;
        for (int32_t f = 0; f < db->F; ++f) {
            if (!db->cand[f]) continue;
            const double v = db->raw[(size_t)f * D + k];
            s += v;
            s2 += v * v;
            ++cnt;
        }
        const double m = cnt ? s / cnt : 0.0;
        const double var = cnt ? s2 / cnt - m * m : 0.0;
        mean_out[k] = (float)m;
        sd_sum += var > 0.0 ? sqrt(var) : 0.0;
    }
    const float sd = (float)(sd_sum / n);
    *scale_out = sd > 1e-6f ? sd : 1.0f;
}

void ak_motion_db_normalize(const ak_motion_db *db, const float *raw, float *out)
{
    if (!db || !raw || !out) return;
    for (int32_t g = 0; g < AK_MATCH_GROUPS; ++g)
        for (int32_t k = ak_match_group_offset(g);
             k < ak_match_group_offset(g) + ak_match_group_size(g); ++k)
            out[k] = (raw[k] - db->offset[k]) * db->scale[k] * db->weights[g];
}

static void box_of(const float *feat, int32_t n, float *box)
{
    for (int32_t k = 0; k < DP; ++k) {
        box[k] = INFINITY;
        box[DP + k] = -INFINITY;
    }
    for (int32_t i = 0; i < n; ++i)
        for (int32_t k = 0; k < DP; ++k) {
            const float v = feat[(size_t)i * DP + k];
            if (v < box[k]) box[k] = v;
            if (v > box[DP + k]) box[DP + k] = v;
        }
}

static void to_search_order(const float *q, float *out)
{
    for (int32_t k = 0; k < D; ++k)
        out[k] = q[perm[k]];
    for (int32_t k = D; k < DP; ++k)
        out[k] = 0.0f;
}

int32_t ak_motion_db_prepare_search(ak_motion_db *db, int32_t restat, ak_error *err)
{
    if (restat) {
        for (int32_t g = 0; g < AK_MATCH_GROUPS; ++g) {
            float sd;
            group_stats(db, g, db->offset, &sd);
            for (int32_t k = ak_match_group_offset(g);
                 k < ak_match_group_offset(g) + ak_match_group_size(g); ++k)
                db->scale[k] = 1.0f / sd;
        }
    }
    db->ncand = 0;
    for (int32_t f = 0; f < db->F; ++f) {
        float *o = db->feat + (size_t)f * D;
        ak_motion_db_normalize(db, db->raw + (size_t)f * D, o);
        if (!db->cand[f]) continue;
        db->cand_frame[db->ncand] = f;
        to_search_order(o, db->cand_feat + (size_t)db->ncand * DP);
        ++db->ncand;
    }
    if (db->ncand == 0)
        return ak_error_set(err, AK_ERR_DEGENERATE, 0, "the database has no candidate frame");
    db->nsmall = (db->ncand + AK_MATCH_SMALL_BLOCK - 1) / AK_MATCH_SMALL_BLOCK;
    db->nlarge = (db->ncand + AK_MATCH_LARGE_BLOCK - 1) / AK_MATCH_LARGE_BLOCK;
    for (int32_t b = 0; b < db->nsmall; ++b) {
        const int32_t a = b * AK_MATCH_SMALL_BLOCK;
        const int32_t n =
            db->ncand - a < AK_MATCH_SMALL_BLOCK ? db->ncand - a : AK_MATCH_SMALL_BLOCK;
        box_of(db->cand_feat + (size_t)a * DP, n, db->small_box + (size_t)b * 2 * DP);
    }
    for (int32_t b = 0; b < db->nlarge; ++b) {
        const int32_t a = b * AK_MATCH_LARGE_BLOCK;
        const int32_t n =
            db->ncand - a < AK_MATCH_LARGE_BLOCK ? db->ncand - a : AK_MATCH_LARGE_BLOCK;
        box_of(db->cand_feat + (size_t)a * DP, n, db->large_box + (size_t)b * 2 * DP);
    }
    return AK_OK;
}

int32_t ak_motion_db_set_weights(ak_motion_db *db, const float *w, ak_error *err)
{
    if (!db || !w) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    float sum = 0.0f;
    for (int32_t g = 0; g < AK_MATCH_GROUPS; ++g) {
        if (!(w[g] >= 0.0f) || !isfinite(w[g]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "weights[%d] = %g: must be finite and >= 0", (int)g, (double)w[g]);
        sum += w[g];
    }
    if (!(sum > 0.0f)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "weights are all 0");
    memcpy(db->weights, w, sizeof db->weights);
    return ak_motion_db_prepare_search(db, 0, err);
}

/* Squared distance in four lanes (lane l sums dimensions l, l+4, l+8, ...; the lanes are
 * added as (0+1)+(2+3)), the same association in the scalar and SSE forms and in both
 * searches, so a box's bound stays below each member's cost after rounding. Early exits
 * after the trajectory (12 dimensions) and after 20 once the sum reaches `limit`. The box
 * gap is q - clamp(q, min, max): exactly 0 inside, and never larger than a member's
 * difference. */
#if !defined(AK_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#include <emmintrin.h>

static inline float lanes_sum(__m128 acc)
{
    float a[4];
    _mm_storeu_ps(a, acc);
    return (a[0] + a[1]) + (a[2] + a[3]);
}

static inline __m128 diff4(const float *q, const float *x)
{
    return _mm_sub_ps(_mm_loadu_ps(q), _mm_loadu_ps(x));
}

static inline __m128 gap4(const float *q, const float *lo, const float *hi)
{
    const __m128 v = _mm_loadu_ps(q);
    return _mm_sub_ps(v, _mm_min_ps(_mm_max_ps(v, _mm_loadu_ps(lo)), _mm_loadu_ps(hi)));
}

#define AK_COST_LANES(lo, hi, D4)                                                                  \
    for (int32_t k = (lo); k < (hi); k += 4) {                                                     \
        const __m128 d = (D4);                                                                     \
        acc = _mm_add_ps(acc, _mm_mul_ps(d, d));                                                   \
    }
#define AK_COST_BEGIN __m128 acc = _mm_setzero_ps()
#define AK_FRAME_D4   diff4(q + k, x + k)
#define AK_BOX_D4     gap4(q + k, box + k, box + DP + k)
#else
typedef struct lanes4 {
    float v[4];
} lanes4;

static inline float lanes_sum(lanes4 acc)
{
    return (acc.v[0] + acc.v[1]) + (acc.v[2] + acc.v[3]);
}

static inline float clampf(float v, float lo, float hi)
{
    const float a = v < lo ? lo : v; /* max(v, lo) */
    return a > hi ? hi : a;          /* min(., hi) */
}

#define AK_COST_LANES(lo, hi, TERM)                                                                \
    for (int32_t k = (lo); k < (hi); k += 4)                                                       \
        for (int32_t l = 0; l < 4; ++l) {                                                          \
            const float d = (TERM);                                                                \
            acc.v[l] += d * d;                                                                     \
        }
#define AK_COST_BEGIN lanes4 acc = {{0.0f, 0.0f, 0.0f, 0.0f}}
#define AK_FRAME_D4   (q[k + l] - x[k + l])
#define AK_BOX_D4     (q[k + l] - clampf(q[k + l], box[k + l], box[DP + k + l]))
#endif

static inline float frame_cost(const float *q, const float *x, float limit)
{
    AK_COST_BEGIN;
    AK_COST_LANES(0, 12, AK_FRAME_D4)
    if (lanes_sum(acc) >= limit) return lanes_sum(acc);
    AK_COST_LANES(12, 20, AK_FRAME_D4)
    if (lanes_sum(acc) >= limit) return lanes_sum(acc);
    AK_COST_LANES(20, DP, AK_FRAME_D4)
    return lanes_sum(acc);
}

static inline float box_cost(const float *q, const float *box, float limit)
{
    AK_COST_BEGIN;
    AK_COST_LANES(0, 12, AK_BOX_D4)
    if (lanes_sum(acc) >= limit) return lanes_sum(acc);
    AK_COST_LANES(12, 20, AK_BOX_D4)
    if (lanes_sum(acc) >= limit) return lanes_sum(acc);
    AK_COST_LANES(20, DP, AK_BOX_D4)
    return lanes_sum(acc);
}

/* 1 when frame f lies in one of the n excluded ranges [ex[2i], ex[2i+1]). */
static inline int excluded(int32_t f, const int32_t *ex, int32_t n)
{
    for (int32_t i = 0; i < n; ++i)
        if (f >= ex[2 * i] && f < ex[2 * i + 1]) return 1;
    return 0;
}

static void search_range(const ak_motion_db *db, const float *q, int32_t a, int32_t b,
                         const int32_t *ex, int32_t nex, ak_match_result *r)
{
    for (int32_t i = a; i < b; ++i) {
        const int32_t f = db->cand_frame[i];
        if (nex > 0 && excluded(f, ex, nex)) continue;
        const float c = frame_cost(q, db->cand_feat + (size_t)i * DP, r->cost);
        ++r->frames_tested;
        if (c < r->cost) {
            r->cost = c;
            r->frame = f;
        }
    }
}

void ak_motion_db_search(const ak_motion_db *db, const float *query, ak_match_search_mode mode,
                         float best_cost, ak_match_result *out)
{
    ak_motion_db_search_excluding(db, query, mode, best_cost, NULL, 0, out);
}

/* Skipping excluded frames only raises the best cost a block can reach, so a box that cannot
 * beat the best cost with every member cannot beat it with some members either. */
void ak_motion_db_search_excluding(const ak_motion_db *db, const float *query,
                                   ak_match_search_mode mode, float best_cost,
                                   const int32_t *exclude, int32_t exclude_count,
                                   ak_match_result *out)
{
    if (!out) return;
    out->frame = -1;
    out->cost = best_cost;
    out->frames_tested = 0;
    if (!db || !query) return;
    const int32_t nex = exclude && exclude_count > 0 ? exclude_count : 0;
    float q[DP];
    to_search_order(query, q);
    if (mode != AK_MATCH_BOXES) {
        search_range(db, q, 0, db->ncand, exclude, nex, out);
        return;
    }
    const int32_t per_large = AK_MATCH_LARGE_BLOCK / AK_MATCH_SMALL_BLOCK;
    for (int32_t L = 0; L < db->nlarge; ++L) {
        if (box_cost(q, db->large_box + (size_t)L * 2 * DP, out->cost) >= out->cost) continue;
        const int32_t s1 = (L + 1) * per_large < db->nsmall ? (L + 1) * per_large : db->nsmall;
        for (int32_t s = L * per_large; s < s1; ++s) {
            if (box_cost(q, db->small_box + (size_t)s * 2 * DP, out->cost) >= out->cost) continue;
            const int32_t a = s * AK_MATCH_SMALL_BLOCK;
            const int32_t b =
                a + AK_MATCH_SMALL_BLOCK < db->ncand ? a + AK_MATCH_SMALL_BLOCK : db->ncand;
            search_range(db, q, a, b, exclude, nex, out);
        }
    }
}
