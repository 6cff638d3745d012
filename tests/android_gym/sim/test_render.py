"""Tests of `android_gym.sim.render`: shapes, determinism, what gets drawn, theme, cache correctness, validation."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import android_gym.sim
from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.device_dump import to_xml
from android_gym.sim.layout import EDIT_TEXT, FRAME, HEIGHT, IMAGE_VIEW, LINEAR, SWITCH, TEXT_VIEW, WIDTH
from android_gym.sim.phone import SimPhone
from android_gym.sim.render import Renderer
from android_gym.sim.render.app_glyphs import APP_GLYPHS
from android_gym.sim.render.cache import ImageLRU
from android_gym.sim.render.glyphs import SYSTEM_GLYPHS
from android_gym.sim.render.icons import IconCache
from android_gym.sim.render.painters import CLASS_PAINTERS, PAINTERS, PLACEHOLDER_ICONS
from android_gym.sim.render.text import TextCache
from android_gym.sim.render.theme import LIGHT, name_colour
from android_gym.sim.view import View

SCREEN = (0, 0, WIDTH, HEIGHT)


def screen(*children: View) -> View:
    """A full-screen root holding `children`."""
    return View(FRAME, SCREEN, children=list(children))


def region(image: np.ndarray, bounds: tuple[int, int, int, int]) -> np.ndarray:
    """The pixels of `image` inside device-pixel `bounds`."""
    s = image.shape[1] / WIDTH
    x0, y0, x1, y1 = (round(v * s) for v in bounds)
    return image[y0:y1, x0:x1]


@pytest.fixture
def phone() -> SimPhone:
    """A phone on its home screen."""
    p = SimPhone()
    p.reset(0)
    return p


def home_drawer_gmail(phone: SimPhone) -> list[View]:
    """Three different screens of a fresh phone: home, app drawer, Gmail's list."""
    trees = [phone.tree()]
    phone.swipe(540, 1500, 540, 600)
    trees.append(phone.tree())
    phone.launch("Gmail")
    trees.append(phone.tree())
    return trees


# -- contract ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("width", [16, 64, 128, 224, 360, 1080, 2160])
def test_render_shape_and_dtype_for_widths(phone, width):
    """The image is uint8 RGB with the panel's aspect ratio at every allowed width."""
    image = Renderer().render(phone.tree(), width)
    assert image.dtype == np.uint8
    assert image.shape == (round(width * HEIGHT / WIDTH), width, 3)


@pytest.mark.parametrize("width", [15, 2161, 0, -224, 224.0, True, "224", None])
def test_width_out_of_range_raises_config_error(width):
    """Widths outside [16, 2160] or of the wrong type raise a ConfigError naming `width`."""
    with pytest.raises(ConfigError, match="`width`"):
        Renderer().render(screen(), width)


def test_render_is_deterministic_for_the_same_tree(phone):
    """The same tree gives identical pixels from a fresh renderer and after other screens filled the caches."""
    trees = home_drawer_gmail(phone)
    warm = Renderer()
    first = [warm.render(t, 224) for t in trees]
    again = [warm.render(t, 224) for t in reversed(trees)][::-1]
    fresh = [Renderer().render(t, 224) for t in trees]
    for a, b, c in zip(first, again, fresh, strict=True):
        assert np.array_equal(a, b) and np.array_equal(a, c)


def test_render_differs_between_screens(phone):
    """Home, drawer and Gmail look different."""
    images = [Renderer().render(t, 224) for t in home_drawer_gmail(phone)]
    assert not np.array_equal(images[0], images[1])
    assert not np.array_equal(images[1], images[2])
    assert not np.array_equal(images[0], images[2])


def test_render_does_not_modify_views(phone):
    """Rendering leaves the tree exactly as it was (views are treated as immutable)."""
    tree = phone.tree()
    before = to_xml([tree])
    Renderer().render(tree, 224, dark=True)
    assert to_xml([tree]) == before


