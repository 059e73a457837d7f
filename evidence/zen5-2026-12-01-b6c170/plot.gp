# Draws table.png: gnuplot plot.gp
set terminal pngcairo size 1500,700 font ',9' noenhanced
set output (ARGC > 0 ? ARG1 : 'table.png')
set datafile separator ','
set logscale x 2
set xrange [0.8:1.3e6]
set yrange [-50:4146]
set ytics 512
set grid
set xlabel 'length (bytes)'
set ylabel '(dst - src) mod 4096'
set multiplot layout 1,2 title 'zen5 (Oxide Virtual Turin-like Processor), guest: the derived table at every measured point'
set title 'strategy chosen'
set key outside bottom center horizontal
plot 'choice.csv' every ::1 using 1:($4 == 0 ? $2 : 1/0) with points pt 5 ps 0.4 lc 1 title 'forward', 'choice.csv' every ::1 using 1:($4 == 1 ? $2 : 1/0) with points pt 5 ps 0.4 lc 2 title 'forward_aligned', 'choice.csv' every ::1 using 1:($4 == 2 ? $2 : 1/0) with points pt 5 ps 0.4 lc 3 title 'down', 'choice.csv' every ::1 using 1:($4 == 3 ? $2 : 1/0) with points pt 5 ps 0.4 lc 4 title 'small', 'choice.csv' every ::1 using 1:($4 == 4 ? $2 : 1/0) with points pt 5 ps 0.4 lc 5 title 'avx2_forward', 'choice.csv' every ::1 using 1:($4 == 5 ? $2 : 1/0) with points pt 5 ps 0.4 lc 6 title 'avx2_down', 'choice.csv' every ::1 using 1:($4 == 6 ? $2 : 1/0) with points pt 5 ps 0.4 lc 7 title 'avx2_small', 'choice.csv' every ::1 using 1:($4 == 7 ? $2 : 1/0) with points pt 5 ps 0.4 lc 8 title 'avx2_nt', 'choice.csv' every ::1 using 1:($4 == 8 ? $2 : 1/0) with points pt 5 ps 0.4 lc 9 title 'avx512_forward', 'choice.csv' every ::1 using 1:($4 == 9 ? $2 : 1/0) with points pt 5 ps 0.4 lc 10 title 'avx512_down'
set title 'regret: chosen / best measured'
set cbrange [1:1.270]
set palette defined (0 'white', 1 'orange', 2 'red')
unset key
plot 'choice.csv' every ::1 using 1:2:5 with points pt 5 ps 0.4 palette
unset multiplot
