#!/usr/bin/env bash
# Regenerates the pictures in docs/images from the programs in the build (make images): the
# README's and the guides' pictures are never edited by hand, so they show what the code does now.
#
#   scripts/make-images.sh [BUILD_DIR]     (default build/release; the Studio's need xvfb-run)
set -euo pipefail

cd "$(dirname "$0")/.."
build=${1:-build/release}
images=docs/images
for program in tinkertoy tinkertoy-studio; do
  [[ -x $build/$program ]] || { echo "make-images: $build/$program is missing: build first (make)" >&2; exit 2; }
done
command -v xvfb-run >/dev/null || { echo "make-images: needs xvfb-run (apt-get install xvfb)" >&2; exit 2; }

studio() {  # studio SCRIPT OUTPUT: a scripted Studio session's last frame
  xvfb-run -a -s '-screen 0 1400x1000x24' "$build/tinkertoy-studio" --size 1280x800 --script "$1" --screenshot "$2"
}

"$build/tinkertoy" render scenes/showcase.json -o $images/showcase-strobe.png --time 1.2 --exposures 6 --span 1.2 \
  --trails --quiet
"$build/tinkertoy" plot scenes/showcase.json -o $images/showcase-energy.png
"$build/tinkertoy" render scenes/cloth.json -o $images/cloth.png --time 1.5 --quiet
studio docs/studio-session.json $images/studio.png
studio docs/studio-four-bar.json $images/studio-four-bar.png
# Compare: the exact double pendulum against explicit Euler without projection, as a ghost.
"$build/tinkertoy" render scenes/double_pendulum.json -o $images/compare-ghost.png --time 3 \
  --ghost "--integrator euler --no-project" --quiet
xvfb-run -a -s '-screen 0 1400x1000x24' "$build/tinkertoy-studio" scenes/double_pendulum.json --size 1280x800 \
  --compare "--integrator euler --no-project" --frames 240 --screenshot $images/studio-compare.png
# The Studio's web page, taken by its browser test while it drags the pendulum it built (needs
# make web: build/web, Chromium and playwright-core).
if [[ -f build/web/tinkertoy-studio.wasm && -d build/web-node/node_modules/playwright-core ]]; then
  TINKERTOY_PAGE_SCREENSHOT=$images/studio-web.png node --test-name-pattern='pendulum built by clicking' \
    tests/web/browser/studio_page_test.mjs .
else
  echo "make-images: no web build: docs/images/studio-web.png is kept as it is (make web builds it)" >&2
fi
echo "make-images: wrote $(ls $images | tr '\n' ' ')"
