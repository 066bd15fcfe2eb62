# loaded.gp - gmb-loaded: the latency of a DRAM chase vs the bandwidth streamed beside it (the
# latency-bandwidth curve: from the idle latency at 0 GB/s to the most bandwidth), 95% CI bars
# both ways, the nominal peak as a dashed line; one colour per device.
# gmb: series group_size
# gmb: need load_groups,bw_GBps,lat_ns
# gmb: runvar peak device.peak_bw_GBps
lc_of(i) = col(s_run[i])
title_of(i) = run_label[s_run[i]] . (NRUNS > 1 ? "" : sprintf(" (groups of %s work-items)", s_group_size[i]))
set output fig("lat")
set title (NRUNS > 1 ? "Latency under load" : "Latency under load: " . run_label[1])
set xlabel "bandwidth streamed beside the chase (GB/s, 10^9 B/s; median, 95% CI)"
set ylabel "latency per chase load (ns; median, 95% CI)"
set xrange [0:*]
set yrange [0:*]
set key top left
do for [r = 1:NRUNS] {
    if (run_peak[r] > 0) {
        set arrow from run_peak[r], graph 0 to run_peak[r], graph 1 nohead lw 1.6 dt (8, 4) \
            lc rgb (NRUNS > 1 ? col(r) : "#444444")
        set label sprintf("nominal peak %.0f GB/s", run_peak[r]) at run_peak[r], graph 0.97 right offset -0.5, 0 font ",9"
    }
}
plot for [i = 1:NS] s_file[i] using "bw_GBps":"lat_ns":"bw_GBps_ci_lo":"bw_GBps_ci_hi":"lat_ns_ci_lo":"lat_ns_ci_hi" \
        with xyerrorlines lc rgb lc_of(i) pt pt_of(s_run[i]) title title_of(i)
