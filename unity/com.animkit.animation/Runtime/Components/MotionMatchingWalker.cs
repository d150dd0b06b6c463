// Walks the character toward a target Transform by motion matching: every 0.1 s the plugin
// searches a database of captured frames (the BvhPlayer's clip plus any extra clips of the
// same skeleton, or a prebuilt database blob) for the frame whose pose and future trajectory
// best fit the way to the target, jumps there with inertialization, and plants the feet with
// foot IK on whatever the ground rays hit.
//
// Every frame (Update, before BvhPlayer's LateUpdate), the two-phase form:
//   1. matcher.Begin(dt)          -> the displacement the animation wants
//   2. CharacterController.Move   -> where Unity's physics lets the character go
//   3. matcher.SetPosition        -> tell the matcher
//   4. matcher.GroundRays         -> downward rays (centre, each sole, each toe, each landing)
//   5. Physics.Raycast each (FootIK.Cast) and matcher.Finish(hits) -> foot IK + pose
// then BvhPlayer takes the pose from here (IPoseSource); without a BvhPlayer the walker drives
// the character's own rig (ownRig, as GuideWalker does: baked AnimKitClips or BVH captures
// retargeted onto it, the PoseModifiers after the pose, the bones set in LateUpdate). Selected, it draws the wanted future
// trajectory (yellow) and the playing frame's own (cyan).
using UnityEngine;

namespace AnimKit.Unity
{
    [AddComponentMenu("animkit/Motion Matching Walker")]
    [RequireComponent(typeof(CharacterController))]
    [DisallowMultipleComponent]
    [DefaultExecutionOrder(50)]
    public class MotionMatchingWalker : MonoBehaviour, IPoseSource
    {
        [Tooltip("Walk toward this Transform (its x and z). Move it at run time to re-target.")]
        public Transform target;
        [Tooltip("More BVH captures of the BvhPlayer's skeleton (walks, runs, turns, starts, stops).")]
        public TextAsset[] extraClips = new TextAsset[0];
        [Tooltip("Optional prebuilt database blob (MotionDatabase.Save); used instead of building one.")]
        public TextAsset databaseBlob;
        [Tooltip("Without a BvhPlayer: the character's own rig and its walk clip (the idle slot is unused).")]
        public OwnRigSettings ownRig = new OwnRigSettings();
        [Tooltip("Without a BvhPlayer: more clips baked from your AnimationClips on the same character.")]
        public AnimKitClip[] extraBakedClips = new AnimKitClip[0];

        [Header("Matching (defaults are the C library's)")]
        [Min(0.01f)] public float arrivalRadius = 0.3f;
        [Tooltip("m/s wanted far from the target.")]
        [Min(0.1f)] public float walkSpeed = 1.4f;
        [Tooltip("Degrees per second the facing may turn beyond the capture's own turning.")]
        [Min(0f)] public float turnRateDeg = 100f;
        [Tooltip("Seconds: half-life of the transition offsets (inertialization).")]
        [Min(0.01f)] public float inertiaHalflife = 0.12f;
        [Tooltip("The joint whose horizontal travel is the root motion (e.g. Hips under a still top joint); " +
                 "empty: measured over the clips.")]
        public string rootJoint = "";

        [Header("Controller")]
        public float gravity = 9.81f;
        public float groundSnapSpeed = 2f;

        /// <summary>The matcher's state after the last frame (Unity frame).</summary>
        public AkMatcherState State;
        public Matcher Matcher { get { return m_matcher; } }
        /// <summary>The character's own rig when no BvhPlayer is present (null otherwise).</summary>
        public TransformRig Rig { get { return m_own != null ? m_own.Rig : null; } }

        MotionDatabase m_db;
        Matcher m_matcher;
        BvhFile[] m_extra = new BvhFile[0];
        CharacterController m_controller;
        BvhPlayer m_player;
        OwnRig m_own;
        FootIK m_foot;
        readonly AkGroundHit[] m_hits = new AkGroundHit[AnimKitNative.CharacterMaxRays];
        float m_fallSpeed;
        Vector3 m_sentTarget;

        void Reset()
        {
            CharacterController cc = GetComponent<CharacterController>();
            if (cc != null) cc.center = new Vector3(0f, cc.height * 0.5f + 0.01f, 0f);
        }

        MotionDatabase BuildDatabase()
        {
            if (databaseBlob != null) return MotionDatabase.Load(databaseBlob.bytes);
            if (m_own != null)
            {
                var own = new System.Collections.Generic.List<Clip> { m_own.Walk };
                foreach (AnimKitClip c in extraBakedClips)
                    if (c != null) own.Add(m_own.ClipOf(c, null, false));
                foreach (TextAsset t in extraClips)
                    if (t != null) own.Add(m_own.ClipOf(null, t, false));
                return MotionDatabase.Build(m_own.Rig.Skeleton, own.ToArray(), rootJoint);
            }
            m_extra = new BvhFile[extraClips.Length];
            var clips = new Clip[extraClips.Length + 1];
            clips[0] = m_player.Clip;
            for (int i = 0; i < extraClips.Length; ++i)
            {
                m_extra[i] = BvhFile.LoadText(extraClips[i].bytes, m_player.Skeleton.MetresPerUnit, false);
                clips[i + 1] = m_extra[i].Clip;
            }
            return MotionDatabase.Build(m_player.Skeleton, clips, rootJoint);
        }

