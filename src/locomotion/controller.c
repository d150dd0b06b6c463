/* Kinematic capsule controller: collide-and-slide against ground and boxes, steps, slope
 * limit, gravity. */
#include "animkit/controller.h"
#include "core/xform_inline.h"

#include <string.h>

ak_controller_params ak_controller_defaults(void)
{
    ak_controller_params p;
    p.radius = 0.25f;
    p.height = 1.7f;
    p.step_height = 0.3f;
    p.max_slope = 45.0f * AK_PI / 180.0f;
    p.gravity = 9.81f;
    p.skin = 0.005f;
    return p;
}

int32_t ak_controller_validate(const ak_controller_params *p, ak_error *err)
{
    if (!p) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null controller params");
    if (!(p->radius > 0.0f) || !(p->radius < 10.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "radius must be in (0, 10) m");
    if (!(p->height >= 2.0f * p->radius) || !(p->height < 100.0f))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "height must be at least 2*radius");
    if (!(p->step_height >= 0.0f) || !(p->step_height < p->height))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "step height must be in [0, height)");
    if (!(p->max_slope > 0.0f) || !(p->max_slope < 0.5f * AK_PI))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                            "max slope must be in (0, 1.5708) radians (90 degrees)");
    if (!(p->gravity >= 0.0f) || !isfinite(p->gravity))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "gravity must be >= 0");
    if (!(p->skin >= 0.0f) || !(p->skin < p->radius))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "skin must be in [0, radius)");
    return ak_params_check(ak_controller_param_ranges(), p, err);
}

int32_t ak_controller_init(ak_controller *c, const ak_controller_params *p, ak_vec3 position,
                           ak_error *err)
{
    if (!c) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null controller");
    int32_t st = ak_controller_validate(p, err);
    if (st != AK_OK) return st;
    if (!akv_finite(position))
        return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "position not finite");
    memset(c, 0, sizeof *c);
    c->params = *p;
    c->position = position;
    return AK_OK;
}

int32_t ak_controller_ground(const ak_controller *c, const ak_ground *ground, const ak_box *boxes,
                             int32_t box_count, float x, float z, float feet_y, ak_ground_hit *out)
{
    ak_ground_hit h;
    ak_ground_query(ground, x, z, &h);
    const float reach = feet_y + (c ? c->params.step_height : 0.0f) + 1e-4f;
    for (int32_t i = 0; boxes && i < box_count; ++i) {
        const ak_box *b = &boxes[i];
        if (x < b->min.x || x > b->max.x || z < b->min.z || z > b->max.z) continue;
        if (b->max.y > reach) continue;
        if (!h.hit || b->max.y > h.height) {
            h.hit = 1;
            h.height = b->max.y;
            h.normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
        }
    }
    if (out) *out = h;
    return h.hit;
}

/* Does a capsule with its feet at p (radius r, height hgt) overlap box b as a wall? The
 * capsule is a vertical segment swept by r, so in XZ it is a circle; it meets a box when the
 * vertical spans overlap and the circle touches the box's XZ rectangle. Boxes low enough to
 * step onto are not walls. */
static int box_blocks(const ak_box *b, ak_vec3 p, float r, float hgt, float step)
{
    if (b->max.y <= p.y + step + 1e-4f) return 0;
    if (b->min.y >= p.y + hgt) return 0;
    const float cx = p.x < b->min.x ? b->min.x : (p.x > b->max.x ? b->max.x : p.x);
    const float cz = p.z < b->min.z ? b->min.z : (p.z > b->max.z ? b->max.z : p.z);
    const float dx = p.x - cx, dz = p.z - cz;
    return dx * dx + dz * dz < r * r;
}

/* Can the capsule stand with its feet at (x, z) coming from height y? Sets the flags of
 * what blocked it; where it can, *ground gets the ground there (ak_controller_ground's). */
