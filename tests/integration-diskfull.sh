# integration-diskfull.sh - gmb run on a disk that fills up (a 1 MiB tmpfs, where this machine
# lets us mount one): once run.json cannot be written the suite says so with the reason and
# starts no further program, instead of measuring each in full to fail at its record.
MNT="$T/full"
mkdir -p "$MNT"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$MNT" 2>/dev/null; then
    mkdir -p "$T/fbin"
    cp "$G" "$T/fbin/gmb"
    ln -s "$PWD/$BIN/gmb-bank" "$T/fbin/gmb-bank"
    # a first program that fills the disk (and, like a program, does nothing with --help)
    cat >"$T/fbin/gmb-aaa" <<'SH'
#!/bin/sh
case "$*" in *--help*) exit 0 ;; esac
while [ $# -gt 0 ]; do [ "$1" = --out ] && d=$2; shift; done
dd if=/dev/zero of="$d/fill" bs=64k 2>/dev/null
exit 0
SH
    chmod +x "$T/fbin/gmb-aaa"
    GMB_PLOTS="$PWD/plots" expect "diskfull: gmb run on a disk that fills: exit 3" 3 \
        "$T/fbin/gmb" run --backend opencl --results "$MNT" --only aaa,bank
    check "diskfull: says run.json cannot be written, and why, once, and stops" bash -c \
        "[ \$(grep -c 'cannot write .*run.json (No space left on device): no further program \
is started' '$T/err') = 1 ]"
    check "diskfull: says the manifest on disk is not the run's end state" grep -q \
        "cannot write .*run.json (No space left on device): its last state on disk is older \
than this run's end" "$T/err"
    check "diskfull: bank is never started" bash -c \
        "! grep -q 'bank: running' '$T/err' && [ ! -e \$(ls -d '$MNT'/*/*)/bank.log ]"
    check "diskfull: the last line says the suite stopped, the rest not run" grep -q \
        "^gmb: stopped in .*: 1 ok, 0 skipped, 0 failed, the rest not run (run.json could not \
be written)" "$T/err"
    umount "$MNT"
else
    skip "$TAG diskfull: cannot mount a tmpfs here (needs root and the right to mount)"
fi
