// Two-bone IK (hip-knee-ankle or shoulder-elbow-wrist) toward a target Transform, bending
// toward a pole Transform, blended by weight. The solve is the plugin's analytic limb solver
// (law of cosines); see include/animkit/ik.h for the exact contract.
using UnityEngine;

namespace AnimKit.Unity
{
    public enum Limb { LeftArm, RightArm, LeftLeg, RightLeg, Custom }

    [AddComponentMenu("animkit/Limb IK")]
    public class LimbIK : PoseModifier
    {
        [Tooltip("Which limb; found by name through the humanoid map (CMU, Mixamo, Blender... names). " +
                 "Custom uses the three joint names below.")]
        public Limb limb = Limb.LeftArm;
        [Tooltip("Custom limb: upper joint (shoulder/hip), middle (elbow/knee), end (wrist/ankle).")]
        public string upperJoint = "", middleJoint = "", endJoint = "";

        [Header("Goal")]
        [Tooltip("Where the end joint goes. Empty: the component does nothing.")]
        public Transform target;
        [Tooltip("Bend the middle joint toward this point (a knee's pole sits in front, an elbow's behind). " +
                 "Empty: keep the current bend plane.")]
        public Transform pole;
        [Tooltip("Also give the end joint the target's rotation (a hand on a handle).")]
        public bool matchTargetRotation = false;

        [Header("Solver (defaults are the C library's)")]
        [Tooltip("0 = the animation untouched, 1 = the full solve; slerp in between.")]
        [Range(0f, 1f)] public float weight = 1f;
        [Tooltip("0 = off. s in (0,1): the limb eases toward full extension once the target is beyond " +
                 "s of the reach, instead of snapping straight (no knee pop).")]
        [Range(0f, 0.999f)] public float softLimit = 0f;
        [Tooltip("Reached when the end is within this fraction of the limb length.")]
        [Min(0f)] public float tolerance = 1e-4f;

        /// <summary>What the last solve did.</summary>
        public AkIkResult LastResult;
        int m_upper = -1, m_middle = -1, m_end = -1;
        Skeleton m_resolvedFor;

        bool Resolve(IRigPose player)
        {
            if (m_resolvedFor == player.Skeleton) return m_upper >= 0;
            m_resolvedFor = player.Skeleton;
            int[] h = player.Humanoid;
            switch (limb)
            {
                case Limb.LeftArm: m_upper = h[(int)HumanoidSlot.LeftUpperArm]; m_middle = h[(int)HumanoidSlot.LeftLowerArm]; m_end = h[(int)HumanoidSlot.LeftHand]; break;
                case Limb.RightArm: m_upper = h[(int)HumanoidSlot.RightUpperArm]; m_middle = h[(int)HumanoidSlot.RightLowerArm]; m_end = h[(int)HumanoidSlot.RightHand]; break;
                case Limb.LeftLeg: m_upper = h[(int)HumanoidSlot.LeftUpperLeg]; m_middle = h[(int)HumanoidSlot.LeftLowerLeg]; m_end = h[(int)HumanoidSlot.LeftFoot]; break;
                case Limb.RightLeg: m_upper = h[(int)HumanoidSlot.RightUpperLeg]; m_middle = h[(int)HumanoidSlot.RightLowerLeg]; m_end = h[(int)HumanoidSlot.RightFoot]; break;
                default:
                    m_upper = player.Skeleton.Find(upperJoint);
                    m_middle = player.Skeleton.Find(middleJoint);
                    m_end = player.Skeleton.Find(endJoint);
                    break;
            }
            if (m_upper < 0 || m_middle < 0 || m_end < 0)
            {
                Debug.LogWarning("LimbIK: joints of " + limb + " not found in the skeleton", this);
                m_upper = -1;
                return false;
            }
            return true;
        }

        public override void ModifyPose(IRigPose player)
        {
            if (target == null || !Resolve(player)) return;
            AkLimbIkParams p = IK.LimbDefaults();
            p.upper = m_upper;
            p.middle = m_middle;
            p.end = m_end;
            p.target = ToModel(player, target.position);
            if (pole != null)
            {
                p.usePole = 1;
                p.pole = ToModel(player, pole.position);
            }
            if (matchTargetRotation)
            {
                p.matchEndRotation = 1;
                p.endRotation = ToModel(player, target.rotation);
                TransformRig rig = player as TransformRig;
                if (rig != null) // the hand bone takes the target's rotation, in the rig's frame
                    p.endRotation = rig.FromBoneRotation(m_end, p.endRotation.ToUnity()).ToAk();
            }
            p.weight = weight;
            p.softLimit = softLimit;
            p.tolerance = tolerance;
            try
            {
                LastResult = player.Skeleton.LimbIk(ref p, player.Local, player.Model);
            }
            catch (AnimKitException e)
            {
                Debug.LogError("LimbIK: " + e.Message, this);
                enabled = false;
            }
        }
    }
}
