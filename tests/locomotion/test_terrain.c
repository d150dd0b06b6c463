/* Ground: terrain kinds, heightmap mapping, normals, rays. */
#include "test_util.h"
#include "animkit/ground.h"

static void terrain_flat_is_level_and_ends_at_its_extent(void **state)
{
    (void)state;
    ak_terrain_params p = ak_terrain_defaults();
    p.kind = AK_TERRAIN_FLAT;
    p.base_height = 0.25f;
    p.size = 10.0f;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&p, &t, NULL), AK_OK);
    ak_ground_hit h;
    assert_int_equal(ak_terrain_sample(t, 1.0f, -4.9f, &h), 1);
    AKT_NEAR(h.height, 0.25f, 0);
    AKT_NEAR(h.normal.y, 1.0f, 0);
    assert_int_equal(ak_terrain_sample(t, 5.01f, 0.0f, &h), 0);
    assert_int_equal(h.hit, 0);
    ak_terrain_destroy(t);
}

static void terrain_hills_slope_stays_under_limit_and_seed_repeats(void **state)
{
    (void)state;
    ak_terrain_params p = ak_terrain_defaults(); /* hills, 18 degrees */
    ak_terrain *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(ak_terrain_create(&p, &a, NULL), AK_OK);
    assert_int_equal(ak_terrain_create(&p, &b, NULL), AK_OK);
    p.seed = 2;
    assert_int_equal(ak_terrain_create(&p, &c, NULL), AK_OK);
    const float slope = ak_terrain_max_slope(a);
    assert_true(slope <= AKT_RAD(18.0f + 1e-3f)); /* radians */
    assert_true(slope > AKT_RAD(15.0f)); /* the scaling hits the limit on the steepest cell */
    float lo, hi;
    ak_terrain_info(a, NULL, NULL, &lo, &hi);
    assert_true(hi - lo > 1.0f); /* real hills, not a plane */
    int differ = 0;
    for (int i = 0; i < 50; ++i) {
        const float x = -18.0f + 0.71f * (float)i, z = 13.0f - 0.53f * (float)i;
        ak_ground_hit ha, hb, hc;
        ak_terrain_sample(a, x, z, &ha);
        ak_terrain_sample(b, x, z, &hb);
        ak_terrain_sample(c, x, z, &hc);
        assert_true(ha.height == hb.height);
        differ += fabsf(ha.height - hc.height) > 1e-3f;
        /* Every sampled slope is under 20 degrees. */
        assert_true(acosf(ha.normal.y) * 180.0f / 3.14159265f < 20.0f);
    }
    assert_true(differ > 40);
    ak_terrain_destroy(a);
    ak_terrain_destroy(b);
    ak_terrain_destroy(c);
}

/* The normal is the gradient of the same bilinear surface the height comes from: compare
 * with central differences of the height inside a cell. */
static void terrain_normals_match_the_height_gradient(void **state)
{
    (void)state;
    ak_terrain_params p = ak_terrain_defaults();
    p.seed = 7;
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&p, &t, NULL), AK_OK);
    akt_rng r = {12345};
    for (int i = 0; i < 500; ++i) {
        /* stay away from cell edges (cell 0.25 m), where the bilinear gradient jumps */
        const float cx = -15.0f + 0.25f * (float)(int)akt_uniform(&r, 0, 120),
                    cz = -15.0f + 0.25f * (float)(int)akt_uniform(&r, 0, 120);
        const float x = cx + akt_uniform(&r, 0.05f, 0.2f), z = cz + akt_uniform(&r, 0.05f, 0.2f);
        ak_ground_hit h, hx0, hx1, hz0, hz1;
        const float e = 0.01f;
        ak_terrain_sample(t, x, z, &h);
        ak_terrain_sample(t, x - e, z, &hx0);
        ak_terrain_sample(t, x + e, z, &hx1);
        ak_terrain_sample(t, x, z - e, &hz0);
        ak_terrain_sample(t, x, z + e, &hz1);
        const float gx = (hx1.height - hx0.height) / (2 * e),
                    gz = (hz1.height - hz0.height) / (2 * e);
        const float inv = 1.0f / sqrtf(gx * gx + 1 + gz * gz);
        AKT_NEAR(h.normal.x, -gx * inv, 2e-3);
        AKT_NEAR(h.normal.y, inv, 2e-3);
        AKT_NEAR(h.normal.z, -gz * inv, 2e-3);
    }
    ak_terrain_destroy(t);
}

