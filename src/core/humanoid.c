/* Humanoid map (find hips, spine, legs and arms by name across common rigs), the body it
 * spans (its top joint and the rest pose's height over it) and units. */
#include "animkit/skeleton.h"
#include "core/humanoid_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const k_slot_names[AK_HUM_SLOT_COUNT] = {
    "hips",      "spine",           "chest",           "neck",
    "head",      "left_upper_leg",  "left_lower_leg",  "left_foot",
    "left_toe",  "right_upper_leg", "right_lower_leg", "right_foot",
    "right_toe", "left_shoulder",   "left_upper_arm",  "left_lower_arm",
    "left_hand", "right_shoulder",  "right_upper_arm", "right_lower_arm",
    "right_hand"};

const char *ak_humanoid_slot_name(int32_t slot)
{
    return (slot >= 0 && slot < AK_HUM_SLOT_COUNT) ? k_slot_names[slot] : "unknown";
}

enum { SIDE_NONE = 0, SIDE_LEFT = 1, SIDE_RIGHT = 2 };

/* Splits a joint name into a side and a canonical base: namespace ("mixamorig:") and rig
 * prefixes ("Bip01 ") dropped, lower case, separators removed, side words and letters
 * removed ("LeftUpLeg" -> left "upleg", "thigh.L" -> left "thigh", "RHipJoint" -> right
 * "hipjoint", "l_forearm" -> left "forearm"). */
static void split_name(const char *name, int *side, char base[AK_NAME_MAX])
{
    const char *colon = strrchr(name, ':');
    if (colon) name = colon + 1;
    char raw[AK_NAME_MAX];
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < sizeof raw; ++c)
        raw[n++] = *c;
    raw[n] = '\0';

    /* Side letter as a separate token: "L_", "l.", "L " at the start or "_L", ".l" at the end;
     * or an upper-case L/R followed by another upper-case letter ("LHipJoint"). */
    *side = SIDE_NONE;
    size_t start = 0, end = n;
    if (n >= 2 && (raw[0] == 'L' || raw[0] == 'l' || raw[0] == 'R' || raw[0] == 'r') &&
        (raw[1] == '_' || raw[1] == '.' || raw[1] == ' ' || raw[1] == '-' ||
         ((raw[0] == 'L' || raw[0] == 'R') && isupper((unsigned char)raw[1]) &&
          !(n >= 4 && strncmp(raw, "Left", 4) == 0) &&
          !(n >= 5 && strncmp(raw, "Right", 5) == 0)))) {
        *side = (raw[0] == 'L' || raw[0] == 'l') ? SIDE_LEFT : SIDE_RIGHT;
        start = 1;
    } else if (n >= 2 &&
               (raw[n - 1] == 'L' || raw[n - 1] == 'l' || raw[n - 1] == 'R' || raw[n - 1] == 'r') &&
               (raw[n - 2] == '_' || raw[n - 2] == '.' || raw[n - 2] == ' ' || raw[n - 2] == '-')) {
        *side = (raw[n - 1] == 'L' || raw[n - 1] == 'l') ? SIDE_LEFT : SIDE_RIGHT;
        end = n - 1;
    }
    char low[AK_NAME_MAX];
    size_t m = 0;
    for (size_t i = start; i < end; ++i) {
        unsigned char ch = (unsigned char)raw[i];
        if (isalnum(ch)) low[m++] = (char)tolower(ch);
    }
    low[m] = '\0';
    const char *b = low;
    static const char *const prefixes[] = {"bip001", "bip01", "character1", "mixamorig",
                                           "armature"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; ++i) {
        size_t pl = strlen(prefixes[i]);
        if (strlen(b) > pl && strncmp(b, prefixes[i], pl) == 0) {
            b += pl;
            break;
        }
    }
    if (*side == SIDE_NONE) {
        size_t bl = strlen(b);
        if (strncmp(b, "left", 4) == 0 && bl > 4) {
            *side = SIDE_LEFT;
            b += 4;
        } else if (strncmp(b, "right", 5) == 0 && bl > 5) {
            *side = SIDE_RIGHT;
            b += 5;
        } else if (bl > 4 && strcmp(b + bl - 4, "left") == 0) {
            *side = SIDE_LEFT;
            low[(b - low) + bl - 4] = '\0';
        } else if (bl > 5 && strcmp(b + bl - 5, "right") == 0) {
            *side = SIDE_RIGHT;
            low[(b - low) + bl - 5] = '\0';
        }
    }
    snprintf(base, AK_NAME_MAX, "%s", b);
}

