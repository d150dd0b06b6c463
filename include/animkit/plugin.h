/* animkit — the flat C ABI of the Unity native plugin (libanimkit_unity.so / animkit_unity.dll).
 *
 * Built for P/Invoke from C# (Mono and IL2CPP) and for any engine that can call C:
 *   - Objects are opaque handles (skeleton, clip, character). A handle is a slot index plus a
 *     generation counter, never a raw pointer: a null, destroyed, or never-created handle makes
 *     a call return AK_PLUGIN_ERR_HANDLE instead of crashing, and a destroyed handle's slot
 *     gets a new generation so an old copy of the handle never reaches the new object.
 *   - Only blittable types cross the boundary: int32_t, float, pointers to them, and structs of
 *     floats laid out like Unity's Vector3 (ak_vec3), Quaternion (ak_quat) and Matrix4x4
 *     (ak_plugin_mat4). Flags are int32_t (0/1), never bool. Text goes in as UTF-8
 *     `const char *` and comes out through caller buffers (buffer + size in bytes; always
 *     NUL-terminated, truncated when short).
 *   - Every call returns a status (AK_OK = 0, errors < 0: the ak_status codes plus
 *     AK_PLUGIN_ERR_HANDLE). After a failure, ak_plugin_last_error(handle, ...) gives the text
 *     for that handle. Calls that create handles take an error buffer instead.
 *   - No callbacks. Ground queries use the two-phase form: the plugin lists the rays it needs,
 *     the engine casts them (Physics.Raycast) and hands the hits back in arrays.
 *   - Thread safety: calls on distinct handles may run concurrently. A skeleton or clip may be
 *     read by several characters on several threads at once. Creating and destroying handles
 *     is safe from any thread (a short lock guards the handle table).
 *
 * Coordinates: every position, rotation and matrix at this ABI is in Unity's frame —
 * left-handed, Y up, metres (after the load scale). animkit itself is right-handed Y up (the
 * BVH convention). The plugin converts at the boundary by mirroring Z:
 *     position (x, y, z)    <-> (x, y, -z)
 *     rotation (x, y, z, w) <-> (-x, -y, z, w)
 * The mirror is its own inverse, so the same formula goes both ways; it maps the right-handed
 * rotation R to S R S with S = diag(1, 1, -1), which keeps composition (FK) intact. */
#ifndef ANIMKIT_PLUGIN_H
#define ANIMKIT_PLUGIN_H

#include "ak_math.h"
#include "status.h"

AK_EXTERN_C_BEGIN

/* The plugin's exports. AK_PLUGIN_BUILDING is defined when compiling the plugin itself. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(AK_PLUGIN_BUILDING)
#define AK_PLUGIN_API __declspec(dllexport)
#else
#define AK_PLUGIN_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define AK_PLUGIN_API __attribute__((visibility("default")))
#else
#define AK_PLUGIN_API
#endif

/* Bumped whenever a signature or struct layout below changes. The C# side checks it. */
#define AK_PLUGIN_ABI_VERSION 7

/* A handle is slot index (low 20 bits, plus one) and generation (the bits above). 0 is never
 * a valid handle. Pointer-sized so C# can hold it in an IntPtr / SafeHandle. */
typedef struct ak_plugin_object_tag *ak_handle;

/* A handle that is null, destroyed, never created, or of the wrong kind. (The other error
 * codes are ak_status values from status.h.) */
#define AK_PLUGIN_ERR_HANDLE (-32)

/* Rotation then translation: 7 floats. C# mirrors it as a struct of Quaternion + Vector3. */
typedef struct ak_plugin_xform {
    ak_quat rotation;
    ak_vec3 position;
} ak_plugin_xform;

/* 16 floats, column-major: m[col*4 + row] — the memory order of Unity's Matrix4x4. */
typedef struct ak_plugin_mat4 {
    float m[16];
} ak_plugin_mat4;

typedef struct ak_plugin_skeleton_info {
    int32_t joint_count;
    int32_t units;         /* ak_units of the file (detected, or AK_UNITS_METRES if given) */
    float metres_per_unit; /* the scale applied at load */
    float rest_height;     /* metres: max y - min y of the rest pose's body */
    float standing_height; /* metres: typical standing height over the clip loaded with it
                            * (what unit detection measured) */
} ak_plugin_skeleton_info;

typedef struct ak_plugin_clip_info {
    int32_t joint_count;
    int32_t frame_count;
    float frame_time; /* seconds per frame */
    float duration;   /* seconds (see ak_clip_duration) */
    int32_t loop;     /* 1: sampling wraps; 0: clamps */
} ak_plugin_clip_info;

/* ---- Version, errors, lifetime ---- */

/* AK_PLUGIN_ABI_VERSION of the binary. */
AK_PLUGIN_API int32_t ak_plugin_abi_version(void);
/* Number of live handles of every kind (for leak checks). */
AK_PLUGIN_API int32_t ak_plugin_live_handles(void);
/* Status of this thread's last failed call on `handle` (AK_OK if none), and its message in
 * `buffer` (UTF-8, NUL-terminated, truncated to `size` bytes; buffer may be NULL). Errors are
 * kept per thread (for the thread's 8 most recently failing handles), so threads sharing a
 * skeleton or clip each read their own. For an invalid handle it returns
 * AK_PLUGIN_ERR_HANDLE and says why (null, destroyed, never created). */
