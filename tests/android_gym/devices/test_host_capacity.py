"""`android-gym emulator-capacity`: the emulator count a host declares to Ray, from its cores and memory (issue 47)."""

from __future__ import annotations

import pytest

from android_gym import cli
from android_gym.devices import host_capacity
from android_gym.devices.host_capacity import emulator_capacity


@pytest.mark.parametrize(("cores", "memory", "expected"), [
    (96, 384, 47),   # cores bind: (96 - 2) / 2
    (96, 64, 15),    # memory binds: (64 - 4) / 4
    (2, 23.5, 0),    # this CI box: its 2 cores are the host's reserve
    (3.9, 100, 0),
    (4, 8, 1),
])
def test_capacity_is_the_tighter_of_cores_and_memory_after_the_reserve(cores, memory, expected) -> None:
    assert emulator_capacity(cores, memory) == expected


def test_bad_figures_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match="`memory_gib_per_emulator` must be > 0"):
        emulator_capacity(8, 16, memory_gib_per_emulator=0)
    with pytest.raises(ValueError, match="`reserved_cores` must be >= 0"):
        emulator_capacity(8, 16, reserved_cores=-1)


def test_the_command_prints_the_count_alone_on_stdout_for_ray_start(monkeypatch, capsys) -> None:
    monkeypatch.setattr(host_capacity, "this_host", lambda: (16, 64.0))
    monkeypatch.setattr(cli, "this_host", lambda: (16, 64.0))
    assert cli.main(["emulator-capacity", "--cores-per-emulator", "3"]) == 0
    out, err = capsys.readouterr()
    assert out == "4\n" and "16 cores, 64.0 GiB" in err  # (16 - 2) / 3 = 4.67; (64 - 4) / 4 = 15
    assert cli.main(["emulator-capacity", "--memory-gib-per-emulator", "-1"]) == 2
    assert "`memory_gib_per_emulator` must be > 0" in capsys.readouterr().err
