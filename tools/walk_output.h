/* The walk command's outputs, streamed to disk and committed as one set.
 *
 * DIR/walk.csv (one row per frame), DIR/walk.bvh (the walked motion) and DIR/summary.json
 * (the same JSON line the command prints) are written frame by frame into temporaries beside
 * their targets, so memory does not grow with --max-time, and committed together: after a
 * failure (full disk, a kill, a non-finite value) every file keeps its old content; of
 * concurrent runs into one DIR, each lands whole. */
#ifndef AK_TOOLS_WALK_OUTPUT_H
#define AK_TOOLS_WALK_OUTPUT_H

#include "animkit/animkit.h"
#include "io/bvh_internal.h"
#include "io/file.h"

typedef struct akcli_walk_output {
    char csv_path[1100], bvh_path[1100], summary_path[1100];
    akio_atomic csv, bvh, summary;
    akbvh_stream *motion;
    int32_t frames;
} akcli_walk_output;

/* Creates DIR (and its parents) and the three temporaries; writes the CSV header and the
 * BVH hierarchy of `skeleton` (rotations on every joint; translations on the root and on each
 * joint from it down to `hips`, the walk skeleton's hips: under a still top joint the hips
 * carry their own height and travel; frame time dt). On failure nothing is left behind and err
 * says which file and why. */
int32_t akcli_walk_output_open(akcli_walk_output *o, const char *dir, const ak_skeleton *skeleton,
                               int32_t hips, float dt, ak_error *err);
/* One frame: a CSV row from the walker's state and pose in its own frame, written at world
 * x,z = `origin` + frame x,z (in double: far walks keep their digits), and a BVH line from its
 * local pose (world root). */
int32_t akcli_walk_output_frame(akcli_walk_output *o, const ak_walker_state *s,
                                const double origin[2], const ak_xform *near, const ak_xform *local,
                                ak_error *err);
/* Writes summary_json to summary.json and commits the three files as a set. The output is
 * released either way. */
int32_t akcli_walk_output_commit(akcli_walk_output *o, const char *summary_json, ak_error *err);
/* Removes the temporaries; the old files stay. Safe after commit and on a zeroed output. */
void akcli_walk_output_abort(akcli_walk_output *o);

#endif
