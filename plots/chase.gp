# chase.gp - gmb-chase: the latency staircase (latency per load vs working set, log2 sizes)
# in ns and in cycles, the detected levels marked (plateau bars and names); one colour per
# device, or per curve (mode, space, page) when there is one device. A run whose random chase
# of global memory found no level (a flat or noisy curve: "no clear level") is drawn without
# bars, and says so in its key entry (and title, one run); res_levels[r] holds only that
# curve's levels (resultrows), res_n_levels[r] how many (0 too: a file of the header alone).
# Several devices: the panels are stacked (room for the key), else side by side.
# gmb: series mode,space,page_bytes
# gmb: x size_bytes
# gmb: need size_bytes,lat_ns
# gmb: optional lat_cycles
# gmb: results levels
# gmb: resultcols levels name,lat_ns,lat_cycles,size_lo_bytes,capacity_bytes
# gmb: resultrows levels mode=random,space=global,lat_ns,size_lo_bytes,capacity_bytes
# gmb: runvar has_cycles metrics.lat_cycles
# gmb: runvar cycles_source results.cycles.source str
curve(i) = s_mode[i] . " " . s_space[i] . (s_page_bytes[i] ne "0" && s_page_bytes[i] ne "" ? " " . bytes_label(s_page_bytes[i] + 0) . " pages" : "")
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(s_sub[i])
dtk(i) = NRUNS > 1 ? dt_of(s_sub[i]) : 1
nolev(r) = res_n_levels[r] == 0
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . curve(i) . \
              (s_mode[i] eq "random" && s_space[i] eq "global" && nolev(s_run[i]) ? ": no clear level" : "")
nlevruns = 0
do for [r = 1:NRUNS] { if (!nolev(r)) { nlevruns = nlevruns + 1 } }
nglobal = 0 # random chases of global memory (the curves levels are found on)
do for [i = 1:NS] { if (s_mode[i] eq "random" && s_space[i] eq "global") { nglobal = nglobal + 1 } }
T = (NRUNS > 1 ? "Pointer-chase latency" : "Pointer-chase latency: " . run_label[1]) . \
    (nlevruns == 0 && nglobal > 0 ? " (no clear level)" : "")
# the level bars and names, from files holding only drawable rows (a run without levels: the
# header alone, skipped); none at all: no such plot (a labels plot of no valid point can crash
# gnuplot)
levfile(r) = res_levels[r]
ncyc = 0
do for [r = 1:NRUNS] { if (run_has_cycles[r] == run_has_cycles[r]) { ncyc = ncyc + 1 } }
derived = 0
do for [r = 1:NRUNS] { if (strstrt(run_cycles_source[r] . "", "derived") > 0) { derived = 1 } }
# levels of the random chase of global memory (the rows of res_levels): bars over their
# sizes, names above
lev(col) = column(col)

set output fig("latency")
if (ncyc > 0) { set multiplot layout (NRUNS > 1 ? 2 : 1), (NRUNS > 1 ? 1 : 2) title T }
else { set title T }
set xlabel "working set"
XT_MAX = NRUNS > 1 ? 10.0 : 5.0
eval(SIZE_XTICS)
set logscale y
set format y "%g"
set key top left
set ylabel "latency per load (ns; median, 95% CI)"
C_NS = 'for [i = 1:NS] s_file[i] using "size_bytes":"lat_ns":"lat_ns_ci_lo":"lat_ns_ci_hi" ' . \
       'with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) dt dtk(i) title title_of(i)'
L_NS = 'for [r = 1:NRUNS] levfile(r) using (sqrt(column("size_lo_bytes") * column("capacity_bytes"))):(lev("lat_ns")):"size_lo_bytes":"capacity_bytes" ' . \
       'with xerrorbars lc rgb (NRUNS > 1 ? col(r) : "#000000") lw 2.5 pt 0 notitle, ' . \
       'for [r = 1:NRUNS] levfile(r) using (sqrt(column("size_lo_bytes") * column("capacity_bytes"))):(lev("lat_ns")):"name" ' . \
       'with labels offset 0,0.9 font ",9" tc rgb (NRUNS > 1 ? col(r) : "#000000") notitle'
eval("plot " . C_NS . (nlevruns > 0 ? ", " . L_NS : ""))
if (ncyc > 0) {
    set ylabel (derived ? "latency per load (cycles, derived: ns x max clock)" : "latency per load (cycles)")
    C_CY = 'for [i = 1:NS] s_file[i] using "size_bytes":"lat_cycles":"lat_cycles_ci_lo":"lat_cycles_ci_hi" ' . \
           'with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) dt dtk(i) title title_of(i)'
    L_CY = 'for [r = 1:NRUNS] levfile(r) using (sqrt(column("size_lo_bytes") * column("capacity_bytes"))):(lev("lat_cycles")):"size_lo_bytes":"capacity_bytes" ' . \
           'with xerrorbars lc rgb (NRUNS > 1 ? col(r) : "#000000") lw 2.5 pt 0 notitle'
    eval("plot " . C_CY . (nlevruns > 0 ? ", " . L_CY : ""))
    unset multiplot
}
