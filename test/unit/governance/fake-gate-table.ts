import { ConditionFailedError } from '../../../functions/core/errors.js';
import type { Condition, Item, Key } from '../../../functions/ports/table.js';
import type { GateTable } from '../../../functions/core/governance/politeness.js';

/**
 * In-memory stand-in for the Table operations HostGate uses. Supports exactly the condition forms
 * the gate writes (`attribute_not_exists(pk)`, `<name> <op> :value` with `=`, `<`, `<=`, joined by
 * `OR`) and throws on anything else, so a new condition in the gate cannot silently pass here.
 * Counts every call, so tests can pin what a page costs in table operations.
 */
export class FakeGateTable implements GateTable {
  readonly items = new Map<string, Item>();
  writes = 0;
  calls = 0;
  /** Called before each put is applied; lets a test interleave a competing write. */
  beforePut?: (item: Item) => Promise<void> | void;

  async get<T extends Item = Item>(key: Key): Promise<T | undefined> {
    this.calls++;
    const item = this.items.get(`${key.pk}|${key.sk}`);
    return item ? (structuredClone(item) as T) : undefined;
  }

  async put(item: Item, opts?: { condition?: Condition }): Promise<void> {
    this.calls++;
    await this.beforePut?.(item);
    const id = `${item.pk}|${item.sk}`;
    if (opts?.condition && !holds(opts.condition, this.items.get(id))) throw new ConditionFailedError();
    this.items.set(id, structuredClone(item));
    this.writes++;
  }

  async delete<T extends Item = Item>(key: Key, opts?: { condition?: Condition }): Promise<T | undefined> {
    this.calls++;
    const id = `${key.pk}|${key.sk}`;
    const cur = this.items.get(id);
    if (opts?.condition && !holds(opts.condition, cur)) throw new ConditionFailedError();
    this.items.delete(id);
    this.writes++;
    return cur as T | undefined;
  }
}

function holds(c: Condition, current: Item | undefined): boolean {
  return c.expression.split(' OR ').some((part) => holdsOne(part.trim(), c, current));
}

function holdsOne(expr: string, c: Condition, current: Item | undefined): boolean {
  if (expr === 'attribute_not_exists(pk)') return current === undefined;
  const m = /^(#?\w+) (=|<|<=) (:\w+)$/.exec(expr);
  if (!m) throw new Error(`FakeGateTable does not support condition ${expr}`);
  const name = m[1]!.startsWith('#') ? c.names?.[m[1]!] : m[1];
  if (!name || !(m[3]! in (c.values ?? {}))) throw new Error(`Unbound placeholder in ${expr}`);
  if (current === undefined || !(name in current)) return false;
  const a = current[name] as number | string;
  const b = c.values![m[3]!] as number | string;
  return m[2] === '=' ? a === b : m[2] === '<' ? a < b : a <= b;
}
