# docs/img/jump_arc.svg: the Beta jump tick by tick, with and without a ceiling.
# Data: plots.lua's jump_arc() (jump_arc.dat: feet above the floor per tick, one
# column per case; jump_limits.dat: under each ceiling, the highest the feet can go).
set terminal svg size 800,500 font "sans-serif,13" noenhanced background rgb "white"
load "tools/plots/style.gp"

set title "Beta 1.7.3 jump: one tick of jump input on the ground (player 0.6 × 1.8)"
set xlabel "ticks after the jump input (1 tick = 1/20 s)"
set ylabel "feet above the floor (blocks)"
set xrange [0:14]
set xtics 1
set yrange [0:2.05]
set ytics 0.25
set key top right Left reverse width -3

set label 1 sprintf("apex %.4f blocks, tick %d; lands on tick %d", \
    jump_apex, jump_apex_tick, jump_landed_tick) at jump_apex_tick, jump_apex \
    left offset 0.6, 0.8 tc rgb "#0072B2"

plot data."/jump_limits.dat" index 0 using 1:2 with lines lt 2 dt 2 lw 1 notitle, \
     data."/jump_limits.dat" index 1 using 1:2 with lines lt 3 dt 2 lw 1 notitle, \
     data."/jump_limits.dat" index 2 using 1:2 with lines lt 4 dt 2 lw 1 notitle, \
     for [c=2:5] data."/jump_arc.dat" using 1:c with linespoints lt (c - 1) title columnheader, \
     NaN with lines lt 7 dt 2 title "dashed: highest feet under that ceiling (its height − 1.8)"
