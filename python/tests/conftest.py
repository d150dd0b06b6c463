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
