import type { FieldChange } from './field-diff.js';

/**
 * `change_options.watch`: did one of the watched values change? A watched pointer names a value
 * or a whole object (`/product` watches every product field; `/product_list/products` every
 * listed product, added and removed ones included). No watch list: every change counts.
 */
export function watchedChanged(fields: Record<string, FieldChange> | null, watch: readonly string[] | undefined): boolean {
  if (!watch?.length) return true;
  if (!fields) return false;
  const changed = Object.keys(fields);
  return watch.some((w) => changed.some((p) => p === w || p.startsWith(`${w}/`) || w.startsWith(`${p}/`)));
}
