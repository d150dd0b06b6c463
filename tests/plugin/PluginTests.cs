// C# tests of the Unity bindings (Runtime/Core: AnimKitNative.cs + AnimKit.cs) against the
// real libanimkit_unity.so, without Unity: compiled with mcs, run with mono by CTest
// (tests/plugin/csharp.cmake). `mono AnimKitPluginTests.exe NAME` runs one test; no name
// runs them all. Exit code 0 = pass.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Reflection;
using AnimKit;

static partial class PluginTests
{
    // ---- a tiny harness ----
    sealed class TestAttribute : Attribute { }

    static void Fail(string what) { throw new Exception(what); }
    static void True(bool c, string what) { if (!c) Fail(what); }
    static void Near(double a, double b, double tol, string what)
    {
        if (!(Math.Abs(a - b) <= tol))
            Fail(string.Format(CultureInfo.InvariantCulture, "{0}: {1:G9} vs {2:G9} (tol {3:G3})", what, a, b, tol));
    }
    static T Throws<T>(Action a, string what) where T : Exception
    {
        try { a(); }
        catch (T e) { return e; }
        Fail(what + ": no " + typeof(T).Name + " thrown");
        return null;
    }

    static string Mocap(string name)
    {
        string dir = Environment.GetEnvironmentVariable("AK_MOCAP_DIR");
        if (string.IsNullOrEmpty(dir)) dir = Path.Combine("..", "shared", "mocap");
        string p = Path.Combine(dir, name);
        if (!File.Exists(p)) Fail("mocap file not found: " + p + " (set AK_MOCAP_DIR)");
        return p;
    }

    // Unity's quaternion * vector (Hamilton product q v q*), written out so the test does not
    // trust the plugin for the check.
    static AkVec3 Rotate(AkQuat q, AkVec3 v)
    {
        float tx = 2f * (q.y * v.z - q.z * v.y), ty = 2f * (q.z * v.x - q.x * v.z), tz = 2f * (q.x * v.y - q.y * v.x);
        return new AkVec3(v.x + q.w * tx + (q.y * tz - q.z * ty),
                          v.y + q.w * ty + (q.z * tx - q.x * tz),
                          v.z + q.w * tz + (q.x * ty - q.y * tx));
    }

    // ---- tests ----

    [Test] static void abi_version_matches_bindings()
    {
        True(AnimKitLibrary.CheckAbi() == AnimKitNative.ExpectedAbiVersion, "ABI version");
    }

    [Test] static void world_positions_match_reference_csv_mirrored()
    {
        // Reference positions are right-handed file units; the plugin gives Unity's frame.
        // metresPerUnit 1 keeps file units so the CSV compares directly after (x,y,z)->(x,y,-z).
        string[] files = { "cmu_02_01_walk", "arena_louise_stand_walk_cycle", "reactidle_003_genuine_idle" };
        foreach (string f in files)
        {
            using (BvhFile bvh = BvhFile.Load(Mocap(f + ".bvh"), 1f, false))
            {
                Skeleton s = bvh.Skeleton;
                var index = new Dictionary<string, int>();
                for (int j = 0; j < s.JointCount; ++j) index[s.JointNames[j]] = j;
                AkXform[] world = new AkXform[s.JointCount];
                int lastFrame = -1, rows = 0;
                double worst = 0, size = 0;
                foreach (string line in File.ReadAllLines(Mocap(f + ".positions.csv")))
                {
                    if (line.StartsWith("frame")) continue;
                    string[] c = line.Split(',');
                    int frame = int.Parse(c[0], CultureInfo.InvariantCulture);
                    if (frame != lastFrame)
                    {
                        // Linear at the key time: exact at the key, and immune to t = f * frame_time
                        // rounding to just below frame f (where Step would pick frame f - 1).
                        bvh.Clip.SampleModel(s, frame * bvh.Clip.FrameTime, Interpolation.Linear, world);
                        lastFrame = frame;
                    }
                    int joint;
                    if (!index.TryGetValue(c[1], out joint)) Fail(f + ": CSV joint " + c[1] + " not in skeleton");
                    double x = double.Parse(c[2], CultureInfo.InvariantCulture);
                    double y = double.Parse(c[3], CultureInfo.InvariantCulture);
                    double z = double.Parse(c[4], CultureInfo.InvariantCulture);
                    AkVec3 p = world[joint].position;
                    double d = Math.Max(Math.Abs(p.x - x), Math.Max(Math.Abs(p.y - y), Math.Abs(p.z - (-z))));
                    worst = Math.Max(worst, d);
                    size = Math.Max(size, Math.Abs(y));
                    ++rows;
                }
                True(rows > 100, f + ": too few CSV rows");
                // 1e-5 of the figure's size: float32 sampling vs Blender's float32 matrices.
                Near(worst, 0, 1e-5 * Math.Max(size, 1.0), f + " worst |unity - mirrored csv|");
                Console.WriteLine("  {0}: {1} rows, worst {2:E2} file units", f, rows, worst);
            }
        }
    }

