#!/usr/bin/env bash
# The device run behind match-2026-11-21.md (run from the repository root on
# the GPU machine, with .gpucarry carried; results go to $OUT).
set -u
OUT=${OUT:-/tmp/out}
{
  nvidia-smi -L; date -u
  OUT=/tmp/gc STEPS=build BUILD=/tmp/b scripts/gpu-check.sh > /tmp/gc-build.log 2>&1 || { tail -40 /tmp/gc-build.log; exit 1; }
  export GCUT_PLUGIN_PATH=/tmp/b/lib
  echo "== test_gpu_match (GCUT_GPU_REPEAT=20)"
  GCUT_GPU_REPEAT=20 timeout 60 /tmp/b/bin/test_gpu_match 2>&1 | tail -8; echo "rc=${PIPESTATUS[0]}"
  for spec in "r500k:random 500000 500000 1500000 1" "tall1M:random 1000000 250000 2000000 2" \
              "pl500k:powerlaw 500000 500000 2000000 3" "pl1M:powerlaw 1000000 1000000 4000000 4 1.0"; do
    name=${spec%%:*}
    # shellcheck disable=SC2086
    /tmp/b/bin/gcut-gen-mtx ${spec#*:} > /tmp/$name.mtx
    for b in cpu-match-pr cpu-match-hk cuda-match-gpr flow-cpu-hipr flow-cuda-csr; do
      echo "== $name $b"
      timeout 15 /tmp/b/bin/gcut-match -b $b --repeat 3 --check /tmp/$name.mtx 2>&1; echo "rc=$?"
    done
  done
} > "$OUT/match-2026-11-21.txt" 2>&1
