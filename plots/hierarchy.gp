# hierarchy.gp - the memory hierarchy at a glance, from the table of every benchmark's records:
# latency per level (ns) and bandwidth per level (GB/s), one bar per run (device), medians
# with their 95% CI where the table has one. The bandwidth panel is gmb table --levels: each
# level its headline figures name (L1, shared memory, L2 and its near and far plateaus, DRAM,
# host and peer links), the first figure of a level a run has, and the nominal peak beside
# them; a figure from a cache-resident point (the table's ᶜ) is no level's and left out.
# Levels a run did not measure are gaps; a level no run measured is left out. Latency: GPU
# names (L1, L2, DRAM) only where gmb-chase named them; a CPU's levels are numbered, as in the
# table.
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
# gmb: tablevels bw | GB/s
# gmb: tabrow bw | nominal peak | Nominal peak bandwidth | GB/s

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
