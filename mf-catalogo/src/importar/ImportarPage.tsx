import { useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  ApiHttpError,
  Button,
  Callout,
  ConfirmDialog,
  DataTable,
  ErrorText,
  FileField,
  FormSection,
  Muted,
  PageHeader,
  ProgressBar,
  downloadBlob,
  decodeCsvBytes,
  downloadCsv,
  parseCsv,
  useAction,
  useShell,
  type DataColumn,
} from 'shared';
import { paths } from '../paths';
import { ETIQUETA, filasDe, mapearCabecera, plantillaCsv, validarFilas, type ErroresFila, type Fila, type Mapeo } from './columnas';

/** Rows per `importararticulos` call while validating: small enough to show progress, big enough to be quick. */
export const CHUNK = 500;
/** Rows with errors shown on screen; all of them go to the errors CSV. */
const SHOWN = 300;

type Estado = 'vacio' | 'leyendo' | 'validando' | 'validado' | 'importando' | 'importado';
type FilaError = { indice: number; linea: number; codigo: string; errores: ErroresFila };
type RespuestaValidacion = { fila: number; errores: ErroresFila };

const ERROR_COLUMNS: DataColumn<FilaError>[] = [
  { id: 'linea', header: 'Línea', align: 'right', width: '70px', cell: (e) => e.linea },
  { id: 'codigo', header: 'Código', cell: (e) => e.codigo },
  {
    id: 'errores',
    header: 'Errores',
    cell: (e) => (
      <ul style={{ margin: 0, paddingLeft: 18 }}>
        {Object.entries(e.errores).map(([campo, msg]) => (
          <li key={campo}>
            <strong>{ETIQUETA[campo] ?? campo}:</strong> {msg}
          </li>
        ))}
      </ul>
    ),
  },
];

const PREVIEW_FIELDS = ['codigo', 'descripcion', 'familia_nombre', 'marca_nombre', 'precio_venta', 'tipo_iva'] as const;

