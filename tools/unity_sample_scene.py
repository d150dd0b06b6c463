#!/usr/bin/env python3
"""Writes the sample scenes (Unity 2022.3 YAML): Samples~/WalkOnTerrain/WalkOnUnevenGround.unity
and Samples~/YourCharacter/YourCharacter.unity.

  python3 tools/unity_sample_scene.py           (re)write the scene; run tools/unity_meta.py after
  python3 tools/unity_sample_scene.py --check   the committed scene is what this writes, and
                                                every field it sets exists in its script

The scene is generated rather than saved from an editor so that it is reviewable and
reproducible here; scripts and the clip are referenced by the GUIDs in their committed
.meta files, so run tools/unity_meta.py first for new files. Layout (metres, Unity frame):
a 40 x 40 m floor (top at y = 0); a 3 m wide ramp rising 10 degrees toward +z onto a
platform 1.04 m high at x = -3; three steps of 0.15 m risers at x = +3; a slab tilted
6 degrees about z at z = -4; the walker at the origin (layer Ignore Raycast, so the ground
rays and clicks do not hit its capsule) with BVH Player (CMU 02_01 walk), Guide Walker and
Foot IK; WalkTarget (a small sphere without collider) on the top step; the camera with
Click To Move Target; a directional light. Built-in meshes and the built-in default
material (pink under URP/HDRP until you assign one of theirs).
"""
import math
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from unity_meta import read_guid

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unity", "com.animkit.animation")
SAMPLE = os.path.join(ROOT, "Samples~", "WalkOnTerrain")
OUT = os.path.join(SAMPLE, "WalkOnUnevenGround.unity")
SAMPLE2 = os.path.join(ROOT, "Samples~", "YourCharacter")
OUT2 = os.path.join(SAMPLE2, "YourCharacter.unity")
BUILTIN_MESH = "0000000000000000e000000000000000"
BUILTIN_EXTRA = "0000000000000000f000000000000000"
CUBE, SPHERE, DEFAULT_MATERIAL, DEFAULT_SKYBOX = 10202, 10207, 10303, 10304
IGNORE_RAYCAST_LAYER = 2
DEFAULT_RAYCAST_LAYERS = 0xFFFFFFFF & ~(1 << IGNORE_RAYCAST_LAYER)


def guid_of(path):
    return read_guid(path + ".meta")


def quat_euler(x_deg, y_deg, z_deg):
    """Unity's Quaternion.Euler: rotation about Z, then X, then Y (applied to a vector)."""
    def axis(a, deg):
        h = math.radians(deg) / 2
        v = [0.0, 0.0, 0.0]
        v[a] = math.sin(h)
        return v + [math.cos(h)]

    def mul(p, q):
        px, py, pz, pw = p
        qx, qy, qz, qw = q
        return [pw * qx + px * qw + py * qz - pz * qy, pw * qy - px * qz + py * qw + pz * qx,
                pw * qz + px * qy - py * qx + pz * qw, pw * qw - px * qx - py * qy - pz * qz]
    return mul(mul(axis(1, y_deg), axis(0, x_deg)), axis(2, z_deg))


def v3(v):
    return "{x: %s, y: %s, z: %s}" % tuple(fmt(c) for c in v)


def q4(q):
    return "{x: %s, y: %s, z: %s, w: %s}" % tuple(fmt(c) for c in q)


def fmt(c):
    c = round(c, 7)
    return str(int(c)) if c == int(c) else repr(c)


HEAD = "  m_ObjectHideFlags: 0\n  m_CorrespondingSourceObject: {fileID: 0}\n" \
       "  m_PrefabInstance: {fileID: 0}\n  m_PrefabAsset: {fileID: 0}\n"


