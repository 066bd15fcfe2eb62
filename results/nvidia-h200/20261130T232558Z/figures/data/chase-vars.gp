# results/nvidia-h200/20261130T232558Z/figures/data/chase-vars.gp: made by gmb plot from the records; data for /work/main/plots/chase.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
array run_has_cycles[1] = [1]
array run_cycles_source[1] = ["clock64"]
array res_levels[1] = ["results/nvidia-h200/20261130T232558Z/figures/data/chase-r1-levels.csv"]
NS = 2
array s_file[2] = ["results/nvidia-h200/20261130T232558Z/figures/data/chase-r1-s1.csv", "results/nvidia-h200/20261130T232558Z/figures/data/chase-r1-s2.csv"]
array s_label[2] = ["random global 0", "random shared 0"]
array s_run[2] = [1, 1]
array s_sub[2] = [1, 2]
array s_mode[2] = ["random", "random"]
array s_space[2] = ["global", "shared"]
array s_page_bytes[2] = ["0", "0"]
X_MIN = 4096
X_MAX = 536870912
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/chase"
