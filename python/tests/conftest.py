import glob
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def mocap_dir():
    d = os.environ.get("AK_MOCAP_DIR") or os.path.join(REPO, "tests", "data", "mocap")
    if not os.path.isfile(os.path.join(d, "PROVENANCE.md")):
        pytest.fail("mocap folder %s is missing (tests/data/mocap ships with the repository; "
                    "or set AK_MOCAP_DIR)" % d)
    return d


def mocap_files():
    d = os.environ.get("AK_MOCAP_DIR") or os.path.join(REPO, "tests", "data", "mocap")
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*.bvh")))


@pytest.fixture
def mocap():
    d = mocap_dir()
    return lambda name: os.path.join(d, name)


def still_top_variant(text):
    """The capture with a joint_Root that never moves above its Hips (another studio's shape):
    the hierarchy wrapped in one more ROOT, six zeros in front of every frame line."""
    head, motion = text.split("MOTION", 1)
    body = head.split("ROOT Hips", 1)[1]
    head = ("HIERARCHY\nROOT joint_Root\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition "
            "Zposition Zrotation Yrotation Xrotation\nJOINT Hips" + body + "}\n")
    lines = motion.strip("\n").split("\n")
    frames = [line for line in lines[2:] if line.strip()]
    return head + "MOTION\n" + "\n".join(lines[:2] + ["0 0 0 0 0 0 " + f for f in frames]) + "\n"


def z_up_variant(text):
    """The capture as a Z-up tool writes it: the whole file turned +90 degrees about X (+Y to
    +Z), the motion unchanged. Offsets and positions (x, y, z) -> (x, -z, y); a joint's
    "Zrotation Yrotation Xrotation" keys (a, b, c) turn to "Yrotation Zrotation Xrotation"
    (-a, b, c), as R Rz(a) R^-1 = Ry(-a), R Ry(b) R^-1 = Rz(b), R Rx(c) R^-1 = Rx(c)."""
    head, motion = text.split("MOTION", 1)
    channels, out = [], []
    for line in head.split("\n"):
        words = line.split()
        if words and words[0] == "OFFSET":
            x, y, z = (float(w) for w in words[1:4])
            line = line[:len(line) - len(line.lstrip())] + "OFFSET %.9g %.9g %.9g" % (x, -z, y)
        elif words and words[0] == "CHANNELS":
            names = words[2:]
            channels.append(names)
            rot = [n for n in names if n.endswith("rotation")]
            assert rot in ([], ["Zrotation", "Yrotation", "Xrotation"]), names
            line = line.replace("Zrotation Yrotation", "Yrotation Zrotation")
        out.append(line)
    lines = motion.strip("\n").split("\n")
    frames = []
    for frame in (f for f in lines[2:] if f.strip()):
        values, new, k = [float(v) for v in frame.split()], [], 0
        for names in channels:
            v = dict(zip(names, values[k:k + len(names)]))
            k += len(names)
            if "Xposition" in v:
                new += [v["Xposition"], -v["Zposition"], v["Yposition"]]
            if "Zrotation" in v:
                new += [-v["Zrotation"], v["Yrotation"], v["Xrotation"]]
        frames.append(" ".join("%.9g" % x for x in new))
    return "\n".join(out) + "MOTION\n" + "\n".join(lines[:2] + frames) + "\n"
