# integration-harness.sh - gmb run (manifest, failures and skips marked, Ctrl-C), gmb plot
# (headless gnuplot: PNG/SVG of the asked size), gmb table (golden Markdown/LaTeX/CSV from the
# fixtures), gmb compare (known significant and insignificant differences, --fail-below),
# corrupt and other-version records. Records in tests/fixtures/records (make-edge.py).
FX="$PWD/tests/fixtures/records"
GOLD="$PWD/tests/fixtures/golden"
# manifest FILE EXPR: a Python expression over the manifest m
manifest() {
    /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print($2)" "$1"
}
# png_size FILE: "WxH" from the IHDR chunk of a PNG (bytes 16..23, big-endian)
png_size() { /usr/bin/python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); \
    print('%dx%d' % struct.unpack('>II', d[16:24]) if d[:8] == b'\x89PNG\r\n\x1a\n' \
    else 'not-png')" "$1"; }
FASTC=(--warmup 0 --min-samples 2 --max-samples 3 --time-cap 0.02)
# rectangular FILE: every line of a CSV gmb wrote for gnuplot has the header's columns; no
# quote, no control byte but the line ends, no line gnuplot takes for a comment ('#' first)
rectangular() { /usr/bin/python3 -c "import sys; ls = open(sys.argv[1], 'rb').read().split(b'\n'); \
    ok = len(ls) > 2 and ls[-1] == b'' and all(l.count(b',') == ls[0].count(b',') and \
    not any(c < 32 or c in (34, 127) for c in l) and not l.lstrip(b' ').startswith(b'#') \
    for l in ls[:-1]); sys.exit(0 if ok else 1)" "$1"; }

# --- gmb table: golden tables from the fixtures (one column per run) -------------------------
for f in md tex csv; do
    if (cd "$FX" && expect "table --format $f" 0 "$G" table pocl edge/one-point edge/no-optional \
        edge/v0 edge/v3 --format "$f"); then
        check "table --format $f matches the golden file" cmp -s "$T/out" "$GOLD/table.$f"
        cmp -s "$T/out" "$GOLD/table.$f" || diff "$GOLD/table.$f" "$T/out" | head -5
    fi
done
check "older schema: one line says so" \
    test "$(grep -c 'v0/chase.json: schema version 0 is older' "$T/err")" = 1
check "newer schema: one line says so" \
    test "$(grep -c 'v3/stream.json: schema version 3 is newer' "$T/err")" = 1
check "table: no other message" test "$(wc -l <"$T/err")" = 2
check "md table has booktabs-free pipes and a CI" \
    grep -q '^| Read bandwidth | GB/s | [0-9.]* \[[0-9.]*, [0-9.]*\]' "$GOLD/table.md"
check "tex table: p columns as wide as the text, plain numbers" bash -c \
    "grep -q 'p{\\\\dimexpr0.34\\\\linewidth' '$GOLD/table.tex' &&
     ! grep -q '\\\\num{' '$GOLD/table.tex'"
expect "table --format bad" 2 "$G" table "$FX/pocl" --format html
expect "table without RUN" 2 "$G" table
for sub in table plot compare devices list; do
    expect "gmb $sub --help" 0 "$G" "$sub" --help &&
        check "gmb $sub --help: the usage on stdout, nothing on stderr" bash -c \
            "grep -q '^usage: gmb' '$T/out' && test ! -s '$T/err'"
done
expect "table of a missing path" 2 "$G" table "$T/nosuch"

# --- corrupt records: one line naming each, the others still processed ---------------------
if expect "table with corrupt records" 0 "$G" table "$FX/corrupt/truncated.json" \
    "$FX/corrupt/foreign.json" "$FX/corrupt/garbage.json" "$FX/pocl"; then
    check "corrupt: three lines, one per file" test "$(wc -l <"$T/err")" = 3
    for c in truncated foreign garbage; do
        check "corrupt: $c.json named" test "$(grep -c "corrupt/$c.json" "$T/err")" = 1
    done
    check "corrupt: the good run still tabulated" grep -q '^| Read bandwidth' "$T/out"
fi
expect "only corrupt records: exit 2" 2 "$G" table "$FX/corrupt/truncated.json"
# the bytes jansson quotes from a broken file: never a raw control character (here \v)
if expect "table with a control character in a corrupt record" 0 "$G" table \
    "$FX/corrupt/ctrl-char.json" "$FX/pocl"; then
    check "corrupt: one line for ctrl-char.json" test "$(wc -l <"$T/err")" = 1
    check "corrupt: no control character in it" bash -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$T/err'"
fi

