# make bench, bench/hrtimer: dynhz's hrtimers against dynhz's jiffies wheel
# and libev's timer heap. One program, one translation unit per library,
# linked with the variable core of the host's own word size.

HRB_OUT		:= build/bench/hrtimer
HRB_BIN		:= $(HRB_OUT)/hrtimer-bench
HRB_SRC		:= $(wildcard bench/hrtimer/*.c)
HRB_OBJ		:= $(HRB_SRC:bench/hrtimer/%.c=$(HRB_OUT)/%.o)
HRB_CFLAGS	:= $(DZ_STD) $(ARCH) $(DZ_WARN) $(DZ_OPT) -Iinclude $(CFLAGS)

.PHONY: bench-hrtimer
bench-hrtimer: $(HRB_BIN)

# -z now: every library symbol is bound at start, none lazily in a measured phase.
$(HRB_BIN): $(HRB_OBJ) $(VB)/libdynhz.a
	$(CC) $(ARCH) -Wl,-z,now $^ -lev -o $@

$(HRB_OUT)/%.o: bench/hrtimer/%.c
	@mkdir -p $(dir $@)
	$(CC) $(HRB_CFLAGS) -MMD -MP -c $< -o $@

-include $(HRB_OBJ:.o=.d)
