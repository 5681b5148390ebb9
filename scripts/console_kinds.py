"""The console's HUDs, toasts and card flows in a browser, for scripts/console_browser_check.py:
each drawn from the spec the render API answers, in the locale asked, and a card flow walked
page by page with its buttons."""

import os

from selenium.webdriver.common.by import By

from console_page import alerts_of, each_preview, load_gallery, poll, texts


def toast_texts(element):
    """The texts of a toast's layout tree, depth first: the order the page draws them in."""
    if element.get("type") == "text":
        return [element["text"]]
    return [text for item in element.get("items", []) for text in toast_texts(item)]


def check_kinds(page, base, locale, artifacts, problems):
    """Each HUD, toast and card of the catalogs in `locale`; how many were checked."""
    checked = 0
    for kind, check in (("hud", check_hud), ("toast", check_toast), ("card", check_card)):
        listed = alerts_of(base, kind)
        if not listed or not load_gallery(page, base, locale, kind, len(listed), artifacts, problems):
            continue
        for alert_id, spec, where, preview, device in each_preview(page, base, locale, listed, problems):
            check(preview, spec, where, problems)
            device.screenshot(os.path.join(artifacts, f"{alert_id.replace('/', '-')}-{locale}.png"))
            checked += 1
    return checked


def check_hud(preview, spec, where, problems):
    """Its state, its text, and its progress when it has one."""
    if not preview.find_elements(By.CSS_SELECTOR, f".hud.hud-{spec['state']}"):
        problems.append(f"{where}: no HUD in the state {spec['state']}")
    if texts(preview, ".hud-text") != ([spec["text"]] if spec.get("text") else []):
        problems.append(f"{where}: the HUD says {texts(preview, '.hud-text')!r}, the spec {spec.get('text')!r}")
    bars = preview.find_elements(By.CSS_SELECTOR, "progress")
    if "progress" in spec and (len(bars) != 1 or abs(float(bars[0].get_attribute("value")) - spec["progress"]) > 1e-6):
        problems.append(f"{where}: the progress bar does not show {spec['progress']}")


def check_toast(preview, spec, where, problems):
    """Its texts, in the layout's order."""
    wanted = toast_texts(spec["content"])
    if texts(preview, ".toast-text") != wanted:
        problems.append(f"{where}: the toast shows {texts(preview, '.toast-text')!r}, the spec {wanted!r}")


def check_card(preview, spec, where, problems):
    """Each page from `start`, its title, description and buttons; the action button leads to
    `next`, and after the last page the flow ends."""
    pages = {page["id"]: page for page in spec["pages"]}
    current = spec.get("start") or spec["pages"][0]["id"]
    seen = set()
    while current is not None and current not in seen:
        seen.add(current)
        page = pages[current]
        if not poll(lambda: texts(preview, ".card .title") == [page["title"]], limit=5):
            problems.append(f"{where}: page {current} shows {texts(preview, '.card .title')!r}, not {page['title']!r}")
            return
        if texts(preview, ".card .message") != ([page["description"]] if page.get("description") else []):
            problems.append(f"{where}: page {current} describes {texts(preview, '.card .message')!r}")
        buttons = [(selector, page.get(name)) for selector, name in ((".card-action", "actionButton"), (".card-alternative", "alternativeButton"))]
        for selector, button in buttons:
            if texts(preview, selector) != ([button["title"]] if button else []):
                problems.append(f"{where}: page {current}: {selector} shows {texts(preview, selector)!r}")
        go = preview.find_elements(By.CSS_SELECTOR, ".card-action") or preview.find_elements(By.CSS_SELECTOR, ".card-alternative")
        if not go:
            return
        go[0].click()
        current = page.get("next")
    if not poll(lambda: bool(preview.find_elements(By.CSS_SELECTOR, ".card-end")), limit=5):
        problems.append(f"{where}: after the last page the flow does not end")