class Scene:
    def __init__(self):
        self.blocks, self.roots, self.next_id = [], [], 1000

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def add(self, class_id, file_id, kind, body):
        self.blocks.append("--- !u!%d &%d\n%s:\n%s" % (class_id, file_id, kind, body))

    def game_object(self, name, position, rotation=(0, 0, 0, 1), scale=(1, 1, 1), layer=0, tag="Untagged",
                    parent=None):
        go, tr = self.new_id(), self.new_id()
        obj = {"go": go, "tr": tr, "components": [tr], "children": []}
        obj["write"] = lambda: self._write_go(obj, name, layer, tag)
        obj["transform"] = (position, rotation, scale, parent)
        if parent is None:
            self.roots.append(tr)
        else:
            parent["children"].append(tr)
        self.pending = getattr(self, "pending", []) + [obj]
        return obj

    def _write_go(self, obj, name, layer, tag):
        comps = "".join("  - component: {fileID: %d}\n" % c for c in obj["components"])
        self.add(1, obj["go"], "GameObject", HEAD + "  serializedVersion: 6\n  m_Component:\n" + comps +
                 "  m_Layer: %d\n  m_Name: %s\n  m_TagString: %s\n  m_Icon: {fileID: 0}\n"
                 "  m_NavMeshLayer: 0\n  m_StaticEditorFlags: 0\n  m_IsActive: 1\n" % (layer, name, tag))
        position, rotation, scale, parent = obj["transform"]
        children = "".join("  - {fileID: %d}\n" % c for c in obj["children"]) or ""
        self.add(4, obj["tr"], "Transform", HEAD + "  m_GameObject: {fileID: %d}\n  serializedVersion: 2\n"
                 "  m_LocalRotation: %s\n  m_LocalPosition: %s\n  m_LocalScale: %s\n"
                 "  m_ConstrainProportionsScale: 0\n  m_Children:%s\n%s  m_Father: {fileID: %d}\n"
                 "  m_LocalEulerAnglesHint: {x: 0, y: 0, z: 0}\n"
                 % (obj["go"], q4(rotation), v3(position), v3(scale), "" if children else " []",
                    children, parent["tr"] if parent else 0))

    def component(self, obj, class_id, kind, body):
        cid = self.new_id()
        obj["components"].append(cid)
        self.add(class_id, cid, kind, HEAD + "  m_GameObject: {fileID: %d}\n%s" % (obj["go"], body))
        return cid

    def script(self, obj, guid, fields=""):
        return self.component(obj, 114, "MonoBehaviour",
                              "  m_Enabled: 1\n  m_EditorHideFlags: 0\n"
                              "  m_Script: {fileID: 11500000, guid: %s, type: 3}\n"
                              "  m_Name: \n  m_EditorClassIdentifier: \n%s" % (guid, fields))

    def mesh(self, obj, mesh_id, collider=True):
        self.component(obj, 33, "MeshFilter",
                       "  m_Mesh: {fileID: %d, guid: %s, type: 0}\n" % (mesh_id, BUILTIN_MESH))
        self.component(obj, 23, "MeshRenderer",
                       "  m_Enabled: 1\n  m_CastShadows: 1\n  m_ReceiveShadows: 1\n"
                       "  m_Materials:\n  - {fileID: %d, guid: %s, type: 0}\n" % (DEFAULT_MATERIAL, BUILTIN_EXTRA))
        if collider:
            self.component(obj, 65, "BoxCollider",
                           "  m_Material: {fileID: 0}\n  m_IsTrigger: 0\n  m_Enabled: 1\n"
                           "  serializedVersion: 3\n  m_Size: {x: 1, y: 1, z: 1}\n  m_Center: {x: 0, y: 0, z: 0}\n")

    def box(self, name, centre, size, rotation=(0, 0, 0, 1)):
        obj = self.game_object(name, centre, rotation, size)
        self.mesh(obj, CUBE)
        return obj

    def text(self):
        for obj in self.pending:
            obj["write"]()
        header = ("--- !u!29 &1\nOcclusionCullingSettings:\n  m_ObjectHideFlags: 0\n  serializedVersion: 2\n"
                  "  m_OcclusionBakeSettings:\n    smallestOccluder: 5\n    smallestHole: 0.25\n"
                  "    backfaceThreshold: 100\n  m_SceneGUID: 00000000000000000000000000000000\n"
                  "  m_OcclusionCullingData: {fileID: 0}\n"
                  "--- !u!104 &2\nRenderSettings:\n  m_ObjectHideFlags: 0\n  serializedVersion: 9\n  m_Fog: 0\n"
                  "  m_AmbientMode: 0\n  m_SkyboxMaterial: {fileID: %d, guid: %s, type: 0}\n"
                  "  m_Sun: {fileID: %d}\n"
                  "--- !u!157 &3\nLightmapSettings:\n  m_ObjectHideFlags: 0\n  serializedVersion: 12\n"
                  "  m_GISettings:\n    serializedVersion: 2\n    m_EnableBakedLightmaps: 0\n"
                  "    m_EnableRealtimeLightmaps: 0\n  m_LightingDataAsset: {fileID: 0}\n"
                  "--- !u!196 &4\nNavMeshSettings:\n  serializedVersion: 2\n  m_ObjectHideFlags: 0\n"
                  "  m_NavMeshData: {fileID: 0}\n" % (DEFAULT_SKYBOX, BUILTIN_EXTRA, self.sun))
        roots = "".join("  - {fileID: %d}\n" % r for r in self.roots)
        footer = "--- !u!1660057539 &9223372036854775807\nSceneRoots:\n  m_ObjectHideFlags: 0\n  m_Roots:\n" + roots
        yaml_head = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        return yaml_head + header + "".join(self.blocks) + footer


