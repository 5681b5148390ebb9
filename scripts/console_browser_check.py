#!/usr/bin/env python3
"""Checks alertd's preview console in headless Chromium, driven by Selenium.

For each locale asked: the galleries of each kind load with no console error, no
Content-Security-Policy violation and nothing fetched from another origin;
each dialog shows the title, message and buttons of the spec the render API answers, the
buttons in the order an iPhone shows them (two side by side with the cancel button leading,
else stacked with the cancel button last) and with their roles; each sheet its options in the
spec's order and its cancel button apart below them; each HUD, toast and card flow what its
spec says (scripts/console_kinds.py), a card walked page by page; the device is mirrored (`dir="rtl"`)
exactly for right-to-left specs, and in a right-to-left locale every primary button beside
another sits on the other side of its dialog than in the first locale. In the first locale, a
button that reports an event says so when tapped, and a parameter typed into an alert's form
and entered renders the alert again with it. The first
dialog compared in every locale of its catalog and the pseudo-locales shows each one's spec; at
the default text size no built-in text is flagged as not fitting, and a long value typed into
a toast's parameter is. Screenshots of the pages and of each preview go to the artifacts
folder, with the docs' pictures of each kind in `en` and `ar` (scripts/console_screenshots.py)
in its `docs` folder. Given the admin token, the operator view of a session is driven too
(scripts/console_operator.py). Afterwards no process of the browser or its driver may be left
running.

Prints one line per problem and exits 1 when there is any; 0 otherwise. The browser and its
driver are stopped however the script ends (SIGTERM included).

    console_browser_check.py --url http://127.0.0.1:8080 --artifacts /tmp/shots --locales en,ar,ja --admin-token T
"""

import argparse
import os
import sys
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from console_kinds import check_kinds
from console_operator import check_operator
from console_screenshots import shoot_kinds
from console_page import (
    api, alerts_of, rendered, browser_options, browsing, poll, load_page, load_gallery, texts, verdict, each_preview)



def ios_order(actions, layout, stacked):
    """The order UIAlertController shows buttons in, as the console's buttons.js arranges them:
    a row when the spec allows one (two buttons at most) and the page did not have to stack it
    (`stacked`: the titles did not fit side by side)."""
    cancel = [a for a in actions if a["role"] == "cancel"]
    others = [a for a in actions if a["role"] != "cancel"]
    horizontal = layout != "vertical" and len(actions) <= 2 and not stacked
    return horizontal, (cancel + others if horizontal else others + cancel)


def each_drawn(page, base, locale, alerts, selector, problems):
    """Each alert's spec and its drawing (`selector` in its preview), the device checked by
    `preview_of` and the title and message checked against the spec's."""
    for alert_id, spec, where, preview, device in each_preview(page, base, locale, alerts, problems):
        drawing = preview.find_element(By.CSS_SELECTOR, selector)
        for part in ("title", "message"):
            shown = texts(drawing, "." + part)
            wanted = [spec[part]] if spec.get(part) else []
            if shown != wanted:
                problems.append(f"{where}: {part} shows {shown!r}, the spec has {wanted!r}")
        yield alert_id, spec, where, device, drawing


def check_overflow(page, base, artifacts, problems):
    """At the default text size no text of the built-in catalogs is flagged as not fitting, in
    any locale they ship; a long value typed into a toast's parameter is."""
    listed = [alert for kind in ("alert", "sheet", "hud", "toast", "card") for alert in alerts_of(base, kind)]
    locales = sorted({locale for catalog in api(base, "/v1/catalogs")["catalogs"] for locale in catalog["locales"]})
    for locale in locales:
        if not load_page(page, base, urllib.parse.urlencode({"locale": locale}), f"{locale} every kind", len(listed), f"gallery-{locale}.png", artifacts, problems):
            return
        for preview in page.find_elements(By.CSS_SELECTOR, "article.preview"):
            if preview.get_attribute("data-overflow") != "0":
                flag = preview.find_elements(By.CSS_SELECTOR, ".overflow-flag")
                problems.append(f"{locale} {preview.get_attribute('data-alert')}: flagged as not fitting: {flag[0].text if flag else preview.get_attribute('data-overflow')}")
    toasts = [alert for alert in listed if alert[0] in {a[0] for a in alerts_of(base, "toast")}]
    for alert_id, catalog, alert_type, example in toasts:
        name = next((n for n, v in example.items() if isinstance(v, str)), None)
        if name is None:
            continue
        selector = f'article.preview[data-alert="{alert_id}"]'
        field = page.find_element(By.CSS_SELECTOR, f'{selector} .parameters input[name="{name}"]')
        field.clear()
        field.send_keys("Maximiliane Alexandrina Konstantinopoulou-Wittelsbach von Hohenberg" + Keys.ENTER)
        def flagged():
            flags = page.find_elements(By.CSS_SELECTOR, f"{selector} .overflow-flag")
            return flags and flags[0].is_displayed() and "Maximiliane" in flags[0].text
        if not poll(flagged):
            problems.append(f"{locale} {alert_id}: a long {name} does not flag the text that no longer fits")
        return
    problems.append("no toast has a text parameter to overflow its cells with")


