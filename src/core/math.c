/* Public math entry points (thin wrappers over the inline forms) and Euler conversions. */
#include "core/xform_inline.h"

#include <ctype.h>
#include <string.h>

ak_vec3 ak_vec3_make(float x, float y, float z)
{
    return akv_make(x, y, z);
}
ak_vec3 ak_vec3_add(ak_vec3 a, ak_vec3 b)
{
    return akv_add(a, b);
}
ak_vec3 ak_vec3_sub(ak_vec3 a, ak_vec3 b)
{
    return akv_sub(a, b);
}
ak_vec3 ak_vec3_scale(ak_vec3 a, float s)
{
    return akv_scale(a, s);
}
float ak_vec3_dot(ak_vec3 a, ak_vec3 b)
{
    return akv_dot(a, b);
}
ak_vec3 ak_vec3_cross(ak_vec3 a, ak_vec3 b)
{
    return akv_cross(a, b);
}
float ak_vec3_length(ak_vec3 a)
{
    return akv_len(a);
}
ak_vec3 ak_vec3_lerp(ak_vec3 a, ak_vec3 b, float t)
{
    return akv_lerp(a, b, t);
}

ak_vec3 ak_vec3_normalize_or(ak_vec3 a, ak_vec3 fallback)
{
    return akv_normalize_or(a, fallback);
}

ak_quat ak_quat_identity(void)
{
    ak_quat q = {0.0f, 0.0f, 0.0f, 1.0f};
    return q;
}
ak_quat ak_quat_mul(ak_quat a, ak_quat b)
{
    return akq_mul(a, b);
}
ak_quat ak_quat_conjugate(ak_quat q)
{
    return akq_conj(q);
}
ak_quat ak_quat_normalize(ak_quat q)
{
    return akq_normalize(q);
}
ak_vec3 ak_quat_rotate(ak_quat q, ak_vec3 v)
{
    return akq_rotate(q, v);
}
ak_quat ak_quat_slerp(ak_quat a, ak_quat b, float t)
{
    return akq_slerp(a, b, t);
}
ak_quat ak_quat_nlerp(ak_quat a, ak_quat b, float t)
{
    return akq_nlerp(a, b, t);
}
float ak_quat_dot(ak_quat a, ak_quat b)
{
    return akq_dot(a, b);
}

ak_quat ak_quat_from_axis_angle(ak_vec3 axis, float angle)
{
    const float len = akv_len(axis);
    if (!(len > 1e-12f) || !isfinite(len) || !isfinite(angle)) return ak_quat_identity();
    return akq_axis_angle(akv_scale(axis, 1.0f / len), angle);
}

/* The one from-to rotation (core/xform_inline.h akq_from_to, which the IK solvers use too). */
ak_quat ak_quat_from_to(ak_vec3 from, ak_vec3 to)
{
    return akq_from_to(from, to);
}

float ak_quat_angle(ak_quat q)
{
    float w = fabsf(q.w);
    float v = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2.0f * atan2f(v, w);
}

/* Axis order of each ak_rot_order, in listed order (0 = X, 1 = Y, 2 = Z). */
static const int k_order_axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                       {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static ak_quat axis_quat(int axis, float angle)
{
    ak_quat q = {0.0f, 0.0f, 0.0f, cosf(0.5f * angle)};
    float s = sinf(0.5f * angle);
    if (axis == 0)
        q.x = s;
    else if (axis == 1)
        q.y = s;
    else
        q.z = s;
    return q;
}

ak_quat ak_quat_from_euler(ak_vec3 angles, ak_rot_order order)
{
    const float a[3] = {angles.x, angles.y, angles.z};
    if ((int)order < 0 || (int)order > 5) order = AK_ORDER_XYZ;
    const int *ax = k_order_axes[order];
    ak_quat q = akq_mul(axis_quat(ax[0], a[ax[0]]),
                        akq_mul(axis_quat(ax[1], a[ax[1]]), axis_quat(ax[2], a[ax[2]])));
    return q;
}

/* Rotation matrix of a unit quaternion, row-major m[row][col], in double. */
static void quat_to_mat3(ak_quat q, double m[3][3])
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double n = x * x + y * y + z * z + w * w;
    double s = n > 0.0 ? 2.0 / n : 0.0;
    m[0][0] = 1 - s * (y * y + z * z);
    m[0][1] = s * (x * y - z * w);
    m[0][2] = s * (x * z + y * w);
    m[1][0] = s * (x * y + z * w);
    m[1][1] = 1 - s * (x * x + z * z);
    m[1][2] = s * (y * z - x * w);
    m[2][0] = s * (x * z - y * w);
    m[2][1] = s * (y * z + x * w);
    m[2][2] = 1 - s * (x * x + y * y);
}

