# make bench, bench/retune: the cost of a change of HZ at runtime, hosted,
# linked with the variable core of the host's own word size.

RTB_OUT		:= build/bench/retune
RTB_BIN		:= $(RTB_OUT)/retune-bench
RTB_CFLAGS	:= $(DZ_STD) $(ARCH) $(DZ_WARN) $(DZ_OPT) -Iinclude $(CFLAGS)

.PHONY: bench-retune
bench-retune: $(RTB_BIN)

$(RTB_BIN): bench/retune/main.c $(VB)/libdynhz.a
	@mkdir -p $(dir $@)
	$(CC) $(RTB_CFLAGS) -Wl,-z,now $^ -o $@
