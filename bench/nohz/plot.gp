# bench/nohz plot; run by run.sh as
#	gnuplot -e "data='FILE'; png='FILE'" bench/nohz/plot.gp
# Wakeups per second of an idle CPU, periodic and tickless, per HZ.

set terminal pngcairo size 1000,600 font ",10"
set output png
set title "Timer wakeups per second while idle (simulated PIT)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 10
set yrange [0.1:*]
set ylabel "wakeups per second (log)"
set xlabel "HZ"
set grid ytics
set key top left
plot data using 2:xtic(1) title "idle, periodic", \
	'' using 3 title "idle, tickless", \
	'' using 5 title "10 timers, periodic", \
	'' using 6 title "10 timers, tickless", \
	'' using 7 title "10 timers, limit"
