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

        AkCharacterParams ch = Character.Defaults();
        GuideWalker gw = new GuideWalker();
        Check(Same(gw.arrivalRadius, ch.arrivalRadius), "GuideWalker.arrivalRadius = C default " + ch.arrivalRadius);
        Check(gw.continuousSteering == (ch.steer != 0), "GuideWalker.continuousSteering = C default");
        Check(Same(gw.maxTurnRate, ch.maxTurnRate), "GuideWalker.maxTurnRate = C default " + ch.maxTurnRate);
        Check(Same(gw.groundSmoothing, ch.groundSmoothing), "GuideWalker.groundSmoothing = C default " + ch.groundSmoothing);
        Check(Same(gw.idleFade, ch.idleFade), "GuideWalker.idleFade = C default " + ch.idleFade);
        Check((int)gw.interpolation == ch.interp, "GuideWalker.interpolation = C default");
        Check(gw.cycleStart == ch.cycleStart && gw.cycleEnd == ch.cycleEnd, "GuideWalker.cycleStart/End = C default");
        Check(Same(gw.seamBlend, ch.seamBlend), "GuideWalker.seamBlend = C default " + ch.seamBlend);

        FootIK fk = new FootIK();
        Check(Same(fk.weight, ch.footWeight), "FootIK.weight = C default " + ch.footWeight);
        Check(Same(fk.maxTiltDeg, ch.maxTiltDeg), "FootIK.maxTiltDeg = C default " + ch.maxTiltDeg);
        Check(Same(fk.maxHipDrop, ch.maxHipDrop), "FootIK.maxHipDrop = C default " + ch.maxHipDrop);
        Check(Same(fk.hipDropRate, ch.hipDropRate), "FootIK.hipDropRate = C default " + ch.hipDropRate);
        Check(Same(fk.poleDistance, ch.poleDistance), "FootIK.poleDistance = C default " + ch.poleDistance);
        Check(fk.lockFeet == (ch.lockFeet != 0), "FootIK.lockFeet = C default");
        Check((ch.footIk != 0), "foot IK is on by default in C (a FootIK component turns it on)");

        Console.WriteLine(failures == 0 ? "all component defaults match" : failures + " mismatches");
        return failures == 0 ? 0 : 1;
    }
}
