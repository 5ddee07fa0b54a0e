# The reference i386 kernel, built from the same time/ and lib/ sources as
# the host library, in the same three builds:
#
#   make kernel                  build/x86/dynhz.elf (HZ chosen at boot)
#   make kernel CONFIG_HZ=250    build/x86-hz250/dynhz.elf (constant HZ)
#   make kernel DEBUG=1          build/x86-debug/dynhz.elf
#   make run [HZ=1000 | CMDLINE='hz=300 ...']   boots it under QEMU
#
# It is a 32-bit multiboot v1 ELF; QEMU loads it with -kernel.

KCC	?= $(CC)
KB	:= build/x86$(if $(CONFIG_HZ),-hz$(CONFIG_HZ))$(if $(DEBUG),-debug)
KELF	:= $(KB)/dynhz.elf
# The constant build's timeconst.h comes from the 32-bit host generator,
# which runs under qemu-user (this host may not run i386 programs).
QEMU_USER ?= qemu-i386
QEMU_SYS  ?= qemu-system-i386

KARCH	:= -m32 -march=i686 -mgeneral-regs-only
# The project's flags (Makefile), freestanding i386, then the user's CFLAGS.
# A flag only one compiler knows, asked of the compiler in use (gcc's
# -fno-tree-loop-distribute-patterns: no loop turned into a memset call).
kcc-option = $(shell $(KCC) -Werror $(1) -c -x c /dev/null -o /dev/null 2>/dev/null && echo $(1))
KFREE	:= $(KARCH) -ffreestanding -fno-pic -fno-stack-protector -fno-asynchronous-unwind-tables \
	   $(call kcc-option,-fno-tree-loop-distribute-patterns)
KCFLAGS	:= $(DZ_STD) $(DZ_WARN) $(KFREE) -fno-omit-frame-pointer \
	   -DDYNHZ_PORT_IRQFLAGS_H='<asm/irqflags.h>' \
	   $(if $(CONFIG_HZ),-DCONFIG_HZ=$(CONFIG_HZ)) $(if $(DEBUG),-DDYNHZ_DEBUG) \
	   -Iinclude -Iarch/x86/include -Ikernel/include $(if $(CONFIG_HZ),-I$(KB)/gen) \
	   $(DZ_OPT) $(CFLAGS)
KASFLAGS := -m32 -Iinclude -Iarch/x86/include -D__ASSEMBLY__
# gcc's driver needs -no-pie not to link a PIE; clang's does not, and warns.
kld-no-pie = $(shell echo 'void _start(void) {}' | $(KCC) -Werror -m32 -nostdlib -static -no-pie \
	       -x c - -o /dev/null 2>/dev/null && echo -no-pie)
KLDFLAGS := -m32 -nostdlib -static $(kld-no-pie) -Wl,--build-id=none -Wl,-z,noexecstack \
	    -Wl,-T,arch/x86/kernel.ld

K_CSRC	:= $(wildcard time/*.c lib/*.c arch/x86/*.c kernel/*.c kernel/*/*.c)
K_SSRC	:= $(wildcard arch/x86/*.S)
K_OBJ	:= $(K_SSRC:%.S=$(KB)/%.o) $(K_CSRC:%.c=$(KB)/%.o)
K_GEN	:= $(if $(CONFIG_HZ),$(KB)/gen/dynhz/timeconst.h)

.PHONY: kernel print-kernel
kernel: $(KELF)
print-kernel:
	@echo $(KELF)

$(KELF): $(K_OBJ) arch/x86/kernel.ld
	$(KCC) $(KLDFLAGS) $(K_OBJ) -lgcc -o $@

$(eval $(call flags_stamp,$(KB),$(KCC) $(KCFLAGS) | $(KASFLAGS) | $(KLDFLAGS)))

$(KB)/%.o: %.c $(K_GEN) $(KB)/.flags
	@mkdir -p $(dir $@)
	$(KCC) $(KCFLAGS) -MMD -MP -c $< -o $@

$(KB)/%.o: %.S $(KB)/.flags
	@mkdir -p $(dir $@)
	$(KCC) $(KASFLAGS) -MMD -MP -c $< -o $@

# The constant kernel's header: the Makefile's one rule, with the 32-bit
# generator of the kernel's word size and USER_HZ.
# The kernel ticks on the PIT: its constants are for the PIT's clock.
$(KB)/gen/dynhz/timeconst.h: GEN_MAKE = M32=1 CONFIG_HZ= CLOCK_HZ= DEBUG= SAN= USER_HZ=
$(KB)/gen/dynhz/timeconst.h: CLOCK_HZ =
$(KB)/gen/dynhz/timeconst.h: GEN_BIN = build/host-32/timeconst-gen
$(KB)/gen/dynhz/timeconst.h: GEN_RUN = $(QEMU_USER)

-include $(K_OBJ:.o=.d)

