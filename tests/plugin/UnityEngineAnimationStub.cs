// The animation part of the UnityEngine stub (see UnityEngineStub.cs): AnimationClip,
// AnimationCurve with Unity's Hermite evaluation, Animator and the playables ClipPlayer uses.
// Signatures follow Unity 2022.3's scripting API. Test-only: never shipped in the package.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("UnityEditor")]

namespace UnityEngine
{
    public enum WrapMode { Once = 1, Loop = 2, PingPong = 4, Default = 0, ClampForever = 8 }

    public struct Keyframe
    {
        public float time, value, inTangent, outTangent;
        public Keyframe(float time, float value) : this(time, value, 0f, 0f) { }
        public Keyframe(float time, float value, float inTangent, float outTangent)
        {
            this.time = time; this.value = value; this.inTangent = inTangent; this.outTangent = outTangent;
        }
    }

    public class AnimationCurve
    {
        Keyframe[] m_keys;
        public AnimationCurve(params Keyframe[] keys) { m_keys = (Keyframe[])keys.Clone(); }
        public Keyframe[] keys { get { return (Keyframe[])m_keys.Clone(); } set { m_keys = (Keyframe[])value.Clone(); } }
        public int length { get { return m_keys.Length; } }
        public Keyframe this[int index] { get { return m_keys[index]; } }

        /// <summary>Cubic Hermite between the two keys around t (clamped outside), the way
        /// Unity evaluates non-weighted keys.</summary>
        public float Evaluate(float t)
        {
            int n = m_keys.Length;
            if (n == 0) return 0f;
            if (t <= m_keys[0].time) return m_keys[0].value;
            if (t >= m_keys[n - 1].time) return m_keys[n - 1].value;
            int i = 0;
            while (m_keys[i + 1].time < t) ++i;
            Keyframe a = m_keys[i], b = m_keys[i + 1];
            float dt = b.time - a.time, s = (t - a.time) / dt, s2 = s * s, s3 = s2 * s;
            return (2 * s3 - 3 * s2 + 1) * a.value + (s3 - 2 * s2 + s) * dt * a.outTangent
                 + (-2 * s3 + 3 * s2) * b.value + (s3 - s2) * dt * b.inTangent;
        }
    }

    public class Motion : Object { }

    public class AnimationClip : Motion
    {
        internal sealed class Binding { public string path, property; public Type type; public AnimationCurve curve; }
        internal readonly List<Binding> curves = new List<Binding>();
        public bool legacy { get; set; }
        public float frameRate { get; set; }
        public WrapMode wrapMode { get; set; }
        public float length
        {
            get
            {
                float end = 0f;
                foreach (Binding b in curves)
                    if (b.curve.length > 0) end = Math.Max(end, b.curve[b.curve.length - 1].time);
                return end;
            }
        }
        public void SetCurve(string relativePath, Type type, string propertyName, AnimationCurve curve)
        {
            curves.RemoveAll(b => b.path == relativePath && b.type == type && b.property == propertyName);
            if (curve != null)
                curves.Add(new Binding { path = relativePath, type = type, property = propertyName, curve = curve });
        }
        public void EnsureQuaternionContinuity() { }

        /// <summary>Poses `go`'s hierarchy at `time`: every Transform curve is evaluated on the
        /// Transform at its path; rotations are renormalised, as Unity does.</summary>
        public void SampleAnimation(GameObject go, float time)
        {
            foreach (Binding b in curves)
            {
                if (b.type != typeof(Transform)) continue;
                Transform t = b.path.Length == 0 ? go.transform : go.transform.Find(b.path);
                if (t == null) continue;
                float v = b.curve.Evaluate(time);
                string axis = b.property.Substring(b.property.Length - 1);
                if (b.property.StartsWith("m_LocalPosition."))
                {
                    Vector3 p = t.localPosition;
                    if (axis == "x") p.x = v; else if (axis == "y") p.y = v; else p.z = v;
                    t.localPosition = p;
                }
                else if (b.property.StartsWith("m_LocalRotation."))
                {
                    Quaternion q = t.localRotation; // raw components until all four are set
                    if (axis == "x") q.x = v; else if (axis == "y") q.y = v; else if (axis == "z") q.z = v; else q.w = v;
                    t.rawRotation = q;
                }
            }
            foreach (Binding b in curves)
            {
                Transform t = b.path.Length == 0 ? go.transform : go.transform.Find(b.path);
                if (t != null && b.property == "m_LocalRotation.w") t.localRotation = t.rawRotation.Normalized();
            }
        }
    }

