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

/* The angular frequency of a spring given as a half-life (the matcher's `*_halflife`
 * settings, Holden's convention): omega = 2 ln 2 / halflife, floored at halflife 1e-4 s. The
 * error decays as exp(-omega t) = 1/4 per half-life; from rest a step keeps (1 + 2 ln 2) / 4 =
 * 0.597 of itself after one half-life and is half way at 1.21 half-lives. */
AK_INLINE float aks_spring_omega(float halflife)
{
    return 1.3862944f / (halflife > 1e-4f ? halflife : 1e-4f);
}

/* A spring toward 0 (a decaying offset): aks_spring_step with goal 0 and no goal rate. */
AK_INLINE void aks_spring_decay(float *x, float *v, float omega, float dt)
{
    ak_spring1 s = {*x, *v};
    aks_spring_step(&s, 0.0f, 0.0f, omega, dt);
    *x = s.x;
    *v = s.v;
}

/* The same for a vector x with rate v toward `goal` (at rest), k = exp(-omega dt) given by the
 * caller (one exp per frame for many springs of one omega: the matcher's per-joint offsets). */
AK_INLINE void aks_spring3_step_k(ak_vec3 *x, ak_vec3 *v, ak_vec3 goal, float omega, float dt,
                                  float k)
{
    const ak_vec3 e0 = akv_sub(*x, goal);
    const ak_vec3 j1 = akv_add(*v, akv_scale(e0, omega));
    *x = akv_add(goal, akv_scale(akv_add(e0, akv_scale(j1, dt)), k));
    *v = akv_scale(akv_sub(*v, akv_scale(j1, omega * dt)), k);
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
