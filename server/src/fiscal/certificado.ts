import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import forge from 'node-forge';
import { MESSAGES } from 'shared/domain';
import { fail } from '../errors.ts';

/**
 * The company's client certificate for VERI*FACTU (issue 9): a PKCS#12 (.p12 / .pfx) and its password, kept
 * encrypted at rest with AES-256-GCM under a key that is never in the database: MANAGER_SECRET_KEY (32 bytes, hex or
 * base64) or, without it, DATA_DIR/clave-secreta, created with mode 0600 the first time it is needed. Several
 * instances on one PostgreSQL must share the key (MANAGER_SECRET_KEY) to read a certificate uploaded on another one.
 */

export type InfoCertificado = {
  titular: string;
  nif: string;
  emisor: string;
  /** aaaa-mm-dd. */
  caduca: string;
  /** It signs itself: no recognised authority (FNMT, Camerfirma…) issued it, and the AEAT will not accept it. */
  autofirmado: boolean;
  /** A seal certificate (sello electrónico of a legal person): its records go to the seal endpoints (www10 / prewww10). */
  sello: boolean;
};

const KEY_FILE = 'clave-secreta';

/** The 32-byte key: MANAGER_SECRET_KEY, or the data folder's key file (created on first need). */
export function claveSecreta(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const raw = env.MANAGER_SECRET_KEY?.trim();
  if (raw) {
    const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new Error('MANAGER_SECRET_KEY must be 32 bytes (64 hex digits or base64)');
    return key;
  }
  const file = path.join(dataDir, KEY_FILE);
  try {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length === 32) return key;
    throw new Error(`${file} is not a 32-byte hex key`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = crypto.randomBytes(32);
  try {
    // 'wx': two processes creating it at once keep the first one's.
    fs.writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return claveSecreta(dataDir, env);
    throw err;
  }
}

export type Cifrado = { datos: Buffer; iv: Buffer; tag: Buffer };

export function cifrar(key: Buffer, plano: Buffer): Cifrado {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', key, iv);
  const datos = Buffer.concat([c.update(plano), c.final()]);
  return { datos, iv, tag: c.getAuthTag() };
}

/** Throws when the key is not the one it was encrypted with (or the data was altered). */
export function descifrar(key: Buffer, { datos, iv, tag }: Cifrado): Buffer {
  const d = crypto.createDecipheriv('aes-256-gcm', key, iv);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(datos), d.final()]);
}

/** The certificate and password as stored (inside the encryption). */
export const empaquetar = (pfx: Buffer, password: string) => Buffer.from(JSON.stringify({ pfx: pfx.toString('base64'), password }), 'utf8');
export function desempaquetar(plano: Buffer): { pfx: Buffer; password: string } {
  const o = JSON.parse(plano.toString('utf8')) as { pfx: string; password: string };
  return { pfx: Buffer.from(o.pfx, 'base64'), password: o.password };
}

const OID_SERIAL = '2.5.4.5';
const OID_ORG_ID = '2.5.4.97';

/** The Spanish NIF a certificate names: serialNumber (IDCES-12345678Z) or organizationIdentifier (VATES-B12345678). */
function nifDe(subject: forge.pki.Certificate['subject']): string {
  for (const oid of [OID_ORG_ID, OID_SERIAL]) {
    const v = subject.getField({ type: oid })?.value;
    if (typeof v === 'string' && v.trim()) return v.trim().replace(/^(IDCES|VATES|IDC|VAT)[-\s]?(ES)?-?/i, '');
  }
  return '';
}

/** eIDAS policies of certificates for legal persons (seals): QCP-l and QCP-l-qscd (ETSI EN 319 411-2). */
const POLITICAS_SELLO = new Set(['0.4.0.194112.1.1', '0.4.0.194112.1.3']);
/** The qcStatements' QcType of an electronic seal (ETSI EN 319 412-5, id-etsi-qct-eseal). */
const QCT_ESEAL = '0.4.0.1862.1.6.2';

