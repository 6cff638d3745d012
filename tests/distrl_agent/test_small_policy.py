"""Tests of `SmallPolicy`: exact log-probs and entropies, masks, gradients, env-action conversions, checkpoints, BC."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
import torch

from android_gym.actions import Action, ActionType
from android_gym.spaces import ELEMENT_CLASSES, ELEMENT_FLAGS
from distrl_agent.errors import CheckpointError, DataError
from distrl_agent.policies import small as small_module
from distrl_agent.policies.base import Inputs
from distrl_agent.policies.factorised import ACTION_KEYS, Mode
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.policies.small_config import SmallPolicyConfig

TINY = SmallPolicyConfig(vocab_size=512, max_goal_words=6, max_label_words=4, max_span_length=3, word_dim=16,
                         hidden_dim=32, class_dim=4)
CLICKABLE, FOCUSED = ELEMENT_FLAGS.index("clickable"), ELEMENT_FLAGS.index("focused")
SOFTMAX_SHIFTS = {"encoder.goal_attention.bias", "critic_encoder.goal_attention.bias", "element_head.2.bias",
                  "start_head.2.bias", "length_out.bias"}
"""Scalar biases that only shift every logit of one softmax: their gradient is zero (up to rounding) by design."""
EDIT_TEXT = ELEMENT_CLASSES.index("EditText")


def observation(goal: str, labels: list[str | None], boxes: list[tuple[float, float, float, float]] | None = None,
                clickable: list[bool] | None = None, focused: int | None = None, length: int = 32) -> dict:
    """An observation in `AndroidEnv`'s format; a None label is a padded row (element_mask 0).

    Boxes default to a vertical list of full-width rows; `focused` makes that element a focused EditText.
    """
    k = len(labels)
    mask = np.array([label is not None for label in labels], np.int8)
    text = np.zeros((k, length), np.uint8)
    for i, label in enumerate(labels):
        raw = (label or "").encode("utf-8")[:length]
        text[i, : len(raw)] = np.frombuffer(raw, np.uint8)
    if boxes is None:
        boxes = [(0.0, i / k, 1.0, (i + 0.9) / k) for i in range(k)]
    flags = np.zeros((k, len(ELEMENT_FLAGS)), np.int8)
    flags[:, CLICKABLE] = clickable if clickable is not None else mask
    classes = np.full(k, ELEMENT_CLASSES.index("Button"), np.int64)
    if focused is not None:
        classes[focused], flags[focused, FOCUSED] = EDIT_TEXT, 1
    return {"goal": goal, "element_mask": mask, "element_boxes": np.asarray(boxes, np.float32) * mask[:, None],
            "element_class": classes * mask, "element_flags": flags * mask[:, None], "element_text": text}


def repeat(inputs: Inputs, n: int) -> Inputs:
    """The first row of `inputs` repeated n times (a cheap batch of one observation)."""
    return {k: v[:1].expand(n, *v.shape[1:]) for k, v in inputs.items()}


def joint_actions(n_elements: int, n_words: int, max_length: int, declare: bool = False) -> list[dict[str, int]]:
    """Every distinct joint action: TAP x element, TYPE x valid span, each key mode, and with `declare` ANSWER x
    element (every element of these observations has text) and IMPOSSIBLE."""  # noqa: D205, D209
    base = {"mode": 0, "element": 0, "span_start": 0, "span_length": 1}
    out = [{**base, "mode": int(Mode.TAP), "element": k} for k in range(n_elements)]
    out += [{**base, "mode": int(Mode.TYPE), "span_start": s, "span_length": n}
            for s in range(n_words) for n in range(1, max_length + 1) if s + n <= n_words]
    if declare:
        out += [{**base, "mode": int(Mode.ANSWER), "element": k} for k in range(n_elements)]
    skipped = (Mode.TAP, Mode.TYPE, Mode.ANSWER, *(() if declare else (Mode.IMPOSSIBLE,)))
    return out + [{**base, "mode": int(m)} for m in Mode if m not in skipped]


def joint_key(mode: int, element: int, start: int, length: int) -> tuple[int, ...]:
    """The part of an action that matters for its mode."""
    if mode in (Mode.TAP, Mode.ANSWER):
        return mode, element
    return (mode, start, length) if mode == Mode.TYPE else (mode,)


@pytest.fixture(params=[False, True], ids=["no-declare", "declare"])
def tiny(request: pytest.FixtureRequest) -> tuple[SmallPolicy, dict]:
    """A tiny policy (seeded; without and with the ANSWER/IMPOSSIBLE modes) and a 4-word goal over 3 elements plus
    one padded row."""  # noqa: D205, D209
    torch.manual_seed(0)
    policy = SmallPolicy(TINY.model_copy(update={"declare": request.param}))
    return policy, observation("open New York maps", ["maps", "New York", "cancel", None], focused=2)


def test_entropy_equals_brute_force_enumeration(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    for case in (obs, observation("ok", ["ok"]), observation("?!", [None, None]), observation("go", [None])):
        n_elements, n_words = int(case["element_mask"].sum()), len(case["goal"].strip("?!").split())
        actions = joint_actions(n_elements, n_words, TINY.max_span_length, policy.config.declare)
        inputs = repeat(policy.preprocess([case]), len(actions))
        with torch.no_grad():
            out = policy.evaluate(inputs, policy.collate_actions(actions))
        p = out.log_prob.double().exp()
        assert float(p.sum()) == pytest.approx(1.0, abs=1e-5)
        brute = -float((p * out.log_prob.double()).sum())
        assert float(out.entropy[0]) == pytest.approx(brute, abs=1e-4)
        assert torch.isfinite(out.entropy).all() and torch.isfinite(out.log_prob).all()


def test_log_prob_matches_sampling_frequency(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    n = 40_000
    inputs = repeat(policy.preprocess([obs]), n)
    actions, log_mu = policy.act(inputs, generator=torch.Generator().manual_seed(1))
    columns = [actions[k].tolist() for k in ACTION_KEYS]
    keys = [joint_key(*row) for row in zip(*columns, strict=True)]
    counts = Counter(keys)
    probability: dict[tuple[int, ...], float] = {}
    for key, lm in zip(keys, log_mu.tolist(), strict=True):
        assert probability.setdefault(key, math.exp(lm)) == pytest.approx(math.exp(lm), rel=1e-4)
    assert len(counts) == len(joint_actions(3, 4, TINY.max_span_length, policy.config.declare))  # all reachable
    for key, count in counts.items():
        p = probability[key]
        assert abs(count / n - p) < 5 * math.sqrt(p * (1 - p) / n) + 1e-4, key


def test_act_and_evaluate_agree(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    inputs = policy.preprocess([obs, observation("tap maps", ["maps", None, "x", "y"]), obs])
    for deterministic in (False, True):
        actions, log_mu = policy.act(inputs, deterministic=deterministic, generator=torch.Generator().manual_seed(0))
        torch.testing.assert_close(policy.evaluate(inputs, actions).log_prob.detach(), log_mu)
    assert not log_mu.requires_grad


def test_masks_never_sample_padded_elements_or_out_of_range_spans() -> None:
    torch.manual_seed(1)
    policy = SmallPolicy(TINY)
    obs = observation("open the maps", ["maps", None, None, "cancel", None])
    actions, _ = policy.act(repeat(policy.preprocess([obs]), 20_000), generator=torch.Generator().manual_seed(2))
    tap, typed = actions["mode"] == Mode.TAP, actions["mode"] == Mode.TYPE
    assert tap.any() and typed.any()
    assert set(actions["element"][tap].tolist()) == {0, 3}
    assert (actions["span_start"][typed] + actions["span_length"][typed] <= 3).all()
    assert (actions["span_length"] >= 1).all()
    no_elements = observation("?!", [None, None])  # no element and no goal word: neither TAP nor TYPE is possible
    actions, log_mu = policy.act(repeat(policy.preprocess([no_elements]), 2_000))
    assert not ((actions["mode"] == Mode.TAP) | (actions["mode"] == Mode.TYPE)).any()
    assert torch.isfinite(log_mu).all()


def test_evaluate_gradients_reach_every_parameter(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    observations = [obs] * 4
    inputs = policy.preprocess(observations)
    actions = policy.collate_actions([
        {"mode": int(Mode.TAP), "element": 1, "span_start": 0, "span_length": 1},
        {"mode": int(Mode.TYPE), "element": 0, "span_start": 1, "span_length": 2},
        {"mode": int(Mode.BACK), "element": 0, "span_start": 0, "span_length": 1},
        {"mode": int(Mode.SCROLL_DOWN), "element": 0, "span_start": 0, "span_length": 1},
    ])
    out = policy.evaluate(inputs, actions)
    (out.log_prob.sum() + out.entropy.sum() + out.value.sum() + policy.instruction_value(inputs).sum()).backward()
    for name, parameter in policy.named_parameters():
        assert parameter.grad is not None and torch.isfinite(parameter.grad).all(), name
        if name in SOFTMAX_SHIFTS:  # adding a constant to every logit of a softmax changes nothing
            assert float(parameter.grad.abs().sum()) < 1e-5, name
        else:
            assert parameter.grad.abs().sum() > 0, name


@pytest.mark.parametrize("critic_encoder", ["separate", "detached", "shared"])
def test_critic_loss_moves_the_actor_encoder_only_when_shared(tiny: tuple[SmallPolicy, dict],
                                                              critic_encoder: str) -> None:
    _, obs = tiny
    policy = SmallPolicy(TINY.replace(critic_encoder=critic_encoder))
    inputs = policy.preprocess([obs, observation("close the maps", ["maps", None])])
    (policy.value(inputs).sum() + policy.instruction_value(inputs).sum()).backward()
    actor_grads = [p.grad is not None and bool(p.grad.any()) for p in policy.encoder.parameters()]
    assert any(actor_grads) == (critic_encoder == "shared")
    assert all(p.grad is not None for p in policy.value_head.parameters())
    assert (policy.critic_encoder is not None) == (critic_encoder == "separate")
    if policy.critic_encoder is not None:
        assert any(p.grad is not None and p.grad.any() for p in policy.critic_encoder.parameters())


def test_copy_actor_encoder_to_critic_starts_the_critic_from_the_actor_features(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    inputs = policy.preprocess([obs])
    detached = SmallPolicy(TINY.replace(critic_encoder="detached"))
    detached.load_state_dict({k: v for k, v in policy.state_dict().items() if not k.startswith("critic_encoder.")})
    with torch.no_grad():
        assert float(policy.value(inputs)[0]) != pytest.approx(float(detached.value(inputs)[0]), abs=1e-6)
        policy.copy_actor_encoder_to_critic()  # same heads, and now the same features: the same values
        torch.testing.assert_close(policy.value(inputs), detached.value(inputs))
        torch.testing.assert_close(policy.instruction_value(inputs), detached.instruction_value(inputs))


def test_log_prob_of_tap_ignores_span_heads(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    actions = policy.collate_actions([{"mode": int(Mode.TAP), "element": 2, "span_start": 3, "span_length": 3}])
    policy.evaluate(policy.preprocess([obs]), actions).log_prob.sum().backward()
    assert all(p.grad is None or not p.grad.any() for p in policy.start_head.parameters())
    assert any(p.grad is not None and p.grad.any() for p in policy.element_head.parameters())


def test_single_valid_option_has_finite_entropy_and_gradients() -> None:
    torch.manual_seed(0)
    policy = SmallPolicy(TINY)
    inputs = policy.preprocess([observation("go", ["go", None, None])])
    actions = policy.collate_actions([{"mode": int(Mode.TYPE), "element": 0, "span_start": 0, "span_length": 1}])
    out = policy.evaluate(inputs, actions)
    (out.log_prob + out.entropy).sum().backward()
    assert torch.isfinite(out.entropy).all()
    assert all(torch.isfinite(p.grad).all() for p in policy.parameters() if p.grad is not None)


def test_instruction_value_depends_only_on_the_goal(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    other_screen = observation(obs["goal"], ["x", None, "y z", "open"], focused=0)
    inputs = policy.preprocess([obs, other_screen, observation("something else entirely", ["maps"])])
    with torch.no_grad():
        v_instruction, v_state = policy.instruction_value(inputs), policy.value(inputs)
    assert float(v_instruction[0]) == pytest.approx(float(v_instruction[1]), abs=1e-6)
    assert float(v_instruction[0]) != pytest.approx(float(v_instruction[2]), abs=1e-6)
    assert float(v_state[0]) != pytest.approx(float(v_state[1]), abs=1e-6)


def test_to_env_action_then_from_env_action_round_trips(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    actions = joint_actions(3, 4, TINY.max_span_length, policy.config.declare)
    env_actions = policy.to_env_action(policy.collate_actions(actions), [obs] * len(actions))
    for ids, env_action in zip(actions, env_actions, strict=True):
        assert env_action.is_parsed
        assert policy.from_env_action(env_action, obs) == ids, env_action
    by_mode = dict(zip((a["mode"] for a in actions), env_actions, strict=False))
    assert by_mode[Mode.SCROLL_DOWN] == Action.swipe(0.5, 0.7, 0.5, 0.35)
    assert by_mode[Mode.HOME] == Action.key(ActionType.PRESS_HOME)
    if policy.config.declare:
        assert by_mode[Mode.ANSWER] == Action(ActionType.STATUS_TASK_COMPLETE, text="cancel")  # the last ANSWER row
        assert by_mode[Mode.IMPOSSIBLE] == Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)
    assert policy.to_env_action({"mode": [Mode.TYPE], "element": [0], "span_start": [1], "span_length": [2]},
                                [obs])[0] == Action.type("New York")
    tap = policy.to_env_action({"mode": [0], "element": [1], "span_start": [0], "span_length": [1]}, [obs])[0]
    assert tap.is_tap and tap.touch == pytest.approx((0.5, (1 + 0.45) / 4))


def test_to_env_action_of_impossible_ids_is_an_invalid_action(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    bad = {"mode": [Mode.TAP, Mode.TYPE], "element": [3, 0], "span_start": [0, 3], "span_length": [1, 2]}
    assert [a.is_parsed for a in policy.to_env_action(bad, [obs, obs])] == [False, False]
    with pytest.raises(DataError, match="rows"):
        policy.to_env_action({k: [0] for k in ACTION_KEYS}, [obs, obs])


def test_from_env_action_tap_picks_smallest_clickable_box() -> None:
    policy = SmallPolicy(TINY)
    boxes = [(0.0, 0.0, 1.0, 1.0), (0.1, 0.1, 0.6, 0.6), (0.2, 0.2, 0.3, 0.3), (0.7, 0.7, 0.9, 0.9)]
    obs = observation("x", ["page", "card", "caption", "icon"], boxes=boxes, clickable=[True, True, False, False])
    assert policy.from_env_action(Action.tap(0.25, 0.25), obs)["element"] == 1  # not the smaller non-clickable
    assert policy.from_env_action(Action.tap(0.5, 0.9), obs)["element"] == 0
    obs["element_flags"][:, CLICKABLE] = 0
    assert policy.from_env_action(Action.tap(0.25, 0.25), obs)["element"] == 2  # none clickable: the smallest
    assert policy.from_env_action(Action.tap(0.8, 0.8).with_element(3), obs)["element"] == 3
    obs["element_mask"][:] = 0
    assert policy.from_env_action(Action.tap(0.25, 0.25), obs) is None


def test_from_env_action_text_keys_swipes_and_unsupported() -> None:
    policy = SmallPolicy(TINY)
    obs = observation('Search "MacBook Air" on amazon.com', ["search"])
    type_ids = policy.from_env_action(Action.type("macbook air"), obs)
    assert (type_ids["mode"], type_ids["span_start"], type_ids["span_length"]) == (Mode.TYPE, 1, 2)
    assert policy.from_env_action(Action.type("macbook pro"), obs) is None
    assert policy.from_env_action(Action.key(ActionType.PRESS_ENTER), obs)["mode"] == Mode.ENTER
    assert policy.from_env_action(Action.key(ActionType.WAIT), obs)["mode"] == Mode.WAIT
    assert policy.from_env_action(Action.swipe(0.5, 0.8, 0.5, 0.2), obs)["mode"] == Mode.SCROLL_DOWN
    assert policy.from_env_action(Action.swipe(0.5, 0.2, 0.5, 0.8), obs)["mode"] == Mode.SCROLL_UP
    unsupported = [Action.swipe(0.9, 0.5, 0.1, 0.5), Action(ActionType.LONG_PRESS, (0.5, 0.5), (0.5, 0.5)),
                   Action.key(ActionType.STATUS_TASK_COMPLETE), Action(ActionType.OPEN_APP, text="Maps"),
                   Action.invalid("garbage"), Action.key(ActionType.STATUS_TASK_IMPOSSIBLE),
                   Action(ActionType.STATUS_TASK_COMPLETE, text="search")]  # declarations: not without `declare`
    assert [policy.from_env_action(a, obs) for a in unsupported] == [None] * len(unsupported)


def test_declarations_map_to_answer_and_impossible_only_with_declare() -> None:
    policy = SmallPolicy(TINY.model_copy(update={"declare": True}))
    obs = observation("What is Ana's number?", ["Ana Costa", "(650) 555-0123", "Call", None])
    ids = policy.from_env_action(Action(ActionType.STATUS_TASK_COMPLETE, text="650-555-0123"), obs)
    assert (ids["mode"], ids["element"]) == (Mode.ANSWER, 1)  # the element that says it (digits compared)
    assert policy.to_env_action(policy.collate_actions([ids]), [obs])[0].text == "(650) 555-0123"
    assert policy.from_env_action(Action(ActionType.STATUS_TASK_COMPLETE, text="(650) 555-9999"), obs) is None
    assert policy.from_env_action(Action.key(ActionType.STATUS_TASK_COMPLETE), obs) is None  # no answer to give
    assert policy.from_env_action(Action.key(ActionType.STATUS_TASK_IMPOSSIBLE), obs)["mode"] == Mode.IMPOSSIBLE
    padded = {"mode": [Mode.ANSWER], "element": [3], "span_start": [0], "span_length": [1]}
    assert not policy.to_env_action(padded, [obs])[0].is_parsed


def test_without_declare_answer_and_impossible_have_zero_probability() -> None:
    torch.manual_seed(0)
    obs = observation("What is Ana's number?", ["Ana Costa", "(650) 555-0123"])
    for declare in (False, True):
        policy = SmallPolicy(TINY.model_copy(update={"declare": declare}))
        with torch.no_grad():
            dist, _ = policy.distribution(policy.preprocess([obs]))
        p = dist.log_p_mode.exp()[0]
        assert (float(p[Mode.ANSWER]) > 0.01) == declare and (float(p[Mode.IMPOSSIBLE]) > 0.01) == declare


def test_answer_chooses_only_among_elements_with_text() -> None:
    torch.manual_seed(0)
    policy = SmallPolicy(TINY.model_copy(update={"declare": True}))
    obs = observation("What is Ana's number?", ["Ana Costa", "", "(650) 555-0123"])
    with torch.no_grad():
        dist, _ = policy.distribution(policy.preprocess([obs]))
    assert float(dist.log_p_answer.exp()[0, 1]) == 0.0 and float(dist.log_p_element.exp()[0, 1]) > 0.0
    assert float(dist.log_p_answer.exp()[0].sum()) == pytest.approx(1.0, abs=1e-6)


def test_load_state_dict_of_another_shape_raises_checkpoint_error(tiny: tuple[SmallPolicy, dict]) -> None:
    policy, obs = tiny
    clone = SmallPolicy(TINY)
    clone.load_state_dict(policy.state_dict())
    assert clone.shape_signature() == policy.shape_signature()
    inputs = policy.preprocess([obs])
    torch.testing.assert_close(clone.value(inputs), policy.value(inputs))
    wider = SmallPolicy(SmallPolicyConfig(**{**TINY.__dict__, "hidden_dim": 48}))
    with pytest.raises(CheckpointError, match=r"hidden_dim=48.*mis-shaped .*element_encoder"):
        wider.load_state_dict(policy.state_dict())
    with pytest.raises(CheckpointError, match="missing"):
        policy.load_state_dict({k: v for k, v in policy.state_dict().items() if not k.startswith("value_head")})


def test_config_rejects_bad_values() -> None:
    with pytest.raises(ValueError, match="vocab_size"):
        SmallPolicyConfig(vocab_size=1)
    with pytest.raises(ValueError, match="max_span_length"):
        SmallPolicyConfig(max_span_length=0)
    with pytest.raises(ValueError, match="critic_encoder.*'separate'"):
        SmallPolicyConfig(critic_encoder="twin")


def test_concat_inputs_equals_one_preprocess_over_every_row() -> None:
    """Inputs encoded in separate calls (different element counts K) merge into what one call would give."""
    policy = SmallPolicy(TINY)
    first = [observation("open clock app", ["Clock", "Chrome"]), observation("open clock", ["Clock", None, "Maps"])]
    second = [observation("search weather", ["Search", "Chrome", "Clock", "Maps", "Photos"])]
    merged = policy.concat_inputs([policy.preprocess(first), policy.preprocess(second)])
    whole = policy.preprocess(first + second)
    assert merged.keys() == whole.keys()
    for key in whole:
        assert merged[key].dtype == whole[key].dtype and torch.equal(merged[key], whole[key]), key


def test_preprocess_rejects_observations_without_elements() -> None:
    with pytest.raises(DataError, match="include_elements"):
        SmallPolicy(TINY).preprocess([{"goal": "x", "screenshot": np.zeros((4, 4, 3), np.uint8)}])


# -- behaviour cloning on synthetic screens: the matching features must generalise to unseen words -------------------
def random_words(rng: np.random.Generator, n: int, avoid: set[str]) -> list[str]:
    """`n` distinct made-up lower-case words, none in `avoid`."""
    out: list[str] = []
    while len(out) < n:
        word = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), rng.integers(4, 9)))
        if word not in avoid and word not in out:
            out.append(word)
    return out


def bc_example(rng: np.random.Generator, vocab: list[str], k: int = 10) -> tuple[dict, dict[str, int]]:
    """A synthetic screen and its expert action: tap the element whose label is in the goal, or type the query.

    TAP screens: the goal holds random words with the target's label word at a random position; distractor labels
    share no word with the goal. TYPE screens: a focused empty EditText, and the goal says "search for <1-3 words>
    on <site>" after 0-2 random words; the expert types the query span.
    """
    n_real = int(rng.integers(3, k + 1))
    picks = list(rng.choice(vocab, 12, replace=False))
    labels: list[str | None] = [None] * k
    rows = sorted(rng.choice(k, n_real, replace=False).tolist())
    if rng.random() < 0.5:
        goal_words = picks[:int(rng.integers(2, 7))]
        target = rows[int(rng.integers(n_real))]
        target_word = goal_words[int(rng.integers(len(goal_words)))]
        for j, row in enumerate(rows):
            labels[row] = picks[6 + j % 6] if row != target else target_word
        if rng.random() < 0.5:
            labels[target] = f"{picks[11]} {target_word}"
        ids = {"mode": int(Mode.TAP), "element": target, "span_start": 0, "span_length": 1}
        return observation(" ".join(goal_words), labels), ids
    prefix, query = picks[:int(rng.integers(0, 3))], picks[3:3 + int(rng.integers(1, 4))]
    goal = " ".join([*prefix, "search", "for", *query, "on", picks[6]])
    for j, row in enumerate(rows):
        labels[row] = picks[7 + j % 5]
    labels[rows[0]] = ""
    ids = {"mode": int(Mode.TYPE), "element": 0, "span_start": len(prefix) + 2, "span_length": len(query)}
    return observation(goal, labels, focused=rows[0]), ids


def clone(policy: SmallPolicy, examples: list[tuple[dict, dict[str, int]]], updates: int) -> None:
    """Behaviour cloning: `updates` Adam steps (lr 3e-3) on random batches of 64 (observation, expert ids) pairs."""
    inputs = policy.preprocess([obs for obs, _ in examples])
    actions = policy.collate_actions([ids for _, ids in examples])
    optimiser = torch.optim.Adam(policy.parameters(), lr=3e-3)
    for _ in range(updates):
        batch = torch.randint(len(examples), (64,))
        loss = -policy.evaluate({k: v[batch] for k, v in inputs.items()},
                                {k: v[batch] for k, v in actions.items()}).log_prob.mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()


def test_behaviour_cloning_generalises_to_unseen_words() -> None:
    rng = np.random.default_rng(0)
    train_vocab = random_words(rng, 300, {"search", "for", "on"})
    test_vocab = random_words(rng, 300, {"search", "for", "on", *train_vocab})
    torch.manual_seed(0)
    policy = SmallPolicy()
    clone(policy, [bc_example(rng, train_vocab) for _ in range(1000)], updates=100)

    test = [bc_example(rng, test_vocab) for _ in range(400)]
    predicted, _ = policy.act(policy.preprocess([obs for obs, _ in test]), deterministic=True)
    expert = policy.collate_actions([ids for _, ids in test])
    hits = [joint_key(*(int(predicted[k][i]) for k in ACTION_KEYS)) == joint_key(*(int(expert[k][i])
            for k in ACTION_KEYS)) for i in range(len(test))]
    is_tap = (expert["mode"] == Mode.TAP).numpy()
    tap_accuracy, type_accuracy = np.mean(np.array(hits)[is_tap]), np.mean(np.array(hits)[~is_tap])
    assert tap_accuracy > 0.9 and type_accuracy > 0.9, (tap_accuracy, type_accuracy)


def test_behaviour_cloning_learns_goals_that_point_at_labels_sharing_no_word() -> None:
    """A topic word of the goal names an app whose label it never contains ("Set an alarm" -> Clock).

    Held-out goals (new filler words, new positions, apps in a new order) still reach the right app.
    """
    rng = np.random.default_rng(1)
    vocab = random_words(rng, 216, set())
    apps, topics, fillers = vocab[:8], vocab[8:16], vocab[16:]

    def example(filler_words: list[str]) -> tuple[dict, dict[str, int]]:
        app = int(rng.integers(8))
        goal = list(rng.choice(filler_words, int(rng.integers(1, 5)), replace=False))
        goal.insert(int(rng.integers(len(goal) + 1)), topics[app])
        order = rng.permutation(8)
        ids = {"mode": int(Mode.TAP), "element": int(np.flatnonzero(order == app)[0]), "span_start": 0,
               "span_length": 1}
        return observation(" ".join(goal), [apps[i] for i in order]), ids

    torch.manual_seed(0)
    policy = SmallPolicy(TINY.replace(word_dim=32, hidden_dim=64))
    clone(policy, [example(fillers[:100]) for _ in range(1000)], updates=150)
    test = [example(fillers[100:]) for _ in range(200)]
    predicted, _ = policy.act(policy.preprocess([o for o, _ in test]), deterministic=True)
    accuracy = np.mean([int(predicted["element"][i]) == ids["element"] for i, (_, ids) in enumerate(test)])
    assert accuracy > 0.9, accuracy


def mixed_batch(policy: SmallPolicy) -> tuple[Inputs, dict[str, torch.Tensor]]:
    """Preprocessed screens of different sizes under goals that repeat (as a trajectory's states repeat its goal), and
    one sampled action each."""  # noqa: D205, D209
    goals = ["open New York maps", "call Ann", "open New York maps", "set dark theme now", "call Ann", "call Ann"]
    screens = [["maps", "New York", "cancel"], ["Ann", None, None, None], ["maps", None], ["Display", "dark", "theme",
               "Sound", "Wi-Fi"], ["Bob", "Ann", "Carl"], ["Ann", None, None, None]]  # the last repeats row 1
    inputs = policy.preprocess([observation(g, s, focused=0) for g, s in zip(goals, screens, strict=True)])
    actions, _ = policy.act(inputs, generator=torch.Generator().manual_seed(0))
    return inputs, actions


def test_a_batch_gives_each_screen_what_it_gets_alone(tiny: tuple[SmallPolicy, dict]) -> None:
    """Log-probs, entropies, values and V(g) of a batch equal those of each row on its own: the learner's encodings
    run on the real elements, words and spans only and once per distinct goal (issue 45), and must not mix rows."""  # noqa: D205, D209
    policy, _ = tiny
    inputs, actions = mixed_batch(policy)
    batched = policy.evaluate(inputs, actions)
    goal_values = policy.instruction_value(inputs)
    for i in range(len(inputs["goal_ids"])):
        k = int(inputs["element_mask"][i].sum()) or 1  # the row alone, with no element padding beyond its own
        row = {key: v[i:i + 1, :k] if v.dim() > 1 and v.shape[1] == inputs["element_mask"].shape[1]
               and key.startswith(("element", "label", "match")) else v[i:i + 1] for key, v in inputs.items()}
        alone = policy.evaluate(row, {key: a[i:i + 1] for key, a in actions.items()})
        for name in ("log_prob", "entropy", "value"):
            torch.testing.assert_close(getattr(alone, name)[0], getattr(batched, name)[i], rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(policy.instruction_value(row)[0], goal_values[i], rtol=1e-5, atol=1e-5)


def test_gradients_are_bit_identical_run_to_run_on_two_threads() -> None:
    """The same batch twice gives the same gradients bit for bit with torch on 2 threads: a resumed learner must
    repeat an update exactly (plain indexing's gradient sums repeated rows in a thread-dependent order, which shows
    at the default policy's sizes on a learner-sized batch)."""  # noqa: D205, D209
    torch.manual_seed(0)
    policy = SmallPolicy()
    inputs, actions = mixed_batch(policy)
    inputs = {k: v.repeat(60, *([1] * (v.dim() - 1))) for k, v in inputs.items()}  # many rows share each goal
    actions = {k: a.repeat(60) for k, a in actions.items()}
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        grads = []
        for _ in range(4):
            policy.zero_grad()
            out = policy.evaluate(inputs, actions)
            loss = out.log_prob.sum() + out.entropy.sum() + out.value.sum() + policy.instruction_value(inputs).sum()
            loss.backward()
            grads.append({k: p.grad.clone() for k, p in policy.named_parameters() if p.grad is not None})
    finally:
        torch.set_num_threads(threads)
    for other in grads[1:]:
        assert [k for k in grads[0] if not torch.equal(grads[0][k], other[k])] == []


def test_repeated_states_are_encoded_once_with_the_gradients_of_every_row(tiny: tuple[SmallPolicy, dict],
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch that repeats states (as a learner's does, ~2.5 times each) is encoded once per distinct state; each
    row's log-prob, entropy, value and the gradients of every weight are those of encoding every row (issue 45)."""  # noqa: D205, D209
    policy, _ = tiny
    inputs, actions = mixed_batch(policy)
    inputs = {k: v.repeat(3, *([1] * (v.dim() - 1))) for k, v in inputs.items()}
    actions = policy.act(inputs, generator=torch.Generator().manual_seed(1))[0]  # repeated states, other actions
    encoded = []
    encode = policy.encoder.forward
    monkeypatch.setattr(policy.encoder, "forward", lambda x: (encoded.append(len(x["goal_ids"])), encode(x))[1])

    def outputs_and_grads() -> tuple[list[torch.Tensor], dict[str, torch.Tensor]]:
        policy.zero_grad()
        out = policy.evaluate(inputs, actions)
        values = policy.value(inputs)
        (out.log_prob.sum() + 0.3 * out.entropy.sum() + (out.value * values).sum()).backward()
        return [out.log_prob, out.entropy, out.value, values], {k: p.grad.clone() for k, p in
                                                              policy.named_parameters() if p.grad is not None}

    once, once_grads = outputs_and_grads()
    assert encoded == [5]  # 18 rows, 5 distinct states
    monkeypatch.setattr(small_module, "distinct_rows", lambda _: None)  # every row encoded
    every, every_grads = outputs_and_grads()
    assert encoded[1:] == [18]
    for got, want in zip(once, every, strict=True):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
    for name, grad in every_grads.items():
        torch.testing.assert_close(once_grads[name], grad, rtol=1e-4, atol=1e-6, msg=name)
