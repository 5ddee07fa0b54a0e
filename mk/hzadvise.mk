# hzadvise (tools/hzadvise/): the HZ advisor, linked with the hosted core.
# Plain `make` builds it as build/tools/hzadvise, from the variable build
# (HZA_DIR and HZA_LIB move both, for a build with another compiler).
HZA_SRC	:= $(wildcard tools/hzadvise/*.c)
HZA_DIR	?= build/tools
HZA_LIB	?= build/host/libdynhz.a
HZA_BIN	:= $(HZA_DIR)/hzadvise
# -O3 over the project's -O2: the trace reader's loops, 5 % faster reading
# 10 M lines (docs/ADVISOR.md, "Speed and memory"); the replay the same.
HZA_OPT	:= $(DZ_OPT) -O3
HZA_CFLAGS := $(DZ_STD) $(DZ_WARN) $(SANF) -Iinclude $(HZA_OPT) $(CFLAGS)
# Guided by a profile of real traces (scripts/hzadvise-pgo.sh says which):
# a tenth faster on the bench's 10 M lines. With gcc only (clang's profiles
# need llvm-profdata), not under the sanitizers; HZA_PGO=0 builds it plain.
ifeq ($(origin HZA_PGO),undefined)
HZA_PGO	:= $(if $(SAN),0,$(if $(shell $(CC) -v 2>&1 | grep '^gcc version'),1,0))
endif
HZA_PGO_DIR := $(HZA_DIR)/hzadvise-pgo
HZA_TRAIN := $(addprefix tests/data/traces/,build.txt.xz idle.txt.xz sleeps.txt.xz) \
	$(wildcard tests/data/traces/synthetic/*.txt)

.PHONY: hzadvise
all: hzadvise
hzadvise: $(HZA_BIN)
$(eval $(call flags_stamp,$(HZA_DIR),$(CC) $(HZA_CFLAGS) pgo=$(HZA_PGO)))
ifeq ($(HZA_PGO),1)
$(HZA_BIN): $(HZA_SRC) $(wildcard tools/hzadvise/*.h) $(HZA_LIB) $(HZA_DIR)/.flags \
		scripts/hzadvise-pgo.sh $(HZA_TRAIN)
	@mkdir -p $(dir $@)
	scripts/hzadvise-pgo.sh $@ $(HZA_PGO_DIR) $(HZA_LIB) $(CC) $(HZA_CFLAGS)
else
$(HZA_BIN): $(HZA_SRC) $(wildcard tools/hzadvise/*.h) $(HZA_LIB) $(HZA_DIR)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(HZA_CFLAGS) $(HZA_SRC) $(HZA_LIB) $(SANF) -lm -o $@
endif
ifeq ($(filter $(HZA_LIB),$(B)/libdynhz.a $(VB)/libdynhz.a),)
$(HZA_LIB): FORCE_HZA
	@$(MAKE) --no-print-directory CONFIG_HZ= DEBUG= SAN= M32= USER_HZ= lib
FORCE_HZA:
endif
