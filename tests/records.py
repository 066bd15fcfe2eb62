#!/usr/bin/env python3
"""records.py - named predicates on gmb records, for the integration tests.

    records.py NAME RECORD [ARG...]

runs predicate NAME on the record file RECORD and exits 0 when it holds, 1 when it does not
(one line on stderr says what was found), 2 on a bad call. A value ARG of the form KEY=VALUE
reads VALUE as JSON where it parses (4, true, "x") and as text otherwise. `records.py list`
names the predicates. The tests call it through lib.sh's `rec NAME RECORD ARG...`.
"""
import csv
import json
import re
import sys

PREDICATES = {}


def predicate(fn):
    """Register fn under its name (dashes for underscores)."""
    PREDICATES[fn.__name__.replace("_", "-")] = fn
    return fn


def on_files(fn):
    """Register fn as a predicate on files as they are (gmb's printed tables, CSV, text): it
    gets the path of its first file, not a parsed record."""
    fn.on_files = True
    return predicate(fn)


def value(text):
    """A command-line value: JSON where it parses, else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def pairs(args):
    """KEY=VALUE arguments as a dict (values as value() reads them)."""
    out = {}
    for a in args:
        key, sep, val = a.partition("=")
        if not sep:
            raise SystemExit(f"records.py: '{a}' is not KEY=VALUE")
        out[key] = value(val)
    return out


def figures(r):
    """The record's headline figures, by label."""
    return {f["label"]: f for f in r.get("headlines", {}).get("figures", [])}


def figure(r, label):
    f = figures(r).get(label)
    if f is None:
        fail(f"no figure '{label}'")
    return f


def points_of(r, fig):
    return [r["points"][i] for i in fig["points"]]


class Fail(Exception):
    pass


def fail(why):
    raise Fail(why)


def need(ok, why):
    if not ok:
        fail(why)


def get(obj, path):
    """The value at dotted PATH of obj (a number indexes a list); KeyError where none."""
    for k in path.split(".") if path else []:
        obj = obj[int(k)] if isinstance(obj, list) else obj[k]
    return obj


def matches(p, filters):
    """Whether point (or item) p has every PATH=VALUE of filters (a dict; a key ending in '!'
    is PATH!=VALUE: another value, or none; one ending in '?' is PATH?=true|false: whether p
    has PATH at all; one ending in '~' is PATH~=TEXT: a text containing TEXT)."""
    for k, v in filters.items():
        if k.endswith("~"):
            try:
                got = get(p, k[:-1])
            except (KeyError, IndexError, TypeError):
                return False
            if not (isinstance(got, str) and str(v) in got):
                return False
            continue
        if k.endswith("?"):
            try:
                get(p, k[:-1])
                has = True
            except (KeyError, IndexError, TypeError):
                has = False
            if has != v:
                return False
            continue
        neg = k.endswith("!")
        try:
            got = get(p, k[:-1] if neg else k)
        except (KeyError, IndexError, TypeError):
            if neg:
                continue
            return False
        if (got == v) == neg:
            return False
    return True


# ---- any record ---------------------------------------------------------------------------


@predicate
def fields(r, *args):
    """Each PATH=VALUE (or PATH!=, PATH?=, PATH~=, as points' filters): the record's value at
    dotted PATH is VALUE."""
    for k, v in pairs(args).items():
        if not matches(r, {k: v}):
            try:
                got = repr(get(r, k.rstrip("!?~")))
            except (KeyError, IndexError, TypeError):
                got = "absent"
            fail(f"{k} is {got}, not {v!r}")


@predicate
def field_startswith(r, path, prefix):
    """The text at dotted PATH starts with PREFIX."""
    got = get(r, path)
    need(isinstance(got, str) and got.startswith(prefix), f"{path} is {got!r}")


@predicate
def points_count(r, n, *args):
    """N points have every PATH=VALUE (paths within a point: params.mode, extra.verified)."""
    want = pairs(args)
    got = sum(matches(p, want) for p in r["points"])
    need(got == int(n), f"{got} points with {want}")


@predicate
def points_distinct(r, n, *paths):
    """The points hold N distinct tuples of the values at PATH..."""
    got = len({tuple(json.dumps(get(p, k)) for k in paths) for p in r["points"]})
    need(got == int(n), f"{got} distinct {paths}")


@predicate
def point_value(r, path, val, *args):
    """The one point with every PATH=VALUE of ARG... has VAL at PATH."""
    want = pairs(args)
    pts = [p for p in r["points"] if matches(p, want)]
    need(len(pts) == 1, f"{len(pts)} points with {want}")
    got = get(pts[0], path)
    need(got == value(val), f"{path} is {got!r}")


@predicate
def items_with(r, path, n, *keys):
    """N items of the array at PATH hold every KEY."""
    got = sum(all(k in it for k in keys) for it in get(r, path))
    need(got == int(n), f"{got} items of {path} with {keys}")


