"""The console in a browser, for scripts/console_browser_check.py: the API read as a client
reads it, headless Chromium started and stopped, the console's pages opened, waited for,
read and photographed."""

import base64
import contextlib
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
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def api(base, path, query=None):
    url = base + path + ("?" + urllib.parse.urlencode(query) if query else "")
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def alerts_of(base, kind):
    """Every alert of `kind` of every catalog: (id, catalog, type, example)."""
    found = []
    for listed in api(base, "/v1/catalogs")["catalogs"]:
        catalog = api(base, "/v1/catalogs/" + listed["name"])
        for alert in catalog["alerts"]:
            if alert["kind"] == kind:
                found.append((f"{listed['name']}/{alert['type']}", listed["name"], alert["type"], alert["example"]))
    return found


def rendered(base, catalog, alert_type, example, locale):
    """The spec the render API answers, with the catalog's example parameters."""
    return api(base, f"/v1/catalogs/{catalog}/alerts/{alert_type}", {**{k: str(v) for k, v in example.items()}, "locale": locale})


def browser(chromium, driver, profile):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--user-data-dir=" + profile, "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def browser_options(parser):
    """The browser's and its driver's paths, as each script takes them."""
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--driver", default="/usr/bin/chromedriver")


@contextlib.contextmanager
def browsing(arguments, problems):
    """Headless Chromium in a profile of its own for the `with` block; afterwards the browser and
    its driver must be gone (else a problem) and the profile is deleted. A watchdog's SIGTERM
    ends the script through the block's end, which stops the browser."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    profile = tempfile.mkdtemp(prefix="alertd-chromium-")
    page = None
    try:
        page = browser(arguments.chromium, arguments.driver, profile)
        yield page
    finally:
        if page is not None:
            driver_process = page.service.process
            page.quit()
            left = leftovers(profile, driver_process)
            if left:
                problems.append(f"still running after quit: {left}")
        shutil.rmtree(profile, ignore_errors=True)


def verdict(problems):
    """Prints each problem on a line of its own; the exit status: 1 when there is any."""
    for problem in problems:
        print("PROBLEM", problem)
    return 1 if problems else 0


def poll(condition, limit=10):
    """Whether `condition()` holds within `limit` seconds; an element the page replaced while it
    was read counts as not yet."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except StaleElementReferenceException:
            pass
        time.sleep(0.1)
    return False


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


def load_page(page, base, query, label, count, shot, artifacts, problems):
    """Opens the console with `query`; whether it showed `count` previews without a console
    error, a CSP violation or a fetch from another origin. A screenshot of the page goes to `shot`."""
    page.get(f"{base}/console?{query}")
    if not wait_for_gallery(page, count):
        problems.append(f"{label}: the console did not show {count} previews within 20 s ({query})")
        return False
    time.sleep(0.4)  # the dialogs' appear animation (0.25 to 0.35 s)
    for entry in page.get_log("browser"):
        if entry["level"] in ("SEVERE", "ERROR") or "Content Security Policy" in entry["message"]:
            problems.append(f"{label}: browser console: {entry['level']} {entry['message']}")
    violations = page.execute_script("return window.performance.getEntriesByType('resource').filter(e => !e.name.startsWith(location.origin)).map(e => e.name)")
    for name in violations:
        problems.append(f"{label}: fetched from another origin: {name}")
    shoot_page(page, os.path.join(artifacts, shot))
    return True


def load_gallery(page, base, locale, kind, count, artifacts, problems):
    """Opens the gallery of one kind in one locale; whether it showed `count` previews without
    a console error, a CSP violation or a fetch from another origin."""
    query = urllib.parse.urlencode({"locale": locale, "kind": kind})
    return load_page(page, base, query, locale, count, f"gallery-{kind}-{locale}.png", artifacts, problems)


def preview_of(page, alert_id, spec, where, problems):
    """The alert's one preview and its device, checked for the spec's direction and language."""
    previews = page.find_elements(By.CSS_SELECTOR, f'article.preview[data-alert="{alert_id}"]')
    if len(previews) != 1:
        problems.append(f"{where}: {len(previews)} previews in the page, not 1")
        return None, None
    device = previews[0].find_element(By.CSS_SELECTOR, ".device")
    if device.get_attribute("dir") != spec["direction"]:
        problems.append(f"{where}: the device's dir is {device.get_attribute('dir')!r}, the spec's direction {spec['direction']!r}")
    if device.get_attribute("lang") != spec["locale"]:
        problems.append(f"{where}: the device's lang is {device.get_attribute('lang')!r}, not {spec['locale']!r}")
    return previews[0], device


def texts(container, selector):
    return [e.get_property("textContent") for e in container.find_elements(By.CSS_SELECTOR, selector)]


def shoot_page(page, path, element=None):
    """The whole page, or only `element`, beyond the window, through the DevTools protocol."""
    if element is None:
        size = page.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        clip = {"x": 0, "y": 0, "width": size[0], "height": size[1]}
    else:
        # Scrolled into the window, not captured beyond it: a taller capture drops the scroll
        # bar, which lays the page out again and moves the element.
        clip = page.execute_script(
            "arguments[0].scrollIntoView({block: 'start'}); const r = arguments[0].getBoundingClientRect();"
            "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}", element)
    shot = page.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": element is None, "clip": {**clip, "scale": 1}})
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))


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


def each_preview(page, base, locale, alerts, problems):
    """Each alert's spec in `locale` and its preview and device, checked by `preview_of`."""
    for alert_id, catalog, alert_type, example in alerts:
        spec = rendered(base, catalog, alert_type, example, locale)
        where = f"{locale} {alert_id}"
        preview, device = preview_of(page, alert_id, spec, where, problems)
        if preview is not None:
            yield alert_id, spec, where, preview, device
