# The two commands a new user types: `make demo` and `make test`.
# Both install missing Debian packages first (scripts/install-deps.sh), then build with CMake presets.

PRESET ?= release
BUILD_DIR := build/$(PRESET)

.PHONY: all deps configure build test demo bench clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET)

test: build
	@ctest --preset $(PRESET)

demo: build
	@$(BUILD_DIR)/tinkertoy run scenes/showcase.json

bench: build
	@$(BUILD_DIR)/tinkertoy-bench

clean:
	rm -rf build
