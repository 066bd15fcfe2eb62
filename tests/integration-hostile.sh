# integration-hostile.sh - records are untrusted input: a device name that carries a line
# feed, a Markdown row, control characters and an escape sequence must stay one cell of
# gmb table (md, tex, csv) and of gmb report, and never add a row.
H="results/nvidia-h200/20261130T232558Z"
R="$T/hostile-run"
mkdir -p "$R"
cp "$H"/*.json "$R"/
/usr/bin/python3 - "$R" <<'PY'
import glob, json, sys
evil = "Evil\n| injected | row |\nX\r\x1b[2J\x07\x7f end"
for f in glob.glob(sys.argv[1] + "/*.json"):
    r = json.load(open(f))
    if isinstance(r.get("device"), dict):
        r["device"]["name"] = evil
    json.dump(r, open(f, "w"))
PY
if expect "hostile: gmb table --format md" 0 "$G" table "$R"; then
    check "hostile: md table: no injected row" bash -c "! grep -q '^| injected' '$T/out'"
    check "hostile: md table: every row has the header's cells" bash -c \
        "awk -F' [|] ' '/^\\| [^-]/ {print NF}' '$T/out' | sort -u | wc -l | grep -qx 1"
    check "hostile: md table: no control character" \
        bash -c "! grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' '$T/out'"
    check "hostile: md table: the name is one escaped cell" \
        grep -qF 'Evil \| injected \| row \| X' "$T/out"
fi
if expect "hostile: gmb table --format tex" 0 "$G" table "$R" --format tex; then
    check "hostile: tex table: the name on one line, no control character" bash -c \
        "grep -q 'Evil | injected | row | X' '$T/out' &&
         ! grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' '$T/out'"
fi
if expect "hostile: gmb table --format csv" 0 "$G" table "$R" --format csv; then
    check "hostile: csv table: the name reads back whole as one field" /usr/bin/python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
assert any('| injected | row |' in c for c in rows[0]), rows[0]
assert len({len(r) for r in rows}) == 1" "$T/out"
fi
if expect "hostile: gmb report" 0 "$G" report "$R" --out -; then
    check "hostile: report: no injected row, no control character" bash -c \
        "! grep -q '^| injected' '$T/out' && ! grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' '$T/out'"
fi

# gmb table --out FILE and gmb report --out FILE: a link planted at FILE is replaced, never
# followed (its target keeps its content), and the file is 0666 less the umask
echo "victim" >"$T/victim"
for cmd in table report; do
    ln -sf "$T/victim" "$T/planted-$cmd"
    if expect "hostile: gmb $cmd --out a planted link" 0 "$G" "$cmd" "$R" \
        --out "$T/planted-$cmd"; then
        check "hostile: gmb $cmd --out: the link's target untouched" \
            test "$(cat "$T/victim")" = victim
        check "hostile: gmb $cmd --out: a regular file now, mode 644 under umask 022" bash -c \
            "[ -f '$T/planted-$cmd' ] && [ ! -L '$T/planted-$cmd' ] &&
             [ \$(stat -c %a '$T/planted-$cmd') = 644 ]"
    fi
done
expect "hostile: gmb table --out into a missing directory: exit 3" 3 "$G" table "$R" \
    --out "$T/no/such/t.md"
check "hostile: gmb table --out into a missing directory: one line, no temporary left" bash -c \
    "[ \$(wc -l <'$T/err') = 1 ] && ! ls '$T'/no 2>/dev/null"
