# The initramfs the reference kernel boots real programs from: cpio newc,
# Debian's busybox-static:i386 as /bin/busybox with links for the applets
# the checks use, the project's own programs (mk/user.mk) in /sbin, the
# files of user/rootfs (/init, a #! script BusyBox's sh runs as pid 1, and
# /etc/shrc), the device nodes of scripts/cpio-devnodes.sh and the
# directories Linux programs expect. BusyBox is fetched with
# scripts/fetch-deb.sh, never committed.
#
#   make initramfs   build/x86/initramfs.cpio
INITRAMFS	:= build/x86/initramfs.cpio
INITRAMFS_ROOT	:= build/x86/initramfs-root
BB_APPLETS	:= sh uptime date sleep cat ps top free ls echo true false head tail grep wc sed \
		   awk sort kill time poweroff reboot halt stty env seq cut tr uname vi

.PHONY: initramfs
initramfs: $(INITRAMFS)
# USER_BINS comes from mk/user.mk, read after this file: expand it late.
.SECONDEXPANSION:
ROOTFS_FILES	:= $(shell find user/rootfs -type f)
$(INITRAMFS): mk/initramfs.mk scripts/fetch-deb.sh scripts/cpio-devnodes.sh $(ROOTFS_FILES) \
		$$(USER_BINS)
	@bash scripts/deps.sh initramfs
	@bb=$$(bash scripts/fetch-deb.sh busybox-static:i386) || exit 1; \
	rm -rf $(INITRAMFS_ROOT) && mkdir -p $(INITRAMFS_ROOT)/bin $(INITRAMFS_ROOT)/proc \
		$(INITRAMFS_ROOT)/dev $(INITRAMFS_ROOT)/tmp $(INITRAMFS_ROOT)/etc \
		$(INITRAMFS_ROOT)/sbin && \
	install -m 0755 $$bb/bin/busybox $(INITRAMFS_ROOT)/bin/busybox && \
	install -m 0755 $(USER_BINS) $(INITRAMFS_ROOT)/sbin/ && \
	cp -R user/rootfs/. $(INITRAMFS_ROOT)/ && \
	for a in $(BB_APPLETS); do ln -s busybox $(INITRAMFS_ROOT)/bin/$$a; done && \
	(bash scripts/cpio-devnodes.sh && cd $(INITRAMFS_ROOT) && find . -mindepth 1 | \
		LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet) >$@.tmp && mv $@.tmp $@
	@echo "initramfs: $@ ($$(stat -c %s $@) bytes)"