    [Test] static void rotations_are_consistent_in_unity_frame()
    {
        // Both directions of the conversion meet here: in Unity's frame, with Unity's own
        // quaternion formula, world[parent].rotation * local offset + world[parent].position
        // must land on the child. A sign error in either the position or the rotation
        // mirror breaks it.
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_05_06_dance.bvh"), 0f, true))
        {
            Skeleton s = bvh.Skeleton;
            AkXform[] local = new AkXform[s.JointCount], world = new AkXform[s.JointCount];
            double worst = 0;
            for (int i = 0; i < 20; ++i)
            {
                float t = i * 0.37f;
                bvh.Clip.Sample(s, t, Interpolation.Cubic, local);
                bvh.Clip.SampleModel(s, t, Interpolation.Cubic, world);
                for (int j = 1; j < s.JointCount; ++j)
                {
                    int p = s.Parents[j];
                    AkVec3 r = Rotate(world[p].rotation, local[j].position);
                    worst = Math.Max(worst, Math.Abs(world[p].position.x + r.x - world[j].position.x));
                    worst = Math.Max(worst, Math.Abs(world[p].position.y + r.y - world[j].position.y));
                    worst = Math.Max(worst, Math.Abs(world[p].position.z + r.z - world[j].position.z));
                }
            }
            Near(worst, 0, 1e-5, "child = parent.rotation * offset + parent.position (metres)");
        }
    }

    [Test] static void mirror_z_goes_both_ways()
    {
        float s = (float)Math.Sqrt(0.5);
        AkXform[] x = new AkXform[1];
        x[0].position = new AkVec3(1, 2, 3);
        x[0].rotation = new AkQuat(0, s, 0, s); // +90 degrees about Y, right-handed
        AnimKitLibrary.MirrorZ(x);               // animkit -> Unity
        Near(x[0].position.z, -3, 0, "z mirrored");
        Near(x[0].rotation.y, -s, 0, "y of rotation negated");
        Near(x[0].rotation.w, s, 0, "w kept");
        AkVec3 v = Rotate(x[0].rotation, new AkVec3(1, 0, 0));
        Near(v.z, 1, 1e-6, "Unity: +X turns to +Z (mirror of right-handed -Z)");
        AnimKitLibrary.MirrorZ(x);               // Unity -> animkit
        Near(x[0].position.z, 3, 0, "back");
        Near(x[0].rotation.y, s, 0, "back");
    }

    [Test] static void units_are_detected_in_metres()
    {
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_02_01_walk.bvh")))
        {
            Near(bvh.Skeleton.MetresPerUnit, 0.056444, 1e-6, "CMU unit");
            True(bvh.Skeleton.RestHeight > 1.3f && bvh.Skeleton.RestHeight < 2.0f, "rest height in metres");
            string missing;
            int[] hum = bvh.Skeleton.Humanoid(null, out missing);
            True(missing == null, "humanoid complete");
            True(hum[(int)HumanoidSlot.LeftFoot] == bvh.Skeleton.Find("LeftFoot"), "left foot slot");
            True(bvh.Skeleton.Find("NoSuchJoint") == -1, "find missing");
            True(bvh.Clip.FrameCount == 344, "frames");
            True(bvh.Clip.Loop, "loop flag");
            bvh.Clip.Loop = false;
            True(!bvh.Clip.Loop, "loop flag cleared");
        }
    }

