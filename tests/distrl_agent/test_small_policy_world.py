"""Tests of the small policy's World options (issue 50): copying text from the screen and the episode memory."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest
import torch

from android_gym.actions import Action, ActionType
from distrl_agent.config import EnvSection, TrainConfig
from distrl_agent.errors import CheckpointError, DataError
from distrl_agent.policies.episode_memory import MEMORY_KEYS
from distrl_agent.policies.factorised import ACTION_KEYS, COPY_ACTION_KEYS, Mode, Source
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.runtime.warm_start import behaviour_clone
from distrl_agent.runtime.worker import make_env
from tests.distrl_agent.test_small_policy import TINY, observation

WORLD = TINY.model_copy(update={"copy_from_screen": True, "memory_steps": 3, "memory_texts": 6, "declare": True})
NOTE = "Door code: 4417"


def note_screen() -> dict:
    """Markor showing a note: a clickable title and the note's non-clickable body."""
    return observation("text Ana the door code", ["carry_over.md", NOTE, None], clickable=[True, False, False])


def message_screen() -> dict:
    """Messages with a focused, empty message field and a Send button."""
    return observation("text Ana the door code", ["Ana", "", "Send"], focused=1)


def episode(policy: SmallPolicy) -> tuple[dict, dict]:
    """The observed note screen and, after tapping its title, the observed message screen."""
    first = policy.observe(note_screen(), None)
    tap = policy.to_env_action({"mode": [int(Mode.TAP)], "element": [0], "span_start": [0], "span_length": [1],
                                "type_source": [0], "memory_slot": [0]}, [first])[0]
    return first, policy.observe(message_screen(), tap, first)


def test_expert_type_of_on_screen_text_round_trips_through_a_copy() -> None:
    policy = SmallPolicy(WORLD)
    screen = policy.observe(note_screen(), None)
    ids = policy.from_env_action(Action.type("door code: 4417"), screen)
    assert ids is not None and ids["type_source"] == Source.SCREEN and ids["element"] == 1
    assert policy.to_env_action(policy.collate_actions([ids]), [screen]) == [Action.type(NOTE)]


def test_expert_type_of_a_text_seen_earlier_round_trips_through_the_memory() -> None:
    policy = SmallPolicy(WORLD)
    _, later = episode(policy)
    ids = policy.from_env_action(Action.type(NOTE), later)
    assert ids is not None and ids["type_source"] == Source.MEMORY
    assert policy.to_env_action(policy.collate_actions([ids]), [later]) == [Action.type(NOTE)]


def test_goal_spans_stay_goal_spans_and_unseen_text_is_not_expressible() -> None:
    policy = SmallPolicy(WORLD)
    _, later = episode(policy)
    ids = policy.from_env_action(Action.type("door code"), later)
    assert ids is not None and ids["type_source"] == Source.GOAL and (ids["span_start"], ids["span_length"]) == (3, 2)
    assert policy.from_env_action(Action.type("never shown"), later) is None
    assert SmallPolicy(TINY).from_env_action(Action.type(NOTE), policy.observe(note_screen(), None)) is None


@pytest.mark.parametrize(("source", "element", "slot"), [
    (Source.SCREEN, 2, 0),  # a padded row
    (Source.SCREEN, 7, 0),  # past the element axis
    (Source.SCREEN, -1, 0),
    (Source.SCREEN, 1, 0),  # an element without text
    (Source.MEMORY, 0, 5),  # an empty memory slot
    (Source.MEMORY, 0, 99),  # past the memory
    (5, 0, 0),  # not a source
], ids=["padded", "out-of-range", "negative", "no-text", "empty-slot", "slot-out-of-range", "bad-source"])
def test_copy_from_nothing_is_a_flagged_invalid_action(source: int, element: int, slot: int) -> None:
    policy = SmallPolicy(WORLD)
    _, later = episode(policy)
    later = {**later, "element_mask": np.array([1, 1, 0], np.int8)}
    ids = {"mode": int(Mode.TYPE), "element": element, "span_start": 0, "span_length": 1, "type_source": int(source),
           "memory_slot": slot}
    action = policy.to_env_action({k: [v] for k, v in ids.items()}, [later])[0]
    assert action.action_type == ActionType.WAIT and not action.is_parsed