def test_sim_device_screenshot_uses_renderer():
    """SimDevice's screenshot is the renderer's image at the requested width."""
    device = SimDevice(perturbations="none")
    device.reset(0)
    shot = device.screenshot(224)
    assert shot.shape == (498, 224, 3) and shot.dtype == np.uint8
    assert np.array_equal(shot, Renderer().render(device.phone.tree(), 224))


# -- what is drawn ----------------------------------------------------------------------------------------------------
def test_text_drawn_inside_text_view_bounds():
    """Pixels inside a text view differ from the background, and only because of its text."""
    bounds = (100, 400, 900, 520)
    with_text = Renderer().render(screen(View(TEXT_VIEW, bounds, text="Hello world")), 224)
    without = Renderer().render(screen(View(TEXT_VIEW, bounds)), 224)
    assert (region(with_text, bounds) != LIGHT.bg).any()
    assert (region(without, bounds) == LIGHT.bg).all()


def test_text_clipped_to_view_bounds():
    """Long text in a small view never paints outside the view's bounds."""
    bounds = (100, 400, 300, 440)
    image = Renderer().render(screen(View(TEXT_VIEW, bounds, text="A very long label " * 20, style="title")), 360)
    mask = np.zeros(image.shape[:2], bool)
    s = 360 / WIDTH
    mask[round(400 * s):round(440 * s), round(100 * s):round(300 * s)] = True
    assert (image[~mask] == LIGHT.bg).all()
    assert (image[mask] != LIGHT.bg).any()


def test_unknown_style_renders_as_plain_text():
    """A style the renderer does not know looks like plain text on the parent's background."""
    bounds = (100, 400, 900, 520)
    unknown = Renderer().render(screen(View(TEXT_VIEW, bounds, text="Hello", style="no_such_style")), 224)
    plain = Renderer().render(screen(View(TEXT_VIEW, bounds, text="Hello")), 224)
    assert np.array_equal(unknown, plain)


@pytest.mark.parametrize("style", sorted(PAINTERS) + ["no_such_style"])
def test_every_style_draws_within_its_bounds(style):
    """Each style paints something for a labelled view and stays inside its bounds (scrim aside)."""
    bounds = (200, 800, 880, 1000)
    view = View(TEXT_VIEW, bounds, text="Label 42%", hint="Hint", icon="search", style=style, checked=True,
                selected=True, focused=True)
    image = Renderer().render(screen(view), 360)
    outside = image.copy()
    s = 360 / WIDTH
    outside[round(800 * s):round(1000 * s) + 1, round(200 * s):round(880 * s) + 1] = LIGHT.bg
    if style not in ("scrim", "dark"):
        assert (outside == LIGHT.bg).all()
    assert (region(image, bounds) != LIGHT.bg).any() or style == "scrim"


@pytest.mark.parametrize("cls", sorted(CLASS_PAINTERS))
def test_unstyled_widget_classes_are_drawn_as_widgets(cls):
    """An EditText, Switch, SeekBar... without a style is still drawn as its widget, not as plain text."""
    bounds = (200, 800, 880, 1000)
    widget = Renderer().render(screen(View(cls, bounds, text="50%", checked=True)), 224)
    plain = Renderer().render(screen(View(TEXT_VIEW, bounds, text="50%", checked=True)), 224)
    assert not np.array_equal(widget, plain)


def test_field_shows_focus_underline_when_focused():
    """A focused EditText differs from the same field unfocused (underline and cursor)."""
    def field(focused: bool) -> View:
        return View(EDIT_TEXT, (48, 300, 1032, 444), text="Search", hint="Search", style="field", focused=focused)
    assert not np.array_equal(Renderer().render(screen(field(True)), 224),
                              Renderer().render(screen(field(False)), 224))


