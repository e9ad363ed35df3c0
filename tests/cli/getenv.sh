#!/usr/bin/env bash
# No hidden settings (docs/design.md section 3): the libraries (lib/,
# cuda/, vision/) read no environment variable but GCUT_BACKEND, read once
# by the chooser, and GCUT_PLUGIN_PATH, read by the plugin loader; and they
# never print.
set -euo pipefail
root=$1
bad=0
hits=$(grep -rn --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' 'getenv *(' \
         "$root/lib" "$root/cuda" "$root/vision" | grep -v '/fuzz/' || true)
while IFS= read -r line; do
  [ -z "$line" ] && continue
  case "$line" in
    "$root/lib/solve/choose.c:"*'getenv("GCUT_BACKEND")'*) ;;
    "$root/lib/solve/plugin.c:"*'getenv("GCUT_PLUGIN_PATH")'*) ;;
    *) echo "hidden setting: $line"; bad=1 ;;
  esac
done <<< "$hits"
prints=$(grep -rnE --include='*.c' --include='*.cu' --include='*.cuh' '\b(printf|puts|perror) *\(|f(printf|puts) *\( *std(out|err)' \
           "$root/lib" "$root/cuda" "$root/vision" | grep -v '/fuzz/' || true)
if [ -n "$prints" ]; then
  echo "the libraries print:"; echo "$prints"; bad=1
fi
[ $bad -eq 0 ] && echo "getenv: only GCUT_BACKEND and GCUT_PLUGIN_PATH; no printing"
exit $bad
