/* The one critically damped spring of the library: every smoothed quantity (the floor under a
 * walking character, the hips' height, the matcher's velocity and offsets) moves with it.
 *
 * x'' = w^2 (g - x) + 2 w (g' - x') with the goal g moving at a constant rate r over the step,
 * solved exactly (Holden, "Spring-It-On", 2021): with e = x - g, j0 = e(0), j1 = e'(0) + w j0,
 *   e(t)  = (j0 + j1 t) exp(-w t)
 *   e'(t) = (e'(0) - w j1 t) exp(-w t)
 * so any frame time gives the same curve and a large w never overshoots or blows up (the
 * semi-implicit Euler form it replaces does, for w dt > 2). */
#ifndef AK_CORE_SPRING_H
#define AK_CORE_SPRING_H

#include "core/xform_inline.h"

/* State of one scalar spring. */
typedef struct ak_spring1 {
    float x; /* value */
    float v; /* its rate per second */
} ak_spring1;

/* One step of dt seconds toward `goal`, which itself moves at `goal_rate` per second over the
 * step (its value at the end of the step is goal + goal_rate dt); omega > 0 in 1/s. */
AK_INLINE void aks_spring_step(ak_spring1 *s, float goal, float goal_rate, float omega, float dt)
{
    if (!(dt > 0.0f)) return;
    const float e0 = s->x - goal, ev0 = s->v - goal_rate;
    const float j1 = ev0 + omega * e0, k = expf(-omega * dt);
    s->x = goal + goal_rate * dt + (e0 + j1 * dt) * k;
    s->v = goal_rate + (ev0 - omega * j1 * dt) * k;
}

/* The same step with the spring's acceleration over the step held within [-down, up]
 * (m/s^2 for a height): the step's mean acceleration (v1 - v0) / dt is clamped and the value
 * moves with the clamped rate, so the second difference of x over any three frames is at most
 * the bound times dt^2. */
AK_INLINE void aks_spring_step_limited(ak_spring1 *s, float goal, float goal_rate, float omega,
                                       float dt, float down, float up)
{
    if (!(dt > 0.0f)) return;
    ak_spring1 n = *s;
    aks_spring_step(&n, goal, goal_rate, omega, dt);
    const float a = akf_clamp((n.v - s->v) / dt, -down, up);
    s->v += a * dt;
    s->x += s->v * dt;
}

#endif
