// One spec drawn on an iPhone-sized screen, by kind. Each renderer appends to the screen and
// may return a caption (what the picture cannot show: when a HUD hides, where a toast sits).
import { h } from "./dom.js";
import { renderAlert } from "./render-alert.js";
import { renderCard } from "./render-card.js";
import { renderHUD } from "./render-hud.js";
import { renderSheet } from "./render-sheet.js";
import { renderToast } from "./render-toast.js";

const renderers = { alert: renderAlert, sheet: renderSheet, hud: renderHUD, toast: renderToast, card: renderCard };

/**
 * A device showing `spec`: `dir` and `lang` from the spec, so a right-to-left locale mirrors
 * the layout as iOS does. `onTap(action)` hears the buttons; `points` is the size of a text
 * point in CSS pixels (1, or more for a larger text size).
 */
export function device(spec, onTap, points = 1) {
  const screen = h("div", { class: "screen" },
    h("div", { class: "status-bar", "aria-hidden": "true" }, h("span", { text: "9:41" }), h("span", { class: "notch" })),
    h("div", { class: "app-content", "aria-hidden": "true" }, h("span"), h("span"), h("span")));
  const render = renderers[spec.kind];
  const caption = render ? render(spec, screen, onTap) : null;
  if (!render) screen.append(h("p", { class: "unknown", text: `alertd's console cannot draw a ${spec.kind}.` }));
  const frame = h("div", { class: "device", dir: spec.direction === "rtl" ? "rtl" : "ltr", lang: spec.locale === "und" ? undefined : spec.locale }, screen);
  frame.style.setProperty("--pt", `${points}px`);
  return { frame, screen, caption };
}
