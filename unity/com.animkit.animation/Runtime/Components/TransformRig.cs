// The pose of any character's own Transforms, for the IK components and walkers when no
// BvhPlayer produces it: the Animator (Humanoid or Generic), the legacy Animation, Timeline or
// a script has already posed the bones when LateUpdate runs; this reads that pose, the IK edits
// it, and it is written back. The rig is mapped once: a humanoid Animator's avatar bones (given
// the names the plugin's humanoid map knows), else every Transform under the rig root (humanoid
// joints found by name, `overrides` "left_foot=Foot_L,..." for the rest).
//
// Conventions are converted once, at mapping. The bones' pose at mapping is the rest pose,
// whatever their axes and rest rotations (Mixamo's, Blender's +Y along the bone, a Humanoid
// avatar's). Each joint gets a fixed correction C_j so that in the rig the library sees, every
// joint's rest rotation is the same yaw A: the character facing the library's forward (its
// heading 0, Unity's -Z in model space, as a BVH rig lands in Unity), with A = the yaw from -Z to
// the direction the character faced at mapping. So the library's conventions (root heading,
// BVH-like rest) hold on any rig, and nothing of them leaks onto the bones:
//   rig world rotation  W'_j = W_j * C_j,   C_j = (rest W_j)^-1 * A
//   bone rotation       W_j  = W'_j * C_j^-1   (positions are the same in both)
// A bone-local axis v is C_j^-1 * v in the rig (FromBoneAxis). Model space is `Space` (the
// component's Transform); unit scale on the rig is assumed.
using UnityEngine;

namespace AnimKit.Unity
{
    /// <summary>What a PoseModifier edits: a skeleton, its pose (parent-space Local and
    /// model-space Model, Unity frame), the clip the pose came from (for foot contacts) and
    /// the Transform whose space is model space.</summary>
    public interface IRigPose
    {
        Skeleton Skeleton { get; }
        Clip Clip { get; }
        float ClipTime { get; }
        AkXform[] Local { get; }
        AkXform[] Model { get; }
        int[] Humanoid { get; }
        Transform Space { get; }
    }

    public sealed class TransformRig : IRigPose, System.IDisposable
    {
        public Skeleton Skeleton { get; private set; }
        /// <summary>One frame, the rest pose: the reference foot IK calibrates on.</summary>
        public Clip Clip { get; private set; }
        public float ClipTime { get { return 0f; } }
        /// <summary>The pose in the rig's frames (see the file comment), parent space.</summary>
        public AkXform[] Local { get; private set; }
        /// <summary>The same, model space (Space's).</summary>
        public AkXform[] Model { get; private set; }
        public int[] Humanoid { get; private set; }
        public Transform Space { get; private set; }
        /// <summary>The Transform of each joint, in skeleton order.</summary>
        public Transform[] Bones { get; private set; }
        /// <summary>The model-space pose at mapping, in the rig's frames (every rotation A).</summary>
        public AkXform[] RestModel { get; private set; }
        /// <summary>Where the character faced at mapping, in model space (unit, horizontal):
        /// (left hip -> right hip) x up, so a rig built facing -Z (as BVH rigs land in Unity)
        /// or +Z (Unity's convention) both know their front. +Z without legs or arms.</summary>
        public Vector3 RestForward { get; private set; }
        int[] m_parent;
        Quaternion[] m_fix; // C_j
        Vector3[] m_animatedPosition;
        Quaternion[] m_animatedRotation;
        bool m_haveAnimated;

