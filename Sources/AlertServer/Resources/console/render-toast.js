// A toast (`kind: toast`): its layout tree of text, images and spacers in rows and columns on
// a grid of square cells, placed at the top, centre or bottom with its offset and size, and its
// show and hide animations playable step by step.
import { applyFont, cssColor, h, imageBox } from "./dom.js";

/** The screen the console draws, in points: an iPhone's. */
const screenSize = { width: 390, height: 844 };

export function renderToast(spec, screen) {
  const appearance = spec.appearance || {};
  const style = appearance.style || {};
  const size = appearance.size || { xRatio: 0.9, yRatio: 0.1 };
  const width = size.width ?? size.xRatio * screenSize.width;
  const height = size.height ?? size.yRatio * screenSize.height;
  const toast = h("div", { class: `toast toast-${appearance.position || "top"}`, role: "status" }, layout(spec.content, width - 24));
  toast.style.width = `${width}px`;
  toast.style.minHeight = `${height}px`;
  toast.style.backgroundColor = cssColor(style.backgroundColor) || "rgba(28, 28, 30, 0.95)";
  toast.style.borderRadius = `${style.cornerRadius ?? 12}px`;
  const offset = appearance.offset ?? 16;
  const position = appearance.position || "top";
  if (position === "top") toast.style.top = `${offset + 54}px`;
  else if (position === "bottom") toast.style.bottom = `${offset + 34}px`;
  else toast.style.top = `calc(50% - ${height / 2}px + ${offset}px)`;
  screen.append(toast);
  const animation = spec.animation || {};
  const play = h("button", { type: "button", class: "play", text: "Play show and hide", onclick: () => playToast(toast, animation) });
  screen.append(play);
  const stays = animation.transition === "manual" ? "stays until dismissed" : `hides after ${animation.duration ?? 3} s`;
  return `${position}, ${stays}`;
}

/**
 * The cells an element takes: a leaf its `size` (1 × 1 by default); a row the sum of its
 * children's widths and the tallest of them; a column the widest and the sum of heights.
 */
function cells(element) {
  const items = element?.items || [];
  if (element?.type === "beside") {
    return items.map(cells).reduce((sum, size) => ({ width: sum.width + size.width, height: Math.max(sum.height, size.height) }), { width: 0, height: 0 });
  }
  if (element?.type === "stacked") {
    return items.map(cells).reduce((sum, size) => ({ width: Math.max(sum.width, size.width), height: sum.height + size.height }), { width: 0, height: 0 });
  }
  return { width: element?.size?.width ?? 1, height: element?.size?.height ?? 1 };
}

/** The layout tree on square cells: the root row or column spans the toast's inner width. */
function layout(root, innerWidth) {
  const cell = innerWidth / Math.max(1, cells(root).width);
  const node = (element) => {
    if (!element) return null;
    let drawn;
    switch (element.type) {
      case "beside":
      case "stacked":
        drawn = h("div", { class: `toast-${element.type}` }, (element.items || []).map(node));
        break;
      case "text": {
        drawn = h("p", { class: "toast-text", "data-fit": "box", text: element.text });
        applyFont(drawn, element.font || { size: 15 });
        drawn.style.color = cssColor(element.color) || "#fff";
        drawn.style.textAlign = { leading: "start", center: "center", trailing: "end" }[element.alignment] || "start";
        const background = cssColor(element.backgroundColor);
        if (background) drawn.style.backgroundColor = background;
        break;
      }
      case "image":
        drawn = imageBox(element.image || element, "toast-image");
        break;
      default:
        drawn = h("span", { class: "toast-spacer", "aria-hidden": "true" });
    }
    // A leaf has the size of its cells (text that needs more is cut and flagged); a row or a
    // column, the size of what it holds.
    const size = cells(element);
    drawn.style.width = `${size.width * cell}px`;
    drawn.style[element.type === "beside" || element.type === "stacked" ? "minHeight" : "height"] = `${size.height * cell}px`;
    return drawn;
  };
  return node(root);
}

const curves = { linear: "linear", easeIn: "ease-in", easeOut: "ease-out", easeInOut: "ease-in-out", spring: "cubic-bezier(0.5, 1.6, 0.4, 0.8)" };
const fade = (from, to) => [{ duration: 0.3, delay: 0, curve: "easeInOut", from: { alpha: from }, to: { alpha: to } }];

function frame(state = {}) {
  const t = state.translation || {};
  return {
    opacity: state.alpha ?? 1,
    transform: `translate(${t.x || 0}px, ${t.y || 0}px) scale(${state.scale ?? 1}) rotate(${state.rotation || 0}deg)`,
  };
}

/** Runs the show steps, waits the toast's duration, then the hide steps. */
async function playToast(toast, animation) {
  const run = async (steps) => {
    for (const step of steps) {
      await toast.animate([frame(step.from), frame(step.to)], {
        duration: (step.duration ?? 0.3) * 1000, delay: (step.delay || 0) * 1000,
        easing: curves[step.curve] || "ease-in-out", fill: "forwards",
      }).finished;
    }
  };
  await run(animation.show?.length ? animation.show : fade(0, 1));
  await new Promise((resolve) => setTimeout(resolve, (animation.duration ?? 3) * 1000));
  await run(animation.hide?.length ? animation.hide : fade(1, 0));
  toast.getAnimations().forEach((running) => running.cancel());
}