AK_PLUGIN_API int32_t ak_plugin_last_error(ak_handle handle, char *buffer, int32_t size);
/* Releases a handle of any kind. Objects shared with characters stay alive until the last
 * character using them is destroyed too. Destroying twice returns AK_PLUGIN_ERR_HANDLE. */
AK_PLUGIN_API int32_t ak_plugin_destroy(ak_handle handle);

/* ---- Loading ---- */

/* Reads a BVH, glTF or GLB file (UTF-8 path; ak_clip_read_file: "walk.glb#Run" picks an
 * animation) into a new skeleton and clip. `metres_per_unit` scales every
 * length (rest offsets, root translation); 0 detects it from the rest height (CMU units,
 * centimetres, inches, millimetres or metres). `loop` sets the clip's loop flag.
 * On failure both handles are null and `error_buffer` gets "line N: reason". */
AK_PLUGIN_API int32_t ak_plugin_bvh_load(const char *path, float metres_per_unit, int32_t loop,
                                         ak_handle *out_skeleton, ak_handle *out_clip,
                                         char *error_buffer, int32_t error_size);
/* Same from `size` bytes in memory: BVH text, glTF JSON or GLB (its first animation). */
AK_PLUGIN_API int32_t ak_plugin_bvh_load_memory(const char *text, int32_t size,
                                                float metres_per_unit, int32_t loop,
                                                ak_handle *out_skeleton, ak_handle *out_clip,
                                                char *error_buffer, int32_t error_size);

/* ---- Skeletons ---- */

AK_PLUGIN_API int32_t ak_plugin_skeleton_info_get(ak_handle skeleton, ak_plugin_skeleton_info *out);
/* Joint name (UTF-8) into buffer. */
AK_PLUGIN_API int32_t ak_plugin_skeleton_joint_name(ak_handle skeleton, int32_t joint, char *buffer,
                                                    int32_t size);
/* Parent index per joint (-1 for the root); `count` must be >= joint_count. */
AK_PLUGIN_API int32_t ak_plugin_skeleton_parents(ak_handle skeleton, int32_t *out_parents,
                                                 int32_t count);
/* Index of the joint named `name` (exact), or AK_ERR_NOT_FOUND. */
AK_PLUGIN_API int32_t ak_plugin_skeleton_find(ak_handle skeleton, const char *name,
                                              int32_t *out_joint);
/* Rest pose, local (parent-space) transforms in Unity's frame. */
AK_PLUGIN_API int32_t ak_plugin_skeleton_rest_pose(ak_handle skeleton, ak_plugin_xform *out_local,
                                                   int32_t count);
/* Humanoid map (see ak_humanoid_find): out_joints[slot] = joint index or -1, `count` >=
 * AK_HUM_SLOT_COUNT (21). `overrides` may be NULL ("slot=Joint,..."). Returns
 * AK_ERR_NOT_FOUND (message lists the missing slots) when hips or a leg is missing; the
 * array is filled either way. */
AK_PLUGIN_API int32_t ak_plugin_skeleton_humanoid(ak_handle skeleton, const char *overrides,
                                                  int32_t *out_joints, int32_t count);

/* ---- Clips, sampling, FK ---- */

AK_PLUGIN_API int32_t ak_plugin_clip_info_get(ak_handle clip, ak_plugin_clip_info *out);
AK_PLUGIN_API int32_t ak_plugin_clip_set_loop(ak_handle clip, int32_t loop);
/* Local pose at `time` seconds with `interp` (ak_interp: 0 step, 1 linear, 2 cubic) into
 * out_local[0..joint_count), Unity frame. `count` must be >= joint_count. No allocation. */
AK_PLUGIN_API int32_t ak_plugin_clip_sample(ak_handle clip, ak_handle skeleton, float time,
                                            int32_t interp, ak_plugin_xform *out_local,
                                            int32_t count);
/* FK: model-space transforms from local ones (both Unity frame). `local` and `out_model`
 * hold `count` >= joint_count entries and must not overlap. */
AK_PLUGIN_API int32_t ak_plugin_fk(ak_handle skeleton, const ak_plugin_xform *local,
                                   ak_plugin_xform *out_model, int32_t count);
/* Sample + FK in one call: model-space transforms at `time`, Unity frame. */
AK_PLUGIN_API int32_t ak_plugin_clip_sample_model(ak_handle clip, ak_handle skeleton, float time,
                                                  int32_t interp, ak_plugin_xform *out_model,
                                                  int32_t count);
/* Which joint carries the clip's horizontal travel (ak_root_joint_find, rootmotion.h): the top
 * joint (CMU, most BVH), or the hips or a root bone under a top joint that never moves
 * (joint_Root -> Hips). Root-motion users take that joint's travel, not joint 0's. */
