# Draws table.png: gnuplot plot.gp
set terminal pngcairo size 1500,700 font ',9' noenhanced
set output (ARGC > 0 ? ARG1 : 'table.png')
set linetype 1 lc rgb '#4e79a7'
set linetype 2 lc rgb '#f28e2b'
set linetype 3 lc rgb '#e15759'
set linetype 4 lc rgb '#59a14f'
set linetype 5 lc rgb '#b07aa1'
set linetype 6 lc rgb '#76b7b2'
set linetype 7 lc rgb '#edc948'
set linetype 8 lc rgb '#000000'
set linetype 9 lc rgb '#ff9da7'
set linetype 10 lc rgb '#9c755f'
set linetype 11 lc rgb '#17becf'
set linetype 12 lc rgb '#8c8c8c'
set linetype cycle 12
set datafile separator ','
set logscale x 2
set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864)
set xrange [0.8:1.3e6]
set yrange [-50:4146]
set ytics 512
set grid
set xlabel 'length (bytes)'
set ylabel '(dst - src) mod 4096'
set multiplot layout 1,2 title 'zen5 (Oxide Virtual Turin-like Processor), guest: the derived table at every measured point'
set title 'strategy chosen'
set key outside bottom center horizontal
plot 'choice.csv' every ::1 using 1:($4 == 0 ? $2 : 1/0) with points pt 5 ps 0.4 lc 1 title 'forward'
set title 'regret: chosen / best measured'
set cbrange [1:21.246]
set palette defined (0 'white', 1 'orange', 2 'red')
unset key
plot 'choice.csv' every ::1 using 1:2:5 with points pt 5 ps 0.4 palette
unset multiplot
