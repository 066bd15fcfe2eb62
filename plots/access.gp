# access.gp - gmb-access: bandwidth of 4-byte reads vs the stride between neighbouring
# work-items' words (a line per buffer; the inferred granularity is in the record and the
# table), and vs the misalignment of contiguous reads. Several devices: a colour per device, a dash per buffer.
# The confirmation points (params.pass "confirm": the aligned and worst offsets measured again,
# whose ratio the record reports) are a series of their own and not drawn: the figure is the sweep.
# gmb: series pattern,size_bytes,pass
# gmb: x stride_bytes
# gmb: need stride_bytes,offset_bytes,bw_GBps
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
nstride = 0
noffset = 0
do for [i = 1:NS] { if (is_s(i)) { nstride = nstride + 1 } else { if (is_o(i)) { noffset = noffset + 1 } } }

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
            using "stride_bytes":(is_s(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
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
            using "offset_bytes":(is_o(i) ? column("bw_GBps") : NaN):"bw_GBps_ci_lo":"bw_GBps_ci_hi" \
            with yerrorlines lc rgb lc_of(i) pt pt_of(sidx(i)) dt dt_b(i) \
            title (is_o(i) ? title_of(i) : "")
}
