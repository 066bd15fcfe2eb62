# results/nvidia-h200/20261130T232558Z/figures/data/atomic-vars.gp: made by gmb plot from the records; data for /work/main/plots/atomic.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
NS = 4
array s_file[4] = ["results/nvidia-h200/20261130T232558Z/figures/data/atomic-r1-s1.csv", "results/nvidia-h200/20261130T232558Z/figures/data/atomic-r1-s2.csv", "results/nvidia-h200/20261130T232558Z/figures/data/atomic-r1-s3.csv", "results/nvidia-h200/20261130T232558Z/figures/data/atomic-r1-s4.csv"]
array s_label[4] = ["global red 4", "global atom 4", "shared red 4", "shared atom 4"]
array s_run[4] = [1, 1, 1, 1]
array s_sub[4] = [1, 2, 3, 4]
array s_scope[4] = ["global", "global", "shared", "shared"]
array s_op[4] = ["red", "atom", "red", "atom"]
array s_spacing_bytes[4] = ["4", "4", "4", "4"]
X_MIN = 1
X_MAX = 270336
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/atomic"
