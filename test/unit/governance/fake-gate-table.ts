import { ConditionFailedError } from '../../../functions/core/errors.js';
import type { Condition, Item, Key } from '../../../functions/ports/table.js';
import type { GateTable } from '../../../functions/core/governance/politeness.js';

/**
 * In-memory stand-in for the two Table operations HostGate uses. Supports exactly the conditions
 * the gate writes (`attribute_not_exists(pk)` and `#name = :value`) and throws on anything else,
 * so a new condition in the gate cannot silently pass here.
 */
export class FakeGateTable implements GateTable {
  readonly items = new Map<string, Item>();
  writes = 0;
  /** Called before each put is applied; lets a test interleave a competing write. */
  beforePut?: () => Promise<void> | void;

  async get<T extends Item = Item>(key: Key): Promise<T | undefined> {
    const item = this.items.get(`${key.pk}|${key.sk}`);
    return item ? (structuredClone(item) as T) : undefined;
  }

  async put(item: Item, opts?: { condition?: Condition }): Promise<void> {
    await this.beforePut?.();
    const id = `${item.pk}|${item.sk}`;
    if (opts?.condition && !holds(opts.condition, this.items.get(id))) throw new ConditionFailedError();
    this.items.set(id, structuredClone(item));
    this.writes++;
  }
}

function holds(c: Condition, current: Item | undefined): boolean {
  if (c.expression === 'attribute_not_exists(pk)') return current === undefined;
  const m = /^(#\w+) = (:\w+)$/.exec(c.expression);
  if (!m) throw new Error(`FakeGateTable does not support condition ${c.expression}`);
  const name = c.names?.[m[1]];
  if (!name || !(m[2] in (c.values ?? {}))) throw new Error(`Unbound placeholder in ${c.expression}`);
  return current !== undefined && current[name] === c.values![m[2]];
}
