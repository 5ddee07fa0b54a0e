# dynhz: see README.md.
#
#   make                 build/host/libdynhz.a (variable HZ)
#   make CONFIG_HZ=250   constant-HZ build (into build/host-hz250/), for the PIT's
#                        clock; CLOCK_HZ=1000000000 for another (build/host-hz250-clk1000000000/)
#   make DEBUG=1         debug build (into build/host-debug/)
#   make M32=1           32-bit host build, as the i386 kernel sees the core
#   make SAN=1           ASan + UBSan
#   make USER_HZ=1024    another USER_HZ (x86's is 100)
#   make test            build and run the unit tests of that one build
#   make check           every test of every build, then "N passed, N failed"
#   make check-long      the long exhaustive runs (not in CI)
#   make bench           benchmarks, side by side
#   make run             boot the kernel under QEMU with hz=250 (or HZ=1000, CMDLINE='hz=300 ...')
#   make run-host        the hosted demonstration, same parameters
#   make initramfs       build/x86/initramfs.cpio with Debian's BusyBox (mk/initramfs.mk)
#   make linux           Linux 6.12 with linux/series (ARCH=arm64, linux-stock, run-linux:
#                        mk/linux.mk, docs/LINUX.md)

CC	?= gcc
AR	?= ar
CLANG	?= clang

CONFIG_HZ ?=
CLOCK_HZ ?=
DEBUG	?=
M32	?=
SAN	?=
USER_HZ ?=

# Build directory: one per variant, so variants never mix objects.
VARIANT := host$(if $(M32),-32)$(if $(USER_HZ),-uhz$(USER_HZ))
B	:= build/$(VARIANT)$(if $(CONFIG_HZ),-hz$(CONFIG_HZ)$(if $(CLOCK_HZ),-clk$(CLOCK_HZ)))$(if $(DEBUG),-debug)$(if $(SAN),-san)
VB	:= build/$(VARIANT)

# The flags every C file of the project is built with (host, kernel,
# benchmarks, long checks): the language, the warnings, the default
# optimisation. The user's CFLAGS come last on every compile line, so
# `make CFLAGS='-O1 -g'` replaces the default optimisation and
# `make CFLAGS+=-Wshadow` adds to it; neither loses what the build needs.
DZ_STD	:= -std=gnu11
DZ_WARN	:= -Wall -Wextra -Werror=implicit-function-declaration -Wshadow -Wstrict-prototypes \
	   -Wmissing-prototypes
DZ_OPT	:= -O2 -g
CFLAGS	?=
# Compatibility name for the rules in mk/: the warnings alone.
WARN	:= $(DZ_WARN)

