import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AVISO_CADUCIDAD_DIAS, AVISO_OBLIGACION_DIAS, ENTORNOS_VERIFACTU, MESSAGES, TIPOS_ID, fechaObligacionPorNif, idRegistro, validarIdentificacion } from 'shared/domain';
import type { AvisoVerifactu, OrigenFechaObligacion, PasoVerifactu, Schema, VerifactuInfo } from 'shared/domain';
import { todayIn } from '../../context.ts';
import { ENDPOINTS, ENDPOINTS_SELLO } from '../../fiscal/aeat.ts';
import type { Entorno } from '../../fiscal/aeat.ts';
import { cifrar, claveSecreta, diasHasta, empaquetar, leerPkcs12 } from '../../fiscal/certificado.ts';
import { mensajeCiclo, senderOf } from '../../fiscal/envio.ts';
import { SISTEMA, altaEnAeat, firmaProductor, nifDeCadena, numeroInstalacion, productor, registrarAnulacion, registrarSubsanacion } from '../../fiscal/registro.ts';
import type { Correccion } from '../../fiscal/registro.ts';
import type { AppContext } from '../../context.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';

/**
 * VERI*FACTU (issue 9): the settings (on/off, environment, the company's certificate), the queue's state and
 * warnings, "send now", and the subsanación of a record the AEAT refused or accepted with errors. The sender is
 * server/src/fiscal/envio.ts.
 */

const FLAGS = ['ventas' as const, 'ventas_facturas' as const];
const MAX_P12_BYTES = 64 * 1024;
const PENDIENTE_DEMASIADO_MS = 60 * 60_000;

/**
 * The system's components (Orden HAC/1177/2024 art. 15.d; FAQ «componentes de facturación»): the server and back office,
 * which makes, chains, keeps and sends every record, and the till, which makes its tickets' and returns' records with
 * the very same code (shared/fiscal) when offline. One product, one version.
 */
export const componentesSistema = (version: string) => [
  {
    nombre: 'Manager TPV (servidor y oficina)',
    version,
    descripcion: 'emite las facturas, genera, encadena, conserva y remite a la AEAT los registros de facturación y los de sus terminales',
  },
  {
    nombre: 'mf-tpv (terminal punto de venta)',
    version,
    descripcion: 'emite tickets (facturas simplificadas) y devoluciones con su código QR; sin conexión genera su registro de facturación, que el servidor verifica y remite',
  },
];

const fechaLarga = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  const meses = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
  return `${d} de ${meses[m - 1]} de ${y}`;
};

/**
 * The producer's declaración responsable (RD 1007/2023; Orden HAC/1177/2024 art. 15): the system's name, identifier
 * and version, its components, that it works only as VERI*FACTU and for one obligado, the producer's name, NIF and
 * postal address, the declaration of compliance, and the date and place it is signed.
 */
export function declaracionResponsable(s: {
  nombre_razon: string;
  nif: string;
  version: string;
  direccion?: string;
  componentes?: { nombre: string; version: string; descripcion: string }[];
  lugar_firma?: string;
  fecha_firma?: string;
}): string {
  const componentes = s.componentes ?? componentesSistema(s.version);
  return [
    'DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN',
    `Sistema informático: «${SISTEMA.nombre}», identificador ${SISTEMA.id}, versión ${s.version}.`,
    `Componentes: ${componentes.map((c) => `${c.nombre}, versión ${c.version}: ${c.descripcion}`).join('; ')}.`,
    `Productor: ${s.nombre_razon}, NIF ${s.nif}. Dirección postal de contacto: ${s.direccion?.trim() || '(sin indicar)'}.`,
    `${s.nombre_razon} (NIF ${s.nif}), como productor del sistema informático de facturación «${SISTEMA.nombre}» ` +
      `(identificador ${SISTEMA.id}, versión ${s.version}), declara bajo su responsabilidad que este sistema cumple ` +
      'lo dispuesto en el artículo 29.2.j) de la Ley 58/2003, General Tributaria, en el Reglamento aprobado por el ' +
      'Real Decreto 1007/2023, de 5 de diciembre, y en la Orden HAC/1177/2024, de 17 de octubre.',
    'El sistema garantiza la integridad, conservación, accesibilidad, legibilidad, trazabilidad e inalterabilidad de ' +
      'los registros de facturación: cada registro de alta o de anulación se encadena con el anterior mediante su huella ' +
      '(SHA-256), no se modifica ni se elimina una vez generado, y se corrige solo con un registro nuevo de subsanación ' +
      'o de anulación.',
    'Funciona exclusivamente como sistema de emisión de facturas verificables (VERI*FACTU): remite a la Agencia ' +
      'Estatal de Administración Tributaria cada registro de facturación que genera, por el servicio web de la AEAT y ' +
      'con el certificado electrónico de la empresa, respetando el tiempo de espera entre envíos que indique la AEAT. ' +
      'Al ser VERI*FACTU no firma los registros de facturación ni lleva registro de eventos.',
    'Tipo de uso: solo VERI*FACTU (S); uso por varios obligados tributarios: no (N); uso actual por varios obligados: no (N).',
    `Suscrita en ${s.lugar_firma?.trim() || '(lugar sin indicar)'}, ${s.fecha_firma ? `a ${fechaLarga(s.fecha_firma)}` : '(fecha sin indicar)'}.`,
  ].join('\n\n');
}

