// The public API the console reads, as any client reads it: JSON in, problem+json errors out.

/** An answer that is not 2xx: its problem's title and detail when it has one. */
export class APIProblem extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * One call: `method` on `path`, with the bearer `token` and the JSON `body` when given. The
 * answer's JSON, or an `APIProblem` with the problem+json the API answered.
 */
export async function request(path, { method = "GET", token, body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const type = response.headers.get("Content-Type") || "";
  const answer = type.includes("json") ? await response.json() : null;
  if (!response.ok) throw new APIProblem(response.status, answer);
  return answer;
}

function getJSON(path) {
  return request(path);
}

/** `GET /v1/catalogs`: every catalog with its locales and pseudo-locales. */
export function catalogs() {
  return getJSON("/v1/catalogs").then((body) => body.catalogs);
}

/** `GET /v1/catalogs/{catalog}`: its alerts, their parameters and examples. */
export function catalog(name) {
  return getJSON(`/v1/catalogs/${encodeURIComponent(name)}`);
}

/** `GET /v1/catalogs/{catalog}/alerts/{type}`: the spec an app receives, in `locale`. */
export function render(catalogName, type, locale, params) {
  const query = new URLSearchParams();
  if (locale) query.set("locale", locale);
  for (const [name, value] of Object.entries(params || {})) query.set(name, String(value));
  const path = `/v1/catalogs/${encodeURIComponent(catalogName)}/alerts/${encodeURIComponent(type)}`;
  return getJSON(`${path}?${query}`);
}