/** Every OBJECT IDENTIFIER inside an extension's DER value. */
function oidsDe(der: string): string[] {
  const out: string[] = [];
  const walk = (n: forge.asn1.Asn1) => {
    if (n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.OID && typeof n.value === 'string') out.push(forge.asn1.derToOid(n.value));
    else if (Array.isArray(n.value)) for (const c of n.value) walk(c);
  };
  try {
    walk(forge.asn1.fromDer(der));
  } catch {
    // Not DER: nothing to read.
  }
  return out;
}

/**
 * Whether the certificate is an electronic seal's (issue 16): its policies say so (eIDAS QCP-l), or its
 * qcStatements' QcType is eseal; without those, a subject that names an organisation (organizationIdentifier) and no
 * person (no given name, surname or personal serialNumber) is taken for a seal.
 */
export function esSello(cert: forge.pki.Certificate): boolean {
  const ext = (id: string) => (cert.extensions as { id?: string; value?: string }[]).find((e) => e.id === id)?.value;
  const politicas = ext('2.5.29.32');
  if (politicas && oidsDe(politicas).some((o) => POLITICAS_SELLO.has(o))) return true;
  const qc = ext('1.3.6.1.5.5.7.1.3');
  if (qc && oidsDe(qc).includes(QCT_ESEAL)) return true;
  const campo = (oid: string) => cert.subject.getField({ type: oid })?.value;
  return !!campo(OID_ORG_ID) && !campo('2.5.4.42') && !campo('2.5.4.4') && !campo(OID_SERIAL);
}

const nombreDe = (name: forge.pki.Certificate['subject']) =>
  String(name.getField('CN')?.value ?? name.getField('O')?.value ?? '').trim();

const ddmmaaaa = (iso: string) => iso.split('-').reverse().join('/');

/**
 * Reads a PKCS#12 with its password: the end-entity certificate's holder, NIF, issuer and expiry. Refuses (with
 * the user's message) a file that is not PKCS#12, a wrong password, one without a private key, an expired one; and
 * checks that Node's TLS can use it as it is (what the sender does).
 */
export function leerPkcs12(pfx: Buffer, password: string, now = new Date()): InfoCertificado {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary')));
  } catch {
    throw fail(MESSAGES.certificadoNoValido, '1', 400);
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const msg = String((err as Error).message ?? '');
    if (/password|mac could not be verified/i.test(msg)) throw fail(MESSAGES.certificadoPasswordIncorrecta, '1', 400);
    throw fail(MESSAGES.certificadoNoValido, '1', 400);
  }
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  if (!keyBags.length) throw fail(MESSAGES.certificadoSinClave, '1', 400);
  const certs = (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).map((b) => b.cert).filter((c) => !!c);
  // The end-entity certificate: the one that issued no other in the file (a CA chain may travel with it).
  const cert = certs.find((c) => !certs.some((o) => o !== c && o.issuer.hash === c.subject.hash && o.subject.hash !== c.subject.hash)) ?? certs[0];
  if (!cert) throw fail(MESSAGES.certificadoNoValido, '1', 400);
  const caduca = cert.validity.notAfter.toISOString().slice(0, 10);
  if (cert.validity.notAfter.getTime() < now.getTime()) throw fail(MESSAGES.certificadoCaducado.replace('{fecha}', ddmmaaaa(caduca)), '1', 400);
  try {
    tls.createSecureContext({ pfx, passphrase: password });
  } catch (err) {
    const msg = String((err as Error).message ?? '');
    if (/mac verify|password/i.test(msg)) throw fail(MESSAGES.certificadoPasswordIncorrecta, '1', 400);
    throw fail(MESSAGES.certificadoNoValido, '1', 400);
  }
  return { titular: nombreDe(cert.subject), nif: nifDe(cert.subject), emisor: nombreDe(cert.issuer), caduca, autofirmado: cert.issuer.hash === cert.subject.hash, sello: esSello(cert) };
}

/** Whole days from today to `caduca` (negative once expired). */
export function diasHasta(caduca: string, now = new Date()): number {
  const fin = Date.parse(`${caduca}T23:59:59Z`);
  return Math.floor((fin - now.getTime()) / 86_400_000);
}
