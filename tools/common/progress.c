/* Progress and timing lines (progress.h). */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#ifdef _WIN32
#include <io.h>
#define akt_isatty(fd) _isatty(fd)
#else
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
