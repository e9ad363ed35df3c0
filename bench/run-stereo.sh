#!/usr/bin/env bash
# Stereo benchmark: gcut-stereo against the graph-cut (GC) entry of the
# Middlebury v2 table and OpenCV's StereoSGBM, on the Middlebury pairs of
# ../shared/data/middlebury (params.csv: ground-truth scale and labels).
#
#   bench/run-stereo.sh [BUILD_DIR] [extra gcut-stereo options]
#
# BUILD_DIR defaults to build; it must hold bin/gcut-stereo, and
# bin/opencv_sgbm when OpenCV was found at configure time (otherwise the
# SGBM columns are left empty). Writes bench/results/stereo-dev2core-<date>
# .csv and .md, and the disparity maps (8-bit, scaled 255 / (labels - 1))
# under BUILD_DIR/stereo-png/.
#
# gcut runs four times per pair: BT cost, lambda 5 without the left-right
# check (the defaults before 0.3: truncated linear, tl-trunc 2, contrast
# boost 2); the same with the left-right check and background fill;
# gcut-stereo's defaults since 0.3 (census cost, lambda 10, the check: one
# setting for every pair); and the setting tuned on these three pairs
# without the check (census cost, lambda 10, tl-trunc 3, contrast boost 3).
# Extra options go to every run, last. Each gcut run's CPU time (user, s)
# is recorded beside its wall time (the machine is shared: wall times
# swing with the load, CPU times much less).
#
# Scores: bad pixels at thresholds 1 and 2 over all pixels with a known
# ground truth (value / scale; 0 unknown), gcut_stereo_bad_pixels' rule.
# opencv_sgbm scores with its own copy of that rule; the script checks the
# copy on gcut's output (opencv_sgbm --eval on gcut's exact 16-bit map) and
# stops if the two disagree. SGBM runs twice per pair:
#   fixed: one setting for every pair (mode sgbm, block 3, P1 = 8*3*9,
#          P2 = 32*3*9, uniqueness 10, speckle 100,2, disp12 1,
#          preFilterCap 63, --pad);
#   best:  the best of opencv_sgbm --sweep (768 settings) for that pair by
#          bad 1 with invalid pixels filled: chosen on the ground truth, so
#          an upper bound on what SGBM can do, not a fair setting.
# Invalid SGBM pixels are scored filled from their left neighbour (the
# columns) and, in separate columns, as bad. Both tools run on core 1.
# Set GCUT_SGBM_SWEEP=0 to skip the sweep (a few minutes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmdline="$*"
build=${1:-$root/build}; shift || true
data=${GCUT_MIDDLEBURY_DATA:-$root/../shared/data/middlebury}
stereo=$build/bin/gcut-stereo
ocv=$build/bin/opencv_sgbm
[ -x "$stereo" ] || { echo "run-stereo: $stereo not built" >&2; exit 1; }
[ -f "$data/params.csv" ] || { echo "run-stereo: no dataset at $data" >&2; exit 1; }
have_ocv=0; [ -x "$ocv" ] && have_ocv=1
sweep=${GCUT_SGBM_SWEEP:-1}
pin=""; command -v taskset > /dev/null && pin="taskset -c 1"
date=$(date +%Y-%m-%d)
tag=stereo-dev2core-$date
csv=$root/bench/results/$tag.csv; md=$root/bench/results/$tag.md
png=$build/stereo-png
mkdir -p "$png"
declare -A gc=([tsukuba]=4.12 [venus]=3.44 [teddy]=25.0)
bt=(--cost bt --lambda 5 --no-lr-check)
tuned=(--cost census --lambda 10 --tl-trunc 3 --contrast-boost 3 --no-lr-check)
lrdef=(--cost bt --lambda 5 --lr-check)
occl=()
fixed=(--mode sgbm --block 3 --uniqueness 10 --speckle 100,2 --disp12 1 --prefilter-cap 63 --pad)

