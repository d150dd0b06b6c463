/* The flag-table engine: one table gives defaults, command-line and URL parsing, range checks
 * and --help. Tested on a small table of every type, then on the walk scenario's own table. */
#include "test_util.h"

#include "animkit/scenario.h"

typedef struct demo_params {
    char name[16];
    int32_t frames[3];  /* A:B[:STEP] */
    int32_t picture[2]; /* WxH */
    float point[3];
    float speed;
    int32_t mode;
    int32_t fast;
} demo_params;

static const ak_flag k_demo[] = {
    {.name = "name",
     .short_name = 'n',
     .type = AK_FLAG_TEXT,
     .offset = offsetof(demo_params, name),
     .size = 16,
     .def = "anna",
     .help = "a name"},
    {.name = "frames",
     .type = AK_FLAG_INT,
     .offset = offsetof(demo_params, frames),
     .count = 3,
     .min_count = 2,
     .separator = ':',
     .metavar = "A:B[:S]",
     .def = "0:10:1",
     .range = "[0,1000]",
     .help = "frames"},
    {.name = "size",
     .type = AK_FLAG_INT,
     .offset = offsetof(demo_params, picture),
     .count = 2,
     .separator = 'x',
     .metavar = "WxH",
     .def = "640x480",
     .range = "[16,8192]",
     .help = "picture"},
    {.name = "point",
     .type = AK_FLAG_FLOAT,
     .offset = offsetof(demo_params, point),
     .count = 3,
     .metavar = "X,Y,Z",
     .def = "1,2,3",
     .help = "a point"},
    {.name = "speed",
     .type = AK_FLAG_FLOAT,
     .offset = offsetof(demo_params, speed),
     .def = "0",
     .range = "(0,10]",
     .help = "0 means auto"},
    {.name = "mode",
     .type = AK_FLAG_CHOICE,
     .offset = offsetof(demo_params, mode),
     .def = "slow",
     .choices = "slow|medium|quick",
     .help = "pace"},
    {.name = "fast",
     .type = AK_FLAG_SWITCH,
     .offset = offsetof(demo_params, fast),
     .on = 1,
     .def = "0",
     .help = "go fast"},
};
static const ak_flag_table k_demo_table = {"demo", k_demo, 7};

static demo_params demo_defaults(void)
{
    demo_params p;
    memset(&p, 0x5a, sizeof p);
    assert_int_equal(ak_flags_defaults(&k_demo_table, &p, NULL), AK_OK);
    return p;
}

static int32_t parse(demo_params *p, int argc, const char **argv, ak_flags_result *r, ak_error *e)
{
    const ak_flag_table *tables[1] = {&k_demo_table};
    void *params[1] = {p};
    return ak_flags_parse_args(tables, params, 1, argc, argv, 2, r, e);
}

static void defaults_come_from_the_table(void **state)
{
    (void)state;
    const demo_params p = demo_defaults();
    assert_string_equal(p.name, "anna");
    assert_int_equal(p.frames[0], 0);
    assert_int_equal(p.frames[1], 10);
    assert_int_equal(p.frames[2], 1);
    assert_int_equal(p.picture[0], 640);
    assert_int_equal(p.picture[1], 480);
    assert_true(p.point[0] == 1.0f && p.point[1] == 2.0f && p.point[2] == 3.0f);
    assert_true(p.speed == 0.0f);
    assert_int_equal(p.mode, 0);
    assert_int_equal(p.fast, 0);
    /* The sentinel default (speed 0, outside (0,10]) passes the check. */
    assert_int_equal(ak_flags_check(&k_demo_table, &p, NULL), AK_OK);
}

static void every_form_of_flag_parses(void **state)
{
    (void)state;
    demo_params p = demo_defaults();
    const char *argv[] = {"demo",         "in.bvh",  "-n",      "bob",
                          "--frames=3:9", "--size",  "320x200", "--point",
                          "-1.5,0,2e1",   "--speed", "2.5",     "--mode",
                          "quick",        "--fast",  "--",      "--not-a-flag"};
    ak_flags_result r;
    ak_error e;
    assert_int_equal(parse(&p, 16, argv, &r, &e), AK_OK);
    assert_string_equal(p.name, "bob");
    assert_int_equal(p.frames[0], 3);
    assert_int_equal(p.frames[1], 9);
    assert_int_equal(p.frames[2], 1); /* optional third value kept its default */
    assert_int_equal(p.picture[0], 320);
    assert_int_equal(p.picture[1], 200);
    assert_true(p.point[0] == -1.5f && p.point[1] == 0.0f && p.point[2] == 20.0f);
    assert_true(p.speed == 2.5f);
    assert_int_equal(p.mode, 2);
    assert_int_equal(p.fast, 1);
    assert_int_equal(r.positional_count, 2);
    assert_string_equal(r.positional[0], "in.bvh");
    assert_string_equal(r.positional[1], "--not-a-flag");
    assert_true(ak_flags_given(&r, &k_demo_table, 0, "size"));
    assert_true(ak_flags_given(&r, &k_demo_table, 0, "name")); /* given as -n */
}

