"""The sim's `uiautomator dump`s against real phones' (issue 49), for the sim section.

The screens an agent meets: every step of the expert's episodes on the World suite (each template, train split),
dumped as `info["ui_xml"]`. Each dump's median node depth and clickable share, summarised over the dumps, against
the range of the real captures in `../shared/fixtures/real/uiautomator` (those with at least 10 nodes: the game's
6-node SurfaceView shows no UI); and the share of dumps carrying the attributes Android 13-14 writes
(`drawing-order`, `visible-to-user`, `display-id`, `hint`). Targets: the sim's medians inside the real range, every
dump with those attributes. Without the real captures the sim's figures are reported alone.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym

from android_gym.dump_shape import CORE_ATTRIBUTES, MODERN_ATTRIBUTES, DumpShape, ShapeSummary, dump_shape
from benchmarks.result import Result, markdown_table

REAL_DUMPS = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "real" / "uiautomator"
MIN_REAL_NODES = 10


def sim_dump_shapes(episodes_per_template: int, max_steps: int = 40, stride: int = 1) -> list[DumpShape]:
    """The shapes of the dumps along the expert's World train-split episodes (the first `episodes_per_template`
    tasks of every `stride`-th template, at most `max_steps` steps each)."""  # noqa: D205, D209
    env = gym.make("android_gym/World-v0", split="train", screenshot_width=0, include_xml=True)
    shapes: list[DumpShape] = []
    try:
        world = env.unwrapped
        by_template: dict[str, list[int]] = {}
        for index, task in enumerate(world.tasks):
            by_template.setdefault(task.template.name, []).append(index)
        for indices in list(by_template.values())[::stride]:
            for seed, index in enumerate(indices[:episodes_per_template]):
                _, info = env.reset(seed=seed, options={"task": index})
                for _ in range(max_steps):
                    if "ui_xml" in info:
                        shapes.append(dump_shape(info["ui_xml"]))
                    _, _, terminated, truncated, info = env.step(world.expert_action())
                    if terminated or truncated:
                        break
    finally:
        env.close()
    return shapes


def real_dump_shapes(directory: Path = REAL_DUMPS) -> dict[str, DumpShape]:
    """The real captures' shapes by file name (empty where the fixtures are absent)."""
    if not directory.is_dir():
        return {}
    shapes = {path.name: dump_shape(path.read_text(encoding="utf-8")) for path in sorted(directory.glob("*.xml"))}
    return {name: s for name, s in shapes.items() if s.nodes >= MIN_REAL_NODES}


def dump_figures(result: Result, episodes_per_template: int, stride: int = 1) -> None:
    """Add the dump comparison to `result`: figures with the real range as targets, and a table per dump source
    (the sim's dumps from every `stride`-th World template)."""  # noqa: D205, D209
    shapes = sim_dump_shapes(episodes_per_template, stride=stride)
    sim = ShapeSummary.of(shapes)
    real_by_file = real_dump_shapes()
    real = ShapeSummary.of(list(real_by_file.values())) if real_by_file else None
    result.add("dumps/median_depth", sim.median_depth, "levels", target=real.depth_range[0] if real else None)
    result.add("dumps/clickable_share", 100 * sim.clickable_share, "%",
               target=100 * real.clickable_range[1] if real else None, higher_is_better=False)
    modern = sum(MODERN_ATTRIBUTES <= s.attributes for s in shapes) / len(shapes)
    result.add("dumps/with_android13_attributes", 100 * modern, "%", target=100.0)
    rows = [[f"sim: {sim.dumps} World expert screens", f"{sim.median_depth:g} ({_span(sim.depth_range)})",
             f"{100 * sim.clickable_share:.1f}% ({_span(sim.clickable_range, 100)})",
             f"{sum(s.windows for s in shapes) / len(shapes):.1f}", _extra(sim.attributes)]]
    rows += [[f"real: {name}", f"{s.median_depth:g}", f"{100 * s.clickable_share:.1f}%", str(s.windows),
              _extra(s.attributes)] for name, s in real_by_file.items()]
    result.tables.append(markdown_table(
        ["dumps", "median node depth (range)", "clickable nodes (range)", "windows", "attributes beyond the core"],
        rows))
    if real is None:
        result.notes.append(f"Dumps: no real captures at {REAL_DUMPS}, so the sim's shape has no targets.")
    else:
        result.notes.append(
            f"Dumps: the real captures' median depths span {_span(real.depth_range)} and clickable shares "
            f"{_span(real.clickable_range, 100)}%; the targets ask the sim's medians to fall inside them.")


def _span(bounds: tuple[float, float], scale: float = 1.0) -> str:
    return f"{scale * bounds[0]:.3g}-{scale * bounds[1]:.3g}"


def _extra(attributes: frozenset[str]) -> str:
    return ", ".join(sorted(attributes - CORE_ATTRIBUTES)) or "none"
