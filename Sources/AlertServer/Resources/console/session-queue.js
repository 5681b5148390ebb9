// A session's items as the operator view lists them: each with what the listing says, the
// reason the explain route gives (its code, its sentence and the facts: the hold's end, the
// blocker, when a gap lifts), its timeline, and a button to cancel a live one.
import { h } from "./dom.js";

/** What `until` is, by code: a lease's end, a TTL's end, else when what holds the item back lifts. */
const untilWords = { presenting: "lease ends at", "lane-busy": "its lease ends at", expired: "expired at" };

/** A fact of an explained item, in words; the facts' names are design.md's. */
const facts = {
  until: (value, item) => `${untilWords[item.code] || "lifts at"} ${value}`,
  since: (value) => `since ${value}`,
  position: (value) => `place ${value} in its lane`,
  blocker: (value) => `behind ${describe(value)}`,
  win: (value) => `wins by ${value}`,
  runnerUp: (value) => `then ${describe(value)}`,
  endedAt: (value) => `ended at ${value}`,
  endedBy: (value) => `by ${value}`,
  action: (value) => `action ${value}`,
};

function describe(other) {
  return `${other.alert || "an ad-hoc spec"} (${other.ticket}, ${other.lane}, priority ${other.priority})`;
}

/**
 * Fills `list` with one entry per item of `entries` (listing entries, in their order), each
 * joined by ticket with its item view (`views`, for the timeline; null for none) and its
 * explanation (`explained`). `onCancel(ticket)`, when given, backs a cancel button on live items.
 */
export function drawItems(list, entries, views, explained, onCancel) {
  const reasons = new Map(explained.map((item) => [item.ticket, item]));
  list.replaceChildren(...entries.map((entry, index) => itemEntry(entry, views[index], reasons.get(entry.ticket), onCancel)));
  if (!entries.length) list.append(h("li", { class: "meta", text: "None." }));
}

function itemEntry(entry, view, reason, onCancel) {
  const name = entry.alert || `${entry.kind || "spec"}${entry.title ? ` “${entry.title}”` : ""}`;
  const headingID = `item-${entry.ticket}`;
  const times = [
    `enqueued ${entry.enqueuedAt}`, entry.notBefore && `not before ${entry.notBefore}`,
    entry.expiresAt && `expires ${entry.expiresAt}`, `${entry.deliveries} deliveries`,
  ].filter(Boolean).join(" · ");
  const article = h("article", {
    class: "item", "aria-labelledby": headingID,
    "data-ticket": entry.ticket, "data-state": entry.state, "data-code": reason?.code || "",
  },
  h("h3", { id: headingID }, h("span", { text: name }), h("code", { class: "ticket", text: entry.ticket })),
  h("p", { class: "meta", text: `${entry.state} · ${entry.lane} lane · priority ${entry.priority} · ${times}` }),
  entry.params && Object.keys(entry.params).length ? h("p", { class: "params" }, h("code", { text: JSON.stringify(entry.params) })) : null,
  reason ? reasonLine(reason) : null,
  view?.timeline ? timeline(view.timeline) : null);
  if (onCancel && (entry.state === "queued" || entry.state === "presenting")) {
    article.append(h("button", {
      type: "button", class: "cancel", text: "Cancel", "aria-label": `Cancel ${name} (${entry.ticket})`,
      onclick: async (event) => {
        const button = event.currentTarget;
        button.disabled = true;
        if (!(await onCancel(entry.ticket))) button.disabled = false;
      },
    }));
  }
  return h("li", {}, article);
}

/** The explanation: its sentence, its code, and the facts that apply. */
function reasonLine(reason) {
  const said = Object.entries(facts).filter(([name]) => reason[name] !== undefined && reason[name] !== null)
    .map(([name, words]) => words(reason[name], reason));
  return h("p", { class: "reason" },
    h("strong", { class: "code", text: reason.code }), ` ${reason.reason}`,
    said.length ? h("span", { class: "facts", text: ` (${said.join("; ")})` }) : null);
}

/** The item's events, oldest first, each with its time and details. */
function timeline(events) {
  return h("ol", { class: "timeline", "aria-label": "Timeline" }, events.map((event) => {
    const detail = Object.entries(event.detail || {}).map(([key, value]) => `${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
    return h("li", { "data-event": event.type },
      h("time", { datetime: event.at, text: event.at }), " ", h("strong", { text: event.type }),
      detail.length ? ` ${detail.join(", ")}` : "");
  }));
}
