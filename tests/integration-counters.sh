# integration-counters.sh - --counters end to end on OpenCL/PoCL: without CUPTI's counters
# (OpenCL has none) every point says null and why, once on stderr; with the stand-in libcupti
# (tests/unit/cupti_stub.c: known values, a test aid the record names) the whole path runs:
# stream's DRAM bytes against its count (flagged past 5%), l2's hit_rate_hw, another program,
# a permission error. No --counters: the records say nothing of counters.
STUB="$PWD/build/tests/stub/libcupti-standin.so"
[ "$TAG" = san ] && STUB="$PWD/build/san/tests/stub/libcupti-standin.so"
ST="$PWD/$BIN/gmb-stream"
CK=(--kernels copy,triad --sizes 64KiB,64MiB)
if ! have_opencl; then
    skip "$TAG counters: no OpenCL device (install pocl-opencl-icd)"
elif [ ! -e "$STUB" ]; then
    fail "$TAG counters: the stand-in libcupti was not built ($STUB; make tests)"
else
    if expect "counters: --counters on OpenCL runs" 0 "$ST" "${FAST[@]}" "${CK[@]}" --counters \
        --out "$T/cn"; then
        rec=$(ls "$T"/cn/*-stream.json)
        check "counters: OpenCL: one line on stderr says why" test \
            "$(grep -c 'counters: none: OpenCL: CUPTI counts CUDA kernels only' "$T/err")" = 1
        check "counters: OpenCL: null with the reason on every point" rec counters-none "$rec" \
            "CUDA kernels only"
        check "counters: OpenCL: the record validates" "$VALIDATE" "$SCHEMA" "$rec"
    fi
    if expect "counters: no --counters" 0 "$ST" "${FAST[@]}" --kernels copy --sizes 64KiB \
        --out "$T/c0"; then
        check "counters: without --counters the record says nothing of them" \
            rec counters-absent "$(ls "$T"/c0/*-stream.json)"
    fi
    # the stand-in: 64 MiB read and 64 MiB written a sample, i.e. copy's count at 64 MiB
    # (within 5%: not flagged) and 2/3 of triad's (flagged)
    export GMB_CUPTI_STUB_VALUES=dram__bytes_read.sum=67108864,dram__bytes_write.sum=67108864
    if expect "counters: stream with the stand-in" 0 env GMB_CUPTI_LIB="$STUB" "$ST" \
        "${FAST[@]}" "${CK[@]}" --counters --out "$T/cs"; then
        rec=$(ls "$T"/cs/*-stream.json)
        check "counters: the stand-in's values on every point, named a stand-in" \
            rec counters-standin "$rec" dram_read_bytes=67108864 l2_hit_pct=40 kernels=1
        if rec llc-within "$rec" 134217728 4 2>/dev/null; then
            check "counters: copy's DRAM bytes within 5% of its count" \
                rec stream-dram-check "$rec" copy 134217728 0
            check "counters: triad's DRAM bytes off its count: flagged" \
                rec stream-dram-check "$rec" triad 134217728 1
            check "counters: the flagged kernel printed" grep -q \
                "^# counters: triad: DRAM bytes more than 5% off the count at 1 of 1" "$T/out"
        else
            skip "$TAG counters: 64 MiB is not DRAM-sized here (LLC above 16 MiB)"
        fi
        check "counters: the stand-in's record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "counters: no 'counters: none' line with the stand-in" bash -c \
            "! grep -q 'counters: none' '$T/err'"
    fi
    unset GMB_CUPTI_STUB_VALUES
    if expect "counters: l2 with the stand-in" 0 env GMB_CUPTI_LIB="$STUB" \
        GMB_CUPTI_STUB_RANGES=2 "$PWD/$BIN/gmb-l2" "${FAST[@]}" --parts read \
        --sizes 1MiB,4MiB --counters --out "$T/cl"; then
        # two kernels a sample: (40 x 1 + 50 x 2) / 3 % of the sectors hit
        check "counters: l2's hit_rate_hw is the counters' (weighted over kernels)" \
            rec l2-hit-rate-hw "$(ls "$T"/cl/*-l2.json)" read 0.4666666666666667
        check "counters: l2's hit-rate figures: per plateau, none without one" \
            rec l2-hit-rate-figures "$(ls "$T"/cl/*-l2.json)"
    fi
    if expect "counters: atomic with the stand-in" 0 env GMB_CUPTI_LIB="$STUB" \
        "$PWD/$BIN/gmb-atomic" "${FAST[@]}" --sharers 1,all --counters --out "$T/ca"; then
        check "counters: every program's points get them (atomic)" \
            rec counters-standin "$(ls "$T"/ca/*-atomic.json)" dram_write_bytes=524288
    fi
    if expect "counters: no permission" 0 env GMB_CUPTI_LIB="$STUB" \
        GMB_CUPTI_STUB_FAIL=cuptiRangeProfilerEnable=35 "$ST" "${FAST[@]}" --kernels copy \
        --sizes 64KiB --counters --out "$T/cp"; then
        check "counters: no permission: one line says so and what to change" test "$(grep -c \
            'counters: none: CUPTI: cuptiRangeProfilerEnable: CUPTI_ERROR_INSUFFICIENT_PRIV' \
            "$T/err")" = 1
        check "counters: no permission: null with the reason on every point" \
            rec counters-none "$(ls "$T"/cp/*-stream.json)" "NVreg_RestrictProfilingToAdminUsers"
    fi
    expect "counters: a library that is not CUPTI's" 0 env GMB_CUPTI_LIB=/nonexistent.so "$ST" \
        "${FAST[@]}" --kernels copy --sizes 64KiB --counters --out "$T/cx"
fi
