// The gallery: every alert of every catalog, rendered from the spec an app receives, in the
// locale picked (the catalogs' locales and the pseudo-locales), or one alert in all its
// catalog's locales side by side. The choice lives in the URL (`?locale=ar&kind=alert`,
// `?compare=app/questionExit`), so a view can be linked and reloaded.
import * as api from "./api.js";
import { describeAction, stackIfCut } from "./buttons.js";
import { h } from "./dom.js";
import { overflowing, textSizes } from "./overflow.js";
import { parameterForm } from "./parameters.js";
import { device } from "./render.js";

const gallery = document.getElementById("gallery");
const status = document.getElementById("status");
const localePicker = document.getElementById("locale");
const kindPicker = document.getElementById("kind");
const sizePicker = document.getElementById("size");

// `drawing` counts the gallery's draws: a preview answered after a newer draw began is dropped.
const state = { catalogs: [], locale: "", kind: "", size: "default", compare: "", drawing: 0 };

async function start() {
  const query = new URLSearchParams(location.search);
  state.kind = query.get("kind") || "";
  state.compare = query.get("compare") || "";
  state.size = textSizes[query.get("size")] ? query.get("size") : "default";
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
  sizePicker.value = state.size;
  localePicker.addEventListener("change", () => choose({ locale: localePicker.value }));
  kindPicker.addEventListener("change", () => choose({ kind: kindPicker.value }));
  sizePicker.addEventListener("change", () => choose({ size: sizePicker.value, compare: state.compare }));
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

/** A new choice of locale, kind or alert to compare, kept in the URL. */
function choose(change) {
  Object.assign(state, { compare: "" }, change);
  history.replaceState(null, "", `?${galleryQuery()}`);
  draw();
}

function galleryQuery(compare = state.compare) {
  const query = new URLSearchParams();
  if (state.locale) query.set("locale", state.locale);
  if (state.kind) query.set("kind", state.kind);
  if (state.size !== "default") query.set("size", state.size);
  if (compare) query.set("compare", compare);
  return query;
}

/** The whole gallery for the current choice; each alert fetched on its own, in parallel. */
async function draw() {
  if (state.compare) return drawComparison();
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
      drawn.push(drawPreview(preview, catalog, alert, state.locale, { ...alert.example }));
    }
  }
  await finish(generation, drawn, `${drawn.length} alerts in ${state.locale}.`);
}

/** One alert in every locale of its catalog, then its pseudo-locales, side by side. */
async function drawComparison() {
  const generation = ++state.drawing;
  gallery.setAttribute("aria-busy", "true");
  const [name, type] = state.compare.split("/");
  const catalog = state.catalogs.find((entry) => entry.name === name);
  const alert = catalog?.alerts.find((entry) => entry.type === type);
  const back = h("a", { href: `?${galleryQuery("")}`, text: "Back to the gallery" });
  if (!alert) {
    gallery.replaceChildren(back, h("p", { class: "problem", role: "alert", text: `There is no alert ${state.compare}.` }));
    gallery.setAttribute("aria-busy", "false");
    return;
  }
  const grid = h("div", { class: "grid" });
  gallery.replaceChildren(h("section", { class: "catalog", "aria-labelledby": "comparison" },
    h("h2", { id: "comparison", text: `${state.compare} in every locale` }), back, grid));
  const locales = [...catalog.locales, ...(catalog.pseudoLocales || [])];
  const drawn = locales.map((locale) => {
    const preview = h("article", { class: "preview", "data-alert": state.compare, "data-kind": alert.kind, "data-asked": locale });
    grid.append(preview);
    return drawPreview(preview, catalog, alert, locale, { ...alert.example });
  });
  await finish(generation, drawn, `${state.compare} in ${locales.length} locales.`);
}

async function finish(generation, drawn, summary) {
  await Promise.all(drawn);
  if (generation !== state.drawing) return;
  gallery.setAttribute("aria-busy", "false");
  say(summary);
}

/**
 * One alert: its name, its parameters (editable), and the device showing its spec. Drawn
 * again from its form, it gives the keyboard's focus back to the form's button.
 */
async function drawPreview(preview, catalog, alert, locale, params, refocus = false) {
  const generation = state.drawing;
  const id = `${catalog.name}/${alert.type}`;
  const headingID = `alert-${catalog.name}-${alert.type}-${locale}`;
  const heading = h("h3", { id: headingID, text: state.compare ? locale : id });
  const compare = state.compare ? null : h("a", { class: "compare", href: `?${galleryQuery(id)}`, text: "Every locale", "aria-label": `${id} in every locale` });
  const enqueue = h("a", { class: "compare", href: `/console/session?${new URLSearchParams({ alert: id })}`, text: "Enqueue", "aria-label": `Enqueue ${id} to a session` });
  const meta = h("p", { class: "meta" });
  const form = parameterForm(alert, params, (changed) => drawPreview(preview, catalog, alert, locale, changed, true));
  let body;
  let measure;
  try {
    const spec = await api.render(catalog.name, alert.type, locale, params);
    const { frame, screen, caption } = device(
      spec, (action) => say(`${id}: “${action.label}” (${action.id}, ${action.role || "default"}) ${describeAction(action)}.`),
      textSizes[state.size].points);
    measure = screen;
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
  preview.replaceChildren(h("div", { class: "preview-head" }, heading, compare, enqueue), meta, form, body);
  if (measure) {
    stackIfCut(measure);
    flagOverflow(preview, measure, body);
  }
  if (refocus) form.querySelector("button")?.focus();
}

/** Marks the texts that do not fit, and says which above the device. */
function flagOverflow(preview, screen, device) {
  const cut = overflowing(screen);
  preview.dataset.overflow = String(cut.length);
  if (!cut.length) return;
  for (const element of cut) element.classList.add("overflowing");
  const texts = cut.map((element) => element.dataset.fit === "screen"
    ? "the popup, taller than the screen" : `“${element.textContent.trim().slice(0, 80)}”`).join(", ");
  preview.insertBefore(h("p", { class: "overflow-flag", role: "note", text: `Does not fit at ${textSizes[state.size].name}: ${texts}` }), device);
}

function say(text) {
  status.textContent = text;
}

start();
