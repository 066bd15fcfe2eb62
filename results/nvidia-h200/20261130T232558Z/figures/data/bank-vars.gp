# results/nvidia-h200/20261130T232558Z/figures/data/bank-vars.gp: made by gmb plot from the records; data for /work/main/plots/bank.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
NS = 4
array s_file[4] = ["results/nvidia-h200/20261130T232558Z/figures/data/bank-r1-s1.csv", "results/nvidia-h200/20261130T232558Z/figures/data/bank-r1-s2.csv", "results/nvidia-h200/20261130T232558Z/figures/data/bank-r1-s3.csv", "results/nvidia-h200/20261130T232558Z/figures/data/bank-r1-s4.csv"]
array s_label[4] = ["latency stride 4", "latency bcast 4", "throughput stride 4", "throughput bcast 4"]
array s_run[4] = [1, 1, 1, 1]
array s_sub[4] = [1, 2, 3, 4]
array s_mode[4] = ["latency", "latency", "throughput", "throughput"]
array s_pattern[4] = ["stride", "bcast", "stride", "bcast"]
array s_width_bytes[4] = ["4", "4", "4", "4"]
X_MIN = 0
X_MAX = 32
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/bank"
