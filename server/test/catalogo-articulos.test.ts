import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, TOASTS, isValidEan, pvpFromNet } from 'shared/domain';
import type { TipoIva } from 'shared/domain';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { articulo, ean13, list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

describe.each(backends())('catálogo: artículos ($name)', (backend) => {
  const t = useTestApp(backend);
  let familias: Row[];
  let subfamilias: Row[];
  let marcas: Row[];
  const fam = (codigo: string) => familias.find((f) => f.codigo === codigo)!.id;
  const sub = (codigo: string) => subfamilias.find((s) => s.codigo === codigo)!.id;
  const marca = (codigo: string) => marcas.find((m) => m.codigo === codigo)!.id;
  const codigos = (rows: Row[]) => rows.map((r) => r.codigo);
  const wrongCheckDigit = (ean: string) => ean.slice(0, -1) + ((Number(ean.at(-1)) + 1) % 10);

  beforeAll(async () => {
    familias = (await list(t, t.cookie, 'listadofamilias', { porPagina: 100 })).rows;
    subfamilias = (await list(t, t.cookie, 'listadosubfamilias', { porPagina: 100 })).rows;
    marcas = (await list(t, t.cookie, 'listadomarcas', { porPagina: 100 })).rows;
  });

  it('the demo catalogue has 32 articles with valid barcodes and PVPs that follow their net price', async () => {
    const { rows, total } = await list(t, t.cookie, 'listadoarticulos', { porPagina: 100 });
    expect(total).toBe(32);
    for (const a of rows) {
      expect(isValidEan(a.codigo_barras as string)).toBe(true);
      expect(a.pvp_1).toBe(Number(pvpFromNet(BigInt(a.precio_venta as number), a.tipo_iva as TipoIva)));
    }
    expect(rows[0]).toEqual({
      id: expect.any(Number),
      codigo: 'ABO-UNI5',
      referencia: 'REF-1030',
      descripcion: 'Abono universal granulado 5 kg',
      familia_nombre: 'Jardín',
      subfamilia_nombre: 'Cultivo',
      marca_nombre: 'Jardín del Sur',
      precio_compra: 57400,
      precio_venta: 104545,
      // The list carries the 2nd and 3rd tariff too: a sale line's default price is the customer's tariff.
      tarifa_2: 94000,
      tarifa_3: 0,
      pvp_1: 1150,
      tipo_iva: '10',
      // The article's operation for sale lines (issue 16): none said, S1 (or E1 when exempt).
      operacion: null,
      codigo_barras: ean13('841234500030'),
      stock_total: 0,
      activo: 1,
    });
  });

  it('computes the PVP to the cent from the net price and the IVA, whatever PVP the request carries', async () => {
    const a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('PVP-1', { precio_venta: 82562, pvp_1: 1, tarifa_2: 100000, pvp_2: 5 }));
    expect(a).toMatchObject({ precio_venta: 82562, pvp_1: 999, tarifa_2: 100000, pvp_2: 1210, tipo_iva: '21' });
    const diez = await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('PVP-1', { id: a.id, precio_venta: 82562, tarifa_2: 100000 }), tipo_iva: '10' });
    expect(diez).toMatchObject({ pvp_1: 908, pvp_2: 1100 });
    const exento = await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('PVP-1', { id: a.id }), tipo_iva: 'exento' });
    // Only the IVA changed: the net prices stay, the PVPs follow.
    expect(exento).toMatchObject({ precio_venta: 82562, pvp_1: 826, tarifa_2: 100000, pvp_2: 1000 });
    const cuatro = await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('PVP-1', { id: a.id, precio_venta: 1 }), tipo_iva: '4' });
    expect(cuatro.pvp_1).toBe(0);
  });

  it('answers the whole record: names, links, stock per warehouse and figures', async () => {
    const a = await save(t, t.cookie, 'editararticulo', {
      ...nuevoArticulo('REC-1', { familia_id: fam('FER'), subfamilia_id: sub('TOR'), marca_id: marca('ACN') }),
      referencia: 'DIN 933',
      descripcion_larga: 'Tornillo de cabeza hexagonal.\nAcero inoxidable A2.',
      unidad_medida: 'caja',
      precio_compra: 12345,
      precio_venta: 23456,
      palabras_clave: 'tornillo inox',
      nombre_tpv: 'TORN INOX',
      codigo_barras: ean13('843700012345'),
      tiempo: 15,
      foto: '/archivos/abc',
    });
    expect(await articulo(t, t.cookie, a.id)).toEqual({
      id: a.id,
      codigo: 'REC-1',
      referencia: 'DIN 933',
      descripcion: 'Artículo REC-1',
      descripcion_larga: 'Tornillo de cabeza hexagonal.\nAcero inoxidable A2.',
      unidad_medida: 'caja',
      familia_id: fam('FER'),
      familia_nombre: 'Ferretería',
      subfamilia_id: sub('TOR'),
      subfamilia_nombre: 'Tornillería y fijación',
      marca_id: marca('ACN'),
      marca_nombre: 'Aceros del Norte',
      precio_compra: 12345,
      precio_venta: 23456,
      tarifa_2: 0,
      tarifa_3: 0,
      pvp_1: 284,
      pvp_2: 0,
      pvp_3: 0,
      tipo_iva: '21',
      palabras_clave: 'tornillo inox',
      nombre_tpv: 'TORN INOX',
      codigo_barras: ean13('843700012345'),
      tiempo: 15,
      stock_minimo: 0,
      operacion: null,
      activo: 1,
      foto: '/archivos/abc',
      seo_slug: null,
      seo_titulo: null,
      seo_descripcion: null,
      stock: [{ almacen_id: expect.any(Number), almacen_nombre: 'Almacén principal', stock: 0, ubicaciones: [], en_transito: 0, ubicacion_habitual_id: null, ubicacion_habitual_codigo: null }],
      stock_total: 0,
      precio_medio_compra: 0,
      precio_medio_venta: 0,
      unidades_compradas: 0,
      unidades_vendidas: 0,
      materiales: [],
      procesos: [],
      componentes: [],
      proporciones: [],
    });
    // An update carrying only some fields leaves the others as they were.
    const partial = await save(t, t.cookie, 'editararticulo', { id: a.id, codigo: 'REC-1', descripcion: 'Tornillo DIN 933', unidad_medida: 'caja', tipo_iva: '21' });
    expect(partial).toMatchObject({ descripcion: 'Tornillo DIN 933', referencia: 'DIN 933', foto: '/archivos/abc', precio_venta: 23456, tiempo: 15 });
    expect((await t.op('listadoarticulos', { cookie: t.cookie, query: { id: '999999' } })).json()).toEqual({ RESULT: '3', message: MESSAGES.notFound });
  });

  it('refuses invalid fields with Spanish messages, and saves nothing', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await t.op('editararticulo', { cookie: t.cookie, body });
      expect(res.statusCode).toBe(400);
      expect(expectCleanAnswer(res).message).toBe(MESSAGES.invalidFields);
      return res.json().errors as Record<string, string>;
    };
    expect(await bad({ codigo: '', descripcion: '', unidad_medida: 'saco', tipo_iva: '7', precio_venta: '12,5', codigo_barras: '12345' })).toEqual({
      codigo: MESSAGES.required,
      descripcion: MESSAGES.required,
      unidad_medida: MESSAGES.selectOption,
      tipo_iva: MESSAGES.selectOption,
      precio_venta: MESSAGES.invalidNumber,
      codigo_barras: 'El código de barras debe tener 8 o 13 cifras',
    });
    // Checked against the database: every problem at once.
    expect(
      await bad(
        nuevoArticulo('TOR-M4-20', {
          codigo_barras: wrongCheckDigit(ean13('841234500001')),
          familia_id: 99999,
          marca_id: 99999,
        }),
      ),
    ).toEqual({ codigo: MESSAGES.duplicated, codigo_barras: MESSAGES.eanCheckDigit, familia_id: MESSAGES.unknownElement, marca_id: MESSAGES.unknownElement });
    expect(await bad(nuevoArticulo('NUEVO-1', { codigo_barras: ean13('841234500001') }))).toEqual({ codigo_barras: MESSAGES.duplicated });
    expect(await bad(nuevoArticulo('NUEVO-1', { familia_id: fam('PIN'), subfamilia_id: sub('TOR') }))).toEqual({ subfamilia_id: MESSAGES.subfamiliaOtherFamilia });
    expect(await bad(nuevoArticulo('NUEVO-1', { subfamilia_id: sub('TOR') }))).toEqual({ subfamilia_id: MESSAGES.subfamiliaNeedsFamilia });
    expect(await bad(nuevoArticulo('NUEVO-1', { familia_id: fam('PIN'), subfamilia_id: 99999 }))).toEqual({ subfamilia_id: MESSAGES.unknownElement });
    expect((await list(t, t.cookie, 'listadoarticulos', { barras: 'NUEVO-1' })).rows).toEqual([]);
    // An EAN-8 with a right check digit is a barcode too.
    expect((await save(t, t.cookie, 'editararticulo', nuevoArticulo('EAN8', { codigo_barras: '96385074' }))).codigo_barras).toBe('96385074');
  });

  it('ignores the fields and links of flags that are off, and takes them when on', async () => {
    const inox = (await list(t, t.cookie, 'listadomateriales', { q: 'INOX' })).rows[0];
    const zinc = (await list(t, t.cookie, 'listadomateriales', { q: 'ZINC' })).rows[0];
    const a = await save(t, t.cookie, 'editararticulo', {
      ...nuevoArticulo('FLAGS-1'),
      tarifa_3: 50000,
      seo_slug: 'flags-uno',
      seo_titulo: 'Flags',
      materiales: [inox.id],
      proporciones: [{ material_id: inox.id, porcentaje: 10000 }],
    });
    // Demo: tarifa_3, seo and proporciones off; materiales on.
    expect(await articulo(t, t.cookie, a.id)).toMatchObject({ tarifa_3: 0, pvp_3: 0, seo_slug: null, seo_titulo: null, materiales: [inox.id], proporciones: [] });

    await setFlags(t, t.cookie, { tarifa_3: 1, seo: 1, proporciones: 1, materiales: 0 });
    const withFlags = {
      ...nuevoArticulo('FLAGS-1', { id: a.id }),
      tarifa_3: 50000,
      seo_slug: 'flags-uno',
      seo_titulo: 'Flags',
      materiales: [zinc.id],
    };
    const notHundred = await t.op('editararticulo', {
      cookie: t.cookie,
      body: { ...withFlags, proporciones: [{ material_id: inox.id, porcentaje: 6000 }, { material_id: zinc.id, porcentaje: 3000 }] },
    });
    expect(notHundred.json().errors).toEqual({ proporciones: MESSAGES.proporcionesTotal });
    const repeated = await t.op('editararticulo', {
      cookie: t.cookie,
      body: { ...withFlags, proporciones: [{ material_id: inox.id, porcentaje: 5000 }, { material_id: inox.id, porcentaje: 5000 }] },
    });
    expect(repeated.json().errors).toEqual({ proporciones: MESSAGES.proporcionMaterial });
    await save(t, t.cookie, 'editararticulo', {
      ...withFlags,
      proporciones: [
        { material_id: inox.id, porcentaje: 7550 },
        { material_id: zinc.id, porcentaje: 2450 },
      ],
    });
    expect(await articulo(t, t.cookie, a.id)).toMatchObject({
      tarifa_3: 50000,
      pvp_3: 605,
      seo_slug: 'flags-uno',
      seo_titulo: 'Flags',
      // materiales is off now: the link stays as it was.
      materiales: [inox.id],
      proporciones: [
        { material_id: inox.id, nombre: 'Acero inoxidable', porcentaje: 7550 },
        { material_id: zinc.id, nombre: 'Acero zincado', porcentaje: 2450 },
      ],
    });
    await setFlags(t, t.cookie, { tarifa_3: 0, seo: 0, proporciones: 0, materiales: 1 });
  });

  it('kits: components with quantities, never itself, never a cycle; a component in a kit is not deleted', async () => {
    const [tornillo, taco, arandela] = await Promise.all(
      ['TOR-M4-20', 'TAC-8', 'ARA-M8'].map(async (c) => (await list(t, t.cookie, 'listadoarticulos', { barras: c })).rows[0]),
    );
    const kit = await save(t, t.cookie, 'editararticulo', {
      ...nuevoArticulo('KIT-1'),
      componentes: [
        { componente_id: tornillo.id, cantidad: 4000 },
        { componente_id: taco.id, cantidad: 4000 },
      ],
    });
    expect((await articulo(t, t.cookie, kit.id)).componentes).toEqual([
      { componente_id: taco.id, codigo: 'TAC-8', descripcion: 'Taco de nailon 8 mm (caja 100)', cantidad: 4000 },
      { componente_id: tornillo.id, codigo: 'TOR-M4-20', descripcion: 'Tornillo hexagonal M4 x 20 inoxidable (bolsa 50)', cantidad: 4000 },
    ]);
    const errors = async (id: number, codigo: string, componentes: unknown) =>
      (await t.op('editararticulo', { cookie: t.cookie, body: { ...nuevoArticulo(codigo, { id }), componentes } })).json().errors;
    expect(await errors(kit.id, 'KIT-1', [{ componente_id: kit.id, cantidad: 1000 }])).toEqual({ componentes: MESSAGES.componenteSelf });
    expect(await errors(kit.id, 'KIT-1', [{ componente_id: taco.id, cantidad: 0 }])).toEqual({ componentes: MESSAGES.componenteCantidad });
    expect(await errors(kit.id, 'KIT-1', [{ componente_id: 99999, cantidad: 1000 }])).toEqual({ componentes: MESSAGES.unknownElement });
    // A kit inside a kit inside the tornillo would make the tornillo contain itself.
    const kit2 = await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('KIT-2'), componentes: [{ componente_id: kit.id, cantidad: 1000 }] });
    expect(await errors(tornillo.id, 'TOR-M4-20', [{ componente_id: kit2.id, cantidad: 1000 }])).toEqual({ componentes: MESSAGES.componenteCycle });
    expect(await errors(arandela.id, 'ARA-M8', [{ componente_id: kit2.id, cantidad: 1000 }])).toBeUndefined();

    const refused = await t.op('eliminararticulo', { cookie: t.cookie, body: { id: taco.id } });
    expect(expectCleanAnswer(refused)).toEqual({ RESULT: '2', message: TOASTS.associated.text });
    // Deleting the kits takes their components' links with them; then the taco goes too.
    for (const id of [arandela.id, kit2.id, kit.id, taco.id]) {
      expect(expectCleanAnswer(await t.op('eliminararticulo', { cookie: t.cookie, body: { id } })).RESULT).toBe('0');
    }
    expect((await t.op('listadoarticulos', { cookie: t.cookie, query: { id: String(taco.id) } })).json().RESULT).toBe('3');
    expect((await t.op('eliminararticulo', { cookie: t.cookie, body: { id: taco.id } })).json().RESULT).toBe('3');
  });

  it('searches by every word, without accents or case, in código, referencia, descripción, palabras clave and barcode', async () => {
    const q = async (text: string) => codigos((await list(t, t.cookie, 'listadoarticulos', { q: text, porPagina: 100 })).rows);
    expect(await q('LIMPIADOR baño')).toEqual(['LIM-BAN']);
    expect(await q('limp BANO')).toEqual(['LIM-BAN']);
    expect(await q('tornillo')).toEqual(['REC-1', 'TAR-4X40', 'TOR-M4-20', 'TOR-M6-40']);
    expect(await q('tornillo madera')).toEqual(['TAR-4X40']);
    expect(await q('cálida')).toEqual(['BOM-LED9']);
    expect(await q('flexometro')).toEqual(['CIN-5M']);
    expect(await q('REF-1017')).toEqual(['BOM-LED9']);
    expect(await q('esm-bl750')).toEqual(['ESM-BL750']);
    expect(await q(ean13('841234500022'))).toEqual(['ENC-SCH']);
    expect(await q('84123450002')).toEqual(['BAS-3T', 'BAY-3', 'CAB-H07-15', 'ENC-SCH', 'FRE-LIM', 'LEJ-2L', 'LIM-BAN', 'MAN-15', 'PHI-12', 'PIS-RIE']);
    expect(await q('nailon zzz')).toEqual([]);
    // Nothing searchable: every article.
    expect((await list(t, t.cookie, 'listadoarticulos', { q: '-- %' })).total).toBe((await list(t, t.cookie, 'listadoarticulos')).total);
  });

  it('finds a fragment inside a word ("nillo" finds "tornillo"), ignoring accents and case; short words start a word', async () => {
    const q = async (text: string) => codigos((await list(t, t.cookie, 'listadoarticulos', { q: text, porPagina: 100 })).rows);
    const tornillos = await q('tornillo');
    expect(tornillos).toContain('TOR-M4-20');
    expect(await q('nillo')).toEqual(tornillos);
    expect(await q('TORNÍLLO')).toEqual(tornillos);
    // "ornill" is also inside "destornillador".
    expect(await q('ORNILL')).toEqual(['DES-PH2', ...tornillos]);
    const tuerca = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TUE-CIEGA', { descripcion: 'Tuerca CAÑERÍA acción', palabras_clave: 'rosca' }));
    expect(await q('ñeria')).toEqual(['TUE-CIEGA']);
    expect(await q('caneria ACCION')).toEqual(['TUE-CIEGA']);
    expect(await q('osc uerc')).toEqual(['TUE-CIEGA']);
    // A fragment and a short word: the short one must start a word ("ca" starts "cañeria", "ue" starts none).
    expect(await q('uerca ca')).toEqual(['TUE-CIEGA']);
    expect(await q('uerca ue')).toEqual([]);
    // Only short words: word starts, through the word index.
    expect(await q('tu ca')).toEqual(['TUE-CIEGA']);
    // A fragment never spans two words.
    expect(await q('cacc')).toEqual([]);
    // An edit re-indexes the article.
    await save(t, t.cookie, 'editararticulo', nuevoArticulo('TUE-CIEGA', { id: tuerca.id, descripcion: 'Tuerca ciega' }));
    expect(await q('ñeria')).toEqual([]);
    expect(await q('ciega')).toEqual(['TUE-CIEGA']);
    expect(expectCleanAnswer(await t.op('eliminararticulo', { cookie: t.cookie, body: { id: tuerca.id } })).RESULT).toBe('0');
    expect(await q('ciega')).toEqual([]);
  });

  it('ranks by relevance on request: a code, then a description, then a word that starts with what was typed, then the rest', async () => {
    const rel = async (text: string) => codigos((await list(t, t.cookie, 'listadoarticulos', { q: text, orden: 'relevancia', porPagina: 100 })).rows) as string[];
    const code = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TORN_1', { descripcion: 'Arandela plana M8' }));
    const word = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ZZ-BROCA', { descripcion: 'Broca para tornillería 6 mm' }));
    const ranked = await rel('torn');
    // Destornillador holds «torn» only inside a word: after every article where something starts with it.
    expect(ranked.filter((c) => ['TORN_1', 'TOR-M4-20', 'TOR-M6-40', 'TAR-4X40', 'ZZ-BROCA', 'DES-PH2'].includes(c))).toEqual([
      'TORN_1',
      'TOR-M4-20',
      'TOR-M6-40',
      'TAR-4X40',
      'ZZ-BROCA',
      'DES-PH2',
    ]);
    expect(ranked.at(-1)).toBe('DES-PH2');
    // The same matches as the default order (by code), only ranked.
    expect([...ranked].sort()).toEqual([...(await codigos((await list(t, t.cookie, 'listadoarticulos', { q: 'torn', porPagina: 100 })).rows))].sort());
    // Case and accents ignored; «_» in the text is a character, not a wildcard.
    expect((await rel('TÓRN'))[0]).toBe('TORN_1');
    expect((await rel('torn_'))[0]).toBe('TORN_1');
    expect(await rel('destorn')).toEqual(['DES-PH2']);
    for (const id of [code.id, word.id]) {
      expect(expectCleanAnswer(await t.op('eliminararticulo', { cookie: t.cookie, body: { id } })).RESULT).toBe('0');
    }
  });

  it('ranks the same when most articles match (the walk rank by rank of the lines editor\'s suggestions, issue 26)', async () => {
    // 120 descriptions that start with «kwik» make «kw» and «kwi» match most of the catalogue: the dense path for
    // pages of 10 (the editor's), through the indexes for pages of 100.
    const ids: number[] = [];
    const alta = async (codigo: string, descripcion: string, activo = 1) => ids.push((await save(t, t.cookie, 'editararticulo', nuevoArticulo(codigo, { descripcion, activo }))).id as number);
    for (let i = 1; i <= 120; i++) await alta(`FIL-${String(i).padStart(3, '0')}`, `Kwik relleno ${String(i).padStart(3, '0')}`);
    await alta('ZZ-KW', 'Skwik raro');
    await alta('KW-1', 'Zapato kwik');
    await alta('kw-0', 'Yunque');
    await alta('BRO-KW', 'Brocha kwik');
    await alta('MAR-1', 'Kwik martillo');
    await alta('INA-KW', 'Kwik inactivo', 0);
    const rel = async (q: string, porPagina: number, pagina = 1) =>
      (await list(t, t.cookie, 'listadoarticulos', { q, orden: 'relevancia', activo: 1, porPagina, pagina })) as { rows: Row[]; total: number };
    // «fil»: 120 codes start with it, walked along the description index too.
    const primeros: Record<string, string[]> = { kw: ['kw-0', 'KW-1', 'MAR-1', 'FIL-001'], KWI: ['MAR-1', 'FIL-001', 'FIL-002', 'FIL-003'], fil: ['FIL-001', 'FIL-002', 'FIL-003', 'FIL-004'] };
    const ultimos: Record<string, string[]> = { kw: ['FIL-120', 'BRO-KW', 'ZZ-KW'], KWI: ['BRO-KW', 'KW-1', 'ZZ-KW'], fil: ['FIL-118', 'FIL-119', 'FIL-120'] };
    for (const q of ['kw', 'KWI', 'fil']) {
      // Pages of 100: every match ranked through the indexes; pages of 10: the walk.
      const todos = [...(await rel(q, 100, 1)).rows, ...(await rel(q, 100, 2)).rows];
      const esperado = codigos(todos);
      // Codes first (by description: «Yunque» before «Zapato»), then descriptions, then words; the inactive one never.
      expect(esperado.slice(0, 4)).toEqual(primeros[q]);
      // «kw» starts the word «kw» of the code ZZ-KW (a word: after Brocha); «kwi» starts a word of «Zapato kwik»
      // (its code KW-1 does not start with «kwi») and is only inside «Skwik»: the last rank.
      expect(esperado.slice(-3)).toEqual(ultimos[q]);
      expect(esperado).not.toContain('INA-KW');
      const uno = await rel(q, 10, 1);
      const dos = await rel(q, 10, 2);
      expect([...codigos(uno.rows), ...codigos(dos.rows)]).toEqual(esperado.slice(0, 20));
      expect(uno.total).toBe(esperado.length);
      expect(uno.rows[0]).toMatchObject({ codigo: esperado[0], precio_venta: expect.any(Number), stock_total: 0 });
      const ultima = await rel(q, 10, Math.ceil(esperado.length / 10));
      expect(codigos(ultima.rows)).toEqual(esperado.slice(Math.floor((esperado.length - 1) / 10) * 10));
    }
    for (const id of ids) expect(expectCleanAnswer(await t.op('eliminararticulo', { cookie: t.cookie, body: { id } })).RESULT).toBe('0');
  });

  it('finds one article by exact barcode or code (a scanner), never by part of it', async () => {
    const byBarcode = await list(t, t.cookie, 'listadoarticulos', { barras: ean13('841234500017') });
    expect(byBarcode.total).toBe(1);
    expect(byBarcode.rows[0]).toMatchObject({ codigo: 'BOM-LED9', familia_nombre: 'Electricidad', pvp_1: 299 });
    expect(codigos((await list(t, t.cookie, 'listadoarticulos', { barras: 'MAR-500' })).rows)).toEqual(['MAR-500']);
    expect((await list(t, t.cookie, 'listadoarticulos', { barras: '84123450001' })).rows).toEqual([]);
    expect((await list(t, t.cookie, 'listadoarticulos', { barras: 'mar-500' })).rows).toEqual([]);
  });

  it('pages, sorts by any column (descriptions without regard to accents or case) and counts', async () => {
    const ab = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ABACO', { descripcion: 'Ábaco de madera' }));
    const all = await list(t, t.cookie, 'listadoarticulos', { porPagina: 100 });
    const n = all.total;
    const page = async (pagina: number) => list(t, t.cookie, 'listadoarticulos', { pagina, porPagina: 10 });
    const last = Math.ceil(n / 10);
    expect((await page(1)).rows).toHaveLength(10);
    expect((await page(last)).rows).toHaveLength(n - (last - 1) * 10);
    expect((await page(last + 1)).rows).toEqual([]);
    expect((await page(last + 1)).total).toBe(n);
    const pages = [];
    for (let p = 1; p <= last; p++) pages.push(...codigos((await page(p)).rows));
    expect(pages).toEqual(codigos(all.rows));
    expect(pages).toEqual([...pages].sort());

    const desc = (await list(t, t.cookie, 'listadoarticulos', { orden: 'descripcion', porPagina: 10 })).rows.map((r) => r.descripcion).slice(0, 4);
    expect(desc).toEqual(['Ábaco de madera', 'Abono universal granulado 5 kg', 'Alicate universal 180 mm', 'Artículo EAN8']);
    const byPvp = (await list(t, t.cookie, 'listadoarticulos', { orden: 'pvp_1', dir: 'desc', porPagina: 100 })).rows.map((r) => r.pvp_1 as number);
    expect(byPvp).toEqual([...byPvp].sort((a, b) => b - a));
    expect(byPvp[0]).toBe(3995);
    const byFamilia = (await list(t, t.cookie, 'listadoarticulos', { orden: 'familia', porPagina: 100 })).rows.map((r) => r.familia_nombre);
    // Articles without a familia first (ascending), then by name.
    expect(byFamilia.filter((f) => f !== null)).toEqual([...byFamilia.filter((f) => f !== null)].sort());
    expect(byFamilia.lastIndexOf(null)).toBeLessThan(byFamilia.indexOf('Droguería'));
    for (const orden of ['referencia', 'marca', 'precio_venta', 'stock_total', 'activo']) {
      const r = await list(t, t.cookie, 'listadoarticulos', { orden, dir: 'desc', porPagina: 100 });
      expect(r.rows).toHaveLength(n);
    }
    expect((await t.op('listadoarticulos', { cookie: t.cookie, query: { orden: 'busqueda' } })).statusCode).toBe(400);

    const ferreteria = await list(t, t.cookie, 'listadoarticulos', { familia_id: fam('FER') });
    // The demo's 10, less the two deleted with the kits, plus REC-1.
    expect(ferreteria.total).toBe(9);
    expect((await list(t, t.cookie, 'listadoarticulos', { subfamilia_id: sub('TOR') })).total).toBe(4);
    expect((await list(t, t.cookie, 'listadoarticulos', { marca_id: marca('ACN'), q: 'tornillo' })).total).toBe(4);
    await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('ABACO', { id: ab.id, descripcion: 'Ábaco de madera' }), activo: 0 });
    expect(codigos((await list(t, t.cookie, 'listadoarticulos', { activo: 0 })).rows)).toEqual(['ABACO']);
    expect((await list(t, t.cookie, 'listadoarticulos', { activo: 1 })).total).toBe(n - 1);
  });
});
