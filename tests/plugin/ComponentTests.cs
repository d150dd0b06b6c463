// The MonoBehaviours compiled against the UnityEngine stub (UnityEngineStub.cs) and run with
// mono: their inspector defaults must be the C library's defaults as the plugin reports them,
// and a small scene runs for real: BvhPlayer + CharacterController + GuideWalker + FootIK +
// LimbIK walking over stub terrain whose ray casts are answered by C# below.
using System;
using System.IO;
using System.Reflection;
using AnimKit;
using AnimKit.Unity;
using UnityEngine;

static partial class ComponentTests
{
    static int failures;
    static void Check(bool ok, string what)
    {
        Console.WriteLine((ok ? "[ OK ] " : "[FAIL] ") + what);
        if (!ok) ++failures;
    }
    // ---- a scene: the components driven like Unity would (Awake, Start, Update, LateUpdate) ----
    static float GroundY(float x, float z) { return 0.25f * (float)Math.Sin(0.5 * x) + 0.2f * (float)Math.Cos(0.4 * z); }
    static void Call(object o, string message)
    {
        MethodInfo m = o.GetType().GetMethod(message, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
        if (m != null) m.Invoke(o, null);
    }

    static string V(Vector3 v) { return string.Format("({0:F2},{1:F2},{2:F2})", v.x, v.y, v.z); }
    static void WalkScene()
    {
        string dir = Environment.GetEnvironmentVariable("AK_MOCAP_DIR");
        string path = Path.Combine(string.IsNullOrEmpty(dir) ? Path.Combine("..", "shared", "mocap") : dir, "cmu_02_01_walk.bvh");
        CharacterController.TestGround = GroundY;
        Physics.TestRaycast = (Vector3 o, Vector3 d, float max, out RaycastHit hit) =>
        {
            hit = new RaycastHit();
            float y = GroundY(o.x, o.z);
            if (d.y > -0.99f || o.y < y || o.y - y > max) return false;
            double dx = 0.125 * Math.Cos(0.5 * o.x), dz = -0.08 * Math.Sin(0.4 * o.z), n = Math.Sqrt(dx * dx + 1 + dz * dz);
            hit.point = new Vector3(o.x, y, o.z);
            hit.normal = new Vector3((float)(-dx / n), (float)(1 / n), (float)(-dz / n));
            hit.distance = o.y - y;
            return true;
        };
        Time.deltaTime = 1f / 60f;

        GameObject go = new GameObject("Walker");
        go.transform.position = new Vector3(0f, GroundY(0f, 0f), 0f);
        BvhPlayer player = go.AddComponent<BvhPlayer>();
        player.bvhAsset = new TextAsset(File.ReadAllBytes(path));
        go.AddComponent<CharacterController>();
        GuideWalker walker = go.AddComponent<GuideWalker>();
        FootIK foot = go.AddComponent<FootIK>();
        foot.drawRays = true; // exercises the Debug.DrawLine path too
        Transform target = new GameObject("Target").transform;
        target.position = new Vector3(-3.0f, 0f, 4.0f);
        walker.target = target;
        // An arm reaching for a point that travels with the character: LimbIK on top of the walk.
        LimbIK arm = go.AddComponent<LimbIK>();
        arm.limb = Limb.RightArm;
        arm.order = 10;
        Transform hand = new GameObject("HandTarget").transform;
        arm.target = hand;

        Call(player, "Awake");
        Call(player, "Start");
        Call(walker, "Start");
        Check(player.Skeleton != null && player.Joints.Length == player.Skeleton.JointCount, "BvhPlayer built one Transform per joint");
        Check(ReferenceEquals(player.PoseSource, walker), "GuideWalker drives the BvhPlayer");
        int errors = Debug.ErrorCount, casts = Physics.RaycastCount;
        int leftFoot = player.Humanoid[(int)HumanoidSlot.LeftFoot], rightHand = player.Humanoid[(int)HumanoidSlot.RightHand];
        AkXform[] world = new AkXform[player.Skeleton.JointCount];
        double worstJoint = 0, worstHand = 0;
        int frames = 0, reachedFrames = 0;
        for (; frames < 60 * 20 && walker.State.stopped == 0; ++frames)
        {
            // The hand target: 1.1 m up, 30 cm ahead and 15 cm to the character's right (Unity:
            // right = up x forward), following the character.
            Vector3 fwd = walker.State.facing.ToUnity(), right = Vector3.Cross(Vector3.up, fwd);
            hand.position = go.transform.position + new Vector3(0f, 1.1f, 0f) + fwd * 0.3f + right * 0.15f;
            Call(walker, "Update");
            Call(player, "LateUpdate");
            // The walker's world pose vs the Transform hierarchy the components wrote. IK
            // modifiers changed the arm, so compare the legs and spine only (joints before the
            // right shoulder's subtree are untouched by the arm IK).
            walker.Character.WorldPose(world);
            for (int j = 0; j < player.Joints.Length; ++j)
            {
                if (j >= player.Humanoid[(int)HumanoidSlot.RightShoulder]) break;
                Vector3 p = player.Joints[j].position;
                worstJoint = Math.Max(worstJoint, (p - world[j].position.ToUnity()).magnitude);
            }
            if (arm.LastResult.reached != 0)
            {
                ++reachedFrames;
                worstHand = Math.Max(worstHand, (player.Joints[rightHand].position - hand.position).magnitude);
            }
        }
        // Left stays left: the right shoulder is on the character's right side in Unity's frame.
        Vector3 f = walker.State.facing.ToUnity();
        Vector3 toShoulder = player.Joints[player.Humanoid[(int)HumanoidSlot.RightUpperArm]].position - go.transform.position;
        Check(Vector3.Dot(toShoulder, Vector3.Cross(Vector3.up, f)) > 0.1f, "the right shoulder is on the character's right");
        Vector3 end = go.transform.position;
        double miss = Math.Sqrt((end.x + 3.0) * (end.x + 3.0) + (end.z - 4.0) * (end.z - 4.0));
        Vector3 ankle = player.Joints[leftFoot].position;
        Console.WriteLine("  scene: stopped after {0:F2} s, {1:F2} m from the target, {2} ray casts; Transforms vs walker pose " +
            "{3:E1} m; hand on its target in {4} of {5} frames, then within {6:F4} m; left ankle {7:F3} m above the ground",
            frames / 60.0, miss, Physics.RaycastCount - casts, worstJoint, reachedFrames, frames, worstHand,
            ankle.y - GroundY(ankle.x, ankle.z));
        Check(walker.State.stopped == 1 && miss < 0.6, "the scene's walker reaches the clicked point");
        Check(Physics.RaycastCount - casts == 7 * frames, "FootIK cast 7 rays per frame with Physics.Raycast");
        Check(worstJoint < 1e-3, "joint Transforms (rig under the walker's GameObject) = the walker's world pose");
        Check(reachedFrames > frames * 9 / 10 && worstHand < 2e-3, "LimbIK keeps the hand on its target while walking");
        Check(Debug.ErrorCount == errors, "no errors logged");
        Call(walker, "OnDestroy");
        Call(player, "OnDestroy");
        Check(AnimKitLibrary.LiveHandles == 0, "everything released after OnDestroy, live = " + AnimKitLibrary.LiveHandles);
    }

    // A standing clip on a slope with FootIK alone (no GuideWalker): the stance soles end on
    // the ground; without FootIK they would float above or sink below it.
    static float SlopeY(float x, float z) { return -0.6f * x; }

    static void StandOnSlopeScene()
    {
        string dir = Environment.GetEnvironmentVariable("AK_MOCAP_DIR");
        string path = Path.Combine(string.IsNullOrEmpty(dir) ? Path.Combine("..", "shared", "mocap") : dir,
                                   "arena_louise_stand_walk_cycle.bvh");
        float nl = (float)Math.Sqrt(1.36);
        Physics.TestRaycast = (Vector3 o, Vector3 d, float max, out RaycastHit hit) =>
        {
            hit = new RaycastHit();
            float y = SlopeY(o.x, o.z);
            if (d.y > -0.99f || o.y < y || o.y - y > max) return false;
            hit.point = new Vector3(o.x, y, o.z);
            hit.normal = new Vector3(0.6f / nl, 1f / nl, 0f);
            return true;
        };
        int errors = Debug.ErrorCount;
        GameObject go = new GameObject("Stander");
        BvhPlayer player = go.AddComponent<BvhPlayer>();
        player.bvhPath = path;
        player.loop = false;
        FootIK foot = go.AddComponent<FootIK>();
        Call(player, "Awake");
        Call(player, "Start");
        double worst = 0;
        int stance = 0;
        for (int f = 0; f < 180; ++f)
        {
            Call(player, "LateUpdate");
            if (f < 90) continue; // weights fade in
            AkFootIkState s = foot.State;
            if (s.stanceLeft != 0) { worst = Math.Max(worst, Math.Abs(s.soleLeft.y - SlopeY(s.soleLeft.x, s.soleLeft.z))); ++stance; }
            if (s.stanceRight != 0) { worst = Math.Max(worst, Math.Abs(s.soleRight.y - SlopeY(s.soleRight.x, s.soleRight.z))); ++stance; }
        }
        Console.WriteLine("  slope scene: {0} stance samples, soles within {1:F4} m of the slope, hips lowered {2:F3} m",
            stance, worst, foot.State.hipDrop);
        Check(stance > 100 && worst < 0.01, "standalone FootIK puts the stance soles on the slope");
        Check(foot.State.hipDrop > 0.03f, "standalone FootIK lowers the hips for the lower foot");
        Check(Debug.ErrorCount == errors, "no errors logged");
        Call(foot, "OnDestroy");
        Call(player, "OnDestroy");
        Check(AnimKitLibrary.LiveHandles == 0, "everything released, live = " + AnimKitLibrary.LiveHandles);
    }

    // BvhPlayer on an existing hierarchy: Transforms found by joint name, the rest left out.
    static void MappedRigScene()
    {
        string dir = Environment.GetEnvironmentVariable("AK_MOCAP_DIR");
        string path = Path.Combine(string.IsNullOrEmpty(dir) ? Path.Combine("..", "shared", "mocap") : dir, "cmu_09_01_run.bvh");
        GameObject go = new GameObject("Mapped");
        Transform rig = new GameObject("Rig").transform;
        rig.SetParent(go.transform, false);
        Transform hips = new GameObject("Hips").transform;
        hips.SetParent(rig, false);
        Transform mesh = new GameObject("Mesh").transform; // not a joint
        mesh.SetParent(rig, false);
        Transform thigh = new GameObject("LeftUpLeg").transform;
        thigh.SetParent(hips, false);
        BvhPlayer player = go.AddComponent<BvhPlayer>();
        player.bvhAsset = new TextAsset(File.ReadAllBytes(path));
        player.rigRoot = rig;
        Call(player, "Awake");
        Call(player, "Start");
        Call(player, "LateUpdate");
        int h = player.Skeleton.Find("Hips"), t = player.Skeleton.Find("LeftUpLeg"), k = player.Skeleton.Find("LeftLeg");
        Check(ReferenceEquals(player.Joints[h], hips) && ReferenceEquals(player.Joints[t], thigh) && player.Joints[k] == null,
              "BvhPlayer maps an existing rig by joint name (missing joints left null)");
        Quaternion q = thigh.localRotation;
        AkQuat e = player.Local[t].rotation;
        Check(q.x == e.x && q.y == e.y && q.z == e.z && q.w == e.w, "mapped Transforms get the sampled local pose");
        Call(player, "OnDestroy");
    }

    // BvhPlayer with Apply Root Motion off (issue 22): the joint that carries the travel stays
    // at its first frame's place on the ground plane. CMU 02_01 with a still joint_Root above
    // Hips (six zero channels per frame line): the measured root joint is Hips, and Hips stays
    // put (within float rounding) while the original's Hips travels 3 m over the clip; before,
    // joint 0 (joint_Root, already still) was pinned and the hips walked away.
    static void InPlaceStillTopScene()
    {
        string dir = Environment.GetEnvironmentVariable("AK_MOCAP_DIR");
        string path = Path.Combine(string.IsNullOrEmpty(dir) ? Path.Combine("..", "shared", "mocap") : dir, "cmu_02_01_walk.bvh");
        string text = File.ReadAllText(path).Replace("\r\n", "\n");
        int motion = text.IndexOf("\nMOTION\n", StringComparison.Ordinal);
        string[] lines = text.Substring(motion + 1).Split('\n');
        var sb = new System.Text.StringBuilder();
        sb.Append(text.Substring(0, motion).Replace("ROOT Hips\n", "ROOT joint_Root\n{\n\tOFFSET 0 0 0\n" +
            "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\nJOINT Hips\n")).Append("\n}\n");
        for (int i = 0; i < lines.Length; ++i)
            sb.Append(i >= 3 && lines[i].Trim().Length > 0 ? "0 0 0 0 0 0 " : "").Append(lines[i]).Append(i + 1 < lines.Length ? "\n" : "");
        GameObject go = new GameObject("InPlace");
        BvhPlayer player = go.AddComponent<BvhPlayer>();
        player.bvhAsset = new TextAsset(sb.ToString());
        player.applyRootMotion = false;
        Call(player, "Awake");
        int hips = player.Skeleton.Find("Hips");
        Check(hips == 1 && player.RootJoint == hips, "BvhPlayer measures Hips under the still joint_Root, got " + player.RootJoint);
        float worst = 0f, travelled = 0f;
        AkVec3 start = new AkVec3(0, 0, 0);
        for (int f = 0; f < player.Clip.FrameCount; f += 8)
        {
            player.time = f * player.Clip.FrameTime;
            player.Evaluate(0f);
            AkVec3 p = player.Model[hips].position;
            if (f == 0) start = p;
            worst = Math.Max(worst, (float)Math.Sqrt((p.x - start.x) * (p.x - start.x) + (p.z - start.z) * (p.z - start.z)));
        }
        using (BvhFile original = BvhFile.Load(path))
        {
            AkXform[] a = new AkXform[original.Skeleton.JointCount], b = new AkXform[a.Length];
            original.Clip.SampleModel(original.Skeleton, 0f, Interpolation.Step, a);
            original.Clip.SampleModel(original.Skeleton, (original.Clip.FrameCount - 1) * original.Clip.FrameTime, Interpolation.Step, b);
            travelled = (float)Math.Sqrt((a[0].position.x - b[0].position.x) * (a[0].position.x - b[0].position.x) +
                                         (a[0].position.z - b[0].position.z) * (a[0].position.z - b[0].position.z));
        }
        Console.WriteLine("  in place, still top: Hips moves {0:E2} m on the ground plane (the original's travels {1:F2} m)", worst, travelled);
        Check(travelled > 1f && worst <= 1e-5f * travelled, "Apply Root Motion off pins the travelling joint");
        Call(player, "OnDestroy");
    }

    static bool Same(float a, float b) { return Math.Abs(a - b) <= 1e-7f * Math.Max(1f, Math.Abs(b)); }

    // HumanoidRetargeter: the CMU walk on louise's rig, the rig read once from its Transforms
    // by name and once from a humanoid Animator's bones; both walk the same way (hips travel
    // forward, feet on the floor) and agree on where the feet are.
    static Vector3[] RetargetRun(bool viaAnimator, string cmu, string louise, out float travel)
    {
        BvhFile rigFile = BvhFile.Load(louise);
        GameObject go = new GameObject(viaAnimator ? "HumanoidRig" : "NamedRig");
        Transform[] joints = BvhAnimation.CreateHierarchy(rigFile.Skeleton, go.transform);
        HumanoidRetargeter r = go.AddComponent<HumanoidRetargeter>();
        r.bvhAsset = new TextAsset(File.ReadAllBytes(cmu));
        if (viaAnimator)
        {
            Animator a = go.AddComponent<Animator>();
            string[] names = { "Hips", "LeftHip", "RightHip", "LeftKnee", "RightKnee", "LeftAnkle", "RightAnkle",
                               "Chest", "", "Neck", "Head", "LeftCollar", "RightCollar", "LeftShoulder", "RightShoulder",
                               "LeftElbow", "RightElbow", "LeftWrist", "RightWrist" };
            for (int b = 0; b < names.Length; ++b)
                if (names[b].Length > 0) a.SetBoneTransform((HumanBodyBones)b, joints[rigFile.Skeleton.Find(names[b])]);
            r.humanoid = a;
        }
        else
        {
            r.rigRoot = joints[0];
        }
        Transform hips = joints[rigFile.Skeleton.Find("Hips")];
        Transform[] feet = { joints[rigFile.Skeleton.Find("LeftAnkle")], joints[rigFile.Skeleton.Find("RightAnkle")] };
        int errors = Debug.ErrorCount;
        Call(r, "Start");
        Check(r.RetargetedClip != null && Debug.ErrorCount == errors, (viaAnimator ? "Animator bones" : "rigRoot names") +
              ": HumanoidRetargeter built the rig and retargeted the capture");
        Time.deltaTime = 1f / 120f;
        Call(r, "Update");
        Vector3 start = hips.position;
        float lowest = float.MaxValue;
        for (int f = 0; f < 240; ++f)
        {
            Call(r, "Update");
            lowest = Math.Min(lowest, Math.Min(feet[0].position.y, feet[1].position.y));
        }
        travel = Vector3.Distance(new Vector3(hips.position.x, 0, hips.position.z), new Vector3(start.x, 0, start.z));
        Check(lowest > -0.01f, (viaAnimator ? "Animator bones" : "rigRoot names") + ": ankles stay above the floor (lowest " + lowest + " m)");
        Vector3[] result = { feet[0].position, feet[1].position, hips.position };
        Call(r, "OnDestroy");
        rigFile.Dispose();
        return result;
    }

    static void RetargetScene()
    {
        string dir = Environment.GetEnvironmentVariable("AK_MOCAP_DIR");
        if (string.IsNullOrEmpty(dir)) dir = Path.Combine("..", "shared", "mocap");
        string cmu = Path.Combine(dir, "cmu_02_01_walk.bvh"), louise = Path.Combine(dir, "arena_louise_stand_walk_cycle.bvh");
        float t1, t2;
        Vector3[] named = RetargetRun(false, cmu, louise, out t1);
        Vector3[] human = RetargetRun(true, cmu, louise, out t2);
        // 2 s of a walk at about 1.2 m/s
        Check(t1 > 1.5f && t2 > 1.5f, "the retargeted character walks forward (" + t1 + " m, " + t2 + " m in 2 s)");
        // The same leg bones either way. The Animator's bones end at the ankles (no foot tip),
        // so that rig knows no sole height and stands lower by the named rig's (ankle above its
        // foot's End Site): one vertical shift for hips and feet alike, nothing sideways.
        float worst = 0f, dy = named[2].y - human[2].y;
        for (int i = 0; i < 3; ++i)
        {
            Vector3 d = named[i] - human[i];
            worst = Math.Max(worst, Math.Max((float)Math.Sqrt(d.x * d.x + d.z * d.z), Math.Abs(d.y - dy)));
        }
        Check(worst < 0.01f, "both rigs move feet and hips alike (worst " + worst + " m; shift " + dy + " m)");
    }

    static int Main()
    {
        AkLimbIkParams limb = IK.LimbDefaults();
        LimbIK l = new LimbIK();
        Check(Same(l.weight, limb.weight), "LimbIK.weight = C default " + limb.weight);
        Check(Same(l.softLimit, limb.softLimit), "LimbIK.softLimit = C default " + limb.softLimit);
        Check(Same(l.tolerance, limb.tolerance), "LimbIK.tolerance = C default " + limb.tolerance);
        Check(l.matchTargetRotation == (limb.matchEndRotation != 0), "LimbIK.matchTargetRotation = C default");
        AkLookAtParams look = IK.LookAtDefaults();
        LookAtIK la = new LookAtIK();
        Check(Same(la.weight, look.weight), "LookAtIK.weight = C default " + look.weight);
        Check(Same(la.clampWeight, look.clampWeight), "LookAtIK.clampWeight = C default " + look.clampWeight);
        Check(Same(la.tolerance, look.tolerance), "LookAtIK.tolerance = C default " + look.tolerance);
        Check(Same(la.forwardAxis.x, look.forward.x) && Same(la.forwardAxis.y, look.forward.y) && Same(la.forwardAxis.z, look.forward.z),
              "LookAtIK.forwardAxis = C default (mirrored) (" + look.forward.x + "," + look.forward.y + "," + look.forward.z + ")");
        Check(Same(la.upAxis.y, look.up.y) && Same(la.upAxis.z, look.up.z), "LookAtIK.upAxis = C default");
        Check(Same(la.upModel.y, look.upModel.y), "LookAtIK.upModel = C default");

        AkCharacterParams ch = Character.Defaults();
        GuideWalker gw = new GuideWalker();
        Check(Same(gw.arrivalRadius, ch.arrivalRadius), "GuideWalker.arrivalRadius = C default " + ch.arrivalRadius);
        Check(gw.continuousSteering == (ch.steer != 0), "GuideWalker.continuousSteering = C default");
        Check(Same(gw.turnRateDeg, ch.turnRateDeg), "GuideWalker.turnRateDeg = C default " + ch.turnRateDeg);
        Check(Same(gw.groundSmoothing, ch.groundSmoothing), "GuideWalker.groundSmoothing = C default " + ch.groundSmoothing);
        Check(Same(gw.idleFade, ch.idleFade), "GuideWalker.idleFade = C default " + ch.idleFade);
        Check((int)gw.interpolation == ch.interp, "GuideWalker.interpolation = C default");
        Check(gw.cycleStart == ch.cycleStart && gw.cycleEnd == ch.cycleEnd, "GuideWalker.cycleStart/End = C default");
        Check(Same(gw.seamBlend, ch.seamBlend), "GuideWalker.seamBlend = C default " + ch.seamBlend);
        Check(gw.rootJoint == "" && ch.rootJoint == IntPtr.Zero, "GuideWalker.rootJoint = C default (measured)");
        Check(new MotionMatchingWalker().rootJoint == "", "MotionMatchingWalker.rootJoint = measured");
        Check(new HumanoidRetargeter().referenceFrame == Retarget.Defaults().referenceFrame,
              "HumanoidRetargeter.referenceFrame = C default " + Retarget.Defaults().referenceFrame);

        AkFootIkParams fp = FootIkRig.Defaults();
        FootIK fs = new FootIK();
        Check(Same(fs.rayUp, fp.rayUp) && Same(fs.rayDown, fp.rayDown), "FootIK.rayUp/rayDown = plugin defaults");
        Check(Same(fp.weight, ch.footWeight) && Same(fp.maxHipDrop, ch.maxHipDrop) && Same(fp.hipDropRate, ch.hipDropRate),
              "standalone foot IK defaults = the walker's foot IK defaults");
        FootIK fk = new FootIK();
        Check(Same(fk.weight, ch.footWeight), "FootIK.weight = C default " + ch.footWeight);
        Check(Same(fk.maxTiltDeg, ch.maxTiltDeg), "FootIK.maxTiltDeg = C default " + ch.maxTiltDeg);
        Check(Same(fk.maxHipDrop, ch.maxHipDrop), "FootIK.maxHipDrop = C default " + ch.maxHipDrop);
        Check(Same(fk.hipDropRate, ch.hipDropRate), "FootIK.hipDropRate = C default " + ch.hipDropRate);
        Check(Same(fk.poleDistance, ch.poleDistance), "FootIK.poleDistance = C default " + ch.poleDistance);
        Check(fk.lockFeet == (ch.lockFeet != 0), "FootIK.lockFeet = C default");
        Check((ch.footIk != 0), "foot IK is on by default in C (a FootIK component turns it on)");

        WalkScene();
        StandOnSlopeScene();
        MappedRigScene();
        InPlaceStillTopScene();
        RetargetScene();
        MatchingScene();
        AnyRigScene();
        OwnRigWalkScenes();
        Console.WriteLine(failures == 0 ? "all checks passed" : failures + " failed");
        return failures == 0 ? 0 : 1;
    }
}
