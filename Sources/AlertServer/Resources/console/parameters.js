// An alert's parameters as a small form, filled with the catalog's example; submitting it
// renders the alert again with the values typed.
import { h, uid } from "./dom.js";

const inputTypes = { integer: "number", number: "number", boolean: "checkbox", string: "text" };

export function parameterForm(alert, values, onChange) {
  const parameters = alert.parameters || [];
  if (!parameters.length) return h("div", { class: "parameters empty" });
  const form = h("form", { class: "parameters", "aria-label": `Parameters of ${alert.type}` });
  for (const parameter of parameters) {
    const id = uid("param");
    const type = inputTypes[parameter.type] || "text";
    const input = h("input", {
      id, name: parameter.name, type,
      step: parameter.type === "number" ? "any" : undefined,
      required: parameter.required,
    });
    if (type === "checkbox") input.checked = values[parameter.name] === true;
    else input.value = values[parameter.name] ?? "";
    form.append(h("label", { for: id, text: parameter.name }), input);
  }
  form.append(h("button", { type: "submit", text: "Render" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const changed = {};
    for (const parameter of parameters) {
      const input = form.elements.namedItem(parameter.name);
      if (input.type === "checkbox") changed[parameter.name] = input.checked;
      else if (input.value !== "" || parameter.required) changed[parameter.name] = input.value;
    }
    onChange(changed);
  });
  return form;
}
