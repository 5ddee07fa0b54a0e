# libFuzzer harnesses (tests/fuzz/check.sh builds and runs them).
#
# Each harness is linked with the core compiled from source by clang with
# the fuzzer's coverage instrumentation, ASan and UBSan: the variable build,
# at the host's word size. fuzz_conv is built twice: as is, and with the
# 128-bit multiply written out in 64-bit halves (the i386 kernel's path).
# fuzz_trace is the hzadvise trace reader alone: it links no core; nor do
# fuzz_initramfs, the kernel's cpio reader, and fuzz_elf, its ELF reader and
# stack builder (kernel/proc/elf.c). fuzz_vfs is the kernel's path resolution
# (kernel/fs/vfs.c, file_table.c, file.c, stat.c, procfs.c, procfs-pid.c)
# over tests/vfs's shim, with the core for its time.

FUZZ_OUT	:= build/fuzz
FUZZ_CFLAGS	:= $(DZ_STD) $(DZ_WARN) -g -O1 -fno-omit-frame-pointer \
		   -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		   -Iinclude -Itests/unit -Itime $(CFLAGS)
FUZZ_CORE	:= $(wildcard time/*.c) $(wildcard lib/*.c) host/host.c tests/unit/ref.c
FUZZ_DEPS	:= $(FUZZ_CORE) $(wildcard include/dynhz/*.h) tests/unit/ref.h mk/fuzz.mk
FUZZ_BINS	:= $(FUZZ_OUT)/fuzz_cmdline $(FUZZ_OUT)/fuzz_conv $(FUZZ_OUT)/fuzz_conv_noint128 \
		   $(FUZZ_OUT)/fuzz_trace $(FUZZ_OUT)/fuzz_initramfs $(FUZZ_OUT)/fuzz_elf \
		   $(FUZZ_OUT)/fuzz_vfs
FUZZ_TRACE	:= tools/hzadvise/trace.c
FUZZ_INITRAMFS	:= kernel/fs/initramfs.c

.PHONY: fuzz-bins
fuzz-bins: $(FUZZ_BINS)

$(FUZZ_OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) $< $(FUZZ_CORE) -o $@

$(FUZZ_OUT)/fuzz_conv_noint128: tests/fuzz/fuzz_conv.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -DDYNHZ_NO_INT128 $< $(FUZZ_CORE) -o $@

$(FUZZ_OUT)/fuzz_trace: tests/fuzz/fuzz_trace.c $(FUZZ_TRACE) tools/hzadvise/trace.h mk/fuzz.mk
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) $< $(FUZZ_TRACE) -o $@

$(FUZZ_OUT)/fuzz_initramfs: tests/fuzz/fuzz_initramfs.c $(FUZZ_INITRAMFS) \
		kernel/include/kernel/initramfs.h mk/fuzz.mk
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -Ikernel/include $< $(FUZZ_INITRAMFS) -o $@

$(FUZZ_OUT)/fuzz_elf: tests/fuzz/fuzz_elf.c kernel/proc/elf.c kernel/include/kernel/elf.h mk/fuzz.mk
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -Ikernel/include $< kernel/proc/elf.c -o $@

FUZZ_VFS	:= kernel/fs/vfs.c kernel/fs/file_table.c kernel/fs/file.c kernel/fs/stat.c \
		   kernel/fs/procfs.c kernel/fs/procfs-pid.c kernel/fs/initramfs.c \
		   kernel/sched/loadavg.c tests/vfs/shim.c
$(FUZZ_OUT)/fuzz_vfs: tests/fuzz/fuzz_vfs.c $(FUZZ_VFS) $(FUZZ_DEPS) kernel/fs/vfs-internal.h \
		tests/vfs/shim.h kernel/include/kernel/vfs.h
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -Ikernel/include $< $(FUZZ_VFS) $(FUZZ_CORE) -o $@

# make fuzz: the harnesses for FUZZ_TIME seconds each (30 unless told).
fuzz:
	@bash tests/fuzz/check.sh
