/* The one critically damped spring (src/core/spring.h), worked numbers: the step response
 * x(t) = g - (g - x0)(1 + w t) exp(-w t) from rest, the half-life convention, no overshoot at
 * any frame time, the same value at the same time at 30, 60 and 120 Hz, a goal moving at a
 * constant rate followed without lag, the decay and vector forms equal to the scalar step,
 * and the acceleration-limited step's second difference within its bound. */
#include "core/spring.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define NEAR(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

/* From rest at 0 toward 1 over t seconds in n equal steps. */
static ak_spring1 step_response(float omega, float t, int n)
{
    ak_spring1 s = {0.0f, 0.0f};
    for (int i = 0; i < n; ++i)
        aks_spring_step(&s, 1.0f, 0.0f, omega, t / (float)n);
    return s;
}

static void step_response_is_the_closed_form(void **state)
{
    (void)state;
    /* omega t = 1: 1 - 2/e = 0.264241; the rate omega^2 t exp(-omega t) = 10 * 0.367879 */
    const ak_spring1 s = step_response(10.0f, 0.1f, 6);
    NEAR(s.x, 1.0 - 2.0 / exp(1.0), 1e-6);
    NEAR(s.v, 10.0 * exp(-1.0), 1e-5);
    /* omega t = 3: 1 - 4 exp(-3) = 0.800852 */
    NEAR(step_response(10.0f, 0.3f, 18).x, 1.0 - 4.0 * exp(-3.0), 1e-6);
}

static void half_life_leaves_the_worked_fraction(void **state)
{
    (void)state;
    /* omega = 2 ln 2 / h: after h the error is (1 + 2 ln 2) / 4 = 0.596574 of the step */
    NEAR(aks_spring_omega(0.25f), 2.0 * log(2.0) / 0.25, 1e-5);
    const float h = 0.25f;
    NEAR(1.0f - step_response(aks_spring_omega(h), h, 15).x, (1.0 + 2.0 * log(2.0)) / 4.0, 1e-6);
    /* half way at 1.2105 half-lives: (1 + x) exp(-x) = 1/2 at x = 1.678347 */
    NEAR(step_response(aks_spring_omega(h), 1.678347f / aks_spring_omega(h), 20).x, 0.5, 1e-5);
    /* a half-life under 1e-4 s is taken as 1e-4 s (no division by zero) */
    NEAR(aks_spring_omega(0.0f), 2.0 * log(2.0) / 1e-4, 1.0);
}

static void no_overshoot_at_any_frame_time(void **state)
{
    (void)state;
    /* omega dt up to 100 (semi-implicit Euler diverges above 2): monotone, never past 1 */
    const float omegas[3] = {5.0f, 60.0f, 3000.0f};
    for (int k = 0; k < 3; ++k) {
        ak_spring1 s = {0.0f, 0.0f};
        float last = 0.0f;
        for (int i = 0; i < 120; ++i) {
            aks_spring_step(&s, 1.0f, 0.0f, omegas[k], 1.0f / 30.0f);
            assert_true(s.x >= last - 1e-7f);
            assert_true(s.x <= 1.0f + 1e-6f);
            assert_true(isfinite(s.v));
            last = s.x;
        }
        NEAR(s.x, 1.0, 1e-3);
    }
}

static void thirty_sixty_and_a_hundred_twenty_hz_agree(void **state)
{
    (void)state;
    /* from x = 0.3 moving at -2/s toward a goal 1.5 that rises at 0.4/s, omega 12: after
     * 0.5 s the three rates give one value (exact per step, so only rounding differs) */
    const int hz[3] = {30, 60, 120};
    float x[3], v[3];
    for (int k = 0; k < 3; ++k) {
        ak_spring1 s = {0.3f, -2.0f};
        const float dt = 1.0f / (float)hz[k];
        for (int i = 0; i < hz[k] / 2; ++i) {
            const float t0 = (float)i * dt;
            aks_spring_step(&s, 1.5f + 0.4f * t0, 0.4f, 12.0f, dt);
        }
        x[k] = s.x;
        v[k] = s.v;
    }
    /* closed form at t = 0.5: e0 = -1.2, e'0 = -2.4, j1 = -2.4 + 12 * -1.2 = -16.8 */
    const double e = exp(-6.0), ex = (-1.2 + -16.8 * 0.5) * e;
    for (int k = 0; k < 3; ++k) {
        NEAR(x[k], 1.5 + 0.4 * 0.5 + ex, 1e-5);
        NEAR(v[k], 0.4 + (-2.4 - 12.0 * -16.8 * 0.5) * e, 1e-4);
    }
}