int ak_humanoid_name_side(const char *name, char base[AK_NAME_MAX])
{
    int side;
    split_name(name, &side, base);
    return side;
}

/* Base names per slot, most specific first. NULL-terminated. */
static const char *const k_hips[] = {"hips", "pelvis", "hip", "root", NULL};
static const char *const k_spine[] = {"spine",  "lowerback", "abdomen", "spine0",
                                      "spine1", "spine001",  "torso",   NULL};
static const char *const k_chest[] = {"chest",    "spine2", "upperchest", "spine1", "spine002",
                                      "spine001", "thorax", "spine3",     NULL};
static const char *const k_neck[] = {"neck", "neck1", "neck01", NULL};
static const char *const k_head[] = {"head", "face", "skull", NULL};
static const char *const k_upleg[] = {"upleg", "upperleg", "thigh",    "hip",
                                      "femur", "uleg",     "legupper", NULL};
static const char *const k_loleg[] = {"leg",   "lowerleg", "knee",  "shin", "calf",
                                      "loleg", "leglower", "tibia", NULL};
static const char *const k_foot[] = {"foot", "ankle", NULL};
static const char *const k_toe[] = {"toebase", "toe", "toes", "toe0", "ball", "footend", NULL};
static const char *const k_shoulder[] = {"collar", "clavicle", "shoulder", NULL};
static const char *const k_uparm[] = {"arm",     "upperarm", "uparm", "shoulder",
                                      "humerus", "armupper", NULL};
static const char *const k_loarm[] = {"forearm", "lowerarm", "elbow", "loarm", "armlower", NULL};
static const char *const k_hand[] = {"hand", "wrist", NULL};

static int find_alias(const ak_skeleton *s, const char *const *aliases, int side,
                      const uint8_t *taken)
{
    char base[AK_NAME_MAX];
    for (const char *const *a = aliases; *a; ++a) {
        for (int32_t j = 0; j < s->joint_count; ++j) {
            if (taken[j] || s->is_end_site[j]) continue;
            int js;
            split_name(s->names[j], &js, base);
            if (js == side && strcmp(base, *a) == 0) return j;
        }
    }
    return -1;
}

/* True when `j` descends from `ancestor` (or is it). */
static int descends(const ak_skeleton *s, int32_t j, int32_t ancestor)
{
    return ancestor >= 0 && j >= ancestor && j < s->subtree_end[ancestor];
}

/* Overrides first: "slot=Joint,slot=Joint"; each named joint is taken. */
/* The slot names for a message, each side pair once: "hips, spine, ..., left_/right_upper_leg,
 * ...". Writes at most `size` bytes into out (always terminated). */
static void slot_list(char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < AK_HUM_SLOT_COUNT && n + 1 < size; ++i) {
        const char *name = k_slot_names[i];
        if (strncmp(name, "right_", 6) == 0) continue;
        const int left = strncmp(name, "left_", 5) == 0;
        const int w = snprintf(out + n, size - n, "%s%s%s", n ? ", " : "",
                               left ? "left_/right_" : "", left ? name + 5 : name);
        if (w < 0) break;
        n += (size_t)w;
    }
}

static int32_t apply_overrides(const ak_skeleton *s, const char *overrides, ak_humanoid *out,
                               uint8_t *taken, ak_error *err)
{
    const char *p = overrides;
    while (p && *p) {
        char slot[64], joint[AK_NAME_MAX];
        size_t a = strcspn(p, "="), b;
        if (p[a] != '=' || a == 0 || a >= sizeof slot)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "humanoid override must be slot=Joint");
        memcpy(slot, p, a);
        slot[a] = '\0';
        b = strcspn(p + a + 1, ",");
        if (b == 0 || b >= sizeof joint)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "humanoid override '%s' has no joint",
                                slot);
        memcpy(joint, p + a + 1, b);
        joint[b] = '\0';
        int si = -1;
        for (int i = 0; i < AK_HUM_SLOT_COUNT; ++i)
            if (strcmp(slot, k_slot_names[i]) == 0) si = i;
        if (si < 0) {
            char slots[200];
            slot_list(slots, sizeof slots);
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "unknown humanoid slot '%s' (slots: %s)", slot, slots);
        }
        int32_t j = ak_skeleton_find(s, joint);
        if (j < 0)
            return ak_error_set(err, AK_ERR_NOT_FOUND, 0, "override %s: no joint named '%s'", slot,
                                joint);
        /* One joint fills one slot: every slot on one joint gave a silent, degenerate map. */
        if (taken[j] && taken[j] != si + 1)
            return ak_error_set(err, AK_ERR_INVALID_ARG, 0,
                                "overrides put %s and %s on one joint '%s'",
                                k_slot_names[taken[j] - 1], slot, joint);
        if (out->joint[si] >= 0) taken[out->joint[si]] = 0; /* the slot given twice: last wins */
        out->joint[si] = j;
        taken[j] = (uint8_t)(si + 1); /* the slot, + 1 (0: free) */
        p += a + 1 + b;
        if (*p == ',') ++p;
    }
    return AK_OK;
}