typedef struct ak_plugin_root_joint_info {
    int32_t joint;    /* the joint whose horizontal travel is the root motion */
    int32_t top;      /* the top joint above it (parent -1) */
    int32_t reason;   /* ak_root_joint_reason: 0 the top joint travels (or nothing does),
                         1 the top joint is still and this joint below it travels, 2 named */
    float travel;     /* metres: the joint's largest XZ distance from its frame-0 place */
    float top_travel; /* metres: the same for the top joint */
    float height;     /* metres: the clip's standing height (the scale of "still") */
} ak_plugin_root_joint_info;

/* Measures (name NULL or "") or takes by name (UTF-8, exact) the joint that carries the
 * clip's travel; `buffer` (may be NULL) gets one line saying which and why
 * (ak_root_joint_describe, e.g. "Hips (the top joint joint_Root is still: ...)"). A name no
 * joint has: AK_ERR_NOT_FOUND, "no joint named 'X' to carry the root motion". Offline: FK of
 * every frame, allocates scratch. */
AK_PLUGIN_API int32_t ak_plugin_clip_root_joint(ak_handle clip, ak_handle skeleton,
                                                const char *name,
                                                ak_plugin_root_joint_info *out_info, char *buffer,
                                                int32_t size);
/* Transforms -> Unity Matrix4x4s (TRS with unit scale). Pure; no handle. */
AK_PLUGIN_API int32_t ak_plugin_xforms_to_matrices(const ak_plugin_xform *xforms,
                                                   ak_plugin_mat4 *out, int32_t count);
/* The boundary conversion itself, in place over `count` transforms (its own inverse):
 * position (x,y,z) -> (x,y,-z), rotation (x,y,z,w) -> (-x,-y,z,w). Exposed for engines that
 * want to reason about it and for tests. */
AK_PLUGIN_API int32_t ak_plugin_mirror_z(ak_plugin_xform *xforms, int32_t count);

/* ---- Inverse kinematics (see ik.h for the solvers' contracts) ----
 * Poses are passed as both `local` (parent space) and `model` (model space, ak_plugin_fk of
 * local), Unity frame, `count` >= joint_count entries each. The solvers rewrite the local
 * rotations of the solved joints and bring `model` up to date below the chain root.
 * Targets and poles are model-space positions (the space of `model`). */

typedef struct ak_plugin_ik_result {
    int32_t reached;     /* 1 when within tolerance */
    int32_t unreachable; /* 1 when out of reach (limb straightened toward the target) */
    int32_t iterations;
    float error; /* metres from end effector to target (radians for aim) */
} ak_plugin_ik_result;

/* Two-bone limb IK (ak_limb_ik_params in Unity's frame). */
typedef struct ak_plugin_limb_ik_params {
    int32_t upper, middle, end; /* joint indices (hip, knee, ankle / shoulder, elbow, wrist) */
    int32_t use_pole;           /* 1: bend toward `pole`; default 0 */
    ak_vec3 target;             /* model space */
    ak_vec3 pole;               /* model space */
    ak_vec3 mid_axis;           /* hinge axis of the middle joint, its local space; default (0,0,1)
                                 * (axes convert like a quaternion's vector part: (-x,-y,z)) */
    float soft_limit;           /* 0 off (default), else (0,1): ease in near full reach */
    int32_t match_end_rotation; /* 1: end joint takes `end_rotation`; default 0 */
    ak_quat end_rotation;       /* model space */
    float tolerance;            /* fraction of the limb length; default 1e-4 */
    float weight;               /* 0..1; default 1 */
} ak_plugin_limb_ik_params;

/* The C defaults (ak_limb_ik_defaults) in Unity's frame; joints set to -1. */
AK_PLUGIN_API int32_t ak_plugin_limb_ik_defaults(ak_plugin_limb_ik_params *out);
AK_PLUGIN_API int32_t ak_plugin_limb_ik(ak_handle skeleton, const ak_plugin_limb_ik_params *params,
                                        ak_plugin_xform *local, ak_plugin_xform *model,
                                        int32_t count, ak_plugin_ik_result *out_result);

/* Look-at spread over a chain (ak_look_at_params in Unity's frame). */
typedef struct ak_plugin_look_at_params {
    ak_vec3 target;     /* model space */
    ak_vec3 forward;    /* last joint's local axis that should point at the target;
                         * default (0,0,-1) (the C (0,0,1), mirrored) */
    ak_vec3 up;         /* last joint's local up axis; default (0,1,0) */
    ak_vec3 up_model;   /* model-space up; default (0,1,0) */
    float clamp_weight; /* 0 unrestricted (default) .. 1 no motion */
    float tolerance;    /* radians; default 1e-3 */
    float weight;       /* 0..1; default 1 */
} ak_plugin_look_at_params;

AK_PLUGIN_API int32_t ak_plugin_look_at_defaults(ak_plugin_look_at_params *out);
/* `chain`: chain_length joint indices, root first, each below the previous (1..64);
 * `joint_weights`: chain_length shares in [0,1] or NULL for an even spread. */
AK_PLUGIN_API int32_t ak_plugin_look_at(ak_handle skeleton, const int32_t *chain,
                                        const float *joint_weights, int32_t chain_length,
                                        const ak_plugin_look_at_params *params,
                                        ak_plugin_xform *local, ak_plugin_xform *model,
                                        int32_t count, ak_plugin_ik_result *out_result);

