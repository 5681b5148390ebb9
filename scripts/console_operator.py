"""The console's operator view of one session in a browser, for scripts/console_browser_check.py.

An alert is picked in the gallery ("Enqueue"), the admin token given once (kept in the tab's
sessionStorage, no cookie), a session opened; the alert, its parameter edited, is enqueued
through the form and listed with its timeline, as the API lists it; a second modal waits behind
it with the explain route's reason; a hold set by the app shows on Refresh; a spec the API
refuses shows the API's own words; a campaign is listed and recalled; the second modal is
cancelled through its button and leaves the queue for the recently finished. No console error
or CSP violation on the way; screenshots go to the artifacts folder."""

import json
import os
import secrets
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from console_page import alerts_of, poll, shoot_page, wait_for_gallery


def call(base, method, path, token, body=None):
    """The API as a client calls it: (status, JSON answer)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Authorization": f"Bearer {token}"})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def browser_problems(page, label, problems, expected=None):
    """The browser console's errors and CSP violations since the last look; `expected` is a
    message the step meant to cause (Chromium logs a refused fetch as an error)."""
    for entry in page.get_log("browser"):
        if expected and expected in entry["message"]:
            continue
        if entry["level"] in ("SEVERE", "ERROR") or "Content Security Policy" in entry["message"]:
            problems.append(f"{label}: browser console: {entry['level']} {entry['message']}")


def items_shown(page, list_id="items"):
    """(ticket, state, code) of each item the page lists, in its order."""
    return [(a.get_attribute("data-ticket"), a.get_attribute("data-state"), a.get_attribute("data-code"))
            for a in page.find_elements(By.CSS_SELECTOR, f"#{list_id} article.item")]


def status_text(page):
    return page.find_element(By.ID, "status").text


def check_operator(page, base, token, artifacts, problems):
    """Drives the operator view through a session's life; appends what goes wrong to `problems`."""
    dialogs = [a for a in alerts_of(base, "alert")]
    first = next((a for a in dialogs if any(isinstance(v, str) for v in a[3].values())), None)
    second = next((a for a in dialogs if first and a[0] != first[0]), None)
    if first is None or second is None:
        problems.append("operator: no two alert dialogs, one with a text parameter, to enqueue")
        return
    session = "console-" + secrets.token_hex(4)

    # An alert picked in the gallery opens the operator view with it chosen.
    page.get(f"{base}/console?locale=en&kind=alert")
    if not wait_for_gallery(page, len(dialogs)):
        problems.append("operator: the alerts' gallery did not load")
        return
    page.find_element(By.CSS_SELECTOR, f'article.preview[data-alert="{first[0]}"] a[href^="/console/session"]').click()
    if not poll(lambda: page.find_elements(By.CSS_SELECTOR, "#enqueue select[name=alert]")):
        problems.append("operator: the gallery's Enqueue link does not open the enqueue form")
        return
    picked = page.find_element(By.CSS_SELECTOR, "#enqueue select[name=alert]").get_attribute("value")
    if picked != first[0]:
        problems.append(f"operator: {first[0]} picked in the gallery, the form has {picked!r}")

    # The token, given once, is kept in sessionStorage only; the field is emptied.
    field = page.find_element(By.ID, "token")
    field.send_keys(token + Keys.ENTER)
    kept = page.execute_script("return [sessionStorage.getItem('alertd.adminToken'), document.cookie, localStorage.length]")
    if kept != [token, "", 0]:
        problems.append(f"operator: the token is not kept in sessionStorage alone (sessionStorage, cookie, localStorage: {kept!r})")
    if field.get_attribute("value") or field.is_displayed():
        problems.append("operator: the token's field still shows after the token was given")
    page.find_element(By.ID, "session").send_keys(session + Keys.ENTER)
    if not poll(lambda: f"session={session}" in page.current_url and session in page.find_element(By.ID, "overview").text):
        problems.append(f"operator: opening {session} does not say so ({page.find_element(By.ID, 'overview').text!r})")
        return

    # The first alert, its text parameter edited, enqueued through the form.
    name = next(n for n, v in first[3].items() if isinstance(v, str))
    parameter = page.find_element(By.CSS_SELECTOR, f'#enqueue input[name="{name}"]')
    parameter.clear()
    parameter.send_keys("Zoë from the console")
    page.find_element(By.CSS_SELECTOR, "#enqueue button[type=submit]").click()
    if not poll(lambda: len(items_shown(page)) == 1):
        problems.append(f"operator: the enqueued {first[0]} is not listed ({status_text(page)!r})")
        return
    _, listing = call(base, "GET", f"/v1/sessions/{session}/queue", token)
    entry = listing["items"][0] if listing["items"] else {}
    if entry.get("alert") != first[0] or entry.get("params", {}).get(name) != "Zoë from the console":
        problems.append(f"operator: the API lists {entry!r}, not {first[0]} with {name}=Zoë from the console")
    ticket = entry.get("ticket")
    if not page.find_elements(By.CSS_SELECTOR, f'#items article[data-ticket="{ticket}"] .timeline li[data-event="enqueued"]'):
        problems.append(f"operator: {ticket} is listed without its timeline's enqueued event")

    # A second modal: one of the two waits behind the other, as explain says, naming it.
    select = page.find_element(By.CSS_SELECTOR, "#enqueue select[name=alert]")
    page.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", select, second[0])
    page.find_element(By.CSS_SELECTOR, "#enqueue button[type=submit]").click()
    if not poll(lambda: len(items_shown(page)) == 2):
        problems.append(f"operator: the second modal is not listed ({status_text(page)!r})")
        return
    _, explained = call(base, "GET", f"/v1/sessions/{session}/explain", token)
    wanted = [(i["ticket"], i["state"], i["code"]) for i in explained["items"]]
    if items_shown(page) != wanted:
        problems.append(f"operator: the page lists {items_shown(page)!r}, explain says {wanted!r}")
    waiting = explained["items"][-1]
    ahead = explained["items"][0]["ticket"]
    reason = page.find_element(By.CSS_SELECTOR, f'#items article[data-ticket="{waiting["ticket"]}"] .reason').text
    if waiting["code"] != "behind" or waiting.get("blocker", {}).get("ticket") != ahead:
        problems.append(f"operator: explain has the later modal {waiting['code']} behind {waiting.get('blocker')!r}, not behind {ahead}")
    if not reason.startswith(f"behind {waiting['reason']}") or f"behind {second[0] if ahead != ticket else first[0]} ({ahead}" not in reason:
        problems.append(f"operator: the waiting modal shows {reason!r}; explain: {waiting['code']} {waiting['reason']!r}, behind {ahead}")
    shoot_page(page, os.path.join(artifacts, "operator-queue.png"))

    # The app holds the session; Refresh shows the hold and why each modal waits.
    _, issued = call(base, "POST", f"/v1/sessions/{session}/token", token, {})
    _, held = call(base, "PUT", f"/v1/sessions/{session}/hold", issued["token"], {"seconds": 300})
    page.find_element(By.ID, "refresh").click()
    if not poll(lambda: held["until"] in page.find_element(By.ID, "hold").text and [c for _, _, c in items_shown(page)] == ["held", "held"]):
        problems.append(f"operator: after a hold and Refresh the page says {page.find_element(By.ID, 'hold').text!r}, codes {items_shown(page)!r}")
    reasons = [e.text for e in page.find_elements(By.CSS_SELECTOR, "#items .reason")]
    if not reasons or any(f"lifts at {held['until']}" not in reason for reason in reasons):
        problems.append(f"operator: the held modals do not say when the hold lifts ({held['until']}): {reasons!r}")

    browser_problems(page, "operator", problems)
    # A spec the API refuses: the page says what the API said.
    bad = {"kind": "alert", "title": "", "actions": []}
    status, problem = call(base, "POST", f"/v1/sessions/{session}/queue", token, {"spec": bad})
    page.find_element(By.CSS_SELECTOR, '#enqueue input[name=source][value=spec]').click()
    spec = page.find_element(By.CSS_SELECTOR, "#enqueue textarea[name=spec]")
    poll(lambda: spec.get_attribute("value") != "")
    spec.clear()
    spec.send_keys(json.dumps(bad))
    page.find_element(By.CSS_SELECTOR, "#enqueue button[type=submit]").click()
    said = f"alertd answered {status} (invalid-request): {problem.get('detail')}"
    if status != 422 or not poll(lambda: said in status_text(page) and problem["errors"][0]["message"] in status_text(page)):
        problems.append(f"operator: a refused spec shows {status_text(page)!r}, not the API's {status} {problem!r}")
    browser_problems(page, "operator", problems, expected=f"/v1/sessions/{session}/queue - Failed to load resource: the server responded with a status of 422")

    check_campaign(page, base, token, session, alerts_of(base, "hud"), problems)

    # The waiting modal cancelled through its button: gone from the queue, cancelled in the recent list.
    page.find_element(By.CSS_SELECTOR, f'#items article[data-ticket="{waiting["ticket"]}"] button.cancel').click()
    if not poll(lambda: [t for t, _, _ in items_shown(page)] == [ahead] and (waiting["ticket"], "cancelled", "cancelled") in items_shown(page, "recent")):
        problems.append(f"operator: after Cancel the queue shows {items_shown(page)!r}, the recent {items_shown(page, 'recent')!r}")
    if page.switch_to.active_element.get_attribute("id") != "queue-heading":
        problems.append("operator: after Cancel the keyboard's focus is not back on the queue's heading")
    _, view = call(base, "GET", f"/v1/sessions/{session}/queue/{waiting['ticket']}", token)
    if view.get("state") != "cancelled" or view["timeline"][-1].get("detail", {}).get("by") != "admin":
        problems.append(f"operator: the API has the cancelled item as {view!r}")
    shoot_page(page, os.path.join(artifacts, "operator-cancelled.png"))
    browser_problems(page, "operator", problems)


