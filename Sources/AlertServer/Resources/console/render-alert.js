// An alert dialog (`kind: alert`) as an iPhone shows it: UIAlertController's box, 270 points
// wide (`large` style wider, for its image), over the spec's mask.
import { actionButton, arrangeActions } from "./buttons.js";
import { applyTextStyle, cssColor, h, imageBox, uid } from "./dom.js";

const inputTypes = { email: "email", number: "text", phone: "tel", url: "url", default: "text" };

export function renderAlert(spec, screen, onTap) {
  const presentation = spec.presentation || {};
  const appearance = spec.appearance || {};
  const spacing = presentation.spacing || {};
  const mask = h("div", { class: "mask" });
  mask.style.backgroundColor = cssColor(presentation.maskColor) || "rgba(0, 0, 0, 0.4)";

  const titleID = uid("title");
  const messageID = uid("message");
  const box = h("div", {
    class: `dialog style-${spec.style || "dialog"} header-${presentation.headerLayout || "vertical"}`,
    "data-fit": "screen",
    role: "group",
    "aria-roledescription": "alert dialog",
    "aria-labelledby": spec.title ? titleID : undefined,
    "aria-describedby": spec.message ? messageID : undefined,
  });
  box.style.backgroundColor = cssColor(appearance.backgroundColor) || "#fff";
  box.style.borderRadius = `${appearance.cornerRadius ?? 14}px`;
  if (appearance.borderWidth) box.style.border = `${appearance.borderWidth}px solid ${cssColor(appearance.borderColor)}`;
  const offset = appearance.offset || {};
  if (offset.x || offset.y) box.style.translate = `${offset.x || 0}px ${offset.y || 0}px`;

  const content = h("div", { class: "dialog-content" });
  const inset = spacing.contentInset ?? 16;
  content.style.padding = `${inset}px ${inset}px ${spacing.messageToActions ?? 16}px`;
  const header = h("div", { class: "dialog-header" });
  const image = imageBox(spec.image, spec.style === "large" ? "image-large" : "image-icon");
  if (image) header.append(image);
  const texts = h("div", { class: "dialog-texts" });
  if (spec.title) {
    const title = h("h4", { id: titleID, class: "title", text: spec.title });
    applyTextStyle(title, appearance.title);
    texts.append(title);
  }
  if (spec.message) {
    const message = h("p", { id: messageID, class: "message", text: spec.message });
    applyTextStyle(message, appearance.message);
    if (spec.title) message.style.marginTop = `${spacing.titleToMessage ?? 8}px`;
    texts.append(message);
  }
  header.append(texts);
  content.append(header);
  if (spec.input) content.append(inputField(spec.input));
  box.append(content);

  const { horizontal, ordered } = arrangeActions(spec.actions || [], presentation.actionsLayout);
  const actions = h("div", { class: `actions ${horizontal ? "horizontal" : "vertical"}` },
    ordered.map((action) => actionButton(action, onTap)));
  actions.style.setProperty("--between", `${spacing.betweenActions ?? 8}px`);
  box.append(actions);

  const animation = presentation.animation === "fade" ? "fade" : "scale";
  box.classList.add(`appear-${animation}`);
  box.style.animationDuration = `${presentation.animationDuration ?? 0.25}s`;
  screen.append(mask, h("div", { class: "center" }, box));
}

/** The text field under the message, typed by its keyboard; a secure one masks what is typed. */
function inputField(input) {
  const field = h("input", {
    class: "input",
    type: input.secure ? "password" : inputTypes[input.keyboard] || "text",
    inputmode: input.keyboard === "number" ? "numeric" : undefined,
    placeholder: input.placeholder || "",
    "aria-label": input.placeholder || "Text field",
    autocomplete: "off",
  });
  return field;
}
