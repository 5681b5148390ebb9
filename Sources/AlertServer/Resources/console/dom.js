// Small DOM and style helpers shared by the renderers. Styles are set through the CSSOM
// (element.style), which the Content-Security-Policy allows; never through style attributes.

/** An element: `h("p", {class: "x", text: "…"}, child, …)`. `on*` members add listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") element.textContent = value;
    else if (name === "class") element.className = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) element.append(child);
  }
  return element;
}

/** `#RRGGBB` or `#RRGGBBAA` as a CSS colour; undefined for anything else. */
export function cssColor(hex) {
  const match = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex || "");
  if (!match) return undefined;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(match[1].slice(i, i + 2), 16));
  const alpha = match[2] === undefined ? 1 : parseInt(match[2], 16) / 255;
  return `rgba(${r}, ${g}, ${b}, ${Math.round(alpha * 1000) / 1000})`;
}

const weights = { regular: 400, medium: 500, semibold: 600, bold: 700 };

/** A spec font (`size` points, `weight`, optional `family`) on `element`. */
export function applyFont(element, font) {
  if (!font) return;
  if (font.size) element.style.fontSize = `calc(var(--pt, 1px) * ${font.size})`;
  if (font.weight) element.style.fontWeight = String(weights[font.weight] || 400);
  if (font.family) element.style.fontFamily = `"${font.family}", system-ui, sans-serif`;
}

/** A spec text style (`font`, `color`, `alignment`) on `element`; leading and trailing follow the direction. */
export function applyTextStyle(element, style) {
  if (!style) return;
  applyFont(element, style.font);
  const color = cssColor(style.color);
  if (color) element.style.color = color;
  if (style.alignment) element.style.textAlign = { leading: "start", center: "center", trailing: "end" }[style.alignment] || "start";
}

/** A spec image as the console can show it without fetching anything: a tinted, labelled box. */
export function imageBox(image, className) {
  if (!image) return null;
  const name = image.asset ? `asset ${image.asset}` : `image from ${hostOf(image.url)}`;
  const box = h("div", { class: `image ${className || ""}`, role: "img", "aria-label": `Image: ${name}` },
    h("span", { class: "image-name", text: image.asset || hostOf(image.url) }));
  const tint = cssColor(image.tint);
  if (tint) box.style.setProperty("--tint", tint);
  return box;
}

function hostOf(url) {
  try { return new URL(url).host || url; } catch { return url; }
}

/** A short, unique id for aria references. */
let counter = 0;
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}
