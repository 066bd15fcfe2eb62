# integration-plotedge.sh - gmb plot of the records a program writes when it finds nothing:
# for every program (bench/*), its H200 record with no level / plateau / knee, and one with no
# point (interrupted before its first); a real "no clear level" chase of PoCL beside the H200
# run; a figure gnuplot cannot draw (a failing gnuplot, a broken script, no gnuplot) named in
# figures/not-drawn.tsv and in report.md, the others drawn, exit 0; stale entries gone.
PE_RUN=results/nvidia-h200/20261130T232558Z
# is_png FILE / is_svg FILE: a non-empty figure of that format
is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ]; }
is_svg() { [ -s "$1" ] && head -c 400 "$1" | grep -q '<svg'; }
if ! command -v gnuplot >/dev/null; then
    skip "$TAG plotedge: gnuplot not installed (apt-get install gnuplot-nox)"
elif [ ! -f "$PE_RUN/run.json" ]; then
    fail "$TAG plotedge: no $PE_RUN (the H200 run the edge records come from)"
else
    # the edge records of every program: nolevel/<b>/, zero/<b>/; all/: every nolevel record
    /usr/bin/python3 - "$PE_RUN" "$T/edge" <<'PY'
import copy, glob, json, os, sys
src, out = sys.argv[1], sys.argv[2]
def put(kind, b, r, name):
    d = os.path.join(out, kind, b)
    os.makedirs(d, exist_ok=True)
    json.dump(r, open(os.path.join(d, name), "w"))
for f in sorted(glob.glob(src + "/*-*.json")):
    r = json.load(open(f))
    b, name = r["benchmark"], os.path.basename(f)
    n = copy.deepcopy(r)
    res = n["results"]
    if b == "chase":  # what gmb-chase writes for a flat or noisy curve
        for cv in res.get("levels", []):
            cv["levels"], cv["verdict"] = [], "no clear level"
        res["summary"] = "global, random: no clear level."
    elif b == "l2":  # no plateau, no capacity
        for part in res.get("bandwidth", {}).values():
            for k in ("cache_GBps", "memory_GBps", "capacity_bytes"):
                part[k] = None
    elif b == "loaded":  # no knee
        res.get("loaded", {})["knee"] = None
    else:  # nothing found at all: the summary alone
        n["results"] = {"summary": res.get("summary", "")}
    put("nolevel", b, n, name)
    put("all", ".", n, name)
    z = copy.deepcopy(r)
    z["points"], z["status"] = [], "interrupted"
    put("zero", b, z, name)