/**
 * The day the declaración responsable of this version was first made in this installation (migration 0034): its date
 * of signature when the company declares for itself. Stored once per version.
 */
async function fechaDeclaracion(app: AppContext): Promise<string> {
  const s = await app.db.selectFrom('verifactu').select(['declaracion_version', 'declaracion_fecha']).where('id', '=', 1).executeTakeFirst();
  if (s?.declaracion_version === SISTEMA.version && s.declaracion_fecha) return s.declaracion_fecha;
  const hoy = todayIn(app.timeZone);
  await app.db.updateTable('verifactu').set({ declaracion_version: SISTEMA.version, declaracion_fecha: hoy }).where('id', '=', 1).execute();
  return hoy;
}

async function empresa(app: AppContext) {
  const [c] = await app.config.rows();
  const nif = String(c?.nif ?? '').trim().toUpperCase();
  const cp = [c?.codigo_postal, c?.poblacion].map((x) => String(x ?? '').trim()).filter(Boolean).join(' ');
  const provincia = String(c?.provincia ?? '').trim();
  const direccion = [String(c?.direccion ?? '').trim(), cp, provincia && provincia !== String(c?.poblacion ?? '').trim() ? `(${provincia})` : '']
    .filter(Boolean)
    .join(', ')
    .replace(', (', ' (');
  // NumeroInstalacion: generated once, kept (issue 16; FAQ 4).
  return {
    nombre: String(c?.razon_social ?? '').trim() || nif, nif, instalacion: await numeroInstalacion(app.db), direccion, poblacion: String(c?.poblacion ?? '').trim(),
  };
}

/**
 * Whether the company's records already reach the AEAT for real: VERI*FACTU on, in producción, and a submission in
 * producción the AEAT answered. Switching it off then is refused (issue 16): never silently.
 */
async function enviandoEnProduccion(app: AppContext): Promise<boolean> {
  const s = await app.db.selectFrom('verifactu').select(['activo', 'entorno']).where('id', '=', 1).executeTakeFirstOrThrow();
  if (Number(s.activo) !== 1 || s.entorno !== 'produccion') return false;
  const e = await app.db
    .selectFrom('verifactu_envios')
    .select('id')
    .where('entorno', '=', 'produccion')
    .where('estado', 'in', ['Correcto', 'ParcialmenteCorrecto', 'Incorrecto'])
    .limit(1)
    .executeTakeFirst();
  return !!e;
}

/** What the screen says about leaving VERI*FACTU at the end of the year. */
function textoFin(fin: string, comunicado: string | null, hoy: string): string {
  const f = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
  const aeat = comunicado
    ? `La AEAT lo recibió el ${f(comunicado)} (FechaFinVeriFactu ${f(fin)}) y cada envío hasta entonces lo repite.`
    : 'Se comunicará a la AEAT con el próximo envío de registros (FechaFinVeriFactu), el último del año o el siguiente que se emita.';
  return hoy <= fin
    ? `La empresa deja VERI*FACTU al acabar el año: el ${f(fin)}. ${aeat} Puede deshacerlo hasta ese día.`
    : `La empresa dejó VERI*FACTU el ${f(fin)}. ${aeat} Cuando no quede ningún registro pendiente podrá desactivar el envío.`;
}

/**
 * The obligation date (issue 22): the owner's when set by hand (`fecha_obligacion_manual`), else the one the company's
 * NIF gives (fechaObligacionPorNif: a legal entity 1 January 2027, a natural person 1 July 2027).
 */
export async function obligacionDe(
  app: AppContext,
  s?: { fecha_obligacion: string; fecha_obligacion_manual: number },
): Promise<{ fecha: string; origen: OrigenFechaObligacion; porNif: string }> {
  const v = s ?? (await app.db.selectFrom('verifactu').select(['fecha_obligacion', 'fecha_obligacion_manual']).where('id', '=', 1).executeTakeFirstOrThrow());
  const [c] = await app.config.rows();
  const nif = fechaObligacionPorNif(c?.nif);
  if (Number(v.fecha_obligacion_manual) === 1 && v.fecha_obligacion) return { fecha: v.fecha_obligacion, origen: 'manual', porNif: nif.fecha };
  return { fecha: nif.fecha, origen: nif.origen, porNif: nif.fecha };
}

/**
 * A live company's records late (issue 22): pending for over an hour, or the sender failing. Nothing for the demo
 * company (its records never leave for production) nor when the obligation warning already says sending is off.
 */
