# bank.gp - gmb-bank: cycles per warp-wide shared-memory access vs stride (elements), one
# line per access width; latency mode (one warp, dependent) and throughput mode (every CU).
# Several devices: the panels are stacked (room for the key), else side by side.
# gmb: series mode,pattern,width_bytes
# gmb: x param
# gmb: need param,cycles_per_access
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(s_sub[i])
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_width_bytes[i] . "-byte accesses"
sel(i, m) = s_pattern[i] eq "stride" && s_mode[i] eq m
nlat = 0
nthr = 0
do for [i = 1:NS] { if (sel(i, "latency")) { nlat = nlat + 1 }; if (sel(i, "throughput")) { nthr = nthr + 1 } }
set output fig("stride")
T = NRUNS > 1 ? "Shared-memory bank conflicts" : "Shared-memory bank conflicts: " . run_label[1]
if (nlat > 0 && nthr > 0) { set multiplot layout (NRUNS > 1 ? 2 : 1), (NRUNS > 1 ? 1 : 2) title T } else { set title T }
set xlabel "stride (elements between the lanes' addresses)"
set xtics 4
set mxtics 4
set key top left
if (nlat > 0) {
    set ylabel "cycles per warp-wide access (latency; median, 95% CI)"
    plot for [i = 1:NS] s_file[i] using "param":(sel(i, "latency") ? column("cycles_per_access") : NaN):"cycles_per_access_ci_lo":"cycles_per_access_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) title (sel(i, "latency") ? title_of(i) : "")
}
if (nthr > 0) {
    set ylabel "cycles per warp-wide access per CU (throughput)"
    plot for [i = 1:NS] s_file[i] using "param":(sel(i, "throughput") ? column("cycles_per_access") : NaN):"cycles_per_access_ci_lo":"cycles_per_access_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of(s_sub[i]) title (sel(i, "throughput") ? title_of(i) : "")
}
if (nlat > 0 && nthr > 0) { unset multiplot }