@predicate
def points_tuples(r, paths, want, *args):
    """The points with every PATH=VALUE (or PATH!=VALUE) of ARG... hold, sorted, exactly the
    tuples WANT (a JSON list of lists) of the values at the comma-separated PATHS."""
    ks, filt = paths.split(","), pairs(args)
    got = sorted([get(p, k) for k in ks] for p in r["points"] if matches(p, filt))
    need(got == sorted(json.loads(want)), f"{paths}: {json.dumps(got)}")


@predicate
def points_set(r, path, want, *args):
    """The values at PATH of the points with every PATH=VALUE (or !=) of ARG... are, as a set,
    exactly WANT (a JSON list; PATH comma-separated paths: lists of their values)."""
    filt, ks = pairs(args), path.split(",")
    one = len(ks) == 1
    got = {json.dumps(get(p, ks[0]) if one else [get(p, k) for k in ks])
           for p in r["points"] if matches(p, filt)}
    need(got == {json.dumps(v) for v in json.loads(want)}, f"{path}: {sorted(got)}")


@predicate
def metric_names(r, *names):
    """The metrics the points carry are, all together, exactly NAME..."""
    got = sorted({m for p in r["points"] for m in p["metrics"]})
    need(got == sorted(names), f"metrics {got}")


@predicate
def points_positive(r, path, *args):
    """Every point with every PATH=VALUE of ARG... has a number above 0 at PATH."""
    filt = pairs(args)
    for p in r["points"]:
        if matches(p, filt):
            v = get(p, path)
            need(isinstance(v, (int, float)) and v > 0, f"{path} is {v!r} at {p['params']}")


@predicate
def items_count(r, path, n, *args):
    """N items of the array at PATH have every PATH=VALUE (!=, ?=, ~=) of ARG..."""
    filt = pairs(args)
    got = sum(matches(it, filt) for it in get(r, path))
    need(got == int(n), f"{got} items of {path} with {filt}")


@predicate
def items_set(r, path, key, want, *args):
    """The values at KEY of the items at PATH with every PATH=VALUE of ARG... are, as a set,
    exactly WANT (a JSON list)."""
    filt = pairs(args)
    got = {json.dumps(get(it, key)) for it in get(r, path) if matches(it, filt)}
    need(got == {json.dumps(v) for v in json.loads(want)}, f"{path} {key}: {sorted(got)}")


@predicate
def point_above(r, path, i, j, factor):
    """Point I's value at PATH is over FACTOR times point J's."""
    a, b = get(r["points"][int(i)], path), get(r["points"][int(j)], path)
    need(a > float(factor) * b, f"{a} against {b}")


@predicate
def points_list(r, paths, want, *args):
    """In record order, the values at PATHS (comma-separated: lists of them) of the points with
    every PATH=VALUE (!=, ?=, ~=) of ARG... are WANT (a JSON list)."""
    ks, filt = paths.split(","), pairs(args)
    got = [get(p, ks[0]) if len(ks) == 1 else [get(p, k) for k in ks]
           for p in r["points"] if matches(p, filt)]
    need(got == json.loads(want), f"{paths}: {json.dumps(got)}")


# ---- headline figures ---------------------------------------------------------------------


@predicate
def headlines_version(r, n):
    """The record's headlines have version N."""
    got = r.get("headlines", {}).get("version")
    need(got == int(n), f"version {got}")


@predicate
def figure_labels(r, *labels):
    """The figures are exactly LABEL..."""
    got = sorted(figures(r))
    need(got == sorted(labels), f"figures {got}")


@predicate
def figure_unit(r, unit, *labels):
    """Each figure LABEL... is in UNIT."""
    for label in labels:
        got = figure(r, label)["unit"]
        need(got == unit, f"'{label}' in {got}")


@predicate
def every_figure_noted(r, note):
    """Every figure carries NOTE."""
    bare = [k for k, f in figures(r).items() if note not in f["notes"]]
    need(not bare, f"without {note}: {bare}")


@predicate
def figure_noted(r, label, note):
    """Figure LABEL carries NOTE."""
    need(note in figure(r, label)["notes"], f"'{label}' notes {figure(r, label)['notes']}")


@predicate
def figure_text(r, label, *texts):
    """Figure LABEL is a text: one of TEXT..., or one starting with a TEXT ending in '*'."""
    t = figure(r, label).get("text")
    ok = t is not None and any(t == x or (x.endswith("*") and t.startswith(x[:-1]))
                               for x in texts)
    need(ok, f"'{label}' text {t!r}")


@predicate
def figure_text_is_result(r, label, key):
    """Figure LABEL is the text of results.KEY."""
    t, want = figure(r, label).get("text"), r["results"].get(key)
    need(t == want, f"'{label}' text {t!r}, results.{key} {want!r}")


