# results/nvidia-h200/20261130T232558Z/figures/data/hierarchy-vars.gp: made by gmb plot from the table of the records; data for /work/main/plots/hierarchy.gp
NRUNS = 1
array run_label[1] = ["NVIDIA H200 (CUDA)"]
N_lat = 6
F_lat = "results/nvidia-h200/20261130T232558Z/figures/data/hierarchy-lat.csv"
N_bw = 6
F_bw = "results/nvidia-h200/20261130T232558Z/figures/data/hierarchy-bw.csv"
OUTBASE = "results/nvidia-h200/20261130T232558Z/figures/hierarchy"
