import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  DataTable,
  FiltroFechas,
  PageHeader,
  Pager,
  RowLink,
  SelectField,
  TextField,
  causaMovimiento,
  formatDate,
  rutaDocumento,
  useList,
  type DataColumn,
  type MovimientoAlmacen,
} from 'shared';
import { formatCantidad } from '../formato';
import { useAlmacenes } from '../opciones';
import { paths } from '../paths';

const signed = (n: number) => (n > 0 ? `+${formatCantidad(n)}` : formatCantidad(n));

/**
 * /almacenes/movimientos-almacen: the warehouse's ledger (`listadomovimientosalmacen`), every entry and exit by date,
 * newest first, with its article, what it was (an undo reads as such) and the document that wrote it. The transfers
 * between warehouses are «Traspasos» (/almacenes/movimientos).
 */
export function MovimientosAlmacenPage() {
  const [search, setSearch] = useSearchParams();
  const almacenes = useAlmacenes();
  const almacenId = search.get('almacen_id') || almacenes.porDefecto;
  const [desde, setDesde] = useState('');
  const [hasta, setHasta] = useState('');
  const [q, setQ] = useState('');
  const [pagina, setPagina] = useState(1);
  const [porPagina, setPorPagina] = useState(25);
  const reset = () => setPagina(1);
  return (
    <>
      <PageHeader title="Movimientos" description="Cada entrada y salida de mercancía del almacén, por fecha, con el documento que la hizo. Los traspasos entre almacenes están en «Traspasos»." />
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'end', marginBottom: 8 }}>
        <div style={{ minWidth: 220 }}>
          <SelectField
            label="Almacén"
            options={almacenes.options}
            placeholder={almacenes.loading ? 'Cargando…' : 'Seleccione…'}
            value={almacenId}
            onChange={(v) => {
              setSearch(v ? { almacen_id: v } : {}, { replace: true });
              reset();
            }}
          />
        </div>
        <div style={{ minWidth: 240 }}>
          <TextField
            label="Artículo"
            type="search"
            placeholder="Código o descripción…"
            value={q}
            onChange={(v) => {
              setQ(v);
              reset();
            }}
          />
        </div>
      </div>
      <FiltroFechas
        desde={desde}
        hasta={hasta}
        onChange={(name, v) => {
          (name === 'desde' ? setDesde : setHasta)(v);
          reset();
        }}
        onClear={() => {
          setDesde('');
          setHasta('');
          reset();
        }}
      />
      {almacenId ? (
        <Libro
          params={{ almacen_id: almacenId, desde: desde || undefined, hasta: hasta || undefined, q: q.trim() || undefined, pagina, porPagina }}
          onPage={setPagina}
          onPageSize={(n) => {
            setPorPagina(n);
            reset();
          }}
        />
      ) : (
        <p>{almacenes.loading ? 'Cargando…' : 'Elija un almacén.'}</p>
      )}
    </>
  );
}

type LibroProps = {
  params: { almacen_id: string; desde?: string; hasta?: string; q?: string; pagina: number; porPagina: number };
  onPage: (n: number) => void;
  onPageSize: (n: number) => void;
};

/** One warehouse's page of the ledger. */
function Libro({ params, onPage, onPageSize }: LibroProps) {
  const { rows, total, loading, error } = useList<MovimientoAlmacen>('listadomovimientosalmacen', params);
  const columns = useMemo<DataColumn<MovimientoAlmacen>[]>(
    () => [
      { id: 'fecha', header: 'Fecha', cell: (m) => formatDate(m.fecha) },
      {
        id: 'articulo',
        header: 'Artículo',
        cell: (m) => (
          <RowLink to={paths.articulo(m.articulo_id)}>
            {m.articulo_codigo} · {m.articulo_descripcion}
          </RowLink>
        ),
        text: (m) => `${m.articulo_codigo} ${m.articulo_descripcion}`,
      },
      { id: 'causa', header: 'Movimiento', cell: (m) => causaMovimiento(m) },
      {
        id: 'documento',
        header: 'Documento',
        cell: (m) => {
          const to = rutaDocumento(m.documento_tipo, m.documento_id);
          const text = m.documento_numero ?? '';
          return to ? <RowLink to={to}>{text || 'Ver documento'}</RowLink> : text;
        },
        text: (m) => m.documento_numero,
      },
      { id: 'ubicacion', header: 'Ubicación', hideOnPhone: true, cell: (m) => m.ubicacion_codigo ?? '' },
      { id: 'cantidad', header: 'Cantidad', align: 'right', numeric: true, cell: (m) => signed(m.cantidad) },
    ],
    [],
  );

  return error ? (
    <p role="alert">{error}</p>
  ) : (
    <>
      <DataTable columns={columns} rows={rows} rowKey={(m) => m.id} empty={loading ? 'Cargando…' : 'No hay movimientos en este almacén con estos filtros'} caption="Movimientos del almacén" />
      {total > 0 && <Pager pagina={params.pagina} porPagina={params.porPagina} total={total} onPage={onPage} onPageSize={onPageSize} />}
    </>
  );
}
