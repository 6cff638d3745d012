"""The coefficients of every update rule, as typed configs, and which config each rule name reads.

Plain data only (no torch): `distrl_agent.config` types `learner.coefficients` with these without importing a loss.
Each rule module (`a_ride.py`, `digirl.py`, ...) takes its config from here.

>>> rule_config("a-ride-no-entropy", {"gamma": 0.8})
ARideConfig(gamma=0.8, lam=0.95, rho_bar_max=1.0, behaviour_weight='truncate', ratio_level='sequence', ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import closest
from distrl_agent.errors import ConfigError

if TYPE_CHECKING:
    from distrl_agent.types import Trajectory

Unit = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
"""A number in [0, 1]: discounts, lambdas."""
NonNegative = Annotated[float, Field(ge=0, allow_inf_nan=False)]
"""A finite weight >= 0."""
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]
"""A finite number > 0."""
ClipEps = Annotated[float, Field(gt=0, lt=1)]
"""ε of a clipped surrogate, in (0, 1)."""
BehaviourWeight = Literal["truncate", "mask", "uncapped"]
"""How a rule weighs a step by its behaviour importance ratio ρ (`algorithms.common.behaviour_weight`): truncate at the
cap (Retrace, V-trace), mask the steps above the cap out of the loss (AReaL), or take ρ as it is (decoupled PPO)."""
RatioLevel = Literal["sequence", "sequence_mean", "token"]
"""The grain of a rule's importance ratios for a policy whose actions are token sequences (`LogProbs.at_level`): the
whole action's ratio, a product over its tokens (the paper's), GSPO's length-normalised one, exp(mean_k log ratio_k),
or each token's own. The three coincide for a policy whose actions are one choice."""


def check_mask_cap(weight: str, cap: float, cap_key: str) -> None:
    """A mask cap must exceed 1: at or below it, masking would drop every step the learner's policy now prefers.

    Raises:
        FieldError: naming `cap_key`.
    """
    if weight == "mask" and cap <= 1:
        raise FieldError(cap_key, "> 1 when `behaviour_weight` is mask (a step is dropped when its ratio exceeds it)",
                         cap)


class RuleConfig(ConfigModel):
    """Base of the rules' coefficient configs (their errors are `distrl_agent.errors.ConfigError`).

    `bootstraps_truncation` says whether the rule values a truncated episode's last state by its critic, V(s_T),
    so that a trajectory cut at any step is unbiased data for it (A-RIDE and PPO). The others read whole episodes:
    DigiRL's Monte-Carlo returns and Filtered BC's success filter would score a cut episode as a failure, and GRPO
    compares the outcomes of a group.
    """

    error_type: ClassVar[type[Exception]] = ConfigError
    bootstraps_truncation: ClassVar[bool] = False

    def micro_batch_refusal(self) -> str | None:
        """Why this rule's loss cannot be split into micro-batches, or None when it can (`learner.micro_batch_size`).

        A loss splits when it is one mean over one count of the batch's rows (its real steps, say) with no statistic
        of the whole batch inside: the batch's loss is then its micro-batches' losses weighted by their counts, and
        their accumulated gradients are the batch's. The default refuses; each rule that splits says so.
        """
        return f"{type(self).__name__}'s loss reads statistics of the whole batch"