    // The humanoid bones (the values are Unity's) a test may assign to a stub Animator.
    public enum HumanBodyBones
    {
        Hips = 0, LeftUpperLeg = 1, RightUpperLeg = 2, LeftLowerLeg = 3, RightLowerLeg = 4,
        LeftFoot = 5, RightFoot = 6, Spine = 7, Chest = 8, Neck = 9, Head = 10,
        LeftShoulder = 11, RightShoulder = 12, LeftUpperArm = 13, RightUpperArm = 14,
        LeftLowerArm = 15, RightLowerArm = 16, LeftHand = 17, RightHand = 18, LeftToes = 19,
        RightToes = 20, UpperChest = 54, LastBone = 55
    }

    public struct HumanLimit { public bool useDefaultValues; }
    public struct HumanBone { public string boneName, humanName; public HumanLimit limit; }
    public struct SkeletonBone { public string name; public Vector3 position; public Quaternion rotation; public Vector3 scale; }
    public struct HumanDescription
    {
        public HumanBone[] human;
        public SkeletonBone[] skeleton;
        public float upperArmTwist, lowerArmTwist, upperLegTwist, lowerLegTwist, armStretch, legStretch, feetSpacing;
        public bool hasTranslationDoF;
    }
    public class Avatar : Object
    {
        internal HumanDescription description;
        internal string rootMotionTransformName; // generic avatars: the root motion node
        public bool isValid { get; internal set; }
        public bool isHuman { get; internal set; }
    }
    // Unity's builds the avatar from the description; the stub keeps it, valid when every bone is found.
    public static class AvatarBuilder
    {
        /// <summary>A generic avatar over every Transform under `go`; root motion comes from the
        /// Transform named `rootMotionTransformName` ("": none). Valid when that name is found.</summary>
        public static Avatar BuildGenericAvatar(GameObject go, string rootMotionTransformName)
        {
            bool ok = string.IsNullOrEmpty(rootMotionTransformName) || FindDeep(go.transform, rootMotionTransformName) != null;
            return new Avatar { rootMotionTransformName = rootMotionTransformName, isValid = ok, isHuman = false };
        }
        public static Avatar BuildHumanAvatar(GameObject go, HumanDescription d)
        {
            bool ok = d.human != null && d.human.Length > 0;
            foreach (HumanBone b in d.human ?? new HumanBone[0]) ok &= FindDeep(go.transform, b.boneName) != null;
            return new Avatar { description = d, isValid = ok, isHuman = ok };
        }
        internal static Transform FindDeep(Transform t, string name)
        {
            if (t.name == name) return t;
            for (int i = 0; i < t.childCount; ++i) { Transform f = FindDeep(t.GetChild(i), name); if (f != null) return f; }
            return null;
        }
    }

    public class Animator : Behaviour
    {
        readonly System.Collections.Generic.Dictionary<HumanBodyBones, Transform> m_bones =
            new System.Collections.Generic.Dictionary<HumanBodyBones, Transform>();
        Avatar m_avatar;
        public bool applyRootMotion { get; set; }
        /// <summary>A human avatar maps its bones (by human name) as Unity's Animator does.</summary>
        public Avatar avatar
        {
            get { return m_avatar; }
            set
            {
                m_avatar = value;
                if (value == null || !value.isHuman) return;
                foreach (HumanBone b in value.description.human)
                {
                    HumanBodyBones slot;
                    if (Enum.TryParse(b.humanName, out slot)) m_bones[slot] = AvatarBuilder.FindDeep(transform, b.boneName);
                }
            }
        }
        public bool isHuman { get { return m_bones.Count > 0; } }
        public Transform GetBoneTransform(HumanBodyBones b) { Transform t; return m_bones.TryGetValue(b, out t) ? t : null; }
        public void SetBoneTransform(HumanBodyBones b, Transform t) { m_bones[b] = t; } // test helper
    }
}

namespace UnityEngine.Playables
{
    public interface IPlayable { }
    public struct Playable : IPlayable { }
    public struct PlayableGraph
    {
        bool m_valid;
        internal static PlayableGraph Create() { return new PlayableGraph { m_valid = true }; }
        public bool IsValid() { return m_valid; }
        public void Destroy() { m_valid = false; }
    }
    public static class PlayableExtensions
    {
        public static void SetSpeed<U>(this U playable, double value) where U : struct, IPlayable { }
    }
}

namespace UnityEngine.Animations
{
    using UnityEngine.Playables;
    public struct AnimationClipPlayable : IPlayable { }
    public static class AnimationPlayableUtilities
    {
        public static AnimationClipPlayable PlayClip(Animator animator, AnimationClip clip, out PlayableGraph graph)
        {
            graph = PlayableGraph.Create();
            return new AnimationClipPlayable();
        }
    }
}
