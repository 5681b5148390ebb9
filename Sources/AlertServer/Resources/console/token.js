// The admin token: asked for once, kept in this tab's sessionStorage only (never a cookie, so a
// page of another site cannot make the browser send it), and forgotten on demand or when the
// API says it is not valid.
const key = "alertd.adminToken";

export function adminToken() {
  return sessionStorage.getItem(key) || "";
}

/**
 * Wires the token's form: `form` asks for it, `forget` drops it, `onChange(has)` hears each
 * change. The field is emptied once kept, so the token is never left in the page.
 */
export function tokenControls(form, forget, onChange) {
  const field = form.elements.namedItem("token");
  const show = () => {
    const has = adminToken() !== "";
    form.hidden = has;
    forget.hidden = !has;
    onChange(has);
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const token = field.value.trim();
    if (!token) return;
    sessionStorage.setItem(key, token);
    field.value = "";
    show();
  });
  forget.addEventListener("click", () => {
    sessionStorage.removeItem(key);
    show();
    field.focus();
  });
  show();
  return {
    /** After a 401: the token kept is not valid; ask again. */
    refused() {
      sessionStorage.removeItem(key);
      show();
      field.focus();
    },
  };
}