static void a_goal_moving_steadily_is_followed_without_lag(void **state)
{
    (void)state;
    ak_spring1 s = {2.0f, 0.5f}; /* on the goal, at its rate */
    for (int i = 0; i < 60; ++i)
        aks_spring_step(&s, 2.0f + 0.5f * (float)i / 60.0f, 0.5f, 20.0f, 1.0f / 60.0f);
    NEAR(s.x, 2.5, 1e-5);
    NEAR(s.v, 0.5, 1e-5);
    /* dt 0 (or NaN) leaves the spring as it is */
    aks_spring_step(&s, 9.0f, 0.0f, 20.0f, 0.0f);
    aks_spring_step(&s, 9.0f, 0.0f, 20.0f, NAN);
    NEAR(s.x, 2.5, 1e-5);
}

static void decay_and_vector_forms_are_the_scalar_step(void **state)
{
    (void)state;
    /* moving with the spring (v = -omega x) the decay is a pure exponential */
    float x = 0.2f, v = -8.0f * 0.2f;
    for (int i = 0; i < 30; ++i)
        aks_spring_decay(&x, &v, 8.0f, 1.0f / 60.0f);
    NEAR(x, 0.2 * exp(-4.0), 1e-6);
    NEAR(v, -8.0 * 0.2 * exp(-4.0), 1e-5);
    /* the vector form, component by component */
    ak_vec3 xv = akv_make(0.1f, -0.4f, 2.0f), vv = akv_make(1.0f, 0.0f, -3.0f);
    const ak_vec3 goal = akv_make(0.5f, 0.5f, -0.5f);
    ak_spring1 c[3] = {{0.1f, 1.0f}, {-0.4f, 0.0f}, {2.0f, -3.0f}};
    const float g[3] = {0.5f, 0.5f, -0.5f}, dt = 1.0f / 30.0f, w = 7.0f;
    for (int i = 0; i < 10; ++i) {
        aks_spring3_step_k(&xv, &vv, goal, w, dt, expf(-w * dt));
        for (int k = 0; k < 3; ++k)
            aks_spring_step(&c[k], g[k], 0.0f, w, dt);
    }
    NEAR(xv.x, c[0].x, 1e-6);
    NEAR(xv.y, c[1].x, 1e-6);
    NEAR(xv.z, c[2].x, 1e-6);
    NEAR(vv.x, c[0].v, 1e-5);
    NEAR(vv.z, c[2].v, 1e-5);
}

static void limited_step_holds_its_acceleration_bound(void **state)
{
    (void)state;
    /* a 0.3 m drop asked of a stiff spring: the second difference over any three frames is
     * at most the bound times dt^2, and it still arrives */
    const float dt = 1.0f / 60.0f, down = 2.5f, up = 5.0f;
    ak_spring1 s = {0.0f, 0.0f};
    float y[3] = {0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 240; ++i) {
        aks_spring_step_limited(&s, -0.3f, 0.0f, 30.0f, dt, down, up);
        y[2] = y[1];
        y[1] = y[0];
        y[0] = s.x;
        if (i >= 2) {
            const float a = (y[0] - 2.0f * y[1] + y[2]) / (dt * dt);
            assert_true(a >= -down - 1e-2f && a <= up + 1e-2f);
        }
    }
    NEAR(s.x, -0.3, 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(step_response_is_the_closed_form),
        cmocka_unit_test(half_life_leaves_the_worked_fraction),
        cmocka_unit_test(no_overshoot_at_any_frame_time),
        cmocka_unit_test(thirty_sixty_and_a_hundred_twenty_hz_agree),
        cmocka_unit_test(a_goal_moving_steadily_is_followed_without_lag),
        cmocka_unit_test(decay_and_vector_forms_are_the_scalar_step),
        cmocka_unit_test(limited_step_holds_its_acceleration_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
