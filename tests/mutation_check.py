"""Mutation check of the update-rule tests: break the maths on purpose, one mutant at a time, and watch a test fail.

    python tests/mutation_check.py            # every mutant (about 5 minutes on 2 cores)
    python tests/mutation_check.py rho clip   # the mutants whose name contains one of the words

Each mutant replaces one exact piece of source (which must occur once) and runs the update-rule tests; the file is
restored whatever happens. A mutant that passes every test "survives": the tests could not tell the broken rule from
the right one, and the script exits 1 naming it. Nothing else in the tree changes.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/distrl_agent/test_update_rules.py", "tests/distrl_agent/test_sequence_entropy.py",
         "tests/distrl_agent/test_retrace.py", "tests/distrl_agent/test_replay.py",
         "tests/distrl_agent/test_priority.py", "tests/distrl_agent/test_learner.py",
         "tests/distrl_agent/runtime/test_groups.py",
         "tests/distrl_agent/runtime/test_admission.py::test_the_allowance_grows_by_r_per_update_from_the_first_weights"
         "_in_whole_groups"]


@dataclass(frozen=True)
class Mutant:
    """One deliberate bug: `old` becomes `new` in `path`."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...] = ()
    """The tests that must catch it; empty: `TESTS`."""


A_RIDE, DIGIRL, BC = "distrl_agent/algorithms/a_ride.py", "distrl_agent/algorithms/digirl.py", \
    "distrl_agent/algorithms/filtered_bc.py"
RETRACE, BUFFER, ENTROPY = "distrl_agent/algorithms/retrace.py", "distrl_agent/replay/buffer.py", \
    "distrl_agent/policies/sequence_entropy.py"
PPO, GRPO = "distrl_agent/algorithms/ppo.py", "distrl_agent/algorithms/grpo.py"
GROUPS, COMMON = "distrl_agent/runtime/groups.py", "distrl_agent/algorithms/common.py"
CONFIGS, VLM = "distrl_agent/algorithms/configs.py", "distrl_agent/policies/vlm.py"
VLM_TESTS = ("tests/distrl_agent/test_vlm_families.py", "tests/distrl_agent/test_vlm_policy.py")
"""The tests of the sequence policy's token log-probs and of the ratio levels (a tiny VLM: about a minute)."""
LEARNER, ADMISSION = "distrl_agent/runtime/learner.py", "distrl_agent/runtime/admission.py"
WORKER = "distrl_agent/runtime/worker.py"
GROUPS_UNDER_ADMISSION = ("tests/distrl_agent/runtime/test_admission.py::test_a_started_group_always_finishes_under"
                          "_admission",)