def test_memory_records_the_last_actions_and_the_texts_seen_before() -> None:
    policy = SmallPolicy(WORLD)
    first, later = episode(policy)
    assert (first["history_mode"] == 0).all() and not first["memory_text"].any()
    assert later["history_mode"].tolist() == [int(Mode.TAP) + 1, 0, 0]
    assert bytes(later["history_text"][0]).rstrip(b"\0") == b"carry_over.md"
    assert bytes(later["memory_text"][0]).rstrip(b"\0") == NOTE.encode()  # the clickable title is not remembered
    assert not later["memory_text"][1:].any()


def test_memory_carries_the_earlier_steps_and_texts_forward() -> None:
    policy = SmallPolicy(WORLD)
    _, later = episode(policy)
    typed = policy.observe(message_screen(), Action.type("hello"), later)
    back = policy.observe(observation("text Ana the door code", ["Inbox", "Tuesday"], clickable=[True, False]),
                          Action.key(ActionType.PRESS_BACK), typed)
    assert back["history_mode"].tolist() == [int(Mode.BACK) + 1, int(Mode.TYPE) + 1, int(Mode.TAP) + 1]
    assert [bytes(row).rstrip(b"\0") for row in back["history_text"]] == [b"", b"hello", b"carry_over.md"]
    assert bytes(back["memory_text"][0]).rstrip(b"\0") == NOTE.encode()  # no non-clickable text on the message screens
    after = policy.observe(message_screen(), Action.key(ActionType.WAIT), back)  # the oldest action drops out
    assert after["history_mode"].tolist() == [int(Mode.WAIT) + 1, int(Mode.BACK) + 1, int(Mode.TYPE) + 1]
    assert [bytes(row).rstrip(b"\0") for row in after["memory_text"][:2]] == [b"Tuesday", NOTE.encode()]


def nested_screen() -> dict:
    """A contact list: a titled full-screen list (0), Ana's row (1), a bare icon in it (2), Ben's row (3)."""
    return observation("text Ana the door code", ["Contacts", "Ana", "", "Ben"],
                       boxes=[(0.0, 0.0, 1.0, 1.0), (0.0, 0.1, 1.0, 0.3), (0.4, 0.15, 0.6, 0.25), (0.0, 0.3, 1.0, 0.5)])


@pytest.mark.parametrize("tap", [Action.tap(0.5, 0.2), Action.tap(0.9, 0.12), Action.tap(0.0, 0.0).with_element(1)],
                         ids=["on-a-bare-icon", "beside-it", "by-index"])
def test_memory_after_a_tap_names_the_tapped_elements_text(tap: Action) -> None:
    policy = SmallPolicy(WORLD)
    screen = policy.observe(nested_screen(), None)
    after = policy.observe(message_screen(), tap, screen)
    assert after["history_mode"].tolist() == [int(Mode.TAP) + 1, 0, 0]
    assert bytes(after["history_text"][0]).rstrip(b"\0") == b"Ana"
    away = policy.observe(message_screen(), Action.tap(0.5, 0.8), screen)  # only the titled list holds the point
    assert bytes(away["history_text"][0]).rstrip(b"\0") == b"Contacts"


def test_the_policys_own_tap_and_answer_are_remembered_with_their_element_text() -> None:
    policy = SmallPolicy(WORLD)
    screen = policy.observe(nested_screen(), None)
    ids = {"mode": [int(Mode.TAP), int(Mode.ANSWER)], "element": [3, 1], "span_start": [0, 0],
           "span_length": [1, 1], "type_source": [0, 0], "memory_slot": [0, 0]}
    tap, answer = policy.to_env_action(ids, [screen, screen])
    after_tap, after_answer = (policy.observe(message_screen(), a, screen) for a in (tap, answer))
    assert bytes(after_tap["history_text"][0]).rstrip(b"\0") == b"Ben"
    assert after_answer["history_mode"][0] == int(Mode.ANSWER) + 1
    assert bytes(after_answer["history_text"][0]).rstrip(b"\0") == b"Ana"