class ARideConfig(RuleConfig):
    """Coefficients of A-RIDE (the paper's code, except where tuned for the small CPU policy; see ALGORITHM.md).

    Attributes:
        gamma: discount. The paper's 0.5 leaves a state five steps from success worth 0.06, which the entropy bonus
            drowns on our 10-20-step tasks; 0.9 keeps the signal (measured in benchmarks/training.py).
        lam: Retrace lambda.
        rho_bar_max: the cap of the actor's importance ratio rho = pi / mu (see `behaviour_weight`).
        behaviour_weight: how the actor weighs a step by rho: "truncate" (min(rho_bar_max, rho), the paper's),
            "mask" (rho, and 0 for the steps with rho > rho_bar_max, which then must be > 1: AReaL's), or
            "uncapped" (rho). The critic's Retrace traces keep their own truncation, lambda min(1, rho).
        ratio_level: the grain of rho for a policy whose actions are token sequences (`RatioLevel`): "sequence"
            (the paper's, the product over the action's tokens), "sequence_mean" (GSPO's length-normalised ratio,
            with the length-normalised log pi in the actor), or "token" (each token's rho truncated on its own, the
            step's gradient the sum over its tokens). The Retrace traces read the step's ratio: the sequence's, or
            the length-normalised one at the two other levels (a product over 30 tokens cuts every trace).
        entropy_coef: beta, the entropy bonus, 0.01 (the low end of the paper's 0.01-0.05). It keeps the first step of
            tasks the policy cannot do yet from vanishing: without it (and 0.001 is close to without), A-RIDE drove
            the probability of opening Clock or Settings from the home screen to 0.00 within minutes. An earlier
            finding that 0.01 erased multi-step app skills was measured with the critic on the actor's features,
            whose biased values were the cause (see ALGORITHM.md, items 6 and 9).
        entropy_per_draw: the k-th draw of a trajectory from the replay weighs its entropy bonus by 1/k (True), or
            every draw by 1 (False, the plain bonus). On slow devices the learner draws each trajectory ~80 times; the
            replayed advantages cancel out while a plain bonus pushes the same way on every draw, and it alone drove
            the policy (entropy 2.5 -> 3.7 nats, test success 57% -> 31% in 10 minutes). On the instant phone the
            staleness cap drops a trajectory after 2.5-3.5 draws, so the bonus there averages about half of beta.
        kl_coef: weight of a KL penalty to the reference policy, the policy at the learner's first update (the warm
            start): the k3 estimate on the stored actions, IS-weighted like the actor (0, the paper's: none, and no
            reference is kept; > 0: the learner keeps and checkpoints a frozen copy, one more forward pass a batch).
            On World the small policy's default is 0.1 (`distrl_agent.config.SUITE_COEFFICIENTS`).
        trust_region: epsilon of a trust region around the behaviour policy (None, the paper's: none): the actor
            stops pushing a step once its ratio rho = pi / mu has left [1 - epsilon, 1 + epsilon] the way its
            signal pushes (A > 0 above 1 + epsilon, A < 0 below 1 - epsilon): PPO's clip, as a stop on A-RIDE's
            own gradient, so that a trajectory replayed many times moves each of its actions a bounded way.
        penalty_coef: lambda_P, weight of the invalid-action penalty folded into the advantage.
        value_coef: c_V, weight of the critic loss in the summed loss.
        actor_coef: weight of the actor terms (policy gradient, entropy and KL); 0 trains the critic alone (warm-up).
        use_retrace: False gives the "no Retrace" ablation: one-step TD targets r_t + gamma (1 - done_t) V(s_{t+1})
            and the one-step advantage delta_t = target - V(s_t).
        w1, w2, w3, epsilon: priority weights of mean |delta|, mean rho_bar, mean -log pi, and the floor.
    """

    bootstraps_truncation: ClassVar[bool] = True

    gamma: Unit = 0.9
    lam: Unit = 0.95
    rho_bar_max: Positive = 1.0
    behaviour_weight: BehaviourWeight = "truncate"
    ratio_level: RatioLevel = "sequence"
    entropy_coef: NonNegative = 0.01
    entropy_per_draw: bool = True
    kl_coef: NonNegative = 0.0
    trust_region: ClipEps | None = None
    penalty_coef: NonNegative = 0.05
    value_coef: NonNegative = 0.5
    actor_coef: NonNegative = 1.0
    use_retrace: bool = True
    w1: NonNegative = 50.0
    w2: NonNegative = 1.0
    w3: NonNegative = 0.01
    epsilon: NonNegative = 1e-3

    @model_validator(mode="after")
    def _mask_cap_above_one(self) -> ARideConfig:
        check_mask_cap(self.behaviour_weight, self.rho_bar_max, "rho_bar_max")
        return self

    def micro_batch_refusal(self) -> str | None:
        """None: every term is a mean over the batch's real steps (per-token terms summed within a step first), and
        the Retrace targets and priorities are per trajectory."""  # noqa: D205, D209
        return None


class DigiRLConfig(RuleConfig):
    """Coefficients of DigiRL's update.

    Attributes:
        gamma: discount of the Monte-Carlo returns (0.9, as for A-RIDE, so the two compare at equal horizon).
        top_fraction: fraction of the batch's episodes (by G_0 - V(g)) the actor trains on (DigiRL: 10%), in (0, 1];
            episodes tied with the last one kept are kept too.
        advantage_offset: subtracted from the advantage before the A > 0 filter (DigiRL: 0.05).
        value_coef: weight of the two critic losses in the summed loss.
        actor_coef: weight of the actor loss; 0 trains the critics alone (warm-up).
    """

    gamma: float = 0.9
    top_fraction: Annotated[float, Field(gt=0, le=1)] = 0.1
    advantage_offset: float = 0.05
    value_coef: float = 0.5
    actor_coef: float = 1.0

    def micro_batch_refusal(self) -> str | None:
        """DigiRL's actor trains on the top fraction of the whole batch's episodes."""
        return "DigiRL's actor keeps the top fraction of the whole batch's episodes"


