// Conversions between the plugin's blittable structs and UnityEngine types. The layouts are
// identical (x,y,z / x,y,z,w floats) and both sides are already in Unity's frame, so these
// are plain field copies; the right-handed <-> left-handed conversion happened in the plugin.
using UnityEngine;

namespace AnimKit.Unity
{
    public static class AnimKitUnity
    {
        public static Vector3 ToUnity(this AkVec3 v) { return new Vector3(v.x, v.y, v.z); }
        public static Quaternion ToUnity(this AkQuat q) { return new Quaternion(q.x, q.y, q.z, q.w); }
        public static AkVec3 ToAk(this Vector3 v) { return new AkVec3(v.x, v.y, v.z); }
        public static AkQuat ToAk(this Quaternion q) { return new AkQuat(q.x, q.y, q.z, q.w); }

        /// <summary>Finds a Transform named `name` under `root` (depth-first, root included).</summary>
        public static Transform FindDeep(Transform root, string name)
        {
            if (root.name == name) return root;
            for (int i = 0; i < root.childCount; ++i)
            {
                Transform t = FindDeep(root.GetChild(i), name);
                if (t != null) return t;
            }
            return null;
        }
    }
}
