import { useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  Button,
  SearchPicker,
  SelectField,
  TextField,
  useAlmacenes,
  useListOptions,
  usePermisos,
  useShell,
  type Familia,
  type FlagName,
  type Serie,
  type Theme,
  type Usuario,
} from 'shared';
import { hoyMadrid, PERIODOS, periodoDe, rangoPeriodo } from './periodo';
import type { FiltroId, Informe, Opcion } from './tipos';

type T = { theme: Theme };

/** The param each filter sends, its label and what it needs on. */
export const FILTROS: Record<FiltroId, { param: string; label: string; flag?: FlagName }> = {
  almacen: { param: 'almacen_id', label: 'Almacén', flag: 'almacenes' },
  furgoneta: { param: 'almacen_id', label: 'Furgoneta', flag: 'furgonetas' },
  familia: { param: 'familia_id', label: 'Familia' },
  marca: { param: 'marca_id', label: 'Marca' },
  proveedor: { param: 'proveedor_id', label: 'Proveedor', flag: 'compras' },
  cliente: { param: 'cliente_id', label: 'Cliente', flag: 'ventas' },
  articulo: { param: 'articulo_id', label: 'Artículo' },
  serie: { param: 'serie_id', label: 'Serie' },
  terminal: { param: 'terminal_id', label: 'Terminal', flag: 'tpv' },
  usuario: { param: 'usuario_id', label: 'Usuario' },
  estado: { param: 'estado', label: 'Estado' },
  tipo: { param: 'tipo', label: 'Tipo' },
  causa: { param: 'causa', label: 'Tipo de movimiento' },
  clave: { param: 'clave', label: 'Clave' },
  dias: { param: 'dias', label: 'Sin movimiento desde (días)' },
};

/** The filters a report shows with these flags. */
export function filtrosVisibles(def: Informe, flags: Record<string, 0 | 1>): FiltroId[] {
  return def.filtros.filter((f) => {
    const flag = FILTROS[f].flag;
    return !flag || flags[flag] === 1;
  });
}

const StyledPeriodo = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  align-items: center;
  margin-bottom: 10px;
  .fechas { display: flex; gap: 8px; flex-wrap: wrap; }
  .fechas label { display: inline-flex; gap: 6px; align-items: center; font-size: 14px; color: ${({ theme }: T) => theme.gray[700]}; }
  .fechas input, .fechas select { font: inherit; padding: 6px 8px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; min-height: 36px; }
  ${({ theme }: T) => theme.phone} {
    .fechas { display: grid; grid-template-columns: 1fr 1fr; width: 100%; }
    .fechas label { flex-direction: column; align-items: stretch; gap: 2px; font-size: 13px; }
    .fechas input, .fechas select { width: 100%; box-sizing: border-box; }
    .rapidos { display: flex; gap: 6px; overflow-x: auto; width: 100%; padding-bottom: 2px; }
    .rapidos button { white-space: nowrap; }
  }
`;

export type PeriodoProps = { def: Informe; valores: Record<string, string>; cambiar: (c: Record<string, string | undefined>) => void };

/** The period: the quick choices (Europe/Madrid calendar) and the dates, or a single date for a stock. */
export function Periodo({ def, valores, cambiar }: PeriodoProps) {
  if (def.periodo === 'ninguno') return null;
  if (def.periodo === 'ejercicio') {
    const ano = Number(hoyMadrid().slice(0, 4));
    const anos = Array.from({ length: 8 }, (_, i) => String(ano - i));
    return (
      <StyledPeriodo role="group" aria-label="Ejercicio">
        <div className="fechas">
          <label>
            Ejercicio
            <select aria-label="Ejercicio" value={valores.ejercicio ?? ''} onChange={(e) => cambiar({ ejercicio: e.target.value })}>
              {anos.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </label>
        </div>
      </StyledPeriodo>
    );
  }
  if (def.periodo === 'fecha') {
    return (
      <StyledPeriodo role="group" aria-label="Fecha">
        <div className="fechas">
          <label>
            Stock a fecha
            <input type="date" aria-label="Stock a fecha" value={valores.fecha ?? ''} onChange={(e) => cambiar({ fecha: e.target.value })} />
          </label>
        </div>
      </StyledPeriodo>
    );
  }
  const activo = periodoDe({ desde: valores.desde ?? '', hasta: valores.hasta ?? '' });
  return (
    <StyledPeriodo role="group" aria-label="Periodo">
      <div className="rapidos">
        {PERIODOS.map((p) => (
          <Button key={p.id} type="button" $variant={activo === p.id ? 'primary' : 'secondary'} $small aria-pressed={activo === p.id} onClick={() => cambiar(rangoPeriodo(p.id))}>
            {p.label}
          </Button>
        ))}
      </div>
      <div className="fechas">
        <label>
          Desde
          <input type="date" aria-label="Desde" value={valores.desde ?? ''} max={valores.hasta || undefined} onChange={(e) => cambiar({ desde: e.target.value })} />
        </label>
        <label>
          Hasta
          <input type="date" aria-label="Hasta" value={valores.hasta ?? ''} min={valores.desde || undefined} onChange={(e) => cambiar({ hasta: e.target.value })} />
        </label>
      </div>
    </StyledPeriodo>
  );
}

const StyledChip = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  padding: 4px 4px 4px 10px;
  border-radius: 999px;
  background: ${({ theme }: T) => theme.primary[50]};
  border: 1px solid ${({ theme }: T) => theme.primary[200]};
  font-size: 14px;
  button { all: unset; cursor: pointer; width: 24px; height: 24px; display: grid; place-items: center; border-radius: 999px; }
  button:hover, button:focus-visible { background: ${({ theme }: T) => theme.primary[100]}; }
`;