/* Each bad input is refused with a message naming the flag and what it wants. */
static void bad_values_say_what_the_flag_wants(void **state)
{
    (void)state;
    static const struct {
        const char *flag, *value, *expect;
    } bad[] = {
        {"--speed", "0", "--speed wants a number in (0,10], got '0'"},
        {"--speed", "11", "(0,10]"},
        {"--speed", "nan", "--speed wants a number"},
        {"--speed", "1e999", "--speed wants a number"},
        {"--speed", "3x", "--speed wants a number"},
        {"--frames", "5", "--frames wants A:B[:S] (3 integers in [0,1000]), got '5'"},
        {"--frames", "1:2:3:4", "--frames wants"},
        {"--frames", "1.5:3", "--frames wants"},
        {"--size", "640", "--size wants WxH"},
        {"--point", "1,2", "--point wants X,Y,Z (3 numbers)"},
        {"--mode", "fastest", "--mode wants slow, medium or quick, got 'fastest'"},
        {"--name", "a-name-far-too-long", "--name wants a value shorter than 16 bytes"},
        {"--bogus", "1", "unknown option '--bogus'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        demo_params p = demo_defaults();
        const char *argv[] = {"demo", bad[i].flag, bad[i].value};
        ak_flags_result r;
        ak_error e;
        assert_int_equal(parse(&p, 3, argv, &r, &e), AK_ERR_INVALID_ARG);
        if (!strstr(e.message, bad[i].expect))
            fail_msg("%s %s: message '%s' lacks '%s'", bad[i].flag, bad[i].value, e.message,
                     bad[i].expect);
    }
    demo_params p = demo_defaults();
    const char *missing[] = {"demo", "--speed"};
    ak_flags_result r;
    ak_error e;
    assert_int_equal(parse(&p, 2, missing, &r, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "--speed needs a value");
    const char *switch_value[] = {"demo", "--fast=1"};
    assert_int_equal(parse(&p, 2, switch_value, &r, &e), AK_ERR_INVALID_ARG);
    assert_string_equal(e.message, "--fast takes no value");
    const char *too_many[] = {"demo", "a", "b", "c"};
    assert_int_equal(parse(&p, 4, too_many, &r, &e), AK_ERR_INVALID_ARG);
    const char *help[] = {"demo", "--speed", "2", "-h", "--bogus"};
    assert_int_equal(parse(&p, 5, help, &r, &e), AK_OK);
    assert_int_equal(r.wants_help, 1);
}

static void url_query_parses_like_the_command_line(void **state)
{
    (void)state;
    demo_params a = demo_defaults(), b = demo_defaults();
    const char *argv[] = {"demo",    "--name", "a b&c",  "--frames", "2:4",
                          "--point", "1,-2,3", "--mode", "medium",   "--fast"};
    ak_flags_result r;
    ak_error e;
    assert_int_equal(parse(&a, 10, argv, &r, &e), AK_OK);
    assert_int_equal(
        ak_flags_parse_query(&k_demo_table, &b,
                             "?name=a+b%26c&frames=2%3A4&point=1,-2,3&mode=medium&fast", &r, &e),
        AK_OK);
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(ak_flags_given(&r, &k_demo_table, 0, "fast"));
    /* Switch spellings; an empty pair is skipped. */
    demo_params c = demo_defaults();
    assert_int_equal(ak_flags_parse_query(&k_demo_table, &c, "fast=0&&", &r, &e), AK_OK);
    assert_int_equal(c.fast, 0);
    assert_int_equal(ak_flags_parse_query(&k_demo_table, &c, "fast=true", &r, &e), AK_OK);
    assert_int_equal(c.fast, 1);
    static const struct {
        const char *query, *expect;
    } bad[] = {{"speed=0", "speed wants a number in (0,10], got '0'"},
               {"speed", "speed needs a value"},
               {"name=%zz", "bad URL encoding"},
               {"name=%00", "bad URL encoding"},
               {"fast=maybe", "fast wants 1 or 0"},
               {"colour=red", "unknown parameter 'colour'"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        demo_params p = demo_defaults();
        assert_int_equal(ak_flags_parse_query(&k_demo_table, &p, bad[i].query, &r, &e),
                         AK_ERR_INVALID_ARG);
        if (!strstr(e.message, bad[i].expect))
            fail_msg("%s: message '%s' lacks '%s'", bad[i].query, e.message, bad[i].expect);
    }
}

/* Two tables sharing a name: the first whose parse succeeds takes the value. */
static void a_shared_flag_goes_to_the_table_that_accepts_it(void **state)
{
    (void)state;
    demo_params p = demo_defaults();
    ak_walk_scenario_params w = ak_walk_scenario_defaults();
    const ak_flag_table *tables[2] = {ak_walk_scenario_flags(), &k_demo_table};
    void *params[2] = {&w, &p};
    const char *argv[] = {"x", "--size", "800x600", "--size", "25", "--speed", "1"};
    ak_flags_result r;
    ak_error e;
    assert_int_equal(ak_flags_parse_args(tables, params, 2, 7, argv, 0, &r, &e), AK_OK);
    assert_int_equal(p.picture[0], 800);
    assert_int_equal(p.picture[1], 600);
    assert_true(w.size == 25.0f);
    assert_true(ak_flags_given(&r, ak_walk_scenario_flags(), 0, "size"));
    assert_true(ak_flags_given(&r, &k_demo_table, 1, "size"));
    const char *bad[] = {"x", "--size", "big"};
    assert_int_equal(ak_flags_parse_args(tables, params, 2, 3, bad, 0, &r, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "--size wants a number"));
}

/* A repeatable flag collects every value in order, from the command line or the URL. */
static void a_list_flag_collects_every_value(void **state)
{
    (void)state;
    ak_walk_scenario_params w = ak_walk_scenario_defaults();
    const ak_flag_table *tables[1] = {ak_walk_scenario_flags()};
    void *params[1] = {&w};
    const char *argv[] = {"walk", "--clip", "a.bvh", "--clip", "dir/b c.bvh", "--steer", "match"};
    ak_flags_result r;
    ak_error e;
    assert_int_equal(ak_flags_parse_args(tables, params, 1, 7, argv, 0, &r, &e), AK_OK);
    assert_string_equal(w.clip, "a.bvh\ndir/b c.bvh");
    char item[64];
    assert_int_equal(ak_flags_list_item(w.clip, 1, item, sizeof item), 2);
    assert_string_equal(item, "dir/b c.bvh");
    assert_int_equal(ak_flags_list_item(w.clip, 2, item, sizeof item), 2);
    assert_string_equal(item, "");
    ak_walk_scenario_params q = ak_walk_scenario_defaults();
    assert_int_equal(ak_flags_parse_query(ak_walk_scenario_flags(), &q,
                                          "clip=a.bvh&clip=dir%2Fb+c.bvh&steer=match", &r, &e),
                     AK_OK);
    assert_memory_equal(&w, &q, sizeof w);
    const char *empty[] = {"walk", "--clip", ""};
    assert_int_equal(ak_flags_parse_args(tables, params, 1, 3, empty, 0, &r, &e),
                     AK_ERR_INVALID_ARG);
}

static void check_refuses_out_of_range_fields_set_by_code(void **state)
{
    (void)state;
    demo_params p = demo_defaults();
    ak_error e;
    p.speed = 12.0f;
    assert_int_equal(ak_flags_check(&k_demo_table, &p, &e), AK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "speed"));
    p = demo_defaults();
    p.mode = 3;
    assert_int_equal(ak_flags_check(&k_demo_table, &p, &e), AK_ERR_INVALID_ARG);
    p = demo_defaults();
    p.picture[1] = 8;
    assert_int_equal(ak_flags_check(&k_demo_table, &p, &e), AK_ERR_INVALID_ARG);
    p = demo_defaults();
    p.point[2] = INFINITY;
    assert_int_equal(ak_flags_check(&k_demo_table, &p, &e), AK_ERR_INVALID_ARG);
    p = demo_defaults();
    memset(p.name, 'x', sizeof p.name);
    assert_int_equal(ak_flags_check(&k_demo_table, &p, &e), AK_ERR_INVALID_ARG);
}

static void help_lists_every_flag_with_default_and_range(void **state)
{
    (void)state;
    char buf[4096];
    const size_t n = ak_flags_help(&k_demo_table, buf, sizeof buf);
    assert_int_equal(n, strlen(buf));
    assert_non_null(strstr(buf, "-n, --name TEXT"));
    assert_non_null(strstr(buf, "--frames A:B[:S]"));
    assert_non_null(strstr(buf, "(default 0:10:1, range [0,1000])"));
    assert_non_null(strstr(buf, "--mode slow|medium|quick"));
    assert_non_null(strstr(buf, "--fast "));
    /* A short buffer is cut but terminated, and the needed length is still returned. */
    char small[10];
    assert_int_equal(ak_flags_help(&k_demo_table, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    const ak_flag_table *walk = ak_walk_scenario_flags();
    char wbuf[8192];
    ak_flags_help(walk, wbuf, sizeof wbuf);
    for (int32_t i = 0; i < walk->count; ++i) {
        char name[64];
        snprintf(name, sizeof name, "--%s", walk->flags[i].name);
        assert_non_null(strstr(wbuf, name));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_come_from_the_table),
        cmocka_unit_test(every_form_of_flag_parses),
        cmocka_unit_test(bad_values_say_what_the_flag_wants),
        cmocka_unit_test(url_query_parses_like_the_command_line),
        cmocka_unit_test(a_shared_flag_goes_to_the_table_that_accepts_it),
        cmocka_unit_test(a_list_flag_collects_every_value),
        cmocka_unit_test(check_refuses_out_of_range_fields_set_by_code),
        cmocka_unit_test(help_lists_every_flag_with_default_and_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
