#!/usr/bin/env bash
# bench/run-grabcut-settings.sh - which GrabCut setting is best on the 40
# images of the GrabCut (MSRC) set (issue 20, "better defaults"): the mean
# error of gcut-seg --rect --grabcut 5 over the images for each setting,
# with the rectangles of index.csv (the box of `cross`, the whole image,
# shrunk by a pixel as bench/run-grabcut.sh does).
#
#     bench/run-grabcut-settings.sh [BUILD_DIR] ["SETTING" ...]
#
# A SETTING is gcut-seg options, e.g. "--lambda 25" or "--conn 4 -k 3";
# "" is the default. Default list: the default, lambda 25/75/100, 4-conn.,
# 3 and 8 GMM components, histogram models. Data: $GCUT_GRABCUT_DATA
# (default ../shared/data/grabcut). One process per image and setting;
# the backend is cpu-bk (the cut is canonical: any engine gives the same
# mask). Prints one table: setting, mean error %, median error %, mean
# IoU, images where it beats / loses to the first setting (the baseline,
# normally "").
# GCUT_SETTINGS_KEEP=DIR keeps the per-image results there (N.txt for the
# N-th setting: name, error %, IoU; settings.txt lists the settings), and
# GCUT_BENCH_CPU=C pins the runs to core C (taskset).
# GCUT_SETTINGS_INPUT=lasso starts GrabCut from the lasso trimaps of the
# set (lasso/NAME.png as --seeds: the original benchmark's input, a
# second check of a setting chosen on the rectangles) instead.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build}
shift || true
SEG=$B/bin/gcut-seg
DATA=${GCUT_GRABCUT_DATA:-$ROOT/../shared/data/grabcut}
[ -x "$SEG" ] || { echo "run-grabcut-settings.sh: $SEG not found" >&2; exit 2; }
[ -f "$DATA/index.csv" ] || { echo "run-grabcut-settings.sh: no dataset at $DATA" >&2; exit 2; }
if [ $# -gt 0 ]; then SETTINGS=("$@"); else
  SETTINGS=("" "--lambda 25" "--lambda 75" "--lambda 100" "--conn 4" "-k 3" "-k 8" "--model hist")
fi
if [ -n "${GCUT_SETTINGS_KEEP:-}" ]; then T=$GCUT_SETTINGS_KEEP; mkdir -p "$T"
else T=$(mktemp -d); trap 'rm -rf "$T"' EXIT; fi
input=${GCUT_SETTINGS_INPUT:-rect}
case $input in rect | lasso) ;; *) echo "run-grabcut-settings.sh: GCUT_SETTINGS_INPUT rect or lasso" >&2; exit 2 ;; esac
pin=""; [ -n "${GCUT_BENCH_CPU:-}" ] && command -v taskset > /dev/null && pin="taskset -c $GCUT_BENCH_CPU"
printf '%s\n' "${SETTINGS[@]}" > "$T/settings.txt"
echo "run-grabcut-settings.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), gcut $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(tail -n +2 "$DATA/index.csv" | wc -l) images, input $input"
i=0
for s in "${SETTINGS[@]}"; do
  tail -n +2 "$DATA/index.csv" | while IFS=, read -r name img w h x0 y0 x1 y1 _; do
    if [ "$x0" = 0 ] && [ "$y0" = 0 ] && [ "$x1" = $((w - 1)) ] && [ "$y1" = $((h - 1)) ]; then
      x0=1; y0=1; x1=$((w - 2)); y1=$((h - 2))
    fi
    box=(--rect "$x0,$y0,$((x1 - x0 + 1)),$((y1 - y0 + 1))")
    if [ "$input" = lasso ]; then box=(--seeds "$DATA/lasso/$name.png"); fi
    # shellcheck disable=SC2086
    out=$($pin "$SEG" "$DATA/$img" "${box[@]}" --grabcut 5 \
          --backend cpu-bk --gt "$DATA/gt/$name.png" -q $s)
    e=$(echo "$out" | sed -n 's/^error: \([0-9.]*\).*/\1/p')
    u=$(echo "$out" | sed -n 's/^iou: \([0-9.]*\).*/\1/p')
    echo "$name $e $u"
  done > "$T/$i.txt"
  i=$((i + 1))
done
echo
echo "| setting | mean error % | median error % | mean IoU | images better than \`${SETTINGS[0]:-(default)}\` | worse |"
echo "|---|---:|---:|---:|---:|---:|"
i=0
for s in "${SETTINGS[@]}"; do
  med=$(awk '{ print $2 }' "$T/$i.txt" | sort -g | awk '{ v[NR] = $1 }
       END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  awk -v s="${s:-(default)}" -v med="$med" 'NR == FNR { base[$1] = $2; next }
       { n++; e += $2; u += $3; if ($2 < base[$1] - 1e-9) b++; if ($2 > base[$1] + 1e-9) w++ }
       END { printf "| `%s` | %.2f | %s | %.4f | %d | %d |\n", s, e / n, med, u / n, b, w }' "$T/0.txt" "$T/$i.txt"
  i=$((i + 1))
done
