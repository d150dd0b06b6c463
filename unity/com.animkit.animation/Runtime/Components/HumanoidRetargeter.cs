// Plays a BVH capture on this character's own skeleton. The rig comes from a humanoid
// Animator's bones (`humanoid`: Unity's avatar mapping, whatever the bones are called) or else
// from every Transform under `rigRoot` (humanoid joints found by name: Mixamo, Blender/Rigify,
// CMU, 3ds Max, Perception Neuron...; `targetOverrides` "left_foot=Foot_L,..." for others), in
// their current pose taken as the rest pose (T- or A-pose, any joint axes). The capture is
// retargeted once onto it with stance feet kept planted, and each frame the retargeted pose is
// written back to those Transforms. With a Guide Walker or Motion Matching Walker on the same
// GameObject and no walk clip of its own, the walker takes this capture (retargeted with these
// settings) as its walk and this component stops playing it: the character walks the capture
// to a target with foot IK.
using UnityEngine;

namespace AnimKit.Unity
{
    [AddComponentMenu("animkit/Humanoid Retargeter")]
    public class HumanoidRetargeter : MonoBehaviour
    {
        [Tooltip("The capture to play (a .bvh imported as text/bytes).")]
        public TextAsset bvhAsset;
        [Tooltip("A humanoid Animator: its avatar's bones form the rig (takes precedence over rigRoot).")]
        public Animator humanoid;
        [Tooltip("Without a humanoid Animator: the topmost bone (the hips or the armature above them).")]
        public Transform rigRoot;
        [Tooltip("slot=Joint overrides for the capture's humanoid map (empty: by name).")]
        public string sourceOverrides = "";
        [Tooltip("slot=Joint overrides for this rig's humanoid map (empty: by name).")]
        public string targetOverrides = "";
        [Tooltip("Pin stance feet where the scaled capture put them (limb IK with fades).")]
        public bool keepFeetPlanted = true;
        [Tooltip("Pin hands that hold still, too.")]
        public bool pinHands = false;
        [Tooltip("Extra scale on top of the leg-length ratio.")]
        public float scale = 1f;
        [Tooltip("Capture frame used as the reference pose; -1: picked by measure (the zero pose when it " +
                 "stands, else the most upright frame).")]
        [Min(-1)] public int referenceFrame = -1;
        public bool loop = true;
        public float speed = 1f;

        BvhFile m_capture;
        Skeleton m_rig;
        Clip m_clip;
        Transform[] m_bones;
        AkXform[] m_local, m_world;
        Transform m_space;    // humanoid rigs: the model space the rig's root pose is relative to
        float m_time;

        // Humanoid bones in parent-before-child, subtree-contiguous order, with the names the
        // plugin's humanoid map recognises (Mixamo's).
        static readonly HumanBodyBones[] k_humanBones = {
            HumanBodyBones.Hips, HumanBodyBones.Spine, HumanBodyBones.Chest, HumanBodyBones.UpperChest,
            HumanBodyBones.Neck, HumanBodyBones.Head,
            HumanBodyBones.LeftShoulder, HumanBodyBones.LeftUpperArm, HumanBodyBones.LeftLowerArm, HumanBodyBones.LeftHand,
            HumanBodyBones.RightShoulder, HumanBodyBones.RightUpperArm, HumanBodyBones.RightLowerArm, HumanBodyBones.RightHand,
            HumanBodyBones.LeftUpperLeg, HumanBodyBones.LeftLowerLeg, HumanBodyBones.LeftFoot, HumanBodyBones.LeftToes,
            HumanBodyBones.RightUpperLeg, HumanBodyBones.RightLowerLeg, HumanBodyBones.RightFoot, HumanBodyBones.RightToes};
        static readonly string[] k_humanNames = {
            "Hips", "Spine", "Spine1", "Spine2", "Neck", "Head",
            "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
            "RightShoulder", "RightArm", "RightForeArm", "RightHand",
            "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
            "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"};

        /// <summary>The rig read from rigRoot (null before Start).</summary>
        public Skeleton Rig { get { return m_rig; } }
        /// <summary>The capture retargeted onto the rig (null before Start).</summary>
        public Clip RetargetedClip { get { return m_clip; } }

        /// <summary>Every Transform under `root` (itself first), depth-first: parents before
        /// children, each subtree contiguous, as the plugin's skeletons need.</summary>
        public static Transform[] CollectBones(Transform root)
        {
            var list = new System.Collections.Generic.List<Transform>();
            var stack = new System.Collections.Generic.Stack<Transform>();
            stack.Push(root);
            while (stack.Count > 0)
            {
                Transform t = stack.Pop();
                list.Add(t);
                for (int i = t.childCount - 1; i >= 0; --i) stack.Push(t.GetChild(i));
            }
            return list.ToArray();
        }

