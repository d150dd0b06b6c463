// The C# bindings (AnimKit.Core) against the native plugin, on TestBvh: what a Unity user
// relies on first — reading, units, the right-handed -> left-handed conversion, errors with
// line numbers, disposal, limb IK with the worked numbers of the project's SPEC. Runs in
// Unity's Test Runner (Edit Mode or Play Mode) and, in the project's own `make test`, under
// Mono with NUnit against the real libanimkit_unity.so.
using System;
using NUnit.Framework;

namespace AnimKit.Tests
{
    [TestFixture]
    public class CoreTests
    {
        const float Metre = 1e-5f; // float precision on metre-sized positions

        static AkXform[] WorldAt(BvhFile bvh, int frame)
        {
            AkXform[] world = new AkXform[bvh.Skeleton.JointCount];
            bvh.Clip.SampleModel(bvh.Skeleton, (frame + 0.5f) * bvh.Clip.FrameTime, Interpolation.Step, world);
            return world;
        }

        static void Near(float ex, float ey, float ez, AkVec3 v, float tol, string what)
        {
            Assert.AreEqual(ex, v.x, tol, what + ".x");
            Assert.AreEqual(ey, v.y, tol, what + ".y");
            Assert.AreEqual(ez, v.z, tol, what + ".z");
        }

        [Test]
        public void Reads_joints_end_sites_and_frames()
        {
            using (BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes))
            {
                Assert.AreEqual(TestBvh.JointCount, bvh.Skeleton.JointCount);
                Assert.AreEqual(TestBvh.FrameCount, bvh.Clip.FrameCount);
                Assert.AreEqual(TestBvh.FrameTime, bvh.Clip.FrameTime, 1e-7);
                Assert.AreEqual("Head_end", bvh.Skeleton.JointNames[3], "End Sites are tips named <parent>_end");
                Assert.AreEqual(2, bvh.Skeleton.Parents[3]);
                Assert.AreEqual(-1, bvh.Skeleton.Parents[0]);
                Assert.AreEqual(5, bvh.Skeleton.Find("LeftLeg"));
                Assert.AreEqual(-1, bvh.Skeleton.Find("NoSuchJoint"));
            }
        }

