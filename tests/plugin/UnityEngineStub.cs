// A stand-in for the small part of UnityEngine the animkit components use, so mcs can
// type-check Runtime/Components and the sample scripts without Unity, and mono can
// construct the components to compare their inspector defaults with the C defaults.
// Signatures follow Unity 2022.3's scripting API; bodies are minimal (math where tests use it).
// Test-only: never shipped in the package.
using System;
using System.Collections.Generic;

namespace UnityEngine
{
    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 zero { get { return new Vector3(0, 0, 0); } }
        public static Vector3 one { get { return new Vector3(1, 1, 1); } }
        public static Vector3 up { get { return new Vector3(0, 1, 0); } }
        public static Vector3 down { get { return new Vector3(0, -1, 0); } }
        public static Vector3 forward { get { return new Vector3(0, 0, 1); } }
        public static Vector3 right { get { return new Vector3(1, 0, 0); } }
        public float magnitude { get { return (float)Math.Sqrt(x * x + y * y + z * z); } }
        public float sqrMagnitude { get { return x * x + y * y + z * z; } }
        public Vector3 normalized { get { float m = magnitude; return m > 1e-5f ? this / m : zero; } }
        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static Vector3 operator -(Vector3 a) { return new Vector3(-a.x, -a.y, -a.z); }
        public static Vector3 operator *(Vector3 a, float d) { return new Vector3(a.x * d, a.y * d, a.z * d); }
        public static Vector3 operator *(float d, Vector3 a) { return a * d; }
        public static Vector3 operator /(Vector3 a, float d) { return new Vector3(a.x / d, a.y / d, a.z / d); }
        // Unity's: equal within 1e-5 m.
        public static bool operator ==(Vector3 a, Vector3 b) { return (a - b).sqrMagnitude < 9.99999944E-11f; }
        public static bool operator !=(Vector3 a, Vector3 b) { return !(a == b); }
        public override bool Equals(object o) { return o is Vector3 && x == ((Vector3)o).x && y == ((Vector3)o).y && z == ((Vector3)o).z; }
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2); }
        public static float Dot(Vector3 a, Vector3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
        public static Vector3 Cross(Vector3 a, Vector3 b) { return new Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
        public static float Distance(Vector3 a, Vector3 b) { return (a - b).magnitude; }
        public static Vector3 Lerp(Vector3 a, Vector3 b, float t) { return a + (b - a) * t; }
        public static Vector3 ProjectOnPlane(Vector3 v, Vector3 n) { return v - n * (Dot(v, n) / Dot(n, n)); }
        // Unity's: degrees between two directions (double here: the tests measure small angles).
        public static float Angle(Vector3 a, Vector3 b)
        {
            double d = Math.Sqrt((double)a.sqrMagnitude * b.sqrMagnitude);
            if (d < 1e-15) return 0f;
            double c = Math.Max(-1.0, Math.Min(1.0, ((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z) / d));
            return (float)(Math.Acos(c) * 180.0 / Math.PI);
        }
    }

    public struct Vector2
    {
        public float x, y;
        public Vector2(float x, float y) { this.x = x; this.y = y; }
        public static implicit operator Vector3(Vector2 v) { return new Vector3(v.x, v.y, 0f); }
    }

    public struct Quaternion
    {
        public float x, y, z, w;
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static Quaternion identity { get { return new Quaternion(0, 0, 0, 1); } }
        public static Quaternion operator *(Quaternion a, Quaternion b)
        {
            return new Quaternion(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }
        public static Vector3 operator *(Quaternion q, Vector3 v)
        {
            Vector3 u = new Vector3(q.x, q.y, q.z);
            Vector3 t = 2f * Vector3.Cross(u, v);
            return v + q.w * t + Vector3.Cross(u, t);
        }
        public static Quaternion Inverse(Quaternion q) { return new Quaternion(-q.x, -q.y, -q.z, q.w); }
        internal Quaternion Normalized()
        {
            float m = (float)Math.Sqrt(x * x + y * y + z * z + w * w);
            return new Quaternion(x / m, y / m, z / m, w / m);
        }
        public static Quaternion AngleAxis(float degrees, Vector3 axis)
        {
            Vector3 a = axis.normalized; float h = degrees * Mathf.Deg2Rad * 0.5f, s = (float)Math.Sin(h);
            return new Quaternion(a.x * s, a.y * s, a.z * s, (float)Math.Cos(h));
        }
        public static Quaternion Euler(float x, float y, float z) { return AngleAxis(y, Vector3.up) * AngleAxis(x, Vector3.right) * AngleAxis(z, Vector3.forward); }
        public static Quaternion LookRotation(Vector3 forward) { return LookRotation(forward, Vector3.up); }
        public static Quaternion LookRotation(Vector3 forward, Vector3 up) { return identity; }
        public static Quaternion FromToRotation(Vector3 from, Vector3 to) { return identity; }
        public static Quaternion Slerp(Quaternion a, Quaternion b, float t) { return t < 0.5f ? a : b; }
        public static Quaternion RotateTowards(Quaternion from, Quaternion to, float maxDegrees) { return to; }
        public static float Angle(Quaternion a, Quaternion b) { return 0f; }
        public Vector3 eulerAngles { get { return Vector3.zero; } }
    }

    public struct Matrix4x4
    {
        public float m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;
        public static Matrix4x4 operator *(Matrix4x4 a, Matrix4x4 b) { return a; } // type-check only
    }

    // Rendering, as far as the samples build a skinned character (type-check and run; nothing draws).
    public struct BoneWeight { public int boneIndex0, boneIndex1, boneIndex2, boneIndex3; public float weight0, weight1, weight2, weight3; }
    public class Mesh : Object
    {
        public Vector3[] vertices = new Vector3[0];
        public int[] triangles = new int[0];
        public BoneWeight[] boneWeights { get; set; }
        public Matrix4x4[] bindposes { get; set; }
        public void SetVertices(List<Vector3> v) { vertices = v.ToArray(); }
        public void SetTriangles(List<int> t, int submesh) { triangles = t.ToArray(); }
        public void RecalculateNormals() { }
        public void RecalculateBounds() { }
    }
    public class Shader : Object { public static Shader Find(string name) { return null; } }
    public class Material : Object { public Material(Shader s) { } public Color color { get; set; } }
    public class Renderer : Component { public Material sharedMaterial { get; set; } }
    public class SkinnedMeshRenderer : Renderer
    {
        public Mesh sharedMesh { get; set; }
        public Transform[] bones { get; set; }
        public Transform rootBone { get; set; }
        public bool updateWhenOffscreen { get; set; }
    }

    public struct Color
    {
        public float r, g, b, a;
        public Color(float r, float g, float b, float a = 1f) { this.r = r; this.g = g; this.b = b; this.a = a; }
        public static Color green { get { return new Color(0, 1, 0); } }
        public static Color red { get { return new Color(1, 0, 0); } }
        public static Color yellow { get { return new Color(1, 0.92f, 0.016f); } }
        public static Color cyan { get { return new Color(0, 1, 1); } }
    }

    public struct Ray
    {
        public Vector3 origin, direction;
        public Ray(Vector3 origin, Vector3 direction) { this.origin = origin; this.direction = direction; }
    }

    public struct RaycastHit
    {
        public Vector3 point { get; set; }
        public Vector3 normal { get; set; }
        public float distance { get; set; }
        public Collider collider { get { return null; } }
    }

    public struct LayerMask
    {
        public int value;
        public static implicit operator int(LayerMask m) { return m.value; }
        public static implicit operator LayerMask(int v) { LayerMask m; m.value = v; return m; }
    }

    public enum QueryTriggerInteraction { UseGlobal, Ignore, Collide }
    [Flags] public enum CollisionFlags { None = 0, Sides = 1, Above = 2, Below = 4 }
    public enum Space { World, Self }

    public static class Mathf
    {
        public const float Deg2Rad = (float)(Math.PI / 180.0);
        public const float Rad2Deg = (float)(180.0 / Math.PI);
        public const float PI = (float)Math.PI;
        public static float Clamp01(float v) { return v < 0 ? 0 : v > 1 ? 1 : v; }
        public static float Clamp(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }
        public static int Clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
        public static float Max(float a, float b) { return a > b ? a : b; }
        public static int Max(int a, int b) { return a > b ? a : b; }
        public static int RoundToInt(float f) { return (int)Math.Round(f); } // Unity: banker's rounding too
        public static float Min(float a, float b) { return a < b ? a : b; }
        public static float Abs(float a) { return Math.Abs(a); }
        public static float Sqrt(float a) { return (float)Math.Sqrt(a); }
        public static float Sin(float a) { return (float)Math.Sin(a); }
        public static float Cos(float a) { return (float)Math.Cos(a); }
        public static float MoveTowards(float a, float b, float d) { return Math.Abs(b - a) <= d ? b : a + Math.Sign(b - a) * d; }
        public static float Lerp(float a, float b, float t) { return a + (b - a) * Clamp01(t); }
        public static float Repeat(float t, float length) { return t - (float)Math.Floor(t / length) * length; }
        public static float Atan2(float y, float x) { return (float)Math.Atan2(y, x); }
    }

    public static class Time
    {
        static float s_dt = 1f / 60f;
        public static float deltaTime { get { return s_dt; } set { s_dt = value; } } // setter: tests only
        public static float time { get { return 0f; } }
    }

    public static class Debug
    {
        public static int ErrorCount; // tests only
        public static void Log(object m) { Console.WriteLine(m); }
        public static void LogWarning(object m) { Console.WriteLine(m); }
        public static void LogWarning(object m, Object context) { Console.WriteLine(m); }
        public static void LogError(object m) { ++ErrorCount; Console.Error.WriteLine(m); }
        public static void LogError(object m, Object context) { ++ErrorCount; Console.Error.WriteLine(m); }
        public static void LogException(Exception e, Object context) { Console.Error.WriteLine(e); }
        public static void DrawLine(Vector3 a, Vector3 b, Color c) { }
    }

    public static class Gizmos
    {
        public struct Line { public Vector3 a, b; public Color color; }
        public static readonly System.Collections.Generic.List<Line> Lines =
            new System.Collections.Generic.List<Line>(); // tests only: what was drawn
        public static Color color { get; set; }
        public static void DrawLine(Vector3 a, Vector3 b) { Lines.Add(new Line { a = a, b = b, color = color }); }
        public static void DrawWireSphere(Vector3 c, float r) { }
        public static void DrawSphere(Vector3 c, float r) { }
    }

    public static class Application
    {
        public static string streamingAssetsPath { get { return "StreamingAssets"; } }
        public static bool isPlaying { get { return false; } }
    }

    public delegate bool RaycastFn(Vector3 origin, Vector3 direction, float maxDistance, out RaycastHit hit);

    public static class Physics
    {
        public const int DefaultRaycastLayers = -5;
        public static RaycastFn TestRaycast; // tests only: the scene's colliders
        public static int RaycastCount;
        public static bool Raycast(Vector3 origin, Vector3 direction, out RaycastHit hitInfo, float maxDistance,
            int layerMask, QueryTriggerInteraction q)
        {
            ++RaycastCount;
            hitInfo = new RaycastHit();
            return TestRaycast != null && TestRaycast(origin, direction, maxDistance, out hitInfo);
        }
        public static bool Raycast(Ray ray, out RaycastHit hitInfo, float maxDistance, int layerMask)
        { hitInfo = new RaycastHit(); return false; }
        public static bool Raycast(Ray ray, out RaycastHit hitInfo)
        { hitInfo = new RaycastHit(); return false; }
    }

#if !AK_STUB_NO_LEGACY_INPUT // the Input System alone: Unity's Input class throws, so code must not use it
    public static class Input
    {
        public static Vector3 mousePosition { get { return Vector3.zero; } }
        public static bool GetMouseButtonDown(int button) { return false; }
    }
#endif

    public class Object
    {
        public virtual string name { get; set; }
        public static implicit operator bool(Object o) { return o != null; }
        public static void Destroy(Object o) { }
        public static void DestroyImmediate(Object o) { }
    }

    public class ScriptableObject : Object
    {
        public static T CreateInstance<T>() where T : ScriptableObject, new() { return new T(); }
    }

    public class TextAsset : Object
    {
        readonly byte[] m_bytes;
        public TextAsset() { m_bytes = new byte[0]; }
        public TextAsset(string text) { m_bytes = System.Text.Encoding.UTF8.GetBytes(text); }
        public TextAsset(byte[] bytes) { m_bytes = bytes; } // test helper (Unity builds them on import)
        public byte[] bytes { get { return m_bytes; } }
        public string text { get { return System.Text.Encoding.UTF8.GetString(m_bytes); } }
    }

    // A minimal GameObject/Component model so tests can run the components for real.
    public class GameObject : Object
    {
        internal readonly List<Component> components = new List<Component>();
        public GameObject(string name)
        {
            this.name = name;
            transform = new Transform();
            transform.owner = this;
            components.Add(transform);
        }
        public Transform transform { get; private set; }
        public int layer { get; set; }
        public T AddComponent<T>() where T : Component, new()
        {
            T c = new T();
            c.owner = this;
            components.Add(c);
            return c;
        }
        public T GetComponent<T>()
        {
            foreach (Component c in components) if (c is T) return (T)(object)c;
            return default(T);
        }
    }

    public class Component : Object
    {
        internal GameObject owner;
        Transform m_loose;
        public Transform transform
        {
            get
            {
                if (owner != null) return owner.transform;
                return m_loose ?? (m_loose = this as Transform ?? new Transform());
            }
        }
        public GameObject gameObject { get { return owner; } }
        public override string name { get { return owner != null ? owner.name : base.name; } set { if (owner != null) owner.name = value; else base.name = value; } }
        public T GetComponent<T>() { return owner != null ? owner.GetComponent<T>() : default(T); }
        public void GetComponents<T>(List<T> results)
        {
            results.Clear();
            if (owner == null) return;
            foreach (Component c in owner.components) if (c is T) results.Add((T)(object)c);
        }
        public T GetComponentInParent<T>() { return GetComponent<T>(); }
        public T[] GetComponentsInChildren<T>() { return new T[0]; }
    }

    public class Behaviour : Component
    {
        bool m_enabled = true;
        public bool enabled { get { return m_enabled; } set { m_enabled = value; } }
        public bool isActiveAndEnabled { get { return m_enabled; } }
    }
    public class MonoBehaviour : Behaviour { }
    public class Collider : Component { }

    public class CharacterController : Collider
    {
        /// <summary>Test hook: ground height under (x,z); the controller stands on it.</summary>
        public static Func<float, float, float> TestGround;
        bool m_grounded;
        public CollisionFlags Move(Vector3 motion)
        {
            Vector3 p = transform.position + motion;
            m_grounded = false;
            if (TestGround != null)
            {
                float g = TestGround(p.x, p.z);
                if (p.y <= g) { p.y = g; m_grounded = true; }
            }
            transform.position = p;
            return m_grounded ? CollisionFlags.Below : CollisionFlags.None;
        }
        public bool isGrounded { get { return m_grounded; } }
        public float height { get; set; }
        public float radius { get; set; }
        public float stepOffset { get; set; }
        public float slopeLimit { get; set; }
        public Vector3 center { get; set; }
    }

    public class Camera : Behaviour
    {
        public static Camera main { get { return null; } }
        public Ray ScreenPointToRay(Vector3 p) { return new Ray(); }
    }

    public class Terrain : Behaviour
    {
        public static Terrain activeTerrain { get { return null; } }
        public float SampleHeight(Vector3 worldPosition) { return 0f; }
    }

    // Unit scale only: world = parent.world * (localRotation, localPosition).
    public class Transform : Component
    {
        Vector3 m_localPosition;
        Quaternion m_localRotation = Quaternion.identity;
        Transform m_parent;
        readonly List<Transform> m_children = new List<Transform>();
        public Vector3 localPosition { get { return m_localPosition; } set { m_localPosition = value; } }
        public Quaternion localRotation { get { return m_localRotation; } set { m_localRotation = value; } }
        internal Quaternion rawRotation { get { return m_localRotation; } set { m_localRotation = value; } }
        /// <summary>A descendant by name or by path ("a/b/c"), or null.</summary>
        public Transform Find(string path)
        {
            Transform t = this;
            foreach (string part in path.Split('/'))
            {
                Transform next = null;
                for (int i = 0; i < t.childCount && next == null; ++i)
                    if (t.GetChild(i).name == part) next = t.GetChild(i);
                if (next == null) return null;
                t = next;
            }
            return t;
        }
        public Vector3 localScale { get; set; }
        public Vector3 position
        {
            get { return m_parent == null ? m_localPosition : m_parent.TransformPoint(m_localPosition); }
            set { m_localPosition = m_parent == null ? value : m_parent.InverseTransformPoint(value); }
        }
        public Quaternion rotation
        {
            get { return m_parent == null ? m_localRotation : m_parent.rotation * m_localRotation; }
            set { m_localRotation = m_parent == null ? value : Quaternion.Inverse(m_parent.rotation) * value; }
        }
        public Vector3 forward { get { return rotation * Vector3.forward; } }
        public Transform parent { get { return m_parent; } set { SetParent(value, true); } }
        public int childCount { get { return m_children.Count; } }
        public Transform GetChild(int i) { return m_children[i]; }
        public void SetParent(Transform p, bool worldPositionStays)
        {
            Vector3 wp = position;
            Quaternion wr = rotation;
            if (m_parent != null) m_parent.m_children.Remove(this);
            m_parent = p;
            if (p != null) p.m_children.Add(this);
            if (worldPositionStays) { position = wp; rotation = wr; }
        }
        public Vector3 TransformPoint(Vector3 p) { return rotation * p + position; }
        public Matrix4x4 worldToLocalMatrix { get { return new Matrix4x4(); } }
        public Matrix4x4 localToWorldMatrix { get { return new Matrix4x4(); } }
        public Vector3 InverseTransformPoint(Vector3 p) { return Quaternion.Inverse(rotation) * (p - position); }
        public Vector3 TransformDirection(Vector3 d) { return rotation * d; }
        public Vector3 InverseTransformDirection(Vector3 d) { return Quaternion.Inverse(rotation) * d; }
        public void SetPositionAndRotation(Vector3 p, Quaternion q) { position = p; rotation = q; }
    }

    // ---- attributes ----
    [AttributeUsage(AttributeTargets.Field)] public sealed class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public sealed class HideInInspector : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public sealed class TooltipAttribute : Attribute { public TooltipAttribute(string t) { } }
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true)] public sealed class HeaderAttribute : Attribute { public HeaderAttribute(string h) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class RangeAttribute : Attribute { public RangeAttribute(float min, float max) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class MinAttribute : Attribute { public MinAttribute(float min) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class AddComponentMenu : Attribute { public AddComponentMenu(string m) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class DisallowMultipleComponent : Attribute { }
    [AttributeUsage(AttributeTargets.Class)] public sealed class CreateAssetMenuAttribute : Attribute { public string menuName { get; set; } public string fileName { get; set; } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class DefaultExecutionOrder : Attribute { public DefaultExecutionOrder(int order) { } }
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)] public sealed class RequireComponent : Attribute { public RequireComponent(Type t) { } }
}
