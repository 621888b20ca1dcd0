import {
  Button,
  CheckboxListField,
  DecimalField,
  ErrorText,
  FormGrid,
  FormSection,
  Muted,
  SearchPicker,
  SelectField,
  formatDecimal,
  type SelectOption,
} from 'shared';
import { useRef } from 'react';
import styled from 'styled-components';
import { CIEN, sumaProporciones, type ComponenteValue, type Dec, type ProporcionValue } from './articuloForm';
import type { ArticuloFila } from './types';

const StyledRows = styled.div`
  display: flex;
  flex-direction: column;
  gap: 8px;
  margin-top: 12px;
  .row {
    display: grid;
    grid-template-columns: minmax(0, 1fr) 160px auto;
    gap: 8px 12px;
    align-items: end;
    padding: 8px 0;
    border-bottom: 1px solid ${({ theme }) => theme.gray[100]};
  }
  .name { font-size: 14px; align-self: center; }
  .name small { display: block; color: ${({ theme }) => theme.gray[500]}; }
  ${({ theme }) => theme.phone} {
    .row { grid-template-columns: minmax(0, 1fr) auto; }
    .row > :first-child { grid-column: 1 / -1; }
  }
`;

const StyledTotal = styled.p<{ $ok: boolean }>`
  margin: 12px 0 0;
  font-weight: 600;
  color: ${({ $ok, theme }) => ($ok ? theme.success : '#b45309')};
`;

export type VinculosSectionProps = {
  materiales: { on: boolean; options: SelectOption[]; value: string[]; error?: string | null };
  procesos: { on: boolean; options: SelectOption[]; value: string[]; error?: string | null };
  onMateriales: (v: string[]) => void;
  onProcesos: (v: string[]) => void;
};

/** The materials and processes linked to the article (flags materiales, procesos). */
export function VinculosSection({ materiales, procesos, onMateriales, onProcesos }: VinculosSectionProps) {
  return (
    <FormSection title={materiales.on && procesos.on ? 'Materiales y procesos' : materiales.on ? 'Materiales' : 'Procesos'}>
      <FormGrid $min="260px">
        {materiales.on && (
          <CheckboxListField
            label="Materiales"
            options={materiales.options}
            value={materiales.value}
            onChange={onMateriales}
            error={materiales.error ?? undefined}
            empty="No hay materiales: créelos en Materiales."
          />
        )}
        {procesos.on && (
          <CheckboxListField
            label="Procesos"
            options={procesos.options}
            value={procesos.value}
            onChange={onProcesos}
            error={procesos.error ?? undefined}
            empty="No hay procesos: créelos en Procesos."
          />
        )}
      </FormGrid>
    </FormSection>
  );
}

export type ComponentesSectionProps = {
  articuloId?: number;
  componentes: ComponenteValue[];
  error?: string;
  onChange: (list: ComponenteValue[]) => void;
};

/** A kit: the articles it is made of and how many of each (flag compuestos). */
export function ComponentesSection({ articuloId, componentes, error, onChange }: ComponentesSectionProps) {
  const add = (a: ArticuloFila) => onChange([...componentes, { componente_id: a.id, codigo: a.codigo, descripcion: a.descripcion, cantidad: 1000n }]);
  const update = (i: number, cantidad: Dec) => onChange(componentes.map((c, j) => (j === i ? { ...c, cantidad } : c)));
  const remove = (i: number) => onChange(componentes.filter((_, j) => j !== i));
  return (
    <FormSection
      title="Componentes del kit"
      description="Un artículo compuesto se vende como uno y descuenta el stock de sus componentes."
      aside={<Muted>{componentes.length} componentes</Muted>}
    >
      <SearchPicker<ArticuloFila>
        label="Añadir componente"
        ac="listadoarticulos"
        params={{ activo: 1 }}
        placeholder="Código, descripción o código de barras…"
        exclude={[...(articuloId ? [String(articuloId)] : []), ...componentes.map((c) => String(c.componente_id))]}
        toOption={(a) => ({ value: String(a.id), label: a.descripcion, detail: a.codigo })}
        onPick={add}
      />
      {componentes.length > 0 && (
        <StyledRows>
          {componentes.map((c, i) => (
            <div className="row" key={c.componente_id}>
              <span className="name">
                {c.descripcion}
                <small>{c.codigo}</small>
              </span>
              <DecimalField label={`Cantidad de ${c.codigo}`} scale={3} minFraction={0} value={c.cantidad} onChange={(v) => update(i, v)} />
              <Button type="button" $variant="ghost" $small onClick={() => remove(i)} aria-label={`Quitar ${c.codigo}`}>
                Quitar
              </Button>
            </div>
          ))}
        </StyledRows>
      )}
      {error && <ErrorText style={{ display: 'block', marginTop: 8 }}>{error}</ErrorText>}
    </FormSection>
  );
}

