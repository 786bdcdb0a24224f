"""The version has one source, `app.__version__`; CHANGELOG.md's newest release must be
that version, so a release cannot ship with a changelog that forgot it (or a version
that forgot the changelog)."""

from __future__ import annotations

import re
from pathlib import Path

import app

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"
# Keep a Changelog: "## [1.0.0] - 2026-12-07"; "## [Unreleased]" has no date.
RELEASE = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<date>\d{4}-\d{2}-\d{2})\s*$", re.MULTILINE)


def released_versions(text: str) -> list[str]:
    """The released versions, newest (topmost) first."""
    return [m["version"] for m in RELEASE.finditer(text)]


def test_the_newest_release_in_the_changelog_is_the_version() -> None:
    versions = released_versions(CHANGELOG.read_text(encoding="utf-8"))
    assert versions, "CHANGELOG.md has no '## [X.Y.Z] - YYYY-MM-DD' heading"
    assert versions[0] == app.__version__, (
        f"CHANGELOG.md's newest release is {versions[0]}, app.__version__ is {app.__version__}: "
        "add the release's entry (or bump __version__ in app/__init__.py)"
    )


def test_unreleased_comes_first() -> None:
    """New work goes under [Unreleased] until a release names it."""
    headings = re.findall(r"^## \[([^\]]+)\]", CHANGELOG.read_text(encoding="utf-8"), re.MULTILINE)
    assert headings[:1] == ["Unreleased"], headings[:2]


def test_the_reader_sees_a_wrong_version() -> None:
    """The parse the first test relies on: the topmost dated heading, not [Unreleased]."""
    text = "# Changelog\n\n## [Unreleased]\n\n## [1.1.0] - 2027-01-02\n\n## [1.0.0] - 2026-12-07\n"
    assert released_versions(text) == ["1.1.0", "1.0.0"]
