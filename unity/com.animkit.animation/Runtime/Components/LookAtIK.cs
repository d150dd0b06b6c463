// Turns a chain (spine -> chest -> neck -> head by default) so the last joint looks at a
// target, the turn spread over the chain by per-joint weights, clamped, and blended by
// weight. The solve is the plugin's look-at (include/animkit/ik.h: ak_look_at_run).
using UnityEngine;

namespace AnimKit.Unity
{
    [AddComponentMenu("animkit/Look At IK")]
    public class LookAtIK : PoseModifier
    {
        [Tooltip("What to look at. Empty: the component does nothing.")]
        public Transform target;
        [Tooltip("Chain joint names, root first (each below the previous). Empty: spine, chest, neck and " +
                 "head from the humanoid map (those the rig has).")]
        public string[] chain = new string[0];
        [Tooltip("Share of the turn each chain joint takes, root first (the last joint takes the rest). " +
                 "Empty: an even spread.")]
        public float[] jointWeights = new float[0];

        [Header("Axes, in the last joint's local space (Unity frame)")]
        [Tooltip("On a character's own rig (no BvhPlayer): forward and up are the character's front (from its " +
                 "hips: left-to-right x up) and +Y as " +
                 "the last chain joint saw them when the rig was mapped, whatever its bone axes; forwardAxis " +
                 "and upAxis below are then ignored. Off, or on a BvhPlayer: the axes below.")]
        public bool axesFromRig = true;
        [Tooltip("The axis that should point at the target. BVH heads look along +Z in the file, " +
                 "which is -Z in Unity's frame (the C default (0,0,1), mirrored).")]
        public Vector3 forwardAxis = new Vector3(0f, 0f, -1f);
        [Tooltip("The axis kept as upright as the look allows.")]
        public Vector3 upAxis = new Vector3(0f, 1f, 0f);
        [Tooltip("Up in the character's model space.")]
        public Vector3 upModel = new Vector3(0f, 1f, 0f);

        [Header("Solver (defaults are the C library's)")]
        [Range(0f, 1f)] public float weight = 1f;
        [Tooltip("Like Unity's clampWeight: 0 = unrestricted, 1 = no motion; the look turns at most " +
                 "(1 - clampWeight) * 180 degrees.")]
        [Range(0f, 1f)] public float clampWeight = 0f;
        [Tooltip("Radians: reached when the remaining angle is below this.")]
        [Min(0f)] public float tolerance = 1e-3f;

        public AkIkResult LastResult;
        int[] m_chain;
        float[] m_weights;
        Skeleton m_resolvedFor;

        bool Resolve(IRigPose player)
        {
            if (m_resolvedFor == player.Skeleton) return m_chain != null;
            m_resolvedFor = player.Skeleton;
            m_chain = null;
            var joints = new System.Collections.Generic.List<int>();
            if (chain != null && chain.Length > 0)
            {
                foreach (string name in chain)
                {
                    int j = player.Skeleton.Find(name);
                    if (j < 0) { Debug.LogWarning("LookAtIK: no joint named " + name, this); return false; }
                    joints.Add(j);
                }
            }
            else
            {
                HumanoidSlot[] slots = { HumanoidSlot.Spine, HumanoidSlot.Chest, HumanoidSlot.Neck, HumanoidSlot.Head };
                foreach (HumanoidSlot s in slots)
                {
                    int j = player.Humanoid[(int)s];
                    if (j >= 0 && (joints.Count == 0 || j > joints[joints.Count - 1])) joints.Add(j);
                }
            }
            if (joints.Count == 0) { Debug.LogWarning("LookAtIK: no chain joints found", this); return false; }
            m_chain = joints.ToArray();
            m_weights = jointWeights != null && jointWeights.Length == m_chain.Length ? jointWeights : null;
            return true;
        }

        public override void ModifyPose(IRigPose player)
        {
            if (target == null || !Resolve(player)) return;
            AkLookAtParams p = IK.LookAtDefaults();
            p.target = ToModel(player, target.position);
            p.forward = forwardAxis.ToAk();
            p.up = upAxis.ToAk();
            TransformRig rig = player as TransformRig;
            int last = m_chain[m_chain.Length - 1];
            if (rig != null && axesFromRig)
            {
                p.forward = rig.RestAxis(last, rig.RestForward).ToAk();
                p.up = rig.RestAxis(last, Vector3.up).ToAk();
            }
            else if (rig != null) // the axes are the head bone's own
            {
                p.forward = rig.FromBoneAxis(last, forwardAxis).ToAk();
                p.up = rig.FromBoneAxis(last, upAxis).ToAk();
            }
            p.upModel = upModel.ToAk();
            p.weight = weight;
            p.clampWeight = clampWeight;
            p.tolerance = tolerance;
            try
            {
                LastResult = player.Skeleton.LookAt(m_chain, m_weights, ref p, player.Local, player.Model);
            }
            catch (AnimKitException e)
            {
                Debug.LogError("LookAtIK: " + e.Message, this);
                enabled = false;
            }
        }
    }
}
