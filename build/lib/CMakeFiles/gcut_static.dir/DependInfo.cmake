
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/lib/backend.c" "lib/CMakeFiles/gcut_static.dir/backend.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/backend.c.o.d"
  "/work/main/lib/check.c" "lib/CMakeFiles/gcut_static.dir/check.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/check.c.o.d"
  "/work/main/lib/core/error.c" "lib/CMakeFiles/gcut_static.dir/core/error.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/core/error.c.o.d"
  "/work/main/lib/core/version.c" "lib/CMakeFiles/gcut_static.dir/core/version.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/core/version.c.o.d"
  "/work/main/lib/graph/csr.c" "lib/CMakeFiles/gcut_static.dir/graph/csr.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/graph/csr.c.o.d"
  "/work/main/lib/graph/dimacs.c" "lib/CMakeFiles/gcut_static.dir/graph/dimacs.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/graph/dimacs.c.o.d"
  "/work/main/lib/graph/graph.c" "lib/CMakeFiles/gcut_static.dir/graph/graph.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/graph/graph.c.o.d"
  "/work/main/lib/solve.c" "lib/CMakeFiles/gcut_static.dir/solve.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/solve.c.o.d"
  "/work/main/lib/solvers/bk.c" "lib/CMakeFiles/gcut_static.dir/solvers/bk.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/solvers/bk.c.o.d"
  "/work/main/lib/solvers/flow.c" "lib/CMakeFiles/gcut_static.dir/solvers/flow.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/solvers/flow.c.o.d"
  "/work/main/lib/solvers/hipr.c" "lib/CMakeFiles/gcut_static.dir/solvers/hipr.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/solvers/hipr.c.o.d"
  "/work/main/lib/solvers/prsn.c" "lib/CMakeFiles/gcut_static.dir/solvers/prsn.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/solvers/prsn.c.o.d"
  "/work/main/lib/solvers/ref.c" "lib/CMakeFiles/gcut_static.dir/solvers/ref.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/solvers/ref.c.o.d"
  "/work/main/lib/solvers/residual.c" "lib/CMakeFiles/gcut_static.dir/solvers/residual.c.o" "gcc" "lib/CMakeFiles/gcut_static.dir/solvers/residual.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