PY
    for d in bench/*/; do
        b=$(basename "$d")
        if [ ! -d "$T/edge/nolevel/$b" ]; then # a program newer than the H200 run
            skip "$TAG plotedge $b: no record in $PE_RUN (a newer program): waits for a GPU run"
            continue
        fi
        want=$(cd "$PE_RUN/figures" && ls "$b"-*.png 2>/dev/null | sed 's/\.png$//' | tr '\n' ' ')
        check "plotedge $b: the H200 run has its figures" test -n "$want"
        if expect "plotedge $b: no level: exit 0" 0 "$G" plot "$T/edge/nolevel/$b" \
            --out "$T/nl-$b"; then
            for f in $want; do
                check "plotedge $b: no level: $f.png drawn" is_png "$T/nl-$b/$f.png"
                check "plotedge $b: no level: $f.svg drawn" is_svg "$T/nl-$b/$f.svg"
            done
            check "plotedge $b: no level: not-drawn.tsv empty" \
                bash -c "[ -f '$T/nl-$b/not-drawn.tsv' ] && [ ! -s '$T/nl-$b/not-drawn.tsv' ]"
        fi
        if expect "plotedge $b: no point: exit 0" 0 "$G" plot "$T/edge/zero/$b" \
            --out "$T/z-$b"; then
            check "plotedge $b: no point: named, with its reason" \
                grep -qx "$b	no points" "$T/z-$b/not-drawn.tsv"
            check "plotedge $b: no point: said on stderr" \
                grep -q "^gmb: figure $b not drawn: no points" "$T/err"
            check "plotedge $b: no point: no figure of it" bash -c "! ls '$T/z-$b/$b'-* 2>/dev/null"
        fi
    done
    # chase: the H200's levels are drawn (bars and names), the no-level run's are none
    check "plotedge chase: no level: no level row, the header kept" bash -c \
        "[ \"\$(wc -l <'$T/nl-chase/data/chase-r1-levels.csv')\" = 1 ] &&
         grep -q size_lo_bytes '$T/nl-chase/data/chase-r1-levels.csv' &&
         grep -qx 'array res_n_levels\[1\] = \[0\]' '$T/nl-chase/data/chase-vars.gp'"

    # a real "no clear level" chase (PoCL, three sizes) beside the H200 run: both in the figure
    if have_opencl && expect "plotedge: a chase that finds no clear level" 0 "$BIN/gmb-chase" \
        "${FAST[@]}" --min-sample-us 300 --mode random --spaces global --sizes 4KiB:16KiB:x2 \
        --out "$T/flat"; then
        check "plotedge: that chase says no clear level" \
            grep -q '"no clear level"' "$T"/flat/*-chase.json
        if expect "plotedge: H200 run and the flat chase together" 0 "$G" plot "$PE_RUN" "$T/flat" \
            --out "$T/two"; then
            check "plotedge: two runs in the chase figure" \
                grep -qx 'NRUNS = 2' "$T/two/data/chase-vars.gp"
            # the H200's levels of its random global curve
            nlv=$(json "$(ls "$PE_RUN"/*-chase.json)" "sum(len(c['levels']) for c in \
r['results']['levels'] if c['mode'] == 'random' and c['space'] == 'global')")
            check "plotedge: the H200's levels kept, none of the flat run's" grep -qx \
                "array res_n_levels\[2\] = \[$nlv, 0\]" "$T/two/data/chase-vars.gp"
            check "plotedge: both runs' points written" bash -c \
                "ls '$T'/two/data/chase-r1-s*.csv >/dev/null &&
                 ls '$T'/two/data/chase-r2-s*.csv >/dev/null"
            check "plotedge: the chase figure drawn" is_png "$T/two/chase-latency.png"
            check "plotedge: its key says no clear level" \
                grep -q 'random global: no clear level' "$T/two/chase-latency.svg"
            check "plotedge: H200 level names drawn" grep -q '>L2 near<' "$T/two/chase-latency.svg"
            check "plotedge: nothing not drawn" test ! -s "$T/two/not-drawn.tsv"
        fi
    fi

    # a gnuplot that fails on chase.gp alone, in a run directory: named in not-drawn.tsv and
    # report.md, the other figures drawn, exit 0; a later good gmb plot leaves no stale entry
    mkdir -p "$T/run"
    cp "$PE_RUN"/run.json "$T/edge/all/"*.json "$T/run/"
    cat >"$T/gp-fail" <<EOF
#!/bin/sh
case "\$*" in *chase.gp*) echo "forced failure for the test" >&2; exit 1 ;; esac
exec $(command -v gnuplot) "\$@"
EOF
    chmod +x "$T/gp-fail"
    if GMB_GNUPLOT="$T/gp-fail" expect "plotedge: gnuplot fails on chase: exit 0" 0 "$G" plot \
        "$T/run"; then
        check "plotedge: chase named with gnuplot's complaint" grep -q \
            "^chase	gnuplot failed (exit 1, png) on .*chase.gp: forced failure for the test$" \
            "$T/run/figures/not-drawn.tsv"
        check "plotedge: only chase not drawn" test "$(wc -l <"$T/run/figures/not-drawn.tsv")" = 1
        check "plotedge: one stderr line for it" test "$(grep -c '^gmb: figure' "$T/err")" = 1
        check "plotedge: no chase figure left" bash -c "! ls '$T'/run/figures/chase-* 2>/dev/null"
        for f in stream-bw l2-bw loaded-lat access-stride um-bw hierarchy-levels; do
            check "plotedge: $f drawn beside it" is_png "$T/run/figures/$f.png"
        done
        if expect "plotedge: report after it" 0 "$G" report "$T/run"; then
            check "plotedge: report names chase not drawn, with the reason" grep -q \
                "^- chase: gnuplot failed (exit 1, png) on .*: forced failure for the test$" \
                "$T/run/report.md"
            check "plotedge: report still shows the others" \
                grep -q '^!\[stream-bw\]' "$T/run/report.md"
        fi
    fi
    if expect "plotedge: plot again with gnuplot: exit 0" 0 "$G" plot "$T/run"; then
        check "plotedge: the stale entry gone" test ! -s "$T/run/figures/not-drawn.tsv"
        check "plotedge: chase drawn now" is_png "$T/run/figures/chase-latency.png"
        expect "plotedge: report again" 0 "$G" report "$T/run" &&
            check "plotedge: report names nothing not drawn" \
                bash -c "! grep -q '^Not drawn' '$T/run/report.md'"
    fi

    # a broken script (a copy of plots/ with l2.gp corrupted): l2 named, the rest drawn
    mkdir -p "$T/plots"
    cp plots/*.gp plots/profiles.conf "$T/plots/"
    echo 'plot no_such_function(1)' >>"$T/plots/l2.gp"
    if expect "plotedge: a corrupted l2.gp: exit 0" 0 "$G" plot "$T/edge/all" \
        --plots "$T/plots" --out "$T/bad"; then
        check "plotedge: l2 named with gnuplot's error" grep -q \
            "^l2	gnuplot failed .*l2.gp: .*undefined function" "$T/bad/not-drawn.tsv"
        check "plotedge: the chase figure drawn" is_png "$T/bad/chase-latency.png"
    fi
    # no gnuplot at all: no figure could be drawn, a runtime error (exit 3, said once); every
    # figure still named in not-drawn.tsv
    if GMB_GNUPLOT="$T/no-such-gnuplot" expect "plotedge: no gnuplot: exit 3" 3 "$G" plot \
        "$T/edge/all" --out "$T/nogp"; then
        check "plotedge: no gnuplot: every program's figure and the summary named" \
            test "$(grep -c '	gnuplot not found' "$T/nogp/not-drawn.tsv")" = \
            "$(($(ls -d "$T"/edge/nolevel/*/ | wc -l) + 1))"
    fi
    # a real I/O failure (the output directory cannot be made): exit 3
    : >"$T/afile"
    expect "plotedge: unwritable output: exit 3" 3 "$G" plot "$T/edge/all" --out "$T/afile/x"
fi

# a benchmark gmb has no plot script for (a record of a newer gmb): named, not a note
if [ -d "$T/edge/zero/stream" ]; then
    mkdir -p "$T/noscript"
    /usr/bin/python3 - "$(ls results/nvidia-h200/20261130T232558Z/*-stream.json)" \
        "$T/noscript/x-zzznew.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["benchmark"] = "zzznew"
json.dump(r, open(sys.argv[2], "w"))
PY
    if expect "plotedge: a benchmark without a plot script: exit 0" 0 "$G" plot "$T/noscript" \
        --out "$T/ns"; then
        check "plotedge: a benchmark without a plot script: named, with its reason" \
            grep -q "^zzznew	no plot script .*zzznew.gp" "$T/ns/not-drawn.tsv"
    fi
fi