    [Test] static void bad_file_throws_with_line_number()
    {
        string path = Path.Combine(Path.GetTempPath(), "animkit_bad_" + Guid.NewGuid().ToString("N") + ".bvh");
        File.WriteAllText(path,
            "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n" +
            "  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 0 0 0 0 0\n0 0 zero 0 0 0\n");
        try
        {
            AnimKitException e = Throws<AnimKitException>(() => BvhFile.Load(path), "bad number");
            True(e.Status == AkStatus.Parse, "status Parse, got " + e.Status);
            True(e.Message.Contains("line 15"), "message names line 15: " + e.Message);
            Console.WriteLine("  message: " + e.Message);
        }
        finally { File.Delete(path); }
        AnimKitException io = Throws<AnimKitException>(() => BvhFile.Load("no/such/file.bvh"), "missing file");
        True(io.Status == AkStatus.Io, "status Io");
        AnimKitException mem = Throws<AnimKitException>(
            () => BvhFile.LoadText(System.Text.Encoding.UTF8.GetBytes("HIERARCHY\nROOT A\n{\n")), "truncated");
        True(mem.Message.Contains("line"), "truncated text names a line: " + mem.Message);
    }

    [Test] static void use_after_dispose_is_an_error_not_a_crash()
    {
        BvhFile bvh = BvhFile.Load(Mocap("cmu_09_01_run.bvh"));
        Skeleton s = bvh.Skeleton;
        AkXform[] world = new AkXform[s.JointCount];
        bvh.Clip.SampleModel(s, 0.5f, Interpolation.Linear, world);
        s.Dispose();
        AnimKitException e = Throws<AnimKitException>(() => bvh.Clip.SampleModel(s, 0.5f, Interpolation.Linear, world),
            "sampling with a disposed skeleton");
        True(e.Status == AkStatus.Handle, "status Handle");
        True(e.Message.Contains("destroyed"), "says destroyed: " + e.Message);
        e = Throws<AnimKitException>(() => s.Fk(world, new AkXform[s.JointCount]), "FK on a disposed skeleton");
        True(e.Message.Contains("destroyed"), "says destroyed: " + e.Message);
        // The raw ABI too: a stale handle, a null handle, a forged one.
        True(AnimKitNative.ak_plugin_destroy(s.Handle.Raw) == (int)AkStatus.Handle, "double destroy");
        AkSkeletonInfo info;
        True(AnimKitNative.ak_plugin_skeleton_info_get(IntPtr.Zero, out info) == (int)AkStatus.Handle, "null");
        True(AnimKitNative.ak_plugin_skeleton_info_get(new IntPtr(0x7fff1234), out info) == (int)AkStatus.Handle, "forged");
        bvh.Dispose(); // disposing twice is harmless
        bvh.Dispose();
    }

    [Test] static void buffers_too_small_throw()
    {
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_09_01_run.bvh")))
        {
            AnimKitException e = Throws<AnimKitException>(
                () => bvh.Clip.Sample(bvh.Skeleton, 0f, Interpolation.Step, new AkXform[3]), "short buffer");
            True(e.Status == AkStatus.InvalidArg && e.Message.Contains("38 joints"), e.Message);
        }
    }

    [Test] static void matrices_match_unity_memory_order()
    {
        AkXform[] x = new AkXform[1];
        float s = (float)Math.Sqrt(0.5);
        x[0].rotation = new AkQuat(0, 0, s, s); // +90 degrees about Z: X -> Y
        x[0].position = new AkVec3(4, 5, 6);
        AkMat4[] m = new AkMat4[1];
        AnimKitLibrary.ToMatrices(x, m);
        Near(m[0].m10, 1, 1e-6, "column 0 is the image of X = (0,1,0): m10");
        Near(m[0].m00, 0, 1e-6, "m00");
        Near(m[0].m03, 4, 0, "translation in column 3");
        Near(m[0].m13, 5, 0, "m13");
        Near(m[0].m23, 6, 0, "m23");
        Near(m[0].m33, 1, 0, "m33");
    }