@predicate
def figure_on(r, label, *args):
    """Figure LABEL rests on one point or more, each with the params KEY=VALUE..."""
    want, pts = pairs(args), points_of(r, figure(r, label))
    need(pts, f"'{label}' rests on no point")
    for p in pts:
        bad = {k: p["params"].get(k) for k, v in want.items() if p["params"].get(k) != v}
        need(not bad, f"'{label}' rests on a point with {bad}")


@predicate
def figure_on_one(r, label, *args):
    """As figure-on, and on exactly one point."""
    n = len(figure(r, label)["points"])
    need(n == 1, f"'{label}' rests on {n} points")
    figure_on(r, label, *args)


@predicate
def figure_is_median(r, label, metric):
    """Figure LABEL's value is the median of METRIC of the one point it rests on."""
    f = figure(r, label)
    pts = points_of(r, f)
    need(len(pts) == 1, f"'{label}' rests on {len(pts)} points")
    got = pts[0]["metrics"][metric]["median"]
    need(got == f["value"], f"'{label}' is {f['value']}, the point's {metric} {got}")


@predicate
def figure_on_sizes(r, label, *sizes):
    """Figure LABEL rests on points of exactly the sizes SIZE... (params.size_bytes)."""
    got = sorted(p["params"]["size_bytes"] for p in points_of(r, figure(r, label)))
    need(got == sorted(int(s) for s in sizes), f"'{label}' rests on sizes {got}")


@predicate
def figure_on_max(r, label, metric, *args):
    """Figure LABEL rests on the one point of the most METRIC among those with KEY=VALUE..."""
    want = pairs(args)
    cands = [p for p in r["points"] if all(p["params"].get(k) == v for k, v in want.items())]
    need(cands, f"no point with {want}")
    top = max(p["metrics"][metric]["median"] for p in cands)
    got = [p["metrics"][metric]["median"] for p in points_of(r, figure(r, label))]
    need(got == [top], f"'{label}' rests on {got}, the most is {top}")


@predicate
def figure_checked(r, label):
    """Figure LABEL is a measurement of a cross-check quantity (it has a check)."""
    need("check" in figure(r, label), f"'{label}' has no check")


@predicate
def figure_unchecked(r, label):
    """Figure LABEL is no cross-check's measurement (no check)."""
    need("check" not in figure(r, label), f"'{label}' has a check")


@predicate
def checks_are_values(r, scaled_label="", scale="1"):
    """Every check's value is its figure's (SCALED_LABEL's: SCALE times it)."""
    for k, f in figures(r).items():
        if "check" in f:
            want = f["value"] * (float(scale) if k == scaled_label else 1)
            need(f["check"]["value"] == want, f"'{k}' check {f['check']['value']}, want {want}")


@predicate
def figure_on_if_there(r, label, *args):
    """As figure-on where the record has figure LABEL (a fit may not find what it rests on)."""
    if label in figures(r):
        figure_on(r, label, *args)


@predicate
def figure_param_values(r, label, key, *values):
    """The points figure LABEL rests on have params KEY of exactly VALUE... (sorted)."""
    got = sorted(str(p["params"].get(key)) for p in points_of(r, figure(r, label)))
    need(got == sorted(values), f"'{label}' rests on {key} {got}")


# ---- gmb's printed outputs: devices, tables, CSV, compare (integration-tools.sh) --------------


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


@predicate
def devices_json(r, *keys):
    """gmb devices --json: a non-empty array, every object of which has every KEY."""
    need(isinstance(r, list) and r, f"not a non-empty array: {str(r)[:80]}")
    for o in r:
        need(all(k in o for k in keys), f"{o.get('name')}: lacks {[k for k in keys if k not in o]}")


@predicate
def empty_array(r):
    """The JSON is an empty array."""
    need(r == [], f"not []: {str(r)[:80]}")


@predicate
def csv_is_record(r, path, metric):
    """A record's CSV at PATH (RFC 4180) has the header and a row per point, each as wide as
    the header, its METRIC column the point's median (within 1e-5 of it)."""
    rows = csv_rows(path)
    h = rows[0]
    k = h.index(metric)
    need(len(rows) == len(r["points"]) + 1, f"{len(rows)} rows for {len(r['points'])} points")
    need(all(len(x) == len(h) for x in rows), "a row not the header's width")
    for x, p in zip(rows[1:], r["points"]):
        m = p["metrics"][metric]["median"]
        need(abs(float(x[k]) - m) <= 1e-5 * m, f"{x[k]} against {m}")


@on_files
def table_csv_whole(path, head, *labels):
    """gmb table --format csv: every row as wide as the header, no CR (rows end in LF), the
    first run's column head (the third) starting with HEAD, some row's label one of LABEL..."""
    rows = csv_rows(path)
    need(rows[0][2].startswith(head), f"head {rows[0][2]!r}")
    need(any(x[0] in labels for x in rows), f"no row of {labels}")
    need(all(len(x) == len(rows[0]) for x in rows), "a row not the header's width")
    with open(path, "rb") as f:
        need(f.read().count(b"\r") == 0, "a CR")