def test_field_hint_is_grey_and_value_is_dark():
    """An EditText shows its hint in the hint colour and typed text in the text colour."""
    bounds = (48, 300, 1032, 444)
    hint = region(Renderer().render(screen(View(EDIT_TEXT, bounds, text="Find", hint="Find", style="field")), 360),
                  bounds)
    value = region(Renderer().render(screen(View(EDIT_TEXT, bounds, text="Find", hint="X", style="field")), 360),
                   bounds)
    assert hint.min() > value.min()  # the darkest ink of the hint is lighter than the typed text's


def test_sponsored_entry_is_tinted():
    """A sponsored row is tinted amber where a plain row is white, and says so."""
    bounds = (0, 600, 1080, 900)
    kid = View(TEXT_VIEW, (48, 700, 1032, 800), text="Laptop")
    sponsored = Renderer().render(screen(View(LINEAR, bounds, style="sponsored", children=[kid])), 224)
    plain = Renderer().render(screen(View(LINEAR, bounds, style="row", children=[kid])), 224)
    r, g, b = region(sponsored, bounds).reshape(-1, 3).mean(axis=0)
    assert r > b + 20 and g > b + 10
    assert not np.array_equal(sponsored, plain)


def test_dialog_scrim_dims_the_screen(phone):
    """A dialog's scrim darkens everything behind the dialog box."""
    tree = phone.tree()
    box = View(FRAME, (90, 820, 990, 1300), style="dialog", children=[View(TEXT_VIEW, (150, 880, 930, 1000),
                                                                            text="Allow?", style="dialog_title")])
    dimmed = Renderer().render(View(FRAME, SCREEN, children=[tree, View(FRAME, SCREEN, style="scrim",
                                                                         children=[box])]), 224)
    plain = Renderer().render(tree, 224)
    top = (0, 0, WIDTH, 700)
    assert region(dimmed, top).mean() < region(plain, top).mean() * 0.7


def test_app_icon_unknown_name_colour_is_deterministic():
    """An unknown app gets the same colour every time, and a different one from another name."""
    assert name_colour("frobnicator") == name_colour("frobnicator")
    assert name_colour("frobnicator") != name_colour("quuxapp")
    icon = View(TEXT_VIEW, (0, 600, 270, 900), text="Frob", icon="frobnicator", style="app_icon")
    assert np.array_equal(Renderer().render(screen(icon), 224), Renderer().render(screen(icon), 224))


# -- icons ------------------------------------------------------------------------------------------------------------
SIM_SOURCES = Path(android_gym.sim.__file__).parent
NEW_GLYPHS = ("edit", "sort", "history", "lap", "label", "city", "headphones", "speaker", "settings", "send",
              "archive", "flash", "stop", "link", "visibility", "note", "dialpad", "alarm", "stopwatch", "dislike",
              "calculator", "tasks")
"""Glyphs drawn for names the apps use or are about to use (the lead's list), and aliases that looked alike."""


def icon_literals(expr: ast.expr) -> Iterator[str]:
    """The icon names an `icon=` expression spells out: `"a"`, `"a" if x else "b"`, a dict literal indexed by a key.

    Names computed at run time (`t.lower()`, a loop variable) are left to the one-tap crawl.
    """
    match expr:
        case ast.Constant(value=str(name)) if name:
            yield name
        case ast.IfExp(body=body, orelse=orelse):
            yield from icon_literals(body)
            yield from icon_literals(orelse)
        case ast.Dict(values=values):
            for value in values:
                yield from icon_literals(value)
        case ast.Subscript(value=value):
            yield from icon_literals(value)


def source_icon_names() -> dict[str, set[str]]:
    """Icon names spelled out in the sim's sources outside the renderer.

    Returns:
        {"view": names given as `icon=` arguments, "app": each class's `icon = "..."` (an App's launcher icon)}.
    """
    names: dict[str, set[str]] = {"view": set(), "app": set()}
    for path in SIM_SOURCES.rglob("*.py"):
        if "render" in path.relative_to(SIM_SOURCES).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.keyword) and node.arg == "icon":
                names["view"].update(icon_literals(node.value))
            elif isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    if isinstance(stmt, ast.Assign) and any(getattr(t, "id", "") == "icon" for t in stmt.targets):
                        names["app"].update(icon_literals(stmt.value))
    return names


