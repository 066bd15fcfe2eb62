# overlap.gp - gmb-overlap: the arithmetic-intensity sweep (time of one launch against k, FMAs
# per element, the memory kernel and the compute-only one; GFLOP/s against FLOP/B) with the
# measured ridge point marked; and the copies beside kernels: the copy alone, the kernel alone,
# both at once and the two in turn (their sum), a group of bars per direction and kernel, each
# labelled with its overlap efficiency. Several devices: a colour per device (sweep), a group of
# bars per device and direction and kernel.
# gmb: series part,precision,mode,direction,kernel
# gmb: x k
# gmb: need part
# gmb: optional launch_ns,gflops,bw_GBps
# gmb: results overlap
# gmb: resultcols overlap direction,kernel,copy_ns,kernel_ns,both_ns,serial_ns,overlap_efficiency
# gmb: runvar r32 results.ridge.fp32.ridge_k
# gmb: runvar r64 results.ridge.fp64.ridge_k
intsel(i) = s_part[i] eq "intensity"
pidx(i) = s_precision[i] eq "fp64" ? 2 : 1
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(pidx(i))
dt_sweep(i) = s_mode[i] eq "compute" ? 2 : 1
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_precision[i] . " " . \
              (s_mode[i] eq "compute" ? "compute-only (registers)" : "y = f_k(x) (memory)")
xk(k) = k > 0 ? k : 0.5
nint = 0
do for [i = 1:NS] { if (intsel(i)) { nint = nint + 1 } }
nrows = 0
do for [r = 1:NRUNS] { nrows = nrows + res_n_overlap[r] }
# the ridges, marked where a run found one (runs without: NaN, no mark)
do_marks = 'unset arrow; unset label; do for [r = 1:NRUNS] { ' . \
    'if (run_r32[r] == run_r32[r]) { set arrow from first run_r32[r] / D32, graph 0 to first run_r32[r] / D32, graph 1 nohead dt 3 lw 1.5 lc rgb (NRUNS > 1 ? col(r) : col(1)); ' . \
    'set label sprintf("fp32 ridge %.3g", run_r32[r] / D32) at first run_r32[r] / D32, graph (0.03 + 0.1 * r) left offset 0.4,0 font ",8" tc rgb (NRUNS > 1 ? col(r) : col(1)) }; ' . \
    'if (run_r64[r] == run_r64[r]) { set arrow from first run_r64[r] / D64, graph 0 to first run_r64[r] / D64, graph 1 nohead dt 3 lw 1.5 lc rgb (NRUNS > 1 ? col(r) : col(2)); ' . \
    'set label sprintf("fp64 ridge %.3g", run_r64[r] / D64) at first run_r64[r] / D64, graph (0.08 + 0.1 * r) left offset 0.4,0 font ",8" tc rgb (NRUNS > 1 ? col(r) : col(2)) } }'

if (nint > 0) {
    set output fig("intensity")
    T = NRUNS > 1 ? "Arithmetic intensity: k dependent FMAs per element" : \
        "Arithmetic intensity: k dependent FMAs per element: " . run_label[1]
    set multiplot layout (NRUNS > 1 ? 2 : 1), (NRUNS > 1 ? 1 : 2) title T
    set logscale x 2
    set logscale y
    set format y "%g"
    KT = '"0" 0.5'
    do for [e = 0:20] { if (2.0**e <= X_MAX) { KT = KT . sprintf(', "%d" %d', 2**e, 2**e) } }
    eval('set xtics (' . KT . ')')
    set xrange [0.4 : X_MAX * 1.3]
    set xlabel "k: dependent FMAs per element"
    set ylabel "time of one launch (us; median, 95% CI)"
    if (NRUNS > 1) { set key outside right top vertical font ",7" } else { set key top left }
    D32 = 1
    D64 = 1
    eval(do_marks)
    plot for [i = 1:NS] s_file[i] using (intsel(i) ? xk(column("k")) : NaN):(column("launch_ns") / 1e3):(column("launch_ns_ci_lo") / 1e3):(column("launch_ns_ci_hi") / 1e3) \
            with yerrorlines lc rgb lc_of(i) pt pt_of(pidx(i)) dt dt_sweep(i) title (intsel(i) ? title_of(i) : "")
    set xtics auto
    set format x "%g"
    set xrange [*:*]
    set xlabel "intensity (FLOP/B: 2k / bytes read + written)"
    set ylabel "GFLOP/s (median, 95% CI)"
    D32 = 4
    D64 = 8
    eval(do_marks)
    plot for [i = 1:NS] s_file[i] using (intsel(i) && column("k") > 0 ? column("flop_per_byte") : NaN):"gflops":"gflops_ci_lo":"gflops_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(pidx(i)) dt dt_sweep(i) title (intsel(i) ? title_of(i) : "")
    unset multiplot
    unset arrow
    unset label
}

if (nrows > 0) {
    set output fig("overlap")
    set title (NRUNS > 1 ? "Copies beside kernels: alone, both at once, in turn" : \
               "Copies beside kernels: alone, both at once, in turn: " . run_label[1])
    unset logscale
    set format x "%g"
    set format y "%g"
    set xrange [*:*]
    set yrange [0:*]
    set style fill solid 0.85 border rgb "#444444"
    set boxwidth 0.18
    set grid noxtics ytics
    set xtics rotate by -30 left nomirror scale 0 font ",9"
    set xlabel "direction and kernel (above: overlap efficiency, 1 = the shorter one hidden)"
    set ylabel "device time (ms; medians)"
    set key outside right top vertical
    array base[NRUNS]
    b = 0
    do for [r = 1:NRUNS] { base[r] = b; b = b + res_n_overlap[r] + 1 }
    set xrange [-0.7 : b - 1.3]
    lab(r) = (NRUNS > 1 ? sprintf("%d: ", r) : "") . strcol("direction") . " " . strcol("kernel")
    plot for [r = 1:NRUNS] res_overlap[r] using (base[r] + $0 - 0.3):(column("copy_ns") / 1e6) \
            with boxes lc rgb col(1) title (r == 1 ? "copy alone" : ""), \
         for [r = 1:NRUNS] res_overlap[r] using (base[r] + $0 - 0.1):(column("kernel_ns") / 1e6):xtic(lab(r)) \
            with boxes lc rgb col(2) title (r == 1 ? "kernel alone" : ""), \
         for [r = 1:NRUNS] res_overlap[r] using (base[r] + $0 + 0.1):(column("both_ns") / 1e6) \
            with boxes lc rgb col(3) title (r == 1 ? "both at once" : ""), \
         for [r = 1:NRUNS] res_overlap[r] using (base[r] + $0 + 0.3):(column("serial_ns") / 1e6) \
            with boxes lc rgb "#bbbbbb" title (r == 1 ? "copy + kernel (in turn)" : ""), \
         for [r = 1:NRUNS] res_overlap[r] using (base[r] + $0 + 0.1):(column("both_ns") / 1e6):(sprintf("%.2f", column("overlap_efficiency"))) \
            with labels offset 0,0.8 font ",8" notitle
}