class FilteredBCConfig(RuleConfig):
    """Filtered BC has no coefficients beyond what counts as success (a positive episode return).

    Attributes:
        min_return: an episode whose return reaches this counts as a success, and its steps are imitated.
    """

    min_return: float = 0.5

    def micro_batch_refusal(self) -> str | None:
        """None: one mean over the steps of successful episodes, each episode judged on its own."""
        return None


def token_mean_refusal(rule: str, ratio_level: str) -> str | None:
    """Why a clipped surrogate at `ratio_level` cannot be split: at "token" it is a mean over the batch's tokens beside
    the other terms' means over steps, two counts that micro-batches hold in different proportions."""  # noqa: D205, D209
    if ratio_level == "token":
        return f"{rule} at ratio_level 'token' averages over tokens and over steps in one loss"
    return None


class PPOConfig(RuleConfig):
    """Coefficients of decoupled PPO.

    Attributes:
        gamma: discount (0.9, as for A-RIDE, so the rules compare at equal horizon).
        lam: GAE lambda.
        clip_eps: ε of the clipped surrogate, in (0, 1).
        is_clip: c̄, the cap of the behaviour correction π_prox / μ (see `behaviour_weight`).
        behaviour_weight: "truncate" (min(c̄, π_prox / μ)), "mask" (π_prox / μ, and 0 for the steps above c̄,
            which then must be > 1: AReaL's), or "uncapped" (π_prox / μ: Hilton et al.'s decoupled PPO).
        ratio_level: the grain of both ratios for a policy whose actions are token sequences (`RatioLevel`):
            "sequence", "sequence_mean" (GSPO's) or "token" (each token clipped on its own, the loss a mean over
            every token: the 2025 literature's).
        epochs: gradient steps on each sampled batch (each one a weights version).
        normalize_advantages: standardise Â over the batch's real steps.
        entropy_coef: β, the entropy bonus.
        value_coef: c_V, weight of the critic loss.
        actor_coef: weight of the actor terms; 0 trains the critic alone (warm-up).
    """

    bootstraps_truncation: ClassVar[bool] = True

    gamma: Unit = 0.9
    lam: Unit = 0.95
    clip_eps: ClipEps = 0.2
    is_clip: Positive = 1.0
    behaviour_weight: BehaviourWeight = "truncate"
    ratio_level: RatioLevel = "sequence"
    epochs: Annotated[int, Field(ge=1)] = 4
    normalize_advantages: bool = True
    entropy_coef: NonNegative = 0.01
    value_coef: NonNegative = 0.5
    actor_coef: NonNegative = 1.0

    @model_validator(mode="after")
    def _mask_cap_above_one(self) -> PPOConfig:
        check_mask_cap(self.behaviour_weight, self.is_clip, "is_clip")
        return self

    def micro_batch_refusal(self) -> str | None:
        """A mean over real steps splits; standardised advantages and a mean over tokens do not."""
        if self.normalize_advantages:
            return "PPO standardises its advantages over the whole batch (set normalize_advantages: false to split)"
        return token_mean_refusal("PPO", self.ratio_level)


@dataclass(frozen=True)
class GroupSpec:
    """How a worker plays GRPO's groups (`runtime/groups.py`): `size` (G >= 2) episodes per group from one start, and
    the shortest-path `length_penalty` λ >= 0 of their returns."""  # noqa: D205, D209

    size: int
    length_penalty: float = 0.0

    def __post_init__(self) -> None:
        if self.size < 2:
            raise ValueError(f"a group needs at least 2 members to compare, got size {self.size}")
        if not self.length_penalty >= 0:
            raise ValueError(f"`length_penalty` must be >= 0, got {self.length_penalty}")

    def episode_return(self, trajectory: Trajectory) -> float:
        """R_i = Σ r_t, minus λ T for a successful episode (Σ r_t > 0): among successes, the shorter path scores higher.

        Keep λ times the step budget below the success reward, so that a success still beats every failure.
        """
        total = float(trajectory.rewards.sum())
        return total - self.length_penalty * trajectory.length if total > 0 else total