ARCH	:= $(if $(M32),-m32)
comma	:= ,
SANF	:= $(if $(SAN),-fsanitize=address$(comma)undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
DEFS	:= $(if $(CONFIG_HZ),-DCONFIG_HZ=$(CONFIG_HZ) $(if $(CLOCK_HZ),-DCONFIG_CLOCK_HZ=$(CLOCK_HZ))) \
	   $(if $(DEBUG),-DDYNHZ_DEBUG) \
	   $(if $(USER_HZ),-DUSER_HZ=$(USER_HZ))
INC	:= -Iinclude $(if $(CONFIG_HZ),-I$(B)/gen)
# Host programs: the project's flags, then the user's.
HOST_CFLAGS := $(DZ_STD) $(ARCH) $(DZ_WARN) $(SANF) $(DEFS) $(INC) $(DZ_OPT) $(CFLAGS)
# The core and lib are freestanding: no libc headers, no builtins assumed.
CORE_CFLAGS := $(DZ_STD) $(ARCH) $(DZ_WARN) $(SANF) $(DEFS) $(INC) -ffreestanding $(DZ_OPT) $(CFLAGS)
LDFLAGS += $(ARCH) $(SANF)

CORE_SRC := $(wildcard time/*.c) $(wildcard lib/*.c)
HOST_SRC := host/host.c
LIB_OBJ	 := $(CORE_SRC:%.c=$(B)/%.o) $(HOST_SRC:%.c=$(B)/%.o)
GEN_HDR	 := $(if $(CONFIG_HZ),$(B)/gen/dynhz/timeconst.h)

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
TEST_SUPPORT := $(B)/tests/ref.o $(B)/tests/panic.o

.PHONY: all lib unit-bins print-builddir print-runner run-host test check check-long bench run clean timeconst-gen fuzz format

all: lib
lib: $(B)/libdynhz.a

$(B)/libdynhz.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(B)/time/%.o $(B)/lib/%.o: OBJ_CFLAGS = $(CORE_CFLAGS)
OBJ_CFLAGS = $(HOST_CFLAGS)
# A build directory remembers the compiler and flags it was built with
# (DIR/.flags, rewritten only when they change): every object depends on
# it, so `make CC=clang` or `make CFLAGS=-O1` rebuilds, and nothing else
# does. $(call flags_stamp,DIR,TEXT) makes the rule.
FORCE_FLAGS:
define flags_stamp
$(1)/.flags: FORCE_FLAGS
	$$(file >$$(shell mkdir -p $(1))$(1)/.flags.tmp,$(2))
	@cmp -s $(1)/.flags.tmp $(1)/.flags && rm -f $(1)/.flags.tmp || mv $(1)/.flags.tmp $(1)/.flags
endef
$(eval $(call flags_stamp,$(B),$(CC) $(HOST_CFLAGS) | $(CORE_CFLAGS) | $(LDFLAGS) | $(AR)))

$(B)/%.o: %.c $(GEN_HDR) $(B)/.flags | $(B)/.dirs
	@mkdir -p $(dir $@)
	$(CC) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

$(B)/.dirs:
	@mkdir -p $(B)/time $(B)/lib $(B)/host $(B)/tests $(B)/tools && touch $@

# The constant build's conversion constants, computed by the variable core
# of the same word size and USER_HZ (as Linux computes timeconst.h with bc).
timeconst-gen: $(VB)/timeconst-gen
$(VB)/timeconst-gen: host/timeconst_gen.c $(VB)/libdynhz.a $(VB)/.flags
	$(CC) $(HOST_CFLAGS) $< $(VB)/libdynhz.a -o $@
ifneq ($(B),$(VB))
$(VB)/libdynhz.a: FORCE_VAR
	@$(MAKE) --no-print-directory CONFIG_HZ= CLOCK_HZ= DEBUG= SAN= lib
FORCE_VAR:
endif
# One rule for every constant build's header, host and kernel alike (the
# kernel's comes from the 32-bit generator, mk/x86.mk). Regenerated on every
# make of a constant build (it takes milliseconds), but rewritten only when
# it changes, so nothing rebuilds needlessly and nothing is ever built
# against stale constants.
$(B)/gen/dynhz/timeconst.h: GEN_MAKE = CONFIG_HZ= CLOCK_HZ= DEBUG= SAN=
$(B)/gen/dynhz/timeconst.h: GEN_BIN = $(VB)/timeconst-gen
$(B)/gen/dynhz/timeconst.h: GEN_RUN = $(RUNNER)
%/gen/dynhz/timeconst.h: FORCE_GEN
	@$(MAKE) --no-print-directory $(GEN_MAKE) timeconst-gen
	@mkdir -p $(dir $@)
	@$(GEN_RUN) $(GEN_BIN) $(CONFIG_HZ) $(CLOCK_HZ) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
FORCE_GEN:

# Unit tests (cmocka).
# The unit tests may also use the core's internal headers (time/*-internal.h).
TEST_CFLAGS = $(HOST_CFLAGS) -Itests/unit -Itime
$(B)/tests/test_%: tests/unit/test_%.c $(TEST_SUPPORT) $(B)/libdynhz.a $(B)/.flags
	$(CC) $(TEST_CFLAGS) $< $(TEST_SUPPORT) $(B)/libdynhz.a -lcmocka $(LDFLAGS) -o $@
$(B)/tests/panic.o: tests/unit/panic.c tests/unit/panic.h $(GEN_HDR) $(B)/.flags | $(B)/.dirs
	$(CC) $(TEST_CFLAGS) -c $< -o $@
$(B)/tests/ref.o: tests/unit/ref.c tests/unit/ref.h $(GEN_HDR) $(B)/.flags | $(B)/.dirs
	$(CC) $(TEST_CFLAGS) -c $< -o $@

unit-bins: $(UNIT_BIN)
print-builddir:
	@echo $(B)

# 32-bit programs run under qemu-user: the hosts we test on may lack
# the kernel's 32-bit syscall layer.
RUNNER	:= $(if $(M32),qemu-i386)
print-runner:
	@echo $(RUNNER)

test: $(UNIT_BIN)
	@for t in $(UNIT_BIN); do echo "== $(B): $$t"; $(RUNNER) $$t || exit 1; done

check:
	@bash scripts/check.sh

check-long:
	@bash scripts/check-long.sh

bench:
	@bash scripts/bench.sh

HZ	?= 250
CMDLINE ?= hz=$(HZ)
# The reference kernel under QEMU (mk/x86.mk); run-host is the hosted demo.
run:
	@bash scripts/deps.sh run
	@$(MAKE) --no-print-directory kernel initramfs
	@bash scripts/run-kernel.sh "$(KELF)" "$(CMDLINE)" "$(INITRAMFS)"
run-host: $(B)/tools/dynhz-demo
	$(RUNNER) $(B)/tools/dynhz-demo "$(CMDLINE)"
$(B)/tools/dynhz-demo: tools/demo.c $(B)/libdynhz.a $(B)/.flags
	$(CC) $(HOST_CFLAGS) $< $(B)/libdynhz.a $(LDFLAGS) -o $@

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build

# musl's gcc specs, pointing into Debian's unpacked musl-dev:i386 (its rule
# is in mk/user.mk): named here, as other mk/ files read before it use it.
MUSL_SPECS := build/x86/user/musl.specs

# Other areas keep their rules beside their code.
include $(wildcard mk/*.mk)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
