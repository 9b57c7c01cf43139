#!/usr/bin/env python3
"""Seeds for the ELF fuzzers (make fuzz-program, fuzz-elf): a built workload
with its first loadable segment moved so that it ends exactly at a memory
boundary, or a few bytes past it, and with the entry on the last word of
the workload RAM. Mutations of these reach the range checks' edges, which
random bytes seldom do.

  tests/lib/elf_seeds.py WORKLOAD.elf CORPUS_DIR
"""
import struct
import sys

WL_RAM_END = 0x80000000 + 0x1F000    # the workload RAM (docs/memory-map.md)
RAM_END = 0x80000000 + 0x20000       # the whole RAM (the model accepts up to here)


def first_load(elf):
    phoff, = struct.unpack_from("<I", elf, 28)
    phnum, = struct.unpack_from("<H", elf, 44)
    for i in range(phnum):
        at = phoff + 32 * i
        ptype, _, _, _, filesz, memsz = struct.unpack_from("<IIIIII", elf, at)
        if ptype == 1 and filesz:
            return at, filesz, memsz
    raise SystemExit("elf_seeds.py: no loadable segment with file data")


def main():
    src, out = sys.argv[1], sys.argv[2]
    elf = bytes(open(src, "rb").read())
    at, filesz, memsz = first_load(elf)
    seeds = {}
    for name, end in (("wl-end", WL_RAM_END), ("wl-end+4", WL_RAM_END + 4),
                      ("ram-end", RAM_END), ("ram-end+4", RAM_END + 4)):
        e = bytearray(elf)
        struct.pack_into("<II", e, at + 8, end - memsz, end - memsz)   # p_vaddr, p_paddr
        seeds[name] = e
    e = bytearray(elf)
    struct.pack_into("<I", e, 24, WL_RAM_END - 4)                      # e_entry
    seeds["entry-last-word"] = e
    for name, data in seeds.items():
        with open("%s/seed-%s.elf" % (out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
