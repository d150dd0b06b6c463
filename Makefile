# animkit — the two commands a user needs are `make demo` and `make test`; both install
# what the build needs first (`make deps`). Everything else wraps CMake.

BUILD      ?= build
SAN_BUILD  ?= build-san
FUZZ_BUILD ?= build-fuzz
JOBS       ?= 2
FUZZ_SECONDS ?= 120
FUZZ_RUNS ?= 250000
FUZZ_SEED ?= 1
CMAKE_FLAGS ?=

# Debian packages the build, tests, viewer, plugin and benchmarks use.
DEB_PACKAGES = build-essential cmake pkg-config libcglm-dev libcmocka-dev \
  libglfw3-dev libepoxy-dev libstb-dev libcjson-dev clang libclang-rt-14-dev \
  xvfb xauth libgl1-mesa-dri libegl-mesa0 ffmpeg mono-mcs mono-runtime mingw-w64 \
  liborocos-kdl-dev nodejs npm wine wine64 nunit-console libnunit-cil-dev locales
# A peer project's BVH corpus (tests/io/test_bvh_assimp.c).
DEB_PACKAGES += assimp-testmodels
# FBX in the CLI and viewer (tools/common/fbx_assimp.c; built only where pkg-config finds assimp).
DEB_PACKAGES += libassimp-dev
# The static checks make test runs (lint_clang_format, lint_clang_tidy, lint_cppcheck_library):
# without these packages the tests skip themselves, so a fresh machine installs them.
DEB_PACKAGES += clang-format clang-tidy cppcheck
# The web page and its browser test (make web, tests/web).
DEB_PACKAGES += emscripten chromium
# The Python package and its tests (make python, make test-python).
DEB_PACKAGES += python3-dev python3-venv python3-setuptools python3-cffi python3-numpy \
  python3-pytest python3-distributed python3-pandas


.PHONY: fuzz
.PHONY: dist
.PHONY: python test-python test-docs
.PHONY: all deps build test test-fast test-san test-fuzz demo bench bench-gltf soak pictures install clean format format-check valgrind lint \
  unity-plugins web

all: build

deps:
	@sh tools/deps.sh $(DEB_PACKAGES)

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

# Every test: the release build, the sanitizer build (ASan + UBSan) and short fuzz runs.
test: deps
	$(MAKE) test-fuzz
	$(MAKE) test-san
	$(MAKE) test-fast
	$(MAKE) test-python
	$(MAKE) test-docs

