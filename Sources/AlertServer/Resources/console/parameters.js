// An alert's parameters as form fields, filled with the catalog's example: the gallery's small
// form renders the alert again with the values typed, the operator view enqueues with them.
import { h, uid } from "./dom.js";

const inputTypes = { integer: "number", number: "number", boolean: "checkbox", string: "text" };

/** A label and a field per parameter of `alert`, filled with `values`. */
export function parameterFields(alert, values) {
  return (alert.parameters || []).flatMap((parameter) => {
    const id = uid("param");
    const type = inputTypes[parameter.type] || "text";
    const input = h("input", {
      id, name: parameter.name, type,
      step: parameter.type === "number" ? "any" : undefined,
      required: parameter.required,
    });
    if (type === "checkbox") input.checked = values[parameter.name] === true;
    else input.value = values[parameter.name] ?? "";
    return [h("label", { for: id, text: parameter.name }), input];
  });
}

/**
 * The values of `alert`'s parameters in `container`'s fields; an empty optional one is left out. With
 * `typed`, numbers are sent as JSON numbers (what an enqueue's `params` takes), else as typed.
 */
export function parameterValues(alert, container, typed = false) {
  const values = {};
  for (const parameter of alert.parameters || []) {
    const input = container.querySelector(`input[name="${CSS.escape(parameter.name)}"]`);
    if (input.type === "checkbox") values[parameter.name] = input.checked;
    else if (input.value !== "" || parameter.required) {
      const number = Number(input.value);
      const numeric = typed && input.type === "number" && input.value !== "" && Number.isFinite(number);
      values[parameter.name] = numeric ? number : input.value;
    }
  }
  return values;
}

/** The gallery's form: the fields and a button that renders the alert again with them. */
export function parameterForm(alert, values, onChange) {
  if (!(alert.parameters || []).length) return h("div", { class: "parameters empty" });
  const form = h("form", { class: "parameters", "aria-label": `Parameters of ${alert.type}` },
    parameterFields(alert, values), h("button", { type: "submit", text: "Render" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onChange(parameterValues(alert, form));
  });
  return form;
}
