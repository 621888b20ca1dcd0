import crypto from 'node:crypto';
import forge from 'node-forge';
import { APERTURA, CIERRE, ESPACIOS, el, texto } from './facturae.ts';

/**
 * XAdES-EPES enveloped signature of a Facturae file (issue 16), policy «Política de Firma FacturaE v3.1», with the
 * company's certificate stored for VERI*FACTU. RSA-SHA256, SHA-256 digests, inclusive C14N 1.0.
 *
 * The canonical form is not computed from a parsed tree: every byte of the file is written here and in facturae.ts
 * already canonical (namespaces declared once on the root, attributes in order, no empty-element tags, C14N's
 * escaping, no whitespace between elements), so
 * - the document's digest (URI "", enveloped-signature transform) is over `APERTURA + contenido + CIERRE`: the file
 *   without its ds:Signature, exactly as C14N renders it;
 * - a signed part referenced by Id (SignedInfo, SignedProperties, KeyInfo) canonicalises as written, plus the
 *   namespaces in scope from the root rendered on its own tag (inclusive C14N of a document subset).
 * test/facturae.test.ts verifies the result with xmlsec1, which canonicalises on its own.
 */

const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SIGNED_PROPERTIES = 'http://uri.etsi.org/01903#SignedProperties';

/** The Facturae signature policy v3.1 and the SHA-1 digest of its PDF (as the policy itself publishes it). */
export const POLITICA_FACTURAE = {
  url: 'http://www.facturae.es/politica_de_firma_formato_facturae/politica_de_firma_formato_facturae_v3_1.pdf',
  descripcion: 'Política de Firma FacturaE v3.1',
  digestSha1: 'Ohixl6upD6av8N7pEvDABhEL6hM=',
};

/** The key and certificate a PKCS#12 holds (its end-entity certificate: the one that issued no other in the file). */
export type Firmante = { key: crypto.KeyObject; cert: crypto.X509Certificate };

export function firmanteDePkcs12(pfx: Buffer, password: string): Firmante {
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary'))), false, password);
  const keyBag = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ].find((b) => b.key);
  const certs = (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).map((b) => b.cert).filter((c) => !!c);
  const cert = certs.find((c) => !certs.some((o) => o !== c && o.issuer.hash === c.subject.hash && o.subject.hash !== c.subject.hash)) ?? certs[0];
  if (!keyBag?.key || !cert) throw new Error('PKCS#12 without a key or a certificate');
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  return { key: crypto.createPrivateKey(forge.pki.privateKeyToPem(keyBag.key)), cert: new crypto.X509Certificate(der) };
}

const b64 = (b: Buffer) => b.toString('base64');
const sha256 = (s: string | Buffer) => crypto.createHash('sha256').update(s).digest('base64');

/** The in-scope namespaces a signed part renders on its own tag when canonicalised alone. */
const declaraciones = ESPACIOS.map(([p, ns]) => ` xmlns:${p}="${ns}"`).join('');

/** A part as C14N renders it alone: `<ds:SignedInfo Id="x">…` → `<ds:SignedInfo xmlns:ds=… xmlns:fe=… xmlns:xades=… Id="x">…`. */
export function canonicoAparte(parte: string): string {
  const fin = parte.search(/[ >]/);
  return `${parte.slice(0, fin)}${declaraciones}${parte.slice(fin)}`;
}

