"""Every setting is documented, and every documented setting exists.

The settings are the fields of `app.config.Settings`, read from environment variables named
after them: pydantic-settings' `env_prefix` (`DEMON_`) + the field's name, upper case (no
field has an alias). The self-hoster reads them in docs/self-hosting.md, "Every setting": a
table whose header is `| variable | default | what it does |` and whose rows start with the
variable's name in backticks. A setting added without a row, a row left behind by a removed
or renamed setting, or a default changed on one side only fails here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from app.config import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "self-hosting.md"
HEADER = "| variable | default | what it does |"
ROW = re.compile(r"^\| `(?P<name>[A-Z0-9_]+)` \| (?P<default>[^|]*) \|")
# Defaults the table spells out in words rather than as the value.
IN_WORDS = {"DEMON_METRICS_ALLOW"}


def env_names() -> dict[str, Any]:
    """Environment variable -> default, as pydantic-settings reads them."""
    prefix = str(Settings.model_config.get("env_prefix", ""))
    names: dict[str, Any] = {}
    for field_name, field in Settings.model_fields.items():
        assert field.alias is None and field.validation_alias is None, (
            f"{field_name} has an alias: teach this test how its variable is named"
        )
        names[(prefix + field_name).upper()] = field.default
    return names


def documented(text: str) -> dict[str, str]:
    """Variable -> its default column, from the one settings table of `text`."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == HEADER]
    assert len(starts) == 1, f"expected one '{HEADER}' table in {DOC.name}, found {len(starts)}"
    rows: dict[str, str] = {}
    for line in lines[starts[0] + 2 :]:
        if not line.startswith("|"):
            break
        match = ROW.match(line)
        assert match, f"a settings row that does not start with a `VARIABLE`: {line[:80]}"
        assert match["name"] not in rows, f"{match['name']} is documented twice"
        rows[match["name"]] = match["default"].strip()
    return rows


def same_default(default: Any, shown: str) -> bool:
    if default is None:
        return shown == "*(unset)*"
    if default == "":
        return shown == "*(empty)*"
    value = shown.strip("`")
    if isinstance(default, bool):
        return value == str(default).lower()
    if isinstance(default, (int, float)):
        try:
            return float(value) == float(default)
        except ValueError:
            return False
    return value == str(default)


def test_every_setting_has_a_row_and_every_row_a_setting() -> None:
    code = env_names()
    doc = documented(DOC.read_text(encoding="utf-8"))
    assert sorted(code.keys() - doc.keys()) == [], "settings in app/config.py missing from docs/self-hosting.md"
    assert sorted(doc.keys() - code.keys()) == [], "rows in docs/self-hosting.md for settings app/config.py lacks"


def test_the_documented_defaults_are_the_defaults() -> None:
    code = env_names()
    doc = documented(DOC.read_text(encoding="utf-8"))
    wrong = {
        name: (doc[name], code[name])
        for name in code.keys() & doc.keys()
        if name not in IN_WORDS and not same_default(code[name], doc[name])
    }
    assert wrong == {}, "documented default -> the real one"


def test_a_missing_row_is_caught() -> None:
    """The parse the tests above rely on: drop one row, and the comparison sees it."""
    text = DOC.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `DEMON_PORT` |"))
    assert "DEMON_PORT" not in documented(text.replace(row + "\n", ""))
    assert "DEMON_PORT" in env_names()
