/* A re-step: a foot that must move while its pose source has it down (a release, a landing
 * that waits) lifts, moves and lands, as a person takes a short adjusting step, instead of
 * sliding along the ground. The shape of the step (locomotion/internal.h, ak_restep):
 *  - lift: up over the first AK_RESTEP_RISE of the step, held at its height, down over the
 *    last AK_RESTEP_RISE (smoothstep each way);
 *  - carry: the horizontal move, between AK_RESTEP_CARRY_FROM and AK_RESTEP_CARRY_TO
 *    (smoothstep), where the lift is half its height or more; a step of the stop (a fixed one:
 *    ak_restep_begin_to, ak_restep_fix) from AK_RESTEP_STOP_CARRY_FROM, where it is 80 % or
 *    more: it clears the ground first, straight up, and moves while it is up (moving 4-5 cm over
 *    the ground it skimmed it: walk_physics.h's hover, a point its source has down 1-5 cm up
 *    moving at 1-9 m/s). A walking step from its toe (the matcher's, restep_foot.toe) rising
 *    straight up to 80 % held the toe in place 8.3 cm over its tread while its source stood on
 *    it (CMU 07_04 at 60 fps on the CLI's stairs route, frame 81: walk_physics.h's toe_held_up,
 *    bound 5 cm); from half its height it moves on as it rises;
 *  - the descent follows the end point (carry 1), so the foot lands where its source has it. */
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#define AK_RESTEP_RISE            0.3f
#define AK_RESTEP_CARRY_FROM      0.15f
#define AK_RESTEP_STOP_CARRY_FROM 0.22f
#define AK_RESTEP_CARRY_TO        0.7f

/* The step's figures, from the captures' own swings (the test captures' walks, CMU 02_01,
 * 02_02, 07_01 and 07_04, as the matcher's databases cut them: a full swing lasts 0.50-0.73 s and
 * lifts the lower of heel and toe 9.3-13.5 cm, carrying the foot about twice the stride's
 * 0.65-0.75 m, 2.3-2.8 m/s on average). A short adjusting step lifts 7 cm, under the
 * swings' lowest, up to 9 cm for a long one (AK_RESTEP_HEIGHT_PER_M over its length),
 * and lasts AK_RESTEP_TIME_MIN plus its length at AK_RESTEP_PACE (a swing's mean pace), at
 * most AK_RESTEP_TIME_MAX. */
/* (AK_RESTEP_HEIGHT_MIN: locomotion/internal.h, which the matcher reads too) */
#define AK_RESTEP_HEIGHT_MAX   0.09f
#define AK_RESTEP_HEIGHT_PER_M 0.1f
#define AK_RESTEP_TIME_MIN     0.2f
#define AK_RESTEP_TIME_MAX     0.35f
#define AK_RESTEP_PACE         2.3f

static float smooth01(float x)
{
    x = akf_clamp(x, 0.0f, 1.0f);
    return x * x * (3.0f - 2.0f * x);
}

void ak_restep_begin(ak_restep *r, ak_vec3 from, float distance)
{
    r->on = 1;
    r->fixed = 0;
    r->carry0 = 0.0f;
    r->to = from;
    r->u = 0.0f;
    r->from = from;
    r->duration = akf_clamp(AK_RESTEP_TIME_MIN + distance / AK_RESTEP_PACE, AK_RESTEP_TIME_MIN,
                            AK_RESTEP_TIME_MAX);
    r->height = akf_clamp(AK_RESTEP_HEIGHT_MIN + AK_RESTEP_HEIGHT_PER_M * distance,
                          AK_RESTEP_HEIGHT_MIN, AK_RESTEP_HEIGHT_MAX);
}

void ak_restep_begin_to(ak_restep *r, ak_vec3 from, ak_vec3 to)
{
    const float dx = to.x - from.x, dz = to.z - from.z;
    ak_restep_begin(r, from, sqrtf(dx * dx + dz * dz));
    r->fixed = 1;
    r->to = to;
}

static float carry_at(const ak_restep *r, float u)
{
    const float from = r->fixed ? AK_RESTEP_STOP_CARRY_FROM : AK_RESTEP_CARRY_FROM;
    return smooth01((u - from) / (AK_RESTEP_CARRY_TO - from));
}

void ak_restep_fix(ak_restep *r, ak_vec3 at, ak_vec3 to)
{
    if (!r->on || r->fixed) return;
    const float carry = carry_at(r, r->u);
    const ak_vec3 now = ak_vec3_make(r->from.x + carry * (at.x - r->from.x), r->from.y,
                                     r->from.z + carry * (at.z - r->from.z));
    /* the rest of the carry from the top of the step: one at its top goes on from where the
     * top begins (at its full lift, as now), one coming down goes back up from the same height
     * (the lift is symmetric about the middle of the step) */
    r->u = r->u > 1.0f - AK_RESTEP_RISE ? 1.0f - r->u : akf_min(r->u, AK_RESTEP_RISE);
    r->fixed = 1;
    r->carry0 = carry_at(r, r->u);
    r->from = now;
    r->to = to;
}

void ak_restep_advance(ak_restep *r, float dt, int32_t hover)
{
    if (!r->on || !(dt > 0.0f)) return;
    const float top = 1.0f - AK_RESTEP_RISE;
    float u = r->u + dt / r->duration;
    if (hover && r->u <= top && u > top) u = top;
    r->u = u;
    if (r->u >= 1.0f) r->on = 0;
}

float ak_restep_lift(const ak_restep *r)
{
    if (!r->on) return 0.0f;
    return r->height * smooth01(r->u / AK_RESTEP_RISE) * smooth01((1.0f - r->u) / AK_RESTEP_RISE);
}

float ak_restep_left(const ak_restep *r)
{
    return r->on ? (1.0f - r->u) * r->duration : 0.0f;
}

int32_t ak_restep_rising(const ak_restep *r)
{
    return r->on && r->u > 0.0f && r->u < AK_RESTEP_RISE;
}

int32_t ak_restep_carried(const ak_restep *r)
{
    return !r->on || r->u >= AK_RESTEP_CARRY_TO;
}

float ak_restep_shortest(float distance, float speed)
{
    /* a smoothstep's steepest slope is 1.5 */
    return 1.5f * distance / ((AK_RESTEP_CARRY_TO - AK_RESTEP_STOP_CARRY_FROM) * speed);
}

ak_vec3 ak_restep_hold(const ak_restep *r, ak_vec3 at)
{
    if (!r->on) return ak_vec3_make(0, 0, 0);
    const float carry = carry_at(r, r->u);
    if (r->fixed) {
        const float k = akf_clamp((carry - r->carry0) / (1.0f - r->carry0), 0.0f, 1.0f);
        return ak_vec3_make(r->from.x + k * (r->to.x - r->from.x) - at.x, 0.0f,
                            r->from.z + k * (r->to.z - r->from.z) - at.z);
    }
    return ak_vec3_make((1.0f - carry) * (r->from.x - at.x), 0.0f,
                        (1.0f - carry) * (r->from.z - at.z));
}
