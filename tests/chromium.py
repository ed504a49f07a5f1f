"""Debian's Chromium as every browser test starts it: headless, with nothing reaching out to the
network on its own (this machine's network is closed; such connections only slow it down)."""

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
