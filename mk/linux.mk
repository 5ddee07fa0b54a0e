# The Linux port (docs/LINUX.md): Debian's linux-source-6.12 with the patch
# series of linux/series, configured from linux/config/, built out of tree
# under build/linux/, booted under QEMU. The logic is in scripts/linux/.
#
#   make linux [ARCH=x86_64|arm64]       build/linux/ARCH/ (bzImage or Image)
#   make linux CONFIG_HZ_DYNAMIC=n       the patched tree with the compile-time HZ,
#                                        build/linux/ARCH-nodyn/
#   make linux CONFIG_HZ=N               CONFIG_HZ (hz='s default) N, build/linux/ARCH-hzN/
#   make linux-stock [CONFIG_HZ=N]       no patch, HZ fixed at N (100, 250, 300 or
#                                        1000; 250), build/linux/stock-hzN-ARCH/
#   make linux-initramfs [ARCH=...]      build/linux/initramfs-ARCH.cpio
#   make run-linux [HZ=333] [CMDLINE='hz=333 ...'] [ARCH=arm64]
#                                        boot it (same CONFIG_* choices as make linux)
#
# LINUX_DESIGN=tick chooses the other design (linux/tick-series/,
# docs/TICK-RATE.md): CONFIG_HZ stays 1000 and tick_hz=R chooses the tick's
# rate at boot; x86_64 only so far, built by scripts/linux/tick.sh under
# build/linux-tick/:
#   make linux LINUX_DESIGN=tick         build/linux-tick/bzImage-tick
#   make run-linux LINUX_DESIGN=tick [TICK_HZ=250] [CMDLINE=...]
#                                        boot it with tickprobe as init (what
#                                        the tick does, seen from user space)
#
# These targets always run their script: Linux's own make decides what to
# rebuild (nothing changed: seconds). ARCH is read only from the command
# line: the Makefile's ARCH is the host build's -m32 flag.
LINUX_ARCH := $(if $(filter command line,$(origin ARCH)),$(ARCH),x86_64)
LINUX_KIND := $(if $(filter n no off 0,$(CONFIG_HZ_DYNAMIC)),nodyn,dynhz)

LINUX_DESIGN ?= hz

.PHONY: linux linux-stock linux-initramfs run-linux
ifeq ($(LINUX_DESIGN),tick)
linux:
	@bash scripts/deps.sh linux
	@[ "$(LINUX_ARCH)" = x86_64 ] || { echo "make linux: LINUX_DESIGN=tick is built for x86_64 only so far" >&2; exit 1; }
	@bash scripts/linux/tick.sh build tick

run-linux: linux
	@bash scripts/linux/tick.sh initramfs
	@bash scripts/linux/tick.sh boot tick run "$(if $(TICK_HZ),tick_hz=$(TICK_HZ)) $(CMDLINE)"
	@cat build/linux-tick/run.log
else ifeq ($(LINUX_DESIGN),hz)
linux:
	@bash scripts/deps.sh linux
	@bash scripts/linux/build.sh $(LINUX_ARCH) $(LINUX_KIND) $(CONFIG_HZ)

linux-stock:
	@bash scripts/deps.sh linux
	@bash scripts/linux/build.sh $(LINUX_ARCH) stock $(CONFIG_HZ)

linux-initramfs:
	@bash scripts/deps.sh linux
	@bash scripts/linux/initramfs.sh $(LINUX_ARCH) build/linux/initramfs-$(LINUX_ARCH).cpio

run-linux:
	@bash scripts/deps.sh linux
	@bash scripts/linux/run.sh $(LINUX_ARCH) $(LINUX_KIND) "$(CONFIG_HZ)" "$(CMDLINE)"
else
$(error LINUX_DESIGN is hz (linux/series, the default) or tick (linux/tick-series))
endif
