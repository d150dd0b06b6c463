/* FBX through assimp (tools/common/fbx_assimp.c): the joints animkit reads from the FBX files
 * of Debian's assimp-testmodels against assimp's own node transforms, evaluated here
 * independently on assimp's API (keys interpolated as assimp's docs say: lerp positions and
 * scales, aiQuaternionInterpolate rotations, clamped at the ends; world = parent * local) at
 * every frame of every animation stack. Positions agree within 1e-4 of the skeleton's size
 * (the rest pose's box). Files without animation compare their rest skeleton. Skipped when the
 * build has no assimp or the models are not installed. */
#include "test_util.h"

#include "clip_any.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/scene.h>

static const char *const files[] = {"huesitos.fbx", "animation_with_skeleton.fbx", "spider.fbx",
                                    "cubes_with_names.fbx", "embedded_ascii/box.FBX"};

static void lerp3(const struct aiVectorKey *k, unsigned n, double t, struct aiVector3D *out)
{
    if (t <= k[0].mTime || n == 1) {
        *out = k[0].mValue;
        return;
    }
    for (unsigned i = 0; i + 1 < n; ++i)
        if (t < k[i + 1].mTime) {
            const float u = (float)((t - k[i].mTime) / (k[i + 1].mTime - k[i].mTime));
            out->x = k[i].mValue.x + (k[i + 1].mValue.x - k[i].mValue.x) * u;
            out->y = k[i].mValue.y + (k[i + 1].mValue.y - k[i].mValue.y) * u;
            out->z = k[i].mValue.z + (k[i + 1].mValue.z - k[i].mValue.z) * u;
            return;
        }
    *out = k[n - 1].mValue;
}

static void slerpq(const struct aiQuatKey *k, unsigned n, double t, struct aiQuaternion *out)
{
    if (t <= k[0].mTime || n == 1) {
        *out = k[0].mValue;
        return;
    }
    for (unsigned i = 0; i + 1 < n; ++i)
        if (t < k[i + 1].mTime) {
            const float u = (float)((t - k[i].mTime) / (k[i + 1].mTime - k[i].mTime));
            aiQuaternionInterpolate(out, &k[i].mValue, &k[i + 1].mValue, u);
            return;
        }
    *out = k[n - 1].mValue;
}

/* World position of the (*skip + 1)-th node called `name`, depth-first (names repeat: the
 * FBX "cubes_with_names" has two "Куб1"), at `ticks` (anim may be NULL: the rest). */
static int world_of(const struct aiNode *n, const struct aiAnimation *anim, double ticks,
                    const struct aiMatrix4x4 *parent, const char *name, int *skip,
                    struct aiVector3D *out)
{
    struct aiMatrix4x4 local = n->mTransformation, world = *parent;
    for (unsigned c = 0; anim && c < anim->mNumChannels; ++c) {
        const struct aiNodeAnim *ch = anim->mChannels[c];
        if (strcmp(ch->mNodeName.data, n->mName.data) != 0) continue;
        struct aiVector3D s, p;
        struct aiQuaternion q;
        aiDecomposeMatrix(&n->mTransformation, &s, &q, &p);
        if (ch->mNumPositionKeys) lerp3(ch->mPositionKeys, ch->mNumPositionKeys, ticks, &p);
        if (ch->mNumRotationKeys) slerpq(ch->mRotationKeys, ch->mNumRotationKeys, ticks, &q);
        if (ch->mNumScalingKeys) lerp3(ch->mScalingKeys, ch->mNumScalingKeys, ticks, &s);
        aiMatrix4FromScalingQuaternionPosition(&local, &s, &q, &p);
    }
    aiMultiplyMatrix4(&world, &local); /* world = parent * local */
    if (strcmp(n->mName.data, name) == 0 && (*skip)-- == 0) {
        out->x = world.a4, out->y = world.b4, out->z = world.c4;
        return 1;
    }
    for (unsigned c = 0; c < n->mNumChildren; ++c)
        if (world_of(n->mChildren[c], anim, ticks, &world, name, skip, out)) return 1;
    return 0;
}

static double origin_of(const struct aiAnimation *a)
{
    double lo = 0.0;
    for (unsigned k = 0; k < a->mNumChannels; ++k) {
        const struct aiNodeAnim *ch = a->mChannels[k];
        if (ch->mNumPositionKeys) lo = fmin(lo, ch->mPositionKeys[0].mTime);
        if (ch->mNumRotationKeys) lo = fmin(lo, ch->mRotationKeys[0].mTime);
        if (ch->mNumScalingKeys) lo = fmin(lo, ch->mScalingKeys[0].mTime);
    }
    return lo;
}