split=$(mktemp); cpu=$(mktemp); trap 'rm -f "$split" "$cpu"' EXIT
val() { sed -n "s/^$1: \([-0-9.]*\).*/\1/p"; }
# gcut-stereo pinned to core 1, its CPU time (user s) appended to $cpu.
gcut() { /usr/bin/time -o "$cpu" -a -f '%U' $pin "$stereo" "$@"; }

echo "scene,labels,bad1_all,bad2_all,energy,cycles,cycle_energies,total_ms,gc_table_bad1,tuned_bad1,tuned_bad2,tuned_energy,tuned_cycles,tuned_ms,sgbm_numdisp,sgbm_fixed_bad1,sgbm_fixed_bad2,sgbm_fixed_bad1_invalid_bad,sgbm_fixed_bad2_invalid_bad,sgbm_fixed_invalid_pct,sgbm_fixed_ms,sgbm_best_bad1,sgbm_best_bad2,sgbm_best_bad1_invalid_bad,sgbm_best_bad2_invalid_bad,sgbm_best_invalid_pct,sgbm_best_ms,sgbm_best_setting,sgbm_best_invalid_bad_bad1,sgbm_best_invalid_bad_setting,lr_bad1,lr_bad2,lr_invalid_pct,lr_ms,census_lr_bad1,census_lr_bad2,census_lr_invalid_pct,census_lr_ms,cpu_s,tuned_cpu_s,lr_cpu_s,census_lr_cpu_s" > "$csv"
tail -n +2 "$data/params.csv" | while IFS=, read -r scene w h gtf scale labels rest; do
  gt=(--gt "$data/$scene/$gtf" --gt-scale "$scale")
  # teddy has the right view's ground truth: split the bad pixels by where they are.
  gtr=(); [ -f "$data/$scene/groundtruth_right_disp6.png" ] && gtr=(--gt-right "$data/$scene/groundtruth_right_disp6.png")
  splitrow() { [ ${#gtr[@]} -gt 0 ] || return 0
    printf '| %s | %s' "$scene" "$1" >> "$split"
    for c in visible occluded border; do
      printf ' | %s' "$(echo "$2" | sed -n "s/^$c: \([0-9.]*\) % of the pixels, bad1 \([0-9.]*\) % of them, \([0-9.]*\) % of all/\2 % (\3 %)/p")" >> "$split"
    done
    echo " |" >> "$split"; }
  echo "run-stereo: $scene: gcut-stereo ${bt[*]}" >&2
  : > "$cpu"
  out=$(gcut "$data/$scene/imL.png" "$data/$scene/imR.png" --ndisp "$labels" "${gt[@]}" \
        --quiet --out "$png/$scene-gcut.png" "${bt[@]}" "$@")
  ce=$(echo "$out" | sed -n 's/^cycle [0-9]*: energy \([0-9]*\),.*/\1/p' | paste -sd';')
  row="$scene,$labels,$(echo "$out" | val bad1-all),$(echo "$out" | val bad2-all),$(echo "$out" | val energy)"
  row="$row,$(echo "$out" | val cycles),$ce,$(echo "$out" | val total),${gc[$scene]}"
  echo "run-stereo: $scene: gcut-stereo ${tuned[*]}" >&2
  tout=$(gcut "$data/$scene/imL.png" "$data/$scene/imR.png" --ndisp "$labels" "${gt[@]}" \
         --quiet --out "$png/$scene-gcut-tuned.png" "${tuned[@]}" "$@")
  for k in bad1-all bad2-all energy cycles total; do row="$row,$(echo "$tout" | val $k)"; done
  echo "run-stereo: $scene: gcut-stereo ${lrdef[*]}" >&2
  lout=$(gcut "$data/$scene/imL.png" "$data/$scene/imR.png" --ndisp "$labels" "${gt[@]}" \
         --quiet --out "$png/$scene-gcut-lr.png" "${lrdef[@]}" "$@")
  echo "run-stereo: $scene: gcut-stereo (defaults)" >&2
  cout=$(gcut "$data/$scene/imL.png" "$data/$scene/imR.png" --ndisp "$labels" "${gt[@]}" \
         --quiet --out "$png/$scene-gcut-census-lr.png" ${occl[@]+"${occl[@]}"} "$@")
  # Their columns go at the end of the row (after SGBM's).
  extra=""
  for o in "$lout" "$cout"; do
    for k in bad1-all bad2-all lr-invalid total; do extra="$extra,$(echo "$o" | val $k)"; done
  done
  if [ $have_ocv = 1 ]; then
    for run in gcut:"$out" gcut-lr:"$lout" gcut-census-lr:"$cout" gcut-tuned:"$tout"; do
      chk=$("$ocv" --eval "$png/$scene-${run%%:*}-16.png" "${gt[@]}" "${gtr[@]}")
      splitrow "${run%%:*}" "$chk"
      for t in 1 2; do
        a=$(echo "${run#*:}" | val bad$t-all); b=$(echo "$chk" | val bad$t-all)
        [ "$a" = "$b" ] || { echo "run-stereo: $scene: bad$t: gcut-stereo $a, opencv_sgbm --eval $b" >&2; exit 1; }
      done
    done
    echo "run-stereo: $scene: SGBM, fixed setting" >&2
    f=$($pin "$ocv" "$data/$scene/imL.png" "$data/$scene/imR.png" --ndisp "$labels" "${gt[@]}" \
        "${fixed[@]}" "${gtr[@]}" --out "$png/$scene-sgbm-fixed.png")
    splitrow "SGBM fixed" "$f"
    row="$row,$(echo "$f" | val numdisparities)"
    for k in bad1-all bad2-all bad1-invalid-bad bad2-invalid-bad invalid total; do row="$row,$(echo "$f" | val $k)"; done
    if [ "$sweep" = 1 ]; then
      echo "run-stereo: $scene: SGBM sweep" >&2
      s=$($pin "$ocv" "$data/$scene/imL.png" "$data/$scene/imR.png" --ndisp "$labels" "${gt[@]}" \
          --sweep "${gtr[@]}" --out "$png/$scene-sgbm-best.png")
      splitrow "SGBM best" "$s"
      for k in bad1-all bad2-all bad1-invalid-bad bad2-invalid-bad invalid total; do row="$row,$(echo "$s" | val $k)"; done
      # Settings hold "speckle=W,R": written W/R in the CSV.
      bs=$(echo "$s" | sed -n 's/^setting: //p' | tr , /)
      is=$(echo "$s" | sed -n 's/^best-invalid-bad: \(.*\); bad1-invalid-bad .*/\1/p' | tr , /)
      iv=$(echo "$s" | sed -n 's/^best-invalid-bad: .*; bad1-invalid-bad \([0-9.]*\) %/\1/p')
      row="$row,$bs,$iv,$is"
    else
      row="$row,,,,,,,,,"
    fi
  else
    row="$row,,,,,,,,,,,,,,,,"
  fi
  echo "$row$extra,$(paste -sd, "$cpu")" >> "$csv"
done

{
  echo "# Stereo benchmark, $date"
  echo
  echo "Command: \`bench/run-stereo.sh${cmdline:+ $cmdline}\` (gcut $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'),"
  echo "$(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), both tools pinned to"
  echo "core 1 of a 2-core machine shared with other work: times are indicative)."
  echo "Bad pixels (%) at thresholds 1 and 2 over all pixels with known ground truth."
  echo "gcut: \`gcut-stereo --ndisp LABELS ${bt[*]}\` (BT cost, truncated linear, lambda 5, no check:"
  echo "the defaults before 0.3), integer disparities; gcut LR: \`${lrdef[*]}\` (left-right check,"
  echo "background fill, 3x3 median of the filled pixels); gcut census LR: gcut-stereo's defaults since"
  echo "0.3 (census cost, lambda 10, the check: one setting for every pair); gcut tuned:"
  echo "\`${tuned[*]}\` (tuned on these three pairs)."
  echo "GC: the graph-cut entry of the Middlebury v2 table (bad 1, all)."
  echo "SGBM: OpenCV $(pkg-config --modversion opencv4 2>/dev/null || echo '?') \`cv::StereoSGBM\`, one thread, subpixel"
  echo "disparities (1/16), invalid pixels filled from the left neighbour; \"inv. bad\" counts them as bad."
  echo "fixed: \`opencv_sgbm ${fixed[*]}\`; best: the best of \`opencv_sgbm --sweep\` for the"
  echo "pair, chosen on the ground truth (an optimistic bound for SGBM)."
  echo "Times: gcut's total (costs + expansion; with the check both views' and the fill), SGBM's"
  echo "compute call."
  echo
  echo "| scene | labels | gcut | gcut LR | gcut census LR | gcut tuned | GC | SGBM fixed | SGBM best | SGBM fixed / best, inv. bad |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$csv" | while IFS=, read -r sc lab g1 g2 en cy ce gms gct t1 t2 ten tcy tms nd f1 f2 fi1 fi2 finv fms b1 b2 bi1 bi2 binv bms bset biv bis l1 l2 linv lms c1 c2 cinv cms ubt ut ul uc; do
    echo "| $sc | $lab | $g1 % | $l1 % | $c1 % | $t1 % | $gct % | ${f1:+$f1 %} | ${b1:+$b1 %} | ${fi1:+$fi1 / $bi1 %} |"
  done
  echo
  echo "Bad 2:"
  echo
  echo "| scene | gcut | gcut LR | gcut census LR | gcut tuned | SGBM fixed | SGBM best | SGBM fixed / best, inv. bad |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$csv" | while IFS=, read -r sc lab g1 g2 en cy ce gms gct t1 t2 ten tcy tms nd f1 f2 fi1 fi2 finv fms b1 b2 bi1 bi2 binv bms bset biv bis l1 l2 linv lms c1 c2 cinv cms ubt ut ul uc; do
    echo "| $sc | $g2 % | $l2 % | $c2 % | $t2 % | ${f2:+$f2 %} | ${b2:+$b2 %} | ${fi2:+$fi2 / $bi2 %} |"
  done
  echo
  echo "Times (wall ms, and in brackets gcut's CPU time in s) and the pixels each method leaves to"
  echo "a fill (gcut: failed the left-right check; SGBM: invalid):"
  echo
  echo "| scene | gcut | gcut LR | gcut census LR | gcut tuned | SGBM fixed / best | gcut LR / census LR filled | SGBM fixed / best invalid |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$csv" | while IFS=, read -r sc lab g1 g2 en cy ce gms gct t1 t2 ten tcy tms nd f1 f2 fi1 fi2 finv fms b1 b2 bi1 bi2 binv bms bset biv bis l1 l2 linv lms c1 c2 cinv cms ubt ut ul uc; do
    echo "| $sc | $gms ($ubt s) | $lms ($ul s) | $cms ($uc s) | $tms ($ut s) | ${fms:+$fms / $bms} | $linv / $cinv % | ${finv:+$finv / $binv %} |"
  done
  if [ -s "$split" ]; then
    echo
    echo "Where the bad pixels (bad 1) are, with the right view's ground truth: \"border\": the match"
    echo "x - d is left of the right image; \"occluded\": the right ground truth at the match is"
    echo "unknown or differs by more than 1; \"visible\": the rest (\`opencv_sgbm --gt-right\`). Each cell:"
    echo "bad 1 among those pixels (bad 1 of all counted pixels)."
    echo
    echo "| scene | method | visible | occluded | border |"
    echo "|---|---|---:|---:|---:|"
    cat "$split"
  fi
  if [ $have_ocv = 1 ] && [ "$sweep" = 1 ]; then
    echo
    echo "SGBM best settings (by bad 1, filled; by bad 1 with invalid counted as bad):"
    echo
    tail -n +2 "$csv" | awk -F, '{ printf "- %s: %s; invalid as bad: %s (%s %%)\n", $1, $28, $30, $29 }'
  fi
} > "$md"
cat "$md"
