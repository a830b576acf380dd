import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { packItem, packedJson, type AuditJournal } from '../../core/audit/audit.js';
import type { Item, Table } from '../../ports/table.js';

/** A journal file rolls over past this size; files whose records are all in the table go. */
const SEGMENT_BYTES = 4 * 1024 * 1024;

/** This process (or thread) instance, in its file names: a pid can come again after a restart. */
const RUN = randomUUID().slice(0, 8);

interface Segment {
  path: string;
  fd: number;
  bytes: number;
  /** Records appended here and not yet in the table. */
  outstanding: number;
  /** A write here failed (perhaps half a line): later lines go to a new file. */
  broken?: boolean;
}

/** A pack marker as the journal keeps it. */
interface PackMarker {
  pk: string;
  sk: string;
  ids: string[];
}

/**
 * The local service's audit journal (core/audit/audit.ts, BufferedAuditSink): each record is
 * appended to a file in `<dataDir>/audit-journal/` (one synchronous write of one line) before
 * its call is answered, so it survives a crash or kill -9 of the service (the records of one
 * turn of the event loop in one write); the sink writes it to the table within moments. Before a pack of several records is written, a marker line names
 * the records it holds; a replay writes that same pack again (same key, same records), and a
 * record no written pack holds as a single item under its own key, so replaying twice, or
 * replaying records the table already has, stores each record once.
 *
 * Files: `<pid>-<thread>-<run>-<seq>.ndjson`, rolled over past SEGMENT_BYTES. A file goes when
 * its records and those of every older file are in the table (in order: a marker is always in
 * the file of its newest record or a later one); the only file left is emptied whenever all
 * its records are in. A start replays what earlier runs left ({@link replayAuditJournals}).
 */
export class FileAuditJournal implements AuditJournal {
  private readonly segments: Segment[] = [];
  private seq = 0;
  constructor(
    private readonly dir: string,
    private readonly onError: (err: unknown) => void = (err) => console.error('audit journal write failed', err),
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {}

  append(items: Item[]): Segment | undefined {
    try {
      const seg = this.segment();
      let lines = '';
      for (const item of items) lines += `{"r":${JSON.stringify(item)}}\n`;
      this.write(seg, lines);
      seg.outstanding += items.length;
      return seg;
    } catch (err) {
      this.onError(err);
      return undefined;
    }
  }

  packing(pack: PackMarker): boolean {
    try {
      this.write(this.segment(), `{"p":${JSON.stringify(pack)}}\n`);
      return true;
    } catch (err) {
      this.onError(err);
      return false;
    }
  }

  stored(handles: unknown[]): void {
    for (const h of handles) (h as Segment).outstanding--;
    try {
      // Oldest first: a file goes only once it and every older one hold nothing the table lacks.
      while (this.segments.length > 1 && this.segments[0]!.outstanding === 0) {
        // Unlinked first: a file that cannot go stays at the head, and keeps every later one.
        const seg = this.segments[0]!;
        unlinkSync(seg.path);
        this.segments.shift();
        closeSync(seg.fd);
      }
      const last = this.segments[0];
      if (this.segments.length === 1 && last && last.outstanding === 0 && last.bytes > 0 && !last.broken) {
        ftruncateSync(last.fd, 0);
        last.bytes = 0;
      }
    } catch (err) {
      // Tried again at the next write; files left at a crash hold only records a replay writes once.
      this.onError(err);
    }
  }

  /** Closes the files; those still holding records stay for the next start's replay. */
  close(): void {
    for (const seg of this.segments.splice(0)) {
      closeSync(seg.fd);
      if (seg.outstanding === 0 && seg.bytes === 0) unlinkSync(seg.path);
    }
  }

  private segment(): Segment {
    const cur = this.segments[this.segments.length - 1];
    if (cur && cur.bytes < this.segmentBytes && !cur.broken) return cur;
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, `${process.pid}-${threadId}-${RUN}-${String(this.seq++).padStart(6, '0')}.ndjson`);
    const seg = { path, fd: openSync(path, 'a'), bytes: 0, outstanding: 0 };
    this.segments.push(seg);
    return seg;
  }

  private write(seg: Segment, line: string) {
    const buf = Buffer.from(line);
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(seg.fd, buf, off);
    } catch (err) {
      seg.broken = true;
      throw err;
    }
    seg.bytes += buf.length;
  }
}

/**
 * Writes to the table every audit record that journals of earlier runs in `dir` hold (a crash,
 * kill -9, or a store that was down at shutdown), each once: a marked pack whose records are
 * all in the journals is written again as it was (its records may be in the table already,
 * under that same key); a marked pack missing some was written (its records' files went only
 * after it was stored), so its records are skipped; any other record is written under its own
 * key. Then the files go. Call it at start, before any journal of this run writes (the local
 * server does, before it serves or consumes anything). Torn last lines
 * (a crash mid-append; that call was never answered) are skipped.
 */
export async function replayAuditJournals(dir: string, table: Table): Promise<{ files: number; records: number }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.ndjson')).sort();
  } catch {
    return { files: 0, records: 0 };
  }
  const records = new Map<string, Item>();
  const markers: PackMarker[] = [];
  for (const name of names) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      let entry: { r?: Item; p?: PackMarker };
      try {
        entry = JSON.parse(line) as { r?: Item; p?: PackMarker };
      } catch {
        continue;
      }
      if (entry.r && typeof entry.r.id === 'string' && typeof entry.r.pk === 'string' && typeof entry.r.sk === 'string') records.set(entry.r.id, entry.r);
      else if (entry.p && Array.isArray(entry.p.ids)) markers.push(entry.p);
    }
  }
  const items: Item[] = [];
  const handled = new Set<string>();
  for (const m of markers) {
    if (m.ids.every((id) => records.has(id) && !handled.has(id)))
      items.push(packItem(m.pk, m.sk, m.ids.map((id) => packedJson(records.get(id)!))));
    for (const id of m.ids) handled.add(id);
  }
  for (const [id, item] of records) if (!handled.has(id)) items.push(item);
  if (items.length) await table.batchPut(items);
  for (const name of names) unlinkSync(join(dir, name));
  return { files: names.length, records: records.size };
}
