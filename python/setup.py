"""Build gcut._gcut against an installed libgcut, found with pkg-config.

The library's folder is recorded as the extension's RPATH, so the package
finds libgcut (and libgcut its CUDA plugin, installed next to it) without
LD_LIBRARY_PATH. See docs/python.md.
"""

import os
import shlex
import subprocess
import sys

from setuptools import Extension, setup


def pkg_config(*args, package="gcut"):
    try:
        out = subprocess.run(["pkg-config", *args, package], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("gcut: pkg-config cannot find gcut (install libgcut first, e.g. "
                 "`cmake --install build --prefix PREFIX`, and set "
                 f"PKG_CONFIG_PATH=PREFIX/lib/pkgconfig): {e}")
    return shlex.split(out)


def have(package):
    return subprocess.run(["pkg-config", "--exists", package]).returncode == 0


# with libgcut_vision (gcut-vision.pc), the vision entry points: gcut.grabcut, gcut.segment
package = "gcut-vision" if have("gcut-vision") else "gcut"
libdir = pkg_config("--variable=libdir", package=package)[0]
includedir = pkg_config("--variable=includedir", package="gcut")[0]
macros = [("GCUT_PY_HAVE_VISION", "1")] if package == "gcut-vision" else []


def declares(header, name):
    try:
        with open(os.path.join(includedir, "gcut", header), encoding="utf-8") as f:
            return name + "(" in f.read()
    except OSError:
        return False


# the float C API (gcut 0.3), bound when the installed headers declare it
if declares("grid.h", "gcut_grid_set_energy_dirs_f32") and declares("graph.h", "gcut_graph_new_f32"):
    macros.append(("GCUT_PY_HAVE_F32", "1"))
# grids in device memory (gcut 0.3): gcut.grid_cut on CUDA arrays
if declares("device.h", "gcut_device_solver_new"):
    macros.append(("GCUT_PY_HAVE_DEVICE", "1"))
ext = Extension(
    "gcut._gcut",
    sources=["gcut/_gcut.c"],
    define_macros=macros,
    extra_compile_args=pkg_config("--cflags", package=package) + ["-std=c11"],
    extra_link_args=pkg_config("--libs", package=package) + [f"-Wl,-rpath,{libdir}"],
)
setup(ext_modules=[ext])
