// Buttons of alerts and sheets: the order UIAlertController shows them in, and their look.
import { applyFont, cssColor, h } from "./dom.js";

/**
 * The actions in the order an iPhone shows them: two side by side with the cancel button
 * leading (left, or right in a right-to-left locale), else stacked with the cancel button last.
 * `horizontal` says whether the spec asks for a row; a row holds at most two buttons (and only
 * while their titles fit: see `stackIfCut`).
 */
export function arrangeActions(actions, layout) {
  const cancel = actions.filter((action) => action.role === "cancel");
  const others = actions.filter((action) => action.role !== "cancel");
  const horizontal = layout !== "vertical" && actions.length <= 2;
  return { horizontal, ordered: horizontal ? [...cancel, ...others] : [...others, ...cancel] };
}

/**
 * Once the buttons are in the page: a row whose titles do not fit side by side is stacked,
 * the cancel button last, as UIKit stacks them.
 */
export function stackIfCut(screen) {
  for (const row of screen.querySelectorAll(".actions.horizontal")) {
    const buttons = [...row.children];
    if (!buttons.some((button) => button.scrollWidth > button.clientWidth + 1)) continue;
    row.classList.replace("horizontal", "vertical");
    const cancel = buttons.filter((button) => button.dataset.role === "cancel");
    row.replaceChildren(...buttons.filter((button) => button.dataset.role !== "cancel"), ...cancel);
  }
}

/** What tapping a button does, in words, for the status line. */
export function describeAction(action) {
  const what = action.action || { type: "dismiss" };
  switch (what.type) {
    case "event": return `reports the event ${what.name}`;
    case "openURL": return `opens ${what.url}`;
    case "requestPermission": return `asks for the ${what.permission} permission`;
    case "next": return `queues ${what.alert} next`;
    default: return "dismisses";
  }
}

/** One button: its label, its role's look (primary semibold, destructive red), its own appearance. */
export function actionButton(action, onTap) {
  const button = h("button", {
    type: "button",
    class: `action role-${action.role || "default"}`,
    "data-role": action.role || "default",
    "data-action-id": action.id,
    "data-fit": "line",
    text: action.label,
    onclick: () => onTap?.(action),
  });
  const look = action.appearance || {};
  applyFont(button, look.font);
  const color = cssColor(look.color);
  if (color && action.role !== "destructive") button.style.color = color;
  const background = cssColor(look.backgroundColor);
  if (background) button.style.backgroundColor = background;
  if (look.borderWidth) {
    button.style.border = `${look.borderWidth}px solid ${cssColor(look.borderColor) || "transparent"}`;
  }
  if (look.cornerRadius) button.style.borderRadius = `${look.cornerRadius}px`;
  return button;
}
