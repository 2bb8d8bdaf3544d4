"""Freed blocks of Python's frame stack and object arenas kept for reuse (CPython 3.11 and 3.12).

CPython 3.11 keeps its frames in 16 KiB chunks, mapped when a call needs a new one and unmapped when
the last frame in it returns (python/cpython#142183, fixed from 3.13): a loop that calls across a
chunk's end maps, faults in and unmaps a chunk on every call. Numba's typing recurses deep and
loops there: a third of the CPU of ``tests/data/typed_run.py``, some 8% of Scotch Whist's compile
with every player, went so (docs/benchmarks.md, the suite's frame stack). :func:`install` puts
Python's own arena allocator (``PyObject_SetArenaAllocator``: mmap, munmap) behind a cache of eight
freed blocks, four of up to 64 KiB and four larger; its two functions (and the slot search they share)
are a few lines of LLVM IR,
made by llvmlite (Numba's), as they run inside the interpreter's frame push and must not run
Python. What Python mapped before, it may give back through them: the same calls on the same sizes.
"""

from __future__ import annotations

import ctypes
import mmap
import sys

SLOTS = 8  # (address, size) pairs; the first half for blocks up to SMALL bytes
SMALL = 64 * 1024

IR = """
define i64 @{name}_find(i64* %slots, i64 %size, i1 %for_free) {{
entry:
  %big = icmp ugt i64 %size, {small}
  %lo = select i1 %big, i64 {half}, i64 0
  %hi = add i64 %lo, {half}
  br label %loop
loop:
  %i = phi i64 [%lo, %entry], [%next, %miss]
  %at = mul i64 %i, 2
  %pp = getelementptr i64, i64* %slots, i64 %at
  %p = load i64, i64* %pp
  %sp = getelementptr i64, i64* %pp, i64 1
  %s = load i64, i64* %sp
  %empty = icmp eq i64 %p, 0
  %full = xor i1 %empty, true
  %fits = icmp eq i64 %s, %size
  %kept = and i1 %full, %fits
  %hit = select i1 %for_free, i1 %empty, i1 %kept
  br i1 %hit, label %found, label %miss
found:
  ret i64 %at
miss:
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %hi
  br i1 %more, label %loop, label %none
none:
  ret i64 -1
}}

define i64 @{name}_alloc(i64* %slots, i64 %size) {{
entry:
  %at = call i64 @{name}_find(i64* %slots, i64 %size, i1 0)
  %none = icmp slt i64 %at, 0
  br i1 %none, label %map, label %take
take:
  %pp = getelementptr i64, i64* %slots, i64 %at
  %p = load i64, i64* %pp
  store i64 0, i64* %pp
  ret i64 %p
map:
  %mmap = inttoptr i64 {mmap} to i64 (i64, i64, i32, i32, i32, i64)*
  %got = call i64 %mmap(i64 0, i64 %size, i32 {prot}, i32 {flags}, i32 -1, i64 0)
  %failed = icmp eq i64 %got, -1
  %out = select i1 %failed, i64 0, i64 %got
  ret i64 %out
}}

define void @{name}_free(i64* %slots, i64 %ptr, i64 %size) {{
entry:
  %at = call i64 @{name}_find(i64* %slots, i64 %size, i1 1)
  %none = icmp slt i64 %at, 0
  br i1 %none, label %unmap, label %keep
keep:
  %pp = getelementptr i64, i64* %slots, i64 %at
  store i64 %ptr, i64* %pp
  %sp = getelementptr i64, i64* %pp, i64 1
  store i64 %size, i64* %sp
  ret void
unmap:
  %munmap = inttoptr i64 {munmap} to i32 (i64, i64)*
  %r = call i32 %munmap(i64 %ptr, i64 %size)
  ret void
}}
"""


class _Arena(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


_kept: list = []  # the engine and the slots, alive as long as the process


def needed() -> bool:
    """Whether this interpreter frees a frame-stack chunk as soon as it empties."""
    return sys.implementation.name == "cpython" and (3, 11) <= sys.version_info[:2] < (3, 13)


def install() -> bool:
    """Put the process's arena allocator behind the cache; False where it is not needed or cannot be."""
    if _kept or not needed() or not sys.platform.startswith("linux"):
        return bool(_kept)
    import llvmlite.binding as llvm

    libc = ctypes.CDLL(None)
    ir = IR.format(
        name="whistsim_tests_arena",
        small=SMALL,
        half=SLOTS // 2,
        mmap=ctypes.cast(libc.mmap, ctypes.c_void_p).value,
        munmap=ctypes.cast(libc.munmap, ctypes.c_void_p).value,
        prot=mmap.PROT_READ | mmap.PROT_WRITE,
        flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
    )
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    engine = llvm.create_mcjit_compiler(
        llvm.parse_assembly(ir), llvm.Target.from_default_triple().create_target_machine()
    )
    engine.finalize_object()
    slots = (ctypes.c_uint64 * (2 * SLOTS))()
    arena = _Arena(
        ctypes.addressof(slots),
        engine.get_function_address("whistsim_tests_arena_alloc"),
        engine.get_function_address("whistsim_tests_arena_free"),
    )
    set_allocator = ctypes.pythonapi.PyObject_SetArenaAllocator
    set_allocator.argtypes, set_allocator.restype = [ctypes.POINTER(_Arena)], None
    set_allocator(ctypes.byref(arena))  # Python copies the struct
    _kept.extend([engine, slots])
    return True


def installed() -> bool:
    return bool(_kept)
