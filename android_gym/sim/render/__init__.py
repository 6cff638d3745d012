"""The simulated phone's renderer: view trees to RGB screenshots, drawn directly at the requested size.

`Renderer` is the entry point (used by `android_gym.devices.sim.SimDevice`); the modules below it hold the palette
and type sizes (`theme`), glyph masks (`text`), vector icons (`icons`), drawing primitives (`canvas`) and one
painter per view style (`painters`).

>>> from android_gym.sim.view import View
>>> Renderer().render(View("android.widget.FrameLayout", (0, 0, 1080, 2400)), width=108).shape
(240, 108, 3)
"""

from __future__ import annotations

from android_gym.sim.render.renderer import Renderer

__all__ = ["Renderer"]
