/* A program built against an installed animkit, through find_package or pkg-config. */
#include <animkit/animkit.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    ak_quat q = ak_quat_from_euler(ak_vec3_make(0.0f, 1.5707964f, 0.0f), AK_ORDER_XYZ);
    ak_vec3 v = ak_quat_rotate(q, ak_vec3_make(1.0f, 0.0f, 0.0f));
    printf("animkit %s: (1,0,0) turned 90 degrees about Y is (%.3f, %.3f, %.3f)\n",
           AK_VERSION_STRING, v.x, v.y, v.z);
    if (strcmp(ak_version(), AK_VERSION_STRING) != 0) {
        fprintf(stderr, "library says version %s, header says %s\n", ak_version(),
                AK_VERSION_STRING);
        return 1;
    }
    return (v.z < -0.999f && v.z > -1.001f) ? 0 : 1;
}
