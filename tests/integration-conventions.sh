# integration-conventions.sh - what users expect of every program: --version, a man page made
# from its own help that man renders, a record on standard output with --out -, and
# make install / make uninstall that put and take away exactly those files.
for p in $(ls bench); do
    X="$PWD/$BIN/gmb-$p"
    if expect "gmb-$p --version" 0 "$X" --version; then
        check "gmb-$p --version names program, version and commit" \
            grep -qE "^gmb-$p [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-f]{7,}" "$T/out"
    fi
    if expect "gmb-$p --man" 0 "$X" --man; then
        cp "$T/out" "$T/$p.1"
        check "gmb-$p --man: a man page of this program" grep -q "^\.TH GMB\\\\-${p^^} 1" "$T/$p.1"
        # every option --help shows is in the page, and no hidden one
        opts=$("$X" --help | sed -nE 's/^  --([a-z0-9-]+).*/\1/p' | sort -u)
        mopts=$(sed -nE 's/^\.B \\-\\-([a-z0-9\\-]+).*/\1/p' "$T/$p.1" | sed 's/\\-/-/g' | sort -u)
        check "gmb-$p man page lists the options of --help ($(echo "$opts" | wc -l))" \
            test "$opts" = "$mopts"
        # man renders it, with no warning from groff (bad escapes, a line read as a macro)
        MANWIDTH=100 man --warnings -l "$T/$p.1" >"$T/man.txt" 2>"$T/man.err"
        check "man -l renders gmb-$p(1) without warnings" \
            bash -c "[ ! -s '$T/man.err' ] && grep -q '^NAME' '$T/man.txt' &&
                grep -q 'EXIT STATUS' '$T/man.txt'"
        if [ "$TAG" = normal ]; then
            check "build/man/gmb-$p.1 is the program's own page" cmp -s "$T/$p.1" \
                "build/man/gmb-$p.1"
        fi
    fi
done

# gmb(1): every subcommand of the help table and every program, rendered without warnings
if expect "gmb --man" 0 "$G" --man; then
    cp "$T/out" "$T/gmb.1"
    MANWIDTH=100 man --warnings -l "$T/gmb.1" >"$T/man.txt" 2>"$T/man.err"
    check "man -l renders gmb(1) without warnings" \
        bash -c "[ ! -s '$T/man.err' ] && grep -q '^COMMANDS' '$T/man.txt'"
    for c in list devices run plot table report compare; do
        check "gmb(1) documents gmb $c and its options as gmb $c --help does" bash -c \
            "grep -q '^   $c\$' '$T/man.txt' &&
             for o in \$('$G' $c --help | sed -nE 's/^  (--[a-z-]+).*/\1/p'); do
                grep -q -- \"\$o\" '$T/man.txt' || exit 1; done"
    done
    check "gmb(1) names every program's page" bash -c \
        "for p in \$(ls bench); do grep -q \"gmb-\$p(1)\" '$T/man.txt' || exit 1; done"
    [ "$TAG" = normal ] && check "build/man/gmb.1 is gmb's own page" cmp -s "$T/gmb.1" \
        build/man/gmb.1
fi
expect "gmb --version" 0 "$G" --version &&
    check "gmb --version names version and commit" grep -qE \
        "^gmb [0-9]+\.[0-9]+\.[0-9]+ \(git " "$T/out"

if have_opencl; then
    # --out -: the record alone on standard output, valid, and no directory named '-'
    S="$PWD/$BIN/gmb-stream"
    (cd "$T" && "$S" "${FAST[@]}" --sizes 64KiB --kernels copy,dot --out - >"$T/rec.json" \
        2>"$T/rec.err")
    rc=$?
    check "stream --out -: exit 0" test "$rc" = 0
    check "stream --out -: standard output is one valid record" "$VALIDATE" "$SCHEMA" "$T/rec.json"
    check "stream --out -: the record holds both kernels' points" \
        rec points-set "$T/rec.json" params.kernel '["copy", "dot"]'
    check "stream --out -: the point rows went to standard error" grep -q "^copy " "$T/rec.err"
    check "stream --out -: no directory named '-' made" test ! -e "$T/-"
    check "stream --out -: no results directory made" test ! -e "$T/results"
    expect "stream --out - --no-record: usage error" 2 "$S" "${FAST[@]}" --out - --no-record
    check "stream --out - --no-record: says why in one line" \
        bash -c "[ \$(wc -l <'$T/err') = 1 ] && grep -q 'no-record' '$T/err'"
    # a failed verification still writes its record, to standard output too
    "$S" "${FAST[@]}" --sizes 64KiB --kernels copy --inject-error --out - >"$T/bad.json" 2>/dev/null
    rc=$?
    check "stream --out - --inject-error: exit 1, the record says verification_failed" \
        bash -c "[ $rc = 1 ] && /usr/bin/python3 '$PWD/tests/records.py' fields '$T/bad.json' \
            status=verification_failed"
