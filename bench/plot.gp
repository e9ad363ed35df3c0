# bench/plot.gp - clustered bar chart of median solve times (log scale).
#
#   gnuplot -e "data='pivot.dat'; out='chart.png'; ncols=4" bench/plot.gp
#
# data: whitespace-separated table, first row "instance BACKEND...", then one
# row per instance with the solve time in ms of each back end ("?" = none).
# bench/plot.sh makes it from a gcut-bench CSV.
if (!exists("data")) data = 'bench.dat'
if (!exists("out")) out = 'bench.png'
if (!exists("ncols")) ncols = 2
if (!exists("title")) title = 'gcut: median solve time per back end (ms, log scale)'

set terminal pngcairo size 1400,760 font ",10"
set output out
set title title
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set yrange [0.1:*]
set format y "%g"
set ylabel 'solve time [ms]'
set grid ytics
set xtics rotate by 25 right nomirror font ",9"
set bmargin 12
set lmargin 24
set key outside right top
plot for [i=2:ncols] data using i:xtic(1) title columnheader(i)
