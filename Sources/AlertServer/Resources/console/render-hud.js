// A HUD (`kind: hud`): a square over the content, without a mask: a spinner or a progress bar
// while in progress, a check mark on success, a cross on failure.
import { h } from "./dom.js";

const icons = { success: "✓", failed: "✕" };
const names = { progress: "In progress", success: "Succeeded", failed: "Failed" };

export function renderHUD(spec, screen) {
  const state = spec.state || "progress";
  const hud = h("div", { class: `hud hud-${state} appear-fade`, role: "status", "aria-label": names[state] });
  if (state === "progress" && typeof spec.progress === "number") {
    hud.append(h("progress", { class: "hud-progress", max: "1", value: String(spec.progress), "aria-label": `${Math.round(spec.progress * 100)}%` }));
  } else if (state === "progress") {
    hud.append(h("span", { class: "spinner", "aria-hidden": "true" }));
  } else {
    hud.append(h("span", { class: "hud-icon", "aria-hidden": "true", text: icons[state] }));
  }
  if (spec.text) hud.append(h("p", { class: "hud-text", text: spec.text }));
  const hides = spec.autoHide ? `hides itself after ${spec.autoHide} s` : "stays until a newer HUD replaces it";
  screen.append(h("div", { class: "center" }, hud));
  return `${state}, ${hides}`;
}
