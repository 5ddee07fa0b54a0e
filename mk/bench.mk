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
# The same three on a 1 GHz clock at HZ 300 (a 3333333 ns tick: the
# generator's constants for a GHz clock, issue 23).
BENCH_HZ_1G	:= 300
BENCH_CONST_1G	:= build/$(VARIANT)-hz$(BENCH_HZ_1G)-clk1000000000
BENCH_TC_1G	:= $(BENCH_CONST_1G)/gen/dynhz/timeconst.h
CONV_BENCH_1G	:= $(BENCH_OUT)/conv-1g/conv-bench
CONV_OBJ_1G	:= $(addprefix $(BENCH_OUT)/conv-1g/,main.o kern_var.o kern_const.o kern_div.o)

.PHONY: bench-conv
bench-conv: $(CONV_BENCH) $(CONV_BENCH_1G)

$(CONV_BENCH): $(CONV_OBJ) $(VB)/libdynhz.a
	$(CC) $(ARCH) $^ -o $@
$(CONV_BENCH_1G): $(CONV_OBJ_1G) $(VB)/libdynhz.a
	$(CC) $(ARCH) $^ -o $@

$(BENCH_OUT)/conv/kern_const.o: bench/conv/kern_dynhz.c $(BENCH_TC)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -DCONFIG_HZ=$(BENCH_HZ) -I$(BENCH_CONST)/gen -MMD -MP -c $< -o $@
$(BENCH_OUT)/conv-1g/kern_const.o: bench/conv/kern_dynhz.c $(BENCH_TC_1G)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -DCONFIG_HZ=$(BENCH_HZ_1G) -DCONFIG_CLOCK_HZ=1000000000 \
		-I$(BENCH_CONST_1G)/gen -MMD -MP -c $< -o $@

$(BENCH_OUT)/conv/kern_var.o: bench/conv/kern_dynhz.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -MMD -MP -c $< -o $@
$(BENCH_OUT)/conv-1g/kern_var.o: bench/conv/kern_dynhz.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -MMD -MP -c $< -o $@

$(BENCH_OUT)/conv/%.o: bench/conv/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -MMD -MP -c $< -o $@
$(BENCH_OUT)/conv-1g/%.o: bench/conv/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -DBENCH_HZ=$(BENCH_HZ_1G) -DBENCH_CLOCK=1000000000 -MMD -MP -c $< -o $@

# The constant builds' headers are the Makefile's own target in a make with
# that CONFIG_HZ; only other makes get these rules, which ask that one. The
# variable core comes first, so that two makes never build it at once.
ifneq ($(B),$(BENCH_CONST))
$(BENCH_TC): | $(VB)/libdynhz.a
	@$(MAKE) --no-print-directory CONFIG_HZ=$(BENCH_HZ) CLOCK_HZ= DEBUG= SAN= $@
endif
ifneq ($(B),$(BENCH_CONST_1G))
$(BENCH_TC_1G): | $(VB)/libdynhz.a
	@$(MAKE) --no-print-directory CONFIG_HZ=$(BENCH_HZ_1G) CLOCK_HZ=1000000000 DEBUG= SAN= $@
endif

-include $(CONV_OBJ:.o=.d) $(CONV_OBJ_1G:.o=.d)

# bench/syscall: one source as a static i386 program with glibc and with
# musl, booted as init on the reference kernel, and as the host's own
# static program (x86-64: the host may lack the kernel's 32-bit layer).
# musl is Debian's musl-dev:i386 through the specs file of mk/user.mk; the
# specs' link line replaces gcc's, so -m32's "-m elf_i386" is given again.
SYSB_OUT	:= $(BENCH_OUT)/syscall
SYSB_SRC	:= bench/syscall/sysbench.c
SYSB_CFLAGS	:= $(DZ_STD) $(DZ_WARN) -O2 $(CFLAGS)

.PHONY: bench-syscall bench-syscall-musl
bench-syscall: $(SYSB_OUT)/sysbench-glibc $(SYSB_OUT)/sysbench-host
bench-syscall-musl: $(SYSB_OUT)/sysbench-musl

$(SYSB_OUT)/sysbench-glibc: $(SYSB_SRC)
	@mkdir -p $(dir $@)
	$(CC) -m32 -static $(SYSB_CFLAGS) $< -o $@

$(SYSB_OUT)/sysbench-host: $(SYSB_SRC)
	@mkdir -p $(dir $@)
	$(CC) -static $(SYSB_CFLAGS) $< -o $@

$(SYSB_OUT)/sysbench-musl: $(SYSB_SRC) $(MUSL_SPECS)
	@mkdir -p $(dir $@)
	$(CC) -m32 -static -specs $(MUSL_SPECS) -Wl,-m,elf_i386 $(SYSB_CFLAGS) $< -o $@