        [Test]
        public void Centimetres_are_detected_and_lengths_are_metres()
        {
            using (BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes))
            {
                Assert.AreEqual(TestBvh.MetresPerUnit, bvh.Skeleton.MetresPerUnit, 1e-7);
                AkXform[] world = WorldAt(bvh, 0);
                // Head tip 170 cm above the floor; foot tips on it.
                Assert.AreEqual(1.7f, world[3].position.y, Metre);
                Assert.AreEqual(0f, world[6].position.y, Metre);
            }
        }

        [Test]
        public void Positions_mirror_z_into_unity_frame()
        {
            using (BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes))
            {
                // The file puts the hips at (10, 90, 30) cm, right-handed: Unity sees z negated.
                Near(0.1f, 0.9f, -0.3f, WorldAt(bvh, 0)[0].position, Metre, "hips");
                // Left hip 10 cm along +x: x is shared by both frames.
                Near(0.2f, 0.9f, -0.3f, WorldAt(bvh, 0)[4].position, Metre, "left hip");
            }
        }

        [Test]
        public void A_right_handed_turn_is_the_same_motion_in_unity()
        {
            using (BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes))
            {
                // Frame 1: hips +90 deg about Y in BVH's right-handed frame turn +x to -z, so the
                // left hip moves from (20, 90, 30) to (10, 90, 20) cm; in Unity z is negated.
                Near(0.1f, 0.9f, -0.2f, WorldAt(bvh, 1)[4].position, Metre, "left hip after the turn");
                // The same rotation as a Unity quaternion: -90 deg about Unity's Y,
                // (x, y, z, w) = (0, -sin 45, 0, cos 45).
                AkQuat q = WorldAt(bvh, 1)[0].rotation;
                float s = (float)Math.Sqrt(0.5);
                Assert.AreEqual(-s, q.y * Math.Sign(q.w), 1e-6, "y");
                Assert.AreEqual(s, Math.Abs(q.w), 1e-6, "w");
                // Frame 2: left knee +90 deg about X: the shin (0,-45,0) turns to (0,0,-45) in BVH.
                Near(0.2f, 0.45f, 0.15f, WorldAt(bvh, 2)[6].position, Metre, "left foot tip, knee bent");
            }
        }

        [Test]
        public void A_bad_value_throws_with_its_line_number()
        {
            string bad = TestBvh.Text.Replace("0 0 0  0 90 0", "0 0 0  0 ninety 0");
            int line = bad.Substring(0, bad.IndexOf("ninety", StringComparison.Ordinal)).Split('\n').Length;
            AnimKitException e = Assert.Throws<AnimKitException>(
                () => BvhFile.LoadText(System.Text.Encoding.UTF8.GetBytes(bad)));
            Assert.AreEqual(AkStatus.Parse, e.Status);
            StringAssert.Contains("line " + line + ":", e.Message);
        }

        [Test]
        public void A_disposed_object_is_refused_not_a_crash()
        {
            BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes);
            Skeleton skeleton = bvh.Skeleton;
            bvh.Dispose();
            AnimKitException e = Assert.Throws<AnimKitException>(() => skeleton.RestPose(new AkXform[TestBvh.JointCount]));
            Assert.AreEqual(AkStatus.Handle, e.Status);
        }

        [Test]
        public void Empty_arrays_are_an_argument_error()
        {
            using (BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes))
                Assert.Throws<ArgumentException>(() => bvh.Clip.Sample(bvh.Skeleton, 0f, Interpolation.Linear, new AkXform[0]));
        }

        [Test]
        public void Limb_ik_bends_the_knee_by_the_law_of_cosines()
        {
            // SPEC worked numbers: l1 = 0.6, l2 = 0.5, target 0.9 m from the hip -> interior
            // knee angle acos((l1^2 + l2^2 - d^2) / (2 l1 l2)) = 109.47 deg.
            string leg = "HIERARCHY\nROOT Hip\n{\n OFFSET 0 100 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n" +
                         " JOINT Knee\n {\n  OFFSET 0 -60 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n" +
                         "  JOINT Ankle\n  {\n   OFFSET 0 -50 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n" +
                         "   End Site\n   {\n    OFFSET 0 0 10\n   }\n  }\n }\n}\n" +
                         "MOTION\nFrames: 1\nFrame Time: 0.1\n0 100 0 0 0 0 0 0 0 0 0 0\n";
            using (BvhFile bvh = BvhFile.LoadText(System.Text.Encoding.UTF8.GetBytes(leg), 0.01f))
            {
                int n = bvh.Skeleton.JointCount;
                AkXform[] local = new AkXform[n], world = new AkXform[n];
                bvh.Clip.Sample(bvh.Skeleton, 0f, Interpolation.Linear, local);
                bvh.Skeleton.Fk(local, world);
                AkLimbIkParams p = IK.LimbDefaults();
                p.upper = 0; p.middle = 1; p.end = 2;
                p.target = new AkVec3(0f, 1f - 0.9f, 0f); // straight below the hip, 0.9 m
                p.usePole = 1;
                p.pole = new AkVec3(0f, 0.5f, -1f);       // knee forward (Unity -z)
                AkIkResult r = bvh.Skeleton.LimbIk(ref p, local, world);
                Assert.AreEqual(1, r.reached);
                Near(0f, 0.1f, 0f, world[2].position, 1e-4f, "ankle on the target");
                AkVec3 h = world[0].position, k = world[1].position, a = world[2].position;
                double ux = h.x - k.x, uy = h.y - k.y, uz = h.z - k.z, vx = a.x - k.x, vy = a.y - k.y, vz = a.z - k.z;
                double cos = (ux * vx + uy * vy + uz * vz) /
                             (Math.Sqrt(ux * ux + uy * uy + uz * uz) * Math.Sqrt(vx * vx + vy * vy + vz * vz));
                Assert.AreEqual(109.47, Math.Acos(cos) * 180.0 / Math.PI, 0.01, "interior knee angle");
                Assert.Less(k.z, -0.1f, "the knee bends toward the pole");
            }
        }
    }
}
