# Empty dependencies file for gcut_static.
# This may be replaced when dependencies are built.