/* ---- Characters: a skeleton + walk clip (+ idle clip) driven by the guide-joint walker,
 * with foot IK (see grounding.h). All positions world space, Unity frame, metres.
 *
 * A character's rotation is a yaw about +Y. The BVH's forward (+Z, right-handed) becomes
 * -Z in Unity's frame, so a character faces rotation * (0,0,-1); state.facing gives it.
 *
 * One frame, two-phase (no callbacks):
 *   1. ak_plugin_character_begin(dt) -> the displacement the animation wants this frame;
 *      move the engine's controller by it (CharacterController.Move) ...
 *   2. ... and hand back where it ended: ak_plugin_character_set_position (optional; without
 *      it the character moves by the full displacement);
 *   3. ak_plugin_character_ground_rays -> the downward rays to cast (this version: 5 —
 *      centre, left sole, right sole, left landing, right landing); cast them
 *      (Physics.Raycast) ...
 *   4. ... and pass the hits, same order, to ak_plugin_character_finish (foot IK, FK).
 *   Then read ak_plugin_character_state_get / ak_plugin_character_pose.
 * A character is one thread's at a time; different characters may step in parallel. */

/* Room to give ak_plugin_character_ground_rays / _finish: at least this many entries. The
 * number actually used comes back in out_count (5 in this version). */
#define AK_PLUGIN_CHARACTER_MAX_RAYS 8

typedef struct ak_plugin_character_params {
    ak_vec3 start;           /* world; default (0,0,0) */
    ak_vec3 target;          /* world; default (0,0,-5) (the C default (0,0,5), mirrored) */
    int32_t face_target;     /* 1 (default): start facing the target; 0: use start_heading_deg */
    float start_heading_deg; /* Unity yaw of the start rotation (Quaternion.Euler(0,yaw,0)) */
    float arrival_radius;    /* metres; default 0.3 */
    int32_t steer;           /* 0: re-aim before each cycle (default); 1: every frame */
    float turn_rate_deg;     /* degrees per second; default 90 */
    int32_t interp;          /* ak_interp; default 1 (linear) */
    float ground_smoothing;  /* seconds, ground height filter; default 0.12 */
    float idle_fade;         /* seconds, walk -> idle crossfade on arrival; default 0.3 */
    int32_t use_controller;  /* 1 (default): without set_position, the library's capsule
                              * controller moves the character (engines move it themselves) */
    int32_t foot_ik;         /* 1 (default) */
    float foot_weight;       /* 0..1; default 1 */
    float max_tilt_deg;      /* feet follow the surface normal up to this; default 45 */
    float max_hip_drop;      /* metres; default 0.45 */
    float hip_drop_rate;     /* m/s the hip drop may change; default 0.8 */
    float pole_distance;     /* knee pole in front of the knee, metres; default 0.5 */
    int32_t lock_feet;       /* 1 (default): stance feet stay where they landed */
    int32_t cycle_start;     /* walk cycle frames [start, end); -1,-1 (default): found */
    int32_t cycle_end;       /*   automatically; 0,0: the clip already loops */
    float seam_blend;        /* seconds of crossfade over the loop seam; default 0.1 */
    /* The joint whose horizontal travel is the root motion (UTF-8 name, read during create
     * only); NULL or "" (default): measured (ak_root_joint_find: the top joint, or the hips
     * under a still top joint). A name no joint has is refused. */
    const char *root_joint;
} ak_plugin_character_params;

/* What became of the walk clip's captured start or stop (ABI 7): ak_walk_motion_info's
 * start_check / stop_check (walkmotion.h), angles in degrees. A captured one is left out when
 * its own frames, as played, break issue 21's bounds around the cycle's figures (the hips'
 * vertical acceleration over 33 ms, the peak knee): no walk that plays it could keep them, and
 * the walker starts or stops procedurally instead. */
typedef struct ak_plugin_transition {
    int32_t use;    /* 0: none captured around the cycle, 1: played, 2: left out (`broken` says
                       why), 3: not looked for (a clip that already loops) */
    int32_t broken; /* bits: 1 the hips fall faster than hip_accel_low_g, 2 rise faster than
                       hip_accel_high_g, 4 the knee bends past knee_bound_deg; 0 unless use 2 */
    int32_t first_frame, last_frame;         /* walk clip frames found; -1, -1: none */
    float hip_accel_min_g, hip_accel_max_g;  /* its frames as played, g (9.81 m/s^2) */
    float hip_accel_low_g, hip_accel_high_g; /* the bounds, g */
    float knee_peak_deg, knee_bound_deg;     /* its peak knee flexion (0: straight), the bound */
} ak_plugin_transition;

typedef struct ak_plugin_character_info {
    int32_t joint_count;
    int32_t cycle_start, cycle_end; /* frames of the walk clip used as the cycle */
    float cycle_time;               /* seconds */
    float stride_length;            /* metres per cycle */
    float speed;                    /* metres per second */
    float sole_height[2];           /* ankle above the sole, metres: [0] left, [1] right */
    ak_plugin_transition start;     /* the captured start (ABI 7) */
    ak_plugin_transition stop;      /* the captured stop (ABI 7) */
} ak_plugin_character_info;