def build(own_character=False):
    scripts = {n: guid_of(os.path.join(ROOT, "Runtime", "Components", n + ".cs"))
               for n in ("BvhPlayer", "GuideWalker", "FootIK")}
    if own_character:
        click = guid_of(os.path.join(SAMPLE2, "ClickToWalk.cs"))
        clip = guid_of(os.path.join(SAMPLE2, "cmu_02_01_walk_30fps.bvh.bytes"))
        generated = guid_of(os.path.join(SAMPLE2, "GeneratedHumanoid.cs"))
    else:
        click = guid_of(os.path.join(SAMPLE, "ClickToMoveTarget.cs"))
        clip = guid_of(os.path.join(SAMPLE, "cmu_02_01_walk.bvh.bytes"))
    s = Scene()

    light = s.game_object("Directional Light", (0, 8, 0), quat_euler(50, -30, 0))
    s.sun = s.component(light, 108, "Light",
                        "  m_Enabled: 1\n  serializedVersion: 10\n  m_Type: 1\n"
                        "  m_Color: {r: 1, g: 0.95686275, b: 0.8392157, a: 1}\n  m_Intensity: 1\n"
                        "  m_Range: 10\n  m_SpotAngle: 30\n  m_Shadows:\n    m_Type: 2\n    m_Strength: 1\n")

    s.box("Floor", (0, -0.5, 0), (40, 1, 40))
    ramp_deg, ramp_len, thick = 10.0, 6.0, 0.2
    rise = ramp_len / 2 * math.sin(math.radians(ramp_deg))
    s.box("Ramp", (-3, rise - thick / 2 * math.cos(math.radians(ramp_deg)), 5), (3, thick, ramp_len),
          quat_euler(-ramp_deg, 0, 0))
    top = 2 * rise
    s.box("Platform", (-3, top / 2, 5 + ramp_len / 2 * math.cos(math.radians(ramp_deg)) + 2), (3, top, 4))
    for i, riser in enumerate((0.15, 0.30, 0.45)):
        s.box("Step %d" % (i + 1), (3, riser / 2, 4 + i if i < 2 else 7), (3, riser, 1 if i < 2 else 3))
    s.box("Tilted Slab", (0, 0.05, -4), (4, 0.3, 3), quat_euler(0, 0, 6))

    target = s.game_object("WalkTarget", (3, 0.45, 6.5))
    marker = s.game_object("Marker", (0, 0.1, 0), scale=(0.2, 0.2, 0.2), parent=target)
    s.mesh(marker, SPHERE, collider=False)

    walker = s.game_object("Character" if own_character else "Walker", (0, 0, 0), layer=IGNORE_RAYCAST_LAYER)
    if own_character:
        s.component(walker, 95, "Animator",
                    "  m_Enabled: 1\n  serializedVersion: 5\n  m_Avatar: {fileID: 0}\n"
                    "  m_Controller: {fileID: 0}\n  m_CullingMode: 0\n  m_UpdateMode: 0\n"
                    "  m_ApplyRootMotion: 0\n")
        s.script(walker, generated, "  material: {fileID: 0}\n")
    s.component(walker, 143, "CharacterController",
                "  m_Material: {fileID: 0}\n  m_IsTrigger: 0\n  m_Enabled: 1\n  serializedVersion: 3\n"
                "  m_Height: 1.7\n  m_Radius: 0.25\n  m_SlopeLimit: 45\n  m_StepOffset: 0.3\n"
                "  m_SkinWidth: 0.08\n  m_MinMoveDistance: 0.001\n  m_Center: {x: 0, y: 0.85, z: 0}\n")
    if own_character:
        s.script(walker, scripts["GuideWalker"],
                 "  target: {fileID: %d}\n  idleBvh: {fileID: 0}\n  ownRig:\n    walkClip: {fileID: 0}\n"
                 "    walkBvh: {fileID: 4900000, guid: %s, type: 3}\n    idleClip: {fileID: 0}\n"
                 "    idleBvh: {fileID: 0}\n    humanoid: {fileID: 0}\n    rigRoot: {fileID: 0}\n"
                 "    rigOverrides: \n" % (target["tr"], clip))
    else:
        s.script(walker, scripts["BvhPlayer"],
                 "  bvhAsset: {fileID: 4900000, guid: %s, type: 3}\n  bvhPath: \n  metresPerUnit: 0\n"
                 "  interpolation: 1\n  loop: 1\n  playOnStart: 1\n  speed: 1\n  time: 0\n"
                 "  rigRoot: {fileID: 0}\n  applyRootMotion: 1\n  drawSkeleton: 1\n" % clip)
        s.script(walker, scripts["GuideWalker"], "  target: {fileID: %d}\n  idleBvh: {fileID: 0}\n" % target["tr"])
    s.script(walker, scripts["FootIK"],
             "  groundLayers:\n    serializedVersion: 2\n    m_Bits: %d\n  drawRays: 1\n" % DEFAULT_RAYCAST_LAYERS)

    camera = s.game_object("Main Camera", (0, 6, -8), quat_euler(30, 0, 0), tag="MainCamera")
    s.component(camera, 20, "Camera",
                "  m_Enabled: 1\n  serializedVersion: 2\n  m_ClearFlags: 1\n"
                "  m_BackGroundColor: {r: 0.19215687, g: 0.3019608, b: 0.4745098, a: 0}\n"
                "  m_NormalizedViewPortRect:\n    serializedVersion: 2\n    x: 0\n    y: 0\n"
                "    width: 1\n    height: 1\n  near clip plane: 0.3\n  far clip plane: 1000\n"
                "  field of view: 60\n  orthographic: 0\n  orthographic size: 5\n  m_Depth: -1\n"
                "  m_CullingMask:\n    serializedVersion: 2\n    m_Bits: 4294967295\n"
                "  m_RenderingPath: -1\n  m_TargetTexture: {fileID: 0}\n  m_TargetDisplay: 0\n"
                "  m_TargetEye: 3\n  m_HDR: 1\n  m_AllowMSAA: 1\n  m_AllowDynamicResolution: 0\n"
                "  m_ForceIntoRT: 0\n  m_OcclusionCulling: 1\n  m_StereoConvergence: 10\n"
                "  m_StereoSeparation: 0.022\n")
    s.component(camera, 81, "AudioListener", "  m_Enabled: 1\n")
    s.script(camera, click,
             "  target: {fileID: %d}\n  viewCamera: {fileID: 0}\n  clickLayers:\n    serializedVersion: 2\n"
             "    m_Bits: %d\n  maxDistance: 1000\n" % (target["tr"], DEFAULT_RAYCAST_LAYERS))
    return s.text()


