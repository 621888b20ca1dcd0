import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import { Button, Card, formatDecimal, formatMonth, Muted, Spinner, useShell } from 'shared';
import { entero } from './formato';
import { anoAnterior, textoRango } from './periodo';
import type { Columna, Fila, Informe } from './tipos';

const GraficoImpl = lazy(() => import('./GraficoImpl'));

const StyledHead = styled.div`
  display: flex;
  justify-content: space-between;
  align-items: baseline;
  gap: 8px;
  flex-wrap: wrap;
  h2 { font-size: 16px; margin: 0; }
  .modos { display: flex; gap: 6px; border: 0; padding: 0; margin: 0; }
`;

const TOP = 10;
const REPARTO = 5;

/** Every month 'YYYY-MM' from desde to hasta. */
export function mesesEntre(desde: string, hasta: string): string[] {
  const out: string[] = [];
  let [y, m] = desde.slice(0, 7).split('-').map(Number);
  const [hy, hm] = hasta.slice(0, 7).split('-').map(Number);
  while ((y < hy || (y === hy && m <= hm)) && out.length < 120) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

const numero = (v: unknown) => Number(entero(v) ?? 0n);

export type GraficoProps = {
  def: Informe;
  /** The report's params now, without paging or sorting. */
  base: Record<string, string>;
  columna: Columna;
  /** Opens what a bar sums (the same as a click on its row). */
  abrir: (row: Fila) => void;
};

/**
 * The report's chart: grouped by month, each month against the same month of the year before; grouped by
 * anything else, the top ten as bars or the top five's share of the total. Its own requests (the same action,
 * sorted by the figure), so it never depends on the table's page.
 */
export function Grafico({ def, base, columna, abrir }: GraficoProps) {
  const { api } = useShell();
  const porMes = base.agrupar === 'mes' && !!base.desde && !!base.hasta;
  const [modo, setModo] = useState<'top' | 'reparto'>('top');
  const [datos, setDatos] = useState<{ actual: Fila[]; anterior: Fila[]; total: unknown } | null>(null);
  const [error, setError] = useState(false);
  const key = JSON.stringify(base);

  useEffect(() => {
    const base = JSON.parse(key) as Record<string, string>;
    let live = true;
    setDatos(null);
    setError(false);
    const pedir = async () => {
      if (porMes) {
        const previo = anoAnterior({ desde: base.desde, hasta: base.hasta });
        const [a, b] = await Promise.all([
          api.get<Fila>(def.ac, { ...base, porPagina: 100, pagina: 1 }),
          api.get<Fila>(def.ac, { ...base, ...previo, porPagina: 100, pagina: 1 }),
        ]);
        if (a.RESULT !== '0' || b.RESULT !== '0') throw new Error('grafico');
        return { actual: a.data ?? [], anterior: b.data ?? [], total: null };
      }
      const a = await api.get<Fila>(def.ac, { ...base, orden: columna.id, dir: 'desc', porPagina: TOP, pagina: 1 });
      if (a.RESULT !== '0') throw new Error('grafico');
      return { actual: a.data ?? [], anterior: [], total: (a as { totales?: Fila }).totales?.[columna.id] };
    };
    pedir()
      .then((d) => live && setDatos(d))
      .catch(() => live && setError(true));
    return () => {
      live = false;
    };
  }, [api, def.ac, key, porMes, columna.id]);

  const formato = useMemo(() => {
    if (columna.formato === 'dinero') return (v: number) => `${formatDecimal(Math.round(v), 2)} €`;
    if (columna.formato === 'cantidad') return (v: number) => formatDecimal(Math.round(v), 3, 0);
    return (v: number) => Math.round(v).toLocaleString('es-ES');
  }, [columna.formato]);

  let contenido = null;
  if (error) contenido = <Muted role="alert">No se ha podido cargar el gráfico.</Muted>;
  else if (!datos) contenido = <Spinner />;
  else if (porMes) {
    const meses = mesesEntre(base.desde, base.hasta);
    const de = (filas: Fila[], ym: string) => numero(filas.find((f) => String(f.clave ?? '').slice(0, 7) === ym)?.[columna.id]);
    const previos = meses.map((ym) => `${Number(ym.slice(0, 4)) - 1}${ym.slice(4)}`);
    contenido = (
      <GraficoImpl
        tipo="meses"
        categorias={meses.map(formatMonth)}
        series={[
          { name: textoRango({ desde: base.desde, hasta: base.hasta }), data: meses.map((ym) => de(datos.actual, ym)) },
          { name: 'Mismos meses del año anterior', data: previos.map((ym) => de(datos.anterior, ym)) },
        ]}
        formato={formato}
        onSelect={(i) => abrir({ clave: meses[i] })}
      />
    );
  } else if (modo === 'top') {
    contenido = (
      <GraficoImpl
        tipo="top"
        categorias={datos.actual.map((f) => String(f.nombre ?? f.clave ?? ''))}
        series={[{ name: columna.header, data: datos.actual.map((f) => numero(f[columna.id])) }]}
        formato={formato}
        onSelect={(i) => datos.actual[i] && abrir(datos.actual[i])}
      />
    );
  } else {
    const top = datos.actual.slice(0, REPARTO);
    const suma = top.reduce((s, f) => s + numero(f[columna.id]), 0);
    const resto = numero(datos.total) - suma;
    contenido = (
      <GraficoImpl
        tipo="reparto"
        categorias={[...top.map((f) => String(f.nombre ?? f.clave ?? '')), ...(resto > 0 ? ['Resto'] : [])]}
        series={[{ name: columna.header, data: [...top.map((f) => numero(f[columna.id])), ...(resto > 0 ? [resto] : [])] }]}
        formato={formato}
        onSelect={(i) => top[i] && abrir(top[i])}
      />
    );
  }

  const titulo = def.grafico?.titulo ?? columna.header;
  return (
    <Card style={{ marginBottom: 16 }} data-testid="grafico-informe">
      <StyledHead>
        <h2>{porMes ? `${titulo} por mes, frente al año anterior` : modo === 'top' ? `${titulo}: los ${TOP} primeros` : `${titulo}: reparto`}</h2>
        {!porMes && (
          <fieldset className="modos" aria-label="Tipo de gráfico">
            <Button type="button" $small $variant={modo === 'top' ? 'primary' : 'secondary'} aria-pressed={modo === 'top'} onClick={() => setModo('top')}>
              Primeros {TOP}
            </Button>
            <Button type="button" $small $variant={modo === 'reparto' ? 'primary' : 'secondary'} aria-pressed={modo === 'reparto'} onClick={() => setModo('reparto')}>
              Reparto
            </Button>
          </fieldset>
        )}
      </StyledHead>
      <Suspense fallback={<Spinner />}>{contenido}</Suspense>
    </Card>
  );
}
