// A small humanoid BVH in centimetres, written for the tests so they need no files: hips 90 cm
// above the floor, legs 45 + 45 cm, spine 50 cm, head 20 cm; three frames at 10 frames per
// second. Frame 0 is the rest pose placed at (10, 90, 30); frame 1 turns the hips +90 degrees
// about Y (right-handed, BVH's frame); frame 2 bends the left knee 90 degrees about X.
namespace AnimKit.Tests
{
    public static class TestBvh
    {
        public const float MetresPerUnit = 0.01f;
        public const int JointCount = 9; // 6 joints + 3 End Sites kept as tips
        public const int FrameCount = 3;
        public const float FrameTime = 0.1f;

        public const string Text =
            "HIERARCHY\n" +
            "ROOT Hips\n{\n  OFFSET 0 0 0\n" +
            "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n" +
            "  JOINT Spine\n  {\n    OFFSET 0 10 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n" +
            "    JOINT Head\n    {\n      OFFSET 0 50 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n" +
            "      End Site\n      {\n        OFFSET 0 20 0\n      }\n    }\n  }\n" +
            "  JOINT LeftUpLeg\n  {\n    OFFSET 10 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n" +
            "    JOINT LeftLeg\n    {\n      OFFSET 0 -45 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n" +
            "      End Site\n      {\n        OFFSET 0 -45 0\n      }\n    }\n  }\n" +
            "  JOINT RightUpLeg\n  {\n    OFFSET -10 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n" +
            "    End Site\n    {\n      OFFSET 0 -90 0\n    }\n  }\n}\n" +
            "MOTION\nFrames: 3\nFrame Time: 0.1\n" +
            // Hips(6) Spine(3) Head(3) LeftUpLeg(3) LeftLeg(3) RightUpLeg(3)
            "10 90 30 0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0\n" +
            "10 90 30 0 0 90  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0\n" +
            "10 90 30 0 0 0  0 0 0  0 0 0  0 0 0  0 90 0  0 0 0\n";

        public static byte[] Bytes { get { return System.Text.Encoding.UTF8.GetBytes(Text); } }
    }
}