def test_an_action_without_the_observation_it_was_taken_on_is_refused() -> None:
    policy = SmallPolicy(WORLD)
    with pytest.raises(DataError, match="previous_observation"):
        policy.observe(message_screen(), Action.type("hello"))
    with pytest.raises(DataError, match="`previous_observation` lacks"):  # the env's observation, not one read
        policy.observe(message_screen(), Action.type("hello"), note_screen())


def test_memory_changes_the_action_distribution_on_the_same_screen() -> None:
    torch.manual_seed(0)
    policy = SmallPolicy(WORLD)
    _, after_tap = episode(policy)
    fresh = policy.observe(message_screen(), None)
    inputs = policy.preprocess([after_tap, fresh])
    actions = policy.collate_actions([{"mode": int(Mode.TAP), "element": 0, "span_start": 0, "span_length": 1,
                                       "type_source": 0, "memory_slot": 0}] * 2)
    log_pi = policy.evaluate(inputs, actions).log_prob.detach()
    assert abs(float(log_pi[0] - log_pi[1])) > 1e-4
    without = SmallPolicy(WORLD.model_copy(update={"memory_steps": 0}))
    same = without.evaluate(without.preprocess([after_tap, fresh]), actions).log_prob.detach()
    assert float(same[0]) == float(same[1])


def test_preprocess_without_the_memory_keys_names_them() -> None:
    with pytest.raises(DataError, match="history_mode"):
        SmallPolicy(WORLD).preprocess([message_screen()])


@pytest.mark.parametrize("critic", ["separate", "detached"])
def test_act_evaluate_and_evaluate_states_agree_with_both_options(critic: str) -> None:
    torch.manual_seed(1)
    policy = SmallPolicy(WORLD.model_copy(update={"critic_encoder": critic}))
    first, later = episode(policy)
    rows = [first, later, later, policy.observe(message_screen(), None)]
    inputs = policy.preprocess(rows)
    actions, log_mu = policy.act(inputs, generator=torch.Generator().manual_seed(3))
    for _ in range(20):  # every kind of TYPE among the samples, not just the first draw
        more, more_mu = policy.act(inputs, generator=torch.Generator().manual_seed(_))
        out = policy.evaluate(inputs, more)
        torch.testing.assert_close(out.log_prob, more_mu, rtol=0, atol=1e-5)
    forced = {**actions, "mode": torch.full((4,), int(Mode.TYPE)), "type_source": torch.tensor([1, 2, 0, 1])}
    acted = torch.tensor([0, 1, 3])
    states = policy.evaluate_states(inputs, {k: v[acted] for k, v in forced.items()},
                                    torch.tensor([True, True, False, True]))
    full = policy.evaluate(inputs, forced)
    torch.testing.assert_close(states.log_prob, full.log_prob[acted], rtol=0, atol=1e-5)
    torch.testing.assert_close(states.values, full.value, rtol=0, atol=1e-5)
    merged = policy.concat_inputs([policy.preprocess(rows[:2]), policy.preprocess(rows[2:])])
    torch.testing.assert_close(policy.evaluate(merged, forced).log_prob, full.log_prob, rtol=0, atol=1e-5)
    assert torch.isfinite(full.entropy).all()
    assert log_mu.shape == (4,)


