/**
 * The single table. Every partition key starts with the tenant (see core/table-keys.ts).
 * DynamoDB-shaped on purpose: the one adapter serves AWS DynamoDB and local dynalite.
 * No transactions (dynalite lacks them): design for single-item conditional writes.
 */
export type Item = Record<string, unknown> & { pk: string; sk: string };
export interface Key {
  pk: string;
  sk: string;
}
export interface Condition {
  /** A DynamoDB condition expression, e.g. `attribute_not_exists(pk)` or `#s = :s`. */
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}
export interface UpdateSpec {
  set?: Record<string, unknown>;
  /** Atomic numeric increments. */
  add?: Record<string, number>;
  remove?: string[];
  /** Set attributes only when absent (if_not_exists). */
  setIfAbsent?: Record<string, unknown>;
  /** Append to list attributes (list_append; the list is created when absent). */
  append?: Record<string, unknown[]>;
  condition?: Condition;
}
export interface QuerySpec {
  index?: 'gsi1' | 'gsi2';
  pk: string;
  skBeginsWith?: string;
  skBetween?: [string, string];
  skGreaterThan?: string;
  limit?: number;
  /** Opaque cursor returned by a previous query. */
  cursor?: string;
  descending?: boolean;
  consistent?: boolean;
}
export interface QueryPage<T = Item> {
  items: T[];
  cursor: string | null;
}
export interface Table {
  get<T extends Item = Item>(key: Key, opts?: { consistent?: boolean }): Promise<T | undefined>;
  /** Throws ConditionFailedError when the condition does not hold. */
  put(item: Item, opts?: { condition?: Condition }): Promise<void>;
  /** Returns the item after the update. Throws ConditionFailedError when the condition does not hold. */
  update<T extends Item = Item>(key: Key, spec: UpdateSpec): Promise<T>;
  /** Returns the deleted item, if any. */
  delete<T extends Item = Item>(key: Key, opts?: { condition?: Condition }): Promise<T | undefined>;
  query<T extends Item = Item>(spec: QuerySpec): Promise<QueryPage<T>>;
  batchPut(items: Item[]): Promise<void>;
  /** The items of these keys that exist, in no particular order (BatchGetItem, 100 keys a call). */
  batchGet<T extends Item = Item>(keys: Key[], opts?: { consistent?: boolean }): Promise<T[]>;
}
