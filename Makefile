# The two commands a new user types: `make demo` and `make test`.
# Both install missing Debian packages first (scripts/install-deps.sh), then build with CMake presets.

PRESET ?= release
BUILD_DIR := build/$(PRESET)

.PHONY: all deps configure build test demo images bench bench-peers fuzz sanitize web-sources web clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET)

test: build
	@ctest --preset $(PRESET)

# The showcase: its summary, a video, a strobe picture of its first 1.2 s and its energy plot.
# Only the command line is built for it; `make test` (or `make build`) builds the rest.
demo: configure
	@cmake --build --preset $(PRESET) --target tinkertoy_app
	@mkdir -p out
	@$(BUILD_DIR)/tinkertoy run scenes/showcase.json
	@$(BUILD_DIR)/tinkertoy render scenes/showcase.json -o out/showcase.mp4
	@$(BUILD_DIR)/tinkertoy render scenes/showcase.json -o out/showcase.png --time 1.2 --exposures 6 --span 1.2 --trails
	@$(BUILD_DIR)/tinkertoy plot scenes/showcase.json -o out/showcase-energy.svg

# The pictures in docs/images, made again by the programs (scripts/make-images.sh).
images: build
	@scripts/make-images.sh $(BUILD_DIR)

bench: build
	@$(BUILD_DIR)/tinkertoy-bench

# Tinkertoy beside Box2D, Chipmunk, ODE, Bullet and MuJoCo: one table (bench/RESULTS.md).
# The peers are installed first and found when the build is configured again. OpenBLAS is told
# before it loads not to start its idle thread pool, whose spinning would count in the CPU times
# (Tinkertoy keeps its BLAS calls on one thread anyway: src/solvers/single_thread_scope.hpp).
bench-peers: deps
	@scripts/install-peers.sh
	@cmake --preset $(PRESET) >/dev/null
	@cmake --build --preset $(PRESET)
	@OPENBLAS_NUM_THREADS=1 $(BUILD_DIR)/tinkertoy-peers $(PEERS_FLAGS)

# The browser build's own sources: Dear ImGui, SuiteSparse and METIS as Debian ships them,
# fetched once through a private apt state into build/web-sources (fetch-sources.sh says how).
web-sources:
	@scripts/install-deps.sh --web
	@scripts/web/fetch-sources.sh build/web-sources

# The Studio as a web page: build/web is a static site (python3 -m http.server -d build/web;
# docs/web.md). Also the engine as a node program, which `make test` holds to the native build's
# trajectories, and playwright-core (npm, pinned in tests/web/browser) for the page's tests in
# Chromium. NODE_PATH: Debian's emscripten finds its JavaScript modules there.
web: web-sources
	@NODE_PATH=/usr/share/nodejs emcmake cmake -S web -B build/web -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@NODE_PATH=/usr/share/nodejs cmake --build build/web
	@mkdir -p build/web-node && cp tests/web/browser/package.json tests/web/browser/package-lock.json build/web-node/
	@cd build/web-node && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@echo "web: build/web is ready: python3 -m http.server -d build/web, then open http://localhost:8000"

# The libFuzzer targets (fuzz/), built with clang and the sanitizers, each run FUZZ_SECONDS
# (default 60): `make fuzz FUZZ_SECONDS=600`. scripts/run-fuzzers.sh says where findings go.
FUZZ_SECONDS ?= 60
fuzz: deps
	@scripts/install-deps.sh --fuzz
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz
	@scripts/run-fuzzers.sh build/fuzz $(FUZZ_SECONDS)

# The test suite under AddressSanitizer and UBSan (the debug preset; scripts/sanitizer-suite.sh).
sanitize: deps
	@scripts/sanitizer-suite.sh

clean:
	rm -rf build
