/**
 * linkedom has no selection state for `<select>` (its `value` is undefined and setting an
 * option's `selected` does nothing): give it the browser's behaviour, as far as the console's
 * forms use it, so that their Default/On/Off and enum choices are tested as a browser runs them.
 * The selection is kept in the `selected` attribute (one option at a time, the first by default).
 */
export function installSelectSemantics(window: { HTMLSelectElement: { prototype: object }; HTMLOptionElement: { prototype: object } }): void {
  type El = Element & { querySelectorAll(s: string): NodeListOf<Element> };
  const optionsOf = (sel: El) => Array.from(sel.querySelectorAll('option'));
  Object.defineProperty(window.HTMLSelectElement.prototype, 'value', {
    configurable: true,
    get(this: El) {
      const opts = optionsOf(this);
      const o = opts.find((x) => x.hasAttribute('selected')) ?? opts[0];
      return o ? (o.getAttribute('value') ?? o.textContent ?? '') : '';
    },
    set(this: El, v: unknown) {
      for (const o of optionsOf(this)) o.toggleAttribute('selected', o.getAttribute('value') === String(v));
    },
  });
  Object.defineProperty(window.HTMLOptionElement.prototype, 'selected', {
    configurable: true,
    get(this: Element) {
      return this.hasAttribute('selected');
    },
    set(this: Element, v: unknown) {
      if (v) for (const o of optionsOf(this.closest('select') as El)) o.removeAttribute('selected');
      this.toggleAttribute('selected', Boolean(v));
    },
  });
}
