#!/usr/bin/env python3
"""Checks alertd's preview console in headless Chromium, driven by Selenium.

For each locale asked: the gallery of alert dialogs loads with no console error and no
Content-Security-Policy violation; each dialog shows the title, message and buttons of the spec
the render API answers, the buttons in the order an iPhone shows them (two side by side with
the cancel button leading, else stacked with the cancel button last) and with their roles; the
device is mirrored (`dir="rtl"`) exactly for right-to-left specs, and in a right-to-left locale
every primary button beside another sits on the other side of its dialog than in the first
locale. Screenshots of the page and of each dialog go to the artifacts folder; afterwards no
process of the browser or its driver may be left running.

Prints one line per problem and exits 1 when there is any; 0 otherwise. The browser and its
driver are stopped however the script ends (SIGTERM included).

    console_browser_check.py --url http://127.0.0.1:8080 --artifacts /tmp/shots --locales en,ar,ja
"""

import argparse
import base64
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def api(base, path, query=None):
    url = base + path + ("?" + urllib.parse.urlencode(query) if query else "")
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def dialogs(base):
    """Every alert dialog of every catalog: (id, catalog, type, example)."""
    found = []
    for listed in api(base, "/v1/catalogs")["catalogs"]:
        catalog = api(base, "/v1/catalogs/" + listed["name"])
        for alert in catalog["alerts"]:
            if alert["kind"] == "alert":
                found.append((f"{listed['name']}/{alert['type']}", listed["name"], alert["type"], alert["example"]))
    return found


def ios_order(actions, layout):
    """The order UIAlertController shows buttons in, as the console's buttons.js arranges them."""
    cancel = [a for a in actions if a["role"] == "cancel"]
    others = [a for a in actions if a["role"] != "cancel"]
    horizontal = layout != "vertical" and len(actions) <= 2
    return horizontal, (cancel + others if horizontal else others + cancel)


def browser(chromium, driver, profile):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--user-data-dir=" + profile, "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def wait_for_gallery(page, expected, limit=20):
    """Waits until the gallery is drawn (no longer busy) with `expected` previews."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        busy = page.execute_script("return document.getElementById('gallery').getAttribute('aria-busy')")
        count = len(page.find_elements(By.CSS_SELECTOR, "article.preview"))
        if busy == "false" and count == expected:
            return True
        time.sleep(0.1)
    return False


def check_locale(page, base, locale, alerts, artifacts, problems):
    """Checks one locale's gallery; returns each horizontal primary button's side, by alert."""
    page.get(f"{base}/console?locale={urllib.parse.quote(locale)}&kind=alert")
    if not wait_for_gallery(page, len(alerts)):
        problems.append(f"{locale}: the gallery did not show {len(alerts)} alert dialogs within 20 s")
        return {}
    time.sleep(0.4)  # the dialogs' appear animation (0.25 to 0.35 s)
    for entry in page.get_log("browser"):
        if entry["level"] in ("SEVERE", "ERROR") or "Content Security Policy" in entry["message"]:
            problems.append(f"{locale}: browser console: {entry['level']} {entry['message']}")
    violations = page.execute_script("return window.performance.getEntriesByType('resource').filter(e => !e.name.startsWith(location.origin)).map(e => e.name)")
    for name in violations:
        problems.append(f"{locale}: fetched from another origin: {name}")
    shoot_page(page, os.path.join(artifacts, f"gallery-alert-{locale}.png"))

    sides = {}
    for alert_id, catalog, alert_type, example in alerts:
        spec = api(base, f"/v1/catalogs/{catalog}/alerts/{alert_type}", {**{k: str(v) for k, v in example.items()}, "locale": locale})
        where = f"{locale} {alert_id}"
        previews = page.find_elements(By.CSS_SELECTOR, f'article.preview[data-alert="{alert_id}"]')
        if len(previews) != 1:
            problems.append(f"{where}: {len(previews)} previews in the page, not 1")
            continue
        preview = previews[0]
        device = preview.find_element(By.CSS_SELECTOR, ".device")
        if device.get_attribute("dir") != spec["direction"]:
            problems.append(f"{where}: the device's dir is {device.get_attribute('dir')!r}, the spec's direction {spec['direction']!r}")
        if device.get_attribute("lang") != spec["locale"]:
            problems.append(f"{where}: the device's lang is {device.get_attribute('lang')!r}, not {spec['locale']!r}")
        dialog = preview.find_element(By.CSS_SELECTOR, ".dialog")
        for part in ("title", "message"):
            shown = [e.get_property("textContent") for e in dialog.find_elements(By.CSS_SELECTOR, "." + part)]
            wanted = [spec[part]] if spec.get(part) else []
            if shown != wanted:
                problems.append(f"{where}: {part} shows {shown!r}, the spec has {wanted!r}")
        horizontal, ordered = ios_order(spec["actions"], spec.get("presentation", {}).get("actionsLayout"))
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


def leftovers(profile, driver_process, limit=5):
    """The browser processes of this run's profile, and the driver, still running after `limit` seconds."""
    deadline = time.monotonic() + limit
    while True:
        running = []
        if driver_process is not None and driver_process.poll() is None:
            running.append(f"chromedriver {driver_process.pid}")
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as file:
                    if profile.encode() in file.read():
                        running.append(f"chromium {pid}")
            except OSError:
                continue
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.1)


def shoot_page(page, path):
    """The whole page, beyond the window, through the DevTools protocol."""
    size = page.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    shot = page.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1},
    })
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--locales", default="en,ar,ja")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--driver", default="/usr/bin/chromedriver")
    arguments = parser.parse_args()
    # A watchdog's SIGTERM ends the script through `finally`, which stops the browser.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    os.makedirs(arguments.artifacts, exist_ok=True)
    base = arguments.url.rstrip("/")
    alerts = dialogs(base)
    problems = []
    if not alerts:
        problems.append("no catalog has an alert dialog to check")
    profile = tempfile.mkdtemp(prefix="alertd-chromium-")
    page = None
    try:
        page = browser(arguments.chromium, arguments.driver, profile)
        locales = arguments.locales.split(",")
        sides = {locale: check_locale(page, base, locale, alerts, arguments.artifacts, problems) for locale in locales}
        first = locales[0]
        for locale in locales[1:]:
            rtl = api(base, f"/v1/catalogs/{alerts[0][1]}/alerts/{alerts[0][2]}", {**{k: str(v) for k, v in alerts[0][3].items()}, "locale": locale})["direction"] == "rtl"
            compared = sorted(set(sides[first]) & set(sides[locale]))
            if rtl and not compared:
                problems.append(f"{locale}: no dialog with a primary button beside another to compare with {first}")
            for alert_id in compared:
                flipped = sides[first][alert_id] != sides[locale][alert_id]
                if flipped != rtl:
                    problems.append(
                        f"{locale} {alert_id}: the primary button is on the {sides[locale][alert_id]}, "
                        f"in {first} on the {sides[first][alert_id]}; {'mirrored' if rtl else 'the same'} expected")
        print(f"checked {len(alerts)} alert dialogs in {', '.join(locales)}; primary buttons compared: "
              + ", ".join(f"{locale} {len(found)}" for locale, found in sides.items()))
    finally:
        if page is not None:
            driver_process = page.service.process
            page.quit()
            left = leftovers(profile, driver_process)
            if left:
                problems.append(f"still running after quit: {left}")
        shutil.rmtree(profile, ignore_errors=True)
    for problem in problems:
        print("PROBLEM", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
