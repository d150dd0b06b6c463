/* glTF export — placeholder, replaced by the real implementation. */
#include "animkit/gltf.h"

ak_gltf_options ak_gltf_defaults(void)
{
    ak_gltf_options o = {1.0f, 0, 1};
    return o;
}

int32_t ak_gltf_write_file(const char *path, const ak_skeleton *s, const ak_clip *c,
                           const ak_gltf_options *o, ak_error *err)
{
    (void)path; (void)s; (void)c; (void)o;
    return ak_error_set(err, AK_ERR_STATE, 0, "glTF export not implemented yet");
}
