# gmb - GPU memory microbenchmarks. `make` builds, `make run` characterizes the first device,
# `make check` runs every test. See README.md.
.SUFFIXES:
.DELETE_ON_ERROR:
SHELL := /bin/bash

PREFIX     ?= /usr/local
DESTDIR    ?=
CC         ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS     ?= -O2 -g
SAN        ?= 0
FUZZ       ?= 0

ifeq ($(FUZZ),1)
# the fuzz target's build (make fuzz): the library under clang's libFuzzer, ASan and UBSan; no
# backend (the record readers and writers need none)
BUILD      := build/fuzz
BIN        := build/fuzz/bin
CC         := clang
SANFLAGS   := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
              -fno-omit-frame-pointer
OPENCL     := 0
CUDA       := 0
else ifeq ($(SAN),1)
BUILD      := build/san
BIN        := build/san/bin
SANFLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
else
BUILD      := build
BIN        := bin
SANFLAGS   :=
endif

WARN       := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
GMB_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Icommon $(SANFLAGS)
LDLIBS     := -lm -ldl

# ---- what this machine has ---------------------------------------------------------------
# pkg-config when it is there; else (GPU images without it) a compile test of the header,
# with the plain library name: headers and libraries then come from CPATH/LIBRARY_PATH
has_pc   = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo 1)
# (the '#' comes from a variable: GNU make 4.3 on keeps a backslash before '#' inside a
# function call, and '\#include' preprocesses without error, so every header was 'found')
HASH    := \#
has_hdr  = $(shell printf '$(foreach h,$(1),$(HASH)include <$(h)>\n)' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)
have     = $(if $(call has_pc,$(1)),1,$(if $(call has_hdr,$(2)),1,0))
pc_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
pc_libs  = $(if $(call has_pc,$(1)),$(shell $(PKG_CONFIG) --libs $(1)),$(2))
HAVE_JANSSON := $(call have,jansson,jansson.h)
HAVE_HWLOC   := $(call have,hwloc,hwloc.h)
HAVE_CMOCKA  := $(call have,cmocka,stdarg.h stddef.h setjmp.h cmocka.h)

ifndef OPENCL
OPENCL := $(if $(call has_hdr,CL/cl.h),$(if $(or $(call has_pc,OpenCL),$(shell printf \
            'int main(void){return 0;}' | $(CC) -x c - -o /dev/null -lOpenCL 2>/dev/null && \
            echo 1)),1,0),0)
endif
NVCC   ?= $(shell command -v nvcc 2>/dev/null || \
            (test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc) || \
            ls -d /usr/local/cuda-*/bin/nvcc 2>/dev/null | sort -V | tail -1)
CUDA   ?= $(if $(NVCC),1,0)

ifeq ($(HAVE_JANSSON),1)
GMB_CFLAGS += $(call pc_cflags,jansson)
LDLIBS     += $(call pc_libs,jansson,-ljansson)
endif
ifeq ($(HAVE_HWLOC),1)
GMB_CFLAGS += -DGMB_HAVE_HWLOC=1 $(call pc_cflags,hwloc)
LDLIBS     += $(call pc_libs,hwloc,-lhwloc)
endif
ifeq ($(OPENCL),1)
GMB_CFLAGS += -DGMB_HAVE_OPENCL=1
LDLIBS     += $(call pc_libs,OpenCL,-lOpenCL)
endif

# CUDA: native code for every architecture CUDA 13 supports (sm_90 = Hopper) + PTX for newer.
CUDA_ARCHS ?= 75 80 86 89 90 100 120
ifeq ($(CUDA),1)
CUDA_HOME  ?= $(patsubst %/bin/,%,$(dir $(NVCC)))
CUDA_LIBDIR ?= $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib))
GMB_CFLAGS += -DGMB_HAVE_CUDA=1 -isystem $(CUDA_HOME)/include
# where --counters looks for libcupti after the loader's path (common/cupti.c)
$(BUILD)/common/cupti.o: GMB_CFLAGS += -DGMB_CUPTI_DIR='"$(CUDA_LIBDIR)"'
LDLIBS     += -L$(CUDA_LIBDIR) -lcudart_static -lrt -lpthread -lstdc++
GENCODE    := $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
              -gencode arch=compute_$(lastword $(CUDA_ARCHS)),code=compute_$(lastword $(CUDA_ARCHS))
# ptxas: a kernel that spills registers or keeps an array in local memory is a build error
# (-Werror all-warnings): it would measure its own stack traffic beside the memory it studies
NVFLAGS    ?= -O3 -std=c++17 -Xcompiler -Wall,-Wextra,-Werror -Werror all-warnings \
              -Xptxas -warn-spills,-warn-lmem-usage
