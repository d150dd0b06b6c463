// Walks the character toward a target Transform with the plugin's guide-joint walker: the
// walk clip's root motion, re-anchored before each cycle under a guide that turns toward the
// target, goes through Unity's CharacterController (collisions, steps, slopes), and foot IK
// plants the feet on whatever the ground rays hit.
//
// Every frame (Update, before BvhPlayer's LateUpdate), the two-phase form:
//   1. character.Begin(dt)        -> the displacement the animation wants
//   2. CharacterController.Move   -> where Unity's physics lets the character go
//   3. character.SetPosition      -> tell the walker
//   4. character.GroundRays       -> downward rays (centre, each sole, each landing point)
//   5. Physics.Raycast each (FootIK.Cast) and character.Finish(hits) -> foot IK + pose
// then BvhPlayer takes the pose from here (IPoseSource) and writes the Transforms.
//
// Without a BvhPlayer the walker drives the character's own rig (ownRig: a humanoid Animator's
// bones or the Transforms under rigRoot) with clips on that rig: an AnimKitClip baked from the
// user's AnimationClip, or a BVH capture retargeted onto it. In LateUpdate (after any Animator)
// it writes its pose, runs the PoseModifiers (LimbIK, LookAtIK, AimIK; FootIK's settings go
// into the walker's own foot IK) and sets the bones.
//
// Set up: the GameObject's pivot is at the feet; CharacterController.center is placed at
// half its height (Reset does it). Put the character on the "Ignore Raycast" layer (or leave
// its layer out of FootIK.groundLayers) so the ground rays do not hit its own capsule.
using UnityEngine;

namespace AnimKit.Unity
{
    [AddComponentMenu("animkit/Guide Walker")]
    [RequireComponent(typeof(CharacterController))]
    [DisallowMultipleComponent]
    [DefaultExecutionOrder(50)]
    public class GuideWalker : MonoBehaviour, IPoseSource
    {
        [Tooltip("Walk toward this Transform (its x and z). Move it at run time to re-target.")]
        public Transform target;
        [Tooltip("With a BvhPlayer: optional standing idle BVH for the same skeleton, crossfaded in on arrival.")]
        public TextAsset idleBvh;
        [Tooltip("Without a BvhPlayer: the character's own rig and the clips it walks with.")]
        public OwnRigSettings ownRig = new OwnRigSettings();

        [Header("Walking (defaults are the C library's)")]
        [Tooltip("Stop inside this horizontal distance to the target, metres.")]
        [Min(0.01f)] public float arrivalRadius = 0.3f;
        [Tooltip("Off: the guide re-aims at the target before each walk cycle (the seed's method). " +
                 "On: it re-aims every frame, for smoother curves.")]
        public bool continuousSteering = false;
        [Tooltip("Degrees per second the heading may turn toward the guide.")]
        [Min(1f)] public float turnRateDeg = 90f;
        [Tooltip("Seconds: time constant of the filter on the character's ground height.")]
        [Min(0f)] public float groundSmoothing = 0.12f;
        [Tooltip("Seconds of crossfade from walking to the idle on arrival.")]
        [Min(0f)] public float idleFade = 0.3f;
        public Interpolation interpolation = Interpolation.Linear;

        [Header("Walk cycle (defaults are the C library's)")]
        [Tooltip("First frame of the walk cycle in the clip; -1 (with end -1) finds the cycle automatically; " +
                 "0 and 0: the clip already loops.")]
        public int cycleStart = -1;
        [Tooltip("Frame after the last frame of the cycle (see cycleStart).")]
        public int cycleEnd = -1;
        [Tooltip("Seconds of crossfade hiding the loop seam.")]
        [Min(0f)] public float seamBlend = 0.1f;
        [Tooltip("The joint whose horizontal travel is the root motion (e.g. Hips under a still top joint); " +
                 "empty: measured automatically.")]
        public string rootJoint = "";

        [Header("Controller")]
        [Tooltip("m/s^2 pulling the CharacterController down when it is not grounded.")]
        public float gravity = 9.81f;
        [Tooltip("m/s downward push while grounded, so the controller follows slopes down.")]
        public float groundSnapSpeed = 2f;

        /// <summary>The walker's state after the last frame (Unity frame).</summary>
        public AkCharacterState State;
        public Character Character { get { return m_character; } }
        /// <summary>The character's own rig when no BvhPlayer is present (null otherwise).</summary>
        public TransformRig Rig { get { return m_own != null ? m_own.Rig : null; } }