static int can_stand(const ak_controller *c, const ak_ground *ground, const ak_box *boxes,
                     int32_t n, ak_vec3 from, float x, float z, ak_controller_result *res,
                     ak_ground_hit *ground_hit)
{
    const ak_controller_params *p = &c->params;
    ak_ground_hit h;
    if (!ak_controller_ground(c, ground, boxes, n, x, z, from.y, &h)) {
        res->hit_wall = 1; /* the edge of the world */
        return 0;
    }
    const float rise = h.height - from.y;
    if (c->grounded && rise > p->step_height + 1e-4f) {
        res->hit_step = 1;
        return 0;
    }
    /* A slope steeper than the limit blocks when the move climbs it. */
    if (c->grounded && rise > 1e-4f && h.normal.y < cosf(p->max_slope)) {
        const float dx = x - from.x, dz = z - from.z;
        const float uphill = -(h.normal.x * dx + h.normal.z * dz);
        if (uphill > 0.0f) {
            res->hit_slope = 1;
            return 0;
        }
    }
    const ak_vec3 q = {
        x, h.height > from.y - p->step_height ? (h.height > from.y ? h.height : from.y) : from.y,
        z};
    for (int32_t i = 0; boxes && i < n; ++i)
        if (box_blocks(&boxes[i], q, p->radius + p->skin, p->height, p->step_height)) {
            res->hit_wall = 1;
            return 0;
        }
    *ground_hit = h;
    return 1;
}

int32_t ak_controller_move(ak_controller *c, const ak_ground *ground, const ak_box *boxes,
                           int32_t box_count, ak_vec3 desired, float dt, ak_controller_result *out)
{
    ak_controller_result res;
    memset(&res, 0, sizeof res);
    res.ground_normal = ak_vec3_make(0.0f, 1.0f, 0.0f);
    if (!c || !akv_finite(desired) || !isfinite(dt) || dt < 0.0f) {
        if (out) *out = res;
        return AK_ERR_INVALID_ARG;
    }
    if (box_count < 0) box_count = 0;
    const ak_controller_params *p = &c->params;
    const ak_vec3 start = c->position;
    ak_vec3 pos = c->position;
    const float len = sqrtf(desired.x * desired.x + desired.z * desired.z);
    /* clamped as a float: a huge finite move gives an infinite step count, not an int */
    const float need = ceilf(len / (0.5f * p->radius));
    const int32_t steps = need >= 1.0f ? (need < 1000.0f ? (int32_t)need : 1000) : 1;
    const float sx = desired.x / (float)steps, sz = desired.z / (float)steps;
    ak_ground_hit h; /* the ground where the last step went */
    int stepped = 0; /* a step was taken (h is the ground at pos.x, pos.z) */
    for (int32_t s = 0; s < steps; ++s) {
        if (can_stand(c, ground, boxes, box_count, pos, pos.x + sx, pos.z + sz, &res, &h)) {
            pos.x += sx;
            pos.z += sz;
        } else if (sx != 0.0f &&
                   can_stand(c, ground, boxes, box_count, pos, pos.x + sx, pos.z, &res, &h)) {
            pos.x += sx; /* slide along x */
        } else if (sz != 0.0f &&
                   can_stand(c, ground, boxes, box_count, pos, pos.x, pos.z + sz, &res, &h)) {
            pos.z += sz; /* slide along z */
        } else {
            continue;
        }
        stepped = 1;
        /* Follow the ground while walking: up any step, down within step_height. */
        const float gy = h.height;
        if (c->grounded && gy <= pos.y + p->step_height + 1e-4f && gy >= pos.y - p->step_height)
            pos.y = gy;
    }
    /* Vertical: snap to the ground (on it, or within a step while grounded), else fall, and
     * land where the fall reaches the ground. Without boxes the ground where the last step
     * went is the ground here (the same x, z; boxes depend on the feet's height, which the step
     * may have changed): not asked again. */
    const int over =
        stepped && (!boxes || box_count == 0)
            ? h.hit
            : ak_controller_ground(c, ground, boxes, box_count, pos.x, pos.z, pos.y, &h);
    if (over) res.ground_normal = h.normal;
    const int snap =
        over && (pos.y <= h.height + 1e-4f || (c->grounded && pos.y - h.height <= p->step_height));
    if (!snap) {
        c->vertical_velocity -= p->gravity * dt;
        pos.y += c->vertical_velocity * dt;
        c->grounded = 0;
    }
    if (snap || (over && pos.y <= h.height)) {
        pos.y = h.height;
        c->vertical_velocity = 0.0f;
        c->grounded = 1;
    }
    c->position = pos;
    res.moved = akv_sub(pos, start);
    res.grounded = c->grounded;
    if (out) *out = res;
    return AK_OK;
}
