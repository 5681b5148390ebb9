// The operator view's enqueue form: a catalog alert (picked here or from the gallery's
// "Enqueue" link, `?alert=catalog/type`) with its parameters, editable and filled with the
// catalog's example, or a spec as raw JSON; with the enqueue's priority, ttl and dedupe key.
// It posts what `POST /v1/sessions/{s}/queue` takes, nothing more.
import * as api from "./api.js";
import { h, uid } from "./dom.js";
import * as operator from "./operator-api.js";
import { parameterFields, parameterValues } from "./parameters.js";

/** Fills `form` and wires it to `page` (session.js: the session, the token, the status line). */
export async function enqueueForm(form, picked, page) {
  let catalogs;
  try {
    const listed = await api.catalogs();
    catalogs = await Promise.all(listed.map((entry) => api.catalog(entry.name)));
  } catch (error) {
    page.report("Reading the catalogs", error);
    return;
  }
  const alerts = new Map(catalogs.flatMap((catalog) => catalog.alerts.map((alert) => [`${catalog.name}/${alert.type}`, alert])));
  const what = h("fieldset", { class: "choice" }, h("legend", { text: "What to queue" }),
    radio("source", "alert", "A catalog alert", true), radio("source", "spec", "A spec (JSON)", false));
  const alertID = uid("enqueue-alert");
  const picker = h("select", { id: alertID, name: "alert" }, catalogs.map((catalog) =>
    h("optgroup", { label: catalog.name }, catalog.alerts.map((alert) =>
      h("option", { value: `${catalog.name}/${alert.type}`, text: `${catalog.name}/${alert.type} (${alert.kind})` })))));
  if (alerts.has(picked)) picker.value = picked;
  const parameters = h("div", { class: "parameters", role: "group", "aria-label": "Parameters" });
  const fillParameters = () => {
    const alert = alerts.get(picker.value);
    parameters.replaceChildren(...parameterFields(alert, alert.example || {}));
  };
  fillParameters();
  picker.addEventListener("change", fillParameters);
  const alertPart = h("div", { class: "alert-part" }, h("label", { for: alertID, text: "Alert" }), picker, parameters);
  const specID = uid("enqueue-spec");
  const spec = h("textarea", { id: specID, name: "spec", rows: 10, cols: 60, spellcheck: "false" });
  const specPart = h("div", { class: "spec-part", hidden: true }, h("label", { for: specID, text: "Spec draft (JSON)" }), spec);
  const options = h("div", { class: "parameters" },
    field("priority", "Priority", "number", { min: 0, max: 1000 }), field("ttl", "TTL (s)", "number", { min: 1 }),
    field("dedupeKey", "Dedupe key", "text", {}));
  form.replaceChildren(what, alertPart, specPart, options, h("button", { type: "submit", text: "Enqueue" }));

  form.addEventListener("change", async (event) => {
    if (event.target.name !== "source") return;
    const asSpec = form.querySelector(`input[name="source"]:checked`).value === "spec";
    alertPart.hidden = asSpec;
    specPart.hidden = !asSpec;
    // A spec starts as the picked alert's, rendered in English: a spec the server gives can be posted as it is.
    if (asSpec && !spec.value) spec.value = await startingSpec(picker.value, alerts, parameters);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!page.session()) return page.say("Open a session first.", true);
    let body;
    try {
      body = requestBody(form, alerts.get(picker.value), picker.value, parameters, spec, options);
    } catch (error) {
      return page.say(`The spec is not JSON: ${error.message}`, true);
    }
    try {
      const answer = await operator.enqueue(page.token(), page.session(), body);
      await page.refresh();
      page.say(`${answer.duplicate ? "A duplicate of" : "Queued"} ${answer.ticket}, place ${answer.position} in its lane${answer.refreshed ? ", brought up to date" : ""}.`);
    } catch (error) {
      page.report("Enqueueing", error);
    }
  });
}

/** The enqueue's body: `{alert, params}` or `{spec}`, and the options that were filled in. */
function requestBody(form, alert, alertID, parameters, spec, options) {
  const asSpec = form.querySelector(`input[name="source"]:checked`).value === "spec";
  const body = asSpec ? { spec: JSON.parse(spec.value) } : { alert: alertID, params: parameterValues(alert, parameters, true) };
  const option = (name) => options.querySelector(`input[name="${name}"]`).value;
  for (const name of ["priority", "ttl"]) {
    if (option(name) !== "") body[name] = Number(option(name));
  }
  const key = option("dedupeKey");
  if (key !== "") body.dedupeKey = key;
  return body;
}

async function startingSpec(alertID, alerts, parameters) {
  const [catalog, type] = alertID.split("/");
  try {
    const spec = await api.render(catalog, type, "en", parameterValues(alerts.get(alertID), parameters));
    return JSON.stringify(spec, null, 2);
  } catch {
    return JSON.stringify({ kind: "alert", title: "", actions: [] }, null, 2);
  }
}

function radio(name, value, text, checked) {
  const id = uid(name);
  return h("span", {}, h("input", { type: "radio", id, name, value, checked }), h("label", { for: id, text }));
}

function field(name, text, type, limits) {
  const id = uid(name);
  return h("span", {}, h("label", { for: id, text }), h("input", { id, name, type, ...limits }));
}
