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
