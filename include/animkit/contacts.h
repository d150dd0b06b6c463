/* animkit — foot contacts: the units rule of a clip, heel and toe contact detection, the foot
 * calibration (where a clip's feet meet its floor) and the one stance-at-time rule.
 * Everything here is load-time work on a clip and may allocate scratch. */
#ifndef ANIMKIT_CONTACTS_H
#define ANIMKIT_CONTACTS_H

#include "clip.h"

AK_EXTERN_C_BEGIN

/* The one units rule every caller uses: the clip's typical standing height
 * (ak_clip_standing_height), or the skeleton's rest height when the clip gives none, mapped by
 * ak_units_detect. `clip` may be NULL. Writes metres per unit (1 when nothing fits). */
AK_API ak_units ak_units_detect_clip(const ak_skeleton *skeleton, const ak_clip *clip,
                                     float *metres_per_unit);

/* ---- Foot contacts: heel and toe ------------------------------------------------------- */

/* Contact flags, one byte per frame and foot: AK_CONTACT_HEEL while the heel (ankle) point is
 * down, AK_CONTACT_TOE while the toe (ball) point is. AK_CONTACT_ROLL while the heel is on the
 * floor but the foot still rolls over it (a landing heel before the foot settles, a runner's
 * brief heel touch): the ankle is within roll_height of its floor (its height averaged over
 * +-1/60 s, the same time at every sampling rate) and slower than the off speed, but not yet
 * still enough for the heel bit; the ankle moves (0.2-0.5 m/s) as the foot
 * turns about the heel pad under it, so a pin holds that pad, never the ankle. The foot is in
 * stance when any bit is. The heel and toe bits are the same with or without roll_height. */
enum { AK_CONTACT_HEEL = 1, AK_CONTACT_TOE = 2, AK_CONTACT_ROLL = 4 };

/* Contact detection on a clip. Each point (heel = the ankle joint, toe = the ball joint) is
 * down while its height above its local floor and its horizontal speed are both small, with
 * hysteresis (on below the "on" thresholds, off above any "off" threshold). The local
 * floor of a point at frame f is the lowest it comes within floor_window seconds either side,
 * so floors that are uneven or drift, forefoot running (toe down, heel up) and flight phases
 * (neither foot down) are all found. Blips shorter than min_stance / min_swing are removed,
 * except a stance of 1/60 s or more that a non-looping clip's first or last frames cut (a
 * landing just before the clip ends is a stance, not a blip). Frames repeated exactly at a
 * non-looping clip's end (a frame line written twice) are no motion: they take the last
 * moving frame's flags.
 * Thresholds in metres and metres per second, after metres_per_unit. In a faster gait
 * (body_speed_fraction) the speed thresholds grow and the floor window shrinks with the
 * body's speed: a running foot rolls over its pad faster, and takes its steps in less time. */
typedef struct ak_contact_params {
    const ak_skeleton *skeleton; /* required */
    const ak_clip *clip;         /* required; as many joints as the skeleton */
    int32_t heel[2];       /* ankle joints [left, right]; -1 (default): the humanoid map's feet */
    int32_t toe[2];        /* ball joints; -1 (default): the humanoid map's toes, else none */
    float metres_per_unit; /* the clip's units; 0 (default): ak_units_detect_clip */
    float height_on;       /* m above the local floor; default 0.025 */
    float height_off;      /* m; default 0.045 */
    float speed_on;        /* m/s, horizontal: the mean over +-1/24 s on samples 1/100 s apart
                              or closer (a 120 fps capture, the 120-a-second grid of a file
                              under 50 fps), else over +-1/60 s as the other speeds are;
                              default 0.25 */
    float speed_off;       /* m/s; default 0.45 */
    float rise_off;        /* m/s: the heel also lifts off when it rises this fast (heel-off
                              in a walk); 0 disables; default 0.12 */
    float floor_window;    /* s either side of a frame for its local floor; default 0.8 */
    float max_floor_rise;  /* m: a local floor higher than this above the point's lowest in
                              the clip is no floor (a foot on a pedal); default 0.3 */
    float min_stance;      /* s: shorter stance runs inside the clip are dropped; default 0.05 */
    float min_swing;       /* s: shorter gaps between two stances are filled; default 0.06 */
    float body_speed_fraction; /* speed_on grows to at least this fraction of the body's
                                  horizontal speed (the travelling joint, ak_root_joint_find;
                                  mean over +-floor_window/2); speed_off and rise_off grow in
                                  proportion and floor_window shrinks by it. 0 disables;
                                  default 0.12 (walks up to 2.08 m/s: the fixed thresholds) */
    float roll_height;         /* m above the local floor: a heel this low and under speed_off is
                                  on the floor, rolling (AK_CONTACT_ROLL) where the heel bit is not
                                  set; 0 disables; default 0.0125 (the heel pad's millimetres of
                                  marker noise and skin, well under a swing's clearance) */
    int32_t root_joint;        /* the joint whose horizontal speed is the body's
                                  (body_speed_fraction): -1 (default) the travelling joint,
                                  measured (ak_root_joint_find); else the joint a caller was told
                                  carries the travel (`--root-joint`), even a still top joint
                                  (its speed 0: the fixed thresholds). -1 .. joint count - 1 */
} ak_contact_params;

