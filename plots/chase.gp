# chase.gp - gmb-chase: the latency staircase (latency per load vs working set, log2 sizes)
# in ns and in cycles, the detected levels marked (plateau bars and names); one colour per
# device, or per curve (mode, space, page) when there is one device.
# Several devices: the panels are stacked (room for the key), else side by side.
# gmb: series mode,space,page_bytes
# gmb: x size_bytes
# gmb: need size_bytes,lat_ns
# gmb: optional lat_cycles
# gmb: results levels
# gmb: runvar has_cycles metrics.lat_cycles
# gmb: runvar cycles_source results.cycles.source str
curve(i) = s_mode[i] . " " . s_space[i] . (s_page_bytes[i] ne "0" && s_page_bytes[i] ne "" ? " " . bytes_label(s_page_bytes[i] + 0) . " pages" : "")
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(s_sub[i])
dtk(i) = NRUNS > 1 ? dt_of(s_sub[i]) : 1
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . curve(i)
ncyc = 0
do for [r = 1:NRUNS] { if (run_has_cycles[r] == run_has_cycles[r]) { ncyc = ncyc + 1 } }
derived = 0
do for [r = 1:NRUNS] { if (strstrt(run_cycles_source[r] . "", "derived") > 0) { derived = 1 } }
# levels of the random chase of global memory: bars over their sizes, names above
lev(col) = strcol("mode") eq "random" && strcol("space") eq "global" ? column(col) : NaN

set output fig("latency")
if (ncyc > 0) { set multiplot layout (NRUNS > 1 ? 2 : 1), (NRUNS > 1 ? 1 : 2) title (NRUNS > 1 ? "Pointer-chase latency" : "Pointer-chase latency: " . run_label[1]) }
else { set title (NRUNS > 1 ? "Pointer-chase latency" : "Pointer-chase latency: " . run_label[1]) }
set xlabel "working set"
XT_MAX = NRUNS > 1 ? 10.0 : 5.0
eval(SIZE_XTICS)
set logscale y
set format y "%g"
set key top left
set ylabel "latency per load (ns; median, 95% CI)"
plot for [i = 1:NS] s_file[i] using "size_bytes":"lat_ns":"lat_ns_ci_lo":"lat_ns_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) dt dtk(i) title title_of(i), \
     for [r = 1:NRUNS] res_levels[r] using (sqrt(column("size_lo_bytes") * column("capacity_bytes"))):(lev("lat_ns")):"size_lo_bytes":"capacity_bytes" \
        with xerrorbars lc rgb (NRUNS > 1 ? col(r) : "#000000") lw 2.5 pt 0 notitle, \
     for [r = 1:NRUNS] res_levels[r] using (sqrt(column("size_lo_bytes") * column("capacity_bytes"))):(lev("lat_ns")):"name" \
        with labels offset 0,0.9 font ",9" tc rgb (NRUNS > 1 ? col(r) : "#000000") notitle
if (ncyc > 0) {
    set ylabel (derived ? "latency per load (cycles, derived: ns x max clock)" : "latency per load (cycles)")
    plot for [i = 1:NS] s_file[i] using "size_bytes":"lat_cycles":"lat_cycles_ci_lo":"lat_cycles_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) dt dtk(i) title title_of(i), \
         for [r = 1:NRUNS] res_levels[r] using (sqrt(column("size_lo_bytes") * column("capacity_bytes"))):(lev("lat_cycles")):"size_lo_bytes":"capacity_bytes" \
            with xerrorbars lc rgb (NRUNS > 1 ? col(r) : "#000000") lw 2.5 pt 0 notitle
    unset multiplot
}
