"""The update rules against their equations (distrl_agent/ALGORITHM.md), recomputed here step by step.

The references below are written from the equations over the tabular policy's parameter tables, with plain loops and
none of the rules' helpers, so a wrong sign, a dropped clip, an inverted filter or a shifted trace index in a rule
changes its loss value or its gradient away from the reference. Direction tests then check what each term is for: one
SGD step raises log π of an action with a positive advantage, lowers that of a penalised one, raises the entropy.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
import torch
from tabular_policy import GOALS, Episode, TabularConfig, TabularPolicy, batch_of, random_episodes

from distrl_agent.algorithms.a_ride import ARideConfig, a_ride_loss, a_ride_prepare
from distrl_agent.algorithms.common import LossOutput
from distrl_agent.algorithms.configs import ALGORITHMS, GroupSpec, GRPOConfig
from distrl_agent.algorithms.digirl import DigiRLConfig, digirl_loss
from distrl_agent.algorithms.filtered_bc import FilteredBCConfig, filtered_bc_loss
from distrl_agent.algorithms.grpo import grpo_loss, grpo_prepare
from distrl_agent.algorithms.ppo import PPOConfig, ppo_loss, ppo_prepare
from distrl_agent.algorithms.rules import make_update_rule
from distrl_agent.errors import ConfigError, DataError
from distrl_agent.runtime.groups import GroupCollector
from distrl_agent.types import collate

W_IS = (1.0, 0.4, 0.8, 0.6, 0.9)
DRAWS = (1, 3, 1, 2, 7)
"""Times each episode of the batch has been drawn from the replay, this draw included."""


# -- references, from the equations ---------------------------------------------------------------------------------
def reference_weight(ratio: float, mode: str, cap: float) -> float:
    """A step's behaviour weight: truncate min(cap, rho); mask rho up to the cap and 0 above it; uncapped rho."""
    if mode == "truncate":
        return min(cap, ratio)
    if mode == "mask":
        return ratio if ratio <= cap else 0.0
    assert mode == "uncapped"
    return ratio


def reference_a_ride(policy: TabularPolicy, episodes: list[Episode], w_is: tuple[float, ...], c: ARideConfig,
                     draws: tuple[int, ...] | None = None, ref_policy: TabularPolicy | None = None):
    """L = actor_coef (L_pi - beta mean H / k + kl_coef mean w k3) + c_V L_V and the priority of each episode, from
    ALGORITHM.md; with a `trust_region` epsilon, a step whose signal pushes its ratio further outside [1 - epsilon,
    1 + epsilon] adds no actor term.

    k is the episode's draw count when `entropy_per_draw` is on (1 when `draws` is None), else 1; k3 = r - log r - 1
    with r = pi_ref / pi of the stored action, `ref_policy` being pi_ref (needed when `kl_coef` > 0).
    """  # noqa: D205
    log_p, values = policy.log_probs(), policy.values
    v_fixed, log_p_fixed = values.detach(), log_p.detach()
    log_ref = ref_policy.log_probs().detach() if ref_policy is not None else None
    actor, critic, entropy, kl, n = 0.0, 0.0, 0.0, 0.0, 0
    priorities = []
    for ep, w, draw in zip(episodes, w_is, draws or (1,) * len(episodes), strict=True):
        s, a, T = ep.states, ep.actions, len(ep.actions)
        k_draw = draw if c.entropy_per_draw else 1
        done = [False] * (T - 1) + [ep.terminated]
        pen = ep.penalties or (0.0,) * T
        rho = [math.exp(float(log_p_fixed[s[t], a[t]]) - ep.log_mu[t]) for t in range(T)]
        delta = [ep.rewards[k] + c.gamma * float(v_fixed[s[k + 1]]) * (not done[k]) - float(v_fixed[s[k]])
                 for k in range(T)]
        if c.use_retrace:
            trace = [c.lam * min(1.0, r) for r in rho]
            target = []
            for t in range(T):
                total = 0.0
                for k in range(t, T):
                    product = math.prod(trace[i] for i in range(t + 1, k + 1))
                    total += c.gamma ** (k - t) * product * delta[k]
                target.append(float(v_fixed[s[t]]) + total)
            v_next = target[1:] + [float(v_fixed[s[T]])]  # v_T := V(s_T)
            advantage = [ep.rewards[t] + c.gamma * (not done[t]) * v_next[t] - float(v_fixed[s[t]]) for t in range(T)]
        else:
            target = [ep.rewards[t] + c.gamma * (not done[t]) * float(v_fixed[s[t + 1]]) for t in range(T)]
            advantage = delta
        for t in range(T):
            rho_bar = reference_weight(rho[t], c.behaviour_weight, c.rho_bar_max)
            signal = advantage[t] - c.penalty_coef * pen[t]
            eps = c.trust_region
            if eps is None or not (signal > 0 and rho[t] > 1 + eps or signal < 0 and rho[t] < 1 - eps):
                actor = actor + w * rho_bar * signal * log_p[s[t], a[t]]
            critic = critic + w * (values[s[t]] - target[t]) ** 2
            entropy = entropy - (log_p[s[t]].exp() * log_p[s[t]]).sum() / k_draw
            if c.kl_coef > 0:
                log_r = log_ref[s[t], a[t]] - log_p[s[t], a[t]]
                kl = kl + w * (log_r.exp() - log_r - 1)
            n += 1
        weights = [reference_weight(r, c.behaviour_weight, c.rho_bar_max) for r in rho]
        priorities.append(c.w1 * sum(abs(d) for d in delta) / T + c.w2 * sum(weights) / T
                          + c.w3 * sum(-float(log_p_fixed[s[t], a[t]]) for t in range(T)) / T + c.epsilon)
    loss = c.actor_coef * (-actor / n - c.entropy_coef * entropy / n + c.kl_coef * kl / n) + c.value_coef * critic / n
    return loss, priorities