class GRPOConfig(RuleConfig):
    """Coefficients of GRPO.

    Attributes:
        group_size: G, episodes per group, played by one worker from the same reset seed (4: a first choice,
            unmeasured; with success near 50%, 2 x 0.5^4 = 12.5% of groups are uniform and dropped); >= 2, since a
            group compares its episodes.
        clip_eps: ε of the clipped surrogate, in (0, 1).
        is_clip: c̄, the cap of the behaviour correction π_prox / μ (see `behaviour_weight`).
        behaviour_weight: "truncate" (min(c̄, π_prox / μ)), "mask" (π_prox / μ, and 0 for the steps above c̄,
            which then must be > 1: AReaL's), or "uncapped" (π_prox / μ: Hilton et al.'s decoupled PPO).
        ratio_level: as PPO's.
        epochs: gradient steps on each sampled batch (each one a weights version).
        eps: added to the group's std.
        entropy_coef: β, the entropy bonus (as for PPO, so the rules compare).
        kl_coef: weight of the KL penalty to the reference policy π_ref (0: none, and no reference is kept; > 0: the
            learner keeps a frozen copy of the policy as it was at its first update, and checkpoints it).
        length_penalty: λ, the shortest-path adjustment of a successful episode's return (per step).
    """

    group_size: Annotated[int, Field(ge=2)] = 4
    clip_eps: ClipEps = 0.2
    is_clip: Positive = 1.0
    behaviour_weight: BehaviourWeight = "truncate"
    ratio_level: RatioLevel = "sequence"
    epochs: Annotated[int, Field(ge=1)] = 1
    eps: Positive = 1e-6
    entropy_coef: NonNegative = 0.01
    kl_coef: NonNegative = 0.0
    length_penalty: NonNegative = 0.0

    @model_validator(mode="after")
    def _mask_cap_above_one(self) -> GRPOConfig:
        check_mask_cap(self.behaviour_weight, self.is_clip, "is_clip")
        return self

    def micro_batch_refusal(self) -> str | None:
        """Group advantages come with each trajectory, so a mean over real steps splits; a mean over tokens does not."""
        return token_mean_refusal("GRPO", self.ratio_level)

    @property
    def groups(self) -> GroupSpec:
        """How workers play this rule's groups."""
        return GroupSpec(self.group_size, self.length_penalty)


AnyRuleConfig = ARideConfig | DigiRLConfig | FilteredBCConfig | PPOConfig | GRPOConfig
"""The coefficients of any rule."""

RULE_CONFIGS: dict[str, tuple[type[RuleConfig], dict[str, Any]]] = {
    "a-ride": (ARideConfig, {}),
    "a-ride-uniform": (ARideConfig, {}),
    "a-ride-no-retrace": (ARideConfig, {"use_retrace": False}),
    "a-ride-no-entropy": (ARideConfig, {"entropy_coef": 0.0}),
    "digirl": (DigiRLConfig, {}),
    "filtered-bc": (FilteredBCConfig, {}),
    "ppo": (PPOConfig, {}),
    "grpo": (GRPOConfig, {}),
}
"""Rule name -> (its config class, the coefficients the name fixes: an ablation is A-RIDE with one part off)."""

ALGORITHMS = tuple(RULE_CONFIGS)
"""Every rule name `learner.algorithm` accepts."""


def rule_config(name: str, values: Mapping[str, Any] | RuleConfig | None = None,
                where: str = "learner.coefficients") -> AnyRuleConfig:
    """The config of rule `name` from `values` (its fields; None: defaults), with the values the name fixes.

    Raises:
        ConfigError: an unknown rule (with the closest name), an unknown or bad coefficient (naming its dotted key
            under `where`), or a coefficient set against what the name fixes (`a-ride-no-entropy` with
            `entropy_coef=0.01`).
    """
    if name not in RULE_CONFIGS:
        close = closest(str(name), ALGORITHMS)
        raise ConfigError(f"unknown algorithm {name!r}{f' (did you mean {close!r}?)' if close else ''}; known: "
                          f"{', '.join(ALGORITHMS)}")
    cls, fixed = RULE_CONFIGS[name]
    if isinstance(values, RuleConfig) and not isinstance(values, cls):
        raise ConfigError(f"`{where}` is a {type(values).__name__}, but `{name}` reads a {cls.__name__}")
    config = cls.from_data(values, where=where)
    conflict = fixed_conflict(name, values)
    if conflict is not None:
        key, value, given = conflict
        raise ConfigError(f"`{where}.{key}` must be {value!r}, as the rule `{name}` fixes it, got {given!r}")
    return config.replace(**fixed) if fixed else config


def fixed_conflict(name: str, values: Mapping[str, Any] | RuleConfig | None) -> tuple[str, Any, Any] | None:
    """(key, the value rule `name` fixes, the value given) of the first coefficient set against it, else None.

    >>> fixed_conflict("a-ride-no-retrace", {"use_retrace": True})
    ('use_retrace', False, True)
    """
    given = values.to_data() if isinstance(values, RuleConfig) else values if isinstance(values, Mapping) else {}
    for key, value in RULE_CONFIGS[name][1].items():
        if key in given and given[key] != value:
            return key, value, given[key]
    return None
