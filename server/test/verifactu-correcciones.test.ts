import forge from 'node-forge';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { ENDPOINTS_SELLO, sobre } from '../src/fiscal/aeat.ts';
import { finAdmitido } from '../src/fiscal/envio.ts';
import { esSello } from '../src/fiscal/certificado.ts';
import { reloj } from '../src/fiscal/registro.ts';
import { crearPki, politicasDer } from './aeat-double.ts';
import { list, save } from './catalogo-fixtures.ts';
import { backends } from './helpers.ts';
import type { TestApp } from './helpers.ts';
import { HOY, conAeat, factura, hasta, info, preparar, registros, subirCertificado } from './verifactu-fixtures.ts';
import type { Fixture, Registro } from './verifactu-fixtures.ts';

/**
 * Issue 16, «every correction the AEAT accepts»: each rule is a test named after where Validaciones_Errores_Veri-Factu
 * (docs/fuentes/aeat/) states it. The AEAT is the local double (test/aeat-double.ts), which checks every request
 * with xmllint against SuministroLR.xsd and answers as §5.1 and §5.2 describe.
 */

const PKI = crearPki();

/** The next number of serie A (the records so far + 1: every record here is of serie A or a correction of one). */
const siguiente = async (t: TestApp, cookie: string) => {
  const altas = (await registros(t, cookie, { tipo: 'alta' })).filter((r) => r.subsana_id === null);
  return `A ${HOY.slice(0, 4)}/${String(altas.length + 1).padStart(6, '0')}`;
};
/** Waits for the double's waiting time to pass, so the next batch leaves at the next tick. */
const esperaAeat = () => new Promise((r) => setTimeout(r, 1100));

describe('FechaFinVeriFactu in the Cabecera (Validaciones 3.1.1.3)', () => {
  it('goes in RemisionVoluntaria before Incidencia, as 31-12-AAAA, only for this year or the last', () => {
    const doc = '<sfLR:RegFactuSistemaFacturacion><sfLR:Cabecera><sf:ObligadoEmision><sf:NombreRazon>E</sf:NombreRazon><sf:NIF>B1</sf:NIF></sf:ObligadoEmision></sfLR:Cabecera><sfLR:RegistroFactura>x</sfLR:RegistroFactura></sfLR:RegFactuSistemaFacturacion>';
    expect(sobre([doc], { fechaFinVeriFactu: '2026-12-31', incidencia: true })).toContain(
      '</sf:ObligadoEmision><sf:RemisionVoluntaria><sf:FechaFinVeriFactu>31-12-2026</sf:FechaFinVeriFactu><sf:Incidencia>S</sf:Incidencia></sf:RemisionVoluntaria></sfLR:Cabecera>',
    );
    expect(sobre([doc], {})).not.toContain('RemisionVoluntaria');
    expect(finAdmitido('2026-12-31', '2026-11-26')).toBe('2026-12-31');
    expect(finAdmitido('2026-12-31', '2027-01-05')).toBe('2026-12-31');
    expect(finAdmitido('2026-12-31', '2028-01-05')).toBeNull();
    expect(finAdmitido(null, '2026-11-26')).toBeNull();
  });
});

describe('the seal certificate (issue 16)', () => {
  const cert = (subject: forge.pki.CertificateField[], extensions: object[] = []) => {
    const keys = forge.pki.rsa.generateKeyPair({ bits: 512, e: 0x10001 });
    const c = forge.pki.createCertificate();
    c.publicKey = keys.publicKey;
    c.setSubject(subject);
    c.setIssuer(subject);
    c.setExtensions(extensions);
    return c;
  };
  it('is told from a natural person\'s or a representative\'s by its policies, its qcStatements or its subject', () => {
    expect(esSello(cert([{ name: 'commonName', value: 'SELLO' }, { type: '2.5.4.97', value: 'VATES-B86420973' }, { name: 'organizationName', value: 'X' }]))).toBe(true);
    expect(esSello(cert([{ name: 'commonName', value: 'SELLO' }, { type: '2.5.4.5', value: 'IDCES-B86420973' }], [{ id: '2.5.29.32', value: politicasDer(['0.4.0.194112.1.1']) }]))).toBe(true);
    // A representative of a legal person: its own serialNumber (the person's DNI) beside the company's identifier.
    expect(
      esSello(cert([{ name: 'commonName', value: 'JUAN' }, { type: '2.5.4.5', value: 'IDCES-12345678Z' }, { type: '2.5.4.97', value: 'VATES-B86420973' }], [{ id: '2.5.29.32', value: politicasDer(['0.4.0.194112.1.0']) }])),
    ).toBe(false);
    expect(esSello(cert([{ name: 'commonName', value: 'EMPRESA' }, { type: '2.5.4.5', value: 'IDCES-B86420973' }]))).toBe(false);
  });
});

