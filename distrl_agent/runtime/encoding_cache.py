"""`EncodingCache`: each replayed trajectory's policy inputs, encoded once instead of at every update.

A trajectory stays in the replay for many updates and is sampled several times; re-encoding its observations (word
hashing and label matching, a third of an update of the small policy on CPU) each time is wasted work, since the
encoding depends on the observations alone, never on the weights. Memory: about 12 kB per state for the small policy
with 48 elements, so a full 10,000-step replay costs ~130 MB of encodings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from distrl_agent.policies.base import Inputs, Policy
from distrl_agent.types import Trajectory


class EncodingCache:
    """`Policy.preprocess` outputs of the trajectories in a replay, keyed by the replay's insertion serial (uid).

    `inputs` returns None for a policy whose inputs cannot be merged (`Policy.concat_inputs` returns None); the
    learner then encodes each batch from its observations. Call `retain` with the replay's live uids to forget
    trajectories the replay evicted or dropped.
    """

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._by_uid: dict[int, Inputs] = {}
        self.hits = 0
        self.misses = 0

    @property
    def supported(self) -> bool:
        """Whether the policy can merge cached inputs (overrides `Policy.concat_inputs`)."""
        return type(self.policy).concat_inputs is not Policy.concat_inputs

    def __len__(self) -> int:
        """The number of trajectories held."""
        return len(self._by_uid)

    def inputs(self, trajectories: Sequence[Trajectory], uids: Sequence[int] | np.ndarray) -> Inputs | None:
        """The inputs of every state s_0 .. s_T of each trajectory, trajectory by trajectory (`Batch.inputs`)."""
        parts = []
        for trajectory, uid in zip(trajectories, np.asarray(uids).tolist(), strict=True):
            encoded = self._by_uid.get(uid)
            if encoded is None:
                self.misses += 1
                encoded = self._encode(trajectory)
                self._by_uid[uid] = encoded
            else:
                self.hits += 1
            parts.append(encoded)
        return self.policy.concat_inputs(parts)

    def retain(self, uids: np.ndarray) -> None:
        """Forget every trajectory whose uid is not in `uids`."""
        keep = set(np.asarray(uids).tolist())
        for uid in [u for u in self._by_uid if u not in keep]:
            del self._by_uid[uid]

    def clear(self) -> None:
        """Forget everything (after the replay was replaced, e.g. on load)."""
        self._by_uid.clear()

    def _encode(self, trajectory: Trajectory) -> Inputs:
        states = trajectory.length + 1
        observations = [{key: value[t] for key, value in trajectory.observations.items()} for t in range(states)]
        return self.policy.preprocess(observations, [trajectory.goal] * states)
