import { useState } from 'react';
import { useLocation } from 'react-router';
import {
  Button,
  CAMPOS_PRECIO,
  CAMPO_PRECIO_LABEL,
  Callout,
  ConfirmDialog,
  DataTable,
  DecimalField,
  FormGrid,
  FormSection,
  Muted,
  PageHeader,
  REDONDEOS,
  REDONDEO_LABEL,
  SelectField,
  TextField,
  useAction,
  usePermisos,
  useShell,
  type CampoPrecio,
  type DataColumn,
  type Redondeo,
} from 'shared';
import styled from 'styled-components';
import { asBigInt, formatPrecio } from '../formato';
import { useFamilias, useMarcas, useSubfamilias } from '../opciones';
import type { Dec } from '../articulos/articuloForm';
import type { FiltroArticulos, SeleccionPrecios } from '../articulos/types';

type Modo = 'porcentaje' | 'importe';
type FilaPrevia = { id: number; codigo: string; descripcion: string; antes: number; despues: number };

const StyledModes = styled.div`
  display: flex;
  gap: 16px;
  flex-wrap: wrap;
  label { display: inline-flex; align-items: center; gap: 6px; cursor: pointer; min-height: 32px; font-size: 14px; }
`;

const PREVIEW_COLUMNS: DataColumn<FilaPrevia>[] = [
  { id: 'codigo', header: 'Código', cell: (r) => r.codigo },
  { id: 'descripcion', header: 'Descripción', cell: (r) => r.descripcion },
  { id: 'antes', header: 'Antes', align: 'right', cell: (r) => formatPrecio(r.antes) },
  { id: 'despues', header: 'Después', align: 'right', cell: (r) => <strong>{formatPrecio(r.despues)}</strong> },
  { id: 'diferencia', header: 'Diferencia', align: 'right', hideOnPhone: true, cell: (r) => formatPrecio(BigInt(r.despues) - BigInt(r.antes)) },
];

const ESTADOS = [
  { value: '1', label: 'Solo activos' },
  { value: '0', label: 'Solo inactivos' },
];

/** The server's filter: ids as numbers, empty values left out. */
function filtroBody(f: FiltroArticulos) {
  const out: Record<string, string | number> = {};
  if (f.q?.trim()) out.q = f.q.trim();
  for (const k of ['familia_id', 'subfamilia_id', 'marca_id', 'activo'] as const) if (f[k]) out[k] = Number(f[k]);
  return out;
}

