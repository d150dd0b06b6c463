// Base of the components that edit a character's pose after animation: LimbIK, LookAtIK,
// FootIK. With a BvhPlayer (or a walker) on the same GameObject the player calls them every
// frame in `order` (lowest first), after sampling and FK, on its pose arrays. Without one they
// work on the character's own Transforms, whatever animated them (Animator, Animation,
// Timeline, a script): in LateUpdate the first enabled modifier of the GameObject reads the
// bones (TransformRig), runs every modifier in `order`, and writes the bones back.
using System.Collections.Generic;
using UnityEngine;

namespace AnimKit.Unity
{
    public abstract class PoseModifier : MonoBehaviour
    {
        [Tooltip("Modifiers run lowest first: foot IK before arm IK before look-at is a good order.")]
        public int order = 0;

        [Header("Rig (without a BvhPlayer)")]
        [Tooltip("A humanoid Animator: its avatar's bones are the rig. Empty: the Animator on this GameObject, if any.")]
        public Animator humanoid;
        [Tooltip("Generic rigs: every Transform under this is a joint (humanoid joints found by name). Empty: this Transform.")]
        public Transform rigRoot;
        [Tooltip("Humanoid map fixes for names the library does not know: \"left_foot=Foot_L,right_foot=Foot_R\".")]
        public string rigOverrides = "";
        [Tooltip("Before the animation runs (Update), put back the bones' pose as the animation left it last " +
                 "frame, so bones nothing animates do not keep last frame's IK (the IK would build on itself).")]
        public bool fixTransforms = true;

        /// <summary>Edit pose.Local and keep pose.Model = FK(pose.Local) (the plugin's
        /// solvers do both).</summary>
        public abstract void ModifyPose(IRigPose pose);

        TransformRig m_rig;
        readonly List<PoseModifier> m_group = new List<PoseModifier>();
        static readonly List<PoseModifier> s_runAll = new List<PoseModifier>();
        static readonly System.Comparison<PoseModifier> s_byOrder = (a, b) => a.order.CompareTo(b.order);

        /// <summary>The rig this GameObject's modifiers share without a BvhPlayer (null before
        /// the first LateUpdate or with a player).</summary>
        public TransformRig Rig { get { return m_rig; } }

        /// <summary>True when this is the GameObject's first enabled modifier and no player or
        /// walker owns the pose: the one that runs the group on the Transforms.</summary>
        bool LeadsOnTransforms()
        {
            if (GetComponent<BvhPlayer>() != null) return false; // the player runs us on its pose
            if (GetComponent<GuideWalker>() != null || GetComponent<MotionMatchingWalker>() != null)
                return false; // a walker on a TransformRig runs us after writing its pose
            GetComponents(m_group);
            m_group.Sort(s_byOrder);
            PoseModifier first = null;
            foreach (PoseModifier m in m_group)
                if (m.enabled && first == null) first = m;
            return first == this;
        }

        /// <summary>Maps the rig before any animation has posed it (Start runs before the
        /// Animator's first evaluation), so the rest pose is the model's own (bind) pose, not
        /// the first animated frame.</summary>
        protected virtual void Start()
        {
            if (m_rig == null && LeadsOnTransforms()) MapRig();
        }

        protected void Update()
        {
            if (fixTransforms && m_rig != null && LeadsOnTransforms()) m_rig.RestoreAnimated();
        }

        protected void LateUpdate()
        {
            if (!LeadsOnTransforms()) return;
            if (m_rig == null && !MapRig()) return;
            m_rig.Read();
            RunAll(this, m_rig);
            m_rig.Write();
        }

        /// <summary>Every enabled PoseModifier on `owner`'s GameObject, lowest order first, on
        /// `pose` (a walker calls this on the rig it drives).</summary>
        public static void RunAll(Component owner, IRigPose pose)
        {
            List<PoseModifier> group = s_runAll; // main thread only, as every MonoBehaviour call
            owner.GetComponents(group);
            group.Sort(s_byOrder);
            foreach (PoseModifier m in group)
                if (m.enabled) m.ModifyPose(pose);
        }

        bool MapRig()
        {
            try
            {
                m_rig = new TransformRig(transform, humanoid != null ? humanoid : GetComponent<Animator>(),
                                         rigRoot, rigOverrides);
                return true;
            }
            catch (AnimKitException e)
            {
                Debug.LogError(GetType().Name + ": rig: " + e.Message, this);
                enabled = false;
                return false;
            }
        }

        protected virtual void OnDestroy()
        {
            if (m_rig != null) m_rig.Dispose();
            m_rig = null;
        }

        /// <summary>A world-space point in the pose's model space.</summary>
        protected static AkVec3 ToModel(IRigPose pose, Vector3 worldPoint)
        {
            return pose.Space.InverseTransformPoint(worldPoint).ToAk();
        }

        /// <summary>A world-space rotation in the pose's model space.</summary>
        protected static AkQuat ToModel(IRigPose pose, Quaternion worldRotation)
        {
            return (Quaternion.Inverse(pose.Space.rotation) * worldRotation).ToAk();
        }
    }
}
