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
import math
import re
import statistics
import sys

PREDICATES = {}


def predicate(fn):
    """Register fn under its name (dashes for underscores); a name registered twice is an
    error (the second would silently replace the first)."""
    name = fn.__name__.replace("_", "-")
    if name in PREDICATES:
        raise SystemExit(f"records.py: predicate '{name}' defined twice")
    PREDICATES[name] = fn
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


@on_files
def plot_levels_data(path, levels):
    """gmb plot's hierarchy-bw data of one run (PATH): the levels of its gmb table --levels
    --format csv (LEVELS), each once in that order named by its level (a comma as a colon),
    its first row's value and CI (a missing bound: the value), then the nominal peak."""
    lv = csv_rows(levels)[1:]
    want, seen = [], set()
    for x in lv:
        if x[0] not in seen and x[4]:
            seen.add(x[0])
            want.append([x[0].replace(",", ":")] + [float(x[k] or x[4]) for k in (4, 5, 6)])
    got = [[x[0]] + [float(v) for v in x[1:4]] for x in csv_rows(path)
           if not x[0].startswith("#")]
    need(len(got) == len(want) + 1 and got[-1][0] == "nominal peak", f"rows {[g[0] for g in got]}")
    for g, w in zip(got, want):
        need(g[0] == w[0] and all(abs(a - b) <= 1e-4 * abs(b) for a, b in zip(g[1:], w[1:])),
             f"{g} against the level view's {w}")


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
def copy_peer_copies(r, peer, nsizes):
    """gmb-copy p2p on OpenCL: to peer PEER and back on the copy engine, NSIZES points each
    way, every one verified with a bandwidth; the peer named with how the copies move (a
    migration, then the destination's copy); the SM engine skipped with its reason, never a
    point; results.peer_copy names the peer both ways."""
    kind = f"peer{peer}"
    for d in ("p2p", "p2p_rev"):
        pts = [p for p in r["points"] if p["params"]["direction"] == d]
        need(len(pts) == int(nsizes), f"{len(pts)} {d} points")
        for p in pts:
            pa, m = p["params"], p["metrics"]
            need(pa["kind"] == kind and pa["engine"] == "ce", f"{pa}")
            need(p["extra"]["verified"] in ("full", "sampled"), f"{d}: {p['extra']['verified']}")
            need(m["bw_GBps"]["median"] > 0, f"{d}: bw {m['bw_GBps']['median']}")
        pc = r["results"]["peer_copy"][f"{d}_ce"]
        need(pc["fastest_peer"] == int(peer) and pc["peers"] == 1, f"peer_copy {pc}")
    peers = r["results"]["peers"]
    need(len(peers) == 1 and peers[0]["index"] == int(peer)
         and "clEnqueueMigrateMemObjects" in peers[0]["path"], f"peers {peers}")
    sm = [s for s in r["results"]["skipped"] if s["direction"] == "p2p" and s["engine"] == "sm"]
    need(len(sm) == 1 and "no peer access" in sm[0]["reason"], f"SM skips {sm}")


@on_files
def machine_devices(path, statuses):
    """gmb run --devices: machine.json lists the devices 0, 1, ... in order with these statuses
    (comma-separated); each device that ran names its run directory, whose run.json is that
    device's and whose records it lists exist."""
    import os
    m = json.load(open(path))
    want = statuses.split(",")
    need(m["schema"] == "gmb-machine" and m["schema_version"] == 1, f"schema {m['schema']}")
    devs = m["devices"]
    need([d["status"] for d in devs] == want, f"statuses {[d['status'] for d in devs]}")
    need([d["index"] for d in devs] == list(range(len(want))), "device indices")
    base = os.path.dirname(os.path.abspath(path))
    for d in devs:
        if d["status"] == "not_run":
            need(d.get("run") is None, f"device {d['index']} not run has a run")
            continue
        run = os.path.join(base, d["run"])
        man = json.load(open(os.path.join(run, "run.json")))
        need(man["device"]["index"] == d["index"], f"run.json of {d['run']}")
        for f in d["records"]:
            rec = json.load(open(os.path.join(run, f)))
            need(rec["device"]["index"] == d["index"], f"{f}: device {rec['device']['index']}")


@predicate
def machine_peer_matrix(m, n):
    """gmb run --devices: machine.json's copy-engine peer matrix is N x N, a bandwidth off the
    diagonal, null on it; every peers run complete."""
    n = int(n)
    mat = m["peers"]["matrix"]["ce"]["GBps"]
    need(len(mat) == n and all(len(row) == n for row in mat), f"{mat}")
    for a in range(n):
        for b in range(n):
            v = mat[a][b]
            need(v is None if a == b else (v is not None and v > 0), f"[{a}][{b}] = {v}")
    runs = m["peers"]["runs"]
    need(len(runs) == n and all(r["status"] == "complete" for r in runs), f"peers runs {runs}")


@predicate
def copy_peer_nvlink(r, direct, switched, nominal):
    """gmb-copy p2p with the stand-in NVML: results.peers[0].nvlink has DIRECT links to the
    peer and SWITCHED through an NVSwitch, NOMINAL GB/s per direction, and every p2p point's
    pct_link is its bandwidth against that nominal."""
    nv = r["results"]["peers"][0]["nvlink"]
    need(nv["available"] and nv["source"] == "NVML" and nv["direct_links"] == int(direct)
         and nv["switch_links"] == int(switched) and nv["nominal_GBps"] == float(nominal),
         f"nvlink {nv}")
    pts = [p for p in r["points"] if p["params"]["direction"].startswith("p2p")]
    need(pts, "no p2p point")
    for p in pts:
        m = p["metrics"]
        need(abs(m["pct_link"]["median"] / m["bw_GBps"]["median"] * float(nominal) / 100 - 1)
             < 1e-6, f"pct_link {m['pct_link']['median']} of bw {m['bw_GBps']['median']}")


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


def acc_med(p):
    """A point's median bandwidth (bw_GBps)."""
    return p["metrics"]["bw_GBps"]["median"]


def acc_entries(r, key, n):
    """results.KEY, which must have N entries."""
    es = r["results"][key]
    need(len(es) == int(n), f"{len(es)} entries in results.{key}")
    return es


def acc_confirms(r, m):
    """The confirmation points of misalignment entry m's buffer, in record order."""
    return [p for p in r["points"] if p["params"].get("pass") == "confirm"
            and p["params"]["size_bytes"] == m["size_bytes"]]


def acc_sweep_offsets(r, m):
    """The sweep's offset points (no pass) of misalignment entry m's buffer."""
    return [p for p in r["points"] if p["params"]["pattern"] == "offset"
            and "pass" not in p["params"] and p["params"]["size_bytes"] == m["size_bytes"]]


@predicate
def access_granularity_points(r, *counts):
    """gmb-access: results.granularity's entries, in order, used and left out COUNT... points
    all together (points_used + points_left_out)."""
    got = [g["points_used"] + g["points_left_out"] for g in r["results"]["granularity"]]
    need(got == [int(c) for c in counts], f"points used and left out {got}")


@predicate
def access_granularity_verdicts(r, n):
    """gmb-access: results.granularity has N entries, each of verdict 'granularity' or
    'none'."""
    for g in acc_entries(r, "granularity", n):
        need(g["verdict"] in ("granularity", "none"), f"verdict {g['verdict']!r}")


@predicate
def access_misalignment_sweep(r, n, offsets):
    """gmb-access: results.misalignment has N entries, each with a worst offset among OFFSETS
    (comma-separated), aligned_GBps the median of its buffer's first aligned sweep point, and
    (worst_GBps, worst_offset_bytes) the lowest (median, offset) of its misaligned sweep
    points."""
    offs = [int(o) for o in offsets.split(",")]
    for m in acc_entries(r, "misalignment", n):
        sw = acc_sweep_offsets(r, m)
        aligned = [acc_med(p) for p in sw if p["params"]["offset_bytes"] == 0][0]
        low = sorted((acc_med(p), p["params"]["offset_bytes"]) for p in sw
                     if p["params"]["offset_bytes"])[0]
        need(m["worst_offset_bytes"] in offs and m["aligned_GBps"] == aligned
             and low == (m["worst_GBps"], m["worst_offset_bytes"]),
             f"{m['size_bytes']}: worst {m['worst_offset_bytes']} at {m['worst_GBps']}, "
             f"aligned {m['aligned_GBps']}; the sweep's aligned {aligned}, lowest {low}")


@predicate
def access_confirm_points(r, n):
    """gmb-access: results.misalignment has N entries, each buffer's confirmation points (pass
    confirm) exactly its aligned one, then its worst offset's."""
    for m in acc_entries(r, "misalignment", n):
        got = [p["params"]["offset_bytes"] for p in acc_confirms(r, m)]
        need(got == [0, m["worst_offset_bytes"]],
             f"{m['size_bytes']}: confirmation offsets {got}, worst {m['worst_offset_bytes']}")


@predicate
def access_confirm_interleaved(r, n):
    """gmb-access: no point but a confirmation says how it was measured; results.misalignment
    has N entries, each buffer's two confirmation points (aligned a, worst w) measured
    interleaved, a launch index per sample, at least 2 each, in turn (a, w, a, w, ...) for as
    long as both have samples, the rest of one alone."""
    other = [p["params"] for p in r["points"] if p["params"].get("pass") != "confirm"
             and "measured_with" in p["extra"]]
    need(not other, f"measured_with at {other[:1]}")
    for m in acc_entries(r, "misalignment", n):
        a, w = acc_confirms(r, m)
        ia, iw = a["extra"]["launch_index"], w["extra"]["launch_index"]
        k = min(len(ia), len(iw))
        seq = [q for _, q in sorted([(i, "a") for i in ia] + [(i, "w") for i in iw])]
        need(a["extra"]["measured_with"] == w["extra"]["measured_with"] == "interleaved",
             f"{m['size_bytes']}: measured with {a['extra']['measured_with']!r}, "
             f"{w['extra']['measured_with']!r}")
        need((len(ia), len(iw)) == (len(a["samples_ns"]), len(w["samples_ns"])) and k >= 2,
             f"{m['size_bytes']}: {len(ia)}, {len(iw)} launch indices for "
             f"{len(a['samples_ns'])}, {len(w['samples_ns'])} samples")
        need(seq[:2 * k] == ["a", "w"] * k and len(set(seq[2 * k:])) <= 1,
             f"{m['size_bytes']}: launches in the order {''.join(seq)}")


@predicate
def access_params_unique(r, *leave_out):
    """gmb-access: no two points have the same params, leaving out the keys LEAVE_OUT..."""
    seen = {tuple(sorted((k, v) for k, v in p["params"].items() if k not in leave_out))
            for p in r["points"]}
    need(len(seen) == len(r["points"]), f"{len(seen)} distinct of {len(r['points'])} points")


@predicate
def access_confirm_medians(r, n):
    """gmb-access: results.misalignment has N entries, each confirm's aligned_GBps and
    worst_GBps the medians of its buffer's confirmation points, in that order (the only
    two)."""
    for m in acc_entries(r, "misalignment", n):
        got = [m["confirm"][k + "_GBps"] for k in ("aligned", "worst")]
        want = [acc_med(p) for p in acc_confirms(r, m)]
        need(got == want, f"{m['size_bytes']}: confirm {got}, the points' {want}")


@predicate
def access_sweep_ratio(r, n):
    """gmb-access: results.misalignment has N entries, each sweep_worst_over_aligned
    worst_GBps / aligned_GBps (within 1e-9)."""
    for m in acc_entries(r, "misalignment", n):
        want = m["worst_GBps"] / m["aligned_GBps"]
        need(abs(m["sweep_worst_over_aligned"] - want) < 1e-9,
             f"{m['size_bytes']}: {m['sweep_worst_over_aligned']}, want {want}")


@predicate
def access_confirm_ratio(r, n):
    """gmb-access: results.misalignment has N entries, each worst_over_aligned its confirm's
    worst_GBps / aligned_GBps (within 1e-9)."""
    for m in acc_entries(r, "misalignment", n):
        want = m["confirm"]["worst_GBps"] / m["confirm"]["aligned_GBps"]
        need(abs(m["worst_over_aligned"] - want) < 1e-9,
             f"{m['size_bytes']}: {m['worst_over_aligned']}, want {want}")


@predicate
def access_confirm_significance(r, n):
    """gmb-access: results.misalignment has N entries, each confirm's p_value in [0, 1] and
    significant (a boolean) exactly where p < 0.05 and the two CIs are disjoint."""
    for m in acc_entries(r, "misalignment", n):
        c = m["confirm"]
        want = c["p_value"] < 0.05 and (c["worst_ci_hi_GBps"] < c["aligned_ci_lo_GBps"]
                                        or c["aligned_ci_hi_GBps"] < c["worst_ci_lo_GBps"])
        need(0 <= c["p_value"] <= 1 and c["significant"] is want,
             f"{m['size_bytes']}: p {c['p_value']}, significant {c['significant']!r}")


