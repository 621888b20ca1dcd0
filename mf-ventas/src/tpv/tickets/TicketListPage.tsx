import { useMemo } from 'react';
import { DocumentListPage, useAlmacenes, useListOptions, type DataColumn, type DocumentoFila, type ListFilter } from 'shared';
import type { Terminal } from '../datos';
import { TICKET } from './pantalla';

type TicketFila = DocumentoFila & { terminal_id?: number | null; offline?: 0 | 1; incidencias?: { tipo: string; etiqueta: string; resuelta: 0 | 1 }[] };

/** /ventas/tickets: every ticket of every terminal (number, date and time of sale, state, terminal, customer, lines, total; filters of state, dates, warehouse, customer, terminal), read only. */
export function TicketListPage() {
  const almacenes = useAlmacenes();
  const terminales = useListOptions<Terminal>('listadoterminales', { params: { orden: 'nombre' }, toOption: (t) => ({ value: String(t.id), label: t.nombre }) });
  const nombres = useMemo(() => new Map(terminales.rows.map((t) => [t.id, t.nombre])), [terminales.rows]);
  const columns = useMemo<DataColumn<DocumentoFila>[]>(
    () => [
      { id: 'terminal', header: 'Terminal', cell: (d) => nombres.get((d as TicketFila).terminal_id ?? 0) ?? '' },
      { id: 'cliente', header: 'Cliente', hideOnPhone: true, cell: (d) => d.cliente_nombre ?? '' },
      { id: 'sin_conexion', header: 'Sin conexión', hideOnPhone: true, cell: (d) => ((d as TicketFila).offline ? 'Sí' : '') },
      // Issue 23: what its upload (or its returns') broke, for the manager; the ticket's page says how to correct it.
      {
        id: 'incidencias',
        header: 'Incidencias',
        cell: (d) => {
          const pendientes = ((d as TicketFila).incidencias ?? []).filter((i) => !i.resuelta);
          return pendientes.length ? <strong data-testid="ticket-incidencia">⚠ {pendientes.map((i) => i.etiqueta).join(' · ')}</strong> : '';
        },
      },
    ],
    [nombres],
  );
  const filters = useMemo<ListFilter[]>(() => [{ name: 'terminal_id', label: 'Terminal', options: terminales.options }], [terminales.options]);
  return (
    <DocumentListPage
      pantalla={TICKET}
      columns={columns}
      columnaLineas
      conHora
      almacenes={almacenes.options}
      filters={filters}
      listKey="ventas-tickets"
      searchPlaceholder="Buscar por número o cliente…"
    />
  );
}
