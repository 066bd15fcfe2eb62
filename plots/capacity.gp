# capacity.gp - gmb-capacity: allocation (solid) and free (dashed) time against size, a line per
# allocator, beside the first-touch time (the touch kernel; pinned memory: the host); and the
# bisection of the largest allocation: the size each probe tried, filled where it was allocated,
# touched and verified, open where the backend refused, with the answer dashed. Several
# devices: a colour per device, a point type per allocator (the probes: a colour per device).
# gmb: series part,allocator
# gmb: x size_bytes
# gmb: need size_bytes,alloc_us
# gmb: optional free_us,touch_us
# gmb: results probes
# gmb: resultcols probes search,index,size_bytes,ok,time_ms
# gmb: resultrows probes search=largest,size_bytes
# gmb: runvar largest results.largest.bytes
# gmb: runvar bound results.largest.bound_bytes
# gmb: runvar bound_by results.largest.bound_by str
ALLOCS = "device pinned managed async"
aidx(i) = sum [j = 1:4] (word(ALLOCS, j) eq s_allocator[i] ? j : 0)
asel(i) = s_part[i] eq "alloc"
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(aidx(i) > 0 ? aidx(i) : s_sub[i])
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_allocator[i]
nalloc = 0
do for [i = 1:NS] { if (asel(i)) { nalloc = nalloc + 1 } }
nprobes = 0
do for [r = 1:NRUNS] { nprobes = nprobes + res_n_probes[r] }

if (nalloc > 0) {
    set output fig("alloc")
    X_MIN = 1e30
    X_MAX = 0
    do for [i = 1:NS] {
        if (asel(i)) {
            stats s_file[i] using "size_bytes" nooutput
            X_MIN = STATS_min < X_MIN ? STATS_min : X_MIN
            X_MAX = STATS_max > X_MAX ? STATS_max : X_MAX
        }
    }
    if (X_MAX <= X_MIN) { X_MAX = X_MIN * 2 }
    set multiplot layout 1, 2 title (NRUNS > 1 ? "Allocation, free and first-touch time" : \
        "Allocation, free and first-touch time: " . run_label[1])
    XT_MAX = 5.0
    eval(SIZE_XTICS)
    set logscale y
    set format y "%g"
    set xlabel "allocation"
    set key top left font ",8"
    set title "allocation (solid) and free (dashed)"
    set ylabel "host time (us; median, 95% CI)"
    plot for [i = 1:NS] s_file[i] using "size_bytes":(asel(i) ? column("alloc_us") : NaN):"alloc_us_ci_lo":"alloc_us_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(aidx(i) > 0 ? aidx(i) : 1) dt 1 \
            title (asel(i) ? title_of(i) : ""), \
         for [i = 1:NS] s_file[i] using "size_bytes":(asel(i) ? column("free_us") : NaN) \
            with linespoints lc rgb lc_of(i) pt pt_of(aidx(i) > 0 ? aidx(i) : 1) dt 2 notitle
    set title "first touch (every word written)"
    plot for [i = 1:NS] s_file[i] using "size_bytes":(asel(i) ? column("touch_us") : NaN):"touch_us_ci_lo":"touch_us_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(aidx(i) > 0 ? aidx(i) : 1) \
            title (asel(i) ? title_of(i) : "")
    unset multiplot
}

if (nprobes > 0) {
    set output fig("probes")
    unset logscale
    set xtics auto
    set mxtics default
    set format x "%g"
    set format y "%g"
    set autoscale
    set xrange [0.5:*]
    set yrange [0:*]
    set offsets 0, 0.5, 0, 0
    if (NRUNS > 1) { set key below left Left reverse vertical font ",8" } else { set key top right font ",9" }
    set title (NRUNS > 1 ? "Largest allocation: the bisection's probes" : \
               "Largest allocation: the bisection's probes: " . run_label[1])
    set xlabel "probe"
    set ylabel "size tried (MiB)"
    MIB = 1048576.0
    answer_title(r) = (NRUNS > 1 ? run_label[r] . ": " : "") . sprintf("largest %.1f MiB", run_largest[r] / MIB) . \
                      (run_largest[r] >= run_bound[r] && run_bound_by[r] eq "--limit" ? " (at least: capped by --limit)" : "")
    plot for [r = 1:NRUNS] res_probes[r] using "index":(strcol("ok") eq "true" ? column("size_bytes") / MIB : NaN) \
            with points lc rgb col(r) pt 7 ps 1.2 title ((NRUNS > 1 ? run_label[r] . ": " : "") . "allocated and verified"), \
         for [r = 1:NRUNS] res_probes[r] using "index":(strcol("ok") eq "true" ? NaN : column("size_bytes") / MIB) \
            with points lc rgb col(r) pt 6 ps 1.2 title ((NRUNS > 1 ? run_label[r] . ": " : "") . "refused (or failed verification)"), \
         for [r = 1:NRUNS] (run_largest[r] / MIB) with lines lc rgb col(r) dt 2 title answer_title(r)
}