def reference_digirl(policy: TabularPolicy, episodes: list[Episode], c: DigiRLConfig):
    """DigiRL's summed loss and the set of (episode, step) its actor trains on, from ALGORITHM.md."""
    log_p, values, v_goal = policy.log_probs(), policy.values, policy.instruction_values
    returns = []
    for ep in episodes:
        g, out = 0.0, []
        for r in reversed(ep.rewards):
            g = r + c.gamma * g
            out.append(g)
        returns.append(out[::-1])
    n = sum(len(ep.actions) for ep in episodes)
    step_critic = sum((values[ep.states[t]] - returns[b][t]) ** 2
                      for b, ep in enumerate(episodes) for t in range(len(ep.actions))) / n
    goal_index = [GOALS.index(ep.goal) for ep in episodes]
    instruction_critic = sum((v_goal[goal_index[b]] - returns[b][0]) ** 2 for b in range(len(episodes))) / len(episodes)
    surprise = [returns[b][0] - float(v_goal[goal_index[b]].detach()) for b in range(len(episodes))]
    k = max(1, math.ceil(c.top_fraction * len(episodes)))
    threshold = sorted(surprise, reverse=True)[k - 1]
    kept = [b for b in range(len(episodes)) if surprise[b] >= threshold]  # ties with the k-th kept too
    selected = []
    for b in kept:
        ep, v = episodes[b], values.detach()
        for t in range(len(ep.actions)):
            last_done = ep.terminated and t == len(ep.actions) - 1
            v_next = 0.0 if last_done else float(v[ep.states[t + 1]])
            advantage = v_next - float(v[ep.states[t]]) + ep.rewards[t] + returns[b][t] - c.advantage_offset
            if advantage > 0:
                selected.append((b, t))
    zero = 0.0 * log_p.sum()  # an empty selection is a zero loss that still has a graph
    actor = -sum((log_p[episodes[b].states[t], episodes[b].actions[t]] for b, t in selected), zero) / max(
        1, len(selected))
    return c.actor_coef * actor + c.value_coef * (step_critic + instruction_critic), selected


def reference_filtered_bc(policy: TabularPolicy, episodes: list[Episode], c: FilteredBCConfig):
    """-mean log pi over the steps of episodes whose return reaches `min_return`."""
    log_p = policy.log_probs()
    steps = [(ep, t) for ep in episodes if sum(ep.rewards) >= c.min_return for t in range(len(ep.actions))]
    zero = 0.0 * log_p.sum()  # an empty selection is a zero loss that still has a graph
    return -sum((log_p[ep.states[t], ep.actions[t]] for ep, t in steps), zero) / max(1, len(steps))


def grads(policy: TabularPolicy, loss: torch.Tensor) -> list[torch.Tensor]:
    """The gradient of `loss` by (logits, values, instruction values), zeros where it does not depend on a table."""
    params = [policy.logits, policy.values, policy.instruction_values]
    return [torch.zeros_like(p) if g is None else g
            for p, g in zip(params, torch.autograd.grad(loss, params, allow_unused=True), strict=True)]


def assert_same_loss(policy: TabularPolicy, ours: torch.Tensor, reference: torch.Tensor) -> None:
    assert float(ours.detach()) == pytest.approx(float(reference.detach()), rel=1e-4, abs=1e-6)
    for got, want, name in zip(grads(policy, ours), grads(policy, reference), ("logits", "values", "V(g)"),
                               strict=True):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-6, msg=lambda m, name=name: f"d/d {name}: {m}")


