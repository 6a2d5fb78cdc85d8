# docs/img/liquids_ladder.svg: height over ticks in water, in lava and on a ladder.
# Data: plots.lua's liquids_ladder() (liquids.dat: feet above the pool's floor and
# the height gained in each tick, four cases; ladder.dat: the same on a ladder;
# values.gp: the steady speeds, the pool's depth, the ladder's phases).
set terminal svg size 900,680 font "sans-serif,12" noenhanced background rgb "white"
load "tools/plots/style.gp"

set multiplot layout 2, 2 title \
    "Beta 1.7.3 in liquids and on a ladder (player 0.6 × 1.8; 1 tick = 1/20 s)" font ",14"
set key at graph 0.97, graph 0.45 right top Left reverse width -3 font ",11"
set xlabel "ticks"
set ytics 1

# Water and lava: a pool pool_depth blocks deep; the dotted line is its surface.
set ylabel "feet above the pool floor (blocks)"
set yrange [0:pool_depth + 1.5]
set arrow 1 from graph 0, first pool_depth to graph 1, first pool_depth nohead lt 1 dt 3 lw 1
set label 1 "surface" at graph 0.02, first pool_depth offset 0, 0.5 tc rgb "#0072B2"

set title sprintf("(a) water: sinks %.3f, rises %.3f blocks/tick", \
    water_sink_speed, water_swim_speed)
set xrange [0:120]
set xtics 20
plot data."/liquids.dat" using 1:2 with linespoints lt 1 pi 4 title columnheader, \
     data."/liquids.dat" using 1:3 with linespoints lt 6 pi 4 title columnheader

set title sprintf("(b) lava: sinks %.3f, rises %.3f blocks/tick", \
    lava_sink_speed, lava_swim_speed)
set xrange [0:240]
set xtics 40
set arrow 1 lt 2 dt 3 lw 1
set label 1 tc rgb "#D55E00"
plot data."/liquids.dat" using 1:4 with linespoints lt 2 pi 8 title columnheader, \
     data."/liquids.dat" using 1:5 with linespoints lt 5 pi 8 title columnheader
unset arrow 1
unset label 1

# The ladder: forward into it, then sneak (holds on), then no input (slides down).
set title sprintf("(c) ladder: climbs %.4f, slides down %.3f blocks/tick", \
    ladder_climb_speed, ladder_slide_speed)
set ylabel "feet above the floor (blocks)"
set xrange [0:150]
set xtics 30
set yrange [0:9]
set arrow 2 from ladder_climb_end, graph 0 to ladder_climb_end, graph 1 nohead lt 7 dt 3
set arrow 3 from ladder_hold_end, graph 0 to ladder_hold_end, graph 1 nohead lt 7 dt 3
set label 2 "forward" at ladder_climb_end / 2, graph 0.93 center tc rgb "#555555"
set label 3 "sneak" at (ladder_climb_end + ladder_hold_end) / 2, graph 0.93 center tc rgb "#555555"
set label 4 "no input" at ladder_hold_end + 4, graph 0.93 left tc rgb "#555555"
set key at graph 0.5, graph 0.2 center top
plot data."/ladder.dat" using 1:2 with linespoints lt 3 pi 4 title columnheader
unset arrow 2
unset arrow 3
unset label 2
unset label 3
unset label 4

# Vertical speed of every case: the height gained in each tick.
set title "(d) vertical speed (height gained in the tick)"
set ylabel "vertical speed (blocks/tick)"
set xrange [0:150]
set xtics 30
set yrange [-0.2:0.3]
set ytics -0.2, 0.05, 0.15 format "%.2f"
set key default
set key top center opaque box lc rgb "#cccccc" Left reverse width -5 samplen 1.5 \
    font ",10" spacing 1 maxrows 3
plot data."/liquids.dat" using 1:6 with lines lt 1 title columnheader, \
     data."/liquids.dat" using 1:7 with lines lt 6 title columnheader, \
     data."/liquids.dat" using 1:8 with lines lt 2 title columnheader, \
     data."/liquids.dat" using 1:9 with lines lt 5 title columnheader, \
     data."/ladder.dat" using 1:3 with lines lt 3 title "on the ladder"
unset multiplot
