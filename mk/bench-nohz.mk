# make bench, bench/nohz: wakeups per second, periodic against tickless, in
# the simulation; one program linked with the variable core of the host's
# own word size.

NZB_OUT		:= build/bench/nohz
NZB_BIN		:= $(NZB_OUT)/nohz-bench

.PHONY: bench-nohz
bench-nohz: $(NZB_BIN)

$(NZB_BIN): bench/nohz/main.c $(VB)/libdynhz.a
	@mkdir -p $(dir $@)
	$(CC) $(DZ_STD) $(ARCH) $(DZ_WARN) $(DZ_OPT) -Iinclude $(CFLAGS) $^ -o $@
