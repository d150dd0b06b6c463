/* Internal: a locale-independent decimal number parser for the BVH reader.
 *
 * Grammar: [+-]? digits* ('.' digits*)? ([eE] [+-]? digits+)? with at least one mantissa
 * digit. Up to 19 significant digits go into a 64-bit integer m, the rest only move the
 * decimal exponent e, so the value is m * 10^e.
 * - Fast path (Clinger 1990): when m <= 2^53 and |e| <= 22 both m and 10^|e| are exact
 *   doubles, so one multiplication or division gives the correctly rounded result. Every
 *   number in real BVH files (six to ten significant digits, a few decimals) takes it.
 * - Otherwise m * 10^e is formed in long double by binary powering (a few ulps of long
 *   double, 80-bit on x86 Linux), then rounded once to double: within one ulp of strtod.
 * The values end up as floats, so one ulp of double is far below what matters. */
#ifndef AK_IO_BVH_NUMBER_H
#define AK_IO_BVH_NUMBER_H

#include <math.h>
#include <stdint.h>

#include "animkit/ak_config.h"

AK_INLINE int akbvh_is_digit(char c)
{
    return (unsigned)(c - '0') < 10u;
}

/* m * 10^e for the slow path. Exponents are pre-clamped by the caller. */
static long double akbvh_scale_pow10(uint64_t m, int32_t e)
{
    static const long double k_bin_pow10[9] = {1e1L,  1e2L,  1e4L,   1e8L,  1e16L,
                                               1e32L, 1e64L, 1e128L, 1e256L};
    long double v = (long double)m;
    long double scale = 1.0L;
    int32_t a = e < 0 ? -e : e;
    for (int i = 0; i < 9 && a; ++i, a >>= 1)
        if (a & 1) scale *= k_bin_pow10[i];
    /* |e| < 512 here, so the loop consumed every bit. */
    return e < 0 ? v / scale : v * scale;
}

/* An optional exponent at p ([eE] [+-]? digits+), added to *e10; returns the position after
 * it. "1e" or "1e+" without digits is no exponent: the number ends before the 'e' and the
 * caller sees a bad delimiter. */
AK_INLINE const char *akbvh_read_exponent(const char *p, const char *end, int32_t *e10)
{
    if (!(p < end && (*p == 'e' || *p == 'E'))) return p;
    const char *q = p + 1;
    int eneg = 0;
    if (q < end && (*q == '-' || *q == '+')) {
        eneg = *q == '-';
        ++q;
    }
    if (!(q < end && akbvh_is_digit(*q))) return p;
    int32_t ev = 0;
    while (q < end && akbvh_is_digit(*q)) {
        if (ev < 100000) ev = ev * 10 + (*q - '0');
        ++q;
    }
    *e10 += eneg ? -ev : ev;
    return q;
}

/* m * 10^e10 as the nearest double (sig: significant digits in m; inexact: digits beyond them
 * were dropped): Clinger's fast path when exact, else the long double slow path. */
AK_INLINE double akbvh_compose(uint64_t m, int32_t e10, int32_t sig, int inexact)
{
    static const double k_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (m == 0) return 0.0;
    if (!inexact && m <= ((uint64_t)1 << 53) && e10 >= -22 && e10 <= 22)
        return e10 >= 0 ? (double)m * k_pow10[e10] : (double)m / k_pow10[-e10];
    if (e10 + sig > 310) return HUGE_VAL; /* overflow: +inf, rejected by the caller */
    if (e10 + sig < -345) return 0.0;
    return (double)akbvh_scale_pow10(m, e10);
}

/* A decimal mantissa being read: its first 19 significant digits as an integer. */
typedef struct akbvh_mantissa {
    uint64_t m;
    int32_t sig; /* significant digits stored in m */
    int32_t e10; /* decimal exponent of m */
    int any;     /* a mantissa digit was seen */
    int inexact; /* non-zero digits were dropped */
} akbvh_mantissa;

/* Reads a run of digits into t and returns the first character after it. In the integer part
 * (fraction 0) a digit past the 19th is dropped and multiplies by 10; in the fraction part
 * (fraction 1) a kept digit divides by 10 and a dropped one changes nothing. */
AK_INLINE const char *akbvh_read_digits(const char *p, const char *end, akbvh_mantissa *t,
                                        int fraction)
{
    while (p < end && akbvh_is_digit(*p)) {
        unsigned d = (unsigned)(*p - '0');
        t->any = 1;
        if (t->sig < 19) {
            if (t->m || d) {
                t->m = t->m * 10u + d;
                ++t->sig;
            }
            t->e10 -= fraction;
        } else {
            t->e10 += !fraction;
            t->inexact |= d != 0;
        }
        ++p;
    }
    return p;
}

/* Parses a number starting at p (p < end). Returns the first character after it and writes
 * *out, or returns NULL when there is no number here. The caller checks that the returned
 * position is followed by a delimiter. Overflow gives +-HUGE_VAL (the caller rejects
 * non-finite values), underflow gives 0. */
AK_INLINE const char *akbvh_parse_number(const char *p, const char *end, double *out)
{
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        ++p;
    }
    akbvh_mantissa t = {0, 0, 0, 0, 0};
    p = akbvh_read_digits(p, end, &t, 0);
    if (p < end && *p == '.') p = akbvh_read_digits(p + 1, end, &t, 1);
    if (!t.any) return NULL;
    p = akbvh_read_exponent(p, end, &t.e10);
    const double v = akbvh_compose(t.m, t.e10, t.sig, t.inexact);
    *out = neg ? -v : v;
    return p;
}

#endif
