// What a walker drives when no BvhPlayer is on its GameObject: the character's own Transforms
// (TransformRig: a humanoid Animator's avatar bones, else every Transform under rigRoot, mapped
// once, rest pose = pose at mapping) and the clips it walks with, on that rig: clips baked from
// the user's AnimationClips (AnimKitClip assets) or BVH captures retargeted onto the rig (the
// HumanoidRetargeter's method, stance feet kept planted).
using System.Collections.Generic;
using UnityEngine;

namespace AnimKit.Unity
{
    /// <summary>The inspector settings of a walker's own rig (no BvhPlayer).</summary>
    [System.Serializable]
    public class OwnRigSettings
    {
        [Tooltip("The walk clip baked from your AnimationClip (Assets > animkit > Bake AnimationClip).")]
        public AnimKitClip walkClip;
        [Tooltip("Or a BVH capture, retargeted onto this character at Start.")]
        public TextAsset walkBvh;
        [Tooltip("Optional idle, crossfaded in on arrival: a baked clip ...")]
        public AnimKitClip idleClip;
        [Tooltip("... or a BVH capture.")]
        public TextAsset idleBvh;
        [Tooltip("A humanoid Animator: its avatar's bones are the rig. Empty: the Animator on this GameObject, if any. " +
                 "Its controller should not move the character (turn Apply Root Motion off): the walker does.")]
        public Animator humanoid;
        [Tooltip("Generic rigs: every Transform under this is a joint (humanoid joints found by name). Empty: this Transform.")]
        public Transform rigRoot;
        [Tooltip("Humanoid map fixes for names the library does not know: \"left_foot=Foot_L,right_foot=Foot_R\".")]
        public string rigOverrides = "";
    }

    /// <summary>A walker's own rig and its clips (all owned here).</summary>
    public sealed class OwnRig : System.IDisposable
    {
        public TransformRig Rig { get; private set; }
        public Clip Walk { get; private set; }
        public Clip Idle { get; private set; }
        readonly List<System.IDisposable> m_owned = new List<System.IDisposable>();

        /// <summary>Maps the rig under `space` and builds the clips. Throws AnimKitException
        /// (a clip missing, a capture the plugin refuses, a rig it cannot map).</summary>
        public OwnRig(Transform space, OwnRigSettings s)
        {
            try
            {
                Animator a = s.humanoid != null ? s.humanoid : space.GetComponent<Animator>();
                Rig = new TransformRig(space, a, s.rigRoot, s.rigOverrides);
                m_owned.Add(Rig);
                Walk = ClipOf(s.walkClip, s.walkBvh, true);
                if (Walk == null)
                    throw new AnimKitException(AkStatus.InvalidArg, "set a walk clip (baked AnimKitClip) or a walk BVH");
                Idle = ClipOf(s.idleClip, s.idleBvh, true);
            }
            catch
            {
                Dispose();
                throw;
            }
        }

        /// <summary>A baked clip or a capture on this rig (null when both are empty).</summary>
        public Clip ClipOf(AnimKitClip baked, TextAsset bvh, bool loop)
        {
            Clip c = null;
            if (baked != null)
            {
                c = baked.ToClip(Rig);
            }
            else if (bvh != null)
            {
                BvhFile capture = BvhFile.LoadText(bvh.bytes, 0f, loop);
                m_owned.Add(capture);
                AkRetargetParams p = Retarget.Defaults();
                p.contacts = 1;
                c = Retarget.RetargetClip(capture.Skeleton, capture.Clip, Rig.Skeleton, p);
            }
            if (c == null) return null;
            m_owned.Add(c);
            c.Loop = loop;
            return c;
        }

        public void Dispose()
        {
            for (int i = m_owned.Count - 1; i >= 0; --i) m_owned[i].Dispose();
            m_owned.Clear();
            Rig = null;
            Walk = null;
            Idle = null;
        }
    }
}
