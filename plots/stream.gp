# stream.gp - gmb-stream: bandwidth vs bytes per array, one line per kernel (and access
# width), 95% CI bars, the nominal peak as a dashed line; one colour per device. Where a run
# measured --energy: board energy per bit for read, copy and triad, a bar per device (its
# part above the idle power hatched inside it).
# gmb: series kernel,width_bytes
# gmb: x size_bytes
# gmb: need size_bytes,bw_GBps
# gmb: runvar peak device.peak_bw_GBps
# gmb: runvar e_read results.energy.kernels.read.pJ_per_bit
# gmb: runvar e_copy results.energy.kernels.copy.pJ_per_bit
# gmb: runvar e_triad results.energy.kernels.triad.pJ_per_bit
# gmb: runvar a_read results.energy.kernels.read.pJ_per_bit_above_idle
# gmb: runvar a_copy results.energy.kernels.copy.pJ_per_bit_above_idle
# gmb: runvar a_triad results.energy.kernels.triad.pJ_per_bit_above_idle
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

# --energy: pJ per bit moved, a group of bars per kernel, a bar per device
e_of(r, k) = k == 1 ? run_e_read[r] : k == 2 ? run_e_copy[r] : run_e_triad[r]
a_of(r, k) = k == 1 ? run_a_read[r] : k == 2 ? run_a_copy[r] : run_a_triad[r]
nenergy = 0
do for [r = 1:NRUNS] { if (run_e_read[r] == run_e_read[r] || run_e_copy[r] == run_e_copy[r] || \
                           run_e_triad[r] == run_e_triad[r]) { nenergy = nenergy + 1 } }
if (nenergy > 0) {
    set output fig("energy")
    set title (NRUNS > 1 ? "Board energy per bit moved (NVML)" : \
               "Board energy per bit moved (NVML): " . run_label[1])
    unset logscale
    set yrange [0:*]
    set format y "%g"
    set xlabel "kernel (its best point: DRAM where measured)"
    set ylabel "board energy per bit (pJ/bit; hatched: above idle power)"
    set xrange [0.4:3.6]
    set xtics ("read" 1, "copy" 2, "triad" 3)
    unset mxtics
    set style fill solid 0.8 border -1
    BW = 0.8 / NRUNS
    xoff(r) = (r - (NRUNS + 1) / 2.0) * BW
    set key outside right top vertical
    plot for [r = 1:NRUNS] for [k = 1:3] '+' using (k + xoff(r)):(e_of(r, k)):(BW * 0.9) \
            every ::0::0 with boxes lc rgb col(r) title (k == 1 ? run_label[r] : ""), \
         for [r = 1:NRUNS] for [k = 1:3] '+' using (k + xoff(r)):(a_of(r, k) > 0 ? a_of(r, k) : NaN):(BW * 0.5) \
            every ::0::0 with boxes fs pattern 4 border -1 lc rgb "#222222" \
            title (r == 1 && k == 1 ? "above idle" : "")
}
