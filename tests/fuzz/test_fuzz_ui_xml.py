"""Fuzz tests of `android_gym.ui.parse_uiautomator_xml`: any text parses to valid elements or is a protocol error.

The documented contract: the result is a list of `UIElement`s with positive-area integer bounds, indexed in order,
or `DeviceProtocolError`; anything else (ValueError, LookupError, RecursionError, a hang past the deadline) fails.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st

from android_gym.errors import DeviceProtocolError
from android_gym.ui import UIElement, is_interesting, parse_uiautomator_xml

REAL_DUMPS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "real" / "uiautomator"
DUMP_FILES = sorted(REAL_DUMPS.glob("*.xml")) if REAL_DUMPS.is_dir() else []
FLAGS = ("clickable", "focusable", "focused", "scrollable", "checkable", "checked", "selected")

# Characters XML 1.0 admits (no C0 controls but tab/CR/LF, no surrogates, no U+FFFE/U+FFFF).
xml_chars = st.characters(exclude_categories=("Cs",),
                          exclude_characters="".join(chr(c) for c in range(32) if c not in (9, 10, 13))
                          + "\ufffe\uffff")
xml_text = st.text(xml_chars, max_size=40)


def parse_or_refuse(text: str) -> list[UIElement] | None:
    """The elements of `text`, or None when the parser refused it with its documented error; checks invariants."""
    try:
        elements = parse_uiautomator_xml(text)
    except DeviceProtocolError:
        event("refused (DeviceProtocolError)")
        return None
    event("parsed")
    assert isinstance(elements, list)
    for position, element in enumerate(elements):
        assert isinstance(element, UIElement)
        assert element.index == position
        x0, y0, x1, y1 = element.bounds
        assert all(type(v) is int for v in element.bounds)
        assert x1 > x0 and y1 > y0, element.bounds
        assert isinstance(element.text, str) and isinstance(element.desc, str)
    return elements


# -- arbitrary input ---------------------------------------------------------------------------------------------------
@given(st.text())
def test_any_text_parses_or_is_a_protocol_error(text):
    """Arbitrary Unicode (surrogates included) is never anything but elements or `DeviceProtocolError`."""
    parse_or_refuse(text)


@given(st.binary())
def test_any_bytes_decoded_like_adb_output_parse_or_are_a_protocol_error(data):
    """Device bytes decoded as `ShellResult.text` does (invalid UTF-8 replaced)."""
    parse_or_refuse(data.decode("utf-8", "replace"))


@given(st.lists(st.sampled_from(["<hierarchy>", "</hierarchy>", "<node ", "/>", ">", "</node>", 'bounds="',
                                 "[0,0][10,10]", '"', ' text="a"', "&#10;", "&amp;", "&lt;", "<![CDATA[", "]]>",
                                 "<!--", "-->", "<?xml version='1.0'?>", "<!DOCTYPE", "<!ENTITY", "SYSTEM",
                                 "'file:///etc/passwd'", "&e;", "%e;", "[", "]", "\x00", "\r\r\n", "é", "\ud800"]),
                max_size=40).map("".join))
def test_xml_shaped_token_soup_parses_or_is_a_protocol_error(text):
    """Concatenations of the grammar's tokens reach far deeper into the parser than random text."""
    parse_or_refuse(text)


