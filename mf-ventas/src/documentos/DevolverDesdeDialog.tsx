import { useId, useRef, useState } from 'react';
import {
  Button,
  DOCUMENTO_TIPOS,
  DevolverDialog,
  LineasDialogBackdrop,
  LineasDialogBox,
  SearchPicker,
  SelectField,
  useLineasDialogTeclado,
  formatDate,
  formatMoney,
  useShell,
  type Documento,
  type DocumentoFila,
} from 'shared';

type Origen = 'albaranventa' | 'factura';

/**
 * «Desde un albarán o una factura…» on a new devolución de venta: find the albarán (or the emitted invoice)
 * the goods were sold with, by number or customer, then choose its lines in the return dialog; the devolución
 * is created from them (each line linked to the one it returns).
 */
export function DevolverDesdeDialog({ clienteId, onCancel, onCreated }: { clienteId: string; onCancel: () => void; onCreated: (d: Documento) => void }) {
  const { api, flags, toast } = useShell();
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const tipos: Origen[] = flags.ventas_facturas === 1 ? ['albaranventa', 'factura'] : ['albaranventa'];
  const [tipo, setTipo] = useState<Origen>('albaranventa');
  const [origen, setOrigen] = useState<Documento | null>(null);
  const def = DOCUMENTO_TIPOS[tipo];

  // Once the document is chosen, the return dialog takes the keyboard.
  useLineasDialogTeclado(cancelRef, onCancel, origen !== null);

  const elegir = async (fila: DocumentoFila) => {
    try {
      const res = await api.get<Documento>(`listado${def.plural}`, { id: fila.id });
      if (res.RESULT === '0' && res.data?.[0]) setOrigen(res.data[0]);
      else toast.error(res.message);
    } catch {
      toast.error();
    }
  };

  if (origen) return <DevolverDialog origen={origen} devolucion={DOCUMENTO_TIPOS.devolucionventa} onCancel={onCancel} onCreated={onCreated} />;

  return (
    <LineasDialogBackdrop onClick={onCancel}>
      <LineasDialogBox role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>Devolución desde un documento</h2>
        <p>Busque el documento con el que se vendió la mercancía; después elija las líneas y cantidades que vuelven.</p>
        {tipos.length > 1 && (
          <SelectField
            label="Documento"
            options={tipos.map((t) => ({ value: t, label: DOCUMENTO_TIPOS[t].singular }))}
            value={tipo}
            onChange={(v) => setTipo(v as Origen)}
          />
        )}
        <SearchPicker<DocumentoFila>
          key={tipo}
          label={`Buscar ${def.singular.toLowerCase()}`}
          ac={`listado${def.plural}`}
          // Only what can be returned: a delivered albarán, an emitted invoice; of the customer when one is chosen.
          params={{ ...(clienteId ? { cliente_id: clienteId } : {}), ...(tipo === 'factura' ? { estado: 'emitida' } : {}) }}
          placeholder="Número, cliente u observaciones…"
          toOption={(d) => ({
            value: String(d.id),
            label: d.numero,
            detail: [formatDate(d.fecha), d.cliente_nombre, formatMoney(d.total ?? 0)].filter(Boolean).join(' · '),
          })}
          onPick={(d) => void elegir(d)}
        />
        <div className="actions">
          <Button ref={cancelRef} type="button" $variant="secondary" onClick={onCancel}>
            Cancelar
          </Button>
        </div>
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