# --- a FIFO, a directory, a device named *.json: never opened for reading (a FIFO blocks) ------
# skipped like a corrupt record: one line naming each, the records next to them still read
mkdir -p "$T/special" "$T/special-b"
cp "$FX/pocl"/*.json "$T/special/"
cp "$FX/compare/a/stream.json" "$T/special-b/"
mkfifo "$T/special/zz-fifo.json" "$T/special-b/fifo.json"
mkdir "$T/special/zz-dir.json"
if expect "table: a FIFO and a directory named *.json are skipped" 0 timeout 20 "$G" table \
    "$T/special" /dev/null; then
    check "table: one line per non-regular file" test "$(wc -l <"$T/err")" = 3
    check "table: the FIFO named" \
        grep -q 'special/zz-fifo.json: not a regular file (a FIFO); skipped$' "$T/err"
    check "table: the directory named" \
        grep -q 'special/zz-dir.json: not a regular file (a directory); skipped$' "$T/err"
    check "table: the device named" \
        grep -q '/dev/null: not a regular file (a character device); skipped$' "$T/err"
    check "table: the records next to them tabulated" grep -q '^| Read bandwidth' "$T/out"
fi
expect "table: only a FIFO: exit 2 as for a corrupt record" 2 timeout 20 "$G" table \
    "$T/special/zz-fifo.json"
if expect "compare: a FIFO among the records is skipped" 0 timeout 20 "$G" compare \
    "$T/special-b" "$FX/compare/same"; then
    check "compare: one line naming the FIFO" test "$(grep -c \
        'special-b/fifo.json: not a regular file (a FIFO); skipped' "$T/err")" = 1
fi
if command -v gnuplot >/dev/null; then
    expect "plot: a FIFO and a directory among the records are skipped" 0 timeout 60 "$G" plot \
        "$T/special" --out "$T/special-fig" &&
        check "plot: one line per non-regular file, the figures made" bash -c \
            "test \$(grep -c 'not a regular file' '$T/err') = 2 &&
             test -s '$T/special-fig/stream-bw.png'"
fi

# --- stream's best DRAM point between 4x and 16x the LLC: marked, with its footnote ----------
mkdir -p "$T/tier"
/usr/bin/python3 - "$(ls "$FX"/pocl/*-stream.json)" "$T/tier/x-stream.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
b = r["results"]["best"]["copy"]
b["dram"], b["tier"] = True, 1
json.dump(r, open(sys.argv[2], "w"))
PY
if expect "table: a tier-1 DRAM point" 0 "$G" table "$T/tier"; then
    check "table: the tier-1 copy row is marked" grep -q "^| Copy bandwidth .* ᵗ |" "$T/out"
    check "table: the tier-1 footnote" grep -q "ᵗ: the largest sets were 4 to 16 times" "$T/out"
    check "table: read (a cache point) keeps its own mark" \
        grep -q "^| Read bandwidth .* ᶜ\( †\)\{0,1\} |" "$T/out"
fi

# --- tests/gpu-import.sh: a gpu-check tarball (here: the PoCL fixtures in its layout) ---------
mkdir -p "$T/gc/suite/some-gpu/20261130T000000Z" "$T/gc/cuda"
cp "$FX"/pocl/*.json "$T/gc/suite/some-gpu/20261130T000000Z/"
printf '{"schema": "gmb-run", "schema_version": 1, "profile": "quick", "wall_s": 12.5, %s}\n' \
    '"programs": [{"name": "stream", "status": "ok", "wall_s": 12.5, "estimate_s": 10}]' \
    >"$T/gc/suite/some-gpu/20261130T000000Z/run.json"
cp "$FX"/pocl/*-stream.json "$T/gc/cuda/"
echo "a log" >"$T/gc/stream-cuda.txt"
tar czf "$T/gc.tgz" -C "$T/gc" .
if expect "gpu-import: the run and the check's records" 0 tests/gpu-import.sh "$T/gc.tgz" \
    "$T/res"; then
    check "gpu-import: the run's records, tables and report" test -s \
        "$T/res/some-gpu/20261130T000000Z/table.tex" -a \
        -s "$T/res/some-gpu/20261130T000000Z/report.md"
    check "gpu-import: the check's records and logs" \
        test -s "$T/res/some-gpu/20261130T000000Z-gpu-check/stream-cuda.txt"
    check "gpu-import: says what to publish" \
        grep -q "git add -f $T/res/some-gpu/20261130T000000Z" "$T/out"
    check "gpu-import: each program's wall time beside its estimate" grep -q \
        "^  stream     12.5 s (estimate 10 s)  ok$" "$T/out"
    expect "gpu-import: never over an earlier import" 1 tests/gpu-import.sh "$T/gc.tgz" "$T/res" &&
        check "gpu-import: says so" grep -q "exists: not overwritten" "$T/err"
fi
rm -rf "$T/gc/suite"
tar czf "$T/gc2.tgz" -C "$T/gc" .
if expect "gpu-import: a check without a gmb run: its records alone" 0 tests/gpu-import.sh \
    "$T/gc2.tgz" "$T/res2"; then
    slug=$(json "$(ls "$T"/gc/cuda/*-stream.json | head -1)" "__import__('re').sub('-+', '-', \
__import__('re').sub('[^a-z0-9]+', '-', r['device']['name'].lower())).strip('-')")
    stamp=$(basename "$(ls "$T"/gc/cuda/*-stream.json | head -1)")
    check "gpu-import: the records under the device's directory and the earliest record's time" \
        test -s "$T/res2/$slug/${stamp%%-*}-gpu-check/cuda/$stamp"
    check "gpu-import: no run directory made" \
        test "$(ls "$T/res2/$slug")" = "${stamp%%-*}-gpu-check"
fi
rm -rf "$T/gc/cuda"
tar czf "$T/gc3.tgz" -C "$T/gc" .
expect "gpu-import: a tarball without a gmb run or a record" 1 tests/gpu-import.sh "$T/gc3.tgz" \
    "$T/res3"

# --- tests/gpu-check.sh itself, where it can run: no GPU (exit 1, said so), one OpenCL step on
# PoCL, every summary (no Python traceback), the tarball and log in $OUT -----------------------
if [ "$TAG" = normal ] && have_opencl; then
    mkdir -p "$T/gco"
    # (the Makefile's own architectures: the build is the one the tests use, not rebuilt)
    if OUT="$T/gco" CUDA_ARCHS="$(sed -n 's/^CUDA_ARCHS *?= *//p' Makefile)" \
        GMB_CHECK_ONLY=stream-opencl GMB_CHECK_SIZES=64KiB GMB_CHECK_BUDGET=60 \
        expect "gpu-check without a GPU" 1 bash tests/gpu-check.sh; then
        check "gpu-check: says CUDA is missing, runs the step asked for, ends with its status" \
            bash -c "grep -q '^CUDA device 0 missing' '$T/out' &&
             grep -qE '^stream-opencl +exit 0 ' '$T/out' &&
             grep -qE '^total wall time [0-9.]+ s; status 1$' '$T/out'"
        check "gpu-check: the stream summary from the OpenCL record, no traceback" bash -c \
            "grep -A1 '^== stream: best DRAM' '$T/out' | grep -q '^opencl: .*status ok' &&
             ! grep -q Traceback '$T/out'"
        check "gpu-check: its log and tarball in \$OUT" \
            test -s "$T/gco/gmb-check.log" -a -s "$T/gco/gmb-check.tgz"
    fi
