// An action sheet (`kind: sheet`) as an iPhone shows it: the title and message small and grey
// above the options, the cancel button apart at the bottom, all over a dimmed screen.
import { actionButton } from "./buttons.js";
import { h, uid } from "./dom.js";

export function renderSheet(spec, screen, onTap) {
  const titleID = uid("title");
  const messageID = uid("message");
  const group = h("div", { class: "sheet-group" });
  if (spec.title || spec.message) {
    group.append(h("div", { class: "sheet-header" },
      spec.title ? h("h4", { id: titleID, class: "title", text: spec.title }) : null,
      spec.message ? h("p", { id: messageID, class: "message", text: spec.message }) : null));
  }
  for (const option of spec.options || []) group.append(actionButton(option, onTap));
  const sheet = h("div", {
    class: "sheet appear-slide",
    "data-fit": "screen",
    role: "group",
    "aria-roledescription": "action sheet",
    "aria-labelledby": spec.title ? titleID : undefined,
    "aria-describedby": spec.message ? messageID : undefined,
  }, group);
  if (spec.cancel) sheet.append(h("div", { class: "sheet-group sheet-cancel" }, actionButton(spec.cancel, onTap)));
  screen.append(h("div", { class: "mask" }), sheet);
}