# -- losses against the references ----------------------------------------------------------------------------------
A_RIDE_CONFIGS = {
    "default": ARideConfig(),
    "clip 1.3, lambda 0.8, heavy penalty": ARideConfig(rho_bar_max=1.3, lam=0.8, penalty_coef=0.4, entropy_coef=0.05),
    "no retrace": ARideConfig(use_retrace=False),
    "critic warm-up": ARideConfig(actor_coef=0.0),
    "plain entropy bonus": ARideConfig(entropy_coef=0.05, entropy_per_draw=False),
    "ratios above 1.3 masked": ARideConfig(rho_bar_max=1.3, behaviour_weight="mask"),
    "ratios uncapped": ARideConfig(behaviour_weight="uncapped"),
    "KL 0.5 to a reference": ARideConfig(kl_coef=0.5),
    "trust region 0.2": ARideConfig(trust_region=0.2),
    "trust region 0.2, masked above 1.3": ARideConfig(trust_region=0.2, rho_bar_max=1.3, behaviour_weight="mask"),
}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", list(A_RIDE_CONFIGS))
def test_a_ride_loss_gradient_and_priorities_match_the_equations(seed: int, name: str) -> None:
    config = A_RIDE_CONFIGS[name]
    policy = TabularPolicy()
    episodes = random_episodes(policy, seed)
    batch = batch_of(policy, episodes, W_IS, DRAWS)
    ref_policy = TabularPolicy(TabularConfig(seed=7)) if config.kl_coef > 0 else None
    log_ref = a_ride_prepare(policy, batch, config, ref_policy) if ref_policy is not None else None
    loss, metrics, priorities = a_ride_loss(policy, batch, log_ref, config=config)
    assert (metrics["losses/kl_to_reference"] > 0) == (config.kl_coef > 0)
    reference, reference_priorities = reference_a_ride(policy, episodes, W_IS, config, DRAWS, ref_policy)
    assert_same_loss(policy, loss, reference)
    assert priorities.tolist() == pytest.approx(reference_priorities, rel=1e-4)


def test_reference_batch_exercises_every_term() -> None:
    """The random batches hold ratios on both sides of the clip, penalties, successes, failures and truncations.

    Without them the references above would not see a dropped clip, a lost penalty or a wrong bootstrap.
    """
    policy = TabularPolicy()
    for seed in (0, 1, 2):
        episodes = random_episodes(policy, seed)
        batch = batch_of(policy, episodes)
        with torch.no_grad():
            log_pi = policy.log_probs()[batch.observations["state"][:, :-1], batch.actions["a"]]
        rho = torch.exp(log_pi - batch.log_mu)[batch.mask]
        assert (rho > 1.3).any() and (rho < 0.9).any()
        assert batch.penalty[batch.mask].sum() > 0
        assert {ep.terminated for ep in episodes} == {True, False}
        assert {sum(ep.rewards) for ep in episodes} == {0.0, 1.0}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("top_fraction", [0.1, 0.4, 1.0])
def test_digirl_loss_and_gradient_match_the_equations(seed: int, top_fraction: float) -> None:
    config = DigiRLConfig(top_fraction=top_fraction)
    policy = TabularPolicy(TabularConfig(seed=seed))
    episodes = random_episodes(policy, seed)
    loss, metrics, priorities = digirl_loss(policy, batch_of(policy, episodes), config)
    reference, selected = reference_digirl(policy, episodes, config)
    assert priorities is None
    assert_same_loss(policy, loss, reference)
    assert metrics["charts/selected_fraction"] == pytest.approx(len(selected) / sum(len(e.actions) for e in episodes))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("min_return", [0.5, 2.0])
def test_filtered_bc_loss_and_gradient_match_the_equations(seed: int, min_return: float) -> None:
    config = FilteredBCConfig(min_return=min_return)
    policy = TabularPolicy()
    episodes = random_episodes(policy, seed)
    loss, _, _ = filtered_bc_loss(policy, batch_of(policy, episodes), config)
    assert_same_loss(policy, loss, reference_filtered_bc(policy, episodes, config))


# -- what the filters select ----------------------------------------------------------------------------------------
def _trained_states(policy: TabularPolicy, loss: torch.Tensor) -> set[int]:
    """The states whose action logits the loss's gradient moves."""
    (g,) = torch.autograd.grad(loss, [policy.logits])
    return {int(s) for s in torch.nonzero(g.abs().sum(1) > 0)[:, 0]}


def test_filtered_bc_trains_on_successful_episodes_only() -> None:
    policy = TabularPolicy()
    episodes = [Episode((0, 1, 2), (0, 1), (0.0, 1.0)), Episode((3, 4, 5), (2, 2), (0.0, 0.0)),
                Episode((6, 7), (1,), (1.0,)), Episode((8, 9, 10), (0, 0), (0.0, 0.0), terminated=False)]
    loss, metrics, _ = filtered_bc_loss(policy, batch_of(policy, episodes), FilteredBCConfig())
    assert _trained_states(policy, loss) == {0, 1, 6}
    assert metrics["charts/selected_fraction"] == 0.5


def test_digirl_keeps_the_episodes_that_beat_their_instruction_value_and_steps_with_positive_advantage() -> None:
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.zero_()
        policy.instruction_values.copy_(torch.tensor([0.9, 0.1, 0.5, 0.0]))
    # returns 1 (goal 0: surprise 0.1), 1 (goal 1: 0.9), 0 (goal 2: -0.5), 0.9 (goal 3: 0.9, two steps)
    episodes = [Episode((0, 1), (0,), (1.0,), goal=GOALS[0]), Episode((2, 3), (1,), (1.0,), goal=GOALS[1]),
                Episode((4, 5), (2,), (0.0,), goal=GOALS[2]), Episode((6, 7, 8), (0, 1), (0.0, 1.0), goal=GOALS[3])]
    batch = batch_of(policy, episodes)
    top_two = digirl_loss(policy, batch, DigiRLConfig(top_fraction=0.5))[0]
    assert _trained_states(policy, top_two) == {2, 6, 7}  # the two most surprising episodes, every step (A > 0)
    everything = digirl_loss(policy, batch, DigiRLConfig(top_fraction=1.0))[0]
    assert _trained_states(policy, everything) == {0, 2, 6, 7}  # episode 2 failed: A = -0.05 < 0, never trained


