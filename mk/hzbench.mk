# make bench, bench/hzadvise: the speed and memory of tools/hzadvise's
# replay. The stretcher, which writes a real trace K times end to end
# (shifted, for traces of any length), the parser alone over a trace in
# memory, and the tool itself.

HZB_OUT		:= build/bench/hzadvise
HZB_STRETCH	:= $(HZB_OUT)/stretch
HZB_PARSE	:= $(HZB_OUT)/parse

.PHONY: bench-hzadvise
bench-hzadvise: $(HZB_STRETCH) $(HZB_PARSE) hzadvise

$(HZB_STRETCH): bench/hzadvise/stretch.c
	@mkdir -p $(dir $@)
	$(CC) $(DZ_STD) $(DZ_WARN) $(DZ_OPT) $(CFLAGS) $< -o $@

$(HZB_PARSE): bench/hzadvise/parse.c tools/hzadvise/trace.c tools/hzadvise/trace.h
	@mkdir -p $(dir $@)
	$(CC) $(DZ_STD) $(DZ_WARN) -Itools/hzadvise $(HZA_OPT) $(CFLAGS) $< tools/hzadvise/trace.c -o $@
