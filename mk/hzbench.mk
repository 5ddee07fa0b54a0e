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

# The parser as hzadvise has it: with the profile-guided build, its own
# trace.o (the object the profile laid out), else trace.c as hzadvise
# compiles it.
ifeq ($(HZA_PGO),1)
$(HZB_PARSE): bench/hzadvise/parse.c tools/hzadvise/trace.h $(HZA_BIN)
	@mkdir -p $(dir $@)
	$(CC) $(DZ_STD) $(DZ_WARN) -Itools/hzadvise $(HZA_OPT) $(CFLAGS) $< $(HZA_PGO_DIR)/trace.o -o $@
else
$(HZB_PARSE): bench/hzadvise/parse.c tools/hzadvise/trace.c tools/hzadvise/trace.h
	@mkdir -p $(dir $@)
	$(CC) $(DZ_STD) $(DZ_WARN) -Itools/hzadvise $(HZA_OPT) $(CFLAGS) $< tools/hzadvise/trace.c -o $@
endif
