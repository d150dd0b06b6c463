/* Locale-independent number text (src/io/number_text.c): digits clamped to 1..17, -0 as 0,
 * the point put back after a locale that writes ',' (de_DE when installed, else a made-up
 * multi-byte point through akio_repair_point), and 17 digits reading back to the same double. */
#include <locale.h>

#include "test_params.h"
#include "io/number_text.h"

static void format_arguments_validity(void **state)
{
    (void)state;
    char buf[AKIO_NUMBER_MAX];
    /* digits outside 1..17 are clamped, not refused: 0 and -3 give 1 digit, 40 gives 17 */
    assert_int_equal(akio_format_number(buf, 0.123456, 0), 3);
    assert_string_equal(buf, "0.1");
    assert_int_equal(akio_format_number(buf, 0.123456, -3), 3);
    assert_string_equal(buf, "0.1");
    akio_format_number(buf, 0.1, 40);
    assert_string_equal(buf, "0.10000000000000001");
    /* the longest number fits: 17 digits, sign, point, 3-digit exponent */
    assert_int_equal(akio_format_number(buf, -1.2345678901234567e-308, 17),
                     (int)strlen("-1.2345678901234567e-308"));
}

static void numbers_are_written_with_a_dot_and_read_back_exactly(void **state)
{
    (void)state;
    char buf[AKIO_NUMBER_MAX];
    akio_format_number(buf, -0.0, 6);
    assert_string_equal(buf, "0");
    akio_format_number(buf, 1.5, 6);
    assert_string_equal(buf, "1.5");
    akio_format_number(buf, -2.5e-7, 6);
    assert_string_equal(buf, "-2.5e-07");
    akio_format_number(buf, 123456789.0, 4);
    assert_string_equal(buf, "1.235e+08");
    akt_rng rng = {0x5eed};
    for (int i = 0; i < 2000; ++i) {
        const double v = ((double)akt_next(&rng) / 18446744073709551616.0 - 0.5) *
                         pow(10.0, (double)(int)(akt_next(&rng) % 40) - 20.0);
        akio_format_number(buf, v, 17);
        assert_true(strtod(buf, NULL) == v);
    }
}

static void a_locales_point_is_repaired(void **state)
{
    (void)state;
    /* a two-byte point (as some locales write) and a comma, in "%g" text of two numbers */
    char two[] = "1\xc2\xb7"
                 "5 -2,25e+03";
    assert_int_equal(akio_repair_point(two, (int)strlen(two)), (int)strlen("1.5 -2.25e+03"));
    assert_string_equal(two, "1.5 -2.25e+03");
    char plain[] = "12 -3.5e-05";
    assert_int_equal(akio_repair_point(plain, (int)strlen(plain)), (int)strlen("12 -3.5e-05"));
    assert_string_equal(plain, "12 -3.5e-05");
    assert_int_equal(akio_locale_point_is_dot(), 1);
    const char *de = setlocale(LC_NUMERIC, "de_DE.UTF-8");
    if (de) {
        char buf[AKIO_NUMBER_MAX];
        assert_int_equal(akio_locale_point_is_dot(), 0);
        akio_format_number(buf, 0.75, 6);
        assert_string_equal(buf, "0.75");
        setlocale(LC_NUMERIC, "C");
    } else {
        printf("de_DE.UTF-8 not installed: the comma locale is checked through the repair only\n");
    }
    assert_int_equal(akio_locale_point_is_dot(), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_arguments_validity),
        cmocka_unit_test(numbers_are_written_with_a_dot_and_read_back_exactly),
        cmocka_unit_test(a_locales_point_is_repaired),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
