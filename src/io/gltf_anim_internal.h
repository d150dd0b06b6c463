/* Internal: the glTF clip reader's parts and what they share.
 *
 *   gltf_anim.c       params, choosing the animation and the skeleton's nodes, the frame rate,
 *                     building the skeleton and clip, the public calls
 *   gltf_anim_eval.c  channels (samplers read through gltf_doc.c) and their evaluation at a
 *                     time (STEP, LINEAR with slerp, CUBICSPLINE Hermite), node matrices to
 *                     rigid joint transforms (scale baked into child translations)
 */
#ifndef AK_IO_GLTF_ANIM_INTERNAL_H
#define AK_IO_GLTF_ANIM_INTERNAL_H

#include "animkit/gltf.h"
#include "io/gltf_doc.h"

enum { GA_T = 0, GA_R = 1, GA_S = 2 };
enum { GA_STEP = 0, GA_LINEAR = 1, GA_CUBIC = 2 };

typedef struct ga_channel {
    int32_t node, path, interp, keys, comps;
    int32_t input;    /* the sampler's input accessor */
    float *times;     /* keys, non-decreasing seconds */
    int shares_times; /* 1: times belong to an earlier channel with the same input */
    float *values;    /* keys * comps, or keys * 3 * comps (in-tangent, value, out-tangent) */
    int32_t cursor;   /* the key found last (evaluation runs forward in time: a hint; the sweep
                       * steps on from it) */
    int frame_keys;   /* 1: key k lies on frame k of the clip's rate for every k (set by
                       * ga_mark_frame_keys), so frame f holds key min(f, keys - 1) as it is */
} ga_channel;

/* Times to evaluate channels at, ascending (seconds): t[i] and ga_key_ulps(t[i]); frame0 >= 0
 * when t[i] is frame frame0 + i of the clip's rate ((double)(frame0 + i) / (double)fps), else
 * -1. */
typedef struct ga_frames {
    const double *t, *ulps;
    int32_t count, frame0;
} ga_frames;

/* A rigid transform in double: quaternion x,y,z,w and translation. */
typedef struct ga_rigid {
    double q[4], t[3];
} ga_rigid;

typedef struct ga_ctx {
    akgd_doc d;
    const ak_gltf_clip_params *p;
    ak_gltf_clip_info *info;
    int32_t anim; /* animation read, -1 none */
    ga_channel *ch;
    int32_t ch_count;
    int32_t joints;
    int32_t *joint_node; /* joint -> node, parents first */
    int32_t *node_joint; /* node -> joint or -1 */
    int32_t *parent;     /* joint -> parent joint or -1 */
    akgd_trs *base;      /* per joint: the node's own transform */
    int32_t *chan_of;    /* joints * 3: channel per joint and path, or -1 */
    double (*world)[16]; /* per joint, scratch of one evaluation */
    float fps;
    int32_t frames;
} ga_ctx;

/* Reads animation c->anim's channels into c->ch (weights channels and channels without a
 * node are skipped and counted in info). */
int32_t ga_read_channels(ga_ctx *c);
void ga_free_channels(ga_ctx *c);
/* Model-space rigid transforms of every joint at time t (use_anim 0: the nodes' own pose),
 * written to out[joints]. */
void ga_evaluate(ga_ctx *c, double t, int use_anim, ga_rigid *out);
/* 1 when no joint scales or shears anything (no scale but 1 in the nodes and the scale
 * channels, matrices only rotations): then a joint's local transform is its node's own
 * translation and rotation, and ga_rigid_local gives it without evaluating the tree. */
int ga_rigid_joints(const ga_ctx *c);
/* Joint j's local transform at time t when ga_rigid_joints holds (rest_local[j] when j has no
 * translation or rotation channel). */
ak_xform ga_rigid_local(const ga_ctx *c, int32_t j, double t, const ak_xform *rest_local);
/* ga_rigid_local at every time of fr in one forward sweep per channel (the same floats): joint
 * j's local transforms to out[i * stride]. Consecutive calls with later times step on from
 * where the last ended; reset the channels' cursors to 0 before a first sweep. */
void ga_rigid_sweep(ga_ctx *c, int32_t j, const ga_frames *fr, const ak_xform *rest_local,
                    ak_xform *out, size_t stride);
/* Sets every channel's frame_keys for the clip's rate c->fps: 1 when each key k lies within
 * ga_key_ulps of frame k's time (a capture's keys, one a frame from time 0), where the sweep's
 * key rule picks key k at frame k with nothing to interpolate. */
void ga_mark_frame_keys(ga_ctx *c);
/* The float rounding of key times around time t: a time within it of a key counts as on it
 * (frame 49 at 0.4 s is the key written as 0.4f = 0.4000000059604645). */
double ga_key_ulps(double t);
/* local = inverse(parent) * child, in float. */
ak_xform ga_local(const ga_rigid *parent, const ga_rigid *child);

#endif
