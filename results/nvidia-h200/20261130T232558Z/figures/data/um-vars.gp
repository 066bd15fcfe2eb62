# results/nvidia-h200/20261130T232558Z/figures/data/um-vars.gp: made by gmb plot from the records; data for /work/main/plots/um.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
array run_migration[1] = ["on demand: the device faults pages in"]
NS = 9
array s_file[9] = ["results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s1.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s2.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s3.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s4.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s5.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s6.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s7.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s8.csv", "results/nvidia-h200/20261130T232558Z/figures/data/um-r1-s9.csv"]
array s_label[9] = ["resident", "fault-h2d", "fault-d2h", "prefetch-h2d", "prefetch-d2h", "remote", "readmostly", "latency host", "latency device"]
array s_run[9] = [1, 1, 1, 1, 1, 1, 1, 1, 1]
array s_sub[9] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
array s_test[9] = ["resident", "fault-h2d", "fault-d2h", "prefetch-h2d", "prefetch-d2h", "remote", "readmostly", "latency", "latency"]
array s_placement[9] = ["", "", "", "", "", "", "", "host", "device"]
X_MIN = 4194304
X_MAX = 1073741824
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/um"
