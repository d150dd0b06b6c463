// The pose of any character's own Transforms, for the IK components when no BvhPlayer
// produces it: the Animator (Humanoid or Generic), the legacy Animation, Timeline or a script
// has already posed the bones when LateUpdate runs; this reads that pose, the IK edits it, and
// it is written back. The rig is mapped once: a humanoid Animator's avatar bones (given the
// names the plugin's humanoid map knows), else every Transform under the rig root (humanoid
// joints found by name, `overrides` "left_foot=Foot_L,..." for the rest). The rest pose is the
// bones' pose at mapping, whatever their axes and rest rotations: the solvers work on positions
// and rotation deltas, and foot IK calibrates the sole and the foot's up axis from this rest
// pose, so no axis convention of the library leaks onto the rig. Model space is `Space` (the
// component's Transform); unit scale on the rig is assumed.
using UnityEngine;

namespace AnimKit.Unity
{
    /// <summary>What a PoseModifier edits: a skeleton, its pose (parent-space Local and
    /// model-space World, Unity frame), the clip the pose came from (for foot contacts) and
    /// the Transform whose space is model space.</summary>
    public interface IRigPose
    {
        Skeleton Skeleton { get; }
        Clip Clip { get; }
        float ClipTime { get; }
        AkXform[] Local { get; }
        AkXform[] World { get; }
        int[] Humanoid { get; }
        Transform Space { get; }
    }

    public sealed class TransformRig : IRigPose, System.IDisposable
    {
        public Skeleton Skeleton { get; private set; }
        /// <summary>One frame, the rest pose: the reference foot IK calibrates on.</summary>
        public Clip Clip { get; private set; }
        public float ClipTime { get { return 0f; } }
        public AkXform[] Local { get; private set; }
        public AkXform[] World { get; private set; }
        public int[] Humanoid { get; private set; }
        public Transform Space { get; private set; }
        /// <summary>The Transform of each joint, in skeleton order.</summary>
        public Transform[] Bones { get; private set; }
        int[] m_parent;

        /// <summary>Maps the rig: `animator`'s avatar bones when it is humanoid, else every
        /// Transform under `rigRoot`. Throws AnimKitException when the plugin refuses it.</summary>
        public TransformRig(Transform space, Animator animator, Transform rigRoot, string overrides)
        {
            Space = space;
            Transform[] bones;
            if (animator != null && animator.isHuman)
            {
                Skeleton = HumanoidRetargeter.RigFromHumanoid(animator, space, out bones);
            }
            else
            {
                bones = HumanoidRetargeter.CollectBones(rigRoot != null ? rigRoot : space);
                Skeleton = HumanoidRetargeter.RigFromTransforms(bones);
            }
            Bones = bones;
            int n = bones.Length;
            Local = new AkXform[n];
            World = new AkXform[n];
            m_parent = new int[n];
            for (int j = 0; j < n; ++j)
            {
                m_parent[j] = -1;
                for (Transform a = bones[j].parent; a != null && m_parent[j] < 0; a = a.parent)
                    m_parent[j] = System.Array.IndexOf(bones, a, 0, j);
            }
            string missing;
            Humanoid = Skeleton.Humanoid(string.IsNullOrEmpty(overrides) ? null : overrides, out missing);
            Read();
            Clip = Clip.FromPoses(Skeleton, Local, 1, 1f / 30f, false);
        }

        /// <summary>The bones' current pose into Local (relative to each mapped parent, the
        /// first joint relative to Space) and World.</summary>
        public void Read()
        {
            for (int j = 0; j < Bones.Length; ++j)
            {
                Transform t = Bones[j], p = m_parent[j] >= 0 ? Bones[m_parent[j]] : Space;
                Quaternion inv = Quaternion.Inverse(p.rotation);
                Local[j].rotation = Unit(inv * t.rotation).ToAk();
                Local[j].position = (inv * (t.position - p.position)).ToAk();
            }
            Skeleton.Fk(Local, World);
        }

        /// <summary>World back onto the bones, parents first (so Transforms between mapped
        /// bones keep their own local pose).</summary>
        public void Write()
        {
            for (int j = 0; j < Bones.Length; ++j)
            {
                if (Bones[j] == Space) continue;
                Bones[j].rotation = Unit(Space.rotation * World[j].rotation.ToUnity());
                Bones[j].position = Space.TransformPoint(World[j].position.ToUnity());
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