def acc_mann_whitney(a, b):
    """Two-sided p of the Mann-Whitney U test, normal approximation, tie and continuity
    corrections."""
    import math
    t = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    n, ra, tie, i = len(t), 0.0, 0.0, 0
    while i < n:
        j = i
        while j + 1 < n and t[j + 1][0] == t[i][0]:
            j += 1
        c = j - i + 1
        ra += sum((i + j) / 2 + 1 for q in range(i, j + 1) if t[q][1] == 0)
        tie += c**3 - c
        i = j + 1
    u, mu = ra - len(a) * (len(a) + 1) / 2, len(a) * len(b) / 2
    var = len(a) * len(b) / 12 * (n + 1 - tie / (n * (n - 1)))
    return 1.0 if var <= 0 else math.erfc(max(0, abs(u - mu) - 0.5) / math.sqrt(var)
                                          / math.sqrt(2))


@predicate
def access_confirm_mann_whitney(r, n):
    """gmb-access: results.misalignment has N entries, each confirm's p_value (within 1e-9)
    the Mann-Whitney test of its two confirmation points' sample bandwidths (4 B x reads x
    passes / sample), aligned against worst."""
    def rates(p):
        return [4 * p["params"]["reads"] * p["params"]["reps"] / t for t in p["samples_ns"]]
    for m in acc_entries(r, "misalignment", n):
        a, w = acc_confirms(r, m)
        want = acc_mann_whitney(rates(a), rates(w))
        need(abs(want - m["confirm"]["p_value"]) < 1e-9,
             f"{m['size_bytes']}: p {m['confirm']['p_value']}, the test's {want}")


@predicate
def access_summary_misalignment(r, n):
    """gmb-access: results.misalignment has N entries, the summary giving each one's worst
    offset, its confirmed ratio (a whole percent) and whether it is significant."""
    for m in acc_entries(r, "misalignment", n):
        part = "misaligned by %d B, %.0f%% of the aligned bandwidth (%s, p " % (
            m["worst_offset_bytes"], 100 * m["worst_over_aligned"],
            "significant" if m["confirm"]["significant"] else "not significant")
        need(part in r["results"]["summary"], f"no '{part}' in the summary")


@predicate
def access_random_points(r, want, *sizes):
    """gmb-access: the points' buffers are exactly SIZE..., and each one's random points hold,
    in record order, exactly the (params.placement, params.block_bytes, extra.vector_bytes)
    of WANT (a JSON list of lists)."""
    got = sorted({p["params"]["size_bytes"] for p in r["points"]})
    need(got == sorted(int(s) for s in sizes), f"buffers {got}")
    for s in got:
        tup = [[p["params"]["placement"], p["params"]["block_bytes"], p["extra"]["vector_bytes"]]
               for p in r["points"] if p["params"]["pattern"] == "random"
               and p["params"]["size_bytes"] == s]
        need(tup == json.loads(want), f"{s}: {json.dumps(tup)}")


@predicate
def access_blocks_rate(r, pattern="random"):
    """gmb-access: every PATTERN point's (random: without PATTERN) blocks_G_per_s is its
    bandwidth / its block size (within 1e-9 of it); the record's metric blocks_G_per_s in
    G/s."""
    for p in r["points"]:
        if p["params"]["pattern"] == pattern:
            g = p["metrics"]["blocks_G_per_s"]["median"]
            need(abs(g - acc_med(p) / p["params"]["block_bytes"]) < 1e-9 * g,
                 f"{p['params']}: {g} G/s at {acc_med(p)} GB/s")
    unit = r["metrics"]["blocks_G_per_s"]["unit"]
    need(unit == "G/s", f"blocks_G_per_s in {unit!r}")


