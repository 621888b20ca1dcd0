import { formatMoney } from 'shared';
import type { TicketLocal } from '../datos/cola';
import { useCaja } from './estado';
import { TouchButton, TouchDialog, Fila, Fondo } from './estilos';

/** What a queued entry was, for the cashier. */
function que(t: TicketLocal): string {
  if (t.clase === 'devolucion') return `Devolución ${t.registro?.num_serie ?? ''} del ticket ${t.devolucion?.numero_ticket ?? ''}`;
  if (t.clase === 'movimiento') return `${(t.movimiento?.importe ?? 0) < 0 ? 'Salida' : 'Entrada'}: ${t.movimiento?.motivo ?? ''}`;
  if (t.clase === 'cierre') return 'Cierre de caja';
  return `Ticket ${t.registro?.num_serie ?? t.uuid}`;
}

/**
 * What the server refused on upload (issue 13): each with what it was, when, its amount and the reason. Never deleted:
 * once someone has dealt with it (the refund settled, the movement noted in the open caja…) it is marked resolved and
 * stays in the till's storage.
 */
export default function Incidencias({ onCerrar }: { onCerrar(): void }) {
  const operaciones = useCaja((s) => s.operaciones);
  const resolver = useCaja((s) => s.resolverIncidencia);
  const incidencias = operaciones.filter((o) => o.estado === 'incidencia');
  return (
    <Fondo>
      <TouchDialog aria-label="Incidencias" onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Incidencias</h2>
        <p style={{ margin: '0 0 8px' }}>
          Lo hecho sin conexión que el servidor no ha podido guardar al enviarlo. Lo impreso no se cambia: conserve el ticket o el justificante y
          avise al encargado, que lo ve también en la gestión. El resto de la cola sigue enviándose. Cuando esté resuelto, márquelo.
        </p>
        {incidencias.length === 0 ? (
          <p role="status">No hay incidencias.</p>
        ) : (
          <table aria-label="Incidencias por resolver">
            <tbody>
              {incidencias.map((i) => (
                <tr key={i.uuid}>
                  <td>{new Date(i.fecha_hora).toLocaleString('es-ES', { dateStyle: 'short', timeStyle: 'short' })}</td>
                  <td>{que(i)}</td>
                  <td className="n">{i.clase === 'cierre' ? '' : formatMoney(i.clase === 'movimiento' ? (i.movimiento?.importe ?? 0) : i.total)}</td>
                  <td>{i.incidencia}</td>
                  <td>
                    <TouchButton onClick={() => void resolver(i.uuid)}>Resuelta</TouchButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Fila style={{ marginTop: 12 }}>
          <TouchButton $tono="primario" autoFocus onClick={onCerrar}>Cerrar</TouchButton>
        </Fila>
      </TouchDialog>
    </Fondo>
  );
}
