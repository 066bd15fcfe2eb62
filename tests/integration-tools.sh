# integration-tools.sh - the driver's tools: each subcommand's --help, gmb devices --json,
# gmb run --out, report.md's mode, RFC 4180 CSVs read back with python's csv, gmb compare of
# an H200 run (results/nvidia-h200) against a PoCL run made here, gmb table --rows and a
# LaTeX table that fits the page (pdflatex, when installed).
H200="$PWD/results/nvidia-h200/20261130T230403Z"
py() { /usr/bin/python3 -c "$@"; }
RECS="$PWD/tests/records.py"

# --- help: one table, each subcommand its own -----------------------------------------------
declare -A OPT=([list]="" [devices]="--json" [run]="--out DIR" [plot]="--size WxH"
    [table]="--rows LIST" [report]="--out FILE" [compare]="--headline")
for sub in list devices run plot table report compare; do
    if expect "gmb $sub --help" 0 "$G" "$sub" --help; then
        check "gmb $sub --help: its own usage first, nothing on stderr" bash -c \
            "head -1 '$T/out' | grep -q '^usage: gmb $sub' && test ! -s '$T/err'"
        [ -n "${OPT[$sub]}" ] && check "gmb $sub --help: names ${OPT[$sub]}" \
            grep -qF -- "  ${OPT[$sub]}" "$T/out"
        cp "$T/out" "$T/help-$sub"
        expect "gmb help $sub" 0 "$G" help "$sub" &&
            check "gmb help $sub = gmb $sub --help" cmp -s "$T/out" "$T/help-$sub"
    fi
done
check "gmb table --help is not gmb compare's" bash -c \
    "! cmp -s '$T/help-table' '$T/help-compare'"
if expect "gmb --help" 0 "$G" --help; then
    for sub in list devices run plot table report compare help; do
        check "gmb --help: a synopsis of $sub" grep -qE "^(usage:| {6}) gmb $sub( |$)" "$T/out"
    done
fi
expect "gmb help of no command" 2 "$G" help nosuch
expect "gmb run stream --help goes to the program" 0 "$G" run stream --help &&
    check "gmb run stream --help: the program's help" bash -c \
        "! grep -q '^usage: gmb run' '$T/out' && grep -q -- '--kernels' '$T/out'"

# --- gmb devices --json ----------------------------------------------------------------------
if expect "devices --json" 0 "$G" devices --json; then
    check "devices --json: an array of devices with the table's fields" rec devices-json \
        "$T/out" backend index name vendor type mem_bytes compute_units driver_version \
        pci_bus_id serial board_part_number near
fi
if expect "devices --json, no device: exit 77" 77 env OCL_ICD_VENDORS=/nonexistent \
    "$G" devices --json; then
    check "devices --json, no device: [] on stdout, the reason on stderr" bash -c \
        "/usr/bin/python3 '$RECS' empty-array '$T/out' && grep -q 'no device' '$T/err'"
fi
expect "devices --bogus" 2 "$G" devices --bogus