function avisoEnvio(x: {
  demo: boolean; activo: boolean; pendientes: number; desde: string | null; fallos: number; ultimoError: string | null;
  fechaObligacion: string; diasObligacion: number; hayObligacion: boolean;
}): AvisoVerifactu | null {
  if (x.demo) return null;
  const f = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
  const tarde = !!x.desde && Date.now() - Date.parse(x.desde) > PENDIENTE_DEMASIADO_MS;
  const n = x.pendientes === 1 ? '1 registro de facturación' : `${x.pendientes.toLocaleString('es-ES')} registros de facturación`;
  if (!x.activo) {
    if (!tarde || x.hayObligacion) return null;
    return {
      nivel: x.diasObligacion > 0 ? 'aviso' : 'error', clave: 'envio',
      texto: `Hay ${n} sin enviar a la AEAT desde hace más de una hora porque el envío está desactivado. ${
        x.diasObligacion > 0 ? `Desde el ${f(x.fechaObligacion)} será obligatorio enviarlos` : `Desde el ${f(x.fechaObligacion)} es obligatorio enviarlos`
      }: active el envío en Configuración › VERI*FACTU.`,
    };
  }
  if (x.fallos > 0)
    return {
      nivel: 'error', clave: 'envio',
      texto: `El envío de los registros de facturación a la AEAT está fallando${x.ultimoError ? ` (${x.ultimoError.replace(/\.$/, '')})` : ''}${
        x.pendientes ? `; ${x.pendientes === 1 ? 'queda 1 registro' : `quedan ${x.pendientes.toLocaleString('es-ES')} registros`} sin enviar` : ''
      }. Revise el certificado y la conexión en Configuración › VERI*FACTU y pulse «Enviar ahora».`,
    };
  if (tarde)
    return {
      nivel: 'aviso', clave: 'envio',
      texto: `Hay ${n} ${x.pendientes === 1 ? 'pendiente' : 'pendientes'} de envío a la AEAT desde hace más de una hora. Revise el estado del envío en Configuración › VERI*FACTU y pulse «Enviar ahora».`,
    };
  return null;
}