type ConEtiqueta = { valor: string; onChange: (v: string) => void; onEtiqueta: (texto: string | null) => void };

/** A select read from a `listado<entidades>`; reports the chosen option's text (for the PDF and the chips). */
function ListaFiltro<R>({ label, ac, params, toOption, valor, onChange, onEtiqueta }: ConEtiqueta & { label: string; ac: string; params?: Record<string, string | number>; toOption: (r: R) => Opcion }) {
  const { options } = useListOptions<R>(ac, { params, toOption });
  const texto = options.find((o) => o.value === valor)?.label ?? null;
  useEffect(() => onEtiqueta(valor ? texto : null), [valor, texto, onEtiqueta]);
  return <SelectField label={label} value={valor} options={options} placeholder="Todos" onChange={onChange} />;
}

function AlmacenFiltro({ valor, onChange, onEtiqueta }: ConEtiqueta) {
  const { options } = useAlmacenes();
  const texto = options.find((o) => o.value === valor)?.label ?? null;
  useEffect(() => onEtiqueta(valor ? texto : null), [valor, texto, onEtiqueta]);
  return <SelectField label="Almacén" value={valor} options={options} placeholder="Todos" onChange={onChange} />;
}

type Tercero = { id: number; codigo?: string; nombre?: string; razon_social?: string; nombre_comercial?: string | null; descripcion?: string; nif?: string };
const nombreDe = (r: Tercero) => r.nombre_comercial || r.razon_social || r.descripcion || r.nombre || String(r.id);

/** A party or an article among thousands: searched as the user types; after a reload its name is read by id. */
function BuscarFiltro({ label, ac, valor, onChange, onEtiqueta }: ConEtiqueta & { label: string; ac: string }) {
  const { api } = useShell();
  const [nombre, setNombre] = useState<string | null>(null);
  useEffect(() => {
    if (!valor) {
      setNombre(null);
      return;
    }
    let live = true;
    api
      .get<Tercero>(ac, { id: valor })
      .then((res) => live && setNombre(res.data?.[0] ? nombreDe(res.data[0]) : `#${valor}`))
      .catch(() => live && setNombre(`#${valor}`));
    return () => {
      live = false;
    };
  }, [api, ac, valor]);
  useEffect(() => onEtiqueta(valor ? nombre : null), [valor, nombre, onEtiqueta]);
  if (valor) {
    return (
      <div>
        <div style={{ fontSize: 13, fontWeight: 600, marginBottom: 6 }}>{label}</div>
        <StyledChip>
          {nombre ?? '…'}
          <button type="button" aria-label={`Quitar ${label.toLowerCase()}`} onClick={() => onChange('')}>
            ×
          </button>
        </StyledChip>
      </div>
    );
  }
  return (
    <SearchPicker<Tercero>
      label={label}
      ac={ac}
      placeholder="Buscar…"
      toOption={(r) => ({ value: String(r.id), label: nombreDe(r), detail: [r.codigo, r.nif].filter(Boolean).join(' · ') })}
      onPick={(r) => {
        setNombre(nombreDe(r));
        onChange(String(r.id));
      }}
    />
  );
}

export type FiltroProps = { id: FiltroId; def: Informe; valor: string; onChange: (v: string) => void; onEtiqueta: (texto: string | null) => void };

