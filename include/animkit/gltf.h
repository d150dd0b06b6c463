/* animkit — glTF 2.0 export of a skeleton and clip (nodes, skin, animation). */
#ifndef ANIMKIT_GLTF_H
#define ANIMKIT_GLTF_H

#include "clip.h"

AK_EXTERN_C_BEGIN

typedef struct ak_gltf_options {
    float metres_per_unit;   /* scale applied to translations (1 = keep file units); default 1 */
    int32_t cubic;           /* 1: CUBICSPLINE samplers, 0: LINEAR; default 0 */
    int32_t with_mesh;       /* 1: add a simple skinned capsule mesh so viewers show bones; default 1 */
} ak_gltf_options;

AK_API ak_gltf_options ak_gltf_defaults(void);
/* Writes OUT.gltf (JSON with embedded base64 buffer) or OUT.glb (binary), chosen by the
 * path's extension. glTF is right-handed, Y up, metres: BVH axes carry over directly. */
AK_API int32_t ak_gltf_write_file(const char *path, const ak_skeleton *skeleton,
                                  const ak_clip *clip, const ak_gltf_options *options,
                                  ak_error *err);

AK_EXTERN_C_END

#endif
