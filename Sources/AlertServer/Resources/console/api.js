// The public API the console reads, as any client reads it: JSON in, problem+json errors out.

/** An answer that is not 2xx: its problem's title and detail when it has one. */
export class APIProblem extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json() : null;
  if (!response.ok) throw new APIProblem(response.status, body);
  return body;
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
