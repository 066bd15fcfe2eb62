# integration-l2.sh - gmb-l2 end to end on OpenCL/PoCL: the read/write bandwidth sweep and the
# cold/warm part run, verify and record; the CUDA-only parts are skipped with their reasons;
# the cache is named generically on a CPU; a planted wrong sum fails; bad input; CUDA absent.
L="$PWD/$BIN/gmb-l2"
if ! have_opencl; then
    skip "$TAG l2 integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb list names l2" 0 "$G" list && check "gmb list names l2" grep -q "^l2 " "$T/out"
    expect "gmb-l2 --help" 0 "$L" --help && check "l2 help explains the L1 bypass" \
        grep -q "ld.global.cg" "$T/out"

    # --- every part, small sizes: bandwidth and cold/warm verified, CUDA parts skipped -----
    if expect "l2 every part" 0 "$L" "${FAST[@]}" --sizes 256KiB:4MiB:2/oct \
        --coldwarm-sizes 256KiB,1MiB --flush 8MiB --out "$T/all"; then
        rec=$(ls "$T"/all/*-l2.json)
        check "l2: record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "l2: 9 read + 9 write + 4 cold/warm verified rows" \
            test "$(grep -cE ' full *$' "$T/out")" = 22
        check "l2: no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        check "l2: record holds 22 verified points" test "$(json "$rec" \
            "sum(p['extra']['verified'] == 'full' for p in r['points'])")" = 22
        check "l2: parts measured" test "$(json "$rec" \
            "','.join(sorted({p['params']['part'] + '/' + p['params']['state'] for p in r['points']}))")" = \
            "coldwarm/cold,coldwarm/warm,read/-,write/-"
        check "l2: every bandwidth is positive" test "$(json "$rec" \
            "all(p['metrics']['bw_GBps']['median'] > 0 for p in r['points'])")" = True
        check "l2: partitions and persistence skipped on OpenCL, with reasons" test "$(json "$rec" \
            "sorted((s['part'], 'OpenCL' in s['reason']) for s in r['results']['skipped'])")" = \
            "[('partitions', True), ('persistence', True)]"
        check "l2: skips shown in the table" bash -c \
            "grep -q '^partitions skipped: OpenCL' '$T/out' && grep -q '^persistence skipped: OpenCL' '$T/out'"
        check "l2: a verdict per bandwidth curve" test "$(json "$rec" \
            "sorted((k, v['verdict'] in ('plateaus', 'no clear plateau')) for k, v in r['results']['bandwidth'].items())")" = \
            "[('read', True), ('write', True)]"
        check "l2: hit-rate fields on every bandwidth point (counters null)" test "$(json "$rec" \
            "all('hit_rate_est' in p['extra'] and p['extra']['hit_rate_hw'] is None for p in r['points'] if p['params']['part'] in ('read', 'write'))")" = True
        check "l2: cold/warm times and ratio per size" test "$(json "$rec" \
            "[(c['size_bytes'], c['cold_ns'] > 0, c['warm_ns'] > 0, abs(c['cold_over_warm'] - c['cold_ns'] / c['warm_ns']) < 1e-9) for c in r['results']['coldwarm']['sizes']]")" = \
            "[(262144, True, True, True), (1048576, True, True, True)]"
        check "l2: the empty launch beside each cold/warm pair, and what it means" test "$(json "$rec" \
            "all(c['empty_launch_ns'] > 0 and c['launch_dominated'] == (min(c['warm_sample_ns'], c['cold_sample_ns']) < 10 * c['empty_launch_ns']) for c in r['results']['coldwarm']['sizes'])")" = True
        check "l2: the L1 treatment is stated in the record" test "$(json "$rec" \
            "'not bypassed' in r['results']['l1']")" = True
        check "l2: no GPU structure claimed on a CPU" bash -c \
            "! grep -E '^# (summary|read|write)' '$T/out' | grep -qE 'L2|DRAM|SM'"
        check "l2: the cache is named generically" test "$(json "$rec" \
            "r['results']['cache_name'], r['results']['bandwidth']['read']['cache']")" = \
            "last-level cache (CPU) last-level cache (CPU)"
        check "l2: the summary is printed and recorded" grep -qF \
            "# summary: $(json "$rec" "r['results']['summary']")" "$T/out"
    fi

    # --- only CUDA parts on OpenCL: nothing to measure, skipped ----------------------------
    if expect "l2 CUDA-only parts on OpenCL exit 77" 77 "$L" "${FAST[@]}" \
        --parts partitions,persistence --out "$T/cu-only"; then
        check "l2 CUDA-only parts: the reason on stderr" grep -q "skipped: .*OpenCL" "$T/err"
        check "l2 CUDA-only parts: nothing written" test ! -e "$T/cu-only"
    fi

    # --- planted wrong results must fail verification --------------------------------------
    for p in read write coldwarm; do
        if expect "l2: planted error in $p exits 1" 1 "$L" "${FAST[@]}" --parts "$p" \
            --sizes 1MiB --coldwarm-sizes 1MiB --flush 4MiB --inject-error --out "$T/inj-$p"; then
            check "l2: planted error in $p is reported" grep -q "verification failed: $p" "$T/err"
            check "l2: planted error in $p: record marked" test "$(json "$(ls "$T"/inj-$p/*.json)" \
                "r['status'], r['points'][0]['extra']['verified']")" = "verification_failed FAILED"
        fi
    done

    # --- bad input: one line on stderr, exit 2, nothing written ----------------------------
    badl() { bad_input l2 "$1" "$T/bad" "$L" "${FAST[@]}" --out "$T/bad" "${@:2}"; } # name args...
    badl "--sizes 0" --sizes 0
    badl "--sizes 12Q" --sizes 12Q
    badl "--sizes 1TiB" --sizes 1TiB
    badl "--parts nope" --parts nope
    badl "--device 99" --device 99 --sizes 1MiB
    badl "unknown option" --bogus
    badl "--flush 1TiB" --flush 1TiB --sizes 1MiB
    badl "--group-size 3" --group-size 3 --sizes 1MiB

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "l2 --backend cuda without a GPU exits 77" 77 "$L" --backend cuda --sizes 1MiB \
        --out "$T/cuda"; then
        check "l2 cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "l2 cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