def lacks_glyph(v: View) -> bool:
    """Whether the renderer would draw `v.icon` as its fallback (a dot, or an app's initial) for want of a glyph."""
    if v.style == "app_icon" or (v.icon == "app" and v.cls == IMAGE_VIEW):
        return v.icon not in APP_GLYPHS
    return v.icon not in SYSTEM_GLYPHS and v.icon not in APP_GLYPHS and v.icon not in PLACEHOLDER_ICONS


def test_every_icon_named_in_sim_sources_has_a_glyph():
    """Each icon name written out in an app (or system UI) source, and each App's launcher icon, has a glyph."""
    names = source_icon_names()
    assert len(names["view"]) > 40 and len(names["app"]) > 15  # the scan still sees the sources' spelling
    missing = {n for n in names["view"] if lacks_glyph(View(TEXT_VIEW, SCREEN, icon=n))}
    missing |= {n for n in names["app"] if n not in APP_GLYPHS}
    assert not missing, f"icons without a glyph: {sorted(missing)}; draw them in render/glyphs.py or app_glyphs.py"


def test_every_icon_on_app_screens_one_tap_deep_has_a_glyph():
    """Every icon shown on each installed app's main screen, or one tap away from it, has a glyph.

    This catches names built at run time (tab names lowered, rows of (label, icon, event) tuples) that the source
    scan cannot read.
    """
    phone = SimPhone()
    phone.reset(0)
    missing: dict[str, str] = {}
    for label in [app.label for app in phone.installed()]:
        phone.reset(0)
        phone.launch(label)
        taps = [v.center for v in phone.tree().walk() if v.clickable and v.enabled and v.area > 0]
        for tap in [None, *taps]:
            phone.reset(0)
            phone.launch(label)
            if tap is not None:
                phone.tap(*tap)
            missing.update({v.icon: f"{label} {v.desc or v.text!r}" for v in phone.tree().walk()
                            if v.icon and lacks_glyph(v)})
    assert not missing, f"icons without a glyph (name: where): {missing}"


@pytest.mark.parametrize("name", sorted(SYSTEM_GLYPHS.keys() | APP_GLYPHS.keys()))
def test_every_glyph_draws_a_shape_not_the_fallback(name):
    """Each glyph inks part, not all, of its square at phone size, and looks unlike the unknown-name dot."""
    icons = IconCache(TextCache())
    mask = np.asarray(icons.mask(name, 24))  # a name in both tables is one glyph, so this draws either table's
    assert mask.max() > 200 and (mask < 50).mean() > 0.2
    assert not np.array_equal(mask, np.asarray(icons.mask("no_such_icon", 24)))
    if name in APP_GLYPHS:  # a launcher icon shows the glyph, not the app label's initial
        assert np.array_equal(icons.app_icon(name, "Zed", 48), icons.app_icon(name, "Qux", 48))


@pytest.mark.parametrize("name", NEW_GLYPHS)
def test_new_glyphs_differ_from_every_other_glyph(name):
    """Each newly drawn glyph looks unlike every other glyph drawn by a different function, at 32 pixels."""
    icons = IconCache(TextCache())
    glyphs = {**APP_GLYPHS, **SYSTEM_GLYPHS}
    mask = np.asarray(icons.mask(name, 32), dtype=int)
    for other, glyph in glyphs.items():
        if glyph is not glyphs[name]:
            diff = np.abs(mask - np.asarray(icons.mask(other, 32), dtype=int)).mean()
            assert diff > 12, f"{name!r} looks like {other!r} (mean difference {diff:.1f} of 255)"


