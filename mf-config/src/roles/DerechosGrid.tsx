import styled from 'styled-components';
import { AREAS, AREA_INFO, NIVELES, NIVEL_HINT, NIVEL_LABEL, type Area, type Derechos, type Nivel } from 'shared';

const StyledGrid = styled.div`
  overflow-x: auto;
  table { width: 100%; border-collapse: collapse; font-size: 14px; min-width: 560px; }
  caption { text-align: left; font-size: 13px; color: ${({ theme }) => theme.gray[500]}; padding-bottom: 8px; }
  th, td { padding: 8px; border-bottom: 1px solid ${({ theme }) => theme.gray[100]}; vertical-align: top; }
  thead th { font-size: 12px; font-weight: 600; color: ${({ theme }) => theme.gray[700]}; text-align: center; }
  thead th:first-child { text-align: left; }
  thead th span { display: block; font-weight: 400; color: ${({ theme }) => theme.gray[500]}; }
  tbody th { text-align: left; font-weight: 600; color: ${({ theme }) => theme.gray[900]}; }
  tbody th span { display: block; font-size: 12px; font-weight: 400; color: ${({ theme }) => theme.gray[500]}; }
  td { text-align: center; }
  td label { display: inline-flex; flex-direction: column; align-items: center; gap: 2px; cursor: pointer; min-height: 32px; justify-content: center; }
  td small { font-size: 11px; color: ${({ theme }) => theme.gray[500]}; max-width: 110px; }
  input[type='checkbox'] { width: 18px; height: 18px; }
`;

export type DerechosAreas = Derechos['areas'];

/**
 * A level checked brings «Ver» with it and «Ver» unchecked takes the rest (whoever may change or delete may see): as the
 * server stores them.
 */
export function cambiarNivel(areas: DerechosAreas, area: Area, nivel: Nivel, on: boolean): DerechosAreas {
  const actual = new Set<Nivel>(areas[area] ?? []);
  if (on) {
    actual.add(nivel);
    actual.add('ver');
  } else if (nivel === 'ver') actual.clear();
  else actual.delete(nivel);
  const niveles = NIVELES.filter((n) => actual.has(n));
  const next = { ...areas };
  if (niveles.length) next[area] = niveles;
  else delete next[area];
  return next;
}

/** The role's table: one row per area, one checkbox per level («Eliminar en Catálogo»). */
export function DerechosGrid({
  areas,
  onChange,
  disabled,
  concede,
}: {
  areas: DerechosAreas;
  onChange: (areas: DerechosAreas) => void;
  disabled?: boolean;
  /** Whether the user may grant a level (issue 24: nobody grants a right they do not hold); a checked box can always be cleared. */
  concede?: (area: Area, nivel: Nivel) => boolean;
}) {
  return (
    <StyledGrid>
      <table>
        <caption>Marque lo que el rol puede hacer en cada área. Cualquier permiso incluye «Ver».</caption>
        <thead>
          <tr>
            <th scope="col">Área</th>
            {NIVELES.map((n) => (
              <th key={n} scope="col">
                {NIVEL_LABEL[n]}
                <span>{NIVEL_HINT[n]}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {AREAS.map((a) => (
            <tr key={a}>
              <th scope="row">
                {AREA_INFO[a].label}
                <span>{AREA_INFO[a].hint}</span>
              </th>
              {NIVELES.map((n) => {
                const propio = AREA_INFO[a].niveles?.[n];
                return (
                  <td key={n}>
                    <label>
                      <input
                        type="checkbox"
                        aria-label={`${NIVEL_LABEL[n]} en ${AREA_INFO[a].label}`}
                        checked={!!areas[a]?.includes(n)}
                        disabled={disabled || (!areas[a]?.includes(n) && concede !== undefined && !concede(a, n))}
                        onChange={(e) => onChange(cambiarNivel(areas, a, n, e.target.checked))}
                      />
                      {propio && <small aria-hidden>{propio}</small>}
                    </label>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </StyledGrid>
  );
}