# --- a PoCL run with --out; its report's mode --------------------------------------------------
# (FAST without its --backend opencl: gmb run sets the backend itself and refuses it after --)
if expect "run --out" 0 "$G" run --backend opencl --only stream --out "$T/res" -- "${FAST[@]:2}" \
    --sizes 4KiB:1MiB:x4; then
    RUN=$(tail -1 "$T/out")
    check "run --out: the run directory is under DIR" bash -c \
        "case '$RUN' in '$T/res/'*/*) test -s '$RUN/run.json';; *) false;; esac"
    if (umask 022 && expect "report of the run" 0 "$G" report "$RUN"); then
        check "report.md is 0644 under umask 022" test "$(stat -c %a "$RUN/report.md")" = 644
    fi
    (umask 027 && "$G" report "$RUN" --out "$T/rep027.md" >/dev/null 2>&1)
    check "report --out under umask 027 is 0640" test "$(stat -c %a "$T/rep027.md")" = 640
    # the record CSV: RFC 4180, every row the header's width, values those of the JSON
    rec=$(ls "$RUN"/*-stream.json)
    check "record csv: read back with python's csv, values of the JSON" \
        rec csv-is-record "$rec" "${rec%.json}.csv" bw_GBps
    # a device name with a comma and a quote, through gmb table --format csv
    mkdir -p "$T/crafted"
    py "import json, sys
r = json.load(open(sys.argv[1])); r['device']['name'] = 'Board, \"rev B\"'
json.dump(r, open(sys.argv[2], 'w'))" "$rec" "$T/crafted/stream.json"
    if expect "table csv of a name with a comma and a quote" 0 "$G" table "$T/crafted" \
        --format csv; then
        check "table csv: the name and a label with a comma read back whole" \
            rec table-csv-whole "$T/out" 'Board, "rev B"' 'Read, of nominal peak' \
            'Memory type, bus width'
    fi

    # --- gmb compare: the H200 against PoCL ------------------------------------------------------
    if [ -d "$H200" ] && expect "compare H200 with PoCL" 0 "$G" compare "$H200" "$RUN"; then
        cp "$T/out" "$T/cmp" && cp "$T/err" "$T/cmp.err"
        check "compare: says the devices differ" grep -q '^A and B are different devices' "$T/cmp"
        check "compare: the headline before the full rows" \
            rec compare-headline-first "$T/cmp" 'Read bandwidth'
        check "compare: the headline's read bandwidth has a B/A and a verdict" \
            grep -qE '^Read bandwidth +GB/s .* [0-9.e+-]+  B worse \(CIs apart\)$' "$T/cmp"
        check "compare: no ratio printed as 0.000" bash -c "! grep -qE ' 0\.000 ' '$T/cmp'"
        # (PoCL streams at 2-8% of the H200 since tuning runs on CPUs: ratios of 1e-3 to 1e-2)
        check "compare: a ratio below 1e-2 in 3 digits" \
            grep -qE ' 0\.00[0-9]?[1-9][0-9]{1,2} | [1-9]\.[0-9]{2}e-0[3-9] ' "$T/cmp"
        check "compare: the longest label whole" grep -qF \
            'Misaligned contiguous reads, worst offset, of aligned (DRAM)' "$T/cmp"
        check "compare: every full row has all its columns (no label cut into the next)" \
            rec compare-rows-whole "$T/cmp" 10
        few='^gmb: warning: [0-9]+ points? ha(s|ve) fewer than 9 samples: (its|their) verdicts'
        check "compare: one few-samples warning on stderr" \
            test "$(grep -cE "$few are weak" "$T/cmp.err")" = 1
        check "compare: weak rows marked" \
            grep -qE ' [0-9]\*  (B worse|B better|not significant)' "$T/cmp"
        expect "compare --headline" 0 "$G" compare "$H200" "$RUN" --headline &&
            check "compare --headline: no full rows" bash -c "grep -q '^Read bandwidth' '$T/out' &&
                ! grep -q 'every metric of every point' '$T/out'"
        expect "compare --fail-below 10: PoCL is slower, exit 1" 1 "$G" compare "$H200" "$RUN" \
            --fail-below 10 &&
            check "compare --fail-below: REGRESSION rows" grep -q 'REGRESSION$' "$T/out"
    fi

    # --- gmb table --rows ------------------------------------------------------------------------
    if expect "table --rows" 0 "$G" table "$H200" "$RUN" --rows 'Read bandwidth,2,dram latency'
    then
        check "table --rows: exactly the rows named" rec table-md-rows-selected "$T/out"
    fi
    expect "table --rows 3-4 --format csv" 0 "$G" table "$H200" "$RUN" --rows 3-4 --format csv &&
        check "table --rows 3-4: two rows under the header" test "$(wc -l <"$T/out")" = 3
    expect "table --rows of no row" 2 "$G" table "$H200" "$RUN" --rows 'no such row'
    expect "table --rows past the end" 2 "$G" table "$H200" "$RUN" --rows 999

    # --- gmb table --levels: the bandwidth of each level, its program, the full table's values ----
    if expect "table --levels --format csv" 0 "$G" table "$H200" "$RUN" --levels --format csv; then
        cp "$T/out" "$T/levels.csv"
        "$G" table "$H200" "$RUN" --format csv >"$T/full.csv" 2>/dev/null
        check "table --levels: the H200's levels in order, each the full table's figure" \
            rec table-levels-csv "$T/levels.csv" "$T/full.csv" 'Shared memory, aggregate' \
            'DRAM (memory)'
    fi
    # a split L2 (two read plateaus before DRAM, as gmb-l2 names them on CUDA): a row each,
    # between the L2's and DRAM's, with their CIs; the committed run's other rows unchanged
    mkdir -p "$T/split" && cp "$H200"/*.json "$T/split/" &&
        py "import json, sys
p = sys.argv[1]; r = json.load(open(p))
r['results']['bandwidth']['read']['levels'] = [
    {'name': 'L2 near', 'GBps': 9000.0, 'ci': [8900.0, 9100.0], 'from_bytes': 4194304,
     'to_bytes': 25165824, 'points': 7},
    {'name': 'L2 far', 'GBps': 6000.0, 'ci': [5900.0, 6150.0], 'from_bytes': 33554432,
     'to_bytes': 50331648, 'points': 3},
    {'name': 'DRAM', 'GBps': 4400.0, 'ci': None, 'from_bytes': 268435456,
     'to_bytes': 2147483648, 'points': 8}]
json.dump(r, open(p, 'w'))" "$(ls "$T"/split/*-l2.json)"
    if expect "table --levels of a split L2" 0 "$G" table "$T/split" --levels --format csv; then
        check "table --levels: L2 near and far rows, with CIs, before DRAM" \
            rec table-levels-split-l2 "$T/out"
        check "table --levels: the split adds exactly two rows" test \
            "$(($(wc -l <"$T/out") - 2))" = "$("$G" table "$H200" --levels --format csv | wc -l)"
    fi
    expect "table --levels --format tex" 0 "$G" table "$H200" --levels --format tex &&
        check "table --levels tex: the level and its program in the first column" \
            grep -qF 'DRAM (memory) --- gmb-stream read' "$T/out"
    if expect "report of the run: a bandwidth-by-level section" 0 "$G" report "$RUN" --out -; then
        check "report: the level table after the table" rec report-levels-section "$T/out"
    fi

    # --- the LaTeX table of two devices fits the text width -------------------------------------
    if command -v pdflatex >/dev/null; then
        mkdir -p "$T/tex"
        "$G" table "$H200" "$RUN" --format tex --out "$T/tex/t.tex" >/dev/null
        printf '%s\n' '\documentclass{article}' '\usepackage{array}' '\begin{document}' \
            '\input{t.tex}' '\end{document}' >"$T/tex/m.tex"
        (cd "$T/tex" && pdflatex -interaction=nonstopmode -halt-on-error m.tex >/dev/null 2>&1)
        check "tex: compiles" test -s "$T/tex/m.pdf"
        check "tex: no Overfull \\hbox" bash -c \
            "test -s '$T/tex/m.log' && ! grep -q 'Overfull \\\\hbox' '$T/tex/m.log'"
    else
        skip "$TAG tex: pdflatex not installed"
    fi
fi

# --- every committed run's tables as gmb printed them before the records declared headline
# figures (tests/fixtures/golden/committed-tables.txt, made by 6d3ff5b's gmb, for each record
# directory under results/ then; a run committed later is not in it): the older records'
# reader keeps them, byte for byte ---------------------------------------------------------
committed_tables() {
    local d
    for d in $(sed -n 's/^== \([^ ]*\)$/\1/p' tests/fixtures/golden/committed-tables.txt); do
        echo "== $d"
        "$G" table --format md "$d" 2>&1
        echo "== $d --levels"
        "$G" table --levels "$d" 2>&1
        echo "== $d csv"
        "$G" table --format csv "$d" 2>&1
    done
}
committed_tables >"$T/committed.txt"
check "the committed runs' tables (md, --levels, csv) as before the headline figures" \
    cmp -s "$T/committed.txt" tests/fixtures/golden/committed-tables.txt
cmp -s "$T/committed.txt" tests/fixtures/golden/committed-tables.txt ||
    diff tests/fixtures/golden/committed-tables.txt "$T/committed.txt" | head -5
check "the golden file holds every committed record directory" test \
    "$(grep -c '^== [^ ]*$' tests/fixtures/golden/committed-tables.txt)" -ge 80
