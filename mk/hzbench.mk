# make bench, bench/hzadvise: the speed and memory of tools/hzadvise's
# replay. The stretcher, which writes a real trace K times end to end
# (shifted, for traces of any length), and the tool itself.

HZB_OUT		:= build/bench/hzadvise
HZB_STRETCH	:= $(HZB_OUT)/stretch

.PHONY: bench-hzadvise
bench-hzadvise: $(HZB_STRETCH) hzadvise

$(HZB_STRETCH): bench/hzadvise/stretch.c
	@mkdir -p $(dir $@)
	$(CC) $(DZ_STD) $(DZ_WARN) $(DZ_OPT) $(CFLAGS) $< -o $@
