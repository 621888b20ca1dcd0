import https from 'node:https';
import { NS_LR, NS_SF } from './registro.ts';

/**
 * The AEAT's VERI*FACTU web service (Veri-Factu_Descripcion_SWeb.txt in docs/fuentes/aeat/): the SOAP request
 * RegFactuSistemaFacturacion with up to 1.000 RegistroFactura, sent over TLS with the company's certificate, and its
 * answer (RespuestaRegFactuSistemaFacturacion) read per record.
 */

/** The service's address per environment (the SistemaFacturacion.wsdl's VerifactuSOAP port). */
export const ENDPOINTS = {
  pruebas: 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  produccion: 'https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
} as const;
export type Entorno = keyof typeof ENDPOINTS;

/**
 * The same service for a seal certificate (certificado de sello electrónico: a legal person's seal, not a natural
 * person's or a representative's certificate), the WSDL's VerifactuSOAP port on the seal hosts (www10 / prewww10).
 */
export const ENDPOINTS_SELLO = {
  pruebas: 'https://prewww10.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  produccion: 'https://www10.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
} as const;

/** What the Cabecera of a request adds to the stored ObligadoEmision (SuministroInformacion.xsd CabeceraType). */
export type OpcionesCabecera = {
  /** The representative or advisor whose certificate sends (its name and NIF). */
  representante?: { nombre: string; nif: string } | null;
  /** RemisionVoluntaria/Incidencia = S: records generated during an outage, sent late because of it. */
  incidencia?: boolean;
  /**
   * RemisionVoluntaria/FechaFinVeriFactu ('2026-12-31', written 31-12-2026): the company leaves VERI*FACTU at the end of
   * that year (Validaciones 3.1.1.3).
   */
  fechaFinVeriFactu?: string | null;
};

const escXml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** At most this many records per request (the record design, apartado 2.2). */
export const LOTE_MAXIMO = 1000;
/** The waiting time before the AEAT's first answer says another (article 16.2 of the Orden). */
export const TIEMPO_ESPERA_INICIAL = 60;

export const NS_SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';

/** What a stored record document (registro.ts: RegFactuSistemaFacturacion with one record) holds between two tags. */
function entre(xml: string, open: string, close: string): string {
  const a = xml.indexOf(open);
  const b = xml.lastIndexOf(close);
  if (a < 0 || b < a) throw new Error(`record XML without ${open}`);
  return xml.slice(a + open.length, b);
}

/**
 * The SOAP request of a batch: the first record's Cabecera (ObligadoEmision: every record of a batch has the same
 * issuer) and each record's RegistroFactura as it was stored — byte for byte what was generated and chained.
 */
export function sobre(xmls: readonly string[], o: OpcionesCabecera = {}): string {
  if (!xmls.length) throw new Error('empty batch');
  let cabecera = entre(xmls[0], '<sfLR:Cabecera>', '</sfLR:Cabecera>');
  // In the schema's order: ObligadoEmision, Representante, RemisionVoluntaria.
  if (o.representante) {
    cabecera += `<sf:Representante><sf:NombreRazon>${escXml(o.representante.nombre.slice(0, 120))}</sf:NombreRazon><sf:NIF>${escXml(o.representante.nif)}</sf:NIF></sf:Representante>`;
  }
  // RemisionVoluntaria: FechaFinVeriFactu, then Incidencia (the schema's order).
  const fin = o.fechaFinVeriFactu ? `<sf:FechaFinVeriFactu>${o.fechaFinVeriFactu.split('-').reverse().join('-')}</sf:FechaFinVeriFactu>` : '';
  const incidencia = o.incidencia ? '<sf:Incidencia>S</sf:Incidencia>' : '';
  if (fin || incidencia) cabecera += `<sf:RemisionVoluntaria>${fin}${incidencia}</sf:RemisionVoluntaria>`;
  let body = '';
  for (const x of xmls) body += `<sfLR:RegistroFactura>${entre(x, '<sfLR:RegistroFactura>', '</sfLR:RegistroFactura>')}</sfLR:RegistroFactura>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<soapenv:Envelope xmlns:soapenv="${NS_SOAP}" xmlns:sfLR="${NS_LR}" xmlns:sf="${NS_SF}">` +
    '<soapenv:Header/><soapenv:Body>' +
    `<sfLR:RegFactuSistemaFacturacion><sfLR:Cabecera>${cabecera}</sfLR:Cabecera>${body}</sfLR:RegFactuSistemaFacturacion>` +
    '</soapenv:Body></soapenv:Envelope>\n'
  );
}

const unescapeXml = (v: string) =>
  v
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&amp;/g, '&');

