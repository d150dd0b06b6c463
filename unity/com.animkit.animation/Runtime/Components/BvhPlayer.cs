// Plays a BVH clip on a Transform hierarchy: loads the file through the native plugin,
// builds a hierarchy of empty GameObjects (or maps an existing one by joint name), samples
// the clip every frame with the chosen interpolation, runs the PoseModifiers (IK) on the
// pose and writes local positions/rotations to the Transforms.
//
// Frame order (LateUpdate): advance time -> sample (or take the GuideWalker's pose) -> FK
// -> modifiers by `order` (FootIK, LimbIK, LookAtIK) -> write Transforms. Running in
// LateUpdate lets scripts move IK targets in Update and a CharacterController move the
// character first (GuideWalker does that in its own Update).
using System;
using System.Collections.Generic;
using System.IO;
using UnityEngine;

namespace AnimKit.Unity
{
    /// <summary>Something that writes the whole local pose instead of plain clip sampling
    /// (the GuideWalker does: walk cycles re-anchored under the guide joint).</summary>
    public interface IPoseSource
    {
        void WritePose(BvhPlayer player, float deltaTime);
    }

    [AddComponentMenu("animkit/BVH Player")]
    [DisallowMultipleComponent]
    [DefaultExecutionOrder(100)]
    public class BvhPlayer : MonoBehaviour, IRigPose
    {
        [Header("Source")]
        [Tooltip("The BVH file as a TextAsset. Unity imports .txt and .bytes files as TextAssets: " +
                 "rename walk.bvh to walk.bvh.txt (or .bytes).")]
        public TextAsset bvhAsset;
        [Tooltip("Or a file path, absolute or relative to StreamingAssets; used when no TextAsset is set.")]
        public string bvhPath = "";
        [Tooltip("Metres per file unit. 0 detects it from the standing height " +
                 "(CMU units 0.056444, centimetres 0.01, inches 0.0254, millimetres, metres).")]
        [Min(0f)] public float metresPerUnit = 0f;

        [Header("Playback")]
        [Tooltip("Step: the key at or before t. Linear: lerp/slerp. Cubic: Catmull-Rom + quaternion spline (C1).")]
        public Interpolation interpolation = Interpolation.Linear;
        [Tooltip("Wrap at the end of the clip (the last frame blends back to the first) or hold the last frame.")]
        public bool loop = true;
        public bool playOnStart = true;
        [Tooltip("Playback rate; 1 = the file's own frame rate.")]
        public float speed = 1f;
        [Tooltip("Clip time in seconds (scrub it in the inspector while paused).")]
        [Min(0f)] public float time = 0f;

        [Header("Rig")]
        [Tooltip("Root of an existing hierarchy whose Transforms are named like the BVH joints (rest pose " +
                 "with identity local rotations, as BVH defines it). Empty: empty GameObjects are built " +
                 "under this object, one per joint.")]
        public Transform rigRoot;
        [Tooltip("Keep the travelling joint's horizontal travel in the pose. Turn off to play in place " +
                 "(the GuideWalker turns it off and moves the character instead).")]
        public bool applyRootMotion = true;
        [Tooltip("The joint that carries the travel (what Apply Root Motion off pins). Empty: measured " +
                 "(the top joint, or the hips under a top joint that never moves).")]
        public string rootJoint = "";
        [Tooltip("Draw the bones as gizmos.")]
        public bool drawSkeleton = true;

        public Skeleton Skeleton { get; private set; }
        public Clip Clip { get; private set; }
        /// <summary>One Transform per joint (null where an existing rig has no such name).</summary>
        public Transform[] Joints { get; private set; }
        /// <summary>The pose being built this frame: parent-space transforms, Unity frame.</summary>
        public AkXform[] Local { get; private set; }
        /// <summary>Model-space transforms (this Transform's space) of Local.</summary>
        public AkXform[] Model { get; private set; }
        /// <summary>Joint index per HumanoidSlot (-1 where missing).</summary>
        public int[] Humanoid { get; private set; }
        public bool IsPlaying { get; set; }
        /// <summary>IRigPose: the clip time of the pose (the `time` field).</summary>
        public float ClipTime { get { return time; } }
        /// <summary>IRigPose: model space is this Transform's.</summary>
        public Transform Space { get { return transform; } }
        /// <summary>Set by a GuideWalker; null means plain clip playback.</summary>
        public IPoseSource PoseSource { get; set; }
        /// <summary>The joint that carries the travel (measured at Load, or `rootJoint`).</summary>
        public int RootJoint { get; private set; }