def test_remembered_texts_are_encoded_once_each_with_the_gradients_of_every_slot(monkeypatch) -> None:
    """A World batch remembers the same texts at many steps: each distinct text is encoded once, padding not at all,
    and every output and every weight's gradient is what encoding each slot gives (the learner's speed, issue 50)."""  # noqa: D205, D209
    from distrl_agent.policies import memory_encoder

    torch.manual_seed(2)
    policy = SmallPolicy(WORLD)
    screens = [["Notes", "alpha note", "beta note"], ["Inbox", "delta", "alpha note"], ["Back", "zeta", "eta"],
               ["Home", "theta"]]  # element 0 clickable and tapped; the rest remembered from the next step on
    rows = [policy.observe(observation("text Ana the door code", screens[0], clickable=[True, False, False]), None)]
    for labels in screens[1:]:
        tap = policy.to_env_action({"mode": [int(Mode.TAP)], "element": [0], "span_start": [0], "span_length": [1],
                                    "type_source": [0], "memory_slot": [0]}, rows[-1:])[0]
        screen = observation("text Ana the door code", labels, clickable=[True] + [False] * (len(labels) - 1))
        rows.append(policy.observe(screen, tap, rows[-1]))
    inputs = policy.preprocess(rows)
    actions, _ = policy.act(inputs, generator=torch.Generator().manual_seed(4))
    encoded = []
    encode = policy.encoder.memory.text_encoder.forward
    monkeypatch.setattr(policy.encoder.memory.text_encoder, "forward",
                        lambda x: (encoded.append(len(x)), encode(x))[1])

    def outputs_and_grads() -> tuple[list[torch.Tensor], dict[str, torch.Tensor]]:
        policy.zero_grad()
        out = policy.evaluate(inputs, actions)
        (out.log_prob.sum() + 0.3 * out.entropy.sum() + out.value.sum()).backward()
        return [out.log_prob, out.entropy, out.value], {k: p.grad.clone() for k, p in policy.named_parameters()
                                                         if p.grad is not None}

    once, once_grads = outputs_and_grads()
    monkeypatch.setattr(memory_encoder, "distinct_rows", lambda _: None)  # every remembered text encoded
    every, every_grads = outputs_and_grads()
    assert int(inputs["memory_mask"].sum()) == 2 + 3 + 5 and inputs["memory_mask"].shape == (4, 6)
    # alpha, beta, delta, zeta and eta once each (one goal: one match row per text), against 10 slots; once a pass
    # (the state's memory term and the recall head read the same encodings)
    assert encoded == [5, 10]
    for got, want in zip(once, every, strict=True):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
    assert any(k.startswith("encoder.memory.text_encoder") for k in every_grads)
    for name, grad in every_grads.items():
        torch.testing.assert_close(once_grads[name], grad, rtol=1e-4, atol=1e-6, msg=name)


def test_entropy_with_copies_equals_brute_force_enumeration() -> None:
    torch.manual_seed(2)
    policy = SmallPolicy(WORLD)
    _, later = episode(policy)  # then BACK from a screen with two more texts to remember: three in all
    later = {**later, **observation("text Ana the door code", ["Ana", "Tuesday", "Send", "Seen 9:41"],
                                    clickable=[True, False, True, False])}
    later = policy.observe(observation("text Ana the door code", ["Ana", "", "Send", "4417"], focused=1),
                           policy.to_env_action({"mode": [int(Mode.BACK)], "element": [0], "span_start": [0],
                                                 "span_length": [1], "type_source": [0], "memory_slot": [0]},
                                                [later])[0], later)
    assert int(later["memory_text"].any(1).sum()) == 3
    inputs = policy.preprocess([later])
    dist, _ = policy.distribution(inputs)
    base = {"mode": 0, "element": 0, "span_start": 0, "span_length": 1, "type_source": 0, "memory_slot": 0}
    joint = [{**base, "mode": int(m)} for m in Mode if m not in (Mode.TAP, Mode.TYPE, Mode.ANSWER)]
    joint += [{**base, "mode": int(m), "element": k} for m in (Mode.TAP, Mode.ANSWER) for k in range(4)]
    joint += [{**base, "mode": int(Mode.TYPE), "span_start": s, "span_length": n}
              for s in range(5) for n in range(1, 4) if s + n <= 5]
    joint += [{**base, "mode": int(Mode.TYPE), "type_source": int(Source.SCREEN), "element": k} for k in range(4)]
    joint += [{**base, "mode": int(Mode.TYPE), "type_source": int(Source.MEMORY), "memory_slot": j}
              for j in range(WORLD.memory_texts)]
    batch = policy.concat_inputs([inputs] * len(joint))
    log_p = policy.evaluate(batch, policy.collate_actions(joint)).log_prob.detach()
    p = log_p.exp()
    assert float(p.sum()) == pytest.approx(1.0, abs=1e-5)
    brute = float(-(p * torch.where(p > 0, log_p, torch.zeros_like(log_p))).sum())
    assert float(dist.entropy()[0].detach()) == pytest.approx(brute, abs=1e-4)


