"""cffi (API mode) build of animkit's Python extension: the C library's own sources compiled
into one module, its public headers (animkit.h) declared to cffi as the C preprocessor sees
them, so every ak_ function and struct is reachable with no hand-kept copy of the API."""
import glob
import os
import re
import subprocess
import tempfile

import cffi

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("ANIMKIT_SOURCE_DIR") or os.path.dirname(HERE)
INCLUDE = os.path.join(ROOT, "include")
SRC = os.path.join(ROOT, "src")
CC = os.environ.get("CC", "cc")

# Small helpers the Python layer needs that are loops over library calls (no new logic):
# world positions of many frames or times at once, so NumPy gets one buffer per call.
# Integer macros of the headers the bindings use (a macro vanishes in the preprocessed text;
# one the headers turn into an enum constant is declared there already).
MACROS = ("AK_IK_MAX_CHAIN", "AK_NAME_MAX", "AK_WALKER_RAY_COUNT")

HELPERS = r"""
int ak_py_frame_positions(const ak_skeleton *s, const ak_clip *c, const int32_t *frames,
                          int32_t count, float *out);
int ak_py_sample_positions(const ak_skeleton *s, const ak_clip *c, const float *times,
                           int32_t count, int32_t interp, float *out);
"""

HELPERS_SOURCE = r"""
#include <stdlib.h>
#include <string.h>
#include "animkit/animkit.h"
#include "animkit/scenario.h"

static int ak_py_positions(const ak_skeleton *s, const ak_clip *c, const int32_t *frames,
                           const float *times, int32_t count, int32_t interp, float *out)
{
    const int32_t J = s->joint_count;
    ak_xform *buf = (ak_xform *)malloc(sizeof(ak_xform) * 2 * (size_t)J);
    if (!buf) return AK_ERR_NOMEM;
    ak_xform *local = buf, *world = buf + J;
    for (int32_t i = 0; i < count; ++i) {
        if (frames) ak_clip_frame(c, s, frames[i], local);
        else ak_clip_sample(c, s, times[i], (ak_interp)interp, local);
        ak_fk(s, local, world);
        float *o = out + (size_t)i * (size_t)J * 3;
        for (int32_t j = 0; j < J; ++j) {
            o[3 * j] = world[j].translation.x;
            o[3 * j + 1] = world[j].translation.y;
            o[3 * j + 2] = world[j].translation.z;
        }
    }
    free(buf);
    return AK_OK;
}

int ak_py_frame_positions(const ak_skeleton *s, const ak_clip *c, const int32_t *frames,
                          int32_t count, float *out)
{
    return ak_py_positions(s, c, frames, NULL, count, 0, out);
}

int ak_py_sample_positions(const ak_skeleton *s, const ak_clip *c, const float *times,
                           int32_t count, int32_t interp, float *out)
{
    return ak_py_positions(s, c, NULL, times, count, interp, out);
}
"""


def public_declarations():
    """animkit.h and scenario.h run through the preprocessor: stdint/stddef stubbed (cffi knows the
    fixed-width types) and GCC attributes erased, which cffi's parser does not read."""
    with tempfile.TemporaryDirectory() as stub:
        for name in ("stdint.h", "stddef.h"):
            open(os.path.join(stub, name), "w").close()
        # libanimkit (animkit.h) and libanimkit_scenario (scenario.h: the walk scenario and
        # its flag table, which the Python walker uses); both are compiled into the module.
        both = os.path.join(stub, "both.h")
        with open(both, "w") as f:
            f.write('#include "animkit/animkit.h"\n#include "animkit/scenario.h"\n')
        return subprocess.check_output(
            [CC, "-E", "-P", "-nostdinc", "-I", stub, "-I", INCLUDE, "-D__attribute__(x)=",
             both], text=True)


def library_sources():
    # Every library folder (what CMakeLists.txt globs): all of src/ but the Unity plugin.
    files = sorted(p for p in glob.glob(os.path.join(SRC, "*", "*.c"))
                   if os.path.basename(os.path.dirname(p)) != "plugin")
    if not files:
        raise RuntimeError("animkit C sources not found under %s (set ANIMKIT_SOURCE_DIR)" % SRC)
    return files


def statements(text):
    """Top-level C statements (split at ';' outside braces)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if ch == ";" and depth == 0:
            out.append(text[start:i + 1].strip())
            start = i + 1
    return out


def defined_only(declarations, sources):
    """Drops declared functions no library source defines (a header ahead of its code), so the
    module still loads; says which."""
    code = "\n".join(open(p, encoding="utf-8", errors="replace").read() for p in sources)
    kept = []
    for st in statements(declarations):
        m = re.search(r"(\w+)\s*\(", st)
        if m and not st.startswith("typedef") and "{" not in st:
            name = m.group(1)
            if not re.search(r"\b%s\s*\([^;{}]*\)\s*\{" % re.escape(name), code):
                print("animkit_build: %s is declared but not defined; not bound" % name)
                continue
        kept.append(st)
    return "\n".join(kept) + "\n"


ffibuilder = cffi.FFI()
DECLARATIONS = defined_only(public_declarations(), library_sources())
ffibuilder.cdef(DECLARATIONS + HELPERS + "".join(
    "#define %s ...\n" % m for m in MACROS if not re.search(r"\b%s\b" % m, DECLARATIONS)))
ffibuilder.set_source(
    "animkit._animkit", HELPERS_SOURCE,
    sources=library_sources(),
    include_dirs=[INCLUDE, SRC],
    define_macros=[("AK_BUILDING", "1")],
    extra_compile_args=["-O2", "-fvisibility=hidden"],
    libraries=["m"])

if __name__ == "__main__":
    ffibuilder.compile(verbose=False)