fi

if [ "$TAG" = normal ]; then
    # make install puts the programs, plots and man pages under DESTDIR/PREFIX; uninstall
    # removes exactly those and leaves what else is there
    D="$T/dest"
    mkdir -p "$D/usr/bin" && echo keep >"$D/usr/bin/other"
    if make --no-print-directory -s install DESTDIR="$D" PREFIX=/usr >"$T/inst.log" 2>&1; then
        pass "$TAG make install"
        check "make install: every program and its man page" bash -c \
            "for p in gmb \$(ls bench | sed 's/^/gmb-/'); do
            [ -x '$D'/usr/bin/\$p ] || exit 1; done; for p in \$(ls bench); do
            [ -f '$D'/usr/share/man/man1/gmb-\$p.1 ] || exit 1; done"
        check "make install: the plots and profiles" test -f "$D/usr/share/gmb/plots/profiles.conf"
        check "make install: man finds an installed page" \
            bash -c "MANPATH='$D/usr/share/man' man -w gmb-stream | grep -q 'man1/gmb-stream.1'"
        make --no-print-directory -s uninstall DESTDIR="$D" PREFIX=/usr >>"$T/inst.log" 2>&1
        check "make uninstall removes every installed file" \
            test "$(find "$D" -type f | sed "s|^$D||")" = /usr/bin/other
    else
        fail "$TAG make install: $(tail -1 "$T/inst.log")"
    fi
fi

# option spelling: a flag given a value says so in plain text (no control byte from getopt's
# optopt); a hidden test aid is never reached by an abbreviation; a visible one still is
S="$PWD/$BIN/gmb-stream"
expect "stream --quiet=1: usage error" 2 "$S" --quiet=1
check "stream --quiet=1: says the flag takes no value, in printable text" bash -c \
    "grep -qx \"gmb-stream: error: option '--quiet' takes no value (see --help)\" '$T/err' &&
     ! grep -qP '[\\x00-\\x08\\x0e-\\x1f\\x7f-\\xff]' '$T/err'"
expect "stream --inj (an abbreviation of the hidden --inject-error): usage error" 2 "$S" --inj
check "stream --inj: unknown option, the aid not named" grep -qx \
    "gmb-stream: error: unknown option '--inj' (see --help)" "$T/err"
expect "stream --inject-err=x: usage error" 2 "$S" --inject-err=x
expect "stream --vers (an abbreviation of the visible --version) still works" 0 "$S" --vers