# -- near-valid dumps built from the grammar --------------------------------------------------------------------------
coordinate = st.one_of(st.integers(-50, 3000), st.integers(-10**12, 10**12))
bounds_value = st.one_of(
    st.tuples(coordinate, coordinate, coordinate, coordinate).map(lambda b: "[{},{}][{},{}]".format(*b)),
    st.sampled_from(["", "[0,0][0,0]", "[1,2][3]", "[a,b][c,d]", "[0,0][١٠,١٠]", "[0,0][" + "9" * 5000 + ",1]",
                     "[-0,-0][+5,5]", "[0, 0][10, 10]", " [0,0][10,10]"]),
    xml_text,
)
node_attributes = st.fixed_dictionaries(
    {"bounds": bounds_value},
    optional={"text": xml_text, "content-desc": xml_text, "class": xml_text, "resource-id": xml_text,
              "package": xml_text, "hint": xml_text, "enabled": st.sampled_from(["true", "false", "", "TRUE"]),
              **{flag: st.sampled_from(["true", "false", "1", ""]) for flag in FLAGS},
              "index": st.integers(-5, 10**6).map(str), "NAF": st.just("true")},
)
trees = st.recursive(st.builds(lambda a: (a, []), node_attributes),
                     lambda children: st.builds(lambda a, c: (a, c), node_attributes, st.lists(children, max_size=4)),
                     max_leaves=30)


def render(tree: tuple[dict[str, str], list]) -> str:
    """One `<node>` (and its children) as uiautomator writes it, attributes escaped."""
    attributes, children = tree
    attrs = " ".join(f"{name}={quoteattr(value)}" for name, value in attributes.items())
    inner = "".join(render(child) for child in children)
    return f"<node {attrs}>{inner}</node>" if inner else f"<node {attrs} />"


def reference_elements(windows: list[tuple[dict[str, str], list]]) -> list[tuple]:
    """(bounds, text, desc, clickable) of the interesting nodes in document order, computed independently."""
    out, stack = [], list(reversed(windows))
    while stack:
        attributes, children = stack.pop()
        stack.extend(reversed(children))
        m = re.fullmatch(r"\[(-?[0-9]{1,9}),(-?[0-9]{1,9})\]\[(-?[0-9]{1,9}),(-?[0-9]{1,9})\]", attributes["bounds"])
        if m is None:
            continue
        x0, y0, x1, y1 = (int(v) for v in m.groups())
        flags = {flag: attributes.get(flag) == "true" for flag in FLAGS}
        text, desc = attributes.get("text", ""), attributes.get("content-desc", "")
        if is_interesting(attributes.get("class", ""), text, desc, flags["clickable"], flags["focusable"],
                          flags["scrollable"], flags["checkable"], max(0, x1 - x0) * max(0, y1 - y0)):
            out.append(((x0, y0, x1, y1), text, desc, flags["clickable"]))
    return out


@given(st.lists(trees, min_size=1, max_size=3), st.sampled_from(["", "\n", "\r\n", "\r\r\n"]),
       st.sampled_from(['<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>', "",
                        '<?xml version="1.0" encoding="foo"?>', '<?xml version="1.0" encoding="shift_jis"?>',
                        '<?xml version="1.0" encoding="UTF-16"?>', "<?xml version='1.0' encoding='latin-1'?>"]))
def test_generated_dump_gives_exactly_the_interesting_nodes(windows, newline, declaration):
    """A well-formed dump with random attributes gives exactly the nodes an independent reference walk selects.

    Bounds may be huge, garbage or non-ASCII; the declared encoding never matters (the text is already decoded).
    """
    xml = declaration + newline + f'<hierarchy rotation="0">{newline}' + newline.join(map(render, windows)) \
        + f"{newline}</hierarchy>"
    elements = parse_or_refuse(xml)
    assert elements is not None, "a well-formed dump was refused"
    got = [(e.bounds, e.text, e.desc, e.clickable) for e in elements]
    assert got == reference_elements(windows)


@given(st.integers(0, 10_000), st.sampled_from(["node", "hierarchy", "x"]))
@example(10_000, "node")
def test_deep_nesting_never_exhausts_the_stack(depth, tag):
    """Nesting to depth 10,000 parses (every level is an element) without RecursionError or a timeout."""
    xml = ("<hierarchy>" + f'<{tag} bounds="[0,0][10,10]" text="a">' * depth + f"</{tag}>" * depth
           + "</hierarchy>")
    elements = parse_or_refuse(xml)
    assert elements is not None
    assert len(elements) == (depth if tag == "node" else 0)