def test_digirl_keeps_every_episode_tied_with_the_last_one_its_fraction_keeps() -> None:
    """Episodes whose G_0 - V(g) ties with the k-th are all kept, as DigiRL's threshold keeps them (issue 45): with a
    half of 4 episodes (k = 2) and surprises 0.9, 0.5, 0.5, 0.1, the actor trains on the first three."""  # noqa: D205, D209
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.zero_()
        policy.instruction_values.copy_(torch.tensor([0.1, 0.5, 0.5, 0.9]))
    episodes = [Episode((0, 1), (0,), (1.0,), goal=GOALS[0]), Episode((2, 3), (1,), (1.0,), goal=GOALS[1]),
                Episode((4, 5), (2,), (1.0,), goal=GOALS[2]), Episode((6, 7), (0,), (1.0,), goal=GOALS[3])]
    loss = digirl_loss(policy, batch_of(policy, episodes), DigiRLConfig(top_fraction=0.5))[0]
    assert _trained_states(policy, loss) == {0, 2, 4}


# -- the direction of one SGD step ----------------------------------------------------------------------------------
def _after_one_step(policy: TabularPolicy, loss: torch.Tensor, lr: float = 0.5) -> None:
    policy.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in policy.parameters():
            if p.grad is not None:  # a table the rule does not read (V(g) for most)
                p -= lr * p.grad


RULES = ("a-ride", "a-ride-uniform", "a-ride-no-retrace", "a-ride-no-entropy", "digirl", "filtered-bc")


@pytest.mark.parametrize("name", RULES)
def test_one_step_raises_the_log_prob_of_a_successful_action(name: str) -> None:
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.zero_()
        policy.instruction_values.zero_()
    episodes = [Episode((0, 1, 2), (1, 2), (0.0, 1.0))]
    rule = make_update_rule(name)
    before = policy.log_probs()[[0, 1], [1, 2]].detach()
    _after_one_step(policy, rule.loss(policy, batch_of(policy, episodes))[0])
    after = policy.log_probs()[[0, 1], [1, 2]].detach()
    assert (after > before).all(), (before, after)


@pytest.mark.parametrize("name", ["a-ride", "a-ride-uniform", "a-ride-no-retrace", "a-ride-no-entropy"])
def test_one_step_lowers_the_log_prob_of_a_penalised_action(name: str) -> None:
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.zero_()  # with r = 0 and V = 0 the advantage is 0: only the penalty drives the actor
    episodes = [Episode((0, 1), (2,), (0.0,), penalties=(1.0,))]
    rule = make_update_rule(name, {"entropy_coef": 0.0})
    before = float(policy.log_probs()[0, 2].detach())
    _after_one_step(policy, rule.loss(policy, batch_of(policy, episodes))[0])
    assert float(policy.log_probs()[0, 2].detach()) < before


def test_one_step_raises_the_entropy_when_its_coefficient_is_positive() -> None:
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.zero_()
    episodes = [Episode((0, 1), (2,), (0.0,))]  # advantage 0, no penalty: only the entropy bonus moves the actor

    def entropy() -> float:
        log_p = policy.log_probs()[0]
        return float(-(log_p.exp() * log_p).sum().detach())

    before = entropy()
    rule = make_update_rule("a-ride", {"entropy_coef": 0.1})
    _after_one_step(policy, rule.loss(policy, batch_of(policy, episodes))[0])
    assert entropy() > before


def test_the_entropy_bonus_of_a_replayed_trajectory_fades_as_one_over_its_draws() -> None:
    """On its k-th draw a trajectory's entropy gradient is 1/k of its first draw's; all draws alike when turned off."""
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.zero_()
    episodes = [Episode((0, 1), (2,), (0.0,))]  # advantage 0, no penalty: only the entropy bonus moves the actor

    def actor_gradient(draws: int, per_draw: bool) -> torch.Tensor:
        config = ARideConfig(entropy_coef=0.1, entropy_per_draw=per_draw)
        loss = a_ride_loss(policy, batch_of(policy, episodes, draws=[draws]), config=config).loss
        return torch.autograd.grad(loss, policy.logits)[0]

    first = actor_gradient(1, True)
    assert first.abs().sum() > 0
    torch.testing.assert_close(actor_gradient(4, True), first / 4)
    torch.testing.assert_close(actor_gradient(4, False), first)


def test_one_step_moves_the_critic_toward_its_target() -> None:
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.copy_(torch.full_like(policy.values, 0.2))
    episodes = [Episode((0, 1), (0,), (1.0,))]  # target v_0 = 1 > V(s_0) = 0.2
    _after_one_step(policy, make_update_rule("a-ride").loss(policy, batch_of(policy, episodes))[0], lr=0.1)
    assert 0.2 < float(policy.values[0].detach()) < 1.0


