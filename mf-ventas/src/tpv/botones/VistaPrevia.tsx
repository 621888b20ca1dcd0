import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Card, CONSTANTS, useShell, type Articulo, type Theme } from 'shared';
import { colorBoton, textoBoton, type PaginaTpv } from '../datos';
import { Boton } from './Boton';

type T = { theme: Theme };

const StyledPrevia = styled.div<{ $cols: number }>`
  h2 { font-size: 16px; margin: 0 0 10px; }
  .till { background: ${({ theme }: T) => theme.gray[800]}; border-radius: 10px; padding: 10px; }
  .tabs { display: flex; gap: 6px; overflow-x: auto; padding-bottom: 8px; }
  .tab { border: 0; border-radius: 6px 6px 0 0; padding: 8px 12px; font: inherit; font-size: 13px; font-weight: 600; cursor: pointer; white-space: nowrap; opacity: 0.7; }
  .tab[aria-selected='true'] { opacity: 1; box-shadow: 0 -3px 0 #fff inset; }
  .grid { display: grid; grid-template-columns: repeat(${({ $cols }) => $cols}, minmax(0, 1fr)); gap: 6px; }
  .vacia { color: ${({ theme }: T) => theme.gray[300]}; font-size: 13px; padding: 16px; text-align: center; }
`;

/** A family page previews its first articles: the largest page a listing answers (30 was refused with a 400). */
const MAX_FAMILIA = Math.max(...CONSTANTS.pageSizes);

type PaginaPrevia = Pick<PaginaTpv, 'nombre' | 'familia_id' | 'color'> & { _k: string; botones: PaginaTpv['botones'] };

/** What the till shows: the pages as tabs and the chosen page's buttons (a family page: its articles by name). */
export function VistaPrevia({ paginas, seleccionada, onPagina, columnas }: { paginas: PaginaPrevia[]; seleccionada: string | null; onPagina: (k: string) => void; columnas: number }) {
  const { api } = useShell();
  const pagina = paginas.find((p) => p._k === seleccionada) ?? paginas[0];
  const familiaId = pagina?.familia_id ?? null;
  const [articulos, setArticulos] = useState<Articulo[] | null>(null);
  const [fallo, setFallo] = useState(false);
  useEffect(() => {
    if (!familiaId) {
      setArticulos(null);
      return;
    }
    let live = true;
    setArticulos(null);
    setFallo(false);
    api
      .get<Articulo>('listadoarticulos', { familia_id: familiaId, activo: 1, orden: 'descripcion', dir: 'asc', porPagina: MAX_FAMILIA })
      .then((r) => live && setArticulos(r.data ?? []))
      .catch(() => {
        if (!live) return;
        setFallo(true);
        setArticulos([]);
      });
    return () => {
      live = false;
    };
  }, [api, familiaId]);

  return (
    <Card aria-labelledby="tpv-previa">
      <StyledPrevia $cols={columnas}>
        <h2 id="tpv-previa">Vista previa en la caja</h2>
        <div className="till" data-testid="vista-previa">
          {paginas.length === 0 ? (
            <div className="vacia">La caja no mostrará botones: solo la búsqueda y el lector.</div>
          ) : (
            <>
              <div className="tabs" role="tablist" aria-label="Páginas en la caja">
                {paginas.map((p) => {
                  const c = colorBoton(p.color);
                  return (
                    <button
                      key={p._k}
                      type="button"
                      role="tab"
                      className="tab"
                      aria-selected={p._k === pagina?._k}
                      style={{ background: c.fondo, color: c.texto }}
                      onClick={() => onPagina(p._k)}
                    >
                      {p.nombre || '(sin nombre)'}
                    </button>
                  );
                })}
              </div>
              <div className="grid" role="tabpanel" aria-label={pagina?.nombre}>
                {familiaId
                  ? articulos === null
                    ? <div className="vacia">Cargando…</div>
                    : fallo
                      ? <div className="vacia" role="alert">No se han podido leer los artículos de la familia.</div>
                    : articulos.length === 0
                      ? <div className="vacia">La familia no tiene artículos activos.</div>
                      : articulos.map((a) => <Boton key={a.id} texto={a.nombre_tpv || a.descripcion} color={pagina?.color} precio={a.pvp_1} alto={56} />)
                  : pagina && pagina.botones.length === 0
                    ? <div className="vacia">Página sin botones.</div>
                    : pagina?.botones.map((b) => <Boton key={b.articulo_id} texto={textoBoton(b)} color={b.color} precio={b.precio} alto={56} />)}
              </div>
            </>
          )}
        </div>
      </StyledPrevia>
    </Card>
  );
}