/** RFC 4514 name from Node's («C=ES\nO=…\nCN=…», first RDN first): the last RDN first, separated by commas. */
function nombreRfc4514(n: string): string {
  return n
    .split('\n')
    .filter(Boolean)
    .reverse()
    .map((rdn) => {
      const i = rdn.indexOf('=');
      const v = rdn.slice(i + 1).replace(/([,+"\\<>;])/g, '\\$1');
      return `${rdn.slice(0, i)}=${v}`;
    })
    .join(',');
}

/** An RSA public key's modulus and exponent, base64 (ds:RSAKeyValue). */
function rsaKeyValue(cert: crypto.X509Certificate): string {
  const jwk = cert.publicKey.export({ format: 'jwk' }) as { n?: string; e?: string };
  if (!jwk.n || !jwk.e) return '';
  const de = (v: string) => b64(Buffer.from(v, 'base64url'));
  return el('ds:KeyValue', el('ds:RSAKeyValue', el('ds:Modulus', de(jwk.n)) + el('ds:Exponent', de(jwk.e))));
}

const referencia = (uri: string, digest: string, attrs: [string, string][], transforms = '') =>
  el('ds:Reference', transforms + el('ds:DigestMethod', '', [['Algorithm', SHA256]]) + el('ds:DigestValue', digest), [...attrs, ['URI', uri]]);

/**
 * The signed file: `<?xml …?>` and the root holding `contenido` (facturae.ts, canonical) and the ds:Signature.
 * `ahora` is the signing time.
 */
export function firmarFacturae(contenido: string, firmante: Firmante, ahora = new Date()): string {
  const id = crypto.randomBytes(6).toString('hex');
  const ids = {
    firma: `Signature-${id}`,
    info: `SignedInfo-${id}`,
    doc: `Reference-Documento-${id}`,
    props: `SignedProperties-${id}`,
    clave: `KeyInfo-${id}`,
    valor: `SignatureValue-${id}`,
    objeto: `Object-${id}`,
  };
  const { cert, key } = firmante;

  // The document without its signature, as the enveloped-signature transform and C14N leave it.
  const documento = APERTURA + contenido + CIERRE;

  const keyInfo = el('ds:KeyInfo', el('ds:X509Data', el('ds:X509Certificate', b64(cert.raw))) + rsaKeyValue(cert), [['Id', ids.clave]]);

  const serie = BigInt(`0x${cert.serialNumber}`).toString();
  const signedProperties = el(
    'xades:SignedProperties',
    el(
      'xades:SignedSignatureProperties',
      el('xades:SigningTime', ahora.toISOString().replace(/\.\d{3}Z$/, 'Z')) +
        el(
          'xades:SigningCertificate',
          el(
            'xades:Cert',
            el('xades:CertDigest', el('ds:DigestMethod', '', [['Algorithm', SHA256]]) + el('ds:DigestValue', sha256(cert.raw))) +
              el('xades:IssuerSerial', el('ds:X509IssuerName', texto(nombreRfc4514(cert.issuer))) + el('ds:X509SerialNumber', serie)),
          ),
        ) +
        el(
          'xades:SignaturePolicyIdentifier',
          el(
            'xades:SignaturePolicyId',
            el('xades:SigPolicyId', el('xades:Identifier', POLITICA_FACTURAE.url) + el('xades:Description', texto(POLITICA_FACTURAE.descripcion))) +
              el('xades:SigPolicyHash', el('ds:DigestMethod', '', [['Algorithm', SHA1]]) + el('ds:DigestValue', POLITICA_FACTURAE.digestSha1)),
          ),
        ) +
        el('xades:SignerRole', el('xades:ClaimedRoles', el('xades:ClaimedRole', 'emisor'))),
    ) +
      el(
        'xades:SignedDataObjectProperties',
        el('xades:DataObjectFormat', el('xades:Description', 'Factura electrónica') + el('xades:MimeType', 'text/xml'), [['ObjectReference', `#${ids.doc}`]]),
      ),
    [['Id', ids.props]],
  );

  const signedInfo = el(
    'ds:SignedInfo',
    el('ds:CanonicalizationMethod', '', [['Algorithm', C14N]]) +
      el('ds:SignatureMethod', '', [['Algorithm', RSA_SHA256]]) +
      referencia('', sha256(documento), [['Id', ids.doc]], el('ds:Transforms', el('ds:Transform', '', [['Algorithm', ENVELOPED]]))) +
      referencia(`#${ids.props}`, sha256(canonicoAparte(signedProperties)), [['Type', SIGNED_PROPERTIES]]) +
      referencia(`#${ids.clave}`, sha256(canonicoAparte(keyInfo)), []),
    [['Id', ids.info]],
  );
  const valor = crypto.sign('sha256', Buffer.from(canonicoAparte(signedInfo), 'utf8'), key);

  const firma = el(
    'ds:Signature',
    signedInfo +
      el('ds:SignatureValue', b64(valor), [['Id', ids.valor]]) +
      keyInfo +
      el('ds:Object', el('xades:QualifyingProperties', signedProperties, [['Target', `#${ids.firma}`]]), [['Id', ids.objeto]]),
    [['Id', ids.firma]],
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${APERTURA}${contenido}${firma}${CIERRE}`;
}

