import { useState } from 'react';
import { Muted, useAction, useListOptions, usePermisos, type Articulo, type Ubicacion } from 'shared';
import styled from 'styled-components';

const StyledGrid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 12px 16px;
  margin-top: 16px;
  label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; font-weight: 500; }
  select { font: inherit; padding: 7px 8px; border-radius: 6px; border: 1px solid ${({ theme }) => theme.gray[300]}; background: #fff; min-height: 38px; }
`;

/**
 * The article's usual location in each warehouse that has locations: received transfers put its stock
 * there. Each choice is saved at once (`editarubicacionarticulo`), apart from the article's form.
 */
export function UbicacionesHabituales({ articulo }: { articulo: Articulo }) {
  const ubicaciones = useListOptions<Ubicacion>('listadoubicaciones', {
    params: { activo: '1', orden: 'codigo', dir: 'asc' },
    toOption: (u) => ({ value: String(u.id), label: u.descripcion ? `${u.codigo} · ${u.descripcion}` : u.codigo }),
  });
  const { run, busy } = useAction();
  const puedeCambiar = usePermisos().accion('editarubicacionarticulo');
  const [elegidas, setElegidas] = useState<Record<number, string>>(() =>
    Object.fromEntries((articulo.stock ?? []).map((s) => [s.almacen_id, s.ubicacion_habitual_id ? String(s.ubicacion_habitual_id) : ''])),
  );
  const almacenes = (articulo.stock ?? []).filter((s) => ubicaciones.rows.some((u) => u.almacen_id === s.almacen_id));
  if (ubicaciones.loading || almacenes.length === 0) return null;

  const elegir = async (almacenId: number, value: string) => {
    const antes = elegidas[almacenId] ?? '';
    setElegidas((e) => ({ ...e, [almacenId]: value }));
    const outcome = await run('editarubicacionarticulo', { articulo_id: articulo.id, almacen_id: almacenId, ubicacion_id: value ? Number(value) : null });
    if (!outcome.ok) setElegidas((e) => ({ ...e, [almacenId]: antes }));
  };

  return (
    <>
      <StyledGrid>
        {almacenes.map((s) => (
          <label key={s.almacen_id}>
            Ubicación habitual en {s.almacen_nombre}
            <select value={elegidas[s.almacen_id] ?? ''} disabled={busy || !puedeCambiar} onChange={(e) => void elegir(s.almacen_id, e.target.value)}>
              <option value="">Sin ubicación habitual</option>
              {ubicaciones.rows
                .filter((u) => u.almacen_id === s.almacen_id)
                .map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.descripcion ? `${u.codigo} · ${u.descripcion}` : u.codigo}
                  </option>
                ))}
            </select>
          </label>
        ))}
      </StyledGrid>
      <Muted>Los traspasos recibidos dejan el artículo en su ubicación habitual del almacén de destino.</Muted>
    </>
  );
}