        /// <summary>Maps the rig: `animator`'s avatar bones when it is humanoid, else every
        /// Transform under `rigRoot` (empty: under `space`). Throws AnimKitException when the
        /// plugin refuses it.</summary>
        public TransformRig(Transform space, Animator animator, Transform rigRoot, string overrides)
        {
            Space = space;
            Transform[] bones;
            Skeleton named; // the bones as they are: names, parents, the humanoid map
            if (animator != null && animator.isHuman)
                named = HumanoidRetargeter.RigFromHumanoid(animator, space, out bones);
            else
            {
                bones = HumanoidRetargeter.CollectBones(rigRoot != null ? rigRoot : space);
                named = HumanoidRetargeter.RigFromTransforms(bones);
            }
            try
            {
                Bones = bones;
                int n = bones.Length;
                m_parent = (int[])named.Parents.Clone();
                string missing;
                Humanoid = named.Humanoid(string.IsNullOrEmpty(overrides) ? null : overrides, out missing);
                RestForward = FindForward(bones);
                float yaw = Mathf.Atan2(-RestForward.x, -RestForward.z) * Mathf.Rad2Deg;
                Quaternion a = Quaternion.AngleAxis(yaw, Vector3.up), inv = Quaternion.Inverse(space.rotation);
                m_fix = new Quaternion[n];
                var rest = new AkXform[n];
                for (int j = 0; j < n; ++j)
                {
                    m_fix[j] = Unit(Quaternion.Inverse(inv * bones[j].rotation) * a);
                    int p = m_parent[j];
                    Vector3 d = space.InverseTransformPoint(bones[j].position) -
                                (p >= 0 ? space.InverseTransformPoint(bones[p].position) : Vector3.zero);
                    rest[j].rotation = (p >= 0 ? Quaternion.identity : a).ToAk();
                    rest[j].position = (p >= 0 ? Quaternion.Inverse(a) * d : d).ToAk();
                }
                Skeleton = Retarget.SkeletonFromArrays(named.JointNames, m_parent, rest);
            }
            finally
            {
                named.Dispose();
            }
            Local = new AkXform[bones.Length];
            Model = new AkXform[bones.Length];
            m_animatedPosition = new Vector3[bones.Length];
            m_animatedRotation = new Quaternion[bones.Length];
            Read();
            RestModel = (AkXform[])Model.Clone();
            Clip = Clip.FromPoses(Skeleton, Local, 1, 1f / 30f, false);
        }

        Vector3 FindForward(Transform[] bones)
        {
            int[] pairs = { (int)HumanoidSlot.LeftUpperLeg, (int)HumanoidSlot.RightUpperLeg,
                            (int)HumanoidSlot.LeftUpperArm, (int)HumanoidSlot.RightUpperArm };
            for (int i = 0; i < pairs.Length; i += 2)
            {
                int l = Humanoid[pairs[i]], r = Humanoid[pairs[i + 1]];
                if (l < 0 || r < 0) continue;
                Vector3 right = Space.InverseTransformPoint(bones[r].position) - Space.InverseTransformPoint(bones[l].position);
                right.y = 0f;
                if (right.magnitude < 1e-4f) continue;
                return Vector3.Cross(right.normalized, Vector3.up).normalized; // Unity: right x up = forward
            }
            return Vector3.forward;
        }

        /// <summary>Puts back the bones' local pose as the animation left it before the last
        /// Write, so bones nothing animates (a Generic clip without their curves, a static
        /// rig) do not carry last frame's IK into this frame's and drift. Call it before the
        /// animation runs (Update); animated bones are overwritten by the animation anyway.</summary>
        public void RestoreAnimated()
        {
            if (!m_haveAnimated) return;
            for (int j = 0; j < Bones.Length; ++j)
            {
                if (Bones[j] == Space) continue;
                Bones[j].localRotation = m_animatedRotation[j];
                Bones[j].localPosition = m_animatedPosition[j];
            }
        }

        /// <summary>A model-space direction (this rig's Space) as the local axis of joint `j`
        /// in the rest pose, rig frame: e.g. the character's forward seen from the head.</summary>
        public Vector3 RestAxis(int j, Vector3 modelDirection)
        {
            return Quaternion.Inverse(RestModel[j].rotation.ToUnity()) * modelDirection;
        }

