# hzadvise (tools/hzadvise/): the HZ advisor, linked with the hosted core.
# Plain `make` builds it as build/tools/hzadvise, from the variable build.
HZA_SRC	:= $(wildcard tools/hzadvise/*.c)
HZA_BIN	:= build/tools/hzadvise
HZA_CFLAGS := $(DZ_STD) $(DZ_WARN) $(SANF) -Iinclude $(DZ_OPT) $(CFLAGS)

.PHONY: hzadvise
all: hzadvise
hzadvise: $(HZA_BIN)
$(HZA_BIN): $(HZA_SRC) $(wildcard tools/hzadvise/*.h) build/host/libdynhz.a
	@mkdir -p $(dir $@)
	$(CC) $(HZA_CFLAGS) $(HZA_SRC) build/host/libdynhz.a $(SANF) -o $@
ifneq ($(VB),build/host)
build/host/libdynhz.a: FORCE_HZA
	@$(MAKE) --no-print-directory CONFIG_HZ= DEBUG= SAN= M32= USER_HZ= lib
FORCE_HZA:
endif
