# SPDX-License-Identifier: MIT
# bench/results/crypto.png (issue 8): seal MB/s per block size, one line per
# XChaCha20-Poly1305 kernel present and per OpenSSL reference, log x.
# Called by bench/bench.sh: gnuplot -e "datafile='..'; outfile='..';
# ncols=N; plottitle='..'" bench/plot_crypto.gp. The data file is
# tab-separated: a header line, then "size<TAB>MB/s..." per size.
set terminal pngcairo size 960,600 noenhanced font ",10"
set output outfile
set datafile separator "\t"
set datafile missing "N/A"
set title plottitle
set logscale x 2
set xtics ("64 B" 64, "512 B" 512, "4 KiB" 4096, "64 KiB" 65536, "1 MiB" 1048576)
set xlabel "block size (log scale)"
set ylabel "seal MB/s (10^6 bytes per second of CPU time)"
set yrange [0:*]
set grid
set key top left box opaque
plot for [i=2:ncols] datafile using 1:i with linespoints lw 2 pt 7 \
	title columnheader(i)
