import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { leerCopia, volcarCopia } from './copia.ts';
import { nowIso, todayIn } from '../context.ts';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';

/**
 * Backups without a person (issue 22). Once a day, at `hora` in the shop's time zone (or at the first look after it,
 * when the server was down then), the server writes the same file «Copia de seguridad» downloads into `dir`:
 * written to a temporary file, synced, renamed into place (a half-written backup never has a backup's name), then
 * read back from the disk and checked as a restore would check it (every row of every table, and the row counts
 * against the snapshot's). Its SHA-256 goes beside it (`<file>.sha256`, `sha256sum -c` format), for the copies made
 * off the machine. Backups older than `dias` days are removed, never the newest. Several instances on one PostgreSQL
 * take one backup a day between them: only the holder of the lease on the `copias_programadas` row takes it, and the
 * row records the day done.
 */

export type CopiasOptions = {
  /** Where the backups go (MANAGER_COPIAS_DIR). */
  dir: string;
  /** Days kept (MANAGER_COPIAS_DIAS, default 14). */
  dias?: number;
  /** Time of day, HH:MM in the shop's time zone (MANAGER_COPIAS_HORA, default 03:30). */
  hora?: string;
  /** How often the worker looks at the clock (default 60 s). */
  tickMs?: number;
  /** Off: no timer (`ciclo()` still works; the tests drive it). */
  worker?: boolean;
  /** How long after a failure it tries again (default 15 min). */
  reintentoMs?: number;
};

export type Copia = { archivo: string; bytes: number; sha256: string; filas: Record<string, number> };

export type ResultadoCopias =
  | { hecho: 'antes_de_hora' | 'ya_hecha' | 'ocupado' | 'esperando_reintento' }
  | { hecho: 'copia'; copia: Copia; borradas: string[] }
  | { hecho: 'error'; error: string };

export const COPIA_RE = /^manager-tpv-(\d{4}-\d{2}-\d{2})-(\d{4})\.json$/;
const LEASE_MS = 30 * 60 * 1000;
const DIA_MS = 24 * 60 * 60 * 1000;

/** 'YYYY-MM-DD' and 'HH:MM' of a moment in a time zone. */
function localEn(timeZone: string, date: Date): { dia: string; hora: string } {
  const hora = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
  return { dia: todayIn(timeZone, date), hora };
}

export function horaValida(hora: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(hora);
}

