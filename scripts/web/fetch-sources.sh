#!/bin/bash
# fetch-sources.sh DIR: the libraries the web build compiles itself, as Debian ships their
# sources (issue #39): Dear ImGui, SuiteSparse and the METIS its CHOLMOD orders with, at the
# versions of the Debian packages the desktop build links (libimgui-dev, libsuitesparse-dev,
# libmetis-dev). Fetched once with `apt-get source
# --download-only` through an apt state of their own under DIR/apt (its own source list, package
# lists and cache), so the machine's apt configuration is left as it is; apt checks each file
# against the signed archive's checksums, and dpkg-source again against the .dsc's when it
# unpacks them into DIR/imgui and DIR/suitesparse. Nothing of them goes into the repository.
#
#   scripts/web/fetch-sources.sh build/web-sources
set -euo pipefail

dir=${1:?usage: fetch-sources.sh DIR}
readonly imgui_version=1.86+ds-1
readonly suitesparse_version=1:5.12.0+dfsg-2
readonly metis_version=5.1.0.dfsg-7
readonly suite=bookworm

for tool in apt-get dpkg-source; do
  command -v "$tool" >/dev/null || { echo "fetch-sources: needs $tool (apt-get install dpkg-dev)" >&2; exit 2; }
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [[ -f "$dir/imgui/imgui.cpp" && -f "$dir/suitesparse/CHOLMOD/Include/cholmod.h" && -f "$dir/metis/include/metis.h" ]]; then
  exit 0  # fetched before
fi

apt_dir=$dir/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$dir/download"
echo "deb-src http://deb.debian.org/debian $suite main" > "$apt_dir/sources.list"
apt_options=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o Dir::State::status=/dev/null
  -o APT::Sandbox::User=root -qq
)
apt-get "${apt_options[@]}" update
(cd "$dir/download" &&
  apt-get "${apt_options[@]}" source --download-only "imgui=$imgui_version" "suitesparse=$suitesparse_version" \
    "metis=$metis_version")

# The .dsc's own signature is the maintainer's, whose key this machine need not have; the files'
# checksums are what dpkg-source checks here, against a .dsc that apt checked in turn.
unpack() {  # unpack NAME VERSION: the .dsc (epoch dropped from the file name) into DIR/NAME
  local dsc="$dir/download/${1}_${2#*:}.dsc"
  rm -rf "${dir:?}/$1"
  if ! dpkg-source --no-copy -x "$dsc" "$dir/$1" >"$dir/$1.log" 2>&1; then
    echo "fetch-sources: $1's files do not unpack as their .dsc says ($dir/$1.log)" >&2
    exit 1
  fi
}
unpack imgui "$imgui_version"
unpack suitesparse "$suitesparse_version"
unpack metis "$metis_version"
echo "fetch-sources: Dear ImGui $imgui_version, SuiteSparse $suitesparse_version and METIS $metis_version in $dir"