def test_no_retrace_advantage_is_one_step() -> None:
    """The ablation's advantage is delta_t = r_t + gamma V(s_{t+1}) - V(s_t).

    Not r_t + gamma v_{t+1} - V(s_t) with v a one-step target, which reaches two steps ahead.
    """
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.copy_(torch.tensor([0.0, 0.0, 0.7] + [0.0] * 9))
    # r = 0 everywhere; only s_2 has value: delta_0 = gamma V(s_1) - V(s_0) = 0, whereas two steps ahead it is 0.567
    episodes = [Episode((0, 1, 2, 3), (0, 0, 0), (0.0, 0.0, 0.0), terminated=False)]
    _, metrics, _ = make_update_rule("a-ride-no-retrace", {"entropy_coef": 0.0}).loss(
        policy, batch_of(policy, episodes))
    gamma = ARideConfig().gamma
    expected = [0.0, gamma * 0.7, -0.7]  # delta_0, delta_1, delta_2
    assert metrics["charts/advantage_mean"] == pytest.approx(sum(expected) / 3, abs=1e-6)


# -- PPO --------------------------------------------------------------------------------------------------------------
def reference_ppo_targets(policy: TabularPolicy, episodes: list[Episode], c: PPOConfig):
    """The proximal log-probs, GAE advantages (normalised if configured) and λ-returns per episode, from loops."""
    log_p, v = policy.log_probs().detach(), policy.values.detach()
    log_prox, advantages, returns = [], [], []
    for ep in episodes:
        s, T = ep.states, len(ep.actions)
        done = [False] * (T - 1) + [ep.terminated]
        delta = [ep.rewards[t] + c.gamma * float(v[s[t + 1]]) * (not done[t]) - float(v[s[t]]) for t in range(T)]
        gae = [sum((c.gamma * c.lam) ** (k - t) * delta[k] for k in range(t, T)) for t in range(T)]
        advantages.append(gae)
        returns.append([gae[t] + float(v[s[t]]) for t in range(T)])
        log_prox.append([float(log_p[s[t], ep.actions[t]]) for t in range(T)])
    if c.normalize_advantages:
        flat = torch.tensor([a for ep in advantages for a in ep], dtype=torch.float64)
        mean, std = float(flat.mean()), float(flat.std())
        advantages = [[(a - mean) / (std + 1e-8) for a in ep] for ep in advantages]
    return log_prox, advantages, returns


def reference_ppo(policy: TabularPolicy, episodes: list[Episode], targets, c: PPOConfig):
    log_prox, advantages, returns = targets
    log_p, values = policy.log_probs(), policy.values
    actor, critic, entropy, n = 0.0, 0.0, 0.0, 0
    for b, ep in enumerate(episodes):
        for t in range(len(ep.actions)):
            s, a = ep.states[t], ep.actions[t]
            ratio = torch.exp(log_p[s, a] - log_prox[b][t])
            behaviour = reference_weight(math.exp(log_prox[b][t] - ep.log_mu[t]), c.behaviour_weight,
                                         c.is_clip)
            adv = advantages[b][t]
            actor = actor + behaviour * torch.minimum(ratio * adv, ratio.clamp(1 - c.clip_eps, 1 + c.clip_eps) * adv)
            critic = critic + (values[s] - returns[b][t]) ** 2
            entropy = entropy - (log_p[s].exp() * log_p[s]).sum()
            n += 1
    return c.actor_coef * (-actor / n - c.entropy_coef * entropy / n) + c.value_coef * critic / n


PPO_CONFIGS = {"default": PPOConfig(), "no normalisation, is_clip 1.5": PPOConfig(normalize_advantages=False,
                                                                                 is_clip=1.5, lam=0.7, clip_eps=0.1),
               "behaviour ratios above 1.2 masked": PPOConfig(is_clip=1.2, behaviour_weight="mask"),
               "behaviour ratios uncapped": PPOConfig(behaviour_weight="uncapped")}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", list(PPO_CONFIGS))
def test_ppo_targets_loss_and_gradient_match_the_equations(seed: int, name: str) -> None:
    config = PPO_CONFIGS[name]
    policy = TabularPolicy()
    episodes = random_episodes(policy, seed)
    batch = batch_of(policy, episodes)
    targets = ppo_prepare(policy, batch, config)
    log_prox, advantages, returns = reference_ppo_targets(policy, episodes, config)
    for got, want in ((targets.log_prox, log_prox), (targets.advantages, advantages), (targets.returns, returns)):
        assert [row[:len(w)] for row, w in zip(got.tolist(), want, strict=True)] == [
            pytest.approx(w, rel=1e-4, abs=1e-5) for w in want]
    with torch.no_grad():  # the epochs have moved the policy away from pi_prox: ratios off 1, some clipped
        policy.logits += 0.4 * torch.randn(policy.logits.shape, generator=torch.Generator().manual_seed(seed))
    loss, metrics, _ = ppo_loss(policy, batch, targets, config)
    assert 0 < metrics["charts/clip_fraction"] < 1
    assert_same_loss(policy, loss, reference_ppo(policy, episodes, (log_prox, advantages, returns), config))


