/* The capsule controller: walls, steps, slopes, gravity. */
#include "test_util.h"

static ak_terrain *flat_terrain(float size)
{
    ak_terrain_params p = ak_terrain_defaults();
    p.kind = AK_TERRAIN_FLAT;
    p.size = size;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&p, &t, NULL), AK_OK);
    return t;
}

/* Distance in XZ from p to the box's rectangle. */
static float box_distance(const ak_box *b, ak_vec3 p)
{
    const float cx = p.x < b->min.x ? b->min.x : (p.x > b->max.x ? b->max.x : p.x);
    const float cz = p.z < b->min.z ? b->min.z : (p.z > b->max.z ? b->max.z : p.z);
    return sqrtf((p.x - cx) * (p.x - cx) + (p.z - cz) * (p.z - cz));
}

/* Walking straight and diagonally into a wall for seconds never puts the capsule inside it,
 * and the diagonal walk slides along it. */
static void walking_at_a_wall_never_enters_it(void **state)
{
    (void)state;
    ak_terrain *t = flat_terrain(40.0f);
    ak_ground g = ak_terrain_ground(t);
    const ak_box wall = {{-5.0f, 0.0f, 3.0f}, {5.0f, 2.5f, 3.5f}};
    const ak_vec3 dirs[3] = {{0, 0, 1}, {0.6f, 0, 0.8f}, {-0.2f, 0, 1}};
    for (int d = 0; d < 3; ++d) {
        ak_controller c;
        ak_controller_params p = ak_controller_defaults();
        assert_int_equal(ak_controller_init(&c, &p, ak_vec3_make(0, 0, 0), NULL), AK_OK);
        c.grounded = 1;
        float min_dist = 1e9f;
        for (int f = 0; f < 300; ++f) {
            ak_controller_result r;
            /* 1.5 m/s at 60 Hz, plus some frames with a huge step (a hitch) */
            const float speed = (f % 50 == 49) ? 1.0f : 0.025f;
            assert_int_equal(
                ak_controller_move(&c, &g, &wall, 1, ak_vec3_scale(dirs[d], speed), 1.0f / 60, &r),
                AK_OK);
            const float dist = box_distance(&wall, c.position);
            if (dist < min_dist) min_dist = dist;
        }
        assert_true(min_dist >= p.radius - 1e-4f);
        if (d == 1) assert_true(c.position.x > 3.0f); /* slid along the wall */
    }
    ak_terrain_destroy(t);
}

/* A huge finite move (1e30 m in x and z: its squared length is infinite) is split into the
 * most steps (1,000) instead of converting an infinite step count to int (undefined; the
 * motion-database fuzz target found it); the capsule stays finite. */
static void a_huge_move_keeps_the_capsule_finite(void **state)
{
    (void)state;
    ak_terrain *t = flat_terrain(40.0f);
    ak_ground g = ak_terrain_ground(t);
    ak_controller c;
    ak_controller_params p = ak_controller_defaults();
    assert_int_equal(ak_controller_init(&c, &p, ak_vec3_make(0, 0, 0), NULL), AK_OK);
    c.grounded = 1;
    ak_controller_result r;
    const int32_t st =
        ak_controller_move(&c, &g, NULL, 0, ak_vec3_make(1e30f, 0.0f, 1e30f), 1.0f / 60, &r);
    assert_true(st == AK_OK || st < 0);
    assert_true(isfinite(c.position.x) && isfinite(c.position.y) && isfinite(c.position.z));
    ak_terrain_destroy(t);
}

/* Steps: a rise at or below step_height is climbed, a higher one blocks. */
static void a_step_above_the_step_height_blocks(void **state)
{
    (void)state;
    for (int k = 0; k < 2; ++k) {
        ak_terrain_params p = ak_terrain_defaults();
        p.kind = AK_TERRAIN_STAIRS;
        p.step_height = k == 0 ? 0.25f : 0.35f; /* controller step height 0.3 */
        p.step_count = 1;
        p.stairs_start_x = 1.0f;
        p.step_depth = 3.0f;
        ak_terrain *t = NULL;
        assert_int_equal(ak_terrain_create(&p, &t, NULL), AK_OK);
        ak_ground g = ak_terrain_ground(t);
        ak_controller c;
        ak_controller_params cp = ak_controller_defaults();
        assert_int_equal(ak_controller_init(&c, &cp, ak_vec3_make(0, 0, 0), NULL), AK_OK);
        c.grounded = 1;
        ak_controller_result r;
        int hit_step = 0;
        for (int f = 0; f < 120; ++f) {
            ak_controller_move(&c, &g, NULL, 0, ak_vec3_make(0.025f, 0, 0), 1.0f / 60, &r);
            hit_step |= r.hit_step;
        }
        if (k == 0) {
            assert_true(c.position.x > 2.5f);
            AKT_NEAR(c.position.y, 0.25f, 1e-5);
            assert_false(hit_step);
        } else {
            assert_true(c.position.x < 1.0f);
            AKT_NEAR(c.position.y, 0.0f, 1e-5);
            assert_true(hit_step);
        }
        ak_terrain_destroy(t);
    }
}

