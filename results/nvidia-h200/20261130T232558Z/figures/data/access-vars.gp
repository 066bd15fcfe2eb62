# results/nvidia-h200/20261130T232558Z/figures/data/access-vars.gp: made by gmb plot from the records; data for /work/main/plots/access.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
NS = 5
array s_file[5] = ["results/nvidia-h200/20261130T232558Z/figures/data/access-r1-s1.csv", "results/nvidia-h200/20261130T232558Z/figures/data/access-r1-s2.csv", "results/nvidia-h200/20261130T232558Z/figures/data/access-r1-s3.csv", "results/nvidia-h200/20261130T232558Z/figures/data/access-r1-s4.csv", "results/nvidia-h200/20261130T232558Z/figures/data/access-r1-s5.csv"]
array s_label[5] = ["stride 4026531840", "offset 4026531840", "offset 4026531840 confirm", "random 4026531840 in-order", "random 4026531840 random"]
array s_run[5] = [1, 1, 1, 1, 1]
array s_sub[5] = [1, 2, 3, 4, 5]
array s_pattern[5] = ["stride", "offset", "offset", "random", "random"]
array s_size_bytes[5] = ["4026531840", "4026531840", "4026531840", "4026531840", "4026531840"]
array s_pass[5] = ["", "", "confirm", "", ""]
array s_placement[5] = ["", "", "", "in-order", "random"]
X_MIN = 4
X_MAX = 512
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/access"
