# results/nvidia-h200/20261130T232558Z/figures/data/loaded-vars.gp: made by gmb plot from the records; data for /work/main/plots/loaded.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
array run_peak[1] = [4814.3040000000001]
NS = 1
array s_file[1] = ["results/nvidia-h200/20261130T232558Z/figures/data/loaded-r1-s1.csv"]
array s_label[1] = ["read 256"]
array s_run[1] = [1]
array s_sub[1] = [1]
array s_traffic[1] = ["read"]
array s_group_size[1] = ["256"]
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/loaded"