export async function infoVerifactu(app: AppContext): Promise<VerifactuInfo> {
  const s = await app.db.selectFrom('verifactu').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  const e = await empresa(app);
  const cuenta = await app.db
    .selectFrom('registros_facturacion')
    .select((eb) => [
      eb.fn.count<number>(eb.case().when('estado_envio', 'in', ['pendiente', 'enviado']).then(1).end()).as('pendientes'),
      eb.fn.min(eb.case().when('estado_envio', 'in', ['pendiente', 'enviado']).then(eb.ref('creado')).end()).as('desde'),
      // Refused or accepted with errors and not yet corrected by a subsanación.
      eb.fn
        .count<number>(
          eb
            .case()
            .when(eb.and([eb('estado_envio', '=', 'incorrecto'), eb.not(eb.exists(eb.selectFrom('registros_facturacion as s').select('s.id').whereRef('s.subsana_id', '=', 'registros_facturacion.id')))]))
            .then(1)
            .end(),
        )
        .as('incorrectos'),
      eb.fn
        .count<number>(
          eb
            .case()
            .when(eb.and([eb('estado_envio', '=', 'aceptado_con_errores'), eb.not(eb.exists(eb.selectFrom('registros_facturacion as s').select('s.id').whereRef('s.subsana_id', '=', 'registros_facturacion.id')))]))
            .then(1)
            .end(),
        )
        .as('aceptados'),
    ])
    .executeTakeFirstOrThrow();
  const pendientes = Number(cuenta.pendientes);
  const desde = (cuenta.desde as string | null) ?? null;
  const incorrectos = Number(cuenta.incorrectos);
  const aceptados = Number(cuenta.aceptados);
  const certificado =
    s.certificado && s.caduca
      ? {
          titular: s.titular ?? '', nif: s.nif ?? '', emisor: s.emisor_certificado ?? '', caduca: s.caduca, dias: diasHasta(s.caduca), autofirmado: Number(s.autofirmado) === 1,
          sello: Number(s.sello) === 1, representante: Number(s.representante) === 1,
        }
      : null;
  const activo = Number(s.activo) === 1 ? 1 : 0;
  const avisos: AvisoVerifactu[] = [];
  const fecha = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
  if (certificado && certificado.dias < 0) avisos.push({ nivel: 'error', texto: `El certificado de VERI*FACTU caducó el ${fecha(certificado.caduca)}: suba uno vigente para seguir enviando los registros` });
  else if (certificado && certificado.dias <= AVISO_CADUCIDAD_DIAS)
    avisos.push({ nivel: 'aviso', texto: `El certificado de VERI*FACTU caduca el ${fecha(certificado.caduca)} (en ${certificado.dias} días): renuévelo` });
  if (activo && !certificado) avisos.push({ nivel: 'error', texto: MESSAGES.verifactuSinCertificado });
  // The company's NIF changed after the upload: the certificate no longer matches the issuer (issue 16).
  if (certificado && !certificado.representante && certificado.nif && e.nif && certificado.nif !== e.nif) {
    avisos.push({ nivel: 'error', texto: MESSAGES.certificadoNifDistinto.replace('{titular}', certificado.titular).replace('{nif}', certificado.nif).replace('{empresa}', e.nif) });
  }
  if (incorrectos) avisos.push({ nivel: 'error', texto: `La AEAT ha rechazado ${incorrectos} registros de facturación: revíselos y subsánelos` });
  if (aceptados) avisos.push({ nivel: 'aviso', texto: `La AEAT ha aceptado con errores ${aceptados} registros de facturación: revíselos y subsánelos` });
  if (s.fin_verifactu) avisos.push({ nivel: 'aviso', clave: 'fin', texto: textoFin(s.fin_verifactu, s.fin_comunicado ?? null, todayIn(app.timeZone)) });
  // The producer named by the installation's distributor (MANAGER_PRODUCTOR_* or deploy.json); else the company.
  const prod = productor();
  // The checklist and, from 30 days before the obligation date, a warning wherever invoices are made.
  const entornoActual = s.entorno === 'produccion' ? 'produccion' : 'pruebas';
  const prueba = await app.db
    .selectFrom('verifactu_envios')
    .select('fecha')
    .where('entorno', '=', 'pruebas')
    .where('estado', 'in', ['Correcto', 'ParcialmenteCorrecto'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const certificadoValido = !!certificado && certificado.dias >= 0 && !certificado.autofirmado;
  const produccion = activo === 1 && entornoActual === 'produccion';
  const enviando = certificadoValido && produccion;
  const obligacion = await obligacionDe(app, s);
  const fechaObligacion = obligacion.fecha;
  const diasObligacion = Math.round((Date.parse(`${fechaObligacion}T00:00:00Z`) - Date.parse(`${todayIn(app.timeZone)}T00:00:00Z`)) / 86_400_000);
  const pasos: PasoVerifactu[] = [
    {
      id: 'certificado',
      titulo: 'Certificado electrónico de la empresa, de una autoridad reconocida',
      hecho: certificadoValido,
      detalle: !certificado
        ? 'Falta: suba el certificado (.p12 o .pfx) de la empresa o de su representante, emitido por una autoridad reconocida (FNMT, Camerfirma, etc.).'
        : certificado.autofirmado
          ? `El certificado subido es autofirmado (lo emite «${certificado.emisor}»): la AEAT no lo aceptará. Suba uno de una autoridad reconocida (FNMT, Camerfirma, etc.).`
          : certificado.dias < 0
            ? `El certificado caducó el ${fecha(certificado.caduca)}: suba uno vigente.`
            : `Hecho: ${certificado.titular}, emitido por ${certificado.emisor}, válido hasta el ${fecha(certificado.caduca)}.`,
    },
    {
      id: 'prueba',
      titulo: 'Envío de prueba en el entorno «Pruebas»',
      hecho: !!prueba,
      detalle: prueba
        ? `Hecho: la AEAT aceptó un envío de prueba el ${fecha(prueba.fecha)}.`
        : 'Falta: con el entorno «Pruebas» y el envío activado, emita una factura (o pulse «Enviar ahora») y compruebe que la AEAT la acepta.',
    },
    {
      id: 'produccion',
      titulo: 'Envío activado en «Producción»',
      hecho: produccion,
      detalle: produccion
        ? 'Hecho: los registros se envían a la AEAT con plena validez fiscal.'
        : `Falta: cuando la prueba salga bien, elija el entorno «Producción», active el envío y guarde (antes del ${fecha(fechaObligacion)}).`,
    },
  ];
  if (!enviando && diasObligacion <= AVISO_OBLIGACION_DIAS) {
    const falta = pasos.filter((p) => !p.hecho).map((p) => p.titulo.charAt(0).toLowerCase() + p.titulo.slice(1));
    const porque = `falta: ${falta.join('; ')}`;
    avisos.unshift(
      diasObligacion > 0
        ? { nivel: 'aviso', clave: 'obligacion', texto: `El ${fecha(fechaObligacion)} (dentro de ${diasObligacion === 1 ? '1 día' : `${diasObligacion} días`}) empieza la obligación de enviar cada registro de facturación a la AEAT y los registros no se están enviando (${porque}). Complete los pasos en Configuración › VERI*FACTU.` }
        : { nivel: 'error', clave: 'obligacion', texto: `Desde el ${fecha(fechaObligacion)} cada registro de facturación debe enviarse a la AEAT y los registros no se están enviando (${porque}; ${pendientes === 1 ? '1 registro sin enviar' : `${pendientes} registros sin enviar`}). Complete los pasos en Configuración › VERI*FACTU.` },
    );
  }
  // Issue 22: a live company is told whenever its records are late — not sent for over an hour, or sending failing —
  // wherever invoices are made, with the way out; not only from 30 days before the obligation date.
  const envio = avisoEnvio({
    demo: Number(s.demo) === 1, activo: activo === 1, pendientes, desde, fallos: Number(s.fallos ?? 0), ultimoError: s.ultimo_error ?? null,
    fechaObligacion, diasObligacion, hayObligacion: avisos.some((a) => a.clave === 'obligacion'),
  });
  if (envio) avisos.splice(avisos.some((a) => a.clave === 'obligacion') ? 1 : 0, 0, envio);
  // Issue 22: «Producción» with sending off, before the date (after it, saving it is refused).
  if (Number(s.demo) !== 1 && activo === 0 && entornoActual === 'produccion' && diasObligacion > 0)
    avisos.push({ nivel: 'aviso', clave: 'entorno', texto: MESSAGES.produccionSinEnvioAviso.replace('{fecha}', fecha(fechaObligacion)) });
  // Art. 15 of Orden HAC/1177/2024: the producer's address, and the date and place of signature — the distributor's
  // (MANAGER_PRODUCTOR_DIRECCION/LUGAR/FECHA) or, when the company declares for itself, its own address and town and the
  // day this version's declaration was first made here (docs/verifactu.md).
  const firma = firmaProductor();
  const sistema = {
    nombre_razon: prod?.nombre ?? e.nombre,
    nif: prod?.nif ?? e.nif,
    productor_configurado: (prod ? 1 : 0) as 0 | 1,
    direccion: firma ? firma.direccion : e.direccion,
    componentes: componentesSistema(SISTEMA.version),
    lugar_firma: firma ? firma.lugar : e.poblacion,
    fecha_firma: firma?.fecha || (await fechaDeclaracion(app)),
    nombre: SISTEMA.nombre,
    id: SISTEMA.id,
    version: SISTEMA.version,
    numero_instalacion: e.instalacion,
    tipo_uso_posible_solo_verifactu: 'S',
    tipo_uso_posible_multi_ot: 'N',
    indicador_multiples_ot: 'N',
  };
  const entorno = (s.entorno === 'produccion' ? 'produccion' : 'pruebas') as Entorno;
  return {
    activo,
    entorno,
    endpoint: (certificado?.sello ? ENDPOINTS_SELLO : ENDPOINTS)[entorno],
    certificado,
    sistema,
    declaracion: declaracionResponsable(sistema),
    cola: {
      pendientes,
      pendiente_desde: desde,
      incorrectos,
      aceptados_con_errores: aceptados,
      ultimo_envio: s.ultimo_envio,
      proximo_envio: s.proximo_envio,
      ultimo_error: s.ultimo_error,
    },
    avisos,
    fecha_obligacion: fechaObligacion,
    fecha_obligacion_origen: obligacion.origen,
    fecha_obligacion_nif: obligacion.porNif,
    dias_obligacion: diasObligacion,
    enviando,
    pasos,
    fin: s.fin_verifactu ? { fecha: s.fin_verifactu, comunicado: s.fin_comunicado ?? null, deshacer: todayIn(app.timeZone) <= s.fin_verifactu } : null,
  };
}

const desescapar = (v: string) => v.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** The multipart upload: the `archivo` and the `password` field. */
async function leerSubida(request: FastifyRequest): Promise<{ archivo: Buffer | null; password: string; representante: boolean }> {
  const maybe = request as Partial<Pick<FastifyRequest, 'isMultipart'>>;
  if (!maybe.isMultipart?.()) throw fail(MESSAGES.certificadoRequerido, '1', 400);
  let archivo: Buffer | null = null;
  let password = '';
  let representante = false;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_P12_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        const b = await (part as MultipartFile).toBuffer();
        if (part.fieldname === 'archivo' && b.length) archivo = b;
      } else if (part.fieldname === 'password') password = String(part.value ?? '');
      else if (part.fieldname === 'representante') representante = ['1', 'true', 'on'].includes(String(part.value ?? ''));
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail(MESSAGES.certificadoNoValido, '1', 400);
    throw fail(MESSAGES.invalidFile, '1', 400);
  }
  return { archivo, password, representante };
}

