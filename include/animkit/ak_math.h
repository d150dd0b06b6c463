/* animkit — vectors, quaternions and rigid transforms.
 *
 * Layouts match Unity: ak_vec3 is Vector3 (x,y,z floats), ak_quat is Quaternion (x,y,z,w),
 * so arrays of them can be handed to C# without copying. Quaternions are Hamilton
 * quaternions; q rotates v as q v q*. Transforms compose right to left:
 * model = parent * local means "apply local, then parent".
 * Angles are radians. animkit's own frame is right-handed, Y up (as BVH files usually are). */
#ifndef ANIMKIT_MATH_H
#define ANIMKIT_MATH_H

#include "ak_config.h"

AK_EXTERN_C_BEGIN

typedef struct ak_vec3 {
    float x, y, z;
} ak_vec3;
typedef struct ak_quat {
    float x, y, z, w;
} ak_quat;

/* A rigid transform: rotate by `rotation`, then translate by `translation`. */
typedef struct ak_xform {
    ak_quat rotation;
    ak_vec3 translation;
} ak_xform;

/* Euler rotation orders, named by the order the axes are listed in a BVH CHANNELS line.
 * AK_ORDER_ZYX means R = Rz * Ry * Rx (intrinsic, in the order listed): the vector is
 * rotated about X first, then Y, then Z in the parent frame. Values are ABI. */
typedef enum ak_rot_order {
    AK_ORDER_XYZ = 0,
    AK_ORDER_XZY = 1,
    AK_ORDER_YXZ = 2,
    AK_ORDER_YZX = 3,
    AK_ORDER_ZXY = 4,
    AK_ORDER_ZYX = 5
} ak_rot_order;

AK_API ak_vec3 ak_vec3_make(float x, float y, float z);
AK_API ak_vec3 ak_vec3_add(ak_vec3 a, ak_vec3 b);
AK_API ak_vec3 ak_vec3_sub(ak_vec3 a, ak_vec3 b);
AK_API ak_vec3 ak_vec3_scale(ak_vec3 a, float s);
AK_API float ak_vec3_dot(ak_vec3 a, ak_vec3 b);
AK_API ak_vec3 ak_vec3_cross(ak_vec3 a, ak_vec3 b);
AK_API float ak_vec3_length(ak_vec3 a);
/* Unit vector along a; returns `fallback` when |a| < 1e-12. */
AK_API ak_vec3 ak_vec3_normalize_or(ak_vec3 a, ak_vec3 fallback);
AK_API ak_vec3 ak_vec3_lerp(ak_vec3 a, ak_vec3 b, float t);

AK_API ak_quat ak_quat_identity(void);
/* Product a*b: rotate by b, then by a. */
AK_API ak_quat ak_quat_mul(ak_quat a, ak_quat b);
AK_API ak_quat ak_quat_conjugate(ak_quat q);
/* Unit quaternion; identity when |q| is 0 or not finite. */
AK_API ak_quat ak_quat_normalize(ak_quat q);
AK_API ak_vec3 ak_quat_rotate(ak_quat q, ak_vec3 v);
/* Rotation by `angle` radians about `axis` (normalised here; identity for a zero axis). */
AK_API ak_quat ak_quat_from_axis_angle(ak_vec3 axis, float angle);
/* Shortest rotation taking direction `from` onto direction `to` (any lengths). Opposite
 * directions rotate by pi about an axis perpendicular to `from`. */
AK_API ak_quat ak_quat_from_to(ak_vec3 from, ak_vec3 to);
/* Angle of the rotation in [0, pi]. */
AK_API float ak_quat_angle(ak_quat q);
/* Spherical interpolation along the shorter arc; t=0 gives a, t=1 gives b (sign-matched). */
AK_API ak_quat ak_quat_slerp(ak_quat a, ak_quat b, float t);
/* Normalised linear interpolation along the shorter arc. */
AK_API ak_quat ak_quat_nlerp(ak_quat a, ak_quat b, float t);
AK_API float ak_quat_dot(ak_quat a, ak_quat b);

/* Euler angles (radians) -> quaternion. `angles` holds the angle about X, Y and Z (always
 * in that slot order, whatever the order); `order` says how they compose. */
AK_API ak_quat ak_quat_from_euler(ak_vec3 angles, ak_rot_order order);
/* Quaternion -> Euler angles for `order`; inverse of ak_quat_from_euler. The middle angle is
 * in [-pi/2, pi/2]; at gimbal lock the first angle takes the whole free rotation. */
AK_API ak_vec3 ak_quat_to_euler(ak_quat q, ak_rot_order order);
/* Parse "XYZ"/"zyx"... into an order; returns 0 on success, -1 for an unknown name. */
AK_API int ak_rot_order_parse(const char *name, ak_rot_order *out);
/* "XYZ" ... "ZYX". */
AK_API const char *ak_rot_order_name(ak_rot_order order);

AK_API ak_xform ak_xform_identity(void);
/* a*b: apply b, then a. */
AK_API ak_xform ak_xform_mul(ak_xform a, ak_xform b);
AK_API ak_xform ak_xform_inverse(ak_xform a);
AK_API ak_vec3 ak_xform_point(ak_xform a, ak_vec3 p);
AK_API ak_vec3 ak_xform_vector(ak_xform a, ak_vec3 v);
/* Column-major 4x4 matrix (OpenGL/glTF order; Unity's Matrix4x4 memory order too). */
AK_API void ak_xform_to_mat4(ak_xform a, float out_m[16]);

AK_EXTERN_C_END

#endif
