"""Policies that act on `android_gym` observations: the `Policy` contract, the small fast UI policy, the VLM policy.

`Policy` (base.py) is what workers and the learner program against; `SmallPolicy` (small.py) is the CPU-trainable
factorised policy over UI-element arrays; `VLMPolicy` (vlm.py) is the AutoUI-style `transformers` policy that reads
screenshots and writes action text; `build_policy` (build.py) makes either from its config (`policy.kind`). Their
configs (`small_config.py`, `vlm_config.py`) are plain typed data: this `__init__` imports nothing, so that a config
loads without torch or transformers.
"""
