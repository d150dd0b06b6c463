/* Benchmark harness: monotonic clock, repeated runs, medians. Not part of the tests. */
#ifndef AK_BENCH_HARNESS_H
#define AK_BENCH_HARNESS_H

#include <stddef.h>

/* Seconds from a monotonic clock. */
double akb_now(void);
/* Seconds this thread has run (CLOCK_THREAD_CPUTIME_ID; the monotonic clock where there is
 * none): on a loaded machine the time spent waiting for a core is not counted. */
double akb_cpu_now(void);
/* Median of n values (sorts a copy of at most 1024 values). */
double akb_median(const double *values, int n);
/* 95th percentile of n values. */
double akb_percentile(const double *values, int n, double p);
/* Runs fn(arg) `repeats` times and returns the median seconds per call of fn. */
double akb_median_seconds(void (*fn)(void *), void *arg, int repeats);
/* One figure of bench/results.md, the table README.md and docs/ quote (tools/bench.sh collects
 * these lines from every bench's output): what was measured, the value with `decimals` digits
 * and its unit, the goal (goal_op "<=" or ">=" against goal_value, or NULL: no goal) and what
 * it compares with (scale, or NULL). Prints "@result|what|value|goal|met|scale". */
void akb_result(const char *what, double value, int decimals, const char *unit, const char *goal_op,
                double goal_value, const char *scale);
/* n with thousands separators ("50,765") in buf; returns buf. */
const char *akb_thousands(char *buf, size_t size, long long n);
/* Stops the compiler from optimising away a computed value. */
void akb_sink(const void *p, size_t bytes);

#endif
