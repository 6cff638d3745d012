"""`CachingEvaluator`: avoid judge calls exactly, by remembering verdicts of (goal, screen) pairs.

It reuses verdicts of identical (goal, screen) pairs and of unchanged screens, and sends each distinct request of a
batch once.

Three ways a call is saved, each counted in `stats()`:

* `cache/hits`: the same goal with a pixel-identical screen was judged before (an LRU of `max_entries` verdicts keyed
  by (goal, screen hash), as DigiRL does for repeated screens, but exact);
* `cache/unchanged`: the screen differs from the last judged screen of the same goal by no more than the pixel
  thresholds (`pixel_tolerance` intensity levels on at most `max_changed_fraction` of the pixels, ignoring the top
  `skip_top_fraction` rows — a real phone's status-bar clock);
* `cache/duplicates`: several requests of one batch share a (goal, screen) pair.

Unknown verdicts are never stored, so a failed call is retried the next time. The previous action is not part of the
key: a judge is asked what the screen shows. Tasks whose success rests on what the agent declares ("answer" and
"infeasible" outcomes) are never cached: their verdict depends on the declaration, not only on the screen.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from pydantic import Field

from android_gym.config_model import ConfigModel
from android_gym.evaluators.base import Evaluator, Observation, Verdict
from android_gym.evaluators.images import changed_fraction, screen_hash, screenshot_problem
from android_gym.heap import track_cache
from android_gym.tasks.base import Task

Key = tuple[str, ...]


class CacheConfig(ConfigModel):
    """How aggressively judge calls are avoided.

    Attributes:
        max_entries: verdicts kept (least recently used dropped first); 0 turns the exact cache off.
        skip_unchanged: reuse the last verdict of a goal when its screen did not change (see the thresholds).
        pixel_tolerance: intensity levels (0-255) a channel may move and still count as unchanged; 8 absorbs
            compression and anti-aliasing noise, far below any text or widget change.
        max_changed_fraction: fraction of pixels, in [0, 1], that may change beyond the tolerance; 0 by default
            because a toggled switch or a typed letter changes well under 1% of a phone screen.
        skip_top_fraction: fraction of rows at the top left out of the comparison (0.04 hides a real status bar).
        max_goals: goals whose last judged screen is remembered for `skip_unchanged`. Each holds a copy of one
            screenshot (~0.2-0.9 MB at the env's 360 px), so this bounds the cache's memory: 64 covers a pool of
            envs sharing one judge; 1024 (the old default) grew every env process of the soak benchmark by
            ~75 MB a minute until full, which read as a leak (issue 20).
    """

    max_entries: int = Field(default=4096, ge=0)
    skip_unchanged: bool = True
    pixel_tolerance: int = Field(default=8, ge=0, le=255)
    max_changed_fraction: float = Field(default=0.0, ge=0, le=1)
    skip_top_fraction: float = Field(default=0.0, ge=0, lt=1)
    max_goals: int = Field(default=64, ge=1)


_LIVE: weakref.WeakSet[CachingEvaluator] = weakref.WeakSet()  # for the heap log's count of cached entries
track_cache("judge verdicts", lambda: sum(len(c._verdicts) + len(c._last) for c in list(_LIVE)))


class CachingEvaluator(Evaluator):
    """Wraps a judge and answers from its past verdicts where that is exact (see the module docstring).

    Thread-safe; the wrapped judge is called outside the lock. Requests without a usable screenshot go straight to
    the wrapped judge (which reports the problem).
    """

    def __init__(self, inner: Evaluator, config: CacheConfig | None = None) -> None:
        self.inner = inner
        self.config = config or CacheConfig()
        self.needs_screenshot = inner.needs_screenshot
        self.screenshot_history = inner.screenshot_history
        self._verdicts: OrderedDict[Key, Verdict] = OrderedDict()
        self._last: OrderedDict[str, tuple[np.ndarray, Verdict]] = OrderedDict()
        self._lock = threading.Lock()
        self._counts = {"cache/requests": 0, "cache/hits": 0, "cache/unchanged": 0, "cache/duplicates": 0,
                        "cache/forwarded": 0}
        _LIVE.add(self)

    def __repr__(self) -> str:
        return f"CachingEvaluator({self.inner!r})"

    def start(self) -> None:
        """Start the wrapped judge."""
        self.inner.start()

    def close(self) -> None:
        """Close the wrapped judge and drop the cache."""
        self.inner.close()
        with self._lock:
            self._verdicts.clear()
            self._last.clear()

    def stats(self) -> dict[str, float]:
        """The wrapped judge's counters plus this cache's.

        The cache's: `cache/requests`, `cache/hits`, `cache/unchanged`, `cache/duplicates`, `cache/forwarded` (calls
        made), `cache/saved` (calls avoided) and `cache/saved_fraction`.
        """
        with self._lock:
            counts = dict(self._counts)
        counts["cache/saved"] = counts["cache/hits"] + counts["cache/unchanged"] + counts["cache/duplicates"]
        counts["cache/saved_fraction"] = counts["cache/saved"] / max(1, counts["cache/requests"])
        return {**self.inner.stats(), **counts}

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """A remembered verdict when one applies, else the wrapped judge's."""
        return self.judge_batch([(task, observation)])[0]

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Verdicts in order; only the distinct, unremembered requests reach the wrapped judge, as one batch."""
        results: list[Verdict | None] = [None] * len(items)
        pending: dict[Key, list[int]] = {}
        keys: list[Key | None] = []
        with self._lock:
            self._counts["cache/requests"] += len(items)
            for i, (task, observation) in enumerate(items):
                key = self._key(task, observation)
                keys.append(key)
                if key is None:
                    pending[("", str(i))] = [i]  # unusable screen: the wrapped judge says why
                elif (hit := self._lookup(key, task.goal, observation)) is not None:
                    results[i] = hit
                elif key in pending:
                    pending[key].append(i)
                    self._counts["cache/duplicates"] += 1
                else:
                    pending[key] = [i]
            self._counts["cache/forwarded"] += len(pending)
        fresh = self.inner.judge_batch([items[indices[0]] for indices in pending.values()]) if pending else []
        with self._lock:
            for indices, verdict in zip(pending.values(), fresh, strict=True):
                first = indices[0]
                results[first] = verdict
                for j in indices[1:]:
                    results[j] = replace(verdict, is_cached=True, latency_s=0.0) if verdict.is_known else verdict
                key = keys[first]
                if key is not None and verdict.is_known:
                    self._store(key, items[first][0].goal, items[first][1].screenshot, verdict)
        return [v for v in results if v is not None]

    # -- internals (called with the lock held) ------------------------------------------------------------------------
    def _key(self, task: Task, observation: Observation) -> Key | None:
        if task.template.outcome != "state" or screenshot_problem(observation.screenshot) is not None:
            return None
        assert observation.screenshot is not None
        earlier = observation.history[-(self.screenshot_history - 1):] if self.screenshot_history > 1 else ()
        return (task.goal, screen_hash(observation.screenshot), *(screen_hash(s) for s in earlier))

    def _lookup(self, key: Key, goal: str, observation: Observation) -> Verdict | None:
        verdict = self._verdicts.get(key)
        if verdict is not None:
            self._verdicts.move_to_end(key)
            self._counts["cache/hits"] += 1
            return replace(verdict, is_cached=True, latency_s=0.0)
        last = self._last.get(goal)
        c = self.config
        if c.skip_unchanged and last is not None:
            assert observation.screenshot is not None
            moved = changed_fraction(last[0], observation.screenshot, c.pixel_tolerance, c.skip_top_fraction)
            if moved <= c.max_changed_fraction:
                self._counts["cache/unchanged"] += 1
                return replace(last[1], is_cached=True, latency_s=0.0)
        return None

    def _store(self, key: Key, goal: str, screen: np.ndarray | None, verdict: Verdict) -> None:
        if self.config.max_entries:
            self._verdicts[key] = verdict
            self._verdicts.move_to_end(key)
            while len(self._verdicts) > self.config.max_entries:
                self._verdicts.popitem(last=False)
        if self.config.skip_unchanged and screen is not None:
            self._last[goal] = (screen.copy(), verdict)
            self._last.move_to_end(goal)
            while len(self._last) > self.config.max_goals:
                self._last.popitem(last=False)