        readonly List<PoseModifier> m_modifiers = new List<PoseModifier>();
        static readonly Comparison<PoseModifier> s_byOrder = (a, b) => a.order.CompareTo(b.order);
        BvhFile m_file;
        AkVec3 m_rootStart;

        void Awake()
        {
            if (Skeleton == null) Load();
        }

        void Start()
        {
            IsPlaying = playOnStart;
        }

        void OnDestroy()
        {
            Unload();
        }

        /// <summary>(Re)loads the BVH from the TextAsset or path and (re)builds the rig.
        /// Errors are logged with the plugin's message (file, line, reason).</summary>
        public bool Load()
        {
            Unload();
            try
            {
                if (bvhAsset != null)
                    m_file = BvhFile.LoadText(bvhAsset.bytes, metresPerUnit, loop);
                else if (!string.IsNullOrEmpty(bvhPath))
                    m_file = BvhFile.Load(Path.IsPathRooted(bvhPath) ? bvhPath
                        : Path.Combine(Application.streamingAssetsPath, bvhPath), metresPerUnit, loop);
                else
                {
                    Debug.LogWarning("BvhPlayer: set a BVH TextAsset or a path", this);
                    return false;
                }
            }
            catch (AnimKitException e)
            {
                Debug.LogError("BvhPlayer: " + e.Message, this);
                return false;
            }
            Skeleton = m_file.Skeleton;
            Clip = m_file.Clip;
            int n = Skeleton.JointCount;
            Local = new AkXform[n];
            Model = new AkXform[n];
            string missing;
            Humanoid = Skeleton.Humanoid(null, out missing);
            if (missing != null) Debug.LogWarning("BvhPlayer: " + missing, this);
            try
            {
                string why;
                RootJoint = Clip.RootJoint(Skeleton, rootJoint, out why).joint;
            }
            catch (AnimKitException e)
            {
                Debug.LogError("BvhPlayer: " + e.Message + " (rootJoint)", this);
                Unload();
                return false;
            }
            Clip.Sample(Skeleton, 0f, Interpolation.Step, Local);
            m_rootStart = Local[RootJoint].position;
            BuildOrMapRig();
            return true;
        }

        public void Unload()
        {
            if (m_file != null) m_file.Dispose();
            m_file = null;
            Skeleton = null;
            Clip = null;
        }

        void BuildOrMapRig()
        {
            if (rigRoot == null)
            {
                Joints = BvhAnimation.CreateHierarchy(Skeleton, transform);
                return;
            }
            Joints = new Transform[Skeleton.JointCount];
            for (int j = 0; j < Joints.Length; ++j)
                Joints[j] = AnimKitUnity.FindDeep(rigRoot, Skeleton.JointNames[j]);
        }

        void LateUpdate()
        {
            if (Skeleton == null) return;
            float dt = IsPlaying ? Time.deltaTime * speed : 0f;
            if (PoseSource == null) time += dt;
            Evaluate(dt);
        }

        /// <summary>Builds this frame's pose (sample or pose source, modifiers) and writes it to
        /// the Transforms.</summary>
        public void Evaluate(float deltaTime)
        {
            if (PoseSource != null)
            {
                PoseSource.WritePose(this, deltaTime);
            }
            else
            {
                if (Clip.Loop != loop) Clip.Loop = loop;
                Clip.Sample(Skeleton, time, interpolation, Local);
                if (!applyRootMotion)
                {
                    // In place: keep the vertical bob, drop the travelling joint's horizontal
                    // travel (the joints above it are still).
                    Local[RootJoint].position.x = m_rootStart.x;
                    Local[RootJoint].position.z = m_rootStart.z;
                }
                Skeleton.Fk(Local, Model);
            }
            GetComponents(m_modifiers);
            m_modifiers.Sort(s_byOrder);
            for (int i = 0; i < m_modifiers.Count; ++i)
                if (m_modifiers[i].enabled) m_modifiers[i].ModifyPose(this);
            Apply();
        }

        /// <summary>Writes Local to the joint Transforms.</summary>
        public void Apply()
        {
            for (int j = 0; j < Joints.Length; ++j)
            {
                Transform t = Joints[j];
                if (t == null) continue;
                t.localPosition = Local[j].position.ToUnity();
                t.localRotation = Local[j].rotation.ToUnity();
            }
        }

        void OnDrawGizmos()
        {
            if (!drawSkeleton || Skeleton == null || Model == null) return;
            Gizmos.color = Color.cyan;
            for (int j = 1; j < Model.Length; ++j)
            {
                int p = Skeleton.Parents[j];
                Gizmos.DrawLine(transform.TransformPoint(Model[p].position.ToUnity()),
                                transform.TransformPoint(Model[j].position.ToUnity()));
            }
        }
    }
}