export const verifactuActions = [
  defineAction({
    name: 'listadoverifactu',
    method: 'GET',
    flags: FLAGS,
    async handler({ app }) {
      return { RESULT: '0', data: [await infoVerifactu(app)] };
    },
  }),

  defineAction({
    name: 'editarverifactu',
    method: 'POST',
    flags: FLAGS,
    input: { activo: { type: 'flag' }, entorno: { type: 'enum', values: ENTORNOS_VERIFACTU }, fecha_obligacion: { type: 'date' }, dejar_verifactu: { type: 'flag' } } as const satisfies Schema,
    async handler({ app, input, raw }) {
      const set: {
        activo?: number; entorno?: string; fecha_obligacion?: string; fecha_obligacion_manual?: number; fin_verifactu?: string | null; fin_comunicado?: string | null;
      } = {};
      const hoy = todayIn(app.timeZone);
      const actual = await app.db
        .selectFrom('verifactu')
        .select(['activo', 'entorno', 'demo', 'fin_verifactu', 'fin_comunicado', 'fecha_obligacion', 'fecha_obligacion_manual'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      const obligacion = await obligacionDe(app, actual);
      // «Dejar VERI*FACTU al acabar el año» (issue 16; Validaciones 3.1.1.3): marked, every submission from now on carries
      // FechaFinVeriFactu 31-12 of this year; undone (before that day ends), they stop carrying it.
      if (raw.dejar_verifactu !== undefined) {
        if (input.dejar_verifactu === 1) {
          if (Number(raw.activo !== undefined ? input.activo : actual.activo) !== 1) throw fail(MESSAGES.verifactuFinSinActivar, '1', 400);
          if (actual.fin_verifactu !== `${hoy.slice(0, 4)}-12-31`) {
            set.fin_verifactu = `${hoy.slice(0, 4)}-12-31`;
            set.fin_comunicado = null;
          }
        } else if (actual.fin_verifactu) {
          if (hoy > actual.fin_verifactu) throw fail(MESSAGES.verifactuFinPasado, '1', 400);
          set.fin_verifactu = null;
          set.fin_comunicado = null;
        }
      }
      if (raw.activo !== undefined) set.activo = input.activo === 1 ? 1 : 0;
      if (raw.entorno !== undefined && input.entorno !== null) set.entorno = input.entorno;
      // Issue 22: the demo company is a sandbox; its records never leave for production (fiscal/envio.ts).
      if (set.entorno === 'produccion' && Number(actual.demo) === 1) throw fail(MESSAGES.demoSoloPruebas, '1', 400);
      // Issue 22: the date the NIF gives follows the NIF; another one is the owner's (kept when the NIF changes).
      if (raw.fecha_obligacion !== undefined && input.fecha_obligacion !== null && input.fecha_obligacion !== obligacion.fecha) {
        set.fecha_obligacion = input.fecha_obligacion;
        set.fecha_obligacion_manual = input.fecha_obligacion === obligacion.porNif ? 0 : 1;
      }
      // Issue 22: a live company's records are made for the AEAT's production; «Producción» with sending off leaves them
      // there unsent. From the obligation date that is refused (unless the company left VERI*FACTU, the AEAT told);
      // before it, saved with a warning.
      const fechaFinal = set.fecha_obligacion ?? obligacion.fecha;
      const produccionSinEnvio =
        Number(actual.demo) !== 1 && (set.entorno ?? actual.entorno) === 'produccion' && Number(set.activo ?? actual.activo) !== 1;
      const dejoVerifactu = !!actual.fin_verifactu && !!actual.fin_comunicado && hoy > actual.fin_verifactu;
      if (produccionSinEnvio && hoy >= fechaFinal && !dejoVerifactu) {
        const f = fechaFinal.split('-').reverse().join('/');
        throw fail(MESSAGES.produccionSinEnvio.replace('{fecha}', f), '1', 400);
      }
      if (!Object.keys(set).length && raw.dejar_verifactu === undefined) throw invalidFields({ activo: MESSAGES.selectOption });
      // Switching off (or away from producción) once the AEAT has the company's records: refused, never silently —
      // unless the year the owner chose to leave is over, the AEAT took FechaFinVeriFactu and nothing is left to send.
      if ((set.activo === 0 || (set.entorno && set.entorno !== 'produccion')) && (await enviandoEnProduccion(app))) {
        if (!actual.fin_verifactu) throw fail(MESSAGES.verifactuNoDesactivable, '1', 400);
        const pendiente = await app.db.selectFrom('registros_facturacion').select('id').where('estado_envio', 'in', ['pendiente', 'enviado']).limit(1).executeTakeFirst();
        if (hoy <= actual.fin_verifactu || !actual.fin_comunicado || pendiente) throw fail(MESSAGES.verifactuFinPendiente, '1', 400);
        set.fin_verifactu = null;
      }
      // Another environment starts with the first waiting time; a switch on looks at the queue now.
      // In a transaction: the change and its activity line (with the settings before and after) commit together.
      if (Object.keys(set).length) {
        await app.db.transaction().execute((trx) =>
          trx
            .updateTable('verifactu')
            .set({ ...set, ...(set.entorno ? { proximo_envio: null, fallos: 0 } : {}) })
            .where('id', '=', 1)
            .execute(),
        );
      }
      if (set.activo === 1 || set.fin_verifactu) senderOf(app).nudge();
      const message = produccionSinEnvio
        ? `${MESSAGES.verifactuGuardado}. ${MESSAGES.produccionSinEnvioAviso.replace('{fecha}', fechaFinal.split('-').reverse().join('/'))}`
        : MESSAGES.verifactuGuardado;
      return { RESULT: '0', message, data: [await infoVerifactu(app)] };
    },
  }),

  defineAction({
    name: 'subircertificadoverifactu',
    method: 'POST',
    flags: FLAGS,
    async handler({ app, request }) {
      const { archivo, password, representante } = await leerSubida(request);
      if (!archivo) throw invalidFields({ archivo: MESSAGES.certificadoRequerido });
      const info = leerPkcs12(archivo, password);
      // Issue 16: the certificate's NIF is the issuer's (ObligadoEmision), or a representative's or advisor's named as
      // such (Cabecera Representante); any other is refused before it reaches the AEAT.
      const e = await empresa(app);
      if (!info.nif) throw fail(MESSAGES.certificadoSinNif, '1', 400);
      if (!representante && e.nif && info.nif.toUpperCase() !== e.nif) {
        throw fail(MESSAGES.certificadoNifDistinto.replace('{titular}', info.titular).replace('{nif}', info.nif).replace('{empresa}', e.nif), '1', 400);
      }
      const esRepresentante = representante && info.nif.toUpperCase() !== e.nif;
      const c = cifrar(claveSecreta(app.dataDir), empaquetar(archivo, password));
      // In a transaction: the change and its activity line (with the settings before and after) commit together.
      await app.db.transaction().execute((trx) =>
        trx
        .updateTable('verifactu')
        .set({
          certificado: c.datos, certificado_iv: c.iv, certificado_tag: c.tag, titular: info.titular, nif: info.nif, emisor_certificado: info.emisor,
          caduca: info.caduca, autofirmado: info.autofirmado ? 1 : 0, sello: info.sello ? 1 : 0, representante: esRepresentante ? 1 : 0, fallos: 0, ultimo_error: null,
        })
        .where('id', '=', 1)
        .execute(),
      );
      senderOf(app).nudge();
      return { RESULT: '0', message: MESSAGES.certificadoGuardado, data: [{ ...info, representante: esRepresentante, dias: diasHasta(info.caduca) }] };
    },
  }),

  defineAction({
    name: 'eliminarcertificadoverifactu',
    method: 'POST',
    flags: FLAGS,
    async handler({ app }) {
      // In a transaction: the change and its activity line (with the settings before and after) commit together.
      await app.db.transaction().execute((trx) =>
        trx
        .updateTable('verifactu')
        .set({ certificado: null, certificado_iv: null, certificado_tag: null, titular: null, nif: null, emisor_certificado: null, caduca: null, autofirmado: 0, sello: 0, representante: 0 })
        .where('id', '=', 1)
        .execute(),
      );
      return { RESULT: '0', message: MESSAGES.certificadoEliminado, data: [await infoVerifactu(app)] };
    },
  }),

  defineAction({
    name: 'enviarregistrosverifactu',
    method: 'POST',
    flags: FLAGS,
    async handler({ app }) {
      const r = await senderOf(app).ciclo();
      const result = r.hecho === 'enviado' || r.hecho === 'nada' || r.hecho === 'espera' ? '0' : '1';
      return { RESULT: result, message: mensajeCiclo(r, app.timeZone), data: [{ ...r, cola: (await infoVerifactu(app)).cola }] };
    },
  }),

  defineAction({
    name: 'subsanarregistrofacturacion',
    method: 'POST',
    flags: FLAGS,
    input: {
      id: { type: 'int', required: true, min: 1 },
      // Issue 16: what the subsanación corrects (absent: the original's data, as it was).
      descripcion: { type: 'string', max: 500 },
      destinatario_nombre: { type: 'string', max: 120 },
      destinatario_nif: { type: 'string', max: 20 },
      destinatario_pais: { type: 'string', max: 2 },
      destinatario_tipo_id: { type: 'enum', values: ['NIF', ...TIPOS_ID] },
      fecha_operacion: { type: 'date' },
    } as const satisfies Schema,
    async handler({ app, input, raw }) {
      // The recipient as corrected: checked the way the AEAT will (Validaciones §13) before anything is written.
      let correccion: Correccion = {};
      if (input.descripcion) correccion.descripcion = input.descripcion;
      if (raw.fecha_operacion !== undefined) correccion.fechaOperacion = input.fecha_operacion ?? null;
      if (input.destinatario_nif || input.destinatario_nombre) {
        const errors: Record<string, string> = {};
        if (!input.destinatario_nombre?.trim()) errors.destinatario_nombre = MESSAGES.required;
        const v = validarIdentificacion({ nif: input.destinatario_nif ?? '', pais: input.destinatario_pais, tipo_id: input.destinatario_tipo_id });
        if (!v.ok) for (const [k, m] of Object.entries(v.errors)) errors[`destinatario_${k}`] = m;
        if (Object.keys(errors).length || !v.ok) throw invalidFields(errors);
        const id = idRegistro({ nif: v.nif, pais: v.pais, tipo_id: v.tipo_id });
        correccion = {
          ...correccion,
          destinatario: { nombre: input.destinatario_nombre!.trim(), nif: 'nif' in id ? id.nif : '', ...('idOtro' in id ? { idOtro: id.idOtro } : {}) },
        };
      }
      // Read before the transaction (SQLite has one connection: app.db inside it would wait for it forever).
      const e = await empresa(app);
      const hecho = await app.db.transaction().execute(async (trx) => {
        const r = await trx
          .selectFrom('registros_facturacion')
          .select(['id', 'tipo', 'estado_envio', 'emisor', 'num_serie', 'fecha_expedicion', 'tipo_factura', 'cuota_total', 'importe_total', 'xml', 'documento_id'])
          .where('id', '=', input.id)
          .$if(app.dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (!r) throw fail(MESSAGES.notFound, '3');
        const ya = await trx.selectFrom('registros_facturacion').select('id').where('subsana_id', '=', r.id).executeTakeFirst();
        const corregible = r.tipo === 'alta' ? ['incorrecto', 'aceptado_con_errores'] : ['incorrecto'];
        if (!corregible.includes(r.estado_envio) || ya) throw fail(MESSAGES.registroNoSubsanable, '1', 400);
        const c = { trx, timeZone: app.timeZone, documentoId: r.documento_id, instalacion: e.instalacion };
        const aeat = await altaEnAeat(trx, r);
        // FAQ (rectificaciones, anulaciones, subsanaciones) 2.b: a subsanación corrects what the record says and the
        // printed invoice does not; the recipient's name and identifier are printed (a rectificativa corrects them),
        // only how the record codes them (country, IDType) is subsanated.
        if (r.tipo === 'alta' && correccion.destinatario) {
          const dest = /<sf:IDDestinatario>([\s\S]*?)<\/sf:IDDestinatario>/.exec(r.xml)?.[1] ?? '';
          const nombre = desescapar(/<sf:NombreRazon>([^<]*)</.exec(dest)?.[1] ?? '');
          const id = desescapar(/<sf:(?:NIF|ID)>([^<]*)</.exec(dest)?.[1] ?? '');
          const limpio = (v: string) => v.toUpperCase().replace(/[^A-Z0-9]/g, '');
          const nuevo = limpio(correccion.destinatario.idOtro?.id ?? correccion.destinatario.nif);
          const viejo = limpio(id);
          const mismoId = nuevo === viejo || nuevo.slice(2) === viejo || viejo.slice(2) === nuevo;
          if (correccion.destinatario.nombre !== nombre.trim()) throw invalidFields({ destinatario_nombre: MESSAGES.subsanacionDatoImpreso });
          if (!mismoId) throw invalidFields({ destinatario_nif: MESSAGES.subsanacionDatoImpreso });
        }
        if (r.tipo === 'anulacion') {
          // A refused anulación sent again (Validaciones §5.2): RechazoPrevio = S; SinRegistroPrevio = S when the AEAT
          // has no alta of the invoice (nor one on its way).
          const nombre = /<sf:ObligadoEmision><sf:NombreRazon>([^<]*)<\/sf:NombreRazon>/.exec(r.xml)?.[1] ?? e.nombre;
          const [dia, mes, anio] = r.fecha_expedicion.split('-');
          const emisorNif = nifDeCadena(r.emisor);
          const nuevo = await registrarAnulacion(
            c,
            { nif: emisorNif, nombre: desescapar(nombre) },
            { nif: emisorNif, numSerie: r.num_serie, fecha: `${anio}-${mes}-${dia}` },
            { rechazoPrevio: true, sinRegistroPrevio: !aeat.registrada && !aeat.pendiente },
          );
          await trx.updateTable('registros_facturacion').set({ subsana_id: r.id }).where('id', '=', nuevo.id).execute();
          return { id: nuevo.id, anulacion: true };
        }
        // Validaciones §5.1: X when the AEAT has no alta of this invoice (every one it answered was refused, or none
        // was sent); S when it has one and this record, a subsanación of it, was refused; none otherwise.
        const rechazo: 'X' | 'S' | null = !aeat.registrada ? 'X' : r.estado_envio === 'incorrecto' ? 'S' : null;
        const nuevo = await registrarSubsanacion(c, r, rechazo, correccion);
        return { id: nuevo.id, anulacion: false };
      });
      const data = await app.db
        .selectFrom('registros_facturacion')
        .select(['id', 'orden', 'tipo', 'documento_id', 'num_serie', 'emisor as id_emisor', 'fecha_expedicion', 'huella', 'fecha_hora_huso', 'estado_envio', 'subsana_id', 'xml', 'creado'])
        .where('id', '=', hecho.id)
        .execute();
      return { RESULT: '0', message: hecho.anulacion ? MESSAGES.anulacionReenviada : MESSAGES.registroSubsanado, data };
    },
  }),
];
