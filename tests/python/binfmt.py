"""What an executable is built for, read from its header: ELF (Linux), Mach-O
(macOS) or PE (Windows), its CPU, and for ELF whether it is static."""

from __future__ import annotations

import struct
from dataclasses import dataclass

ELF_MACHINES = {0x3E: "x86_64", 0xB7: "aarch64"}
MACHO_CPUS = {0x01000007: "x86_64", 0x0100000C: "arm64"}
PE_MACHINES = {0x8664: "amd64", 0xAA64: "arm64"}
PT_INTERP = 3
PT_DYNAMIC = 2
LC_BUILD_VERSION = 0x32
PE_SUBSYSTEM_CONSOLE = 3


@dataclass(frozen=True)
class Executable:
    """The facts of an executable's header."""

    format: str  # "ELF", "Mach-O" or "PE"
    arch: str
    #: ELF: no interpreter and no dynamic section (a static binary).
    static: bool = False
    #: Mach-O: the lowest macOS version it runs on, as (major, minor).
    min_os: tuple[int, int] | None = None
    #: PE: a console program.
    console: bool = False


def _elf(data: bytes) -> Executable:
    assert data[4] == 2 and data[5] == 1, "a 64-bit little-endian ELF"
    machine = struct.unpack_from("<H", data, 18)[0]
    phoff = struct.unpack_from("<Q", data, 32)[0]
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    types = {struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)}
    return Executable("ELF", ELF_MACHINES.get(machine, hex(machine)), static=not types & {PT_INTERP, PT_DYNAMIC})


def _macho(data: bytes) -> Executable:
    cpu, _sub, _filetype, ncmds = struct.unpack_from("<IIII", data, 4)
    min_os = None
    at = 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        if cmd == LC_BUILD_VERSION:
            minos = struct.unpack_from("<I", data, at + 12)[0]
            min_os = (minos >> 16, (minos >> 8) & 0xFF)
        at += size
    return Executable("Mach-O", MACHO_CPUS.get(cpu, hex(cpu)), min_os=min_os)


def _pe(data: bytes) -> Executable:
    lfanew = struct.unpack_from("<I", data, 0x3C)[0]
    assert data[lfanew : lfanew + 4] == b"PE\0\0", "a PE signature"
    machine = struct.unpack_from("<H", data, lfanew + 4)[0]
    optional = lfanew + 24
    assert struct.unpack_from("<H", data, optional)[0] == 0x20B, "PE32+ (64-bit)"
    subsystem = struct.unpack_from("<H", data, optional + 68)[0]
    return Executable("PE", PE_MACHINES.get(machine, hex(machine)), console=subsystem == PE_SUBSYSTEM_CONSOLE)


def identify(data: bytes) -> Executable:
    """What the executable data is built for; AssertionError for anything else."""
    if data[:4] == b"\x7fELF":
        return _elf(data)
    if data[:4] == b"\xcf\xfa\xed\xfe":
        return _macho(data)
    if data[:2] == b"MZ":
        return _pe(data)
    raise AssertionError(f"not an executable this project ships: {data[:4]!r}")