static void terrain_stairs_have_exact_steps(void **state)
{
    (void)state;
    ak_terrain_params p = ak_terrain_defaults();
    p.kind = AK_TERRAIN_STAIRS; /* 5 steps of 0.15 m, 0.5 m deep from x = -3, 1.5 m landing */
    ak_terrain *t = NULL;
    assert_int_equal(ak_terrain_create(&p, &t, NULL), AK_OK);
    const struct {
        float x, h;
    } k[] = {{-3.01f, 0.0f}, {-2.99f, 0.15f}, {-2.51f, 0.15f}, {-2.49f, 0.30f}, {-0.6f, 0.75f},
             {0.9f, 0.75f},  {1.01f, 0.60f},  {3.49f, 0.0f},   {3.6f, 0.0f}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        ak_ground_hit h;
        assert_int_equal(ak_terrain_sample(t, k[i].x, 0.3f, &h), 1);
        AKT_NEAR(h.height, k[i].h, 1e-6);
        AKT_NEAR(h.normal.y, 1.0f, 0);
    }
    ak_terrain_destroy(t);
}

/* A 3x2 P2 heightmap with --size 4 --height 2: columns at x = -2, 0, 2; rows at z = -2, 2. */
static void heightmap_pgm_maps_pixels_to_the_documented_positions(void **state)
{
    (void)state;
    const char *pgm = "P2\n# a comment\n3 2\n200\n0 100 200\n50 150 0\n";
    ak_terrain *t = NULL;
    ak_error err;
    assert_int_equal(ak_terrain_read_pgm_memory(pgm, strlen(pgm), 4.0f, 2.0f, &t, &err), AK_OK);
    ak_ground_hit h;
    ak_terrain_sample(t, -2.0f, -2.0f, &h);
    AKT_NEAR(h.height, 0.0f, 1e-6);
    ak_terrain_sample(t, 0.0f, -2.0f, &h);
    AKT_NEAR(h.height, 1.0f, 1e-6);
    ak_terrain_sample(t, 2.0f, -2.0f, &h);
    AKT_NEAR(h.height, 2.0f, 1e-6);
    ak_terrain_sample(t, -2.0f, 2.0f, &h);
    AKT_NEAR(h.height, 0.5f, 1e-6);
    ak_terrain_sample(t, 2.0f, 2.0f, &h);
    AKT_NEAR(h.height, 0.0f, 1e-6);
    /* Centre of the first cell: mean of 0, 1, 0.5, 1.5. */
    ak_terrain_sample(t, -1.0f, 0.0f, &h);
    AKT_NEAR(h.height, 0.75f, 1e-6);
    /* Bilinear at u = 0.25, v = 0.75 in the second cell (h00=1, h10=2, h01=1.5, h11=0). */
    ak_terrain_sample(t, 0.5f, 1.0f, &h);
    AKT_NEAR(h.height,
             0.75f * 0.25f * 1.0f + 0.25f * 0.25f * 2.0f + 0.75f * 0.75f * 1.5f +
                 0.25f * 0.75f * 0.0f,
             1e-6);
    ak_terrain_destroy(t);

    /* The same map as P5 with 16-bit samples (maxval 1000: two bytes, big-endian). */
    const unsigned char p5[] = {'P', '5',  ' ',  '2',  ' ',  '2',  ' ',  '1',  '0',  '0',
                                '0', '\n', 0x00, 0x00, 0x03, 0xE8, 0x01, 0xF4, 0x00, 0xFA};
    assert_int_equal(ak_terrain_read_pgm_memory((const char *)p5, sizeof p5, 10.0f, 4.0f, &t, &err),
                     AK_OK);
    ak_terrain_sample(t, 5.0f, -5.0f, &h);
    AKT_NEAR(h.height, 4.0f, 1e-6);
    ak_terrain_sample(t, -5.0f, 5.0f, &h);
    AKT_NEAR(h.height, 2.0f, 1e-6);
    ak_terrain_sample(t, 5.0f, 5.0f, &h);
    AKT_NEAR(h.height, 1.0f, 1e-6);
    ak_terrain_destroy(t);
}

