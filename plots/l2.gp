# l2.gp - gmb-l2: bandwidth vs working set (read, write), the cache and memory plateaus and
# the capacity the benchmark found; cold vs warm bandwidth of the same kernel. With --counters
# (CUPTI) the L2's own hit rate of each read and write point on the right axis.
# Several devices: the panels are stacked (room for the key), else side by side.
# gmb: series part,state
# gmb: x size_bytes
# gmb: need size_bytes,bw_GBps
# gmb: runvar hw measurement.counters.passes
# gmb: runvar read_cache results.bandwidth.read.cache_GBps
# gmb: runvar read_mem results.bandwidth.read.memory_GBps
# gmb: runvar read_cap results.bandwidth.read.capacity_bytes
# gmb: runvar cache_name results.cache_name str
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(s_sub[i])
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_part[i] . (s_state[i] ne "-" && s_state[i] ne "" ? " " . s_state[i] : "")
bwsel(i) = s_part[i] eq "read" || s_part[i] eq "write"
cwsel(i) = s_part[i] eq "coldwarm"
nbw = 0
ncw = 0
do for [i = 1:NS] { if (bwsel(i)) { nbw = nbw + 1 }; if (cwsel(i)) { ncw = ncw + 1 } }
set output fig("bw")
T = NRUNS > 1 ? "Cache (L2 on a GPU) and memory bandwidth" : "Cache (L2 on a GPU) and memory bandwidth: " . run_label[1]
if (nbw > 0 && ncw > 0) { set multiplot layout (NRUNS > 1 ? 2 : 1), (NRUNS > 1 ? 1 : 2) title T } else { set title T }
set xlabel "working set"
XT_MAX = NRUNS > 1 ? 10.0 : 5.0
eval(SIZE_XTICS)
set logscale y
set format y "%g"
set key top right
set ylabel "bandwidth (GB/s; median, 95% CI)"
nhw = 0
do for [r = 1:NRUNS] { if (run_hw[r] > 0) { nhw = nhw + 1 } }
hwsel(i) = bwsel(i) && run_hw[s_run[i]] > 0
set y2range [0:105] # fixed: a run without counters has no y2 value, and none is drawn
if (nbw > 0 && nhw > 0) {
    set y2tics 0, 20, 100 nomirror
    set y2label "L2 hit rate (%; counters, one extra sample)"
}
if (nbw > 0) {
    plot for [i = 1:NS] s_file[i] using "size_bytes":(bwsel(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) title (bwsel(i) ? title_of(i) : ""), \
         for [r = 1:NRUNS] (run_read_cache[r] > 0 ? run_read_cache[r] : NaN) with lines dt (6, 3) \
            lc rgb (NRUNS > 1 ? col(r) : "#444444") title (run_read_cache[r] > 0 ? "read plateau: " . run_cache_name[r] : ""), \
         for [r = 1:NRUNS] (run_read_mem[r] > 0 ? run_read_mem[r] : NaN) with lines dt (2, 3) \
            lc rgb (NRUNS > 1 ? col(r) : "#444444") title (run_read_mem[r] > 0 ? "read plateau: memory" : ""), \
         for [i = 1:NS] s_file[i] using "size_bytes":(hwsel(i) ? 100 * column("hit_rate_hw") : NaN) axes x1y2 \
            with linespoints dt (2, 2) lc rgb lc_of(i) pt 6 title (hwsel(i) ? title_of(i) . ": L2 hit rate" : "")
}
unset y2tics
unset y2label
if (ncw > 0) {
    set title "cold (after a flush) vs warm"
    plot for [i = 1:NS] s_file[i] using "size_bytes":(cwsel(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) title (cwsel(i) ? title_of(i) : "")
}
if (nbw > 0 && ncw > 0) { unset multiplot }