/* A plane rising along +x at a given angle, as a heightmap. */
static ak_terrain *ramp(float deg)
{
    float h[2 * 2];
    const float size = 20.0f, k = tanf(deg * 3.14159265f / 180.0f);
    h[0] = h[2] = -10.0f * k; /* column 0 at x = -10 */
    h[1] = h[3] = 10.0f * k;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create_grid(h, 2, 2, size, &t, NULL), AK_OK);
    return t;
}

/* Slopes: 30 degrees climbs, 50 degrees blocks (limit 45), and going down the steep one is
 * allowed. */
static void a_slope_above_the_limit_blocks(void **state)
{
    (void)state;
    const float slopes[2] = {30.0f, 50.0f};
    for (int k = 0; k < 2; ++k) {
        ak_terrain *t = ramp(slopes[k]);
        ak_ground g = ak_terrain_ground(t);
        ak_controller c;
        ak_controller_params cp = ak_controller_defaults();
        ak_ground_hit h;
        ak_terrain_sample(t, 0, 0, &h);
        assert_int_equal(ak_controller_init(&c, &cp, ak_vec3_make(0, h.height, 0), NULL), AK_OK);
        c.grounded = 1;
        ak_controller_result r;
        int hit_slope = 0;
        for (int f = 0; f < 60; ++f) {
            ak_controller_move(&c, &g, NULL, 0, ak_vec3_make(0.02f, 0, 0), 1.0f / 60, &r);
            hit_slope |= r.hit_slope;
        }
        if (k == 0) {
            AKT_NEAR(c.position.x, 1.2f, 1e-4);
            assert_false(hit_slope);
        } else {
            AKT_NEAR(c.position.x, 0.0f, 1e-6);
            assert_true(hit_slope);
            /* downhill is fine */
            for (int f = 0; f < 60; ++f)
                ak_controller_move(&c, &g, NULL, 0, ak_vec3_make(-0.02f, 0, 0), 1.0f / 60, &r);
            AKT_NEAR(c.position.x, -1.2f, 1e-4);
            ak_terrain_sample(t, c.position.x, 0, &h);
            assert_true(c.position.y >= h.height - 1e-5f);
        }
        ak_terrain_destroy(t);
    }
}

/* Dropped from 1.25 m it falls under gravity and lands after sqrt(2h/g) = 0.505 s. */
static void gravity_drops_the_capsule_onto_the_ground(void **state)
{
    (void)state;
    ak_terrain *t = flat_terrain(10.0f);
    ak_ground g = ak_terrain_ground(t);
    ak_controller c;
    ak_controller_params cp = ak_controller_defaults();
    assert_int_equal(ak_controller_init(&c, &cp, ak_vec3_make(0, 1.25f, 0), NULL), AK_OK);
    const float dt = 1.0f / 1000.0f;
    int f = 0;
    while (!c.grounded && f < 5000) {
        ak_controller_move(&c, &g, NULL, 0, ak_vec3_make(0, 0, 0), dt, NULL);
        ++f;
    }
    assert_true(c.grounded);
    AKT_NEAR(c.position.y, 0.0f, 0);
    AKT_NEAR((float)f * dt, sqrtf(2.0f * 1.25f / 9.81f), 0.003);
    ak_terrain_destroy(t);
}

/* A low box is a step up (stood on); validation rejects nonsense. */
static void low_boxes_are_ground_and_params_are_validated(void **state)
{
    (void)state;
    ak_terrain *t = flat_terrain(20.0f);
    ak_ground g = ak_terrain_ground(t);
    const ak_box low = {{1.0f, 0.0f, -1.0f}, {3.0f, 0.2f, 1.0f}};
    ak_controller c;
    ak_controller_params cp = ak_controller_defaults();
    assert_int_equal(ak_controller_init(&c, &cp, ak_vec3_make(0, 0, 0), NULL), AK_OK);
    c.grounded = 1;
    for (int f = 0; f < 60; ++f)
        ak_controller_move(&c, &g, &low, 1, ak_vec3_make(0.025f, 0, 0), 1.0f / 60, NULL);
    AKT_NEAR(c.position.x, 1.5f, 1e-4);
    AKT_NEAR(c.position.y, 0.2f, 1e-6);
    ak_error err;
    cp.radius = -1.0f;
    assert_int_equal(ak_controller_validate(&cp, &err), AK_ERR_INVALID_ARG);
    cp = ak_controller_defaults();
    cp.max_slope = AKT_RAD(95.0f);
    assert_int_equal(ak_controller_init(&c, &cp, ak_vec3_make(0, 0, 0), &err), AK_ERR_INVALID_ARG);
    ak_terrain_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walking_at_a_wall_never_enters_it),
        cmocka_unit_test(a_step_above_the_step_height_blocks),
        cmocka_unit_test(a_slope_above_the_limit_blocks),
        cmocka_unit_test(gravity_drops_the_capsule_onto_the_ground),
        cmocka_unit_test(low_boxes_are_ground_and_params_are_validated),
        cmocka_unit_test(a_huge_move_keeps_the_capsule_finite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
