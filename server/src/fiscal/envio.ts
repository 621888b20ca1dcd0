import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { MESSAGES } from 'shared/domain';
import { fueraDeActividad } from '../actividad/registro.ts';
import { nowIso } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ENDPOINTS, ENDPOINTS_SELLO, ErrorTransporte, LOTE_MAXIMO, TIEMPO_ESPERA_INICIAL, enviarSoap, leerFault, leerRespuesta, sobre } from './aeat.ts';
import type { Entorno, LineaRespuesta } from './aeat.ts';
import { claveSecreta, descifrar, desempaquetar } from './certificado.ts';
import { nifDeCadena } from './registro.ts';

/**
 * The VERI*FACTU sender (issue 9). Records enter the queue as they are written (estado_envio 'pendiente'); a cycle
 * sends the oldest issuer's oldest pending records (≤ 1.000, in chain order) when the AEAT's TiempoEsperaEnvio has
 * passed since the last submission, or at once when a batch is full. Only the holder of the lease on the settings
 * row (an atomic `update … where lease expired returning`) sends, so several instances on one PostgreSQL never send
 * a record twice. A transport failure (no network, timeout, 5xx) puts the batch back as it was and waits with an
 * exponential backoff; the next batch starts from the oldest pending record again, so nothing is lost or reordered.
 * The demo company's records (issue 22, `demo` 1) never leave for production: the generated year's are 'demo' (never
 * sent at all); the ones typed while trying are 'pendiente' and may go to «Pruebas» if the owner turns sending on there.
 *
 * The worker is a timer (unref'd: it never keeps the process alive) that does nothing while VERI*FACTU is off, and
 * a nudge after each emission; the app's close stops it and waits for a cycle in flight.
 */

export type VerifactuOptions = {
  /** The service's address instead of the environment's: the tests' and the bench's double only. */
  endpoint?: string;
  /** CA to trust for that endpoint (the double's). */
  ca?: string | Buffer;
  /** How often the queue is looked at (default 5 s). */
  tickMs?: number;
  /** First backoff after a transport failure (default 10 s; doubles each time, at most 15 min). */
  backoffMs?: number;
  /** The longest backoff (default 15 min). */
  backoffMaxMs?: number;
  /** Request timeout (default 60 s). */
  timeoutMs?: number;
  /** Batch size (default and maximum 1.000). */
  loteMax?: number;
  /** Off: no timer and no nudges (enviarregistrosverifactu and `ciclo()` still send). */
  worker?: boolean;
  /** The shop's time zone: a connection error says its times in local time (default Europe/Madrid). */
  timeZone?: string;
};

/**
 * FechaFinVeriFactu (Cabecera/RemisionVoluntaria; Validaciones 3.1.1.3: «31-12-20XX», of the AEAT's current year or
 * the one before): the mark the owner set in Configuración › VERI*FACTU while the AEAT still admits it; null otherwise.
 */
export function finAdmitido(fin: string | null | undefined, hoy = new Date().toISOString().slice(0, 10)): string | null {
  if (!fin || !/^\d{4}-12-31$/.test(fin)) return null;
  const anio = Number(hoy.slice(0, 4));
  const f = Number(fin.slice(0, 4));
  return f === anio || f === anio - 1 ? fin : null;
}

export type ResultadoCiclo =
  | { hecho: 'desactivado' | 'sin_certificado' | 'nada' | 'ocupado' }
  | { hecho: 'espera'; proximo: string; /** 'reintento': after a connection error, not the AEAT's waiting time. */ motivo?: 'aeat' | 'reintento' }
  | { hecho: 'enviado'; envio: number; registros: number; estado: string; proximo: string }
  | { hecho: 'error'; envio: number; registros: number; error: string; proximo: string };

const LEASE_MS = 5 * 60_000;
const BACKOFF_MAX_MS = 15 * 60_000;

const ESTADOS: Record<string, string> = { Correcto: 'correcto', AceptadoConErrores: 'aceptado_con_errores', Incorrecto: 'incorrecto' };

const recortar = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

type Pendiente = { id: number; emisor: string; num_serie: string; fecha_expedicion: string; tipo: string; xml: string };