    [Test] static void everything_destroyed_leaves_no_handles()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        int before = AnimKitLibrary.LiveHandles;
        var files = new List<BvhFile>();
        foreach (string f in new[] { "cmu_02_01_walk", "cmu_09_01_run", "arena_louise_stand_walk_cycle" })
            files.Add(BvhFile.Load(Mocap(f + ".bvh")));
        True(AnimKitLibrary.LiveHandles == before + 6, "6 new handles");
        foreach (BvhFile b in files) b.Dispose();
        True(AnimKitLibrary.LiveHandles == before, "all released");
        // Finalizers release what nobody disposed.
        Func<int> leak = () => { BvhFile.Load(Mocap("cmu_09_01_run.bvh")); return 0; };
        leak();
        GC.Collect();
        GC.WaitForPendingFinalizers();
        True(AnimKitLibrary.LiveHandles == before, "finalizers released leaked handles, live = " + AnimKitLibrary.LiveHandles);
    }

    static AkVec3 Sub(AkVec3 a, AkVec3 b) { return new AkVec3(a.x - b.x, a.y - b.y, a.z - b.z); }
    static double Len(AkVec3 a) { return Math.Sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }

    [Test] static void limb_ik_moves_the_foot_onto_a_target()
    {
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_02_01_walk.bvh")))
        {
            Skeleton s = bvh.Skeleton;
            string missing;
            int[] hum = s.Humanoid(null, out missing);
            AkXform[] local = new AkXform[s.JointCount], world = new AkXform[s.JointCount];
            bvh.Clip.Sample(s, 1.0f, Interpolation.Linear, local);
            s.Fk(local, world);
            int hip = hum[(int)HumanoidSlot.LeftUpperLeg], knee = hum[(int)HumanoidSlot.LeftLowerLeg],
                ankle = hum[(int)HumanoidSlot.LeftFoot];
            // Raise the foot 15 cm and move it 10 cm along Unity's +Z; knee toward a pole
            // 1 m in front of the knee along the same direction.
            AkVec3 foot = world[ankle].position;
            AkLimbIkParams p = IK.LimbDefaults();
            Near(p.weight, 1, 0, "default weight");
            p.upper = hip; p.middle = knee; p.end = ankle;
            p.target = new AkVec3(foot.x, foot.y + 0.15f, foot.z + 0.10f);
            p.usePole = 1;
            AkVec3 k = world[knee].position;
            p.pole = new AkVec3(k.x, k.y, k.z + 1f);
            double thigh = Len(Sub(world[knee].position, world[hip].position));
            double shin = Len(Sub(world[ankle].position, world[knee].position));
            AkIkResult r = s.LimbIk(ref p, local, world);
            True(r.reached == 1, "reached");
            Near(Len(Sub(world[ankle].position, p.target)), 0, 1e-3, "ankle on target (m)");
            Near(Len(Sub(world[knee].position, world[hip].position)), thigh, 1e-4, "thigh length kept");
            Near(Len(Sub(world[ankle].position, world[knee].position)), shin, 1e-4, "shin length kept");
            // The returned world pose is FK of the returned local pose.
            AkXform[] check = new AkXform[s.JointCount];
            s.Fk(local, check);
            Near(Len(Sub(check[ankle].position, world[ankle].position)), 0, 1e-5, "world = FK(local)");
            // Knee in front of the hip-ankle line, toward the pole (+Z).
            AkVec3 mid = new AkVec3((world[hip].position.x + world[ankle].position.x) / 2,
                (world[hip].position.y + world[ankle].position.y) / 2, (world[hip].position.z + world[ankle].position.z) / 2);
            True(world[knee].position.z - mid.z > 0.02f, "knee bends toward the pole (+Z), dz = " + (world[knee].position.z - mid.z));
            // Weight 0 leaves the pose exactly as it was.
            AkXform[] before = (AkXform[])local.Clone();
            p.weight = 0;
            s.LimbIk(ref p, local, world);
            for (int j = 0; j < s.JointCount; ++j)
                True(local[j].rotation.x == before[j].rotation.x && local[j].rotation.w == before[j].rotation.w, "weight 0 is identity");
            p.weight = 2;
            AnimKitException e = Throws<AnimKitException>(() => s.LimbIk(ref p, local, world), "weight 2");
            True(e.Message.Contains("weight"), e.Message);
        }
    }

    static double AngleBetween(AkVec3 a, AkVec3 b)
    {
        double c = (a.x * b.x + a.y * b.y + a.z * b.z) / (Len(a) * Len(b));
        return Math.Acos(Math.Max(-1, Math.Min(1, c)));
    }

    [Test] static void look_at_turns_the_head_onto_a_target()
    {
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_02_01_walk.bvh")))
        {
            Skeleton s = bvh.Skeleton;
            string missing;
            int[] hum = s.Humanoid(null, out missing);
            int[] chain = { hum[(int)HumanoidSlot.Spine], hum[(int)HumanoidSlot.Neck], hum[(int)HumanoidSlot.Head] };
            AkXform[] local = new AkXform[s.JointCount], world = new AkXform[s.JointCount];
            bvh.Clip.Sample(s, 0.8f, Interpolation.Linear, local);
            s.Fk(local, world);
            AkLookAtParams p = IK.LookAtDefaults();
            Near(p.forward.z, -1, 0, "default forward (0,0,-1): the C (0,0,1) mirrored");
            Near(p.weight, 1, 0, "default weight");
            int head = chain[2];
            // The head's current forward (local -Z in Unity's frame), turned 40 degrees to the
            // side and tilted down: a target 1.5 m away.
            AkVec3 f = Rotate(world[head].rotation, p.forward);
            double yaw = 40 * Math.PI / 180;
            AkVec3 dir = new AkVec3((float)(f.x * Math.Cos(yaw) + f.z * Math.Sin(yaw)), -0.3f,
                                    (float)(-f.x * Math.Sin(yaw) + f.z * Math.Cos(yaw)));
            AkVec3 h = world[head].position;
            p.target = new AkVec3(h.x + 1.5f * dir.x, h.y + 1.5f * dir.y, h.z + 1.5f * dir.z);
            double before = AngleBetween(Rotate(world[head].rotation, p.forward), Sub(p.target, h));
            AkIkResult r = s.LookAt(chain, null, ref p, local, world);
            double after = AngleBetween(Rotate(world[head].rotation, p.forward), Sub(p.target, world[head].position));
            Console.WriteLine("  head off target: {0:F1} deg before, {1:F4} deg after", before * 180 / Math.PI, after * 180 / Math.PI);
            True(before > 0.5, "target starts off to the side");
            Near(after, 0, 2e-3, "head looks at the target (rad)");
            True(r.reached == 1, "reached");
            // Joints outside the chain's subtree kept their pose (left foot).
            AkXform[] check = new AkXform[s.JointCount];
            bvh.Clip.Sample(s, 0.8f, Interpolation.Linear, check);
            int foot = hum[(int)HumanoidSlot.LeftFoot];
            True(check[foot].rotation.x == local[foot].rotation.x && check[foot].rotation.w == local[foot].rotation.w, "legs untouched");
            // Clamp 0.9: at most 18 degrees of turn.
            bvh.Clip.Sample(s, 0.8f, Interpolation.Linear, local);
            s.Fk(local, world);
            p.clampWeight = 0.9f;
            s.LookAt(chain, new float[] { 0.2f, 0.3f, 1f }, ref p, local, world);
            double clamped = AngleBetween(Rotate(world[head].rotation, p.forward), Sub(p.target, world[head].position));
            True(clamped > before - 18.5 * Math.PI / 180 && clamped < before, "clamped turn: " + clamped * 180 / Math.PI);
        }
    }

    // ---- the walker over ground computed here, in C# (the two-phase API) ----

    // Rolling ground in Unity's frame: y = 0.25 sin(0.5 x) + 0.2 cos(0.4 z), with its exact
    // normal normalize(-dy/dx, 1, -dy/dz).
    static float GroundY(float x, float z) { return 0.25f * (float)Math.Sin(0.5 * x) + 0.2f * (float)Math.Cos(0.4 * z); }
    static AkVec3 GroundNormal(float x, float z)
    {
        double dx = 0.125 * Math.Cos(0.5 * x), dz = -0.08 * Math.Sin(0.4 * z);
        double n = Math.Sqrt(dx * dx + 1 + dz * dz);
        return new AkVec3((float)(-dx / n), (float)(1 / n), (float)(-dz / n));
    }
    // What Physics.Raycast would answer for a downward ray over that ground.
    static AkGroundHit CastDown(AkRay r)
    {
        AkGroundHit h = new AkGroundHit();
        float y = GroundY(r.origin.x, r.origin.z);
        float d = r.origin.y - y;
        if (r.direction.y < -0.99f && d >= 0 && d <= r.maxDistance)
        {
            h.hit = 1;
            h.height = y;
            h.normal = GroundNormal(r.origin.x, r.origin.z);
        }
        return h;
    }

    [Test] static void walker_reaches_target_over_two_phase_ground()
    {
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_02_01_walk.bvh")))
        {
            AkCharacterParams p = Character.Defaults();
            Near(p.arrivalRadius, 0.3, 1e-6, "default arrival radius");
            Near(p.target.z, -5, 0, "default target is the C (0,0,5), mirrored");
            // Start at the origin, target 6 m away toward Unity's +X/+Z (a right-handed
            // slip would send the character toward -Z).
            p.start = new AkVec3(0, GroundY(0, 0), 0);
            p.target = new AkVec3(3.6f, 0, 4.8f);
            p.useController = 0;
            using (Character ch = new Character(bvh.Skeleton, bvh.Clip, null, p))
            {
                AkCharacterInfo info = ch.Info;
                True(info.jointCount == bvh.Skeleton.JointCount, "joint count");
                True(info.speed > 0.5f && info.speed < 2.5f, "walking speed " + info.speed + " m/s");
                // ABI 7: the capture begins and ends mid-stride, no captured start or stop
                // (0: none around the cycle); the struct's tail read where C wrote it
                True(info.start.use == 0 && info.stop.use == 0 && info.stop.firstFrame == -1 &&
                     info.stop.lastFrame == -1, "captured start " + info.start.use + ", stop " +
                     info.stop.use + " frames " + info.stop.firstFrame + ":" + info.stop.lastFrame);
                AkGroundHit[] hits = new AkGroundHit[AnimKitNative.CharacterMaxRays];
                AkXform[] world = new AkXform[info.jointCount], model = new AkXform[info.jointCount];
                AkXform[] local = new AkXform[info.jointCount];
                AkVec3 pos = p.start;
                const float dt = 1f / 60f;
                double worstStance = 0, facingDot = 0;
                int stanceSamples = 0, frames = 0, movingFrames = 0;
                AkCharacterState s = ch.State;
                for (; frames < 60 * 20 && s.stopped == 0; ++frames)
                {
                    AkVec3 move = ch.Begin(dt);                      // 1. what the animation wants
                    pos = new AkVec3(pos.x + move.x, 0, pos.z + move.z); // 2. "our controller"
                    pos.y = GroundY(pos.x, pos.z);
                    ch.SetPosition(pos);                             // 3. where it ended up
                    int nrays;
                    AkRay[] rays = ch.GroundRays(out nrays);         // 4. rays out ...
                    True(nrays == 7, "7 rays: centre, heels, landing points, toes");
                    for (int i = 0; i < nrays; ++i) hits[i] = CastDown(rays[i]);
                    ch.Finish(hits, nrays);                          // 5. ... hits back
                    s = ch.State;
                    double len = Math.Sqrt(move.x * move.x + move.z * move.z);
                    if (len > 1e-4)
                    {
                        facingDot += (s.facing.x * move.x + s.facing.z * move.z) / len;
                        ++movingFrames;
                    }
                    if (s.stanceLeft != 0) { worstStance = Math.Max(worstStance, Math.Abs(s.soleLeft.y - GroundY(s.soleLeft.x, s.soleLeft.z))); ++stanceSamples; }
                    if (s.stanceRight != 0) { worstStance = Math.Max(worstStance, Math.Abs(s.soleRight.y - GroundY(s.soleRight.x, s.soleRight.z))); ++stanceSamples; }
                }
                double dist = Math.Sqrt((pos.x - 3.6) * (pos.x - 3.6) + (pos.z - 4.8) * (pos.z - 4.8));
                Console.WriteLine("  stopped after {0:F2} s, {1:F2} m walked, {2:F2} m from the target; worst stance sole " +
                    "{3:F3} m off the ground over {4} samples; mean facing.direction {5:F3}", frames * dt, s.pathLength, dist,
                    worstStance, stanceSamples, facingDot / Math.Max(1, movingFrames));
                True(s.arrived == 1 && s.stopped == 1, "arrived and stopped");
                True(dist < 0.6, "ends near the target: " + dist);
                // The walk's measures over every frame, beside the cycle's own (issue 21).
                AkWalkSummary sum = ch.Summary;
                Console.WriteLine("  summary: {0} frames, deepest {1:F4} m, skate {2:F4} m/s, hips {3:F2}..{4:F2} g " +
                    "(source {5:F2}..{6:F2}), knee {7:F1} deg (source {8:F1}), drag {9:F3} m/s (source {10:F3})", sum.frames,
                    sum.deepestAnyPhase, sum.skate, sum.hipAccelMinG, sum.hipAccelMaxG, sum.sourceHipAccelMinG,
                    sum.sourceHipAccelMaxG, sum.kneePeakDeg, sum.sourceKneePeakDeg, sum.drag, sum.sourceDrag);
                True(sum.frames == frames, "summary frames " + sum.frames + " of " + frames);
                True(sum.deepestPlanted <= sum.deepestAnyPhase, "planted depth within any phase's");
                True(sum.skate < 0.01f && sum.maxSkate >= sum.skate, "planted feet still: " + sum.skate);
                True(sum.sourceHipAccelMinG < 0 && sum.sourceHipAccelMaxG > 0, "the cycle's hips move both ways");
                True(sum.kneePeakDeg > 0 && sum.kneePeakDeg <= Math.Max(sum.sourceKneePeakDeg, 75f) + 25f,
                    "knee " + sum.kneePeakDeg + " within max(source, 75) + 25 deg");
                True(sum.drag >= 0 && sum.sourceDrag >= 0.01f, "drag " + sum.drag + " beside its bound " + sum.sourceDrag);
                True(s.pathLength > 5.5 && s.pathLength < 9, "path length " + s.pathLength + " for a 6 m straight line");
                True(facingDot / movingFrames > 0.8, "walks facing its direction of travel (Unity frame)");
                Near(worstStance, 0, 0.03, "stance soles on the C# ground (m)");
                // The model-space pose placed by the character transform is the world pose.
                ch.Pose(local, model);
                ch.WorldPose(world);
                double worst = 0;
                for (int j = 0; j < world.Length; ++j)
                {
                    AkVec3 r = Rotate(s.rotation, model[j].position);
                    worst = Math.Max(worst, Math.Abs(r.x + s.position.x - world[j].position.x));
                    worst = Math.Max(worst, Math.Abs(r.y + s.position.y - world[j].position.y));
                    worst = Math.Max(worst, Math.Abs(r.z + s.position.z - world[j].position.z));
                }
                Near(worst, 0, 1e-4, "world = state transform * model");
                bvh.Skeleton.Fk(local, world);
                Near(Len(Sub(world[5].position, model[5].position)), 0, 1e-4, "model = FK(local)");
                // Facing = rotation * (0,0,-1): the BVH's +Z forward, mirrored.
                AkVec3 f = Rotate(s.rotation, new AkVec3(0, 0, -1));
                Near(Len(Sub(f, s.facing)), 0, 1e-5, "facing is rotation * -Z");
                // Errors: bad dt, short hit array.
                AnimKitException e = Throws<AnimKitException>(() => ch.Begin(0f), "dt 0");
                True(e.Message.Contains("dt"), e.Message);
                e = Throws<AnimKitException>(() => ch.Finish(new AkGroundHit[1], 1), "one hit");
                True(e.Status == AkStatus.InvalidArg, "short hits");
            }
        }
    }

    [Test] static void character_keeps_its_objects_alive_and_dies_cleanly()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        int before = AnimKitLibrary.LiveHandles;
        BvhFile bvh = BvhFile.Load(Mocap("cmu_07_01_walk.bvh"));
        AkCharacterParams p = Character.Defaults();
        Character ch = new Character(bvh.Skeleton, bvh.Clip, null, p);
        bvh.Dispose(); // the character holds its own references
        AkGroundHit[] hits = new AkGroundHit[AnimKitNative.CharacterMaxRays];
        for (int i = 0; i < 30; ++i)
        {
            ch.Begin(1f / 30f);
            int n;
            AkRay[] rays = ch.GroundRays(out n);
            for (int k = 0; k < n; ++k) { hits[k].hit = rays[k].origin.y >= 0 ? 1 : 0; hits[k].height = 0; hits[k].normal = new AkVec3(0, 1, 0); }
            ch.Finish(hits, n);
        }
        True(ch.State.pathLength > 0.5f, "walked on flat ground after its BVH handles were destroyed");
        ch.Dispose();
        True(AnimKitLibrary.LiveHandles == before, "no handles left");
        AnimKitException e = Throws<AnimKitException>(() => ch.Begin(0.1f), "use after dispose");
        True(e.Status == AkStatus.Handle && e.Message.Contains("character handle was destroyed"), e.Message);
        // A character from a destroyed skeleton is refused with the reason.
        e = Throws<AnimKitException>(() => new Character(bvh.Skeleton, bvh.Clip, null, p), "dead skeleton");
        True(e.Message.Contains("destroyed"), e.Message);
    }

    // Figures for docs/unity.md (not a test: timings depend on the machine).
    static int Bench()
    {
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_02_01_walk.bvh")))
        {
            Skeleton s = bvh.Skeleton;
            AkXform[] local = new AkXform[s.JointCount], world = new AkXform[s.JointCount];
            string missing;
            int[] hum = s.Humanoid(null, out missing);
            AkLimbIkParams p = IK.LimbDefaults();
            p.upper = hum[(int)HumanoidSlot.LeftUpperLeg]; p.middle = hum[(int)HumanoidSlot.LeftLowerLeg];
            p.end = hum[(int)HumanoidSlot.LeftFoot];
            const int N = 20000;
            for (int pass = 0; pass < 2; ++pass)
            {
                var sw = System.Diagnostics.Stopwatch.StartNew();
                for (int i = 0; i < N; ++i) bvh.Clip.SampleModel(s, i * 0.001f, Interpolation.Linear, world);
                double sample = sw.Elapsed.TotalMilliseconds * 1000.0 / N;
                sw.Restart();
                for (int i = 0; i < N; ++i) bvh.Clip.Sample(s, i * 0.001f, Interpolation.Cubic, local);
                double cubic = sw.Elapsed.TotalMilliseconds * 1000.0 / N;
                s.Fk(local, world);
                AkVec3 foot = world[p.end].position;
                p.target = new AkVec3(foot.x, foot.y + 0.1f, foot.z);
                sw.Restart();
                for (int i = 0; i < N; ++i) s.LimbIk(ref p, local, world);
                double ik = sw.Elapsed.TotalMilliseconds * 1000.0 / N;
                sw.Restart();
                for (int i = 0; i < N; ++i) AnimKitNative.ak_plugin_abi_version();
                double call = sw.Elapsed.TotalMilliseconds * 1000.0 / N;
                AkCharacterParams cp = Character.Defaults();
                cp.target = new AkVec3(0, 0, -200);
                cp.useController = 0;
                double step;
                using (Character ch = new Character(s, bvh.Clip, null, cp))
                {
                    AkGroundHit[] hits = new AkGroundHit[AnimKitNative.CharacterMaxRays];
                    AkXform[] model = new AkXform[s.JointCount];
                    const int F = 3000;
                    AkVec3 pos = new AkVec3(0, 0, 0);
                    sw.Restart();
                    for (int f = 0; f < F; ++f)
                    {
                        AkVec3 mv = ch.Begin(1f / 60f);
                        pos = new AkVec3(pos.x + mv.x, GroundY(pos.x, pos.z), pos.z + mv.z);
                        ch.SetPosition(pos);
                        int nr;
                        AkRay[] rays = ch.GroundRays(out nr);
                        for (int k = 0; k < nr; ++k) hits[k] = CastDown(rays[k]);
                        ch.Finish(hits, nr);
                        ch.Pose(local, model);
                    }
                    step = sw.Elapsed.TotalMilliseconds * 1000.0 / F;
                }
                if (pass == 1)
                    Console.WriteLine("character frame (begin, move, 7 rays cast in C#, finish, pose): {0:F2} us", step);
                if (pass == 1)
                    Console.WriteLine("{0} joints: SampleModel linear {1:F2} us, Sample cubic {2:F2} us, LimbIk {3:F2} us, " +
                        "empty P/Invoke {4:F3} us (per call, mono, median-free mean of {5})",
                        s.JointCount, sample, cubic, ik, call, N);
            }
        }
        return 0;
    }

    static int Main(string[] args)
    {
        var tests = new List<MethodInfo>();
        foreach (MethodInfo m in typeof(PluginTests).GetMethods(BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public))
            if (m.GetCustomAttributes(typeof(TestAttribute), false).Length > 0) tests.Add(m);
        if (args.Length == 1 && args[0] == "--bench") return Bench();
        if (args.Length == 1 && args[0] == "--list")
        {
            foreach (MethodInfo m in tests) Console.WriteLine(m.Name);
            return 0;
        }
        int failed = 0, ran = 0;
        foreach (MethodInfo m in tests)
        {
            if (args.Length > 0 && Array.IndexOf(args, m.Name) < 0) continue;
            ++ran;
            try
            {
                m.Invoke(null, null);
                Console.WriteLine("[ OK ] " + m.Name);
            }
            catch (TargetInvocationException e)
            {
                ++failed;
                Console.WriteLine("[FAIL] " + m.Name + ": " + e.InnerException.Message);
                Console.WriteLine(e.InnerException.StackTrace);
            }
        }
        if (ran == 0) { Console.WriteLine("no test matched: " + string.Join(" ", args)); return 2; }
        Console.WriteLine("{0} test(s), {1} failed", ran, failed);
        return failed == 0 ? 0 : 1;
    }
}