def test_ppo_clip_stops_pushing_a_ratio_out_of_the_trust_region_but_not_back() -> None:
    policy = TabularPolicy()
    config = PPOConfig(entropy_coef=0.0, normalize_advantages=False)
    batch = batch_of(policy, [Episode((0, 1), (2,), (1.0,))])
    targets = ppo_prepare(policy, batch, config)
    moved_up = replace(targets, log_prox=targets.log_prox - 0.5)  # ratio e^0.5 = 1.65 > 1 + clip_eps

    def actor_gradient(prepared) -> torch.Tensor:
        loss, _, _ = ppo_loss(policy, batch, prepared, config)
        return torch.autograd.grad(loss, [policy.logits])[0][0]

    assert float(targets.advantages[0, 0]) > 0
    assert torch.count_nonzero(actor_gradient(moved_up)) == 0  # A > 0, already above 1 + eps: no further push
    negative = replace(moved_up, advantages=-moved_up.advantages)
    assert torch.count_nonzero(actor_gradient(negative)) > 0  # A < 0 above 1 + eps: pulled back down
    assert torch.count_nonzero(actor_gradient(targets)) > 0  # inside the region


def test_ppo_epochs_raise_successful_actions_and_lower_failed_ones() -> None:
    policy = TabularPolicy()
    with torch.no_grad():
        policy.values.zero_()
    episodes = [Episode((0, 1), (1,), (1.0,)), Episode((2, 3), (0,), (0.0,))]
    batch = batch_of(policy, episodes)
    rule = make_update_rule("ppo", {"entropy_coef": 0.0})
    before = policy.log_probs()[[0, 2], [1, 0]].detach()
    targets = rule.prepare(policy, batch)
    for _ in range(rule.epochs):
        _after_one_step(policy, rule.loss(policy, batch, targets)[0], lr=0.1)
    after = policy.log_probs()[[0, 2], [1, 0]].detach()
    assert after[0] > before[0] and after[1] < before[1]


# -- GRPO -------------------------------------------------------------------------------------------------------------
GROUPS = ((0, 1, 2), (3, 4))  # random_episodes: returns 1, 0, 0 and 0, 1


def grouped_batch(policy: TabularPolicy, episodes: list[Episode], groups=GROUPS, length_penalty: float = 0.0):
    """The episodes' trajectories released group by group by the workers' `GroupCollector`, then collated."""
    collector = GroupCollector(GroupSpec(max(len(g) for g in groups), length_penalty), worker_id=0)
    released = []
    for number, members in enumerate(groups):
        for _ in range(collector.size):
            collector.started(number)
        for b in members:
            released += collector.ended(number, episodes[b].trajectory(policy))
        for _ in range(collector.size - len(members)):
            released += collector.ended(number, None)  # a member lost to a fault
    order = [b for g in groups for b in g]
    return collate(released), [episodes[b] for b in order], [g for g in groups for _ in g]


def reference_return(ep: Episode, c: GRPOConfig) -> float:
    """R_i: the sum of rewards, less λ per step of a success."""
    total = sum(ep.rewards)
    return total - c.length_penalty * len(ep.actions) if total > 0 else total


def reference_grpo(policy: TabularPolicy, episodes: list[Episode], members, log_prox, c: GRPOConfig,
                   reference: TabularPolicy | None = None):
    """L from grpo.py's equations: A_i from the group's returns (sample std), the clipped surrogate, the k3 KL."""
    returns = [reference_return(ep, c) for ep in episodes]
    log_p = policy.log_probs()
    log_ref = None if reference is None else reference.log_probs().detach()
    actor, entropy, kl, n = 0.0, 0.0, 0.0, 0
    for b, ep in enumerate(episodes):
        group = [reference_return(e, c) for e, m in zip(episodes, members, strict=True) if m == members[b]]
        mean = sum(group) / len(group)
        std = math.sqrt(sum((r - mean) ** 2 for r in group) / (len(group) - 1))
        adv = (returns[b] - mean) / (std + c.eps)
        for t in range(len(ep.actions)):
            s, a = ep.states[t], ep.actions[t]
            ratio = torch.exp(log_p[s, a] - log_prox[b][t])
            behaviour = reference_weight(math.exp(log_prox[b][t] - ep.log_mu[t]), c.behaviour_weight,
                                         c.is_clip)
            actor = actor + behaviour * torch.minimum(ratio * adv, ratio.clamp(1 - c.clip_eps, 1 + c.clip_eps) * adv)
            entropy = entropy - (log_p[s].exp() * log_p[s]).sum()
            if log_ref is not None:
                kl = kl + torch.exp(log_ref[s, a] - log_p[s, a]) - (log_ref[s, a] - log_p[s, a]) - 1
            n += 1
    return -actor / n - c.entropy_coef * entropy / n + c.kl_coef * kl / n


GRPO_CONFIGS = {"default": GRPOConfig(), "is_clip 1.5, clip 0.1": GRPOConfig(is_clip=1.5, clip_eps=0.1),
                "KL 0.3, length penalty 0.05": GRPOConfig(kl_coef=0.3, length_penalty=0.05),
                "behaviour ratios above 1.2 masked": GRPOConfig(is_clip=1.2, behaviour_weight="mask"),
                "behaviour ratios uncapped": GRPOConfig(behaviour_weight="uncapped")}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", list(GRPO_CONFIGS))
