"""Evaluators: judge whether a task is done, by exact state checks, local VLMs or OpenAI-compatible servers.

Also their caching, batching and combinations. `make_evaluator(spec)` builds one from a spec — "oracle",
"mllm:<path>", "http:<url>", "A|B", "A&B" — which is what `gym.make(..., evaluator=...)` accepts.
"""

from android_gym.evaluators.base import Evaluator, Observation, OracleEvaluator, Verdict, unknown
from android_gym.evaluators.cache import CacheConfig, CachingEvaluator
from android_gym.evaluators.combine import FallbackEvaluator, VetoEvaluator
from android_gym.evaluators.factory import make_evaluator, parse_spec
from android_gym.evaluators.http import HttpEvaluator, HttpJudgeConfig
from android_gym.evaluators.mllm import MllmEvaluator, MllmJudgeConfig
from android_gym.evaluators.prompts import JudgePrompt, parse_answer
from android_gym.evaluators.service import JudgeService, ServiceClient, ServiceConfig

__all__ = ["CacheConfig", "CachingEvaluator", "Evaluator", "FallbackEvaluator", "HttpEvaluator", "HttpJudgeConfig",
           "JudgePrompt", "JudgeService", "MllmEvaluator", "MllmJudgeConfig", "Observation", "OracleEvaluator",
           "ServiceClient", "ServiceConfig", "Verdict", "VetoEvaluator", "make_evaluator", "parse_answer",
           "parse_spec", "unknown"]
