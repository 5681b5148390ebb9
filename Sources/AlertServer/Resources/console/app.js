// The gallery: every alert of every catalog, rendered from the spec an app receives, in the
// locale picked (the catalogs' locales and the pseudo-locales). The choice lives in the URL
// (`?locale=ar&kind=alert`), so a view can be linked and reloaded.
import * as api from "./api.js";
import { describeAction } from "./buttons.js";
import { h } from "./dom.js";
import { parameterForm } from "./parameters.js";
import { device } from "./render.js";

const gallery = document.getElementById("gallery");
const status = document.getElementById("status");
const localePicker = document.getElementById("locale");
const kindPicker = document.getElementById("kind");

// `drawing` counts the gallery's draws: a preview answered after a newer draw began is dropped.
const state = { catalogs: [], locale: "", kind: "", drawing: 0 };

async function start() {
  const query = new URLSearchParams(location.search);
  state.kind = query.get("kind") || "";
  try {
    const listed = await api.catalogs();
    state.catalogs = await Promise.all(listed.map(async (entry) => ({ ...entry, ...(await api.catalog(entry.name)) })));
  } catch (error) {
    say(`The catalogs could not be read: ${error.message}`);
    gallery.setAttribute("aria-busy", "false");
    return;
  }
  fillLocales(query.get("locale"));
  kindPicker.value = state.kind;
  localePicker.addEventListener("change", () => choose({ locale: localePicker.value }));
  kindPicker.addEventListener("change", () => choose({ kind: kindPicker.value }));
  await draw();
}

/** Every catalog's locales, the source languages first, then the pseudo-locales apart. */
function fillLocales(asked) {
  const sources = new Set(state.catalogs.map((catalog) => catalog.sourceLanguage));
  const locales = [...new Set(state.catalogs.flatMap((catalog) => catalog.locales))]
    .sort((a, b) => (sources.has(b) - sources.has(a)) || a.localeCompare(b));
  const pseudo = [...new Set(state.catalogs.flatMap((catalog) => catalog.pseudoLocales || []))];
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  const label = (tag) => { try { return `${tag} · ${names.of(tag)}`; } catch { return tag; } };
  localePicker.replaceChildren(
    h("optgroup", { label: "Catalog locales" }, locales.map((tag) => h("option", { value: tag, text: label(tag) }))),
    h("optgroup", { label: "Pseudo-locales" }, pseudo.map((tag) => h("option", { value: tag, text: tag }))));
  state.locale = [...locales, ...pseudo].includes(asked) ? asked : locales[0] || "";
  localePicker.value = state.locale;
}

function choose(change) {
  Object.assign(state, change);
  const query = new URLSearchParams();
  if (state.locale) query.set("locale", state.locale);
  if (state.kind) query.set("kind", state.kind);
  history.replaceState(null, "", `?${query}`);
  draw();
}

/** The whole gallery for the current choice; each alert fetched on its own, in parallel. */
async function draw() {
  const generation = ++state.drawing;
  gallery.setAttribute("aria-busy", "true");
  const sections = state.catalogs.map((catalog) => {
    const alerts = catalog.alerts.filter((alert) => !state.kind || alert.kind === state.kind);
    if (!alerts.length) return null;
    return { catalog, alerts, element: h("section", { class: "catalog", "aria-labelledby": `catalog-${catalog.name}` },
      h("h2", { id: `catalog-${catalog.name}`, text: `${catalog.name}` },
        h("span", { class: "meta", text: ` ${catalog.alerts.length} alerts, written in ${catalog.sourceLanguage}` }))) };
  }).filter(Boolean);
  gallery.replaceChildren(...sections.map((section) => section.element));
  const drawn = [];
  for (const { catalog, alerts, element } of sections) {
    const grid = h("div", { class: "grid" });
    element.append(grid);
    for (const alert of alerts) {
      const preview = h("article", { class: "preview", "data-alert": `${catalog.name}/${alert.type}`, "data-kind": alert.kind });
      grid.append(preview);
      drawn.push(drawPreview(preview, catalog, alert, { ...alert.example }));
    }
  }
  await Promise.all(drawn);
  if (generation !== state.drawing) return;
  gallery.setAttribute("aria-busy", "false");
  say(`${drawn.length} alerts in ${state.locale}.`);
}

/**
 * One alert: its name, its parameters (editable), and the device showing its spec. Drawn
 * again from its form, it gives the keyboard's focus back to the form's button.
 */
async function drawPreview(preview, catalog, alert, params, refocus = false) {
  const generation = state.drawing;
  const id = `${catalog.name}/${alert.type}`;
  const headingID = `alert-${catalog.name}-${alert.type}`;
  const heading = h("h3", { id: headingID, text: id });
  const meta = h("p", { class: "meta" });
  const form = parameterForm(alert, params, (changed) => drawPreview(preview, catalog, alert, changed, true));
  let body;
  try {
    const spec = await api.render(catalog.name, alert.type, state.locale, params);
    const { frame, caption } = device(spec, (action) => say(`${id}: “${action.label}” (${action.role || "default"}) ${describeAction(action)}.`));
    frame.setAttribute("aria-label", `${id} on an iPhone, ${spec.locale}`);
    frame.setAttribute("role", "region");
    preview.dataset.locale = spec.locale;
    preview.dataset.direction = spec.direction;
    meta.textContent = [spec.kind, spec.style, `rendered in ${spec.locale}`, caption].filter(Boolean).join(" · ");
    body = frame;
  } catch (error) {
    preview.dataset.problem = String(error.status || "");
    body = h("p", { class: "problem", role: "alert", text: `alertd answered ${error.status || "nothing"}: ${error.message}` });
  }
  if (generation !== state.drawing) return;
  preview.setAttribute("aria-labelledby", headingID);
  preview.replaceChildren(heading, meta, form, body);
  if (refocus) form.querySelector("button")?.focus();
}

function say(text) {
  status.textContent = text;
}

start();