describe.each(backends())('VERI*FACTU corrections ($name)', { timeout: 60_000 }, (backend) => {
  const { t, double } = conAeat(backend, PKI, { tickMs: 100, backoffMs: 200, backoffMaxMs: 400, timeoutMs: 1500, loteMax: 20 }, (d) => {
    d.espera = 1;
  });
  afterEach(() => {
    reloj.ahora = () => Date.now();
  });
  let f: Fixture;

  it('FAQ 4: NumeroInstalacion is generated once, kept and shown, and every record of the company carries it', async () => {
    f = await preparar(t, t.cookie, 'VC');
    const a = (await info(t, t.cookie)).sistema.numero_instalacion;
    // The installation's timestamp and a random part: never the same as another installation's or a reinstall's.
    expect(a).toMatch(/^MT-\d{14}-[0-9A-F]{8}$/);
    const fac = await factura(t, t.cookie, f);
    const [r] = await registros(t, t.cookie, { documento_id: fac.id });
    expect(r.xml).toContain(`<sf:NumeroInstalacion>${a}</sf:NumeroInstalacion>`);
    expect((await info(t, t.cookie)).sistema.numero_instalacion).toBe(a);
  });

  it('3.1.3.1 / 20 FechaHoraHusoGenRegistro: a clock put back refuses the emission with a message about the system clock', async () => {
    const antes = await registros(t, t.cookie);
    const b = await save(t, t.cookie, 'editarfactura', {
      fecha: HOY, cliente_id: f.cliente, almacen_id: f.almacen, serie_id: f.serie, lineas: [{ articulo_id: f.articulo, cantidad: 1_000, precio: 100_000 }],
    });
    reloj.ahora = () => Date.now() - 2 * 3600_000;
    const r = await t.op('emitirfactura', { cookie: t.cookie, body: { id: b.id } });
    const body = r.json() as { RESULT: string; message: string };
    expect(body.RESULT).toBe('1');
    expect(body.message).toMatch(/^El reloj del sistema marca las .+, antes que el último registro de facturación \(.+\): la hora del servidor está atrasada/);
    // Nothing changed: still a draft, no record, no number used.
    expect((await list(t, t.cookie, 'listadofacturas', { id: b.id })).rows[0]).toMatchObject({ estado: 'borrador', numero: 'Borrador' });
    expect(await registros(t, t.cookie)).toHaveLength(antes.length);
    reloj.ahora = () => Date.now();
    expect((await save(t, t.cookie, 'emitirfactura', { id: b.id })).estado).toBe('emitida');
  });

  it('the certificate: another NIF is refused with a clear message unless it is a representative\'s, who is named in the Cabecera', async () => {
    const otro = await subirCertificado(t, t.cookie, PKI.p12Asesor, PKI.password);
    expect(otro).toMatchObject({
      RESULT: '1',
      message: 'El certificado es de ASESORES DEL SUR SL (NIF B12345674) y la empresa tiene el NIF B86420973: suba el certificado de la empresa, o marque que es el de su representante o asesor',
    });
    expect((await info(t, t.cookie)).certificado).toBeNull();
    const propio = await subirCertificado(t, t.cookie, PKI.p12, PKI.password);
    expect(propio).toMatchObject({ RESULT: '0', data: [{ nif: 'B86420973', sello: false, representante: false }] });
    // A seal certificate of the company: the seal endpoints.
    const sello = await subirCertificado(t, t.cookie, PKI.p12Sello, PKI.password);
    expect(sello).toMatchObject({ RESULT: '0', data: [{ nif: 'B86420973', sello: true }] });
    expect((await info(t, t.cookie)).endpoint).toBe(ENDPOINTS_SELLO.pruebas);
    expect(ENDPOINTS_SELLO).toEqual({
      pruebas: 'https://prewww10.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
      produccion: 'https://www10.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
    });
    // The advisor's, marked as a representative: accepted; every request then names it (Cabecera Representante).
    const asesor = await subirCertificado(t, t.cookie, PKI.p12Asesor, PKI.password, { representante: '1' });
    expect(asesor).toMatchObject({ RESULT: '0', data: [{ nif: 'B12345674', representante: true }] });
    expect((await t.op('editarverifactu', { cookie: t.cookie, body: { activo: 1 } })).json()).toMatchObject({ RESULT: '0' });
    await hasta(() => registros(t, t.cookie), (x) => x.every((r) => r.estado_envio === 'correcto'));
    // The records made while sending was off leave late (issue 22): Incidencia = S.
    expect(double.peticiones.at(-1)).toMatchObject({ representante: 'B12345674', incidencia: true });
    expect(double.invalidas).toEqual([]);
    // Back to the company's own certificate for the rest.
    expect((await subirCertificado(t, t.cookie, PKI.p12, PKI.password)).RESULT).toBe('0');
  });

  it('5.1 ALTA POR RECHAZO: a refused alta is corrected with the user\'s data, Subsanacion = S and RechazoPrevio = X (3.1.3.2)', async () => {
    await esperaAeat();
    const num = await siguiente(t, t.cookie);
    double.rechazar(num);
    const fac = await factura(t, t.cookie, f);
    expect(fac.numero).toBe(num);
    const [mal] = await hasta(() => registros(t, t.cookie, { documento_id: fac.id }), (x) => x[0]?.estado_envio === 'incorrecto');
    // A recipient that is not valid is refused before anything is written.
    const malo = await t.op('subsanarregistrofacturacion', { cookie: t.cookie, body: { id: mal.id, destinatario_nombre: 'Reformas Hernández, S.L.', destinatario_nif: 'B00000001' } });
    expect(malo.json()).toMatchObject({ RESULT: '1', errors: { destinatario_nif: MESSAGES.invalidNif } });
    // FAQ «rectificaciones, anulaciones, subsanaciones» 2.b: the recipient's name and identifier are printed on the
    // invoice; changing them takes a rectificativa, not a subsanación.
    const impreso = await t.op('subsanarregistrofacturacion', {
      cookie: t.cookie,
      body: { id: mal.id, destinatario_nombre: 'Reformas Hernández e Hijos, S.L.', destinatario_nif: 'B85612349' },
    });
    expect(impreso.json()).toMatchObject({ RESULT: '1', errors: { destinatario_nombre: MESSAGES.subsanacionDatoImpreso } });
    const sub = await t.op('subsanarregistrofacturacion', {
      cookie: t.cookie,
      body: { id: mal.id, descripcion: 'Reforma de cocina (obra menor)', destinatario_nombre: 'Reformas Hernández, S.L.', destinatario_nif: 'b85612349' },
    });
    expect(sub.json()).toMatchObject({ RESULT: '0', message: MESSAGES.registroSubsanado, data: [{ subsana_id: mal.id }] });
    const nuevo = (sub.json() as { data: Registro[] }).data[0];
    const [r] = await hasta(() => registros(t, t.cookie, { id: nuevo.id }), (x) => x[0]?.estado_envio === 'correcto');
    expect(r.xml).toContain('<sf:Subsanacion>S</sf:Subsanacion><sf:RechazoPrevio>X</sf:RechazoPrevio>');
    expect(r.xml).toContain('<sf:DescripcionOperacion>Reforma de cocina (obra menor)</sf:DescripcionOperacion>');
    expect(r.xml).toContain('<sf:IDDestinatario><sf:NombreRazon>Reformas Hernández, S.L.</sf:NombreRazon><sf:NIF>B85612349</sf:NIF></sf:IDDestinatario>');
    // The huella's fields are the invoice's as issued.
    expect(r).toMatchObject({ num_serie: num, importe_total: mal.importe_total, cuota_total: mal.cuota_total });
    expect(double.recibidos.filter((x) => x.numSerie === num).map((x) => [x.estado, x.subsanacion, x.rechazoPrevio])).toEqual([
      ['Incorrecto', false, null],
      ['Correcto', true, 'X'],
    ]);
    expect(double.invalidas).toEqual([]);
  });

  it('5.1 ALTA DE SUBSANACIÓN and ALTA POR RECHAZO DE SUBSANACIÓN: no RechazoPrevio, then RechazoPrevio = S', async () => {
    await esperaAeat();
    const num = await siguiente(t, t.cookie);
    double.aceptarConErrores(num);
    const fac = await factura(t, t.cookie, f);
    const [conErrores] = await hasta(() => registros(t, t.cookie, { documento_id: fac.id }), (x) => x[0]?.estado_envio === 'aceptado_con_errores');
    double.rechazarSubsanacion(num);
    const s1 = (await save(t, t.cookie, 'subsanarregistrofacturacion', { id: conErrores.id, descripcion: 'Suministro de material' })) as Registro;
    const [r1] = await hasta(() => registros(t, t.cookie, { id: s1.id }), (x) => x[0]?.estado_envio === 'incorrecto');
    // The AEAT has the alta (accepted with errors): a habitual subsanación carries no RechazoPrevio.
    expect(r1.xml).toContain('<sf:Subsanacion>S</sf:Subsanacion><sf:TipoFactura>');
    // Its subsanación was refused: the next one says so.
    await esperaAeat();
    const s2 = (await save(t, t.cookie, 'subsanarregistrofacturacion', { id: s1.id, descripcion: 'Suministro de material de obra' })) as Registro;
    const [r2] = await hasta(() => registros(t, t.cookie, { id: s2.id }), (x) => x[0]?.estado_envio === 'correcto');
    expect(r2.xml).toContain('<sf:Subsanacion>S</sf:Subsanacion><sf:RechazoPrevio>S</sf:RechazoPrevio>');
    expect(double.recibidos.filter((x) => x.numSerie === num).map((x) => [x.estado, x.subsanacion, x.rechazoPrevio])).toEqual([
      ['AceptadoConErrores', false, null],
      ['Incorrecto', true, null],
      ['Correcto', true, 'S'],
    ]);
    // A correct record is not subsanated again.
    expect((await t.op('subsanarregistrofacturacion', { cookie: t.cookie, body: { id: s2.id } })).json()).toMatchObject({ RESULT: '1', message: MESSAGES.registroNoSubsanable });
    expect(double.invalidas).toEqual([]);
  });

  it('5.2 ANULACIÓN SIN REGISTRO PREVIO: an invoice whose alta the AEAT refused is annulled with SinRegistroPrevio = S', async () => {
    await esperaAeat();
    const num = await siguiente(t, t.cookie);
    double.rechazar(num);
    const fac = await factura(t, t.cookie, f);
    await hasta(() => registros(t, t.cookie, { documento_id: fac.id }), (x) => x[0]?.estado_envio === 'incorrecto');
    await esperaAeat();
    await save(t, t.cookie, 'anularfactura', { id: fac.id });
    const [anul] = await hasta(
      () => registros(t, t.cookie, { documento_id: fac.id, tipo: 'anulacion' }),
      (x) => x[0]?.estado_envio === 'correcto',
    );
    expect(anul.xml).toMatch(/<\/sf:IDFactura><sf:SinRegistroPrevio>S<\/sf:SinRegistroPrevio><sf:Encadenamiento>/);
    expect(double.recibidos.filter((x) => x.numSerie === num).map((x) => [x.tipo, x.estado, x.sinRegistroPrevio])).toEqual([
      ['Alta', 'Incorrecto', false],
      ['Anulacion', 'Correcto', true],
    ]);
  });

  it('5.2 ANULACIÓN POR RECHAZO: a refused anulación is sent again with RechazoPrevio = S', async () => {
    await esperaAeat();
    const num = await siguiente(t, t.cookie);
    const fac = await factura(t, t.cookie, f);
    await hasta(() => registros(t, t.cookie, { documento_id: fac.id }), (x) => x[0]?.estado_envio === 'correcto');
    double.rechazarAnulacion(num);
    await esperaAeat();
    await save(t, t.cookie, 'anularfactura', { id: fac.id });
    const [mal] = await hasta(() => registros(t, t.cookie, { documento_id: fac.id, tipo: 'anulacion' }), (x) => x[0]?.estado_envio === 'incorrecto');
    // The habitual anulación: neither flag.
    expect(mal.xml).toMatch(/<\/sf:IDFactura><sf:Encadenamiento>/);
    await esperaAeat();
    const otra = await t.op('subsanarregistrofacturacion', { cookie: t.cookie, body: { id: mal.id } });
    expect(otra.json()).toMatchObject({ RESULT: '0', message: MESSAGES.anulacionReenviada, data: [{ tipo: 'anulacion', subsana_id: mal.id }] });
    const id = (otra.json() as { data: Registro[] }).data[0].id;
    const [r] = await hasta(() => registros(t, t.cookie, { id }), (x) => x[0]?.estado_envio === 'correcto');
    expect(r.xml).toMatch(/<\/sf:IDFactura><sf:RechazoPrevio>S<\/sf:RechazoPrevio><sf:Encadenamiento>/);
    expect(double.recibidos.filter((x) => x.numSerie === num).map((x) => [x.tipo, x.estado, x.rechazoPrevio])).toEqual([
      ['Alta', 'Correcto', null],
      ['Anulacion', 'Incorrecto', null],
      ['Anulacion', 'Correcto', 'S'],
    ]);
    expect(double.invalidas).toEqual([]);
    expect((await list(t, t.cookie, 'comprobarregistrosfacturacion')).body).toMatchObject({ message: MESSAGES.cadenaCorrecta });
  });

  it('3.1.1.4 Incidencia: records generated while the AEAT could not be reached go late, in requests with Incidencia = S', async () => {
    await esperaAeat();
    double.modo = 'caido';
    const antes = double.peticiones.length;
    const primera = await factura(t, t.cookie, f);
    // The submission fails: the sender backs off.
    await hasta(() => info(t, t.cookie), (i) => !!(i as unknown as { cola: { ultimo_error: string | null } }).cola.ultimo_error);
    const durante = [await factura(t, t.cookie, f), await factura(t, t.cookie, f)];
    // Issue 22: the one made before the failure was noticed (after the last answered submission, still pending when
    // the failure was counted) leaves late because of it too.
    expect((await registros(t, t.cookie, { documento_id: primera.id }))[0].incidencia).toBe(1);
    for (const d of durante) expect((await registros(t, t.cookie, { documento_id: d.id }))[0].incidencia).toBe(1);
    double.modo = 'normal';
    await hasta(() => registros(t, t.cookie), (x) => x.every((r) => ['correcto', 'incorrecto', 'aceptado_con_errores'].includes(r.estado_envio)));
    const nuevas = double.peticiones.slice(antes);
    const aceptadas = nuevas.filter((p) => p.estadoEnvio);
    const conIncidencia = aceptadas.filter((p) => p.incidencia).flatMap((p) => p.registros.map((r) => r.numSerie));
    expect(conIncidencia).toEqual([primera.numero, ...durante.map((d) => d.numero)]);
    expect(aceptadas.filter((p) => !p.incidencia).flatMap((p) => p.registros.map((r) => r.numSerie))).not.toContain(primera.numero);
    expect(double.invalidas).toEqual([]);
    // Once the AEAT answers again, new records are not an outage's.
    const despues = await factura(t, t.cookie, f);
    expect((await registros(t, t.cookie, { documento_id: despues.id }))[0].incidencia).toBe(0);
  });

  it('switching VERI*FACTU off once records went to the AEAT in producción is refused, never silent', async () => {
    expect((await t.op('editarverifactu', { cookie: t.cookie, body: { entorno: 'produccion' } })).json()).toMatchObject({ RESULT: '0' });
    await esperaAeat();
    await factura(t, t.cookie, f);
    await hasta(() => registros(t, t.cookie), (x) => x.every((r) => r.estado_envio !== 'pendiente' && r.estado_envio !== 'enviado'));
    const off = await t.op('editarverifactu', { cookie: t.cookie, body: { activo: 0 } });
    expect(off.json()).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuNoDesactivable });
    const pruebas = await t.op('editarverifactu', { cookie: t.cookie, body: { entorno: 'pruebas' } });
    expect(pruebas.json()).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuNoDesactivable });
    expect(await info(t, t.cookie)).toMatchObject({ activo: 1, entorno: 'produccion' });
  });

  it('3.1.1.3 FechaFinVeriFactu: «Dejar VERI*FACTU al acabar el año» — the submissions carry 31-12 of the year, it can be undone before it ends, and switching off waits for it', async () => {
    const anio = Number(HOY.slice(0, 4));
    const aviso = async () => (await info(t, t.cookie)).avisos.find((a) => a.clave === 'fin')?.texto ?? null;
    const editar = async (body: Record<string, unknown>) => (await t.op('editarverifactu', { cookie: t.cookie, body })).json();
    expect(await editar({ dejar_verifactu: 1 })).toMatchObject({ RESULT: '0' });
    expect((await info(t, t.cookie)).fin).toEqual({ fecha: `${anio}-12-31`, comunicado: null, deshacer: true });
    expect(await aviso()).toBe(
      `La empresa deja VERI*FACTU al acabar el año: el 31/12/${anio}. Se comunicará a la AEAT con el próximo envío de registros (FechaFinVeriFactu), el último del año o el siguiente que se emita. Puede deshacerlo hasta ese día.`,
    );
    // The year is not over: sending can't be switched off yet.
    expect(await editar({ activo: 0 })).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuFinPendiente });
    // The next submission says it in its Cabecera, valid on the schema.
    await esperaAeat();
    const antes = double.peticiones.length;
    await factura(t, t.cookie, f);
    await hasta(() => registros(t, t.cookie), (x) => x.every((r) => r.estado_envio !== 'pendiente' && r.estado_envio !== 'enviado'));
    expect(double.peticiones.slice(antes).map((p) => p.fechaFin)).toEqual([`31-12-${anio}`]);
    expect(double.invalidas).toEqual([]);
    const comunicado = (await info(t, t.cookie)).fin?.comunicado;
    expect(comunicado).toBeTruthy();
    expect(await aviso()).toContain(`La AEAT lo recibió el ${comunicado!.slice(0, 10).split('-').reverse().join('/')} (FechaFinVeriFactu 31/12/${anio})`);
    // Undone before the year ends: the submissions stop carrying it.
    expect(await editar({ dejar_verifactu: 0 })).toMatchObject({ RESULT: '0' });
    expect((await info(t, t.cookie)).fin).toBeNull();
    await esperaAeat();
    const luego = double.peticiones.length;
    await factura(t, t.cookie, f);
    await hasta(() => registros(t, t.cookie), (x) => x.every((r) => r.estado_envio !== 'pendiente' && r.estado_envio !== 'enviado'));
    expect(double.peticiones.slice(luego).map((p) => p.fechaFin)).toEqual([null]);
    expect(await editar({ activo: 0 })).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuNoDesactivable });

    // Marked last year, and the AEAT took it: the year is over, it can't be undone, and sending can now be switched off.
    expect(await editar({ dejar_verifactu: 1 })).toMatchObject({ RESULT: '0' });
    await t.app.manager.db.updateTable('verifactu').set({ fin_verifactu: `${anio - 1}-12-31`, fin_comunicado: null }).where('id', '=', 1).execute();
    expect(await editar({ activo: 0 })).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuFinPendiente });
    await t.app.manager.db.updateTable('verifactu').set({ fin_comunicado: `${anio - 1}-12-30T10:00:00.000Z` }).where('id', '=', 1).execute();
    expect((await info(t, t.cookie)).fin).toMatchObject({ fecha: `${anio - 1}-12-31`, deshacer: false });
    expect(await aviso()).toBe(
      `La empresa dejó VERI*FACTU el 31/12/${anio - 1}. La AEAT lo recibió el 30/12/${anio - 1} (FechaFinVeriFactu 31/12/${anio - 1}) y cada envío hasta entonces lo repite. Cuando no quede ningún registro pendiente podrá desactivar el envío.`,
    );
    expect(await editar({ dejar_verifactu: 0 })).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuFinPasado });
    expect(await editar({ activo: 0 })).toMatchObject({ RESULT: '0' });
    expect(await info(t, t.cookie)).toMatchObject({ activo: 0, fin: null });
    // Leaving needs sending on.
    expect(await editar({ dejar_verifactu: 1 })).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuFinSinActivar });
  });
});
