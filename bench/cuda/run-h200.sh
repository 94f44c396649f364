#!/usr/bin/env bash
# Builds roofline-bench for Hopper (sm_90) and runs the full CUDA benchmark on GPU 0, writing
# JSON, CSV and the printed table. Every kernel is verified before it is timed; a mismatch makes
# the script fail (exit 1). The GEMVs include the integer-dot ones (gemv_int8_dp4a,
# gemv_int4_dp4a: x quantized to INT8 per call, __dp4a on the packed weights), checked exactly on
# an x that INT8 holds, then within the bound x's rounding allows; their tokens/s over BF16's
# are printed again at the end, and so is the memory hierarchy: the L2 and HBM sweep (dot and
# triad from 1 MiB to 4 × the L2, loads cached in L2 only) and its levels.
#
#   bench/cuda/run-h200.sh [output-dir]      (default: docs/results)
#
# A few minutes: about one to build, two to generate inputs, verify and time everything.
# Environment: BUILD_DIR (default build-h200), JOBS (default: all cores), NVCC (default: nvcc on
# PATH, else /usr/local/cuda/bin/nvcc). Uses CMake when it is installed, else compiles directly.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
out=${1:-$root/docs/results}
build=${BUILD_DIR:-$root/build-h200}
jobs=${JOBS:-$(nproc)}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out" "$build"

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader || true

if command -v cmake >/dev/null; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DROOFLINE_TESTS=OFF
  cmake --build "$build" --target roofline-bench -j "$jobs"
  bench="$build/bench/roofline-bench"
else
  # No CMake: the same sources and flags by hand.
  k="$root/bench"
  cuda_home=$(dirname "$(dirname "$nvcc")")
  blas_flags=()
  if pkg-config --exists openblas 2>/dev/null; then
    read -r -a blas_flags <<<"-DROOFLINE_HAVE_BLAS -DROOFLINE_HAVE_OPENBLAS $(pkg-config --cflags --libs openblas)"
  fi
  objs=()
  for f in "$k"/cuda/*.cu; do
    o="$build/$(basename "$f").o"
    "$nvcc" -std=c++17 -O3 -arch=sm_90 -I"$k" -c "$f" -o "$o" &
    objs+=("$o")
  done
  wait
  g++ -std=c++20 -O3 -march=native -ffp-contract=fast -Wno-psabi -DROOFLINE_HAVE_CUDA -I"$root/core/include" -I"$k" \
    -I"$cuda_home/include" "$root"/core/src/*.cpp "$k"/cpu/*.cpp "$k"/bench/*.cpp "${objs[@]}" \
    -L"$cuda_home/lib64" -lcublas -lcudart -lpthread "${blas_flags[@]}" -o "$build/roofline-bench"
  bench="$build/roofline-bench"
fi

date=$(date -u +%Y-%m-%d)
name=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -1 | tr 'A-Z' 'a-z' |
       sed -e 's/nvidia//' -e 's/[^a-z0-9]\+/-/g' -e 's/^-//' -e 's/-$//' || true)
name=${name:-gpu}
"$bench" --backend cuda --json "$out/cuda-$name-$date.json" --csv "$out/cuda-$name-$date.csv" |
  tee "$out/cuda-$name-$date.txt"
status=${PIPESTATUS[0]}
echo "== GEMVs with __dp4a (verification, tokens/s, ratios to BF16):"
grep -E "gemv_(bf16|int8|int4)" "$out/cuda-$name-$date.txt" || true
echo "== Memory hierarchy (L2 and HBM sweep, levels, DRAM level ÷ the run's stream ceiling):"
sed -n '/^memory hierarchy/,/^measured ceilings/p' "$out/cuda-$name-$date.txt" || true
grep -E "levels_dram_over_bandwidth" "$out/cuda-$name-$date.txt" || true
exit "$status"
