# make install / make uninstall: the core as a C library.
#
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage
#
# installs the hosted library of this build ($(B)/libdynhz.a: the core and
# the hosted port), the public headers of include/dynhz/ (the constant
# build's generated timeconst.h with them) and a pkg-config file, so that
# a program builds with `pkg-config --cflags --libs dynhz` alone.

PREFIX	?= /usr/local
DESTDIR	?=
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR	?= $(PREFIX)/lib
PCDIR	?= $(LIBDIR)/pkgconfig
DZ_VERSION := 0.9.0

PUB_HDR	:= $(wildcard include/dynhz/*.h)
PC_FILE	:= $(B)/dynhz.pc

.PHONY: install uninstall
$(PC_FILE): FORCE_GEN | $(B)/.dirs
	@{ echo 'prefix=$(PREFIX)'; \
	   echo 'includedir=$(INCLUDEDIR)'; \
	   echo 'libdir=$(LIBDIR)'; \
	   echo; \
	   echo 'Name: dynhz'; \
	   echo 'Description: kernel timekeeping with the tick rate HZ chosen at boot (hosted port)'; \
	   echo 'Version: $(DZ_VERSION)'; \
	   echo 'Cflags: -I$${includedir} $(strip $(DEFS) $(ARCH))'; \
	   echo 'Libs: -L$${libdir} -ldynhz $(strip $(ARCH))'; } > $@

install: $(B)/libdynhz.a $(PC_FILE) $(GEN_HDR)
	install -d $(DESTDIR)$(INCLUDEDIR)/dynhz $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR)
	install -m 644 $(PUB_HDR) $(GEN_HDR) $(DESTDIR)$(INCLUDEDIR)/dynhz/
	install -m 644 $(B)/libdynhz.a $(DESTDIR)$(LIBDIR)/libdynhz.a
	install -m 644 $(PC_FILE) $(DESTDIR)$(PCDIR)/dynhz.pc

uninstall:
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/dynhz/,$(notdir $(PUB_HDR)) timeconst.h)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/dynhz 2>/dev/null
	rm -f $(DESTDIR)$(LIBDIR)/libdynhz.a $(DESTDIR)$(PCDIR)/dynhz.pc