@predicate
def access_random_touched(r):
    """gmb-access: every random point's touched_bytes: an in-order one's 4 B x reads; a
    random one's, of nb blocks of B bytes in units u = max(B, 32) (whole sectors), the
    expected bytes of the units nb picks with replacement land in: round(nb B / u u (1 - (1 -
    (u / B) / nb)^nb)), all of them where a unit holds every block."""
    for p in r["points"]:
        pa = p["params"]
        if pa["pattern"] != "random":
            continue
        if pa["placement"] == "in-order":
            want = 4 * pa["reads"]
        else:
            b, nb = pa["block_bytes"], pa["size_bytes"] // pa["block_bytes"]
            u = max(b, 32)
            want = round(nb * b // u * u * (1 - (0 if u // b >= nb else (1 - u // b / nb) ** nb)))
        need(p["extra"]["touched_bytes"] == want,
             f"{pa}: touched {p['extra']['touched_bytes']}, want {want}")


def acc_random_parts(r, pattern, e):
    """The PATTERN points of results entry e's buffer: all, by vector width the in-order
    references, and the random ones."""
    pts = [p for p in r["points"] if p["params"]["pattern"] == pattern
           and p["params"]["size_bytes"] == e["size_bytes"]]
    refs = {p["extra"]["vector_bytes"]: p for p in pts if p["params"]["placement"] == "in-order"}
    return pts, refs, [p for p in pts if p["params"]["placement"] == "random"]


def acc_blocks_hold(e, rnd, refs):
    """Each block of entry e is its random point's (zip order): its median, within its CI, its
    where, its share of its reference width's contiguous median, its blocks a second."""
    for b, p in zip(e["blocks"], rnd):
        m, ref = acc_med(p), acc_med(refs[b["reference_width_bytes"]])
        need(b["bw_GBps"] == m and b["bw_ci_lo_GBps"] <= b["bw_GBps"] <= b["bw_ci_hi_GBps"],
             f"{e['size_bytes']}, {b['block_bytes']} B: {b['bw_GBps']}, the point's {m}")
        need(abs(b["of_contiguous"] - m / ref) < 1e-12
             and abs(b["blocks_G_per_s"] - acc_med(p) / b["block_bytes"]) < 1e-12
             and b["where"] == p["extra"]["where"],
             f"{e['size_bytes']}, {b['block_bytes']} B: {b}")


def acc_where(pts):
    wh = {p["extra"]["where"] for p in pts}
    return wh.pop() if len(wh) == 1 else "mixed"


@predicate
def access_random_results(r, n):
    """gmb-access: results.random has N entries, each of its buffer's random points:
    contiguous_GBps the 16-byte in-order reference's median, stride4_GBps the stride-4
    point's, references the 4 and 16-byte widths' (block, median), its blocks those of the
    random points in order, each with the point's median within its CI, reference width (4 B
    for 4-byte blocks, else 16, the point's vector), share of that reference, blocks a second
    (within 1e-12) and where; where the points' one where or 'mixed'."""
    for e in acc_entries(r, "random", n):
        pts, refs, rnd = acc_random_parts(r, "random", e)
        s4 = [acc_med(p) for p in r["points"] if p["params"]["pattern"] == "stride"
              and p["params"]["size_bytes"] == e["size_bytes"] and p["params"]["stride_bytes"] == 4]
        want_refs = [{"width_bytes": w, "block_bytes": refs[w]["params"]["block_bytes"],
                      "contiguous_GBps": acc_med(refs[w])} for w in (4, 16)]
        need(e["contiguous_GBps"] == acc_med(refs[16]) and e["stride4_GBps"] == s4[0]
             and e["references"] == want_refs,
             f"{e['size_bytes']}: contiguous {e['contiguous_GBps']}, stride 4 "
             f"{e['stride4_GBps']}, references {e['references']}")
        need([b["block_bytes"] for b in e["blocks"]] == [p["params"]["block_bytes"] for p in rnd],
             f"{e['size_bytes']}: blocks {[b['block_bytes'] for b in e['blocks']]}")
        for b, p in zip(e["blocks"], rnd):
            need(b["reference_width_bytes"] == p["extra"]["vector_bytes"]
                 == (4 if b["block_bytes"] == 4 else 16),
                 f"{e['size_bytes']}, {b['block_bytes']} B: width {b['reference_width_bytes']}")
        acc_blocks_hold(e, rnd, refs)
        need(e["where"] == acc_where(pts), f"{e['size_bytes']}: where {e['where']}")


def acc_full_block(e):
    """The first block of entry e that every larger one keeps within 10% of contiguous."""
    bs = e["blocks"]
    return next((bs[i]["block_bytes"] for i in range(len(bs))
                 if all(b["of_contiguous"] >= 0.9 for b in bs[i:])), None)


@predicate
def access_full_bw_block(r, key, n):
    """gmb-access: results.KEY has N entries, each full_bw_block_bytes its first block that
    every larger one keeps at 0.9 of contiguous or more (null where none)."""
    for e in acc_entries(r, key, n):
        need(e["full_bw_block_bytes"] == acc_full_block(e),
             f"{e['size_bytes']}: {e['full_bw_block_bytes']}, want {acc_full_block(e)}")


def acc_share_said(e):
    """What a summary says of entry e's 4-byte blocks' share and its full-bandwidth block."""
    p = 100 * e["blocks"][0]["of_contiguous"]
    share = "(%.1f%% of contiguous)" % p if p < 9.95 else "(%.0f%% of contiguous)" % p
    full = "from %d-byte blocks." % e["full_bw_block_bytes"] if e["full_bw_block_bytes"] \
        else "no block up to 4096 bytes within 10% of contiguous"
    return share, full


@predicate
def access_summary_random(r, n):
    """gmb-access: results.random has N entries, the summary saying 'random 4-byte blocks ' and
    each one's 4-byte share of contiguous (one decimal under 9.95%) and its full-bandwidth
    block (or no block up to 4096 bytes)."""
    s = r["results"]["summary"]
    for e in acc_entries(r, "random", n):
        parts = ("random 4-byte blocks ",) + acc_share_said(e)
        need(all(x in s for x in parts), f"{e['size_bytes']}: not all of {parts} in the summary")


@predicate
def access_random_alone(r, n, blocks):
    """gmb-access: N points, each random and verified in full; the second buffer's
    results.random entry of the blocks BLOCKS (comma-separated), in order."""
    need(len(r["points"]) == int(n), f"{len(r['points'])} points")
    for p in r["points"]:
        need(p["extra"]["verified"] == "full" and p["params"]["pattern"] == "random",
             f"{p['params']} verified {p['extra']['verified']}")
    got = [b["block_bytes"] for b in r["results"]["random"][1]["blocks"]]
    need(got == [int(b) for b in blocks.split(",")], f"blocks {got}")


@predicate
def access_random_no_stride(r, n):
    """gmb-access: results.random has N entries, each without stride4_GBps and with a positive
    contiguous_GBps; results.granularity and results.misalignment empty."""
    for e in acc_entries(r, "random", n):
        need("stride4_GBps" not in e and e["contiguous_GBps"] > 0,
             f"{e['size_bytes']}: stride4 {e.get('stride4_GBps')}, contiguous "
             f"{e['contiguous_GBps']}")
    g, m = r["results"]["granularity"], r["results"]["misalignment"]
    need(g == [] and m == [], f"granularity {g}, misalignment {m}")


@predicate
def access_last_points(r, paths, want, *sizes):
    """gmb-access: for each buffer SIZE..., its last points (as many as WANT has) hold, in
    record order, WANT (a JSON list of lists) of the values at the comma-separated PATHS
    (null where a point has none)."""
    ks, want = paths.split(","), json.loads(want)

    def at(p, k):
        try:
            return get(p, k)
        except (KeyError, IndexError):
            return None
    for s in sizes:
        got = [[at(p, k) for k in ks] for p in r["points"] if p["params"]["size_bytes"] == int(s)]
        got = got[-len(want):]
        need(got == want, f"{s}: {json.dumps(got)}")


@predicate
def access_write_rates(r):
    """gmb-access: every random-write point writes (no reads) the words of the buffer's whole
    blocks, its bandwidth 4 B x writes x passes / median time (within 1e-6), its blocks a
    second bandwidth / block size (within 1e-9)."""
    for p in r["points"]:
        pa = p["params"]
        if pa["pattern"] != "random-write":
            continue
        want = pa["size_bytes"] // pa["block_bytes"] * (pa["block_bytes"] // 4)
        need(pa["writes"] == want and "reads" not in pa, f"{pa}: {pa['writes']}, want {want}")
        bw, g = acc_med(p), p["metrics"]["blocks_G_per_s"]["median"]
        need(abs(bw - 4 * pa["writes"] * pa["reps"] / p["time_ns"]["median"]) < 1e-6 * bw,
             f"{pa}: {bw} GB/s")
        need(abs(g - bw / pa["block_bytes"]) < 1e-9 * g, f"{pa}: {g} G/s")


def acc_hash(seed, i):
    """A port of gmb_hash (32-bit)."""
    m = 0xFFFFFFFF
    x = (i & m) ^ (((i >> 32) * 0x9E3779B9) & m) ^ ((seed * 0x85EBCA6B) & m)
    x ^= x >> 16
    x = (x * 0x7FEB352D) & m
    x ^= x >> 15
    x = (x * 0x846CA68B) & m
    return x ^ (x >> 16)


@predicate
def access_write_words(r, n):
    """gmb-access: N random-write points, each writing the words of the blocks its pass picks
    (every block in order; at random, the distinct blocks of gmb_block_pick's hash at the
    run's seed 1) and keeping every other word of the buffer."""
    key = acc_hash((1 * 2654435761 + 7) & 0xFFFFFFFF, 0x6A09E667)
    pts = [p for p in r["points"] if p["params"]["pattern"] == "random-write"]
    need(len(pts) == int(n), f"{len(pts)} random-write points")
    for p in pts:
        q = p["params"]
        nb, words = q["size_bytes"] // q["block_bytes"], q["block_bytes"] // 4
        picked = nb if q["placement"] == "in-order" else \
            len({(acc_hash(key, b) * nb) >> 32 for b in range(nb)})
        got = (p["extra"]["words_written"], p["extra"]["words_kept"])
        want = (picked * words, q["size_bytes"] // 4 - picked * words)
        need(got == want, f"{q}: written, kept {got}, want {want}")


@predicate
def access_write_results(r, sizes, blocks, n_random):
    """gmb-access: results.random_write has entries of exactly the buffers SIZES
    (comma-separated), in order, each of its buffer's random-write points: contiguous_GBps the
    16-byte in-order reference's median, no stride4_GBps, references of widths 4 and 16, the
    blocks BLOCKS (comma-separated) those of the random points in order, each with the point's
    median within its CI, share of its reference width's median, blocks a second (within
    1e-12) and where; where the points' one where or 'mixed'; full_bw_block_bytes its first
    block every larger one keeps at 0.9 of contiguous; and results.random N_RANDOM entries."""
    es = r["results"]["random_write"]
    got = [e["size_bytes"] for e in es]
    need(got == [int(s) for s in sizes.split(",")], f"random_write buffers {got}")
    for e in es:
        pts, refs, rnd = acc_random_parts(r, "random-write", e)
        need(e["contiguous_GBps"] == acc_med(refs[16]) and "stride4_GBps" not in e
             and [x["width_bytes"] for x in e["references"]] == [4, 16],
             f"{e['size_bytes']}: contiguous {e['contiguous_GBps']}, references "
             f"{e['references']}")
        got = [b["block_bytes"] for b in e["blocks"]]
        need(got == [int(b) for b in blocks.split(",")], f"{e['size_bytes']}: blocks {got}")
        acc_blocks_hold(e, rnd, refs)
        need(e["where"] == acc_where(pts), f"{e['size_bytes']}: where {e['where']}")
        need(e["full_bw_block_bytes"] == acc_full_block(e),
             f"{e['size_bytes']}: full at {e['full_bw_block_bytes']}, want {acc_full_block(e)}")
    got = len(r["results"]["random"])
    need(got == int(n_random), f"{got} entries in results.random")


@predicate
def access_summary_writes(r, n, *names):
    """gmb-access: results.random_write has N entries, the summary saying of each '<name>
    (<where>): random writes of 4-byte blocks ' (NAMES: SIZE=NAME, e.g. 262144='256 KiB'),
    its 4-byte share of contiguous (one decimal under 9.95%) and its full-bandwidth block (or
    no block up to 4096 bytes)."""
    s, name = r["results"]["summary"], pairs(names)
    for e in acc_entries(r, "random_write", n):
        head = "%s (%s): random writes of 4-byte blocks " % (name[str(e["size_bytes"])], e["where"])
        parts = (head,) + acc_share_said(e)
        need(all(x in s for x in parts), f"{e['size_bytes']}: not all of {parts} in the summary")


@predicate
def access_write_words_checked(r, want):
    """gmb-access: the points hold, in record order, WANT (a JSON list of lists): placement,
    writes, words checked (written + kept), and the words kept (in-order) or whether one is
    kept at least (random)."""
    got = [[p["params"]["placement"], p["params"]["writes"],
            p["extra"]["words_written"] + p["extra"]["words_kept"],
            p["extra"]["words_kept"] if p["params"]["placement"] == "in-order"
            else p["extra"]["words_kept"] >= 1] for p in r["points"]]
    need(json.dumps(got) == json.dumps(json.loads(want)), f"{json.dumps(got)}")


@predicate
def access_words_verified(r, n, words):
    """gmb-access: N points, each verified in full and checking WORDS words (written + kept)."""
    got = [(p["extra"]["verified"], p["extra"]["words_written"] + p["extra"]["words_kept"])
           for p in r["points"]]
    need(got == [("full", int(words))] * int(n), f"verified, words {got}")


@predicate
def access_steps_odd(r, n, *args):
    """gmb-access: N points, each of an odd verify_step (with above=M: above M too)."""
    above = pairs(args).get("above")
    got = [p["extra"]["verify_step"] for p in r["points"]]
    need(len(got) == int(n) and all(s % 2 == 1 and (above is None or s > int(above))
                                    for s in got), f"steps {got}")


@predicate
def access_points_list(r, paths, want, *args):
    """gmb-access: as points-list, a path a point lacks reading null: in record order, the
    values at PATHS (comma-separated) of the points with every PATH=VALUE of ARG... are WANT
    (a JSON list of lists)."""
    ks, filt = paths.split(","), pairs(args)

    def at(p, k):
        try:
            return get(p, k)
        except (KeyError, IndexError):
            return None
    got = [[at(p, k) for k in ks] for p in r["points"] if matches(p, filt)]
    need(got == json.loads(want), f"{paths}: {json.dumps(got)}")


@predicate
def access_confirm_failed(r, want):
    """gmb-access: status verification_failed; the offset points hold, in record order, WANT
    (a JSON list of [params.pass or null, params.offset_bytes, extra.verified]); the first
    misalignment entry's confirm null, no worst_over_aligned in it."""
    need(r["status"] == "verification_failed", f"status {r['status']}")
    access_points_list(r, "params.pass,params.offset_bytes,extra.verified", want,
                       "params.pattern=offset")
    m = r["results"]["misalignment"][0]
    need(m["confirm"] is None and "worst_over_aligned" not in m,
         f"confirm {m['confirm']}, worst_over_aligned {m.get('worst_over_aligned')}")


@predicate
def access_random_failed(r, key, want):
    """gmb-access: status verification_failed; the points hold, in record order, WANT (a JSON
    list of [params.placement, extra.verified]); the first entry of results.KEY with a null
    contiguous_GBps and full_bw_block_bytes, its first block no of_contiguous."""
    need(r["status"] == "verification_failed", f"status {r['status']}")
    got = [[p["params"]["placement"], p["extra"]["verified"]] for p in r["points"]]
    need(got == json.loads(want), f"placement, verified: {json.dumps(got)}")
    e = r["results"][key][0]
    need(e["contiguous_GBps"] is None and "of_contiguous" not in e["blocks"][0]
         and e["full_bw_block_bytes"] is None,
         f"contiguous {e['contiguous_GBps']}, full {e['full_bw_block_bytes']}, first block "
         f"{e['blocks'][0]}")


def acc_fmt_num(v):
    """gmb_fmt_num: 4 significant digits, no exponent."""
    import math
    d = min(6, max(0, 3 - math.floor(math.log10(abs(v)))))
    return "%.*f" % (d, v)


@predicate
def access_random_widths(r, widths, blocks):
    """gmb-access: for random and random-write each: its points in record order one in-order
    reference a width of WIDTHS (comma-separated: its block that width), then one random point
    a block of BLOCKS (comma-separated; its vector min(block, 16)), every one verified in
    full; its results entry's contiguous_GBps the 16-byte reference's median, references each
    width's (block, median); each block's share against the reference of its own width
    min(block, 16) (within 1e-12); and the summary saying of its full-bandwidth block 'within
    10% of contiguous, <the reference of its width's median> GB/s) from <B>-byte blocks.'
    (none: 'no block up to <the largest of BLOCKS> bytes ...', the 16-byte reference's)."""
    ws, bs = [int(w) for w in widths.split(",")], [int(b) for b in blocks.split(",")]
    for pat, key in (("random", "random"), ("random-write", "random_write")):
        pts = [p for p in r["points"] if p["params"]["pattern"] == pat]
        refs = {p["extra"]["vector_bytes"]: p for p in pts
                if p["params"]["placement"] == "in-order"}
        e = r["results"][key][0]
        got = [[p["params"]["placement"], p["params"]["block_bytes"], p["extra"]["vector_bytes"],
                p["extra"]["verified"]] for p in pts]
        want = [["in-order", w, w, "full"] for w in ws] + \
            [["random", b, min(b, 16), "full"] for b in bs]
        need(got == want, f"{pat}: {json.dumps(got)}")
        want = [{"width_bytes": w, "block_bytes": w, "contiguous_GBps": acc_med(refs[w])}
                for w in ws]
        need(e["contiguous_GBps"] == acc_med(refs[16]) and e["references"] == want,
             f"{key}: contiguous {e['contiguous_GBps']}, references {e['references']}")
        for b in e["blocks"]:
            w = b["reference_width_bytes"]
            need(w == min(b["block_bytes"], 16)
                 and abs(b["of_contiguous"] - b["bw_GBps"] / acc_med(refs[w])) < 1e-12,
                 f"{key}, {b['block_bytes']} B: {b}")
        full = e["full_bw_block_bytes"]
        ref = refs[min(full, 16)] if full else refs[16]
        said = "within 10%% of contiguous, %s GB/s) from %d-byte blocks." % (
            acc_fmt_num(acc_med(ref)), full) if full else \
            "no block up to %d bytes within 10%% of contiguous (%s GB/s)." % (
                max(bs), acc_fmt_num(acc_med(ref)))
        need(said in r["results"]["summary"], f"{key}: no '{said}' in the summary")


@predicate
def run_programs(r, *args):
    """gmb run: the manifest's programs are, in order, exactly NAME=STATUS..."""
    got = [f"{p['name']}={p['status']}" for p in r["programs"]]
    need(got == list(args), f"programs {' '.join(got)}")


@predicate
def run_program_records(r, i, status, n):
    """gmb run: the manifest's program I (0: the first) ended STATUS with N records."""
    p = r["programs"][int(i)]
    need(p["status"] == status and len(p["records"]) == int(n),
         f"{p['name']}: {p['status']}, records {p['records']}")


@predicate
def run_later_statuses(r, first, *statuses):
    """gmb run: the manifest's programs after the FIRST first ones have, sorted, exactly the
    statuses STATUS..."""
    got = sorted(p["status"] for p in r["programs"][int(first):])
    need(got == sorted(statuses), f"statuses {got}")


@predicate
def run_interrupted_during(r, *names):
    """gmb run: the manifest's status is interrupted, during one of the programs NAME..."""
    need(r["status"] == "interrupted" and r["interrupted"] in names,
         f"status {r['status']}, interrupted during {r['interrupted']!r}")


@predicate
def run_after_program(r, name=None):
    """gmb run: the record's busy_before.after_gmb_program is NAME (without NAME: none, absent
    or null)."""
    got = r["busy_before"].get("after_gmb_program")
    need(got == name, f"after_gmb_program {got!r}")


@predicate
def schema_pct_peak_stats(r):
    """gmb-stream, gmb-loaded (--peak-bw): every point of a positive median bandwidth (one at
    least) has pct_peak, a statistics object (with ci_lo)."""
    pts = [p for p in r["points"] if p["metrics"].get("bw_GBps", {}).get("median", 0) > 0]
    need(pts, "no point of a positive bandwidth")
    for p in pts:
        pct = p["metrics"].get("pct_peak")
        need(isinstance(pct, dict) and "ci_lo" in pct, f"pct_peak {pct!r} at {p['params']}")


@predicate
def schema_pct_peak_is_bw(r):
    """gmb-loaded --peak-bw 100: every point with pct_peak has it its bandwidth (within 1e-6 of
    it)."""
    for p in r["points"]:
        m = p["metrics"]
        if "pct_peak" in m:
            pct, bw = m["pct_peak"]["median"], m["bw_GBps"]["median"]
            need(abs(pct - bw) <= 1e-6 * bw, f"{pct} % at {bw} GB/s")


# ---- gmb-stream, gmb-atomic, gmb-copy, gmb-loaded (their integration files) -----------------


def stream_verified_n(r):
    """gmb-stream: how many points are verified, in full or by sampling."""
    return sum(p["extra"]["verified"] in ("full", "sampled") for p in r["points"])


@predicate
def stream_verified(r, n, *args):
    """gmb-stream: N points verified (in full or sampled), and every point has every
    PATH=VALUE of ARG... (extra.layout=tiled)."""
    got, filt = stream_verified_n(r), pairs(args)
    need(got == int(n), f"{got} points verified")
    for p in r["points"]:
        need(matches(p, filt), f"a point without {filt}: {p['params']}, {p['extra']}")


@predicate
def stream_layouts_by_class(r, elementwise, reduction):
    """gmb-stream: the element-wise kernels' points all have layout ELEMENTWISE, the
    reductions' (read, dot) all REDUCTION, and there are points of both."""
    got = sorted({(p["params"]["kernel"] in ("read", "dot"), p["extra"]["layout"])
                  for p in r["points"]})
    need(got == [(False, elementwise), (True, reduction)], f"(reduction, layout) {got}")


@predicate
def stream_flat_grid(r, j):
    """gmb-stream --flat J: every point's grid is a group a tile of J x 256 elements and
    repeats by launches; some point repeats (reps above 1)."""
    for p in r["points"]:
        pa = p["params"]
        need(pa["groups"] == -(-pa["elements"] // (int(j) * 256))
             and p["extra"]["reps_by"].startswith("launches"),
             f"{pa['elements']} elements: {pa['groups']} groups, by {p['extra']['reps_by']}")
    reps = max(p["params"]["reps"] for p in r["points"])
    need(reps > 1, f"at most {reps} reps")


@predicate
def stream_tuning(r, classes, *kernels):
    """gmb-stream --tune: results.tuning has exactly the kernels KERNEL..., each exactly the
    classes CLASSES (comma-separated: cache,dram), each choice with a candidate or more and a
    layout among grid-stride, tiled, lockstep, flat and dynamic."""
    t = r["results"]["tuning"]
    need(sorted(t) == sorted(kernels), f"kernels {sorted(t)}")
    layouts = ("grid-stride", "tiled", "lockstep", "flat", "dynamic")
    for k, v in t.items():
        need(sorted(v) == sorted(classes.split(",")), f"{k}: classes {sorted(v)}")
        for c, e in v.items():
            need(len(e["candidates"]) >= 1 and e["layout"] in layouts,
                 f"{k} {c}: {len(e['candidates'])} candidates, layout {e['layout']}")


@predicate
def stream_tuned_points(r, kernel, *mib):
    """gmb-stream --tune: the points are, in order, of MIB... MiB (size >> 20), each running
    results.tuning.KERNEL's choice of its class (layout and groups); a point is DRAM-sized
    exactly where it is 1 MiB or more, the LLC is known and 3 x its whole MiB >= 4 x the LLC."""
    llc, t = r["device"]["llc_bytes"], r["results"]["tuning"][kernel]
    got = [p["params"]["size_bytes"] >> 20 for p in r["points"]]
    need(got == [int(m) for m in mib], f"sizes {got} MiB")
    for p in r["points"]:
        size, where = p["params"]["size_bytes"], p["extra"]["where"]
        dram = size >> 20 > 0 and llc > 0 and 3 * (size >> 20 << 20) >= 4 * llc
        need((where == "dram") == dram, f"{size >> 20} MiB: {where}, LLC {llc}")
        c = t["dram" if where == "dram" else "cache"]
        need((p["extra"]["layout"], p["params"]["groups"]) == (c["layout"], c["groups"]),
             f"{size >> 20} MiB: {p['extra']['layout']} x {p['params']['groups']}, "
             f"the choice {c['layout']} x {c['groups']}")


@predicate
def stream_tune_one_pass(r, kernel, size, *layouts):
    """gmb-stream --tune: KERNEL's DRAM-sized candidates with elements a work-item are, as a
    set, exactly LAYOUT:EPI,EPI... (flat:1,4,16), each a one-pass grid over SIZE bytes of
    16-byte elements (groups = ceil(SIZE / 16 / (group size x elements a work-item)))."""
    want = {(lay, int(e), True) for a in layouts for lay, _, es in [a.partition(":")]
            for e in es.split(",")}
    got = {(c["layout"], c["elements_per_item"],
            c["groups"] == -(-int(size) // 16 // (c["group_size"] * c["elements_per_item"])))
           for c in r["results"]["tuning"][kernel]["dram"]["candidates"]
           if c["elements_per_item"]}
    need(got == want, f"(layout, elements, one pass) {sorted(got)}")


@predicate
def stream_tune_flat_groups(r, kernel, *epis):
    """gmb-stream --tune: KERNEL's DRAM-sized flat candidates are, for each EPI (elements a
    work-item), one in groups of 256 and, where the device's groups may be larger, one in
    groups of 1024 (or the device's most)."""
    most = r["device"]["max_group_size"]
    want = sorted([(int(j), 256) for j in epis]
                  + ([(int(j), min(1024, most)) for j in epis] if most > 256 else []))
    got = sorted((c["elements_per_item"], c["group_size"])
                 for c in r["results"]["tuning"][kernel]["dram"]["candidates"]
                 if c["layout"] == "flat")
    need(got == want, f"(elements, group size) {got}, want {want}")


@predicate
def stream_tune_group_size(r, kernel):
    """gmb-stream --tune: KERNEL's DRAM-sized choice has a group size of a candidate of its
    layout and groups, and the one DRAM-sized point runs at it."""
    t = r["results"]["tuning"][kernel]["dram"]
    cands = [c["group_size"] for c in t["candidates"]
             if (c["layout"], c["groups"]) == (t["layout"], t["groups"])]
    need(t["group_size"] in cands, f"group size {t['group_size']}, candidates' {cands}")
    got = [p["params"]["group_size"] for p in r["points"] if p["extra"]["where"] == "dram"]
    need(got == [t["group_size"]], f"DRAM-sized points' group sizes {got}")


@predicate
def stream_energy_counter(r):
    """gmb-stream --energy (the stand-in NVML, 120 W): measured, the counter's step 9 to
    25 ms, the idle power 114 to 126 W."""
    e = r["results"]["energy"]
    need(e["available"] and 9 <= e["counter_step_ms"] <= 25 and 114 <= e["idle_W"] <= 126,
         f"available {e['available']}, step {e['counter_step_ms']} ms, idle {e['idle_W']} W")


@predicate
def stream_energy_kernel(r, kernel, arrays):
    """gmb-stream --energy (the stand-in NVML, 120 W): KERNEL's entry draws 114 to 126 W,
    nothing above the idle power (under 5% of its pJ/bit); its bytes ARRAYS x size x reps x
    launches (one launch or more), its energy pJ/byte x bytes, its bandwidth bytes / device
    seconds, pJ/bit an eighth of pJ/byte; 0.3 s or more, a tail under 50 ms; verified in
    full, not DRAM-sized."""
    e = r["results"]["energy"]["kernels"][kernel]
    need(114 <= e["power_W"] <= 126, f"{e['power_W']} W")
    need(abs(e["energy_J"] - e["pJ_per_byte"] * e["bytes"] * 1e-12) <= 1e-9 * e["energy_J"],
         f"{e['energy_J']} J of {e['bytes']} B at {e['pJ_per_byte']} pJ/B")
    need(e["bytes"] == int(arrays) * e["size_bytes"] * e["reps"] * e["launches"]
         and e["launches"] >= 1,
         f"{e['bytes']} B: {e['size_bytes']} B x {e['reps']} reps x {e['launches']} launches")
    need(abs(e["bw_GBps"] - e["bytes"] / e["device_seconds"] * 1e-9) <= 1e-6 * e["bw_GBps"],
         f"{e['bw_GBps']} GB/s, {e['bytes']} B in {e['device_seconds']} s")
    need(abs(e["pJ_per_bit"] * 8 - e["pJ_per_byte"]) <= 1e-9 * e["pJ_per_byte"],
         f"{e['pJ_per_bit']} pJ/bit, {e['pJ_per_byte']} pJ/B")
    need(e["seconds"] >= 0.3 and 0 <= e["tail_seconds"] < 0.05,
         f"{e['seconds']} s, tail {e['tail_seconds']} s")
    need(e["verified"] == "full" and e["dram"] is False,
         f"verified {e['verified']}, dram {e['dram']}")
    need(abs(e["pJ_per_bit_above_idle"]) < 0.05 * e["pJ_per_bit"],
         f"{e['pJ_per_bit_above_idle']} pJ/bit above idle of {e['pJ_per_bit']}")


@predicate
def stream_energy_idle_after(r):
    """gmb-stream --energy (the stand-in NVML, 120 W): the idle power after the kernels is 114
    to 126 W, the idle power taken linear in time."""
    e = r["results"]["energy"]
    need(114 <= e["idle_after_W"] <= 126 and e["idle"].startswith("linear"),
         f"idle after {e['idle_after_W']} W, idle {e['idle']!r}")


@predicate
def stream_energy_ramp(r, kernel):
    """gmb-stream --energy, a board drawing more in time: KERNEL's power lies 20 W inside the
    idle power before and after, its own idle power between them, within a quarter of the way
    from the idle before to its power; pJ/bit above idle as (power - idle) x seconds / bits."""
    x = r["results"]["energy"]
    e = x["kernels"][kernel]
    need(x["idle_W"] + 20 < e["power_W"] < x["idle_after_W"] - 20,
         f"{e['power_W']} W, idle {x['idle_W']} then {x['idle_after_W']} W")
    need(x["idle_W"] < e["idle_W"] < x["idle_after_W"],
         f"kernel's idle {e['idle_W']} W, idle {x['idle_W']} then {x['idle_after_W']} W")
    above = (e["power_W"] - e["idle_W"]) * e["seconds"] * 1e12 / e["bytes"] / 8
    need(abs(e["pJ_per_bit_above_idle"] - above) <= 1e-6 * e["pJ_per_bit"],
         f"{e['pJ_per_bit_above_idle']} pJ/bit above idle, want {above}")
    need(abs(e["power_W"] - e["idle_W"]) < 0.25 * (e["power_W"] - x["idle_W"]),
         f"{e['power_W']} W over its idle {e['idle_W']} W, idle before {x['idle_W']} W")


@predicate
def stream_energy_figures(r, n):
    """gmb-stream --energy: N headline figures or more are of board energy (': board' in the
    label)."""
    got = sum(": board" in f["label"] for f in r["headlines"]["figures"])
    need(got >= int(n), f"{got} figures of board energy")


@predicate
def stream_energy_slow_reads(r, kernel):
    """gmb-stream --energy, slow counter reads (the stand-in NVML, 120 W): measured, KERNEL
    drawing 114 to 126 W, its edges within 2 ms."""
    e = r["results"]["energy"]
    k = e["kernels"][kernel]
    need(e["available"] and 114 <= k["power_W"] <= 126 and k["edge_window_ms"] < 2,
         f"available {e['available']}, {k['power_W']} W, edges {k['edge_window_ms']} ms")


@predicate
def stream_clocks_stopped(r, nvml_ms):
    """gmb-stream, NVML slow to answer: the first point has clocks, the last none, fewer
    points clocked than there are, NVML_MS or more in NVML's queries, and the stop said to
    be NVML's."""
    d = r["clocks"]["during"]
    need("clocks" in r["points"][0] and "clocks" not in r["points"][-1],
         f"clocks at the first {'clocks' in r['points'][0]}, "
         f"the last {'clocks' in r['points'][-1]}")
    need(d["points_clocked"] < len(r["points"]) and d["points_nvml_ms"] >= float(nvml_ms)
         and d["points_stopped"].startswith("NVML"), f"during {d}")


@predicate
def stream_interrupted(r, signal, least):
    """gmb-stream stopped by a signal: status interrupted by SIGNAL, LEAST points or more kept,
    each verified (in full or sampled)."""
    need(r["status"] == "interrupted" and r["interrupted_by"] == signal,
         f"status {r['status']}, by {r.get('interrupted_by')}")
    n = len(r["points"])
    need(n >= int(least) and stream_verified_n(r) == n,
         f"{n} points kept, {stream_verified_n(r)} verified")


@predicate
def atomic_iters_raised(r, least, *scopes):
    """gmb-atomic: the points are, in order, of the scopes SCOPE..., each with iters above
    LEAST, verified in full."""
    got = [(p["params"]["scope"], p["params"]["iters"] > int(least), p["extra"]["verified"])
           for p in r["points"]]
    need(got == [(s, True, "full") for s in scopes], f"(scope, iters raised, verified) {got}")


@predicate
def atomic_combos_verified(r, n):
    """gmb-atomic: N points, and the scope x op pairs with a point verified in full (no launch
    failed) are exactly global and shared x atom and red."""
    got = sorted({(p["params"]["scope"], p["params"]["op"]) for p in r["points"]
                  if p["extra"]["verified"] == "full" and p["extra"]["launches_failed"] == 0})
    want = [(s, o) for s in ("global", "shared") for o in ("atom", "red")]
    need(got == want and len(r["points"]) == int(n),
         f"{len(r['points'])} points, verified pairs {got}")


@predicate
def atomic_shared_capped(r, op, want):
    """gmb-atomic: the shared OP points' (sharers, all, sharers_capped or null) are, sorted,
    exactly WANT (a JSON list of lists)."""
    got = sorted([p["params"]["sharers"], p["params"]["all"], p["extra"].get("sharers_capped")]
                 for p in r["points"]
                 if p["params"]["scope"] == "shared" and p["params"]["op"] == op)
    need(got == sorted(json.loads(want)), f"(sharers, all, capped) {json.dumps(got)}")


@predicate
def atomic_shared_group(r, group):
    """gmb-atomic: every shared point's memory and counters follow a group of GROUP: shared_bytes
    (GROUP / sharers - 1) x spacing + 4, counters groups x (GROUP / sharers)."""
    g = int(group)
    for p in r["points"]:
        pa, x = p["params"], p["extra"]
        if pa["scope"] != "shared":
            continue
        sb = (g // pa["sharers"] - 1) * pa["spacing_bytes"] + 4
        need(x["shared_bytes"] == sb and x["counters"] == x["groups"] * (g // pa["sharers"]),
             f"sharers {pa['sharers']}: {x['shared_bytes']} B (want {sb}), "
             f"{x['counters']} counters of {x['groups']} groups")


@predicate
def atomic_partial_grid(r):
    """gmb-atomic: points there, each grid groups x group size (as recorded), more than 1024
    work-items and not a multiple of 1024, of whole groups a compute unit."""
    need(r["points"], "no point")
    cu = r["device"]["compute_units"]
    for p in r["points"]:
        w, x = p["params"]["work_items"], p["extra"]
        need(w % 1024 != 0 and w > 1024 and w == x["groups"] * x["group_size"]
             and x["groups"] % cu == 0,
             f"{w} work-items: {x['groups']} groups of {x['group_size']}, {cu} CUs")


@predicate
def atomic_partial_counters(r, want):
    """gmb-atomic, sharers 1024: the points' (op, spacing, all) are, sorted, exactly WANT (a
    JSON list of lists), each verified in full with no launch failed, on ceil(work-items /
    1024) counters (one where all)."""
    got = sorted([p["params"]["op"], p["params"]["spacing_bytes"], p["params"]["all"]]
                 for p in r["points"])
    need(got == sorted(json.loads(want)), f"(op, spacing, all) {json.dumps(got)}")
    for p in r["points"]:
        pa, x = p["params"], p["extra"]
        n = 1 if pa["all"] else -(-pa["work_items"] // 1024)
        need(x["verified"] == "full" and x["launches_failed"] == 0 and x["counters"] == n,
             f"{pa['op']} {pa['spacing_bytes']} B: verified {x['verified']}, "
             f"{x['launches_failed']} failed, {x['counters']} counters (want {n})")


@predicate
def atomic_last_counter_failures(r, sharers):
    """gmb-atomic --inject-error-last, sharers SHARERS: the first point has three counters or
    more, the last one partial (T = work-items mod SHARERS x iters adds), and its failures are
    exactly: launch 1 the last counter's T + 1 (expected T); for atom launch 2 its old values'
    sum one off T(T-1)/2 mod 2^32; then a word 1 after the counter before it."""
    p = r["points"][0]
    pa, n, s = p["params"], p["extra"]["counters"], int(sharers)
    part = pa["work_items"] % s
    t = part * pa["iters"]
    want = [f"launch 1: counter {n - 1} holds {t + 1}, expected {t} "
            f"({part} work-items x {pa['iters']} adds of 1)"]
    if pa["op"] == "atom":
        want.append(f"launch 2: the old values counter {n - 1} returned sum to "
                    f"{(t * (t - 1) // 2 + 1) % 2**32}, expected {t * (t - 1) // 2 % 2**32} "
                    f"(0 .. {t - 1})")
    want.append(f"launch {3 if pa['op'] == 'atom' else 2}: word 1 after counter {n - 2} holds 1, "
                "expected 0")
    need(n >= 3 and part > 0, f"{n} counters, {pa['work_items']} work-items")
    need(p["extra"]["failures"] == want, f"failures {p['extra']['failures']}, want {want}")


@predicate
def atomic_failures(r, *kinds):
    """gmb-atomic, a planted error: the first point's failures are, in order, of the kinds
    KIND... (the first word after 'launch N: '), in as many failed launches."""
    x = r["points"][0]["extra"]
    got = [f.split(": ")[1].split(" ")[0] for f in x["failures"]]
    need(got == list(kinds) and x["launches_failed"] == len(kinds),
         f"failures of {got}, {x['launches_failed']} launches failed")


@predicate
def copy_host_placed(r):
    """gmb-copy: every host point (h2d, d2h, bidir) says what was bound and where its pages
    are (a non-empty host_binding and host_pages_numa)."""
    for p in r["points"]:
        x = p["extra"]
        if p["params"]["direction"] in ("h2d", "d2h", "bidir"):
            need(x["host_binding"] and x["host_pages_numa"],
                 f"{p['params']}: binding {x['host_binding']!r}, pages {x['host_pages_numa']!r}")


@predicate
def copy_host_bound(r, node):
    """gmb-copy --host-nodes NODE: every point bound to NUMA NODE ('bound to NUMA NODE, CPUs'),
    its pages there or unknown."""
    for p in r["points"]:
        x = p["extra"]
        need(x["host_binding"].startswith(f"bound to NUMA {node}, CPUs")
             and x["host_pages_numa"] in (node, "unknown"),
             f"{p['params']}: binding {x['host_binding']!r}, pages {x['host_pages_numa']!r}")


@predicate
def copy_host_nodes(r, *nodes):
    """gmb-copy: the points' params.host_node are, in record order, NODE... ('-': none)."""
    got = [p["params"].get("host_node", "-") for p in r["points"]]
    need(got == list(nodes), f"host nodes {got}")


@predicate
def copy_skipped_kinds(r, part, *kinds):
    """gmb-copy: the kinds of results.skipped's items whose reason contains PART are, in
    order, exactly KIND..."""
    got = [s["kind"] for s in r["results"]["skipped"] if part in s["reason"]]
    need(got == list(kinds), f"kinds skipped for '{part}': {got}")


@predicate
def copy_numa_slowest(r, node):
    """gmb-copy --host-nodes all: results.numa_copy names NODE the slowest other node of pinned
    h2d copies, and gives pinned d2h copies' slowest a bandwidth above 0."""
    n = r["results"]["numa_copy"]
    got, bw = n["h2d_pinned_ce"]["slowest_node"], n["d2h_pinned_ce"]["slowest_GBps"]
    need(got == node and bw > 0, f"h2d slowest node {got!r}, d2h slowest {bw} GB/s")


@predicate
def copy_resident_grid(r, n):
    """gmb-copy --sm-grid resident: N points, each verified in full, with no more groups than
    a one-pass grid (ceil(size / 16 / 256))."""
    need(len(r["points"]) == int(n), f"{len(r['points'])} points")
    for p in r["points"]:
        pa = p["params"]
        need(p["extra"]["verified"] == "full"
             and pa["groups"] <= -(-pa["size_bytes"] // 16 // 256),
             f"{pa['size_bytes']} B: verified {p['extra']['verified']}, {pa['groups']} groups")


@predicate
def copy_sm_bidir_streams(r, n, groups):
    """gmb-copy --sm-bidir streams: N points, each verified in full, two kernels on two
    streams (sm_bidir streams), with both directions' rates, in fewer than GROUPS groups."""
    need(len(r["points"]) == int(n), f"{len(r['points'])} points")
    for p in r["points"]:
        pa = p["params"]
        need(p["extra"]["verified"] == "full" and pa["sm_bidir"] == "streams"
             and pa["streams"] == 2 and "h2d_bw_GBps" in p["metrics"]
             and pa["groups"] < int(groups),
             f"verified {p['extra']['verified']}, {pa}, metrics {sorted(p['metrics'])}")


@predicate
def loaded_most_groups(r, per_cu):
    """gmb-loaded: the most streaming groups of its points is every resident group but the
    chaser's: compute units x PER_CU - 1."""
    got = max(p["params"]["load_groups"] for p in r["points"])
    want = r["device"]["compute_units"] * int(per_cu) - 1
    need(got == want, f"at most {got} groups, want {want}")


@predicate
def loaded_rw_summary(r):
    """gmb-loaded --traffic read,write: results.summary is the reads' summary, then
    'With writes: ' and the writes' (results.loaded and loaded_write)."""
    res = r["results"]
    want = f"{res['loaded']['summary']} With writes: {res['loaded_write']['summary']}"
    need(res["summary"] == want, f"summary {res['summary']!r}, want {want!r}")


@predicate
def suiteload_host_load(r, *args):
    """gmb run's run.json: host_load has each KEY=VALUE, value and JSON type alike (true is not
    1, 0.0 is not 0; null: none)."""
    h = r["host_load"]
    for k, v in pairs(args).items():
        need(k in h, f"host_load has no {k}")
        need(type(h[k]) is type(v) and h[k] == v, f"host_load.{k} is {h[k]!r}, not {v!r}")


@predicate
def suiteload_programs(r, *args):
    """gmb run's run.json: its programs are, in order, NAME=STATUS..."""
    got = [f"{p['name']}={p['status']}" for p in r["programs"]]
    need(got == list(args), f"programs {got}")


@predicate
def suiteload_estimate_sum(r):
    """gmb run's run.json: estimate_s is the sum of its programs' estimate_s, as a float."""
    want = float(sum(p["estimate_s"] for p in r["programs"]))
    need(repr(r["estimate_s"]) == repr(want), f"estimate_s {r['estimate_s']!r}, sum {want!r}")


@predicate
def suiteload_device_busy(r, program):
    """gmb run's run.json: host_load busy, the reason that the device was in use before PROGRAM
    (busy_before in its record), the programs it was in use before exactly [PROGRAM]."""
    h = r["host_load"]
    need(h["busy"] is True
         and h["reason"].startswith(f"the device was in use before {program} (busy_before in ")
         and h["device_in_use_before"] == [program],
         f"busy {h['busy']!r}, reason {h['reason']!r}, before {h['device_in_use_before']}")


# ---- gmb-um, gmb-l2, gmb-chase, the tools and the rest (their integration files) ------------


@predicate
def um_skipped_tests(r, text, *tests):
    """gmb-um: the tests of results.skipped whose reason contains TEXT are, sorted, exactly
    TEST... (each as often as named)."""
    got = sorted(s["test"] for s in r["results"]["skipped"] if text in s["reason"])
    need(got == sorted(tests), f"skipped with '{text}': {got}")


@predicate
def um_skipped_reasons(r, test, *reasons):
    """gmb-um: the reasons results.skipped gives for test TEST are, in order, exactly
    REASON... (none named: TEST is not skipped)."""
    got = [s["reason"] for s in r["results"]["skipped"] if s["test"] == test]
    need(got == list(reasons), f"{test} skipped for {got}")


@predicate
def um_no_points_of(r, *tests):
    """gmb-um: no point is of any test TEST..."""
    got = sorted(p["params"]["test"] for p in r["points"] if p["params"]["test"] in tests)
    need(not got, f"points of {got}")


@predicate
def um_driver_tunables(r):
    """gmb-um: results.uvm_driver has the driver's uvm_perf_thrashing_enable, or says why it
    has none (why)."""
    d = r["results"]["uvm_driver"]
    need("why" in d or "uvm_perf_thrashing_enable" in d, f"uvm_driver {d!r}")


@predicate
def um_first_metric_positive(r):
    """gmb-um: every point's first metric (its rate, or its latency) has a median above 0."""
    for p in r["points"]:
        k, m = list(p["metrics"].items())[0]
        need(m["median"] > 0, f"{k} {m['median']} at {p['params']}")


@predicate
def um_summary_matches(r, regex):
    """gmb-um: results.summary has a match of the regular expression REGEX (Python's)."""
    import re
    got = r["results"]["summary"]
    need(isinstance(got, str) and re.search(regex, got), f"summary {got!r}")


@predicate
def l2_many_passes(r, size, n):
    """gmb-l2: exactly N points have a set of SIZE bytes, each read (written) in more than one
    pass a launch (params.reps)."""
    got = [p["params"]["reps"] for p in r["points"] if p["params"]["size_bytes"] == int(size)]
    need(len(got) == int(n) and all(x > 1 for x in got), f"passes {got} at {size} B")


@predicate
def l2_grid_follows_passes(r):
    """gmb-l2: no point's grid (groups x group_size) is over its passes' 16-byte elements
    (reps x size / 16) or, where those are fewer, one group."""
    for p in r["points"]:
        pa = p["params"]
        need(pa["groups"] * pa["group_size"]
             <= max(pa["reps"] * pa["size_bytes"] // 16, pa["group_size"]), f"{pa}")


@predicate
def l2_fit_head(r):
    """gmb-l2: every curve of results.bandwidth has a whole number of head points and a top
    rate above 0."""
    for k, v in r["results"]["bandwidth"].items():
        need(isinstance(v["head_points"], int) and v["top_GBps"] > 0,
             f"{k}: head_points {v['head_points']!r}, top {v['top_GBps']!r}")


@predicate
def l2_head_unrated(r):
    """gmb-l2: the first head_points points of each curve's part (the rising head) have no hit
    rate (extra.hit_rate_est null)."""
    for part, v in r["results"]["bandwidth"].items():
        head = [q for q in r["points"] if q["params"]["part"] == part][:v["head_points"]]
        got = [p["extra"]["hit_rate_est"] for p in head]
        need(all(x is None for x in got), f"{part}: head hit rates {got}")


@predicate
def l2_method_iff_plateaus(r):
    """gmb-l2: a curve of results.bandwidth says its method exactly where its verdict is
    'plateaus'."""
    for k, v in r["results"]["bandwidth"].items():
        need((v["verdict"] == "plateaus") == ("method" in v),
             f"{k}: verdict {v['verdict']!r}, method {'method' in v}")


def l2_coldwarm_sizes(r, n):
    cw = r["results"]["coldwarm"]["sizes"]
    need(len(cw) == int(n), f"{len(cw)} cold/warm sizes")
    return cw


@predicate
def l2_cold_spans(r, n, flush):
    """gmb-l2: N cold/warm sizes, each read once in a cold span of cold_sets sets that is at
    least FLUSH bytes, less than FLUSH bytes more than one set."""
    for c in l2_coldwarm_sizes(r, n):
        span, size = c["cold_span_bytes"], c["size_bytes"]
        need(c["cold_sets"] * size == span >= int(flush) and span - size < int(flush),
             f"{size}: {c['cold_sets']} sets, span {span}")


@predicate
def l2_warm_reps(r):
    """gmb-l2: every cold/warm size re-reads its warm set more than once in a launch."""
    for c in r["results"]["coldwarm"]["sizes"]:
        need(c["warm_reps"] > 1, f"{c['size_bytes']}: warm_reps {c['warm_reps']}")


@predicate
def l2_per_pass_times(r):
    """gmb-l2: every cold/warm size's cold_ns is its sample / cold_sets and warm_ns its sample /
    warm_reps (within 1e-6 of them), cold_over_warm their ratio (within 1e-9)."""
    for c in r["results"]["coldwarm"]["sizes"]:
        need(abs(c["cold_ns"] - c["cold_sample_ns"] / c["cold_sets"]) < 1e-6 * c["cold_ns"]
             and abs(c["warm_ns"] - c["warm_sample_ns"] / c["warm_reps"]) < 1e-6 * c["warm_ns"]
             and abs(c["cold_over_warm"] - c["cold_ns"] / c["warm_ns"]) < 1e-9,
             f"{c['size_bytes']}: cold {c['cold_ns']}, warm {c['warm_ns']}, "
             f"ratio {c['cold_over_warm']}")


@predicate
def l2_ratio_ci_verdict(r):
    """gmb-l2: every cold/warm ratio lies in its CI, and its verdict is 'no measurable gain'
    exactly where that CI holds 1."""
    for c in r["results"]["coldwarm"]["sizes"]:
        ci, x = c["cold_over_warm_ci"], c["cold_over_warm"]
        need(ci[0] <= x <= ci[1]
             and (c["verdict"] == "no measurable gain") == (ci[0] <= 1 <= ci[1]),
             f"{c['size_bytes']}: {x} in {ci}, verdict {c['verdict']!r}")


@predicate
def l2_launch_flag(r):
    """gmb-l2: every cold/warm size is launch_dominated exactly where its shorter sample (warm
    or cold) is under 10 empty launches."""
    for c in r["results"]["coldwarm"]["sizes"]:
        want = min(c["warm_sample_ns"], c["cold_sample_ns"]) < 10 * c["empty_launch_ns"]
        need(c["launch_dominated"] == want,
             f"{c['size_bytes']}: launch_dominated {c['launch_dominated']}, want {want}")


@predicate
def l2_cold_points(r, n):
    """gmb-l2: exactly N cold points, each one pass (reps 1) over a span it names
    (param_bytes above 0)."""
    got = [(p["params"]["reps"], p["params"]["param_bytes"]) for p in r["points"]
           if p["params"]["state"] == "cold"]
    need(len(got) == int(n) and all(k == 1 and b > 0 for k, b in got), f"cold (reps, span) {got}")


@predicate
def l2_verdict_known(r, part):
    """gmb-l2: results.bandwidth.PART's verdict is one gmb-l2 gives: plateaus, no clear plateau
    or no clear level."""
    got = r["results"]["bandwidth"][part]["verdict"]
    need(got in ("plateaus", "no clear plateau", "no clear level"), f"{part}: verdict {got!r}")


@predicate
def l2_l1_path_per_point(r):
    """gmb-l2 l1: there are points, and every one states the first's loads' path (extra.l1)."""
    got = {json.dumps(p["extra"]["l1"]) for p in r["points"]}
    need(got == {json.dumps(r["points"][0]["extra"]["l1"])}, f"paths {sorted(got)}")


@predicate
def l2_l1_found(r, want):
    """gmb-l2 l1: WANT is 'found' where the l1 curve's verdict is 'plateaus', else 'none'."""
    got = "found" if r["results"]["bandwidth"]["l1"]["verdict"] == "plateaus" else "none"
    need(got == want, f"l1 level {got}, the table's {want}")


def _l2_part_points(r, part):
    """gmb-l2: the points of PART's shape (results.tuning.read also holds coldwarm's)."""
    parts = ("read", "coldwarm") if part == "read" else (part,)
    return [p for p in r["points"] if p["params"]["part"] in parts]


@predicate
def l2_tuning(r):
    """gmb-l2, tuned: each part of results.tuning (read, write, l1) tried both shapes at the same
    one or two sets, its geometric means are its trials', its layout follows the rule (lockstep
    where its mean is 1.05x grid-stride's or more) and every point of the part ran in it."""
    tun = r["results"]["tuning"]
    need(tun, "no part tuned")
    for part, t in tun.items():
        need(t["given"] is False, f"{part}: given {t['given']!r}")
        by = {}
        for c in t["candidates"]:
            need(c["GBps"] > 0, f"{part}: {c}")
            by.setdefault(c["layout"], []).append((c["size_bytes"], c["GBps"]))
        need(sorted(by) == ["grid-stride", "lockstep"], f"{part}: layouts {sorted(by)}")
        sizes = {k: [z for z, _ in v] for k, v in by.items()}
        need(sizes["grid-stride"] == sizes["lockstep"] and len(sizes["lockstep"]) in (1, 2),
             f"{part}: sets {sizes}")
        gm = {k: math.prod(b for _, b in v) ** (1 / len(v)) for k, v in by.items()}
        for k, v in gm.items():
            need(math.isclose(t["geomean_GBps"][k], v, rel_tol=1e-6), f"{part}: {k} mean")
        want = "lockstep" if gm["lockstep"] >= 1.05 * gm["grid-stride"] else "grid-stride"
        need(t["layout"] == want, f"{part}: layout {t['layout']!r}, the rule's {want!r}")
        got = {p["extra"]["layout"] for p in _l2_part_points(r, part)}
        need(got <= {want}, f"{part}: points' layouts {sorted(got)}")


@predicate
def l2_layout_given(r, layout):
    """gmb-l2 --layout LAYOUT: every part of results.tuning was given it (no trials) and every
    point ran in it."""
    tun = r["results"]["tuning"]
    need(tun, "no part")
    for part, t in tun.items():
        need(t["given"] is True and t["layout"] == layout and t["candidates"] == [],
             f"{part}: {t}")
    got = {p["extra"]["layout"] for p in r["points"]}
    need(got == {layout}, f"points' layouts {sorted(got)}")

@predicate
def chase_peer_skips(r, n):
    """gmb-chase: exactly N entries of results.skipped are the peer space's with a reason of
    one device ('needs a second opencl device') or of OpenCL ('OpenCL has no peer access')."""
    got = [s for s in r["results"]["skipped"] if s["space"] == "peer"
           and ("needs a second opencl device" in s["reason"]
                or "OpenCL has no peer access" in s["reason"])]
    need(len(got) == int(n), f"{len(got)} peer skips with its reason")


@predicate
def chase_first_verdict(r):
    """gmb-chase: the first curve of results.levels has a verdict gmb-chase gives: levels or no
    clear level."""
    got = r["results"]["levels"][0]["verdict"]
    need(got in ("levels", "no clear level"), f"verdict {got!r}")


@predicate
def chase_curve_modes(r, *modes):
    """gmb-chase: the curves of results.levels are, in order, of the modes MODE..."""
    got = [c["mode"] for c in r["results"]["levels"]]
    need(got == list(modes), f"curves of {got}")


@predicate
def chase_page_levels_numbered(r, against):
    """gmb-chase: exactly one page curve, its levels named against AGAINST (named_against),
    each numbered ('level N')."""
    got = [(c.get("named_against"), all(l["name"].startswith("level ") for l in c["levels"]))
           for c in r["results"]["levels"] if c["mode"] == "page"]
    need(got == [(against, True)], f"page curves (named against, numbered): {got}")


@predicate
def chase_figure_pairs(r, n, part=""):
    """gmb-chase: the headline figures whose label contains PART (without one: every figure)
    have exactly N distinct (label, unit) pairs (none where the record has no headlines)."""
    got = {(f["label"], f["unit"]) for f in r.get("headlines", {}).get("figures", [])
           if part in f["label"]}
    need(len(got) == int(n), f"{len(got)} figures with '{part}': {sorted(got)}")


@predicate
def stream_interrupted_kept(r, signal, least):
    """gmb-stream: the record is interrupted (status), by SIGNAL (interrupted_by), and keeps at
    least LEAST points (verified or not: stream-interrupted also wants them verified)."""
    got = (r["status"], r["interrupted_by"], len(r["points"]))
    need(got[:2] == ("interrupted", signal) and got[2] >= int(least),
         f"status {got[0]!r}, by {got[1]!r}, {got[2]} points")


# ---- the record's facts -------------------------------------------------------------------


@predicate
def llc_within(r, nbytes, factor):
    """The device's last-level cache is known and FACTOR times it is at most NBYTES."""
    llc = r["device"].get("llc_bytes", 0)
    need(0 < llc and llc * float(factor) <= int(nbytes), f"LLC {llc} B")


# ---- hardware counters (--counters) ------------------------------------------------------


@predicate
def counters_none(r, reason):
    """--counters without a session: measurement.counters says requested, not available,
    with a reason holding REASON; every point has counters null and counters_why."""
    m = r["measurement"].get("counters") or {}
    need(m.get("requested") is True and m.get("available") is False
         and reason in m.get("reason", ""), f"measurement.counters {m}")
    bad = [p["params"] for p in r["points"]
           if "counters" not in p or p["counters"] is not None or not p.get("counters_why")]
    need(r["points"] and not bad, f"{len(bad)} points with counters or no reason: {bad[:2]}")


@predicate
def counters_absent(r):
    """No --counters: neither the record nor any point says anything of counters."""
    need("counters" not in r["measurement"], "measurement.counters present")
    bad = [p["params"] for p in r["points"] if "counters" in p or "counters_why" in p]
    need(not bad, f"{len(bad)} points with counters: {bad[:2]}")


@predicate
def counters_standin(r, *args):
    """The stand-in CUPTI: the record says it is one (source, standin, chip STANDIN, replay
    kernel, taken after the timed samples), and every point's counters hold the values WANT
    (KEY=VALUE, e.g. dram_read_bytes=1048576)."""
    want = pairs(args)
    m = r["measurement"].get("counters") or {}
    need(m.get("available") is True and "stand-in" in m.get("source", "")
         and m.get("standin") and m.get("chip") == "STANDIN"
         and m.get("replay", "").startswith("kernel")
         and "after each point's timed samples" in m.get("taken", ""), f"counters {m}")
    for p in r["points"]:
        c = p.get("counters")
        need(c is not None, f"no counters at {p['params']}: {p.get('counters_why')}")
        for k, v in want.items():
            need(math.isclose(c[k], float(v)), f"{k} {c[k]} at {p['params']}, not {v}")


@predicate
def stream_dram_check(r, kernel, dram_bytes, flagged):
    """gmb-stream --counters: KERNEL's points carry dram_check with the counted bytes ((reads,
    writes) x size x reps), and on the DRAM-sized ones the ratio DRAM_BYTES (what the counters
    gave, read + written) / counted and flagged FLAGGED (1: more than 5% off); cache-sized
    points are never flagged; results.counters_check counts the flagged ones."""
    rw = {"read": (1, 0), "fill": (0, 1), "copy": (1, 1), "scale": (1, 1), "add": (2, 1),
          "triad": (2, 1), "dot": (2, 0)}[kernel]
    n = 0
    for p in r["points"]:
        q = p["params"]
        if q["kernel"] != kernel:
            continue
        d = p["extra"]["dram_check"]
        sz = q["size_bytes"] * q["reps"]
        need(d["counted_read_bytes"] == rw[0] * sz and d["counted_write_bytes"] == rw[1] * sz,
             f"counted {d} at {q}")
        if p["extra"]["where"] != "dram":
            need(d["flagged"] is False, f"a cache-sized point flagged: {q}")
            continue
        n += 1
        want = float(dram_bytes) / (d["counted_read_bytes"] + d["counted_write_bytes"])
        need(math.isclose(d["ratio"], want, rel_tol=1e-9)
             and d["flagged"] is bool(int(flagged)), f"dram_check {d} at {q}")
    k = r["results"]["counters_check"][kernel]
    need(n > 0 and k["dram_points"] == n and k["flagged"] == (n if int(flagged) else 0),
         f"{n} DRAM-sized points; counters_check {k}")


@predicate
def l2_hit_rate_hw(r, part, rate):
    """gmb-l2 --counters: every PART point's hit_rate_hw is RATE (the counters' L2 hit rate /
    100) and names its source."""
    pts = [p for p in r["points"] if p["params"]["part"] == part]
    bad = [p["params"]["size_bytes"] for p in pts
           if not math.isclose(p["extra"].get("hit_rate_hw") or -1, float(rate))
           or "lts__t_sector_hit_rate" not in p["extra"].get("hit_rate_hw_source", "")]
    need(pts and not bad, f"{len(pts)} {part} points, wrong at {bad[:4]}")


_L2_HW = (("cache_hit_rate_hw", "L2 hit rate on the cache plateau, read (counters)"),
          ("memory_hit_rate_hw", "L2 hit rate past the cache plateau, read (counters)"))


@predicate
def l2_hit_rate_figures(r):
    """gmb-l2: where the read curve has plateaus, results.bandwidth.read's cache_hit_rate_hw and
    memory_hit_rate_hw are the medians of hit_rate_hw over the points of each plateau (null
    without counters), each a headline figure in % resting on those points; without plateaus,
    or without counters, no such figure."""
    o, figs = r["results"]["bandwidth"]["read"], figures(r)
    for key, label in _L2_HW:
        f = figs.get(label)
        if o["verdict"] != "plateaus" or o.get(key) is None:
            need(f is None and o.get(key) is None, f"{key} {o.get(key)}, figure {f}")
            continue
        rates = sorted(p["extra"]["hit_rate_hw"] for p in points_of(r, f)
                       if p["extra"].get("hit_rate_hw") is not None)
        need(rates and math.isclose(o[key], statistics.median(rates)), f"{key} {o[key]} {rates}")
        need(math.isclose(f["value"], 100 * o[key]) and f["unit"] == "%", f"figure {f}")


# ---- gmb-overlap --------------------------------------------------------------------------


def _ovl_close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def _ovl_med(p, metric=None):
    return p["time_ns"]["median"] if metric is None else p["metrics"][metric]["median"]


@predicate
def overlap_rows(r, dirs, kernels):
    """gmb-overlap: results.overlap has one row per direction of DIRS and kernel of KERNELS
    (comma lists), in that order, each resting on three points of its direction and kernel:
    the copy alone (one stream), the kernel alone (one stream) and both (two streams)."""
    want = [(d, k) for d in dirs.split(",") for k in kernels.split(",")]
    rows = r["results"]["overlap"]
    got = [(w["direction"], w["kernel"]) for w in rows]
    need(got == want, f"rows {got}")
    for w in rows:
        for mode, streams in (("copy", 1), ("kernel", 1), ("both", 2)):
            p = r["points"][w["points"][mode]]["params"]
            need((p["part"], p["direction"], p["kernel"], p["mode"], p["streams"]) ==
                 ("overlap", w["direction"], w["kernel"], mode, streams),
                 f"{w['direction']} {w['kernel']}: the {mode} point is {p}")
    n = sum(p["params"]["part"] == "overlap" for p in r["points"])
    need(n == 3 * len(want), f"{n} overlap points")


@predicate
def overlap_efficiency_rederived(r):
    """gmb-overlap: every verified row of results.overlap re-derived from its points: the
    three times are the points' medians, overlap_efficiency = (copy + kernel - both) /
    min(copy, kernel) (kept as measured: not clamped), within [efficiency_lo, efficiency_hi]
    (the corners of the three CIs), serial = copy + kernel, the copy's bandwidth alone =
    bytes / copy time and under the kernel = the both point's copy_GBps (its own span), their
    ratio in %, the kernel under the copy = the both point's kernel_ns, its slowdown = that /
    kernel alone; and the efficiency headline of h2d beside each kernel = 100 x its row's."""
    rows = [w for w in r["results"]["overlap"] if w["verified"]]
    need(rows, "no verified row")
    figs = figures(r)
    for w in rows:
        pc, pk, pb = (r["points"][w["points"][m]] for m in ("copy", "kernel", "both"))
        c, k, b = _ovl_med(pc), _ovl_med(pk), _ovl_med(pb)
        tag = f"{w['direction']} {w['kernel']}"
        need((w["copy_ns"], w["kernel_ns"], w["both_ns"]) == (c, k, b), f"{tag}: times")
        eff = (c + k - b) / min(c, k)
        need(_ovl_close(w["overlap_efficiency"], eff), f"{tag}: {w['overlap_efficiency']} "
             f"against {eff}")
        need(w["efficiency_lo"] - 1e-12 <= eff <= w["efficiency_hi"] + 1e-12,
             f"{tag}: {eff} outside [{w['efficiency_lo']}, {w['efficiency_hi']}]")
        need(_ovl_close(w["serial_ns"], c + k), f"{tag}: serial {w['serial_ns']}")
        alone = w["copy_bytes"] / c
        need(_ovl_close(w["copy_alone_GBps"], alone), f"{tag}: copy alone")
        need(_ovl_close(_ovl_med(pc, "copy_GBps"), alone), f"{tag}: the copy point's rate")
        under = _ovl_med(pb, "copy_GBps")
        need(_ovl_close(w["copy_under_kernel_GBps"], under, 1e-6), f"{tag}: copy under kernel")
        need(_ovl_close(w["copy_under_kernel_pct"], 100 * under / alone, 1e-6), f"{tag}: %")
        kb = _ovl_med(pb, "kernel_ns")
        need(_ovl_close(w["kernel_under_copy_ns"], kb), f"{tag}: kernel under copy")
        need(_ovl_close(w["kernel_slowdown"], kb / k), f"{tag}: slowdown")
        label = {"compute": "Overlap efficiency, h2d copy beside the compute kernel",
                 "stream": "Overlap efficiency, h2d copy beside the streaming kernel"}
        if w["direction"] == "h2d":
            f = figs.get(label[w["kernel"]])
            need(f is not None and _ovl_close(f["value"], 100 * eff), f"{tag}: headline {f}")
            need(sorted(f["points"]) == sorted(w["points"].values()), f"{tag}: headline points")
        if w["direction"] == "h2d" and w["kernel"] == "stream":
            f = figs.get("h2d copy bandwidth beside the streaming kernel, % of alone")
            need(f is not None and _ovl_close(f["value"], 100 * under / alone, 1e-6),
                 f"{tag}: copy % headline {f}")
    note = r["results"].get("overlap_note", "")
    need("above 1" in note and "below 0" in note, f"overlap_note {note!r}")


@predicate
def overlap_calibration(r, given_iters=0, given_passes=0):
    """gmb-overlap: every kernel-alone point records its calibration, consistent with itself:
    the iterations (compute) or passes (stream) it ran are its params', the target is the copy
    alone's time, kernel_over_copy = kernel / target; 'within 10%' only where it is. With
    GIVEN_ITERS / GIVEN_PASSES (nonzero: --compute-iters, --stream-passes) they are as given,
    measured once. Timings themselves are never asserted."""
    pts = [p for p in r["points"] if p["params"]["part"] == "overlap"
           and p["params"]["mode"] == "kernel"]
    need(pts, "no kernel point")
    for p in pts:
        cal, par = p["extra"]["calibration"], p["params"]
        key = "iters" if par["kernel"] == "compute" else "passes"
        given = int(given_iters if key == "iters" else given_passes)
        need(cal[key] == par[key] and par[key] >= 1, f"{par}: calibration {cal}")
        need(_ovl_close(cal["kernel_over_copy"], cal["kernel_ns"] / cal["target_ns"]),
             f"{par}: ratio")
        if given:
            need((cal["given"], cal["tries"], par[key], cal["how"]) == (True, 1, given,
                                                                        "as given"), f"{cal}")
        else:
            need(not cal["given"] and 1 <= cal["tries"] <= 6, f"{cal}")
            within = abs(cal["kernel_over_copy"] - 1) <= 0.1
            need(cal["how"].startswith("calibrated: the kernel alone within 10%") == within,
                 f"{par}: {cal['how']!r} at {cal['kernel_over_copy']}")


def _ovl_sweep(r, prec):
    mem = sorted((p for p in r["points"] if p["params"]["part"] == "intensity"
                  and p["params"]["precision"] == prec and p["params"]["mode"] == "memory"),
                 key=lambda p: p["params"]["k"])
    reg = {p["params"]["k"]: p for p in r["points"] if p["params"]["part"] == "intensity"
           and p["params"]["precision"] == prec and p["params"]["mode"] == "compute"}
    return mem, reg


@predicate
def intensity_sweep(r, precs, kmax):
    """gmb-overlap: for each precision of PRECS (a comma list, or '' for none) the memory
    kernel at k = 0, 1, 2, 4 .. KMAX and the compute-only one at k = 1 .. KMAX, and no other
    precision; each point's figures as defined: flop_per_byte = k / element bytes, launch_ns =
    time / reps, bw_GBps = 2 x element bytes x elements x reps / time, gflops = 2k x elements
    (memory) or 2k x 4 x work-items (compute-only) x reps / time."""
    ks = [0] + [1 << e for e in range(int(kmax).bit_length()) if 1 << e <= int(kmax)]
    want = [x for x in precs.split(",") if x]
    got = sorted({p["params"]["precision"] for p in r["points"]
                  if p["params"]["part"] == "intensity"})
    need(got == sorted(want), f"precisions {got}")
    for prec in want:
        el = 8 if prec == "fp64" else 4
        mem, reg = _ovl_sweep(r, prec)
        got_k = [p["params"]["k"] for p in mem]
        need(got_k == ks, f"{prec} memory k {got_k}")
        need(sorted(reg) == ks[1:], f"{prec} compute k {sorted(reg)}")
        for p in mem + list(reg.values()):
            q, t = p["params"], p["time_ns"]["median"]
            need(_ovl_close(q["flop_per_byte"], q["k"] / el), f"{q}: FLOP/B")
            need(q["size_bytes"] == q["elements"] * el, f"{q}: size")
            need(_ovl_close(p["metrics"]["launch_ns"]["median"], t / q["reps"]), f"{q}: launch")
            items = q["groups"] * q["group_size"]
            need(4 * items >= q["elements"] > 4 * (items - q["group_size"]), f"{q}: one pass")
            if q["mode"] == "memory":
                bw = 2 * el * q["elements"] * q["reps"] / t
                need(_ovl_close(p["metrics"]["bw_GBps"]["median"], bw), f"{q}: GB/s")
            n = q["elements"] if q["mode"] == "memory" else 4 * items
            if q["k"]:
                fl = 2 * q["k"] * n * q["reps"] / t
                need(_ovl_close(p["metrics"]["gflops"]["median"], fl), f"{q}: GFLOP/s")
            else:
                need("gflops" not in p["metrics"], f"{q}: GFLOP/s at k 0")


def _ovl_ridge(k, t, hi0):
    """The ridge as overlap.h defines it, written again: (found, k*, reason's start)."""
    hi0 = hi0 if hi0 >= t[0] else t[0]
    flat, comp = 1.1 * hi0, 2.0 * t[0]
    m = 1
    while m < len(k) and t[m] <= flat:
        m += 1
    side = sorted(t[:m])
    h = len(side) // 2
    fl = side[h] if len(side) % 2 else (side[h - 1] + side[h]) / 2
    cs = [(k[i], t[i]) for i in range(m, len(k)) if t[i] >= comp]
    if m == 1:
        return False, None, "compute-bound from the first k"
    if len(cs) < 2:
        return False, None, "not compute-bound within the sweep"
    rs = sorted(b / a for a, b in cs)
    a = rs[len(rs) // 2] if len(rs) % 2 else (rs[len(rs) // 2 - 1] + rs[len(rs) // 2]) / 2
    ks = fl / a
    if not (k[m - 1] / (flat / t[0]) <= ks <= cs[0][0]):
        return False, ks, "the lines cross at"
    return True, ks, ""


@predicate
def intensity_ridge(r, prec, kmax):
    """gmb-overlap: results.ridge.PREC re-derived from the memory points' launch times by the
    recorded rule (overlap.h, written again here): a ridge k within (0, KMAX] with its
    FLOP/B = k / element bytes and the headline 'Ridge point, PREC' of that value; or none, a
    reason of the rule's ('compute-bound from the first k', 'not compute-bound within the
    sweep', 'the lines cross at ...') and the headline's text 'no clear ridge'."""
    o = r["results"]["ridge"][prec]
    el = 8 if prec == "fp64" else 4
    mem, _ = _ovl_sweep(r, prec)
    k = [p["params"]["k"] for p in mem]
    t = [p["metrics"]["launch_ns"]["median"] for p in mem]
    hi0 = mem[0]["time_ns"]["ci_hi"] / mem[0]["params"]["reps"]
    found, ks, why = _ovl_ridge(k, t, hi0)
    f = figure(r, f"Ridge point, {prec.upper()} (measured, FMA chains)")
    need(o["found"] == found, f"{prec}: found {o['found']}, re-derived {found} ({why})")
    if found:
        need(0 < o["ridge_k"] <= int(kmax) and _ovl_close(o["ridge_k"], ks, 1e-6),
             f"{prec}: k {o['ridge_k']}, re-derived {ks}")
        need(_ovl_close(o["ridge_flop_per_byte"], o["ridge_k"] / el), f"{prec}: FLOP/B")
        need(o["why"] == "" and _ovl_close(f["value"], o["ridge_flop_per_byte"]),
             f"{prec}: headline {f}")
    else:
        need(o["ridge_k"] is None and o["why"].startswith(why) and why,
             f"{prec}: why {o['why']!r}, re-derived {why!r}")
        need(f.get("text") == "no clear ridge", f"{prec}: headline {f}")
    need(sorted(f["points"]) == sorted(r["points"].index(p) for p in mem), f"{prec}: points")


@predicate
def intensity_hidden(r, prec):
    """gmb-overlap: each results.hidden row of PREC (one per k >= 1) is (memory_ns +
    compute_ns - kernel_ns) / compute_ns of the launch times of the memory point at k 0, the
    compute-only point and the memory point at k; results.ridge.PREC.hidden_fraction is the
    row of its hidden_k, the largest k below the ridge (without one: on the plateau)."""
    mem, reg = _ovl_sweep(r, prec)
    lt = {p["params"]["k"]: p["metrics"]["launch_ns"]["median"] for p in mem}
    rows = [w for w in r["results"]["hidden"] if w["precision"] == prec]
    need([w["k"] for w in rows] == sorted(reg), f"{prec}: rows {[w['k'] for w in rows]}")
    for w in rows:
        m, c, t = lt[0], reg[w["k"]]["metrics"]["launch_ns"]["median"], lt[w["k"]]
        need((w["memory_ns"], w["compute_ns"], w["kernel_ns"]) == (m, c, t), f"{w}")
        need(_ovl_close(w["hidden_fraction"], (m + c - t) / c), f"{w}: fraction")
    o = r["results"]["ridge"][prec]
    if o["hidden_k"] is not None:
        w = next(w for w in rows if w["k"] == o["hidden_k"])
        need(w["hidden_fraction"] == o["hidden_fraction"], f"{prec}: reported {o}")
        lim = o["ridge_k"] if o["found"] else None
        need(lim is None or o["hidden_k"] < lim, f"{prec}: hidden_k {o['hidden_k']} past {lim}")
        need(all(w2["k"] >= lim for w2 in rows if w2["k"] > o["hidden_k"]) if lim else True,
             f"{prec}: a larger k below the ridge")


@predicate
def intensity_peak(r, prec):
    """gmb-overlap: the headline 'Peak measured GFLOP/s, PREC' is the largest gflops median
    of PREC's intensity points (both kernels), resting on that point."""
    pts = [p for p in r["points"] if p["params"]["part"] == "intensity"
           and p["params"]["precision"] == prec and "gflops" in p["metrics"]]
    best = max(pts, key=lambda p: p["metrics"]["gflops"]["median"])
    f = figure(r, f"Peak measured GFLOP/s, {prec.upper()} (FMA chains)")
    need(f["value"] == best["metrics"]["gflops"]["median"] and
         f["points"] == [r["points"].index(best)], f"{prec}: {f}")


@predicate
def overlap_fp64(r, has):
    """gmb-overlap: results.fp64.available is HAS (1: the device has doubles, e.g. clinfo
    lists cl_khr_fp64); fp64 points exist iff it has, and without doubles results.skipped says
    so for the intensity part."""
    has = bool(int(has))
    need(r["results"]["fp64"]["available"] == has, f"fp64 {r['results']['fp64']}")
    n = sum(p["params"].get("precision") == "fp64" for p in r["points"])
    need((n > 0) == has, f"{n} fp64 points")
    sk = [s for s in r["results"]["skipped"] if s.get("precision") == "fp64"]
    need(bool(sk) == (not has and "fp64" in r["options"]["precisions"]), f"skipped {sk}")


@predicate
def overlap_verified(r):
    """gmb-overlap: every point verified (full or sampled), none failed, every overlap row
    verified."""
    bad = [p["params"] for p in r["points"] if p["extra"]["verified"] not in ("full", "sampled")]
    need(not bad, f"not verified: {bad}")
    rows = r["results"].get("overlap", [])
    need(all(w["verified"] for w in rows), "an overlap row not verified")


@predicate
def overlap_failures(r, *kinds):
    """gmb-overlap: the points that failed verification are exactly one of each KIND (part:
    what: overlap:copy, overlap:compute, overlap:stream (the kernel alone), overlap:both,
    intensity:memory, intensity:compute), each with its failure text; the status says so."""
    got = []
    for p in r["points"]:
        q = p["params"]
        if p["extra"]["verified"] != "FAILED":
            continue
        need(p["extra"].get("failure"), f"{q}: no failure text")
        what = q["mode"] if q["part"] == "intensity" or q["mode"] != "kernel" else q["kernel"]
        got.append(f"{q['part']}:{what}")
    need(sorted(got) == sorted(kinds), f"failed {sorted(got)}")
    need(r["status"] == "verification_failed", f"status {r['status']}")


# ---- gmb-capacity -------------------------------------------------------------------------

# each search's answer and the results key holding it
_CAP_ANSWER = {"largest": ("largest", "bytes"), "frag-contiguous": ("frag", "contiguous_bytes"),
               "frag": ("frag", "fragmented_bytes")}


@predicate
def capacity_bisection(r, search):
    """gmb-capacity: the probes of SEARCH (largest, frag-contiguous, frag) are numbered 1, 2, ...
    and agree with its answer: the bound at most --limit, the answer at most the bound and the
    size of a successful probe (0 with none), every successful probe at most the answer, every
    failed one above it with its error, and the smallest failure within the resolution of the
    answer (where one failed)."""
    res = r["results"]
    part, key = _CAP_ANSWER[search]
    ans, bound = res[part][key], res[part]["bound_bytes"]
    pr = [p for p in res["probes"] if p["search"] == search]
    need(pr and [p["index"] for p in pr] == list(range(1, len(pr) + 1)),
         f"probes numbered {[p['index'] for p in pr]}")
    ok = [p["size_bytes"] for p in pr if p["ok"]]
    bad = [p["size_bytes"] for p in pr if not p["ok"]]
    need(bound <= res["limit"]["bytes"] and ans <= bound, f"answer {ans}, bound {bound}")
    need(all(s <= bound for s in ok + bad), f"a probe above the bound {bound}")
    need(all(s <= ans for s in ok) and all(s > ans for s in bad),
         f"answer {ans}: succeeded {ok}, failed {bad}")
    need(ans in ok if ans else not ok, f"answer {ans} is no successful probe's size {ok}")
    need(all(p.get("error") for p in pr if not p["ok"]), "a failed probe without its error")
    need(not bad or min(bad) - ans <= res[part]["resolution_bytes"],
         f"smallest failure {min(bad) if bad else None} against {ans}")


@predicate
def capacity_refused_above(r, search, above):
    """gmb-capacity --refuse-above ABOVE: SEARCH's answer within its resolution below ABOVE,
    every probe above ABOVE refused by the test aid (saying so), every one at most it
    allocated."""
    res = r["results"]
    part, key = _CAP_ANSWER[search]
    ans, lim = res[part][key], int(above)
    need(lim - res[part]["resolution_bytes"] < ans <= lim, f"answer {ans} against {lim}")
    for p in (p for p in res["probes"] if p["search"] == search):
        aid = "test aid --refuse-above" in p.get("error", "")
        need(p["ok"] == (p["size_bytes"] <= lim) and aid == (p["size_bytes"] > lim),
             f"probe {p}")


@predicate
def capacity_held_clean(r):
    """gmb-capacity: nothing held at the end (results.held.at_end_bytes 0), as many frees as
    allocations, and never more held than --limit."""
    h, lim = r["results"]["held"], r["results"]["limit"]["bytes"]
    need(h["at_end_bytes"] == 0 and h["allocations"] == h["frees"] and h["peak_bytes"] <= lim,
         f"held {h}, --limit {lim}")


@predicate
def capacity_alloc_points(r, allocators, sizes):
    """gmb-capacity: the alloc points are exactly one per allocator of ALLOCATORS and size of
    SIZES (comma lists), each verified in full with every allocation checked (at least its
    samples), and with alloc_us, free_us, touch_us and touch_GBps."""
    want = {(a, int(s)) for a in allocators.split(",") for s in sizes.split(",")}
    pts = [p for p in r["points"] if p["params"]["part"] == "alloc"]
    got = [(p["params"]["allocator"], p["params"]["size_bytes"]) for p in pts]
    need(sorted(got) == sorted(want), f"alloc points {sorted(got)}")
    for p in pts:
        x, m = p["extra"], p["metrics"]
        need(x["verified"] == "full" and x["allocations_failed"] == 0
             and x["allocations_checked"] >= p["time_ns"]["n"], f"point {p['params']}: {x}")
        need(all(k in m for k in ("alloc_us", "free_us", "touch_us", "touch_GBps")),
             f"point {p['params']}: metrics {sorted(m)}")


@predicate
def capacity_exhaust(r, refused_by, stopped_by):
    """gmb-capacity: results.exhaust was refused by REFUSED_BY (a chunk, the refusal probe)
    after its chunks stopped by STOPPED_BY, its error the backend's words (or the test aid's),
    held no more than --limit, and the device usable after it (a checked allocation)."""
    e, lim = r["results"]["exhaust"], r["results"]["limit"]["bytes"]
    need(e["refused_by"] == refused_by and e["stopped_by"] == stopped_by,
         f"refused by {e['refused_by']!r}, stopped by {e['stopped_by']!r}")
    need(isinstance(e["error"], str) and e["error"], f"error {e['error']!r}")
    need(e["held_bytes"] <= lim and e["usable_after"] is True
         and "read back on the device" in e["usable_check"], f"exhaust {e}")
    if refused_by == "the refusal probe":
        q = e["refusal_probe"]
        need(q["refused"] is True and q["error"] == e["error"]
             and q["size_bytes"] == r["device"]["mem_bytes"], f"refusal probe {q}")


@predicate
def capacity_mem_said(r):
    """gmb-capacity: results.mem_before and mem_after each give the backend's free memory or
    why not, and NVML's counts or why not."""
    for k in ("mem_before", "mem_after"):
        m = r["results"][k]
        need(isinstance(m["backend_free_bytes"], int) or m.get("backend_free_why"), f"{k} {m}")
        n = m["nvml"]
        need(all(isinstance(n.get(f), int) for f in ("total_bytes", "free_bytes", "used_bytes"))
             if n["available"] else bool(n.get("why")), f"{k} nvml {n}")


@predicate
def capacity_frag(r):
    """gmb-capacity: results.frag: every block allocated, every other one freed (the held ones
    half of them, rounded up), the bound --limit less them (at most the device's largest
    allocation, in whole steps) and the ratio fragmented / contiguous."""
    f, lim = r["results"]["frag"], r["results"]["limit"]
    nb, b = f["blocks"], f["block_bytes"]
    need(f["allocated"] == nb and f["held_bytes"] == (nb + 1) // 2 * b, f"frag {f}")
    most = min(lim["bytes"] - f["held_bytes"], r["device"]["max_alloc_bytes"] or lim["bytes"])
    need(f["bound_bytes"] == most // lim["step_bytes"] * lim["step_bytes"], f"frag {f}")
    need(f["contiguous_bytes"] > 0
         and math.isclose(f["ratio"], f["fragmented_bytes"] / f["contiguous_bytes"]), f"frag {f}")


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
