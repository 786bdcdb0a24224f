"""The static shell over real HTTP (app/server/static_assets.py): versioned URLs cached for a
year, pages revalidated, text compressed, the service worker and the manifest served
where a browser looks for them: an app you can install, that loads fast."""

from __future__ import annotations

import gzip
import json
import posixpath
import re

import httpx
import pytest

from app.server.app import STATIC_DIR
from app.server.static_assets import StaticShell


def _versioned_links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


@pytest.fixture(scope="module")
def shell() -> StaticShell:
    return StaticShell(STATIC_DIR)


@pytest.mark.parametrize("path", ["/", "/grip", "/r/ABCD", "/offline"])
def test_pages_are_revalidated_and_point_at_this_version(server, shell, path):
    answer = httpx.get(server.base + path)
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-cache"
    links = _versioned_links(answer.text)
    assert links, answer.text
    assert all(link.startswith(f"/static/{shell.version}/") for link in links), links


def test_every_link_of_the_page_is_cached_for_a_year_and_compressed(server):
    page = httpx.get(server.base + "/")
    for link in _versioned_links(page.text):
        answer = httpx.get(server.base + link, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, link
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable", link
        if link.endswith((".js", ".css")):
            assert answer.headers["content-encoding"] == "gzip", link
            assert "accept-encoding" in answer.headers["vary"].lower()


def test_a_file_is_the_same_bytes_compressed_or_not(server, shell):
    url = f"{server.base}/static/{shell.version}/common/i18n.js"
    plain = httpx.get(url, headers={"Accept-Encoding": "identity"})
    with httpx.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as packed:
        raw = b"".join(packed.iter_raw())
        assert packed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert gzip.decompress(raw) == plain.content == (STATIC_DIR / "common" / "i18n.js").read_bytes()
    assert len(raw) < len(plain.content) / 2


def test_unversioned_and_old_version_urls_are_revalidated_with_an_etag(server):
    for path in ("/static/app.js", "/static/0123456789ab/app.js"):
        first = httpx.get(server.base + path)
        assert first.status_code == 200, path
        assert first.headers["cache-control"] == "no-cache"
        again = httpx.get(server.base + path, headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304, path
        assert again.content == b""


def test_a_missing_static_file_is_404(server, shell):
    for path in ("/static/nothing.js", f"/static/{shell.version}/nothing.js", "/static/../app/config.py"):
        assert httpx.get(server.base + path).status_code == 404, path


def test_the_service_worker_is_served_from_the_root_with_this_version(server, shell):
    answer = httpx.get(server.base + "/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["service-worker-allowed"] == "/"
    assert "__VERSION__" not in answer.text and "__SHELL__" not in answer.text
    assert f'const VERSION = "{shell.version}";' in answer.text
    kept = json.loads(re.search(r"const SHELL = (\[.*?\]);", answer.text).group(1))
    assert "/offline" in kept
    page = httpx.get(server.base + "/")
    # every file the page links is kept, but the strings of the language it hints at (a
    # first visit's, from Accept-Language): kept when first asked for, like the rules
    assert {link for link in _versioned_links(page.text) if "/i18n/" not in link} <= set(kept)
    assert not any("/rules/" in url for url in kept)  # one language's, when asked for
    assert not any("/i18n/" in url for url in kept)  # the same for the strings


def test_the_manifest_names_installable_icons_that_exist(server):
    answer = httpx.get(server.base + "/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    purposes = {icon.get("purpose", "any") for icon in manifest["icons"]}
    assert {"any", "maskable"} <= purposes
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        got = httpx.get(server.base + icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = int.from_bytes(got.content[16:20], "big"), int.from_bytes(got.content[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"], icon


def test_the_page_links_the_manifest_and_an_apple_touch_icon(server):
    html = httpx.get(server.base + "/").text
    assert re.search(r'<link rel="manifest" href="/manifest.webmanifest">', html)
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html).group(1)
    got = httpx.get(server.base + touch)
    assert got.status_code == 200 and got.headers["content-type"] == "image/png"


def test_version_changes_when_a_file_changes(tmp_path):
    (tmp_path / "index.html").write_text('<script src="/static/a.js"></script>')
    (tmp_path / "a.js").write_text("export const a = 1;\n")
    before = StaticShell(tmp_path)
    again = StaticShell(tmp_path)
    (tmp_path / "a.js").write_text("export const a = 2;\n")
    after = StaticShell(tmp_path)
    assert before.version == again.version != after.version
    assert after.index.body.decode() == f'<script src="/static/{after.version}/a.js"></script>'


@pytest.mark.parametrize("path", ["/nothing", "/r/", "/r/ABCD/extra", "/grip/x"])
def test_a_wrong_address_in_a_browser_gets_a_page_not_json(server, shell, path):
    answer = httpx.get(server.base + path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert 'data-notice="notFound"' in answer.text
    assert all(link.startswith(f"/static/{shell.version}/") for link in _versioned_links(answer.text))


@pytest.mark.parametrize("path", ["/nothing", "/api/nothing", "/api/rooms/ZZZZ"])
def test_programs_still_get_json_404s(server, path):
    answer = httpx.get(server.base + path, headers={"Accept": "application/json"})
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/json"
    assert "detail" in answer.json()


def test_an_api_404_stays_json_even_for_a_browser(server):
    answer = httpx.get(server.base + "/api/nothing", headers={"Accept": "text/html"})
    assert answer.status_code == 404 and answer.headers["content-type"] == "application/json"


# ---- the module graph and its preload list -----------------------------------------------


def _preloaded(html: str) -> list[str]:
    return re.findall(r'<link rel="modulepreload" href="(/static/[^"]+)">', html)


def test_the_page_preloads_every_module_its_imports_reach(server, shell):
    """Walked here independently of the server's walk: every `from '...'` and bare
    `import '...'` of a relative module, however the statement is laid out."""
    loose = re.compile(r"""(?:\bfrom|^\s*import)\s*['"](\.{1,2}/[^'"]+)['"]""", re.MULTILINE)
    needed, queue = set(), ["app.js", "common/pwa.js"]
    while queue:
        rel = queue.pop()
        if rel in needed:
            continue
        needed.add(rel)
        source = (STATIC_DIR / rel).read_text()
        base = rel.rsplit("/", 1)[0] if "/" in rel else ""
        queue.extend(posixpath.normpath(posixpath.join(base, spec)) for spec in loose.findall(source))
    html = httpx.get(server.base + "/", headers={"Accept-Language": "en-GB,en;q=0.8"}).text
    prefix = f"/static/{shell.version}/"
    listed = {link[len(prefix) :] for link in _preloaded(html)}
    assert needed - {"app.js", "common/pwa.js"} <= listed, sorted(needed - listed)
    assert listed - {"i18n/en.js"} <= needed, sorted(listed - needed)  # nothing extra but the strings
    for link in _preloaded(html):
        assert httpx.get(server.base + link).status_code == 200, link
    # the preload list stands before the module scripts that need it
    assert html.index('rel="modulepreload"') < html.index('<script type="module"')


@pytest.mark.parametrize("address, module", [("/r/ABCDEF", "demon/room.js"), ("/grip", "grip/grip.js")])
def test_a_page_loaded_when_shown_is_preloaded_at_its_own_address_only(server, shell, address, module):
    """app.js loads the room and Devil's Grip with import() when shown: the home page does
    not preload them (its buttons work sooner on a first visit), a link to one does, with
    every module it imports."""
    loose = re.compile(r"""(?:\bfrom|^\s*import)\s*['"](\.{1,2}/[^'"]+)['"]""", re.MULTILINE)
    needed, queue = set(), [module]
    while queue:
        rel = queue.pop()
        if rel in needed:
            continue
        needed.add(rel)
        base = rel.rsplit("/", 1)[0] if "/" in rel else ""
        queue.extend(
            posixpath.normpath(posixpath.join(base, spec)) for spec in loose.findall((STATIC_DIR / rel).read_text())
        )
    prefix = f"/static/{shell.version}/"
    here = {link[len(prefix) :] for link in _preloaded(httpx.get(server.base + address).text)}
    home = {link[len(prefix) :] for link in _preloaded(httpx.get(server.base + "/").text)}
    assert needed <= here, sorted(needed - here)
    assert module not in home
    assert "import(" in (STATIC_DIR / "app.js").read_text() and f"'./{module}'" in (STATIC_DIR / "app.js").read_text()


@pytest.mark.parametrize(
    "accept, code",
    [("de-DE,de;q=0.9,en;q=0.8", "de"), ("fr-FR,fr;q=0.9", "en"), ("fr;q=1, ru;q=0.5, fi;q=0.7", "fi"), ("", "en")],
)
def test_the_first_visits_language_is_hinted_from_accept_language(server, accept, code):
    answer = httpx.get(server.base + "/", headers={"Accept-Language": accept})
    strings = [link for link in _preloaded(answer.text) if "/i18n/" in link]
    assert [s.rsplit("/", 1)[1] for s in strings] == [f"{code}.js"]
    assert "accept-language" in answer.headers["vary"].lower()


def test_static_imports_are_found_however_they_are_written():
    from app.server.static_assets import module_imports

    source = (
        "// import { no } from './comment.js';\n"
        "import { a,\n  b } from './a.js';\n"
        'import * as c from "../c.js";\n'
        "import './side.js';\n"
        "export { d } from './d.js';\n"
        "const lazy = () => import('./lazy.js');\n"
    )
    assert module_imports("x/y.js", source) == ["x/a.js", "c.js", "x/side.js", "x/d.js"]
