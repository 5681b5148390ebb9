// A card flow (`kind: card`): a bottom card per page over its background, the action button
// filled, the alternative one plain. Tapping follows `next`; a button that `showsActivity`
// shows the indicator first, as the app does while it works; the flow's end says so.
import { cssColor, h, imageBox, uid } from "./dom.js";

const backgrounds = ["dimming", "blurredLight", "blurredExtraLight", "blurredDark", "none"];

export function renderCard(spec, screen, onTap) {
  const pages = new Map((spec.pages || []).map((page) => [page.id, page]));
  const colors = spec.appearance || {};
  const background = backgrounds.includes(spec.background) ? spec.background : "dimming";
  const layer = h("div", { class: `card-background card-${background}` });
  const holder = h("div", { class: "card-holder" });
  screen.append(layer, holder);

  const show = (id) => {
    holder.replaceChildren();
    const page = pages.get(id);
    if (!page) {
      holder.append(h("div", { class: "card card-end" },
        h("p", { text: "The flow has ended." }),
        h("button", { type: "button", class: "card-restart", text: "Start again", onclick: () => show(spec.start) })));
      holder.querySelector("button").focus();
      return;
    }
    holder.append(card(page, [...pages.keys()].indexOf(id), pages.size, colors, (button, suffix) => {
      onTap?.({ id: `${page.id}.${suffix}`, label: button.title, role: suffix === "action" ? "primary" : "default", action: button.action });
      if (!button.showsActivity) return show(page.next);
      holder.replaceChildren(h("div", { class: "card-activity", role: "status", "aria-label": "Working" }, h("span", { class: "spinner" })));
      setTimeout(() => show(page.next), 900);
    }, () => show(undefined)));
  };
  show(spec.start || spec.pages?.[0]?.id);
  return `${pages.size} page${pages.size === 1 ? "" : "s"}, ${background} background`;
}

function card(page, index, count, colors, onButton, onDismiss) {
  const titleID = uid("title");
  const element = h("div", { class: "card appear-slide", "data-fit": "screen", role: "group", "aria-roledescription": "card", "aria-labelledby": titleID });
  const tint = cssColor(colors.tintColor);
  if (tint) element.style.setProperty("--tint", tint);
  element.append(h("div", { class: "card-top" },
    pageDots(index, count),
    page.dismissable === false ? null : h("button", { type: "button", class: "card-close", "aria-label": "Dismiss the card", text: "✕", onclick: onDismiss })));
  const image = imageBox(page.image, "card-image");
  if (image) element.append(image);
  const title = h("h4", { id: titleID, class: "title", text: page.title });
  title.style.color = cssColor(colors.titleColor) || "#000";
  element.append(title);
  if (page.description) element.append(h("p", { class: "message", text: page.description }));
  if (page.actionButton) {
    const button = h("button", { type: "button", class: "card-action", "data-role": "primary", "data-fit": "line", text: page.actionButton.title, onclick: () => onButton(page.actionButton, "action") });
    button.style.backgroundColor = cssColor(colors.actionButtonColor) || "#007aff";
    button.style.color = cssColor(colors.actionButtonTitleColor) || "#fff";
    element.append(button);
  }
  if (page.alternativeButton) {
    const button = h("button", { type: "button", class: "card-alternative", "data-role": "default", "data-fit": "line", text: page.alternativeButton.title, onclick: () => onButton(page.alternativeButton, "alternative") });
    button.style.color = cssColor(colors.alternativeButtonTitleColor) || "#007aff";
    element.append(button);
  }
  return element;
}

/** The page indicator: a dot a page, the current one filled; it mirrors with the layout. */
function pageDots(index, count) {
  return h("span", { class: "card-dots", role: "img", "aria-label": `Page ${index + 1} of ${count}` },
    Array.from({ length: count }, (_, page) => h("span", { class: page === index ? "dot current" : "dot" })));
}
