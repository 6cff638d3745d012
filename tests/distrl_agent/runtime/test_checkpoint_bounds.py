"""A checkpoint's policy config is bounded: a hostile learner.json is refused, by key, before any big allocation.

`distrl eval` builds its policy from the config in learner.json. Every size in `SmallPolicyConfig` and
`VLMPolicyConfig` has an upper bound, checked when the config is read, before a tensor is allocated.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from distrl_agent.errors import ConfigError
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.policies.small_config import MAX_EMBEDDING_ENTRIES, SmallPolicyConfig
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.replay import TrajectoryReplay
from distrl_agent.runtime.checkpoint import LearnerBlob, save_checkpoint, save_learner_blob, write_state
from distrl_agent.runtime.checkpoint_files import CURRENT, MANIFEST_FILE, META_FILE, REPLAY_FILE
from distrl_agent.runtime.progress import RunState

SMALL_BOUNDS = {"vocab_size": 2**20, "max_goal_words": 512, "max_label_words": 64, "max_span_length": 512,
                "word_dim": 1024, "hidden_dim": 2048, "class_dim": 256}
VLM_BOUNDS = {"max_new_tokens": 2048, "value_hidden_dim": 8192, "lora_rank": 512}


@pytest.mark.parametrize(("field", "bound"), SMALL_BOUNDS.items())
def test_small_policy_sizes_above_their_bound_are_refused_naming_the_field(field, bound) -> None:
    """One past each bound is a ConfigError naming the field; the bound itself (with a narrow embedding) is fine."""
    with pytest.raises(ConfigError, match=rf"`{field}` must be less than or equal to {bound}"):
        SmallPolicyConfig(**{field: bound + 1})
    narrow = {"word_dim": 1} if field == "vocab_size" else {"vocab_size": 2} if field == "word_dim" else {}
    assert getattr(SmallPolicyConfig(**{field: bound, **narrow}), field) == bound


def test_a_wide_embedding_of_two_bounded_sizes_is_refused() -> None:
    """`vocab_size * word_dim` is capped too: each within its bound, together past 256 MiB of float32."""
    with pytest.raises(ConfigError, match=r"`vocab_size` must be at most .* // word_dim \(1024\)"):
        SmallPolicyConfig(vocab_size=2**20, word_dim=1024)
    assert SmallPolicyConfig(vocab_size=MAX_EMBEDDING_ENTRIES // 1024, word_dim=1024).word_dim == 1024


@pytest.mark.parametrize(("field", "bound"), VLM_BOUNDS.items())
def test_vlm_policy_sizes_above_their_bound_are_refused_naming_the_field(field, bound) -> None:
    """One past each bound is a ConfigError naming the field; the bound itself is accepted."""
    with pytest.raises(ConfigError, match=rf"`{field}` must be less than or equal to {bound}"):
        VLMPolicyConfig(model_path="m", **{field: bound + 1})
    assert getattr(VLMPolicyConfig(model_path="m", **{field: bound}), field) == bound


@pytest.mark.parametrize(("field", "value", "message"), [
    ("prompt_template", "{image}{goal}" + "x" * 8192, "at most 8192 characters"),
    ("lora_target_modules", ["q_proj"] * 65, "at most 64 items"),
    ("lora_alpha", float("inf"), "finite"),
])
def test_vlm_texts_and_lists_are_bounded(field, value, message) -> None:
    """Templates (re-tokenised every step) and adapter lists are bounded; alpha must be finite."""
    with pytest.raises(ConfigError, match=rf"`{field}`.*{message}"):
        VLMPolicyConfig(model_path="m", **{field: value})


class _Handle:
    """A learner handle that saves a real small-policy checkpoint of the default config."""

    def save(self, directory: str) -> None:
        """Write the learner files, an empty replay and state.json."""
        policy = SmallPolicy(SmallPolicyConfig())
        save_learner_blob(directory, LearnerBlob(policy.state_dict(), None, torch.get_rng_state(),
                                                 {"policy_kind": "small", "policy_config": policy.config.to_data(),
                                                  "algorithm": "a_ride"}))
        TrajectoryReplay(8).save(Path(directory) / REPLAY_FILE)
        write_state(directory, {"version": 1, "counters": {}, "rng": {"bit_generator": "PCG64", "state": {
            "state": 1, "inc": 1}, "has_uint32": 0, "uinteger": 0}})


_MEASURE = textwrap.dedent("""
    import re, resource, sys
    from distrl_agent.errors import DistrlError
    from distrl_agent.policies.build import build_policy
    from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy

    # a guard for this machine, should the check be missing: allocations past 2 GiB more than now fail
    vm = int(re.search(r"VmSize:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1)) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (vm + 2 * 2**30, resource.RLIM_INFINITY))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        build_policy(read_policy(find_checkpoint(sys.argv[1])).config)  # what `distrl eval` does
        print("BUILT")
    except DistrlError as e:
        print("REFUSED", type(e).__name__, e)
    print("PEAK_GROWTH_KIB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
""")


@pytest.mark.parametrize("vocab_size", [100_000_000, 1e8])
def test_a_hostile_learner_json_is_refused_by_key_before_any_big_allocation(tmp_path, vocab_size) -> None:
    """A learner.json asking for a 25.6 GB embedding is refused by key, and the reader's peak memory hardly grows.

    CheckpointError names the file and `vocab_size`; the peak RSS of the reading process grows by less than 16 MiB
    (measured in a fresh process, with a 2 GiB address-space guard should the check be missing).
    """
    save_checkpoint(_Handle(), RunState(), tmp_path)  # type: ignore[arg-type]
    folder = tmp_path / CURRENT
    meta = json.loads((folder / META_FILE).read_text())
    meta["policy_config"]["vocab_size"] = vocab_size
    (folder / META_FILE).write_text(json.dumps(meta))
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    manifest["files"][META_FILE] = (folder / META_FILE).stat().st_size
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest))
    result = subprocess.run([sys.executable, "-c", _MEASURE, str(tmp_path)], capture_output=True, text=True,
                            timeout=300, cwd=Path(__file__).resolve().parents[3])
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    assert "REFUSED" in lines, result.stdout + result.stderr[-2000:]
    assert lines["REFUSED"].startswith("CheckpointError") and META_FILE in lines["REFUSED"]
    assert "vocab_size" in lines["REFUSED"]
    assert int(lines["PEAK_GROWTH_KIB"]) < 16 * 1024, lines
