# make bench, bench/timers: dynhz timers against libev, libevent and libuv,
# plus the tick, lateness and drift figures. One program, one translation
# unit per library (their headers cannot be mixed), linked with the variable
# core of the host's own word size.
#
# Included before mk/bench.mk: its variables are not set yet here.

TMB_OUT		:= build/bench/timers
TMB_BIN		:= $(TMB_OUT)/timers-bench
TMB_SRC		:= $(wildcard bench/timers/*.c)
TMB_OBJ		:= $(TMB_SRC:bench/timers/%.c=$(TMB_OUT)/%.o)
TMB_CFLAGS	:= $(DZ_STD) $(ARCH) $(DZ_WARN) $(DZ_OPT) -Iinclude $(CFLAGS)
# libev also exports a libevent-compatible API (event_add, event_base_new...):
# libevent comes first, so that those names are libevent's own.
TMB_LIBS	:= -levent -lev -luv

.PHONY: bench-timers
bench-timers: $(TMB_BIN)

# -z now: every library symbol is bound at start, none lazily in a measured phase.
$(TMB_BIN): $(TMB_OBJ) $(VB)/libdynhz.a
	$(CC) $(ARCH) -Wl,-z,now $^ $(TMB_LIBS) -o $@

$(TMB_OUT)/%.o: bench/timers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(TMB_CFLAGS) -MMD -MP -c $< -o $@

-include $(TMB_OBJ:.o=.d)
