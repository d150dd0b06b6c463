// A stand-in for the few Input System (com.unity.inputsystem) types the sample uses, so the
// sample compiles as Unity compiles it when Active Input Handling is "Input System Package".
// Signatures follow Input System 1.x. Test-only: never shipped in the package.
using UnityEngine;

namespace UnityEngine.InputSystem.Controls
{
    public class ButtonControl { public bool wasPressedThisFrame { get { return false; } } }
    public class Vector2Control { public Vector2 ReadValue() { return new Vector2(0f, 0f); } }
}

namespace UnityEngine.InputSystem
{
    using UnityEngine.InputSystem.Controls;
    public class Mouse
    {
        public static Mouse current { get { return null; } }
        public ButtonControl leftButton { get { return new ButtonControl(); } }
        public Vector2Control position { get { return new Vector2Control(); } }
    }
}