/** One of a report's own filters, with the existing pickers. */
export function Filtro({ id, def, valor, onChange, onEtiqueta }: FiltroProps) {
  const common = { valor, onChange, onEtiqueta };
  switch (id) {
    case 'almacen':
      return <AlmacenFiltro {...common} />;
    case 'furgoneta':
      return <ListaFiltro<{ id: number; nombre: string }> label="Furgoneta" ac="listadoalmacenes" params={{ es_furgoneta: 1, orden: 'nombre' }} toOption={(a) => ({ value: String(a.id), label: a.nombre })} {...common} />;
    case 'familia':
      return <ListaFiltro<Familia> label="Familia" ac="listadofamilias" params={{ orden: 'nombre' }} toOption={(f) => ({ value: String(f.id), label: f.nombre })} {...common} />;
    case 'marca':
      return <ListaFiltro<Familia> label="Marca" ac="listadomarcas" params={{ orden: 'nombre' }} toOption={(f) => ({ value: String(f.id), label: f.nombre })} {...common} />;
    case 'serie':
      return <ListaFiltro<Serie> label="Serie" ac="listadoseries" toOption={(s) => ({ value: String(s.id), label: s.descripcion ? `${s.codigo} · ${s.descripcion}` : s.codigo })} {...common} />;
    case 'usuario':
      return <ListaFiltro<Usuario> label="Usuario" ac="listadousuarios" params={{ orden: 'nombre' }} toOption={(u) => ({ value: String(u.id), label: u.nombre })} {...common} />;
    case 'cliente':
      return <BuscarFiltro label="Cliente" ac="listadoclientes" {...common} />;
    case 'proveedor':
      return <BuscarFiltro label="Proveedor" ac="listadoproveedores" {...common} />;
    case 'articulo':
      return <BuscarFiltro label="Artículo" ac="listadoarticulos" {...common} />;
    case 'estado':
    case 'causa':
    case 'clave':
    case 'tipo': {
      const options = (id === 'estado' ? def.estados : def.tipos) ?? [];
      return <OpcionesFiltro label={FILTROS[id].label} options={options} {...common} />;
    }
    case 'terminal':
      return <TerminalFiltro {...common} />;
    case 'dias':
      return <NumeroFiltro label={FILTROS[id].label} {...common} />;
  }
}

/**
 * The till's terminals by name (`listadoterminales`); a role that can't list them (the server would answer 403), or a
 * list that fails to load, types the terminal's number instead.
 */
function TerminalFiltro(props: ConEtiqueta) {
  const { accion } = usePermisos();
  if (!accion('listadoterminales')) return <NumeroFiltro label="Terminal" {...props} />;
  return <TerminalLista {...props} />;
}

function TerminalLista({ valor, onChange, onEtiqueta }: ConEtiqueta) {
  const { options, error } = useListOptions<{ id: number; nombre: string }>('listadoterminales', { params: { orden: 'nombre' }, toOption: (t) => ({ value: String(t.id), label: t.nombre }) });
  const texto = options.find((o) => o.value === valor)?.label ?? null;
  useEffect(() => {
    if (!error) onEtiqueta(valor ? (texto ?? `Terminal ${valor}`) : null);
  }, [valor, texto, error, onEtiqueta]);
  if (error) return <NumeroFiltro label="Terminal" valor={valor} onChange={onChange} onEtiqueta={onEtiqueta} />;
  return <SelectField label="Terminal" value={valor} options={options} placeholder="Todos" onChange={onChange} />;
}

function OpcionesFiltro({ label, options, valor, onChange, onEtiqueta }: ConEtiqueta & { label: string; options: Opcion[] }) {
  const texto = options.find((o) => o.value === valor)?.label ?? null;
  useEffect(() => onEtiqueta(valor ? texto : null), [valor, texto, onEtiqueta]);
  return <SelectField label={label} value={valor} options={options} placeholder="Todos" onChange={onChange} />;
}

/** A whole number typed (a count of days; a terminal's number when the terminals can't be listed), applied when it is a number. */
function NumeroFiltro({ label, valor, onChange, onEtiqueta }: ConEtiqueta & { label: string }) {
  const [texto, setTexto] = useState(valor);
  useEffect(() => setTexto(valor), [valor]);
  useEffect(() => onEtiqueta(valor || null), [valor, onEtiqueta]);
  return (
    <TextField
      label={label}
      inputMode="numeric"
      value={texto}
      onChange={(v) => {
        const limpio = v.replace(/\D/g, '');
        setTexto(limpio);
        onChange(limpio);
      }}
    />
  );
}
