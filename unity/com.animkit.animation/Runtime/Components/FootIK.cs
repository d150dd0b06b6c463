// Foot IK, and the ground rays it needs cast by Unity's physics. Per frame the plugin lists
// downward rays (with a GuideWalker: under the character, under each sole and where each
// swinging foot will land; standalone: under each foot), this component casts them with
// Physics.Raycast and hands the hits back (the two-phase form: no callback crosses the plugin
// boundary). The plugin then lowers the hips by the lower foot's
// shortfall (hip drop), places each foot with limb IK (knee toward a pole in front), turns the
// feet to the surface normal (up to maxTiltDeg) and keeps stance feet locked, fading every
// weight at its rate so nothing pops.
//
// Next to a GuideWalker (or a MotionMatchingWalker), foot IK runs inside the walker's step
// (the GuideWalker's with these settings, the matcher's with its own). On a
// BvhPlayer alone (an idle, a dance...) it runs standalone: stance comes from the clip's foot
// contacts, the rig is placed by this GameObject's Transform.
using UnityEngine;

namespace AnimKit.Unity
{
    /// <summary>Where FootIK learns which feet stand (planted, turned flat, locked) and which
    /// swing (kept at their animated height above the ground).</summary>
    public enum FootStance
    {
        /// <summary>From the clip on a BvhPlayer; from the pose on the character's own rig.</summary>
        Auto,
        /// <summary>The clip's foot contacts, detected when the rig is set up.</summary>
        FromClip,
        /// <summary>Each frame from the animated pose: heel and toe are each down while within
        /// stanceOn of the rig's floor and slower than stanceSpeedOn (up above stanceOff or
        /// faster than stanceSpeedOff); the foot stands while either is down, and rolls over
        /// its toe when only the toe is.</summary>
        FromPose,
        /// <summary>Both feet always stand (a character that only stands or idles).</summary>
        Always
    }

    [AddComponentMenu("animkit/Foot IK")]
    public class FootIK : PoseModifier
    {
        [Tooltip("Layers the feet stand on (leave the character's own layer out). " +
                 "Default: everything but Ignore Raycast.")]
        public LayerMask groundLayers = Physics.DefaultRaycastLayers;

        [Header("Solver (defaults are the C library's)")]
        [Tooltip("0 = the animation's feet, 1 = feet on the ground.")]
        [Range(0f, 1f)] public float weight = 1f;
        [Tooltip("Feet follow the surface normal up to this angle, degrees.")]
        [Range(0f, 90f)] public float maxTiltDeg = 45f;
        [Tooltip("The hips may drop at most this far so the lower foot reaches its ground, metres.")]
        [Min(0f)] public float maxHipDrop = 0.45f;
        [Tooltip("Metres per second the hip drop may change.")]
        [Min(0f)] public float hipDropRate = 0.8f;
        [Tooltip("The knee pole sits this far in front of the knee, metres.")]
        [Min(0f)] public float poleDistance = 0.5f;
        [Tooltip("Stance feet stay where they landed (no skating).")]
        public bool lockFeet = true;

        [Header("Stance (no GuideWalker)")]
        [Tooltip("Which feet stand. Auto: the clip's contacts on a BvhPlayer, the animated pose on the character's " +
                 "own rig (an Animator's clips are not seen by the plugin).")]
        public FootStance stance = FootStance.Auto;
        [Tooltip("FromPose: a foot stands while its animated heel or toe is this close to the floor the feet " +
                 "stood on when the rig was mapped, metres (the library's contact threshold).")]
        [Min(0f)] public float stanceOn = 0.025f;
        [Tooltip("FromPose: and lifts off when both are higher than this, metres.")]
        [Min(0f)] public float stanceOff = 0.045f;
        [Tooltip("FromPose: a heel or toe is down only while it moves slower than this, m/s (horizontal, world).")]
        [Min(0f)] public float stanceSpeedOn = 0.25f;
        [Tooltip("FromPose: and lifts off when it moves faster than this, m/s.")]
        [Min(0f)] public float stanceSpeedOff = 0.45f;

        [Header("Standalone (no GuideWalker)")]
        [Tooltip("Rays start this far above each foot, metres.")]
        [Min(0.01f)] public float rayUp = 0.5f;
        [Tooltip("And reach this far below it, metres.")]
        [Min(0.01f)] public float rayDown = 1.0f;

