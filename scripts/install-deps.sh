#!/usr/bin/env bash
# Install what gcut needs to build and test on Debian 12, if it is missing.
# Run as root (or with sudo). Installs nothing when everything is present.
set -euo pipefail
pkgs=(build-essential cmake pkg-config python3 libcmocka-dev zlib1g-dev gnuplot-nox libpng-dev libjpeg62-turbo-dev libsdl2-dev xvfb xauth
      libopenmpi-dev openmpi-bin
      python3-dev python3-numpy python3-pytest python3-setuptools python3-scipy)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "gcut: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
