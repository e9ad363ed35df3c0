# Empty dependencies file for gcut.
# This may be replaced when dependencies are built.
