// Foot IK settings for the walker, and the ground rays it needs cast by Unity's physics.
// Per frame the plugin lists downward rays (under the character, under each sole and where
// each swinging foot will land), this
// component casts them with Physics.Raycast and hands the hits back (the two-phase form: no
// callback crosses the plugin boundary). The plugin then lowers the hips by the lower foot's
// shortfall (hip drop), places each foot with limb IK (knee toward a pole in front), turns the
// feet to the surface normal (up to maxTiltDeg) and keeps stance feet locked, fading every
// weight at its rate so nothing pops.
//
// In this version foot IK runs inside the GuideWalker's step: put FootIK next to a
// GuideWalker (without one, it only logs a warning).
using UnityEngine;

namespace AnimKit.Unity
{
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

        [Header("Debug")]
        [Tooltip("Draw the ground rays (green: hit, red: miss) in the Scene view.")]
        public bool drawRays = false;

        bool m_warned;

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

        public override void ModifyPose(BvhPlayer player)
        {
            if (GetComponent<GuideWalker>() != null) return; // applied inside the walker's step
            if (!m_warned)
            {
                Debug.LogWarning("FootIK: add a GuideWalker; standalone foot IK on a BvhPlayer is not " +
                                 "available in this version of the package", this);
                m_warned = true;
            }
        }
    }
}