def field_problems(text):
    """Every field a MonoBehaviour block of the scene sets must be a field its script
    declares (a renamed field would silently fall back to its default in Unity)."""
    scripts = {}
    for dirpath, _, files in os.walk(ROOT):
        for f in files:
            if f.endswith(".cs") and os.path.exists(os.path.join(dirpath, f + ".meta")):
                scripts[guid_of(os.path.join(dirpath, f))] = os.path.join(dirpath, f)
    problems = []
    for block in (b for b in text.split("--- !u!") if b.startswith("114 ")):
        guid = re.search(r"m_Script: \{fileID: 11500000, guid: ([0-9a-f]{32})", block).group(1)
        source = open(scripts[guid], encoding="utf-8").read()
        for name in re.findall(r"^  ([a-z][A-Za-z0-9]*):", block, re.M):
            if not re.search(r"public [\w<>\[\]]+ %s\b" % name, source):
                problems.append("%s: no field '%s'" % (os.path.basename(scripts[guid]), name))
    return problems


def main():
    bad = 0
    for out, text in ((OUT, build()), (OUT2, build(own_character=True))):
        if "--check" in sys.argv:
            problems = field_problems(text)
            with open(out, encoding="utf-8") as fh:
                if fh.read() != text:
                    problems.append("%s differs from what this script writes (run it)" % os.path.relpath(out))
            for p in problems:
                print(p)
            print("%s: %d object(s), %d problem(s)" % (os.path.basename(out), text.count("--- !u!"), len(problems)))
            bad += len(problems)
            continue
        tmp = out + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, out)
        print("wrote %s (%d objects)" % (os.path.relpath(out), text.count("--- !u!")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