export type ProporcionesSectionProps = {
  proporciones: ProporcionValue[];
  materiales: SelectOption[];
  /** Materials can't be listed (the materiales flag is off). */
  materialesError?: string | null;
  error?: string;
  onChange: (list: ProporcionValue[]) => void;
};

let nextRowKey = 0;

/**
 * Keys for rows without an id of their own (a proportion's material may be unset, or repeated, while
 * editing): removing a row drops its key, so the rows after it keep theirs and the text typed in them.
 */
function useRowKeys(count: number) {
  const keys = useRef<number[]>([]);
  while (keys.current.length < count) keys.current.push(nextRowKey++);
  keys.current.length = count;
  return { keys: keys.current, drop: (i: number) => keys.current.splice(i, 1) };
}

/** What the article is made of, in material percentages summing 100 % (flag proporciones). */
export function ProporcionesSection({ proporciones, materiales, materialesError, error, onChange }: ProporcionesSectionProps) {
  const total = sumaProporciones(proporciones);
  const update = (i: number, patch: Partial<ProporcionValue>) => onChange(proporciones.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  const rows = useRowKeys(proporciones.length);
  const remove = (i: number) => {
    rows.drop(i);
    onChange(proporciones.filter((_, j) => j !== i));
  };
  const rest = total < CIEN ? CIEN - total : 0n;
  return (
    <FormSection title="Proporciones de materiales" description="La composición del artículo: los porcentajes deben sumar 100 %.">
      {materialesError && <Muted>No se pueden listar los materiales: active el módulo Materiales en la configuración.</Muted>}
      <StyledRows>
        {proporciones.map((p, i) => (
          <div className="row" key={rows.keys[i]}>
            <SelectField
              label={`Material ${i + 1}`}
              placeholder="Seleccione…"
              options={materiales}
              value={p.material_id}
              onChange={(v) => update(i, { material_id: v })}
            />
            <DecimalField label={`Porcentaje ${i + 1}`} scale={2} minFraction={0} suffix="%" value={p.porcentaje} onChange={(v) => update(i, { porcentaje: v })} />
            <Button type="button" $variant="ghost" $small onClick={() => remove(i)} aria-label={`Quitar proporción ${i + 1}`}>
              Quitar
            </Button>
          </div>
        ))}
      </StyledRows>
      <Button type="button" $variant="secondary" $small style={{ marginTop: 12 }} onClick={() => onChange([...proporciones, { material_id: '', porcentaje: rest }])}>
        Añadir material
      </Button>
      {proporciones.length > 0 && (
        <StyledTotal $ok={total === CIEN} aria-live="polite">
          Total: {formatDecimal(total, 2, 0)} %
          {total < CIEN && ` (faltan ${formatDecimal(CIEN - total, 2, 0)} %)`}
          {total > CIEN && ` (sobran ${formatDecimal(total - CIEN, 2, 0)} %)`}
        </StyledTotal>
      )}
      {error && (
        <ErrorText style={{ display: 'block', marginTop: 8 }}>{error}</ErrorText>
      )}
    </FormSection>
  );
}