MUTANTS = [
    Mutant("admission: a started group's members wait for room like a new group's", WORKER,
           "if group >= 0 and (group in self._admitted or group in opened):", "if False:", GROUPS_UNDER_ADMISSION),
    Mutant("admission: held while a reset is on its way", WORKER,
           "and not (self.pool is not None and self.pool.outstanding())", "and True", GROUPS_UNDER_ADMISSION),
    Mutant("admission: a group opens only in a whole group's room", WORKER, "elif room > 0:",
           "elif room >= (self.admission.group_size if group >= 0 else 1):",
           ("tests/distrl_agent/runtime/test_admission.py::test_a_member_lost_to_a_fault_does_not_keep_the_next_group_out",)),
    Mutant("a-ride: actor loss sign flipped", A_RIDE, "actor_loss = -masked_mean(", "actor_loss = masked_mean("),
    Mutant("a-ride: entropy sign flipped", A_RIDE, "(actor_loss - c.entropy_coef * entropy_bonus)",
           "(actor_loss + c.entropy_coef * entropy_bonus)"),
    Mutant("a-ride: entropy bonus not faded over a trajectory's draws", A_RIDE,
           "masked_mean(out.entropy, mask, 1.0 / draws.clamp(min=1).to(out.entropy.dtype))",
           "masked_mean(out.entropy, mask)"),
    Mutant("a-ride: entropy faded even when entropy_per_draw is off", A_RIDE,
           "if c.entropy_per_draw and batch.draws is not None", "if batch.draws is not None"),
    Mutant("replay: draws not counted", BUFFER, "np.add.at(self._draws, slots, 1)", "pass"),
    Mutant("replay: draws counted once per batch", BUFFER, "np.add.at(self._draws, slots, 1)",
           "self._draws[slots] += 1"),
    Mutant("replay: draws not reset for a slot's new trajectory", BUFFER,
           "self._draws[slot] = 0\n        self._tree.update(slot, 0.0)", "self._tree.update(slot, 0.0)"),
    Mutant("a-ride: penalty sign flipped", A_RIDE, "step_signal = advantage - c.penalty_coef * batch.penalty",
           "step_signal = advantage + c.penalty_coef * batch.penalty"),
    Mutant("a-ride: penalty ignored", A_RIDE, "step_signal = advantage - c.penalty_coef * batch.penalty",
           "step_signal = advantage"),
    Mutant("a-ride: rho_bar dropped from the actor", A_RIDE, "signal = rho_bar * (", "signal = ("),
    Mutant("a-ride: rho not clipped", A_RIDE,
           "rho_bar = behaviour_weight(rho_actor, c.behaviour_weight, c.rho_bar_max)", "rho_bar = rho_actor"),
    Mutant("a-ride: w_IS ignored by the actor", A_RIDE, "if grain.ndim == 3 else per_step, mask, w_is)",
           "if grain.ndim == 3 else per_step, mask)"),
    Mutant("a-ride: critic loss sign flipped", A_RIDE, "critic_loss = masked_mean(", "critic_loss = -masked_mean("),
    Mutant("a-ride: no-retrace advantage two-step (the old bug)", A_RIDE,
           "advantage = torch.where(mask, v_target - values[:, :-1], 0.0)",
           "advantage = retrace_advantages(rewards, values, v_target, dones, mask, c.gamma)"),
    Mutant("retrace: c_t used for c_{t+1}", RETRACE, "c_tp1 = torch.cat([c[:, 1:], torch.zeros_like(c[:, :1])], dim=1)",
           "c_tp1 = c"),
    Mutant("retrace: lambda ignored", RETRACE, "c = lam * torch.clamp(", "c = torch.clamp("),
    Mutant("retrace: traces not truncated at 1", RETRACE, "c = lam * torch.clamp(rho.detach(), max=rho_clip)",
           "c = lam * rho.detach()"),
    Mutant("digirl: advantage filter inverted", DIGIRL, "keep[:, None] & (advantage > 0)",
           "keep[:, None] & (advantage < 0)"),
    Mutant("digirl: curriculum filter inverted", DIGIRL, "torch.topk(surprise, k)", "torch.topk(-surprise, k)"),
    Mutant("digirl: offset added instead of subtracted", DIGIRL, "+ returns - c.advantage_offset",
           "+ returns + c.advantage_offset"),
    Mutant("digirl: instruction critic dropped", DIGIRL, "(step_critic + instruction_critic)", "(step_critic)"),
    Mutant("digirl: actor loss sign flipped", DIGIRL, "actor_loss = -(out.log_pi", "actor_loss = (out.log_pi"),
    Mutant("filtered-bc: filter inverted", BC, ").sum(1) >= config.min_return", ").sum(1) < config.min_return"),
    Mutant("filtered-bc: loss sign flipped", BC, "loss = -(out.log_pi", "loss = (out.log_pi"),
    Mutant("replay: alpha ignored", BUFFER, 'values ** self.config["alpha"]', "values"),
    Mutant("replay: IS weight exponent sign flipped", BUFFER, "(len(self) * probabilities) ** (-beta)",
           "(len(self) * probabilities) ** (beta)"),
    Mutant("entropy: token estimate without its score term", ENTROPY,
           "return per_token.sum(1) + (score * later).sum(1)", "return per_token.sum(1)"),
    Mutant("entropy: sampled estimate by plain autograd", ENTROPY, "return -log_prob - log_prob * score.sum(1)",
           "return -log_prob - score.sum(1)"),
    Mutant("ppo/grpo surrogate: clip turned into a max", COMMON, "surrogate = torch.minimum(",
           "surrogate = torch.maximum("),
    Mutant("ppo/grpo surrogate: ratio to the behaviour policy instead of the proximal one", COMMON,
           "log_ratio = torch.where(mask, log_pi - log_prox, 0.0)",
           "log_ratio = torch.where(mask, log_pi - log_mu, 0.0)"),
    Mutant("ppo/grpo surrogate: behaviour correction dropped", COMMON,
           "actor_loss = -masked_mean(behaviour * surrogate, mask)", "actor_loss = -masked_mean(surrogate, mask)"),
    Mutant("ppo/grpo surrogate: behaviour correction not truncated", COMMON,
           "behaviour = behaviour_weight(behaviour_ratio, weighting, is_clip)", "behaviour = behaviour_ratio"),
    Mutant("ppo: GAE lambda ignored", PPO, "c.gamma, c.lam)", "c.gamma, 1.0)"),
    Mutant("ppo: advantages not standardised", PPO, "if c.normalize_advantages:", "if False:"),
    Mutant("ppo/grpo surrogate: actor loss sign flipped", COMMON, "actor_loss = -masked_mean(behaviour",
           "actor_loss = masked_mean(behaviour"),
    Mutant("ppo: the surrogate's advantages replaced by their sign", PPO,
           "    a = targets.advantages\n", "    a = targets.advantages.sign()\n"),
    Mutant("grpo: advantage sign flipped", GRPO, "return (batch.group_return - batch.group_mean)",
           "return (batch.group_mean - batch.group_return)"),
    Mutant("grpo: advantage not divided by the group std", GRPO, "/ (batch.group_std + eps)", "/ (1.0 + eps)"),
    Mutant("grpo: proximal log-probs passed as the behaviour's", GRPO,
           "behaviour_log_probs(batch, out, c.ratio_level),\n", "prox,\n"),
    Mutant("grpo: entropy sign flipped", GRPO, "loss = actor_loss - c.entropy_coef * entropy",
           "loss = actor_loss + c.entropy_coef * entropy"),
    Mutant("grpo: KL penalty sign flipped", GRPO, "loss = loss + c.kl_coef * kl", "loss = loss - c.kl_coef * kl"),
    Mutant("a-ride: KL penalty sign flipped", A_RIDE, "entropy_bonus + c.kl_coef * kl)",
           "entropy_bonus - c.kl_coef * kl)"),
    Mutant("a-ride: trust region stops nothing", A_RIDE, "signal = torch.where(stopped, 0.0, signal)", "pass"),
    Mutant("a-ride: trust region stops pushes toward mu", A_RIDE, "rho_actor > 1 + c.trust_region",
           "rho_actor < 1 - c.trust_region"),
    Mutant("a-ride: KL penalty not IS-weighted", A_RIDE, "kl_to_reference(pi, log_ref, mask, c.ratio_level, w_is)",
           "kl_to_reference(pi, log_ref, mask, c.ratio_level)"),
    Mutant("grpo: length penalty ignored", CONFIGS,
           "return total - self.length_penalty * trajectory.length if total > 0 else total", "return total"),
    Mutant("groups: population std instead of the sample std", GROUPS, "returns.std(ddof=1)", "returns.std()"),
    Mutant("groups: uniform groups shipped", GROUPS, "if std == 0.0:", "if False:"),
    Mutant("learner: gradient ascent on the loss", LEARNER, "loss.backward()", "(-loss).backward()"),
    Mutant("learner: priorities never written back", LEARNER,
           "self.replay.update_priorities(sample.indices, priorities, sample.uids)", "pass"),
    Mutant("learner: critic warm-up ignored", LEARNER,
           'rule = self._warmup_rule if self.counters["learner/updates"] < c.critic_warmup_updates else self.rule',
           "rule = self.rule"),
    Mutant("learner: IS exponent not annealed", LEARNER, "beta = c.beta_start + frac * (c.beta_end - c.beta_start)",
           "beta = c.beta_start"),
    Mutant("learner: the refresh reads other trajectories' cached encodings", LEARNER,
           "self.encodings.inputs(trajectories, uids)", "self.encodings.inputs(trajectories, uids[::-1])"),
    Mutant("admission: PPO's epochs counted as updates", ADMISSION,
           "max(0, version - first_version) / self.versions_per_update", "max(0, version - first_version)"),
    Mutant("ratio levels: the token level reads the sequence's ratio", COMMON,
           'or self.token_mask is None or level == "sequence":',
           'or self.token_mask is None or level in ("sequence", "token"):', VLM_TESTS),
    Mutant("ratio levels: GSPO's mean sums the padding after an action's tokens", COMMON,
           "return torch.where(token_mask, self.tokens, 0.0).sum(-1) / count, mask",
           "return self.tokens.sum(-1) / count, mask", VLM_TESTS),
    Mutant("ratio levels: GSPO's mean divides by the padded length", COMMON,
           "count = token_mask.sum(-1).clamp(min=1)",
           "count = torch.full_like(token_mask.sum(-1), token_mask.shape[-1])", VLM_TESTS),
    Mutant("vlm: the learner's log-prob sums padding tokens", VLM,
           "token_log_p = torch.where(token_mask, log_p.gather(-1, tokens[..., None]).squeeze(-1), 0.0)",
           "token_log_p = log_p.gather(-1, tokens[..., None]).squeeze(-1)", VLM_TESTS),
    Mutant("a-ride: KL penalty at the sequence's grain whatever the ratio level", A_RIDE,
           "kl_to_reference(pi, log_ref, mask, c.ratio_level, w_is)",
           'kl_to_reference(pi, log_ref, mask, "sequence", w_is)', VLM_TESTS),
    Mutant("grpo: KL penalty at the sequence's grain whatever the ratio level", GRPO,
           "mask, c.ratio_level)\n        loss = loss + c.kl_coef * kl",
           "mask)\n        loss = loss + c.kl_coef * kl", VLM_TESTS),
    Mutant("digirl: curriculum ties cut at k", DIGIRL, "keep = surprise >= torch.topk(surprise, k).values[-1]",
           "keep = torch.zeros_like(surprise, dtype=torch.bool).index_fill(0, torch.topk(surprise, k).indices, True)"),
]


