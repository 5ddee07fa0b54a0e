# The project's own user programs for the reference kernel: static i386
# Linux executables, each built twice, against musl (Debian's musl-dev:i386,
# fetched by scripts/fetch-deb.sh and used through a specs file pointing
# into its unpacked tree) and against glibc (gcc -m32 -static, from
# libc6-dev-i386). They go into the initramfs under /sbin.
#
#   make user-progs   build/x86/user/<prog> (musl) and <prog>-glibc
UB		:= build/x86/user
USER_PROGS	:= usertest timertest clocktest hzwatch
USER_BINS	:= $(foreach p,$(USER_PROGS),$(UB)/$(p) $(UB)/$(p)-glibc)
UCFLAGS		:= -m32 -static -O2 $(DZ_WARN) -Werror -fno-pie -no-pie
# gcc whatever CC says: musl is used through a gcc specs file.
UCC		:= gcc

.PHONY: user-progs
user-progs: $(USER_BINS)

# Debian's specs name /usr/include and /usr/lib; ours name the unpacked package.
$(MUSL_SPECS): mk/user.mk scripts/fetch-deb.sh
	@mkdir -p $(UB)
	@bash scripts/deps.sh user
	@d=$$(bash scripts/fetch-deb.sh musl-dev:i386) || exit 1; d=$$(cd $$d && pwd); \
	sed -e "s|/usr/include/|$$d/usr/include/|g" -e "s|/usr/lib/|$$d/usr/lib/|g" \
		$$d/usr/lib/i386-linux-musl/musl-gcc.specs >$@.tmp && mv $@.tmp $@

# The specs replace gcc's link line, -m32's emulation with it: name it again.
$(UB)/%: user/%.c user/report.h $(MUSL_SPECS)
	$(UCC) -specs $(MUSL_SPECS) $(UCFLAGS) -Wl,-m,elf_i386 $< -o $@

$(UB)/%-glibc: user/%.c user/report.h
	@mkdir -p $(UB)
	$(UCC) $(UCFLAGS) $< -o $@
