# copy.gp - gmb-copy: bandwidth and time per copy vs bytes per copy, one line per direction,
# host memory kind and engine (colour: direction, dash: kind or peer, point: engine and host
# NUMA node; several devices: a colour per device), 95% CI bars, the PCIe link's nominal
# bandwidth when NVML gave it.
# gmb: series direction,kind,engine,host_node
# gmb: x size_bytes
# gmb: need size_bytes,bw_GBps,lat_us
# gmb: runvar link results.link.nominal_GBps
DIRS = "h2d d2h bidir d2d p2p p2p_rev"
KINDS = "pageable pinned mapped device"
didx(d) = sum [j = 1:6] (word(DIRS, j) eq d ? j : 0)
kidx(k) = sum [j = 1:4] (word(KINDS, j) eq k ? j : 0)
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(didx(s_direction[i]) > 0 ? didx(s_direction[i]) : s_sub[i])
# p2p series are named by peer (kind "peerN"): a dash per peer
peer_of(k) = strstrt(k, "peer") == 1 ? int(k[5:] + 0) : -1
dt_of_k(i) = dt_of(kidx(s_kind[i]) > 0 ? kidx(s_kind[i]) : peer_of(s_kind[i]) >= 0 ? 1 + peer_of(s_kind[i]) % 5 : 1)
# host memory on another NUMA node than the default (--host-nodes): a point type per node
node_of(i) = s_host_node[i] eq "" ? 0 : s_host_node[i] eq "os" ? 1 : 2 + int(s_host_node[i] + 0) % 3
pt_of_e(i) = pt_of((s_engine[i] eq "sm" ? 2 : 1) + 2 * node_of(i))
node_title(i) = s_host_node[i] eq "" ? "" : s_host_node[i] eq "os" ? " (unbound)" : " (NUMA " . s_host_node[i] . ")"
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . s_direction[i] . " " . s_kind[i] . " " . s_engine[i] . node_title(i)
link_title(r) = run_link[r] > 0 ? sprintf("%sPCIe nominal %.1f GB/s per direction", NRUNS > 1 ? run_label[r] . ": " : "", run_link[r]) : ""

set output fig("bw")
set title (NRUNS > 1 ? "Copy bandwidth" : "Copy bandwidth: " . run_label[1])
set xlabel "bytes per copy"
set ylabel "bandwidth (GB/s, 10^9 B/s; median, 95% CI; bidir: both directions)"
eval(SIZE_XTICS)
set logscale y
set format y "%g"
set key outside right top vertical
plot for [i = 1:NS] s_file[i] using "size_bytes":"bw_GBps":"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of_e(i) dt dt_of_k(i) title title_of(i), \
     for [r = 1:NRUNS] (run_link[r] > 0 ? run_link[r] : NaN) with lines lw 1.6 dt (8, 4) \
        lc rgb (NRUNS > 1 ? col(r) : "#444444") title link_title(r)

set output fig("lat")
set title (NRUNS > 1 ? "Time per copy" : "Time per copy: " . run_label[1])
set ylabel "device time per copy (us; median, 95% CI)"
plot for [i = 1:NS] s_file[i] using "size_bytes":"lat_us":"lat_us_ci_lo":"lat_us_ci_hi" \
        with yerrorlines lc rgb lc_of(i) pt pt_of_e(i) dt dt_of_k(i) title title_of(i)