export class Sender {
  readonly id = crypto.randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private nudgeTimer: NodeJS.Timeout | null = null;
  private running: Promise<ResultadoCiclo> | null = null;
  private closed = false;
  readonly loteMax: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dataDir: string,
    readonly opts: VerifactuOptions = {},
  ) {
    this.loteMax = Math.min(LOTE_MAXIMO, Math.max(1, opts.loteMax ?? LOTE_MAXIMO));
  }

  /** The service's address: the environment's, on the seal hosts when the certificate is a seal (issue 16). */
  endpoint(entorno: string, sello = false): string {
    return this.opts.endpoint ?? (sello ? ENDPOINTS_SELLO : ENDPOINTS)[(entorno as Entorno) in ENDPOINTS ? (entorno as Entorno) : 'pruebas'];
  }

  start(): void {
    if (this.opts.worker === false || this.timer) return;
    this.timer = setInterval(() => this.tick(), this.opts.tickMs ?? 5000);
    this.timer.unref();
  }

  /** After an emission: a look at the queue soon (a full batch leaves at once). */
  nudge(delayMs = 50): void {
    if (this.opts.worker === false || this.closed || this.nudgeTimer) return;
    // Scheduled outside the emitting action's audit context: the sender's transactions are not that action's.
    this.nudgeTimer = fueraDeActividad(() =>
      setTimeout(() => {
        this.nudgeTimer = null;
        this.tick();
      }, delayMs),
    );
    this.nudgeTimer.unref();
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.nudgeTimer) clearTimeout(this.nudgeTimer);
    this.timer = this.nudgeTimer = null;
    await this.running?.catch(() => undefined);
  }

  private tick(): void {
    if (this.closed || this.running) return;
    // Batches follow each other while full ones are waiting.
    void this.ciclo()
      .then((r) => {
        if (r.hecho === 'enviado' && !this.closed) this.nudge(0);
      })
      .catch(() => undefined);
  }

  /** One cycle: at most one batch. Runs alone in this instance; the lease keeps other instances out. */
  ciclo(): Promise<ResultadoCiclo> {
    if (this.running) return this.running;
    const p = this.cicloReal().finally(() => {
      if (this.running === p) this.running = null;
    });
    this.running = p;
    return p;
  }

  /**
   * The records waiting to leave for `entorno`: a demo record (made by the demo company, issue 22) never leaves for
   * production — it may be tried against «Pruebas»; it waits, and «Empezar con mis datos» removes it.
   */
  private async contarPendientes(entorno: string): Promise<{ n: number; desde: string | null }> {
    const r = await this.db
      .selectFrom('registros_facturacion')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('creado').as('desde')])
      .where('estado_envio', '=', 'pendiente')
      .$if(entorno === 'produccion', (q) => q.where('demo', '=', 0))
      .executeTakeFirstOrThrow();
    return { n: Number(r.n), desde: (r.desde as string | null) ?? null };
  }

  /** Whether a batch may leave now: the waiting time has passed, or a full batch waits (not during a backoff). */
  private puedeSalir(s: { proximo_envio: string | null; fallos: number }, pendientes: number, ahora: string): boolean {
    if (!s.proximo_envio || s.proximo_envio <= ahora) return true;
    return Number(s.fallos) === 0 && pendientes >= this.loteMax;
  }

  private async cicloReal(): Promise<ResultadoCiclo> {
    const s = await this.db.selectFrom('verifactu').selectAll().where('id', '=', 1).executeTakeFirst();
    if (!s || Number(s.activo) !== 1) return { hecho: 'desactivado' };
    if (!s.certificado || !s.certificado_iv || !s.certificado_tag) return { hecho: 'sin_certificado' };
    const { n } = await this.contarPendientes(s.entorno);
    const orphans = await this.db.selectFrom('registros_facturacion').select('id').where('estado_envio', '=', 'enviado').limit(1).execute();
    if (n === 0 && orphans.length === 0) return { hecho: 'nada' };
    if (!this.puedeSalir(s, n, nowIso())) return { hecho: 'espera', proximo: s.proximo_envio!, motivo: Number(s.fallos) > 0 ? 'reintento' : 'aeat' };

    // The lease: one sender among every instance.
    const ahora = nowIso();
    const lease = await this.db
      .updateTable('verifactu')
      .set({ lease_id: this.id, lease_hasta: nowIso(LEASE_MS) })
      .where('id', '=', 1)
      .where((eb) => eb.or([eb('lease_hasta', 'is', null), eb('lease_hasta', '<', ahora), eb('lease_id', '=', this.id)]))
      .returning(['activo', 'entorno', 'proximo_envio', 'fallos', 'tiempo_espera', 'certificado', 'certificado_iv', 'certificado_tag', 'sello', 'representante', 'titular', 'nif', 'fin_verifactu'])
      .executeTakeFirst();
    if (!lease) return { hecho: 'ocupado' };
    try {
      return await this.conLease(lease);
    } finally {
      await this.db.updateTable('verifactu').set({ lease_id: null, lease_hasta: null }).where('id', '=', 1).where('lease_id', '=', this.id).execute();
    }
  }

  private async conLease(s: {
    activo: number;
    entorno: string;
    proximo_envio: string | null;
    fallos: number;
    tiempo_espera: number;
    certificado: Buffer | null;
    certificado_iv: Buffer | null;
    certificado_tag: Buffer | null;
    sello?: number;
    representante?: number;
    titular: string | null;
    nif: string | null;
    fin_verifactu?: string | null;
  }): Promise<ResultadoCiclo> {
    if (Number(s.activo) !== 1) return { hecho: 'desactivado' };
    if (!s.certificado || !s.certificado_iv || !s.certificado_tag) return { hecho: 'sin_certificado' };
    // A batch left 'enviado' by a sender that died before the answer goes back to the queue (in its place: the
    // order is the records' id, and the AEAT answers a duplicate for any that did arrive).
    await this.db.updateTable('registros_facturacion').set({ estado_envio: 'pendiente', envio_id: null, enviado: null }).where('estado_envio', '=', 'enviado').execute();
    // Another instance may have sent while this one waited for the lease: the waiting time again.
    const { n } = await this.contarPendientes(s.entorno);
    if (n === 0) return { hecho: 'nada' };
    if (!this.puedeSalir(s, n, nowIso())) return { hecho: 'espera', proximo: s.proximo_envio!, motivo: Number(s.fallos) > 0 ? 'reintento' : 'aeat' };

    const primero = await this.db
      .selectFrom('registros_facturacion')
      .select(['emisor', 'incidencia'])
      .where('estado_envio', '=', 'pendiente')
      .$if(s.entorno === 'produccion', (q) => q.where('demo', '=', 0))
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    // One batch: one issuer, and records of an outage (Incidencia = S, a property of the whole request) apart.
    const incidencia = Number(primero.incidencia ?? 0);
    const lote: Pendiente[] = await this.db
      .selectFrom('registros_facturacion')
      .select(['id', 'emisor', 'num_serie', 'fecha_expedicion', 'tipo', 'xml'])
      .where('estado_envio', '=', 'pendiente')
      .$if(s.entorno === 'produccion', (q) => q.where('demo', '=', 0))
      .where('emisor', '=', primero.emisor)
      .where('incidencia', '=', incidencia)
      .orderBy('orden')
      .limit(this.loteMax)
      .execute();
    const fecha = nowIso();
    const envioId = await this.db.transaction().execute(async (trx) => {
      const e = await trx
        .insertInto('verifactu_envios')
        .values({ fecha, emisor: primero.emisor, entorno: s.entorno, registros: lote.length, estado: 'enviando', csv: null, tiempo_espera: null, http_status: null, error: null, respuesta: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let i = 0; i < lote.length; i += 500) {
        const ids = lote.slice(i, i + 500).map((r) => r.id);
        await trx.updateTable('registros_facturacion').set({ estado_envio: 'enviado', envio_id: e.id, enviado: fecha }).where('id', 'in', ids).execute();
      }
      return e.id;
    });

    let status = 0;
    let body = '';
    try {
      const { pfx, password } = desempaquetar(
        descifrar(claveSecreta(this.dataDir), { datos: s.certificado, iv: s.certificado_iv, tag: s.certificado_tag }),
      );
      const representante = Number(s.representante) === 1 && s.nif ? { nombre: s.titular ?? s.nif, nif: s.nif } : null;
      const xml = sobre(
        lote.map((r) => r.xml),
        { representante, incidencia: incidencia === 1, fechaFinVeriFactu: finAdmitido(s.fin_verifactu) },
      );
      ({ status, body } = await enviarSoap(xml, {
        endpoint: this.endpoint(s.entorno, Number(s.sello) === 1),
        pfx,
        passphrase: password,
        ca: this.opts.ca,
        timeoutMs: this.opts.timeoutMs ?? 60_000,
      }));
    } catch (err) {
      const texto = err instanceof ErrorTransporte ? err.message : `certificado: ${(err as Error).message}`;
      return this.fallo(envioId, lote, s, texto, 0, '', err instanceof ErrorTransporte ? 'conexion' : 'certificado');
    }

    const respuesta = status === 200 ? leerRespuesta(body) : null;
    const fault = respuesta ? null : leerFault(body);
    if (!respuesta && !fault?.cliente) {
      // 5xx, a Server fault, anything that is not the service's answer: the AEAT did not take the batch.
      return this.fallo(envioId, lote, s, fault ? fault.texto : `HTTP ${status}`, status, body, 'servidor');
    }
    const r = await this.respondido(envioId, lote, s, status, body, respuesta, fault);
    // The AEAT took a submission that said the company leaves VERI*FACTU: when, for the screen.
    if (respuesta && finAdmitido(s.fin_verifactu)) {
      await this.db.updateTable('verifactu').set({ fin_comunicado: fecha }).where('id', '=', 1).where('fin_comunicado', 'is', null).execute();
    }
    return r;
  }

  /** Transport failure: the batch back in the queue as it was, a backoff before the next attempt. */
  private async fallo(
    envioId: number,
    lote: Pendiente[],
    s: { fallos: number; entorno: string; sello?: number },
    error: string,
    status: number,
    body: string,
    tipo: 'conexion' | 'certificado' | 'servidor' = 'servidor',
  ): Promise<ResultadoCiclo> {
    const fallos = Number(s.fallos) + 1;
    const espera = Math.min(this.opts.backoffMaxMs ?? BACKOFF_MAX_MS, (this.opts.backoffMs ?? 10_000) * 2 ** (Math.min(fallos, 20) - 1));
    const proximo = nowIso(espera);
    // What the owner reads (the queue, «Enviar ahora»): in Spanish, in local time; the technical text stays in the log of submissions.
    const aviso = errorEnvio({ host: hostDe(this.endpoint(s.entorno, Number(s.sello) === 1)), ahora: new Date(), proximo: new Date(proximo), timeZone: this.opts.timeZone ?? 'Europe/Madrid', tipo, detalle: error, status });
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('registros_facturacion')
        .set({ estado_envio: 'pendiente', envio_id: null, enviado: null })
        .where('envio_id', '=', envioId)
        .where('estado_envio', '=', 'enviado')
        .execute();
      await trx
        .updateTable('verifactu_envios')
        .set({ estado: 'error', error: recortar(error, 500), http_status: status || null, respuesta: body ? recortar(body, 4000) : null })
        .where('id', '=', envioId)
        .execute();
      await trx.updateTable('verifactu').set({ fallos, proximo_envio: proximo, ultimo_error: recortar(aviso, 300) }).where('id', '=', 1).execute();
      // Issue 22: the records made before the failure was noticed — after the last answered submission, still
      // pending now — leave late because of it too (Incidencia = S, with those made from now on: registro.ts).
      const ultimo = await trx.selectFrom('verifactu').select('ultimo_envio').where('id', '=', 1).executeTakeFirst();
      await trx
        .updateTable('registros_facturacion')
        .set({ incidencia: 1 })
        .where('estado_envio', '=', 'pendiente')
        .where('incidencia', '=', 0)
        .$if(!!ultimo?.ultimo_envio, (q) => q.where('creado', '>', ultimo!.ultimo_envio!))
        .execute();
    });
    return { hecho: 'error', envio: envioId, registros: lote.length, error: aviso, proximo };
  }

  /** The AEAT answered: each record's state, code, text and the submission's CSV; the new waiting time. */
  private async respondido(
    envioId: number,
    lote: Pendiente[],
    s: { tiempo_espera: number },
    status: number,
    body: string,
    respuesta: ReturnType<typeof leerRespuesta>,
    fault: ReturnType<typeof leerFault>,
  ): Promise<ResultadoCiclo> {
    const espera = respuesta?.tiempoEspera ?? Number(s.tiempo_espera ?? TIEMPO_ESPERA_INICIAL);
    const proximo = nowIso(espera * 1000);
    const estadoEnvio = respuesta?.estadoEnvio ?? 'Incorrecto';
    // Lines by record key, in order (a batch may carry an alta and its subsanación).
    const porClave = new Map<string, LineaRespuesta[]>();
    for (const l of respuesta?.lineas ?? []) {
      const k = `${l.nif}|${l.numSerie}|${l.fecha}|${l.operacion.toLowerCase()}`;
      porClave.set(k, [...(porClave.get(k) ?? []), l]);
    }
    await this.db.transaction().execute(async (trx) => {
      for (const r of lote) {
        let estado: string;
        let codigo: string | null = null;
        let descripcion: string | null = null;
        if (fault) {
          estado = 'incorrecto';
          codigo = fault.codigo || null;
          descripcion = recortar(fault.texto, 500);
        } else {
          const l = porClave.get(`${nifDeCadena(r.emisor)}|${r.num_serie}|${r.fecha_expedicion}|${r.tipo}`)?.shift();
          if (!l) {
            // The AEAT said nothing about it: it goes again with the next batch.
            await trx.updateTable('registros_facturacion').set({ estado_envio: 'pendiente', envio_id: null, enviado: null }).where('id', '=', r.id).execute();
            continue;
          }
          estado = ESTADOS[l.estado] ?? 'incorrecto';
          codigo = l.codigo;
          descripcion = l.descripcion ? recortar(l.descripcion, 500) : null;
          // Sent again after an answer that never came back: the AEAT already has it as it was.
          if (estado === 'incorrecto' && l.codigo === '3000' && l.estadoDuplicado) {
            estado = l.estadoDuplicado === 'Correcta' ? 'correcto' : l.estadoDuplicado === 'AceptadaConErrores' ? 'aceptado_con_errores' : estado;
          }
        }
        await trx
          .updateTable('registros_facturacion')
          .set({ estado_envio: estado, csv: respuesta?.csv ?? null, codigo_error: codigo, descripcion_error: descripcion })
          .where('id', '=', r.id)
          .execute();
      }
      await trx
        .updateTable('verifactu_envios')
        .set({ estado: fault ? 'Incorrecto' : estadoEnvio, csv: respuesta?.csv ?? null, tiempo_espera: espera, http_status: status, respuesta: recortar(body, 4000) })
        .where('id', '=', envioId)
        .execute();
      await trx
        .updateTable('verifactu')
        .set({ tiempo_espera: espera, ultimo_envio: nowIso(), proximo_envio: proximo, fallos: 0, ultimo_error: null })
        .where('id', '=', 1)
        .execute();
    });
    return { hecho: 'enviado', envio: envioId, registros: lote.length, estado: fault ? 'Incorrecto' : estadoEnvio, proximo };
  }
}

