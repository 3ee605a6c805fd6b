#!/usr/bin/env bash
# Installs the Debian packages Tinkertoy needs to build, test and run.
# Only missing packages are installed; a machine that has everything is left untouched.
# Usage: scripts/install-deps.sh [--fuzz]
#   --fuzz  also clang and its libFuzzer and sanitizer runtimes, for `make fuzz`
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build ccache pkg-config make
  # libraries
  libeigen3-dev nlohmann-json3-dev libcli11-dev
  # sparse factorizations: LDL, AMD and CHOLMOD (supernodal, with METIS and OpenBLAS)
  libsuitesparse-dev libmetis-dev libopenblas-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # the speed guard counts instructions per step under callgrind (tests/speed/)
  valgrind
  # Tinkertoy Studio: window, OpenGL, Dear ImGui (its GLFW and OpenGL3 backends are inside
  # libimgui), a font, PNG screenshots through cairo
  libglfw3-dev libgl-dev libimgui-dev libstb-dev libcairo2-dev fonts-dejavu-core
  # the Studio's end-to-end test runs it on a virtual X server with Mesa's software OpenGL
  xvfb xauth libgl1-mesa-dri
  # `tinkertoy render` draws with cairo (above) and encodes MP4 and GIF with the ffmpeg program
  # (ffprobe, which the tests use to count frames, comes with it); `tinkertoy plot` drives gnuplot
  ffmpeg gnuplot-nox
  # the rendering tests parse SVG output with libxml2; the Studio's glyph test reads its font
  # with FreeType
  libxml2-dev libfreetype-dev
  # the Python module, built against Debian's python3 (python/), its tests (pytest), its sweeps
  # (Dask's distributed scheduler) and its examples' plots (matplotlib)
  python3-dev python3-pybind11 python3-numpy python3-pytest python3-dask python3-distributed python3-matplotlib
  # `pip install .` (pyproject.toml): Debian's setuptools drives the CMake build, in a venv
  python3-setuptools python3-wheel python3-venv python3-pip
)
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang-14 libclang-rt-14-dev)
elif [[ "${1:-}" == "--web" ]]; then
  # The browser build (make web): emscripten, node to run its module, dpkg-dev to unpack the
  # Debian sources it compiles itself (scripts/web/fetch-sources.sh), and Debian's Chromium for
  # the page's tests (tests/web/browser, driven by playwright-core from npm).
  packages+=(emscripten nodejs dpkg-dev chromium)
  # npm comes with node where node is not Debian's (NodeSource's carries its own).
  command -v npm >/dev/null || packages+=(npm)
elif [[ $# -gt 0 ]]; then
  echo "install-deps: unknown option '$1'; the options are --fuzz and --web" >&2
  exit 2
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "install-deps: installing missing Debian packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
