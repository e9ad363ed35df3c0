#!/usr/bin/env bash
# run.sh - check the device regions (cuda/grid/grid_region.cu) without a GPU:
# the kernels' own source is compiled for the host (prelude.h: each launch
# runs its threads one by one in a shuffled order, atomics are plain), the
# CUDA runtime calls it makes are host shims (shim.cpp), partition.c takes
# that table instead of the plugin's, and tests/test_gpu_dist.c runs against
# it with cpu-bk standing in for the single-region cuda-grid solve.
# A development aid, not part of the build or of CTest.
#
#     scripts/region-emu/run.sh [BUILD]     # BUILD: a CPU build folder (default build-gcu)
#     scripts/region-emu/run.sh BUILD --mpi # tests/mpi/test_dist_mpi on 2-4 ranks, each
#                                           # rank's regions on an emulated GPU
#     GCUT_GPU_QUICK=1 scripts/region-emu/run.sh
#     GCUT_GPU_DEVICES=0:1:2 scripts/region-emu/run.sh   # three emulated devices
#
# Several devices: the shims keep a current device per thread, and a fake
# NCCL (fake_nccl.c) matches the sends and receives of each group.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$ROOT/build-gcu}
MPI=${2:-}
HERE=$ROOT/scripts/region-emu
CUDA_INC=${CUDA_INC:-/usr/local/cuda/include}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -f "$B/lib/libgcut.a" ] && [ -f "$B/lib/libgcut_testutil.a" ] ||
  { echo "build $B first (cmake --build $B)"; exit 1; }
sed -e 's/kernel<<<(nb), kBlock>>>(__VA_ARGS__);/EMU_LAUNCH(kernel, nb, __VA_ARGS__);/' \
  "$ROOT/cuda/grid/grid_region.cu" >"$T/region_emu.cpp"
grep -q EMU_LAUNCH "$T/region_emu.cpp" || { echo "the launch macro of grid_region.cu changed"; exit 1; }
# gcut_i_dist_region_ext (the plugin's extension) becomes the emulated one.
sed -e 's/^const gcut_grid_region_ext \*gcut_i_dist_region_ext(const char \*name)$/const gcut_grid_region_ext *emu_ext(void);\nconst gcut_grid_region_ext *gcut_i_dist_region_ext(const char *name) { (void)name; return emu_ext(); }\nstatic const gcut_grid_region_ext *region_ext_unused(const char *name)/' \
  "$ROOT/lib/dist/partition.c" >"$T/partition_emu.c"
grep -q region_ext_unused "$T/partition_emu.c" || { echo "gcut_i_dist_region_ext's definition changed"; exit 1; }
sed -e 's/tu_backend_available("cuda-grid")/1/' \
  -e 's/solve_whole(g, "cuda-grid", label)/solve_whole(g, "cpu-bk", label)/' \
  "$ROOT/tests/test_gpu_dist.c" >"$T/tgd.c"
CU="-I$ROOT/cuda -I$ROOT/vision -I$ROOT/lib/include -I$B/lib/include -I$CUDA_INC"
C="-I$ROOT/lib -I$ROOT/lib/include -I$B/lib/include -I$ROOT/tests/common -D_POSIX_C_SOURCE=200809L -DGCUT_ALLOW_EXPERIMENTAL"
g++ -O1 -g -std=c++17 -w -include "$HERE/prelude.h" $CU -c "$T/region_emu.cpp" -o "$T/region_emu.o"
g++ -O1 -g -std=c++17 $CU -c "$HERE/shim.cpp" -o "$T/shim.o"
gcc -O1 -g -std=c11 -w $C -c "$T/partition_emu.c" -o "$T/partition_emu.o"
gcc -O1 -g -std=c11 $C -c "$T/tgd.c" -o "$T/tgd.o"
gcc -O1 -g -std=gnu11 -shared -fPIC "$HERE/fake_nccl.c" -o "$T/libnccl.so.2"
export LD_LIBRARY_PATH="$T${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" # the fake is the NCCL found
g++ -o "$T/tgd" "$T/tgd.o" "$T/partition_emu.o" "$T/region_emu.o" "$T/shim.o" \
  "$B/lib/libgcut_testutil.a" "$B/lib/libgcut.a" -lcmocka -lm -lpthread -ldl -lz
if [ "$MPI" = --mpi ]; then
  MC="$C -I$ROOT/lib/mpi"
  mpicc -O1 -g -std=c11 $MC -c "$ROOT/lib/mpi/dist_mpi.c" -o "$T/dist_mpi.o"
  # cuda-grid is "available" here: the emulated regions stand in for it.
  sed -e 's/!tu_backend_available("cuda-grid")/0/' "$ROOT/tests/mpi/test_dist_mpi.c" >"$T/tdm.c"
  grep -q 'if (0)' "$T/tdm.c" || { echo "test_dist_mpi.c's cuda-grid check changed"; exit 1; }
  mpicc -O1 -g -std=c11 $MC -c "$T/tdm.c" -o "$T/tdm.o"
  mpicxx -o "$T/tdm" "$T/tdm.o" "$T/dist_mpi.o" "$T/partition_emu.o" "$T/region_emu.o" "$T/shim.o" \
    "$B/lib/libgcut_testutil.a" "$B/lib/libgcut.a" -lcmocka -lm -lpthread -ldl -lz
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  for np in ${NP:-2 3 4}; do
    GCUT_MPI_TEST_BACKEND=cuda-grid GCUT_MPI_TEST_PARAMS=${GCUT_MPI_TEST_PARAMS:-devices=0:1} \
      mpirun --oversubscribe -np "$np" -x LD_LIBRARY_PATH -x EMU_DEVICES "$T/tdm" || exit 1
  done
  exit 0
fi
GCUT_GPU_DIST_SIZE=${GCUT_GPU_DIST_SIZE:-24} "$T/tgd"
