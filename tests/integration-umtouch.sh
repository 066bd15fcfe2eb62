# integration-umtouch.sh - gmb-um's fault-d2h on OpenCL/PoCL: the host's timed part is one load
# a 4 KiB page (the migration, not one host thread reading every word), every word checked
# afterwards, untimed, so that a planted wrong word still fails; gmb table keeps the two
# methods' figures in two rows.
U="$PWD/$BIN/gmb-um"
UFAST=(--backend opencl --warmup 0 --min-samples 2 --max-samples 3 --time-cap 0.05 --quiet)
QUICK="$PWD/results/nvidia-h200/20261130T232558Z" # a quick profile from before the touches
OLD_ROW="| Managed: host reads device-written data | GB/s |"
NEW_ROW="| Managed: migration to the host on host faults (one load a 4 KiB page) | GB/s |"
# where the device's memory is the host's (PoCL), nothing migrates: the figure says so
HOST_ROW="| Managed: host loads device-written data, one a 4 KiB page (host memory: nothing \
migrates) | GB/s |"
if ! have_opencl; then
    skip "$TAG integration umtouch: no OpenCL device (install pocl-opencl-icd)"
elif ! clinfo 2>/dev/null | grep -q "Coarse-grained buffer sharing *Yes"; then
    skip "$TAG integration umtouch: the OpenCL device has no coarse-grained shared virtual memory"
else
    expect "umtouch: --help says the host loads one word a page" 0 "$U" --help &&
        check "umtouch: help names the touches and the check after them" bash -c \
            "grep -q 'one word of each 4 KiB page' '$T/out' &&
             grep -q 'every word checked, host_resident_GBps its rate' '$T/out'"

    # --- the touches timed, every word checked after them --------------------------------
    if expect "umtouch: fault-d2h at 3 sizes, 2 host threads" 0 "$U" "${UFAST[@]}" \
        --sizes 64KiB,1MiB,4100KiB --tests fault-d2h --host-threads 2 --out "$T/touch"; then
        rec=$(ls "$T"/touch/*-um.json)
        check "umtouch: the record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "umtouch: every point says the host timed one load a 4 KiB page" rec points-tuples \
            "$rec" params.size_bytes,params.host_touch_bytes,params.timer,params.host_threads \
            '[[65536, 4096, "host monotonic clock", 2], [1048576, 4096, "host monotonic clock", 2],
              [4198400, 4096, "host monotonic clock", 2]]'
        check "umtouch: every point verified in full (the check after the touches)" \
            rec points-list "$rec" extra.verified '["full", "full", "full"]'
        check "umtouch: the rate of the touches and of the check" rec metric-names "$rec" \
            bw_GBps host_resident_GBps
        check "umtouch: both per sample" rec samples-kept "$rec"
        check "umtouch: the check's metric says it follows the touches" rec text-contains \
            "$rec" metrics.host_resident_GBps.desc "after the timed touches"
        # (a device sharing the host's memory: loads, no faults; else the migration)
        if rec fields "$rec" results.host_unified_memory=true 2>/dev/null; then
            TOUCH_ROW=$HOST_ROW touch_words="the host loads device-written data"
        else
            TOUCH_ROW=$NEW_ROW touch_words="the host faults device-written data over"
        fi
        check "umtouch: the summary names the touches" rec um-summary-matches "$rec" \
            "$touch_words \\(one load a 4 KiB page\\) [0-9.]* GB/s at 4 MiB"
        check "umtouch: a host-memory device's touches claim no migration" bash -c \
            "[ '$TOUCH_ROW' = '$NEW_ROW' ] ||
             ! /usr/bin/python3 '$PWD/tests/records.py' um-summary-matches '$rec' 'faults'"
        check "umtouch: results.largest from the largest size" rec fields "$rec" \
            results.largest.fault-d2h.size_bytes=4198400
        # gmb table: the touches' figure in its own row, the old method's row absent
        if expect "umtouch: gmb table of the record" 0 "$G" table "$T/touch"; then
            check "umtouch: table: the touches' row" grep -qF "$TOUCH_ROW" "$T/out"
            check "umtouch: table: no row of a host reading every word" bash -c \
                "! grep -qF '$OLD_ROW' '$T/out'"
            "$G" table "$T/touch" --format csv >"$T/touch.csv" 2>/dev/null
            check "umtouch: table csv: the figure is the record's largest fault-d2h" \
                /usr/bin/python3 -c "
import csv, json, sys
rows = [x for x in csv.reader(open(sys.argv[1])) if x[0] == sys.argv[3]]
want = json.load(open(sys.argv[2]))['results']['largest']['fault-d2h']['bw_GBps']
sys.exit(0 if len(rows) == 1 and abs(float(rows[0][2]) - want) <= 1e-5 * want else 1)" \
                "$T/touch.csv" "$rec" "$(echo "$TOUCH_ROW" | sed 's/^| \(.*\) | GB\/s |$/\1/')"
        fi
    fi
    # a record from before the touches keeps its row and gets no migration row
    if expect "umtouch: gmb table of the committed H200 quick run" 0 "$G" table "$QUICK"; then
        check "umtouch: old record: the host-reads row" grep -qF "$OLD_ROW" "$T/out"
        check "umtouch: old record: no touches' row" bash -c \
            "! grep -qF '$NEW_ROW' '$T/out' && ! grep -qF '$HOST_ROW' '$T/out'"
    fi

    # --- a planted wrong word: the untimed check after the touches finds it ----------------
    for th in 1 3; do
        expect "umtouch: planted error, $th host thread(s), exits 1" 1 "$U" "${UFAST[@]}" \
            --sizes 1MiB --tests fault-d2h --host-threads $th --inject-error --out "$T/inj$th" &&
            check "umtouch: planted error, $th host thread(s): the one word counted once" \
                grep -q "verification failed: fault-d2h: 1 of 262144 words differ" "$T/err"
    done
    check "umtouch: the failed run's record says so" rec fields "$(ls "$T"/inj1/*-um.json)" \
        status=verification_failed
    check "umtouch: the failed run's one point marked" rec points-list \
        "$(ls "$T"/inj1/*-um.json)" extra.verified '["FAILED"]'
fi
