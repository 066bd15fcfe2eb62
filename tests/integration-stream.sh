# integration-stream.sh - gmb and gmb-stream end to end on OpenCL/PoCL: every kernel and
# width verified and recorded, planted errors, bad input, CUDA without a GPU.
S="$PWD/$BIN/gmb-stream"
if ! have_opencl; then
    skip "$TAG integration: no OpenCL device (install pocl-opencl-icd)"
else
    # --- the driver ------------------------------------------------------------------------
    expect "gmb devices" 0 "$G" devices && check "gmb devices lists an OpenCL device" \
        grep -q "^opencl *0 " "$T/out" && check "gmb devices says where the device sits" \
        grep -qE "^ +near: (NUMA [0-9]|unknown \()" "$T/out"
    expect "gmb list" 0 "$G" list && check "gmb list names stream" grep -q "^stream " "$T/out"
    expect "gmb --help" 0 "$G" --help
    expect "gmb run unknown benchmark" 2 "$G" run nosuch
    expect "gmb unknown command" 2 "$G" frobnicate
    expect "gmb-stream --help" 0 "$S" --help && check "help states bytes per kernel" \
        grep -q "triad  c\[i\] = a\[i\] + s \* b\[i\]   3 x w" "$T/out"
    expect "gmb-stream --list-devices" 0 "$S" --list-devices

    # --- every kernel and width, small sweep, verified, recorded -----------------------------
    if expect "stream all kernels x widths" 0 "$S" "${FAST[@]}" --sizes 4KiB:64KiB:x4 \
        --widths all --out "$T/all"; then
        rec=$(ls "$T"/all/*-stream.json)
        csv=$(ls "$T"/all/*-stream.csv)
        check "table has 63 verified rows" test "$(grep -cE ' (full|sampled) *$' "$T/out")" = 63
        check "no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        check "record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "record holds 63 points, all verified" rec stream-verified "$rec" 63
        check "record names backend, device and status" rec fields "$rec" backend=opencl \
            device.type=cpu status=ok benchmark=stream
        check "record has the command line" rec fields "$rec" "command.-1=$T/all"
        check "record has locality" rec fields "$rec" locality.source?=true 'locality.source!=""'
        # the host side near the device: a CPU device is near every CPU and node, so nothing
        # is bound, and the record says why (a shell confined to some CPUs: kept, said so)
        if ! cpus_ours all; then
            check "record: a confined process keeps its binding" rec field-startswith "$rec" \
                locality.host_binding "kept the binding the process came with"
        elif [ "$(numa_nodes)" = 1 ]; then
            check "record: host thread not bound, the device near all of the host" rec fields \
                "$rec" "locality.host_binding=not bound: the device's CPUs and NUMA nodes are \
all there are"
        else
            check "record: host thread unbound, with the reason" rec fields "$rec" \
                "locality.host_binding=not bound: a CPU device's memory is every NUMA node"
        fi
        check "record keeps raw samples" rec samples-kept "$rec"
        check "bytes per element stated per kernel" rec fields "$rec" \
            results.kernels.triad.reads=2 results.kernels.triad.writes=1
        check "csv: header + 63 rows" test "$(wc -l <"$csv")" = 64
        check "csv header carries units" grep -q "^kernel,width_bytes,size_bytes,.*,bw_GBps," \
            "$csv"
        cp "$rec" "$T/broken.json"
        /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); del r['device']; \
            json.dump(r, open(sys.argv[1], 'w'))" "$T/broken.json"
        check "schema check rejects a record without device" \
            bash -c "! '$VALIDATE' '$SCHEMA' '$T/broken.json' >/dev/null"
    fi

    # --- large arrays: sampled verification of both kinds of kernel -------------------------
    if expect "stream 48 MiB copy+dot (sampled verification)" 0 "$S" "${FAST[@]}" \
        --sizes 48MiB --kernels copy,dot --widths 16 --out "$T/big"; then
        check "large points verified by sampling" rec points-list "$(ls "$T"/big/*.json)" \
            extra.verified '["sampled", "sampled"]'
    fi

    # --- a planted wrong result must fail verification -------------------------------------
    for k in copy triad dot read fill; do
        expect "planted error in $k exits 1" 1 "$S" "${FAST[@]}" --sizes 64KiB --kernels "$k" \
            --widths 8 --inject-error --out "$T/inj-$k" &&
            check "planted error in $k is reported" grep -q "verification failed: $k" "$T/err"
    done
    check "a failed run keeps its record, marked" rec fields "$(ls "$T"/inj-copy/*.json)" \
        status=verification_failed

    # --- a nominal peak given by the user (--peak-bw): used for % of peak, recorded as given --
    if expect "stream --peak-bw 100" 0 "$S" "${FAST[@]}" --sizes 1MiB --kernels read \
        --widths 16 --peak-bw 100 --out "$T/peak"; then
        rec=$(ls "$T"/peak/*-stream.json)
        check "stream --peak-bw: recorded as given" rec fields "$rec" device.peak_bw_GBps=100 \
            device.peak_bw_given=true
        check "stream --peak-bw: with what the driver said" rec field-startswith "$rec" \
            device.peak_bw_source "given: --peak-bw 100 (the driver"
        check "stream --peak-bw: % of peak against it" rec pct-is-bw "$rec"
        check "stream --peak-bw: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "stream --peak-bw: the summary printed, with % of that peak" grep -qE \
            '^# stream: read [0-9.]+ GB/s \([0-9.]+%\) at 1 MiB \(not DRAM-sized\): '\
'.*given peak 100 GB/s' "$T/out"
        check "stream --peak-bw: the summary recorded as printed" grep -qxF \
            "# stream: $(json "$rec" "r['results']['summary']")" "$T/out"
        expect "stream --peak-bw: table" 0 "$G" table "$T/peak" &&
            check "stream --peak-bw: the table marks the peak as given" \
                grep -q "^| Nominal peak bandwidth | GB/s | 100.0 ᵍ |" "$T/out"
    fi

    # --- a process that came bound keeps its binding (numactl, hwloc-bind, taskset) ----------
    if command -v hwloc-bind >/dev/null && cpus_ours 0; then
        if expect "stream under hwloc-bind" 0 hwloc-bind --cpubind pu:0 -- "$S" "${FAST[@]}" \
            --sizes 4KiB --kernels copy --widths 4 --out "$T/bound"; then
            check "stream under hwloc-bind: the binding is kept and said" rec fields \
                "$(ls "$T"/bound/*.json)" "locality.host_binding=kept the binding the process \
came with: CPUs 0, memory default"
        fi
    else
        skip "$TAG stream under hwloc-bind (no hwloc-bind, or CPU 0 is not ours)"
    fi

    # --- --energy: NVML's board energy counter (on PoCL: NVML absent, then a stand-in NVML
    # whose counter draws 120 W in 10 ms steps, asked about through GMB_TEST_NVML_PCI) ------
    STUB="$PWD/build/tests/stub/libnvidia-ml.so.1"
    [ "$TAG" = san ] && STUB="$PWD/build/san/tests/stub/libnvidia-ml.so.1"
    if expect "stream --energy without NVML" 0 \
        env GMB_NVML_LIB=/nonexistent/libnvidia-ml.so.1 \
        "$S" "${FAST[@]}" --sizes 1MiB --kernels read --energy 0.1 --out "$T/en0"; then
        check "stream --energy without NVML: not measured, and why" rec fields \
            "$(ls "$T"/en0/*.json)" results.energy.available=false \
            "results.energy.why~=not found"
    fi
    if [ ! -f "$STUB" ]; then
        skip "$TAG stream --energy with a stand-in NVML (no $STUB: cmocka missing?)"
    elif expect "stream --energy with a stand-in NVML" 0 env GMB_NVML_LIB="$STUB" \
        GMB_TEST_NVML_PCI=0000:01:00.0 "$S" "${FAST[@]}" --sizes 1MiB --kernels read,copy \
        --energy 0.3 --out "$T/en"; then
        rec=$(ls "$T"/en/*-stream.json)
        check "stream --energy: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "stream --energy: the counter's step and the idle power" \
            rec stream-energy-counter "$rec"
        for k in read:1 copy:2; do
            check "stream --energy ${k%:*}: 120 W, bytes and bandwidth as run, verified" \
                rec stream-energy-kernel "$rec" "${k%:*}" "${k#*:}"
        done
        check "stream --energy: idle after the kernels too, 120 W" \
            rec stream-energy-idle-after "$rec"
        # a board drawing more later than at first (200 W more per second, idle or not): the
        # idle power after the kernels is higher than before, the kernel's idle power lies
        # between (linear in time), and above it the kernel draws nothing more
        if expect "stream --energy, power growing" 0 env GMB_NVML_LIB="$STUB" \
            GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_ENERGY_RAMP=200 "$S" "${FAST[@]}" \
            --sizes 1MiB --kernels read --energy 0.3 --out "$T/en3"; then
            check "stream --energy, power growing: idle interpolated, nothing above it" \
                rec stream-energy-ramp "$(ls "$T"/en3/*.json)" read
            check "stream --energy, power growing: the line says the idle power used" grep -qE \
                "^# energy read .* above [0-9.]+ W idle\) full" "$T/out"
        fi
        if command -v gnuplot >/dev/null; then
            expect "stream --energy: figure" 0 "$G" plot "$T/en" --out "$T/enfig" &&
                check "stream --energy: a figure of energy per bit" \
                    test -s "$T/enfig/stream-energy.png"
            expect "stream without --energy: figures" 0 "$G" plot "$T/all" --out "$T/noenfig" &&
                check "stream without --energy: no energy figure" \
                    test ! -e "$T/noenfig/stream-energy.png"
        fi
        expect "stream --energy: table" 0 "$G" table "$T/en" &&
            check "stream --energy: table rows, cache points marked" bash -c \
                "grep -q '^| Board power, idle | W | ' '$T/out' &&
                 grep -q '^| Read: board energy per bit | pJ/bit | .* ᶜ |' '$T/out'"
        cp "$T/out" "$T/en.md"
        expect "stream --energy: table, legacy reader" 0 env GMB_TABLE_READER=legacy "$G" \
            table "$T/en" && check "stream --energy: the headlines' table is the extractors'" \
            cmp -s "$T/out" "$T/en.md"
        check "stream --energy: energy figures among the headlines" \
            rec stream-energy-figures "$(ls "$T"/en/*.json)" 2
        # reads as slow as NVML's may be (0.6 ms each): the edges are still taken
        if expect "stream --energy, slow counter reads" 0 env GMB_NVML_LIB="$STUB" \
            GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_ENERGY_READ_US=600 "$S" "${FAST[@]}" \
            --sizes 1MiB --kernels read --energy 0.2 --out "$T/en4"; then
            check "stream --energy, slow counter reads: measured, edges within 2 reads" \
                rec stream-energy-slow-reads "$(ls "$T"/en4/*.json)" read
        fi
        # a counter that never moves: not measured, said so (after 2 s of waiting for a step)
        if expect "stream --energy, a frozen counter" 0 env GMB_NVML_LIB="$STUB" \
            GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_ENERGY_STEP_MS=0 "$S" "${FAST[@]}" \
            --sizes 1MiB --kernels read --energy 0.1 --out "$T/en2"; then
            check "stream --energy, a frozen counter: not measured, and why" rec fields \
                "$(ls "$T"/en2/*.json)" results.energy.available=false \
                "results.energy.why=NVML's energy counter did not advance in 2 s (or every step \
was read too late)"
        fi
        # --- each point's clocks: NVML's times below the application clocks over its sampling
        check "stream with NVML: every point has its clocks, none capped" rec clocks-steady \
            "$rec" 1980
        check "stream without NVML: no point clocks" rec points-count "$(ls "$T"/en0/*.json)" 0 \
            clocks?=true
        check "stream without NVML: nothing during" rec fields "$(ls "$T"/en0/*.json)" \
            clocks.during?=false
        # a board held at its power limit half the time: every point says so, and stderr
        if expect "stream, power-capped half the time" 0 env GMB_NVML_LIB="$STUB" \
            GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_POWER_CAPPED=0.5 "$S" "${FAST[@]}" \
            --sizes 1MiB,2MiB --kernels read --out "$T/cap"; then
            rec=$(ls "$T"/cap/*-stream.json)
            check "stream, power-capped: record validates" "$VALIDATE" "$SCHEMA" "$rec"
            check "stream, power-capped: each point's share about a half, all counted" \
                rec clocks-capped-half "$rec" 2
            check "stream, power-capped: one line on stderr" grep -q \
                "warning: 2 of 2 points were measured while the GPU was held below its \
application clocks for more than 1% of their time (the first: point 0)" "$T/err"
            expect "stream, power-capped: table" 0 "$G" table "$T/cap" &&
                check "stream, power-capped: its rows marked, the mark explained" bash -c \
                    "grep -q '^| Read bandwidth | GB/s | .* ᵖ\( †\)\{0,1\} |' '$T/out' &&
                     grep -q ' ᵖ: from a program with points' '$T/out'"
            # NVML slow to answer (5 ms a query: 30 ms a point): once its queries took 20 ms
            # and 1% of the run, the points after go without clocks, and the record says so
            if expect "stream, NVML slow to answer" 0 env GMB_NVML_LIB="$STUB" \
                GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_VIOL_READ_US=5000 "$S" "${FAST[@]}" \
                --sizes 1MiB:8MiB:x2 --kernels read --out "$T/slow"; then
                check "stream, NVML slow to answer: the first point has clocks, the last none, \
and why" rec stream-clocks-stopped "$(ls "$T"/slow/*.json)" 20
            fi
            # another program on the GPU before the run: said on stderr and in the record
            check "stream with NVML, the GPU idle before: recorded as idle" rec fields \
                "$(ls "$T"/en/*-stream.json)" busy_before.available=true \
                busy_before.compute_processes=0 busy_before.gpu_util_pct=0 \
                busy_before.mem_util_pct=0
            check "stream with NVML, the GPU idle before: nothing else said" rec keys \
                "$(ls "$T"/en/*-stream.json)" busy_before available compute_processes \
                gpu_util_pct mem_util_pct
            if expect "stream, the GPU in use before" 0 env GMB_NVML_LIB="$STUB" \
                GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_PROCS=2 GMB_STUB_UTIL=40 "$S" \
                "${FAST[@]}" --sizes 1MiB --kernels read --out "$T/busy"; then
                check "stream, the GPU in use before: recorded" rec fields \
                    "$(ls "$T"/busy/*-stream.json)" busy_before.compute_processes=2 \
                    busy_before.gpu_util_pct=40
                check "stream, the GPU in use before: one line on stderr" grep -q \
                    "warning: the GPU was in use before this run (2 compute processes on it, \
kernels running 40% of NVML's last sample)" "$T/err"
            fi
            # after another program of the same gmb run, NVML's last sample holds that program's
            # kernels: the utilization alone is not another user (processes still are)
            if expect "stream after another gmb program, kernels 40% busy" 0 \
                env GMB_NVML_LIB="$STUB" \
                GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_UTIL=40 GMB_AFTER_PROGRAM=chase "$S" \
                "${FAST[@]}" --sizes 1MiB --kernels read --out "$T/after"; then
                check "stream after another gmb program: recorded, no warning" bash -c \
                    "/usr/bin/python3 '$PWD/tests/records.py' fields \
                     \"\$(ls '$T'/after/*-stream.json)\" busy_before.gpu_util_pct=40 \
                     busy_before.after_gmb_program=chase && ! grep -q 'in use before' '$T/err'"
            fi
            # this program's own context (were it made before the question) is not another's
            if expect "stream, the GPU's one process is this one" 0 env GMB_NVML_LIB="$STUB" \
                GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_PROCS=2 GMB_STUB_PROCS_SELF=1 "$S" \
                "${FAST[@]}" --sizes 1MiB --kernels read --out "$T/busy2"; then
                check "stream, this process left out of the count" rec fields \
                    "$(ls "$T"/busy2/*-stream.json)" busy_before.compute_processes=1
            fi
            check "stream without NVML: busy_before says why not" rec fields \
                "$(ls "$T"/en0/*.json)" busy_before.available=false busy_before.reason?=true
            expect "compare: a capped run against one that was not" 0 "$G" compare "$T/en" \
                "$T/cap" &&
                check "compare: says which side had capped points" bash -c \
                    "grep -qx 'B: stream had 2 of 2 points held below the application clocks \
for over 1% of their time (their clocks say which)' '$T/out' &&
                     ! grep -q '^A: stream had' '$T/out'"
            expect "compare: a busy GPU's run" 0 "$G" compare "$T/busy" "$T/en" &&
                check "compare: says which side found the GPU in use" grep -qx \
                    "A: stream found the GPU in use before it (2 compute processes, kernels \
40% busy)" "$T/out"
            expect "stream, not capped: table" 0 "$G" table "$T/en" &&
                check "stream, not capped: no mark" bash -c "! grep -q 'ᵖ' '$T/out'"
        fi
    fi

    # --- stopped by a signal between samples: the finished points kept, marked --------------
    # (SIGINT: Ctrl-C; SIGTERM: gmb run's or gpu-check's deadline)
    for sig in INT TERM; do
        rm -rf "$T/intr"
        "$S" --backend opencl --sizes 4KiB:1GiB:x2 --kernels all --time-cap 0.2 --out "$T/intr" \
            >"$T/out" 2>"$T/err" &
        pid=$!
        for _ in $(seq 600); do # until three points are printed (at most 60 s)
            [ "$(grep -cE ' (full|sampled) *$' "$T/out")" -ge 3 ] && break
            sleep 0.1
        done
        kill -"$sig" "$pid"
        wait "$pid"
        rc=$?
        want=$((128 + $(kill -l "$sig")))
        check "stream stopped by SIG$sig: exit $want (got $rc)" test "$rc" = "$want"
        rec=$(ls "$T"/intr/*-stream.json 2>/dev/null)
        check "stream stopped by SIG$sig: the finished points kept, marked" \
            rec stream-interrupted "$rec" "SIG$sig" 3
        check "stream stopped by SIG$sig: the record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "stream stopped by SIG$sig: says so, last" bash -c \
            "tail -1 '$T/err' |
             grep -q 'interrupted by .*: [0-9]* finished points kept in the record'"
    done
    expect "table of an interrupted run" 0 "$G" table "$T/intr" &&
        check "table of an interrupted run: its figures marked, device facts not" bash -c \
            "grep -q '^| Read bandwidth | GB/s | .* ⁱ\( †\)\{0,1\} |' '$T/out' &&
             grep -q '^| Memory size | GiB | [0-9.]* |' '$T/out' &&
             grep -q 'ⁱ: from a program stopped before its end' '$T/out'"
    expect "compare with an interrupted run" 0 "$G" compare "$T/intr" "$T/all" &&
        check "compare with an interrupted run: says so" grep -q \
            "^A: stream was interrupted: only the points it finished" "$T/out"

    # --- never overwrite: two runs in the same second get two names -------------------------
    "$S" "${FAST[@]}" --sizes 4KiB --kernels copy --widths 4 --out "$T/twice" >/dev/null 2>&1
    "$S" "${FAST[@]}" --sizes 4KiB --kernels copy --widths 4 --out "$T/twice" >/dev/null 2>&1
    check "two runs, two records" test "$(ls "$T"/twice/*.json | wc -l)" = 2
    check "no temporary file left" test -z "$(ls -A "$T/twice" | grep gmb-tmp)"

    # --- bad input: one line on stderr, exit 2 (or 77), nothing written ---------------------
    bad() { # name rc args...
        local name=$1 want=$2
        shift 2
        rm -rf "$T/bad"
        if expect "bad input: $name" "$want" "$S" "${FAST[@]}" --out "$T/bad" "$@"; then
            check "bad input: $name: one line on stderr" test "$(wc -l <"$T/err")" = 1
            check "bad input: $name: nothing written" test ! -e "$T/bad"
        fi
    }
    bad "--sizes 0" 2 --sizes 0
    bad "--sizes 12Q" 2 --sizes 12Q
    bad "--sizes 1TiB" 2 --sizes 1TiB
    bad "--sizes 4K:1K" 2 --sizes 4K:1K
    # the device's largest buffer is a size the sweep may reach: the inputs are rounded up to
    # whole MiB for the flat reductions' last tile, no padding past a size of whole MiB (PoCL
    # sizes its buffers from the memory free when it starts: 1 GiB, which the quick profile's
    # 4KiB:1GiB sweep reaches; POCL_MEMORY_LIMIT=2 fixes it at 512 MiB a buffer, 2 GiB in all)
    maxa=$((512 << 20))
    if POCL_MEMORY_LIMIT=2 expect "stream at the device's largest buffer" 0 "$S" "${FAST[@]}" \
        --kernels dot,copy --flat 64 --sizes "$((maxa - 16)),$maxa" --out "$T/maxa"; then
        check "largest buffer: both sizes measured and verified" test \
            "$(grep -cE ' (full|sampled) *$' "$T/out")" = 4
        check "largest buffer: the device allowed 512 MiB a buffer" rec fields \
            "$(ls "$T"/maxa/*-stream.json)" "device.max_alloc_bytes=$maxa"
    fi
    POCL_MEMORY_LIMIT=2 bad "--sizes past the device's largest buffer" 2 --sizes "$((maxa + 16))"
    bad "--sizes huge list" 2 --sizes 1:1TiB:+1
    bad "--device 99" 2 --device 99
    bad "--device -1" 2 --device -1
    bad "--device x" 2 --device x
    bad "--backend foo" 2 --backend foo
    bad "unknown option" 2 --frobnicate
    bad "missing value" 2 --sizes
    bad "stray argument" 2 stray
    bad "--kernels nope" 2 --kernels nope
    bad "--widths 3" 2 --widths 3
    bad "--group-size 100" 2 --group-size 100 --sizes 4KiB
    bad "--ci-target 0" 2 --ci-target 0
    bad "--time-cap garbage" 2 --time-cap 1s
    bad "--peak-bw 0" 2 --peak-bw 0
    bad "--peak-bw -5" 2 --peak-bw -5
    bad "--peak-bw garbage" 2 --peak-bw fast
    bad "--energy 0" 2 --energy 0 --sizes 4KiB
    bad "--energy garbage" 2 --energy long --sizes 4KiB
    bad "--l2-prefetch with 4-byte accesses" 2 --l2-prefetch --widths 4 --sizes 4KiB
    bad "--l2-prefetch on OpenCL (a PTX qualifier)" 77 --l2-prefetch --sizes 4KiB
    bad "--asm-loads on OpenCL" 77 --asm-loads --sizes 4KiB
    bad "--l2-prefetch with --asm-loads" 2 --l2-prefetch --asm-loads --sizes 4KiB
    bad "--evict-first on OpenCL (a PTX qualifier)" 77 --evict-first stores --sizes 4KiB
    bad "--evict-first garbage" 2 --evict-first some --sizes 4KiB
    bad "--tiled with 4-byte accesses" 2 --tiled --widths 4 --sizes 4KiB
    bad "--tune with --groups-per-cu" 2 --tune --groups-per-cu 2 --sizes 4KiB
    bad "--tune with --no-tune" 2 --tune --no-tune --sizes 4KiB
    bad "--dynamic with --tiled" 2 --dynamic --tiled --sizes 4KiB
    bad "--dynamic with 8-byte accesses" 2 --dynamic --widths 8 --sizes 4KiB
    bad "--tune with --dynamic" 2 --tune --dynamic --sizes 4KiB
    bad "--tune with --flat" 2 --tune --flat 4 --sizes 4KiB
    bad "--flat 3 (not 1, 4, 16 or 64)" 2 --flat 3 --sizes 4KiB
    bad "--flat with --lockstep" 2 --flat 4 --lockstep --sizes 4KiB
    bad "--lockstep with 4-byte accesses" 2 --lockstep --widths 4 --sizes 4KiB

    # --- the tiled layout and the tuning (forced on the CPU: correctness, not timings) ------
    if expect "stream --tiled, every kernel, odd sizes" 0 "$S" "${FAST[@]}" --tiled \
        --sizes 4KiB,100000,1MiB --out "$T/tiled"; then
        rec=$(ls "$T"/tiled/*-stream.json)
        check "--tiled: every point verified" rec stream-verified "$rec" 21
        check "--tiled: element-wise points say tiled, reductions grid-stride" \
            rec stream-layouts-by-class "$rec" tiled grid-stride
    fi
    # the dynamic layout: groups claim chunks; the reductions are checked against the chunks
    # each group took (owner[]), sampled beyond 32 MiB
    if expect "stream --dynamic, every kernel, odd sizes" 0 "$S" "${FAST[@]}" --dynamic \
        --sizes 4KiB,100000,1MiB,40MiB --out "$T/dynamic"; then
        rec=$(ls "$T"/dynamic/*-stream.json)
        check "--dynamic: every point verified, every point says dynamic" \
            rec stream-verified "$rec" 28 extra.layout=dynamic
    fi
    # the lockstep and flat layouts: every kernel verified (reductions: the sums of each group's
    # tiles), odd sizes, flat repeated by launches at cache-sized points
    if expect "stream --lockstep, every kernel, odd sizes" 0 "$S" "${FAST[@]}" --lockstep \
        --sizes 4KiB,100000,1MiB,40MiB --out "$T/lockstep"; then
        check "--lockstep: every point verified, every point says lockstep" \
            rec stream-verified "$(ls "$T"/lockstep/*-stream.json)" 28 extra.layout=lockstep
    fi
    for j in 1 64; do
        # (samples of 2 ms: a 4 KiB launch must repeat, also where one launch takes 20 us)
        if expect "stream --flat $j, every kernel, odd sizes" 0 "$S" "${FAST[@]}" --flat "$j" \
            --min-sample-us 2000 --sizes 4KiB,100000,1MiB,40MiB --out "$T/flat$j"; then
            rec=$(ls "$T"/flat$j/*-stream.json)
            check "--flat $j: every point verified, flat, $j elements a work-item" \
                rec stream-verified "$rec" 28 extra.layout=flat "extra.elements_per_item=$j"
            check "--flat $j: a group a tile of $j x 256 elements; cache points repeat by \
launches" rec stream-flat-grid "$rec" "$j"
        fi
    done
    for k in read dot copy; do
        expect "--flat: planted error in $k exits 1" 1 "$S" "${FAST[@]}" --flat 4 \
            --sizes 40MiB --kernels "$k" --inject-error --out "$T/flat-inj-$k" &&
            check "--flat: planted error in $k is reported" grep -q "verification failed: $k" \
                "$T/err"
    done
    # (read: a wrong partial sum; dot: a claim no group took, in owner[]; copy: an element)
    for k in read dot copy; do
        expect "--dynamic: planted error in $k exits 1" 1 "$S" "${FAST[@]}" --dynamic \
            --sizes 40MiB --kernels "$k" --inject-error --out "$T/dyn-inj-$k" &&
            check "--dynamic: planted error in $k is reported" grep -q \
                "verification failed: $k" "$T/err"
        [ "$k" = dot ] && check "--dynamic: dot's planted error is a claim no group took" \
            grep -q "no group of" "$T/err"
    done
    if expect "stream --tune" 0 "$S" "${FAST[@]}" --tune --kernels copy,dot \
        --sizes 64KiB,100000 --out "$T/tune"; then
        rec=$(ls "$T"/tune/*-stream.json)
        check "--tune: a '# tuned' line per kernel and class" \
            test "$(grep -c '^# tuned' "$T/out")" = 2
        check "--tune: results.tuning names each kernel's cache-sized choice and candidates" \
            rec stream-tuning "$rec" cache copy dot
        check "--tune: dot's cache-sized candidates: resident grids and flat" rec items-set \
            "$rec" results.tuning.dot.cache.candidates layout \
            '["dynamic", "flat", "grid-stride", "lockstep"]'
    fi
    # the choice serves DRAM-sized points only (3 x 384 MiB a repetition: DRAM-sized where the
    # last-level cache is 288 MiB or less), cache-sized ones keep the resident grid-stride grid
    if expect "stream --tune, a cache-sized and a DRAM-sized point" 0 "$S" "${FAST[@]}" --tune \
        --kernels triad --sizes 4KiB,384MiB --out "$T/tune2"; then
        rec=$(ls "$T"/tune2/*-stream.json)
        check "--tune: each point runs its class's choice (DRAM-sized or not)" \
            rec stream-tuned-points "$rec" triad 0 384
        check "--tune: one-pass candidates of 1 to 64 elements a work-item, tiled from 4" \
            rec stream-tune-one-pass "$rec" triad $((384 << 20)) flat:1,4,16 \
            grid-stride:1,2,4,8,16,64 lockstep:4,8,16,64 tiled:4,8,16,64
        check "--tune: flat candidates in groups of 256 and of 1024 (or the device's most)" \
            rec stream-tune-flat-groups "$rec" triad 1 4 16
        check "--tune: the choice's group size is its candidate's" \
            rec stream-tune-group-size "$rec" triad
    fi
    # the default record directory is not created either
    (cd "$T" && "$S" --backend opencl --sizes 0 >/dev/null 2>&1)
    check "bad input: no results/ directory created" test ! -e "$T/results"

    # --- CUDA without a GPU: skipped with the reason ----------------------------------------
    if expect "--backend cuda without a GPU exits 77" 77 "$S" --backend cuda --sizes 4KiB \
        --out "$T/cuda"; then
        check "cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "cuda skip writes nothing" test ! -e "$T/cuda"
    fi

    # --- NVIDIA's OpenCL library without its ICD file: gmb names it in a private vendors dir
    # (a stand-in: a link named libnvidia-opencl.so.1 to PoCL's library)
    pocl=$(ldconfig -p | awk '/libpocl\.so\.2 /{print $NF; exit}')
    if [ -n "$pocl" ] && [ -z "${OCL_ICD_VENDORS:-}" ] &&
        ! ls /etc/OpenCL/vendors | grep -q nvidia; then
        mkdir -p "$T/fakenv" && ln -sf "$pocl" "$T/fakenv/libnvidia-opencl.so.1"
        before=$(ls -d /tmp/gmb-icd-* 2>/dev/null | wc -l)
        # (PoCL registered twice may then list no device: only the mechanism is checked)
        env LD_LIBRARY_PATH="$T/fakenv" "$G" devices >"$T/out" 2>"$T/err"
        check "NVIDIA library without ICD file: private vendors directory used" \
            grep -q "private vendors directory naming libnvidia-opencl.so.1" "$T/err"
        check "private vendors directory removed" \
            test "$(ls -d /tmp/gmb-icd-* 2>/dev/null | wc -l)" = "$before"
    else
        skip "$TAG OpenCL ICD stand-in (no PoCL library found, or NVIDIA's ICD is installed)"
    fi

    # --- the driver runs a benchmark ---------------------------------------------------------
    expect "gmb run stream" 0 "$G" run stream "${FAST[@]}" --sizes 4KiB --kernels triad \
        --widths 16 --out "$T/drv" &&
        check "gmb run stream recorded" test -n "$(ls "$T"/drv/*.json)"
fi
