/* Internal to src/matching: the motion database's fields. */
#ifndef AK_MATCHING_INTERNAL_H
#define AK_MATCHING_INTERNAL_H

#include "animkit/matching.h"

#define AK_MATCH_SMALL_BLOCK 16
#define AK_MATCH_STRIDE      28 /* floats per candidate in the search arrays (27 + 1 pad) */
#define AK_MATCH_LARGE_BLOCK 64
/* Largest blob file read, bytes (16 GiB). */
#define AK_MATCH_MAX_BLOB_BYTES ((uint64_t)1 << 34)

struct ak_motion_db {
    ak_skeleton *skeleton; /* metres */
    ak_humanoid humanoid;
    /* Which joint carries the sources' travel and why (ak_motion_db_root_joint): joint
     * indices of the skeleton, figures in the sources' units. */
    ak_root_joint_report root_joint;
    int32_t J, F, T;      /* joints, frames, translation tracks */
    int32_t *track_joint; /* T: joint of each translation track (track 0 is the root) */
    float frame_time;
    float metres_per_unit;
    int32_t units;
    ak_quat *rot;          /* F*J local rotations, root relative to the frame's character frame */
    ak_vec3 *trans;        /* F*T local translations, root likewise (y: height above the floor) */
    ak_vec3 *delta;        /* F: root motion to the next frame, character frame */
    float *dturn;          /* F: heading change to the next frame */
    uint8_t *contact;      /* F*2 */
    uint8_t *cand;         /* F */
    int32_t *frame_clip;   /* F: source clip */
    float *frame_time_src; /* F: time in the source clip */
    int32_t clip_count;
    char (*clip_names)[64];
    int32_t range_count;
    int32_t *range_start; /* range_count + 1: range r is frames [start[r], start[r+1]) */
    float *raw;           /* F*D raw features */
    float *feat;          /* F*D normalised */
    float offset[AK_MATCH_FEATURES], scale[AK_MATCH_FEATURES];
    float weights[AK_MATCH_GROUPS];
    /* search: candidates in frame order, their features contiguous, block boxes */
    int32_t ncand;
    int32_t *cand_frame; /* ncand */
    float *cand_feat;    /* ncand * AK_MATCH_STRIDE, in search order (search.c) */
    int32_t nsmall, nlarge;
    float *small_box; /* nsmall * 2 * AK_MATCH_STRIDE: min then max */
    float *large_box; /* nlarge * 2 * AK_MATCH_STRIDE */
    float sole_height[2];
    ak_vec3 foot_up_local[2];
    ak_vec3 toe_local[2]; /* toe contact in the ankle's frame (ak_foot_calibrate) */
    int32_t has_toe[2];
    int32_t stand_frame;
    float min_speed, max_speed;
    int32_t traj_frames[AK_MATCH_TRAJ_POINTS]; /* frames ahead of each trajectory point */
    /* F*2 (frame, foot), derived from the stored frames at create and load
     * (ak_motion_db_landings): where a swinging foot's sole lands next in its range, in the
     * frame's character frame (y: height above the floor), and how far through that swing the
     * foot is (0 at lift-off .. 1 at landing); swing_phase < 0 in stance or with no landing
     * left in the range; land_toe_rel the same for the toe contact point (the sole's without
     * a toe). The matcher's landing rays, foot placement and planned hips read them. */
    ak_vec3 *land_rel, *land_toe_rel;
    float *swing_phase;
    /* F, derived with the landings: the in-place hips' vertical acceleration at each frame,
     * m/s^2 (33 ms average over the frames of its range, the walk metrics' measure). The
     * matcher hands it to the grounding's landing limit (ak_foot_ik_frame.anim_hip_accel):
     * the same figure on every build, never a difference of the posed frames. */
    float *hip_accel;
    /* The peak knee flexion of any stored frame, radians (ak_motion_db_source_metrics'
     * knee_peak, made with the hips table): the matcher's swinging knee limit. */
    float knee_peak;
};

/* Fills land_rel, swing_phase, hip_accel and knee_peak from the contacts, root deltas and poses
 * (allocated by ak_motion_db_alloc); FK of every frame (allocates a pose buffer:
 * AK_ERR_NOMEM). */
int32_t ak_motion_db_landings(ak_motion_db *db, ak_error *err);
/* The sole point of leg s in a model pose of the database's skeleton: the ankle less
 * sole_height along the foot's up axis (ak_foot_ik_sole's rule). */
ak_vec3 ak_motion_db_sole(const ak_motion_db *db, const ak_xform *world, int32_t s);
/* The toe contact point of leg s in a model pose of the database's skeleton (ak_foot_ik_toe's
 * rule); the sole where the calibration found no toe. */
ak_vec3 ak_motion_db_toe(const ak_motion_db *db, const ak_xform *world, int32_t s);

/* Allocates every per-frame array of a database of F frames (J joints, T tracks, clip_count
 * names, range_count ranges); fields set beforehand. */
int32_t ak_motion_db_alloc(ak_motion_db *db, ak_error *err);
/* Normalises raw -> feat with the current weights and rebuilds candidates and boxes (the
 * offsets/scales are recomputed from the candidates when `restat` is 1). */
int32_t ak_motion_db_prepare_search(ak_motion_db *db, int32_t restat, ak_error *err);
/* Stand frame, speed range and calibration from the stored frames. */
void ak_motion_db_summarize(ak_motion_db *db);

#endif