# -- theme and cache --------------------------------------------------------------------------------------------------
def test_dark_theme_changes_the_content(phone):
    """dark=True draws the content darker (and differently) than the light theme."""
    phone.launch("Gmail")
    light = Renderer().render(phone.tree(), 224)
    dark = Renderer().render(phone.tree(), 224, dark=True)
    content = (0, 300, WIDTH, 2000)
    assert region(dark, content).mean() < region(light, content).mean() - 100


def test_switch_toggle_redraws_despite_cache():
    """Toggling a switch between renders changes the pixels: the cached row is not reused stale."""
    renderer = Renderer()

    def settings(checked: bool) -> View:  # only `checked` differs, so only it can tell the two rows apart
        row = View(LINEAR, (0, 400, WIDTH, 568), style="row", children=[
            View(TEXT_VIEW, (48, 400, 812, 568), text="Wi-Fi"),
            View(SWITCH, (832, 440, 1032, 528), checkable=True, checked=checked, style="switch")])
        return screen(row)

    off = renderer.render(settings(False), 224)
    on = renderer.render(settings(True), 224)
    assert not np.array_equal(off, on)
    assert np.array_equal(renderer.render(settings(False), 224), off)


def test_caches_stay_within_their_byte_budgets(phone):
    """However many screens are drawn, cached pixels stay within the configured budgets."""
    renderer = Renderer(text_cache_bytes=4096, patch_cache_bytes=50_000)
    for tree in home_drawer_gmail(phone):
        renderer.render(tree, 360)
    assert renderer.patches.nbytes <= 50_000 and renderer.text.masks.nbytes <= 4096


def test_image_lru_drops_least_recently_used():
    """The LRU keeps recently used images and evicts the oldest once over budget."""
    lru = ImageLRU(budget_bytes=200)
    lru.put("a", Image.new("L", (10, 10)))
    lru.put("b", Image.new("L", (10, 10)))
    lru.get("a")
    lru.put("c", Image.new("L", (10, 10)))
    assert lru.get("b") is None and lru.get("a") is not None and lru.get("c") is not None


# -- robustness -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bounds", [(10, 10, 10, 10), (50, 50, 10, 10), (-500, -500, -100, -100),
                                    (1000, 2300, 3000, 5000), (-200, 100, 200, 300), (0, 0, 1, 1)])
def test_zero_area_and_offscreen_views_do_not_crash(bounds):
    """Degenerate, inverted and off-screen views of every style render without error."""
    views = [View(TEXT_VIEW, bounds, text="Text", icon="wifi", style=style, checked=True, focused=True,
                  children=[View(TEXT_VIEW, bounds, text="child")]) for style in sorted(PAINTERS)]
    for width in (16, 224):
        assert Renderer().render(screen(*views), width).shape[1] == width


def test_keyboard_shown_when_field_focused(phone):
    """Focusing a field brings up the keyboard, which changes the bottom of the screen."""
    phone.swipe(540, 1500, 540, 600)
    before = Renderer().render(phone.tree(), 224)
    phone.tap(540, 150)
    after = Renderer().render(phone.tree(), 224)
    keyboard = (0, 1600, WIDTH, 2200)
    assert not np.array_equal(region(before, keyboard), region(after, keyboard))


def test_long_text_wraps_and_ends_with_ellipsis():
    """Text wider than its box wraps onto the lines the box holds; the rest is cut with an ellipsis."""
    text = TextCache()
    one_line = text.mask("word " * 40, 10, 120, 12)
    three_lines = text.mask("word " * 40, 10, 120, 3 * text.line_height(10))
    assert one_line.width <= 120 and three_lines.width <= 120
    assert three_lines.height > 2 * one_line.height
    assert text.mask("short", 10, 500, 12).width < 60


def test_missing_glyphs_use_ascii_stand_ins():
    """Characters the bundled font lacks are drawn as look-alikes ("e" for an accented e), not as boxes."""
    text = TextCache()
    assert np.array_equal(np.asarray(text.mask("Caf\u00e9", 12, 500, 20)), np.asarray(text.mask("Cafe", 12, 500, 20)))
