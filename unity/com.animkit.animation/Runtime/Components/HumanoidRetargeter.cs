// Plays a BVH capture on this character's own skeleton: the rig is read from the Transforms
// under `rigRoot` in their rest pose (T- or A-pose, any joint axes), the capture is retargeted
// once onto it with stance feet kept planted, and each frame the retargeted clip's local
// rotations (and the hips' position) are written to those Transforms. Humanoid joints are
// found by name (Mixamo, Blender/Rigify, CMU, 3ds Max, Perception Neuron...); give
// `targetOverrides` ("left_foot=Foot_L,...") for names it does not know.
using UnityEngine;

namespace AnimKit.Unity
{
    [AddComponentMenu("AnimKit/Humanoid Retargeter")]
    public class HumanoidRetargeter : MonoBehaviour
    {
        [Tooltip("The capture to play (a .bvh imported as text/bytes).")]
        public TextAsset bvhAsset;
        [Tooltip("The topmost bone of this character (its hips or the armature above them).")]
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
        public bool loop = true;
        public float speed = 1f;

        BvhFile m_capture;
        Skeleton m_rig;
        Clip m_clip;
        Transform[] m_bones;
        AkXform[] m_local;
        float m_time;

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

        void Start()
        {
            if (bvhAsset == null || rigRoot == null)
            {
                Debug.LogError("HumanoidRetargeter: set bvhAsset and rigRoot", this);
                enabled = false;
                return;
            }
            try
            {
                m_capture = BvhFile.LoadText(bvhAsset.bytes, 0f, loop);
                m_bones = CollectBones(rigRoot);
                m_rig = RigFromTransforms(m_bones);
                AkRetargetParams p = Retarget.Defaults();
                p.contacts = keepFeetPlanted ? 1 : 0;
                p.pinHands = pinHands ? 1 : 0;
                p.scale = scale;
                m_clip = Retarget.RetargetClip(m_capture.Skeleton, m_capture.Clip, m_rig, p,
                    sourceOverrides.Length > 0 ? sourceOverrides : null, targetOverrides.Length > 0 ? targetOverrides : null);
                m_clip.Loop = loop;
                m_local = new AkXform[m_rig.JointCount];
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
            for (int j = 0; j < m_bones.Length; ++j)
            {
                m_bones[j].localRotation = m_local[j].rotation.ToUnity();
                m_bones[j].localPosition = m_local[j].position.ToUnity();
            }
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