        Character m_character;
        BvhFile m_idle;
        CharacterController m_controller;
        BvhPlayer m_player;
        OwnRig m_own;
        FootIK m_foot;
        readonly AkGroundHit[] m_hits = new AkGroundHit[AnimKitNative.CharacterMaxRays];
        float m_fallSpeed;

        void Reset()
        {
            CharacterController cc = GetComponent<CharacterController>();
            if (cc != null) cc.center = new Vector3(0f, cc.height * 0.5f + 0.01f, 0f);
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
                AkCharacterParams p = Character.Defaults();
                p.start = transform.position.ToAk();
                p.target = (target != null ? target.position : transform.position).ToAk();
                p.faceTarget = 1;
                p.arrivalRadius = arrivalRadius;
                p.steer = continuousSteering ? 1 : 0;
                p.turnRateDeg = turnRateDeg;
                p.groundSmoothing = groundSmoothing;
                p.idleFade = idleFade;
                p.interp = (int)interpolation;
                p.useController = 0; // Unity's CharacterController moves the character
                p.cycleStart = cycleStart;
                p.cycleEnd = cycleEnd;
                p.seamBlend = seamBlend;
                if (m_foot != null && m_foot.enabled) m_foot.Configure(ref p);
                else p.footIk = 0;
                if (m_player == null)
                {
                    m_own = new OwnRig(transform, ownRig);
                    m_character = new Character(m_own.Rig.Skeleton, m_own.Walk, m_own.Idle, p, rootJoint);
                    return;
                }
                Clip idle = null;
                if (idleBvh != null)
                {
                    m_idle = BvhFile.LoadText(idleBvh.bytes, m_player.Skeleton.MetresPerUnit, true);
                    idle = m_idle.Clip;
                }
                m_character = new Character(m_player.Skeleton, m_player.Clip, idle, p, rootJoint);
            }
            catch (AnimKitException e)
            {
                Debug.LogError("GuideWalker: " + e.Message, this);
                OnDestroy();
                enabled = false;
                return;
            }
            m_player.PoseSource = this;
        }

        /// <summary>Own rig: the walker's pose, then the PoseModifiers, onto the bones (after
        /// the Animator, so this pose is the one rendered).</summary>
        void LateUpdate()
        {
            if (m_own == null || m_character == null) return;
            TransformRig rig = m_own.Rig;
            m_character.Pose(rig.Local, rig.Model);
            m_own.FromLibrary();
            PoseModifier.RunAll(this, rig);
            rig.Write();
        }

        void Update()
        {
            float dt = Time.deltaTime;
            if (m_character == null || dt <= 0f) return;
            if (target != null) m_character.SetTarget(target.position.ToAk());
            // 1-3: the animation's displacement through Unity's controller, then back.
            Vector3 motion = m_character.Begin(dt).ToUnity();
            m_fallSpeed = m_controller.isGrounded ? groundSnapSpeed : m_fallSpeed + gravity * dt;
            motion.y -= m_fallSpeed * dt;
            m_controller.Move(motion);
            m_character.SetPosition(transform.position.ToAk());
            // 4-5: the ground under the character and its feet, cast by Unity's physics.
            int count;
            AkRay[] rays = m_character.GroundRays(out count);
            int layers = m_foot != null ? (int)m_foot.groundLayers : Physics.DefaultRaycastLayers;
            FootIK.Cast(rays, m_hits, count, layers, m_foot != null && m_foot.drawRays);
            m_character.Finish(m_hits, count);
            State = m_character.State;
            transform.rotation = m_own != null ? OwnRig.GameObjectRotation(State.rotation.ToUnity()) : State.rotation.ToUnity();
        }

        /// <summary>BvhPlayer asks for the pose: the walker's, in this Transform's space.</summary>
        public void WritePose(BvhPlayer player, float deltaTime)
        {
            m_character.Pose(player.Local, player.Model);
        }

        void OnDestroy()
        {
            if (m_player != null && ReferenceEquals(m_player.PoseSource, this)) m_player.PoseSource = null;
            if (m_character != null) m_character.Dispose();
            if (m_idle != null) m_idle.Dispose();
            if (m_own != null) m_own.Dispose();
            m_character = null;
            m_idle = null;
            m_own = null;
        }

        void OnDrawGizmosSelected()
        {
            if (target == null) return;
            Gizmos.color = Color.yellow;
            Gizmos.DrawWireSphere(target.position, arrivalRadius);
        }
    }
}