# The Python package (python/): cffi extension built from the library sources, installed
# into a venv that also sees Debian's numpy, cffi, pytest and dask (--system-site-packages).
# Debian's python3 explicitly: a `python3` earlier on PATH (pyenv) lacks those packages.
SYSTEM_PYTHON ?= /usr/bin/python3
PY_VENV ?= $(BUILD)/python-venv
PY_SOURCES = $(wildcard python/setup.py python/animkit_build.py python/animkit/*.py src/*/*.c \
  src/*/*.h include/animkit/*.h)
python: $(PY_VENV)/.installed
$(PY_VENV)/.installed: $(PY_SOURCES)
	$(SYSTEM_PYTHON) -m venv --system-site-packages $(PY_VENV)
	$(PY_VENV)/bin/python -m pip install --quiet --no-index --no-build-isolation ./python
	touch $@

# pytest exits 5 when it collected nothing: that is a broken test set-up, not a pass.
test-python: python
	@$(PY_VENV)/bin/python -m pytest -q -p no:cacheprovider python/tests; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "test-python: pytest ran no tests" >&2; exit 1; fi; exit $$rc

# Every shell command of README.md and docs/*.md (and their ```python blocks) run as printed,
# from a fresh copy of the tree, against the figures the text quotes; what is not run is
# listed by name with its reason (tools/doc_test.py). About 30 s.
test-docs: build python
	@$(SYSTEM_PYTHON) tools/doc_test.py $(BUILD)

test-fast: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

test-san:
	cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DAK_SANITIZE=ON -DAK_NO_SIMD=ON -DAK_BUILD_VIEWER=OFF -DAK_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(SAN_BUILD) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(SAN_BUILD) --output-on-failure -j$(JOBS) -LE nosan

test-fuzz:
	@if command -v clang >/dev/null 2>&1; then \
	  cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DAK_BUILD_FUZZ=ON -DAK_BUILD_TESTS=OFF -DAK_BUILD_VIEWER=OFF -DAK_BUILD_BENCH=OFF \
	    -DAK_BUILD_TOOLS=OFF -DAK_FUZZ_SECONDS=$(FUZZ_SECONDS) -DAK_FUZZ_RUNS=$(FUZZ_RUNS) \
	    -DAK_FUZZ_SEED=$(FUZZ_SEED) && \
	  cmake --build $(FUZZ_BUILD) -j$(JOBS) && \
	  ctest --test-dir $(FUZZ_BUILD) --output-on-failure; \
	else echo "clang not found: fuzz runs skipped (make deps installs it)"; fi

# Exploratory fuzzing: random seed, 10 minutes a target (override FUZZ_SECONDS).
fuzz:
	$(MAKE) test-fuzz FUZZ_SEED=0 FUZZ_RUNS=-1 FUZZ_SECONDS=600

# The main job: the walker demo on the built-in terrain with the built-in clip.
demo: deps build
	@sh tools/demo.sh $(BUILD)

# The web page and the JavaScript module: the library and the viewer in WebAssembly
# (Debian's emscripten) -> web/dist/ (animkit.js, animkit.wasm, index.html, clips/).
# Serve it with `python3 -m http.server -d web/dist`. See docs/web.md.
web:
	@sh web/build.sh $(BUILD)/web-wasm

# make bench also measures the hot paths (bench/hotpath_bench.c) and the walker's frame cost
# against BENCH_BEFORE (main before the restructuring of issue 11, two-point feet and
# starts/stops) back to back; `make bench BENCH_BEFORE=` skips that.
BENCH_BEFORE ?= 8496397
bench: build
	@sh tools/bench.sh $(BUILD)
	@if [ -n "$(BENCH_BEFORE)" ]; then sh tools/bench_compare.sh $(BENCH_BEFORE) $(BUILD); fi

# glTF read time: the library's reader (WebAssembly, the JS module's loadClip) against three.js's
# GLTFLoader on the same GLBs in one node process (bench/gltf_read.mjs; docs/web.md).
bench-gltf: build web
	@sh tests/io/npm_install.sh tests/io/package.json $(BUILD)/gltf-validator three
	@node bench/gltf_read.mjs $(BUILD)

soak: build
	@sh tools/soak.sh $(BUILD)

pictures: build
	@sh tools/pictures.sh $(BUILD)

# Valgrind memcheck over the C test suite (slow; not part of make test): every cmocka test
# runs under memcheck with leak checking, in a debug build on the scalar paths.
VALGRIND_BUILD ?= build-valgrind
valgrind:
	cmake -S . -B $(VALGRIND_BUILD) -DCMAKE_BUILD_TYPE=Debug -DAK_NO_SIMD=ON -DAK_BUILD_VIEWER=OFF \
	  -DAK_BUILD_BENCH=OFF "-DAK_TEST_LAUNCHER=valgrind;--error-exitcode=99;--leak-check=full;--errors-for-leak-kinds=definite;--quiet" $(CMAKE_FLAGS)
	cmake --build $(VALGRIND_BUILD) -j$(JOBS)
	AK_UNDER_VALGRIND=1 ctest --test-dir $(VALGRIND_BUILD) -LE nosan --output-on-failure -j$(JOBS)

# Static checks: the module layers of docs/architecture.md (no include points up; no circle of
# files and no call up, tools/check_file_graph.py), no function over 80 lines
# (tools/check_function_length.py), the clang-format check, and clang-tidy on every src/ file
# (tools/check_tidy.py; .clang-tidy: every warning is an error). make test runs them as ctests.
lint: build
	sh tools/check_layers.sh
	$(SYSTEM_PYTHON) tools/check_file_graph.py
	$(SYSTEM_PYTHON) tools/check_function_length.py
	$(MAKE) --no-print-directory format-check
	$(SYSTEM_PYTHON) tools/check_tidy.py $(BUILD) -j$(JOBS)

# Every C file and header formatted as .clang-format says (clang-format 14).
format-check:
	sh tools/check_format.sh

install: build
	cmake --install $(BUILD)

# A source tarball of the committed tree (HEAD): it builds and tests on its own, test data and
# licences included (tools/check_clean_clone.sh --dist proves it).
DIST_DIR ?= dist
dist:
	@v=$$(sh tools/version.sh); mkdir -p $(DIST_DIR) && \
	  git archive --format=tar.gz --prefix=animkit-$$v/ -o $(DIST_DIR)/animkit-$$v.tar.gz HEAD && \
	  echo "wrote $(DIST_DIR)/animkit-$$v.tar.gz"

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD) $(VALGRIND_BUILD)

# The Unity package's native plugins, rebuilt from source (Release) and copied into
# unity/com.animkit.animation/Runtime/Plugins/x86_64/ (Linux .so; Windows .dll when mingw-w64
# is installed). Commit the result; `make test` checks the committed binaries export exactly
# the ABI in include/animkit/plugin.h.
UNITY_PLUGIN_DIR = unity/com.animkit.animation/Runtime/Plugins/x86_64
unity-plugins: build
	cmake --build $(BUILD) --target animkit_unity -j$(JOBS)
	strip --strip-unneeded -o $(UNITY_PLUGIN_DIR)/libanimkit_unity.so $(BUILD)/lib/libanimkit_unity.so
	@if [ -f $(BUILD)/plugin-windows/bin/animkit_unity.dll ]; then \
	  cp $(BUILD)/plugin-windows/bin/animkit_unity.dll $(UNITY_PLUGIN_DIR)/animkit_unity.dll; \
	else echo "mingw-w64 not found: animkit_unity.dll not rebuilt (make deps installs it)"; fi
	@ls -l $(UNITY_PLUGIN_DIR)
