// Base of the components that edit the pose a BvhPlayer (or GuideWalker) produced, before
// it is written to the Transforms: LimbIK, LookAtIK, FootIK. The player calls them every
// frame in `order` (lowest first), after sampling and FK, on its model-space pose arrays
// (model space = the player's own Transform space, Unity frame).
using UnityEngine;

namespace AnimKit.Unity
{
    [RequireComponent(typeof(BvhPlayer))]
    public abstract class PoseModifier : MonoBehaviour
    {
        [Tooltip("Modifiers run lowest first: foot IK before arm IK before look-at is a good order.")]
        public int order = 0;

        /// <summary>Edit player.Local and keep player.World = FK(player.Local) (the plugin's
        /// solvers do both).</summary>
        public abstract void ModifyPose(BvhPlayer player);

        /// <summary>A world-space point in the player's model space.</summary>
        protected static AkVec3 ToModel(BvhPlayer player, Vector3 worldPoint)
        {
            return player.transform.InverseTransformPoint(worldPoint).ToAk();
        }

        /// <summary>A world-space rotation in the player's model space.</summary>
        protected static AkQuat ToModel(BvhPlayer player, Quaternion worldRotation)
        {
            return (Quaternion.Inverse(player.transform.rotation) * worldRotation).ToAk();
        }
    }
}
