/* Status names, the error record and the parameter range check (src/core/status.c): the
 * range check refuses NULL and each value outside a made-up table with the field's name, NaN
 * only where the table allows it, the bounds themselves accepted. */
#include "test_params.h"

typedef struct two_floats {
    float speed; /* [0, 10] */
    int32_t count;
    float blend; /* [0, 1] or NaN */
} two_floats;

static const ak_param_range k_ranges[] = {
    {"speed", offsetof(two_floats, speed), 0.0f, 10.0f, 0},
    {"blend", offsetof(two_floats, blend), 0.0f, 1.0f, 1},
};
static const ak_param_table k_table = {"two_floats", k_ranges, 2};

static int32_t check(const void *params, ak_error *err)
{
    return ak_params_check(&k_table, params, err);
}

static void params_check_validity(void **state)
{
    (void)state;
    const two_floats ok = {5.0f, 3, 0.5f};
    /* 7 probes for speed, 6 for blend (NaN allowed) */
    assert_int_equal(akt_check_param_table(&k_table, &ok, sizeof ok, check), 13);
    ak_error err;
    assert_int_equal(ak_params_check(NULL, &ok, &err), AK_ERR_INVALID_ARG);
    assert_string_equal(err.message, "null params");
    two_floats p = ok;
    p.blend = NAN;
    assert_int_equal(ak_params_check(&k_table, &p, &err), AK_OK);
    p = ok;
    p.speed = 12.5f;
    assert_int_equal(ak_params_check(&k_table, &p, &err), AK_ERR_INVALID_ARG);
    assert_string_equal(err.message, "speed = 12.5: must be in [0, 10]");
    assert_int_equal(err.status, AK_ERR_INVALID_ARG);
    p = ok;
    p.blend = -0.25f;
    assert_int_equal(ak_params_check(&k_table, &p, &err), AK_ERR_INVALID_ARG);
    assert_string_equal(err.message, "blend = -0.25: must be in [0, 1] or NaN");
    /* NULL err is allowed */
    assert_int_equal(ak_params_check(&k_table, &p, NULL), AK_ERR_INVALID_ARG);
}

static void param_find_returns_the_entry(void **state)
{
    (void)state;
    assert_ptr_equal(ak_param_find(&k_table, "speed"), &k_ranges[0]);
    assert_ptr_equal(ak_param_find(&k_table, "blend"), &k_ranges[1]);
    assert_null(ak_param_find(&k_table, "spee"));
    assert_null(ak_param_find(&k_table, NULL));
    assert_null(ak_param_find(NULL, "speed"));
}

static void status_names_and_error_record(void **state)
{
    (void)state;
    const int32_t codes[] = {AK_OK,        AK_ERR_INVALID_ARG, AK_ERR_PARSE,     AK_ERR_IO,
                             AK_ERR_LIMIT, AK_ERR_NOMEM,       AK_ERR_NOT_FOUND, AK_ERR_DEGENERATE,
                             AK_ERR_STATE};
    const char *const names[] = {
        "AK_OK",        "AK_ERR_INVALID_ARG", "AK_ERR_PARSE",      "AK_ERR_IO",   "AK_ERR_LIMIT",
        "AK_ERR_NOMEM", "AK_ERR_NOT_FOUND",   "AK_ERR_DEGENERATE", "AK_ERR_STATE"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i)
        assert_string_equal(ak_status_name(codes[i]), names[i]);
    assert_string_equal(ak_status_name(12345), "AK_ERR_UNKNOWN");
    assert_string_equal(ak_version(), AK_VERSION_STRING);
    ak_error err;
    assert_int_equal(ak_error_set(&err, AK_ERR_PARSE, 42, "bad %s at %d", "token", 7),
                     AK_ERR_PARSE);
    assert_int_equal(err.status, AK_ERR_PARSE);
    assert_int_equal(err.line, 42);
    assert_int_equal(err.column, 0);
    assert_string_equal(err.message, "bad token at 7");
    /* a message longer than the record is cut, NUL-terminated */
    char longtext[600];
    memset(longtext, 'x', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    ak_error_set(&err, AK_ERR_IO, 1, "%s", longtext);
    assert_int_equal(strlen(err.message), sizeof err.message - 1);
    ak_error_clear(&err);
    assert_int_equal(err.status, AK_OK);
    assert_int_equal(err.line, 0);
    assert_string_equal(err.message, "");
    ak_error_clear(NULL);
    assert_int_equal(ak_error_set(NULL, AK_ERR_LIMIT, 0, "x"), AK_ERR_LIMIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(params_check_validity),
        cmocka_unit_test(param_find_returns_the_entry),
        cmocka_unit_test(status_names_and_error_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
