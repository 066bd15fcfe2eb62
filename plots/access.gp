# access.gp - gmb-access: bandwidth of 4-byte reads vs the stride between neighbouring
# work-items' words (a line per buffer; the inferred granularity is in the record and the
# table), vs the misalignment of contiguous reads, and vs the size of blocks read at random
# places (a line per buffer, its contiguous references, the same kernel with the blocks in
# order, one per access width, thin dashed lines over the blocks of that width) and of blocks written so (random-write: a figure of its
# own, drawn alike). Several devices: a colour per device, a dash per buffer.
# The confirmation points (params.pass "confirm": the aligned and worst offsets measured again,
# whose ratio the record reports) are a series of their own and not drawn: the figure is the sweep.
# A record holds the patterns it ran: each figure reads its columns only from its own curves.
# gmb: series pattern,size_bytes,pass,placement
# gmb: x stride_bytes
# gmb: need size_bytes,bw_GBps
# the buffers, in order of appearance: a colour each (one device), a dash each (several)
SIZES = ""
do for [i = 1:NS] { if (strstrt(" " . SIZES . " ", " " . s_size_bytes[i] . " ") == 0) { \
    SIZES = SIZES . (strlen(SIZES) ? " " : "") . s_size_bytes[i] } }
sidx(i) = sum [j = 1:words(SIZES)] (word(SIZES, j) eq s_size_bytes[i] ? j : 0)
lc_of(i) = NRUNS > 1 ? col(s_run[i]) : col(sidx(i))
title_of(i) = (NRUNS > 1 ? run_label[s_run[i]] . ": " : "") . bytes_label(s_size_bytes[i] + 0)
dt_b(i) = NRUNS > 1 ? dt_of(sidx(i)) : 1
is_s(i) = s_pattern[i] eq "stride"
is_o(i) = s_pattern[i] eq "offset" && !(s_pass[i] eq "confirm")
# the random figures: RP is the pattern drawn ("random", then "random-write")
RP = "random"
is_r(i) = s_pattern[i] eq RP && s_placement[i] eq "random"
is_c(i) = s_pattern[i] eq RP && s_placement[i] eq "in-order"
# a contiguous reference per access width (4-byte words for 4-byte blocks, uint2 for 8, uint4
# from 16): its dashed line spans the blocks of its width, from its own block (the smallest of
# them) to the next width's (x2) or, the widest, across
c_end(b) = b < 16 ? 2 * b : X_MAX
nstride = 0
noffset = 0
do for [i = 1:NS] { nstride = nstride + is_s(i); noffset = noffset + is_o(i) }

if (nstride > 0) {
    set output fig("stride")
    set title (NRUNS > 1 ? "Bandwidth by stride between neighbouring reads" : \
               "Bandwidth by stride between neighbouring reads: " . run_label[1])
    set xlabel "stride between the 4-byte words neighbouring work-items read (bytes)"
    set ylabel "bandwidth used (GB/s, 4 B per read; median, 95% CI)"
    set logscale x 2
    set logscale y
    set format x "%g"
    set format y "%g"
    set xrange [X_MIN / 1.3 : X_MAX * 1.3]
    set key outside right top vertical title "buffer"
    plot for [i = 1:NS] s_file[i] \
            using (is_s(i) ? column("stride_bytes") : NaN):(is_s(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(sidx(i)) dt dt_b(i) \
            title (is_s(i) ? title_of(i) : "")
}
if (noffset > 0) {
    set output fig("offset")
    set title (NRUNS > 1 ? "Contiguous reads from a misaligned start" : \
               "Contiguous reads from a misaligned start: " . run_label[1])
    set xlabel "offset of the first word from an aligned start (bytes)"
    set ylabel "bandwidth (GB/s, 4 B per read; median, 95% CI)"
    unset logscale
    set logscale y
    set autoscale x
    set xrange [*:*]
    set key outside right top vertical title "buffer"
    plot for [i = 1:NS] s_file[i] \
            using (is_o(i) ? column("offset_bytes") : NaN):(is_o(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(sidx(i)) dt dt_b(i) \
            title (is_o(i) ? title_of(i) : "")
}
do for [RP in "random random-write"] {
    nrandom = 0
    do for [i = 1:NS] { nrandom = nrandom + is_r(i) }
    VERB = RP eq "random" ? "read" : "written"
    if (nrandom > 0) {
        # the block sizes of the random curves (X_MIN, X_MAX are the strides')
        X_MIN = 1e300
        X_MAX = 0
        do for [i = 1:NS] { if (is_r(i)) { \
            stats s_file[i] using (column("block_bytes")) nooutput; \
            X_MIN = STATS_min < X_MIN ? STATS_min : X_MIN; X_MAX = STATS_max > X_MAX ? STATS_max : X_MAX } }
        set output fig(RP)
        set title (NRUNS > 1 ? "Blocks " . VERB . " at random places (dashed: contiguous)" : \
                   "Bandwidth of blocks " . VERB . " at random places: " . run_label[1])
        set xlabel (NRUNS > 1 ? "bytes per block" : \
                    "bytes per block (neighbouring work-items " . (RP eq "random" ? "read" : "write") . \
                    " its neighbouring 4-, 8- or 16-byte vectors)")
        set ylabel "bandwidth used (GB/s, 4 B per " . (RP eq "random" ? "read" : "write") . "; median, 95% CI)"
        unset logscale
        XT_MAX = NRUNS > 1 ? 5 : 10 # several runs: long labels leave the plot narrow
        eval(SIZE_XTICS)
        undefine XT_MAX
        set logscale y
        set format y "%g"
        set key outside right top vertical title "buffer"
        plot for [i = 1:NS] s_file[i] \
                using (is_r(i) ? column("block_bytes") : NaN):(is_r(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
                with yerrorlines lc rgb lc_of(i) pt pt_of(sidx(i)) dt dt_b(i) \
                title (is_r(i) ? title_of(i) : ""), \
             for [i = 1:NS] s_file[i] \
                using (is_c(i) ? column("block_bytes") : NaN):(is_c(i) ? column("bw_GBps") : NaN):(c_end(column("block_bytes")) - column("block_bytes")):(0) \
                with vectors nohead lc rgb lc_of(i) dt 2 lw 0.8 \
                title (is_c(i) && NRUNS == 1 ? title_of(i) . ": contiguous" : "")
    }
}