/* Every slot still empty takes the first untaken joint whose base name is one of the slot's
 * aliases on the slot's side, in this order (legs before spine, so "hip" means a thigh). */
static void find_by_names(const ak_skeleton *s, ak_humanoid *out, uint8_t *taken)
{
    static const struct {
        int slot;
        const char *const *aliases;
        int side;
    } plan[] = {{AK_HUM_HIPS, k_hips, SIDE_NONE},
                {AK_HUM_LEFT_UPPER_LEG, k_upleg, SIDE_LEFT},
                {AK_HUM_RIGHT_UPPER_LEG, k_upleg, SIDE_RIGHT},
                {AK_HUM_LEFT_LOWER_LEG, k_loleg, SIDE_LEFT},
                {AK_HUM_RIGHT_LOWER_LEG, k_loleg, SIDE_RIGHT},
                {AK_HUM_LEFT_FOOT, k_foot, SIDE_LEFT},
                {AK_HUM_RIGHT_FOOT, k_foot, SIDE_RIGHT},
                {AK_HUM_LEFT_TOE, k_toe, SIDE_LEFT},
                {AK_HUM_RIGHT_TOE, k_toe, SIDE_RIGHT},
                {AK_HUM_SPINE, k_spine, SIDE_NONE},
                {AK_HUM_CHEST, k_chest, SIDE_NONE},
                {AK_HUM_NECK, k_neck, SIDE_NONE},
                {AK_HUM_HEAD, k_head, SIDE_NONE},
                {AK_HUM_LEFT_SHOULDER, k_shoulder, SIDE_LEFT},
                {AK_HUM_RIGHT_SHOULDER, k_shoulder, SIDE_RIGHT},
                {AK_HUM_LEFT_UPPER_ARM, k_uparm, SIDE_LEFT},
                {AK_HUM_RIGHT_UPPER_ARM, k_uparm, SIDE_RIGHT},
                {AK_HUM_LEFT_LOWER_ARM, k_loarm, SIDE_LEFT},
                {AK_HUM_RIGHT_LOWER_ARM, k_loarm, SIDE_RIGHT},
                {AK_HUM_LEFT_HAND, k_hand, SIDE_LEFT},
                {AK_HUM_RIGHT_HAND, k_hand, SIDE_RIGHT}};
    for (size_t i = 0; i < sizeof plan / sizeof plan[0]; ++i) {
        if (out->joint[plan[i].slot] >= 0) continue;
        int j = find_alias(s, plan[i].aliases, plan[i].side, taken);
        if (j >= 0) {
            out->joint[plan[i].slot] = j;
            taken[j] = 1;
        }
    }
}

/* The structure the names alone cannot promise: the root stands in for missing hips; a
 * "shoulder" with no upper arm found is the upper arm; legs must chain (lower leg below upper
 * leg, foot below lower leg). */
static void fix_structure(const ak_skeleton *s, ak_humanoid *out)
{
    if (out->joint[AK_HUM_HIPS] < 0) out->joint[AK_HUM_HIPS] = 0;
    for (int side = 0; side < 2; ++side) {
        int sh = side ? AK_HUM_RIGHT_SHOULDER : AK_HUM_LEFT_SHOULDER;
        int ua = sh + 1;
        if (out->joint[ua] < 0 && out->joint[sh] >= 0) {
            out->joint[ua] = out->joint[sh];
            out->joint[sh] = -1;
        }
    }
    for (int side = 0; side < 2; ++side) {
        int up = side ? AK_HUM_RIGHT_UPPER_LEG : AK_HUM_LEFT_UPPER_LEG;
        if (out->joint[up + 1] >= 0 && !descends(s, out->joint[up + 1], out->joint[up]))
            out->joint[up + 1] = -1;
        if (out->joint[up + 2] >= 0 && !descends(s, out->joint[up + 2], out->joint[up + 1]))
            out->joint[up + 2] = -1;
    }
}