typedef struct ak_plugin_character_state {
    ak_vec3 position;  /* the guide: the character's ground point */
    ak_quat rotation;  /* the character's yaw */
    ak_vec3 facing;    /* unit forward, = rotation * (0,0,-1) */
    float time;        /* seconds simulated */
    float clip_time;   /* seconds into the walk cycle */
    int32_t cycle;     /* cycles started */
    float distance;    /* to the target, horizontal, metres */
    float path_length; /* travelled, horizontal, metres */
    int32_t arrived;   /* inside the arrival radius */
    int32_t stopped;   /* fully stopped (idle weight 1) */
    float idle_weight;
    int32_t stance[2]; /* [0] left, [1] right foot planted on its sole point (not
                          while it swings or rolls on its toe, heel up) */
    ak_vec3 sole[2];   /* sole contact points after foot IK */
    float tilt_deg[2]; /* foot up vs surface normal after IK */
    float hip_drop;    /* metres the hips were lowered (negative: raised over a stance foot
                          on higher ground, up to the walker's max_hip_rise 0.3 m) */
} ak_plugin_character_state;

/* A ray the engine should cast (world, Unity frame). */
typedef struct ak_plugin_ray {
    ak_vec3 origin;
    ak_vec3 direction;  /* unit, (0,-1,0) */
    float max_distance; /* metres */
} ak_plugin_ray;

/* What the engine's ray cast found. */
typedef struct ak_plugin_ground_hit {
    int32_t hit;    /* 1: ground found; 0: none (the rest unused) */
    float height;   /* world Y of the hit point */
    ak_vec3 normal; /* unit surface normal, pointing up */
} ak_plugin_ground_hit;

/* The walk's measures over every frame finished since create (issue 21): the figures of the
 * CLI's walk summary (src/scenario/walk_summary.c; ak_walk_metrics, walkmetrics.h), each beside
 * the source's own (the walk cycle of a character, every frame of a matcher's database).
 * Lengths in metres, speeds in m/s, accelerations in g (9.81 m/s^2), angles in degrees. */
typedef struct ak_plugin_walk_summary {
    int32_t frames;               /* frames measured */
    float deepest_any_phase;      /* deepest heel, toe or ankle below the ground, any phase */
    float deepest_planted;        /* the same over the frames its foot is planted */
    float skate;                  /* mean horizontal speed of a heel or toe the pose source has down
                                     (its contact) between two frames it is on the ground in (within
                                     1 cm of it or below), held by the grounding or not */
    float max_skate;              /* its worst frame */
    float hip_accel_min_g;        /* the hips' vertical acceleration (33 ms average), lowest */
    float hip_accel_max_g;        /*   and highest */
    float knee_peak_deg;          /* peak knee flexion (0: straight), either leg */
    float source_hip_accel_min_g; /* the source's own, the same measures */
    float source_hip_accel_max_g;
    float source_knee_peak_deg;
    float drag_m_s;        /* a heel or toe within 5 mm of the ground under it at both ends of a
                              frame, its horizontal speed: the point farthest over its bound
                              (ak_walk_metrics_drag_worst; a swinging foot held down along the
                              ground), m/s */
    float source_drag_m_s; /* that point's bound: the source's own fastest for it that low, at
                              least 0.01 m/s (ABI 6) */
} ak_plugin_walk_summary;

/* The C defaults (ak_walker_defaults, ak_foot_ik_defaults, ak_walk_motion_defaults) in
 * Unity's frame. */
AK_PLUGIN_API int32_t ak_plugin_character_defaults(ak_plugin_character_params *out);
/* A character for `skeleton` walking with `walk_clip` (both from one BVH load) and, when
 * `idle_clip` is not null, standing with it on arrival (same skeleton). The character keeps
 * the three objects alive. Prepares the walk cycle (may take a few ms). */
AK_PLUGIN_API int32_t ak_plugin_character_create(ak_handle skeleton, ak_handle walk_clip,
                                                 ak_handle idle_clip,
                                                 const ak_plugin_character_params *params,
                                                 ak_handle *out_character, char *error_buffer,
                                                 int32_t error_size);
AK_PLUGIN_API int32_t ak_plugin_character_info_get(ak_handle character,
                                                   ak_plugin_character_info *out);
/* Walk toward `target` (world; only x,z matter). Setting the same point again (within 0.1 mm)
 * changes nothing, so engines may call it every frame; a moved target restarts the walk. */
AK_PLUGIN_API int32_t ak_plugin_character_set_target(ak_handle character, const ak_vec3 *target);
/* Phase 1: advance by dt seconds (> 0); writes the wanted displacement (world). */
AK_PLUGIN_API int32_t ak_plugin_character_begin(ak_handle character, float dt, ak_vec3 *out_move);
/* Phase 2 (optional): where the engine's controller put the character (ground point). */
AK_PLUGIN_API int32_t ak_plugin_character_set_position(ak_handle character,
                                                       const ak_vec3 *position);
/* Phase 3: the rays to cast into out_rays[0..*out_count); capacity >= *out_count (pass
 * AK_PLUGIN_CHARACTER_MAX_RAYS). out_count may not be NULL. */
