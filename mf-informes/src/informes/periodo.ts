/**
 * The period quick choices, computed on the calendar of Europe/Madrid: at 00:30 on 1 April in Madrid
 * «este mes» is April although UTC still says 31 March.
 */
export const PERIODOS = [
  { id: 'este-mes', label: 'Este mes' },
  { id: 'mes-pasado', label: 'Mes pasado' },
  { id: 'este-trimestre', label: 'Este trimestre' },
  { id: 'trimestre-pasado', label: 'Trimestre pasado' },
  { id: 'este-ano', label: 'Este año' },
  { id: 'ano-pasado', label: 'Año pasado' },
] as const;

export type PeriodoId = (typeof PERIODOS)[number]['id'];
export type Rango = { desde: string; hasta: string };

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
/** Days in month m (1-12) of year y. */
const diasDelMes = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Today's date in Madrid as YYYY-MM-DD. */
export function hoyMadrid(now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** From the first day of (y, m) to the last day of (y, m + meses - 1). */
function meses(y: number, m: number, n: number): Rango {
  const fin = new Date(Date.UTC(y, m - 1 + n - 1, 1));
  const fy = fin.getUTCFullYear();
  const fm = fin.getUTCMonth() + 1;
  return { desde: iso(y, m, 1), hasta: iso(fy, fm, diasDelMes(fy, fm)) };
}

export function rangoPeriodo(id: PeriodoId, now: Date = new Date()): Rango {
  const [y, m] = hoyMadrid(now).split('-').map(Number);
  const trimestre = Math.floor((m - 1) / 3) * 3 + 1;
  switch (id) {
    case 'este-mes':
      return meses(y, m, 1);
    case 'mes-pasado':
      return m === 1 ? meses(y - 1, 12, 1) : meses(y, m - 1, 1);
    case 'este-trimestre':
      return meses(y, trimestre, 3);
    case 'trimestre-pasado':
      return trimestre === 1 ? meses(y - 1, 10, 3) : meses(y, trimestre - 3, 3);
    case 'este-ano':
      return meses(y, 1, 12);
    case 'ano-pasado':
      return meses(y - 1, 1, 12);
  }
}

/** The quick choice a range is, if any (to mark its button). */
export function periodoDe(r: Rango, now: Date = new Date()): PeriodoId | null {
  return PERIODOS.find((p) => {
    const x = rangoPeriodo(p.id, now);
    return x.desde === r.desde && x.hasta === r.hasta;
  })?.id ?? null;
}

/** The whole month of 'YYYY-MM'. */
export function rangoMes(ym: string): Rango {
  const [y, m] = ym.split('-').map(Number);
  return meses(y, m, 1);
}

/** The same range one year earlier (29 February becomes 28). */
export function anoAnterior(r: Rango): Rango {
  const menos = (d: string) => {
    const [y, m, day] = d.split('-').map(Number);
    return iso(y - 1, m, Math.min(day, diasDelMes(y - 1, m)));
  };
  return { desde: menos(r.desde), hasta: menos(r.hasta) };
}

/** 'dd/mm/aaaa – dd/mm/aaaa' for a title or a printed filter. */
export function textoRango(r: Partial<Rango>): string {
  const f = (d?: string) => (d ? d.split('-').reverse().join('/') : '…');
  return `${f(r.desde)} – ${f(r.hasta)}`;
}