fi

# --- records found by fuzzing (tests/fixtures/records/fuzz) ------------------------------------
# a device name with CR, LF and quotes: RFC 4180 quoting keeps it whole in one field
if expect "table --format csv of a crafted device name" 0 "$G" table "$FX/fuzz/csv-cells" \
    "$FX/fuzz/inf-ci" --format csv; then
    check "table csv: the crafted name read back whole" /usr/bin/python3 -c "import csv, sys; \
        rows = list(csv.reader(open(sys.argv[1], newline=''))); \
        sys.exit(0 if rows[0][2] == 'CSV\\r\\nDevice, \\\"crafted\\\" (OpenCL)' else 1)" "$T/out"
    check "table csv: every row has the header's columns" /usr/bin/python3 -c "import csv, sys; \
        rows = list(csv.reader(open(sys.argv[1], newline=''))); \
        sys.exit(0 if len(rows) == 2 and len({len(r) for r in rows}) == 1 else 1)" "$T/out"
fi
# a level's CI from a point whose median and CI ends are +-1.7e308: the CI overflows to inf
if expect "table: a CI that overflows to inf" 0 "$G" table "$FX/fuzz/inf-ci"; then
    check "table: the CI shown as inf" grep -q \
        '^| Latency level 1 (chase not recorded) | ns | 1.500 \[inf, inf\] |$' "$T/out"
fi

# --- gmb compare ------------------------------------------------------------------------------
A="$FX/compare/a"
if expect "compare: 30% slower samples" 0 "$G" compare "$A" "$FX/compare/slower"; then
    n=$(grep -c ' B worse$' "$T/out")
    check "compare: every metric significantly worse ($n)" test "$n" -gt 0 -a \
        "$(grep -c 'not significant$' "$T/out")" = 0
    check "compare: ratio 1/1.3 shown" grep -q ' 0\.769 ' "$T/out"
fi
expect "compare --fail-below 10 finds the regression" 1 "$G" compare "$A" "$FX/compare/slower" \
    --fail-below 10 && check "regression named" grep -q "REGRESSION" "$T/out"
expect "compare --fail-below 40: a 23% drop passes" 0 "$G" compare "$A" "$FX/compare/slower" \
    --fail-below 40
if expect "compare: same samples, reordered" 0 "$G" compare "$A" "$FX/compare/same" \
    --fail-below 1; then
    check "compare: nothing significant" test "$(grep -c ' B worse\| B better' "$T/out")" = 0
    check "compare: summary counts all as not significant" \
        grep -q ' 0 better in B, 0 worse' "$T/out"
fi
# 20000 points a side, B shuffled: points are matched through sorted keys, never pair by pair
# (that took minutes); timeout ends a quadratic gmb
/usr/bin/python3 - "$T/big" <<'EOF'
import json, os, random, sys
random.seed(1)
def rec(f, shuffle):
    pts = []
    for k in range(4):
        for s in range(5000):
            size, t = 4096 * (s + 1), (1000.0 + s) * f * (1 + k)
            ts = [t, 1.1 * t, 1.2 * t]
            bw = {"median": size / ts[1], "ci_lo": size / ts[2], "ci_hi": size / ts[0],
                  "min": size / ts[2], "max": size / ts[0], "mean": size / ts[1]}
            pts.append({"params": {"kernel": "k%d" % k, "width_bytes": 16, "size_bytes": size,
                                   "reps": 1 + s % 3}, "metrics": {"bw_GBps": bw},
                        "time_ns": {"median": ts[1], "min": ts[0], "max": ts[2], "n": 3},
                        "samples_ns": ts})
    if shuffle:
        random.shuffle(pts)
    return {"schema": "gmb-record", "schema_version": 1, "benchmark": "stream",
            "time_utc": "2026-01-01T00:00:00Z", "device": {"name": "big"},
            "metrics": {"bw_GBps": {"unit": "GB/s", "better": "higher"}}, "points": pts}