        /// <summary>An axis in bone `j`'s own local space (its Transform's) in the rig's frame.</summary>
        public Vector3 FromBoneAxis(int j, Vector3 boneAxis)
        {
            return Quaternion.Inverse(m_fix[j]) * boneAxis;
        }

        /// <summary>A model-space rotation of bone `j`'s Transform as the rig's rotation of j.</summary>
        public Quaternion FromBoneRotation(int j, Quaternion boneModelRotation)
        {
            return boneModelRotation * m_fix[j];
        }

        /// <summary>A local transform of joint `j` between the bones' own frames (relative to the
        /// mapped parent bone) and the rig's frames (Local). Baked clips keep the bones' own
        /// frames, so a clip baked on one mapping plays on another of the same character.</summary>
        public AkXform FromBoneLocal(int j, AkXform bone)
        {
            Quaternion cp = m_parent[j] >= 0 ? m_fix[m_parent[j]] : Quaternion.identity;
            AkXform x;
            x.rotation = Unit(Quaternion.Inverse(cp) * bone.rotation.ToUnity() * m_fix[j]).ToAk();
            x.position = (Quaternion.Inverse(cp) * bone.position.ToUnity()).ToAk();
            return x;
        }

        public AkXform ToBoneLocal(int j, AkXform rig)
        {
            Quaternion cp = m_parent[j] >= 0 ? m_fix[m_parent[j]] : Quaternion.identity;
            AkXform x;
            x.rotation = Unit(cp * rig.rotation.ToUnity() * Quaternion.Inverse(m_fix[j])).ToAk();
            x.position = (cp * rig.position.ToUnity()).ToAk();
            return x;
        }

        /// <summary>The bones' current pose into Local and Model (rig frames; the first joint
        /// relative to Space).</summary>
        public void Read()
        {
            Quaternion inv = Quaternion.Inverse(Space.rotation);
            for (int j = 0; j < Bones.Length; ++j)
            {
                Transform t = Bones[j];
                m_animatedRotation[j] = t.localRotation;
                m_animatedPosition[j] = t.localPosition;
                Model[j].rotation = Unit(inv * t.rotation * m_fix[j]).ToAk();
                Model[j].position = Space.InverseTransformPoint(t.position).ToAk();
            }
            for (int j = 0; j < Bones.Length; ++j)
            {
                int p = m_parent[j];
                if (p < 0) { Local[j] = Model[j]; continue; }
                Quaternion pinv = Quaternion.Inverse(Model[p].rotation.ToUnity());
                Local[j].rotation = Unit(pinv * Model[j].rotation.ToUnity()).ToAk();
                Local[j].position = (pinv * (Model[j].position.ToUnity() - Model[p].position.ToUnity())).ToAk();
            }
            m_haveAnimated = true;
            Skeleton.Fk(Local, Model);
        }

        /// <summary>Local (as a walker or retargeter wrote it) to Model, then onto the bones.</summary>
        public void WriteLocal()
        {
            Skeleton.Fk(Local, Model);
            Write();
        }

        /// <summary>Model back onto the bones, parents first (so Transforms between mapped
        /// bones keep their own local pose).</summary>
        public void Write()
        {
            for (int j = 0; j < Bones.Length; ++j)
            {
                if (Bones[j] == Space) continue;
                Bones[j].rotation = Unit(Space.rotation * Model[j].rotation.ToUnity() * Quaternion.Inverse(m_fix[j]));
                Bones[j].position = Space.TransformPoint(Model[j].position.ToUnity());
            }
        }

        static Quaternion Unit(Quaternion q)
        {
            float m = Mathf.Sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            return m > 1e-12f ? new Quaternion(q.x / m, q.y / m, q.z / m, q.w / m) : Quaternion.identity;
        }

        public void Dispose()
        {
            if (Clip != null) Clip.Dispose();
            if (Skeleton != null) Skeleton.Dispose();
            Clip = null;
            Skeleton = null;
        }
    }
}
