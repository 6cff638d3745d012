"""The core install is the environment alone: android_gym imports, plays and records with every extra's modules
missing (torch, transformers, stable-baselines3, ...), and each feature that needs an extra names it."""  # noqa: D205, D209

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from android_gym.extras import EXTRAS

REPO_ROOT = Path(__file__).resolve().parents[2]

NEEDS_AN_EXTRA = {
    "android_gym.vector.sb3": "sb3",
    "android_gym.sim.emulator.grpc_access": "emulator",
    "android_gym.sim.emulator.grpc_service": "emulator",
}
"""The modules of android_gym that import an extra's modules when imported; every other module must import without."""

WITHOUT_EXTRAS = r'''
import contextlib, importlib, io, json, pkgutil, sys
from android_gym.extras import EXTRAS
for name in {m for modules in EXTRAS.values() for m in modules}:
    sys.modules[name] = None  # as if not installed: importing it raises ModuleNotFoundError, find_spec finds nothing

import gymnasium as gym
import android_gym
from android_gym.cli import main as android_gym_main

out = {"failed": {}, "played": {}, "errors": {}}
for info in pkgutil.walk_packages(android_gym.__path__, "android_gym."):
    try:
        importlib.import_module(info.name)
    except ImportError as e:
        out["failed"][info.name] = f"{type(e).__name__}: {e}"

with contextlib.redirect_stdout(io.StringIO()):
    out["play_rc"] = android_gym_main(["play", "--env", "General-v0", "--agent", "expert", "--out", sys.argv[1]])
for name in ("General-v0", "WebShop-v0", "World-v0"):
    env = gym.make(f"android_gym/{name}")
    obs, info = env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    out["played"][name] = sorted(obs)
    env.close()

def error(call):
    try:
        call()
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None

import distrl_agent
from distrl_agent.cli import main as distrl_main
out["errors"]["mllm"] = error(lambda: gym.make("android_gym/General-v0", evaluator="mllm:/nowhere"))
out["errors"]["sb3"] = error(lambda: importlib.import_module("android_gym.vector.sb3"))
out["errors"]["agent"] = error(lambda: distrl_agent.train)
stderr = io.StringIO()
with contextlib.redirect_stderr(stderr):
    out["distrl_rc"] = distrl_main(["train", "--minutes", "1"])
out["distrl_stderr"] = stderr.getvalue()
out["heavy_loaded"] = sorted(m for m in ("torch", "transformers", "stable_baselines3") if sys.modules.get(m))
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def without_extras(tmp_path_factory) -> dict:
    """What a process with none of the extras' modules importable could import, play and was told."""
    out = tmp_path_factory.mktemp("play")
    done = subprocess.run([sys.executable, "-c", WITHOUT_EXTRAS, str(out)], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "out": out}


def test_every_android_gym_module_imports_without_the_extras(without_extras) -> None:
    failed = without_extras["failed"]
    assert set(failed) == set(NEEDS_AN_EXTRA), failed
    assert "pip install \"distrl[sb3]\"" in failed["android_gym.vector.sb3"]


def test_the_envs_play_and_record_without_torch(without_extras) -> None:
    assert without_extras["play_rc"] == 0 and list(without_extras["out"].glob("*.gif"))
    assert set(without_extras["played"]) == {"General-v0", "WebShop-v0", "World-v0"}
    assert all({"goal", "screenshot", "element_text"} <= set(keys) for keys in without_extras["played"].values())
    assert without_extras["heavy_loaded"] == []


@pytest.mark.parametrize("extra", ["mllm", "sb3", "agent"])
def test_a_feature_without_its_extra_names_the_extra_to_install(without_extras, extra: str) -> None:
    kind, message = without_extras["errors"][extra]
    assert kind == "MissingExtraError" and f"pip install \"distrl[{extra}]\"" in message, message


def test_distrl_without_the_agent_extra_exits_2_with_one_line(without_extras) -> None:
    assert without_extras["distrl_rc"] == 2
    lines = without_extras["distrl_stderr"].strip().splitlines()
    assert len(lines) == 1 and "distrl[agent]" in lines[0], lines


DISTRIBUTION_MODULES = {
    "torch": "torch", "transformers": "transformers", "stable-baselines3": "stable_baselines3", "tqdm": "tqdm",
    "pyyaml": "yaml", "tensorboard": "tensorboard", "safetensors": "safetensors", "matplotlib": "matplotlib",
    "scipy": "scipy", "psutil": "psutil", "ray": "ray", "grpcio": "grpc", "peft": "peft", "wandb": "wandb",
    "android-env": "android_env", "immutabledict": "immutabledict",
}


def _modules(requirements: list[str], extras: dict[str, list[str]]) -> set[str]:
    """The top-level modules a list of requirements installs, through `distrl[...]` references to other extras."""
    modules: set[str] = set()
    for requirement in requirements:
        name = requirement.split(";")[0].split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip().lower()
        if name == "distrl":
            for extra in requirement[requirement.index("[") + 1:requirement.index("]")].split(","):
                modules |= _modules(extras[extra.strip()], extras)
        elif name in DISTRIBUTION_MODULES:
            modules.add(DISTRIBUTION_MODULES[name])
    return modules


def test_the_extras_table_is_pyprojects() -> None:
    """`android_gym.extras.EXTRAS` names, for each extra of pyproject.toml, the modules that extra installs."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert set(EXTRAS) == set(extras) - {"dev"}
    for extra, modules in EXTRAS.items():
        assert set(modules) == _modules(extras[extra], extras), extra
    assert not _modules(project["dependencies"], extras), "the core install pulls an extra's module"
    assert _modules(extras["dev"], extras) >= {m for e in ("agent", "sb3", "bench") for m in EXTRAS[e]}
