# hierarchy.gp - the memory hierarchy at a glance, from the table of every benchmark's records:
# latency per level (ns) and bandwidth per level (GB/s), one bar per run (device), medians
# with their 95% CI where the table has one; stream's figures from a cache-resident point (the
# table's ᶜ) are left out, as they are no memory bandwidth. Levels a run did not measure are gaps; a level no
# run measured is left out. GPU names (L1, L2, DRAM) only where gmb-chase named them; a CPU's
# latency levels are numbered, as in the table.
# gmb: tabrow lat | shared/local | Shared/local-memory latency | ns
# gmb: tabrow lat | constant cache | Constant cache latency (level 1) | ns
# gmb: tabrow lat | distributed shared | Distributed shared-memory latency (another SM of the cluster) | ns
# gmb: tabrow lat | L1 | L1 latency | ns
# gmb: tabrow lat | L1 texture | Texture L1 latency | ns
# gmb: tabrow lat | L2 | L2 latency | ns
# gmb: tabrow lat | L2 far | L2 far latency | ns
# gmb: tabrow lat | L2 texture | Texture L2 latency | ns
# gmb: tabrow lat | L2 atomic | L2 atomic latency | ns
# gmb: tabrow lat | DRAM | DRAM latency | ns
# gmb: tabrow lat | host memory | Host memory latency (mapped, from the device) | ns
# gmb: tabrow lat | peer memory | Peer memory latency (from the device) | ns
# gmb: tabrow lat | level 1 | Latency level 1 | ns
# gmb: tabrow lat | level 2 | Latency level 2 | ns
# gmb: tabrow lat | level 3 | Latency level 3 | ns
# gmb: tabrow lat | level 4 | Latency level 4 | ns
# gmb: tabrow lat | level 5 | Latency level 5 | ns
# gmb: tabrow lat | level 6 | Latency level 6 | ns
# gmb: tabrow lat | memory under load (knee) | Loaded: latency at the knee (97% of that bandwidth) | ns
# gmb: tabrow bw | L1 (aggregate) | L1 bandwidth, aggregate (every SM re-reads one set) | GB/s
# gmb: tabrow bw | cache level 1 (aggregate) | Cache level 1 bandwidth, aggregate (every compute unit re-reads one set) | GB/s
# gmb: tabrow bw | shared/local memory | Shared-memory bandwidth, no conflict | GB/s
# gmb: tabrow bw | distributed shared | Distributed shared-memory bandwidth, 16-byte reads (cluster of 2) | GB/s
# gmb: tabrow bw | L2, every SM same lines | L2 bandwidth, every SM re-reads one set (after the L1 plateau) | GB/s
# gmb: tabrow bw | cache plateau | Cache plateau bandwidth, read (L2 on a GPU) | GB/s
# gmb: tabrow bw | L2 near | L2 near bandwidth, read (the first of two L2 plateaus) | GB/s
# gmb: tabrow bw | L2 far | L2 far bandwidth, read (the second L2 plateau) | GB/s
# gmb: tabrow bw | memory plateau | Memory plateau bandwidth, read | GB/s
# gmb: tabrow bw | memory read | Read bandwidth | GB/s
# gmb: tabrow bw | memory triad | Triad bandwidth | GB/s
# gmb: tabrow bw | nominal peak | Nominal peak bandwidth | GB/s
# gmb: tabrow bw | device to device | Device to device, copy engine (bytes copied) | GB/s
# gmb: tabrow bw | peer copy | Peer copy, copy engine, fastest peer | GB/s
# gmb: tabrow bw | host to device | Host to device, pinned, largest copy | GB/s
# gmb: tabrow bw | device to host | Device to host, pinned, largest copy | GB/s

set style data histograms
set style histogram errorbars gap 1.5 lw 1
set style fill solid 0.85 border rgb "#444444"
set boxwidth 0.9
set logscale y
set format y "%g"
set grid noxtics ytics mytics
set xtics rotate by -30 left nomirror scale 0 font ",9"
set key tmargin left Left reverse vertical font ",8"
NP = (N_lat > 0) + (N_bw > 0)
set output fig("levels")
set multiplot layout 1, NP title (NRUNS > 1 ? "Memory hierarchy" : "Memory hierarchy: " . run_label[1]) . "\n" \
    font ",11"
# the value and CI columns of run r: 3r-1 (median), 3r (low), 3r+1 (high)
if (N_lat > 0) {
    set ylabel "latency (ns; median, 95% CI)"
    plot for [r = 1:NRUNS] F_lat using (column(3 * r - 1)):(column(3 * r)):(column(3 * r + 1)):xtic(1) \
        title run_label[r] lc rgb col(r)
}
if (N_bw > 0) {
    set ylabel "bandwidth (GB/s, 10^9 B/s; median, 95% CI)"
    plot for [r = 1:NRUNS] F_bw using (column(3 * r - 1)):(column(3 * r)):(column(3 * r + 1)):xtic(1) \
        title run_label[r] lc rgb col(r)
}
unset multiplot
