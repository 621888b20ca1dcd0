import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import styled from 'styled-components';
import { Button, ESTADO_FILTER, RecordListPage, activoColumn, linkColumn, useShell, type DataColumn, type ListFilter, usePermisos } from 'shared';
import { formatCantidad, formatPrecio, formatPvp } from '../formato';
import { maestroOption, useFamilias, useMarcas, useSubfamilias } from '../opciones';
import { paths } from '../paths';
import { filtroDe, type ArticuloFila, type SeleccionPrecios } from './types';

const Nowrap = styled.span`
  white-space: nowrap;
`;

/** /catalogo/articulos: the catalogue, fast at 100.000 articles (server paging), with barcode scanning. */
export function ArticuloListPage() {
  const navigate = useNavigate();
  const { api, flags } = useShell();
  const [selected, setSelected] = useState<(string | number)[]>([]);
  const familias = useFamilias();
  const subfamilias = useSubfamilias();
  const marcas = useMarcas();
  const conPvp = flags.pvp === 1;

  const columns = useMemo<DataColumn<ArticuloFila>[]>(
    () => [
      linkColumn('codigo', 'Código', (a) => a.codigo, (a) => paths.articulo(a.id)),
      { id: 'descripcion', header: 'Descripción', sortable: true, cell: (a) => a.descripcion },
      { id: 'referencia', header: 'Referencia', sortable: true, hideOnPhone: true, cell: (a) => a.referencia ?? '' },
      { id: 'familia', header: 'Familia', sortable: true, hideOnPhone: true, cell: (a) => a.familia_nombre ?? '' },
      { id: 'marca', header: 'Marca', sortable: true, hideOnPhone: true, cell: (a) => a.marca_nombre ?? '' },
      conPvp
        ? { id: 'pvp_1', header: 'PVP', sortable: true, align: 'right', numeric: true, cell: (a) => <Nowrap>{formatPvp(a.pvp_1)}</Nowrap>, text: (a) => formatPvp(a.pvp_1) }
        : { id: 'precio_venta', header: 'Precio', sortable: true, align: 'right', numeric: true, cell: (a) => <Nowrap>{formatPrecio(a.precio_venta)}</Nowrap>, text: (a) => formatPrecio(a.precio_venta) },
      { id: 'stock_total', header: 'Stock', sortable: true, align: 'right', numeric: true, hideOnPhone: true, cell: (a) => formatCantidad(a.stock_total) },
      activoColumn(),
    ],
    [conPvp],
  );

  const filters: ListFilter[] = [
    { name: 'familia_id', label: 'Familia', options: familias.options },
    {
      name: 'subfamilia_id',
      label: 'Subfamilia',
      dependsOn: 'familia_id',
      options: (f) => subfamilias.rows.filter((s) => String(s.familia_id) === f.familia_id).map((s) => maestroOption(s)),
    },
    { name: 'marca_id', label: 'Marca', options: marcas.options },
    ESTADO_FILTER,
  ];

  // A scanner types the code and presses Enter: an exact barcode (or code) opens that article.
  const handleSearchEnter = async (q: string) => {
    if (!q) return;
    try {
      const res = await api.get<ArticuloFila>('listadoarticulos', { barras: q });
      const found = res.RESULT === '0' ? (res.data ?? []) : [];
      if (found.length === 1) navigate(paths.articulo(found[0].id));
    } catch {
      // The ordinary search of the same text goes on.
    }
  };

  // Importing and changing prices are the catalogue's «crear y modificar»: not offered to a role that only reads it.
  const permisos = usePermisos();
  const puede = { importar: permisos.accion('importararticulos'), cambiarPrecios: permisos.accion('cambiarprecios') };
  const goToPriceChange = (seleccion: SeleccionPrecios) => navigate(paths.cambioPrecios, { state: seleccion });

  return (
    <RecordListPage<ArticuloFila>
      title="Artículos"
      description="El catálogo: busque por código, descripción, referencia o palabras clave, o escanee un código de barras."
      actions={
        puede.importar && (
          <Button $variant="secondary" onClick={() => navigate(paths.importar)}>
            Importar
          </Button>
        )
      }
      create={{ label: 'Nuevo artículo', to: paths.nuevoArticulo }}
      recordPath={paths.articulo}
      ac="listadoarticulos"
      listKey="catalogo-articulos"
      exportName="articulos"
      columns={columns}
      filters={filters}
      searchPlaceholder="Buscar o escanear código de barras…"
      defaultSort={{ orden: 'codigo', dir: 'asc' }}
      onSearchEnter={(q) => void handleSearchEnter(q)}
      selection={puede.cambiarPrecios ? { selected, onChange: setSelected, rowLabel: (a) => `Seleccionar ${a.codigo}` } : undefined}
      toolbar={({ params, total }) =>
        !puede.cambiarPrecios ? null : selected.length > 0 ? (
          <Button $small onClick={() => goToPriceChange({ ids: selected.map(Number) })}>
            Cambiar precios ({selected.length.toLocaleString('es-ES')})
          </Button>
        ) : (
          <Button $small $variant="secondary" disabled={total === 0} onClick={() => goToPriceChange({ filtro: filtroDe(params) })}>
            Cambiar precios de los {total.toLocaleString('es-ES')} del filtro
          </Button>
        )
      }
    />
  );
}
