# The initramfs the reference kernel will boot real programs from (issue
# 11): cpio newc, Debian's busybox-static:i386 as /bin/busybox with links
# for the applets the checks use, and the directories Linux programs
# expect. Fetched with scripts/fetch-deb.sh, never committed.
#
#   make initramfs   build/x86/initramfs.cpio
INITRAMFS	:= build/x86/initramfs.cpio
INITRAMFS_ROOT	:= build/x86/initramfs-root
BB_APPLETS	:= sh uptime date sleep cat ps top free ls echo true false head tail grep wc sed \
		   awk sort kill

.PHONY: initramfs
initramfs: $(INITRAMFS)
$(INITRAMFS): mk/initramfs.mk scripts/fetch-deb.sh
	@bash scripts/deps.sh initramfs
	@bb=$$(bash scripts/fetch-deb.sh busybox-static:i386) || exit 1; \
	rm -rf $(INITRAMFS_ROOT) && mkdir -p $(INITRAMFS_ROOT)/bin $(INITRAMFS_ROOT)/proc \
		$(INITRAMFS_ROOT)/dev $(INITRAMFS_ROOT)/tmp $(INITRAMFS_ROOT)/etc && \
	install -m 0755 $$bb/bin/busybox $(INITRAMFS_ROOT)/bin/busybox && \
	for a in $(BB_APPLETS); do ln -s busybox $(INITRAMFS_ROOT)/bin/$$a; done && \
	(cd $(INITRAMFS_ROOT) && find . -mindepth 1 | LC_ALL=C sort | \
		cpio -o -H newc -R 0:0 --reproducible --quiet) >$@.tmp && mv $@.tmp $@
	@echo "initramfs: $@ ($$(stat -c %s $@) bytes)"
