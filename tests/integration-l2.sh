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
        --coldwarm-sizes 256KiB,1MiB --flush 8MiB --l1-sizes 4KiB:64KiB:x4 --out "$T/all"; then
        rec=$(ls "$T"/all/*-l2.json)
        check "l2: record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "l2: 9 read + 9 write + 4 cold/warm + 3 l1 verified rows" \
            test "$(grep -cE ' full *$' "$T/out")" = 25
        check "l2: no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        check "l2: record holds 25 verified points" test "$(json "$rec" \
            "sum(p['extra']['verified'] == 'full' for p in r['points'])")" = 25
        check "l2: parts measured" test "$(json "$rec" \
            "','.join(sorted({p['params']['part'] + '/' + p['params']['state'] for p in r['points']}))")" = \
            "coldwarm/cold,coldwarm/warm,l1/-,read/-,write/-"
        check "l2: every bandwidth is positive" test "$(json "$rec" \
            "all(p['metrics']['bw_GBps']['median'] > 0 for p in r['points'])")" = True
        check "l2: partitions and persistence skipped on OpenCL, with reasons" test "$(json "$rec" \
            "sorted((s['part'], 'OpenCL' in s['reason']) for s in r['results']['skipped'])")" = \
            "[('partitions', True), ('persistence', True)]"
        check "l2: skips shown in the table" bash -c \
            "grep -q '^partitions skipped: OpenCL' '$T/out' && grep -q '^persistence skipped: OpenCL' '$T/out'"
        check "l2: a verdict per bandwidth curve" test "$(json "$rec" \
            "sorted((k, v['verdict'] in ('plateaus', 'no clear plateau', 'no clear level')) for k, v in r['results']['bandwidth'].items())")" = \
            "[('l1', True), ('read', True), ('write', True)]"
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
        # every plateau of a fitted curve, first to last, numbered on a CPU, each within its CI
        check "l2: a fitted curve lists its plateaus, ends the cache and memory ones" test "$(json "$rec" \
            "all(b['verdict'] != 'plateaus' or (len(b['levels']) == b['plateaus'] and b['levels'][0]['GBps'] == b['cache_GBps'] and b['levels'][-1]['GBps'] == b['memory_GBps'] and all(__import__('re').fullmatch('level [0-9]+|memory', l['name']) and l['from_bytes'] <= l['to_bytes'] and (l['ci'] is None or l['ci'][0] <= l['GBps'] <= l['ci'][1]) for l in b['levels'])) for k, b in r['results']['bandwidth'].items() if k != 'l1')")" = True
    fi

    # --- l1: every group re-reads one set; the L1s' aggregate bandwidth ---------------------
    if expect "l2 --parts l1" 0 "$L" "${FAST[@]}" --parts l1 --l1-sizes 4KiB:8MiB:x2 \
        --out "$T/l1"; then
        rec=$(ls "$T"/l1/*-l2.json)
        check "l1: record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "l1: 12 points, every one verified" test "$(json "$rec" \
            "len(r['points']), all(p['extra']['verified'] == 'full' for p in r['points'])")" = "12 True"
        # bytes = groups x passes x set: the rate times the median time gives them back
        check "l1: bandwidth counts every group's pass over the set" test "$(json "$rec" \
            "all(abs(p['metrics']['bw_GBps']['median'] * p['time_ns']['median'] / (p['params']['groups'] * p['params']['reps'] * p['params']['size_bytes']) - 1) < 1e-6 for p in r['points'])")" = True
        check "l1: the loads' path is stated per point" test "$(json "$rec" \
            "all('every group re-reads the whole set' in p['extra']['l1'] for p in r['points'])")" = True
        # on a CPU never a GPU name; a found level's CI holds it and it is faster than the last
        check "l1: levels numbered on a CPU, each within its CI, the first the faster" test "$(json "$rec" \
            "(lambda b: b['verdict'] == 'no clear level' or (b['first']['name'] == 'level 1' and b['last']['name'].startswith('level ') and b['first']['ci'][0] <= b['first']['GBps'] <= b['first']['ci'][1] and b['last']['ci'][0] <= b['last']['GBps'] <= b['last']['ci'][1] and b['first']['GBps'] > b['last']['GBps'] and b['first']['capacity_bytes'] < b['last']['from_bytes']))(r['results']['bandwidth']['l1'])")" = True
        # the level table has the first level exactly when gmb-l2 found it, and never "L1"
        if expect "l1: gmb table --levels" 0 "$G" table --levels "$T/l1" --format csv; then
            check "l1: the level table's row matches the record" test "$(json "$rec" \
                "(lambda b: 'found' if b['verdict'] == 'plateaus' else 'none')(r['results']['bandwidth']['l1'])")" = \
                "$(grep -q '^"Cache level 1, aggregate of all compute units",' "$T/out" && echo found || echo none)"
            check "l1: no L1 claimed on a CPU in the level table" bash -c "! grep -q '^\"L1,' '$T/out'"
        fi
    fi
    if expect "l2: planted error in l1 exits 1" 1 "$L" "${FAST[@]}" --parts l1 --l1-sizes 64KiB \
        --inject-error --out "$T/inj-l1"; then
        check "l2: planted error in l1 names the group" grep -qE "verification failed: l1, 64 KiB: group [0-9]+ of [0-9]+:" "$T/err"
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
    badl "--l1-sizes 0" --l1-sizes 0 --parts l1
    badl "--l1-sizes 1TiB" --l1-sizes 1TiB --parts l1

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "l2 --backend cuda without a GPU exits 77" 77 "$L" --backend cuda --sizes 1MiB \
        --out "$T/cuda"; then
        check "l2 cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "l2 cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