/** Writes `data` to `file` so that the name holds either nothing or the whole file: temp file, fsync, rename, fsync of the folder. */
async function escribirAtomico(file: string, data: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const h = await fs.open(tmp, 'wx', 0o600);
  try {
    await h.writeFile(data, 'utf8');
    await h.sync();
  } finally {
    await h.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  const d = await fs.open(path.dirname(file), 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

/**
 * Checks a backup file on the disk: its SHA-256 against its `.sha256` (when there is one, or against `sha256` when
 * given) and its content as a restore reads it. The rows per table it holds; throws, saying why, when it is not whole.
 */
export async function comprobarCopia(file: string, sha256?: string): Promise<{ sha256: string; filas: Record<string, number> }> {
  const buffer = await fs.readFile(file);
  const hash = crypto.createHash('sha256').update(buffer).digest('hex');
  let esperado = sha256;
  if (!esperado) {
    const lado = await fs.readFile(`${file}.sha256`, 'utf8').catch(() => null);
    esperado = lado?.trim().split(/\s+/)[0];
  }
  if (esperado && esperado !== hash) throw new Error(`${path.basename(file)}: la suma SHA-256 no coincide (el archivo ha cambiado o está incompleto)`);
  let filas: Record<string, number>;
  try {
    filas = leerCopia(buffer.toString('utf8'));
  } catch {
    throw new Error(`${path.basename(file)}: no es una copia de seguridad válida de Manager TPV`);
  }
  return { sha256: hash, filas };
}

/** Takes one backup into `dir` now, verified by reading it back. `cuando` names it (the shop's local day and time). */
export async function tomarCopia(
  app: { db: Kysely<Database>; dialect: DialectName; timeZone: string },
  dir: string,
  cuando = new Date(),
): Promise<Copia> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const { dia, hora } = localEn(app.timeZone, cuando);
  const archivo = `manager-tpv-${dia}-${hora.replace(':', '')}.json`;
  const file = path.join(dir, archivo);
  const { body, filas } = await volcarCopia(app);
  const sha256 = crypto.createHash('sha256').update(body, 'utf8').digest('hex');
  await escribirAtomico(file, body);
  // Read back from the disk: the bytes written, and a backup a restore would take with the same rows.
  const leida = await comprobarCopia(file, sha256);
  for (const [tabla, n] of Object.entries(filas)) {
    if (leida.filas[tabla] !== n) throw new Error(`${archivo}: la copia leída tiene ${leida.filas[tabla]} filas de ${tabla} y se escribieron ${n}`);
  }
  await escribirAtomico(`${file}.sha256`, `${sha256}  ${archivo}\n`);
  return { archivo, bytes: Buffer.byteLength(body, 'utf8'), sha256, filas };
}

/** Removes the backups (and their `.sha256`) of days more than `dias` before `hoy`; never the newest. Returns the names removed. */
export async function podarCopias(dir: string, dias: number, hoy: string): Promise<string[]> {
  const copias = (await fs.readdir(dir)).filter((f) => COPIA_RE.test(f)).sort();
  const limite = new Date(Date.parse(`${hoy}T00:00:00Z`) - dias * DIA_MS).toISOString().slice(0, 10);
  const borrar = copias.slice(0, -1).filter((f) => COPIA_RE.exec(f)![1] <= limite);
  for (const f of borrar) {
    await fs.rm(path.join(dir, f), { force: true });
    await fs.rm(path.join(dir, `${f}.sha256`), { force: true });
  }
  return borrar;
}

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

export class CopiasProgramadas {
  readonly id = crypto.randomUUID();
  readonly dias: number;
  readonly hora: string;
  private timer: NodeJS.Timeout | undefined;
  private enCurso: Promise<ResultadoCopias> | undefined;
  private reintentoDesde = 0;

  constructor(
    private readonly app: { db: Kysely<Database>; dialect: DialectName; timeZone: string },
    private readonly opts: CopiasOptions,
    private readonly log?: Log,
  ) {
    this.dias = opts.dias ?? 14;
    this.hora = opts.hora ?? '03:30';
    if (!Number.isInteger(this.dias) || this.dias < 1) throw new Error('MANAGER_COPIAS_DIAS: un número entero de días, 1 o más');
    if (!horaValida(this.hora)) throw new Error('MANAGER_COPIAS_HORA: una hora HH:MM, p. ej. 03:30');
  }

  start(): void {
    if (this.opts.worker === false) return;
    this.timer = setInterval(() => void this.ciclo(), this.opts.tickMs ?? 60_000);
    this.timer.unref();
    // Also once at start: a server that was down at the hour takes the day's backup as soon as it is back.
    setTimeout(() => void this.ciclo(), 1000).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.enCurso?.catch(() => {});
  }

  /** One look at the clock: takes the day's backup if it is time, no instance has taken it yet and this one gets the lease. */
  ciclo(ahora = new Date()): Promise<ResultadoCopias> {
    this.enCurso ??= this.cicloReal(ahora).finally(() => {
      this.enCurso = undefined;
    });
    return this.enCurso;
  }

  private async cicloReal(ahora: Date): Promise<ResultadoCopias> {
    const { dia, hora } = localEn(this.app.timeZone, ahora);
    if (hora < this.hora) return { hecho: 'antes_de_hora' };
    if (ahora.getTime() < this.reintentoDesde) return { hecho: 'esperando_reintento' };
    const db = this.app.db;
    const ahoraIso = ahora.toISOString();
    const lease = await db
      .updateTable('copias_programadas')
      .set({ lease_id: this.id, lease_hasta: new Date(ahora.getTime() + LEASE_MS).toISOString() })
      .where('id', '=', 1)
      .where((eb) => eb.or([eb('dia', 'is', null), eb('dia', '<', dia)]))
      .where((eb) => eb.or([eb('lease_hasta', 'is', null), eb('lease_hasta', '<', ahoraIso), eb('lease_id', '=', this.id)]))
      .returning('id')
      .executeTakeFirst();
    if (!lease) {
      const row = await db.selectFrom('copias_programadas').select('dia').where('id', '=', 1).executeTakeFirst();
      return row?.dia && row.dia >= dia ? { hecho: 'ya_hecha' } : { hecho: 'ocupado' };
    }
    try {
      const copia = await tomarCopia(this.app, this.opts.dir, ahora);
      const borradas = await podarCopias(this.opts.dir, this.dias, dia);
      await db
        .updateTable('copias_programadas')
        .set({ dia, archivo: copia.archivo, creada: nowIso(), error: null, lease_id: null, lease_hasta: null })
        .where('id', '=', 1)
        .where('lease_id', '=', this.id)
        .execute();
      this.reintentoDesde = 0;
      this.log?.info({ archivo: copia.archivo, bytes: copia.bytes, borradas }, 'scheduled backup taken and verified');
      return { hecho: 'copia', copia, borradas };
    } catch (err) {
      const error = (err as Error).message;
      this.reintentoDesde = ahora.getTime() + (this.opts.reintentoMs ?? 15 * 60 * 1000);
      await db
        .updateTable('copias_programadas')
        .set({ error, lease_id: null, lease_hasta: null })
        .where('id', '=', 1)
        .where('lease_id', '=', this.id)
        .execute()
        .catch(() => {});
      this.log?.error({ error }, 'scheduled backup failed');
      return { hecho: 'error', error };
    }
  }
}

const WORKERS = new WeakMap<object, CopiasProgramadas>();

/** Starts the daily backup when a folder is configured; the app's close waits for a backup in flight. */
export function startCopias(app: FastifyInstance, opts: CopiasOptions | undefined): CopiasProgramadas | undefined {
  if (!opts?.dir) return undefined;
  const worker = new CopiasProgramadas(app.manager, opts, app.log);
  WORKERS.set(app.manager, worker);
  worker.start();
  app.addHook('preClose', async () => worker.stop());
  return worker;
}

export function copiasOf(manager: object): CopiasProgramadas {
  const w = WORKERS.get(manager);
  if (!w) throw new Error('scheduled backups not started');
  return w;
}
