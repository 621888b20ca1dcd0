import { useCallback, useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import {
  Button,
  DecimalField,
  FormSection,
  Muted,
  SelectField,
  divRound,
  formatDecimal,
  formatMoney,
  nuevaClaveLinea,
  useListOptions,
  useShell,
  type DecimalValue,
  type Documento,
  type ParteHora,
  type Proceso,
} from 'shared';

/** One row of a parte's hours as the form holds it: the proceso's id as the select's value, hours (3) and price per hour (4) as typed. */
export type FilaHora = { key: string; proceso_id: string; horas: DecimalValue; precio: DecimalValue; /** As the server names it. */ nombre?: string };

const MENSAJES = {
  proceso: 'Elija el proceso',
  horas: 'Las horas deben ser un número mayor que cero',
  precio: 'Debe ser un número válido',
} as const;

const UNA_HORA = 1000n;

const filasDe = (horas: ParteHora[] | undefined): FilaHora[] =>
  (horas ?? []).map((h) => ({ key: nuevaClaveLinea(), proceso_id: String(h.proceso_id), horas: BigInt(h.horas), precio: BigInt(h.precio), nombre: h.proceso_nombre }));

const num = (v: DecimalValue) => (typeof v === 'bigint' ? v : 0n);

/** Amount of a row in cents: hours (thousandths) × price per hour (ten-thousandths), rounded once, half-up. */
export const importeHora = (f: Pick<FilaHora, 'horas' | 'precio'>) => divRound(num(f.horas) * num(f.precio), 100000n);

/**
 * The hours of a parte while edited: loaded from the document (and again after each save or action), the
 * `horas` of `editarparte`'s body, whether they changed, and their check (errors keyed `horas.N.campo`, as the server's).
 */
export function useHorasParte(documento: Documento | null) {
  const [filas, setFilas] = useState<FilaHora[]>([]);
  const [base, setBase] = useState<FilaHora[]>(filas);
  const [errores, setErrores] = useState<Record<string, string>>({});

  useEffect(() => {
    const f = filasDe(documento?.horas);
    setFilas(f);
    setBase(f);
    setErrores({});
  }, [documento]);

  const body = useMemo(
    () => ({ horas: filas.map((f) => ({ proceso_id: Number(f.proceso_id), horas: Number(num(f.horas)), precio: Number(num(f.precio)) })) }),
    [filas],
  );

  const valido = useCallback(() => {
    const e: Record<string, string> = {};
    filas.forEach((f, i) => {
      if (!f.proceso_id) e[`horas.${i}.proceso_id`] = MENSAJES.proceso;
      if (typeof f.horas !== 'bigint' || f.horas <= 0n) e[`horas.${i}.horas`] = MENSAJES.horas;
      if (typeof f.precio !== 'bigint' || f.precio < 0n) e[`horas.${i}.precio`] = MENSAJES.precio;
    });
    setErrores(e);
    return Object.keys(e).length === 0;
  }, [filas]);

  const cambiar = useCallback((key: string, patch: Partial<FilaHora>) => {
    setFilas((fs) => fs.map((f) => (f.key === key ? { ...f, ...patch } : f)));
    setErrores({});
  }, []);

  return { filas, setFilas, cambiar, body, dirty: filas !== base, valido, errores };
}

export type HorasParteState = ReturnType<typeof useHorasParte>;

const StyledHoras = styled.div`
  display: flex;
  flex-direction: column;
  gap: 10px;
  .fila {
    margin: 0;
    border: 0;
    border-bottom: 1px solid ${({ theme }) => theme.gray[100]};
    min-width: 0;
    padding: 0 0 10px;
    display: grid;
    grid-template-columns: minmax(180px, 2fr) minmax(110px, 1fr) minmax(130px, 1fr) minmax(100px, auto) auto;
    gap: 10px 14px;
    align-items: end;
  }
  .importe { display: flex; flex-direction: column; gap: 10px; font-variant-numeric: tabular-nums; text-align: right; padding-bottom: 10px; font-weight: 600; }
  .importe .k { font-size: 13px; font-weight: 600; color: ${({ theme }) => theme.gray[700]}; }
  ${({ theme }) => theme.phone} { .fila { grid-template-columns: 1fr 1fr; } }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid ${({ theme }) => theme.gray[100]}; }
  th { font-size: 12px; color: ${({ theme }) => theme.gray[600]}; background: ${({ theme }) => theme.gray[50]}; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  .total { display: flex; justify-content: flex-end; gap: 20px; font-size: 14px; }
  .total strong { font-variant-numeric: tabular-nums; }
`;

const horasTexto = (v: bigint | number) => formatDecimal(v, 3, 0);

/**
 * «Horas» of a parte de trabajo: one row per proceso (from `listadoprocesos`) with the time spent and the
 * price per hour (the proceso's coste by default, its usual time as the hours); the amount of each and the total.
 */
export function HorasParte({ horas, readOnly, erroresServidor }: { horas: HorasParteState; readOnly: boolean; erroresServidor: Record<string, string> }) {
  const { flags } = useShell();
  const conProcesos = flags.procesos === 1;
  const procesos = useListOptions<Proceso>('listadoprocesos', {
    params: { orden: 'nombre', dir: 'asc' },
    enabled: conProcesos,
    toOption: (p) => ({ value: String(p.id), label: p.activo === 0 ? `${p.nombre} (inactivo)` : p.nombre }),
  });
  const porId = useMemo(() => new Map(procesos.rows.map((p) => [String(p.id), p])), [procesos.rows]);
  const { filas, setFilas, cambiar, errores } = horas;
  const totalHoras = filas.reduce((s, f) => s + num(f.horas), 0n);
  const total = filas.reduce((s, f) => s + importeHora(f), 0n);
  const error = (i: number, campo: string) => errores[`horas.${i}.${campo}`] ?? erroresServidor[`horas.${i}.${campo}`];
  const nombre = (f: FilaHora) => porId.get(f.proceso_id)?.nombre ?? f.nombre ?? `Proceso ${f.proceso_id}`;

  const elegirProceso = (f: FilaHora, id: string) => {
    const p = porId.get(id);
    // A proceso's usual time (minutes) and its cost per hour are the row's defaults.
    cambiar(f.key, {
      proceso_id: id,
      ...(p ? { precio: BigInt(p.coste), ...(f.horas === null || f.horas === UNA_HORA ? { horas: p.tiempo > 0 ? divRound(BigInt(p.tiempo) * 1000n, 60n) : UNA_HORA } : {}) } : {}),
    });
  };

  return (
    <FormSection title="Horas" description="Tiempo dedicado a cada proceso, a su precio por hora (por defecto, el coste del proceso).">
      <StyledHoras>
        {readOnly ? (
          filas.length === 0 ? (
            <Muted>No hay horas anotadas.</Muted>
          ) : (
            <table aria-label="Horas del parte">
              <thead>
                <tr>
                  <th>Proceso</th>
                  <th className="num">Horas</th>
                  <th className="num">Precio por hora</th>
                  <th className="num">Importe</th>
                </tr>
              </thead>
              <tbody>
                {filas.map((f) => (
                  <tr key={f.key}>
                    <td>{nombre(f)}</td>
                    <td className="num">{horasTexto(num(f.horas))}</td>
                    <td className="num">{formatDecimal(num(f.precio), 4, 2)} €</td>
                    <td className="num">{formatMoney(importeHora(f))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        ) : (
          <>
            {!conProcesos && <Muted>Para anotar horas active el módulo «Procesos» en la configuración.</Muted>}
            {filas.map((f, i) => (
              <fieldset className="fila" aria-label={`Horas ${i + 1}`} key={f.key}>
                <SelectField
                  label="Proceso"
                  required
                  placeholder={procesos.loading ? 'Cargando…' : 'Seleccione…'}
                  options={procesos.options}
                  value={f.proceso_id}
                  error={error(i, 'proceso_id')}
                  onChange={(v) => elegirProceso(f, v)}
                />
                <DecimalField label="Horas" scale={3} minFraction={0} value={f.horas} error={error(i, 'horas')} onChange={(v) => cambiar(f.key, { horas: v })} />
                <DecimalField
                  label="Precio por hora"
                  scale={4}
                  minFraction={2}
                  suffix="€"
                  value={f.precio}
                  error={error(i, 'precio')}
                  onChange={(v) => cambiar(f.key, { precio: v })}
                />
                <div className="importe">
                  <span className="k">Importe</span>
                  {formatMoney(importeHora(f))}
                </div>
                <Button type="button" $variant="ghost" aria-label={`Quitar las horas ${i + 1}`} onClick={() => setFilas((fs) => fs.filter((x) => x.key !== f.key))}>
                  ✕
                </Button>
              </fieldset>
            ))}
            {conProcesos && (
              <div>
                <Button
                  type="button"
                  $variant="secondary"
                  $small
                  onClick={() => setFilas((fs) => [...fs, { key: nuevaClaveLinea(), proceso_id: '', horas: UNA_HORA, precio: 0n }])}
                >
                  Añadir horas
                </Button>
              </div>
            )}
          </>
        )}
        {filas.length > 0 && (
          <div className="total" role="status" aria-label="Total de horas">
            <span>
              Horas: <strong>{horasTexto(totalHoras)}</strong>
            </span>
            <span>
              Mano de obra: <strong>{formatMoney(total)}</strong>
            </span>
          </div>
        )}
      </StyledHoras>
    </FormSection>
  );
}
