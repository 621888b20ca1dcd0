import { ibanSepa } from 'shared/domain';

/**
 * The SEPA files the banks take (issue 26): credit transfers to suppliers (ISO 20022 pain.001.001.03) and direct debits
 * of customers (pain.008.001.02), as the EPC implementation guidelines and the Spanish banks' (AEB/CSB 34.14 and 19.14)
 * ask: one payment block per execution date (transfers) or per sequence type and scheme (debits), amounts in euros
 * with two decimals, each block's and the header's number of transactions and control sum (Σ of their amounts).
 * Both validate against src/fiscal/xsd/pain.001.001.03.xsd and pain.008.001.02.xsd (test/sepa.test.ts).
 */

/** Cents as the files write euros: '1234.50' (exact: integer arithmetic). */
export function euros(cents: number | bigint): string {
  const c = BigInt(cents);
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/**
 * Text in the EPC's basic Latin set (a–z A–Z 0–9 / - ? : ( ) . , ' + space): accents dropped, ñ → n, ç → c, anything
 * else a space; trimmed to `max` characters. Spanish banks reject the rest.
 */
export function textoSepa(s: string, max: number): string {
  const t = s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, '+')
    .replace(/[^A-Za-z0-9/?:().,'+ -]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
  return t || '-';
}

/** An identifier (MsgId, EndToEndId, mandate reference): the restricted set, no spaces, ≤ 35. */
export const idSepa = (s: string) => textoSepa(s, 35).replace(/ /g, '');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A bank's identification: its BIC, or «NOTPROVIDED» (IBAN only, allowed inside SEPA since 2016). */
const agente = (bic: string | null | undefined) =>
  bic ? `<FinInstnId><BIC>${esc(bic.toUpperCase())}</BIC></FinInstnId>` : '<FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId>';

export type Empresa = { razon_social: string; nif: string; iban: string; bic: string | null; acreedor_sepa?: string | null };

export type Transferencia = {
  /** Unique end-to-end reference (the supplier sees it). */
  referencia: string;
  importe: number;
  nombre: string;
  iban: string;
  bic?: string | null;
  concepto: string;
};

/** pain.001.001.03: the company (debtor) pays each supplier (creditor) on `fecha`. */
export function pain001(p: { mensajeId: string; creado: string; fecha: string; empresa: Empresa; pagos: Transferencia[] }): string {
  const total = p.pagos.reduce((s, x) => s + BigInt(x.importe), 0n);
  const n = p.pagos.length;
  const nombre = esc(textoSepa(p.empresa.razon_social, 70));
  const tx = p.pagos
    .map(
      (x) => `<CdtTrfTxInf>
<PmtId><EndToEndId>${esc(idSepa(x.referencia))}</EndToEndId></PmtId>
<Amt><InstdAmt Ccy="EUR">${euros(x.importe)}</InstdAmt></Amt>
${x.bic ? `<CdtrAgt>${agente(x.bic)}</CdtrAgt>\n` : ''}<Cdtr><Nm>${esc(textoSepa(x.nombre, 70))}</Nm></Cdtr>
<CdtrAcct><Id><IBAN>${esc(ibanSepa(x.iban))}</IBAN></Id></CdtrAcct>
<RmtInf><Ustrd>${esc(textoSepa(x.concepto, 140))}</Ustrd></RmtInf>
</CdtTrfTxInf>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<CstmrCdtTrfInitn>
<GrpHdr>
<MsgId>${esc(idSepa(p.mensajeId))}</MsgId>
<CreDtTm>${p.creado}</CreDtTm>
<NbOfTxs>${n}</NbOfTxs>
<CtrlSum>${euros(total)}</CtrlSum>
<InitgPty><Nm>${nombre}</Nm></InitgPty>
</GrpHdr>
<PmtInf>
<PmtInfId>${esc(idSepa(`${p.mensajeId}-1`))}</PmtInfId>
<PmtMtd>TRF</PmtMtd>
<BtchBookg>true</BtchBookg>
<NbOfTxs>${n}</NbOfTxs>
<CtrlSum>${euros(total)}</CtrlSum>
<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>
<ReqdExctnDt>${p.fecha}</ReqdExctnDt>
<Dbtr><Nm>${nombre}</Nm></Dbtr>
<DbtrAcct><Id><IBAN>${esc(ibanSepa(p.empresa.iban))}</IBAN></Id></DbtrAcct>
<DbtrAgt>${agente(p.empresa.bic)}</DbtrAgt>
<ChrgBr>SLEV</ChrgBr>
${tx}
</PmtInf>
</CstmrCdtTrfInitn>
</Document>
`;
}

export type Adeudo = {
  referencia: string;
  importe: number;
  secuencia: 'FRST' | 'RCUR';
  esquema: 'CORE' | 'B2B';
  mandato: string;
  mandatoFecha: string;
  nombre: string;
  iban: string;
  bic?: string | null;
  concepto: string;
};

/**
 * pain.008.001.02: the company (creditor, with its creditor identifier) collects each receipt on `fecha`; one payment
 * block per scheme and sequence type (CORE FRST, CORE RCUR, B2B…), each with its count and control sum.
 */
export function pain008(p: { mensajeId: string; creado: string; fecha: string; empresa: Empresa; adeudos: Adeudo[] }): string {
  const total = p.adeudos.reduce((s, x) => s + BigInt(x.importe), 0n);
  const nombre = esc(textoSepa(p.empresa.razon_social, 70));
  const grupos = new Map<string, Adeudo[]>();
  for (const a of p.adeudos) {
    const k = `${a.esquema}-${a.secuencia}`;
    grupos.set(k, [...(grupos.get(k) ?? []), a]);
  }
  const bloques = [...grupos.entries()].map(([k, lista]) => {
    const suma = lista.reduce((s, x) => s + BigInt(x.importe), 0n);
    const tx = lista
      .map(
        (x) => `<DrctDbtTxInf>
<PmtId><EndToEndId>${esc(idSepa(x.referencia))}</EndToEndId></PmtId>
<InstdAmt Ccy="EUR">${euros(x.importe)}</InstdAmt>
<DrctDbtTx><MndtRltdInf><MndtId>${esc(textoSepa(x.mandato, 35))}</MndtId><DtOfSgntr>${x.mandatoFecha}</DtOfSgntr></MndtRltdInf></DrctDbtTx>
<DbtrAgt>${agente(x.bic)}</DbtrAgt>
<Dbtr><Nm>${esc(textoSepa(x.nombre, 70))}</Nm></Dbtr>
<DbtrAcct><Id><IBAN>${esc(ibanSepa(x.iban))}</IBAN></Id></DbtrAcct>
<RmtInf><Ustrd>${esc(textoSepa(x.concepto, 140))}</Ustrd></RmtInf>
</DrctDbtTxInf>`,
      )
      .join('\n');
    return `<PmtInf>
<PmtInfId>${esc(idSepa(`${p.mensajeId}-${k}`))}</PmtInfId>
<PmtMtd>DD</PmtMtd>
<BtchBookg>true</BtchBookg>
<NbOfTxs>${lista.length}</NbOfTxs>
<CtrlSum>${euros(suma)}</CtrlSum>
<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl><LclInstrm><Cd>${lista[0].esquema}</Cd></LclInstrm><SeqTp>${lista[0].secuencia}</SeqTp></PmtTpInf>
<ReqdColltnDt>${p.fecha}</ReqdColltnDt>
<Cdtr><Nm>${nombre}</Nm></Cdtr>
<CdtrAcct><Id><IBAN>${esc(ibanSepa(p.empresa.iban))}</IBAN></Id></CdtrAcct>
<CdtrAgt>${agente(p.empresa.bic)}</CdtrAgt>
<ChrgBr>SLEV</ChrgBr>
<CdtrSchmeId><Id><PrvtId><Othr><Id>${esc(p.empresa.acreedor_sepa ?? '')}</Id><SchmeNm><Prtry>SEPA</Prtry></SchmeNm></Othr></PrvtId></Id></CdtrSchmeId>
${tx}
</PmtInf>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.008.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<CstmrDrctDbtInitn>
<GrpHdr>
<MsgId>${esc(idSepa(p.mensajeId))}</MsgId>
<CreDtTm>${p.creado}</CreDtTm>
<NbOfTxs>${p.adeudos.length}</NbOfTxs>
<CtrlSum>${euros(total)}</CtrlSum>
<InitgPty><Nm>${nombre}</Nm></InitgPty>
</GrpHdr>
${bloques.join('\n')}
</CstmrDrctDbtInitn>
</Document>
`;
}