for name, f, shuffle in (("a", 1.0, False), ("b", 1.3, True)):
    os.makedirs(os.path.join(sys.argv[1], name))
    json.dump(rec(f, shuffle), open(os.path.join(sys.argv[1], name, "stream.json"), "w"))
EOF
if expect "compare: 20000 points a side within seconds" 0 timeout 20 "$G" compare "$T/big/a" \
    "$T/big/b"; then
    check "compare: every point matched, one row each" \
        test "$(sed -n '/^every metric/,$p' "$T/out" | wc -l)" = 20003 -a "$(grep -c \
        '^stream  k[0-3] width=16 B size=.* bw_GBps  *GB/s .* 0\.769 *-23\.1%' "$T/out")" = 20000
    check "compare: the summary counts them all" \
        grep -q '^20000 metrics of 1 benchmark: .* 0 without raw samples$' "$T/out"
fi
rm -rf "$T/big"
expect "compare needs two runs" 2 "$G" compare "$A"
expect "compare --fail-below x" 2 "$G" compare "$A" "$A" --fail-below x
expect "compare: nothing in common" 2 "$G" compare "$A" "$FX/edge/v0"

# --- gmb plot: headless gnuplot, PNG and SVG of the asked size ---------------------------------
if command -v gnuplot >/dev/null; then
    if expect "plot two runs (pocl + one-point)" 0 "$G" plot "$FX/pocl" "$FX/edge/one-point" \
        --out "$T/fig" --size 640x400; then
        for f in stream-bw chase-latency bank-stride l2-bw hierarchy-levels; do
            check "plot: $f.png is a 640x400 PNG" test "$(png_size "$T/fig/$f.png")" = 640x400
            check "plot: $f.svg is a 640x400 SVG" test "$(head -c 300 "$T/fig/$f.svg" | \
                tr -d '\n' | grep -o '<svg *width="640" height="400" *viewBox="0 0 640 400"' | \
                wc -l)" = 1
        done
        check "plot: two devices on the stream figure" \
            grep -q '^NRUNS = 2$' "$T/fig/data/stream-vars.gp"
        check "plot: one line per figure made on stdout" test "$(wc -l <"$T/out")" = 10
        # the summary figure: the table's rows, one column per run, as the table has them;
        # stream's figures from cache-resident points (all of them in these records: ᶜ) left out
        "$G" table "$FX/pocl" "$FX/edge/one-point" --format csv >"$T/fig/table.csv" 2>/dev/null
        check "plot: hierarchy data as in the table, cache-resident stream points left out" \
            test "$(/usr/bin/python3 -c "
import csv, sys
v = {r[0]: r[1:] for r in csv.reader(open(sys.argv[1])) if not r[0].startswith('#')}
t = {r[0]: r[2:] for r in csv.reader(open(sys.argv[2]))}
shared = t['Shared-memory bandwidth, no conflict'][0]
print(len(v['Shared memory: aggregate']) == 6
      and abs(float(v['Shared memory: aggregate'][0]) - float(shared)) < 1e-3 * float(shared)
      and 'DRAM (memory)' not in v and 'Read bandwidth' in t)
