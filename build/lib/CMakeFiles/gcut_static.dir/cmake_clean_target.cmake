file(REMOVE_RECURSE
  "libgcut.a"
)
