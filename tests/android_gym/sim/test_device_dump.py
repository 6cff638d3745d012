"""Tests of the simulated phone's dumps shaped like a real phone's (issue 49): windows apart, nesting, attributes,
covered views left out, and the same elements whichever tree they are read from."""  # noqa: D205, D209

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from android_gym.dump_shape import MODERN_ATTRIBUTES, DumpShape, ShapeSummary, dump_shape
from android_gym.sim.device_dump import to_xml
from android_gym.sim.keyboard import IME_PACKAGE
from android_gym.sim.layout import FRAME, LINEAR, TEXT_VIEW
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.system_ui import SYSTEM_UI
from android_gym.sim.view import View
from android_gym.ui import parse_uiautomator_xml
from benchmarks.sim_dumps import REAL_DUMPS, real_dump_shapes


def phone(**perturbations: float) -> SimPhone:
    p = SimPhone(PerturbationConfig(**perturbations) if perturbations else PerturbationConfig.preset("none"))
    p.reset(0)
    return p


def tap(p: SimPhone, label: str) -> None:
    element = next(e for e in p.elements() if e.label == label)
    assert p.tap(*element.center), label


def screens() -> Iterator[tuple[str, SimPhone]]:
    """Screens of every kind: each app's first screen, the keyboard up, a pop-up, the shade, an app's own dialog."""
    p = phone()
    yield "home", p
    for package in [pkg for pkg in p.apps if pkg != p.launcher_package]:
        p = phone()
        p.launch(package)
        yield package, p
        field = next((e for e in p.elements() if e.cls == "android.widget.EditText"), None)
        if field is not None and p.tap(*field.center) and p.keyboard_up:
            yield f"{package} keyboard", p
    p = phone(dialog_prob=1.0, slow_load_prob=0.0, ignored_tap_prob=0.0)
    p.launch("Gmail")
    p.tick()
    assert p.dialog is not None
    yield "pop-up", p
    p = phone()
    p.launch("Clock")
    assert p.open_shade()
    yield "shade", p
    p = phone()
    p.launch("Settings")
    tap(p, "Display")
    tap(p, "Screen timeout")
    yield "app dialog", p


SCREENS = list(screens())


def windows(p: SimPhone) -> list[ET.Element]:
    return list(ET.fromstring(p.xml().encode()))


@pytest.mark.parametrize("name, p", SCREENS, ids=[name for name, _ in SCREENS])
def test_every_dump_parses_to_the_phones_own_elements(name: str, p: SimPhone) -> None:
    """The richer tree adds only layouts an agent cannot act on: the parser reads the same elements from the dump
    as the phone lists from its own tree, every field equal."""  # noqa: D205, D209
    assert parse_uiautomator_xml(p.xml()) == p.elements()


def test_windows_are_listed_apart_as_a_real_phone_lists_them() -> None:
    """The app, the status bar and the navigation bar are top-level nodes; the keyboard is its own window."""
    named = dict(SCREENS)
    assert [w.get("package") for w in windows(named["home"])] == [named["home"].launcher_package, SYSTEM_UI,
                                                                  SYSTEM_UI]
    keyboard = next(p for name, p in SCREENS if name.endswith("keyboard"))
    assert [w.get("package") for w in windows(keyboard)][-1] == IME_PACKAGE
    decor = windows(named["com.google.android.deskclock"])[0]
    assert (decor.get("bounds"), decor.get("class")) == ("[0,0][1080,2400]", FRAME)  # the decor view, full screen
    content = decor.find(".//node[@resource-id='android:id/content']")
    assert content is not None and content.get("bounds") == "[0,84][1080,2268]"


def test_what_a_modal_layer_covers_is_left_out() -> None:
    """Under a pop-up only its window is dumped; the open shade hides the app and the status bar, not the nav bar;
    an app's own dialog hides the page it covers."""  # noqa: D205, D209
    named = dict(SCREENS)
    popup = windows(named["pop-up"])
    assert len(popup) == 1 and popup[0].find(".//node[@resource-id='android:id/alertTitle']") is not None
    assert [w.find(".//node[@resource-id]") is not None for w in popup] == [True]
    shade = windows(named["shade"])
    assert [w.get("resource-id") or w[0].get("resource-id") for w in shade] == [
        f"{SYSTEM_UI}:id/navigation_bar_frame", f"{SYSTEM_UI}:id/notification_container_parent"]
    dialog = named["app dialog"].xml()
    assert "Screen timeout" in dialog and "Dark theme" not in dialog  # the Display page under the dialog


def test_drawing_order_visible_to_user_and_display_id_are_on_every_node() -> None:
    """A window's root is drawn 0th, each child at its place among its siblings (from 1)."""
    for w in windows(dict(SCREENS)["home"]):
        assert w.get("drawing-order") == "0"
        for node in w.iter("node"):
            assert node.get("visible-to-user") == "true" and node.get("display-id") == "0"
            assert [c.get("drawing-order") for c in node] == [str(i + 1) for i in range(len(node))]
            assert [c.get("index") for c in node] == [str(i) for i in range(len(node))]


def test_naf_marks_a_clickable_node_with_no_label_anywhere_under_it() -> None:
    """As uiautomator's accessibility check: an unlabelled clickable leaf is NAF; a row whose child has text is not;
    NAF is written first."""  # noqa: D205, D209
    bare = View("android.widget.ImageView", (0, 0, 10, 10), clickable=True)
    row = View(LINEAR, (0, 10, 100, 20), clickable=True, children=[View(TEXT_VIEW, (0, 10, 50, 20), text="Wi-Fi")])
    nodes = list(ET.fromstring(to_xml([View(FRAME, (0, 0, 100, 100), children=[bare, row])]).encode()).iter("node"))
    assert [n.get("NAF") for n in nodes] == [None, "true", None, None]
    assert to_xml([bare]).split("<node ")[1].startswith('NAF="true" index="0"')


def test_nodes_off_screen_are_not_elements() -> None:
    xml = ('<hierarchy rotation="0"><node text="Shown" bounds="[0,0][10,10]" visible-to-user="true" />'
           '<node text="Recycled" bounds="[0,10][10,20]" visible-to-user="false" /></hierarchy>')
    assert [e.text for e in parse_uiautomator_xml(xml)] == ["Shown"]


def real_shapes() -> list[DumpShape]:
    """The real captures the sim section compares with (skips where ../shared is absent)."""
    shapes = list(real_dump_shapes().values())
    if not shapes:
        pytest.skip(f"real dumps not found at {REAL_DUMPS}")
    return shapes


def test_the_sims_dumps_are_as_deep_and_as_clickable_as_real_phones() -> None:
    """Over the sim's screens, the median node depth and clickable share fall within the range of real devices'
    dumps, and every dump carries the attributes Android 13-14 writes."""  # noqa: D205, D209
    real = ShapeSummary.of(real_shapes())
    sim = ShapeSummary.of([dump_shape(p.xml()) for _, p in SCREENS])
    assert real.depth_range[0] <= sim.median_depth <= real.depth_range[1], (sim, real)
    assert real.clickable_range[0] <= sim.clickable_share <= real.clickable_range[1], (sim, real)
    assert MODERN_ATTRIBUTES <= sim.attributes
    modern = [s for s in real_shapes() if MODERN_ATTRIBUTES <= s.attributes]  # an Android 13+ capture
    assert modern and {a for s in modern for a in s.attributes} - {"NAF"} <= sim.attributes