def test_grpo_advantages_loss_and_gradient_match_the_equations(seed: int, name: str) -> None:
    config = GRPO_CONFIGS[name]
    policy = TabularPolicy()
    reference = TabularPolicy(TabularConfig(seed=7)) if config.kl_coef > 0 else None
    batch, episodes, members = grouped_batch(policy, random_episodes(policy, seed),
                                             length_penalty=config.length_penalty)
    targets = grpo_prepare(policy, batch, config, reference)
    log_p = policy.log_probs().detach()
    log_prox = [[float(log_p[s, a]) for s, a in zip(ep.states, ep.actions, strict=False)] for ep in episodes]
    if config.length_penalty == 0:  # returns 1, 0, 0 and 0, 1
        assert targets.advantages.tolist() == pytest.approx([2 / math.sqrt(3), -1 / math.sqrt(3), -1 / math.sqrt(3),
                                                             -1 / math.sqrt(2), 1 / math.sqrt(2)], rel=1e-5)
    with torch.no_grad():  # a later epoch: the policy has moved away from pi_prox, ratios off 1, some clipped
        policy.logits += 0.4 * torch.randn(policy.logits.shape, generator=torch.Generator().manual_seed(seed))
    loss, metrics, _ = grpo_loss(policy, batch, targets, config)
    assert 0 < metrics["charts/clip_fraction"] < 1 and (metrics["losses/kl_to_reference"] > 0) == (config.kl_coef > 0)
    assert_same_loss(policy, loss, reference_grpo(policy, episodes, members, log_prox, config, reference))
    assert all(g is None or not g.abs().sum() for g in torch.autograd.grad(  # no critic: values get no gradient
        loss, [policy.values, policy.instruction_values], allow_unused=True))


def test_grpo_raises_the_member_that_succeeded_and_lowers_the_ones_that_failed() -> None:
    policy = TabularPolicy()
    group = [Episode((0, 1), (1,), (1.0,)), Episode((0, 1), (0,), (0.0,)), Episode((0, 2), (2,), (0.0,))]
    batch, _, _ = grouped_batch(policy, group, groups=((0, 1, 2),))
    rule = make_update_rule("grpo", {"entropy_coef": 0.0})
    before = policy.log_probs()[0].detach()
    _after_one_step(policy, rule.loss(policy, batch, rule.prepare(policy, batch))[0], lr=0.1)
    after = policy.log_probs()[0].detach()
    assert after[1] > before[1] and after[0] < before[0] and after[2] < before[2]


def test_grpo_kl_pulls_the_policy_toward_its_reference() -> None:
    """With no advantage to follow (a uniform-return batch is never shipped; here A = 0 by hand), a step under the KL
    penalty moves π toward π_ref."""  # noqa: D205, D209
    policy, reference = TabularPolicy(), TabularPolicy(TabularConfig(seed=3))
    batch, _, _ = grouped_batch(policy, [Episode((0, 1), (1,), (1.0,)), Episode((0, 1), (0,), (0.0,))],
                                groups=((0, 1),))
    config = GRPOConfig(kl_coef=1.0, entropy_coef=0.0)
    targets = replace(grpo_prepare(policy, batch, config, reference), advantages=torch.zeros(2))
    gap_before = (policy.log_probs() - reference.log_probs()).abs()[0].sum().detach()
    _after_one_step(policy, grpo_loss(policy, batch, targets, config)[0], lr=0.5)
    assert (policy.log_probs() - reference.log_probs()).abs()[0].sum() < gap_before
    with pytest.raises(ValueError, match="reference policy"):
        grpo_prepare(policy, batch, config)


def test_a_ride_kl_pulls_the_policy_toward_its_reference() -> None:
    """With the actor's advantage and entropy switched off, a step on A-RIDE's KL penalty alone moves pi toward
    pi_ref on the batch's states; without a reference the penalty is refused."""  # noqa: D205, D209
    policy, ref_policy = TabularPolicy(), TabularPolicy(TabularConfig(seed=3))
    episodes = random_episodes(policy, 0)
    config = ARideConfig(kl_coef=1.0, entropy_coef=0.0, value_coef=0.0, gamma=0.0, penalty_coef=0.0)
    states = sorted({s for ep in episodes for s in ep.states[:-1]})
    gap_before = (policy.log_probs() - ref_policy.log_probs()).abs()[states].sum().detach()
    advantage_free = [replace(ep, rewards=(0.0,) * len(ep.rewards)) for ep in episodes]
    with torch.no_grad():
        policy.values.zero_()  # zero rewards and values: every advantage is 0, only the KL moves pi
    batch = batch_of(policy, advantage_free)
    _after_one_step(policy, a_ride_loss(policy, batch, a_ride_prepare(policy, batch, config, ref_policy),
                                        config=config).loss, lr=0.5)
    assert (policy.log_probs() - ref_policy.log_probs()).abs()[states].sum() < gap_before
    with pytest.raises(ValueError, match="A-RIDE with kl_coef 1.0 > 0 needs the reference policy"):
        a_ride_prepare(policy, batch, config)