@on_files
def compare_headline_first(path, row):
    """gmb compare: its headline before 'every metric of every point', with a row starting
    with ROW."""
    t = open(path).read()
    h, f = t.find("headline"), t.find("every metric of every point")
    need(0 < h < f, f"headline at {h}, the full rows at {f}")
    need("\n" + row + " " in t[h:f], f"no headline row {row!r}")


@on_files
def compare_rows_whole(path, ncols):
    """gmb compare: every full row (past 'every metric of every point' and its two heading
    lines, before the last line) has at least NCOLS columns (apart by two spaces or more),
    and there is one or more."""
    rows = open(path).read().split("every metric of every point")[1].splitlines()[2:-1]
    need(rows, "no full row")
    for x in rows:
        n = len(re.split(r"  +", x.strip()))
        need(n >= int(ncols), f"{n} columns: {x!r}")


@on_files
def table_md_rows_selected(path):
    """gmb table --rows 'Read bandwidth,2,dram latency' of the H200 and a PoCL run: exactly
    Memory size (row 2), Read bandwidth, the DRAM latency rows (twice the pointer chase's, any
    of the index chase's, nothing else) and the random-read block size (DRAM), in order."""
    rows = [x.split(" | ")[0][2:] for x in open(path)
            if x.startswith("| ") and not x.startswith("| Metric")]
    dram = [x for x in rows if x.startswith("DRAM latency")]
    want = ["Memory size", "Read bandwidth"] + dram \
        + ["Block size for full random-read bandwidth (DRAM)"]
    need(rows == want, f"rows {rows}")
    need(dram.count("DRAM latency (pointer chase)") == 2
         and all(x in ("DRAM latency (pointer chase)", "DRAM latency (index chase)")
                 for x in dram), f"DRAM rows {dram}")


@on_files
def table_levels_csv(path, full, *first):
    """gmb table --levels --format csv: the columns level, measured_by, metric, unit first;
    every row in GB/s, measured by a gmb- program; the first levels FIRST..., a host-to-device
    link; each row's values those of its metric's row in the full table's CSV FULL."""
    lv, fl = csv_rows(path), csv_rows(full)
    byrow = {x[0]: x[2:] for x in fl[1:]}
    names = [x[0] for x in lv[1:]]
    need(lv[0][:4] == ["level", "measured_by", "metric", "unit"], f"header {lv[0][:4]}")
    need(all(x[3] == "GB/s" and x[1].startswith("gmb-") for x in lv[1:]), "a unit or program")
    need(names[:len(first)] == list(first) and "Host link, host to device" in names,
         f"levels {names}")
    for x in lv[1:]:
        need(byrow.get(x[2]) == x[4:], f"{x[0]}: {x[4:]}, the full table {byrow.get(x[2])}")


@on_files
def table_levels_split_l2(path):
    """gmb table --levels --format csv of a split L2 (the H200 run, its l2 record given read
    plateaus L2 near 9000 [8900, 9100] and L2 far 6000 [5900, 6150] GB/s): one row each, far
    right after near, both before DRAM, with their CIs, measured by gmb-l2 read (far: its
    second L2 plateau)."""
    lv = csv_rows(path)
    names = [x[0] for x in lv[1:]]
    near = [x for x in lv if x[0] == "L2 near"]
    far = [x for x in lv if x[0] == "L2 far"]
    need(len(near) == 1 and len(far) == 1, f"levels {names}")
    need(names.index("L2 near") + 1 == names.index("L2 far") < names.index("DRAM (memory)"),
         f"levels {names}")
    need(near[0][4:7] == ["9000", "8900", "9100"] and far[0][4:7] == ["6000", "5900", "6150"],
         f"near {near[0][4:7]}, far {far[0][4:7]}")
    need(near[0][1].startswith("gmb-l2 read") and "second L2 plateau" in far[0][1],
         f"by {near[0][1]!r}, {far[0][1]!r}")


@on_files
def report_levels_section(path):
    """gmb report: the section Bandwidth by level between the Table and the Cross-checks, with
    the DRAM row of gmb-stream read."""
    t = open(path).read()
    a, b, c = t.find("## Table"), t.find("## Bandwidth by level"), t.find("## Cross-checks")
    need(0 < a < b < c, f"sections at {a}, {b}, {c}")
    need("| DRAM (memory) | gmb-stream read" in t[b:c], "no DRAM row of gmb-stream read")


# ---- programs' own figures ----------------------------------------------------------------


