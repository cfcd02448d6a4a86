/**
 * What a shopper did in a section's server HTML before its code arrived, done again on the working
 * section (see loaded-when-near.tsx): loaded with the section's code, only when it is needed.
 */

/** A plain press on a control, or a submit, held back until the section works. */
export interface Held {
  kind: 'click' | 'submit';
  target: Element;
}

interface Field {
  index: number;
  value: string;
  checked: boolean;
}

/** Read from the server's HTML just before it is replaced. */
export interface Carried {
  fields: Field[];
  focus: { path: number[]; selection: [number, number] | null } | null;
  held: { kind: Held['kind']; path: number[] } | null;
}

const fieldSelector = 'input, textarea, select';

function isToggle(field: Element): field is HTMLInputElement {
  return field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
}

/** What the shopper changed: fields by their order, focus and held actions by element path. */
export function carry(container: Element, held: Held | null): Carried {
  const fields: Field[] = [];
  container.querySelectorAll(fieldSelector).forEach((field, index) => {
    if (isToggle(field)) {
      if (field.checked !== field.defaultChecked) fields.push({ index, value: field.value, checked: field.checked });
    } else if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) {
      if (field.value !== field.defaultValue) fields.push({ index, value: field.value, checked: false });
    } else if (field instanceof HTMLSelectElement) {
      const chosen = field.selectedOptions[0];
      if (chosen && !chosen.defaultSelected) fields.push({ index, value: field.value, checked: false });
    }
  });
  const active = document.activeElement;
  const focusPath = active ? pathOf(container, active) : null;
  const selection = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement ? selectionOf(active) : null;
  const heldPath = held && pathOf(container, held.target);
  return { fields, focus: focusPath ? { path: focusPath, selection } : null, held: held && heldPath ? { kind: held.kind, path: heldPath } : null };
}

function selectionOf(field: HTMLInputElement | HTMLTextAreaElement): [number, number] | null {
  try {
    return field.selectionStart === null || field.selectionEnd === null ? null : [field.selectionStart, field.selectionEnd];
  } catch {
    // Inputs such as email have no selection to read.
    return null;
  }
}

/** The same changes on the working section, through the events React listens to. */
export function carryInto(container: Element, from: Carried): void {
  const fields = container.querySelectorAll(fieldSelector);
  for (const { index, value, checked } of from.fields) {
    const field = fields[index];
    if (field && isToggle(field)) {
      if (field.checked !== checked) field.click();
    } else if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement) {
      // React keeps its own record of a field's value: the prototype's setter goes around it, so
      // the event below reads as a change.
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set?.call(field, value);
      field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    }
  }
  const focused = from.focus && elementAt(container, from.focus.path);
  if (from.focus && focused instanceof HTMLElement) {
    focused.focus({ preventScroll: true });
    if (from.focus.selection && (focused instanceof HTMLInputElement || focused instanceof HTMLTextAreaElement)) {
      try {
        focused.setSelectionRange(...from.focus.selection);
      } catch {
        // As above: not every input has a selection.
      }
    }
  }
  // After React has drawn the carried values: a submit done now would still read the old ones.
  const { held } = from;
  if (held) {
    setTimeout(() => {
      const target = elementAt(container, held.path);
      if (held.kind === 'submit' && target instanceof HTMLFormElement) target.requestSubmit();
      else if (target instanceof HTMLElement) target.click();
    });
  }
}

/**
 * Child-element indexes from the container down to the element, or null outside it. The server's
 * HTML and React's own drawing differ in text and comment nodes, never in elements.
 */
function pathOf(container: Element, element: Element): number[] | null {
  const path: number[] = [];
  for (let at = element; at !== container; ) {
    const parent = at.parentElement;
    if (!parent) return null;
    path.unshift(Array.prototype.indexOf.call(parent.children, at) as number);
    at = parent;
  }
  return path;
}

function elementAt(container: Element, path: number[]): Element | null {
  let at: Element | null = container;
  for (const index of path) at = at?.children[index] ?? null;
  return at;
}
