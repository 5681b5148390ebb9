// Text that does not fit where the device puts it: a one-line label wider than its button
// (`data-fit="line"`), a toast's text larger than its cells (`box`), a popup taller than the
// screen (`screen`). Measured once the preview is in the page, at the text size chosen.

/** The elements of `screen` whose text does not fit. */
export function overflowing(screen) {
  const found = [];
  for (const element of screen.querySelectorAll("[data-fit]")) {
    const fits = element.dataset.fit === "screen"
      ? element.offsetHeight <= screen.clientHeight
      : element.scrollWidth <= element.clientWidth + 1 && element.scrollHeight <= element.clientHeight + 1;
    if (!fits) found.push(element);
  }
  return found;
}

/** The text sizes the gallery draws at: the default, and iOS's largest accessibility size. */
export const textSizes = {
  default: { points: 1, name: "the default text size" },
  ax5: { points: 53 / 17, name: "the largest accessibility text size" },
};
