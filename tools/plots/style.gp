# Shared by the figure scripts (each sets its terminal first, then loads this).
# render.sh passes `data` (the directory plots.lua wrote) and `out` (the SVG).
set encoding utf8
set output out
set grid lc rgb "#dddddd" lw 1
set border lc rgb "#444444"
set key opaque box lc rgb "#cccccc" samplen 2.5 spacing 1.1
set tics nomirror
# Okabe-Ito colours, told apart by colour-blind readers too.
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 0.55 dt solid  # blue
set linetype 2 lc rgb "#D55E00" lw 2 pt 5 ps 0.55 dt solid  # vermillion
set linetype 3 lc rgb "#009E73" lw 2 pt 9 ps 0.65 dt solid  # green
set linetype 4 lc rgb "#CC79A7" lw 2 pt 11 ps 0.65 dt solid # purple
set linetype 5 lc rgb "#E69F00" lw 2 pt 13 ps 0.65 dt solid # orange
set linetype 6 lc rgb "#56B4E9" lw 2 pt 7 ps 0.55 dt solid  # sky blue
set linetype 7 lc rgb "#555555" lw 1 pt 1 ps 0.5 dt solid   # grey
set style textbox opaque noborder
load data."/values.gp"