/* Hips and both legs are required; the error names every one that is missing. */
static int32_t check_required(const ak_humanoid *out, ak_error *err)
{
    static const int required[] = {AK_HUM_HIPS,      AK_HUM_LEFT_UPPER_LEG,  AK_HUM_LEFT_LOWER_LEG,
                                   AK_HUM_LEFT_FOOT, AK_HUM_RIGHT_UPPER_LEG, AK_HUM_RIGHT_LOWER_LEG,
                                   AK_HUM_RIGHT_FOOT};
    char missing[200] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; ++i) {
        if (out->joint[required[i]] < 0) {
            int w = snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "",
                             k_slot_names[required[i]]);
            if (w > 0 && (size_t)w < sizeof missing - used) used += (size_t)w;
        }
    }
    if (used)
        return ak_error_set(err, AK_ERR_NOT_FOUND, 0,
                            "humanoid joints not found: %s (name them with overrides slot=Joint)",
                            missing);
    ak_error_clear(err);
    return AK_OK;
}

int32_t ak_humanoid_find(const ak_skeleton *s, const char *overrides, ak_humanoid *out,
                         ak_error *err)
{
    if (!s || !out) return ak_error_set(err, AK_ERR_INVALID_ARG, 0, "null skeleton or map");
    uint8_t taken[1024];
    if (s->joint_count > 1024)
        return ak_error_set(err, AK_ERR_LIMIT, 0, "humanoid map supports up to 1024 joints");
    memset(taken, 0, (size_t)s->joint_count);
    for (int i = 0; i < AK_HUM_SLOT_COUNT; ++i)
        out->joint[i] = -1;
    const int32_t st = apply_overrides(s, overrides, out, taken, err);
    if (st < 0) return st;
    find_by_names(s, out, taken);
    fix_structure(s, out);
    return check_required(out, err);
}

int32_t ak_humanoid_body_top(const ak_skeleton *s)
{
    ak_humanoid h;
    if (ak_humanoid_find(s, NULL, &h, NULL) != AK_OK) return -1;
    int32_t top = h.joint[AK_HUM_HIPS];
    for (int32_t k = 0; k < AK_HUM_SLOT_COUNT && top >= 0; ++k) {
        const int32_t j = h.joint[k];
        while (j >= 0 && top >= 0 && !(j >= top && j < s->subtree_end[top]))
            top = s->parents[top];
    }
    return top;
}

float ak_humanoid_body_height(const ak_skeleton *s, const ak_xform *model)
{
    const int32_t body = ak_humanoid_body_top(s);
    return body >= 0 ? ak_pose_body_height(s, model, body) : ak_pose_height(model, s->joint_count);
}

float ak_skeleton_rest_height(const ak_skeleton *s)
{
    if (!s) return 0.0f;
    /* Rest FK without allocating per joint: positions only. */
    ak_xform *model = (ak_xform *)malloc(sizeof(ak_xform) * (size_t)s->joint_count);
    if (!model) return 0.0f;
    ak_fk(s, s->rest_local, model);
    const float h = ak_humanoid_body_height(s, model);
    free(model);
    return h;
}

/* A standing adult is 1.2-2.2 m tall; the ranges below are that span in each unit. */
ak_units ak_units_detect(float h, float *mpu)
{
    ak_units u = AK_UNITS_METRES; /* also the answer when the height fits no range */
    if (h >= 18.0f && h < 45.0f)
        u = AK_UNITS_CMU;
    else if (h >= 45.0f && h < 95.0f)
        u = AK_UNITS_INCHES;
    else if (h >= 95.0f && h < 350.0f)
        u = AK_UNITS_CENTIMETRES;
    else if (h >= 950.0f && h < 3500.0f)
        u = AK_UNITS_MILLIMETRES;
    if (mpu) *mpu = ak_units_metres_per_unit(u);
    return u;
}

const char *ak_units_name(ak_units u)
{
    switch (u) {
    case AK_UNITS_METRES: return "metres";
    case AK_UNITS_CENTIMETRES: return "centimetres";
    case AK_UNITS_CMU: return "cmu";
    case AK_UNITS_INCHES: return "inches";
    case AK_UNITS_MILLIMETRES: return "millimetres";
    }
    return "metres";
}

float ak_units_metres_per_unit(ak_units u)
{
    switch (u) {
    case AK_UNITS_METRES: return 1.0f;
    case AK_UNITS_CENTIMETRES: return 0.01f;
    case AK_UNITS_CMU: return 0.056444f;
    case AK_UNITS_INCHES: return 0.0254f;
    case AK_UNITS_MILLIMETRES: return 0.001f;
    }
    return 1.0f;
}
