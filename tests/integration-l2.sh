# integration-l2.sh - gmb-l2 end to end on OpenCL/PoCL: the read/write bandwidth sweep and
# the cold/warm part run, verify and record; the CUDA-only parts are skipped with their
# reasons; the cache is named generically on a CPU; a planted wrong sum fails; bad input; CUDA
# absent.
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
        check "l2: record holds 25 verified points" rec points-count "$rec" 25 extra.verified=full
        check "l2: parts measured, each kind" rec points-set "$rec" params.part \
            '["coldwarm", "l1", "read", "write"]'
        check "l2: cold and warm states, none elsewhere" rec points-set "$rec" params.state \
            '["cold", "warm"]' params.part=coldwarm
        check "l2: no state but cold/warm's" rec points-set "$rec" params.state '["-"]' \
            params.part!=coldwarm
        check "l2: every bandwidth is positive" rec points-positive "$rec" metrics.bw_GBps.median
        check "l2: partitions and persistence skipped on OpenCL" rec fields "$rec" \
            results.skipped.0.part=partitions results.skipped.1.part=persistence
        for k in 0 1; do
            check "l2: skip $k says OpenCL" rec text-contains "$rec" "results.skipped.$k.reason" \
                OpenCL
        done
        check "l2: skips shown in the table" bash -c \
            "grep -q '^partitions skipped: OpenCL' '$T/out' &&
             grep -q '^persistence skipped: OpenCL' '$T/out'"
        check "l2: a bandwidth curve per part" rec keys "$rec" results.bandwidth l1 read write
        check "l2: a shape tuned per part" rec keys "$rec" results.tuning l1 read write
        check "l2: each shape by its rule, its part's points in it" rec l2-tuning "$rec"
        check "l2: the choices printed" test "$(grep -c '^# tuned ' "$T/out")" = 3
        for k in l1 read write; do
            check "l2: the $k curve's verdict is one gmb-l2 gives" rec l2-verdict-known "$rec" "$k"
        done
        for part in read write; do
            check "l2: hit-rate fields on every $part point (counters null)" rec points-count \
                "$rec" 0 params.part="$part" extra.hit_rate_est?=false
            check "l2: no hardware hit rate on $part points here" rec points-count "$rec" 0 \
                params.part="$part" extra.hit_rate_hw!=null
        done
        check "l2: cold/warm times, ratio and empty launch per size" rec l2-coldwarm "$rec" \
            262144 1048576
        check "l2: the L1 treatment is stated in the record" rec text-contains "$rec" \
            results.l1 "not bypassed"
        check "l2: no GPU structure claimed on a CPU" bash -c \
            "! grep -E '^# (summary|read|write)' '$T/out' | grep -qE 'L2|DRAM|SM'"
        check "l2: the cache is named generically" rec fields "$rec" \
            "results.cache_name=last-level cache (CPU)" \
            "results.bandwidth.read.cache=last-level cache (CPU)"
        check "l2: the summary is printed and recorded" grep -qF \
            "# summary: $(json "$rec" "r['results']['summary']")" "$T/out"
        # every plateau of a fitted curve, first to last, numbered on a CPU, each within its CI
        check "l2: a fitted curve lists its plateaus, ends the cache and memory ones" \
            rec l2-plateaus "$rec"
    fi

    # --- l1: every group re-reads one set; the L1s' aggregate bandwidth ---------------------
    if expect "l2 --parts l1" 0 "$L" "${FAST[@]}" --parts l1 --l1-sizes 4KiB:8MiB:x2 \
        --out "$T/l1"; then
        rec=$(ls "$T"/l1/*-l2.json)
        check "l1: record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "l1: 12 points, every one verified" rec points-count "$rec" 12 extra.verified=full
        check "l1: no other point" rec points-count "$rec" 12
        # bytes = groups x passes x set: the rate times the median time gives them back
        check "l1: bandwidth counts every group's pass over the set" rec l2-l1-bytes "$rec"
        check "l1: the loads' path is stated per point" rec l2-l1-path-per-point "$rec"
        check "l1: the stated path: every group re-reads the whole set" rec text-contains "$rec" \
            points.0.extra.l1 "every group re-reads the whole set"
        # on a CPU never a GPU name; a found level's CI holds it and it is faster than the last
        check "l1: levels numbered on a CPU, each within its CI, the first the faster" \
            rec l2-l1-levels "$rec"
        # the level table has the first level exactly when gmb-l2 found it, and never "L1"
        if expect "l1: gmb table --levels" 0 "$G" table --levels "$T/l1" --format csv; then
            check "l1: the level table's row matches the record" rec l2-l1-found "$rec" \
                "$(grep -q '^"Cache level 1, aggregate of all compute units",' "$T/out" &&
                    echo found || echo none)"
            check "l1: no L1 claimed on a CPU in the level table" \
                bash -c "! grep -q '^\"L1,' '$T/out'"
        fi
    fi
    if expect "l2: planted error in l1 exits 1" 1 "$L" "${FAST[@]}" --parts l1 \
        --l1-sizes 64KiB --inject-error --out "$T/inj-l1"; then
        check "l2: planted error in l1 names the group" \
            grep -qE "verification failed: l1, 64 KiB: group [0-9]+ of [0-9]+:" "$T/err"
    fi

    # --- each shape given: every set, odd ones too, verified in it -------------------------
    for lay in lockstep grid-stride; do
        if expect "l2 --layout $lay" 0 "$L" "${FAST[@]}" --layout "$lay" --parts read,write,l1 \
            --sizes 16,4KiB,20000,100000,1MiB --l1-sizes 16,20000,64KiB --out "$T/lay-$lay"; then
            rec=$(ls "$T"/lay-$lay/*-l2.json)
            check "l2 --layout $lay: 13 points, every one verified" rec points-count "$rec" 13 \
                extra.verified=full
            check "l2 --layout $lay: given, every point in it" rec l2-layout-given "$rec" "$lay"
            check "l2 --layout $lay: nothing tuned" bash -c "! grep -q '^# tuned' '$T/out'"
        fi
    done
    for p in read write l1; do
        if expect "l2: planted error in lockstep $p exits 1" 1 "$L" "${FAST[@]}" --parts "$p" \
            --layout lockstep --sizes 1MiB --l1-sizes 64KiB --inject-error --out "$T/injl-$p"; then
            check "l2: planted error in lockstep $p is reported" grep -q \
                "verification failed: $p" "$T/err"
        fi
    done

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
            check "l2: planted error in $p: record marked" rec fields "$(ls "$T"/inj-$p/*.json)" \
                status=verification_failed points.0.extra.verified=FAILED
        fi
    done

    # --- bad input: one line on stderr, exit 2, nothing written ----------------------------
    # badl NAME ARGS...
    badl() { bad_input l2 "$1" "$T/bad" "$L" "${FAST[@]}" --out "$T/bad" "${@:2}"; }
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
    badl "--layout nope" --layout nope

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "l2 --backend cuda without a GPU exits 77" 77 "$L" --backend cuda --sizes 1MiB \
        --out "$T/cuda"; then
        check "l2 cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "l2 cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