def check_comparison(page, base, alert, artifacts, problems):
    """One alert in every locale of its catalog and in the pseudo-locales, side by side: each
    device in the locale its spec has, `ar-XB` mirrored, `en-XA` bracketed."""
    alert_id, catalog_name, alert_type, example = alert
    catalog = api(base, "/v1/catalogs/" + catalog_name)
    locales = catalog["locales"] + catalog["pseudoLocales"]
    query = urllib.parse.urlencode({"compare": alert_id})
    if not load_page(page, base, query, f"compare {alert_id}", len(locales), f"compare-{alert_id.replace('/', '-')}.png", artifacts, problems):
        return
    for locale in locales:
        spec = rendered(base, catalog_name, alert_type, example, locale)
        where = f"compare {alert_id} {locale}"
        previews = page.find_elements(By.CSS_SELECTOR, f'article.preview[data-asked="{locale}"]')
        if len(previews) != 1:
            problems.append(f"{where}: {len(previews)} previews, not 1")
            continue
        device = previews[0].find_element(By.CSS_SELECTOR, ".device")
        if (device.get_attribute("lang"), device.get_attribute("dir")) != (spec["locale"], spec["direction"]):
            problems.append(f"{where}: the device is {device.get_attribute('lang')} {device.get_attribute('dir')}, the spec {spec['locale']} {spec['direction']}")
        if texts(previews[0], ".title") != [spec["title"]]:
            problems.append(f"{where}: the title shows {texts(previews[0], '.title')!r}, the spec has {spec['title']!r}")
    pseudo = {locale: rendered(base, catalog_name, alert_type, example, locale) for locale in ("en-XA", "ar-XB")}
    if not (pseudo["en-XA"]["title"].startswith("[") and pseudo["ar-XB"]["direction"] == "rtl"):
        problems.append(f"compare {alert_id}: the pseudo-locales are not en-XA bracketed and ar-XB right to left")


def check_sheets(page, base, locale, sheets, artifacts, problems):
    """Each action sheet: its title and message, the options in the spec's order, then the cancel button apart."""
    if not sheets or not load_gallery(page, base, locale, "sheet", len(sheets), artifacts, problems):
        return
    for alert_id, spec, where, device, sheet in each_drawn(page, base, locale, sheets, ".sheet", problems):
        buttons = sheet.find_elements(By.CSS_SELECTOR, "button")
        shown = [(b.get_property("textContent"), b.get_attribute("data-role")) for b in buttons]
        wanted = [(a["label"], a["role"]) for a in spec["options"] + ([spec["cancel"]] if spec.get("cancel") else [])]
        if shown != wanted:
            problems.append(f"{where}: buttons {shown!r}, the spec's options then its cancel {wanted!r}")
        last = sheet.find_elements(By.CSS_SELECTOR, ".sheet-cancel button")
        if spec.get("cancel") and (len(last) != 1 or last[0].get_property("textContent") != spec["cancel"]["label"]):
            problems.append(f"{where}: the cancel button is not apart at the bottom")
        device.screenshot(os.path.join(artifacts, f"{alert_id.replace('/', '-')}-{locale}.png"))


def check_parameters(page, base, alerts, problems):
    """Typing a new value into an alert's parameter and pressing Enter renders it again with
    the value, the keyboard's focus back on the form."""
    for alert_id, catalog, alert_type, example in alerts:
        spec = rendered(base, catalog, alert_type, example, "en")
        shown = (spec.get("title") or "") + (spec.get("message") or "")
        name = next((n for n, v in example.items() if isinstance(v, str) and v and v in shown), None)
        if name is None:
            continue
        preview = page.find_element(By.CSS_SELECTOR, f'article.preview[data-alert="{alert_id}"]')
        field = preview.find_element(By.CSS_SELECTOR, f'.parameters input[name="{name}"]')
        field.clear()
        field.send_keys("Zoë Quinn" + Keys.ENTER)
        def shown():
            dialog = page.find_elements(By.CSS_SELECTOR, f'article.preview[data-alert="{alert_id}"] .dialog')
            return dialog and "Zoë Quinn" in dialog[0].get_property("textContent")
        if not poll(shown):
            problems.append(f"en {alert_id}: {name}=Zoë Quinn typed and entered, the dialog does not show it")
            return
        focused = page.switch_to.active_element
        if focused.get_attribute("type") != "submit" or not focused.find_elements(By.XPATH, f'ancestor::article[@data-alert="{alert_id}"]'):
            problems.append(f"en {alert_id}: after rendering again the focus is not on the form's button")
        return
    problems.append("no alert dialog has a text parameter its title or message shows, to edit")