AK_PLUGIN_API int32_t ak_plugin_character_ground_rays(ak_handle character, ak_plugin_ray *out_rays,
                                                      int32_t capacity, int32_t *out_count);
/* Phase 4: one hit per ray, same order, `count` = the ray count -> foot IK, final pose. */
AK_PLUGIN_API int32_t ak_plugin_character_finish(ak_handle character,
                                                 const ak_plugin_ground_hit *hits, int32_t count);
AK_PLUGIN_API int32_t ak_plugin_character_state_get(ak_handle character,
                                                    ak_plugin_character_state *out);
/* The last frame's pose in the character's own space (origin at state.position, rotated by
 * state.rotation): `out_local` parent-space (root relative to the character), `out_model`
 * model space. Either may be NULL; `count` >= joint_count. Put the rig under a Transform at
 * (state.position, state.rotation) and the joints land where the walker placed them. */
AK_PLUGIN_API int32_t ak_plugin_character_pose(ak_handle character, ak_plugin_xform *out_local,
                                               ak_plugin_xform *out_model, int32_t count);
/* The last frame's pose in world space. */
AK_PLUGIN_API int32_t ak_plugin_character_world_pose(ak_handle character,
                                                     ak_plugin_xform *out_world, int32_t count);
/* The walk's measures so far (every finished frame since create; ak_plugin_walk_summary). */
AK_PLUGIN_API int32_t ak_plugin_character_summary_get(ak_handle character,
                                                      ak_plugin_walk_summary *out);

/* ---- Standalone foot IK: feet on the engine's ground for a clip played without the walker
 * (an idle, a dance, any clip played in place or with its own root motion). Two-phase like the
 * character: per frame, after sampling and FK,
 *   1. ak_plugin_foot_ik_rays(time, character, model pose) -> 2 downward rays (left, right foot);
 *   2. cast them, ak_plugin_foot_ik_apply(dt, hits, local, model) -> hips lowered by the lower
 *      foot's shortfall, feet placed with limb IK and turned to the surface, stance feet locked.
 * Stance comes from the clip (foot contacts detected at create); `character` is the world
 * placement of the model space (the Transform the rig hangs under: position + yaw). */

typedef struct ak_plugin_foot_ik_params {
    float weight;        /* 0..1; default 1 */
    float max_tilt_deg;  /* feet follow the surface normal up to this; default 45 */
    float max_hip_drop;  /* metres; default 0.45 */
    float hip_drop_rate; /* m/s the hip drop may change; default 0.8 */
    float pole_distance; /* knee pole in front of the knee, metres; default 0.5 */
    int32_t lock_feet;   /* 1 (default): stance feet stay where they landed */
    float ray_up;        /* rays start this far above the foot; default 0.5 m */
    float ray_down;      /* and reach this far below it; default 1.0 m */
} ak_plugin_foot_ik_params;

typedef struct ak_plugin_foot_ik_state {
    int32_t stance[2]; /* [0] left, [1] right, this frame (from the clip) */
    ak_vec3 sole[2];   /* world sole points after IK */
    float tilt_deg[2]; /* foot up vs surface normal after IK */
    int32_t reached[2];
    float hip_drop; /* metres the hips were lowered (never negative: this foot IK does not
                       raise the hips) */
} ak_plugin_foot_ik_state;

#define AK_PLUGIN_FOOT_IK_RAYS 2

AK_PLUGIN_API int32_t ak_plugin_foot_ik_defaults(ak_plugin_foot_ik_params *out);
/* Finds the legs (humanoid map), detects the clip's foot contacts and calibrates the feet
 * (sole height, the foot's up axis, the clip's floor). Keeps `skeleton` alive. */
AK_PLUGIN_API int32_t ak_plugin_foot_ik_create(ak_handle skeleton, ak_handle clip,
                                               const ak_plugin_foot_ik_params *params,
                                               ak_handle *out_foot_ik, char *error_buffer,
                                               int32_t error_size);
/* Phase 1. `time`: clip time of the pose (for stance); `character`: world placement of the
 * model space; `model`: the model-space pose (count >= joint_count). Writes 2 rays. */
AK_PLUGIN_API int32_t ak_plugin_foot_ik_rays(ak_handle foot_ik, float time,
                                             const ak_plugin_xform *character,
                                             const ak_plugin_xform *model, int32_t count,
                                             ak_plugin_ray *out_rays, int32_t capacity,
                                             int32_t *out_count);
/* Phase 2. `dt` >= 0 seconds since the previous frame (0 on the first); `hits`: one per ray.
 * Rewrites local (parent space) and model (model space) in place. */
AK_PLUGIN_API int32_t ak_plugin_foot_ik_apply(ak_handle foot_ik, float dt,
                                              const ak_plugin_ground_hit *hits, int32_t hit_count,
                                              ak_plugin_xform *local, ak_plugin_xform *model,
                                              int32_t count);
