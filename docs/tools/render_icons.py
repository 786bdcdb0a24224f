"""Render the PNG icons from their SVG sources with Chromium (run from the project root)."""

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path("static/icons")
JOBS = [
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
    ("icon-maskable.svg", "apple-touch-icon.png", 180),
]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium")
    for src, dst, size in JOBS:
        page = browser.new_page(viewport={"width": size, "height": size})
        svg = (ICONS / src).read_text().replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
        page.set_content('<html><body style="margin:0;background:transparent">' + svg + "</body></html>")
        page.screenshot(
            path=str(ICONS / dst), omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size}
        )
        page.close()
    browser.close()
