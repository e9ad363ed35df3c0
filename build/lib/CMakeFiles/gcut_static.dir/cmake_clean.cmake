file(REMOVE_RECURSE
  "CMakeFiles/gcut_static.dir/backend.c.o"
  "CMakeFiles/gcut_static.dir/backend.c.o.d"
  "CMakeFiles/gcut_static.dir/check.c.o"
  "CMakeFiles/gcut_static.dir/check.c.o.d"
  "CMakeFiles/gcut_static.dir/core/error.c.o"
  "CMakeFiles/gcut_static.dir/core/error.c.o.d"
  "CMakeFiles/gcut_static.dir/core/version.c.o"
  "CMakeFiles/gcut_static.dir/core/version.c.o.d"
  "CMakeFiles/gcut_static.dir/graph/csr.c.o"
  "CMakeFiles/gcut_static.dir/graph/csr.c.o.d"
  "CMakeFiles/gcut_static.dir/graph/dimacs.c.o"
  "CMakeFiles/gcut_static.dir/graph/dimacs.c.o.d"
  "CMakeFiles/gcut_static.dir/graph/graph.c.o"
  "CMakeFiles/gcut_static.dir/graph/graph.c.o.d"
  "CMakeFiles/gcut_static.dir/solve.c.o"
  "CMakeFiles/gcut_static.dir/solve.c.o.d"
  "CMakeFiles/gcut_static.dir/solvers/bk.c.o"
  "CMakeFiles/gcut_static.dir/solvers/bk.c.o.d"
  "CMakeFiles/gcut_static.dir/solvers/flow.c.o"
  "CMakeFiles/gcut_static.dir/solvers/flow.c.o.d"
  "CMakeFiles/gcut_static.dir/solvers/hipr.c.o"
  "CMakeFiles/gcut_static.dir/solvers/hipr.c.o.d"
  "CMakeFiles/gcut_static.dir/solvers/prsn.c.o"
  "CMakeFiles/gcut_static.dir/solvers/prsn.c.o.d"
  "CMakeFiles/gcut_static.dir/solvers/ref.c.o"
  "CMakeFiles/gcut_static.dir/solvers/ref.c.o.d"
  "CMakeFiles/gcut_static.dir/solvers/residual.c.o"
  "CMakeFiles/gcut_static.dir/solvers/residual.c.o.d"
  "libgcut.a"
  "libgcut.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/gcut_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
