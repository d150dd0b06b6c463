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

#define D AK_MATCH_FEATURES

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
    for (int32_t k = 0; k < D; ++k) {
        box[k] = INFINITY;
        box[D + k] = -INFINITY;
    }
    for (int32_t i = 0; i < n; ++i)
        for (int32_t k = 0; k < D; ++k) {
            const float v = feat[(size_t)i * D + k];
            if (v < box[k]) box[k] = v;
            if (v > box[D + k]) box[D + k] = v;
        }
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
        memcpy(db->cand_feat + (size_t)db->ncand * D, o, sizeof(float) * D);
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
        box_of(db->cand_feat + (size_t)a * D, n, db->small_box + (size_t)b * 2 * D);
    }
    for (int32_t b = 0; b < db->nlarge; ++b) {
        const int32_t a = b * AK_MATCH_LARGE_BLOCK;
        const int32_t n =
            db->ncand - a < AK_MATCH_LARGE_BLOCK ? db->ncand - a : AK_MATCH_LARGE_BLOCK;
        box_of(db->cand_feat + (size_t)a * D, n, db->large_box + (size_t)b * 2 * D);
    }
    return AK_OK;
}

int32_t ak_motion_db_set_weights(ak_motion_db *db, const float *w, ak_error *err)
{
    if (!db || !w) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null argument");
    float sum = 0.0f;
    for (int32_t g = 0; g < AK_MATCH_GROUPS; ++g) {
        if (!(w[g] >= 0.0f) || !isfinite(w[g]))
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "weight %d must be finite and >= 0",
                                (int)g);
        sum += w[g];
    }
    if (!(sum > 0.0f)) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "all weights are 0");
    memcpy(db->weights, w, sizeof db->weights);
    return ak_motion_db_prepare_search(db, 0, err);
}

/* Squared distance with an early exit once it reaches `limit`. */
static inline float frame_cost(const float *q, const float *x, float limit)
{
    float c = 0.0f;
    for (int32_t k = 0; k < D; ++k) {
        const float d = q[k] - x[k];
        c += d * d;
        if ((k & 7) == 7 && c >= limit) return c;
    }
    return c;
}

static inline float box_cost(const float *q, const float *box, float limit)
{
    float c = 0.0f;
    for (int32_t k = 0; k < D; ++k) {
        const float v = q[k] < box[k] ? box[k] : (q[k] > box[D + k] ? box[D + k] : q[k]);
        const float d = q[k] - v;
        c += d * d;
        if ((k & 7) == 7 && c >= limit) return c;
    }
    return c;
}

static void search_range(const ak_motion_db *db, const float *q, int32_t a, int32_t b,
                         ak_match_result *r)
{
    for (int32_t i = a; i < b; ++i) {
        const float c = frame_cost(q, db->cand_feat + (size_t)i * D, r->cost);
        ++r->frames_tested;
        if (c < r->cost) {
            r->cost = c;
            r->frame = db->cand_frame[i];
        }
    }
}

void ak_motion_db_search(const ak_motion_db *db, const float *q, int32_t mode, float best_cost,
                         ak_match_result *out)
{
    if (!out) return;
    out->frame = -1;
    out->cost = best_cost;
    out->frames_tested = 0;
    if (!db || !q) return;
    if (mode != AK_MATCH_BOXES) {
        search_range(db, q, 0, db->ncand, out);
        return;
    }
    for (int32_t L = 0; L < db->nlarge; ++L) {
        if (box_cost(q, db->large_box + (size_t)L * 2 * D, out->cost) >= out->cost) continue;
        const int32_t s0 = L * (AK_MATCH_LARGE_BLOCK / AK_MATCH_SMALL_BLOCK);
        int32_t s1 = s0 + AK_MATCH_LARGE_BLOCK / AK_MATCH_SMALL_BLOCK;
        if (s1 > db->nsmall) s1 = db->nsmall;
        for (int32_t s = s0; s < s1; ++s) {
            if (box_cost(q, db->small_box + (size_t)s * 2 * D, out->cost) >= out->cost) continue;
            const int32_t a = s * AK_MATCH_SMALL_BLOCK;
            const int32_t b =
                a + AK_MATCH_SMALL_BLOCK < db->ncand ? a + AK_MATCH_SMALL_BLOCK : db->ncand;
            search_range(db, q, a, b, out);
        }
    }
}
