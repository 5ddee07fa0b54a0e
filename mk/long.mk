# make check-long (scripts/check-long.sh): the exhaustive conversion check,
# built with the project's flags against the variable core of the host's
# word size.

LONG_BIN := $(VB)/conv_exhaustive

.PHONY: long-bins
long-bins: $(LONG_BIN)

$(LONG_BIN): tests/long/conv_exhaustive.c tests/unit/ref.h $(VB)/libdynhz.a
	$(CC) $(DZ_STD) $(ARCH) $(DZ_WARN) $(DZ_OPT) -Iinclude -Itests/unit $(CFLAGS) \
		$< $(VB)/libdynhz.a $(LDFLAGS) -o $@
