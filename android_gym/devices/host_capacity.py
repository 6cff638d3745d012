"""How many emulators a host can run: its cores and memory over what one emulator takes (issue 47).

A headless x86_64 emulator with a hardware-accelerated (KVM) image takes about 2 cores and 4 GB under an agent's load;
the host keeps some for itself (the ADB server, a Ray worker, the policy). `android-gym emulator-capacity` prints the
count for `ray start --resources='{"emulator": N}'`; measure your image and pass its own figures.

>>> emulator_capacity(cores=96, memory_gib=384)   # one of the DistRL paper's hosts
47
>>> emulator_capacity(cores=8, memory_gib=16, memory_gib_per_emulator=6)   # memory is the limit here
2
"""

from __future__ import annotations

import math
import os

CORES_PER_EMULATOR = 2.0
MEMORY_GIB_PER_EMULATOR = 4.0
RESERVED_CORES = 2.0
RESERVED_MEMORY_GIB = 4.0


def emulator_capacity(cores: float, memory_gib: float, cores_per_emulator: float = CORES_PER_EMULATOR,
                      memory_gib_per_emulator: float = MEMORY_GIB_PER_EMULATOR, reserved_cores: float = RESERVED_CORES,
                      reserved_memory_gib: float = RESERVED_MEMORY_GIB) -> int:
    """Emulators that fit in `cores` and `memory_gib` once the host's reserve is set aside (0 when none does).

    Raises:
        ValueError: a per-emulator figure that is not > 0, or a negative figure.
    """
    for name, value in (("cores_per_emulator", cores_per_emulator),
                        ("memory_gib_per_emulator", memory_gib_per_emulator)):
        if not value > 0:
            raise ValueError(f"`{name}` must be > 0, got {value!r}")
    for name, value in (("cores", cores), ("memory_gib", memory_gib), ("reserved_cores", reserved_cores),
                        ("reserved_memory_gib", reserved_memory_gib)):
        if not value >= 0:
            raise ValueError(f"`{name}` must be >= 0, got {value!r}")
    by_cores = (cores - reserved_cores) / cores_per_emulator
    by_memory = (memory_gib - reserved_memory_gib) / memory_gib_per_emulator
    return max(0, math.floor(min(by_cores, by_memory) + 1e-9))


def this_host() -> tuple[int, float]:
    """(cores, memory in GiB) of this machine: the cores this process may use, the physical memory."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return cores, memory