        void Start()
        {
            m_player = GetComponent<BvhPlayer>();
            m_controller = GetComponent<CharacterController>();
            m_foot = GetComponent<FootIK>();
            if (m_player != null && m_player.Skeleton == null && !m_player.Load())
            {
                enabled = false;
                return;
            }
            try
            {
                if (m_player == null) m_own = new OwnRig(transform, ownRig);
                m_db = BuildDatabase();
                AkMatcherParams p = Matcher.Defaults();
                p.start = transform.position.ToAk();
                m_sentTarget = target != null ? target.position : transform.position;
                p.target = m_sentTarget.ToAk();
                p.faceTarget = 1;
                p.arrivalRadius = arrivalRadius;
                p.walkSpeed = walkSpeed;
                p.turnRateDeg = turnRateDeg;
                p.inertiaHalflife = inertiaHalflife;
                p.useController = 0; // Unity's CharacterController moves the character
                p.footIk = m_foot != null && m_foot.enabled ? 1 : 0;
                m_matcher = new Matcher(m_db, p);
            }
            catch (AnimKitException e)
            {
                Debug.LogError("MotionMatchingWalker: " + e.Message, this);
                OnDestroy();
                enabled = false;
                return;
            }
            if (m_player != null) m_player.PoseSource = this;
        }

        /// <summary>Own rig: the matcher's pose, then the PoseModifiers, onto the bones.</summary>
        void LateUpdate()
        {
            if (m_own == null || m_matcher == null) return;
            TransformRig rig = m_own.Rig;
            m_matcher.Pose(rig.Local, rig.Model);
            m_own.FromLibrary();
            PoseModifier.RunAll(this, rig);
            rig.Write();
        }

        void Update()
        {
            float dt = Time.deltaTime;
            if (m_matcher == null || dt <= 0f) return;
            // A new target only when it moved: each SetTarget asks for a search at once.
            if (target != null && target.position != m_sentTarget)
            {
                m_sentTarget = target.position;
                m_matcher.SetTarget(m_sentTarget.ToAk());
            }
            Vector3 motion = m_matcher.Begin(dt).ToUnity();
            m_fallSpeed = m_controller.isGrounded ? groundSnapSpeed : m_fallSpeed + gravity * dt;
            motion.y -= m_fallSpeed * dt;
            m_controller.Move(motion);
            m_matcher.SetPosition(transform.position.ToAk());
            int count;
            AkRay[] rays = m_matcher.GroundRays(out count);
            int layers = m_foot != null ? (int)m_foot.groundLayers : Physics.DefaultRaycastLayers;
            FootIK.Cast(rays, m_hits, count, layers, m_foot != null && m_foot.drawRays);
            m_matcher.Finish(m_hits, count);
            State = m_matcher.State;
            transform.rotation = m_own != null ? OwnRig.GameObjectRotation(State.rotation.ToUnity()) : State.rotation.ToUnity();
        }

        /// <summary>BvhPlayer asks for the pose: the matcher's, in this Transform's space.</summary>
        public void WritePose(BvhPlayer player, float deltaTime)
        {
            m_matcher.Pose(player.Local, player.Model);
        }

        void OnDestroy()
        {
            if (m_player != null && ReferenceEquals(m_player.PoseSource, this)) m_player.PoseSource = null;
            if (m_matcher != null) m_matcher.Dispose();
            if (m_db != null) m_db.Dispose();
            if (m_own != null) m_own.Dispose();
            m_own = null;
            foreach (BvhFile f in m_extra)
                if (f != null) f.Dispose();
            m_extra = new BvhFile[0];
            m_matcher = null;
            m_db = null;
        }

        void OnDrawGizmosSelected()
        {
            if (target != null)
            {
                Gizmos.color = Color.yellow;
                Gizmos.DrawWireSphere(target.position, arrivalRadius);
            }
            if (m_matcher == null) return;
            Vector3 here = State.position.ToUnity();
            Vector3[] wanted = { State.desired0.ToUnity(), State.desired1.ToUnity(), State.desired2.ToUnity() };
            Vector3[] matched = { State.matched0.ToUnity(), State.matched1.ToUnity(), State.matched2.ToUnity() };
            for (int k = 0; k < 3; ++k)
            {
                Gizmos.color = Color.yellow;
                Gizmos.DrawLine(k == 0 ? here : wanted[k - 1], wanted[k]);
                Gizmos.color = Color.cyan;
                Gizmos.DrawLine(k == 0 ? here : matched[k - 1], matched[k]);
            }
        }
    }
}
