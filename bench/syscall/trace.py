# bench/syscall: where one system call's instructions go, by kernel
# function. Run by run.sh as
#   gdb -batch -ex 'set $nr = 20' -x trace.py dynhz.elf
# against QEMU started with -s -S: stops at the int $0x80 stub when EAX is
# $nr (the program's first such call), single-steps to the return to user
# mode and prints one line:
#   trace: nr=20 insns=1376 deliverable=956 tsc_to_ns=134 ...
# (functions by instructions, most first; the stub's own under isr_stubs).
import time

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
for attempt in range(50):  # QEMU may not listen yet
    try:
        gdb.execute("target remote :%d" % int(gdb.parse_and_eval("$port")), to_string=True)
        break
    except gdb.error:
        time.sleep(0.2)
nr = int(gdb.parse_and_eval("$nr"))
stub = int(gdb.parse_and_eval("(unsigned int)&isr_stubs")) + 0x80 * 16
gdb.execute("break *0x%x if $eax == %d" % (stub, nr), to_string=True)
gdb.execute("ignore 1 9", to_string=True)
gdb.execute("continue", to_string=True)
counts = {}
names = {}
steps = 0
while True:
    pc = int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFF
    if pc >= 0x08000000 or steps > 100000:  # back in user space
        break
    block = gdb.block_for_pc(pc)
    fn = block.function if block else None
    while block and not fn:
        block = block.superblock
        fn = block.function if block else None
    name = fn.name if fn else None
    if not name:
        if pc not in names:
            s = gdb.execute("info symbol 0x%x" % pc, to_string=True)
            names[pc] = s.split()[0] if " in section " in s else "?"
        name = names[pc]
    counts[name] = counts.get(name, 0) + 1
    steps += 1
    gdb.execute("stepi", to_string=True)
print("trace: nr=%d insns=%d %s" % (nr, steps, " ".join(
    "%s=%d" % kv for kv in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))))
gdb.execute("kill", to_string=True)
