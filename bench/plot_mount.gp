# SPDX-License-Identifier: MIT
# bench/results/mount.png (issue 8): the mount workloads as clustered bars,
# one bar per target (vcryptfs, vcryptfs-nouring when io_uring is on,
# gocryptfs, passthrough, plain); left panel streaming MB/s (higher is
# better), right panel seconds for the file-tree workloads (lower is
# better). Medians over the rounds of one run.
# Called by bench/bench.sh: gnuplot -e "streamfile='..'; treefile='..';
# outfile='..'; ncols=N; plottitle='..'; treetitle='..'" plot_mount.gp,
# or with msg='..' (and outfile) only, which draws that text instead
# (the mount benchmark did not run: nothing is invented).
set terminal pngcairo size 1100,520 noenhanced font ",10"
set output outfile
if (exists("msg")) {
	unset border
	unset tics
	unset key
	set label 1 msg at graph 0.5, 0.5 center
	plot [0:1] [0:1] NaN notitle
	exit
}
set datafile separator "\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set key below horizontal
set multiplot layout 1, 2 title plottitle
set title "streaming (MB/s, higher is better)"
set ylabel "MB/s"
plot for [i=2:ncols] streamfile using i:xtic(1) title columnheader(i)
set title treetitle
set ylabel "seconds"
plot for [i=2:ncols] treefile using i:xtic(1) title columnheader(i)
unset multiplot
