// Aims one bone (or a short chain ending in it) so a chosen local axis points at a target:
// a hand holding a torch or a gun, a head-mounted lamp, a turret on a rig. The turn is spread
// over the chain by per-joint weights, clamped, and blended by weight; the bone's up axis is
// kept as upright as the aim allows. The solve is the plugin's look-at (include/animkit/ik.h:
// ak_look_at_run), which on a chain of one joint is the library's aim. Works on a BvhPlayer's
// pose or on a character's own Transforms (see PoseModifier), like LimbIK and LookAtIK.
using UnityEngine;

namespace AnimKit.Unity
{
    [AddComponentMenu("animkit/Aim IK")]
    public class AimIK : PoseModifier
    {
        [Tooltip("What to aim at. Empty: the component does nothing.")]
        public Transform target;
        [Tooltip("The bone that aims, from the humanoid map (any rig the library's names or a humanoid Animator know).")]
        public HumanoidSlot bone = HumanoidSlot.RightHand;
        [Tooltip("Or the bone's name (takes precedence when set).")]
        public string boneName = "";
        [Tooltip("Optional: joints above the bone that share the turn, root first (e.g. the upper and lower arm). " +
                 "Empty: the bone alone.")]
        public string[] parentChain = new string[0];
        [Tooltip("Share of the turn each joint of parentChain + bone takes, root first. Empty: an even spread.")]
        public float[] jointWeights = new float[0];

        [Header("Axes, in the bone's local space (Unity frame)")]
        [Tooltip("The bone's local axis that should point at the target (a gun's barrel, a finger).")]
        public Vector3 aimAxis = new Vector3(0f, 0f, 1f);
        [Tooltip("The bone's local axis kept as upright as the aim allows.")]
        public Vector3 upAxis = new Vector3(0f, 1f, 0f);
        [Tooltip("Up in the character's model space.")]
        public Vector3 upModel = new Vector3(0f, 1f, 0f);

        [Header("Solver (defaults are the C library's)")]
        [Range(0f, 1f)] public float weight = 1f;
        [Tooltip("0 = unrestricted, 1 = no motion; the aim turns at most (1 - clampWeight) * 180 degrees.")]
        [Range(0f, 1f)] public float clampWeight = 0f;
        [Tooltip("Radians: reached when the remaining angle is below this.")]
        [Min(0f)] public float tolerance = 1e-3f;

        /// <summary>What the last solve did (error in radians).</summary>
        public AkIkResult LastResult;
        int[] m_chain;
        float[] m_weights;
        Skeleton m_resolvedFor;

        bool Resolve(IRigPose pose)
        {
            if (m_resolvedFor == pose.Skeleton) return m_chain != null;
            m_resolvedFor = pose.Skeleton;
            m_chain = null;
            int end = !string.IsNullOrEmpty(boneName) ? pose.Skeleton.Find(boneName) : pose.Humanoid[(int)bone];
            if (end < 0)
            {
                Debug.LogWarning("AimIK: no bone " + (string.IsNullOrEmpty(boneName) ? bone.ToString() : boneName), this);
                return false;
            }
            var joints = new System.Collections.Generic.List<int>();
            foreach (string name in parentChain ?? new string[0])
            {
                int j = pose.Skeleton.Find(name);
                if (j < 0 || j >= end) { Debug.LogWarning("AimIK: " + name + " is not a joint above the bone", this); return false; }
                joints.Add(j);
            }
            joints.Add(end);
            m_chain = joints.ToArray();
            m_weights = jointWeights != null && jointWeights.Length == m_chain.Length ? jointWeights : null;
            return true;
        }

        public override void ModifyPose(IRigPose pose)
        {
            if (target == null || !Resolve(pose)) return;
            AkLookAtParams p = IK.LookAtDefaults();
            p.target = ToModel(pose, target.position);
            TransformRig rig = pose as TransformRig;
            int end = m_chain[m_chain.Length - 1];
            p.forward = (rig != null ? rig.FromBoneAxis(end, aimAxis) : aimAxis).ToAk();
            p.up = (rig != null ? rig.FromBoneAxis(end, upAxis) : upAxis).ToAk();
            p.upModel = upModel.ToAk();
            p.weight = weight;
            p.clampWeight = clampWeight;
            p.tolerance = tolerance;
            try
            {
                LastResult = pose.Skeleton.LookAt(m_chain, m_weights, ref p, pose.Local, pose.Model);
            }
            catch (AnimKitException e)
            {
                Debug.LogError("AimIK: " + e.Message, this);
                enabled = false;
            }
        }
    }
}
