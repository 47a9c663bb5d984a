// Building the page without HTML strings: every text goes in as a text node (textContent), so nothing the API
// answers (a link's name, a customer's e-mail) can ever become markup or script.

/**
 * An element: h("a", {href: "/x", class: "button", on: {click}}, "text", child).
 * props: class, text, on ({event: handler}), dataset, hidden, and any other attribute by name (booleans: present or
 * absent). Children: strings (as text), nodes, null/false (skipped) and arrays of those.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name === "class") {
      element.className = value;
    } else if (name === "text") {
      element.textContent = value;
    } else if (name === "on") {
      for (const [event, handler] of Object.entries(value)) {
        element.addEventListener(event, handler);
      }
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else if (name === "value") {
      element.value = value;
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(parent, child);
    } else if (child instanceof Node) {
      parent.appendChild(child);
    } else {
      parent.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Replaces an element's content. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

let fieldIds = 0;

/**
 * A labelled form control with room for its error: {row, input, error}. options: type, value, required, hint,
 * choices ([value, label] for a select), rows (a textarea), autocomplete, and any attribute for the control.
 */
export function field(name, label, options = {}) {
  const id = `field-${name}-${++fieldIds}`;
  const { type = "text", choices, rows, hint, value, ...attributes } = options;
  const errorId = `${id}-error`;
  const hintId = hint ? `${id}-hint` : null;
  let input;
  if (choices) {
    input = h("select", { id, name, ...attributes },
      choices.map(([choice, text]) => h("option", { value: choice, selected: choice === (value ?? "") }, text)));
  } else if (rows) {
    input = h("textarea", { id, name, rows, ...attributes });
    input.value = value ?? "";
  } else {
    input = h("input", { id, name, type, ...attributes });
    if (value !== undefined && value !== null && type !== "file") {
      input.value = value;
    }
  }
  input.setAttribute("aria-describedby", [hintId, errorId].filter(Boolean).join(" "));
  const error = h("p", { id: errorId, class: "field-error", dataset: { errorFor: name } });
  const row = h("div", { class: "field", dataset: { field: name } },
    h("label", { for: id }, label),
    hint ? h("p", { id: hintId, class: "hint" }, hint) : null,
    input,
    error);
  return { row, input, error };
}

/**
 * Shows an API error on a form: each rejected field's message next to the control of that name (marked invalid),
 * the rest (and the message, when no field matched) in the form's summary. Answers the first invalid control.
 */
export function showErrors(form, summary, apiError) {
  clearErrors(form, summary);
  let first = null;
  const unplaced = [];
  for (const error of apiError.errors ?? []) {
    const slot = form.querySelector(`[data-error-for="${CSS.escape(error.field)}"]`);
    const control = form.querySelector(`[name="${CSS.escape(error.field)}"]`);
    if (slot && control) {
      slot.textContent = error.message;
      control.setAttribute("aria-invalid", "true");
      first ??= control;
    } else {
      unplaced.push(`${error.field}: ${error.message}`);
    }
  }
  if (!first || unplaced.length) {
    fill(summary,
      h("p", {}, first ? "Some values were refused:" : apiError.message),
      unplaced.length ? h("ul", {}, unplaced.map((text) => h("li", {}, text))) : null,
      apiError.requestId ? h("p", { class: "hint" }, `Request id: ${apiError.requestId}`) : null);
    summary.hidden = false;
  }
  return first;
}

export function clearErrors(form, summary) {
  form.querySelectorAll("[data-error-for]").forEach((slot) => { slot.textContent = ""; });
  form.querySelectorAll("[aria-invalid]").forEach((control) => control.removeAttribute("aria-invalid"));
  summary.replaceChildren();
  summary.hidden = true;
}

/** A message box: kind "error", "success" or "info". */
export function notice(kind, ...children) {
  return h("div", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, ...children);
}

/** A table with a caption, headers ("" for a column of buttons) and rows of cells (strings or nodes). */
export function table(caption, headers, rows, { captionHidden = false } = {}) {
  return h("div", { class: "table-wrap" },
    h("table", {},
      h("caption", { class: captionHidden ? "visually-hidden" : null }, caption),
      h("thead", {}, h("tr", {}, headers.map((header) => h("th", { scope: "col" },
        header || h("span", { class: "visually-hidden" }, "Actions"))))),
      h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell, i) =>
        h("td", { dataset: { label: headers[i] } }, cell)))))));
}

/** Offers text as a file to save, without it ever leaving the browser. */
export function download(filename, text, type = "application/x-pem-file") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Copies text to the clipboard; answers whether it worked. */
export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
