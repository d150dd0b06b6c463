/* animkit walk --steer match: the options cmd_walk parsed, and the run. */
#ifndef AK_TOOLS_WALK_MATCH_H
#define AK_TOOLS_WALK_MATCH_H

#include "cli.h"

typedef struct ak_walk_match_opts {
    const char *const *clips; /* --clip values */
    int clip_count;
    const char *library; /* --library DIR or NULL */
    float scale;         /* metres per unit, 0: detect */
    ak_vec3 start, target;
    float max_time, arrival;
    int foot_ik, quiet;
    const char *out_dir; /* exists */
} ak_walk_match_opts;

/* Builds the database, walks, writes DIR/walk.bvh and DIR/walk.csv, prints the JSON summary.
 * Returns the exit code (0: arrived and stopped). */
int ak_walk_match_run(const ak_walk_match_opts *opts, const ak_ground *ground);

#endif
