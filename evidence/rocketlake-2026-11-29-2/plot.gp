# Draws distance.png from measurements.csv: gnuplot plot.gp
set terminal pngcairo size 1500,950 font ',9'
set output 'distance.png'
set datafile separator ','
set logscale y
set xrange [0:4095]
set xtics 512
set grid
set key top right
set multiplot layout 2,3 title "rocketlake (Intel(R) Xeon(R) Processor), guest: TSC ticks per copy against (dst - src) mod 4096; window 0"
set title '64 bytes'
set xlabel 'distance (bytes)'
set ylabel 'ticks per copy'
plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == 64 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', '' every ::1 using 3:(strcol(1) eq 'down' && $2 == 64 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'descending copy'
set title '256 bytes'
set xlabel 'distance (bytes)'
set ylabel 'ticks per copy'
plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == 256 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', '' every ::1 using 3:(strcol(1) eq 'down' && $2 == 256 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'descending copy'
set title '1024 bytes'
set xlabel 'distance (bytes)'
set ylabel 'ticks per copy'
plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == 1024 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', '' every ::1 using 3:(strcol(1) eq 'down' && $2 == 1024 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'descending copy'
set title '4096 bytes'
set xlabel 'distance (bytes)'
set ylabel 'ticks per copy'
plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == 4096 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', '' every ::1 using 3:(strcol(1) eq 'down' && $2 == 4096 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'descending copy'
set title '8192 bytes'
set xlabel 'distance (bytes)'
set ylabel 'ticks per copy'
plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == 8192 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', '' every ::1 using 3:(strcol(1) eq 'down' && $2 == 8192 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'descending copy'
set title '65536 bytes'
set xlabel 'distance (bytes)'
set ylabel 'ticks per copy'
plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == 65536 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', '' every ::1 using 3:(strcol(1) eq 'down' && $2 == 65536 && $5 > 0 ? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'descending copy'
unset multiplot
