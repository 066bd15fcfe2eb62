# atomic.gp - gmb-atomic: atomic-add throughput vs the work-items updating one address (sharers;
# the last point of a line is all of the grid or group), a line per scope, op and spacing; and
# the time per update of one address. Several devices: a colour per device, a point type per
# scope and op, a dash per spacing.
# gmb: series scope,op,spacing_bytes
# gmb: x sharers
# gmb: need sharers,atomics_Gops,ns_per_update_address
# the scope-op kinds and the spacings, in order of appearance
KINDS = ""
SPACINGS = ""
do for [i = 1:NS] { \
    k = s_scope[i] . "-" . s_op[i]; \
    if (strstrt(" " . KINDS . " ", " " . k . " ") == 0) { KINDS = KINDS . (strlen(KINDS) ? " " : "") . k }; \
    if (strstrt(" " . SPACINGS . " ", " " . s_spacing_bytes[i] . " ") == 0) { \
        SPACINGS = SPACINGS . (strlen(SPACINGS) ? " " : "") . s_spacing_bytes[i] } }
kidx(i) = sum [j = 1:words(KINDS)] (word(KINDS, j) eq s_scope[i] . "-" . s_op[i] ? j : 0)
pidx(i) = sum [j = 1:words(SPACINGS)] (word(SPACINGS, j) eq s_spacing_bytes[i] ? j : 0)
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(kidx(i))
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_scope[i] . " " . s_op[i] . ", " . \
              s_spacing_bytes[i] . " B apart"

set logscale x 2
set logscale y
set format x "%g"
set format y "%g"
set xrange [X_MIN / 1.3 : X_MAX * 1.3]
set xlabel "work-items updating one address (sharers; the last point: all of the grid / group)"
# several devices: long titles, the key below the plot
if (NRUNS > 1) { set key below left Left reverse vertical font ",8" title "device: scope, op, counters' spacing" } \
else { set key outside right top vertical title "scope, op, counters' spacing" }

set output fig("throughput")
set title (NRUNS > 1 ? "Atomic-add throughput by contention" : \
           "Atomic-add throughput by contention: " . run_label[1])
set ylabel "atomic adds (Gop/s; median, 95% CI)"
plot for [i = 1:NS] s_file[i] \
        using "sharers":"atomics_Gops":"atomics_Gops_ci_lo":"atomics_Gops_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of(kidx(i)) dt dt_of(pidx(i)) title title_of(i)

set output fig("per-address")
# where a warp or more share an address (below, it is one work-item's time per add)
if (X_MAX >= 32) { set xrange [32 / 1.3 : X_MAX * 1.3] }
set title (NRUNS > 1 ? "Time per update of one address (a warp or more on it)" : \
           "Time per update of one address (a warp or more on it): " . run_label[1])
set ylabel "kernel time / adds one address received (ns; median, 95% CI)"
plot for [i = 1:NS] s_file[i] \
        using "sharers":"ns_per_update_address":"ns_per_update_address_ci_lo":"ns_per_update_address_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of(kidx(i)) dt dt_of(pidx(i)) title title_of(i)