def check_tap(page, base, alerts, problems):
    """Tapping a button that reports an event says so in the status line, with its id and role."""
    for alert_id, catalog, alert_type, example in alerts:
        spec = rendered(base, catalog, alert_type, example, "en")
        action = next((a for a in spec["actions"] if a["action"]["type"] == "event"), None)
        if action is None:
            continue
        selector = f'article.preview[data-alert="{alert_id}"] button[data-action-id="{action["id"]}"]'
        page.find_element(By.CSS_SELECTOR, selector).click()
        said = f'“{action["label"]}” ({action["id"]}, {action["role"]}) reports the event {action["action"]["name"]}'
        if not poll(lambda: said in page.find_element(By.ID, "status").text):
            problems.append(f"en {alert_id}: tapping {action['id']} does not say {said!r}")
        return
    problems.append("no alert dialog has a button that reports an event, to tap")


def check_dialogs(page, base, locale, alerts, artifacts, problems):
    """Checks one locale's alert dialogs; returns each horizontal primary button's side, by alert."""
    if not load_gallery(page, base, locale, "alert", len(alerts), artifacts, problems):
        return {}
    sides = {}
    for alert_id, spec, where, device, dialog in each_drawn(page, base, locale, alerts, ".dialog", problems):
        stacked = "vertical" in dialog.find_element(By.CSS_SELECTOR, ".actions").get_attribute("class").split()
        horizontal, ordered = ios_order(spec["actions"], spec.get("presentation", {}).get("actionsLayout"), stacked)
        buttons = dialog.find_elements(By.CSS_SELECTOR, ".actions button")
        shown = [(b.get_property("textContent"), b.get_attribute("data-role")) for b in buttons]
        wanted = [(a["label"], a["role"]) for a in ordered]
        if shown != wanted:
            problems.append(f"{where}: buttons {shown!r}, the spec in iOS order {wanted!r}")
            continue
        if any(not b.is_displayed() or b.get_attribute("tabindex") == "-1" for b in buttons):
            problems.append(f"{where}: a button is hidden or out of the keyboard's reach")
        if horizontal and any(a["role"] == "primary" for a in ordered) and len(ordered) == 2:
            box = dialog.rect
            primary = buttons[[a["role"] for a in ordered].index("primary")].rect
            middle = primary["x"] + primary["width"] / 2
            sides[alert_id] = "right" if middle > box["x"] + box["width"] / 2 else "left"
        device.screenshot(os.path.join(artifacts, f"{alert_id.replace('/', '-')}-{locale}.png"))
    return sides


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--locales", default="en,ar,ja")
    browser_options(parser)
    parser.add_argument("--admin-token", help="the server's admin token: drives the operator view too")
    arguments = parser.parse_args()

    os.makedirs(arguments.artifacts, exist_ok=True)
    base = arguments.url.rstrip("/")
    alerts = alerts_of(base, "alert")
    sheets = alerts_of(base, "sheet")
    problems = []
    if not alerts:
        problems.append("no catalog has an alert dialog to check")
    with browsing(arguments, problems) as page:
        locales = arguments.locales.split(",")
        sides = {}
        for locale in locales:
            sides[locale] = check_dialogs(page, base, locale, alerts, arguments.artifacts, problems)
            if locale == locales[0]:
                check_tap(page, base, alerts, problems)  # on the dialogs' gallery, still open
                check_parameters(page, base, alerts, problems)
            check_sheets(page, base, locale, sheets, arguments.artifacts, problems)
            others = check_kinds(page, base, locale, arguments.artifacts, problems)
        if alerts:
            check_comparison(page, base, alerts[0], arguments.artifacts, problems)
        check_overflow(page, base, arguments.artifacts, problems)
        pictures = shoot_kinds(page, base, ["en", "ar"], os.path.join(arguments.artifacts, "docs"), problems)
        if arguments.admin_token:
            check_operator(page, base, arguments.admin_token, arguments.artifacts, problems)
        first = locales[0]
        for locale in locales[1:]:
            rtl = rendered(base, alerts[0][1], alerts[0][2], alerts[0][3], locale)["direction"] == "rtl"
            compared = sorted(set(sides[first]) & set(sides[locale]))
            if rtl and not compared:
                problems.append(f"{locale}: no dialog with a primary button beside another to compare with {first}")
            for alert_id in compared:
                flipped = sides[first][alert_id] != sides[locale][alert_id]
                if flipped != rtl:
                    problems.append(
                        f"{locale} {alert_id}: the primary button is on the {sides[locale][alert_id]}, "
                        f"in {first} on the {sides[first][alert_id]}; {'mirrored' if rtl else 'the same'} expected")
        print(f"checked {len(alerts)} alert dialogs, {len(sheets)} action sheets and {others} HUDs, toasts and cards"
              f" in {', '.join(locales)}; primary buttons compared: "
              + ", ".join(f"{locale} {len(found)}" for locale, found in sides.items())
              + f"; {len(pictures)} pictures for the docs"
              + ("; the operator view driven" if arguments.admin_token else ""))
    return verdict(problems)


if __name__ == "__main__":
    sys.exit(main())
