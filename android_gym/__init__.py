"""android_gym: Android phones (real over ADB, or simulated) as Gymnasium environments."""

from android_gym.actions import Action, ActionType

__version__ = "0.1.0"
__all__ = ["Action", "ActionType", "__version__"]
