"""android_gym: Android phones (real over ADB, or simulated) as Gymnasium environments.

Importing the package registers `android_gym/General-v0`, `android_gym/WebShop-v0` and `android_gym/World-v0`;
`gym.make` also finds them as `"android_gym:android_gym/General-v0"` without a prior import.
"""

from android_gym.actions import Action, ActionType
from android_gym.actions_text import format_action, parse_action
from android_gym.registration import ENV_IDS, register_envs

__version__ = "0.1.0"
register_envs()

__all__ = ["ENV_IDS", "Action", "ActionType", "__version__", "format_action", "parse_action"]
