#!/usr/bin/env python3
"""Screenshots of the console for the docs: the first alert of each kind (alert, sheet, HUD,
toast, card) of the catalogs, as the gallery draws it on its iPhone-sized device, in each
locale asked, one PNG per kind and locale (`<kind>-<locale>.png`), cropped to the device.
Motion is turned off (prefers-reduced-motion), so the same console gives the same pictures.

`make screenshots` runs it against an alertd it starts, into docs/images/console; the browser
check runs `shoot_kinds` into its artifacts.

    console_screenshots.py --url http://127.0.0.1:8080 --out docs/images/console --locales en,ar
"""

import argparse
import os
import sys
import urllib.parse

from selenium.webdriver.common.by import By

from console_page import alerts_of, browser_options, browsing, poll, shoot_page, verdict, wait_for_gallery

KINDS = ("alert", "sheet", "hud", "toast", "card")


def shoot_kinds(page, base, locales, folder, problems):
    """Writes `<kind>-<locale>.png` into `folder` for each kind and locale; the names written."""
    os.makedirs(folder, exist_ok=True)
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    written = []
    try:
        for kind in KINDS:
            listed = alerts_of(base, kind)
            if not listed:
                problems.append(f"screenshots: no catalog has a {kind}")
                continue
            alert_id = listed[0][0]
            for locale in locales:
                page.get(f"{base}/console?{urllib.parse.urlencode({'locale': locale, 'kind': kind})}")
                selector = f'article.preview[data-alert="{alert_id}"] .device'
                if not wait_for_gallery(page, len(listed)) or not poll(lambda: page.find_elements(By.CSS_SELECTOR, selector)):
                    problems.append(f"screenshots: {alert_id} in {locale} was not drawn")
                    continue
                name = f"{kind}-{locale}.png"
                shoot_page(page, os.path.join(folder, name), page.find_element(By.CSS_SELECTOR, selector))
                written.append(name)
    finally:
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--locales", default="en,ar")
    browser_options(parser)
    arguments = parser.parse_args()
    problems = []
    with browsing(arguments, problems) as page:
        written = shoot_kinds(page, arguments.url.rstrip("/"), arguments.locales.split(","), arguments.out, problems)
        print(f"wrote {len(written)} screenshots to {arguments.out}: {', '.join(written)}")
    return verdict(problems)

if __name__ == "__main__":
    sys.exit(main())
