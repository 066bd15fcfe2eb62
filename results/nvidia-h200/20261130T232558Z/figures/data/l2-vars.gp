# results/nvidia-h200/20261130T232558Z/figures/data/l2-vars.gp: made by gmb plot from the records; data for /work/main/plots/l2.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
array run_read_cache[1] = [NaN]
array run_read_mem[1] = [NaN]
array run_read_cap[1] = [NaN]
array run_cache_name[1] = ["L2"]
NS = 8
array s_file[8] = ["results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s1.csv", "results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s2.csv", "results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s3.csv", "results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s4.csv", "results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s5.csv", "results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s6.csv", "results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s7.csv", "results/nvidia-h200/20261130T232558Z/figures/data/l2-r1-s8.csv"]
array s_label[8] = ["read -", "write -", "partitions single", "partitions bimodal", "persistence no-window", "persistence window", "coldwarm cold", "coldwarm warm"]
array s_run[8] = [1, 1, 1, 1, 1, 1, 1, 1]
array s_sub[8] = [1, 2, 3, 4, 5, 6, 7, 8]
array s_part[8] = ["read", "write", "partitions", "partitions", "persistence", "persistence", "coldwarm", "coldwarm"]
array s_state[8] = ["-", "-", "single", "bimodal", "no-window", "window", "cold", "warm"]
X_MIN = 1048576
X_MAX = 1073741824
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/l2"
