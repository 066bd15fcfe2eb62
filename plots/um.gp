# um.gp - gmb-um: managed-memory bandwidth vs buffer size, one line per test (on-demand
# migration and prefetch both ways, remote reads, read-mostly, the resident ceiling); time per
# dependent touch vs the stride between touched pages, pages on the host (each touch a fault)
# and resident on the device. Several devices: a colour per device, a point type per test.
# gmb: series test,placement
# gmb: x size_bytes
# gmb: need size_bytes
# gmb: optional bw_GBps,lat_us
# gmb: runvar migration results.migration str
TESTS = "resident fault-h2d fault-d2h prefetch-h2d prefetch-d2h remote readmostly system latency"
tidx(t) = sum [j = 1:9] (word(TESTS, j) eq t ? j : 0)
# no rate for a prefetch where the device's memory is the host's (nothing moved: a call time)
nomove(i) = strstrt(run_migration[s_run[i]], "none") == 1 && strstrt(s_test[i], "prefetch") == 1
bwsel(i) = s_test[i] ne "latency" && !nomove(i)
latsel(i) = s_test[i] eq "latency"
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(tidx(s_test[i]) > 0 ? tidx(s_test[i]) : s_sub[i])
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_test[i] . (s_placement[i] ne "" ? " (pages on the " . s_placement[i] . ")" : "")
bw_dt(i) = NRUNS > 1 ? dt_of(tidx(s_test[i]) > 0 ? tidx(s_test[i]) : 1) : 1
lat_dt(i) = s_placement[i] eq "host" ? 1 : 2
nbw = 0
nlat = 0
do for [i = 1:NS] { if (bwsel(i)) { nbw = nbw + 1 }; if (latsel(i)) { nlat = nlat + 1 } }

if (nbw > 0) {
    set output fig("bw")
    set title (NRUNS > 1 ? "Managed memory bandwidth" : "Managed memory bandwidth: " . run_label[1])
    set xlabel "managed buffer"
    set ylabel "bandwidth (GB/s, 10^9 B/s; median, 95% CI)"
    X_MIN = 1e30
    X_MAX = 0
    do for [i = 1:NS] {
        if (bwsel(i)) {
            stats s_file[i] using "size_bytes" nooutput
            X_MIN = STATS_min < X_MIN ? STATS_min : X_MIN
            X_MAX = STATS_max > X_MAX ? STATS_max : X_MAX
        }
    }
    if (X_MAX <= X_MIN) { X_MAX = X_MIN * 2 }
    eval(SIZE_XTICS)
    set logscale y
    set format y "%g"
    set key outside right top vertical
    plot for [i = 1:NS] s_file[i] using "size_bytes":(bwsel(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(tidx(s_test[i]) > 0 ? tidx(s_test[i]) : 1) \
            dt bw_dt(i) title (bwsel(i) ? title_of(i) : "")
}

if (nlat > 0) {
    set output fig("lat")
    unset multiplot
    set title (NRUNS > 1 ? "Time per touch of a new page" : "Time per touch of a new page: " . run_label[1])
    set xlabel "stride between the pages one thread touches (random order)"
    set ylabel "time per dependent touch (us; median, 95% CI)"
    X_MIN = 1e30
    X_MAX = 0
    do for [i = 1:NS] {
        if (latsel(i)) {
            stats s_file[i] using "stride_bytes" nooutput
            X_MIN = STATS_min < X_MIN ? STATS_min : X_MIN
            X_MAX = STATS_max > X_MAX ? STATS_max : X_MAX
        }
    }
    if (X_MAX <= X_MIN) { X_MAX = X_MIN * 2 }
    eval(SIZE_XTICS)
    set logscale y
    set format y "%g"
    set key outside right top vertical
    plot for [i = 1:NS] s_file[i] using (latsel(i) ? column("stride_bytes") : NaN):(latsel(i) ? column("lat_us") : NaN):"lat_us_ci_lo":"lat_us_ci_hi" \
            with yerrorlines lc rgb (NRUNS > 1 ? col(s_run[i]) : (s_placement[i] eq "host" ? col(2) : col(1))) \
            pt (s_placement[i] eq "host" ? 7 : 5) dt lat_dt(i) title (latsel(i) ? title_of(i) : "")
}