def test_options_off_leave_the_policy_as_before() -> None:
    torch.manual_seed(4)
    default = SmallPolicy(TINY)
    torch.manual_seed(4)
    off = SmallPolicy(TINY.model_copy(update={"memory_texts": 3}))  # memory_texts alone changes nothing
    assert off.shape_signature() == default.shape_signature()
    assert all(torch.equal(a, b) for a, b in zip(off.state_dict().values(), default.state_dict().values(),
                                                  strict=True))
    assert off.action_keys == ACTION_KEYS and not set(MEMORY_KEYS) & set(off.observation_keys)
    screen = note_screen()
    assert off.observe(screen, Action.type("x")).keys() == screen.keys()
    inputs = off.preprocess([screen])
    gen_a, gen_b = torch.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    a, mu_a = off.act(inputs, generator=gen_a)
    b, mu_b = default.act(default.preprocess([screen]), generator=gen_b)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a) and torch.equal(mu_a, mu_b)


@pytest.mark.parametrize("update", [{"copy_from_screen": True}, {"memory_steps": 2}])
def test_a_checkpoint_of_the_other_shape_is_refused(update: dict) -> None:
    other = SmallPolicy(TINY.model_copy(update=update))
    assert other.shape_signature() != SmallPolicy(TINY).shape_signature()
    with pytest.raises(CheckpointError, match="does not fit"):
        SmallPolicy(TINY).load_state_dict(other.state_dict())
    with pytest.raises(CheckpointError, match="does not fit"):
        other.load_state_dict(SmallPolicy(TINY).state_dict())
    assert SmallPolicy(WORLD).action_keys == COPY_ACTION_KEYS


def world_demonstrations(policy: SmallPolicy, templates: tuple[str, ...], per_template: int) -> list:
    """(observation, goal, ids) of the expert's expressible steps on World train tasks of `templates`, observed the
    way `warm_start.collect_demonstrations` observes them (without noise, on chosen tasks)."""  # noqa: D205, D209
    env = make_env(EnvSection(env_id="android_gym/World-v0", latency="off"), "train")
    chosen = [i for name in templates for i in [j for j, t in enumerate(env.unwrapped.tasks)
                                                if t.template.name == name][:per_template]]
    data = []
    for index in chosen:
        obs, info = env.reset(seed=index, options={"task": index})
        obs, done = policy.observe(obs, None), False
        while not done:
            action = env.get_wrapper_attr("expert_action")()
            ids = policy.from_env_action(action, obs)
            if ids is not None:
                data.append((obs, info["goal"], ids))
            after, _, terminated, truncated, _ = env.step(action)
            obs, done = policy.observe(after, action, obs), terminated or truncated
    env.close()
    return data


def test_behaviour_cloning_reproduces_copies_from_an_earlier_screen() -> None:
    torch.manual_seed(0)
    config = WORLD.model_copy(update={"max_goal_words": 52, "max_label_words": 8, "max_span_length": 8,
                                      "memory_steps": 8, "memory_texts": 64, "vocab_size": 4096})
    policy = SmallPolicy(config)
    data = world_demonstrations(policy, ("text_email_address", "maps_text_address", "opentracks_distance_to_text"), 2)
    copies = [row for row in data if row[2]["mode"] == Mode.TYPE and row[2]["type_source"] == Source.MEMORY]
    assert len(copies) >= 4
    behaviour_clone(policy, data, updates=250, lr=3e-3, batch_size=64)
    observations = [row[0] for row in copies]
    actions, _ = policy.act(policy.preprocess(observations), deterministic=True)
    typed = policy.to_env_action(actions, observations)
    expected = policy.to_env_action(policy.collate_actions([row[2] for row in copies]), observations)
    assert sum(a == e for a, e in zip(typed, expected, strict=True)) >= len(copies) - 1, (typed, expected)


