// MotionMatchingWalker in a small scene (the components driven like Unity would): BvhPlayer +
// CharacterController + MotionMatchingWalker + FootIK on flat stub ground, a database of two
// CMU subject-2 walks (the player's clip and one extra clip). It walks to the target and
// stops, and selected it draws the wanted (yellow) and matched (cyan) trajectories as Gizmos
// lines from the character through the matcher's three future points, in Unity's frame.
using System;
using System.IO;
using AnimKit;
using AnimKit.Unity;
using UnityEngine;

static partial class ComponentTests
{
    static string MocapPath(string name)
    {
        string dir = Environment.GetEnvironmentVariable("AK_MOCAP_DIR");
        return Path.Combine(string.IsNullOrEmpty(dir) ? Path.Combine("..", "shared", "mocap") : dir, name);
    }

    static bool Near(Vector3 a, Vector3 b) { return (a - b).magnitude <= 1e-5f; }

    static Vector3 Flat(Vector3 v) { return new Vector3(v.x, 0f, v.z); }

    // The six Gizmos lines: yellow here -> wanted 0 -> 1 -> 2, cyan here -> matched 0 -> 1 -> 2.
    static void CheckTrajectoryGizmos(MotionMatchingWalker walker, Vector3 target)
    {
        Gizmos.Lines.Clear();
        Call(walker, "OnDrawGizmosSelected");
        AkMatcherState s = walker.State;
        Vector3 here = s.position.ToUnity();
        Vector3[] wanted = { s.desired0.ToUnity(), s.desired1.ToUnity(), s.desired2.ToUnity() };
        Vector3[] matched = { s.matched0.ToUnity(), s.matched1.ToUnity(), s.matched2.ToUnity() };
        int yellow = 0, cyan = 0, chained = 0;
        foreach (Gizmos.Line l in Gizmos.Lines)
        {
            bool isYellow = l.color.r == Color.yellow.r && l.color.g == Color.yellow.g && l.color.b == Color.yellow.b;
            bool isCyan = l.color.r == Color.cyan.r && l.color.g == Color.cyan.g && l.color.b == Color.cyan.b;
            Vector3[] pts = isYellow ? wanted : matched;
            int k = isYellow ? yellow++ : isCyan ? cyan++ : -1;
            if (k >= 0 && k < 3 && Near(l.a, k == 0 ? here : pts[k - 1]) && Near(l.b, pts[k])) ++chained;
        }
        Check(yellow == 3 && cyan == 3 && chained == 6,
              "MotionMatchingWalker Gizmos: 3 yellow + 3 cyan lines through the wanted and matched points (" +
              yellow + ", " + cyan + ", " + chained + " chained)");
        // One second ahead at the captures' speeds (0.7-2.4 m/s), toward the target (Unity frame).
        Vector3 toTarget = Flat(target - here).normalized;
        float ahead = Flat(wanted[2] - here).magnitude, aim = Vector3.Dot(Flat(wanted[2] - here).normalized, toTarget);
        float matchedAim = Vector3.Dot(Flat(matched[2] - here).normalized, toTarget);
        Console.WriteLine("  matching: wanted +1 s point {0:F2} m ahead, cos to the target {1:F3}; matched cos {2:F3}",
                          ahead, aim, matchedAim);
        Check(ahead > 0.5f && ahead < 2.5f && aim > 0.9f && matchedAim > 0.7f,
              "the wanted and matched +1 s points lie ahead, toward the target");
    }

    static void MatchingScene()
    {
        Time.deltaTime = 1f / 60f;
        CharacterController.TestGround = (x, z) => 0f;
        Physics.TestRaycast = (Vector3 o, Vector3 d, float max, out RaycastHit hit) =>
        {
            hit = new RaycastHit();
            if (d.y > -0.99f || o.y < 0f || o.y > max) return false;
            hit.point = new Vector3(o.x, 0f, o.z);
            hit.normal = Vector3.up;
            hit.distance = o.y;
            return true;
        };
        var go = new GameObject("MatchingCharacter");
        BvhPlayer player = go.AddComponent<BvhPlayer>();
        player.bvhAsset = new TextAsset(File.ReadAllBytes(MocapPath("cmu_02_01_walk.bvh")));
        player.loop = false; // a capture take, not a cycle: the database must not unroll it
        go.AddComponent<CharacterController>();
        MotionMatchingWalker walker = go.AddComponent<MotionMatchingWalker>();
        walker.extraClips = new[] { new TextAsset(File.ReadAllBytes(MocapPath(Path.Combine("locomotion", "cmu_02_02_walk.bvh")))) };
        go.AddComponent<FootIK>();
        Transform target = new GameObject("MatchTarget").transform;
        target.position = new Vector3(2.0f, 0f, 5.0f);
        walker.target = target;
        Call(player, "Awake");
        Call(player, "Start");
        int live = AnimKitLibrary.LiveHandles;
        Call(walker, "Start");
        Check(ReferenceEquals(player.PoseSource, walker), "MotionMatchingWalker drives the BvhPlayer");
        int errors = Debug.ErrorCount, frames = 0, arrivedAt = -1;
        for (; frames < 60 * 20 && walker.State.stopped == 0; ++frames)
        {
            Call(walker, "Update");
            Call(player, "LateUpdate");
            if (frames == 60) CheckTrajectoryGizmos(walker, target.position);
            if (arrivedAt < 0 && walker.State.arrived != 0) arrivedAt = frames;
        }
        Vector3 end = go.transform.position;
        double miss = Flat(end - target.position).magnitude;
        Console.WriteLine("  matching scene: arrived after {0:F2} s, stopped after {1:F2} s, {2:F2} m from the target, " +
                          "{3} transitions", arrivedAt / 60.0, frames / 60.0, miss, walker.State.transitions);
        Check(walker.State.stopped == 1 && miss <= walker.arrivalRadius, "MotionMatchingWalker stops within its arrival radius");
        Check(Debug.ErrorCount == errors, "no errors logged by the matching scene");
        // FootIK beside the matcher adds no standalone pass (the matcher's step does foot IK):
        // the walker added only the extra clip's skeleton and clip, the database and the matcher.
        Check(AnimKitLibrary.LiveHandles == live + 4, "no standalone FootIK rig beside the matcher, live = " +
              AnimKitLibrary.LiveHandles + " (" + live + " before the matcher + 4)");
        Call(walker, "OnDestroy");
        Call(player, "OnDestroy");
        Check(AnimKitLibrary.LiveHandles == 0, "matching scene released everything, live = " + AnimKitLibrary.LiveHandles);
    }
}
