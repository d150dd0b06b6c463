// What a walker drives when no BvhPlayer is on its GameObject: the character's own Transforms
// (TransformRig: a humanoid Animator's avatar bones, else every Transform under rigRoot, mapped
// once, rest pose = pose at mapping) and the clips it walks with, on that rig: clips baked from
// the user's AnimationClips (AnimKitClip assets) or BVH captures retargeted onto the rig (the
// HumanoidRetargeter's method, stance feet kept planted; or the capture of a Humanoid
// Retargeter on the same GameObject, with its settings).
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
        [Tooltip("Or a BVH capture, retargeted onto this character at Start. Empty, with a Humanoid Retargeter " +
                 "on this GameObject: its capture and settings (the retargeter then stops playing it itself).")]
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
        HumanoidRetargeter m_retarget; // the capture's source, when a Humanoid Retargeter gave it

        /// <summary>Maps the rig under `space` and builds the clips. Throws AnimKitException
        /// (a clip missing, a capture the plugin refuses, a rig it cannot map).</summary>
        public OwnRig(Transform space, OwnRigSettings s)
        {
            try
            {
                Animator a = s.humanoid != null ? s.humanoid : space.GetComponent<Animator>();
                Rig = new TransformRig(space, a, s.rigRoot, s.rigOverrides);
                m_owned.Add(Rig);
                HumanoidRetargeter retargeter = space.GetComponent<HumanoidRetargeter>();
                if (s.walkClip == null && s.walkBvh == null && retargeter != null && retargeter.bvhAsset != null)
                {
                    // The retargeter's capture, retargeted with its settings, walked here.
                    m_retarget = retargeter;
                    retargeter.enabled = false;
                }
                Walk = ClipOf(s.walkClip, m_retarget != null ? m_retarget.bvhAsset : s.walkBvh, true);
                if (Walk == null)
                    throw new AnimKitException(AkStatus.InvalidArg,
                        "set a walk clip (baked AnimKitClip), a walk BVH, or a Humanoid Retargeter's capture");
                Idle = ClipOf(s.idleClip, s.idleBvh, true);
            }
            catch
            {
                Dispose();
                throw;
            }
        }

        // The library's character frame faces its -Z (a BVH's +Z, mirrored); a Unity GameObject
        // faces +Z. On the own rig a walker turns its GameObject by the library's rotation and a
        // half turn about up (so the GameObject's forward is where the character walks) and the
        // pose's roots by the half turn back (FromLibrary).
        static readonly Quaternion k_halfTurn = Quaternion.AngleAxis(180f, Vector3.up);

        /// <summary>The GameObject rotation for the library's character rotation.</summary>
        public static Quaternion GameObjectRotation(Quaternion library) { return library * k_halfTurn; }

        /// <summary>The walker's pose (Rig.Local in the library's character frame) into the
        /// GameObject's frame (see GameObjectRotation), Model updated.</summary>
        public void FromLibrary()
        {
            Quaternion back = Quaternion.Inverse(k_halfTurn);
            int[] parents = Rig.Skeleton.Parents;
            for (int j = 0; j < parents.Length; ++j)
            {
                if (parents[j] >= 0) continue;
                Rig.Local[j].rotation = (back * Rig.Local[j].rotation.ToUnity()).ToAk();
                Rig.Local[j].position = (back * Rig.Local[j].position.ToUnity()).ToAk();
            }
            Rig.Skeleton.Fk(Rig.Local, Rig.Model);
        }

        /// <summary>True when a walker on `go` will walk a Humanoid Retargeter's capture: no
        /// BvhPlayer, and the walker's own rig names no walk clip or BVH.</summary>
        public static bool WalkerTakesRetargeterCapture(GameObject go)
        {
            if (go.GetComponent<BvhPlayer>() != null) return false;
            GuideWalker g = go.GetComponent<GuideWalker>();
            MotionMatchingWalker m = go.GetComponent<MotionMatchingWalker>();
            OwnRigSettings s = g != null ? g.ownRig : m != null ? m.ownRig : null;
            return s != null && s.walkClip == null && s.walkBvh == null;
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
                string sourceMap = null, targetMap = null;
                if (m_retarget != null && bvh == m_retarget.bvhAsset)
                {
                    p.contacts = m_retarget.keepFeetPlanted ? 1 : 0;
                    p.pinHands = m_retarget.pinHands ? 1 : 0;
                    p.scale = m_retarget.scale;
                    p.referenceFrame = m_retarget.referenceFrame;
                    if (m_retarget.sourceOverrides.Length > 0) sourceMap = m_retarget.sourceOverrides;
                    if (m_retarget.targetOverrides.Length > 0) targetMap = m_retarget.targetOverrides;
                }
                c = Retarget.RetargetClip(capture.Skeleton, capture.Clip, Rig.Skeleton, p, sourceMap, targetMap);
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