/** /catalogo/importar: articles from a CSV, with families, subfamilies and brands matched by code; all or nothing. */
export function ImportarPage() {
  const { api, toast, config } = useShell();
  const { run, busy } = useAction();
  const [file, setFile] = useState<File | null>(null);
  const [estado, setEstado] = useState<Estado>('vacio');
  const [problema, setProblema] = useState<string | null>(null);
  const [mapeo, setMapeo] = useState<Mapeo | null>(null);
  const [filas, setFilas] = useState<Fila[]>([]);
  const [lineas, setLineas] = useState<number[]>([]);
  const [errores, setErrores] = useState<Map<number, ErroresFila>>(new Map());
  const [validadas, setValidadas] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [resultado, setResultado] = useState<{ creados: number; actualizados: number } | null>(null);
  // A newer file cancels the validation of the previous one.
  const turno = useRef(0);

  const reset = () => {
    turno.current++;
    setProblema(null);
    setMapeo(null);
    setFilas([]);
    setLineas([]);
    setErrores(new Map());
    setValidadas(0);
    setResultado(null);
  };

  const handleFile = async (f: File | null) => {
    setFile(f);
    reset();
    if (!f) return setEstado('vacio');
    const mio = turno.current;
    setEstado('leyendo');
    let text: string;
    try {
      text = decodeCsvBytes(await f.arrayBuffer());
    } catch {
      setEstado('vacio');
      return setProblema('No se ha podido leer el archivo');
    }
    if (mio !== turno.current) return;
    const csv = parseCsv(text);
    const m = mapearCabecera(csv.header);
    setMapeo(m);
    if (csv.rows.length === 0) {
      setEstado('vacio');
      return setProblema('El archivo no tiene filas de artículos después de la cabecera');
    }
    if (m.faltan.length) {
      setEstado('vacio');
      return setProblema(`Faltan columnas obligatorias: ${m.faltan.join(', ')}. Descargue la plantilla para ver los nombres.`);
    }
    const todas = filasDe(csv.rows, m);
    setFilas(todas);
    setLineas(csv.lines);
    const locales = validarFilas(todas, csv.lines, config?.impuesto ?? 'iva');
    setErrores(new Map(locales));
    setEstado('validando');

    // The server checks each chunk against the database: duplicated codes and barcodes, unknown values.
    for (let desde = 0; desde < todas.length; desde += CHUNK) {
      const trozo = todas.slice(desde, desde + CHUNK);
      try {
        const res = await api.post<RespuestaValidacion>('importararticulos', { filas: trozo, aplicar: 0 });
        if (mio !== turno.current) return;
        if (res.RESULT !== '0') throw new Error(res.message);
        const delServidor = res.data ?? [];
        setErrores((prev) => {
          const next = new Map(prev);
          // `fila` counts from 1 within the rows of that call.
          for (const r of delServidor) {
            const i = desde + r.fila - 1;
            next.set(i, { ...r.errores, ...next.get(i) });
          }
          return next;
        });
      } catch (e) {
        if (mio !== turno.current) return;
        const msg = e instanceof ApiHttpError ? e.message : e instanceof Error && e.message ? e.message : undefined;
        toast.error(msg);
        setProblema('No se ha podido validar el archivo en el servidor. Inténtelo de nuevo.');
        setEstado('vacio');
        return;
      }
      setValidadas(Math.min(todas.length, desde + CHUNK));
    }
    setEstado('validado');
  };

  const handleImport = async () => {
    setEstado('importando');
    const outcome = await run<{ creados: number; actualizados: number }>('importararticulos', { filas, aplicar: 1 });
    setConfirming(false);
    if (outcome.ok) {
      setResultado(outcome.data[0] ?? { creados: 0, actualizados: 0 });
      setEstado('importado');
    } else {
      const fieldErrors = outcome.response?.errors;
      if (fieldErrors) setProblema(`El servidor ha rechazado la importación: ${Object.values(fieldErrors).join('; ')}`);
      setEstado('validado');
    }
  };

  const conErrores: FilaError[] = [...errores.entries()]
    .sort(([a], [b]) => a - b)
    .map(([indice, e]) => ({ indice, linea: lineas[indice] ?? indice + 2, codigo: filas[indice]?.codigo ?? '', errores: e }));
  const listo = estado === 'validado' && filas.length > 0 && conErrores.length === 0;

  const descargarErrores = () =>
    downloadCsv(
      'errores-importacion.csv',
      ['Línea', 'Código', 'Columna', 'Error'],
      conErrores.flatMap((e) => Object.entries(e.errores).map(([campo, msg]) => [e.linea, e.codigo, ETIQUETA[campo] ?? campo, msg])),
    );

  const previewColumns: DataColumn<Fila>[] = PREVIEW_FIELDS.map((f) => ({ id: f, header: ETIQUETA[f], cell: (r) => r[f] ?? '' }));

  return (
    <>
      <PageHeader
        title="Importar artículos"
        description="Cree o actualice artículos desde un archivo CSV. Las familias, subfamilias y marcas se buscan por su código y se crean si no existen."
        back={{ to: paths.articulos, label: 'Artículos' }}
        actions={
          <Button $variant="secondary" onClick={() => downloadBlob(new Blob([plantillaCsv()], { type: 'text/csv;charset=utf-8' }), 'plantilla-articulos.csv')}>
            Descargar plantilla
          </Button>
        }
      />
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        <FormSection
          title="Archivo"
          description="CSV separado por «;» o «,», en UTF-8 (con o sin BOM) o tal como lo guarda Excel, con una fila de cabecera. Los importes pueden escribirse como 1.234,56 o 1234.56. Un artículo con un código que ya existe se actualiza."
        >
          <FileField
            label="Archivo CSV"
            accept=".csv,text/csv"
            file={file}
            disabled={estado === 'validando' || estado === 'importando'}
            onChange={(f) => void handleFile(f)}
            error={problema ?? undefined}
          />
          {mapeo && (mapeo.ignoradas.length > 0 || mapeo.repetidas.length > 0) && (
            <Muted style={{ marginTop: 8, fontSize: 13 }}>
              {mapeo.ignoradas.length > 0 && `Columnas que no se importan: ${mapeo.ignoradas.join(', ')}. `}
              {mapeo.repetidas.length > 0 && `Columnas repetidas (se usa la primera): ${mapeo.repetidas.join(', ')}.`}
            </Muted>
          )}
        </FormSection>

        {(estado === 'validando' || (estado === 'validado' && filas.length > CHUNK)) && (
          <ProgressBar label="Validando filas" value={validadas} max={filas.length} unit="filas" />
        )}

        {filas.length > 0 && estado !== 'importado' && (
          <FormSection
            title="Vista previa"
            description={`${filas.length.toLocaleString('es-ES')} filas leídas${estado === 'validado' ? `, ${conErrores.length.toLocaleString('es-ES')} con errores` : ''}.`}
            aside={
              conErrores.length > 0 && estado === 'validado' ? (
                <Button $variant="secondary" $small onClick={descargarErrores}>
                  Descargar errores (CSV)
                </Button>
              ) : undefined
            }
          >
            {conErrores.length > 0 ? (
              <>
                <ErrorText style={{ display: 'block', marginBottom: 8 }}>
                  Corrija estas filas en el archivo y vuelva a elegirlo: no se importa nada mientras haya errores.
                </ErrorText>
                <DataTable columns={ERROR_COLUMNS} rows={conErrores.slice(0, SHOWN)} rowKey={(e) => e.indice} caption="Filas con errores" />
                {conErrores.length > SHOWN && <Muted style={{ marginTop: 8 }}>Se muestran las {SHOWN} primeras; el CSV de errores las tiene todas.</Muted>}
              </>
            ) : (
              <>
                {estado === 'validado' && <Callout style={{ marginBottom: 12 }}>Todas las filas son válidas.</Callout>}
                <DataTable columns={previewColumns} rows={filas.slice(0, 10)} rowKey={(r) => filas.indexOf(r)} caption="Primeras filas del archivo" />
                {filas.length > 10 && <Muted style={{ marginTop: 8 }}>Se muestran las 10 primeras filas.</Muted>}
              </>
            )}
          </FormSection>
        )}

        {resultado && (
          <Callout role="status">
            <p>
              Importación terminada: {resultado.creados.toLocaleString('es-ES')} artículos creados y {resultado.actualizados.toLocaleString('es-ES')} actualizados.
            </p>
            <p>
              <Link to={paths.articulos}>Ver los artículos</Link>
            </p>
          </Callout>
        )}

        {estado !== 'importado' && (
          <div>
            <Button type="button" disabled={!listo || busy} onClick={() => setConfirming(true)}>
              Importar {filas.length > 0 ? `${filas.length.toLocaleString('es-ES')} artículos` : 'artículos'}
            </Button>
          </div>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Importar artículos"
        text={`Se importarán ${filas.length.toLocaleString('es-ES')} artículos en una sola operación: o se guardan todos o ninguno.`}
        confirmLabel="Importar"
        busy={busy}
        onConfirm={() => void handleImport()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
