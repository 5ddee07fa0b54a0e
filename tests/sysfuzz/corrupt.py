#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Corrupt inputs for tests/sysfuzz/check.sh, made from good ones at test time.

    corrupt.py elf GOOD-ELF DIR      programs in DIR, for the initramfs's /bin
    corrupt.py cpio GOOD-CPIO DIR    archives in DIR, for -initrd

Each prints one line per file: NAME <tab> FILE <tab> EXPECTED, where
EXPECTED is the line the kernel must print about it (for an archive, the
whole initramfs line; for a program, what follows "exec: /bin/NAME: ").
The expectations come from what was done to the file here (which header,
at which byte), not from the kernel.
"""
import os
import struct
import sys

PT_LOAD, PT_INTERP, PT_TLS = 1, 3, 7
ENOEXEC = ": ENOEXEC"


def phdrs(img):
    """The program headers: (offset in the file, [type, offset, vaddr, paddr, filesz, memsz, flags, align])."""
    phoff, = struct.unpack_from("<I", img, 28)
    phentsize, phnum = struct.unpack_from("<HH", img, 42)
    return [(phoff + i * phentsize, list(struct.unpack_from("<8I", img, phoff + i * phentsize)))
            for i in range(phnum)]


def put_phdr(img, at, ph):
    struct.pack_into("<8I", img, at, *ph)


def loads(img):
    return [(i, at, ph) for i, (at, ph) in enumerate(phdrs(img)) if ph[0] == PT_LOAD and ph[5]]


def first_past(img, size):
    """The first program header (in order) whose bytes in the file end past size."""
    for i, (_, ph) in enumerate(phdrs(img)):
        if ph[0] in (PT_LOAD, PT_TLS) and ph[1] + ph[4] > size:
            return i, ph[0]
    raise SystemExit("corrupt.py: no segment runs past %d" % size)


def past_line(i, kind):
    return "elf: segment %d%s runs past the end of the file%s" % (
        i, " (PT_TLS)" if kind == PT_TLS else "", ENOEXEC)


def elf_cases(good):
    """(name, bytes or None for a mode-only change, mode, expected)"""
    img = bytearray(good)
    out = []

    out.append(("trunc-header", good[:40], 0o755, "elf: truncated ELF header" + ENOEXEC))
    phoff, = struct.unpack_from("<I", img, 28)
    out.append(("trunc-phdrs", good[:phoff + 40], 0o755,
                "elf: program headers run past the end of the file" + ENOEXEC))
    half = len(good) // 2
    i, kind = first_past(img, half)
    out.append(("trunc-half", good[:half], 0o755, past_line(i, kind)))

    b = bytearray(good)
    b[1] = ord("e")
    out.append(("badmagic", bytes(b), 0o755, "elf: not ELF (bad magic)" + ENOEXEC))
    b = bytearray(good)
    b[4] = 2
    out.append(("class64", bytes(b), 0o755,
                "elf: not a 32-bit ELF (ELFCLASS32 expected)" + ENOEXEC))
    b = bytearray(good)
    struct.pack_into("<H", b, 18, 62)  # EM_X86_64
    out.append(("machine", bytes(b), 0o755,
                "elf: not an i386 program (e_machine is not EM_386)" + ENOEXEC))

    # The last PT_LOAD's bytes moved a megabyte past the end, page offset kept.
    b = bytearray(good)
    i, at, ph = loads(b)[-1]
    ph[1] += ((len(good) + (1 << 20)) & ~0xfff)
    put_phdr(b, at, ph)
    out.append(("pastend", bytes(b), 0o755, past_line(i, PT_LOAD)))

    # The second PT_LOAD moved down into the first, by whole pages.
    b = bytearray(good)
    (_, _, a), (i, at, ph) = loads(b)[0], loads(b)[1]
    a_end = a[2] + a[5]
    new = ((a_end - 1) & ~0xfff) - 0x1000 + (ph[2] & 0xfff)
    if new < a[2]:
        new = a[2] + (ph[2] & 0xfff)
    ph[2] = ph[3] = new
    put_phdr(b, at, ph)
    out.append(("overlap", bytes(b), 0o755,
                "elf: segment %d overlaps the one before it%s" % (i, ENOEXEC)))

    b = bytearray(good)
    struct.pack_into("<I", b, 24, 0x1000)
    out.append(("entry", bytes(b), 0o755,
                "elf: entry point 0x00001000 is not in any segment" + ENOEXEC))

    # A dynamic program: a PT_NOTE (or the last header) becomes a PT_INTERP naming
    # the usual loader, its string appended to the file.
    interp = b"/lib/ld-linux.so.2\0"
    b = bytearray(good) + interp
    hdrs = phdrs(b)
    at, ph = next(((at, ph) for at, ph in hdrs if ph[0] == 4), hdrs[-1])
    put_phdr(b, at, [PT_INTERP, len(good), 0, 0, len(interp), len(interp), 4, 1])
    out.append(("dynamic", bytes(b), 0o755,
                "elf: dynamically linked (PT_INTERP /lib/ld-linux.so.2): only static "
                "programs run here" + ENOEXEC))

    out.append(("empty", b"", 0o755, "elf: not ELF (bad magic)" + ENOEXEC))
    # #! lines as Linux's binfmt_script reads them: one that names no
    # interpreter is ENOEXEC, one whose interpreter is missing ENOENT.
    out.append(("script", b"#!  \t\necho no interpreter\n", 0o755,
                "a #! line without an interpreter" + ENOEXEC))
    out.append(("script-missing", b"#!/bin/none -x\necho no such interpreter\n", 0o755,
                "no such file: ENOENT"))
    out.append(("noexec", good, 0o644, "not a regular file with an execute bit: EACCES"))
    return out


def cpio_entries(arc):
    """(header offset, name, namesize, filesize) of each entry, the trailer included."""
    off, out = 0, []
    while True:
        assert arc[off:off + 6] == b"070701", "not newc at %d" % off
        f = [int(arc[off + 6 + 8 * k:off + 14 + 8 * k], 16) for k in range(13)]
        size, namesize = f[6], f[11]
        name = arc[off + 110:off + 110 + namesize - 1].decode()
        out.append((off, name, namesize, size))
        if name == "TRAILER!!!":
            return out
        data = (off + 110 + namesize + 3) & ~3
        off = (data + size + 3) & ~3


def set_field(arc, hdr, k, value):
    arc[hdr + 6 + 8 * k:hdr + 14 + 8 * k] = b"%08X" % value


def cpio_cases(good):
    ents = cpio_entries(good)
    by_name = {e[1]: e for e in ents}
    bb = by_name["bin/busybox"]
    trailer = ents[-1]
    last = ents[-2]
    second = ents[1]
    fifth = ents[4]
    tail = ": booting with an empty root"
    out = []

    data = (bb[0] + 110 + bb[2] + 3) & ~3
    cut = data + bb[3] // 2
    out.append(("trunc-data", good[:cut],
                "initramfs: at byte %d: size runs past the end%s" % (bb[0], tail)))
    out.append(("trunc-header", good[:fifth[0] + 50],
                "initramfs: at byte %d: header runs past the end%s" % (fifth[0], tail)))
    out.append(("no-trailer", good[:trailer[0]],
                "initramfs: at byte %d: no TRAILER!!! (the archive is cut short)%s"
                % (trailer[0], tail)))
    b = bytearray(good)
    b[0:6] = b"070707"  # the old portable format's magic
    out.append(("badmagic", bytes(b),
                "initramfs: at byte 0: bad magic (not a cpio newc archive)%s" % tail))
    b = bytearray(good)
    at = second[0] + 6 + 8 * 6 + 3  # c_filesize, its fourth digit
    b[at] = ord("g")
    out.append(("not-hex", bytes(b), "initramfs: at byte %d: not hex%s" % (at, tail)))
    b = bytearray(good)
    set_field(b, last[0], 11, 0x7fffffff)
    out.append(("name-past-end", bytes(b),
                "initramfs: at byte %d: name runs past the end%s" % (last[0], tail)))
    b = bytearray(good)
    b[fifth[0] + 110 + fifth[2] - 1] = ord("x")
    out.append(("name-no-nul", bytes(b),
                "initramfs: at byte %d: name is not NUL-terminated%s" % (fifth[0], tail)))
    b = bytearray(good)
    set_field(b, bb[0], 6, 0xffffffff)
    out.append(("huge-size", bytes(b),
                "initramfs: at byte %d: size runs past the end%s" % (bb[0], tail)))
    out.append(("garbage", bytes((i * 151 + 7) & 0xff for i in range(4096)),
                "initramfs: at byte 0: bad magic (not a cpio newc archive)%s" % tail))
    return out


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("elf", "cpio"):
        raise SystemExit(__doc__)
    kind, good, outdir = sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3]
    os.makedirs(outdir, exist_ok=True)
    if kind == "elf":
        for name, data, mode, want in elf_cases(good):
            path = os.path.join(outdir, name)
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, mode)
            print("%s\t%s\t%s" % (name, path, want))
    else:
        for name, data, want in cpio_cases(good):
            path = os.path.join(outdir, name + ".cpio")
            with open(path, "wb") as f:
                f.write(data)
            print("%s\t%s\t%s" % (name, path, want))


if __name__ == "__main__":
    main()