def tests_pass(tests: tuple[str, ...] | list[str] = ()) -> bool:
    """Whether `tests` (empty: `TESTS`) pass on the tree as it is."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *(tests or TESTS)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True).returncode == 0


def run(mutant: Mutant) -> bool:
    """Apply `mutant`, run the tests, restore; True when some test failed (the mutant was caught)."""
    path = ROOT / mutant.path
    source = path.read_text()
    if source.count(mutant.old) != 1:
        raise SystemExit(f"{mutant.name}: {mutant.old!r} occurs {source.count(mutant.old)} times in {mutant.path}; "
                         "update the mutant to the current source")
    try:
        path.write_text(source.replace(mutant.old, mutant.new))
        return not tests_pass(mutant.tests)
    finally:
        path.write_text(source)


def main(words: list[str]) -> int:
    chosen = [m for m in MUTANTS if not words or any(w in m.name for w in words)]
    if not tests_pass() or not tests_pass(VLM_TESTS):
        print("the tests fail on the unmutated tree; fix them first")
        return 2
    survivors = []
    for i, mutant in enumerate(chosen, 1):
        caught = run(mutant)
        print(f"[{i}/{len(chosen)}] {'caught  ' if caught else 'SURVIVED'} {mutant.name}", flush=True)
        if not caught:
            survivors.append(mutant.name)
    print(f"{len(chosen) - len(survivors)} of {len(chosen)} mutants caught")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
