# docs/img/resolvers.svg: the per-axis and the swept resolver on the same course.
# Data: plots.lua's resolvers() (resolvers_topdown.dat: the position after each call
# of e:move and e:move_swept; resolvers_blocks.dat: the block boxes at waist height;
# resolvers_side.dat, resolvers_side_blocks.dat: a Beta walk with either resolver).
set terminal svg size 1000,540 font "sans-serif,12" noenhanced background rgb "white"
load "tools/plots/style.gp"

set multiplot title "The per-axis resolver (Beta moveEntity) and the swept one, same input, same blocks" \
    font ",14"
set style fill transparent solid 0.35 border lc rgb "#555555"
blocks = "with boxxyerror lc rgb '#999999' notitle"

# (a) Top-down: the box where each call ended, centres joined in call order.
set origin 0, 0
set size 0.56, 0.93
set title sprintf("(a) top-down: %d calls of the same move (%.1f, 0, %.1f)", \
    topdown_calls, move_dx, move_dz)
set xlabel "x (blocks)"
set ylabel "z (blocks)"
set size ratio -1
set xrange [-1.5:13.5]
set yrange [-0.5:9.5]
set xtics 1
set ytics 1
set key at graph 0.02, graph 0.97 left top Left reverse width -4 font ",11"
set label 1 "pillar" at 2.5, 2.5 center font ",10"
set label 2 "wall of single blocks (seams)" at 5.5, 8.5 center font ",10"
set label 3 "start" at 0.5, 0.5 left offset 0.9, -0.3 font ",10"
set label 4 sprintf("e:move moves X first: past the pillar's\ncorner, then Z is blocked by its -Z face.\ne:move_swept meets its -X face on the\ndiagonal and slides along it.\nBoth slide along the seams; in the corner\nthe swept box stops %.4f short.", \
    topdown_end_gap_x) at 5.3, 3.6 left font ",10" tc rgb "#333333"
plot data."/resolvers_blocks.dat" using (($1 + $3) / 2):(($2 + $4) / 2):1:3:2:4 @blocks, \
     data."/resolvers_topdown.dat" \
       using 2:3:($2 - half_width):($2 + half_width):($3 - half_width):($3 + half_width) \
       with boxxyerror fs empty border lt 2 lw 1 notitle, \
     data."/resolvers_topdown.dat" \
       using 4:5:($4 - half_width):($4 + half_width):($5 - half_width):($5 + half_width) \
       with boxxyerror fs empty border lt 1 lw 1 dt 2 notitle, \
     data."/resolvers_topdown.dat" using 2:3 with linespoints lt 2 \
       title "e:move (per-axis: Y, then X, then Z)", \
     data."/resolvers_topdown.dat" using 4:5 with linespoints lt 1 \
       title "e:move_swept (along the path)"

# (b) Side view: a Beta walk over a 0.25 layer, a 0.5 slab and a full block.
set origin 0.56, 0
set size 0.44, 0.93
set title "(b) side view: Beta rules walking +X onto 0.25, 0.5, 1.0"
set size noratio
set xlabel "x (blocks)"
set ylabel "feet height y (blocks)"
set xrange [0:13]
set yrange [63.9:65.6]
set xtics 1
set ytics 0.25 format "%.2f"
unset label
set label 1 "swept: lifted by step_height (0.5)\nat once, then falls back" \
    at 0.2, 65.12 left font ",10" tc rgb "#0072B2"
set label 2 sprintf("after %d ticks: axis at x = %.2f,\nswept at x = %.2f (slowed in the air)", \
    side_ticks, side_axis_x, side_swept_x) at 9.6, 65.45 center font ",10" tc rgb "#333333"
set arrow 1 from 1.7, 65.0 to 2.72, 64.53 lt 1 lw 1
set key at graph 0.02, graph 0.98 left top Left reverse width -2 font ",11"
plot data."/resolvers_side_blocks.dat" using (($1 + $3) / 2):(($2 + $4) / 2):1:3:2:4 @blocks, \
     data."/resolvers_side.dat" using 2:3 with linespoints lt 2 title columnheader(2), \
     data."/resolvers_side.dat" using 4:5 with linespoints lt 1 title columnheader(4)
unset multiplot
unset arrow 1