def test_grpo_refuses_a_batch_without_groups() -> None:
    policy = TabularPolicy()
    with pytest.raises(DataError, match="collected in groups"):
        grpo_prepare(policy, batch_of(policy, random_episodes(policy, 0)), GRPOConfig())


def test_unknown_algorithm_or_coefficient_names_the_closest() -> None:
    with pytest.raises(ConfigError, match="did you mean 'ppo'"):
        make_update_rule("ppoo")
    with pytest.raises(ConfigError, match="did you mean `learner.coefficients.clip_eps`"):
        make_update_rule("ppo", {"clip_epsilon": 0.1})


@pytest.mark.parametrize("name", ALGORITHMS)
def test_every_rule_returns_a_loss_output_with_priorities_exactly_when_it_samples_by_them(name: str) -> None:
    """The learner reads `.loss`, `.metrics` and `.priorities`: a scalar, float figures, and [B] priorities for a
    prioritised rule (None for the others, whose replay samples uniformly). Every registered rule, so a new one is
    tested without being named here (GRPO was missing from a hand-written list, issue 45)."""  # noqa: D205, D209
    policy = TabularPolicy()
    episodes = random_episodes(policy, 3)
    rule = make_update_rule(name)
    batch = grouped_batch(policy, episodes)[0] if rule.groups is not None else batch_of(policy, episodes)
    prepared = () if rule.prepare is None else (rule.prepare(policy, batch),)
    out = rule.loss(policy, batch, *prepared)
    assert isinstance(out, LossOutput) and out.loss.ndim == 0 and out.loss.requires_grad
    assert out.metrics and all(isinstance(v, float) for v in out.metrics.values())
    if rule.prioritized:
        assert out.priorities is not None and out.priorities.shape == (len(episodes),)
    else:
        assert out.priorities is None or name == "a-ride-uniform"


# -- behaviour weights -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_masked_step_adds_nothing_to_the_actor_but_still_counts_in_its_mean(seed: int) -> None:
    """With "mask", the actor's gradient is the truncated rule's over the steps at or below the cap, divided by every
    step: equal to the uncapped rule's with the steps above the cap zeroed (AReaL's behaviour cap)."""  # noqa: D205, D209
    policy = TabularPolicy()
    episodes = random_episodes(policy, seed)
    batch = batch_of(policy, episodes)
    with torch.no_grad():  # move pi off mu so that some ratios exceed the cap
        policy.logits += 0.6 * torch.randn(policy.logits.shape, generator=torch.Generator().manual_seed(seed))
    cap = 1.3
    masked = ARideConfig(rho_bar_max=cap, behaviour_weight="mask", entropy_coef=0.0, value_coef=0.0)
    loss, metrics, _ = a_ride_loss(policy, batch, config=masked)
    assert 0 < metrics["charts/clip_fraction"] < 1  # some steps above the cap, some below
    reference, _ = reference_a_ride(policy, episodes, (1.0,) * len(episodes), masked)
    assert_same_loss(policy, loss, reference)
    uncapped, _, _ = a_ride_loss(policy, batch, config=masked.replace(behaviour_weight="uncapped"))
    truncated, _, _ = a_ride_loss(policy, batch, config=masked.replace(behaviour_weight="truncate"))
    assert not torch.isclose(loss, uncapped) and not torch.isclose(loss, truncated)


def test_decoupled_ppo_masks_steps_whose_behaviour_ratio_exceeds_the_cap() -> None:
    policy = TabularPolicy()
    episodes = random_episodes(policy, 1)
    batch = batch_of(policy, episodes)
    config = PPOConfig(is_clip=1.2, behaviour_weight="mask")
    targets = ppo_prepare(policy, batch, config)
    _, metrics, _ = ppo_loss(policy, batch, targets, config)
    ratios = torch.exp(torch.where(batch.mask, targets.log_prox - batch.log_mu, 0.0))[batch.mask]
    assert metrics["charts/behaviour_masked_fraction"] == pytest.approx(float((ratios > 1.2).float().mean()))
    assert 0 < metrics["charts/behaviour_masked_fraction"] < 1


@pytest.mark.parametrize(("algorithm", "cap_key"), [("a-ride", "rho_bar_max"), ("ppo", "is_clip"), ("grpo", "is_clip")])
def test_a_mask_cap_at_or_below_one_is_refused_naming_the_key(algorithm: str, cap_key: str) -> None:
    from distrl_agent.config import load_config

    with pytest.raises(ConfigError, match=rf"coefficients\.{cap_key}.*> 1 when `behaviour_weight` is mask"):
        load_config(overrides=[f"learner.algorithm={algorithm}", "learner.coefficients.behaviour_weight=mask",
                               f"learner.coefficients.{cap_key}=1.0"])
    with pytest.raises(ConfigError, match="behaviour_weight"):
        load_config(overrides=[f"learner.algorithm={algorithm}", "learner.coefficients.behaviour_weight=clip"])
    ok = load_config(overrides=[f"learner.algorithm={algorithm}", "learner.coefficients.behaviour_weight=mask",
                                f"learner.coefficients.{cap_key}=2.0"])
    assert ok.learner.coefficients.behaviour_weight == "mask"