        [Header("Debug")]
        [Tooltip("Draw the ground rays (green: hit, red: miss) in the Scene view.")]
        public bool drawRays = false;

        /// <summary>The standalone rig's state after the last frame.</summary>
        public AkFootIkState State;
        /// <summary>The standalone solver (null before the first frame or beside a walker):
        /// its ContactPoints give the heel and toe of any pose by the library's rule.</summary>
        public FootIkRig Solver { get { return m_rig; } }
        FootIkRig m_rig;
        Skeleton m_rigFor;
        readonly AkVec3[] m_heel = new AkVec3[2], m_toe = new AkVec3[2];
        readonly float[] m_floor = new float[2];
        bool m_fromPose, m_haveLast;
        readonly Vector3[] m_lastPoint = new Vector3[4]; // [2 * side + (0 heel, 1 toe)]
        readonly bool[] m_down = { true, true, true, true };
        readonly AkGroundHit[] m_hits = new AkGroundHit[AnimKitNative.FootIkRayCount];
        bool m_first = true;

        /// <summary>Copies these settings into a character's parameters.</summary>
        public void Configure(ref AkCharacterParams p)
        {
            p.footIk = 1;
            p.footWeight = weight;
            p.maxTiltDeg = maxTiltDeg;
            p.maxHipDrop = maxHipDrop;
            p.hipDropRate = hipDropRate;
            p.poleDistance = poleDistance;
            p.lockFeet = lockFeet ? 1 : 0;
        }

        /// <summary>The two-phase ground query: casts rays[0..count) with Physics.Raycast and
        /// writes one hit per ray (same order). No allocation.</summary>
        public static void Cast(AkRay[] rays, AkGroundHit[] hits, int count, int layers, bool draw)
        {
            for (int i = 0; i < count && i < hits.Length && i < rays.Length; ++i)
            {
                Vector3 origin = rays[i].origin.ToUnity(), dir = rays[i].direction.ToUnity();
                RaycastHit hit;
                bool ok = Physics.Raycast(origin, dir, out hit, rays[i].maxDistance, layers,
                                          QueryTriggerInteraction.Ignore);
                hits[i].hit = ok ? 1 : 0;
                hits[i].height = ok ? hit.point.y : 0f;
                hits[i].normal = ok ? hit.normal.ToAk() : new AkVec3(0f, 1f, 0f);
                if (draw)
                    Debug.DrawLine(origin, ok ? hit.point : origin + dir * rays[i].maxDistance,
                                   ok ? Color.green : Color.red);
            }
        }

        public override void ModifyPose(IRigPose player)
        {
            // Applied inside the walker's step: a second, standalone pass would bend the legs twice.
            if (GetComponent<GuideWalker>() != null || GetComponent<MotionMatchingWalker>() != null) return;
            if (m_rigFor != player.Skeleton)
            {
                DisposeRig();
                m_rigFor = player.Skeleton;
                try
                {
                    AkFootIkParams p = FootIkRig.Defaults();
                    p.weight = weight;
                    p.maxTiltDeg = maxTiltDeg;
                    p.maxHipDrop = maxHipDrop;
                    p.hipDropRate = hipDropRate;
                    p.poleDistance = poleDistance;
                    p.lockFeet = lockFeet ? 1 : 0;
                    p.rayUp = rayUp;
                    p.rayDown = rayDown;
                    m_rig = new FootIkRig(player.Skeleton, player.Clip, p);
                    m_first = true;
                    SetUpStance(player);
                }
                catch (AnimKitException e)
                {
                    Debug.LogError("FootIK: " + e.Message, this);
                    enabled = false;
                    return;
                }
            }
            if (m_rig == null) return;
            AkXform character;
            character.rotation = player.Space.rotation.ToAk();
            character.position = player.Space.position.ToAk();
            if (m_fromPose) StanceFromPose(player, m_first ? 0f : Time.deltaTime);
            int count;
            AkRay[] rays = m_rig.Rays(player.ClipTime, character, player.Model, out count);
            Cast(rays, m_hits, count, groundLayers, drawRays);
            m_rig.Apply(m_first ? 0f : Time.deltaTime, m_hits, count, player.Local, player.Model);
            m_first = false;
            State = m_rig.State;
        }

