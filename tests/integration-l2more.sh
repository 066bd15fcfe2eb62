# integration-l2more.sh - gmb-l2's issue-21 changes end to end on OpenCL/PoCL: sets smaller
# than the grid (and than one group) read and written in passes that form one sequence, all
# verified; the plateau fit's head fields; cold/warm far above a launch with its CI and an
# honest verdict; planted errors on the new paths; the CUDA-only parts skipped with reasons;
# the GPU steps ready in tests/gpu-check.sh.
L="$PWD/$BIN/gmb-l2"
if ! have_opencl; then
    skip "$TAG l2more integration: no OpenCL device (install pocl-opencl-icd)"
else
    # --- tiny and small sets: fewer elements than a group, than the grid -------------------
    if expect "l2more: tiny sets read and written" 0 "$L" "${FAST[@]}" --parts read,write \
        --sizes 16,48,4KiB,64KiB,1MiB --out "$T/l2m-tiny"; then
        rec=$(ls "$T"/l2m-tiny/*-l2.json)
        check "l2more: record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "l2more: 10 verified points, none failed" rec points-count "$rec" 10 \
            extra.verified=full
        # every pass reads (writes) every element: the passes fill a grid whatever the set
        check "l2more: a 16-byte set still gets many passes a launch" rec l2-many-passes "$rec" \
            16 2
        check "l2more: the grid follows the passes, not the set" rec l2-grid-follows-passes "$rec"
        check "l2more: the fit's head and top in the record" rec l2-fit-head "$rec"
        check "l2more: no hit rate claimed for the rising head's points" rec l2-head-unrated \
            "$rec"
        check "l2more: a plateau verdict says how it was found" rec l2-method-iff-plateaus "$rec"
        check "l2more: no L2 or DRAM claimed on a CPU" bash -c \
            "! grep -E '^(# summary|read|write)' '$T/out' | grep -qE 'L2|DRAM'"
    fi
    for p in read write; do
        if expect "l2more: planted error in a 48-byte $p set exits 1" 1 "$L" "${FAST[@]}" \
            --parts "$p" --sizes 48 --inject-error --out "$T/l2m-inj-$p"; then
            check "l2more: planted error in a tiny $p set is reported" \
                grep -q "verification failed: $p" "$T/err"
        fi
    done

    # --- cold/warm: per pass, both far above an empty launch, a CI, an honest verdict ------
    if expect "l2more: cold/warm" 0 "$L" "${FAST[@]}" --parts coldwarm \
        --coldwarm-sizes 64KiB,512KiB --flush 4MiB --min-sample-us 500 --out "$T/l2m-cw"; then
        rec=$(ls "$T"/l2m-cw/*-l2.json)
        check "l2more: cold/warm record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "l2more: cold/warm: 4 verified points" rec points-count "$rec" 4 \
            extra.verified=full
        check "l2more: cold sets span the flush, each set read once" rec l2-cold-spans "$rec" \
            2 4194304
        check "l2more: the warm set re-read in one launch" rec l2-warm-reps "$rec"
        check "l2more: per-pass times and their ratio" rec l2-per-pass-times "$rec"
        check "l2more: the ratio inside its CI, the verdict from the CI" rec l2-ratio-ci-verdict \
            "$rec"
        # (whether a sample lasted 10 empty launches is a CPU timing here: only the flag's
        # consistency with the samples is checked)
        check "l2more: the launch flag as the samples say" rec l2-launch-flag "$rec"
        check "l2more: the cold points read the span once" rec l2-cold-points "$rec" 2
        check "l2more: the summary gives each ratio with its CI" grep -qE \
            "^# summary: cold vs warm .*64 KiB .* = [0-9.]+x \[[0-9.]+, [0-9.]+\]" "$T/out"
    fi
    if expect "l2more: planted error in the cold pass exits 1" 1 "$L" "${FAST[@]}" \
        --parts coldwarm --coldwarm-sizes 64KiB --flush 1MiB --inject-error \
        --out "$T/l2m-cwinj"; then
        check "l2more: planted cold/warm error reported" \
            grep -q "verification failed: coldwarm" "$T/err"
    fi

    # --- the CUDA-only parts on OpenCL: skipped, never a partition claimed ------------------
    if expect "l2more: partitions on OpenCL skipped (77)" 77 "$L" "${FAST[@]}" \
        --parts partitions --out "$T/l2m-part"; then
        check "l2more: no partition verdict on OpenCL" bash -c \
            "! grep -qE 'single partition|near and far' '$T/out' '$T/err'"
        check "l2more: the skip names the CUDA need" grep -q "%smid" "$T/err"
    fi
    check "l2more: --help states the verdicts" bash -c \
        "'$L' --help | grep -q 'no measurable gain' && '$L' --help | grep -q 'single partition'"

    # --- the GPU part, ready for a lent GPU (tests/gpu-check.sh, GMB_CHECK_ONLY names) -----
    check "l2more: gpu-check has the l2 steps" bash -c \
        "grep -q '^step l2-more-cuda ' tests/gpu-check.sh &&
         grep -q 'step l2-counters-cuda ' tests/gpu-check.sh"
    check "l2more: the ncu step asks the L2 hit rate at the issue's sizes, clocks left alone" \
        bash -c "grep -A3 'step l2-counters-cuda' tests/gpu-check.sh |
                 grep -q 'for s in 4 32 48 64 128' &&
                 grep -A6 'step l2-counters-cuda' tests/gpu-check.sh |
                 grep -q 'clock-control none.*' &&
                 grep -A8 'step l2-counters-cuda' tests/gpu-check.sh |
                 grep -q lts__t_sector_hit_rate.pct"
    check "l2more: gpu-check.sh parses" bash -n tests/gpu-check.sh
fi

# a capacity read off the bandwidth curve past the cache the device reports is marked (ˡ) in
# gmb table: the plateau's end, not the cache's size (crafted from a committed H200 record)
H2=$(ls results/nvidia-h200/20261130T232558Z/*-l2.json 2>/dev/null | head -1)
if [ -n "$H2" ]; then
    for k in past within; do
        mkdir -p "$T/cap-$k"
        /usr/bin/python3 - "$H2" "$T/cap-$k/x-l2.json" "$k" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
b = r["results"]["bandwidth"]["read"]
llc = b["device_llc_bytes"]
b.update(verdict="plateaus", cache_GBps=9300.0, memory_GBps=4500.0, ratio=2.07,
         capacity_bytes=64 << 20 if sys.argv[3] == "past" else llc // 2)
json.dump(r, open(sys.argv[2], "w"))
PY
    done
    if expect "l2more: table of a capacity past the reported L2" 0 "$G" table "$T/cap-past"; then
        check "l2more: a capacity past the reported L2 is marked, with its legend" bash -c \
            "grep -qE \\
                 '^\\| Cache capacity \\(bandwidth curve, read\\) \\| MiB \\| 64(\\.0+)? ˡ \\|' \\
                 '$T/out' &&
             grep -q 'ˡ: past the cache size the device reports' '$T/out'"
    fi
    if expect "l2more: table of a capacity within the reported L2" 0 "$G" table \
        "$T/cap-within"; then
        check "l2more: a capacity within the reported L2 is not marked" bash -c \
            "grep -q '^| Cache capacity (bandwidth curve, read) | MiB | [0-9.]* |' '$T/out' &&
             ! grep -q 'ˡ' '$T/out'"
    fi
fi