AK_PLUGIN_API int32_t ak_plugin_foot_ik_state_get(ak_handle foot_ik, ak_plugin_foot_ik_state *out);
/* Which feet stand, when the caller knows better than the clip's contacts (a rig posed by an
 * engine's animation, whose clip the plugin never saw): 0 swing, else the AK_CONTACT_* bits
 * that are down (1 heel, 2 toe: the foot rolls over its toe where the rig has one, 3 both);
 * -1 (the default) from the clip at the time given to ak_plugin_foot_ik_rays. Holds until set
 * again. */
AK_PLUGIN_API int32_t ak_plugin_foot_ik_set_stance(ak_handle foot_ik, int32_t left, int32_t right);
/* The heel (sole) and toe contact points [left, right] of any model pose placed at `character`
 * (world, Unity frame), by the library's rule (ak_foot_ik_sole / ak_foot_ik_toe) with this
 * foot IK's calibration: heel = ankle - sole_height * foot up, toe = the floor point under the
 * ball as calibrated on the clip (the heel where the rig has no toe joint). The solve holds the
 * sole point; on a plane the toe lands with it because the foot turns to the surface. */
AK_PLUGIN_API int32_t ak_plugin_foot_ik_contact_points(ak_handle foot_ik,
                                                       const ak_plugin_xform *character,
                                                       const ak_plugin_xform *model, int32_t count,
                                                       ak_vec3 *out_heel, ak_vec3 *out_toe);

/* ---- Retargeting: a humanoid clip onto another humanoid rig (see retarget.h) ---- */

/* A rig from arrays, e.g. a Unity character's bone Transforms: `count` joints (1..1024),
 * `names`: `names_size` bytes holding `count` UTF-8 names (each 1..63 bytes), each ended by a
 * NUL; `parents` (-1 for a root, parent before child, each subtree contiguous: depth-first
 * order); rest pose local transforms in Unity's frame, metres. The new skeleton handle is in
 * metres. */
AK_PLUGIN_API int32_t ak_plugin_skeleton_create(int32_t count, const char *names,
                                                int32_t names_size, const int32_t *parents,
                                                const ak_plugin_xform *rest_local,
                                                ak_handle *out_skeleton, char *error_buffer,
                                                int32_t error_size);
/* A clip from poses, e.g. a Unity AnimationClip baked on the character's own Transforms:
 * `frame_count` (1..1,000,000) frames of `skeleton`'s joints, frame-major local (parent
 * space) transforms in Unity's frame, metres; `count` >= frame_count * joint_count. Joint 0
 * and every joint whose translation leaves its rest value (by more than 1e-5 m) get a
 * translation track. `frame_time` > 0 seconds; `loop` sets the loop flag. Non-finite values
 * are refused. */
AK_PLUGIN_API int32_t ak_plugin_clip_create(ak_handle skeleton, int32_t frame_count,
                                            float frame_time, int32_t loop,
                                            const ak_plugin_xform *local_frames, int32_t count,
                                            ak_handle *out_clip, char *error_buffer,
                                            int32_t error_size);
/* A rig from a glTF/GLB skin (`skin` 0 for the first): joints and bind pose, metres. */
AK_PLUGIN_API int32_t ak_plugin_gltf_skin_load(const char *path, int32_t skin,
                                               ak_handle *out_skeleton, char *error_buffer,
                                               int32_t error_size);

typedef struct ak_plugin_retarget_params {
    float scale;             /* on top of the leg-length ratio; default 1 */
    float floor_height;      /* NaN (default): the source's floor carried over; else Unity Y, m */
    int32_t contacts;        /* 1 (default): stance feet pinned (clip retargeting only) */
    int32_t pin_hands;       /* 0 (default) */
    float fade_time;         /* seconds; default 0.1 */
    int32_t reference_frame; /* source frame used as the reference pose (clip retargeting);
                                -1 (default): picked by measure (the zero pose when it stands,
                                else the most upright frame); ak_retarget_params */
} ak_plugin_retarget_params;

AK_PLUGIN_API int32_t ak_plugin_retarget_defaults(ak_plugin_retarget_params *out);
/* Retargets the whole `source_clip` (of `source_skeleton`) onto `target_skeleton`: a new clip
 * handle for the target. Overrides ("slot=Joint,...", may be NULL) fix the humanoid maps. */
AK_PLUGIN_API int32_t ak_plugin_retarget_clip(ak_handle source_skeleton, ak_handle source_clip,
                                              ak_handle target_skeleton,
                                              const char *source_overrides,
                                              const char *target_overrides,
                                              const ak_plugin_retarget_params *params,
                                              ak_handle *out_clip, char *error_buffer,
                                              int32_t error_size);
/* A live retargeter (no contacts): one source pose in, one target pose out, per frame. */
AK_PLUGIN_API int32_t ak_plugin_retargeter_create(
    ak_handle source_skeleton, ak_handle target_skeleton, const char *source_overrides,
    const char *target_overrides, const ak_plugin_retarget_params *params,
    ak_handle *out_retargeter, char *error_buffer, int32_t error_size);
/* Local poses in Unity's frame: source_count >= the source's joints, target_count >= the
 * target's. No allocation. */
AK_PLUGIN_API int32_t ak_plugin_retargeter_pose(ak_handle retargeter,
                                                const ak_plugin_xform *source_local,
                                                int32_t source_count, ak_plugin_xform *target_local,
                                                int32_t target_count);

