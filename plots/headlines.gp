# headlines.gp - the headline figures of a program that has no plot script of its own (its
# record's "headlines", as gmb table shows them): a panel per unit, a bar per figure and one
# per run, medians with their 95% CI where the figure has one. gmb plot gives the figures as
# rows of the table, grouped by unit: NG groups, group g's file F_g<g>, rows N_g<g>, unit
# U_g<g>; BENCH the program.
set style data histograms
set style histogram errorbars gap 1.5 lw 1
set style fill solid 0.85 border rgb "#444444"
set boxwidth 0.9
set logscale y
set format y "%g"
set grid noxtics ytics mytics
set xtics rotate by -30 left nomirror scale 0 font ",9"
set key tmargin left Left reverse vertical font ",8"
set output fig("headlines")
set multiplot layout 1, NG title "gmb-" . BENCH . ": headline figures" . \
    (NRUNS > 1 ? "" : ": " . run_label[1]) . "\n" font ",11"
# the value and CI columns of run r: 3r-1 (median), 3r (low), 3r+1 (high)
do for [g = 1:NG] {
    set ylabel value(sprintf("U_g%d", g)) . " (median, 95% CI)"
    plot for [r = 1:NRUNS] value(sprintf("F_g%d", g)) \
        using (column(3 * r - 1)):(column(3 * r)):(column(3 * r + 1)):xtic(1) \
        title run_label[r] lc rgb col(r)
}
unset multiplot
