/* The small JSON reader (src/io/json.c): malformed text refused with AK_ERR_PARSE and its
 * line (trailing garbage, a missing comma, an unclosed string, numbers outside RFC 8259's
 * grammar such as "01" and "1.", nesting beyond 64, bad UTF-8),
 * NULL-safe lookups; then worked values: numbers (exponents, negatives), strings with every
 * escape and a surrogate pair, arrays and objects by index and key, the line of each value;
 * the UTF-8 length rule of RFC 3629. */
#include "test_params.h"
#include "io/json.h"

static int32_t parse(const char *text, ak_error *err)
{
    akj_doc d;
    memset(&d, 0, sizeof d);
    const int32_t st = akj_parse(text, strlen(text), &d, err);
    akj_free(&d);
    return st;
}

static void json_arguments_validity(void **state)
{
    (void)state;
    ak_error err;
    const struct {
        const char *text;
        int32_t line;
    } bad[] = {{"{\"a\": 1} x", 1},
               {"{\"a\": 1\n \"b\": 2}", 2},
               {"[1, 2,\n\n \"open]", 3},
               {"[1, 2,]", 1},
               {"{\"a\" 1}", 1},
               {"01", 1},
               {"[1.]", 1},
               {"[1e]", 1},
               {"[-]", 1},
               {"\"\\x\"", 1},
               {"\"\xc0\xaf\"", 1},
               {"", 1},
               {"[tru]", 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const int32_t st = parse(bad[i].text, &err);
        if (st != AK_ERR_PARSE) fail_msg("'%s': status %s", bad[i].text, ak_status_name(st));
        if (err.line != bad[i].line)
            fail_msg("'%s': line %d, expected %d (%s)", bad[i].text, (int)err.line,
                     (int)bad[i].line, err.message);
        assert_true(err.message[0] != '\0');
    }
    /* values nest to depth 64 counting the root as 0: 65 arrays parse, 66 do not */
    char deep[200];
    memset(deep, '[', 66);
    memset(deep + 66, ']', 66);
    deep[132] = '\0';
    const int32_t st = parse(deep, &err);
    assert_true(st == AK_ERR_LIMIT || st == AK_ERR_PARSE);
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = '\0';
    assert_int_equal(parse(deep, &err), AK_OK);
    /* lookups on nothing */
    akj_doc d;
    memset(&d, 0, sizeof d);
    assert_int_equal(akj_parse("{}", 2, &d, &err), AK_OK);
    assert_int_equal(akj_get(&d, 0, "a"), -1);
    assert_int_equal(akj_at(&d, 0, 0), -1);
    assert_int_equal(akj_type(&d, -1), AKJ_NULL);
    assert_null(akj_string(&d, 0));
    AKT_NEAR(akj_number(&d, 0, 7.5), 7.5, 0.0);
    akj_free(&d);
}

static void values_read_as_written(void **state)
{
    (void)state;
    static const char text[] = "{\n \"n\": [-0.5, 1e3, 2.5E-2, 0, -12],\n"
                               " \"s\": \"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00\",\n"
                               " \"o\": {\"t\": true, \"f\": false, \"z\": null}\n}";
    akj_doc d;
    memset(&d, 0, sizeof d);
    ak_error err;
    assert_int_equal(akj_parse(text, sizeof text - 1, &d, &err), AK_OK);
    assert_int_equal(akj_type(&d, 0), AKJ_OBJECT);
    const int32_t n = akj_get(&d, 0, "n");
    assert_int_equal(akj_type(&d, n), AKJ_ARRAY);
    const double want[] = {-0.5, 1000.0, 0.025, 0.0, -12.0};
    for (int i = 0; i < 5; ++i)
        AKT_NEAR(akj_number(&d, akj_at(&d, n, i), NAN), want[i], 0.0);
    assert_int_equal(akj_at(&d, n, 5), -1);
    assert_int_equal(d.v[n].line, 2);
    const int32_t s = akj_get(&d, 0, "s");
    assert_string_equal(akj_string(&d, s), "a\"b\\c/d\n\t\xc3\xa9\xf0\x9f\x98\x80");
    assert_string_equal(akj_key(&d, s), "s");
    assert_int_equal(d.v[s].line, 3);
    const int32_t o = akj_get(&d, 0, "o");
    assert_int_equal(akj_type(&d, akj_get(&d, o, "t")), AKJ_TRUE);
    assert_int_equal(akj_type(&d, akj_get(&d, o, "f")), AKJ_FALSE);
    assert_int_equal(akj_type(&d, akj_get(&d, o, "z")), AKJ_NULL);
    assert_true(akj_get(&d, o, "z") >= 0);
    assert_int_equal(d.v[o].count, 3);
    akj_free(&d);
}

static void utf8_lengths_follow_rfc_3629(void **state)
{
    (void)state;
    const struct {
        const char *bytes;
        size_t avail;
        int len;
    } cases[] = {{"A", 1, 1},
                 {"\xc3\xa9", 2, 2},
                 {"\xe2\x82\xac", 3, 3},
                 {"\xf0\x9f\x98\x80", 4, 4},
                 {"\xc3\xa9", 1, 0},         /* cut short */
                 {"\xc0\xaf", 2, 0},         /* overlong '/' */
                 {"\xed\xa0\x80", 3, 0},     /* a surrogate */
                 {"\xf4\x90\x80\x80", 4, 0}, /* above U+10FFFF */
                 {"\x80", 1, 0}};            /* a continuation byte alone */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        if (akj_utf8_length((const unsigned char *)cases[i].bytes, cases[i].avail) != cases[i].len)
            fail_msg("case %d: %d, expected %d", (int)i,
                     akj_utf8_length((const unsigned char *)cases[i].bytes, cases[i].avail),
                     cases[i].len);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_arguments_validity),
        cmocka_unit_test(values_read_as_written),
        cmocka_unit_test(utf8_lengths_follow_rfc_3629),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