/** /catalogo/cambio-precios: raise or lower a price of many articles at once, previewed, in one transaction. */
export function CambioPreciosPage() {
  const location = useLocation();
  const initial = (location.state ?? null) as SeleccionPrecios | null;
  const { flags } = useShell();
  const { run, busy } = useAction();
  const [ids, setIds] = useState<number[] | null>(initial && 'ids' in initial && initial.ids.length ? initial.ids : null);
  const [filtro, setFiltroState] = useState<FiltroArticulos>(initial && 'filtro' in initial ? initial.filtro : { activo: '1' });
  const [campo, setCampoState] = useState<CampoPrecio>('precio_venta');
  const [modo, setModoState] = useState<Modo>('porcentaje');
  const [valor, setValorState] = useState<Dec>(null);
  const [redondeo, setRedondeoState] = useState<Redondeo>('ninguno');
  const [valorError, setValorError] = useState<string | undefined>();
  const [preview, setPreview] = useState<{ rows: FilaPrevia[]; total: number } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<number | null>(null);

  const familias = useFamilias();
  const subfamilias = useSubfamilias(filtro.familia_id, !!filtro.familia_id);
  const marcas = useMarcas();

  // Any change makes the preview stale: it must be seen again before applying.
  const changed = <T,>(setter: (v: T) => void) => (v: T) => {
    setter(v);
    setPreview(null);
    setDone(null);
  };
  const setFiltro = changed((f: FiltroArticulos) => setFiltroState(f));
  const setCampo = changed((c: CampoPrecio) => setCampoState(c));
  const setModo = changed((m: Modo) => {
    setModoState(m);
    setValorState(null);
  });
  const setValor = changed((v: Dec) => {
    setValorState(v);
    setValorError(undefined);
  });
  const setRedondeo = changed((r: Redondeo) => setRedondeoState(r));

  // Purchase prices are costs: only for a role that sees them.
  const costes = usePermisos().tiene('ver_costes');
  const campos = CAMPOS_PRECIO.filter((c) =>
    c === 'tarifa_2' ? flags.tarifa_2 === 1 : c === 'tarifa_3' ? flags.tarifa_3 === 1 : c === 'precio_compra' ? costes : true,
  );

  const body = (aplicar: 0 | 1) => ({
    ...(ids ? { ids } : { filtro: filtroBody(filtro) }),
    campo,
    modo,
    valor: Number(asBigInt(valor) ?? 0n),
    redondeo,
    aplicar,
  });

  const handlePreview = async () => {
    const v = asBigInt(valor);
    if (v === null || v === 0n) {
      setValorError(typeof valor === 'string' ? 'Debe ser un número válido' : 'Indique un valor distinto de cero');
      return;
    }
    const outcome = await run<FilaPrevia>('cambiarprecios', body(0), { quiet: true });
    if (outcome.ok) setPreview({ rows: outcome.data, total: outcome.response.total ?? outcome.data.length });
  };

  const handleApply = async () => {
    const outcome = await run<{ actualizados: number }>('cambiarprecios', body(1));
    setConfirming(false);
    if (outcome.ok) {
      setDone(outcome.data[0]?.actualizados ?? preview?.total ?? 0);
      setPreview(null);
    }
  };

  const valorLabel = modo === 'porcentaje' ? 'Porcentaje a aplicar' : 'Importe a aplicar';
  const etiqueta = CAMPO_PRECIO_LABEL[campo].toLowerCase();

  return (
    <>
      <PageHeader
        title="Cambio de precios"
        description="Suba o baje un precio de muchos artículos a la vez: primero la vista previa, después se aplica todo de una vez."
      />
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        <FormSection title="Artículos">
          {ids ? (
            <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
              <span>
                <strong>{ids.length.toLocaleString('es-ES')}</strong> artículo{ids.length === 1 ? '' : 's'} seleccionado{ids.length === 1 ? '' : 's'} en el listado.
              </span>
              <Button type="button" $variant="secondary" $small onClick={() => changed(setIds)(null)}>
                Elegir por filtro
              </Button>
            </div>
          ) : (
            <FormGrid $min="180px">
              <TextField label="Buscar" type="search" placeholder="Código, descripción…" value={filtro.q ?? ''} onChange={(q) => setFiltro({ ...filtro, q })} />
              <SelectField
                label="Familia"
                placeholder="Todas"
                options={familias.options}
                value={filtro.familia_id ?? ''}
                onChange={(v) => setFiltro({ ...filtro, familia_id: v, subfamilia_id: '' })}
              />
              <SelectField
                label="Subfamilia"
                placeholder="Todas"
                disabled={!filtro.familia_id}
                options={filtro.familia_id ? subfamilias.options : []}
                value={filtro.subfamilia_id ?? ''}
                onChange={(v) => setFiltro({ ...filtro, subfamilia_id: v })}
              />
              <SelectField label="Marca" placeholder="Todas" options={marcas.options} value={filtro.marca_id ?? ''} onChange={(v) => setFiltro({ ...filtro, marca_id: v })} />
              <SelectField label="Estado" placeholder="Activos e inactivos" options={ESTADOS} value={filtro.activo ?? ''} onChange={(v) => setFiltro({ ...filtro, activo: v })} />
            </FormGrid>
          )}
        </FormSection>

        <FormSection title="Cambio">
          <FormGrid $min="240px">
            <SelectField
              label="Precio que cambia"
              required
              options={campos.map((c) => ({ value: c, label: CAMPO_PRECIO_LABEL[c] }))}
              value={campo}
              onChange={(v) => setCampo(v as CampoPrecio)}
            />
            <div role="radiogroup" aria-label="Tipo de cambio">
              <Muted style={{ fontSize: 13, fontWeight: 600, marginBottom: 4 }}>Tipo de cambio</Muted>
              <StyledModes>
                <label>
                  <input type="radio" name="modo" checked={modo === 'porcentaje'} onChange={() => setModo('porcentaje')} />
                  Porcentaje
                </label>
                <label>
                  <input type="radio" name="modo" checked={modo === 'importe'} onChange={() => setModo('importe')} />
                  Importe
                </label>
              </StyledModes>
            </div>
            <DecimalField
              key={modo}
              label={valorLabel}
              required
              allowNegative
              scale={modo === 'porcentaje' ? 2 : 4}
              minFraction={0}
              suffix={modo === 'porcentaje' ? '%' : '€'}
              hint={modo === 'porcentaje' ? 'Positivo sube, negativo baja (-5 = 5 % menos)' : 'Positivo suma, negativo resta (-0,50)'}
              value={valor}
              error={valorError}
              onChange={setValor}
            />
            <SelectField
              label="Redondeo"
              options={REDONDEOS.map((r) => ({ value: r, label: REDONDEO_LABEL[r] }))}
              value={redondeo}
              onChange={(v) => setRedondeo(v as Redondeo)}
            />
          </FormGrid>
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginTop: 16 }}>
            <Button type="button" $variant="secondary" onClick={() => void handlePreview()} disabled={busy}>
              Vista previa
            </Button>
            <Button type="button" onClick={() => setConfirming(true)} disabled={busy || !preview || preview.total === 0}>
              Aplicar cambio
            </Button>
          </div>
        </FormSection>

        {done !== null && (
          <Callout role="status">
            <p>
              Se ha cambiado el {etiqueta} de {done.toLocaleString('es-ES')} artículo{done === 1 ? '' : 's'}.
            </p>
          </Callout>
        )}

        {preview && (
          <FormSection
            title="Vista previa"
            description={
              preview.total === 0
                ? 'Ningún artículo cumple la selección.'
                : `Cambiará el ${etiqueta} de ${preview.total.toLocaleString('es-ES')} artículo${preview.total === 1 ? '' : 's'}${preview.total > preview.rows.length ? `; se muestran los ${preview.rows.length} primeros` : ''}.`
            }
          >
            {preview.rows.length > 0 && <DataTable columns={PREVIEW_COLUMNS} rows={preview.rows} rowKey={(r) => r.id} caption="Vista previa del cambio de precios" />}
          </FormSection>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Aplicar el cambio de precios"
        text={`Se cambiará el ${etiqueta} de ${(preview?.total ?? 0).toLocaleString('es-ES')} artículos, todos a la vez. Para deshacerlo habrá que hacer el cambio contrario.`}
        confirmLabel="Aplicar"
        busy={busy}
        onConfirm={() => void handleApply()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