@predicate
def l2_cache_plateau_figure(r):
    """gmb-l2: a cache plateau figure where its read fit found one, resting on the read points
    of the plateau's extent (the first of results.bandwidth.read.levels)."""
    b = r["results"]["bandwidth"]["read"]
    f = figures(r).get("Cache plateau bandwidth, read (L2 on a GPU)")
    need((f is None) == ("cache_GBps" not in b), f"figure {f is not None}, fit {'cache_GBps' in b}")
    if f:
        lv, pts = b["levels"][0], points_of(r, f)
        need([p["params"]["part"] for p in pts] == ["read"] * lv["points"]
             and pts[0]["params"]["size_bytes"] == lv["from_bytes"],
             f"rests on {[(p['params']['part'], p['params']['size_bytes']) for p in pts]}")


@predicate
def l2_memory_checked_iff_reached(r):
    """gmb-l2: its memory plateau is a memory read bandwidth (a check) where its sweep reached
    memory, and only there."""
    f = figures(r).get("Memory plateau bandwidth, read")
    if f:
        reached = r["results"]["bandwidth"]["read"]["memory_reached"]
        need(("check" in f) == reached, f"check {'check' in f}, memory reached {reached}")


@predicate
def chase_level1_figure(r, label):
    """gmb-chase: figure LABEL where the random global curve's first level is 'level 1', and
    only there, resting on that curve's points within the level's sizes."""
    curve = [c for c in r["results"]["levels"] if c["mode"] == "random"
             and c["space"] == "global"][0]
    lv = (curve["levels"] + [None])[0]
    f = figures(r).get(label)
    named = lv is not None and lv["name"] == "level 1"
    need((f is not None) == named, f"figure {f is not None}, level 1 {named}")
    if f:
        want = sorted(p["params"]["size_bytes"] for p in r["points"]
                      if p["params"]["mode"] == "random" and p["params"]["space"] == "global"
                      and lv["size_lo_bytes"] <= p["params"]["size_bytes"] <= lv["capacity_bytes"])
        got = sorted(p["params"]["size_bytes"] for p in points_of(r, f))
        need(got == want, f"rests on sizes {got}, the level's {want}")


def atomic_limit(p):
    """gmb-atomic: the most sharers of point p: the grid (global) or the group (shared)."""
    return p["params"]["work_items"] if p["params"]["scope"] == "global" else \
        p["extra"]["group_size"]


@predicate
def atomic_sharers_capped(r, *asked):
    """gmb-atomic: each curve (scope, op, spacing) has the sharers ASKED... (a number, or
    'all' for 1 << 40) capped to the grid or group, each once; past the first spacing (4 B)
    not the one address."""
    want_in = [1 << 40 if a == "all" else int(a) for a in asked]
    for p in r["points"]:
        key = (p["params"]["scope"], p["params"]["op"], p["params"]["spacing_bytes"])
        got = sorted(q["params"]["sharers"] for q in r["points"]
                     if (q["params"]["scope"], q["params"]["op"], q["params"]["spacing_bytes"])
                     == key)
        lim = atomic_limit(p)
        want = sorted({m for m in (min(x, lim) for x in want_in)
                       if p["params"]["spacing_bytes"] == 4 or m < lim})
        need(got == want, f"{key}: sharers {got}, want {want}")


@predicate
def atomic_all_is_one_address(r):
    """gmb-atomic: params.all marks exactly the points whose sharers are the grid / group."""
    for p in r["points"]:
        need(p["params"]["all"] == (p["params"]["sharers"] == atomic_limit(p)),
             f"all {p['params']['all']} at sharers {p['params']['sharers']}")


@predicate
def atomic_capped_said(r):
    """gmb-atomic: a shared point says its sharers were capped exactly where the group is
    under 1024 and it is the one-address point, naming the group size."""
    for p in r["points"]:
        if p["params"]["scope"] != "shared":
            continue
        x, capped = p["extra"], p["extra"].get("sharers_capped")
        need(("sharers_capped" in x) == (x["group_size"] < 1024 and p["params"]["all"]),
             f"sharers_capped {capped!r} at group {x['group_size']}")
        need(not capped or capped.endswith(f"capped to the group size {x['group_size']}"),
             f"sharers_capped {capped!r}")