" "$T/fig/data/hierarchy-bw.csv" "$T/fig/table.csv")" = True
        check "plot: hierarchy: the CPU's latency levels by number" grep -q '^level 1,' \
            "$T/fig/data/hierarchy-lat.csv"
    fi
    # the bandwidth panel is the level view: each level once, its first figure, then the peak
    H200=results/nvidia-h200/20261130T230403Z
    mkdir -p "$T/lvfig/split" && cp "$H200"/*.json "$T/lvfig/split/" &&
        /usr/bin/python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
r['results']['bandwidth']['read']['levels'] = [
    {'name': 'L2 near', 'GBps': 9000.0, 'ci': [8900.0, 9100.0], 'from_bytes': 4194304,
     'to_bytes': 25165824, 'points': 7},
    {'name': 'L2 far', 'GBps': 6000.0, 'ci': [5900.0, 6150.0], 'from_bytes': 33554432,
     'to_bytes': 50331648, 'points': 3}]
json.dump(r, open(sys.argv[1], 'w'))" "$(ls "$T"/lvfig/split/*-l2.json)"
    for lvrun in "$H200" "$T/lvfig/split"; do
        if expect "plot: the hierarchy of ${lvrun##*/}" 0 "$G" plot "$lvrun" --out "$T/lvfig/out"
        then
            "$G" table "$lvrun" --levels --format csv >"$T/lvfig/levels.csv" 2>/dev/null
            check "plot: ${lvrun##*/}'s bandwidth panel is its level view, then the peak" \
                rec plot-levels-data "$T/lvfig/out/data/hierarchy-bw.csv" "$T/lvfig/levels.csv"
        fi
    done
    check "plot: the split L2's near and far levels drawn" \
        grep -q '^L2 far,6000,5900,6150$' "$T/lvfig/out/data/hierarchy-bw.csv"
    # an interrupted run's cache-resident stream figure (ᶜ ⁱ) is still no memory bandwidth; a
    # summary script whose group is no name is a note, and the other figures are made
    mkdir -p "$T/intr" "$T/plots"
    /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); \
        r['status']='interrupted'; json.dump(r, open(sys.argv[2], 'w'))" \
        "$(ls "$FX"/pocl/*-stream.json)" "$T/intr/s-stream.json"
    cp plots/*.gp "$T/plots/"
    printf '# gmb: tabrow my-grp | read | Read bandwidth | GB/s\n' >"$T/plots/zz-bad.gp"
    if GMB_PLOTS="$T/plots" expect "plot: an interrupted run, a summary script with a bad group" 0 \
        "$G" plot "$T/intr" --out "$T/intrfig"; then
        check "plot: interrupted cache-resident stream figures left out" bash -c \
            "! grep -q '^DRAM (memory)' '$T/intrfig/data/hierarchy-bw.csv' 2>/dev/null"
        check "plot: the bad group is a note naming the script" \
            grep -q "zz-bad.gp: tabrow group 'my-grp'" "$T/err"
        check "plot: the stream figure still made" test -s "$T/intrfig/stream-bw.png"
    fi
    expect "plot --pdf of one run" 0 "$G" plot "$FX/pocl" --out "$T/pdf" --pdf &&
        check "plot: PDF made" bash -c "head -c 5 '$T/pdf/stream-bw.pdf' | grep -q '%PDF-'"
    mkdir -p "$T/nos"
    cp "$FX/pocl"/*-stream.json "$T/nos/"
    /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); \
        r['benchmark']='noscript'; json.dump(r, open(sys.argv[2], 'w'))" \
        "$(ls "$T"/nos/*-stream.json)" "$T/nos/x-noscript.json"
    expect "plot: a benchmark without a script is a note" 0 "$G" plot "$T/nos" --out "$T/nosfig" &&
        check "plot: the note names the script" grep -q "no plot script .*noscript.gp" "$T/err"
    expect "plot: only corrupt records" 2 "$G" plot "$FX/corrupt/garbage.json" --out "$T/x"
    # a series value of 127 bytes whose last character a 128-byte buffer cuts in half
    if expect "plot: a series value cut inside a UTF-8 character" 0 "$G" plot \
        "$FX/fuzz/utf8-series" --out "$T/utf8"; then
        check "plot: that series drawn" test -s "$T/utf8/data/stream-r1-s1.csv"
    fi
    # a record whose only latency is negative cannot be drawn on a log axis: a note naming
    # it, and the other runs' figure is still made; its level (1.5 ns, an infinite CI) is
    # the summary figure's only bar, without the CI
    if expect "plot: only a record with no positive latency" 0 "$G" plot "$FX/fuzz/inf-ci" \
        --out "$T/neg1"; then
        check "plot: the note names that record" \
            grep -q "inf-ci/chase.json: no point with a finite, positive 'lat_ns'" "$T/err"
        check "plot: the level drawn in the summary, no infinite CI" \
            grep -qx 'level 1,1.5,1.5,1.5' \
            "$T/neg1/data/hierarchy-lat.csv"
    fi
    mkdir -p "$T/neg0" # without the level: nothing to draw at all
    /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); \
        r['results'].pop('levels', None); json.dump(r, open(sys.argv[2], 'w'))" \
        "$FX/fuzz/inf-ci/chase.json" "$T/neg0/chase.json"
    expect "plot: a record with nothing to draw: named, exit 0" 0 "$G" plot "$T/neg0" \
        --out "$T/neg0f" &&
        check "plot: no figure made, and said" grep -qx \
            "chase	no point with a finite, positive 'lat_ns'" "$T/neg0f/not-drawn.tsv"
    if expect "plot: that record beside a good run" 0 "$G" plot "$FX/fuzz/inf-ci" "$FX/pocl" \
        --out "$T/neg2"; then
        check "plot: the good run's chase figure made" test -s "$T/neg2/chase-latency.png"
        check "plot: the bad record noted" grep -q "inf-ci/chase.json: no point" "$T/err"
    fi
    # ',', '"', CR, LF, tab, other control bytes, a leading '#' in names and values of a
    # crafted record: every data file keeps its columns (gnuplot reads no quotes)
    if expect "plot: a crafted record (separators, quotes, control bytes)" 0 "$G" plot \
        "$FX/fuzz/csv-cells" --out "$T/csvc"; then
        check "plot: points and results data files written" \
            test "$(ls "$T"/csvc/data/chase-r1-*.csv | wc -l)" = 2
        for f in "$T"/csvc/data/chase-r1-*.csv; do
            check "plot: $(basename "$f") rectangular" rectangular "$f"
        done
    fi
    # records without the optional strings the scripts print (results.cycles.source,
    # results.cache_name): drawn, not a gnuplot error on a missing string
    mkdir -p "$T/nostr"
    /usr/bin/python3 - "$FX/pocl" "$T/nostr" <<'PY'
import json, sys
for b in ("chase", "l2"):
    src = f"{sys.argv[1]}/20261130T06283{2 if b == 'chase' else 3}Z-{b}.json"
    r = json.load(open(src))
    r["results"].pop("cycles", None)
    r["results"].pop("cache_name", None)
    json.dump(r, open(f"{sys.argv[2]}/x-{b}.json", "w"))
PY
    if expect "plot: records without the optional strings" 0 "$G" plot "$T/nostr" \
        --out "$T/nostrfig"; then
        check "plot: chase drawn without results.cycles.source" \
            test -s "$T/nostrfig/chase-latency.png"
        check "plot: l2 drawn without results.cache_name" test -s "$T/nostrfig/l2-bw.png"
    fi
    expect "plot --size bad" 2 "$G" plot "$FX/pocl" --size 12
else
    skip "$TAG plot: gnuplot not installed (apt-get install gnuplot-nox)"
fi

# --- gmb run ----------------------------------------------------------------------------------
if ! have_opencl; then
    skip "$TAG gmb run: no OpenCL device (install pocl-opencl-icd)"
else
    # a private bin/ with a real benchmark, one that fails and one that skips
    mkdir -p "$T/bin"
    cp "$G" "$T/bin/gmb"
    ln -s "$PWD/$BIN/gmb-bank" "$T/bin/gmb-bank"
    printf '#!/bin/sh\necho "gmb-aaa: error: planted failure" >&2\nexit 3\n' >"$T/bin/gmb-aaa"
    printf '#!/bin/sh\necho "gmb-zzz: skipped: planted skip" >&2\nexit 77\n' >"$T/bin/gmb-zzz"
    chmod +x "$T/bin/gmb-aaa" "$T/bin/gmb-zzz"
    if GMB_PLOTS="$PWD/plots" expect "run: a failing benchmark does not stop the others" 3 \
        "$T/bin/gmb" run --backend opencl --results "$T/res" -- "${FASTC[@]}"; then
        dir=$(tail -1 "$T/out")
        m="$dir/run.json"
        check "run: directory results/<slug>/<UTC>" \
            bash -c "[[ '$dir' =~ /res/[a-z0-9-]+/[0-9]{8}T[0-9]{6}Z$ ]]"
        check "run: manifest statuses" rec run-programs "$m" aaa=error bank=ok zzz=skipped
        check "run: manifest complete, exit 3" \
            rec fields "$m" status=complete exit_status=3 profile=quick
        check "run: reasons kept" rec fields "$m" \
            "programs.0.reason=gmb-aaa: error: planted failure" \
            "programs.2.reason=gmb-zzz: skipped: planted skip"
        check "run: bank's record listed and present" \
            test -f "$dir/$(manifest "$m" "m['programs'][1]['records'][0]")"
        check "run: bank got the quick profile and the extra options" \
            rec fields "$m" "programs.1.options~=--strides 0:32"
        check "run: bank's record has the profile's options" \
            rec fields "$(ls "$dir"/*-bank.json)" "options.strides=[$(seq -s, 0 32)]" \
            measurement.max_samples=3
        check "run: device in the manifest" rec fields "$m" device.backend=opencl device.type=cpu
        check "run: progress lines on stderr (not a terminal)" \
            test "$(grep -c '^gmb: \[[1-3]/3\] ' "$T/err")" = 6
        check "run: no temporary file left" test -z "$(ls -A "$dir" | grep gmb-tmp)"
        # gmb report: one Markdown page of the run, from run.json and the records
        if expect "report of the run" 0 "$G" report "$dir"; then
            rep="$dir/report.md"
            check "report: its path printed" test "$(cat "$T/out")" = "$rep"
            check "report: a row per program, with status and why (error, skip)" bash -c \
                "grep -q '^| aaa | error | .* | gmb-aaa: error: planted failure |\$' '$rep' &&
                 grep -q '^| zzz | skipped | .* | gmb-zzz: skipped: planted skip |\$' '$rep'"
            check "report: bank's row carries its recorded summary" grep -qF \
                "| $(json "$(ls "$dir"/*-bank.json)" "r['results']['summary']") |" "$rep"
            check "report: the table as gmb table prints it" grep -qxF \
                "$("$G" table "$dir" | grep '^| Shared-memory banks')" "$rep"
            check "report: no figures yet, said so" grep -q "^No figures: \`gmb plot\`" "$rep"
            check "report: cross-checks, none with bank alone, said so" bash -c \
                "grep -A4 '^## Cross-checks' '$rep' |
                 grep -qx 'No quantity was measured by two programs in this run.'"
            check "report: conditions, none from NVML here, said so" bash -c \
                "sed -n '/^## Conditions/,/^## Table/p' '$rep' |
                 grep -q '^NVML gave nothing on this device'"
        fi
        # the conditions from NVML (the stand-in): another process on the GPU before, every
        # point held below the clocks half its time
        STUB="$PWD/build/tests/stub/libnvidia-ml.so.1"
        [ "$TAG" = san ] && STUB="$PWD/build/san/tests/stub/libnvidia-ml.so.1"
        mkdir -p "$T/crun"
        cp "$m" "$T/crun/run.json"
        if [ -f "$STUB" ] && GMB_NVML_LIB="$STUB" GMB_TEST_NVML_PCI=0000:01:00.0 \
            GMB_STUB_PROCS=1 GMB_STUB_POWER_CAPPED=0.5 \
            expect "report: a stream record with NVML" 0 "$PWD/$BIN/gmb-stream" \
            --backend opencl --sizes 1MiB,2MiB --kernels read --warmup 0 --max-samples 3 \
            --out "$T/crun" &&
            expect "report: a run with NVML's conditions" 0 "$G" report "$T/crun"; then
            check "report: the conditions, a row per record" grep -qx \
                "| stream | 1 compute processes, kernels 0% busy | 2 of 2 | 1980 |" \
                "$T/crun/report.md"
        fi
        # after another program of the same run: NVML's utilization is that program's
        mkdir -p "$T/arun"
        cp "$m" "$T/arun/run.json"
        if [ -f "$STUB" ] && GMB_NVML_LIB="$STUB" GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_UTIL=40 \
            GMB_AFTER_PROGRAM=chase expect "report: a record after another program" 0 \
            "$PWD/$BIN/gmb-stream" --backend opencl --sizes 1MiB --kernels read --warmup 0 \
            --max-samples 3 --out "$T/arun" &&
            expect "report: a run after another program" 0 "$G" report "$T/arun"; then
            check "report: the utilization put on the previous program, not another user" grep -q \
                "^| stream | idle (kernels 40% busy: chase, just before it) |" "$T/arun/report.md"
        fi
        # cross-checks from real records: l2's cache capacity against the driver's LLC figure
        mkdir -p "$T/xrun"
        cp "$m" "$T/xrun/run.json"
        # (this record's curve found no capacity: one is set, as a GPU's would have it)
        /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); \
            r['results']['bandwidth']['read']['capacity_bytes']=16777216; \
            json.dump(r, open(sys.argv[2], 'w'))" \
            tests/fixtures/records/pocl/*-l2.json "$T/xrun/20261130T062833Z-l2.json"
        if expect "report: a run with an l2 record" 0 "$G" report "$T/xrun"; then
            want=$(json "$(ls "$T"/xrun/*-l2.json)" "'; l2: where the read bandwidth leaves the \
cache plateau: '.join('%.*f' % (max(0, min(6, 3 - __import__('math').floor(\
__import__('math').log10(v)))), v) for v in (r['device']['llc_bytes'] / 2**20, \
r['results']['bandwidth']['read']['capacity_bytes'] / 2**20))")
            check "report: the capacity cross-check, the driver's figure and l2's" grep -q \
                "^| Last-level cache capacity | MiB | the driver's figure: ${want//./\\.} | \
[0-9.]*x | \(agree\|differ\) " \
                "$T/xrun/report.md"
        fi
        if GMB_PLOTS="$PWD/plots" expect "report after gmb plot" 0 "$G" plot "$dir" &&
            expect "report: again" 0 "$G" report "$dir" --out "$T/rep2.md"; then
            check "report: every figure drawn is shown, linked from where the page is" bash -c \
                "n=\$(grep -c '^!\[' '$T/rep2.md'); [ \$n -ge 1 ] &&
                 [ \$n = \$(ls '$dir'/figures/*.png | wc -l) ] &&
                 grep -o '(<[^>]*>)' '$T/rep2.md' | tr -d '()<>' |
                 while read f; do [ -s \"\$f\" ] || exit 1; done"
            expect "report: in RUN again" 0 "$G" report "$dir" &&
                check "report: in RUN, the figures linked relatively" bash -c \
                    "grep -o '(<[^>]*>)' '$dir/report.md' | tr -d '()<>' | while read f; do
                         [ \"\${f#figures/}\" != \"\$f\" ] && [ -s '$dir'/\$f ] || exit 1; done"
            expect "report --out - (standard output)" 0 "$G" report "$dir" --out - &&
                check "report --out -: the page on stdout" grep -q "^## Table" "$T/out"
        fi
        # a run cut short: nulls in run.json print as '–', never 'nan'
        mkdir -p "$T/cut"
        /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); m['wall_s']=None; \
            m['programs'][0]['wall_s']=None; del m['programs'][0]['points']; \
            m['device']['name']='a|b\nc'; json.dump(m, open(sys.argv[2], 'w'))" \
            "$m" "$T/cut/run.json"
        if expect "report: a run cut short" 0 "$G" report "$T/cut"; then
            check "report: no nan, the program row whole" bash -c \
                "! grep -qi nan '$T/cut/report.md' &&
                 grep -q '^| aaa | error | – | – | ' '$T/cut/report.md'"
            check "report: a | in the device name escaped, no line break" \
                grep -q '^a\\|b c through' \
                "$T/cut/report.md"
        fi
        expect "report: a directory without run.json" 2 "$G" report "$T" &&
            check "report: one line says so, nothing written" bash -c \
                "[ \$(wc -l <'$T/err') = 1 ] && ! ls '$T'/report.md* >/dev/null 2>&1"
        expect "report: no RUN" 2 "$G" report
        expect "report: unknown option" 2 "$G" report "$dir" --frobnicate
    fi
    # a program that hangs (a kernel that never ends) is stopped by --timeout; the rest run
    printf '#!/bin/sh\nexec sleep 60\n' >"$T/bin/gmb-hang"
    chmod +x "$T/bin/gmb-hang"
    if GMB_PLOTS="$PWD/plots" expect "run --timeout stops a hung program" 3 "$T/bin/gmb" run \
        --backend opencl --results "$T/hang" --only hang,zzz --timeout 1; then
        m="$(tail -1 "$T/out")/run.json"
        check "run --timeout: the hung program is an error, the next one ran" \
            rec run-programs "$m" hang=error zzz=skipped
        check "run --timeout: the reason says so" grep -q "timed out after 1 s" "$m"
    fi
    rm -f "$T/bin/gmb-hang"
    # each program after the first is told the one before it (its kernels are NVML's recent load)
    STUB="$PWD/build/tests/stub/libnvidia-ml.so.1"
    [ "$TAG" = san ] && STUB="$PWD/build/san/tests/stub/libnvidia-ml.so.1"
    if [ -f "$STUB" ] && GMB_NVML_LIB="$STUB" GMB_TEST_NVML_PCI=0000:01:00.0 \
        GMB_PLOTS="$PWD/plots" \
        expect "run: two programs, NVML there" 0 "$G" run --backend opencl \
        --results "$T/after" --only bank,stream -- "${FASTC[@]}"; then
        dir=$(tail -1 "$T/out")
        check "run: the second program's busy_before names the first, the first's none" \
            eval 'rec run-after-program "$(ls "$dir"/*-stream.json)" bank &&
                  rec run-after-program "$(ls "$dir"/*-bank.json)"'
    fi
    # a nominal peak given to every benchmark describes the device of the manifest too
    if GMB_PLOTS="$PWD/plots" expect "run -- --peak-bw" 0 "$T/bin/gmb" run --backend opencl \
        --results "$T/peak" --only bank -- "${FASTC[@]}" --peak-bw 100; then
        dir=$(tail -1 "$T/out")
        check "run -- --peak-bw: manifest and record say it was given" \
            eval 'rec fields "$dir/run.json" device.peak_bw_GBps=100.0 device.peak_bw_given=true &&
                  rec fields "$(ls "$dir"/*-bank.json)" device.peak_bw_GBps=100.0 \
                      device.peak_bw_given=true'
    fi
    expect "run --timeout x" 2 "$G" run --timeout x --results "$T/res"
    expect "run --only nosuch" 2 "$T/bin/gmb" run --only nosuch --results "$T/res"
    # a profiles line longer than any buffer (3 KiB of options): one error naming file:line,
    # never cut into a line and a half; nothing run, no run directory
    { printf 'bank quick * 1 --strides 0:32'; printf ' --time-cap 0.3%.0s' $(seq 200); echo; } \
        >"$T/long.conf"
    if expect "run: an over-long profiles line is an error" 2 "$T/bin/gmb" run --backend opencl \
        --results "$T/long" --profiles "$T/long.conf" --only bank; then
        check "run: one line naming file:line" test "$(wc -l <"$T/err")" = 1 -a \
            "$(grep -c "long.conf:1: the options of this line are too long" "$T/err")" = 1
        check "run: no run directory made" test ! -e "$T/long"
    fi
    expect "run --frobnicate" 2 "$G" run --frobnicate --results "$T/res"
    # every line of plots/profiles.conf parses in its programs (names and value syntax; checks
    # against the device come when it runs): the GPU lines never run here, so
    # a misspelt option in one would only show on a GPU; a '*' line in every program
    bad=""
    while read -r b prof devt est opts; do
        case $b in '#'* | '') continue ;; esac
        for p in $([ "$b" = '*' ] && ls "$BIN" | sed -n 's/^gmb-//p' || echo "$b"); do
            # shellcheck disable=SC2086 # the options are words
            "$PWD/$BIN/gmb-$p" $opts --list-devices >/dev/null 2>"$T/perr" ||
                bad="$bad $b/$prof/$devt:gmb-$p($(head -1 "$T/perr"))"
        done
    done <plots/profiles.conf
    check "profiles.conf: every line's options parse in its programs${bad:+:$bad}" test -z "$bad"
    expect "run --backend cuda without a GPU skips" 77 "$G" run --backend cuda \
        --results "$T/resc" &&
        check "run: a skipped suite writes nothing" test ! -e "$T/resc"

    # Ctrl-C in the middle: SIGINT once the first record exists, during the next program
    "$G" run --backend opencl --results "$T/int" --only bank,chase,stream \
        >"$T/int.out" 2>"$T/int.err" &
    pid=$!
    for _ in $(seq 600); do
        ls "$T"/int/*/*/*-bank.json >/dev/null 2>&1 && break
        sleep 0.1
    done
    sleep 0.3
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    check "SIGINT: exit 130" test "$rc" = 130
    m=$(ls "$T"/int/*/*/run.json)
    check "SIGINT: the manifest is valid JSON, marked interrupted" \
        rec run-interrupted-during "$m" chase stream
    check "SIGINT: the finished program and its record kept" rec run-program-records "$m" 0 ok 1
    check "SIGINT: the finished record is there" \
        test -s "$(dirname "$m")/$(manifest "$m" "m['programs'][0]['records'][0]")"
    check "SIGINT: one interrupted, the rest not run" \
        rec run-later-statuses "$m" 1 interrupted not_run
    check "SIGINT: no temporary file left" test -z "$(ls -A "$(dirname "$m")" | grep gmb-tmp)"
    check "SIGINT: says where the records are" \
        grep -q "interrupted during .*: the finished records" "$T/int.err"
    if command -v gnuplot >/dev/null; then
        expect "plot of the interrupted run" 0 "$G" plot "$(dirname "$m")"
        check "plot: default output in the run's figures/" \
            test -s "$(dirname "$m")/figures/bank-stride.png"
    fi
fi
