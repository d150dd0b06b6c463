/* A re-step: a foot that must move while its pose source has it down (a release, a landing
 * that waits) lifts, moves and lands, as a person takes a short adjusting step, instead of
 * sliding along the ground. The shape of the step (locomotion/internal.h, ak_restep):
 *  - lift: up over the first AK_RESTEP_RISE of the step, held at its height, down over the
 *    last AK_RESTEP_RISE (smoothstep each way);
 *  - carry: the horizontal move, between AK_RESTEP_CARRY_FROM and AK_RESTEP_CARRY_TO
 *    (smoothstep), where the lift is half its height or more, so no point moves along the ground;
 *  - the descent follows the end point (carry 1), so the foot lands where its source has it. */
#include "core/xform_inline.h"
#include "locomotion/internal.h"

#define AK_RESTEP_RISE       0.3f
#define AK_RESTEP_CARRY_FROM 0.15f
#define AK_RESTEP_CARRY_TO   0.7f

/* The step's figures, from the captures' own swings (the test captures' walks, CMU 02_01,
 * 02_02, 07_01 and 07_04, as the matcher's databases cut them: a full swing lasts 0.50-0.73 s and
 * lifts the lower of heel and toe 9.3-13.5 cm, carrying the foot about twice the stride's
 * 0.65-0.75 m, 2.3-2.8 m/s on average). A short adjusting step lifts about half a walking
 * swing's height, 4 cm, up to 8 cm for a long one (AK_RESTEP_HEIGHT_PER_M over its length),
 * and lasts AK_RESTEP_TIME_MIN plus its length at AK_RESTEP_PACE (a swing's mean pace), at
 * most AK_RESTEP_TIME_MAX. */
#define AK_RESTEP_HEIGHT_MIN   0.04f
#define AK_RESTEP_HEIGHT_MAX   0.08f
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
    r->u = 0.0f;
    r->from = from;
    r->duration = akf_clamp(AK_RESTEP_TIME_MIN + distance / AK_RESTEP_PACE, AK_RESTEP_TIME_MIN,
                            AK_RESTEP_TIME_MAX);
    r->height = akf_clamp(AK_RESTEP_HEIGHT_MIN + AK_RESTEP_HEIGHT_PER_M * distance,
                          AK_RESTEP_HEIGHT_MIN, AK_RESTEP_HEIGHT_MAX);
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

int32_t ak_restep_carried(const ak_restep *r)
{
    return !r->on || r->u >= AK_RESTEP_CARRY_TO;
}

ak_vec3 ak_restep_hold(const ak_restep *r, ak_vec3 at)
{
    if (!r->on) return ak_vec3_make(0, 0, 0);
    const float carry =
        smooth01((r->u - AK_RESTEP_CARRY_FROM) / (AK_RESTEP_CARRY_TO - AK_RESTEP_CARRY_FROM));
    return ak_vec3_make((1.0f - carry) * (r->from.x - at.x), 0.0f,
                        (1.0f - carry) * (r->from.z - at.z));
}
