/* Locale-independent number text; see number_text.h. */
#include "io/number_text.h"

#include <stdio.h>
#include <string.h>

int akio_format_number(char buf[AKIO_NUMBER_MAX], double v, int digits)
{
    if (v == 0.0) v = 0.0; /* -0 -> 0 */
    if (digits < 1) digits = 1;
    if (digits > 17) digits = 17;
    int n = snprintf(buf, AKIO_NUMBER_MAX, "%.*g", digits, v);
    if (n < 0 || n >= AKIO_NUMBER_MAX) {
        buf[0] = '0';
        buf[1] = '\0';
        return 1;
    }
    return akio_repair_point(buf, n);
}

int akio_locale_point_is_dot(void)
{
    char t[AKIO_NUMBER_MAX];
    snprintf(t, sizeof t, "%.1f", 0.5);
    return strcmp(t, "0.5") == 0;
}

int akio_repair_point(char *s, int n)
{
    int out = 0, in_point = 0;
    for (int i = 0; i < n; ++i) {
        const char c = s[i];
        const int plain =
            (c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E' || c == ' ';
        if (plain) {
            s[out++] = c;
            in_point = 0;
        } else if (!in_point) {
            s[out++] = '.';
            in_point = 1;
        }
    }
    s[out] = '\0';
    return out;
}
