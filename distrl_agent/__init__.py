"""distrl_agent: the DistRL trainer (asynchronous actor-learner with A-RIDE) for `android_gym` environments.

It depends on `android_gym` only through Gymnasium and the environment's public types; the replay buffer, the
trajectory containers and the maths under `algorithms/` depend on numpy and torch alone.
"""

__version__ = "0.1.0"
