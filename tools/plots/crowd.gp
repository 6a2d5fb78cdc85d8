# docs/img/crowd.svg: 40 players spawned almost on one point, with each push model.
# Data: plots.lua's crowd() (crowd_<push>.dat: each entity's position every tick, one
# polyline per entity; crowd_stats.dat: mean deepest overlap and r.m.s. distance from
# the spawn point per tick; values.gp: counts and the final spread).
set terminal svg size 1000,560 font "sans-serif,12" noenhanced background rgb "white"
load "tools/plots/style.gp"

set multiplot title sprintf("A crowd settling: %d players (0.6 wide) spawned within 0.1 block of one point, no input", \
    crowd_n) font ",14"

# Top-down trails: the path of each entity (its position every tick, thin), the
# spawn point (cross) and where each one is after crowd_ticks ticks (a marker: circles
# drawn to scale would be polygons of hundreds of vertices each in the SVG).
set xlabel "x (blocks)"
set ylabel "z (blocks)"
set size ratio -1
set xrange [crowd_cx - 9:crowd_cx + 9]
set yrange [crowd_cz - 9:crowd_cz + 9]
set xtics 3
set ytics 3
set key below horizontal Left reverse width -1 font ",10" samplen 1.5

set origin 0, 0.02
set size 0.31, 0.92
set title sprintf("(a) push 'separate': no overlap from tick %d", crowd_separate_settled)
plot data."/crowd_separate.dat" using 2:3 with lines lt 1 lw 0.6 title "paths", \
     data."/crowd_separate_end.dat" using 1:2 with points lt 1 pt 6 ps 1.1 \
       title sprintf("tick %d", crowd_ticks), \
     "+" using (crowd_cx):(crowd_cz) every ::0::0 with points lt 7 pt 2 ps 1.5 title "spawn point"

set origin 0.31, 0.02
set size 0.31, 0.92
set title sprintf("(b) push 'beta173': no overlap from tick %d", crowd_beta173_settled)
plot data."/crowd_beta173.dat" using 2:3 with lines lt 2 lw 0.6 title "paths", \
     data."/crowd_beta173_end.dat" using 1:2 with points lt 2 pt 6 ps 1.1 \
       title sprintf("tick %d", crowd_ticks), \
     "+" using (crowd_cx):(crowd_cz) every ::0::0 with points lt 7 pt 2 ps 1.5 title "spawn point"

# The mean deepest overlap (left axis) and the spread (right axis) over the first ticks.
set origin 0.62, 0.02
set size 0.38, 0.92
set size noratio
set title "(c) overlap and spread over the first ticks"
set xlabel "ticks"
set ylabel "mean deepest overlap (blocks)"
set y2label "r.m.s. distance from the spawn point (blocks)" offset -1, 0
set xrange [0:20]
set yrange [0:0.7]
set y2range [0:7]
set xtics 5
set ytics 0.1 format "%.1f"
set y2tics 1
set key default
set key at graph 0.97, graph 0.55 right top opaque box lc rgb "#cccccc" Left reverse width -5 \
    font ",10" samplen 1.5
plot data."/crowd_stats.dat" using 1:2 with linespoints lt 1 title "overlap, 'separate'", \
     data."/crowd_stats.dat" using 1:3 with linespoints lt 2 title "overlap, 'beta173'", \
     data."/crowd_stats.dat" using 1:4 axes x1y2 with linespoints lt 1 dt 2 pt 6 title "spread, 'separate'", \
     data."/crowd_stats.dat" using 1:5 axes x1y2 with linespoints lt 2 dt 2 pt 4 title "spread, 'beta173'"
unset multiplot
