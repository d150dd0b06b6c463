/* Progress and timing lines (progress.h). */
#if !defined(_WIN32) && !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700 /* sigaction, setitimer, clock_gettime */
#endif
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <io.h>
#define akt_isatty(fd) _isatty(fd)
#else
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#define akt_isatty(fd) isatty(fd)
#endif

/* A job must run this long before a terminal shows its progress line. */
#define AKT_PROGRESS_AFTER_S 2.0

double akt_wall_seconds(void)
{
#if defined(CLOCK_MONOTONIC) && !defined(_WIN32)
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0) return (double)ts.tv_sec + 1e-9 * ts.tv_nsec;
#endif
    struct timespec now;
    timespec_get(&now, TIME_UTC);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

int akt_stderr_is_terminal(void)
{
    return akt_isatty(2) ? 1 : 0;
}

void akt_progress_begin(akt_progress *p, const char *prog)
{
    p->prog = prog;
    p->start_s = akt_wall_seconds();
    p->shown_s = 0.0;
    p->tty = akt_isatty(2);
}

void akt_progress_update(akt_progress *p, int done, int total, const char *unit)
{
    if (!p->tty) return;
    const double now = akt_wall_seconds();
    const double elapsed = now - p->start_s;
    if (elapsed < AKT_PROGRESS_AFTER_S || (p->shown_s > 0.0 && now - p->shown_s < 0.1)) return;
    p->shown_s = now;
    fprintf(stderr, "\r%s: %s %d of %d, %.1f s", p->prog, unit, done, total, elapsed);
    fflush(stderr);
}

double akt_progress_end(akt_progress *p, int done, const char *unit)
{
    const double elapsed = akt_wall_seconds() - p->start_s;
    if (p->tty && p->shown_s > 0.0)
        fprintf(stderr, "\r%s: %d %s%s in %.1f s\n", p->prog, done, unit, done == 1 ? "" : "s",
                elapsed);
    else if (!p->tty)
        fprintf(stderr, "%s: %d %s%s in %.1f s\n", p->prog, done, unit, done == 1 ? "" : "s",
                elapsed);
    return elapsed;
}

/* ---- The watch: a timer, for jobs that cannot count ---- */

static struct {
    char prefix[128]; /* "\ranimkit retarget: working, " */
    size_t prefix_len;
    const char *prog;
    double start_s, after_s;
    volatile int shown;
    int tty;
} g_watch;

/* Appends tenths of a second as "12.3 s" (async-signal-safe: no stdio). */
static size_t put_tenths(char *out, long tenths)
{
    char digits[24];
    size_t n = 0, len = 0;
    if (tenths < 0) tenths = 0;
    do {
        digits[n++] = (char)('0' + tenths % 10);
        tenths /= 10;
        if (n == 1) digits[n++] = '.';
    } while (tenths > 0 || n < 3);
    while (n > 0)
        out[len++] = digits[--n];
    memcpy(out + len, " s", 2);
    return len + 2;
}

#ifndef _WIN32
static void watch_tick(int sig)
{
    (void)sig;
    const double elapsed = akt_wall_seconds() - g_watch.start_s;
    if (elapsed < g_watch.after_s) return;
    char line[192];
    memcpy(line, g_watch.prefix, g_watch.prefix_len);
    size_t n = g_watch.prefix_len + put_tenths(line + g_watch.prefix_len, (long)(elapsed * 10.0));
    line[n++] = '\r'; /* the cursor back at the start: the job's own output writes over it */
    if (write(2, line, n) > 0) g_watch.shown = 1;
}

static struct timeval seconds_to_timeval(double s)
{
    struct timeval v;
    v.tv_sec = (time_t)s;
    v.tv_usec = (suseconds_t)((s - (double)(time_t)s) * 1e6);
    return v;
}

/* The first tick at first_s (the threshold: a job just past it shows a line even when it ends
 * before a 0.25 s cadence would have ticked), then every interval_s; 0, 0 stops the timer. */
static void watch_timer(double first_s, double interval_s)
{
    struct itimerval t;
    memset(&t, 0, sizeof t);
    t.it_interval = seconds_to_timeval(interval_s);
    t.it_value = seconds_to_timeval(first_s);
    setitimer(ITIMER_REAL, &t, NULL);
}
#endif

void akt_progress_watch_begin(const char *prog)
{
    memset(&g_watch, 0, sizeof g_watch);
    g_watch.prog = prog;
    g_watch.start_s = akt_wall_seconds();
    g_watch.tty = akt_isatty(2);
    const char *after = getenv("AK_TEST_PROGRESS_AFTER_S");
    g_watch.after_s = after ? atof(after) : AKT_PROGRESS_AFTER_S;
    g_watch.prefix_len =
        (size_t)snprintf(g_watch.prefix, sizeof g_watch.prefix, "\r%.100s: working, ", prog);
    if (g_watch.prefix_len >= sizeof g_watch.prefix) g_watch.prefix_len = sizeof g_watch.prefix - 1;
#ifndef _WIN32
    if (!g_watch.tty) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = watch_tick;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGALRM, &sa, NULL) == 0)
        watch_timer(g_watch.after_s > 0.001 ? g_watch.after_s : 0.001, 0.25);
#endif
}

void akt_progress_watch_end(void)
{
    if (!g_watch.prog) return;
#ifndef _WIN32
    if (g_watch.tty) {
        watch_timer(0.0, 0.0);
        signal(SIGALRM, SIG_DFL);
    }
#endif
    const double elapsed = akt_wall_seconds() - g_watch.start_s;
    if (g_watch.tty && g_watch.shown)
        fprintf(stderr, "\r%s: done in %.1f s        \n", g_watch.prog, elapsed);
    else if (!g_watch.tty && elapsed >= g_watch.after_s)
        fprintf(stderr, "%s: %.1f s\n", g_watch.prog, elapsed);
    g_watch.prog = NULL;
}