AK_API ak_contact_params ak_contact_defaults(void);
AK_API int32_t ak_contact_validate(const ak_contact_params *params, ak_error *err);
/* The ranges of its float fields (status.h), checked by ak_contact_validate. */
AK_API const ak_param_table *ak_contact_param_ranges(void);
/* Writes a flag byte (AK_CONTACT_*) for frames [0, clip->frame_count) of the left and right
 * foot. Looping clips are treated as circular. Allocates scratch (load-time use). */
AK_API int32_t ak_contact_run(const ak_contact_params *params, uint8_t *left, uint8_t *right,
                              ak_error *err);

/* ---- Foot calibration ------------------------------------------------------------------ */

/* Where a clip's feet meet its floor, model space of the clip (its units), from its contacts.
 * The one calibration rule the walker and the plugin use. */
typedef struct ak_foot_calibration {
    float floor_y;        /* Y of the clip floor: the lowest point of either foot's subtree */
    float sole_height[2]; /* ankle above the floor while the heel is down (else over stance,
                             else over every frame) */
    ak_vec3 up_local[2];  /* the foot's up axis (+Y seen from the ankle joint), same frames */
    ak_vec3 toe_local[2]; /* the floor point under the ball, in the ankle joint's frame,
                             while the toe is down; (0,0,0) without a toe joint */
    int32_t has_toe[2];
    float stance_fraction[2]; /* fraction of frames in stance (0: no contact at all) */
} ak_foot_calibration;

/* `foot` and `toe` are the ankle and ball joints [left, right] (toe -1: none); `left`/`right`
 * are contact flag bytes per frame (AK_CONTACT_*), or NULL to use every frame. Allocates
 * scratch (load-time use). */
AK_API int32_t ak_foot_calibrate(const ak_skeleton *skeleton, const ak_clip *clip,
                                 const int32_t foot[2], const int32_t toe[2], const uint8_t *left,
                                 const uint8_t *right, ak_foot_calibration *out, ak_error *err);

/* Contact flag bytes (AK_CONTACT_HEEL | AK_CONTACT_TOE) of two given end joints (ankles, or
 * wrists) by ak_contact_run's rule: the heel bit is the joint's own contact, the toe bit its
 * first child's (a joint without a child is its own toe point). `params` gives the thresholds
 * (its skeleton, clip and joints are replaced by the arguments). */
AK_API int32_t ak_foot_contacts_detect(const ak_skeleton *skeleton, const ak_clip *clip,
                                       int32_t left_foot, int32_t right_foot, float metres_per_unit,
                                       const ak_contact_params *params, uint8_t *left,
                                       uint8_t *right, ak_error *err);

/* The contact flag byte at time t (seconds) of a clip of frame_count frames: the nearest
 * frame, wrapped when `loop`, clamped otherwise. The one stance-at-time rule. */
AK_API uint8_t ak_contact_at(const uint8_t *flags, int32_t frame_count, float frame_time,
                             int32_t loop, float t);

AK_EXTERN_C_END

#endif
