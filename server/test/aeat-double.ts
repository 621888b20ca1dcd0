import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import type http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { fileURLToPath } from 'node:url';
import forge from 'node-forge';
import type { HuellaAlta, HuellaAnulacion, TipoFactura } from 'shared/domain';
import { bloques, campo } from '../src/fiscal/aeat.ts';
import { huellaDe } from '../src/fiscal/registro.ts';

/**
 * A local double of the AEAT's VERI*FACTU web service (issue 9), for the tests and the bench: HTTPS that asks for a
 * client certificate issued by its own throwaway CA, validates each request against SuministroLR.xsd (xmllint),
 * checks each record's huella and its chain (the previous huella it saw from that issuer) and duplicates, answers
 * Correcto / AceptadoConErrores / Incorrecto per record with the AEAT's codes (errores.properties), imposes its
 * TiempoEsperaEnvio, and can be told to refuse a record, drop connections, hang or answer 503.
 */

const XSD = fileURLToPath(new URL('../src/fiscal/xsd/SuministroLR.xsd', import.meta.url));
const NS_R = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/RespuestaSuministro.xsd';
const NS_SF = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd';

/** The AEAT's codes (errores.properties) the double answers. */
export const CODIGOS = {
  huella: ['2000', 'El cálculo de la huella suministrada es incorrecta.'],
  cadena: ['2003', 'El contenido de la huella del registro anterior no cumple con las especificaciones.'],
  primerRegistro: ['2007', 'No debe informarse como primer registro si ya existen registros de facturación para el SIF y obligado.'],
  duplicado: ['3000', 'Registro de facturación duplicado.'],
  noExiste: ['3002', 'No existe el registro de facturación.'],
  esquema: ['4102', 'El XML no cumple el esquema.'],
} as const;

// PKI ----------------------------------------------------------------------------------------------------------

export type Pki = {
  caPem: string;
  serverKeyPem: string;
  serverCertPem: string;
  /** The company's certificate, valid for a year. */
  p12: Buffer;
  password: string;
  /** Expired yesterday. */
  p12Caducado: Buffer;
  /** Signed by itself (no authority issued it): the AEAT would not accept it. */
  p12Autofirmado: Buffer;
  /** An electronic seal of the company (organizationIdentifier VATES-…, eIDAS QCP-l policy). */
  p12Sello: Buffer;
  /** An advisor's certificate (ASESORES DEL SUR SL, NIF B12345674), same authority. */
  p12Asesor: Buffer;
};

/** The DER of a certificatePolicies extension value naming `oids`. */
export function politicasDer(oids: string[]): string {
  const { asn1 } = forge;
  return asn1
    .toDer(
      asn1.create(
        asn1.Class.UNIVERSAL,
        asn1.Type.SEQUENCE,
        true,
        oids.map((o) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(o).getBytes())])),
      ),
    )
    .getBytes();
}

function claves(): forge.pki.rsa.KeyPair {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey, publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey };
}

function certificado(
  subject: forge.pki.CertificateField[],
  keys: forge.pki.rsa.KeyPair,
  issuer: { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey } | null,
  desde: Date,
  hasta: Date,
  extensions: object[],
): forge.pki.Certificate {
  const c = forge.pki.createCertificate();
  c.publicKey = keys.publicKey;
  c.serialNumber = `01${crypto.randomBytes(8).toString('hex')}`;
  c.validity.notBefore = desde;
  c.validity.notAfter = hasta;
  c.setSubject(subject);
  c.setIssuer(issuer ? issuer.cert.subject.attributes : subject);
  c.setExtensions(extensions);
  c.sign(issuer ? issuer.key : keys.privateKey, forge.md.sha256.create());
  return c;
}

const p12De = (cert: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey, ca: forge.pki.Certificate, password: string) =>
  Buffer.from(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [cert, ca], password, { algorithm: '3des' })).getBytes(), 'binary');

