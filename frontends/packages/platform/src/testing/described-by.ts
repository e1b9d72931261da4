/** The texts that describe an element (its aria-describedby), in order: a field's hint and error. */
export const describedBy = (element: Element): (string | null | undefined)[] =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);
