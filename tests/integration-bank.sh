# integration-bank.sh - gmb-bank end to end on OpenCL/PoCL: every pattern, width and mode
# verified and recorded, no bank structure claimed on a CPU, planted errors, bad input, CUDA
# without a GPU.
BK="$PWD/$BIN/gmb-bank"
if ! have_opencl; then
    skip "$TAG bank integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-bank --help" 0 "$BK" --help && check "bank help describes the tile pattern" \
        grep -q "^  tile    a 32x32 tile read by column" "$T/out"
    expect "gmb list (bank)" 0 "$G" list && check "gmb list names bank" grep -q "^bank " "$T/out"

    # --- every pattern x width x mode: 75 patterns x 3 widths x 2 modes, all verified ---------
    if expect "bank all patterns, widths, modes" 0 "$BK" "${FAST[@]}" --strides 0:64 \
        --out "$T/bank"; then
        rec=$(ls "$T"/bank/*-bank.json)
        csv=$(ls "$T"/bank/*-bank.csv)
        check "bank table has 450 verified rows" test "$(grep -cE ' full *$' "$T/out")" = 450
        check "bank: no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        check "bank record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "bank record holds 450 points, all verified" rec points-count "$rec" 450 \
            extra.verified=full
        check "bank record covers 5 patterns x 3 widths x 2 modes" rec points-distinct "$rec" 30 \
            params.mode params.pattern params.width_bytes
        check "bank record: status ok, benchmark bank" rec fields "$rec" status=ok benchmark=bank
        check "bank: cycles on OpenCL are marked derived" rec points-set "$rec" \
            extra.cycles_source '["derived: ns x maximum clock"]'
        # the model column: stride 32 of 4-byte words 32-way, the tile 32-way unpadded (param
        # 0), conflict-free padded (param 1)
        for w in stride:32:32 tile:0:32 tile:1:1; do
            IFS=: read -r pat param ways <<<"$w"
            check "bank: ways of $pat $param (4 B, latency) = $ways" rec point-value "$rec" \
                extra.ways_32x4 "$ways" params.mode=latency params.width_bytes=4 \
                params.pattern="$pat" params.param="$param"
        done
        # inference: never a bank structure on a CPU, with the reason recorded
        check "bank: no bank structure detected on PoCL" rec fields "$rec" \
            results.inference.detected=false results.inference.banks=null
        check "bank: both modes say no bank structure" rec fields "$rec" \
            results.inference.by_mode.latency.detected=false \
            results.inference.by_mode.throughput.detected=false
        check "bank: the reason is recorded" rec field-startswith "$rec" \
            results.inference.reason "no bank structure detected: "
        check "bank: fits with residuals for every mode x width" rec items-with "$rec" \
            results.fits 6 rms_residual r2 slope
        check "bank: summary paragraph printed" grep -q "^Summary: .*no bank structure detected" \
            "$T/out"
        check "bank: the summary recorded as printed" grep -qxF \
            "Summary: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "bank: remote skipped on OpenCL, in the table" grep -q \
            "^- .* remote  skipped: OpenCL has no thread-block clusters" "$T/out"
        check "bank: remote skipped on OpenCL, in the record" rec fields "$rec" \
            results.skipped.0.pattern=remote results.remote=[]
        # a GPU's remote point (another SM's array): its own table row beside the local one
        mkdir -p "$T/bremote"
        /usr/bin/python3 - "$rec" "$T/bremote/x-bank.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
own = [p for p in r["points"] if p["params"]["mode"] == "throughput" and
       p["params"]["pattern"] == "stride" and p["params"]["width_bytes"] == 16 and
       p["params"]["param"] == 1][0]
rem = json.loads(json.dumps(own))
rem["params"].update(pattern="remote", param=2)
rem["metrics"]["bw_GBps"].update(median=1234.5, ci_lo=1230.0, ci_hi=1240.0)
r["points"].append(rem)
r.pop("headlines", None)  # a record from before the headline figures: the extractor reads it
json.dump(r, open(sys.argv[2], "w"))
PY
        expect "bank remote: table" 0 "$G" table "$T/bremote" &&
            check "bank remote: the distributed shared-memory row" grep -qF \
                "| Distributed shared-memory bandwidth, 16-byte reads (cluster of 2) | GB/s | \
1234 [1230, 1240]" "$T/out"

        check "bank csv: header + 450 rows" test "$(wc -l <"$csv")" = 451
        check "bank csv header carries the metrics" \
            grep -q "^mode,pattern,width_bytes,param,ns_per_access,.*,bw_GBps," "$csv"
    fi

    if expect "bank --patterns remote on OpenCL: skipped" 77 "$BK" "${FAST[@]}" --patterns remote \
        --out "$T/bremote-only"; then
        check "bank remote on OpenCL: the reason" grep -q "OpenCL has no thread-block clusters" \
            "$T/err"
        check "bank remote on OpenCL: nothing written" test ! -e "$T/bremote-only"
    fi

    # --- a planted wrong checksum must fail verification, in both modes ----------------------
    for m in latency throughput; do
        expect "bank planted error ($m) exits 1" 1 "$BK" "${FAST[@]}" --modes "$m" \
            --patterns tile --widths 8 --inject-error --out "$T/binj-$m" &&
            check "bank planted error ($m) is reported" \
                grep -q "verification failed: tile param 0, 8-byte elements, $m mode" "$T/err"
    done
    check "bank: a failed run keeps its record, marked" rec fields \
        "$(ls "$T"/binj-latency/*.json)" status=verification_failed points.0.extra.verified=FAILED
    check "bank: a failed run's record holds the one point" rec points-count \
        "$(ls "$T"/binj-latency/*.json)" 1

    # --- bad input: one line on stderr, exit 2, nothing written -------------------------------
    # bank_bad NAME ARGS...
    bank_bad() { bad_input bank "$1" "$T/bbad" "$BK" "${FAST[@]}" --out "$T/bbad" "${@:2}"; }
    bank_bad "--widths 3" --widths 3
    bank_bad "--strides 0:999999" --strides 0:999999
    bank_bad "--strides x" --strides x
    bank_bad "--strides 9:1" --strides 9:1
    bank_bad "--strides 0:100 beyond the array at 16 B" --strides 0:100
    bank_bad "--patterns nope" --patterns nope
    bank_bad "--modes nope" --modes nope
    bank_bad "--group-size 48" --group-size 48
    bank_bad "--sizes (not an option of bank)" --sizes 4K
    bank_bad "--device x" --device x
    bank_bad "--device 99" --device 99
    bank_bad "--min-sample-us 0" --min-sample-us 0
    (cd "$T" && "$BK" --backend opencl --widths 3 >/dev/null 2>&1)
    check "bank bad input: no results/ directory created" test ! -e "$T/results"

    # --- CUDA without a GPU: skipped with the reason ------------------------------------------
    if expect "bank --backend cuda without a GPU exits 77" 77 "$BK" --backend cuda \
        --out "$T/bcuda"; then
        check "bank cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "bank cuda skip writes nothing" test ! -e "$T/bcuda"
    fi

    # --- the driver runs it ----------------------------------------------------------------------
    expect "gmb run bank" 0 "$G" run bank "${FAST[@]}" --patterns stride --strides 0:4 \
        --widths 4 --modes throughput --out "$T/bdrv" &&
        check "gmb run bank recorded" test -n "$(ls "$T"/bdrv/*.json)"
fi