@predicate
def atomic_counters(r):
    """gmb-atomic: counters per point: global ceil(items / sharers), shared groups x
    (group / sharers)."""
    for p in r["points"]:
        pa, x = p["params"], p["extra"]
        want = -(-pa["work_items"] // pa["sharers"]) if pa["scope"] == "global" else \
            x["groups"] * (x["group_size"] // pa["sharers"])
        need(x["counters"] == want, f"{x['counters']} counters, want {want}")


@predicate
def atomic_verified(r):
    """gmb-atomic: every point verified after every launch (more launches than samples), none
    failed."""
    for p in r["points"]:
        x = p["extra"]
        need(x["verified"] == "full" and x["launches_failed"] == 0
             and x["launches_verified"] > p["time_ns"]["n"],
             f"verified {x['verified']}, {x['launches_failed']} failed, "
             f"{x['launches_verified']} verified of {p['time_ns']['n']} samples")


@predicate
def atomic_rates(r):
    """gmb-atomic: iters a multiple of 4 (>= 4); atomics_Gops = items x iters / median time;
    ns_per_update_address = median time / (sharers x iters); shared memory for the counters
    (none for global points)."""
    for p in r["points"]:
        pa, x, t = p["params"], p["extra"], p["time_ns"]["median"]
        g = p["metrics"]["atomics_Gops"]["median"]
        u = p["metrics"]["ns_per_update_address"]["median"]
        need(pa["iters"] % 4 == 0 and pa["iters"] >= 4, f"iters {pa['iters']}")
        need(0 < g and abs(g - pa["work_items"] * pa["iters"] / t) < 1e-6 * g, f"Gop/s {g}")
        need(abs(u - t / (pa["sharers"] * pa["iters"])) < 1e-6 * u, f"ns per update {u}")
        want = (x["group_size"] // pa["sharers"] - 1) * pa["spacing_bytes"] + 4 \
            if pa["scope"] == "shared" else 0
        need(x["shared_bytes"] == want, f"shared_bytes {x['shared_bytes']}, want {want}")


@predicate
def atomic_contention(r, *keys):
    """gmb-atomic: results.contention has exactly KEY... (scope_op), each at spacing 4 with
    distinct_over_one = distinct / one address and a positive time per update."""
    c = r["results"]["contention"]
    ok = sorted(k for k, v in c.items()
                if abs(v["distinct_over_one"] - v["distinct_Gops"] / v["one_address_Gops"])
                < 1e-9 * v["distinct_over_one"] and v["spacing_bytes"] == 4
                and v["one_address_ns_per_update"] > 0)
    need(ok == sorted(keys), f"contention entries that hold: {ok}")


@predicate
def atomic_grid(r, group, per_cu):
    """gmb-atomic: every point's grid is PER_CU groups a compute unit of GROUP work-items."""
    cu = r["device"]["compute_units"]
    for p in r["points"]:
        x = p["extra"]
        need(x["group_size"] == int(group) and x["groups"] == int(per_cu) * cu
             and p["params"]["work_items"] == x["groups"] * x["group_size"],
             f"{x['groups']} groups of {x['group_size']}, {p['params']['work_items']} items")


@predicate
def loaded_curve(r, most):
    """gmb-loaded: its levels from 0 to MOST streaming groups, each once, ascending; every point
    verified in full; bandwidth exactly where there are streamers; coverage and groups started
    within the groups, none stopped on the chaser's SM (OpenCL); positive latencies."""
    g = [p["params"]["load_groups"] for p in r["points"]]
    need(g == sorted(set(g)) and g[0] == 0 and g[-1] == int(most), f"levels {g}")
    for p in r["points"]:
        n, x, bw = p["params"]["load_groups"], p["extra"], p["metrics"]["bw_GBps"]["median"]
        need(x["verified"] == "full", f"{n} groups: verified {x['verified']}")
        need((bw == 0) == (n == 0) and bw >= 0, f"{n} groups: {bw} GB/s")
        need(0 <= x["groups_covering"] <= n and 0 <= x["groups_started"] <= n,
             f"{n} groups: {x['groups_covering']} covering, {x['groups_started']} started")
        need(x["groups_on_chaser_sm"] == 0 and x["samples_capped"] >= 0,
             f"{n} groups: {x['groups_on_chaser_sm']} on the chaser's SM")
        need(p["metrics"]["lat_ns"]["median"] > 0, f"{n} groups: latency")


@predicate
def loaded_results(r, key="loaded"):
    """gmb-loaded: results.KEY's most bandwidth is the largest point's, its knee the first
    level within 3% of it, its most groups the last level."""
    res = r["results"][key]
    traffic = "write" if key == "loaded_write" else "read"
    pts = [p for p in r["points"] if p["params"].get("traffic", "read") == traffic]
    bw = [p["metrics"]["bw_GBps"]["median"] for p in pts]
    need(abs(res["max_bw_GBps"] - max(bw)) < 1e-9, f"most {res['max_bw_GBps']}, points {max(bw)}")
    knee = [p["params"]["load_groups"] for p, b in zip(pts, bw) if b >= 0.97 * res["max_bw_GBps"]]
    need(knee[0] == res["knee"]["load_groups"], f"knee {res['knee']['load_groups']}, {knee}")
    need(res["most_groups"]["load_groups"] == pts[-1]["params"]["load_groups"],
         f"most groups {res['most_groups']['load_groups']}")


@predicate
def keys(r, path, *names):
    """The object at dotted PATH has exactly the keys NAME..."""
    got = sorted(get(r, path))
    need(got == sorted(names), f"{path} keys {got}")


@predicate
def text_contains(r, path, part):
    """The text at dotted PATH contains PART."""
    got = get(r, path)
    need(isinstance(got, str) and part in got, f"{path} is {got!r}")


@predicate
def l2_coldwarm(r, *sizes):
    """gmb-l2: cold/warm entries for exactly SIZE..., positive times, the ratio cold / warm,
    the empty launch beside each pair and launch_dominated where a sample is under 10 of it."""
    cw = r["results"]["coldwarm"]["sizes"]
    need([c["size_bytes"] for c in cw] == [int(x) for x in sizes],
         f"sizes {[c['size_bytes'] for c in cw]}")
    for c in cw:
        need(c["cold_ns"] > 0 and c["warm_ns"] > 0
             and abs(c["cold_over_warm"] - c["cold_ns"] / c["warm_ns"]) < 1e-9,
             f"{c['size_bytes']}: cold {c['cold_ns']}, warm {c['warm_ns']}")
        need(c["empty_launch_ns"] > 0 and c["launch_dominated"] ==
             (min(c["warm_sample_ns"], c["cold_sample_ns"]) < 10 * c["empty_launch_ns"]),
             f"{c['size_bytes']}: empty launch {c['empty_launch_ns']}")


@predicate
def l2_plateaus(r):
    """gmb-l2: a fitted read or write curve lists its plateaus, the first the cache one, the
    last the memory one, each numbered (a CPU), in order of sizes, within its CI."""
    import re
    for k, b in r["results"]["bandwidth"].items():
        if k == "l1" or b["verdict"] != "plateaus":
            continue
        lv = b["levels"]
        need(len(lv) == b["plateaus"] and lv[0]["GBps"] == b["cache_GBps"]
             and lv[-1]["GBps"] == b["memory_GBps"], f"{k}: {len(lv)} levels")
        for l in lv:
            need(re.fullmatch("level [0-9]+|memory", l["name"]) and l["from_bytes"] <= l["to_bytes"]
                 and (l["ci"] is None or l["ci"][0] <= l["GBps"] <= l["ci"][1]), f"{k}: {l}")


@predicate
def l2_l1_levels(r):
    """gmb-l2 l1: no clear level, or a first level numbered 1 faster than the last numbered one,
    each within its CI, the first ending before the last begins."""
    b = r["results"]["bandwidth"]["l1"]
    if b["verdict"] == "no clear level":
        return
    f, l = b["first"], b["last"]
    need(f["name"] == "level 1" and l["name"].startswith("level "), f"{f['name']}, {l['name']}")
    need(f["ci"][0] <= f["GBps"] <= f["ci"][1] and l["ci"][0] <= l["GBps"] <= l["ci"][1],
         "a level outside its CI")
    need(f["GBps"] > l["GBps"] and f["capacity_bytes"] < l["from_bytes"], f"{f} before {l}")


@predicate
def l2_l1_bytes(r):
    """gmb-l2 l1: each point's rate x its median time is groups x passes x set bytes."""
    for p in r["points"]:
        pa = p["params"]
        got = p["metrics"]["bw_GBps"]["median"] * p["time_ns"]["median"]
        want = pa["groups"] * pa["reps"] * pa["size_bytes"]
        need(abs(got / want - 1) < 1e-6, f"{pa['size_bytes']}: {got} B, want {want}")


@predicate
def chase_warmup(r, stride):
    """gmb-chase: each point warms up with a whole traversal of up to 4096 elements, 1024 where
    its lines (of STRIDE bytes) outgrow the LLC; its timed loads at least twice that."""
    llc = r["device"]["llc_bytes"]
    for p in r["points"]:
        n, x = p["params"]["size_bytes"] // int(stride), p["extra"]
        want = min(n, 1024) if llc and n * int(stride) > llc else min(n, 4096)
        need(x["loads_warmup"] == want and x["loads_timed"] >= 2 * x["loads_warmup"],
             f"{n} elements: {x['loads_warmup']} warm-up, {x['loads_timed']} timed loads")


@predicate
def chase_generic_names(r):
    """gmb-chase: every level of every curve is numbered or 'memory' (a CPU's)."""
    for c in r["results"]["levels"]:
        for l in c["levels"]:
            need(l["name"].startswith("level ") or l["name"] == "memory", f"level {l['name']}")


@predicate
def copy_sm_bidir_split(r, n):
    """gmb-copy: N SM bidir points, each one split kernel (one stream) whose per-direction
    figure is half the sum, none with per-direction rates of its own."""
    pts = [p for p in r["points"] if p["params"]["direction"] == "bidir"
           and p["params"]["engine"] == "sm"]
    need(len(pts) == int(n), f"{len(pts)} SM bidir points")
    for p in pts:
        m = p["metrics"]
        need(p["params"]["sm_bidir"] == "split" and p["params"]["streams"] == 1
             and abs(m["per_direction_GBps"]["median"] * 2 / m["bw_GBps"]["median"] - 1) < 1e-9
             and "h2d_bw_GBps" not in m, f"{p['params']}")


@predicate
def copy_sm_one_pass(r):
    """gmb-copy: an SM copy's grid is one pass of 16-byte work-items in groups of 256."""
    for p in r["points"]:
        pa = p["params"]
        if pa["engine"] == "sm":
            need(pa["groups"] == -(-pa["size_bytes"] // 16 // 256), f"{pa}")


@predicate
def samples_kept(r):
    """Every point keeps its raw samples: as many as its time statistics count."""
    for p in r["points"]:
        need(len(p["samples_ns"]) == p["time_ns"]["n"],
             f"{len(p['samples_ns'])} samples of {p['time_ns']['n']} at {p['params']}")


@predicate
def pct_is_bw(r):
    """gmb-stream --peak-bw 100: each point's % of peak is its GB/s."""
    for p in r["points"]:
        pct, bw = p["metrics"]["pct_peak"]["median"], p["metrics"]["bw_GBps"]["median"]
        need(abs(pct - bw) < 1e-6 * bw, f"{pct} % at {bw} GB/s")


@predicate
def clocks_steady(r, sm_mhz):
    """Every point has NVML clocks at SM_MHZ, none capped, each under 5 s, all counted."""
    for p in r["points"]:
        k = p["clocks"]
        need(k["sm_MHz"] == int(sm_mhz) and k["capped_share"] == 0 and k["power_capped_ms"] == 0
             and 0 < k["wall_s"] < 5, f"clocks {k}")
    d = r["clocks"]["during"]
    need(d["points_clocked"] == len(r["points"]) and d["points_capped"] == 0, f"during {d}")


@predicate
def clocks_capped_half(r, n):
    """N points each power-capped about half of their time (none thermal), all counted."""
    for p in r["points"]:
        k = p["clocks"]
        need(0.3 < k["capped_share"] < 0.7 and k["thermal_capped_ms"] == 0
             and abs(k["power_capped_ms"] - k["capped_share"] * k["wall_s"] * 1e3) < 1e-6,
             f"clocks {k}")
    d = r["clocks"]["during"]
    need(d["points_capped"] == len(r["points"]) == int(n), f"{len(r['points'])} points, {d}")


@predicate
def access_reads(r):
    """gmb-access: each point's reads as its pattern makes them (stride: the words from its
    offset at its stride; random: every word of the buffer's whole blocks), its bandwidth
    4 B a read / median time, an odd number of passes a launch."""
    for p in r["points"]:
        pa = p["params"]
        want = pa["size_bytes"] // pa["block_bytes"] * (pa["block_bytes"] // 4) \
            if pa["pattern"] == "random" else \
            (pa["size_bytes"] - pa["offset_bytes"]) // pa["stride_bytes"]
        need(pa["reads"] == want, f"{pa}: {pa['reads']} reads, want {want}")
        bw = p["metrics"]["bw_GBps"]["median"]
        need(abs(bw - 4 * pa["reads"] * pa["reps"] / p["time_ns"]["median"]) < 1e-6 * bw,
             f"{pa}: {bw} GB/s")
        need(pa["reps"] % 2 == 1, f"{pa}: {pa['reps']} passes")


# ---- gmb-access and the harness (integration-access.sh, integration-harness.sh) -------------


# ---- gmb-stream, gmb-atomic, gmb-copy, gmb-loaded (their integration files) -----------------


# ---- gmb-um, gmb-l2, gmb-chase, the tools and the rest (their integration files) ------------


# ---- the record's facts -------------------------------------------------------------------


@predicate
def llc_within(r, nbytes, factor):
    """The device's last-level cache is known and FACTOR times it is at most NBYTES."""
    llc = r["device"].get("llc_bytes", 0)
    need(0 < llc and llc * float(factor) <= int(nbytes), f"LLC {llc} B")


def main(argv):
    if len(argv) == 2 and argv[1] == "list":
        for name, fn in sorted(PREDICATES.items()):
            print(f"{name:24s} {fn.__doc__}")
        return 0
    if len(argv) < 3 or argv[1] not in PREDICATES:
        print("usage: records.py NAME RECORD [ARG...] (records.py list)", file=sys.stderr)
        return 2
    fn = PREDICATES[argv[1]]
    try:
        r = argv[2] if getattr(fn, "on_files", False) else json.load(open(argv[2]))
        fn(r, *argv[3:])
    except Fail as e:
        print(f"records.py {argv[1]}: {e}", file=sys.stderr)
        return 1
    except (KeyError, IndexError, TypeError, ValueError, OSError) as e:
        print(f"records.py {argv[1]}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
