// A BVH as plain Unity objects: a hierarchy of empty GameObjects (one per joint, rest pose)
// and an AnimationClip with one key per BVH frame on those Transforms. The editor's .bvh
// importer (Editor/BvhImporter.cs) and BvhPlayer both build their joints here; at run time
// CreateClip makes a legacy clip from bytes (Unity lets scripts fill only legacy clips
// outside the editor).
//
// Keys are the plugin's own samples in Unity's frame (metres, left-handed), so the clip
// plays the same poses the plugin computes. Tangents are the one-sided slopes between
// neighbouring keys, so Unity's Hermite evaluation is exactly linear between keys for
// positions; rotations are interpolated by Unity per component and renormalised (nlerp),
// which differs from the plugin's slerp by well under a degree at mocap frame rates.
using UnityEngine;

namespace AnimKit.Unity
{
    public static class BvhAnimation
    {
        /// <summary>A Transform's value counts as animated when a key differs from its rest
        /// value by more than this: metres for positions, quaternion components for rotations
        /// (1e-6 of a component is about 1e-4 degrees).</summary>
        public const float PositionEpsilon = 1e-6f, RotationEpsilon = 1e-6f;

        /// <summary>One empty GameObject per joint under `parent`, named like the joint, at the
        /// rest pose; parents before children, so joints[j]'s parent is joints[Parents[j]] (or
        /// `parent` for a root). Returns the joint Transforms in skeleton order.</summary>
        public static Transform[] CreateHierarchy(Skeleton skeleton, Transform parent)
        {
            int n = skeleton.JointCount;
            Transform[] joints = new Transform[n];
            AkXform[] rest = new AkXform[n];
            skeleton.RestPose(rest);
            for (int j = 0; j < n; ++j)
            {
                GameObject go = new GameObject(skeleton.JointNames[j]);
                int p = skeleton.Parents[j];
                go.transform.SetParent(p < 0 ? parent : joints[p], false);
                go.transform.localPosition = rest[j].position.ToUnity();
                go.transform.localRotation = rest[j].rotation.ToUnity();
                joints[j] = go.transform;
            }
            return joints;
        }

        /// <summary>Each joint's path below the hierarchy's parent ("Hips/Spine/Neck"), the
        /// `relativePath` of its animation curves.</summary>
        public static string[] JointPaths(Skeleton skeleton)
        {
            string[] paths = new string[skeleton.JointCount];
            for (int j = 0; j < paths.Length; ++j)
            {
                int p = skeleton.Parents[j];
                paths[j] = p < 0 ? skeleton.JointNames[j] : paths[p] + "/" + skeleton.JointNames[j];
            }
            return paths;
        }

        /// <summary>The clip as an AnimationClip on the hierarchy CreateHierarchy builds:
        /// frame i at i * FrameTime seconds, m_LocalPosition curves on joints whose translation
        /// moves (the root, joints with BVH position channels), m_LocalRotation curves on
        /// joints that rotate. `legacy` clips play on an Animation component and can be built
        /// at run time; non-legacy (generic) clips play on an Animator and are built by the
        /// editor importer.</summary>
        public static AnimationClip CreateClip(BvhFile bvh, bool legacy)
        {
            Skeleton skeleton = bvh.Skeleton;
            Clip source = bvh.Clip;
            int n = skeleton.JointCount, frames = source.FrameCount;
            float dt = source.FrameTime;
            AkXform[] rest = new AkXform[n];
            skeleton.RestPose(rest);
            AkXform[][] keys = SampleKeys(bvh, frames);
            string[] paths = JointPaths(skeleton);
            AnimationClip clip = new AnimationClip();
            clip.legacy = legacy;
            clip.frameRate = 1f / dt;
            for (int j = 0; j < n; ++j)
            {
                if (Moves(keys, j, rest[j], true))
                    AddCurves(clip, paths[j], "m_LocalPosition.", keys, j, dt, true);
                if (Moves(keys, j, rest[j], false))
                    AddCurves(clip, paths[j], "m_LocalRotation.", keys, j, dt, false);
            }
            if (legacy) clip.wrapMode = source.Loop ? WrapMode.Loop : WrapMode.ClampForever;
            return clip;
        }

        /// <summary>Frame i's local pose for every frame (step sampling at the middle of the
        /// frame returns key i exactly, whatever the rounding of i * FrameTime).</summary>
        static AkXform[][] SampleKeys(BvhFile bvh, int frames)
        {
            AkXform[][] keys = new AkXform[frames][];
            for (int i = 0; i < frames; ++i)
            {
                keys[i] = new AkXform[bvh.Skeleton.JointCount];
                bvh.Clip.Sample(bvh.Skeleton, (i + 0.5f) * bvh.Clip.FrameTime, Interpolation.Step, keys[i]);
            }
            return keys;
        }

        static float Component(AkXform x, bool position, int c)
        {
            if (position) return c == 0 ? x.position.x : c == 1 ? x.position.y : x.position.z;
            return c == 0 ? x.rotation.x : c == 1 ? x.rotation.y : c == 2 ? x.rotation.z : x.rotation.w;
        }

        static bool Moves(AkXform[][] keys, int joint, AkXform rest, bool position)
        {
            int components = position ? 3 : 4;
            float eps = position ? PositionEpsilon : RotationEpsilon;
            for (int i = 0; i < keys.Length; ++i)
                for (int c = 0; c < components; ++c)
                    if (System.Math.Abs(Component(keys[i][joint], position, c) - Component(rest, position, c)) > eps)
                        return true;
            return false;
        }

        static readonly string[] s_axes = { "x", "y", "z", "w" };

        static void AddCurves(AnimationClip clip, string path, string property, AkXform[][] keys, int joint,
            float dt, bool position)
        {
            int components = position ? 3 : 4, frames = keys.Length;
            for (int c = 0; c < components; ++c)
            {
                Keyframe[] k = new Keyframe[frames];
                for (int i = 0; i < frames; ++i)
                {
                    float v = Component(keys[i][joint], position, c);
                    float before = i > 0 ? (v - Component(keys[i - 1][joint], position, c)) / dt : 0f;
                    float after = i + 1 < frames ? (Component(keys[i + 1][joint], position, c) - v) / dt : 0f;
                    if (i == 0) before = after;
                    if (i + 1 == frames) after = before;
                    k[i] = new Keyframe(i * dt, v, before, after);
                }
                clip.SetCurve(path, typeof(Transform), property + s_axes[c], new AnimationCurve(k));
            }
        }
    }
}
