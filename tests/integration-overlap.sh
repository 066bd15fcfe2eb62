# integration-overlap.sh - gmb-overlap end to end on OpenCL/PoCL with small sizes: both parts
# (copies beside kernels; the FMA sweep), records valid, every point verified, the efficiency
# and the ridge re-derived from the recorded times, FP64 iff the device has doubles, the
# calibration as given, one part alone, planted errors in every kind of output, bad input,
# CUDA without a GPU, gmb run, gmb plot and gmb table. CPU numbers are never asserted.
OV="$PWD/$BIN/gmb-overlap"
if ! have_opencl; then
    skip "$TAG overlap integration: no OpenCL device (install pocl-opencl-icd)"
else
    # doubles, as the OpenCL driver says (the first device, gmb's device 0 on PoCL)
    OV_FP64=0
    clinfo --raw 2>/dev/null | grep -m1 "CL_DEVICE_EXTENSIONS " | grep -q cl_khr_fp64 &&
        OV_FP64=1
    OV_PRECS=fp32
    [ "$OV_FP64" = 1 ] && OV_PRECS=fp32,fp64
    OV_SMALL=(--copy-size 1MiB --stream-size 1MiB --size 256KiB --k-max 16)

    expect "gmb-overlap --help" 0 "$OV" --help &&
        check "overlap help defines the efficiency and the ridge" bash -c \
            "grep -q 'overlap_efficiency = (t_copy + t_kernel - t_both) / min(t_copy, t_kernel)' \
'$T/out' && grep -q 'the ridge k\* = flat / a' '$T/out'"
    expect "gmb list (overlap)" 0 "$G" list &&
        check "gmb list names overlap" grep -q "^overlap " "$T/out"

    # --- both parts, every direction, kernel and precision ----------------------------------
    if expect "overlap: both parts" 0 "$OV" "${FAST[@]}" "${OV_SMALL[@]}" --out "$T/ov"; then
        rec=$(ls "$T"/ov/*-overlap.json)
        csv=$(ls "$T"/ov/*-overlap.csv)
        np=$(json "$rec" "len(r['points'])")
        check "overlap: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "overlap: record status ok, benchmark overlap" rec fields "$rec" status=ok \
            benchmark=overlap
        check "overlap: a row per direction and kernel on its three points" \
            rec overlap-rows "$rec" h2d,d2h compute,stream
        check "overlap: every point verified" rec overlap-verified "$rec"
        check "overlap: $np rows printed, each ending in its verdict" test \
            "$(grep -cE ' (full|sampled)$' "$T/out")" = "$np"
        check "overlap: efficiency, bandwidth under the kernel, slowdown re-derived" \
            rec overlap-efficiency-rederived "$rec"
        check "overlap: the calibration recorded with every kernel point" \
            rec overlap-calibration "$rec"
        check "overlap: the sweep k = 0 .. 16 of $OV_PRECS, each point's figures" \
            rec intensity-sweep "$rec" "$OV_PRECS" 16
        check "overlap: FP64 iff the device has doubles ($OV_FP64)" \
            rec overlap-fp64 "$rec" "$OV_FP64"
        for pr in ${OV_PRECS//,/ }; do
            check "overlap: $pr ridge re-derived (a k of the sweep, or none and why)" \
                rec intensity-ridge "$rec" "$pr" 16
            check "overlap: $pr hidden fractions re-derived" rec intensity-hidden "$rec" "$pr"
            check "overlap: $pr peak GFLOP/s is the largest point's" \
                rec intensity-peak "$rec" "$pr"
        done
        check "overlap: nothing skipped" rec fields "$rec" results.skipped=[]
        check "overlap: the sizes recorded as run" rec fields "$rec" options.copy-size=1048576 \
            options.stream-size=1048576 options.size=262144 options.k-max=16
        check "overlap: the summary printed and recorded" grep -qF \
            "# overlap: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "overlap csv: header + a row per point" test "$(wc -l <"$csv")" = $((np + 1))
        if command -v gnuplot >/dev/null; then
            expect "overlap: figures" 0 "$G" plot "$T/ov" --out "$T/ovfig" &&
                check "overlap: intensity and overlap figures" test \
                    -s "$T/ovfig/overlap-intensity.png" -a -s "$T/ovfig/overlap-overlap.png"
        fi
        if expect "overlap: gmb table" 0 "$G" table "$T/ov"; then
            for row in "Overlap efficiency, h2d copy beside the compute kernel" \
                "Overlap efficiency, h2d copy beside the streaming kernel" \
                "h2d copy bandwidth beside the streaming kernel, % of alone" \
                "Ridge point, FP32 (measured, FMA chains)" \
                "Peak measured GFLOP/s, FP32 (FMA chains)"; do
                check "overlap: gmb table shows '$row'" grep -qF "$row" "$T/out"
            done
            [ "$OV_FP64" = 1 ] &&
                check "overlap: gmb table shows the FP64 ridge" grep -qF \
                    "Ridge point, FP64 (measured, FMA chains)" "$T/out"
        fi
    fi

    # --- the kernels' lengths as given: no calibration; one direction ----------------------
    if expect "overlap: --compute-iters 64 --stream-passes 2" 0 "$OV" "${FAST[@]}" \
        "${OV_SMALL[@]}" --parts overlap --directions h2d --compute-iters 64 --stream-passes 2 \
        --out "$T/ovg"; then
        rec=$(ls "$T"/ovg/*.json)
        check "overlap given: h2d rows only, no intensity point" rec overlap-rows "$rec" h2d \
            compute,stream
        check "overlap given: iterations and passes as given, measured once" \
            rec overlap-calibration "$rec" 64 2
        check "overlap given: efficiency re-derived" rec overlap-efficiency-rederived "$rec"
        check "overlap given: no ridge or peak figure" rec figure-labels "$rec" \
            "Overlap efficiency, h2d copy beside the compute kernel" \
            "Overlap efficiency, h2d copy beside the streaming kernel" \
            "h2d copy bandwidth beside the streaming kernel, % of alone"
    fi

    # --- the sweep alone, FP32 only: no overlap row; d2h alone: no h2d figure --------------
    if expect "overlap: --parts intensity --precisions fp32" 0 "$OV" "${FAST[@]}" \
        "${OV_SMALL[@]}" --parts intensity --precisions fp32 --k-max 8 --out "$T/ovi"; then
        rec=$(ls "$T"/ovi/*.json)
        check "overlap intensity: fp32 k = 0 .. 8 only" rec intensity-sweep "$rec" fp32 8
        check "overlap intensity: no overlap result" rec fields "$rec" results.overlap?=false
        check "overlap intensity: ridge re-derived" rec intensity-ridge "$rec" fp32 8
        check "overlap intensity: the two figures of the sweep" rec figure-labels "$rec" \
            "Ridge point, FP32 (measured, FMA chains)" "Peak measured GFLOP/s, FP32 (FMA chains)"
    fi
    if expect "overlap: --directions d2h --kernels stream" 0 "$OV" "${FAST[@]}" \
        "${OV_SMALL[@]}" --parts overlap --directions d2h --kernels stream --out "$T/ovd"; then
        rec=$(ls "$T"/ovd/*.json)
        check "overlap d2h: one row" rec overlap-rows "$rec" d2h stream
        check "overlap d2h: efficiency re-derived" rec overlap-efficiency-rederived "$rec"
        check "overlap d2h: no headline of h2d" rec figure-labels "$rec"
    fi

    # --- planted errors: one in every kind of output, each caught --------------------------
    if expect "overlap: planted errors exit 1" 1 "$OV" "${FAST[@]}" "${OV_SMALL[@]}" \
        --precisions fp32 --inject-error --out "$T/ovinj"; then
        rec=$(ls "$T"/ovinj/*.json)
        check "overlap: planted errors: record kept and valid" "$VALIDATE" "$SCHEMA" "$rec"
        check "overlap: planted errors caught in copy, kernels, both-run and the sweep" \
            rec overlap-failures "$rec" overlap:copy overlap:compute overlap:stream \
            overlap:both intensity:memory intensity:compute
        check "overlap: planted errors: six lines on stderr say so" test \
            "$(grep -c 'verification failed: ' "$T/err")" = 6
        check "overlap: planted errors: the copy's says where" grep -q \
            "verification failed: overlap h2d compute, copy alone: h2d copy: element 262143" \
            "$T/err"
        check "overlap: planted errors: no efficiency of a failed row" rec fields "$rec" \
            results.overlap.0.verified=false results.overlap.0.overlap_efficiency=null
        check "overlap: planted errors: no ridge fitted on failed points" rec fields "$rec" \
            results.ridge.fp32.found=false \
            "results.ridge.fp32.why=not fitted: a point of the sweep failed verification"
    fi

    # --- bad input: one line on stderr, exit 2, nothing written ----------------------------
    ov_bad() { bad_input overlap "$1" "$T/ovbad" "$OV" "${FAST[@]}" --out "$T/ovbad" "${@:2}"; }
    ov_bad "--copy-size 0" --copy-size 0
    ov_bad "--copy-size garbage" --copy-size 12abc
    ov_bad "--copy-size huge" --copy-size 1TiB
    ov_bad "--size huge" --size 1TiB
    ov_bad "--size 1KiB (below 4 KiB)" --size 1KiB
    ov_bad "--stream-size 0" --stream-size 0
    ov_bad "--k-max 0" --k-max 0
    ov_bad "--k-max 3 (not a power of two)" --k-max 3
    ov_bad "--k-max 16384" --k-max 16384
    ov_bad "--compute-iters -1" --compute-iters -1
    ov_bad "--stream-passes 70000" --stream-passes 70000
    ov_bad "--parts foo" --parts foo
    ov_bad "--precisions fp16" --precisions fp16
    ov_bad "--directions both" --directions both
    ov_bad "--group-size 3 (not a power of two)" --group-size 3
    ov_bad "--min-sample-us 0" --min-sample-us 0
    ov_bad "unknown option" --frobnicate
    ov_bad "--device 99" --device 99

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "overlap --backend cuda without a GPU exits 77" 77 "$OV" --backend cuda \
        --out "$T/ovcuda"; then
        check "overlap cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "overlap cuda skip writes nothing" test ! -e "$T/ovcuda"
    fi

    # --- the driver runs it ----------------------------------------------------------------
    expect "gmb run overlap" 0 "$G" run overlap "${FAST[@]}" "${OV_SMALL[@]}" --k-max 4 \
        --out "$T/ovdrv" &&
        check "gmb run overlap recorded" test -n "$(ls "$T"/ovdrv/*-overlap.json)"
fi
