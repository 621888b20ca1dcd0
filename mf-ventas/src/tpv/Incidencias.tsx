import { useState } from 'react';
import { Button, Card, formatDateTime, useAction, usePermisos, type IncidenciaTpv } from 'shared';
import { TablaCifras } from './TablaCifras';

/**
 * What the tills' uploads broke, or kept aside (issue 23; docs/tpv.md): each with when, what, its detail and the way
 * to put it right — on a closing's Z and on a ticket's page; «Resuelta» once dealt with (kept, never deleted).
 * Nothing when there is none.
 */
export function IncidenciasTpv({ incidencias, id }: { incidencias: IncidenciaTpv[] | undefined; id: string }) {
  const { run, busy } = useAction();
  const permisos = usePermisos();
  const [resueltas, setResueltas] = useState<Set<number>>(new Set());
  if (!incidencias?.length) return null;
  const resuelta = (i: IncidenciaTpv) => i.resuelta === 1 || resueltas.has(i.id);
  const pendientes = incidencias.filter((i) => !resuelta(i)).length;
  const puede = permisos.accion('resolverincidenciatpv');
  const resolver = async (i: IncidenciaTpv) => {
    const r = await run('resolverincidenciatpv', { id: i.id });
    if (r.ok) setResueltas((s) => new Set(s).add(i.id));
  };
  return (
    <Card aria-labelledby={id} className="wide" data-testid="incidencias-tpv">
      <h2 id={id}>Incidencias {pendientes > 0 ? `(${pendientes} por resolver)` : ''}</h2>
      <p style={{ fontSize: 13, margin: '0 0 8px' }}>
        Lo que la caja emitió sin conexión está en los libros tal como se imprimió; aquí se ve qué regla incumplió y cómo corregirlo.
      </p>
      <div className="scroll">
        <TablaCifras
          label="Incidencias"
          cabeceraDeFila={false}
          columnas={[{ titulo: 'Fecha', className: 'fuera-movil' }, { titulo: 'Qué' }, { titulo: 'Detalle' }, { titulo: 'Cómo corregirlo', className: 'fuera-movil' }, { titulo: 'Estado' }]}
          filas={incidencias.map((i) => ({
            key: i.id,
            celdas: [
              formatDateTime(i.fecha),
              i.numero ? `${i.etiqueta} (${i.numero})` : i.etiqueta,
              i.detalle,
              i.remedio,
              resuelta(i) ? (
                'Resuelta'
              ) : puede ? (
                <Button key="resolver" type="button" $variant="secondary" disabled={busy} onClick={() => void resolver(i)}>
                  Marcar resuelta
                </Button>
              ) : (
                'Por resolver'
              ),
            ],
          }))}
        />
      </div>
    </Card>
  );
}
