/* Progress and timing lines for the CLI's and the viewer's long jobs (render, walk).
 *
 * On a terminal (stderr is a tty) a job that has run for more than about 2 s shows one
 * progress line, rewritten in place ("animkit render: frame 120 of 184, 6.1 s"). When stderr
 * is not a terminal (a log, CI) nothing is rewritten; instead the job ends with one timing line
 * ("animkit render: 184 frames in 12.3 s"), so a log says how long it took. */
#ifndef AK_TOOLS_PROGRESS_H
#define AK_TOOLS_PROGRESS_H

typedef struct akt_progress {
    const char *prog; /* the line's prefix, e.g. "animkit render" */
    double start_s;   /* wall clock at akt_progress_begin */
    double shown_s;   /* when the progress line was last written (0: never) */
    int tty;          /* stderr is a terminal */
} akt_progress;

/* Seconds of wall clock from an arbitrary start (monotonic where the platform has it). */
double akt_wall_seconds(void);

/* 1 when stderr is a terminal (progress lines and traces go there only then). */
int akt_stderr_is_terminal(void);

void akt_progress_begin(akt_progress *p, const char *prog);

/* `done` of `total` units (`unit`, e.g. "frame") finished: on a terminal, after the first 2 s,
 * the progress line at most 10 times a second. */
void akt_progress_update(akt_progress *p, int done, int total, const char *unit);

/* The job finished `done` units: ends the progress line on a terminal, or prints the timing
 * line when stderr is not one. Returns the elapsed seconds. */
double akt_progress_end(akt_progress *p, int done, const char *unit);

/* Progress for a job that cannot count its units (one library call: a retarget, a database
 * build, a conversion): from akt_progress_watch_begin to _end, a terminal shows
 * "animkit retarget: working, 3.2 s" rewritten in place every 0.25 s once the job has run
 * 2 s, and "animkit retarget: done in 4.1 s" at the end; when stderr is not a terminal a job
 * that took over 2 s ends with one timing line ("animkit retarget: 4.1 s") and a shorter one
 * prints nothing. POSIX (an interval timer and SIGALRM with SA_RESTART); elsewhere only the
 * timing line. AK_TEST_PROGRESS_AFTER_S (seconds) replaces the 2 s, for tests. */
void akt_progress_watch_begin(const char *prog);
void akt_progress_watch_end(void);

#endif