/* For M = R_i(a) R_j(b) R_k(c) with (i,j,k) the listed axes and s = +1 for a cyclic order
 * (XYZ, YZX, ZXY), -1 otherwise: sin b = s M[i][k], tan a = -s M[j][k] / M[k][k],
 * tan c = -s M[i][j] / M[i][i]. At gimbal lock (|sin b| = 1) c is set to 0 and
 * a = atan2(s M[k][j], M[j][j]). */
ak_vec3 ak_quat_to_euler(ak_quat q, ak_rot_order order)
{
    double m[3][3];
    if ((int)order < 0 || (int)order > 5) order = AK_ORDER_XYZ;
    const int *ax = k_order_axes[order];
    int i = ax[0], j = ax[1], k = ax[2];
    double s = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;
    quat_to_mat3(q, m);
    /* b from atan2 rather than asin: asin loses half the digits near +-90 degrees. */
    double cb = sqrt(m[i][i] * m[i][i] + m[i][j] * m[i][j]);
    double a, b = atan2(s * m[i][k], cb), c;
    if (cb > 1e-6) {
        a = atan2(-s * m[j][k], m[k][k]);
        c = atan2(-s * m[i][j], m[i][i]);
    } else {
        a = atan2(s * m[k][j], m[j][j]);
        c = 0.0;
    }
    float out[3];
    out[i] = (float)a;
    out[j] = (float)b;
    out[k] = (float)c;
    return ak_vec3_make(out[0], out[1], out[2]);
}

int ak_rot_order_parse(const char *name, ak_rot_order *out)
{
    static const char *names[6] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
    if (!name || strlen(name) != 3) return -1;
    for (int o = 0; o < 6; ++o) {
        int ok = 1;
        for (int c = 0; c < 3; ++c)
            if (toupper((unsigned char)name[c]) != names[o][c]) ok = 0;
        if (ok) {
            if (out) *out = (ak_rot_order)o;
            return 0;
        }
    }
    return -1;
}

const char *ak_rot_order_name(ak_rot_order order)
{
    static const char *names[6] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
    return ((int)order >= 0 && (int)order < 6) ? names[order] : "XYZ";
}

ak_xform ak_xform_identity(void)
{
    ak_xform x = {{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}};
    return x;
}
ak_xform ak_xform_mul(ak_xform a, ak_xform b)
{
    return akx_mul(a, b);
}
ak_xform ak_xform_inverse(ak_xform a)
{
    return akx_inverse(a);
}
ak_vec3 ak_xform_point(ak_xform a, ak_vec3 p)
{
    return akv_add(a.translation, akq_rotate(a.rotation, p));
}
ak_vec3 ak_xform_vector(ak_xform a, ak_vec3 v)
{
    return akq_rotate(a.rotation, v);
}

void ak_xform_to_mat4(ak_xform a, float out_m[16])
{
    double m[3][3];
    quat_to_mat3(a.rotation, m);
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r)
            out_m[c * 4 + r] = (float)m[r][c];
        out_m[c * 4 + 3] = 0.0f;
    }
    out_m[12] = a.translation.x;
    out_m[13] = a.translation.y;
    out_m[14] = a.translation.z;
    out_m[15] = 1.0f;
}
