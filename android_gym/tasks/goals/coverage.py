"""Coverage of a goal list: how many lines parse, per family, and why the others do not.

>>> report = coverage(["Set an alarm for 7am", "Teleport me to Mars"])
>>> report.covered, report.total, report.by_family()
(1, 2, {'alarm': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from android_gym.tasks.goals.parser import GoalMatch, Uncovered, parse_goal


@dataclass(frozen=True)
class Coverage:
    """The parse of every line of a list, in order; `numbers` are the lines' numbers in their file."""

    source: str
    results: tuple[GoalMatch | Uncovered, ...]
    numbers: tuple[int, ...]

    @property
    def total(self) -> int:
        """Goal lines read."""
        return len(self.results)

    @property
    def covered(self) -> int:
        """Lines that parse into a checkable task."""
        return sum(isinstance(r, GoalMatch) for r in self.results)

    @property
    def fraction(self) -> float:
        """Covered lines over all lines (0 for an empty list)."""
        return self.covered / self.total if self.total else 0.0

    def by_family(self) -> dict[str, int]:
        """Covered lines per family, most first."""
        counts = Counter(r.family for r in self.results if isinstance(r, GoalMatch))
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def missed_by_family(self) -> dict[str, int]:
        """Uncovered lines per family of their nearest miss ("none" when no phrasing matched)."""
        counts = Counter(r.family or "none" for r in self.results if isinstance(r, Uncovered))
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def render(self) -> str:
        """The report as text: the totals, a table per family, then every uncovered, ambiguous and repaired line."""
        out = [f"{self.source}: {self.covered} of {self.total} goal lines parse ({100 * self.fraction:.1f}%)", ""]
        missed = self.missed_by_family()
        ambiguous = Counter(r.family for r in self.results if isinstance(r, GoalMatch) and r.is_ambiguous)
        families = sorted({*self.by_family(), *(f for f in missed if f != "none")})
        rows = [(f, self.by_family().get(f, 0), missed.get(f, 0), ambiguous.get(f, 0)) for f in families]
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        if missed.get("none"):
            rows.append(("(no family)", 0, missed["none"], 0))
        width = max([len("family"), *(len(r[0]) for r in rows)])
        out.append(f"{'family':<{width}}  {'covered':>7}  {'uncovered':>9}  {'ambiguous':>9}")
        out += [f"{f:<{width}}  {c:>7}  {u:>9}  {a:>9}" for f, c, u, a in rows]
        sections = (
            ("uncovered", [(n, r.line, r.reason) for n, r in self._numbered() if isinstance(r, Uncovered)]),
            ("ambiguous (the most specific family won)",
             [(n, r.line, f"{r.family}; " + "; ".join(r.notes)) for n, r in self._numbered()
              if isinstance(r, GoalMatch) and r.is_ambiguous]),
            ("repaired", [(n, r.line, f"{r.family}; " + "; ".join(x for x in r.notes if x.startswith("split")))
                          for n, r in self._numbered() if isinstance(r, GoalMatch)
                          and any(x.startswith("split") for x in r.notes)]),
        )
        for title, items in sections:
            if items:
                out += ["", f"{title} ({len(items)}):"]
                out += [f"  line {n}: {_short(line)}  -- {why}" for n, line, why in items]
        return "\n".join(out)

    def _numbered(self) -> list[tuple[int, GoalMatch | Uncovered]]:
        return list(zip(self.numbers, self.results, strict=True))


def _short(line: str, limit: int = 120) -> str:
    return line if len(line) <= limit else line[: limit - 3] + "..."


def coverage(lines: Iterable[str], source: str = "goals", numbers: Iterable[int] | None = None) -> Coverage:
    """Parse every line (see `parser.parse_goal`)."""
    lines = list(lines)
    return Coverage(source, tuple(parse_goal(line) for line in lines),
                    tuple(numbers) if numbers is not None else tuple(range(1, len(lines) + 1)))