static void heightmap_pgm_errors_say_where(void **state)
{
    (void)state;
    ak_terrain *t = NULL;
    ak_error err;
    const char *bad_magic = "P3\n2 2\n255\n1 2 3 4\n";
    assert_int_equal(ak_terrain_read_pgm_memory(bad_magic, strlen(bad_magic), 1, 1, &t, &err),
                     AK_ERR_PARSE);
    assert_null(t);
    const char *short_px = "P2\n2 2\n255\n1 2\n3";
    assert_int_equal(ak_terrain_read_pgm_memory(short_px, strlen(short_px), 1, 1, &t, &err),
                     AK_ERR_PARSE);
    assert_int_equal(err.line, 5);
    const char *over = "P2\n2 2\n10\n1 2 3 40\n";
    assert_int_equal(ak_terrain_read_pgm_memory(over, strlen(over), 1, 1, &t, &err), AK_ERR_PARSE);
    const char *trunc5 = "P5 2 2 255\n\x01\x02";
    assert_int_equal(ak_terrain_read_pgm_memory(trunc5, strlen(trunc5), 1, 1, &t, &err),
                     AK_ERR_PARSE);
    const char *huge = "P2\n100000 2\n255\n";
    assert_int_equal(ak_terrain_read_pgm_memory(huge, strlen(huge), 1, 1, &t, &err), AK_ERR_LIMIT);
    assert_int_equal(ak_terrain_load_pgm("no/such/file.pgm", 1, 1, &t, &err), AK_ERR_IO);
}

/* Two-phase rays: a downward ray hits only when the surface lies within its span, and the
 * generic ground without a raycast function answers rays from its height function. */
static int32_t tilted_plane(void *user, float x, float z, ak_ground_hit *out)
{
    (void)user;
    out->hit = 1;
    out->height = 0.5f * x + 1.0f;
    out->normal = ak_vec3_normalize_or(ak_vec3_make(-0.5f, 1.0f, 0.0f), ak_vec3_make(0, 1, 0));
    (void)z;
    return 1;
}

static void ground_rays_hit_within_their_span(void **state)
{
    (void)state;
    ak_ground g = {tilted_plane, NULL, NULL};
    ak_ground_hit h;
    ak_ground_ray r =
        ak_ground_ray_down(ak_vec3_make(2.0f, 1.5f, 0.0f), 1.0f, 1.0f); /* spans y 0.5..2.5 */
    assert_int_equal(ak_ground_cast(&g, &r, &h), 1);
    AKT_NEAR(h.height, 2.0f, 1e-6);
    r = ak_ground_ray_down(ak_vec3_make(2.0f, 0.5f, 0.0f), 1.0f,
                           1.0f); /* spans -0.5..1.5: surface at 2 above */
    assert_int_equal(ak_ground_cast(&g, &r, &h), 0);
    assert_int_equal(ak_ground_query(&g, -2.0f, 3.0f, &h), 1);
    AKT_NEAR(h.height, 0.0f, 1e-6);
    ak_ground empty = {NULL, NULL, NULL};
    assert_int_equal(ak_ground_query(&empty, 0, 0, &h), 0);
    assert_int_equal(ak_ground_query(NULL, 0, 0, &h), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(terrain_flat_is_level_and_ends_at_its_extent),
        cmocka_unit_test(terrain_hills_slope_stays_under_limit_and_seed_repeats),
        cmocka_unit_test(terrain_normals_match_the_height_gradient),
        cmocka_unit_test(terrain_stairs_have_exact_steps),
        cmocka_unit_test(heightmap_pgm_maps_pixels_to_the_documented_positions),
        cmocka_unit_test(heightmap_pgm_errors_say_where),
        cmocka_unit_test(ground_rays_hit_within_their_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