/** The message of a cycle's result, for enviarregistrosverifactu. */
export function mensajeCiclo(r: ResultadoCiclo, timeZone: string): string {
  const hora = (iso: string) => new Date(iso).toLocaleTimeString('es-ES', { timeZone });
  switch (r.hecho) {
    case 'desactivado':
      return MESSAGES.verifactuDesactivado;
    case 'sin_certificado':
      return MESSAGES.verifactuSinCertificado;
    case 'nada':
      return MESSAGES.verifactuNadaPendiente;
    case 'ocupado':
      return MESSAGES.verifactuOcupado;
    case 'espera':
      // Never blamed on the AEAT when it is the retry after a connection error.
      return r.motivo === 'reintento'
        ? `El último envío no pudo llegar a la AEAT; se reintentará a las ${horaMinuto(new Date(r.proximo), timeZone)}`
        : MESSAGES.verifactuEspera.replace('{hora}', hora(r.proximo));
    case 'enviado':
      return MESSAGES.verifactuEnviados.replace('{n}', String(r.registros));
    case 'error':
      // Already the owner's words (errorEnvio).
      return r.error;
  }
}

const hostDe = (endpoint: string) => {
  try {
    return new URL(endpoint).hostname;
  } catch {
    return endpoint;
  }
};

/** '20:42' in the shop's time zone. */
export function horaMinuto(d: Date, timeZone: string): string {
  return d.toLocaleTimeString('es-ES', { timeZone, hour: '2-digit', minute: '2-digit' });
}

