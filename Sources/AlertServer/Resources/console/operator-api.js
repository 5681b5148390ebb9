// The admin's calls the operator view makes: the public API of docs/design.md, with the admin
// token as a bearer token. Nothing here is the console's own.
import { request } from "./api.js";

const sessionPath = (session) => `/v1/sessions/${encodeURIComponent(session)}`;

/** `GET /v1/sessions/{s}/queue`: presenting, then queued in delivery order, then dead items. */
export function queue(token, session) {
  return request(`${sessionPath(session)}/queue`, { token });
}

/** `GET /v1/sessions/{s}/queue/{ticket}`: one item in whatever state, with its timeline. */
export function item(token, session, ticket) {
  return request(`${sessionPath(session)}/queue/${encodeURIComponent(ticket)}`, { token });
}

/** `GET /v1/sessions/{s}/explain`: why each item is where it is, the hold, what `next` would deliver. */
export function explain(token, session) {
  return request(`${sessionPath(session)}/explain`, { token });
}

/** `POST /v1/sessions/{s}/queue`: `{alert, params}` or `{spec}`, with the enqueue's options. */
export function enqueue(token, session, body) {
  return request(`${sessionPath(session)}/queue`, { method: "POST", token, body });
}

/** `DELETE /v1/sessions/{s}/queue/{ticket}`: cancels one live item. */
export function cancel(token, session, ticket) {
  return request(`${sessionPath(session)}/queue/${encodeURIComponent(ticket)}`, { method: "DELETE", token });
}

/** `GET /v1/campaigns`: the newest campaigns first, a page at a time. */
export function campaigns(token, before) {
  const query = new URLSearchParams({ limit: "20" });
  if (before) query.set("before", before);
  return request(`/v1/campaigns?${query}`, { token });
}

/** `POST /v1/campaigns/{id}/recall`: stops its fan-out and takes back its live copies. */
export function recallCampaign(token, id) {
  return request(`/v1/campaigns/${encodeURIComponent(id)}/recall`, { method: "POST", token });
}