static void check_file(const char *path, double *worst)
{
    struct aiPropertyStore *props = aiCreatePropertyStore();
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    const struct aiScene *scene = aiImportFileExWithProperties(path, 0, NULL, props);
    aiReleasePropertyStore(props);
    assert_non_null(scene);
    const unsigned stacks = scene->mNumAnimations ? scene->mNumAnimations : 1;
    for (unsigned a = 0; a < stacks; ++a) {
        char sel[1200];
        snprintf(sel, sizeof sel, "%s#%u", path, a);
        ak_skeleton *s;
        ak_clip *c;
        ak_error err;
        if (ak_tools_read_clip(sel, &s, &c, &err) != AK_OK) fail_msg("%s: %s", sel, err.message);
        const float size = ak_skeleton_rest_height(s) > 0 ? ak_skeleton_rest_height(s) : 1.0f;
        const struct aiAnimation *anim = scene->mNumAnimations ? scene->mAnimations[a] : NULL;
        const double tps = anim && anim->mTicksPerSecond > 0 ? anim->mTicksPerSecond : 25.0;
        const double origin = anim ? origin_of(anim) : 0.0;
        ak_xform local[256], world[256];
        double stack_worst = 0.0; /* this stack's; *worst is every file's so far */
        struct aiMatrix4x4 id;
        aiIdentityMatrix4(&id);
        for (int32_t f = 0; f < c->frame_count; ++f) {
            ak_clip_frame(c, s, f, local);
            ak_fk(s, local, world);
            const double ticks = origin + (double)f * (double)c->frame_time * tps;
            for (int32_t j = 0; j < s->joint_count; ++j) {
                struct aiVector3D p;
                int skip = 0;
                for (int32_t k = 0; k < j; ++k)
                    skip += strcmp(s->names[k], s->names[j]) == 0;
                if (!world_of(scene->mRootNode, anim, ticks, &id, s->names[j], &skip, &p))
                    fail_msg("%s: assimp has no node %s", sel, s->names[j]);
                const double d = sqrt(pow(p.x - world[j].translation.x, 2) +
                                      pow(p.y - world[j].translation.y, 2) +
                                      pow(p.z - world[j].translation.z, 2)) /
                                 size;
                if (d > stack_worst) stack_worst = d;
                if (d > 1e-4)
                    fail_msg("%s frame %d joint %s: %g of the size %g apart", sel, (int)f,
                             s->names[j], d, (double)size);
            }
        }
        printf("%s: %d joints, %d frames, worst %.2e of size %.4g\n", sel, (int)s->joint_count,
               (int)c->frame_count, stack_worst, (double)size);
        if (stack_worst > *worst) *worst = stack_worst;
        ak_skeleton_destroy(s);
        ak_clip_destroy(c);
    }
    aiReleaseImport(scene);
}

static void fbx_joints_match_assimp_nodes(void **state)
{
    (void)state;
    if (!ak_tools_have_fbx()) skip();
    char path[1024];
    double worst = 0.0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        snprintf(path, sizeof path, "/usr/share/assimp/models/FBX/%s", files[i]);
        FILE *f = fopen(path, "rb");
        if (!f) skip();
        fclose(f);
        check_file(path, &worst);
    }
    printf("every stack: worst %.2e of the skeleton's size (bound 1e-4)\n", worst);
}

/* A truncated FBX gets assimp's reason, with the file's format named. */
static void fbx_truncated_is_refused(void **state)
{
    (void)state;
    if (!ak_tools_have_fbx()) skip();
    FILE *in = fopen("/usr/share/assimp/models/FBX/huesitos.fbx", "rb");
    if (!in) skip();
    char buf[4096];
    const size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    const char *out = "fbx_truncated_test.fbx";
    FILE *o = fopen(out, "wb");
    assert_non_null(o);
    fwrite(buf, 1, n, o);
    fclose(o);
    ak_skeleton *s;
    ak_clip *c;
    ak_error err;
    assert_int_equal(ak_tools_read_clip(out, &s, &c, &err), AK_ERR_PARSE);
    assert_non_null(strstr(err.message, "assimp cannot read it as FBX"));
    remove(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fbx_joints_match_assimp_nodes),
        cmocka_unit_test(fbx_truncated_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