/** Why a connection failed, in words an owner understands (from Node's error codes and texts). */
function causa(detalle: string, tipo: 'conexion' | 'certificado' | 'servidor', status: number): string {
  if (tipo === 'certificado') return 'no se pudo usar el certificado de la empresa: súbalo de nuevo';
  if (tipo === 'servidor') return status ? `el servicio de la AEAT respondió con un error (HTTP ${status})` : 'el servicio de la AEAT respondió con un error';
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/i.test(detalle)) return 'no se encuentra el servidor: compruebe la conexión a Internet';
  if (/ECONNREFUSED/i.test(detalle)) return 'el servidor rechazó la conexión';
  if (/ETIMEDOUT|sin respuesta|timeout/i.test(detalle)) return 'el servidor no respondió a tiempo';
  if (/ECONNRESET|socket hang up|EPIPE/i.test(detalle)) return 'se cortó la conexión';
  if (/certificate|CERT_|SSL|TLS|handshake|alert/i.test(detalle)) return 'la conexión segura no se pudo establecer (revise el certificado)';
  if (/ENETUNREACH|EHOSTUNREACH/i.test(detalle)) return 'no hay conexión a Internet';
  return 'error de conexión';
}

/**
 * «No se pudo conectar con la AEAT (prewww1.aeat.es) a las 20:42; se reintentará a las 20:47 (…)»: a failed
 * submission as the owner reads it, in local time, never a raw Node.js error nor a UTC timestamp.
 */
