#!/usr/bin/env bash
# bitcheck.sh BUILD OUT: the results of the CPU engines and tools on many
# instances (flow values, cut, flow, mask and disparity hashes; no times) in
# OUT/results.txt, to compare two builds line by line (a release that
# changes no algorithm must leave every line as it was). Needs the data of
# ../shared/data (SOURCES.md there) for the real instances. About 7 minutes
# on 2 cores.
set -u
B=$1; O=$2; R=$(cd "$(dirname "$0")/.." && pwd); S=${GCUT_DATA:-$R/../shared/data}
mkdir -p $O; T=$(mktemp -d)
out=$O/results.txt; : > $out
h() { md5sum "$1" 2>/dev/null | cut -c1-12; }
# A DIMACS flow file without its comment lines (they name the gcut version).
hf() { [ -f "$1" ] && grep -v '^c ' "$1" | md5sum | cut -c1-12; }
gen() { $B/bin/gcut-gen "$@" -q -o $T/g.max 2>/dev/null; }
run_maxflow() { # name file
  for be in cpu-bk cpu-hipr cpu-prsn cpu-ref auto; do
    rm -f $T/cut $T/flow
    fl=""; [ $be != cpu-prsn ] && fl="--flow $T/flow"
    r=$($B/bin/gcut-maxflow -b $be -t 2 --cut $T/cut $fl "$2" 2>&1 | grep -E '^(flow|backend):' | tr '\n' ' ')
    echo "maxflow $1 $be: $r cut=$(h $T/cut) flow=$(hf $T/flow)" >> $out
  done
}
for f in $R/tests/data/dimacs/*.max $S/maxflow/*.max $R/examples/*.max.gz; do
  case $(basename $f) in bad_*) continue;; esac
  run_maxflow $(basename $f) $f
done
i=0
for spec in genrmf:a=10,b=12 rlg:r=40,c=60 acyclic:n=200 grid2d:w=64,h=48 grid2d:w=40,h=40,conn=8 grid2d:w=96,h=80,kind=vision powerlaw:n=3000 grid3d:w=20,h=20,d=20 grid3d:w=16,h=16,d=16,conn=26,kind=vision; do
  for seed in 1 2 3; do
    if gen $spec --seed $seed; then run_maxflow "$spec#$seed" $T/g.max; else echo "gen $spec failed" >> $out; fi
  done
done
for f in $R/tests/data/mtx/*.mtx; do
  case $(basename $f) in bad_*) continue;; esac
  for be in cpu-match-pr cpu-match-hk; do
    r=$($B/bin/gcut-match -b $be --out $T/m "$f" 2>&1 | grep -E '^(matching|size|backend)' | tr '\n' ' ')
    echo "match $(basename $f) $be: $r out=$(h $T/m)" >> $out; rm -f $T/m
  done
done
seg() { # name args...
  n=$1; shift
  for be in cpu-bk cpu-grid-pr auto; do
    rm -f $T/mask.png
    r=$($B/bin/gcut-seg "$@" -b $be -t 2 -o $T/mask.png 2>&1 | grep -E '^(backend|iterations|energy|foreground):' | tr '\n' ' ')
    echo "seg $n $be: $r mask=$(h $T/mask.png)" >> $out
  done
}
seg shapes $R/images/shapes.png --seeds $R/images/shapes-seeds.png
seg blob $R/images/blob.png --seeds $R/images/blob-scribbles.png
seg blob-hist $R/images/blob.png --seeds $R/images/blob-scribbles.png -m hist -c 4
tail -n +2 $S/grabcut/index.csv | head -${NSEG:-12} | while IFS=, read name img w h x0 y0 x1 y1 rest; do
  seg "gc-$name" $S/grabcut/$img --rect $x0,$y0,$((x1-x0)),$((y1-y0))
done
for sc in tsukuba venus; do
  nd=$(grep "^$sc" $S/middlebury/params.csv | cut -d, -f2)
  # Every setting spelled out (the defaults changed in 0.3; --no-lr-check is new in 0.3).
  for extra in "-c bt -l 5 --no-lr-check" "-c bt -l 5 --no-lr-check --swap --cycles 2" \
               "-c census -l 10 --lr-check"; do
    rm -f $T/d.png
    r=$($B/bin/gcut-stereo $S/middlebury/$sc/imL.png $S/middlebury/$sc/imR.png --ndisp ${nd:-16} $extra -o $T/d.png 2>&1 | grep -E '^(energy|cycles|moves|backend)' | tr '\n' ' ')
    echo "stereo $sc [$extra]: $r disp=$(h $T/d.png)" >> $out
  done
done
rm -rf $T
wc -l $out
