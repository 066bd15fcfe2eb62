# integration-attack2.sh - the second attack on gmb (issue 20): file names gnuplot would run,
# a planted figures/ link, no gnuplot, a full disk, a FIFO manifest, control characters and
# markup from records. A record, and a run directory's name, are anybody's.
A2_H="results/nvidia-h200/20261130T232558Z"

# gnuplot runs a file name beginning with '<' as a shell command: a run directory or --out
# named so, given relative, must reach gnuplot as an absolute path and run nothing
if command -v gnuplot >/dev/null; then
    mkdir -p "$T/a2pw/<touch PWNED;x"
    cp "$A2_H"/*-stream.json "$A2_H"/*-stream.csv "$T/a2pw/<touch PWNED;x/"
    expect "attack2: plot of a run named '<touch PWNED;x'" 0 \
        bash -c 'cd "$0" && "$1" plot "<touch PWNED;x"' "$T/a2pw" "$G"
    check "attack2: '<' run name: no command ran" test ! -e "$T/a2pw/PWNED"
    check "attack2: '<' run name: the stream figure drawn" \
        test -s "$T/a2pw/<touch PWNED;x/figures/stream-bw.svg"
    expect "attack2: plot --out '<touch PWNED2;y'" 0 \
        bash -c 'cd "$0" && "$1" plot "<touch PWNED;x" --out "<touch PWNED2;y"' "$T/a2pw" "$G"
    check "attack2: '<' --out: no command ran" test ! -e "$T/a2pw/PWNED2"
    check "attack2: '<' --out: the stream figure drawn" \
        test -s "$T/a2pw/<touch PWNED2;y/stream-bw.svg"
    check "attack2: '<' --out: every path in the variables file absolute" bash -c \
        '! grep -oE "'"'"'[^'"'"']*(csv|stream)'"'"'" "$0/stream-vars.gp" | grep -v "^'"'"'/"' \
        "$T/a2pw/<touch PWNED2;y/data"
else
    fail "$TAG attack2: gnuplot not installed (apt-get install gnuplot-nox)"
fi

# the output directory itself a link (figures/ planted in a run directory, to a victim's
# directory): refused with one line, exit 3, nothing written into the link's target
mkdir -p "$T/a2ln/run" "$T/a2ln/vd"
cp "$A2_H"/*-stream.json "$A2_H"/*-stream.csv "$T/a2ln/run/"
echo victim >"$T/a2ln/vd/stream-bw.svg"
ln -s "$T/a2ln/vd" "$T/a2ln/run/figures"
for a2o in "" "--out $T/a2ln/run/figures/"; do
    # shellcheck disable=SC2086
    if expect "attack2: figures/ a link${a2o:+ (--out link/)}: exit 3" 3 \
        "$G" plot "$T/a2ln/run" $a2o; then
        check "attack2: figures/ a link${a2o:+ (--out link/)}: one line saying so" bash -c \
            '[ "$(wc -l <"$0")" = 1 ] && grep -q "figures is a link.*remove it" "$0"' "$T/err"
        check "attack2: figures/ a link${a2o:+ (--out link/)}: nothing written into its target" \
            bash -c '[ "$(ls -A "$0")" = stream-bw.svg ] &&
                     [ "$(cat "$0/stream-bw.svg")" = victim ]' \
            "$T/a2ln/vd"
    fi
done

# no gnuplot at all: no figure can be drawn, so gmb plot fails (exit 3) with one line saying
# gnuplot is missing; not-drawn.tsv still names every figure
mkdir -p "$T/a2nogp"
cp "$A2_H"/*-stream.json "$A2_H"/*-stream.csv "$A2_H"/*-chase.json "$A2_H"/*-chase.csv "$T/a2nogp/"
if expect "attack2: no gnuplot on PATH: exit 3" 3 env PATH=/nonexistent "$G" plot "$T/a2nogp"; then
    check "attack2: no gnuplot: one line on stderr, saying gnuplot is missing" bash -c \
        '[ "$(wc -l <"$0")" = 1 ] &&
         grep -q "^gmb: error: no figure drawn: gnuplot not found" "$0"' \
        "$T/err"
    check "attack2: no gnuplot: not-drawn.tsv names chase, stream and the summary" bash -c \
        '[ "$(grep -c "	gnuplot not found" "$0")" = 3 ] && grep -q "^chase	" "$0" &&
         grep -q "^stream	" "$0" && grep -q "^hierarchy	" "$0"' "$T/a2nogp/figures/not-drawn.tsv"
    check "attack2: no gnuplot: no figure" bash -c '! ls "$0"/*.png "$0"/*.svg 2>/dev/null' \
        "$T/a2nogp/figures"
fi

# gmb plot on a full disk (a 200 KiB tmpfs, filled, where this machine lets us mount one):
# every "cannot write" names errno's reason, and no empty not-drawn.tsv claims all was drawn
A2M="$T/a2full"
mkdir -p "$A2M"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=200k tmpfs "$A2M" 2>/dev/null; then
    mkdir -p "$A2M/figs"
    printf 'old\tan earlier list\n' >"$A2M/figs/not-drawn.tsv"
    dd if=/dev/zero of="$A2M/fill" bs=4k 2>/dev/null
    if expect "attack2: plot on a full disk: exit 3" 3 "$G" plot "$A2_H" --out "$A2M/figs"; then
        check "attack2: full disk: each 'cannot write' says why" bash -c \
            '[ "$(grep -c "cannot write" "$0")" -ge 2 ] &&
             ! grep "cannot write" "$0" | grep -qv ": No space left on device$"' "$T/err"
        check "attack2: full disk: the data file's line names it and the reason" grep -q \
            "^gmb: error: cannot write $A2M/figs/data/stream-r1-s1.csv: No space left on device$" \
            "$T/err"
        check "attack2: full disk: no not-drawn.tsv (neither empty nor the earlier one)" \
            test ! -e "$A2M/figs/not-drawn.tsv"
        check "attack2: full disk: no temporary left" bash -c \
            '[ "$(ls -A "$0")" = data ] && [ -z "$(ls -A "$0/data")" ]' "$A2M/figs"
    fi
    umount "$A2M"
else
    skip "$TAG attack2: full disk: cannot mount a tmpfs here (needs root and the right to mount)"
fi

# gmb report on a run whose run.json is a FIFO (or too big to be a manifest): refused at
# once, one line, exit 2, never waiting for a writer; a FIFO at figures/not-drawn.tsv: noted
mkdir -p "$T/a2fifo"
cp "$A2_H"/*.json "$A2_H"/*.csv "$T/a2fifo/"
rm -f "$T/a2fifo/run.json"
mkfifo "$T/a2fifo/run.json"
if expect "attack2: report with a FIFO run.json: exit 2, at once" 2 timeout 10 "$G" report \
    "$T/a2fifo" --out -; then
    check "attack2: FIFO run.json: one line naming it a FIFO" bash -c \
        '[ "$(wc -l <"$0")" = 1 ] && grep -q "run.json: not a regular file (a FIFO)" "$0"' "$T/err"
fi
rm -f "$T/a2fifo/run.json"
truncate -s 17M "$T/a2fifo/run.json"
if expect "attack2: report with a 17 MiB run.json: exit 2" 2 timeout 10 "$G" report \
    "$T/a2fifo" --out -; then
    check "attack2: 17 MiB run.json: one line saying it is too big" bash -c \
        '[ "$(wc -l <"$0")" = 1 ] && grep -q "run.json: 17825792 bytes, more than" "$0"' "$T/err"
fi
cp "$A2_H/run.json" "$T/a2fifo/run.json"
mkdir -p "$T/a2fifo/figures"
mkfifo "$T/a2fifo/figures/not-drawn.tsv"
if expect "attack2: report with a FIFO not-drawn.tsv: exit 0, at once" 0 timeout 10 "$G" report \
    "$T/a2fifo" --out -; then
    check "attack2: FIFO not-drawn.tsv: noted, not read" grep -q \
        "^gmb: note: .*not-drawn.tsv: not a regular file (a FIFO): not read$" "$T/err"
    check "attack2: FIFO not-drawn.tsv: the report is whole" grep -q "^## " "$T/out"
fi

# gmb compare prints record text on a terminal: an ESC, CR, LF (or a C1 CSI) in the device
# name and the string params of every point reach stdout and stderr as spaces, no line forged
mkdir -p "$T/a2cc/D"
cp "$A2_H"/*-stream.json "$A2_H"/*-stream.csv "$T/a2cc/D/"
/usr/bin/python3 - "$T/a2cc/D" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*.json"):
    r = json.load(open(f))
    r["device"]["name"] = "\u001b[31mred\u001b[0m\r\nINJECTED line\u009b2J"
    for p in r["points"]:
        for k, v in list(p.get("params", {}).items()):
            if isinstance(v, str):
                p["params"][k] = v + "\u001b[1m\nINJECTED"
    json.dump(r, open(f, "w"))
PY
if expect "attack2: compare of records with control characters" 0 "$G" compare "$T/a2cc/D" \
    "$T/a2cc/D"; then
    check "attack2: compare: no control byte (but LF) on stdout or stderr" /usr/bin/python3 -c '
import sys
b = open(sys.argv[1], "rb").read() + open(sys.argv[2], "rb").read()
sys.exit(any(c < 0x20 and c != 10 or c == 0x7f for c in b) or b"\xc2\x9b" in b)' "$T/out" "$T/err"
    check "attack2: compare: no line forged (the injected text only inside A:, B: and stream \
rows)" \
        bash -c '[ "$(grep -c INJECTED "$0")" -ge 3 ] &&
                 ! grep INJECTED "$0" | grep -qv "^\(A\|B\): \|^stream "' \
        "$T/out"
    check "attack2: compare: the text is kept, as spaces" \
        grep -q "^A:  \[31mred \[0m  INJECTED line  2J" "$T/out"
fi

# HTML and Markdown markup in a record (device name, a program's name in run.json) reaches
# report.md and gmb table's Markdown escaped: no live tag, image or link of the record's
mkdir -p "$T/a2md/D"
cp "$A2_H/run.json" "$A2_H"/*-stream.json "$A2_H"/*-stream.csv "$T/a2md/D/"
/usr/bin/python3 - "$T/a2md/D" <<'PY'
import glob, json, sys
evil = ("<script>alert(1)</script><img src=x onerror=alert(2)> ![t](http://evil.example/track.png)"
        " [l](http://evil.example/) `code` *em* _u_ \\[x](http://evil.example/b) & |")
for f in glob.glob(sys.argv[1] + "/*.json"):
    r = json.load(open(f))
    r["device"]["name"] = evil
    for p in r.get("programs", []):
        p["status"] = p.get("status", "") + " <b>bold</b>"
    json.dump(r, open(f, "w"))
PY
# a check of Markdown that stays markup: a raw tag, or ](http not after a backslash escape
A2_MD_CHECK='import re, sys
t = open(sys.argv[1]).read()
bad = [m for m in ("<script", "<img", "<b>") if m in t]
bad += re.findall(r"(?<!\\)\]\(http", t) + re.findall(r"(?<!\\)!\[t", t)
print(bad) if bad else None
sys.exit(1 if bad else 0)'
if expect "attack2: report of records with markup" 0 "$G" report "$T/a2md/D" --out -; then
    check "attack2: report: no live tag, image or link from a record" \
        /usr/bin/python3 -c "$A2_MD_CHECK" "$T/out"
    # the record's markup as report.md writes it, escaped
    A2_ESC='&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; '
    A2_ESC+='\!\[t\](http://evil.example/track.png) \[l\](http://evil.example/) \`code\` '
    A2_ESC+='\*em\* \_u\_ \\\[x\](http://evil.example/b) &amp; \|'
    check "attack2: report: the text is kept, escaped" grep -qF "$A2_ESC" "$T/out"
    check "attack2: report: gmb's own markup kept (headings, the table)" bash -c \
        'grep -q "^## Table" "$0" && grep -q "^| Program | Status |" "$0"' "$T/out"
fi
if expect "attack2: table --format md of records with markup" 0 "$G" table "$T/a2md/D" \
    --format md; then
    check "attack2: table md: no live tag, image or link from a record" \
        /usr/bin/python3 -c "$A2_MD_CHECK" "$T/out"
    check "attack2: table md: the device name escaped in its column" grep -qF '&lt;script&gt;' \
        "$T/out"
fi