@given(st.integers(0, 1 << 20), st.sampled_from(["a", "é", "😀", "&amp;", "&#10;"]))
@example(1 << 20, "a")
def test_megabyte_attribute_values_parse(length, unit):
    """A 1 MB attribute value is kept whole (entities decoded) and does not slow the parser past the deadline."""
    value = unit * (length // len(unit))
    xml = f'<hierarchy><node text="{value}" bounds="[0,0][1,1]" /></hierarchy>'
    elements = parse_or_refuse(xml)
    expected = value.replace("&amp;", "&").replace("&#10;", "\n")
    assert elements is not None
    assert [e.text for e in elements] == ([expected] if expected else [])


# -- attacks: entity bombs, external entities, DTDs -------------------------------------------------------------------
def bomb(levels: int, fan_out: int) -> str:
    """A billion-laughs DTD with `levels` entity levels, each referencing the one below `fan_out` times."""
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{k} "{f"&lol{k - 1};" * fan_out}">' for k in range(1, levels + 1)]
    return f"<!DOCTYPE hierarchy [{''.join(entities)}]>"


attacks = st.one_of(
    st.builds(bomb, st.integers(1, 12), st.integers(1, 12)),
    st.sampled_from([
        '<!DOCTYPE hierarchy [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
        '<!DOCTYPE hierarchy [<!ENTITY e SYSTEM "http://127.0.0.1:1/x">]>',
        '<!DOCTYPE hierarchy [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>',
        '<!DOCTYPE hierarchy SYSTEM "http://127.0.0.1:1/evil.dtd">',
        '<!DOCTYPE hierarchy PUBLIC "-//X//Y" "file:///dev/zero">',
        '<!DOCTYPE hierarchy [<!ENTITY e "x">]>',
        '<!DOCTYPE hierarchy [<!ENTITY u SYSTEM "x" NDATA png>]>',
        "<!DOCTYPE hierarchy>",
        '<!DOCTYPE hierarchy [<!ATTLIST node text CDATA "&#38;#38;">]>',
    ]),
)


@given(attacks, st.sampled_from(["&e;", "&lol12;", "&lol3;", "&u;", "", "&lol1;"]),
       st.sampled_from(["", '<?xml version="1.0"?>']))
def test_dtd_entity_bombs_and_external_entities_are_refused(doctype, reference, declaration):
    """Any DOCTYPE (entity bombs, external SYSTEM/PUBLIC entities and DTDs) is a protocol error that names it."""
    xml = (f'{declaration}{doctype}<hierarchy><node text="{reference}" bounds="[0,0][10,10]" />'
           f"{reference}</hierarchy>")
    with pytest.raises(DeviceProtocolError, match="DOCTYPE"):
        parse_uiautomator_xml(xml)


# -- mutations of real dumps ------------------------------------------------------------------------------------------
mutation = st.tuples(st.sampled_from(["delete", "insert", "duplicate", "replace"]), st.floats(0, 1), st.floats(0, 1),
                     st.text(max_size=20))


def mutate(text: str, edits: list[tuple[str, float, float, str]]) -> str:
    """`text` with each edit applied at the positions its fractions name."""
    for kind, at, span, insert in edits:
        i = int(at * len(text))
        j = min(len(text), i + int(span * 200))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + insert + text[i:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + insert + text[i + len(insert):]
    return text


@pytest.mark.skipif(not DUMP_FILES, reason=f"real dumps not found at {REAL_DUMPS}")
@given(st.sampled_from(DUMP_FILES or [Path()]), st.lists(mutation, min_size=1, max_size=4))
def test_mutated_real_dumps_parse_or_are_a_protocol_error(path, edits):
    """Real captured dumps with random deletions, insertions, duplications and overwrites."""
    parse_or_refuse(mutate(path.read_text(encoding="utf-8"), edits))