def check_campaign(page, base, token, session, huds, problems):
    """A campaign of a HUD to the session, made through the API, is listed and recalled through
    its button; the API then has it recalled."""
    if not huds:
        problems.append("operator: no HUD to make a campaign of")
        return
    campaign = "console-" + secrets.token_hex(4)
    status, made = call(base, "POST", "/v1/campaigns", token, {
        "id": campaign, "alert": huds[0][0], "params": huds[0][3], "audience": {"sessions": [session]}})
    if status != 202:
        problems.append(f"operator: the campaign could not be made: {status} {made!r}")
        return
    page.find_element(By.ID, "load-campaigns").click()
    row = f'#campaigns tr[data-campaign="{campaign}"]'
    if not poll(lambda: page.find_elements(By.CSS_SELECTOR, row)):
        problems.append(f"operator: the campaign {campaign} is not listed")
        return
    page.find_element(By.CSS_SELECTOR, f"{row} button").click()
    page.switch_to.alert.accept()
    if not poll(lambda: "recalled" in page.find_element(By.CSS_SELECTOR, row).text and f"Recalled {campaign}" in status_text(page)):
        problems.append(f"operator: recalling {campaign} shows {page.find_element(By.CSS_SELECTOR, row).text!r}, {status_text(page)!r}")
    _, read = call(base, "GET", f"/v1/campaigns/{campaign}", token)
    if read.get("state") != "recalled":
        problems.append(f"operator: the API has the campaign {read.get('state')!r} after Recall")
