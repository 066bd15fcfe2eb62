# integration-um.sh - gmb-um end to end on OpenCL/PoCL (coarse-grained shared virtual
# memory): every test PoCL supports verified and recorded, the advice tests skipped with their
# reason, planted errors in each kind of check, bad input, the oversubscription guard, CUDA
# without a GPU.
U="$PWD/$BIN/gmb-um"
# FAST without --min-sample-us, which gmb-um has no use for
UFAST=(--backend opencl --warmup 0 --min-samples 2 --max-samples 3 --time-cap 0.05 --quiet)
if ! have_opencl; then
    skip "$TAG integration um: no OpenCL device (install pocl-opencl-icd)"
elif ! clinfo 2>/dev/null | grep -q "Coarse-grained buffer sharing *Yes"; then
    skip "$TAG integration um: the OpenCL device has no coarse-grained shared virtual memory"
else
    expect "gmb-um --help" 0 "$U" --help && check "help names the tests" \
        grep -q "prefetch-h2d  cudaMemPrefetchAsync" "$T/out"
    expect "gmb list names um" 0 "$G" list && check "gmb list has um" grep -q "^um " "$T/out"

    # --- every test, two sizes, two strides: verified, recorded ------------------------------
    if expect "um all tests" 0 "$U" "${UFAST[@]}" --sizes 64KiB:256KiB:x4 --pages 16 \
        --strides 4KiB,64KiB --out "$T/all"; then
        rec=$(ls "$T"/all/*-um.json)
        csv=$(ls "$T"/all/*-um.csv)
        # kernels that reach malloc'd memory (fine-grained system SVM: PoCL 6 has it, PoCL 3
        # not) add the system test's two points
        sysp=0 sysl="" systest=""
        if [ "$(json "$rec" "r['results']['system_memory']")" = \
            "OpenCL fine-grained system shared virtual memory" ]; then
            sysp=2 sysl=", 'system'" systest=', ["system", 262144], ["system", 65536]'
        fi
        check "um record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "um table: $((14 + sysp)) verified rows" \
            test "$(grep -cE ' full *$' "$T/out")" = $((14 + sysp))
        check "um: no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        check "um: the summary says how managed memory moves, rates at 256 KiB" grep -qE \
            "^# um: managed memory moves: $(json "$rec" "r['results']['migration']"); \
the device reads data resident on it [0-9.]+ GB/s at 256 KiB; .*" \
            "$T/out"
        check "um: the summary recorded as printed" grep -qxF \
            "# um: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "um record: every test at every size" rec points-tuples "$rec" \
            params.test,params.size_bytes '[["fault-d2h", 262144], ["fault-d2h", 65536],
                ["fault-h2d", 262144], ["fault-h2d", 65536], ["prefetch-d2h", 262144],
                ["prefetch-d2h", 65536], ["prefetch-h2d", 262144], ["prefetch-h2d", 65536],
                ["resident", 262144], ["resident", 65536]'"$systest]" params.test!=latency
        check "um record: all $((14 + sysp)) points verified in full" rec points-count "$rec" \
            $((14 + sysp)) extra.verified=full
        check "um record: latency on the host and resident per stride" rec points-tuples "$rec" \
            params.stride_bytes,params.placement,params.pages \
            '[[4096, "device", 15], [4096, "host", 15], [65536, "device", 15],
              [65536, "host", 15]]' \
            params.test=latency
        check "um record: both latencies per stride" rec keys "$rec" results.fault_us 4096 \
            65536
        for st in 4096 65536; do
            check "um record: both latencies at stride $st" rec keys "$rec" \
                "results.fault_us.$st" device_us host_us
        done
        check "um: no fault cost claimed where nothing migrates" grep -q "not a fault cost" \
            "$T/out"
        check "um record: the second times of each test" rec metric-names "$rec" bw_GBps lat_us \
            host_after_GBps host_resident_GBps kernel_after_GBps
        check "um record: host-timed only fault-d2h" rec points-set "$rec" params.test \
            '["fault-d2h"]' "params.timer!=device events"
        check "um record: remote and readmostly skipped with the reason" rec um-skipped-tests \
            "$rec" "no advice" readmostly remote
        skipped=(remote readmostly)
        if [ "$sysp" = 0 ]; then
            skipped+=(system)
            check "um record: system memory skipped with the reason \
(PoCL 3: no fine-grained system SVM)" rec um-skipped-reasons "$rec" system \
                "kernels cannot use plain malloc'd memory here \
(no fine-grained system shared virtual memory)"
            check "um record: how kernels reach malloc'd memory (PoCL 3: they cannot)" \
                rec fields "$rec" "results.system_memory=kernels cannot use plain malloc'd memory"
        else
            check "um record: system memory not skipped where kernels reach it" \
                rec um-skipped-reasons "$rec" system
        fi
        check "um record: no point of a skipped test (never a fake number)" \
            rec um-no-points-of "$rec" "${skipped[@]}"
        check "um record: the OpenCL version, however long the string (PoCL's is 65 bytes)" \
            rec field-startswith "$rec" device.runtime_version "OpenCL "
        check "um record: what managed memory is" rec text-contains "$rec" \
            device.managed_memory "coarse-grained shared virtual memory"
        check "um record: PoCL's memory is the host's, said so" rec fields "$rec" \
            results.host_unified_memory=true
        check "um: the table says nothing moves" grep -q "migration has nothing to move" "$T/out"
        check "um record: how data moves here" rec fields "$rec" \
            "results.migration=none: the device's memory is the host's"
        check "um record: nothing moved anywhere on PoCL" rec points-count "$rec" 0 \
            extra.moved=true params.test!=latency
        check "um record: the driver's tunables, or why not" rec um-driver-tunables "$rec"
        for t in prefetch-d2h prefetch-h2d; do
            check "um record: a $t that moves nothing has a time, no rate" rec points-count \
                "$rec" 0 params.test="$t" extra.moved!=false
            check "um record: $t: no rate" rec points-count "$rec" 0 params.test="$t" \
                metrics.bw_GBps?=true
            check "um record: $t: a time" rec points-count "$rec" 0 params.test="$t" \
                metrics.lat_us?=false
            check "um record: $t: measured" rec points-count "$rec" 2 params.test="$t"
        done
        largest=(fault-d2h fault-h2d resident)
        [ "$sysp" = 2 ] && largest+=(system)
        check "um record: no largest rate of a prefetch that moves nothing" rec keys "$rec" \
            results.largest "${largest[@]}"
        check "um record: rates and latencies positive" rec um-first-metric-positive "$rec"
        check "um record: largest per test at the largest size" rec fields "$rec" \
            results.largest.fault-h2d.size_bytes=262144
        check "um csv: header + $((14 + sysp)) rows" test "$(wc -l <"$csv")" = $((15 + sysp))
        if expect "gmb table of a um record" 0 "$G" table "$rec"; then
            check "um table says how managed memory moves" \
                grep -q "^| Managed memory moves |  | none: the device's memory is the host's |" \
                "$T/out"
            check "um table: no fault cost where nothing migrates" \
                bash -c "! grep -q 'Page fault' '$T/out'"
        fi
        check "um csv header" grep -q "^test,size_bytes,timer,.*bw_GBps" "$csv"
    fi

    # --- host reads by several threads: every word still checked -----------------------------
    if expect "um fault-d2h with 2 host threads" 0 "$U" "${UFAST[@]}" --sizes 1MiB \
        --tests fault-d2h,prefetch-d2h --host-threads 2 --out "$T/ht"; then
        check "um record: host threads of the host reads" rec points-set \
            "$(ls "$T"/ht/*.json)" params.host_threads '[2]'
    fi
    expect "um planted error found by 3 host threads" 1 "$U" "${UFAST[@]}" --sizes 1MiB \
        --tests fault-d2h --host-threads 3 --inject-error --no-record &&
        check "um 3 host threads: the one wrong word counted once" \
            grep -q "1 of 262144 words differ" "$T/err"

    # --- a planted wrong word (or link) must fail verification ------------------------------
    for t in resident fault-h2d fault-d2h prefetch-h2d prefetch-d2h latency; do
        expect "um planted error in $t exits 1" 1 "$U" "${UFAST[@]}" --sizes 64KiB --pages 8 \
            --strides 4KiB --tests "$t" --inject-error --out "$T/inj" &&
            check "um planted error in $t is reported" \
                grep -q "verification failed: $t" "$T/err"
    done
    check "um: a failed run keeps its record, marked" rec fields \
        "$(ls "$T"/inj/*.json | head -1)" status=verification_failed

    # --- bad input: one line on stderr, exit 2, nothing written -----------------------------
    # ubad NAME ARGS...
    ubad() { bad_input um "$1" "$T/bad" "$U" "${UFAST[@]}" --out "$T/bad" "${@:2}"; }
    ubad "--sizes 0" --sizes 0
    ubad "--sizes 12Q" --sizes 12Q
    ubad "--sizes 1KiB (under a page)" --sizes 1KiB
    ubad "--strides 6KiB" --strides 6KiB --tests latency
    ubad "--pages 1" --pages 1
    ubad "--host-threads 0" --host-threads 0
    ubad "--host-threads 65" --host-threads 65
    ubad "--tests nope" --tests nope
    ubad "--device 99" --device 99
    ubad "unknown option" --frobnicate
    # never oversubscribe: more than half the device's memory is refused before allocating
    ubad "--sizes 1TiB (oversubscription)" --sizes 1TiB
    check "um oversubscription: says why" grep -q "never oversubscribes" "$T/err"
    ubad "--pages 4097 (serial faults in one kernel)" --pages 4097
    ubad "--pages x --strides too large" --tests latency --pages 4096 --strides 1GiB

    # --- CUDA without a GPU: skipped with the reason ----------------------------------------
    if expect "um --backend cuda without a GPU exits 77" 77 "$U" --backend cuda \
        --sizes 64KiB \
        --out "$T/cuda"; then
        check "um cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "um cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
