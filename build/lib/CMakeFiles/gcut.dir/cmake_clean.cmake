file(REMOVE_RECURSE
  "CMakeFiles/gcut.dir/backend.c.o"
  "CMakeFiles/gcut.dir/backend.c.o.d"
  "CMakeFiles/gcut.dir/check.c.o"
  "CMakeFiles/gcut.dir/check.c.o.d"
  "CMakeFiles/gcut.dir/core/error.c.o"
  "CMakeFiles/gcut.dir/core/error.c.o.d"
  "CMakeFiles/gcut.dir/core/version.c.o"
  "CMakeFiles/gcut.dir/core/version.c.o.d"
  "CMakeFiles/gcut.dir/graph/csr.c.o"
  "CMakeFiles/gcut.dir/graph/csr.c.o.d"
  "CMakeFiles/gcut.dir/graph/dimacs.c.o"
  "CMakeFiles/gcut.dir/graph/dimacs.c.o.d"
  "CMakeFiles/gcut.dir/graph/graph.c.o"
  "CMakeFiles/gcut.dir/graph/graph.c.o.d"
  "CMakeFiles/gcut.dir/solve.c.o"
  "CMakeFiles/gcut.dir/solve.c.o.d"
  "CMakeFiles/gcut.dir/solvers/bk.c.o"
  "CMakeFiles/gcut.dir/solvers/bk.c.o.d"
  "CMakeFiles/gcut.dir/solvers/flow.c.o"
  "CMakeFiles/gcut.dir/solvers/flow.c.o.d"
  "CMakeFiles/gcut.dir/solvers/hipr.c.o"
  "CMakeFiles/gcut.dir/solvers/hipr.c.o.d"
  "CMakeFiles/gcut.dir/solvers/prsn.c.o"
  "CMakeFiles/gcut.dir/solvers/prsn.c.o.d"
  "CMakeFiles/gcut.dir/solvers/ref.c.o"
  "CMakeFiles/gcut.dir/solvers/ref.c.o.d"
  "CMakeFiles/gcut.dir/solvers/residual.c.o"
  "CMakeFiles/gcut.dir/solvers/residual.c.o.d"
  "libgcut.pdb"
  "libgcut.so"
  "libgcut.so.0.1"
  "libgcut.so.0.1.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/gcut.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
