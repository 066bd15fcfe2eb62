# style.gp - the look every gmb figure shares; loaded before the data and <bench>.gp:
#   gnuplot -e "FMT='png'; W=960; H=600" plots/style.gp DATA/<bench>-vars.gp plots/<bench>.gp
# FMT png|svg|pdf picks a headless terminal (pngcairo, svg, pdfcairo); W x H in pixels.
if (!exists("FMT")) FMT = "png"
if (!exists("W")) W = 960
if (!exists("H")) H = 600
if (FMT eq "svg") {
    set terminal svg size W,H font "DejaVu Sans,11" linewidth 1.3 background rgb "white"
    EXT = "svg"
} else {
    if (FMT eq "pdf") {
        set terminal pdfcairo size (W/96.0),(H/96.0) font "DejaVu Sans,8" linewidth 1.3
        EXT = "pdf"
    } else {
        set terminal pngcairo size W,H font "DejaVu Sans,10" linewidth 1.3 background rgb "white"
        EXT = "png"
    }
}
set termoption noenhanced  # device names and labels are printed as they are
fig(name) = OUTBASE . "-" . name . "." . EXT

set datafile separator ","
set datafile missing ""
set border 3 lw 1.0
set tics nomirror out scale 0.6
set grid xtics ytics mxtics mytics lt 1 lc rgb "#e4e4e4" lw 0.8, lt 1 lc rgb "#f2f2f2" lw 0.5
set key top left Left reverse box lc rgb "#bbbbbb" opaque samplen 2.5 spacing 1.1 font ",9"
set pointsize 0.8

# one colour per device (Okabe-Ito, colour-blind safe); one colour per curve when one device
array PAL[8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
col(i) = PAL[(int(i) - 1) % 8 + 1]
pt_of(i) = word("7 5 9 11 13 4 6 8", (int(i) - 1) % 8 + 1) + 0
dt_of(i) = (int(i) - 1) % 5 + 1

# sizes in bytes: binary-prefix labels on a log2 axis spanning X_MIN..X_MAX (at most XT_MAX
# labels: set it lower for the panels of a multiplot)
bytes_label(x) = x >= 2.0**30 ? sprintf("%g GiB", x / 2.0**30) : \
                 x >= 2.0**20 ? sprintf("%g MiB", x / 2.0**20) : \
                 x >= 2.0**10 ? sprintf("%g KiB", x / 2.0**10) : sprintf("%g B", x)
SIZE_XTICS = "lo_e = int(floor(log(X_MIN) / log(2) + 1e-9)); hi_e = int(ceil(log(X_MAX) / log(2) - 1e-9)); " . \
             "st_e = int(ceil((hi_e - lo_e) / (exists('XT_MAX') ? XT_MAX : 10.0))); st_e = st_e < 1 ? 1 : st_e; tics = ''; " . \
             "do for [e = lo_e:hi_e] { if ((e - lo_e) % st_e == 0) { tics = tics . (strlen(tics) ? ', ' : '') . sprintf('\"%s\" %.0f', bytes_label(2.0**e), 2.0**e) } }; " . \
             "set logscale x 2; set xrange [2.0**lo_e / 1.15 : 2.0**hi_e * 1.15]; eval('set xtics (' . tics . ')'); set mxtics 1"
