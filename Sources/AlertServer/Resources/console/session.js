// The operator's view of one session (`/console/session?session=…`): its live queue in
// delivery order with each item's timeline and the reason it waits, its hold, and the admin's
// actions on it (enqueue, cancel, recall a campaign). Every call is the public API with the
// admin token the page was given (token.js); a problem is shown in the API's own words.
import { APIProblem } from "./api.js";
import * as api from "./operator-api.js";
import { campaignList } from "./session-campaigns.js";
import { enqueueForm } from "./session-enqueue.js";
import { drawItems } from "./session-queue.js";
import { adminToken, tokenControls } from "./token.js";

const status = document.getElementById("status");
const sessionForm = document.getElementById("session-form");
const sessionField = document.getElementById("session");
const overview = document.getElementById("overview");
const hold = document.getElementById("hold");
const items = document.getElementById("items");
const recent = document.getElementById("recent");
const main = document.getElementById("operator");

// `loading` counts the reads: an answer that comes after a newer read began is dropped.
const state = { session: "", loading: 0 };

const token = tokenControls(document.getElementById("token-form"), document.getElementById("forget"), (has) => {
  main.dataset.token = has ? "given" : "missing";
  if (has && state.session) refresh();
});

/** Says what went wrong in the API's words; a 401 asks for the token again. */
function report(what, error) {
  const problem = error instanceof APIProblem ? error : null;
  if (problem?.status === 401) token.refused();
  const code = problem?.problem?.type ? ` (${problem.problem.type.replace("urn:alertd:problem:", "")})` : "";
  const details = (problem?.problem?.errors || []).map((entry) => `${entry.pointer || "/"}: ${entry.message}`);
  say([`${what}: alertd answered ${problem?.status || "nothing"}${code}: ${error.message}`, ...details].join(" "), true);
}

/** The status line; `problem` marks what went wrong. */
function say(text, problem = false) {
  status.textContent = text;
  status.classList.toggle("problem-text", problem);
}

/** What the page's parts share: the session open now ("" before one), the admin token, the status line. */
const page = { session: () => state.session, token: adminToken, refresh: () => refresh(), report, say };

/** Reads the session again: its listing, the explanation and each item's timeline. */
async function refresh() {
  if (!state.session) return;
  if (!adminToken()) {
    say("Give the admin token to read the session.", true);
    return;
  }
  const generation = ++state.loading;
  main.setAttribute("aria-busy", "true");
  try {
    const session = state.session;
    const [listing, explained] = await Promise.all([api.queue(adminToken(), session), api.explain(adminToken(), session)]);
    const views = await Promise.all(listing.items.map((entry) => api.item(adminToken(), session, entry.ticket)));
    if (generation !== state.loading) return;
    overview.textContent = `${session}: ${explained.reason} (${explained.code}), as of ${explained.now}.`;
    hold.textContent = explained.held ? `Held until ${explained.held.until}: modals and toasts wait, HUDs flow.` : "Not held.";
    main.dataset.held = explained.held ? "true" : "false";
    drawItems(items, listing.items, views, explained.items, cancelItem);
    drawItems(recent, explained.recent, explained.recent.map(() => null), explained.recent, null);
    say(`${session}: ${listing.items.length} live items, read at ${new Date().toLocaleTimeString("en-GB")}.`);
  } catch (error) {
    if (generation === state.loading) report(`Reading ${state.session}`, error);
  } finally {
    if (generation === state.loading) main.setAttribute("aria-busy", "false");
  }
}

/** Cancels one item; whether it was. The list is drawn again, so the focus goes to its heading. */
async function cancelItem(ticket) {
  try {
    const answer = await api.cancel(adminToken(), state.session, ticket);
    await refresh();
    document.getElementById("queue-heading").focus();
    say(`Cancelled ${ticket} (${answer.cancelled} item).`);
    return true;
  } catch (error) {
    report(`Cancelling ${ticket}`, error);
    return false;
  }
}

function open(session) {
  state.session = session;
  const query = new URLSearchParams(location.search);
  query.set("session", session);
  history.replaceState(null, "", `?${query}`);
  document.title = `alertd console: ${session}`;
  refresh();
}

function start() {
  const query = new URLSearchParams(location.search);
  sessionForm.addEventListener("submit", (event) => {
    event.preventDefault();
    open(sessionField.value.trim());
  });
  document.getElementById("refresh").addEventListener("click", () => refresh());
  enqueueForm(document.getElementById("enqueue"), query.get("alert") || "", page);
  campaignList(document.getElementById("load-campaigns"), document.getElementById("campaigns"), page);
  const session = query.get("session");
  if (session) {
    sessionField.value = session;
    open(session);
  }
}

start();