def test_training_config_turns_the_options_on_for_world_only_unless_set() -> None:
    world = TrainConfig.model_validate({"env": {"env_id": "android_gym/World-v0"}}).policy.small
    assert world.copy_from_screen and world.memory_steps == 8
    general = TrainConfig.model_validate({"env": {"env_id": "android_gym/General-v0"}}).policy.small
    assert not general.copy_from_screen and general.memory_steps == 0
    chosen = TrainConfig.model_validate({"env": {"env_id": "android_gym/World-v0"},
                                         "policy": {"small": {"copy_from_screen": False, "memory_steps": 2}}})
    assert not chosen.policy.small.copy_from_screen and chosen.policy.small.memory_steps == 2


def test_sampled_copies_follow_their_log_probabilities() -> None:
    torch.manual_seed(6)
    policy = SmallPolicy(WORLD)
    # element 2 has no text: TAP may choose it, a copy may not
    screen = policy.observe(observation("text Ana the code", ["Ana", "4417", "", "Tuesday", "Send"]), None)
    n = 4000
    inputs = policy.concat_inputs([policy.preprocess([screen])] * n)
    actions, log_mu = policy.act(inputs, generator=torch.Generator().manual_seed(7))
    copying = (actions["mode"] == Mode.TYPE) & (actions["type_source"] == Source.SCREEN)
    base = {"mode": int(Mode.TYPE), "span_start": 0, "span_length": 1, "type_source": int(Source.SCREEN),
            "memory_slot": 0}
    rows = policy.concat_inputs([policy.preprocess([screen])] * 5)
    every = policy.collate_actions([{**base, "element": k} for k in range(5)])
    p = policy.evaluate(rows, every).log_prob.detach().exp()
    assert float(p[2]) == 0.0 and int(copying.sum()) > 50
    for k in range(5):
        frequency = float((copying & (actions["element"] == k)).float().mean())
        sigma = (float(p[k]) * (1 - float(p[k])) / n) ** 0.5
        assert abs(frequency - float(p[k])) < 4 * sigma + 1e-3, (k, frequency, float(p[k]))


UNPICKLE = """
import pickle, sys
reader, steps = pickle.loads(sys.stdin.buffer.read())
observations = [reader.observe(steps[0][0], None)]
for observation, action in steps[1:]:
    observations.append(reader.observe(observation, action, observations[-1]))
assert "torch" not in sys.modules, sorted(name for name in sys.modules if name.startswith("torch"))[:5]
sys.stdout.buffer.write(pickle.dumps((reader.keys, observations)))
"""


def test_the_reader_unpickles_without_torch_and_reads_as_the_policy_does() -> None:
    policy = SmallPolicy(WORLD)
    steps = [(note_screen(), None), (message_screen(), Action.tap(0.5, 0.1)), (message_screen(), Action.type("hi")),
             (nested_screen(), Action.key(ActionType.PRESS_BACK))]
    out = subprocess.run([sys.executable, "-c", UNPICKLE], input=pickle.dumps((SmallPolicy.reader(WORLD), steps)),
                         capture_output=True, check=False, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    keys, read = pickle.loads(out.stdout)
    assert keys == policy.observation_keys and set(MEMORY_KEYS) <= set(keys)
    expected = [policy.observe(steps[0][0], None)]
    for observation_t, action in steps[1:]:
        expected.append(policy.observe(observation_t, action, expected[-1]))
    assert bytes(read[1]["history_text"][0]).rstrip(b"\0") == b"carry_over.md"
    for mine, theirs in zip(expected, read, strict=True):
        assert mine.keys() == theirs.keys()
        assert all(np.array_equal(mine[k], theirs[k]) for k in MEMORY_KEYS)


def test_a_reader_without_memory_returns_the_observation_unchanged() -> None:
    plain = SmallPolicy.reader(WORLD.model_copy(update={"memory_steps": 0}))
    assert plain.keys == SmallPolicy.observation_keys
    screen = note_screen()
    assert plain.observe(screen, Action.type("x"), None).keys() == screen.keys()
