"""Update rules: A-RIDE (`a_ride.py`, with `retrace.py`), its ablations, DigiRL, Filtered BC, PPO, GRPO.

`configs.py` holds every rule's coefficients as plain, typed data (no torch), which `distrl_agent.config` reads;
`rules.py` turns a rule's name and coefficients into its loss (`make_update_rule`); `common.py` holds what the
losses share. This `__init__` imports nothing, so that a config loads without the losses.
"""
