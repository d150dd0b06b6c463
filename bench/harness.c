/* Benchmark harness implementation. */
#define _POSIX_C_SOURCE 199309L
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double akb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double akb_cpu_now(void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return akb_now();
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double akb_percentile(const double *values, int n, double p)
{
    if (n <= 0) return 0.0;
    double *tmp = (double *)malloc(sizeof(double) * (size_t)n);
    if (!tmp) return 0.0;
    memcpy(tmp, values, sizeof(double) * (size_t)n);
    qsort(tmp, (size_t)n, sizeof(double), cmp_double);
    int idx = (int)(p * (double)(n - 1) + 0.5);
    if (idx < 0) idx = 0;
    if (idx >= n) idx = n - 1;
    double v = tmp[idx];
    free(tmp);
    return v;
}

double akb_median(const double *values, int n)
{
    return akb_percentile(values, n, 0.5);
}

double akb_median_seconds(void (*fn)(void *), void *arg, int repeats)
{
    double t[1024];
    if (repeats > 1024) repeats = 1024;
    if (repeats < 1) repeats = 1;
    fn(arg); /* warm-up */
    for (int i = 0; i < repeats; ++i) {
        double t0 = akb_now();
        fn(arg);
        t[i] = akb_now() - t0;
    }
    return akb_median(t, repeats);
}

static volatile unsigned char g_sink;
void akb_sink(const void *p, size_t bytes)
{
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < bytes; i += 64)
        g_sink ^= c[i];
}

void akb_result(const char *what, double value, int decimals, const char *unit, const char *goal_op,
                double goal_value, const char *scale)
{
    /* no space before a ratio's unit ("1.42×", "12.0:1") */
    const char *sep =
        unit[0] == 0 || unit[0] == ':' || strncmp(unit, "×", strlen("×")) == 0 ? "" : " ";
    printf("@result|%s|%.*f%s%s|", what, decimals, value, sep, unit);
    if (goal_op) {
        const int le = strcmp(goal_op, "<=") == 0;
        const int met = le ? value <= goal_value : value >= goal_value;
        printf("%s %g%s%s|%s", le ? "at most" : "at least", goal_value, sep, unit,
               met ? "met" : "not met");
    } else {
        printf("|");
    }
    printf("|%s\n", scale ? scale : "");
    fflush(stdout);
}

const char *akb_thousands(char *buf, size_t size, long long n)
{
    char digits[32];
    const int len = snprintf(digits, sizeof digits, "%lld", n < 0 ? -n : n);
    size_t k = 0;
    if (n < 0 && k + 1 < size) buf[k++] = '-';
    for (int i = 0; i < len && k + 1 < size; ++i) {
        if (i > 0 && (len - i) % 3 == 0 && k + 2 < size) buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = 0;
    return buf;
}
