import { describe, expect, it } from 'vitest';
import { MESSAGES, pvpFromNet } from 'shared/domain';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { articulo, ean13, list } from './catalogo-fixtures.ts';

describe.each(backends())('catálogo: importación CSV de artículos ($name)', (backend) => {
  const t = useTestApp(backend);
  const importar = (filas: unknown[], aplicar: 0 | 1) => t.op('importararticulos', { cookie: t.cookie, body: { filas, aplicar } });
  const demoBarcode = ean13('841234500001'); // TOR-M4-20
  const good = ean13('843700099992');
  const bad = good.slice(0, -1) + ((Number(good.at(-1)) + 1) % 10);


  const valid = [
    {
      codigo: 'IMP-1',
      descripcion: 'Cola blanca para madera 250 g',
      referencia: 'CB-250',
      familia_codigo: 'BRI',
      familia_nombre: 'Bricolaje',
      subfamilia_codigo: 'ADH',
      subfamilia_nombre: 'Adhesivos',
      marca_codigo: 'ACN',
      precio_compra: '1,2345',
      precio_venta: '1.234,5678',
      tarifa_2: '2,5',
      tarifa_3: '3,00',
      tipo_iva: '21 %',
      codigo_barras: ean13('843700099991'),
      unidad_medida: 'UD',
      palabras_clave: 'pegamento cola',
      nombre_tpv: 'COLA 250',
    },
    { codigo: 'TOR-M4-20', descripcion: 'Tornillo hexagonal M4 x 20 inox (bolsa 50)', precio_venta: '0.5' },
    { codigo: 'IMP-2', descripcion: 'Llave de vaso 10 mm', familia_nombre: 'ferreteria', subfamilia_nombre: 'herramienta MANUAL', activo: 'no' },
    { codigo: 'IMP-3', descripcion: 'Semillero de 24 alvéolos', familia_codigo: 'JAR', subfamilia_codigo: 'SEMI', subfamilia_nombre: 'Semilleros', tipo_iva: 'Exento' },
    { codigo: 'IMP-4', descripcion: 'Bandeja de semillero', subfamilia_codigo: 'SEMI' },
  ];
  const invalid = [
    { codigo: 'MAL-1', descripcion: '', precio_venta: 'doce', tipo_iva: '7', codigo_barras: bad, unidad_medida: 'saco', activo: 'quizá' },
    { codigo: 'IMP-1', descripcion: 'Repetido en el archivo' },
    { codigo: 'MAL-2', descripcion: 'Código de barras ajeno', codigo_barras: demoBarcode },
    { codigo: 'MAL-3', descripcion: 'Subfamilia de otra familia', familia_codigo: 'PIN', subfamilia_codigo: 'TOR' },
    { codigo: 'MAL-4', descripcion: 'Familia sin código', familia_nombre: 'No existe' },
    { codigo: 'MAL-5', descripcion: 'Subfamilia nueva sin familia', subfamilia_codigo: 'SOLA' },
    { codigo: 'MAL-6', descripcion: 'Nueva subfamilia ya planeada en otra familia', familia_codigo: 'PIN', subfamilia_codigo: 'SEMI' },
    { descripcion: 'Sin código', precio_compra: '-1' },
    'no es una fila',
  ];

  it('previews the errors of each invalid row (1-based), in Spanish; rows repeated in the file count', async () => {
    const res = await importar([...valid, ...invalid], 0);
    expect(res.statusCode).toBe(200);
    const body = expectCleanAnswer(res);
    expect(body.total).toBe(valid.length + invalid.length);
    expect(body.data).toEqual([
      {
        fila: 6,
        errores: {
          descripcion: MESSAGES.required,
          precio_venta: MESSAGES.invalidAmount,
          tipo_iva: MESSAGES.invalidIva,
          codigo_barras: MESSAGES.eanInvalid,
          unidad_medida: MESSAGES.invalidUnidad,
          activo: MESSAGES.invalidActivo,
        },
      },
      { fila: 7, errores: { codigo: MESSAGES.repeatedInFile } },
      { fila: 8, errores: { codigo_barras: MESSAGES.duplicated } },
      { fila: 9, errores: { subfamilia_codigo: MESSAGES.subfamiliaOtherFamilia } },
      { fila: 10, errores: { familia_codigo: MESSAGES.codigoNeeded } },
      { fila: 11, errores: { subfamilia_codigo: MESSAGES.subfamiliaNeedsFamilia } },
      { fila: 12, errores: { subfamilia_codigo: MESSAGES.subfamiliaOtherFamilia } },
      { fila: 13, errores: { codigo: MESSAGES.required, precio_compra: MESSAGES.invalidAmount } },
      { fila: 14, errores: { codigo: MESSAGES.required, descripcion: MESSAGES.required } },
    ]);
    expect((await list(t, t.cookie, 'listadoarticulos', { barras: 'IMP-1' })).rows).toEqual([]);
  });

  it('imports nothing while any row is invalid', async () => {
    const before = await list(t, t.cookie, 'listadoarticulos', { barras: 'TOR-M4-20' });
    const res = await importar([...valid, invalid[1]], 1);
    expect(res.statusCode).toBe(200);
    expect(expectCleanAnswer(res)).toMatchObject({
      RESULT: '1',
      message: MESSAGES.importHasErrors,
      data: [{ fila: 6, errores: { codigo: MESSAGES.repeatedInFile } }],
      errors: { 'fila 6 · codigo': `Fila 6, codigo: ${MESSAGES.repeatedInFile}` },
    });
    expect(await list(t, t.cookie, 'listadoarticulos', { barras: 'TOR-M4-20' })).toEqual(before);
    expect((await list(t, t.cookie, 'listadofamilias', { q: 'BRI' })).total).toBe(0);
    const empty = await importar([], 1);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ RESULT: '1', message: MESSAGES.importEmpty });
  });

  it('imports a valid file in one go: creates and matches familias, subfamilias and marcas by code or name, creates and updates articles', async () => {
    const res = await importar(valid, 1);
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '0', data: [{ creados: 4, actualizados: 1 }] });

    const bri = (await list(t, t.cookie, 'listadofamilias', { q: 'BRI' })).rows[0];
    expect(bri).toMatchObject({ codigo: 'BRI', nombre: 'Bricolaje', activo: 1 });
    const adh = (await list(t, t.cookie, 'listadosubfamilias', { q: 'ADH' })).rows[0];
    expect(adh).toMatchObject({ codigo: 'ADH', nombre: 'Adhesivos', familia_id: bri.id });

    const [imp1] = (await list(t, t.cookie, 'listadoarticulos', { barras: 'IMP-1' })).rows;
    expect(await articulo(t, t.cookie, imp1.id)).toMatchObject({
      codigo: 'IMP-1',
      referencia: 'CB-250',
      descripcion: 'Cola blanca para madera 250 g',
      familia_nombre: 'Bricolaje',
      subfamilia_nombre: 'Adhesivos',
      marca_nombre: 'Aceros del Norte',
      precio_compra: 12345,
      precio_venta: 12345678,
      pvp_1: Number(pvpFromNet(12345678n, '21')),
      tarifa_2: 25000,
      pvp_2: 303,
      // tarifa_3 is off in the demo: not imported.
      tarifa_3: 0,
      tipo_iva: '21',
      unidad_medida: 'ud',
      codigo_barras: ean13('843700099991'),
      palabras_clave: 'pegamento cola',
      nombre_tpv: 'COLA 250',
      activo: 1,
    });
    expect((await list(t, t.cookie, 'listadoarticulos', { q: 'pegamento madera' })).rows.map((r) => r.codigo)).toEqual(['IMP-1']);

    // Updated: only the cells the row has.
    const [tornillo] = (await list(t, t.cookie, 'listadoarticulos', { barras: 'TOR-M4-20' })).rows;
    expect(tornillo).toMatchObject({
      descripcion: 'Tornillo hexagonal M4 x 20 inox (bolsa 50)',
      precio_venta: 5000,
      pvp_1: 61,
      familia_nombre: 'Ferretería',
      codigo_barras: demoBarcode,
    });
    const [imp2] = (await list(t, t.cookie, 'listadoarticulos', { barras: 'IMP-2' })).rows;
    expect(imp2).toMatchObject({ familia_nombre: 'Ferretería', subfamilia_nombre: 'Herramienta manual', activo: 0, tipo_iva: '21' });
    const [imp3] = (await list(t, t.cookie, 'listadoarticulos', { barras: 'IMP-3' })).rows;
    const [imp4] = (await list(t, t.cookie, 'listadoarticulos', { barras: 'IMP-4' })).rows;
    expect(imp3).toMatchObject({ familia_nombre: 'Jardín', subfamilia_nombre: 'Semilleros', tipo_iva: 'exento' });
    // The new subfamilia of a previous row brings its familia.
    expect(imp4).toMatchObject({ familia_nombre: 'Jardín', subfamilia_nombre: 'Semilleros' });

    // Imported again: everything is an update now.
    expect(expectCleanAnswer(await importar(valid, 1)).data).toEqual([{ creados: 0, actualizados: 5 }]);
  });

  it('takes 20.000 rows in one request, and only with a session', async () => {
    const filas = Array.from({ length: 20_000 }, (_, i) => ({
      codigo: `MASIVO-${String(i).padStart(5, '0')}`,
      descripcion: `Artículo de importación masiva número ${i}`,
      familia_codigo: 'MAS',
      familia_nombre: 'Importación masiva',
      precio_venta: `${i},50`,
      codigo_barras: ean13(`84999${String(i).padStart(7, '0')}`),
    }));
    const noSession = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=importararticulos', payload: { filas, aplicar: 0 } });
    expect(noSession.statusCode).toBe(401);
    const preview = await importar(filas, 0);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toEqual([]);
    const res = await importar(filas, 1);
    expect(expectCleanAnswer(res).data).toEqual([{ creados: 20_000, actualizados: 0 }]);
    const mas = (await list(t, t.cookie, 'listadofamilias', { q: 'MAS' })).rows[0];
    const { total, rows } = await list(t, t.cookie, 'listadoarticulos', { familia_id: mas.id, orden: 'codigo', dir: 'desc', porPagina: 10 });
    expect(total).toBe(20_000);
    expect(rows[0]).toMatchObject({ codigo: 'MASIVO-19999', precio_venta: 199_995_000 });
  }, 120_000);
});
