"""Build gcut._gcut against an installed libgcut, found with pkg-config.

The library's folder is recorded as the extension's RPATH, so the package
finds libgcut (and libgcut its CUDA plugin, installed next to it) without
LD_LIBRARY_PATH. See docs/python.md.
"""

import shlex
import subprocess
import sys

from setuptools import Extension, setup


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "gcut"], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("gcut: pkg-config cannot find gcut (install libgcut first, e.g. "
                 "`cmake --install build --prefix PREFIX`, and set "
                 f"PKG_CONFIG_PATH=PREFIX/lib/pkgconfig): {e}")
    return shlex.split(out)


libdir = pkg_config("--variable=libdir")[0]
ext = Extension(
    "gcut._gcut",
    sources=["gcut/_gcut.c"],
    extra_compile_args=pkg_config("--cflags") + ["-std=c11"],
    extra_link_args=pkg_config("--libs") + [f"-Wl,-rpath,{libdir}"],
)
setup(ext_modules=[ext])
