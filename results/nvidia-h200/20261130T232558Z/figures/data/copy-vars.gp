# results/nvidia-h200/20261130T232558Z/figures/data/copy-vars.gp: made by gmb plot from the records; data for /work/main/plots/copy.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
array run_link[1] = [63.008000000000003]
NS = 14
array s_file[14] = ["results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s1.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s2.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s3.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s4.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s5.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s6.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s7.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s8.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s9.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s10.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s11.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s12.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s13.csv", "results/nvidia-h200/20261130T232558Z/figures/data/copy-r1-s14.csv"]
array s_label[14] = ["h2d pageable ce", "d2h pageable ce", "bidir pageable ce", "h2d pinned ce", "d2h pinned ce", "bidir pinned ce", "h2d mapped ce", "h2d mapped sm", "d2h mapped ce", "d2h mapped sm", "bidir mapped ce", "bidir mapped sm", "d2d device ce", "d2d device sm"]
array s_run[14] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
array s_sub[14] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
array s_direction[14] = ["h2d", "d2h", "bidir", "h2d", "d2h", "bidir", "h2d", "h2d", "d2h", "d2h", "bidir", "bidir", "d2d", "d2d"]
array s_kind[14] = ["pageable", "pageable", "pageable", "pinned", "pinned", "pinned", "mapped", "mapped", "mapped", "mapped", "mapped", "mapped", "device", "device"]
array s_engine[14] = ["ce", "ce", "ce", "ce", "ce", "ce", "ce", "sm", "ce", "sm", "ce", "sm", "ce", "sm"]
array s_host_node[14] = ["", "", "", "", "", "", "", "", "", "", "", "", "", ""]
X_MIN = 4096
X_MAX = 1073741824
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/copy"
