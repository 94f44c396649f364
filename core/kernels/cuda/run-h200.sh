#!/usr/bin/env bash
# Builds roofline-bench for Hopper (sm_90) and runs the full CUDA benchmark on GPU 0, writing
# JSON and CSV. Verification runs first for every kernel; a mismatch makes the script fail.
#
#   core/kernels/cuda/run-h200.sh [output-dir]      (default: docs/results)
#
# Takes a few minutes: ~1 min to build, ~2 min to generate inputs, verify and time everything.
# Environment: BUILD_DIR (default build-h200), JOBS (default: all cores).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
out=${1:-$root/docs/results}
build=${BUILD_DIR:-$root/build-h200}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader || true

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DROOFLINE_TESTS=OFF
cmake --build "$build" --target roofline-bench -j "$jobs"

date=$(date -u +%Y-%m-%d)
name=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -1 | tr 'A-Z' 'a-z' |
       sed -e 's/nvidia//' -e 's/[^a-z0-9]\+/-/g' -e 's/^-//' -e 's/-$//')
name=${name:-gpu}
"$build/core/kernels/roofline-bench" --backend cuda \
  --json "$out/cuda-$name-$date.json" --csv "$out/cuda-$name-$date.csv" | tee "$out/cuda-$name-$date.txt"