export function errorEnvio(o: { host: string; ahora: Date; proximo: Date; timeZone: string; tipo: 'conexion' | 'certificado' | 'servidor'; detalle: string; status: number }): string {
  const que = o.tipo === 'servidor' ? `El envío a la AEAT (${o.host}) falló a las ${horaMinuto(o.ahora, o.timeZone)}` : `No se pudo conectar con la AEAT (${o.host}) a las ${horaMinuto(o.ahora, o.timeZone)}`;
  return `${que}; se reintentará a las ${horaMinuto(o.proximo, o.timeZone)} (${causa(o.detalle, o.tipo, o.status)})`;
}

const SENDERS = new WeakMap<object, Sender>();

/** The app's sender (one per instance), started with it and stopped on close. */
export function startVerifactu(app: FastifyInstance, opts: VerifactuOptions = {}): Sender {
  const sender = new Sender(app.manager.db, app.manager.dataDir, { timeZone: app.manager.timeZone, ...opts });
  SENDERS.set(app.manager, sender);
  sender.start();
  app.addHook('preClose', async () => sender.stop());
  // After an emission (or anything that writes a record) the queue is looked at: a full batch leaves at once.
  app.addHook('onResponse', async (request) => {
    const ac = (request.query as { ac?: unknown } | undefined)?.ac;
    if (request.method === 'POST' && typeof ac === 'string' && /^(emitir|anular|facturarhfa|subsanar)/.test(ac)) sender.nudge();
  });
  return sender;
}

export function senderOf(manager: object): Sender {
  const s = SENDERS.get(manager);
  if (!s) throw new Error('VERI*FACTU sender not started');
  return s;
}