# a bad --out is found before the device is opened, not after the measurement: nothing is
# measured (no point row), one line says why, and a good new path is still made only later
if have_opencl; then
    touch "$T/afile"
    long="$T/$(printf 'd%.0s' $(seq 3900))"
    for c in "a file:2:$T/afile" "below a file:2:$T/afile/sub" "empty:2:" "too long:2:$long"; do
        what=${c%%:*} rest=${c#*:} want=${rest%%:*} dir=${rest#*:}
        expect "stream --out $what: exit $want" "$want" "$S" "${FAST[@]}" --sizes 4KiB:1MiB:x4 \
            --kernels copy --out "$dir"
        check "stream --out $what: nothing measured, one line why" bash -c \
            "[ ! -s '$T/out' ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q -- '--out' '$T/err'"
    done
    check "stream --out too long: no directory made" bash -c "! ls -d '$T'/ddd* 2>/dev/null"
    expect "stream --out a new deep path: made, the record in it" 0 "$S" "${FAST[@]}" --sizes 4KiB \
        --kernels copy --out "$T/new/deep/er"
    check "stream --out a new deep path: the record in it" bash -c \
        "ls '$T'/new/deep/er/*-stream.json >/dev/null"
fi

# gmb run --out: the results root is checked before a device is opened or a directory made (a
# root too long for the run directory and its records, a file in the way, an empty one), and
# the reason is said whole, not cut at PATH_MAX
if have_opencl; then
    long="$T/$(printf 'd%.0s' $(seq 200))/$(printf 'e%.0s' $(seq 200))"
    while [ ${#long} -lt 4200 ]; do long="$long/$(printf 'f%.0s' $(seq 200))"; done
    for c in "too long:$long" "below a file:$T/afile/sub" "empty:"; do
        what=${c%%:*} dir=${c#*:}
        expect "gmb run --out $what: usage error" 2 "$G" run --backend opencl --only stream \
            --out "$dir"
        check "gmb run --out $what: one whole line why, nothing made" bash -c \
            "[ \$(wc -l <'$T/err') = 1 ] && grep -q -- '--out' '$T/err' && [ ! -e '$T/ddd' ] &&
             [ \$(wc -c <'$T/err') -lt 400 ] && grep -qE '(at most [0-9]+|directory).*' '$T/err'"
    done
    check "gmb run --out too long: no directory made" bash -c "! ls -d '$T'/ddd* 2>/dev/null"
fi

# gmb run -- OPTIONS: an option a program refuses stops the suite before anything is made
if have_opencl; then
    expect "gmb run -- --frobnicate: usage error" 2 "$G" run --backend opencl --results "$T/frob" \
        -- --frobnicate
    check "gmb run -- --frobnicate: one line naming the option, no run directory" bash -c \
        "[ \$(wc -l <'$T/err') = 1 ] &&
         grep -q \"refused by gmb-.*unknown option '--frobnicate'\" '$T/err' && [ ! -e '$T/frob' ]"
    expect "gmb run -- --time-cap 0: a value out of range, usage error" 2 "$G" run \
        --backend opencl --results "$T/frob" -- --time-cap 0
    check "gmb run -- --time-cap 0: nothing made" test ! -e "$T/frob"
fi

# the driver's options go through the programs' strict parsers
for v in inf 1e999 0x10 nan; do
    expect "gmb compare --fail-below $v: usage error" 2 "$G" compare "$T" "$T" --fail-below "$v"
    check "gmb compare --fail-below $v: says the option" grep -q -- "--fail-below: '$v'" "$T/err"
done
expect "gmb plot --size 200x150junk: usage error" 2 "$G" plot "$T" --size 200x150junk
expect "gmb list extra: usage error" 2 "$G" list extra
expect "gmb-stream --time-cap 0x1 (hex): usage error" 2 "$PWD/$BIN/gmb-stream" --time-cap 0x1

# gmb run --profiles: a regular file only, refused in one line before anything is made (a FIFO
# hung the suite, /dev/zero filled memory, a directory gave the generic profile silently)
if have_opencl; then
    mkfifo "$T/fifo"
    mkdir -p "$T/pdir"
    for c in "a FIFO:$T/fifo" "/dev/zero:/dev/zero" "a directory:$T/pdir"; do
        expect "gmb run --profiles ${c%%:*}: usage error" 2 timeout 30 "$G" run --backend opencl \
            --results "$T/prof" --profiles "${c#*:}"
        check "gmb run --profiles ${c%%:*}: one line, nothing made" bash -c \
            "[ \$(wc -l <'$T/err') = 1 ] && grep -q 'not a regular file' '$T/err' &&
             [ ! -e '$T/prof' ]"
    done
fi

# gmb run --out -: a run is a directory; '-' is refused in one line, no directory named '-'
(cd "$T" && "$G" run --out - >"$T/out" 2>"$T/err")
rc=$?
check "gmb run --out -: usage error (exit $rc), one line, no directory named '-'" bash -c \
    "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'give a directory' '$T/err' &&
     [ ! -e '$T/-' ]"

# --- the vendor seam: code outside the backends reads traits and text, never a backend's name
check "no backend name compared outside common/backend/" bash -c \
    "! grep -nE 'strn?cmp\\([^;]*\"(cuda|opencl)\"' common/*.[ch] common/*/*.[ch] bench/*/*.c \
    bench/*/*.cu | grep -v '^common/backend/'"
check "the vendor-seam check finds a comparison (a copy with one)" bash -c \
    "printf 'int x = !strcmp(be->name, \"cuda\");\n' | grep -qE 'strn?cmp\\([^;]*\"(cuda|opencl)\"'"

# --- tests read like tests: record checks are named predicates (tests/records.py), every line
# of the tests within 100 columns
cols100() { # FILE...: the lines past 100 characters, FILE:LINE: LENGTH each
    /usr/bin/python3 -c 'import sys
for f in sys.argv[1:]:
    for i, l in enumerate(open(f, encoding="utf-8"), 1):
        if len(l.rstrip("\n")) > 100:
            print(f"{f}:{i}: {len(l.rstrip())}")' "$@"
}
check "every line of tests/*.sh and tests/*.py within 100 columns" \
    test -z "$(cols100 tests/*.sh tests/*.py)"
check "the column check finds a long line (a copy with one)" bash -c \
    "printf '%0101d\n' 0 >'$T/long.sh' && $(declare -f cols100)
     test -n \"\$(cols100 '$T/long.sh')\""
check "no check compares a record's inline Python (test \"\$(json ...)\"): a predicate instead" \
    bash -c "! grep -nE 'test \"\\\$\\(json ' tests/integration-*.sh"
check "the inline-Python check finds one (a copy with one)" bash -c \
    "printf '%s\n' 'check \"x\" test \"\$(json \"\$rec\" \"r[1]\")\" = 1' |
     grep -qE 'test \"\\\$\\(json '"
check "records.py names every predicate once, each with its doc" bash -c \
    "/usr/bin/python3 tests/records.py list >/dev/null &&
     ! /usr/bin/python3 tests/records.py list | grep -q ' None$'"
