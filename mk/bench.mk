# make bench (scripts/bench.sh runs every bench/*/run.sh): build rules.
#
# bench/conv: one program, three translation units of conversions at HZ 250
# (the variable build, the constant build, a plain-division baseline),
# linked with the variable core of the host's own word size.

BENCH_HZ	:= 250
BENCH_OUT	:= build/bench
BENCH_CONST	:= build/$(VARIANT)-hz$(BENCH_HZ)
BENCH_TC	:= $(BENCH_CONST)/gen/dynhz/timeconst.h
BENCH_OPT	?= $(DZ_OPT)
BENCH_CFLAGS	:= $(DZ_STD) $(ARCH) $(DZ_WARN) $(BENCH_OPT) -Iinclude $(CFLAGS)
CONV_BENCH	:= $(BENCH_OUT)/conv/conv-bench
CONV_OBJ	:= $(addprefix $(BENCH_OUT)/conv/,main.o kern_var.o kern_const.o kern_div.o)

.PHONY: bench-conv
bench-conv: $(CONV_BENCH)

$(CONV_BENCH): $(CONV_OBJ) $(VB)/libdynhz.a
	$(CC) $(ARCH) $^ -o $@

$(BENCH_OUT)/conv/kern_var.o: bench/conv/kern_dynhz.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -MMD -MP -c $< -o $@

$(BENCH_OUT)/conv/kern_const.o: bench/conv/kern_dynhz.c $(BENCH_TC)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -DCONFIG_HZ=$(BENCH_HZ) -I$(BENCH_CONST)/gen -MMD -MP -c $< -o $@

$(BENCH_OUT)/conv/%.o: bench/conv/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -MMD -MP -c $< -o $@

# The constant build's header is the Makefile's own target in a make with
# CONFIG_HZ=250; only other makes get this rule, which asks that one. The
# variable core comes first, so that two makes never build it at once.
ifneq ($(B),$(BENCH_CONST))
$(BENCH_TC): | $(VB)/libdynhz.a
	@$(MAKE) --no-print-directory CONFIG_HZ=$(BENCH_HZ) DEBUG= SAN= $@
endif

-include $(CONV_OBJ:.o=.d)
