// C# tests of the crowd (Runtime/Core/Crowd.cs): characters' phases as ranges on the thread
// pool give the bits of stepping each character in turn.
using System;
using AnimKit;

static partial class PluginTests
{
    static Character[] CrowdOf(BvhFile bvh, int n)
    {
        var all = new Character[n];
        for (int i = 0; i < n; ++i)
        {
            AkCharacterParams p = Character.Defaults();
            p.start = new AkVec3(0.5f * i, GroundY(0.5f * i, 0), 0);
            p.target = new AkVec3(0.5f * i + 1.5f * (float)Math.Cos(i), 0, 3.0f + (float)Math.Sin(i));
            p.useController = 0;
            all[i] = new Character(bvh.Skeleton, bvh.Clip, null, p);
        }
        return all;
    }

    // The engine's part between Begin and Finish: move on the C# ground, cast the rays.
    static int EngineStep(Character ch, AkVec3 move, AkGroundHit[] hits)
    {
        AkVec3 pos = ch.State.position;
        pos = new AkVec3(pos.x + move.x, 0, pos.z + move.z);
        pos.y = GroundY(pos.x, pos.z);
        ch.SetPosition(pos);
        int nrays;
        AkRay[] rays = ch.GroundRays(out nrays);
        for (int i = 0; i < nrays; ++i) hits[i] = CastDown(rays[i]);
        return nrays;
    }

    [Test] static void crowd_on_three_threads_steps_like_each_character_in_turn()
    {
        const int n = 7;
        const float dt = 1f / 60f;
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_02_01_walk.bvh")))
        {
            Character[] alone = CrowdOf(bvh, n), pooled = CrowdOf(bvh, n);
            var crowd = new Crowd(pooled, 3);
            var moves = new AkVec3[n];
            var counts = new int[n];
            var hits = new AkGroundHit[n][];
            var hitsAlone = new AkGroundHit[AnimKitNative.CharacterMaxRays];
            for (int i = 0; i < n; ++i) hits[i] = new AkGroundHit[AnimKitNative.CharacterMaxRays];
            for (int f = 0; f < 180; ++f)
            {
                foreach (Character ch in alone)
                {
                    AkVec3 move = ch.Begin(dt);
                    ch.Finish(hitsAlone, EngineStep(ch, move, hitsAlone));
                }
                crowd.Begin(dt, moves);                                      // on the pool
                for (int i = 0; i < n; ++i) counts[i] = EngineStep(pooled[i], moves[i], hits[i]); // main thread
                crowd.Finish(hits, counts);                                  // on the pool
            }
            var world = new AkXform[n][];
            for (int i = 0; i < n; ++i) world[i] = new AkXform[bvh.Skeleton.JointCount];
            crowd.WorldPoses(world);
            var one = new AkXform[bvh.Skeleton.JointCount];
            double walked = double.MaxValue;
            for (int i = 0; i < n; ++i)
            {
                alone[i].WorldPose(one);
                for (int j = 0; j < one.Length; ++j)
                    True(one[j].Equals(world[i][j]), "character " + i + " joint " + j + ": same bits");
                AkCharacterState s = alone[i].State;
                walked = Math.Min(walked, s.pathLength);
            }
            True(walked > 1.0, "every character walked over 1 m in 3 s: least " + walked);
            foreach (Character ch in alone) ch.Dispose();
            foreach (Character ch in pooled) ch.Dispose();
        }
    }

    [Test] static void crowd_splits_evenly_and_reports_a_range_error_as_thrown()
    {
        int b, e;
        Crowd.Range(10, 3, 0, out b, out e); True(b == 0 && e == 3, "part 0 of 10/3: " + b + ".." + e);
        Crowd.Range(10, 3, 2, out b, out e); True(b == 6 && e == 10, "part 2 of 10/3: " + b + ".." + e);
        Crowd.Range(2, 4, 1, out b, out e); True(b == 0 && e == 1, "part 1 of 2/4: " + b + ".." + e);
        using (BvhFile bvh = BvhFile.Load(Mocap("cmu_02_01_walk.bvh")))
        {
            Character[] all = CrowdOf(bvh, 4);
            var crowd = new Crowd(all, 2);
            var hits = new AkGroundHit[4][];
            for (int i = 0; i < 4; ++i) hits[i] = new AkGroundHit[1];
            bool threw = false;
            try { crowd.Finish(hits, new int[] { 1, 1, 1, 1 }); }
            catch (AnimKitException x) { threw = x.Message.Contains("hits need 7 entries (one per ray), got 1"); }
            True(threw, "the plugin's refusal in a range reaches the caller as itself");
            threw = false;
            try { new Crowd(all, 0); }
            catch (ArgumentException x) { threw = x.Message.Contains("threads must be >= 1"); }
            True(threw, "threads 0 refused");
            foreach (Character ch in all) ch.Dispose();
        }
    }
}