        // The floor for FromPose: the feet's in the rig's rest pose (a TransformRig's pose at
        // mapping) or else in the first pose seen, model space.
        void SetUpStance(IRigPose player)
        {
            FootStance mode = stance == FootStance.Auto ? (player is TransformRig ? FootStance.FromPose : FootStance.FromClip) : stance;
            m_fromPose = mode == FootStance.FromPose;
            for (int k = 0; k < 4; ++k) m_down[k] = true;
            for (int i = 0; i < m_floorAge.Length; ++i) m_floorAge[i] = float.MaxValue;
            m_haveLast = false;
            if (mode == FootStance.Always) m_rig.SetStance(3, 3);
            if (!m_fromPose) return;
            TransformRig rig = player as TransformRig;
            m_rig.ContactPoints(AkXform.Identity, rig != null ? rig.RestModel : player.Model, m_heel, m_toe);
            // One floor for both feet: the lowest heel or toe (a foot lifted in that pose does
            // not raise its own floor).
            float floor = Mathf.Min(Mathf.Min(m_heel[0].y, m_toe[0].y), Mathf.Min(m_heel[1].y, m_toe[1].y));
            m_floor[0] = m_floor[1] = floor;
        }

        // FromPose, the library's contact rule on the animated pose (before any IK), for the heel
        // and the toe of each foot: a point is down while it is within stanceOn of the floor and
        // moves slower than stanceSpeedOn horizontally (world), and lifts off above stanceOff or
        // faster than stanceSpeedOff (hysteresis). The foot stands while either is down; the toe
        // alone rolls it over its toe (heel-off).
        void StanceFromPose(IRigPose player, float dt)
        {
            m_rig.ContactPoints(AkXform.Identity, player.Model, m_heel, m_toe);
            int[] contact = { 0, 0 };
            for (int s = 0; s < 2; ++s)
                for (int k = 0; k < 2; ++k) // k 0 heel, 1 toe
                {
                    AkVec3 p = k == 0 ? m_heel[s] : m_toe[s];
                    Vector3 at = player.Space.TransformPoint(p.ToUnity());
                    Vector3 d = at - m_lastPoint[2 * s + k];
                    d.y = 0f;
                    float speed = m_haveLast && dt > 0f ? d.magnitude / dt : 0f, h = p.y - LocalFloor(2 * s + k, p.y, dt);
                    m_lastPoint[2 * s + k] = at;
                    if (h <= stanceOn && speed <= stanceSpeedOn) m_down[2 * s + k] = true;
                    else if (h > stanceOff || speed > stanceSpeedOff) m_down[2 * s + k] = false;
                    if (m_down[2 * s + k]) contact[s] |= k == 0 ? 1 : 2; // AK_CONTACT_HEEL, AK_CONTACT_TOE
                }
            m_haveLast = true;
            m_rig.SetStance(contact[0], contact[1]);
        }

        // The library's local floor of a point: the lowest it came within the last
        // k_floorWindow seconds (captured floors drift, and a clip's floor need not be the
        // rig's), no higher than k_maxFloorRise above the rig's floor. Past frames only: the
        // previous stance of the same foot is within the window at each heel strike.
        const float k_floorWindow = 0.8f, k_maxFloorRise = 0.3f;
        const int k_floorSlots = 256; // 0.8 s of frames up to 320 fps
        readonly float[] m_floorHeight = new float[4 * k_floorSlots], m_floorAge = new float[4 * k_floorSlots];
        int m_floorNext;

        float LocalFloor(int point, float height, float dt)
        {
            int o = point * k_floorSlots;
            float lowest = height;
            for (int i = 0; i < k_floorSlots; ++i)
            {
                if (m_floorAge[o + i] < float.MaxValue) m_floorAge[o + i] += dt;
                if (m_floorAge[o + i] <= k_floorWindow && m_floorHeight[o + i] < lowest) lowest = m_floorHeight[o + i];
            }
            m_floorHeight[o + m_floorNext] = height;
            m_floorAge[o + m_floorNext] = 0f;
            if (point == 3) m_floorNext = (m_floorNext + 1) % k_floorSlots;
            float rest = m_floor[point / 2];
            return Mathf.Min(Mathf.Max(lowest, rest - k_maxFloorRise), rest + k_maxFloorRise);
        }

        void DisposeRig()
        {
            if (m_rig != null) m_rig.Dispose();
            m_rig = null;
            m_rigFor = null;
        }

        protected override void OnDestroy()
        {
            base.OnDestroy();
            DisposeRig();
        }
    }
}
