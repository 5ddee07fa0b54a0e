# bench/timers plots; run by run.sh as
#	gnuplot -e "data='DIR'; png='DIR'" bench/timers/plot.gp
# reading the .dat files that report.awk writes in data.

set terminal pngcairo size 1200,900 font ",10"
set grid
set key top left
set logscale x 10
set logscale y 10
set xlabel "timers"
set ylabel "ns per operation"
set format x "%.0s%c"

ops = "add rearm cancel expire"
titles = "add re-arm cancel expire (per timer)"

do for [o in "random seq"] {
	set output png . "/timers_" . o . ".png"
	set multiplot layout 2,2 title (o eq "random" ? \
		"Timers, random order: ns per operation (median)" : \
		"Timers, memory order: ns per operation (median)")
	do for [k = 1:4] {
		f = data . "/plot_" . o . "_" . word(ops, k) . ".dat"
		set title word(titles, k)
		plot for [c = 2:5] f using 1:c with linespoints lw 2 pt 7 title columnhead(c)
	}
	unset multiplot
}

set output png . "/empty_tick.png"
set terminal pngcairo size 900,600 font ",10"
set title "Empty tick (nothing due) against pending timers, HZ=1000"
set xlabel "pending timers"
unset logscale y
set yrange [0:*]
set ylabel "per tick"
set format x "%.0s%c"
set xrange [0.5:2000000]
plot data . "/plot_empty.dat" using 1:2 with linespoints lw 2 pt 7 title "ns per tick", \
     "" using 1:3 with linespoints lw 2 pt 5 title "instructions per tick (with the host loop)", \
     "" using 1:4 with linespoints lw 2 pt 9 title "instructions per tick (handler)"

set output png . "/drift.png"
set title "Drift over a simulated day on the PIT, per HZ"
unset logscale x
set xrange [*:*]
set yrange [*:*]
set format x "%g"
set xlabel "HZ"
set ylabel "ppm"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set xtics rotate by -45
plot data . "/plot_drift.dat" using 2:xtic(1) title "plain HZ arithmetic (1/HZ per tick)", \
     "" using 3 title "ktime\\_get\\_ns, clocksource", \
     "" using 4 title "ktime\\_get\\_ns, ticks only"
unset output
