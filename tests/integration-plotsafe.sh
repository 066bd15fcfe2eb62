# integration-plotsafe.sh - a record is untrusted input (records travel): no string of it may
# reach gnuplot as code. Every gnuplot metacharacter (backquote, $(, @, ', ", line feed, CR) in
# the device name, every string parameter and extra of every point, and in the run
# directory's own name; gmb plot must draw and no planted command may run.
if command -v gnuplot >/dev/null; then
    H="results/nvidia-h200/20261130T232558Z"
    EVIL="$T/evil dir \`touch $T/PWNED-dirbq\` \$(touch $T/PWNED-dirsub) 'q"
    mkdir -p "$EVIL"
    for b in chase stream; do
        /usr/bin/python3 - "$(ls "$H"/*-"$b".json)" "$EVIL/x-$b.json" "$T" <<'PY'
import json, sys
src, dst, t = sys.argv[1:4]
def evil(tag):
    return ("GPU `touch %s/PWNED-%s-bq` $(touch %s/PWNED-%s-sub) @x '' \" \\\" \\` "
            "line\nfeed\rcr X" % (t, tag, t, tag))
r = json.load(open(src))
r["device"]["name"] = evil("name")
for i, p in enumerate(r["points"]):
    for part in ("params", "extra"):
        for k, v in list(p.get(part, {}).items()):
            if isinstance(v, str) and k not in ("mode", "space", "kernel"):
                p[part][k] = evil("%s%d%s" % (part, i, k))
json.dump(r, open(dst, "w"))
PY
    done
    if expect "plotsafe: gmb plot of hostile records" 0 "$G" plot "$EVIL"; then
        check "plotsafe: no planted command ran" bash -c '! ls "$0"/PWNED-* 2>/dev/null' "$T"
        check "plotsafe: the chase and stream figures drawn" bash -c \
            '[ -s "$0/figures/chase-latency.png" ] && [ -s "$0/figures/stream-bw.svg" ]' "$EVIL"
        check "plotsafe: nothing named as not drawn" test ! -s "$EVIL/figures/not-drawn.tsv"
        # and the strings are whole: the device name, its quotes included, is the run's label
        check "plotsafe: the device name reaches the figure whole (quotes and all)" grep -qF \
            "@x '' \" \\\" \\\` line feed cr X" "$EVIL/figures/chase-latency.svg"
    fi
else
    fail "$TAG plotsafe: gnuplot not installed (apt-get install gnuplot-nox)"
fi

# links planted in a run's figures/ (a data file, the variables, a figure, the not-drawn list,
# gnuplot's log): gmb plot replaces them with its files and never writes through them
if command -v gnuplot >/dev/null; then
    P="$T/links"
    mkdir -p "$P/figures/data"
    cp results/nvidia-h200/20261130T232558Z/*-stream.json "$P/"
    echo victim >"$T/victim"
    for f in data/stream-vars.gp data/stream-r1-s1.csv data/stream.log stream-bw.svg \
        stream-bw.png not-drawn.tsv; do
        ln -sf "$T/victim" "$P/figures/$f"
    done
    if expect "plotsafe: gmb plot over planted links" 0 "$G" plot "$P"; then
        check "plotsafe links: the victim untouched" test "$(cat "$T/victim")" = victim
        check "plotsafe links: the figures and variables are files of their own now" bash -c \
            '[ -f "$0/figures/stream-bw.svg" ] && [ ! -L "$0/figures/stream-bw.svg" ] &&
             [ ! -L "$0/figures/stream-bw.png" ] && [ ! -L "$0/figures/data/stream-vars.gp" ] &&
             [ ! -L "$0/figures/not-drawn.tsv" ]' "$P"
        check "plotsafe links: no temporary left" bash -c \
            '! ls -a "$0/figures" "$0/figures/data" |
             grep -qE "gmb-plot|XXXXXX|\.[A-Za-z0-9]{6}$"' "$P"
    fi
    # the data directory itself a link: refused, nothing written through it
    Q="$T/dlink"
    mkdir -p "$Q/figures" "$T/elsewhere"
    cp results/nvidia-h200/20261130T232558Z/*-stream.json "$Q/"
    ln -s "$T/elsewhere" "$Q/figures/data"
    expect "plotsafe: figures/data a link: exit 3" 3 "$G" plot "$Q"
    check "plotsafe: figures/data a link: nothing written through it" \
        test -z "$(ls -A "$T/elsewhere")"
fi
