import { useMemo } from 'react';
import styled from 'styled-components';
import {
  ENTIDADES_ACTIVIDAD,
  FiltroFechas,
  ListView,
  PageHeader,
  RowLink,
  TIPO_ACTIVIDAD_LABEL,
  cambiosActividad,
  campoActividadLabel,
  valorActividad,
  entidadActividadLabel,
  formatDateTime,
  rutaActividad,
  useListOptions,
  useListState,
  type DataColumn,
  type LineaActividad,
  type ListFilter,
  type Theme,
  type Usuario,
} from 'shared';

type T = { theme: Theme };

const StyledCambios = styled.details`
  summary { cursor: pointer; color: ${({ theme }: T) => theme.primary[700]}; min-height: 24px; }
  table { border-collapse: collapse; margin-top: 4px; font-size: 13px; width: 100%; }
  th, td { text-align: left; padding: 2px 6px; border-top: 1px solid ${({ theme }: T) => theme.gray[200]}; overflow-wrap: anywhere; vertical-align: top; }
`;

/** The fields a line changed, folded: «Ver cambios (3)» opens campo · antes · después. */
function Cambios({ linea }: { linea: LineaActividad }) {
  const cambios = cambiosActividad(linea);
  if (!cambios.length) return null;
  return (
    <StyledCambios onClick={(e) => e.stopPropagation()}>
      <summary>Ver cambios ({cambios.length})</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Campo</th>
            <th scope="col">Antes</th>
            <th scope="col">Después</th>
          </tr>
        </thead>
        <tbody>
          {cambios.map(([campo, antes, despues]) => (
            <tr key={campo}>
              <th scope="row">{campoActividadLabel(campo)}</th>
              <td>{valorActividad(campo, antes)}</td>
              <td>{valorActividad(campo, despues)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </StyledCambios>
  );
}

const queNombra = (l: LineaActividad) => [entidadActividadLabel(l.entidad), l.numero].filter(Boolean).join(' ');

const COLUMNS: DataColumn<LineaActividad>[] = [
  { id: 'fecha', header: 'Fecha', cell: (l) => formatDateTime(l.fecha), text: (l) => formatDateTime(l.fecha) },
  { id: 'usuario', header: 'Usuario', cell: (l) => l.usuario_nombre ?? '—', text: (l) => l.usuario_nombre ?? '' },
  { id: 'ip', header: 'IP', hideOnPhone: true, cell: (l) => l.ip ?? '—', text: (l) => l.ip ?? '' },
  {
    id: 'accion',
    header: 'Acción',
    cell: (l) => (
      <>
        {TIPO_ACTIVIDAD_LABEL[l.tipo] ?? l.tipo} <small>({l.accion})</small>
      </>
    ),
    text: (l) => `${TIPO_ACTIVIDAD_LABEL[l.tipo] ?? l.tipo} (${l.accion})`,
  },
  {
    id: 'entidad',
    header: 'Qué',
    cell: (l) => {
      const texto = queNombra(l);
      const to = rutaActividad(l);
      return to && texto ? <RowLink to={to}>{texto}</RowLink> : texto || '—';
    },
    text: queNombra,
  },
  { id: 'cambios', header: 'Cambios', cell: (l) => <Cambios linea={l} />, text: (l) => cambiosActividad(l).map(([c]) => c).join(', ') },
];

const ENTIDAD_FILTER: ListFilter = { name: 'entidad', label: 'Entidad', options: ENTIDADES_ACTIVIDAD.map((e) => ({ value: e.id, label: e.label })) };

/** /config/actividad: who changed what, when and from where; filters by user, entity and dates. Read only. */
export function ActividadPage() {
  const [fechas, setFechas] = useListState('config-actividad-fechas');
  const desde = fechas.filters.desde ?? '';
  const hasta = fechas.filters.hasta ?? '';
  const usuarios = useListOptions<Usuario>('listadousuarios', { params: { orden: 'nombre' }, toOption: (u) => ({ value: String(u.id), label: u.nombre }) });
  const filters = useMemo<ListFilter[]>(() => [{ name: 'usuario_id', label: 'Usuario', options: usuarios.options }, ENTIDAD_FILTER], [usuarios.options]);
  const params = useMemo(() => ({ desde: desde || undefined, hasta: hasta || undefined }), [desde, hasta]);

  return (
    <>
      <PageHeader title="Actividad" description="Cada cambio hecho en Manager TPV: quién, cuándo, desde qué dirección y qué cambió. No se puede modificar ni borrar." />
      <FiltroFechas
        desde={desde}
        hasta={hasta}
        onChange={(name, value) => setFechas((s) => ({ ...s, filters: { ...s.filters, [name]: value } }))}
        onClear={() => setFechas((s) => ({ ...s, filters: { ...s.filters, desde: '', hasta: '' } }))}
      />
      <ListView<LineaActividad>
        title="Actividad"
        ac="listadoactividad"
        listKey="config-actividad"
        exportName="actividad"
        columns={COLUMNS}
        rowKey={(l) => l.id}
        filters={filters}
        params={params}
        searchPlaceholder="Buscar por número, usuario o acción…"
      />
    </>
  );
}