        /// <summary>The plugin rig of `bones` (CollectBones order) in their current local pose.</summary>
        public static Skeleton RigFromTransforms(Transform[] bones)
        {
            int n = bones.Length;
            var names = new string[n];
            var parents = new int[n];
            var rest = new AkXform[n];
            for (int j = 0; j < n; ++j)
            {
                names[j] = bones[j].name;
                parents[j] = j == 0 ? -1 : System.Array.IndexOf(bones, bones[j].parent, 0, j);
                rest[j].rotation = bones[j].localRotation.ToAk();
                rest[j].position = bones[j].localPosition.ToAk();
            }
            return Retarget.SkeletonFromArrays(names, parents, rest);
        }

        /// <summary>The plugin rig of a humanoid Animator's bones: each bone's parent is its
        /// nearest humanoid ancestor; the root's pose is relative to `space` (the Animator's
        /// Transform). `bones` gets the Transforms in rig order.</summary>
        public static Skeleton RigFromHumanoid(Animator animator, Transform space, out Transform[] bones)
        {
            var list = new System.Collections.Generic.List<Transform>();
            var names = new System.Collections.Generic.List<string>();
            var parents = new System.Collections.Generic.List<int>();
            var rest = new System.Collections.Generic.List<AkXform>();
            for (int i = 0; i < k_humanBones.Length; ++i)
            {
                Transform t = animator.GetBoneTransform(k_humanBones[i]);
                if (t == null) continue;
                int p = -1;
                for (Transform a = t.parent; a != null && p < 0; a = a.parent) p = list.IndexOf(a);
                Transform pt = p >= 0 ? list[p] : space;
                Quaternion inv = Quaternion.Inverse(pt.rotation);
                var x = new AkXform();
                x.rotation = (inv * t.rotation).ToAk();
                x.position = (inv * (t.position - pt.position)).ToAk();
                list.Add(t);
                names.Add(k_humanNames[i]);
                parents.Add(p);
                rest.Add(x);
            }
            bones = list.ToArray();
            return Retarget.SkeletonFromArrays(names.ToArray(), parents.ToArray(), rest.ToArray());
        }

        void Start()
        {
            if (OwnRig.WalkerTakesRetargeterCapture(gameObject))
            {
                enabled = false; // the walker retargets and walks the capture (OwnRig)
                return;
            }
            if (bvhAsset == null || (rigRoot == null && (humanoid == null || !humanoid.isHuman)))
            {
                Debug.LogError("HumanoidRetargeter: set bvhAsset and a humanoid Animator or rigRoot", this);
                enabled = false;
                return;
            }
            try
            {
                m_capture = BvhFile.LoadText(bvhAsset.bytes, 0f, loop);
                if (humanoid != null && humanoid.isHuman)
                {
                    m_space = humanoid.transform;
                    m_rig = RigFromHumanoid(humanoid, m_space, out m_bones);
                }
                else
                {
                    m_bones = CollectBones(rigRoot);
                    m_rig = RigFromTransforms(m_bones);
                }
                AkRetargetParams p = Retarget.Defaults();
                p.contacts = keepFeetPlanted ? 1 : 0;
                p.pinHands = pinHands ? 1 : 0;
                p.scale = scale;
                p.referenceFrame = referenceFrame;
                m_clip = Retarget.RetargetClip(m_capture.Skeleton, m_capture.Clip, m_rig, p,
                    sourceOverrides.Length > 0 ? sourceOverrides : null, targetOverrides.Length > 0 ? targetOverrides : null);
                m_clip.Loop = loop;
                m_local = new AkXform[m_rig.JointCount];
                m_world = new AkXform[m_rig.JointCount];
            }
            catch (AnimKitException e)
            {
                Debug.LogError("HumanoidRetargeter: " + e.Message, this);
                OnDestroy();
                enabled = false;
            }
        }

        void Update()
        {
            if (m_clip == null) return;
            m_time += Time.deltaTime * speed;
            m_clip.Sample(m_rig, m_time, Interpolation.Linear, m_local);
            if (m_space == null)
            {
                for (int j = 0; j < m_bones.Length; ++j)
                {
                    m_bones[j].localRotation = m_local[j].rotation.ToUnity();
                    m_bones[j].localPosition = m_local[j].position.ToUnity();
                }
                return;
            }
            // Humanoid bones may have other Transforms between them: set world rotations (the
            // rig's model space is the Animator's), parents first, and the hips' position.
            m_rig.Fk(m_local, m_world);
            for (int j = 0; j < m_bones.Length; ++j)
                m_bones[j].rotation = m_space.rotation * m_world[j].rotation.ToUnity();
            m_bones[0].position = m_space.TransformPoint(m_world[0].position.ToUnity());
        }

        void OnDestroy()
        {
            if (m_clip != null) m_clip.Dispose();
            if (m_rig != null) m_rig.Dispose();
            if (m_capture != null) m_capture.Dispose();
            m_clip = null;
            m_rig = null;
            m_capture = null;
        }
    }
}
