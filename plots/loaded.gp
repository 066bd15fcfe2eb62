# loaded.gp - gmb-loaded: the latency of a DRAM chase vs the bandwidth streamed beside it (the
# latency-bandwidth curve: from the idle latency at 0 GB/s to the most bandwidth), reads solid,
# writes dashed, 95% CI bars both ways, the nominal peak as a long-dashed line; one colour per
# device. Where a peak is known, also against the share of it (cards of different peaks).
# gmb: series traffic,group_size
# gmb: need load_groups,bw_GBps,lat_ns
# gmb: runvar peak device.peak_bw_GBps
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(s_traffic[i] eq "write" ? 2 : 1)
title_of(i) = run_label[s_run[i]] . ": " . s_traffic[i] . (NRUNS > 1 ? "" : sprintf(" (groups of %s work-items)", s_group_size[i]))
dt_tr(i) = s_traffic[i] eq "write" ? 2 : 1
set output fig("lat")
set title (NRUNS > 1 ? "Latency under load" : "Latency under load: " . run_label[1])
set xlabel "bandwidth streamed beside the chase (GB/s, 10^9 B/s; median, 95% CI)"
set ylabel "latency per chase load (ns; median, 95% CI)"
# the x axis reaches the largest bandwidth and every known nominal peak
XHI = 0
do for [i = 1:NS] { stats s_file[i] using "bw_GBps" nooutput; XHI = STATS_max > XHI ? STATS_max : XHI }
do for [r = 1:NRUNS] { XHI = run_peak[r] > XHI ? run_peak[r] : XHI }
set xrange [0:(XHI > 0 ? 1.05 * XHI : 1)]
set yrange [0:*]
set key top left
do for [r = 1:NRUNS] {
    if (run_peak[r] > 0) {
        set arrow from run_peak[r], graph 0 to run_peak[r], graph 1 nohead lw 1.6 dt (8, 4) \
            lc rgb (NRUNS > 1 ? col(r) : "#444444")
        set label sprintf("%snominal peak %.0f GB/s", NRUNS > 1 ? run_label[r] . ": " : "", run_peak[r]) \
            at run_peak[r], graph 0.03 left rotate by 90 offset -1.1, 0 font ",9" \
            tc rgb (NRUNS > 1 ? col(r) : "#444444")
    }
}
plot for [i = 1:NS] s_file[i] using "bw_GBps":"lat_ns":"bw_GBps_ci_lo":"bw_GBps_ci_hi":"lat_ns_ci_lo":"lat_ns_ci_hi" \
        with xyerrorlines lc rgb lc_of(i) pt pt_of(s_run[i] + (s_traffic[i] eq "write" ? 1 : 0)) dt dt_tr(i) title title_of(i)

# cards of different peaks side by side: the same curve against the share of each card's own
# nominal peak (only runs whose peak is known)
npk = 0
do for [r = 1:NRUNS] { if (run_peak[r] > 0) { npk = npk + 1 } }
if (npk > 0) {
    set output fig("lat-pct")
    unset arrow
    unset label
    set title (NRUNS > 1 ? "Latency under load, by share of the nominal peak" : "Latency under load: " . run_label[1])
    set xlabel "bandwidth streamed beside the chase (% of the device's nominal peak; median)"
    set xrange [0:100]
    plot for [i = 1:NS] s_file[i] using (run_peak[s_run[i]] > 0 ? 100.0 * column("bw_GBps") / run_peak[s_run[i]] : NaN):"lat_ns":"lat_ns_ci_lo":"lat_ns_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(s_run[i] + (s_traffic[i] eq "write" ? 1 : 0)) dt dt_tr(i) title title_of(i)
}