endif

# kbuild's convention: one short line a target, V=1 for the full commands
V ?= 0
ifeq ($(V),1)
Q   :=
say :=
else
Q   := @
say = printf '  %-6s %s\n' '$(1)' '$(2)';
endif

GIT_REV := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)

# ---- sources -------------------------------------------------------------------------------
# libgmb: the harness and records (common/*.c), the pure models (common/model/), bin/gmb's
# tools but for its main (common/tools/), the backend table and the backends built here
# (common/backend/); the dialect headers (common/kernels/) are compiled into each program
LIB_SRC := $(wildcard common/*.c common/model/*.c) \
           $(filter-out common/tools/driver.c,$(wildcard common/tools/*.c)) common/backend/backend.c
ifeq ($(OPENCL),1)
LIB_SRC += common/backend/opencl.c
endif
ifeq ($(CUDA),1)
LIB_SRC += common/backend/cuda.c
endif
HDRS    := $(wildcard common/*.h common/*/*.h)
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))
LIB     := $(BUILD)/libgmb.a

# every directory under bench/ is one program: bin/gmb-<name> (no list to keep in sync)
BENCHES  := $(patsubst bench/%/,%,$(sort $(dir $(wildcard bench/*/*.c))))
PROGRAMS := $(BIN)/gmb $(addprefix $(BIN)/gmb-,$(BENCHES))
# man pages, made from each program's own option table and help text (gmb-NAME --man)
MANDIR   := build/man
MANPAGES := $(MANDIR)/gmb.1 $(addprefix $(MANDIR)/gmb-,$(addsuffix .1,$(BENCHES)))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT     := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

.PHONY: fuzz fuzz-build all check run install uninstall man format format-check deps deps-check tests clean help
all: deps-check $(PROGRAMS) $(if $(filter 1,$(SAN)),,$(MANPAGES))
man: $(MANPAGES)

help:
	@echo "make [all] | check | run | install [PREFIX= DESTDIR=] | uninstall | man | format | deps | clean"
	@echo "  | fuzz [FUZZ_S=300] (the record readers under libFuzzer)"
	@echo "  CUDA=0|1 OPENCL=0|1 CUDA_ARCHS='90' SAN=1 (ASan+UBSan build in build/san) V=1"

deps-check:
	@if [ "$(HAVE_JANSSON)" != 1 ]; then \
	  echo "gmb needs jansson to write records: run 'make deps' (apt-get install libjansson-dev)"; \
	  exit 1; fi
	@[ "$(OPENCL)" = 1 ] || echo "note: OpenCL headers/loader not found: OpenCL backend skipped (make deps)"
	@[ "$(CUDA)" = 1 ] || echo "note: nvcc not found: CUDA backend and kernels skipped"
	@[ "$(CUDA)" != 1 ] || echo "note: CUDA kernels built for $(words $(CUDA_ARCHS)) architectures" \
	  "($(CUDA_ARCHS)); one GPU's: CUDA_ARCHS=90 (Hopper), none: CUDA=0; V=1: full commands"
	@[ "$(HAVE_HWLOC)" = 1 ] || echo "note: hwloc not found: device locality will read 'unknown'"

$(BUILD)/gen/gitrev: FORCE
	@mkdir -p $(@D)
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
FORCE:

# what the objects were configured with: a change rebuilds them (CUDA=0 then CUDA=1 must not
# keep objects compiled without GMB_HAVE_CUDA; new CUDA_ARCHS must not keep old fatbins)
CONFIG := $(CC) $(CFLAGS) $(GMB_CFLAGS)
CU_CONFIG := $(NVCC) $(NVFLAGS) $(GENCODE)
$(BUILD)/gen/config: FORCE
	@mkdir -p $(@D)
	@echo '$(CONFIG)' | cmp -s - $@ || echo '$(CONFIG)' > $@
build/cu/config: FORCE
	@mkdir -p $(@D)
	@echo '$(CU_CONFIG)' | cmp -s - $@ || echo '$(CU_CONFIG)' > $@

$(BUILD)/common/host.o: $(BUILD)/gen/gitrev
$(BUILD)/common/host.o: GMB_CFLAGS += -DGMB_GIT_REV='"$(GIT_REV)"'

$(BUILD)/%.o: %.c $(HDRS) $(BUILD)/gen/config
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(CFLAGS) $(GMB_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

# Per benchmark: OpenCL sources embedded (the shared preludes, then its kernels), CUDA objects
# (one build serves both SAN=0 and SAN=1), the program from every bench/<name>/*.c (a long
# program may be split into files; headers of its own beside them; a .c may include its .cl).
define BENCH_RULES
$(BUILD)/gen/$(1)_cl.c: common/kernels/gmb_kernels.h common/kernels/gmb_chain_kernels.h bench/$(1)/$(1).cl
	@mkdir -p $$(@D)
	$(Q)$$(call say,GEN,$$@){ echo '/* generated from $$^ */'; echo 'const char gmb_bench_cl_source[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$$$/\\n"/' $$^; echo ';'; } > $$@
$(BUILD)/gen/$(1)_cl.o: $(BUILD)/gen/$(1)_cl.c
	$(Q)$$(call say,CC,$$@)$$(CC) $$(CFLAGS) $$(GMB_CFLAGS) -c -o $$@ $$<
build/cu/$(1).o: bench/$(1)/$(1).cu bench/$(1)/$(1).cl common/kernels/gmb_kernels.h \
                  common/kernels/gmb_chain_kernels.h common/backend/backend.h build/cu/config
	@mkdir -p $$(@D)
	$(Q)$$(call say,NVCC,$$@ ($(words $(CUDA_ARCHS)) architectures))$$(NVCC) $$(NVFLAGS) $$(GENCODE) -Icommon -Ibench/$(1) -c -o $$@ $$<
$(BUILD)/bench/$(1)/%.o: bench/$(1)/%.c $(HDRS) $(wildcard bench/$(1)/*.h) \
                         $(wildcard bench/$(1)/*.cl) $(BUILD)/gen/config
	@mkdir -p $$(@D)
	$(Q)$$(call say,CC,$$@)$$(CC) $$(CFLAGS) $$(GMB_CFLAGS) -Ibench/$(1) -c -o $$@ $$<
$(BIN)/gmb-$(1): $(patsubst %.c,$(BUILD)/%.o,$(wildcard bench/$(1)/*.c)) $(BUILD)/gen/$(1)_cl.o \
                 $(if $(filter 1,$(CUDA)),$(if $(wildcard bench/$(1)/$(1).cu),build/cu/$(1).o)) $(LIB)
	@mkdir -p $$(@D)
	$(Q)$$(call say,LD,$$@)$$(CC) $$(CFLAGS) $(SANFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach b,$(BENCHES),$(eval $(call BENCH_RULES,$(b))))

$(MANDIR)/gmb-%.1: bin/gmb-%
	@mkdir -p $(@D)
	$(Q)$(call say,MAN,$@)$< --man >$@.tmp && mv $@.tmp $@
# gmb(1) names the programs beside bin/gmb: made after them
$(MANDIR)/gmb.1: bin/gmb $(addprefix bin/gmb-,$(BENCHES))
	@mkdir -p $(@D)
	$(Q)$(call say,MAN,$@)$< --man >$@.tmp && mv $@.tmp $@

$(BIN)/gmb: $(BUILD)/common/tools/driver.o $(LIB)
	@mkdir -p $(@D)
	$(Q)$(call say,LD,$@)$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# ---- tests ---------------------------------------------------------------------------------
ifeq ($(HAVE_CMOCKA),1)
$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(CFLAGS) $(GMB_CFLAGS) $(call pc_cflags,cmocka) -o $@ \
	  $(filter-out bench/%,$^) $(call pc_libs,cmocka,-lcmocka) $(LDLIBS)
# a unit test of a program's pure parts may include its sources (bench/<name>/*.c): named
# as its prerequisites, they are not linked again
$(BUILD)/tests/test_overlap: $(wildcard bench/overlap/*.[ch])
$(BUILD)/tests/test_capacity: $(wildcard bench/capacity/*.[ch])
# test_nvml loads a stand-in NVML library built next to it
$(BUILD)/tests/stub/libnvidia-ml.so.1: tests/unit/nvml_stub.c
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(CFLAGS) -std=c11 $(WARN) -shared -fPIC -o $@ $<
$(BUILD)/tests/test_nvml: | $(BUILD)/tests/stub/libnvidia-ml.so.1
# test_cupti and the integration tests load a stand-in libcupti (tests/unit/cupti_stub.c)
$(BUILD)/tests/stub/libcupti-standin.so: tests/unit/cupti_stub.c common/cupti_abi.h
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(CFLAGS) -std=c11 $(WARN) -shared -fPIC -o $@ $<
$(BUILD)/tests/test_cupti: | $(BUILD)/tests/stub/libcupti-standin.so $(BUILD)/tests/stub/libnvidia-ml.so.1
# test_l2 reads the committed H200 records
$(BUILD)/tests/test_l2: GMB_CFLAGS += -DGMB_RESULTS_DIR='"$(CURDIR)/results"'
tests: all $(UNIT) $(CUPTI_ABI)
else
tests: all
	@echo "error: cmocka not found: the unit tests cannot be built (make deps, or make check as root)"
	@exit 1
endif

# common/cupti_abi.h against the toolkit's CUPTI headers (C++: cupti_profiler_host.h includes
# <string>): every field's offset and every struct's size, checked at compile time
ifeq ($(CUDA),1)
CUPTI_ABI := $(BUILD)/tests/cupti_abi.ok
$(CUPTI_ABI): tests/unit/cupti_abi.cc common/cupti_abi.h
	@mkdir -p $(@D)
	$(Q)$(call say,CXX,$@)$(CXX) -std=c++17 -fsyntax-only -Wall -Wextra -Werror \
	  -isystem $(CUDA_HOME)/include -Icommon $< && touch $@
endif

# the fuzz target of the record readers and the plot data writer (tests/fuzz): built with
# clang, run for FUZZ_S seconds on seeds made from the committed records (make check: 60 s)
FUZZER := build/fuzz/fuzz-records
FUZZ_S ?= 300
ifeq ($(FUZZ),1)
$(FUZZER): tests/fuzz/fuzz_records.c $(LIB)
	$(Q)$(call say,LD,$@)$(CC) $(CFLAGS) $(GMB_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
endif
fuzz-build:
	@$(MAKE) --no-print-directory FUZZ=1 $(FUZZER)
fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_S)

# every test, normal build then ASan+UBSan build; ends with "N passed, N failed". What the
# tests need is installed first (as root; else the apt-get line is printed and make fails),
# and make then starts again to see it (cmocka is looked for when the Makefile is read)
check:
	@common/deps.sh all
	@$(MAKE) --no-print-directory tests
	@tests/run-tests.sh

# ---- use -----------------------------------------------------------------------------------
# installs what is missing (root) or prints the apt-get line, builds, characterizes the first
# device (gmb run, quick profile), then draws and tabulates that run
run:
	@common/deps.sh run
	@$(MAKE) --no-print-directory all
	@set -o pipefail; dir=$$($(BIN)/gmb run $(RUN_ARGS) | tail -1); rc=$$?; \
	  [ -n "$$dir" ] && [ -f "$$dir/run.json" ] || exit $$rc; \
	  echo "== figures"; $(BIN)/gmb plot "$$dir" || rc=$$?; \
	  echo "== table"; $(BIN)/gmb table "$$dir" --format md --out "$$dir/table.md" >/dev/null && \
	  $(BIN)/gmb table "$$dir" --format tex --out "$$dir/table.tex" >/dev/null && \
	  $(BIN)/gmb table "$$dir" --format csv --out "$$dir/table.csv" >/dev/null && \
	  cat "$$dir/table.md" || rc=$$?; \
	  $(BIN)/gmb report "$$dir" >/dev/null || rc=$$?; \
	  echo "== cross-checks (one quantity, several programs)"; \
	  sed -n '/^## Cross-checks/,/^## Figures/p' "$$dir/report.md" | grep -E '^(\||No quantity)'; \
	  echo "== files"; echo "run:     $$dir (run.json, records *.json/*.csv, logs)"; \
	  echo "figures: $$dir/figures/*.png, *.svg"; \
	  echo "tables:  $$dir/table.md, table.tex, table.csv"; \
	  echo "report:  $$dir/report.md (device, programs and their summaries, table, cross-checks, figures)"; \
	  exit $$rc

deps:
	@common/deps.sh all

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/gmb/plots \
	  $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	for f in plots/*; do [ -f "$$f" ] && install -m 0644 "$$f" $(DESTDIR)$(PREFIX)/share/gmb/plots/; done; true
	install -m 0644 $(MANPAGES) $(DESTDIR)$(PREFIX)/share/man/man1/

# removes what install put there (the programs found by the same glob), and nothing else
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(PROGRAMS))) \
	  $(addprefix $(DESTDIR)$(PREFIX)/share/man/man1/,$(notdir $(MANPAGES))) \
	  $(addprefix $(DESTDIR)$(PREFIX)/share/gmb/plots/,$(notdir $(wildcard plots/*.*)))
	-rmdir $(DESTDIR)$(PREFIX)/share/gmb/plots \
	  $(DESTDIR)$(PREFIX)/share/gmb 2>/dev/null

FORMAT_FILES = $(shell git ls-files '*.c' '*.h' '*.cu' '*.cl' 2>/dev/null || ls common/*.[ch] common/*/*.[ch] bench/*/*.[ch] bench/*/*.cu bench/*/*.cl tests/unit/*.c)
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf build bin
