# docs/img/speed_curves.svg: horizontal speed from standstill, then after release.
# Data: plots.lua's speed_curves() (speed_curves.dat: distance moved in each tick,
# one column per case; values.gp: terminal speeds, ticks to 99 %, distance slid).
set terminal svg size 800,500 font "sans-serif,13" noenhanced background rgb "white"
load "tools/plots/style.gp"

set title "Beta 1.7.3 walking: speed from standstill, input held, then released"
set xlabel "ticks (1 tick = 1/20 s)"
set ylabel "speed (blocks/tick): distance moved in the tick"
set y2label "speed (blocks/s)"
set xrange [0:speed_release + 80]
set xtics 20
set yrange [0:0.28]
set ytics 0.05 format "%.2f"
set y2tics 1 format "%.0f"
set link y2 via y * 20 inverse y / 20
set key at graph 0.125, graph 0.49 left top Left reverse width -9

set arrow 1 from speed_release, graph 0 to speed_release, graph 1 nohead lt 7 dt 3
set label 1 "input released" at speed_release, graph 0.97 right offset -0.5, 0 tc rgb "#555555"
set label 2 sprintf("%.4f b/t = %.3f b/s, 99 %% by tick %d", walk_terminal, \
    20 * walk_terminal, walk_reach99) at 22, walk_terminal offset 0, 0.8 tc rgb "#0072B2"
set label 3 sprintf("%.4f b/t = %.3f b/s, 99 %% by tick %d", ice_terminal, \
    20 * ice_terminal, ice_reach99) at 24, 0.178 tc rgb "#009E73"
set label 4 sprintf("%.4f b/t = %.3f b/s, 99 %% by tick %d", sneak_terminal, \
    20 * sneak_terminal, sneak_reach99) at 22, sneak_terminal offset 0, 0.8 tc rgb "#D55E00"
set label 5 sprintf("after the release it slides\n%.2f blocks on stone,\n%.2f sneaking, %.2f on ice", \
    walk_slid, sneak_slid, ice_slid) at speed_release + 12, graph 0.8 tc rgb "#555555"

plot data."/speed_curves.dat" using 1:2 with linespoints lt 1 pi 2 title columnheader, \
     data."/speed_curves.dat" using 1:3 with linespoints lt 2 pi 2 title columnheader, \
     data."/speed_curves.dat" using 1:4 with linespoints lt 3 pi 2 title columnheader
