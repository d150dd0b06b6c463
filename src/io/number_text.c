/* Locale-independent number text; see number_text.h. */
#include "io/number_text.h"

#include <stdio.h>
#include <string.h>

int akio_format_number(char buf[AKIO_NUMBER_MAX], double v, int digits)
{
    char raw[AKIO_NUMBER_MAX];
    if (v == 0.0) v = 0.0; /* -0 -> 0 */
    if (digits < 1) digits = 1;
    if (digits > 17) digits = 17;
    int n = snprintf(raw, sizeof raw, "%.*g", digits, v);
    if (n < 0 || n >= (int)sizeof raw) {
        buf[0] = '0';
        buf[1] = '\0';
        return 1;
    }
    int out = 0, in_point = 0;
    for (int i = 0; i < n; ++i) {
        const char c = raw[i];
        const int plain = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E';
        if (plain) {
            buf[out++] = c;
            in_point = 0;
        } else if (!in_point) {
            buf[out++] = '.';
            in_point = 1;
        }
    }
    buf[out] = '\0';
    return out;
}
