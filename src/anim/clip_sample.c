/* Clip sampling at a time (step, linear, cubic) and at a frame, one character. */
#include "anim/clip_internal.h"

/* ak_clip_sample's work. `every` (a constant: each form is compiled apart, inlined into its
 * caller): every joint's translation; else only those of the joints with a translation track
 * and of joint `also` (ak_clip_sample_keyed). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
AK_INLINE void
sample_pose(const ak_clip *c, const ak_skeleton *sk, float t, ak_interp interp, ak_xform *local,
            const int every, int32_t also)
{
    const key_span s = locate(c, t);
    int32_t j = 0;
#ifdef AK_HAVE_SSE
    if (interp == AK_INTERP_LINEAR) {
        /* Rotations four joints at a time; translations follow in the scalar loop below. */
        const size_t n = (size_t)c->joint_count;
        const aks_slerp_t sp = aks_slerp_params(s.alpha);
        const ak_quat *r0 = c->rotations + (size_t)s.f0 * n, *r1 = c->rotations + (size_t)s.f1 * n;
        __m128 q[4];
        for (; j + 4 <= c->joint_count; j += 4) {
            aks_slerp4(r0 + j, r1 + j, &sp, q);
            for (int k = 0; k < 4; ++k) {
                _mm_storeu_ps(&local[j + k].rotation.x, q[k]);
                if (every) local[j + k].translation = sample_translation(c, sk, &s, j + k, interp);
            }
        }
    } else if (interp == AK_INTERP_CUBIC) {
        __m128 q[4];
        for (; j + 4 <= c->joint_count; j += 4) {
            const int fast = squad4(c, &s, j, q);
            for (int k = 0; k < 4; ++k) {
                if (fast)
                    _mm_storeu_ps(&local[j + k].rotation.x, q[k]);
                else
                    local[j + k].rotation = sample_rotation(c, &s, j + k, interp);
                if (every) local[j + k].translation = sample_translation(c, sk, &s, j + k, interp);
            }
        }
    }
#endif
    for (; j < c->joint_count; ++j) {
        local[j].rotation = sample_rotation(c, &s, j, interp);
        if (every) local[j].translation = sample_translation(c, sk, &s, j, interp);
    }
    if (every) return;
    for (int32_t k = 0; k < c->track_count; ++k) {
        const int32_t tj = c->track_joint[k];
        local[tj].translation = sample_translation(c, sk, &s, tj, interp);
    }
    if (also >= 0 && also < c->joint_count)
        local[also].translation = sample_translation(c, sk, &s, also, interp);
}

void ak_clip_sample(const ak_clip *c, const ak_skeleton *sk, float t, ak_interp interp,
                    ak_xform *local)
{
    if (!c || !sk || !local || c->joint_count != sk->joint_count) return;
    sample_pose(c, sk, t, interp, local, 1, -1);
}

void ak_clip_sample_keyed(const ak_clip *c, const ak_skeleton *sk, float t, ak_interp interp,
                          ak_xform *local, int32_t also)
{
    if (!c || !sk || !local || c->joint_count != sk->joint_count) return;
    sample_pose(c, sk, t, interp, local, 0, also);
}

void ak_clip_frame(const ak_clip *c, const ak_skeleton *sk, int32_t frame, ak_xform *local)
{
    if (!c || !sk || !local || c->joint_count != sk->joint_count) return;
    if (frame < 0) frame = 0;
    if (frame >= c->frame_count) frame = c->frame_count - 1;
    key_span s = {frame, frame, frame, frame, 0.0f};
    for (int32_t j = 0; j < c->joint_count; ++j) {
        local[j].rotation = sample_rotation(c, &s, j, AK_INTERP_STEP);
        local[j].translation = sample_translation(c, sk, &s, j, AK_INTERP_STEP);
    }
}
