# stream.gp - gmb-stream: bandwidth vs bytes per array, one line per kernel (and access
# width), 95% CI bars, the nominal peak as a dashed line; one colour per device.
# gmb: series kernel,width_bytes
# gmb: x size_bytes
# gmb: need size_bytes,bw_GBps
# gmb: runvar peak device.peak_bw_GBps
KERNELS = "read fill copy scale add triad dot"
kidx(k) = sum [j = 1:7] (word(KERNELS, j) eq k ? j : 0)
# one device: a colour per kernel; several: a colour per device, a dash and point per kernel
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(kidx(s_kernel[i]) > 0 ? kidx(s_kernel[i]) : s_sub[i])
dtk(i) = NRUNS > 1 ? dt_of(kidx(s_kernel[i])) : 1
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_kernel[i] . " (" . s_width_bytes[i] . " B)"
peak_title(r) = run_peak[r] > 0 ? sprintf("%snominal peak %.0f GB/s", NRUNS > 1 ? run_label[r] . ": " : "", run_peak[r]) : ""

set output fig("bw")
set title (NRUNS > 1 ? "Streaming bandwidth" : "Streaming bandwidth: " . run_label[1])
set xlabel "bytes per array"
set ylabel "bandwidth (GB/s, 10^9 B/s; median, 95% CI)"
eval(SIZE_XTICS)
set logscale y
set format y "%g"
set key outside right top vertical
plot for [i = 1:NS] s_file[i] using "size_bytes":"bw_GBps":"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of(kidx(s_kernel[i])) dt dtk(i) \
        title title_of(i), \
     for [r = 1:NRUNS] (run_peak[r] > 0 ? run_peak[r] : NaN) with lines lw 1.6 dt (8, 4) \
        lc rgb (NRUNS > 1 ? col(r) : "#444444") title peak_title(r)