/** The text of the first element named `name` (any namespace prefix) in `xml`, or null. */
export function campo(xml: string, name: string): string | null {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>`).exec(xml);
  return m ? unescapeXml(m[1].trim()) : null;
}

/** Every `name` element's inner XML (any prefix). */
export function bloques(xml: string, name: string): string[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>`, 'g');
  return [...xml.matchAll(re)].map((m) => m[1]);
}

export type LineaRespuesta = {
  nif: string;
  numSerie: string;
  /** dd-mm-aaaa. */
  fecha: string;
  operacion: 'Alta' | 'Anulacion' | string;
  estado: 'Correcto' | 'AceptadoConErrores' | 'Incorrecto' | string;
  codigo: string | null;
  descripcion: string | null;
  /** A duplicate: the state of the record the AEAT already had (Correcta, AceptadaConErrores, Anulada). */
  estadoDuplicado: string | null;
};

export type Respuesta = {
  csv: string | null;
  estadoEnvio: string;
  tiempoEspera: number | null;
  lineas: LineaRespuesta[];
};

/** The AEAT's answer to a batch; null when the body is not one. */
export function leerRespuesta(xml: string): Respuesta | null {
  const raiz = bloques(xml, 'RespuestaRegFactuSistemaFacturacion')[0];
  if (raiz === undefined) return null;
  const espera = campo(raiz, 'TiempoEsperaEnvio');
  const lineas = bloques(raiz, 'RespuestaLinea').map((l): LineaRespuesta => {
    const id = bloques(l, 'IDFactura')[0] ?? '';
    const dup = bloques(l, 'RegistroDuplicado')[0];
    return {
      nif: campo(id, 'IDEmisorFactura') ?? '',
      numSerie: campo(id, 'NumSerieFactura') ?? '',
      fecha: campo(id, 'FechaExpedicionFactura') ?? '',
      operacion: campo(l, 'TipoOperacion') ?? '',
      estado: campo(l, 'EstadoRegistro') ?? '',
      // The line's own code, not the duplicate's.
      codigo: campo(dup ? l.replace(dup, '') : l, 'CodigoErrorRegistro'),
      descripcion: campo(dup ? l.replace(dup, '') : l, 'DescripcionErrorRegistro'),
      estadoDuplicado: dup ? campo(dup, 'EstadoRegistroDuplicado') : null,
    };
  });
  return {
    csv: campo(raiz, 'CSV'),
    estadoEnvio: campo(raiz, 'EstadoEnvio') ?? '',
    tiempoEspera: espera !== null && /^\d+$/.test(espera) ? Number(espera) : null,
    lineas,
  };
}

/** A SOAP Fault: the whole request refused (a Client fault) or the service failing (a Server fault). */
export function leerFault(xml: string): { codigo: string; texto: string; cliente: boolean } | null {
  const f = bloques(xml, 'Fault')[0];
  if (f === undefined) return null;
  const code = campo(f, 'faultcode') ?? '';
  const texto = (campo(f, 'faultstring') ?? '').replace(/\s+/g, ' ').trim();
  const m = /Codigo\[(\d+)\]/.exec(texto);
  return { codigo: m?.[1] ?? '', texto, cliente: /client/i.test(code) };
}

export type ResultadoHttp = { status: number; body: string };

/** A transport failure: no connection, TLS refused, timeout. The batch stays pending. */
export class ErrorTransporte extends Error {}

export type OpcionesEnvio = {
  endpoint: string;
  pfx: Buffer;
  passphrase: string;
  /** Extra trusted CAs (the test double's); the system's otherwise. */
  ca?: string | Buffer;
  timeoutMs: number;
};

/** POSTs the SOAP request with the client certificate; the answer's status and body whatever they are. */
export function enviarSoap(xml: string, o: OpcionesEnvio): Promise<ResultadoHttp> {
  return new Promise((resolve, reject) => {
    const url = new URL(o.endpoint);
    const body = Buffer.from(xml, 'utf8');
    const req = https.request(
      {
        method: 'POST',
        hostname: url.hostname,
        port: url.port || 443,
        path: url.pathname + url.search,
        pfx: o.pfx,
        passphrase: o.passphrase,
        ...(o.ca ? { ca: o.ca } : {}),
        // A fresh connection per batch: no socket left open in a pool after it.
        agent: false,
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""', 'Content-Length': body.length },
        timeout: o.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => reject(new ErrorTransporte(err.message)));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`sin respuesta en ${Math.round(o.timeoutMs / 1000)} s`)));
    req.on('error', (err) => reject(new ErrorTransporte(err.message)));
    req.end(body);
  });
}
