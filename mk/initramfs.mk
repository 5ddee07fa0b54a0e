# The initramfs the reference kernel boots real programs from: cpio newc,
# Debian's busybox-static:i386 as /bin/busybox with links for the applets
# the checks use, the project's own programs (mk/user.mk) in /sbin, and the
# directories Linux programs expect. BusyBox is fetched with
# scripts/fetch-deb.sh, never committed.
#
#   make initramfs   build/x86/initramfs.cpio
INITRAMFS	:= build/x86/initramfs.cpio
INITRAMFS_ROOT	:= build/x86/initramfs-root
BB_APPLETS	:= sh uptime date sleep cat ps top free ls echo true false

.PHONY: initramfs
initramfs: $(INITRAMFS)
# USER_BINS comes from mk/user.mk, read after this file: expand it late.
.SECONDEXPANSION:
$(INITRAMFS): mk/initramfs.mk scripts/fetch-deb.sh $$(USER_BINS)
	@bash scripts/deps.sh initramfs
	@bb=$$(bash scripts/fetch-deb.sh busybox-static:i386) || exit 1; \
	rm -rf $(INITRAMFS_ROOT) && mkdir -p $(INITRAMFS_ROOT)/bin $(INITRAMFS_ROOT)/proc \
		$(INITRAMFS_ROOT)/dev $(INITRAMFS_ROOT)/tmp $(INITRAMFS_ROOT)/etc \
		$(INITRAMFS_ROOT)/sbin && \
	install -m 0755 $$bb/bin/busybox $(INITRAMFS_ROOT)/bin/busybox && \
	install -m 0755 $(USER_BINS) $(INITRAMFS_ROOT)/sbin/ && \
	for a in $(BB_APPLETS); do ln -s busybox $(INITRAMFS_ROOT)/bin/$$a; done && \
	(cd $(INITRAMFS_ROOT) && find . -mindepth 1 | LC_ALL=C sort | \
		cpio -o -H newc -R 0:0 --reproducible --quiet) >$@.tmp && mv $@.tmp $@
	@echo "initramfs: $@ ($$(stat -c %s $@) bytes)"
