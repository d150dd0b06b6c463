/* Internal: the retargeter's prepared mapping (retarget_map.c builds it, retarget.c runs it). */
#ifndef AK_RETARGET_INTERNAL_H
#define AK_RETARGET_INTERNAL_H

#include "anim/standing_internal.h"
#include "core/busy.h"
#include "animkit/retarget.h"

enum { AKR_REST = 0, AKR_MAPPED = 1, AKR_CHAIN = 2 };

/* akr_rested.frame when the reference is ak_retarget_params.reference_pose. */
#define AKR_REFERENCE_POSE (-2)

/* A copy of the source re-rested on its reference pose (retarget_ref.c): frame -1 when the
 * zero pose stands (then a copy only with a clip and contacts on, its feet set flat as in the
 * capture's flat stance; none otherwise), else the frame used (AKR_REFERENCE_POSE: the given
 * pose). `clip` is the source clip re-rested (NULL without one); ref_rot[j] the reference's
 * model rotations (turned to face +Z, feet flat), so a source model rotation W_j becomes the
 * copy's W_j ref_rot[j]^-1 at the same positions. */
typedef struct akr_rested {
    int32_t frame;
    ak_skeleton *skeleton;
    ak_clip *clip;
    ak_quat *ref_rot;
} akr_rested;

/* A mapped segment: target joints a -> b (b below a) follow source joints sa -> sb; the
 * joints from b's parent up to `turn` swing (turn = a, or the joint below a an earlier
 * segment ended on when a sits on its parent: then b swings about turn onto the line from
 * a, and the earlier segment's direction stays). */
typedef struct akr_segment {
    int32_t a, b, sa, sb, turn;
} akr_segment;

struct ak_retargeter {
    ak_busy_flag busy; /* a ak_retargeter_pose call is in flight (core/busy.h) */
    const ak_skeleton *src, *dst;
    /* The source re-rested on its reference pose (ak_retargeter_create, retarget_ref.c): the
     * mapping is built on rested.skeleton; poses come in on `src` and their FK rotations are
     * taken to the copy's by ref_rot (NULL skeleton: the zero pose as it is). */
    akr_rested rested;
    /* The source joints' own frames in the reference (the re-rested copy's rest world
     * rotations are identity; akr_rested.ref_rot), NULL: the rest pose's; set while the
     * mapping is built (tip_direction). */
    const ak_quat *src_ref_rot;
    /* The source pelvis's left axis in its hips joint's frame over the clip (measure_pelvis;
     * has_src_pelvis 0: no clip, the reference pose's). */
    ak_vec3 src_pelvis_left;
    int has_src_pelvis;
    ak_humanoid src_map, dst_map;
    int32_t *src_of;            /* target joint -> source joint, -1 when not mapped */
    uint8_t *kind;              /* AKR_* per target joint */
    int32_t *chain_a, *chain_b; /* AKR_CHAIN: the mapped joints above and below */
    float *chain_t;             /* AKR_CHAIN: share of the rotation from a to b, (0,1) */
    ak_quat *offset;            /* AKR_MAPPED: Wrest_s^-1 R_align^-1 A_j Wrest_d */
    ak_quat *rest_world;        /* target rest world rotations */
    akr_segment segments[AK_HUM_SLOT_COUNT];
    int32_t segment_count;
    ak_quat yaw;              /* R_align */
    float k;                  /* proportion scale */
    float y_offset;           /* M(p).y = k p.y + y_offset */
    ak_xform hips_parent_inv; /* inverse rest world of the target hips' parent (identity) */
    ak_retarget_info info;
    /* per-frame scratch */
    ak_quat *w;          /* target world rotations being built */
    ak_xform *src_world; /* source FK */
};

/* Moves the placement so the measured source floor lands on target_floor (when finite) and
 * records both floors in info. */
int32_t akr_set_floor(ak_retargeter *rt, float source_floor, float target_floor);

/* A copy of `c` whose frame 0 repeats frame 1 when frame 0 is a reference pose rather than
 * motion (CMU's T-pose frame: some joint turns > 20 degrees into frame 1); NULL when it is
 * not (or out of memory). The contact detector runs on it so that frame's feet set no floor. */
ak_clip *akr_clip_without_reference_frame(const ak_clip *c);

/* A source's contact flags (AK_CONTACT_* per foot) read on the contact detector's grid
 * (ak_contact_grid: `grid` samples per frame, linear between frames, under 50 frames per
 * second; else every frame), so a 30 fps file's stances start and end where the same capture's
 * at 120 fps do, not at the next of its own frames. flags[side * count + f * grid] is frame
 * f's; a reference frame 0 (`reference`: a T-pose, ak_clip_first_frame_is_reference) is no
 * stance and sets no floor. */
typedef struct akr_stance {
    uint8_t *flags;
    int32_t grid, count, reference;
} akr_stance;

/* The grid contacts of ends lf, rf (ak_foot_contacts_detect's joints and rules) of (s, c). */
int32_t akr_stance_detect(const ak_skeleton *s, const ak_clip *c, int32_t lf, int32_t rf, float mpu,
                          const ak_contact_params *params, akr_stance *out, ak_error *err);
void akr_stance_free(akr_stance *st);

/* ak_retargeter_create; pick_reference 0 builds on params->source as it is (ak_retarget_run
 * hands it the source already re-rested, and `ref_rot`, its akr_rested.ref_rot). */
int32_t akr_retargeter_create(const ak_retarget_params *p, int pick_reference,
                              const ak_quat *ref_rot, ak_retargeter **out, ak_error *err);

int32_t akr_reference_source(const ak_retarget_params *p, const ak_humanoid *m, akr_rested *out,
                             ak_error *err);
void akr_rested_free(akr_rested *r);

#endif