/** A throwaway CA, the double's server certificate (localhost) and the company's client certificates. */
export function crearPki(nif = 'B86420973', titular = 'EMPRESA DEMO SL'): Pki {
  const dia = 86_400_000;
  const ahora = Date.now();
  const caKeys = claves();
  const caCert = certificado([{ name: 'commonName', value: 'AEAT doble CA' }], caKeys, null, new Date(ahora - 30 * dia), new Date(ahora + 400 * dia), [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  const ca = { cert: caCert, key: caKeys.privateKey };
  const srvKeys = claves();
  const srvCert = certificado([{ name: 'commonName', value: 'localhost' }], srvKeys, ca, new Date(ahora - dia), new Date(ahora + 30 * dia), [
    { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    { name: 'extKeyUsage', serverAuth: true },
  ]);
  const sujeto = [
    { name: 'commonName', value: titular },
    { type: '2.5.4.5', value: `IDCES-${nif}` },
    { name: 'countryName', value: 'ES' },
  ];
  const cliKeys = claves();
  const password = 'Secreta-2026';
  const cli = certificado(sujeto, cliKeys, ca, new Date(ahora - dia), new Date(ahora + 365 * dia), [{ name: 'extKeyUsage', clientAuth: true }]);
  const viejo = certificado(sujeto, cliKeys, ca, new Date(ahora - 400 * dia), new Date(ahora - dia), [{ name: 'extKeyUsage', clientAuth: true }]);
  const sello = certificado(
    [
      { name: 'commonName', value: `SELLO ${titular}` },
      { name: 'organizationName', value: titular },
      { type: '2.5.4.97', value: `VATES-${nif}` },
      { name: 'countryName', value: 'ES' },
    ],
    cliKeys,
    ca,
    new Date(ahora - dia),
    new Date(ahora + 365 * dia),
    [{ name: 'extKeyUsage', clientAuth: true }, { id: '2.5.29.32', value: politicasDer(['0.4.0.194112.1.1']) }],
  );
  const asesor = certificado(
    [{ name: 'commonName', value: 'ASESORES DEL SUR SL' }, { type: '2.5.4.5', value: 'IDCES-B12345674' }, { name: 'countryName', value: 'ES' }],
    cliKeys,
    ca,
    new Date(ahora - dia),
    new Date(ahora + 365 * dia),
    [{ name: 'extKeyUsage', clientAuth: true }],
  );
  return {
    p12Sello: p12De(sello, cliKeys.privateKey, caCert, password),
    p12Asesor: p12De(asesor, cliKeys.privateKey, caCert, password),
    caPem: forge.pki.certificateToPem(caCert),
    serverKeyPem: forge.pki.privateKeyToPem(srvKeys.privateKey),
    serverCertPem: forge.pki.certificateToPem(srvCert),
    p12: p12De(cli, cliKeys.privateKey, caCert, password),
    password,
    p12Caducado: p12De(viejo, cliKeys.privateKey, caCert, password),
    p12Autofirmado: Buffer.from(
      forge.asn1
        .toDer(forge.pkcs12.toPkcs12Asn1(cliKeys.privateKey, [certificado(sujeto, cliKeys, null, new Date(ahora - dia), new Date(ahora + 365 * dia), [{ name: 'extKeyUsage', clientAuth: true }])], password, { algorithm: '3des' }))
        .getBytes(),
      'binary',
    ),
  };
}

// The service ---------------------------------------------------------------------------------------------------

export type Modo = 'normal' | 'caido' | 'colgado' | 'colgado_tras_registrar' | '503';

export type RegistroRecibido = {
  nif: string;
  numSerie: string;
  fecha: string;
  tipo: 'Alta' | 'Anulacion';
  huella: string;
  subsanacion: boolean;
  rechazoPrevio: string | null;
  /** An anulación's SinRegistroPrevio = S. */
  sinRegistroPrevio: boolean;
  estado: string;
  codigo: string | null;
};

export type Peticion = {
  en: number;
  registros: RegistroRecibido[];
  csv: string | null;
  estadoEnvio: string;
  /** The request's Cabecera: RemisionVoluntaria/Incidencia = S, and the Representante's NIF. */
  incidencia: boolean;
  representante: string | null;
  /** RemisionVoluntaria/FechaFinVeriFactu as received ('31-12-2026'), or null. */
  fechaFin: string | null;
};

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function xmllint(xml: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile('xmllint', ['--noout', '--schema', XSD, '-'], { maxBuffer: 16 * 1024 * 1024 }, (err, _out, stderr) =>
      resolve(err ? String(stderr || err.message) : null),
    );
    child.stdin?.end(xml);
  });
}

export class AeatDouble {
  /** Seconds it answers in TiempoEsperaEnvio. */
  espera = 60;
  /** A batch at least this big may come before the waiting time (the AEAT's 1.000; the tests' smaller batches). */
  loteLleno = 1000;
  modo: Modo = 'normal';
  readonly peticiones: Peticion[] = [];
  /** Requests that arrived before the waiting time with a batch that was not full. */
  readonly adelantadas: number[] = [];
  /** xmllint's complaints (none expected). */
  readonly invalidas: string[] = [];
  /** Registered records by key (nif|numSerie|fecha): their state at the AEAT. */
  readonly registrados = new Map<string, { estado: string; huella: string }>();
  /** The last huella seen per issuer (whatever its answer: a refused record is still in the SIF's chain). */
  private readonly ultima = new Map<string, string>();
  /** NumSerieFactura → code and text to refuse its next alta with. */
  private readonly rechazos = new Map<string, [string, string]>();
  /** NumSerieFactura → code and text to refuse its next subsanación / anulación with. */
  private readonly rechazosSubsanacion = new Map<string, [string, string]>();
  private readonly rechazosAnulacion = new Map<string, [string, string]>();
  /** NumSerieFactura → code and text to accept its next alta with errors (AceptadoConErrores). */
  private readonly conErrores = new Map<string, [string, string]>();

  /** Accepts the next alta of `numSerie` with errors (to be subsanated). */
  aceptarConErrores(numSerie: string, codigo = '2005', descripcion = 'El campo DescripcionOperacion no es correcto.'): void {
    this.conErrores.set(numSerie, [codigo, descripcion]);
  }
  private ultimaPeticion = 0;
  private server: https.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly colgadas = new Set<() => void>();
  url = '';

  constructor(readonly pki: Pki) {}

  /** Refuses the next alta of `numSerie` (Incorrecto) with a code of the AEAT's. */
  rechazar(numSerie: string, codigo = '1100', descripcion = 'Valor o tipo incorrecto del campo: DescripcionOperacion.'): void {
    this.rechazos.set(numSerie, [codigo, descripcion]);
  }

  /** Refuses the next subsanación of `numSerie`. */
  rechazarSubsanacion(numSerie: string, codigo = '1100', descripcion = 'Valor o tipo incorrecto del campo: DescripcionOperacion.'): void {
    this.rechazosSubsanacion.set(numSerie, [codigo, descripcion]);
  }

  /** Refuses the next anulación of `numSerie`. */
  rechazarAnulacion(numSerie: string, codigo = '1100', descripcion = 'Valor o tipo incorrecto del campo: IDFactura.'): void {
    this.rechazosAnulacion.set(numSerie, [codigo, descripcion]);
  }

  /** Every record it answered, in arrival order. */
  get recibidos(): RegistroRecibido[] {
    return this.peticiones.flatMap((p) => p.registros);
  }

  async start(): Promise<string> {
    const server = https.createServer(
      { key: this.pki.serverKeyPem, cert: this.pki.serverCertPem, ca: this.pki.caPem, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          void this.atender(Buffer.concat(chunks).toString('utf8'), res);
        });
      },
    );
    server.on('connection', (s: net.Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `https://localhost:${(server.address() as net.AddressInfo).port}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const f of this.colgadas) f();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  private colgar(res: http.ServerResponse): void {
    const f = () => res.destroy();
    this.colgadas.add(f);
    res.on('close', () => this.colgadas.delete(f));
  }

  private async atender(body: string, res: http.ServerResponse): Promise<void> {
    if (this.modo === 'caido') {
      res.socket?.destroy();
      return;
    }
    if (this.modo === '503') {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Servicio no disponible</body></html>');
      return;
    }
    if (this.modo === 'colgado') {
      this.colgar(res);
      return;
    }
    const registros = bloques(body, 'RegistroFactura');
    const ahora = Date.now();
    if (this.ultimaPeticion && ahora < this.ultimaPeticion + this.espera * 1000 && registros.length < this.loteLleno) this.adelantadas.push(ahora - this.ultimaPeticion);
    this.ultimaPeticion = ahora;

    // The schema: the RegFactuSistemaFacturacion with the Envelope's namespace declarations.
    const raiz = /<([\w.-]+:)?RegFactuSistemaFacturacion[\s>][\s\S]*<\/([\w.-]+:)?RegFactuSistemaFacturacion>/.exec(body)?.[0] ?? '';
    const ns = [...(/<[\w.-]*:?Envelope([^>]*)>/.exec(body)?.[1] ?? '').matchAll(/xmlns:(\w+)="([^"]*)"/g)].map((m) => ` xmlns:${m[1]}="${m[2]}"`).join('');
    const error = raiz ? await xmllint(`<?xml version="1.0" encoding="UTF-8"?>\n${raiz.replace(/^<([\w.-]+:)?RegFactuSistemaFacturacion/, (m) => m + ns)}`) : 'sin RegFactuSistemaFacturacion';
    if (error) {
      this.invalidas.push(error);
      res.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' }).end(
        '<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Body><env:Fault>' +
          `<faultcode>env:Client</faultcode><faultstring>Codigo[${CODIGOS.esquema[0]}].${CODIGOS.esquema[1]}</faultstring></env:Fault></env:Body></env:Envelope>`,
      );
      return;
    }

    const lineas: string[] = [];
    const recibidos: RegistroRecibido[] = [];
    for (const r of registros) {
      const l = this.registro(r);
      recibidos.push(l.recibido);
      lineas.push(l.xml);
    }
    const estados = recibidos.map((r) => r.estado);
    const estadoEnvio = estados.every((e) => e === 'Correcto') ? 'Correcto' : estados.every((e) => e === 'Incorrecto') ? 'Incorrecto' : 'ParcialmenteCorrecto';
    const csv = estadoEnvio === 'Incorrecto' ? null : `A-${crypto.randomBytes(7).toString('hex').toUpperCase()}`;
    const cabecera = bloques(body, 'Cabecera')[0] ?? '';
    const rep = bloques(cabecera, 'Representante')[0];
    this.peticiones.push({
      en: ahora, registros: recibidos, csv, estadoEnvio, incidencia: campo(cabecera, 'Incidencia') === 'S', representante: rep ? campo(rep, 'NIF') : null,
      fechaFin: campo(cabecera, 'FechaFinVeriFactu') || null,
    });
    // Validaciones 3.1.1.3: FechaFinVeriFactu is 31-12 of the AEAT's current year or the one before.
    const fin = campo(cabecera, 'FechaFinVeriFactu');
    if (fin) {
      const anio = new Date().getFullYear();
      if (!/^31-12-\d{4}$/.test(fin) || ![anio, anio - 1].includes(Number(fin.slice(6)))) this.invalidas.push(`FechaFinVeriFactu ${fin}`);
    }
    if (this.modo === 'colgado_tras_registrar') {
      this.colgar(res);
      return;
    }
    const cab = bloques(body, 'ObligadoEmision')[0] ?? '';
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>' +
      '<env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Header/><env:Body>' +
      `<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="${NS_R}" xmlns:tik="${NS_SF}">` +
      (csv ? `<tikR:CSV>${csv}</tikR:CSV>` : '') +
      `<tikR:DatosPresentacion><tik:NIFPresentador>${esc(campo(cab, 'NIF') ?? '')}</tik:NIFPresentador><tik:TimestampPresentacion>${new Date(ahora).toISOString().slice(0, 19)}+00:00</tik:TimestampPresentacion></tikR:DatosPresentacion>` +
      `<tikR:Cabecera><tik:ObligadoEmision><tik:NombreRazon>${esc(campo(cab, 'NombreRazon') ?? '')}</tik:NombreRazon><tik:NIF>${esc(campo(cab, 'NIF') ?? '')}</tik:NIF></tik:ObligadoEmision></tikR:Cabecera>` +
      `<tikR:TiempoEsperaEnvio>${this.espera}</tikR:TiempoEsperaEnvio><tikR:EstadoEnvio>${estadoEnvio}</tikR:EstadoEnvio>` +
      lineas.join('') +
      '</tikR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>';
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(xml);
  }

  /** One RegistroFactura: its checks, its state here, its RespuestaLinea. */
  private registro(x: string): { recibido: RegistroRecibido; xml: string } {
    const alta = bloques(x, 'RegistroAlta')[0];
    const anul = alta === undefined ? (bloques(x, 'RegistroAnulacion')[0] ?? '') : '';
    const r = alta ?? anul;
    const id = bloques(r, 'IDFactura')[0] ?? '';
    const nif = campo(id, alta !== undefined ? 'IDEmisorFactura' : 'IDEmisorFacturaAnulada') ?? '';
    const numSerie = campo(id, alta !== undefined ? 'NumSerieFactura' : 'NumSerieFacturaAnulada') ?? '';
    const fecha = campo(id, alta !== undefined ? 'FechaExpedicionFactura' : 'FechaExpedicionFacturaAnulada') ?? '';
    const enc = bloques(r, 'Encadenamiento')[0] ?? '';
    const primero = campo(enc, 'PrimerRegistro') === 'S';
    const anterior = primero ? '' : (campo(enc, 'Huella') ?? '');
    const huellas = bloques(r, 'Huella');
    const huella = huellas[huellas.length - 1] ?? '';
    const ts = campo(r, 'FechaHoraHusoGenRegistro') ?? '';
    const subsanacion = campo(r, 'Subsanacion') === 'S';
    const rechazoPrevio = campo(r, 'RechazoPrevio');
    const sinRegistroPrevio = campo(r, 'SinRegistroPrevio') === 'S';
    const calculada =
      alta !== undefined
        ? huellaDe({
            IDEmisorFactura: nif, NumSerieFactura: numSerie, FechaExpedicionFactura: fecha, TipoFactura: (campo(r, 'TipoFactura') ?? '') as TipoFactura,
            CuotaTotal: campo(r, 'CuotaTotal') ?? '', ImporteTotal: campo(r, 'ImporteTotal') ?? '', Huella: anterior, FechaHoraHusoGenRegistro: ts,
          } satisfies HuellaAlta)
        : huellaDe({
            IDEmisorFacturaAnulada: nif, NumSerieFacturaAnulada: numSerie, FechaExpedicionFacturaAnulada: fecha, Huella: anterior,
            FechaHoraHusoGenRegistro: ts,
          } satisfies HuellaAnulacion);
    const clave = `${nif}|${numSerie}|${fecha}`;
    const previo = this.registrados.get(clave);
    let estado = 'Correcto';
    let codigo: readonly [string, string] | null = null;
    let duplicado = '';
    const mapa = alta === undefined ? this.rechazosAnulacion : subsanacion ? this.rechazosSubsanacion : this.rechazos;
    const rechazo = mapa.get(numSerie);
    if (alta !== undefined && rechazoPrevio && !subsanacion) {
      // Validaciones 3.1.3.2: RechazoPrevio only with Subsanacion = S.
      estado = 'Incorrecto';
      codigo = ['1100', 'Valor o tipo incorrecto del campo: RechazoPrevio.'];
    } else if (alta === undefined && sinRegistroPrevio && previo) {
      // Validaciones §5.2, ERROR (10): an «anulación sin registro previo» of an invoice the AEAT has.
      estado = 'Incorrecto';
      codigo = CODIGOS.duplicado;
    } else if (alta !== undefined && previo && (!subsanacion || rechazoPrevio === 'X')) {
      estado = 'Incorrecto';
      codigo = CODIGOS.duplicado;
      const e = previo.estado === 'Anulada' ? 'Anulada' : previo.estado === 'AceptadoConErrores' ? 'AceptadaConErrores' : 'Correcta';
      duplicado = `<tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>${crypto.randomBytes(6).toString('hex')}</tik:IdPeticionRegistroDuplicado><tik:EstadoRegistroDuplicado>${e}</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado>`;
    } else if ((alta !== undefined && subsanacion && rechazoPrevio !== 'X' && !previo) || (alta === undefined && !previo && !sinRegistroPrevio)) {
      estado = 'Incorrecto';
      codigo = CODIGOS.noExiste;
    } else if (rechazo) {
      mapa.delete(numSerie);
      estado = 'Incorrecto';
      codigo = rechazo;
    } else if (alta !== undefined && !subsanacion && this.conErrores.has(numSerie)) {
      estado = 'AceptadoConErrores';
      codigo = this.conErrores.get(numSerie)!;
      this.conErrores.delete(numSerie);
    } else if (calculada !== huella) {
      estado = 'AceptadoConErrores';
      codigo = CODIGOS.huella;
    } else if (primero && this.ultima.has(nif)) {
      estado = 'AceptadoConErrores';
      codigo = CODIGOS.primerRegistro;
    } else if (!primero && this.ultima.has(nif) && this.ultima.get(nif) !== anterior) {
      estado = 'AceptadoConErrores';
      codigo = CODIGOS.cadena;
    }
    // A duplicate is not a new link of the chain.
    if (codigo !== CODIGOS.duplicado) this.ultima.set(nif, huella);
    if (estado !== 'Incorrecto') this.registrados.set(clave, { estado: alta !== undefined ? estado : 'Anulada', huella });
    const tipo = alta !== undefined ? 'Alta' : 'Anulacion';
    const xml =
      '<tikR:RespuestaLinea>' +
      `<tikR:IDFactura><tik:IDEmisorFactura>${esc(nif)}</tik:IDEmisorFactura><tik:NumSerieFactura>${esc(numSerie)}</tik:NumSerieFactura><tik:FechaExpedicionFactura>${fecha}</tik:FechaExpedicionFactura></tikR:IDFactura>` +
      `<tikR:Operacion><tik:TipoOperacion>${tipo}</tik:TipoOperacion>${subsanacion ? '<tik:Subsanacion>S</tik:Subsanacion>' : ''}${rechazoPrevio ? `<tik:RechazoPrevio>${rechazoPrevio}</tik:RechazoPrevio>` : ''}${sinRegistroPrevio ? '<tik:SinRegistroPrevio>S</tik:SinRegistroPrevio>' : ''}</tikR:Operacion>` +
      `<tikR:EstadoRegistro>${estado}</tikR:EstadoRegistro>` +
      (codigo ? `<tikR:CodigoErrorRegistro>${codigo[0]}</tikR:CodigoErrorRegistro><tikR:DescripcionErrorRegistro>${esc(codigo[1])}</tikR:DescripcionErrorRegistro>` : '') +
      duplicado +
      '</tikR:RespuestaLinea>';
    return { recibido: { nif, numSerie, fecha, tipo, huella, subsanacion, rechazoPrevio, sinRegistroPrevio, estado, codigo: codigo?.[0] ?? null }, xml };
  }
}
