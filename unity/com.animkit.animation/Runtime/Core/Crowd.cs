// animkit — many Characters a frame on every core (issue 25). The phases that touch no engine
// state (Begin, Finish, Pose) run as ranges of characters on the .NET thread pool; the
// engine's own work (controller moves, ray casts) stays between them on the main thread. The
// plugin's handle table takes calls on distinct handles in parallel and characters share
// nothing, so a crowd gives the same bits as stepping each character in turn. No UnityEngine.
using System;
using System.Threading.Tasks;

namespace AnimKit
{
    public sealed class Crowd
    {
        public readonly Character[] Characters;
        /// <summary>How many ranges each phase is split into (1: all on the calling thread).</summary>
        public readonly int Threads;

        public Crowd(Character[] characters, int threads)
        {
            if (characters == null) throw new ArgumentNullException("characters");
            for (int i = 0; i < characters.Length; ++i)
                if (characters[i] == null) throw new ArgumentException("characters[" + i + "] is null");
            if (threads < 1) throw new ArgumentException("threads must be >= 1, not " + threads);
            Characters = characters;
            Threads = threads;
        }

        /// <summary>The part-th of `parts` contiguous ranges of [0, count), sizes within one of
        /// each other: [begin, end).</summary>
        public static void Range(int count, int parts, int part, out int begin, out int end)
        {
            if (count < 0 || parts < 1 || part < 0 || part >= parts)
                throw new ArgumentException("Range(" + count + ", " + parts + ", " + part + ")");
            long b = (long)count * part / parts, e = (long)count * (part + 1) / parts;
            begin = (int)b;
            end = (int)e;
        }

        /// <summary>Runs body(begin, end) for each of Threads ranges of the characters, on the
        /// thread pool when Threads > 1; the first exception a range threw is rethrown as it was.</summary>
        public void ForEachRange(Action<int, int> body)
        {
            int n = Characters.Length, parts = Math.Max(1, Math.Min(Threads, n));
            if (parts == 1)
            {
                body(0, n);
                return;
            }
            try
            {
                Parallel.For(0, parts, new ParallelOptions { MaxDegreeOfParallelism = parts }, part =>
                {
                    int b, e;
                    Range(n, parts, part, out b, out e);
                    body(b, e);
                });
            }
            catch (AggregateException all)
            {
                throw all.Flatten().InnerExceptions[0];
            }
        }

        /// <summary>Phase 1 for every character: moves[i] is character i's wanted displacement.</summary>
        public void Begin(float dt, AkVec3[] moves)
        {
            if (moves == null || moves.Length < Characters.Length)
                throw new ArgumentException("moves needs one entry per character");
            ForEachRange((b, e) =>
            {
                for (int i = b; i < e; ++i) moves[i] = Characters[i].Begin(dt);
            });
        }

        /// <summary>Phase 4 for every character: hits[i][0..counts[i]) answer character i's rays
        /// (GroundRays, in the same order).</summary>
        public void Finish(AkGroundHit[][] hits, int[] counts)
        {
            if (hits == null || counts == null || hits.Length < Characters.Length || counts.Length < Characters.Length)
                throw new ArgumentException("hits and counts need one entry per character");
            ForEachRange((b, e) =>
            {
                for (int i = b; i < e; ++i) Characters[i].Finish(hits[i], counts[i]);
            });
        }

        /// <summary>Every character's world pose: world[i] gets character i's joints.</summary>
        public void WorldPoses(AkXform[][] world)
        {
            if (world == null || world.Length < Characters.Length)
                throw new ArgumentException("world needs one array per character");
            ForEachRange((b, e) =>
            {
                for (int i = b; i < e; ++i) Characters[i].WorldPose(world[i]);
            });
        }
    }
}