/* ---- Motion matching: a database of clips and the matching walker (see matching.h) ----
 *
 * Frames as for characters (Unity's, mirrored at the boundary). One frame, two-phase like a
 * character: ak_plugin_matcher_begin -> move the engine's controller -> (set_position) ->
 * ground_rays (3: centre, left sole, right sole) -> cast -> finish -> state / pose. */

typedef struct ak_plugin_motion_db_info {
    int32_t frame_count, candidate_count, clip_count, joint_count;
    float frame_time;           /* seconds */
    float min_speed, max_speed; /* root speed over the candidates, m/s */
} ak_plugin_motion_db_info;

typedef struct ak_plugin_matcher_params {
    ak_vec3 start, target;   /* world; defaults (0,0,0), (0,0,-5) */
    int32_t face_target;     /* 1 (default): start facing the target; 0: start_heading_deg */
    float start_heading_deg; /* Unity yaw of the start rotation */
    float arrival_radius;    /* metres; default 0.3 */
    float walk_speed;        /* m/s wanted far from the target; default 1.4 */
    float turn_rate_deg;     /* orientation warping, deg/s; default 100 */
    float inertia_halflife;  /* seconds; default 0.12 */
    int32_t use_controller;  /* 1 (default): without set_position the library's capsule moves */
    int32_t foot_ik;         /* 1 (default) */
} ak_plugin_matcher_params;

typedef struct ak_plugin_matcher_state {
    ak_vec3 position; /* the character's ground point */
    ak_quat rotation; /* its yaw */
    ak_vec3 facing;   /* rotation * (0,0,-1) */
    float time, distance, path_length;
    int32_t arrived, stopped, standing;
    int32_t frame, clip; /* database frame playing and its source clip */
    float source_time;   /* seconds into that clip */
    int32_t transitions, searches;
    int32_t stance[2];
    ak_vec3 sole[2];
    ak_vec3 desired_position[3]; /* wanted trajectory at +0.33/+0.67/+1.0 s, world */
    ak_vec3 matched_position[3]; /* the playing frame's own future, world */
} ak_plugin_matcher_state;

/* A database from clips of one skeleton (handles from one or several BVH loads of the same
 * rig, in metres). Offline cost: resampling, FK and features of every frame. `root_joint`
 * names the joint whose horizontal travel is the root motion; NULL or "": measured over the
 * clips (ak_motion_db_params.root_joint). */
AK_PLUGIN_API int32_t ak_plugin_motion_db_create(ak_handle skeleton, const ak_handle *clips,
                                                 int32_t clip_count, const char *root_joint,
                                                 ak_handle *out_db, char *error_buffer,
                                                 int32_t error_size);
/* The built database as one binary blob (matching.h), to a file and back. */
AK_PLUGIN_API int32_t ak_plugin_motion_db_save(ak_handle db, const char *path);
AK_PLUGIN_API int32_t ak_plugin_motion_db_load(const char *path, ak_handle *out_db,
                                               char *error_buffer, int32_t error_size);
AK_PLUGIN_API int32_t ak_plugin_motion_db_load_memory(const void *data, int32_t size,
                                                      ak_handle *out_db, char *error_buffer,
                                                      int32_t error_size);
AK_PLUGIN_API int32_t ak_plugin_motion_db_info_get(ak_handle db, ak_plugin_motion_db_info *out);
AK_PLUGIN_API int32_t ak_plugin_matcher_defaults(ak_plugin_matcher_params *out);
/* A matcher on `db` (kept alive by the matcher). */
AK_PLUGIN_API int32_t ak_plugin_matcher_create(ak_handle db, const ak_plugin_matcher_params *params,
                                               ak_handle *out_matcher, char *error_buffer,
                                               int32_t error_size);
AK_PLUGIN_API int32_t ak_plugin_matcher_set_target(ak_handle matcher, const ak_vec3 *target);
AK_PLUGIN_API int32_t ak_plugin_matcher_begin(ak_handle matcher, float dt, ak_vec3 *out_move);
AK_PLUGIN_API int32_t ak_plugin_matcher_set_position(ak_handle matcher, const ak_vec3 *position);
AK_PLUGIN_API int32_t ak_plugin_matcher_ground_rays(ak_handle matcher, ak_plugin_ray *out_rays,
                                                    int32_t capacity, int32_t *out_count);
AK_PLUGIN_API int32_t ak_plugin_matcher_finish(ak_handle matcher, const ak_plugin_ground_hit *hits,
                                               int32_t count);
AK_PLUGIN_API int32_t ak_plugin_matcher_state_get(ak_handle matcher, ak_plugin_matcher_state *out);
/* The pose in the character's own space, as ak_plugin_character_pose. */
AK_PLUGIN_API int32_t ak_plugin_matcher_pose(ak_handle matcher, ak_plugin_xform *out_local,
                                             ak_plugin_xform *out_model, int32_t count);
/* The walk's measures so far, as ak_plugin_character_summary_get (the source: every frame of
 * the database). */
AK_PLUGIN_API int32_t ak_plugin_matcher_summary_get(ak_handle matcher, ak_plugin_walk_summary *out);

AK_EXTERN_C_END

#endif
