#!/usr/bin/env bash
# Installs the peer physics engines that `make bench-peers` compares Tinkertoy with, all from
# Debian: Box2D 2.4, Chipmunk 7, ODE, Bullet (rigid, multibody and soft body) and MuJoCo. The
# build finds whichever are present and builds a driver for each (bench/peers/CMakeLists.txt);
# `make test` needs none of them.
# Usage: scripts/install-peers.sh
set -euo pipefail

packages=(libbox2d-dev libchipmunk-dev libode-dev libbullet-dev libmujoco-dev)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-peers: installing missing Debian packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-peers: need root (or sudo) to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
