// The MonoBehaviours compiled against the UnityEngine stub (UnityEngineStub.cs) and run with
// mono: their inspector defaults must be the C library's defaults as the plugin reports them.
using System;
using AnimKit;
using AnimKit.Unity;

static class ComponentTests
{
    static int failures;
    static void Check(bool ok, string what)
    {
        Console.WriteLine((ok ? "[ OK ] " : "[FAIL] ") + what);
        if (!ok) ++failures;
    }
    static bool Same(float a, float b) { return Math.Abs(a - b) <= 1e-7f * Math.Max(1f, Math.Abs(b)); }

    static int Main()
    {
        AkLimbIkParams limb = IK.LimbDefaults();
        LimbIK l = new LimbIK();
        Check(Same(l.weight, limb.weight), "LimbIK.weight = C default " + limb.weight);
        Check(Same(l.softLimit, limb.softLimit), "LimbIK.softLimit = C default " + limb.softLimit);
        Check(Same(l.tolerance, limb.tolerance), "LimbIK.tolerance = C default " + limb.tolerance);
        Check(l.matchTargetRotation == (limb.matchEndRotation != 0), "LimbIK.matchTargetRotation = C default");
        AkLookAtParams look = IK.LookAtDefaults();
        LookAtIK la = new LookAtIK();
        Check(Same(la.weight, look.weight), "LookAtIK.weight = C default " + look.weight);
        Check(Same(la.clampWeight, look.clampWeight), "LookAtIK.clampWeight = C default " + look.clampWeight);
        Check(Same(la.tolerance, look.tolerance), "LookAtIK.tolerance = C default " + look.tolerance);
        Check(Same(la.forwardAxis.x, look.forward.x) && Same(la.forwardAxis.y, look.forward.y) && Same(la.forwardAxis.z, look.forward.z),
              "LookAtIK.forwardAxis = C default (mirrored) (" + look.forward.x + "," + look.forward.y + "," + look.forward.z + ")");
        Check(Same(la.upAxis.y, look.up.y) && Same(la.upAxis.z, look.up.z), "LookAtIK.upAxis = C default");
        Check(Same(la.worldUp.y, look.worldUp.y), "LookAtIK.worldUp = C default");

        Console.WriteLine(failures == 0 ? "all component defaults match" : failures + " mismatches");
        return failures == 0 ? 0 : 1;
    }
}
