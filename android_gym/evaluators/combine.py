"""Combinations of judges: a fallback chain and a veto.

A fallback chain uses the oracle where a check exists and a judge elsewhere; a veto lets a state check overrule a
judge's successes.

As strings (see `android_gym.evaluators.factory`): `"oracle|mllm:/models/smolvlm"` is a `FallbackEvaluator`;
`"mllm:/models/smolvlm&oracle"` is a `VetoEvaluator`.
"""

from __future__ import annotations

from collections.abc import Sequence

from android_gym.errors import ConfigError
from android_gym.evaluators.base import Evaluator, Observation, Verdict, unknown
from android_gym.tasks.base import Task


class FallbackEvaluator(Evaluator):
    """The first known verdict along a chain of evaluators.

    Each evaluator is asked only for the requests the ones before it left unknown; when all are unknown the verdict
    is unknown with every reason joined. Typical use: the oracle (exact, microseconds) where the device exposes
    state, a model judge where it does not (a real phone without a state query for the task).

    Raises:
        ConfigError: fewer than two evaluators.
    """

    def __init__(self, evaluators: Sequence[Evaluator]) -> None:
        if len(evaluators) < 2:
            raise ConfigError(f"a fallback chain needs at least two evaluators, got {len(evaluators)}")
        self.evaluators = tuple(evaluators)
        self.needs_screenshot = any(e.needs_screenshot for e in self.evaluators)
        self.screenshot_history = max(e.screenshot_history for e in self.evaluators)

    def __repr__(self) -> str:
        return f"FallbackEvaluator({list(self.evaluators)!r})"

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """The first known verdict of the chain."""
        return self.judge_batch([(task, observation)])[0]

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Each evaluator judges, as one batch, the requests still unknown."""
        results: list[Verdict | None] = [None] * len(items)
        errors: list[list[str]] = [[] for _ in items]
        open_indices = list(range(len(items)))
        for evaluator in self.evaluators:
            if not open_indices:
                break
            verdicts = evaluator.judge_batch([items[i] for i in open_indices])
            still_open = []
            for i, verdict in zip(open_indices, verdicts, strict=True):
                if verdict.is_known:
                    results[i] = verdict
                else:
                    errors[i].append(f"{verdict.source or type(evaluator).__name__}: {verdict.error}")
                    results[i] = verdict
                    still_open.append(i)
            open_indices = still_open
        for i in open_indices:
            last = results[i]
            assert last is not None
            results[i] = unknown("; ".join(errors[i]), last.raw, last.latency_s, last.source)
        return [v for v in results if v is not None]

    def prejudge(self, task: Task, observation: Observation) -> Verdict | None:
        """The first known verdict of evaluators that need no screen, up to the first that needs one; else None."""
        for evaluator in self.evaluators:
            verdict = evaluator.prejudge(task, observation)
            if verdict is None:
                return None
            if verdict.is_known:
                return verdict
        return self.judge(task, observation)  # every one needs no screen and none knows: the joined unknown

    def start(self) -> None:
        """Start every evaluator."""
        for evaluator in self.evaluators:
            evaluator.start()

    def close(self) -> None:
        """Close every evaluator."""
        for evaluator in self.evaluators:
            evaluator.close()

    def stats(self) -> dict[str, float]:
        """Every evaluator's counters (later ones win on equal keys)."""
        return {k: v for evaluator in self.evaluators for k, v in evaluator.stats().items()}


class VetoEvaluator(Evaluator):
    """A judge whose verdict stands unless a state check says the task is not done.

    The veto is asked first (it is cheap): when it says False, the verdict is False and the judge is not called;
    when it says True or cannot tell (no state), the judge's verdict stands. So a judge's false positive on a screen
    that merely looks right is overruled wherever the device can be queried.
    """

    def __init__(self, judge: Evaluator, veto: Evaluator) -> None:
        self.judge_evaluator = judge
        self.veto = veto
        self.needs_screenshot = judge.needs_screenshot or veto.needs_screenshot
        self.screenshot_history = max(judge.screenshot_history, veto.screenshot_history)

    def __repr__(self) -> str:
        return f"VetoEvaluator({self.judge_evaluator!r}, veto={self.veto!r})"

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """False when the veto says False, else the judge's verdict."""
        return self.judge_batch([(task, observation)])[0]

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Vetoes first, then one judge batch for the requests not vetoed."""
        vetoes = self.veto.judge_batch(items)
        results: list[Verdict] = list(vetoes)
        open_indices = [i for i, v in enumerate(vetoes) if v.success is not False]
        for i in set(range(len(items))) - set(open_indices):
            results[i] = _vetoed(vetoes[i])
        if open_indices:
            for i, verdict in zip(open_indices, self.judge_evaluator.judge_batch([items[i] for i in open_indices]),
                                  strict=True):
                results[i] = verdict
        return results

    def prejudge(self, task: Task, observation: Observation) -> Verdict | None:
        """False when the veto says False without a screen; else the judge's own prejudge (None: it needs one)."""
        veto = self.veto.prejudge(task, observation)
        if veto is None:
            return None
        if veto.success is False:
            return _vetoed(veto)
        return self.judge_evaluator.prejudge(task, observation)

    def start(self) -> None:
        """Start both."""
        self.veto.start()
        self.judge_evaluator.start()

    def close(self) -> None:
        """Close both."""
        self.veto.close()
        self.judge_evaluator.close()

    def stats(self) -> dict[str, float]:
        """Both evaluators' counters."""
        return {**self.veto.stats(), **self.judge_evaluator.stats()}


def _vetoed(veto: Verdict) -> Verdict:
    """The combination's False verdict when the state check `veto` said False (the judge was not asked)."""
    return Verdict(False, 0.0, veto.raw, veto.latency_s, veto.is_cached, "", f"veto:{veto.source or 'state'}")
